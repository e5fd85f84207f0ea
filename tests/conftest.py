"""Shared fixtures: real workspaces in tmp_path, a fixed clock, and scripts run as a user runs them."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS))

from hippocampus import cli  # noqa: E402

NOW = "2026-03-01T12:00:00Z"


@pytest.fixture
def workspace(tmp_path) -> Path:
    """An empty OpenClaw workspace with a memory/ folder."""
    ws = tmp_path / "workspace"
    (ws / "memory").mkdir(parents=True)
    return ws


def write_index(ws: Path, memories: list[dict], **meta) -> Path:
    """Write memory/index.json as the old skill (version 1) or we would; returns its path."""
    data = {"version": meta.pop("version", 1), **meta, "memories": memories}
    path = ws / "memory" / "index.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def read_index(ws: Path) -> dict:
    return json.loads((ws / "memory" / "index.json").read_text(encoding="utf-8"))


def memory(mid: str, content: str, importance: float = 0.8, **fields) -> dict:
    """A stored memory in the old skill's shape."""
    out = {
        "id": mid,
        "domain": "user",
        "category": "general",
        "content": content,
        "importance": importance,
        "created": "2026-02-01",
        "lastAccessed": "2026-02-01",
        "timesReinforced": 0,
        "keywords": [],
    }
    out.update(fields)
    return out


def run_script(
    name: str,
    *args: str,
    ws: Path | None = None,
    now: str | None = NOW,
    env: dict | None = None,
    cwd: Path | None = None,
    python_flags: tuple = (),
    stdin: str | None = None,
    timeout: float = 120,
    spawn: bool = False,
) -> subprocess.CompletedProcess:
    """Run scripts/<name>.py as a user would and return how it finished (never raises): its command called in this
    process with the same arguments and environment, or — with `spawn`, `python_flags`, `cwd` or `stdin`, where
    the process is the point — the script itself in a new process."""
    options = []
    if ws is not None:
        options += ["--workspace", str(ws)]
    if now is not None:
        options += ["--now", now]
    args = list(args)
    split = args.index("--") if "--" in args else len(args)  # options must come before a `--`
    argv = [*args[:split], *options, *args[split:]]
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("WORKSPACE", "OPENCLAW", "HIPPOCAMPUS"))}
    environment.update(env or {})
    if spawn or python_flags or cwd is not None or stdin is not None:
        command = [sys.executable, *python_flags, str(SCRIPTS / f"{name}.py"), *argv]
        return subprocess.run(
            command, capture_output=True, text=True, cwd=cwd or ROOT, env=environment, input=stdin, timeout=timeout
        )
    return call_command(name, argv, environment)


def call_command(name: str, argv: list[str], environment: dict) -> subprocess.CompletedProcess:
    """Call hippocampus.commands.<name>.main(argv) in this process, in `environment`, capturing what it prints."""
    module = importlib.import_module(f"hippocampus.commands.{name}")
    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(environment)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.call(module.main, argv)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess([f"{name}.py", *argv], code, out.getvalue(), err.getvalue())
