"""hippocampus: a brain-shaped memory for OpenClaw agents (shared core)."""

from .installation.bootstrap import use_skill_venv as _use_skill_venv

__version__ = "1.0.0"

# Before any module that needs the packages is imported: switch to the skill's virtual environment if need be.
_use_skill_venv()
