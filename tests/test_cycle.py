"""The daily cycle: streaming decay of a store we wrote gives exactly what decay of the whole loaded store gives."""

import json
import random
from datetime import datetime, timedelta, timezone

from conftest import memory, read_index, run_script, write_index
from hippocampus.sleep import decay
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


def test_forty_days_of_decay_with_recalls_give_what_the_formula_gives(tmp_path):
    ws = varied(tmp_path / "ws")
    before = {m["id"]: m for m in read_index(ws.root)["memories"]}
    touched = {}
    for d in range(41):
        now = START + timedelta(days=d)
        if d % 5 == 1:
            memory_id = f"mem_{(d * 7) % 300 + 1:03d}"
            touches.record(ws, [memory_id], now)
            touched[memory_id] = now
        decay.decay(ws, now, wait=True)
    end = START + timedelta(days=40)
    for stored in read_index(ws.root)["memories"]:
        old = before[stored["id"]]
        if stored.get("pinned") or stored["id"] in touched:
            continue
        # An old skill's memory fades from the later of the last decay run and its last access.
        since = max(datetime(2026, 2, 20).date(), datetime.fromisoformat(old["lastAccessed"]).date())
        days = (end.date() - since).days
        assert abs(stored["importance"] - round(old["importance"] * 0.99**days, 4)) < 1e-4, stored["id"]
    for memory_id, when in touched.items():
        stored = next(m for m in read_index(ws.root)["memories"] if m["id"] == memory_id)
        assert stored["lastAccessed"] >= when.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_hand_edited_store_is_decayed_whole_and_the_edit_kept(tmp_path):
    ws = varied(tmp_path / "ws")
    decay.decay(ws, START, wait=True)
    data = read_index(ws.root)
    data["memories"][0]["importance"] = 0.99
    (ws.index).write_text(json.dumps(data, indent=2))  # reformatted: not one memory a line any more
    decay.decay(ws, START + timedelta(days=10), wait=True)
    first = read_index(ws.root)["memories"][0]
    assert abs(first["importance"] - 0.99 * 0.99**10) < 0.001
    assert len(ws.index.read_text().splitlines()) == 302  # one memory a line again


def test_decay_keeps_the_file_one_memory_a_line_and_valid(tmp_path):
    ws = varied(tmp_path / "ws", count=50)
    decay.decay(ws, START, wait=True)
    decay.decay(ws, START + timedelta(days=3), wait=True)
    text = ws.index.read_text()
    assert len(text.splitlines()) == 52
    assert len(json.loads(text)["memories"]) == 50
    assert json.loads(text)["decayLastRun"] == "2026-03-04"


def test_a_recall_after_decay_sees_touches_and_importance(tmp_path):
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
    decay.decay(ws, START + timedelta(days=1), wait=True)
    backup = ws.backups / "index-2026-03-02.json"
    assert backup.read_bytes() == before
    assert ws.index.read_bytes() != before
    assert not backup.samefile(ws.index)


def test_an_empty_superseded_by_is_an_archive_candidate(tmp_path):
    write_index(
        tmp_path,
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
    ws = Workspace(tmp_path)
    decay.decay(ws, START, wait=True)
    report = decay.decay(ws, START + timedelta(days=1), wait=True)
    assert [m.id for m in report.archive_candidates] == ["mem_001"]
