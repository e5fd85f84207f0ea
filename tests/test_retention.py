"""Decay without compounding, reinforcement and access."""

import json
import shutil
from datetime import datetime, timedelta, timezone

import pytest

from conftest import memory, read_index, write_index
from hippocampus import retention, writing
from hippocampus.model import Index, Memory
from hippocampus.sleep import decay
from hippocampus.store import touches
from hippocampus.workspace import Workspace


def at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=timezone.utc)


def fresh(importance=0.8, last="2026-01-01") -> Index:
    m = Memory(id="mem_001", content="User likes tea", importance=importance, created=last, lastAccessed=last)
    return Index(memories=[m], meta={})


def run_decay(index: Index, days: list[datetime]) -> float:
    for day in days:
        retention.decay_index(index, day)
    return index.memories[0].importance


def test_thirty_days_of_decay_give_the_same_importance_run_once_daily_or_twice_a_day():
    start = at("2026-01-01")
    once = run_decay(fresh(), [start + timedelta(days=30)])
    daily = run_decay(fresh(), [start + timedelta(days=d) for d in range(1, 31)])
    twice = run_decay(fresh(), [start + timedelta(days=d, hours=h) for d in range(1, 31) for h in (1, 13)])
    assert abs(once - 0.8 * 0.99**30) < 0.001
    assert abs(daily - once) < 0.001
    assert abs(twice - once) < 0.001


def test_a_missed_week_catches_up_to_the_same_value():
    start = at("2026-01-01")
    gappy = [start + timedelta(days=d) for d in (1, 2, 3, 11, 12, 30)]
    assert abs(run_decay(fresh(), gappy) - run_decay(fresh(), [start + timedelta(days=30)])) < 0.001


def test_a_second_decay_on_the_same_day_changes_nothing():
    index = fresh()
    first = retention.decay_index(index, at("2026-01-10"))
    snapshot = index.to_dict()
    second = retention.decay_index(index, at("2026-01-10") + timedelta(hours=5))
    assert first.changed == 1 and not first.already_ran
    assert second.already_ran and second.changed == 0
    assert index.to_dict() == snapshot


def test_decay_reports_archive_candidates_below_point_two_and_deletes_nothing():
    index = Index(
        memories=[
            Memory(id="mem_001", content="old trivia", importance=0.25, lastAccessed="2025-01-01"),
            Memory(id="mem_002", content="fresh fact", importance=0.9, lastAccessed="2026-01-09"),
        ],
        meta={},
    )
    report = retention.decay_index(index, at("2026-01-10"))
    assert [m.id for m in report.archive_candidates] == ["mem_001"]
    assert len(index.memories) == 2


def test_a_hand_edited_importance_becomes_the_new_anchor():
    index = fresh()
    retention.decay_index(index, at("2026-01-11"))
    index.memories[0].importance = 0.95  # the user raised it by hand
    retention.decay_index(index, at("2026-01-21"))
    assert abs(index.memories[0].importance - 0.95 * 0.99**10) < 0.001


def test_old_skill_memories_decay_from_the_later_of_last_decay_run_and_last_access():
    index = Index(
        memories=[
            Memory(id="mem_001", content="a", importance=0.8, lastAccessed="2026-01-05"),
            Memory(id="mem_002", content="b", importance=0.8, lastAccessed="2026-01-15"),
        ],
        meta={"decayLastRun": "2026-01-10"},
    )
    retention.decay_index(index, at("2026-01-20"))
    a, b = index.memories
    assert abs(a.importance - 0.8 * 0.99**10) < 0.001
    assert abs(b.importance - 0.8 * 0.99**5) < 0.001


def test_pinned_memories_do_not_fade():
    index = fresh()
    index.memories[0].extra["pinned"] = True
    retention.decay_index(index, at("2026-06-01"))
    assert index.memories[0].importance == 0.8


def test_reinforcement_adds_a_tenth_of_the_distance_to_one_and_restarts_decay():
    index = fresh(importance=0.6, last="2026-01-01")
    memory = index.memories[0]
    when = at("2026-01-01") + timedelta(hours=3)
    retention.reinforce(memory, when, index.meta, {"session": "s1", "message": "m1", "ts": "2026-01-01T03:00:00Z"})
    assert abs(memory.importance - 0.64) < 1e-9
    assert memory.timesReinforced == 1
    assert memory.sources == [{"session": "s1", "message": "m1", "ts": "2026-01-01T03:00:00Z"}]
    retention.decay_index(index, at("2026-01-11"))
    assert abs(memory.importance - 0.64 * 0.99**10) < 0.001


def test_a_touch_restarts_decay_from_the_access_and_is_idempotent():
    index = fresh(importance=0.8, last="2026-01-01")
    memory = index.memories[0]
    when = at("2026-01-11")
    assert retention.touch(memory, when, index.meta)
    assert abs(memory.importance - 0.8 * 0.99**10) < 0.001
    assert memory.lastAccessed == "2026-01-11T00:00:00Z"
    snapshot = memory.to_dict()
    assert not retention.touch(memory, when, index.meta)
    assert memory.to_dict() == snapshot
    retention.decay_index(index, at("2026-01-21"))
    assert abs(memory.importance - 0.8 * 0.99**20) < 0.001


def stranger(importance=0.6) -> Memory:
    return Memory(
        id="mem_002",
        content="Mallory said: use my server",
        importance=importance,
        created="2026-01-01",
        lastAccessed="2026-01-01",
        extra={"trust": "untrusted"},
    )


def test_reinforcing_a_stranger_s_words_never_lifts_them_above_the_ceiling():
    memory = stranger()
    for day in range(2, 14):
        retention.reinforce(memory, at(f"2026-01-{day:02d}"), {})
    assert memory.timesReinforced == 12 and memory.importance <= 0.6


def test_restarting_a_stranger_s_words_at_a_high_value_keeps_them_at_the_ceiling():
    memory = stranger()
    retention.restart(memory, 0.95, at("2026-01-02").date())
    assert memory.importance <= 0.6
    assert retention.importance_on(stranger(0.9), at("2026-01-01").date(), {}) <= 0.6


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1), st.integers(0, 400), st.integers(0, 400), st.integers(-30, 400))
def test_the_order_key_orders_memories_as_their_importance_on_any_day_does(a, b, since_a, since_b, later):
    from datetime import date, timedelta

    day_a, day_b = date(2026, 1, 1) + timedelta(days=since_a), date(2026, 1, 1) + timedelta(days=since_b)
    today = max(day_a, day_b) + timedelta(days=max(0, later))
    key_a, key_b = retention.order_key(a, day_a), retention.order_key(b, day_b)
    value_a, value_b = (retention.importance(False, 0, base, day, today) for base, day in ((a, day_a), (b, day_b)))
    if key_a is not None and key_b is not None and abs(key_a - key_b) > 1e-9:
        assert (key_a > key_b) == (value_a > value_b) or abs(value_a - value_b) < 1e-12
    for key, value in ((key_a, value_a), (key_b, value_b)):
        for threshold in (0.2, 0.4, 0.7, value):
            if value >= threshold > 0:
                assert key is not None and key >= retention.lowest_key(threshold, today)


@pytest.mark.parametrize("keys_last", [False, True], ids=["keys-first", "keys-after-the-memories"])
def test_decaying_each_memory_as_the_index_is_read_is_decaying_the_whole_index(tmp_path, keys_last):
    # The daily decay reads each memory once, as index.json is read; a memory whose value hangs on the bookkeeping
    # keys (no anchor of its own: the old skill's, an importance edited by hand) and one with an access recorded are
    # decayed once the whole index is read and the accesses are in. The same file and report as decaying the whole
    # index once it is loaded, wherever the file puts its keys.
    base = tmp_path / "base"
    write_index(base, [memory(f"mem_{n:03d}", f"fact {n}", 0.3 + n / 20, lastAccessed="2026-01-02") for n in range(9)])
    decay.decay(Workspace(base), at("2026-01-08"), wait=True)  # anchored now, one memory a line
    stored = read_index(base)
    kept = stored["memories"]
    kept[1]["importance"] = 0.97  # edited by hand: the new base, dated from the last decay run
    kept[2]["pinned"] = True
    del kept[3]["decay"]  # as the old skill left it
    kept[5]["importance"], kept[5]["decay"] = 0.19, {"base": 0.19, "from": "2026-01-08", "last": 0.19}  # fading out
    kept.append(memory("mem_020", "added by hand", 0.7, lastAccessed="2026-01-03"))
    keys = {k: v for k, v in stored.items() if k != "memories"}
    lines = ",\n".join(json.dumps(m, ensure_ascii=False) for m in kept)
    head, tail = json.dumps(keys)[1:-1], ""
    if keys_last:
        head, tail = (
            f'"version": {keys["version"]}',
            ", " + json.dumps({k: v for k, v in keys.items() if k != "version"})[1:-1],
        )
    (base / "memory" / "index.json").write_text(f'{{{head}, "memories": [\n{lines}\n]{tail}}}\n', encoding="utf-8")
    touches.record(Workspace(base), ["mem_004", "mem_020"], at("2026-01-12"))
    shutil.copytree(base, tmp_path / "read-once")
    shutil.copytree(base, tmp_path / "whole")
    now = at("2026-01-15")

    once = decay.decay(Workspace(tmp_path / "read-once"), now, wait=True)
    with writing.write(Workspace(tmp_path / "whole"), now) as store:
        whole = retention.decay_index(store.index, now)
        store.backup = True
        store.touch_meta()
        store.redated(*whole.moved)

    def said(report: retention.DecayReport) -> tuple:
        return report.total, report.changed, report.moved, [m.id for m in report.archive_candidates], report.already_ran

    assert said(once) == said(whole) and once.moved == ["mem_001", "mem_003"]
    assert read_index(tmp_path / "read-once") == read_index(tmp_path / "whole")
    decayed = {m["id"]: m for m in read_index(tmp_path / "read-once")["memories"]}
    assert decayed["mem_001"]["decay"] == {"base": 0.97, "from": "2026-01-08", "last": round(0.97 * 0.99**7, 4)}
    assert decayed["mem_004"]["decay"]["from"] == decayed["mem_020"]["decay"]["from"] == "2026-01-12"
    assert [m.id for m in once.archive_candidates] == ["mem_005"]
