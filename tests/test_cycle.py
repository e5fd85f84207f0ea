"""The daily cycle: streaming decay of a store we wrote gives exactly what decay of the whole loaded store gives."""

import json
import random
from datetime import datetime, timedelta, timezone

from conftest import memory, read_index, run_script, write_index
from hippocampus.sleep import decay
from hippocampus.store import cache
from hippocampus.workspace import Workspace
from hippocampus.store import touches

START = datetime(2026, 3, 1, 3, tzinfo=timezone.utc)


def varied(ws_path, seed=3, count=300):
    rng = random.Random(seed)
    memories = []
    for i in range(1, count + 1):
        day = f"2026-02-{rng.randint(1, 28):02d}"
        extra = {}
        if i % 17 == 0:
            extra["pinned"] = True
        if i % 23 == 0:
            extra["supersededBy"] = "mem_001"
        memories.append(
            memory(
                f"mem_{i:03d}",
                f"note {i} about {rng.choice(['tea', 'rain', 'jazz'])}",
                round(rng.uniform(0.15, 1.0), 4),
                created=day,
                lastAccessed=day,
                **extra,
            )
        )
    write_index(ws_path, memories, decayLastRun="2026-02-20")
    return Workspace(ws_path)


def weeks(ws, stream: bool):
    """Forty days of decay with a recall every fifth day; without `stream`, no run may use the line path."""
    for d in range(41):
        now = START + timedelta(days=d)
        if d % 5 == 1:
            touches.record_touches(ws, [f"mem_{(d * 7) % 300 + 1:03d}"], now)
        if not stream and (ws.cache / "recall.sqlite").exists():
            (ws.cache / "recall.sqlite").unlink()
        decay.decay(ws, now, wait=True)
        if stream and d == 0:
            assert cache.witnessed(ws)  # from here on, the line path runs


def comparable(ws):
    data = read_index(ws.root)
    data.pop("lastUpdated")
    return data


def test_streaming_decay_over_weeks_equals_whole_store_decay(tmp_path):
    lines, whole = varied(tmp_path / "lines"), varied(tmp_path / "whole")
    weeks(lines, stream=True)
    weeks(whole, stream=False)
    assert comparable(lines) == comparable(whole)
    # Byte for byte: a line whose importance alone changed gets a new tail, the same text as the line encoded whole.
    assert lines.index.read_bytes() == whole.index.read_bytes()


def test_the_line_path_reports_what_the_whole_path_reports(tmp_path):
    lines, whole = varied(tmp_path / "lines"), varied(tmp_path / "whole")
    decay.decay(lines, START, wait=True)
    decay.decay(whole, START, wait=True)
    later = START + timedelta(days=120)
    a = decay.decay(lines, later, wait=True)
    (whole.cache / "recall.sqlite").unlink()
    b = decay.decay(whole, later, wait=True)
    assert (a.total, a.changed, sorted(m.id for m in a.archive_candidates)) == (
        b.total,
        b.changed,
        sorted(m.id for m in b.archive_candidates),
    )
    superseded = {m["id"] for m in read_index(lines.root)["memories"] if m.get("supersededBy")}
    assert a.archive_candidates and superseded and not superseded & {c.id for c in a.archive_candidates}


def test_a_hand_edited_store_is_decayed_whole_and_the_edit_kept(tmp_path):
    ws = varied(tmp_path / "ws")
    decay.decay(ws, START, wait=True)
    data = read_index(ws.root)
    data["memories"][0]["importance"] = 0.99
    (ws.index).write_text(json.dumps(data, indent=2))  # reformatted: not one memory a line any more
    assert not cache.witnessed(ws)
    decay.decay(ws, START + timedelta(days=10), wait=True)
    first = read_index(ws.root)["memories"][0]
    assert abs(first["importance"] - 0.99 * 0.99**10) < 0.001
    assert cache.witnessed(ws)


def test_the_line_path_keeps_the_file_one_memory_a_line_and_valid(tmp_path):
    ws = varied(tmp_path / "ws", count=50)
    decay.decay(ws, START, wait=True)
    decay.decay(ws, START + timedelta(days=3), wait=True)
    text = ws.index.read_text()
    assert len(text.splitlines()) == 52
    assert len(json.loads(text)["memories"]) == 50
    assert json.loads(text)["decayLastRun"] == "2026-03-04"


def test_a_recall_after_streaming_decay_sees_touches_and_importance(tmp_path):
    ws = varied(tmp_path / "ws", count=50)
    decay.decay(ws, START, wait=True)
    done = run_script("recall", "jazz", "--json", "--top", "1", ws=ws.root, now="2026-03-02T10:00:00Z")
    hit = json.loads(done.stdout)["results"][0]
    decay.decay(ws, START + timedelta(days=11), wait=True)
    stored = {m["id"]: m for m in read_index(ws.root)["memories"]}[hit["id"]]
    assert stored["lastAccessed"] == "2026-03-02T10:00:00Z"
    again = json.loads(
        run_script(
            "recall", "jazz", "--json", "--top", "50", "--no-touch", ws=ws.root, now="2026-03-12T04:00:00Z"
        ).stdout
    )["results"]
    assert {r["id"]: r["importance"] for r in again}[hit["id"]] == stored["importance"]


def test_the_daily_backup_holds_the_store_as_it_was_before_decay(tmp_path):
    ws = varied(tmp_path / "ws", count=50)
    decay.decay(ws, START, wait=True)
    before = ws.index.read_bytes()
    decay.decay(ws, START + timedelta(days=1), wait=True)  # the line path: its backup is a hard link
    backup = ws.backups / "index-2026-03-02.json"
    assert backup.read_bytes() == before
    assert ws.index.read_bytes() != before
    assert not backup.samefile(ws.index)


def test_an_empty_superseded_by_is_an_archive_candidate_for_a_store_we_wrote_as_for_any_other(tmp_path):
    def store(path):
        write_index(
            path,
            [
                memory(
                    "mem_001",
                    "an old note about tea",
                    0.15,
                    created="2026-02-20",
                    lastAccessed="2026-02-20",
                    supersededBy="",
                ),
                memory("mem_002", "a note about jazz", 0.9, created="2026-02-20", lastAccessed="2026-02-20"),
            ],
            decayLastRun="2026-02-20",
        )
        ws = Workspace(path)
        decay.decay(ws, START, wait=True)
        return ws

    ours, edited = store(tmp_path / "ours"), store(tmp_path / "edited")
    (edited.cache / "recall.sqlite").unlink()  # a file the scripts cannot vouch for
    assert cache.witnessed(ours) and not cache.witnessed(edited)
    later = START + timedelta(days=1)
    a, b = decay.decay(ours, later, wait=True), decay.decay(edited, later, wait=True)
    assert [m.id for m in a.archive_candidates] == [m.id for m in b.archive_candidates] == ["mem_001"]
