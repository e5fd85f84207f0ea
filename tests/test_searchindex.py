"""The disk-cached search structure answers exactly like a search over the whole index, and never goes stale."""

import json
import math
import os
import random

from hypothesis import given, settings, strategies as st
from datetime import datetime, timezone

from conftest import memory, read_index, run_script, write_index
from hippocampus import search
from hippocampus.errors import HippocampusError
from hippocampus.store import cache
from hippocampus.published.selection import select_core
from hippocampus.workspace import Workspace
from hippocampus.store import indexfile, model, transaction
from hippocampus.store.views import IndexView

NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
WORDS = (
    "coffee tea dentist sister Lisbon Postgres migration garden piano budget invoice flight hotel doctor "
    "birthday recipe pasta laptop camera beach bike train exam novel podcast weather rain"
).split()


def varied_store(ws, count=400, seed=7):
    rng = random.Random(seed)
    memories = []
    for i in range(1, count + 1):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12)))
        day = f"2026-0{rng.randint(1, 2)}-{rng.randint(1, 28):02d}"
        extra = {}
        if i % 37 == 0:
            extra["kind"] = "explicit"
        if i % 53 == 0:
            extra["supersededBy"] = "mem_001"
        if i % 41 == 0:
            extra["pinned"] = True
        if i % 5 == 0:
            extra["sources"] = [{"session": f"session-{i}", "message": f"m{i}", "ts": f"{day}T10:00:00Z"}]
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


def plain(ws, query, **kw):
    index = transaction.read(ws)
    return [(h.memory.id, h.score) for h in search.rank(IndexView(index), query, NOW, **kw)]


def cached_view(ws):
    view = cache.open_view(ws, NOW.date())
    assert isinstance(view, cache.CacheView)
    return view


def cached(ws, query, **kw):
    return [(h.memory.id, h.score) for h in search.rank(cached_view(ws), query, NOW, **kw)]


def test_the_cache_ranks_exactly_like_a_search_over_the_whole_index(workspace):
    ws = varied_store(workspace)
    for query in ["coffee", "sister Lisbon", "migration budget flight", "rain", "nothing-like-this", "piano exam"]:
        for kw in ({}, {"top": 20}, {"domain": "world"}, {"include_all": True, "top": 10}, {"min_score": 0.5}):
            assert cached(ws, query, **kw) == plain(ws, query, **kw), (query, kw)


def test_load_core_from_the_cache_equals_load_core_from_the_index(workspace):
    ws = varied_store(workspace)
    for threshold, budget in ((0.7, 1500), (0.5, 400), (0.9, 5000)):
        a = select_core(IndexView(transaction.read(ws)), NOW, threshold, budget)
        b = select_core(cached_view(ws), NOW, threshold, budget)
        assert a.total == b.total
        assert [[i.memory.id for i in items] for _, _, items in a.sections()] == [
            [i.memory.id for i in items] for _, _, items in b.sections()
        ]


def test_a_hand_edit_of_the_index_is_seen_by_the_next_recall(workspace):
    ws = varied_store(workspace, count=50)
    assert cached(ws, "zeppelin") == []
    data = read_index(workspace)
    data["memories"][3]["content"] = "We flew in a zeppelin over the lake"
    (workspace / "memory" / "index.json").write_text(json.dumps(data))
    assert [i for i, _ in cached(ws, "zeppelin")] == [data["memories"][3]["id"]]


def test_a_hand_edit_followed_by_decay_on_the_same_day_is_not_lost(workspace):
    ws = varied_store(workspace, count=50)
    cached(ws, "coffee")  # build the cache
    data = read_index(workspace)
    data["memories"][0]["content"] = "The zeppelin museum reopens in May"
    (workspace / "memory" / "index.json").write_text(json.dumps(data))
    assert run_script("decay", ws=workspace).returncode == 0
    assert [i for i, _ in cached(ws, "zeppelin")] == ["mem_001"]


def test_writes_update_the_cache_in_place_for_the_memories_they_declare(workspace):
    ws = varied_store(workspace, count=50)
    cached(ws, "coffee")
    before = os.stat(ws.cache / "recall.sqlite").st_ino
    with transaction.transaction(ws, NOW) as txn:
        txn.index.memories.append(_new_memory(txn.index.next_id()))
        txn.index.memories[0].content = "A gondola ride in Venice"
        txn.changed([txn.index.memories[-1].id, txn.index.memories[0].id])
        txn.dirty = True
    assert os.stat(ws.cache / "recall.sqlite").st_ino == before
    assert [i for i, _ in cached(ws, "gondola")] == ["mem_001"]
    assert [i for i, _ in cached(ws, "kayak")] == ["mem_051"]
    assert cached(ws, "coffee") == plain(ws, "coffee")
    with transaction.transaction(ws, NOW) as txn:  # one memory gone, one longer: the totals follow
        txn.index.memories[7].content += " and then a long walk along the canals of the old town"
        del txn.index.memories[5]
        txn.changed(["mem_006", "mem_008"])
        txn.dirty = True
    for round_ in range(30):  # many writes: the running total stays the exact sum (lengths are not whole numbers)
        with transaction.transaction(ws, NOW) as txn:
            for memory in txn.index.memories[round_ % 7 :: 9]:
                memory.content += f" {WORDS[round_ % len(WORDS)]} in May {2020 + round_ % 5}"
                txn.changed([memory.id])
            txn.dirty = True
    view = cached_view(ws)
    lengths = [length for (length,) in view.db.execute("SELECT length FROM docs")]
    assert any(not length.is_integer() for length in lengths)
    assert view.count == len(lengths) == 50
    assert view.average_length == math.fsum(lengths) / 50 == IndexView(transaction.read(ws)).average_length
    assert cached(ws, "canals walk coffee") == plain(ws, "canals walk coffee")


def _new_memory(mid):
    from hippocampus.store.model import Memory

    return Memory(id=mid, content="Bought a kayak", importance=0.8, created="2026-03-01", lastAccessed="2026-03-01")


def test_recorded_touches_show_in_cached_results_and_survive_the_next_write(workspace):
    ws = varied_store(workspace, count=50)
    done = run_script("recall", "coffee", "--json", "--top", "1", ws=workspace)
    top = json.loads(done.stdout)["results"][0]["id"]
    again = json.loads(
        run_script(
            "recall", "coffee", "--json", "--top", "1", "--no-touch", ws=workspace, now="2026-03-01T12:00:00Z"
        ).stdout
    )["results"][0]
    assert again["parts"]["recency"] == 1.0 and again["id"] == top
    run_script("decay", ws=workspace, now="2026-03-02T00:00:00Z")
    assert not (workspace / "memory" / "touches.jsonl").read_text()
    stored = {m["id"]: m for m in read_index(workspace)["memories"]}[top]
    assert stored["lastAccessed"] == "2026-03-01T12:00:00Z"
    assert cached(ws, "coffee") == plain(ws, "coffee")


def test_a_corrupt_cache_file_is_rebuilt(workspace):
    ws = varied_store(workspace, count=30)
    expected = plain(ws, "coffee")
    ws.cache.mkdir(parents=True, exist_ok=True)
    (ws.cache / "recall.sqlite").write_bytes(b"this is not a database" * 100)
    assert cached(ws, "coffee") == expected
    done = run_script("recall", "coffee", "--json", "--no-touch", ws=workspace)
    assert done.returncode == 0 and json.loads(done.stdout)["results"]


def test_the_dashboard_from_the_cache_shows_what_the_dashboard_from_the_index_shows(workspace):
    from hippocampus.published import dashboard_data

    ws = varied_store(workspace, count=300)
    index = transaction.read(ws)
    from_index = dashboard_data.build(IndexView(index), NOW, limit=50)
    from_cache = dashboard_data.build(cached_view(ws), NOW, limit=50)
    for key in ("total", "tierCounts", "domains", "histogram", "projection", "growth", "pinned", "reinforcedTotal"):
        assert from_cache[key] == from_index[key], key
    assert [m["id"] for m in from_cache["memories"]] == [m["id"] for m in from_index["memories"]]
    assert from_cache["top"] == from_index["top"]


def test_mirror_shelves_from_the_cache_equal_those_from_the_index(workspace):
    from hippocampus.published import mirrors

    ws = varied_store(workspace, count=300)
    index = transaction.read(ws)
    plain = IndexView(index).shelves(NOW.date(), mirrors.file_name, 20)
    plain = {key: [(m.id, round(v, 6)) for m, v in shelf] for key, shelf in plain.items()}
    cached = cached_view(ws).shelves(NOW.date(), mirrors.file_name, 20)
    cached = {key: [(m.id, round(v, 6)) for m, v in shelf] for key, shelf in cached.items()}
    assert cached == plain and max(len(shelf) for shelf in plain.values()) == 20
    assert cached_view(ws).shelf_counts(mirrors.file_name) == IndexView(index).shelf_counts(mirrors.file_name)


def test_encoding_against_the_cache_decides_like_encoding_against_the_loaded_store(tmp_path):
    from hippocampus.ingestion import encoding

    ws = varied_store(tmp_path / "ws", count=300)
    index = transaction.read(ws)
    cached, seen = encoding.lookups(cached_view(ws))
    in_memory, _ = encoding.lookups(IndexView(index))
    plain = encoding.Candidates(index.memories)
    for words in ("coffee tea dentist", "sister Lisbon piano", "rain weather beach bike", "budget invoice"):
        topic = encoding.topic_terms(words)
        a = cached.lookup(topic, False, limit=5)
        b = plain.lookup(topic, False, limit=5)
        # Both compare only the memories sharing the most rare terms; what decides reinforce or update is the same.
        assert [(m.id, v) for m, v in a if v >= encoding.SAME_TOPIC] == [
            (m.id, v) for m, v in b if v >= encoding.SAME_TOPIC
        ], words
        assert a[0][1] == b[0][1], words
        assert [(m.id, v) for m, v in in_memory.lookup(topic, False, limit=5)] == [(m.id, v) for m, v in a], words
    with_sources = [m for m in index.memories if m.sources]
    assert with_sources and all((m.sources[0]["session"], m.sources[0]["message"]) in seen for m in with_sources)
    assert ("no-such-session", "x") not in seen and ("session-5", "m6") not in seen


def test_a_write_of_a_few_memories_never_rebuilds_the_cache_from_those_few(workspace):
    ws = varied_store(workspace, count=50)
    cached_view(ws)
    few = model.Index(memories=indexfile.load_index(ws).memories[:2], meta={})
    # The cache does not match the file this write claims to have loaded: only a full index could rebuild it.
    cache.refresh_after_write(ws, few, "not-the-loaded-file", {few.memories[0].id}, NOW.date(), partial=True)
    assert not (ws.cache / "recall.sqlite").exists()
    assert len(cached(ws, "coffee")) == len(plain(ws, "coffee"))


def episode_store(ws, count=120, seed=3):
    """Memories with turns attached, several sessions each continued over several memories."""
    rng = random.Random(seed)
    memories = []
    for i in range(1, count + 1):
        session = f"s{i % 7}"
        turns = [
            {
                "text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))),
                "role": "assistant",
                "source": {"session": session, "message": f"t{i}-{n}", "ts": f"2026-02-{i % 28 + 1:02d}T1{n}:00:00Z"},
            }
            for n in range(rng.randint(0, 3))
        ]
        memories.append(
            memory(
                f"mem_{i:03d}",
                " ".join(rng.choice(WORDS) for _ in range(5)),
                0.6,
                sources=[{"session": session, "message": f"m{i}", "ts": f"2026-02-{i % 28 + 1:02d}T09:00:00Z"}],
                **({"episode": turns} if turns else {}),
            )
        )
    write_index(ws, memories, decayLastRun="2026-02-15")
    return Workspace(ws)


def test_the_cache_ranks_and_orders_attached_turns_exactly_like_a_search_over_the_whole_index(workspace):
    ws = episode_store(workspace)
    index = transaction.read(ws)
    view = cached_view(ws)
    for query in ["coffee", "sister Lisbon", "migration budget flight", "piano exam"]:
        a = [
            (h.memory.id, h.score, [s["message"] for s in h.sources], h.turn)
            for h in search.rank(IndexView(index), query, NOW, top=8)
        ]
        b = [
            (h.memory.id, h.score, [s["message"] for s in h.sources], h.turn)
            for h in search.rank(view, query, NOW, top=8)
        ]
        assert a == b, query


def test_the_cache_knows_each_session_s_latest_memory_and_every_attached_turn(workspace):
    from hippocampus.ingestion import encoding

    ws = episode_store(workspace)
    index = transaction.read(ws)
    cached, seen = encoding.lookups(cached_view(ws))
    in_memory, _ = encoding.lookups(IndexView(index))
    for session in [f"s{n}" for n in range(7)] + ["no-such-session"]:
        held = [
            (max(str(s["ts"]) for s in m.every_source() if s["session"] == session), len(m.id), m.id)
            for m in index.memories
            if any(s["session"] == session for s in m.every_source())
        ]
        expected = max(held)[2] if held else None
        a, c = cached.latest_in_session(session), in_memory.latest_in_session(session)
        assert (a and a.id) == (c and c.id) == expected, session
    turn = next(t for m in index.memories for t in m.episode)
    assert (turn["source"]["session"], turn["source"]["message"]) in seen


def whole(memory) -> dict:
    """A memory as stored, less the decay anchor a cached copy carries."""
    return {k: v for k, v in memory.to_dict().items() if k != "decay"}


def test_a_lookup_against_the_cache_holds_whole_only_the_memories_it_returns(workspace):
    from hippocampus.ingestion import encoding

    ws = episode_store(workspace, count=300)
    by_id = transaction.read(ws).by_id()
    cached, _ = encoding.lookups(cached_view(ws))
    returned = set()
    for words in ("coffee tea dentist", "sister Lisbon piano", "rain weather beach bike", "budget invoice"):
        for found, _ in cached.lookup(encoding.topic_terms(words), False, limit=3):
            returned.add(found.id)
            assert whole(found) == whole(by_id[found.id]), words  # its turns and sources too
    latest = cached.latest_in_session("s3")
    assert latest is not None and whole(latest) == whole(by_id[latest.id])
    returned.add(latest.id)
    # What was only compared is held as what the comparison reads, and never saved by a run.
    assert set(cached.loaded) == returned
    compared = [m for m in cached.memories if m.id not in returned]
    assert len(compared) > 3 * len(returned)
    assert all(set(m.raw) <= {"id", "content", "trust", "supersededBy", "archived"} for m in compared)
    assert all(m.content == by_id[m.id].content for m in compared)


def test_a_lookup_with_a_floor_reads_only_what_can_reach_it_and_finds_the_same(workspace):
    from hippocampus.ingestion import encoding

    ws = episode_store(workspace, count=300)
    for words in ("coffee tea dentist sister Lisbon piano", "rain weather beach bike", "budget invoice flight hotel"):
        topic = encoding.topic_terms(words)
        everything, _ = encoding.lookups(cached_view(ws))
        floored, _ = encoding.lookups(cached_view(ws))
        found = [(m.id, v) for m, v in everything.lookup(topic, False, limit=5) if v >= encoding.SAME_TOPIC]
        assert [(m.id, v) for m, v in floored.lookup(topic, False, limit=5, floor=encoding.SAME_TOPIC)] == found
        assert len(floored.memories) < len(everything.memories), words


def test_lookups_that_let_their_stubs_go_find_what_lookups_that_keep_them_find(workspace, monkeypatch):
    from hippocampus.ingestion import encoding

    ws = episode_store(workspace, count=300)
    queries = ["coffee tea dentist", "sister Lisbon piano", "rain weather beach bike", "budget invoice flight"] * 3
    keeping, _ = encoding.lookups(cached_view(ws))
    kept = [[(m.id, v) for m, v in keeping.lookup(encoding.topic_terms(q), False, limit=5)] for q in queries]
    monkeypatch.setattr(encoding, "STUBS_HELD", 20)
    forgetting, _ = encoding.lookups(cached_view(ws))
    held = []
    for query, expected in zip(queries, kept, strict=True):
        found = forgetting.lookup(encoding.topic_terms(query), False, limit=5)
        held.append(len(forgetting.memories))
        assert [(m.id, v) for m, v in found] == expected, query
        # What a lookup returned is whole, and stays so: a change made to it is never lost with the stubs.
        assert all(forgetting.loaded[m.id] is m for m, _ in found)
    assert max(held) <= 20 + encoding.EXAMINED + len(forgetting.loaded) < len(keeping.memories)


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
    assert cached(ws, "zeppelin") == []
    old = target["content"].encode()
    new = b"zeppelin " + old[len(b"zeppelin ") :]
    edit_in_place_keeping_size_mtime_and_inode(workspace / "memory" / "index.json", old, new)
    assert [i for i, _ in cached(ws, "zeppelin")] == [target["id"]]


def test_a_write_of_ours_followed_by_an_edit_in_place_is_seen_by_encode_and_decay(workspace):
    ws = varied_store(workspace, count=50)
    assert run_script("decay", ws=workspace).returncode == 0  # our own write: the cache vouches for it
    target = read_index(workspace)["memories"][5]
    old = target["content"].encode()
    new = b"zeppelin " + old[len(b"zeppelin ") :]
    edit_in_place_keeping_size_mtime_and_inode(workspace / "memory" / "index.json", old, new)
    assert run_script("decay", ws=workspace, now="2026-03-02T04:43:00Z").returncode == 0
    assert next(m for m in read_index(workspace)["memories"] if m["id"] == target["id"])["content"] == new.decode()
    assert [i for i, _ in cached(ws, "zeppelin")] == [target["id"]]


def test_a_change_of_permissions_alone_does_not_rebuild_the_cache(workspace):
    ws = varied_store(workspace, count=50)
    cached(ws, "coffee")
    cache = workspace / "memory" / ".cache" / "recall.sqlite"
    built = os.stat(cache).st_ino
    os.chmod(workspace / "memory" / "index.json", 0o600)  # moves the change time, not the contents
    assert cached(ws, "coffee") == plain(ws, "coffee")
    assert os.stat(cache).st_ino == built


def test_a_write_of_ours_made_invalid_by_an_edit_in_place_is_refused_and_kept(workspace):
    # A file our last write produced streams without being validated again; one edited since, however carefully,
    # is validated whole: the broken memory is named and nothing is written.
    varied_store(workspace, count=50)
    assert run_script("decay", ws=workspace).returncode == 0
    path = workspace / "memory" / "index.json"
    line = next(t for t in path.read_bytes().split(b"\n") if b'"id": "mem_007"' in t)
    count = json.loads(line.rstrip(b",")).get("timesReinforced")
    old = f'"timesReinforced": {count}'.encode()
    assert len(str(count)) == 1 and line.count(old) == 1
    edit_in_place_keeping_size_mtime_and_inode(path, line, line.replace(old, b'"timesReinforced":""'))
    before = path.read_bytes()
    result = run_script("decay", ws=workspace, now="2026-03-02T04:43:00Z")
    assert result.returncode != 0
    assert "mem_007" in result.stderr and "timesReinforced" in result.stderr
    assert path.read_bytes() == before


def test_a_stream_of_our_own_file_refuses_a_file_changed_since_it_was_vouched_for(workspace):
    ws = varied_store(workspace, count=20)
    assert run_script("decay", ws=workspace).returncode == 0
    vouched = cache.vouched_signature(ws)
    assert vouched is not None
    meta, stored = indexfile.stored_memories(ws, ours=vouched)
    assert len([m for m, _ in stored]) == 20
    with open(ws.index, "a", encoding="utf-8") as handle:
        handle.write(" ")
    try:
        indexfile.stored_memories(ws, ours=vouched)
    except HippocampusError as exc:
        assert "changed while this run was reading it" in str(exc)
    else:
        raise AssertionError("a file changed since it was vouched for was streamed as ours")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), max_size=300), st.integers(min_value=1, max_value=60))
def test_the_runs_of_sorted_importances_count_what_a_call_for_each_value_counts(values, bins):
    from collections import Counter

    from hippocampus.store.views import histogram_bin, runs

    values.sort()
    for label in (model.tier, lambda value: histogram_bin(value, bins)):
        counted: Counter = Counter()
        end = 0
        for name, start, stop in runs(values, label):
            assert start == end < stop  # adjacent, never empty
            assert {label(v) for v in values[start:stop]} == {name}
            counted[name] += stop - start
            end = stop
        assert end == len(values)
        assert counted == Counter(label(v) for v in values)


def test_the_cache_s_shelves_ranking_and_census_equal_the_index_s_on_any_day_and_at_any_limit(workspace):
    """The published views walk the cache's indexes and stop early: what they find must not depend on that. The
    store has ties, pinned memories above and below fading ones, importance 0, hidden memories, categories that
    share a shelf, and anchors that lie ahead of the day asked (they do not fade before it)."""
    from hippocampus.published import dashboard_data, mirrors

    rng = random.Random(3)
    memories = []
    for i in range(1, 241):
        extra: dict = {}
        if i % 7 == 0:
            extra["pinned"] = True
        if i % 11 == 0:
            extra["archived"] = True
        if i % 13 == 0:
            extra["trust"] = "untrusted"
        day = f"2026-0{rng.randint(1, 2)}-{rng.choice([1, 1, 1, 14, 28]):02d}"
        memories.append(
            memory(
                f"mem_{i:03d}",
                f"fact {i} about {rng.choice(WORDS)}",
                rng.choice([0.0, 0.25, 0.5, 0.5, 0.5, 0.71, 0.9, 1.0]),
                created=day,
                lastAccessed=day,
                domain=rng.choice(["user", "world", ""]),
                category=rng.choice(["Work", "work", "WORK!", "people", "general"]),
                **extra,
            )
        )
    write_index(workspace, memories, decayLastRun="2026-01-01")
    ws = Workspace(workspace)
    index = transaction.read(ws)
    whole, cached = IndexView(index), cached_view(ws)
    for today in (datetime(2025, 6, 1).date(), datetime(2026, 1, 14).date(), NOW.date(), datetime(2031, 1, 1).date()):
        for limit in (1, 3, 20, 500):
            shelves = [
                {
                    key: [(m.id, round(v, 9)) for m, v in shelf]
                    for key, shelf in view.shelves(today, mirrors.file_name, limit).items()
                }
                for view in (whole, cached)
            ]
            assert shelves[0] == shelves[1], (today, limit)
            ranked = [
                [(s.memory.id, round(s.importance, 9), s.pinned) for s in view.ranked(today, limit)]
                for view in (whole, cached)
            ]
            assert ranked[0] == ranked[1], (today, limit)
        census = [view.census(today, 20) for view in (whole, cached)]
        assert census[0] == census[1], today
    when = datetime(2025, 6, 1, tzinfo=timezone.utc)
    from_index, from_cache = (dashboard_data.build(view, when, limit=5) for view in (whole, cached))
    assert from_cache["top"] == from_index["top"] and from_cache["projection"] == from_index["projection"]


def test_memories_faded_to_the_smallest_floats_still_rank_as_in_the_index(workspace):
    """Two centuries on, importance is a subnormal float with few bits left: the early stop of the cached walk
    must still see two memories tied at it (and order them by reinforcement, as the index does)."""
    anchor = {"base": 0.5, "from": "2026-01-15", "last": 0.5}
    write_index(
        workspace,
        [
            memory("mem_001", "tea", 0.5, decay=dict(anchor), timesReinforced=5),
            memory("mem_002", "coffee", 0.5, decay=dict(anchor), timesReinforced=3),
        ],
        decayLastRun="2026-01-15",
    )
    ws = Workspace(workspace)
    whole, cached = IndexView(transaction.read(ws)), cached_view(ws)
    start = datetime(2026, 1, 15).date().toordinal()
    days = [start + n for n in range(71_000, 74_000, 7)]
    assert any(0 < whole.ranked(datetime.fromordinal(d).date(), 1)[0].importance < 2.3e-308 for d in days)
    for day in days:
        today = datetime.fromordinal(day).date()
        assert [s.memory.id for s in cached.ranked(today, 1)] == [s.memory.id for s in whole.ranked(today, 1)], today
