"""Ids: an id, once given, is never given again — whatever is restored over index.json, run as a user runs the
scripts (encode, consolidate, a backup copied back by hand)."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import read_index, run_script
from transcript_fixtures import Session, write_jsonl_store


class Chats:
    """The owner's chats in an OpenClaw state dir, one session a day, added as the test goes."""

    def __init__(self, state: Path):
        self.state = state
        self.sessions: dict[str, Session] = {}

    def say(self, number: int, text: str) -> None:
        start = datetime(2026, 2, number, 9, tzinfo=timezone.utc)
        session = Session(f"{number:08x}-1d1d-4000-8000-000000000000", start)
        session.user(text)
        self.sessions[f"agent:main:telegram:dm:81234:{number}"] = session
        write_jsonl_store(self.state, self.sessions, archives=False)


def encode(ws: Path, state: Path, now: str) -> None:
    done = run_script("encode", "--state-dir", str(state), ws=ws, now=now)
    assert done.returncode == 0, done.stderr


def ids(ws: Path) -> dict[str, str]:
    return {m["id"]: m["content"] for m in read_index(ws)["memories"]}


def archived(ws: Path) -> dict[str, dict]:
    path = ws / "memory" / "archive.jsonl"
    return {e["id"]: e for e in map(json.loads, path.read_text().splitlines())} if path.exists() else {}


@pytest.fixture
def chats(tmp_path) -> Chats:
    return Chats(tmp_path / "openclaw")


def test_a_restored_backup_never_brings_back_an_id_given_since(workspace, chats):
    chats.say(1, "I prefer oat milk flat whites from the bakery on the corner")
    encode(workspace, chats.state, "2026-02-01T12:00:00Z")
    backup = workspace / "memory" / "backups" / "index-by-hand.json"
    backup.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(workspace / "memory" / "index.json", backup)
    chats.say(2, "We decided to move the weekly planning call to Thursday mornings")
    encode(workspace, chats.state, "2026-02-02T12:00:00Z")
    given = ids(workspace)
    assert len(given) == 2
    shutil.copy(backup, workspace / "memory" / "index.json")  # the user restores the older copy
    backup.unlink()  # and tidies up
    chats.say(3, "My sister Lea is visiting from Porto for the whole of next month")
    encode(workspace, chats.state, "2026-02-03T12:00:00Z")
    now = ids(workspace)
    new = [i for i in now if i not in given]
    assert len(new) == 1, now
    assert set(now) - set(new) < set(given)


def test_a_memory_in_the_archive_keeps_its_id_and_is_never_dropped_after_a_restore(workspace, chats):
    chats.say(1, "I prefer oat milk flat whites from the bakery on the corner")
    encode(workspace, chats.state, "2026-02-01T12:00:00Z")
    backup = workspace / "memory" / "backups" / "index-2026-02-01.json"
    backup.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(workspace / "memory" / "index.json", backup)
    chats.say(2, "I tried the new climbing gym in Neukölln once, it was fine")
    encode(workspace, chats.state, "2026-02-02T12:00:00Z")
    faded = next(i for i, c in ids(workspace).items() if "climbing" in c)
    # Months later nobody has mentioned the gym: consolidation moves it to the archive.
    done = run_script("consolidate", ws=workspace, now="2026-09-01T05:13:00Z")
    assert done.returncode == 0, done.stderr
    assert faded in archived(workspace) and faded not in ids(workspace)
    # Every trace of the id in the workspace but the archive is gone: the index is restored, the mark removed.
    shutil.copy(backup, workspace / "memory" / "index.json")
    for extra in (workspace / "memory").glob("ids*.json"):
        extra.unlink()
    shutil.rmtree(workspace / "memory" / ".cache", ignore_errors=True)
    chats.say(3, "My sister Lea is visiting from Porto for the whole of next month")
    encode(workspace, chats.state, "2026-09-02T12:00:00Z")
    lea = next(i for i, c in ids(workspace).items() if "Lea" in c)
    assert lea != faded
    done = run_script("consolidate", ws=workspace, now="2026-09-06T05:13:00Z")
    assert done.returncode == 0, done.stderr
    assert "climbing" in archived(workspace)[faded]["content"]


def test_ids_continue_past_every_backup_kept_when_an_older_one_is_restored(workspace, chats):
    chats.say(1, "I prefer oat milk flat whites from the bakery on the corner")
    encode(workspace, chats.state, "2026-02-01T12:00:00Z")
    oldest = workspace / "memory" / "backups" / "index-2026-02-01.json"
    oldest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(workspace / "memory" / "index.json", oldest)
    chats.say(2, "We decided to move the weekly planning call to Thursday mornings")
    encode(workspace, chats.state, "2026-02-02T12:00:00Z")
    newer = workspace / "memory" / "backups" / "index-2026-02-02.json"
    shutil.copy(workspace / "memory" / "index.json", newer)
    in_newer = set(ids(workspace))
    shutil.copy(oldest, workspace / "memory" / "index.json")
    for extra in (workspace / "memory").glob("ids*.json"):
        extra.unlink()
    chats.say(3, "My sister Lea is visiting from Porto for the whole of next month")
    encode(workspace, chats.state, "2026-02-03T12:00:00Z")
    lea = next(i for i, c in ids(workspace).items() if "Lea" in c)
    assert lea not in in_newer


def test_a_backup_edited_by_hand_then_restored_never_gets_its_ids_given_again(workspace, chats):
    chats.say(1, "I prefer oat milk flat whites from the bakery on the corner")
    encode(workspace, chats.state, "2026-02-01T12:00:00Z")
    done = run_script("decay", ws=workspace, now="2026-02-02T03:00:00Z")
    assert done.returncode == 0, done.stderr
    backup = workspace / "memory" / "backups" / "index-2026-02-02.json"
    backup.write_text(backup.read_text().replace('"id": "mem_001"', '"id": "mem_090"'))
    shutil.copy(backup, workspace / "memory" / "index.json")
    chats.say(2, "We decided to move the weekly planning call to Thursday mornings")
    encode(workspace, chats.state, "2026-02-03T12:00:00Z")
    assert set(ids(workspace)) == {"mem_090", "mem_091"}
