"""A message stamped ahead of the run's clock (the machine's clock was fast, then set right) is taken by the run that
reads it, at that run's time — in its signal, its memory's sources, creation and decay anchor, and the date a
relative time is said on — and the summary line of preprocess.py and encode.py says how many were."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from conftest import NOW, read_index, run_script
from transcript_fixtures import Session, day

A_YEAR_AHEAD = datetime(2027, 3, 1, 9, tzinfo=timezone.utc)


def write_sessions(folder) -> None:
    """A session of February, then two messages written while the machine's clock was a year fast."""
    session = Session("clockfast-0001-4000-8000-000000000001", day(20))
    session.user("I finally finished painting the kitchen, it looks great")
    session.assistant("That must feel good!")
    session.user("Remember that the blue bike lock code is 4471", at=A_YEAR_AHEAD)
    session.user("Remember that the plumber comes tomorrow at 9", at=A_YEAR_AHEAD + timedelta(minutes=1))
    session.write(folder)


def later(days: int) -> str:
    return (datetime.fromisoformat(NOW.replace("Z", "+00:00")) + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_message_stamped_a_year_ahead_is_encoded_by_the_run_that_reads_it_at_that_run_s_time(workspace, tmp_path):
    write_sessions(tmp_path / "sessions")
    done = run_script("encode", "--sessions", str(tmp_path / "sessions"), ws=workspace)
    assert done.returncode == 0, done.stderr
    assert "2 messages stamped ahead of this run's clock, taken at its time" in done.stdout
    memories = {m["content"]: m for m in read_index(workspace)["memories"]}
    lock = next(m for content, m in memories.items() if "4471" in content)
    plumber = next(m for content, m in memories.items() if "plumber" in content)
    for memory in (lock, plumber):
        assert memory["created"] == memory["lastAccessed"] == NOW
        assert [source["ts"] for source in memory["sources"]] == [NOW]
        assert memory["decay"]["from"] == NOW[:10]
    assert plumber["content"].endswith("(said 2026-03-01)")  # not the day the fast clock showed

    # A month of daily encodes and decays later it is still there, faded from the day it was taken.
    for days in range(1, 31):
        assert (
            run_script("encode", "--sessions", str(tmp_path / "sessions"), ws=workspace, now=later(days)).returncode
            == 0
        )
        assert run_script("decay", ws=workspace, now=later(days)).returncode == 0
    found = run_script("recall", "bike lock code", "--json", ws=workspace, now=later(30))
    assert "4471" in found.stdout, found.stdout
    (lock,) = [m for m in read_index(workspace)["memories"] if "4471" in m["content"]]
    assert lock["decay"]["from"] == NOW[:10] and abs(lock["importance"] - lock["decay"]["base"] * 0.99**30) < 1e-4


def test_preprocess_queues_a_message_stamped_ahead_at_the_run_s_time_and_says_how_many(workspace, tmp_path):
    write_sessions(tmp_path / "sessions")
    done = run_script("preprocess", "--sessions", str(tmp_path / "sessions"), ws=workspace)
    assert done.returncode == 0, done.stderr
    assert "2 stamped ahead of this run's clock, taken at its time" in done.stdout
    lines = [json.loads(line) for line in (workspace / "memory" / "signals.jsonl").read_text().splitlines()]
    ahead = [line for line in lines if "4471" in line["text"] or "plumber" in line["text"]]
    assert [line["timestamp"] for line in ahead] == [NOW, NOW]
    assert not any("local" in line for line in ahead)  # the fast clock's local time is no hint
    again = run_script("preprocess", "--json", "--full", "--sessions", str(tmp_path / "sessions"), ws=workspace)
    report = json.loads(again.stdout)  # read again whole: every message was taken once, none waits
    assert (report["signals"], report["aheadOfClock"], report["alreadySeen"]) == (0, 0, 4)
