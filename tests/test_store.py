"""The store: old-skill indexes, migration, corrupt files, atomic writes, the lock, touches, backups."""

import json
import multiprocessing
import os
import zlib
from datetime import datetime, timedelta, timezone

import pytest

from conftest import memory, read_index, run_script, write_index
from hippocampus.errors import BusyError, HippocampusError
from hippocampus.workspace import Workspace
from hippocampus import redaction, writing
from hippocampus.store import files, indexfile, touches

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
    index = indexfile.load(Workspace(workspace)).index
    assert [m.id for m in index.memories] == ["mem_001", "mem_002", "mem_1000"]
    assert index.memories[1].lastAccessed is None
    assert index.memories[1].extra == {"mood": "cheerful", "linkedTo": ["mem_001"]}
    assert index.meta["lastProcessedTimestamp"] == "2026-01-20T18:59:00.123Z"
    assert index.next_id() == "mem_1001"


def test_the_first_write_migrates_a_v1_index_and_keeps_the_original(workspace):
    path = write_index(workspace, ODD_V1, decayLastRun="2026-01-20", lastProcessedMessageId=None)
    original = path.read_bytes()
    ws = Workspace(workspace)
    with writing.write(ws, NOW) as store:
        store.touch_meta()
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
    index = indexfile.load(ws).index
    assert set(index.meta) == {"decayLastRun", "highestId", indexfile.RULES_KEY}
    assert set(index.to_dict()) == {"version", "decayLastRun", "highestId", indexfile.RULES_KEY, "memories"}
    with writing.write(ws, NOW) as store:
        store.touch_meta()
        assert set(store.index.meta) <= {"decayLastRun", "highestId", indexfile.RULES_KEY}
    # Saved in our form: `highestId` is written past every stored id, and the redaction rules it was saved under;
    # no trace of the version it was read at.
    saved = {"version", "decayLastRun", "lastUpdated", "highestId", indexfile.RULES_KEY, "memories"}
    assert set(read_index(workspace)) == saved
    assert indexfile.load(ws).version == 2


def test_a_round_trip_through_our_own_format_changes_nothing(workspace):
    write_index(workspace, ODD_V1, version=2, decayLastRun="2026-01-20")
    ws = Workspace(workspace)
    with writing.write(ws, NOW) as store:
        store.touch_meta()
    first = ws.index.read_text()
    with writing.write(ws, NOW) as store:
        store.touch_meta()
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
        with writing.write(ws, NOW) as store:
            store.touch_meta()
    assert words in str(caught.value)
    assert str(path) in str(caught.value)
    assert path.read_text() == text


@pytest.mark.parametrize(
    "text, words",
    [
        ("{not json", "not valid JSON"),
        (  # read whole (under today's rules of redaction), found invalid as the cache is built again
            f'{{"version": 2, "redactionRules": {redaction.RULES}, "memories": [{{"id": "mem_001", "content": 5}}]}}',
            "`content` must be a string",
        ),
    ],
)
def test_a_write_that_cannot_read_the_index_leaves_no_connection_to_the_cache_open(workspace, text, words):
    # The cache is opened before index.json is read (it says whether the file is one a write saved): a file that
    # cannot be read, or a memory found invalid as the cache is built again, stops the write, and nothing of it stays
    # open while the error is held (the log files of the cache go with its last connection).
    ws = Workspace(workspace)
    write_index(workspace, [memory("mem_001", "x")])
    with writing.write(ws, NOW) as store:
        store.touch_meta()
    assert sorted(p.name for p in ws.cache.iterdir()) == ["recall.sqlite"]
    ws.index.write_text(text)
    with pytest.raises(HippocampusError) as caught:
        with writing.write(ws, NOW):
            pass
    assert words in str(caught.value)
    assert sorted(p.name for p in ws.cache.iterdir()) == ["recall.sqlite"]


def test_an_index_that_is_not_utf8_is_an_error(workspace):
    path = workspace / "memory" / "index.json"
    path.write_bytes(b'{"memories": ["\xff\xfe"]}')
    with pytest.raises(HippocampusError, match="not UTF-8"):
        indexfile.load(Workspace(workspace))


def test_importance_given_as_a_numeric_string_is_read_as_a_number(workspace):
    write_index(workspace, [memory("mem_001", "x", importance="0.75")])
    assert indexfile.load(Workspace(workspace)).index.memories[0].importance == 0.75


def test_half_a_character_escaped_anywhere_in_a_memory_is_read_as_the_replacement_character(workspace):
    # Only an escape can hold half of a surrogate pair: a memory whose text holds one is made whole wherever it is
    # (a key, a value deep in a list); one whose text holds none is read as it is, escapes of whole characters too.
    (workspace / "memory" / "index.json").write_text(
        '{"version": 2, "memories": [\n'
        '{"id": "mem_001", "content": "caf\\u00e9", "importance": 0.5, "\\udc00note": 1,'
        ' "sources": [{"session": "s\\ud83d"}]},\n'
        '{"id": "mem_002", "content": "na\u00efve \U0001f600", "importance": 0.5}\n'
        "]}\n",
        encoding="utf-8",
    )
    first, second = indexfile.load(Workspace(workspace)).index.memories
    assert first.content == "caf\u00e9" and first.sources == [{"session": "s\ufffd"}]
    assert first.extra["\ufffdnote"] == 1 and "\udc00note" not in first.raw
    assert second.content == "na\u00efve \U0001f600"


def test_a_missing_index_is_an_empty_store(workspace):
    assert indexfile.load(Workspace(workspace)).index.memories == []


def test_ids_are_never_reused_after_the_highest_memory_is_gone(workspace):
    write_index(workspace, [memory("mem_001", "a"), memory("mem_007", "b")], version=2)
    ws = Workspace(workspace)
    with writing.write(ws, NOW) as store:
        assert store.index.next_id() == "mem_008"
        store.changed(store.index.memories.pop().id)
    assert indexfile.load(ws).index.next_id() == "mem_009"


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


def test_touches_are_folded_into_the_next_write_and_only_those_it_read_are_removed(workspace):
    write_index(workspace, [memory("mem_001", "a", lastAccessed="2026-02-01"), memory("mem_002", "b")], version=2)
    ws = Workspace(workspace)
    touches.record(ws, ["mem_001"], NOW)
    assert indexfile.load(ws).index.memories[0].lastAccessed == "2026-02-01"
    with writing.write(ws, NOW):
        touches.record(ws, ["mem_002"], NOW + timedelta(hours=1))  # recorded while the write holds the lock
    assert ws.touches.read_text().count("mem_002") == 1 and "mem_001" not in ws.touches.read_text()
    saved = read_index(workspace)["memories"]
    assert saved[0]["lastAccessed"] == "2026-03-01T12:00:00Z"
    assert saved[1]["lastAccessed"] == "2026-02-01"  # its touch waits for the next write
    with writing.write(ws, NOW + timedelta(hours=2)):
        pass
    assert read_index(workspace)["memories"][1]["lastAccessed"] == "2026-03-01T13:00:00Z"
    assert ws.touches.read_text() == ""


def test_a_torn_touch_line_is_skipped_and_the_rest_apply(workspace):
    write_index(workspace, [memory("mem_001", "a"), memory("mem_002", "b")], version=2)
    ws = Workspace(workspace)
    touches.record(ws, ["mem_001"], NOW)
    with open(ws.touches, "a") as handle:
        handle.write('{"ts": "2026-03-01T1')
    touches.record(ws, ["mem_002"], NOW)
    with writing.write(ws, NOW):
        pass
    touched = [m["lastAccessed"] for m in read_index(workspace)["memories"]]
    assert touched == ["2026-03-01T12:00:00Z", "2026-03-01T12:00:00Z"]


def test_backups_are_dated_and_bounded(workspace):
    write_index(workspace, [memory("mem_001", "a")], version=2)
    ws = Workspace(workspace)
    for day in range(10):
        indexfile.backup(ws, NOW + timedelta(days=day), keep=7)
    names = sorted(p.name for p in ws.backups.iterdir())
    assert len(names) == 7
    assert names[0] == "index-2026-03-04.json" and names[-1] == "index-2026-03-10.json"
    assert json.loads((ws.backups / names[-1]).read_text())["memories"][0]["id"] == "mem_001"


def _laid_out_over_lines(count: int) -> tuple[str, dict]:
    """An index as jq writes it (indented, a key a line), with words in several scripts, numbers of every length,
    literals and escapes: text for index.json, and the object it is."""
    words = ["café crème", "東京の友達", "emoji 😀 ok", 'a "quoted" word', "back\\slash", "tab\there", "Ünïcödé"]
    memories = []
    for i in range(count):
        memories.append(
            {
                "id": f"mem_{i + 1:03d}",
                "domain": ["user", "self", "relationship", "world"][i % 4],
                "category": "notes",
                "content": f"{words[i % len(words)]} number {i} " + "x" * (i % 37),
                "importance": round(0.05 + (i * 0.0137) % 0.9, 1 + i % 9),
                "created": "2026-01-15",
                "timesReinforced": i % 5,
                "keywords": ["one", "two"][: i % 3],
                "pinned": i % 11 == 0,
                "mood": None,
            }
        )
    raw = {"version": 2, "decayLastRun": "2026-02-01", "memories": memories, "after": [1, 2.5e-3, True]}
    return json.dumps(raw, indent=2, ensure_ascii=i % 2 == 0), raw


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 7, 64, 4096])
def test_an_index_read_in_chunks_of_any_size_is_the_json_it_holds(workspace, monkeypatch, chunk):
    text, raw = _laid_out_over_lines(40)
    path = workspace / "memory" / "index.json"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(indexfile, "CHUNK", chunk)
    loaded = indexfile.load(Workspace(workspace))
    assert [m.to_dict() for m in loaded.index.memories] == raw["memories"]
    assert loaded.index.meta["after"] == [1, 2.5e-3, True] and loaded.index.meta["decayLastRun"] == "2026-02-01"
    assert loaded.checksum == f"{zlib.crc32(path.read_bytes()):08x}"


def test_a_large_index_laid_out_over_lines_is_saved_one_memory_a_line_with_every_value_kept(workspace):
    text, raw = _laid_out_over_lines(8000)
    assert len(text.encode()) > 2 * indexfile.CHUNK  # read in several chunks
    (workspace / "memory" / "index.json").write_text(text, encoding="utf-8")
    ws = Workspace(workspace)
    with writing.write(ws, NOW) as store:
        store.touch_meta()
    lines = ws.index.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8000 + 2  # the bookkeeping keys, a memory a line, the close
    saved = json.loads("\n".join(lines))
    assert saved["memories"] == raw["memories"]
    assert saved["after"] == raw["after"]


@pytest.mark.parametrize("chunk", [1, 3, 64, 1 << 20])
@pytest.mark.parametrize("cut", [0.2, 0.5, 0.97])
def test_a_broken_index_names_the_line_and_column_json_itself_names(workspace, monkeypatch, chunk, cut):
    text, _ = _laid_out_over_lines(60)
    at = text.index("\n", int(len(text) * cut))
    broken = text[:at] + "\n  ]oops" + text[at:]
    path = workspace / "memory" / "index.json"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(broken)
    monkeypatch.setattr(indexfile, "CHUNK", chunk)
    with pytest.raises(HippocampusError) as caught:
        indexfile.load(Workspace(workspace))
    assert f"line {expected.value.lineno}, column {expected.value.colno}" in str(caught.value)
    assert path.read_text(encoding="utf-8") == broken


@pytest.mark.parametrize("reader_first", [True, False])
def test_values_a_hand_edit_wrote_as_text_are_read_as_numbers_by_every_later_run(workspace, reader_first):
    """A memory is validated once after the file changed outside our runs; what validation changes (a number
    written as text) is saved, so the runs after it, which read the memories as the cache-described file holds
    them, see numbers: a recall first (which cannot save) must not make them trust the text."""
    write_index(
        workspace,
        [
            memory("mem_001", "The user's sister lives in Lisbon", importance="0.75", timesReinforced=2.0),
            memory("mem_002", "The user walks to work", importance=0.5),
        ],
        decayLastRun="2026-02-27",
        **{indexfile.RULES_KEY: redaction.RULES},  # saved under today's redaction rules: read without redacting
    )
    if reader_first:
        assert run_script("recall", "--no-touch", "sister", ws=workspace).returncode == 0
    for day in ("2026-03-01", "2026-03-02", "2026-03-03"):
        done = run_script("decay", ws=workspace, now=f"{day}T03:00:00Z")
        assert done.returncode == 0, done.stderr
    saved = {m["id"]: m for m in read_index(workspace)["memories"]}
    assert type(saved["mem_001"]["importance"]) is float and saved["mem_001"]["importance"] < 0.75
    assert saved["mem_001"]["timesReinforced"] == 2 and type(saved["mem_001"]["timesReinforced"]) is int
    assert saved["mem_002"]["importance"] < 0.5


def test_a_memory_larger_than_many_chunks_is_read_whole(workspace, monkeypatch):
    long = "word " * 40_000  # 200 kB of content, read through 64-byte chunks
    write_index(workspace, [memory("mem_001", long), memory("mem_002", "short")])
    monkeypatch.setattr(indexfile, "CHUNK", 64)
    loaded = indexfile.load(Workspace(workspace))
    assert [m.content for m in loaded.index.memories] == [long, "short"]


def _one_line_index(count: int, bom: bool = False, words: str = "mot ") -> tuple[bytes, list[dict]]:
    """An index as we save it (a memory a line) whose words are not all ASCII: accents, CJK, an emoji."""
    memories = [
        memory(f"mem_{i:03d}", f"Résumé {i} — 東京の友達 🎉 " + words * (i % 9), keywords=["café"] * (i % 3))
        for i in range(count)
    ]
    head = json.dumps({"version": 2, "redactionRules": redaction.RULES}, ensure_ascii=False)[:-1]
    lines = ",\n".join(json.dumps(m, ensure_ascii=False) for m in memories)
    text = f'{head}, "memories": [\n{lines}\n]}}\n'.encode()
    return (b"\xef\xbb\xbf" if bom else b"") + text, memories


@pytest.mark.parametrize("chunk", [1, 7, 64, 4096, 1 << 20])
@pytest.mark.parametrize("bom", [False, True])
def test_a_memory_on_a_line_of_its_own_is_read_again_from_the_file_as_the_bytes_it_was(
    workspace, monkeypatch, chunk, bom
):
    data, raw = _one_line_index(30, bom)
    path = workspace / "memory" / "index.json"
    path.write_bytes(data)
    monkeypatch.setattr(indexfile, "CHUNK", chunk)
    loaded = indexfile.load(Workspace(workspace))
    lines = data.split(b"\n")[1:-2]
    assert [m.encoded() for m in loaded.index.memories] == [line.removesuffix(b",") for line in lines]
    assert [m.to_dict() for m in loaded.index.memories] == raw


def test_a_loaded_store_holds_where_its_memories_are_not_their_text(workspace):
    import tracemalloc

    data, raw = _one_line_index(2000, words="a long remembered paragraph with its turns " * 25)
    (workspace / "memory" / "index.json").write_bytes(data)
    assert len(data) > 8_000_000
    tracemalloc.start()
    try:
        loaded = indexfile.load(Workspace(workspace))
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(loaded.index.memories) == 2000
    assert held < 2_000_000, held  # not the 8 MB of their text
    assert loaded.index.memories[1999].content == raw[1999]["content"]


@pytest.mark.parametrize("change", ["restored", "truncated"])
def test_an_index_changed_in_place_while_a_writer_holds_it_is_an_error_and_keeps_what_was_written(workspace, change):
    """`cp backup.json memory/index.json` writes into the file a writer read its memories' places from."""
    data, _ = _one_line_index(40)
    path = workspace / "memory" / "index.json"
    path.write_bytes(data)
    other = data.replace(b"mem_001", b"mem_999") if change == "restored" else data[: len(data) // 2]
    ws = Workspace(workspace)
    with pytest.raises(HippocampusError, match="changed by another program"):
        with writing.write(ws, NOW) as store:
            store.index.memories[0].content = "changed by this writer"
            store.changed(store.index.memories[0].id)
            with open(path, "r+b") as handle:  # in place: the same file, other bytes
                handle.write(other)
                handle.truncate()
    assert path.read_bytes() == other
    if change == "restored":  # each memory read from its place is that memory, or an error
        loaded = indexfile.load(ws)
        with open(path, "r+b") as handle:
            handle.write(b" " + data[:-1])
        with pytest.raises(HippocampusError, match="changed by another program"):
            [m.content for m in loaded.index.memories]
