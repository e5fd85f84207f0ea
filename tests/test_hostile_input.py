"""Hostile and broken input: transcript lines of every shape, SQLite stores of unexpected schemas, index files
truncated or edited by hand, queries and event values of any text, IDENTITY.md with hostile values, pending and
decision files from a confused LLM. Each gets a one-line error or a counted skip, never a traceback, and the stored
memories stay byte for byte as they were."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from conftest import NOW, memory, read_index, run_script, write_index
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability import memories_of

from hippocampus import transcripts
from hippocampus.errors import HippocampusError

EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def clean_failure(done: subprocess.CompletedProcess, codes=(1, 2)) -> str:
    """A failure a user can read: the expected exit code, one `error:` line, no traceback."""
    assert done.returncode in codes, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(("error: ", "usage: ")) or (
        done.returncode == 2 and lines[-1].startswith(f"{Path(lines[0].split()[1]).name}: error:")
        if lines and lines[0].startswith("usage:") else False), done.stderr
    return lines[-1]


def no_traceback(done: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert "Traceback" not in done.stderr, done.stderr
    return done


# --- transcripts ----------------------------------------------------------------------------------------------

SEPARATORS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\r"]


def test_ids_and_senders_holding_any_line_separator_still_become_memories(workspace, tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    for number, mark in enumerate(SEPARATORS):
        lines = [{"type": "session", "version": 3, "id": f"sess{mark}{number}", "timestamp": "2026-02-03T09:00:00Z"},
                 {"type": "message", "id": f"m{mark}{number}", "parentId": None, "timestamp": "2026-02-03T09:01:00Z",
                  "message": {"role": "user", "content": "Sender (untrusted metadata):\n```json\n" + json.dumps(
                      {"label": "x", "name": f"Dana{mark}Q"}) + f"\n```\n\nRemember that the locker {number} code "
                      f"is {7000 + number}{mark} for the harbour shed"}}]
        (folder / f"s{number}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    done = no_traceback(run_script("encode", "--sessions", str(folder), "--json", ws=workspace))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["new"] == len(SEPARATORS)
    contents = " ".join(m["content"] for m in memories_of(workspace))
    assert all(str(7000 + n) in contents for n in range(len(SEPARATORS)))
