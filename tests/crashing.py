"""Run a script and SIGKILL it at its n-th write: every os.write, os.fsync and os.replace the script makes, and every
commit of the ingest ledger, is a numbered point. `count` mode runs the script whole and reports how many points it
passed; a kill point may also tear its write (half the bytes written, then the kill) or land between a temporary
file's fsync and its rename. Nothing in the product knows about this: the driver wraps the calls from outside."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"

DRIVER = r"""
import atexit, json, os, runpy, signal, sys
mode, target, report, script, *argv = sys.argv[1:]
target = int(target)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(script))), "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
passed = []

def point(name, torn=None):
    passed.append(name)
    if mode != "count" and len(passed) == target:
        if torn is not None:
            torn()
        with open(report, "w") as f:
            f.write(name)
        os.kill(os.getpid(), signal.SIGKILL)

real_write, real_fsync, real_replace = os.write, os.fsync, os.replace

def write(fd, data):
    def half():
        if mode == "torn" and len(data) > 1:
            real_write(fd, bytes(data[: len(data) // 2]))
    if fd > 2:
        point("write", half)
    return real_write(fd, data)

def fsync(fd):
    point("fsync")
    return real_fsync(fd)

def replace(src, dst, *a, **k):
    point("replace " + os.path.basename(str(dst)))
    return real_replace(src, dst, *a, **k)

os.write, os.fsync, os.replace = write, fsync, replace

def wrap_ledger():
    try:
        from hippocampus.ingestion import ledger
    except ImportError:
        return
    for name in ("commit", "note_encoded"):
        real = getattr(ledger.Ledger, name)
        def wrapped(self, *a, _real=real, _name=name, **k):
            point("ledger " + _name)
            return _real(self, *a, **k)
        setattr(ledger.Ledger, name, wrapped)

wrap_ledger()
if mode == "count":
    atexit.register(lambda: open(report, "w").write(json.dumps(passed)))
sys.argv = [script, *argv]
runpy.run_path(script, run_name="__main__")
"""


def driver(tmp_path: Path) -> Path:
    path = tmp_path / "crash_driver.py"
    if not path.exists():
        path.write_text(DRIVER)
    return path


def run(
    tmp_path: Path, mode: str, point: int, script: Path, *args: str, env: dict | None = None, cwd: Path | None = None
) -> tuple[subprocess.CompletedProcess, str]:
    """Run `script` under the driver; returns the process and the report (the points passed, or where it died)."""
    report = tmp_path / "crash_report.txt"
    report.unlink(missing_ok=True)
    command = [sys.executable, str(driver(tmp_path)), mode, str(point), str(report), str(script), *args]
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd or ROOT, env=env, timeout=120)
    return done, report.read_text() if report.exists() else ""


def points(tmp_path: Path, script: Path, *args: str, env: dict | None = None, cwd: Path | None = None) -> list[str]:
    """The numbered write points of one whole run (the run's effects are real: use a scratch copy)."""
    done, report = run(tmp_path, "count", 0, script, *args, env=env, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(report)
