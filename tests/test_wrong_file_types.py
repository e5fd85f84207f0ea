"""A file of the workspace that is a folder (memory/touches.jsonl, signals.jsonl, brain-events.jsonl), or a folder
that is a file (memory/consolidation), made or moved there by hand. Every script that needs it gives one `error:`
line naming it (exit 1, no traceback) before it changes anything: the stored memories stay byte for byte. Every other
script runs as usual; recall and load_core answer, recall warning when it cannot record its access."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import NOW, memory, run_script, write_index
from installing import Machine
from transcript_fixtures import Session, day

# What each wrong one is, and the scripts that need it (every other one must run as usual).
CASES = {
    "touches.jsonl": ("folder", {"encode", "decay", "sync_core", "consolidate", "install"}),
    "signals.jsonl": ("folder", {"preprocess", "encode"}),
    "brain-events.jsonl": (
        "folder",
        {"preprocess", "encode", "decay", "sync_core", "dashboard", "log_event", "consolidate", "install"},
    ),
    "consolidation": ("file", {"consolidate"}),
}
SCRIPTS = [
    ("preprocess", "--sessions"),
    ("encode", "--sessions"),
    ("decay",),
    ("recall", "oat milk"),
    ("load_core",),
    ("sync_core",),
    ("dashboard",),
    ("log_event", "x", "n=1"),
    ("consolidate",),
    ("reflect",),
]


def workspace_with(base: Path, wrong: str) -> Path:
    """A workspace holding memories, a transcript to read, and `wrong` as the wrong kind of file."""
    ws = base / "workspace"
    memories = [
        memory(f"mem_{n:03d}", f"User takes coffee number {n} with oat milk", 0.8 + n / 100, lastAccessed=NOW)
        for n in range(8)
    ]
    write_index(ws, memories, version=2, lastUpdated="2026-02-01T00:00:00Z")
    session = Session("wrongkind-0001-4000-8000-000000000001", day(20))
    session.user("Remember that the blue bike lock code is 4471")
    session.write(base / "sessions")
    path = ws / "memory" / wrong
    if CASES[wrong][0] == "folder":
        path.mkdir()
        (path / "kept.txt").write_text("what the user keeps here")
    else:
        path.write_text("a file where a folder belongs")
    return ws


def one_error_line(done: subprocess.CompletedProcess, about: Path) -> None:
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and str(about) in lines[0], done.stderr


@pytest.mark.parametrize("wrong", sorted(CASES))
def test_a_file_of_the_wrong_kind_is_one_error_line_from_every_script_that_needs_it(tmp_path, wrong):
    kind, needing = CASES[wrong]
    ws = workspace_with(tmp_path, wrong)
    index = ws / "memory" / "index.json"
    for name, *args in SCRIPTS:
        if args == ["--sessions"]:
            args = ["--sessions", str(tmp_path / "sessions")]
        before = index.read_bytes()
        done = run_script(name, *args, ws=ws, now=NOW)
        if name in needing:
            one_error_line(done, ws / "memory" / wrong)
            assert index.read_bytes() == before, name
        else:
            assert done.returncode == 0 and "Traceback" not in done.stderr, (name, done.stderr)
        if name == "recall":
            assert "oat milk" in done.stdout
            warned = [line for line in done.stderr.splitlines() if line.strip()]
            assert warned == ([] if wrong != "touches.jsonl" else [warned[0]]) and all(
                line.startswith("warning: ") and "touches.jsonl" in line for line in warned
            ), done.stderr
        if name == "load_core":
            assert "oat milk" in done.stdout and not done.stderr
    assert (ws / "memory" / wrong).is_dir() == (kind == "folder")  # left as it was found, for the user to move


@pytest.mark.parametrize("wrong", sorted(CASES))
def test_install_says_in_one_line_when_a_file_of_the_workspace_is_of_the_wrong_kind(tmp_path, wrong):
    machine = Machine(tmp_path)
    workspace_with(machine.state, wrong)  # the workspace the installer finds: <state>/workspace
    index = machine.workspace / "memory" / "index.json"
    before = index.read_bytes()
    done = machine.install("--workspace", str(machine.workspace), "--now", NOW)
    if "install" in CASES[wrong][1]:
        one_error_line(done, machine.workspace / "memory" / wrong)
        assert index.read_bytes() == before
    else:
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
