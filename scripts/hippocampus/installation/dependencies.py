"""Getting the runtime packages onto a machine: user site, or a virtual environment inside the skill folder.

Standard library only: this runs when the packages are not there yet.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from .bootstrap import missing_modules, running_in, venv_dir, venv_python


@dataclass
class Outcome:
    """What the dependency step did: a sentence for people, and the interpreter to restart with (if any)."""

    message: str
    ok: bool = True
    restart_with: Path | None = None


def externally_managed() -> bool:
    """True for a Python whose distribution forbids pip installs into it (PEP 668), outside a virtual environment."""
    if sys.prefix != sys.base_prefix:
        return False
    marker = Path(sysconfig.get_path("stdlib")) / "EXTERNALLY-MANAGED"
    return marker.exists()


def has_pip(python: str) -> bool:
    probe = subprocess.run([python, "-m", "pip", "--version"], capture_output=True, text=True)
    return probe.returncode == 0


def _tail(process: subprocess.CompletedProcess) -> str:
    lines = (process.stderr or process.stdout or "").strip().splitlines()
    return lines[-1] if lines else f"exit {process.returncode}"


def ensure(root: Path, dry_run: bool = False) -> Outcome:
    """Make yaml, jsonlines, dateutil, jinja2 and (before Python 3.14) backports.zstd importable for the scripts."""
    missing = missing_modules(everything=True)
    where = "the skill's virtual environment" if running_in(venv_dir(root)) else sys.executable
    if not missing:
        return Outcome(f"Python packages: already importable with {where}; nothing to install")
    requirements = root / "requirements.txt"
    names = ", ".join(missing)
    in_venv = sys.prefix != sys.base_prefix
    if in_venv:
        command = [sys.executable, "-m", "pip", "install", "-r", str(requirements)]
        plan = f"install them into the running virtual environment ({sys.prefix})"
    elif externally_managed() or not has_pip(sys.executable):
        command = None
        plan = f"create a virtual environment at {venv_dir(root)} and install them there"
    else:
        command = [sys.executable, "-m", "pip", "install", "--user", "-r", str(requirements)]
        plan = "install them for this user (pip --user)"
    if dry_run:
        return Outcome(f"Python packages: {names} missing; would {plan}")

    if command is not None:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode == 0:
            return Outcome(f"Python packages: installed {names} ({plan})", restart_with=Path(sys.executable))
        if in_venv:
            return Outcome(f"Python packages: pip could not install {names}: {_tail(done)}", ok=False)
        # pip --user refused (PEP 668 without the marker file, no write access, …): use a private environment.
    return _into_venv(root, names)


def _into_venv(root: Path, names: str) -> Outcome:
    target = venv_dir(root)
    python = venv_python(root)
    if not python.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(target)], capture_output=True, text=True)
        if made.returncode != 0 or not python.exists():
            return Outcome(
                f"Python packages: could not create a virtual environment at {target} ({_tail(made)}); "
                "install the venv module (Debian/Ubuntu: `apt-get install python3-venv`) or the packages "
                f"{names} yourself, then run install.py again",
                ok=False,
            )
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-r", str(root / "requirements.txt")], capture_output=True, text=True
    )
    if done.returncode != 0:
        return Outcome(f"Python packages: pip could not install {names} into {target}: {_tail(done)}", ok=False)
    return Outcome(
        f"Python packages: this Python is managed by the system, so {names} went into a virtual "
        f"environment at {target}; every script uses it automatically",
        restart_with=python,
    )
