"""Start the scripts with the skill's own virtual environment when the Python that started them lacks the packages.

Standard library only: this runs before anything that needs the packages is imported. It acts only for files of the
skill run as programs (never for an import from elsewhere, such as a test run), does nothing when the packages import
fine, and re-executes at most once (an environment flag guards against loops).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

SKILL_ROOT = Path(__file__).resolve().parent.parent.parent
REQUIRED = ("yaml", "jsonlines", "dateutil", "jinja2")
GUARD = "HIPPOCAMPUS_VENV_REEXEC"


def missing_modules() -> list[str]:
    """The required top-level modules this interpreter cannot import."""
    return [name for name in REQUIRED if importlib.util.find_spec(name) is None]


def venv_dir(root: Path = SKILL_ROOT) -> Path:
    return root / ".venv"


def venv_python(root: Path = SKILL_ROOT) -> Path:
    return venv_dir(root) / "bin" / "python3"


def running_in(venv: Path) -> bool:
    try:
        return Path(sys.prefix).resolve() == venv.resolve()
    except OSError:
        return False


def launched_program(root: Path = SKILL_ROOT) -> Path | None:
    """The skill file this process was started as (a script or install.py), or None for anything else."""
    main = sys.modules.get("__main__")
    name = getattr(main, "__file__", None)
    if not name:
        return None
    path = Path(name).resolve()
    try:
        path.relative_to(root)
    except ValueError:
        return None
    return path


def relaunch_argv(python: Path) -> list[str]:
    """The same command line under another interpreter: flags such as -P, the script and its arguments, unchanged."""
    original = getattr(sys, "orig_argv", None)
    if original:
        return [str(python), *original[1:]]
    return [str(python), *sys.argv]


def use_skill_venv(root: Path = SKILL_ROOT) -> None:
    """Re-execute this program with <skill>/.venv when the packages are missing here and that venv exists."""
    program = launched_program(root)
    if program is None:
        return
    missing = missing_modules()
    if not missing:
        return
    python = venv_python(root)
    if not os.environ.get(GUARD) and python.exists() and not running_in(venv_dir(root)):
        os.environ[GUARD] = "1"
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(str(python), relaunch_argv(python))
    if program.parent == root / "scripts":
        # A script cannot work without them; say how to get them instead of a traceback.
        print(f"error: the Python packages {', '.join(missing)} are missing; run `python3 {root / 'install.py'}` "
              "(it installs them, in a virtual environment if this Python is managed by the system)",
              file=sys.stderr)
        sys.exit(1)
