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

SKILL_ROOT = Path(__file__).resolve().parents[3]  # installation/ → hippocampus/ → scripts/ → the skill
REQUIRED = ("yaml", "jsonlines", "dateutil", "jinja2")
# zstd, for the compressed transcript rows of OpenClaw 2026.9 and later: in the standard library from Python 3.14,
# else the backports.zstd package. Without it the scripts still run, and say which messages they could not read.
ZSTD = "compression.zstd" if sys.version_info >= (3, 14) else "backports.zstd"
GUARD = "HIPPOCAMPUS_VENV_REEXEC"


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # a parent package (`backports`) that is not there
        return False


def missing_modules(everything: bool = False) -> list[str]:
    """The required modules this interpreter cannot import (`everything`: zstd too)."""
    wanted = (*REQUIRED, ZSTD) if everything else REQUIRED
    return [name for name in wanted if not _importable(name)]


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
    if not missing_modules(everything=True):
        return
    python = venv_python(root)
    if not os.environ.get(GUARD) and python.exists() and not running_in(venv_dir(root)):
        os.environ[GUARD] = "1"
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(str(python), relaunch_argv(python))
    missing = missing_modules()
    if missing and program.parent == root / "scripts":
        # A script cannot work without them; say how to get them instead of a traceback.
        print(
            f"error: the Python packages {', '.join(missing)} are missing; run `python3 {root / 'install.py'}` "
            "(it installs them, in a virtual environment if this Python is managed by the system)",
            file=sys.stderr,
        )
        sys.exit(1)
