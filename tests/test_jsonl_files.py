"""The JSON Lines files the skill keeps (signals, events, touches, the archive): written one value a line in the same
bytes as ever, and read back with a torn or hand-broken line skipped and counted (or, for the archive, refused in
words) without losing the lines around it."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from hippocampus import events
from hippocampus.errors import HippocampusError
from hippocampus.ingestion import queue as ledger
from hippocampus.ingestion.transcripts import Signal
from hippocampus.store import archive, touches
from hippocampus.model import Memory
from hippocampus.workspace import Workspace

NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
# Characters a line splitter other than "\n" would cut at, a nested value deeper than Python recurses, and a null.
BROKEN = "not json\n" + "[" * 100_000 + "\n" + '{"cut": "half a li\n' + "null\n"


@pytest.fixture
def ws(tmp_path) -> Workspace:
    space = Workspace(tmp_path)
    space.memory.mkdir(parents=True)
    return space


def stored(mid: str, content: str) -> Memory:
    return Memory.from_dict(
        {
            "id": mid,
            "domain": "user",
            "category": "general",
            "content": content,
            "importance": 0.1,
            "created": "2026-01-01",
            "lastAccessed": "2026-01-01",
        },
        "test",
    )


def signal(seq: int, text: str) -> Signal:
    return Signal(seq=seq, id=f"m{seq}", session="s\u2028one", timestamp="2026-03-01T12:00:00Z", role="user", text=text)


def append(path, text: str) -> None:
    with open(path, "a", encoding="utf-8", newline="") as handle:
        handle.write(text)


# --- the archive ----------------------------------------------------------------------------------------------


def test_an_archived_memory_holding_a_unicode_line_separator_reads_back_as_it_was_stored(ws):
    odd = ["a\u2028b", "c\u2029d", "e\x85f", "g\x1ch", "i\rj", "k\x0bl"]
    archive.add(ws, [stored(f"mem_{n:03d}", text) for n, text in enumerate(odd, 1)], set())
    assert [e["content"] for e in archive.read_entries(ws)] == odd


def test_the_archive_is_written_one_json_object_a_line_in_the_stdlib_default_format(ws):
    archive.add(ws, [stored("mem_001", 'Café 東京 "quoted"\nnext')], set())
    entry = stored("mem_001", 'Café 東京 "quoted"\nnext').to_dict()
    assert ws.archive.read_bytes() == (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")


def test_a_broken_archive_line_is_refused_with_its_number_and_the_file_is_left_as_it_was(ws):
    archive.add(ws, [stored("mem_001", "kept")], set())
    append(ws.archive, "\n  \nbroken line\n")
    before = ws.archive.read_bytes()
    with pytest.raises(HippocampusError, match=r"archive\.jsonl line 4 is not valid JSON .*fix or remove that line"):
        archive.add(ws, [stored("mem_002", "more")], set())
    assert ws.archive.read_bytes() == before


@pytest.mark.parametrize(
    "line", ["[" * 100_000, "null", "[1, 2]", '{"id": 3}'], ids=["nested too deep", "null", "a list", "no memory"]
)
def test_an_archive_line_too_deep_or_not_a_memory_is_refused_in_words(ws, line):
    append(ws.archive, line + "\n")
    with pytest.raises(HippocampusError, match=r"archive\.jsonl line 1"):
        archive.read_entries(ws)


# --- the signal queue -----------------------------------------------------------------------------------------


def test_queued_signals_round_trip_and_broken_lines_are_skipped_and_counted(ws):
    ledger.append_signals(ws, [signal(1, "first\u2028still first"), signal(2, "second")])
    append(ws.signals, BROKEN + '{"seq": 0, "id": "x"}\n' + "\n   \n")
    ledger.append_signals(ws, [signal(3, "third")])
    expected = [(1, "first\u2028still first", "s\u2028one"), (2, "second", "s\u2028one"), (3, "third", "s\u2028one")]
    assert [(s.seq, s.text, s.session) for s in ledger.queued(ws)] == expected
    # Trimming drops four broken lines and one object that is no signal; blank lines are not counted.
    assert ledger.keep_signals(ws, lambda s: True) == 5
    assert [(s.seq, s.text, s.session) for s in ledger.queued(ws)] == expected
    assert ledger.keep_signals(ws, lambda s: True) == 0  # the queue holds only its signals now


def test_a_backlog_reads_the_signals_past_a_number_in_the_order_given_from_their_lines(ws):
    # Multi-byte characters and line separators before each line: a signal is found again by its byte offset.
    texts = {1: "café\u2028東京", 2: "two \x85 é", 3: "three", 4: "four ✓", 5: "five"}
    ledger.append_signals(ws, [signal(n, texts[n]) for n in (1, 2, 3)])
    append(ws.signals, BROKEN)
    ledger.append_signals(ws, [signal(n, texts[n]) for n in (4, 5)])
    backlog = ledger.Backlog(ws, after=1, order=lambda s: (len(s.text), s.seq))
    assert len(backlog) == 4 and backlog.last == 5
    in_order = [(s.seq, s.text, s.session) for s in backlog]
    assert in_order == [(n, texts[n], "s\u2028one") for n in (5, 3, 4, 2)]
    assert [s.seq for s in backlog] == [5, 3, 4, 2]  # read again from the file, the same
    assert len(ledger.Backlog(ws, after=5, order=lambda s: s.seq)) == 0
    assert ledger.Backlog(ws, after=5, order=lambda s: s.seq).last == 5


def test_the_queue_is_written_in_the_stdlib_default_format_and_trimming_drops_the_broken_lines(ws):
    signals = [signal(n, f"text {n} é") for n in (1, 2, 3)]
    ledger.append_signals(ws, signals)
    expected = "".join(json.dumps(s.to_dict(), ensure_ascii=False) + "\n" for s in signals)
    assert ws.signals.read_text(encoding="utf-8") == expected
    append(ws.signals, BROKEN)
    assert ledger.keep_signals(ws, lambda s: s.seq > 1) == 1 + 4
    assert ws.signals.read_text(encoding="utf-8") == expected.split("\n", 1)[1]


# --- events ---------------------------------------------------------------------------------------------------


def test_events_are_written_as_before_and_broken_lines_are_skipped_and_counted(ws):
    events.log_event(ws, "a", NOW, {"when": NOW, "n": 10**20, "text": "x\u2028y"})
    append(ws.events, BROKEN + "[1, 2]\n\n")
    events.log_event(ws, "b", NOW, {})
    first = {
        "ts": "2026-03-01T12:00:00Z",
        "type": "hippocampus",
        "event": "a",
        "when": str(NOW),
        "n": 10**20,
        "text": "x\u2028y",
    }
    assert ws.events.read_text(encoding="utf-8").split("\n", 1)[0] == json.dumps(first, ensure_ascii=False)
    found, skipped = events.read_events(ws)
    assert [e["event"] for e in found] == ["a", "b"] and found[0] == first
    assert skipped == 5  # four broken lines and a list; the blank line is not counted


# --- touches --------------------------------------------------------------------------------------------------


def test_touches_round_trip_and_a_broken_line_loses_only_itself(ws):
    touches.record(ws, ["mem_001", "mem\u2028two"], NOW)
    append(ws.touches, BROKEN + '{"ts": "never", "ids": ["mem_009"]}\n' + '{"ts": "2026-03-01T12:00:00Z"}\n')
    touches.record(ws, ["mem_003"], NOW)
    lines = ws.touches.read_text(encoding="utf-8").split("\n")
    assert lines[0] == json.dumps(
        {"ts": "2026-03-01T12:00:00Z", "ids": ["mem_001", "mem\u2028two"]}, ensure_ascii=False
    )
    assert touches.read(ws)[0] == {"mem_001": [NOW], "mem\u2028two": [NOW], "mem_003": [NOW]}
