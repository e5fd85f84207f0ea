"""The store: old-skill indexes, migration, corrupt files, atomic writes, the lock, touches, backups."""

import json
import multiprocessing
import os
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from conftest import memory, read_index, write_index
from hippocampus.errors import BusyError, HippocampusError
from hippocampus.workspace import Workspace
from hippocampus.store import files, indexfile, model, touches, transaction

NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)

ODD_V1 = [
    {
        "id": "mem_001",
        "domain": "user",
        "category": "preferences",
        "content": "User prefers concise responses",
        "importance": 0.85,
        "created": "2026-01-15",
        "lastAccessed": "2026-01-20",
        "timesReinforced": 3,
        "keywords": ["preference", "concise", "style"],
    },
    {
        "id": "mem_002",
        "domain": "world",
        "category": "projects",
        "content": "Building a treehouse",
        "importance": 0.6,
        "created": "2026-01-16T09:30:00",
        "timesReinforced": 0,
        "keywords": [],
        "mood": "cheerful",
        "linkedTo": ["mem_001"],
    },
    {
        "id": "mem_1000",
        "domain": "self",
        "category": "identity",
        "content": "I am patient",
        "importance": 0.7,
        "created": "2026-01-17T10:00:00.123Z",
        "lastAccessed": "2026-01-18T08:00:00+09:00",
        "timesReinforced": 1,
        "keywords": ["patience"],
    },
]


def test_an_old_skill_index_loads_unchanged_with_odd_content(workspace):
    write_index(
        workspace,
        ODD_V1,
        lastUpdated="2026-01-20T19:00:00",
        decayLastRun="2026-01-20",
        lastProcessedTimestamp="2026-01-20T18:59:00.123Z",
        lastProcessedMessageId=None,
    )
    index = indexfile.load_index(Workspace(workspace))
    assert [m.id for m in index.memories] == ["mem_001", "mem_002", "mem_1000"]
    assert index.memories[1].lastAccessed is None
    assert index.memories[1].extra == {"mood": "cheerful", "linkedTo": ["mem_001"]}
    assert index.meta["lastProcessedTimestamp"] == "2026-01-20T18:59:00.123Z"
    assert index.next_id() == "mem_1001"


def test_the_first_write_migrates_a_v1_index_and_keeps_the_original(workspace):
    path = write_index(workspace, ODD_V1, decayLastRun="2026-01-20", lastProcessedMessageId=None)
    original = path.read_bytes()
    ws = Workspace(workspace)
    with transaction.transaction(ws, NOW) as txn:
        txn.dirty = True
    saved = read_index(workspace)
    assert saved["version"] == 2
    assert saved["lastProcessedMessageId"] is None and saved["decayLastRun"] == "2026-01-20"
    assert (ws.backups / "index.v1.original.json").read_bytes() == original
    by_id = {m["id"]: m for m in saved["memories"]}
    assert by_id["mem_002"]["mood"] == "cheerful" and by_id["mem_002"]["linkedTo"] == ["mem_001"]
    for before in ODD_V1:
        after = by_id[before["id"]]
        assert {k: after[k] for k in before} == before


def test_the_version_an_index_was_read_at_is_no_bookkeeping_key_of_it(workspace):
    write_index(workspace, ODD_V1, decayLastRun="2026-01-20")
    ws = Workspace(workspace)
    index = indexfile.load_index(ws)
    assert set(index.meta) == {"decayLastRun"}
    assert set(index.to_dict()) == {"version", "decayLastRun", "memories"}
    assert index.disk_version == 1
    with transaction.transaction(ws, NOW) as txn:
        txn.dirty = True
        assert set(txn.index.meta) <= {"decayLastRun", "highestId"}
    # Saved in our form: `highestId` is written past every stored id; no trace of the version it was read at.
    assert set(read_index(workspace)) == {"version", "decayLastRun", "lastUpdated", "highestId", "memories"}
    assert indexfile.load_index(ws).disk_version == 2


def test_a_round_trip_through_our_own_format_changes_nothing(workspace):
    write_index(workspace, ODD_V1, version=2, decayLastRun="2026-01-20")
    ws = Workspace(workspace)
    with transaction.transaction(ws, NOW) as txn:
        txn.dirty = True
    first = ws.index.read_text()
    with transaction.transaction(ws, NOW) as txn:
        txn.dirty = True
    assert ws.index.read_text() == first


@pytest.mark.parametrize(
    "text, words",
    [
        ("{not json", "not valid JSON"),
        ('{"version": 1, "memories": {"a": 1}}', "`memories` must be a list"),
        ('{"version": 99, "memories": []}', "version 99, newer than"),
        ('{"version": "two", "memories": []}', "`version` must be a whole number"),
        ("[1, 2]", "expected a JSON object"),
        ('{"version": 2, "memories": [{"id": "mem_001", "content": "x", "importance": 1.7}]}', "from 0 to 1"),
        ('{"version": 2, "memories": [{"id": "mem_001", "content": 5}]}', "`content` must be a string"),
        ('{"version": 2, "memories": [{"content": "x"}]}', "no string `id`"),
        ('{"version": 2, "memories": [{"id": "mem_1", "content": "a"}, {"id": "mem_1", "content": "b"}]}', "twice"),
    ],
)
def test_a_corrupt_or_unknown_index_is_an_error_naming_the_file_and_is_never_overwritten(workspace, text, words):
    path = workspace / "memory" / "index.json"
    path.write_text(text)
    ws = Workspace(workspace)
    with pytest.raises(HippocampusError) as caught:
        with transaction.transaction(ws, NOW) as txn:
            txn.dirty = True
    assert words in str(caught.value)
    assert str(path) in str(caught.value)
    assert path.read_text() == text


def test_an_index_that_is_not_utf8_is_an_error(workspace):
    path = workspace / "memory" / "index.json"
    path.write_bytes(b'{"memories": ["\xff\xfe"]}')
    with pytest.raises(HippocampusError, match="not UTF-8"):
        indexfile.load_index(Workspace(workspace))


def test_importance_given_as_a_numeric_string_is_read_as_a_number(workspace):
    write_index(workspace, [memory("mem_001", "x", importance="0.75")])
    assert indexfile.load_index(Workspace(workspace)).memories[0].importance == 0.75


def test_a_missing_index_is_an_empty_store(workspace):
    assert indexfile.load_index(Workspace(workspace)).memories == []


def test_ids_are_never_reused_after_the_highest_memory_is_gone(workspace):
    write_index(workspace, [memory("mem_001", "a"), memory("mem_007", "b")], version=2)
    ws = Workspace(workspace)
    with transaction.transaction(ws, NOW) as txn:
        assert txn.index.next_id() == "mem_008"
        txn.index.memories.pop()
        txn.dirty = True
    assert indexfile.load_index(ws).next_id() == "mem_009"


def test_a_cron_run_does_not_wait_for_a_held_lock(workspace):
    ws = Workspace(workspace)
    with files.workspace_lock(ws):
        child = multiprocessing.get_context("fork").Process(target=_try_lock_without_waiting, args=(str(workspace),))
        child.start()
        child.join(10)
    assert child.exitcode == 75


def _try_lock_without_waiting(path):
    try:
        with files.workspace_lock(Workspace(__import__("pathlib").Path(path)), wait=False):
            os._exit(0)
    except BusyError:
        os._exit(75)


def test_touches_are_seen_by_readers_and_folded_into_the_next_write(workspace):
    write_index(workspace, [memory("mem_001", "a", lastAccessed="2026-02-01"), memory("mem_002", "b")], version=2)
    ws = Workspace(workspace)
    touches.record_touches(ws, ["mem_001"], NOW)
    assert indexfile.load_index(ws).memories[0].lastAccessed == "2026-02-01"
    assert transaction.read(ws).memories[0].lastAccessed == "2026-03-01T12:00:00Z"
    with transaction.transaction(ws, NOW):
        pass
    assert ws.touches.read_text() == ""
    saved = read_index(workspace)["memories"]
    assert saved[0]["lastAccessed"] == "2026-03-01T12:00:00Z"
    assert saved[1]["lastAccessed"] == "2026-02-01"


def test_a_torn_touch_line_is_skipped_and_the_rest_apply(workspace):
    write_index(workspace, [memory("mem_001", "a"), memory("mem_002", "b")], version=2)
    ws = Workspace(workspace)
    touches.record_touches(ws, ["mem_001"], NOW)
    with open(ws.touches, "a") as handle:
        handle.write('{"ts": "2026-03-01T1')
    touches.record_touches(ws, ["mem_002"], NOW)
    touched = [m.lastAccessed for m in transaction.read(ws).memories]
    assert touched == ["2026-03-01T12:00:00Z", "2026-03-01T12:00:00Z"]


def test_backups_are_dated_and_bounded(workspace):
    write_index(workspace, [memory("mem_001", "a")], version=2)
    ws = Workspace(workspace)
    for day in range(10):
        indexfile.backup_index(ws, NOW + timedelta(days=day), keep=7)
    names = sorted(p.name for p in ws.backups.iterdir())
    assert len(names) == 7
    assert names[0] == "index-2026-03-04.json" and names[-1] == "index-2026-03-10.json"
    assert json.loads((ws.backups / names[-1]).read_text())["memories"][0]["id"] == "mem_001"


_FLOATS = st.floats(min_value=0, max_value=1) | st.sampled_from([0.1 + 0.2, 1e-7, 5e-324, 0.0, -0.0, 1.0])
_ANCHORS = st.fixed_dictionaries(
    {
        "base": _FLOATS | st.just(1),
        "from": st.sampled_from(["2026-11-01", 'a"b', "c\\d", "\n", "é", "\u2028", "\x7f"]) | st.text(max_size=12),
        "last": _FLOATS | st.just(1),
    }
) | st.dictionaries(st.sampled_from(["base", "from", "last", "x"]), _FLOATS, min_size=2)


@settings(max_examples=300, deadline=None)
@given(
    before=st.tuples(_FLOATS | st.integers(0, 1), _ANCHORS),
    after=st.tuples(_FLOATS | st.integers(0, 1), _ANCHORS),
    extra=st.dictionaries(st.text(max_size=5), st.text(max_size=5) | st.floats(allow_nan=False), max_size=3),
    written=st.sampled_from(["ours", "indented", "reordered"]),
    kept=st.sampled_from(["nothing", "anchor", "equal base", "new day", "value"]),
)
def test_a_line_with_a_new_tail_is_the_memory_encoded_whole(before, after, extra, written, kept):
    """Decay rewrites only the tail of a line whose importance and anchor alone changed: whatever the values and
    however the stored line was written, the result is the text the memory encoded whole would have — also when
    the new anchor keeps the old one's base and day (as the daily decay does), and when nothing changed."""
    if (
        kept in ("anchor", "equal base", "new day")
        and isinstance(before[1], dict)
        and {"base", "from"} <= before[1].keys()
    ):
        base, day = before[1]["base"], before[1]["from"]
        if kept == "equal base" and isinstance(base, float):
            base = -base if base == 0 else base * 1.0  # equal, another float (0 and -0: printed apart)
        if kept == "new day" and isinstance(day, str):
            day += "1"
        after = (after[0], {"base": base, "from": day, "last": after[0]})
    raw = {"id": "mem_001", "content": 'tea \u2028 "quoted" é', **extra, "importance": before[0], "decay": before[1]}
    memory = model.Memory.wrap(raw)
    stored = memory.to_dict()
    if written == "indented":
        text = json.dumps(stored, indent=1)
    elif written == "reordered":
        text = indexfile.ENCODE({"decay": stored.pop("decay"), **stored})
    else:
        text = indexfile.ENCODE(stored)
    assert json.loads(text) == memory.to_dict()
    tail = indexfile.line_tail(memory)
    if written == "ours" and tail is not None:
        assert text.endswith(tail)  # the tail is how the encoder ends the line

    def change(memory) -> bool:
        if kept == "value":
            return False
        memory.importance, memory.decay = after
        return True

    if kept == "value":
        assert indexfile.refade(text, memory, change) == text
    else:
        assert indexfile.refade(text, memory, change) == indexfile.ENCODE(memory.to_dict())


_DAYS = st.sampled_from(["2026-11-01", 'a"b', "\u2028", "é"]) | st.text(max_size=12)


@settings(max_examples=300, deadline=None)
@given(
    importance=_FLOATS,
    base=_FLOATS,
    day=_DAYS,
    last=_FLOATS,
    value=_FLOATS,
    kept=st.sampled_from(["anchor", "equal base", "new base", "new day"]),
)
def test_a_new_tail_that_keeps_the_anchor_s_base_or_day_is_the_memory_encoded_whole(
    importance, base, day, last, value, kept
):
    """The daily decay keeps a memory's anchor (its base, its day) and writes a new value, or moves it: either way
    the line with its new tail is the text of the memory encoded whole."""
    memory = model.Memory.wrap(
        {
            "id": "mem_001",
            "content": "tea",
            "importance": importance,
            "decay": {"base": base, "from": day, "last": last},
        }
    )
    text = indexfile.ENCODE(memory.to_dict())
    if kept == "equal base":
        base = -base if base == 0 else base * 1.0  # equal, another float (0 and -0 are printed apart)
    elif kept == "new base":
        base = value
    elif kept == "new day":
        day += "1"

    def decay(memory) -> bool:
        memory.importance, memory.decay = value, {"base": base, "from": day, "last": value}
        return True

    assert indexfile.refade(text, memory, decay) == indexfile.ENCODE(memory.to_dict())


def test_a_save_pauses_the_cycle_collector_only_while_it_streams_even_when_it_fails(workspace):
    import gc

    write_index(workspace, [memory("mem_001", "tea")])
    ws = Workspace(workspace)
    seen = []

    def lines():
        seen.append(gc.isenabled())
        yield indexfile.ENCODE(memory("mem_001", "tea"))
        raise OSError("disk gone")

    index = indexfile.load_index(ws)
    with pytest.raises(HippocampusError, match="disk gone"):
        indexfile.save_index(ws, index, NOW, lines())
    assert seen == [False] and gc.isenabled()
    assert read_index(workspace)["memories"][0]["content"] == "tea"  # the failed save replaced nothing
    gc.disable()
    try:
        indexfile.save_index(ws, index, NOW)
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()
