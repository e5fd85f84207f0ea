"""The search cache: always what a build from index.json gives, whatever writes came before; stale the moment
index.json is another file; never something a reader waits for."""

import json
import math
import os
import random
import sqlite3
import subprocess
import sys
from array import array
from datetime import datetime, timedelta, timezone

from hypothesis import example, given, settings, strategies as st

from conftest import SCRIPTS, memory, read_index, run_script, write_index
from hippocampus import retention, search, writing
from hippocampus.ingestion.candidates import Candidates
from hippocampus.model import Memory
from hippocampus.store import archive, cache, cache_writer, indexfile, reading
from hippocampus.store.files import LOCK_WAIT_SECONDS
from hippocampus.workspace import Workspace

NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
WORDS = (
    "coffee tea dentist sister Lisbon Postgres migration garden piano budget invoice flight hotel doctor "
    "birthday recipe pasta laptop camera beach bike train exam novel podcast weather rain"
).split()


def varied_store(ws, count=120, seed=7):
    rng = random.Random(seed)
    memories = []
    for i in range(1, count + 1):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12)))
        day = f"2026-0{rng.randint(1, 2)}-{rng.randint(1, 28):02d}"
        extra: dict = {}
        if i % 37 == 0:
            extra["kind"] = "explicit"
        if i % 53 == 0:
            extra["supersededBy"] = "mem_001"
        if i % 41 == 0:
            extra["pinned"] = True
        if i % 5 == 0:
            extra["sources"] = [{"session": f"session-{i}", "message": f"m{i}", "ts": f"{day}T10:00:00Z"}]
        if i % 3 == 0:
            extra["episode"] = [
                {
                    "text": " ".join(rng.sample(WORDS, 4)),
                    "role": "assistant",
                    "source": {"session": "s", "message": f"t{i}"},
                }
            ]
        memories.append(
            memory(
                f"mem_{i:03d}",
                words,
                round(rng.uniform(0.1, 1.0), 3),
                created=day,
                lastAccessed=day,
                domain=rng.choice(["user", "world", "self"]),
                keywords=rng.sample(WORDS, 2),
                **extra,
            )
        )
    write_index(ws, memories, decayLastRun="2026-02-15")
    return Workspace(ws)


def contents(view: cache.Cache) -> dict:
    """Everything a cache holds, keyed by memory id (document numbers are its own business)."""
    ids = dict(view.db.execute("SELECT doc, id FROM docs"))
    rows = {
        row[1]: row[2:]
        for row in view.db.execute("SELECT * FROM docs")  # every column but the document number
    }
    bodies = {ids[doc]: cache.unpacked(body) for doc, body in view.db.execute("SELECT doc, body FROM bodies")}
    postings = {}
    for term, docs, tfs, lengths in view.db.execute("SELECT term, docs, tfs, lengths FROM terms"):
        arrays = [array("I"), array("f"), array("f")]
        for part, data in zip(arrays, (docs, tfs, lengths), strict=True):
            part.frombytes(data)
        assert list(arrays[0]) == sorted(arrays[0]), term  # kept in document order
        postings[term] = {ids[d]: (t, n) for d, t, n in zip(*arrays, strict=True)}
    topics = {}
    for term, docs in view.db.execute("SELECT term, docs FROM topics"):
        found = array("I", docs)
        assert list(found) == sorted(found), term
        topics[term] = sorted(ids[d] for d in found)
    sessions = {}
    for session, docs in view.db.execute("SELECT key, docs FROM sessions"):
        found = array("I", docs)
        assert list(found) == sorted(found), session
        sessions[session] = sorted(ids[d] for d in found)
    commitments = {ids[row[0]]: row[1:] for row in view.db.execute("SELECT * FROM commitments")}
    return {
        "rows": rows,
        "bodies": bodies,
        "postings": postings,
        "topics": topics,
        "sessions": sessions,
        "commitments": commitments,
        "count": view.count,
    }


def rebuilt(ws: Workspace, today) -> dict:
    index = indexfile.load(ws).index
    fresh = cache_writer.in_memory(index, today, archive.searchable(ws, {m.id for m in index.memories}))
    try:
        return contents(fresh)
    finally:
        fresh.close()


def on_disk(ws: Workspace, today) -> dict:
    view = reading.for_reading(ws, today)
    try:
        return contents(view)
    finally:
        view.close()


def hits(ws, query, now=NOW, **kw):
    view = reading.for_reading(ws, now.date())
    try:
        return [(h.memory.id, h.score) for h in search.rank(view, query, now, **kw)]
    finally:
        view.close()


# --- what a write leaves is what a build gives -----------------------------------------------------------------

EDITS = st.lists(
    st.tuples(
        st.sampled_from(
            ["content", "add", "remove", "supersede", "pin", "touch", "turn", "importance", "archive", "restore"]
        ),
        st.integers(0, 10_000),
        st.sampled_from(WORDS),
    ),
    min_size=1,
    max_size=12,
)


@given(rounds=st.lists(EDITS, min_size=1, max_size=4))
@example(rounds=[[("archive", 0, "tea"), ("archive", 0, "tea"), ("restore", 0, "tea"), ("archive", 272, "tea")]])
@example(rounds=[[("archive", 0, "tea")], [("restore", 0, "tea"), ("remove", 39, "tea")]])  # restored, taken out
@settings(max_examples=25, deadline=None)
def test_after_any_writes_the_cache_holds_what_a_build_from_the_saved_index_holds(tmp_path_factory, rounds):
    ws = varied_store(tmp_path_factory.mktemp("ws"), count=40)
    on_disk(ws, NOW.date())  # built once; every write below updates it in place
    for number, edits in enumerate(rounds):
        now = NOW + timedelta(days=number)
        with writing.write(ws, now) as store:
            memories = store.index.memories
            for kind, at, word in edits:
                if not memories:
                    break
                target = memories[at % len(memories)]
                if kind == "content":
                    target.content = f"{target.content} {word}"
                elif kind == "add":
                    store.add(Memory(id=store.index.next_id(), content=f"a new note on {word}", created="2026-03-01"))
                    continue
                elif kind == "remove":
                    memories.remove(target)
                elif kind == "archive":  # as consolidation moves a faded memory out of the index
                    memories.remove(target)
                    target.extra["archived"] = True
                    archive.add(ws, [target], {m.id for m in memories})
                    store.shelved[target.id] = target
                elif kind == "restore":  # as recall --archive brings one back
                    shelf = list(archive.searchable(ws, {m.id for m in memories}))
                    if not shelf:
                        continue
                    back = archive.restore(ws, store.index, [shelf[at % len(shelf)].id], now)
                    store.changed(*back)
                    store.after_save.append(lambda back=back: archive.drop(ws, back, store.index))
                    continue
                elif kind == "supersede":
                    target.extra["supersededBy"] = memories[0].id
                elif kind == "pin":
                    target.extra["pinned"] = True
                elif kind == "touch":
                    target.lastAccessed = now.isoformat()
                elif kind == "turn":
                    target.raw.setdefault("episode", []).append(
                        {"text": f"and {word} again", "role": "user", "source": {"session": "x", "message": word}}
                    )
                elif kind == "importance":
                    target.importance = round((at % 100) / 100, 2)
                store.changed(target.id)
        assert on_disk(ws, now.date()) == rebuilt(ws, now.date())


def test_a_build_that_writes_its_postings_out_in_parts_builds_the_same_cache(workspace, monkeypatch):
    ws = varied_store(workspace, count=60)
    whole = rebuilt(ws, NOW.date())
    monkeypatch.setattr(cache_writer, "POSTINGS_HELD", 7)  # written out every memory or two
    parts = rebuilt(ws, NOW.date())
    assert parts == whole and len(whole["postings"]) > 20 and whole["topics"]


def test_the_average_length_is_the_sum_of_the_lengths_over_the_count_after_many_writes(workspace):
    ws = varied_store(workspace, count=50)
    for round_ in range(20):
        with writing.write(ws, NOW) as store:
            for target in store.index.memories[round_ % 7 :: 9]:
                target.content += f" {WORDS[round_ % len(WORDS)]} in May {2020 + round_ % 5}"
                store.changed(target.id)
    view = reading.for_reading(ws, NOW.date())
    lengths = [length for (length,) in view.db.execute("SELECT length FROM docs")]
    assert view.count == len(lengths) == 50
    assert math.isclose(view.average_length, math.fsum(lengths) / 50, rel_tol=1e-12)
    view.close()


def test_decay_leaves_the_cache_as_it_was_but_for_anchors_edited_by_hand(workspace):
    ws = varied_store(workspace, count=60)
    assert run_script("decay", ws=workspace, now="2026-03-01T04:00:00Z").returncode == 0
    before = on_disk(ws, NOW.date())
    data = read_index(workspace)
    data["memories"][4]["importance"] = 0.99  # a hand edit: the anchor moves
    (workspace / "memory" / "index.json").write_text(json.dumps(data))
    assert run_script("decay", ws=workspace, now="2026-03-02T04:00:00Z").returncode == 0
    after = on_disk(ws, NOW.date())
    assert after == rebuilt(ws, NOW.date())
    moved = {k for k in before["rows"] if before["rows"][k] != after["rows"][k]}
    assert moved == {data["memories"][4]["id"]}


def test_a_write_that_changes_more_memories_than_one_part_leaves_the_cache_a_build_would_give(workspace):
    """The rows of changed memories are redone a part at a time (cache_writer.UPDATE_PART): changes that span several
    parts, archived memories among them, below the share that builds the cache anew."""
    ws = varied_store(workspace, count=5 * cache_writer.UPDATE_PART)
    on_disk(ws, NOW.date())
    with writing.write(ws, NOW) as store:
        memories = store.index.memories
        changed = sorted(memories, key=lambda m: m.id)[: cache_writer.UPDATE_PART - 50]
        for n, target in enumerate(changed):
            if n % 10 == 0:  # archived, still searchable
                target.extra["archived"] = True
                archive.add(ws, [target], set())
                store.shelved[target.id] = target
                memories.remove(target)
            else:
                target.content = f"{target.content} tangerine {n}"
            store.changed(target.id)
        for n in range(120):  # new memories, numbered on in both parts
            store.add(Memory(store.index.next_id(), f"clementine {n}", created="2026-03-01"))
        ordered = sorted(store.changed_ids)
        parts = {
            ordered.index(m.id) // cache_writer.UPDATE_PART for m in store.index.memories if "clementine" in m.content
        }
        assert parts == {0, 1} and len(ordered) < cache_writer.REBUILT_ABOVE * len(store.index.memories)
    assert on_disk(ws, NOW.date()) == rebuilt(ws, NOW.date())
    assert hits(ws, "tangerine", top=3)


def test_a_decay_that_moves_every_anchor_leaves_the_cache_a_build_would_give_its_words_and_bodies_as_they_were(
    workspace,
):
    """The first decay of a store no decay anchored (the old skill's, or one edited by hand) gives every memory an
    anchor: the rows' dates are rewritten, the words and bodies stay as they were, and the cache is what a build from
    the saved index gives."""
    ws = varied_store(workspace, count=60)
    before = on_disk(ws, NOW.date())  # a reader builds the cache: it describes index.json
    with writing.write(ws, NOW) as store:
        report = retention.decay_index(store.index, NOW)
        store.redated(*report.moved)
    assert len(report.moved) > 0.25 * 60, "more than a rebuild's share of the store"
    after = on_disk(ws, NOW.date())
    assert after == rebuilt(ws, NOW.date())
    assert after["postings"] == before["postings"] and after["bodies"] == before["bodies"]
    assert {k for k in before["rows"] if before["rows"][k] != after["rows"][k]} <= set(report.moved)


# --- stale the moment index.json is another file ----------------------------------------------------------------


def test_a_hand_edit_of_the_index_is_seen_by_the_next_recall(workspace):
    ws = varied_store(workspace, count=50)
    assert hits(ws, "zeppelin") == []
    data = read_index(workspace)
    data["memories"][3]["content"] = "We flew in a zeppelin over the lake"
    (workspace / "memory" / "index.json").write_text(json.dumps(data))
    assert [i for i, _ in hits(ws, "zeppelin")] == [data["memories"][3]["id"]]


def test_a_hand_edit_followed_by_decay_on_the_same_day_is_not_lost(workspace):
    ws = varied_store(workspace, count=50)
    hits(ws, "coffee")  # build the cache
    data = read_index(workspace)
    data["memories"][0]["content"] = "The zeppelin museum reopens in May"
    (workspace / "memory" / "index.json").write_text(json.dumps(data))
    assert run_script("decay", ws=workspace).returncode == 0
    assert [i for i, _ in hits(ws, "zeppelin")] == ["mem_001"]


def test_a_corrupt_cache_file_is_rebuilt(workspace):
    ws = varied_store(workspace, count=30)
    expected = hits(ws, "coffee")
    for suffix in ("", "-wal", "-shm"):
        cache.path_of(ws).with_name(cache.path_of(ws).name + suffix).unlink(missing_ok=True)
    cache.path_of(ws).write_bytes(b"this is not a database" * 100)
    assert hits(ws, "coffee") == expected
    done = run_script("recall", "coffee", "--json", "--no-touch", ws=workspace)
    assert done.returncode == 0 and json.loads(done.stdout)["results"]


def edit_in_place_keeping_size_mtime_and_inode(path, old: bytes, new: bytes) -> None:
    """What `cp -p`, an editor writing in place or a sync tool can do: same file, same length, same mtime."""
    assert len(old) == len(new)
    before = os.stat(path)
    data = path.read_bytes()
    assert data.count(old) == 1
    with open(path, "r+b") as handle:
        handle.seek(data.index(old))
        handle.write(new)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)


def test_an_edit_in_place_that_keeps_size_mtime_and_inode_is_seen_by_the_next_recall(workspace):
    ws = varied_store(workspace, count=50)
    target = read_index(workspace)["memories"][3]
    assert hits(ws, "zeppelin") == []
    old = target["content"].encode()
    new = b"zeppelin " + old[len(b"zeppelin ") :]
    edit_in_place_keeping_size_mtime_and_inode(ws.index, old, new)
    assert [i for i, _ in hits(ws, "zeppelin")] == [target["id"]]


def test_a_write_of_ours_followed_by_an_edit_in_place_is_seen_by_encode_and_decay(workspace):
    ws = varied_store(workspace, count=50)
    assert run_script("decay", ws=workspace, now="2026-03-01T04:00:00Z").returncode == 0
    target = read_index(workspace)["memories"][7]
    old = target["content"].encode()
    new = b"zeppelin " + old[len(b"zeppelin ") :]
    edit_in_place_keeping_size_mtime_and_inode(ws.index, old, new)
    assert run_script("decay", ws=workspace, now="2026-03-02T04:00:00Z").returncode == 0
    assert {m["id"]: m for m in read_index(workspace)["memories"]}[target["id"]]["content"].startswith("zeppelin")
    assert [i for i, _ in hits(ws, "zeppelin")] == [target["id"]]


def test_a_change_of_permissions_alone_does_not_rebuild_the_cache(workspace):
    ws = varied_store(workspace, count=50)
    hits(ws, "coffee")
    marker = "SELECT value FROM meta WHERE key = 'index'"
    db = sqlite3.connect(cache.path_of(ws), isolation_level=None)
    built = db.execute("SELECT COUNT(*) FROM docs").fetchone()[0]
    db.execute("DELETE FROM docs WHERE id = 'mem_001'")  # a change only a rebuild would undo
    db.close()
    os.chmod(ws.index, 0o600)  # the change time moves, the contents do not
    view = reading.for_reading(ws, NOW.date())
    assert view.db.execute("SELECT COUNT(*) FROM docs").fetchone()[0] == built - 1
    assert view.db.execute(marker).fetchone()[0]
    view.close()


def test_a_write_of_ours_made_invalid_by_an_edit_in_place_is_refused_and_kept(workspace):
    ws = varied_store(workspace, count=20)
    assert run_script("decay", ws=workspace, now="2026-03-01T04:00:00Z").returncode == 0
    data = ws.index.read_bytes()
    old = b'"timesReinforced": 0'
    broken = data.replace(old, b'"timesReinforced": -', 1)
    ws.index.write_bytes(broken)
    for name, args in (("recall", ("coffee",)), ("decay", ()), ("encode", ("--no-preprocess",))):
        done = run_script(name, *args, ws=workspace, now="2026-03-03T04:00:00Z")
        assert done.returncode == 1 and "index.json" in done.stderr, (name, done.stderr)
    assert ws.index.read_bytes() == broken


# --- never something a reader waits for -------------------------------------------------------------------------

HOLD = """
import sys, time
sys.path.insert(0, {scripts!r})
from hippocampus.store import files
from hippocampus.workspace import Workspace
with files.workspace_lock(Workspace(__import__("pathlib").Path({ws!r}))):
    print("held", flush=True)
    time.sleep({seconds})
"""


def hold_the_lock(ws, seconds=60) -> subprocess.Popen:
    """Another process holding the workspace lock, as a long encode does."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD.format(scripts=str(SCRIPTS), ws=str(ws), seconds=seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def test_recall_and_load_core_answer_at_once_while_another_process_holds_the_lock(workspace):
    varied_store(workspace, count=80)
    run_script("sync_core", ws=workspace)
    holder = hold_the_lock(workspace, seconds=600)
    try:
        # Each finishes while the holder still holds the lock: one that waited for it would give up only after
        # LOCK_WAIT_SECONDS (120), and its process is stopped well before that.
        done = run_script("recall", "coffee", "--json", ws=workspace, spawn=True, timeout=LOCK_WAIT_SECONDS / 2)
        assert done.returncode == 0 and json.loads(done.stdout)["results"], done.stderr
        core = run_script("load_core", ws=workspace, spawn=True, timeout=LOCK_WAIT_SECONDS / 2)
        assert core.returncode == 0 and "Core memories" in core.stdout
        assert holder.poll() is None
        # The recall recorded its access without the lock: the next write folds it in.
        recorded = (workspace / "memory" / "touches.jsonl").read_text()
        assert json.loads(done.stdout)["results"][0]["id"] in recorded
    finally:
        holder.kill()
        holder.wait()


def test_a_reader_answers_from_the_last_snapshot_while_a_writer_holds_the_lock_then_sees_the_write(workspace):
    ws = varied_store(workspace, count=40)
    hits(ws, "coffee")
    data = read_index(workspace)
    data["memories"][2]["content"] = "The zeppelin museum reopens in May"
    holder = hold_the_lock(workspace)
    try:
        # index.json replaced while a writer holds the lock (as the writer itself does before it updates the
        # cache): the reader answers from the cache as it was, a consistent snapshot, without waiting.
        (workspace / "memory" / "index.json").write_text(json.dumps(data))
        assert hits(ws, "zeppelin") == []
        assert [i for i, _ in hits(ws, "coffee")]
    finally:
        holder.kill()
        holder.wait()
    assert [i for i, _ in hits(ws, "zeppelin")] == [data["memories"][2]["id"]]


def test_with_no_cache_yet_a_reader_reads_index_json_while_a_writer_holds_the_lock(workspace):
    ws = varied_store(workspace, count=40)
    assert not cache.path_of(ws).exists()
    workspace = ws.root
    holder = hold_the_lock(workspace)
    try:
        found = hits(ws, "coffee")
        assert found and not cache.path_of(ws).exists()  # answered from memory, nothing written
    finally:
        holder.kill()
        holder.wait()
    assert hits(ws, "coffee") == found


def test_a_reader_reads_one_snapshot_whatever_a_writer_commits_meanwhile(workspace):
    ws = varied_store(workspace, count=40)
    reader = reading.for_reading(ws, NOW.date())
    try:
        [(doc, _, _), *_] = reader.postings("coffee") or reader.postings("tea")
        (memory_id,) = reader.db.execute("SELECT id FROM docs WHERE doc = ?", (doc,)).fetchone()
        with writing.write(ws, NOW) as store:  # commits while the reader is between two questions
            store.index.memories[:] = [m for m in store.index.memories if m.id != memory_id]
            store.changed(memory_id)
        assert reader.fetch([doc], NOW.date())[doc].id == memory_id
        assert reader.facts([doc], NOW)[doc].id == memory_id
    finally:
        reader.close()
    after = reading.for_reading(ws, NOW.date())
    try:
        assert after.fetch([doc], NOW.date()) == {}
    finally:
        after.close()


def test_an_archived_memory_stays_findable_by_recall_and_out_of_every_other_view(workspace):
    write_index(
        workspace,
        [memory("mem_001", "User drinks green tea", 0.8), memory("mem_002", "User keeps bees on the roof", 0.9)],
    )
    ws = Workspace(workspace)
    with writing.write(ws, NOW) as store:
        bees = store.index.by_id()["mem_002"]
        store.index.memories.remove(bees)
        bees.extra["archived"] = True
        archive.add(ws, [bees], {"mem_001"})
        store.shelved[bees.id] = bees
        store.changed(bees.id)
    assert [m["id"] for m in read_index(workspace)["memories"]] == ["mem_001"]
    for view in (
        reading.for_reading(ws, NOW.date()),
        cache_writer.in_memory(indexfile.load(ws).index, NOW.date(), archive.searchable(ws, {"mem_001"})),
    ):
        try:
            found = search.rank(view, "bees roof", NOW)
            assert [(h.memory.id, h.memory.archived) for h in found] == [("mem_002", True)]
            total, core = view.core(NOW.date(), 0.0)
            assert total == 1 and [m.id for m, _ in core] == ["mem_001"]
            tallies = census(view, 10, 10)
            assert [s.memory.id for s in tallies.top] == ["mem_001"] and tallies.total == 1
            assert view.topic_docs("bee") == view.topic_docs("nothing-here")
        finally:
            view.close()


def census(view, bins, top):
    tally = cache.Census(bins, top)
    view.tally(NOW.date(), tally)
    return tally


def shelves(view, shelf_of, limit):
    tally = cache.Shelves(shelf_of, limit)
    view.tally(NOW.date(), tally)
    return tally.read(view, NOW.date())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from([0.0, 0.25, 0.5, 0.5, 0.75, 1.0]), st.integers(0, 3)), max_size=60),
    st.integers(0, 7),
)
def test_the_best_rows_are_those_a_sort_of_them_all_puts_first_ties_and_all(values, limit):
    rows = [
        (value, None, f"mem_{n:03d}", None, None, None, None, None, None, times)
        for n, (value, times) in enumerate(values)
    ]
    random.Random(len(rows)).shuffle(rows)
    best = cache.Best(limit, lambda row: (-row[0], -row[9], row[2]))
    for row in rows:
        best.add(row)
        assert len(best.rows) <= cache.HELD_PER_LISTED * limit
    assert best.best() == sorted(rows, key=lambda row: (-row[0], -row[9], row[2]))[:limit]


def test_the_published_views_list_the_best_memories_of_a_store_far_larger_than_they_list(workspace):
    ws = varied_store(workspace, count=120)
    index = indexfile.load(ws).index
    view = cache_writer.in_memory(index, NOW.date())
    try:
        every = list(census(view, 10, len(index.memories)).top)  # everything: nothing let go while reading
        for limit in (1, 3):  # rows let go as they are read, twice the limit at a time
            expected = sorted(every, key=lambda s: (-s.importance, -s.reinforced, s.memory.id))[:limit]
            assert [s.memory.id for s in census(view, 10, limit).top] == [s.memory.id for s in expected]
            for (domain, _), shelf in shelves(view, lambda category: category, limit):
                mine = [s for s in every if s.domain == domain and not s.memory.superseded]
                assert shelf.total == sum(1 for s in mine if s.memory.category == shelf.memories[0][0].category)
                best = sorted(
                    (s for s in mine if s.memory.category == shelf.memories[0][0].category),
                    key=lambda s: (-s.importance, s.memory.id),
                )[:limit]
                assert [m.id for m, _ in shelf.memories] == [s.memory.id for s in best]
    finally:
        view.close()


def test_over_the_cache_the_same_fact_lookup_knows_what_reading_every_memory_would(workspace):
    # Encoding's lookup reads, over a cache, only the commitments and the memories holding messages of the run's
    # sessions (the cache says which); it must know the same messages held, the same latest memory of each session
    # and the same commitments, in the same order, as reading every memory.
    rng = random.Random(11)
    sessions = ["alpha", "beta", "gamma", "7", "delta"]
    stored = []
    for i in range(1, 90):
        fields: dict = {}
        if i % 2:
            fields["sources"] = (
                [
                    {"session": rng.choice(sessions), "message": f"m{i}-{n}", "ts": f"2026-02-{rng.randint(1, 28):02d}"}
                    for n in range(rng.randint(1, 3))
                ]
                + ([{"session": 7, "message": i}] if i % 9 == 0 else [])
                + ([{"message": "no session"}] if i % 11 == 0 else [])
            )
        if i % 4 == 0:
            fields["episode"] = [
                {"text": "a turn", "role": "user", "source": {"session": rng.choice(sessions), "message": f"t{i}"}}
            ]
        if i % 7 == 0:
            fields.update(kind="commitment", task=f"task {i}", status="open")
        if i % 13 == 0 or i == 14:
            fields["supersededBy"] = "mem_001"
        if i % 17 == 0 or i == 21:
            fields["archived"] = True
        stored.append(memory(f"mem_{i:03d}", f"fact {i} " + " ".join(rng.sample(WORDS, 3)), **fields))
    write_index(workspace, stored)
    ws = Workspace(workspace)
    with writing.write(ws, NOW) as store:
        assert store.cache is not None
        changed = store.index.memories[2]  # changed in this write: its row in the cache is out of date
        changed.raw.setdefault("sources", []).append({"session": "gamma", "message": "late", "ts": "2026-03-01"})
        store.changed(changed.id)
        for asked in ({"alpha"}, {"gamma", "7"}, set(sessions), set()):
            fast = Candidates(store.index.memories, store.cache, stale=store.changed_ids, sessions=asked)
            whole = Candidates(store.index.memories, sessions=asked)
            assert fast.held == whole.held
            assert {s: (w, m.id) for s, (w, m) in fast.latest.items()} == {
                s: (w, m.id) for s, (w, m) in whole.latest.items()
            }
            assert [m.id for m in fast.commitments] == [m.id for m in whole.commitments]
            assert any(m.superseded or m.archived for m in fast.commitments)
            assert (("gamma", "late") in fast.held) == ("gamma" in asked)
