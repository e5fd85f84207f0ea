"""Shared fixtures: real workspaces in tmp_path, a fixed clock, and scripts run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS))

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
) -> subprocess.CompletedProcess:
    """Run scripts/<name>.py in a subprocess as a user would; returns the finished process (never raises)."""
    options = []
    if ws is not None:
        options += ["--workspace", str(ws)]
    if now is not None:
        options += ["--now", now]
    args = list(args)
    split = args.index("--") if "--" in args else len(args)  # options must come before a `--`
    command = [sys.executable, *python_flags, str(SCRIPTS / f"{name}.py"), *args[:split], *options, *args[split:]]
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("WORKSPACE", "OPENCLAW", "HIPPOCAMPUS"))}
    environment.update(env or {})
    return subprocess.run(
        command, capture_output=True, text=True, cwd=cwd or ROOT, env=environment, input=stdin, timeout=timeout
    )
