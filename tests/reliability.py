"""Helpers for the reliability tests: unique facts in real transcripts, and checks that a workspace holds every
memory once, with nothing written half."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections import Counter
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

from transcript_fixtures import Session

SYLLABLES = (
    "ka",
    "lo",
    "mi",
    "ne",
    "ru",
    "sa",
    "to",
    "vi",
    "ze",
    "po",
    "qu",
    "dra",
    "fen",
    "gil",
    "hox",
    "jun",
    "mab",
    "nor",
    "pel",
    "sib",
    "tam",
    "ulv",
    "wex",
    "yor",
)


def word(rng: random.Random) -> str:
    """A made-up word, so that facts share no topic and each is a memory of its own."""
    return "".join(rng.choice(SYLLABLES) for _ in range(3))


def fact(rng: random.Random, token: str) -> str:
    """A user turn the scorer keeps ("remember that", 0.92) and the encoder cannot mistake for another."""
    a, b, c, d = (word(rng) for _ in range(4))
    return f"Remember that the {a} {b} for {token} is kept beside the {c} in {d}"


def session_with_facts(session_id: str, start: datetime, facts: list[str]) -> Session:
    session = Session(session_id, start)
    for text in facts:
        session.user(text)
        session.assistant("Noted.")
    return session


def start_of(day: int) -> datetime:
    return datetime(2026, 2, 1, 9, tzinfo=timezone.utc) + timedelta(days=day - 1)


def memories_of(ws: Path) -> list[dict]:
    return json.loads((ws / "memory" / "index.json").read_text(encoding="utf-8"))["memories"]


def assert_each_once(ws: Path, tokens: list[str]) -> list[dict]:
    """Every id once, every message a source of one memory only, every token's fact in exactly one memory."""
    stored = memories_of(ws)
    ids = Counter(m["id"] for m in stored)
    assert not [i for i, n in ids.items() if n > 1], "an id appears twice"
    sources = Counter((s.get("session"), s.get("message")) for m in stored for s in m.get("sources", []))
    assert not [k for k, n in sources.items() if n > 1], "a message was encoded twice"
    for token in tokens:
        holders = [m["id"] for m in stored if token in m["content"]]
        assert len(holders) == 1, f"{token}: in {holders}"
    return stored


def assert_nothing_half_written(ws: Path) -> None:
    """No temporary file left anywhere; every event line JSON; the derived files whole."""
    leftovers = [p for p in ws.rglob("*") if p.name.endswith(".tmp")]
    assert not leftovers, leftovers
    events = ws / "memory" / "brain-events.jsonl"
    if events.exists():
        for number, line in enumerate(events.read_text(encoding="utf-8").split("\n")[:-1], 1):
            assert isinstance(json.loads(line), dict), f"event line {number}"
    core = ws / "HIPPOCAMPUS_CORE.md"
    if core.exists():
        text = core.read_text(encoding="utf-8")
        assert text.startswith("# Hippocampus Core Memories") and text.endswith("\n"), text[-200:]
    dashboard = ws / "brain-dashboard.html"
    if dashboard.exists():
        assert dashboard.read_text(encoding="utf-8").rstrip().endswith("</html>")


def workspace_files(ws: Path) -> dict[str, bytes]:
    """Every file of a workspace, by relative path, for byte comparisons."""
    return {str(p.relative_to(ws)): p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()}


# Another process: given an index.json (or "-"), it waits until a writer has replaced that file, then takes the
# workspace lock the first moment it is free, marks `got` and holds the lock for two seconds.
# Arguments: index lock ready got.
LOCK_GRABBER = """
import fcntl, os, sys, time
index, lock, ready, got = sys.argv[1:5]
first = os.stat(index).st_ino if index != "-" else None
open(ready, "w").close()
deadline = time.monotonic() + 60
while first is not None and os.stat(index).st_ino == first:  # until a writer has replaced index.json
    if time.monotonic() > deadline:
        sys.exit(3)
handle = open(lock, "a+")
while True:  # then take the lock the moment the writer lets go of it
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        break
    except BlockingIOError:
        if time.monotonic() > deadline:
            sys.exit(4)
open(got, "w").close()
time.sleep(2)
"""


@contextmanager
def lock_taken_after_the_index_is_replaced(ws: Path):
    """Another process that waits for index.json to be replaced, then takes the workspace lock the first moment
    it is free and holds it for two seconds: a writer that lets go of the lock between saving the index and
    finishing its run loses the lock to it. Yields the path that exists once it holds the lock."""
    marks = ws.parent / f"{ws.name}-lock-marks"
    marks.mkdir(exist_ok=True)
    ready, got = marks / "ready", marks / "got"
    grabber = subprocess.Popen(
        [
            sys.executable,
            "-c",
            LOCK_GRABBER,
            str(ws / "memory" / "index.json"),
            str(ws / "memory" / ".hippocampus.lock"),
            str(ready),
            str(got),
        ]
    )
    try:
        deadline = time.monotonic() + 30
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        yield got
    finally:
        grabber.wait(timeout=60)
