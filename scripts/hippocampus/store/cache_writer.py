"""Writing the search cache (see `cache`): building it whole from an index, redoing the rows of the memories a write
changed, and recording which index.json it describes and which one the published files were made from. Only
writers — and a reader that finds the cache stale while no run holds the workspace lock — come here."""

from __future__ import annotations

import os
import sqlite3
from array import array
from collections.abc import Iterable
from itertools import chain
from bisect import bisect_left
from datetime import date
from typing import Any

from .. import commitment
from ..errors import HippocampusError
from ..model import Index, Memory
from ..retention import anchor, ceiling, order_key
from ..terms import days_text, document_terms, memory_days, topic_terms
from ..timeutil import parse_day, parse_instant
from ..workspace import Workspace
from . import archive
from .cache import (
    BATCH,
    CODES,
    VERSION,
    Broken,
    Cache,
    arrays_of,
    connect,
    describes,
    packed,
    path_of,
    session_key,
    unpacked,
)
from .indexfile import Loaded

_TABLES = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE docs(
    doc INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    domain TEXT NOT NULL,
    category TEXT NOT NULL,
    hidden INTEGER NOT NULL,      -- superseded or archived
    explicit INTEGER NOT NULL,    -- an explicit "remember this"
    pinned INTEGER NOT NULL,
    base REAL NOT NULL,           -- the decay anchor: importance `base` on day `since`
    since INTEGER NOT NULL,       -- (a day number)
    rank_key REAL,                -- retention.order_key: orders fading memories by today's importance
    importance REAL NOT NULL,     -- a pinned memory's, which does not fade (0 for the others)
    seen INTEGER,                 -- the day last accessed (or created): recency
    created INTEGER,
    reinforced INTEGER NOT NULL,
    length REAL NOT NULL,         -- its pieces' average length in weighted terms (ranking: terms.document_terms)
    topic TEXT NOT NULL,          -- the topic terms, space-separated (encoding's same-fact lookup)
    days TEXT NOT NULL,           -- the days it is about (terms.days_text): a question naming a time favours them
    shelved INTEGER NOT NULL      -- in memory/archive.jsonl: 1 found by recall, 2 superseded (only with --all)
);
CREATE TABLE bodies(doc INTEGER PRIMARY KEY, body BLOB NOT NULL);  -- cache.packed
CREATE TABLE terms(term TEXT PRIMARY KEY, docs BLOB NOT NULL, tfs BLOB NOT NULL, lengths BLOB NOT NULL);
CREATE TABLE topics(term TEXT PRIMARY KEY, docs BLOB NOT NULL);
CREATE INDEX docs_core ON docs(hidden, pinned, explicit, rank_key);
CREATE TABLE commitments(       -- every commitment of the index
    doc INTEGER PRIMARY KEY,
    status TEXT NOT NULL,         -- open, done or expired
    due REAL,                     -- when it is due (seconds since the epoch, UTC)
    closed REAL,                  -- when it was closed
    hidden INTEGER NOT NULL       -- superseded or archived: listed nowhere
);
CREATE INDEX commitments_due ON commitments(status, due);
CREATE TABLE sessions(key INTEGER PRIMARY KEY, docs BLOB NOT NULL);  -- a session's key -> the memories holding it
"""
# What a body leaves out: its importance and decay anchor are the row's (a body stays as it is when the daily decay
# writes new importances).
_LEFT_OUT = ("importance", "decay")


Entry = tuple[tuple, bytes, dict[str, tuple[float, float]], float, set[str], tuple | None, set[int]]


def _entry(doc: int, memory: Memory, meta: dict, today: date, shelved: bool = False) -> Entry:
    """(the document's row, its body, its weighted terms with their pieces' lengths, its average piece length, its
    topic terms, its commitment row or None, the keys of the sessions whose messages it holds)
    for a memory of the index — or, `shelved`, of the archive: searchable by recall, hidden from every other view,
    never a same-fact candidate for encoding, never a commitment, holding no session's messages for encoding."""
    counts, length = document_terms(memory)
    topic = set() if shelved else topic_terms(memory.content)
    base, since, key, pinned = _dating(memory, meta, today)
    seen = parse_day(memory.lastAccessed) or parse_day(memory.created)
    created = parse_day(memory.created)
    row = (
        doc,
        memory.id,
        memory.domain,
        memory.category,
        int(memory.superseded or memory.archived or shelved),
        int(memory.extra.get("kind") == "explicit"),
        int(memory.pinned),
        base,
        since,
        key,
        pinned,
        seen.toordinal() if seen else None,
        created.toordinal() if created else None,
        memory.timesReinforced,
        length,
        " ".join(sorted(topic)),
        days_text(memory_days(memory)),
        (2 if memory.superseded else 1) if shelved else 0,
    )
    body = {k: v for k, v in memory.to_dict().items() if k not in _LEFT_OUT}
    if shelved:
        return row, packed(body), counts, length, topic, None, set()
    return row, packed(body), counts, length, topic, _commitment_row(doc, memory), _sessions(memory)


def _sessions(memory: Memory) -> set[int]:
    """The keys (cache.session_key) of the sessions whose messages a memory holds (its own sources and its
    turns')."""
    return {session_key(str(s["session"])) for s in memory.every_source() if s.get("session") is not None}


def _dating(memory: Memory, meta: dict, today: date) -> tuple[float, int, float | None, float]:
    """A memory's row's decay columns: (base, since as a day number, rank_key, importance): its anchor, or for a
    pinned memory, which does not fade, its importance alone."""
    if memory.pinned:
        pinned = min(memory.importance, ceiling(memory))
        return pinned, date.min.toordinal(), None, pinned
    base, since = anchor(memory, meta, today)
    return base, since.toordinal(), order_key(base, since), 0.0


def _redate(db: sqlite3.Connection, index: Index, moved: set[str], changed: set[str], today: date) -> set[str]:
    """Write the decay columns of the memories whose anchors `moved` and that are not `changed` otherwise (their
    words and bodies did not change: a body leaves its importance and anchor out); returns those the cache does not
    hold, whose rows are still to be made. Walks the index rather than looking each up: a first decay moves every
    anchor, and neither a map of 100,000 memories nor a copy of their ids is held for it."""
    missing = set()
    left = len(moved)
    for memory in index.memories:
        if memory.id not in moved:
            continue
        left -= 1
        if memory.id in changed:
            continue
        found = db.execute(
            "UPDATE docs SET base = ?, since = ?, rank_key = ?, importance = ? WHERE id = ?",
            (*_dating(memory.peek(), index.meta, today), memory.id),  # read, not kept parsed: see model.Memory
        )
        if found.rowcount == 0:
            missing.add(memory.id)
    if left:  # moved, and no longer in the index
        missing |= moved - changed - {m.id for m in index.memories}
    return missing


def _commitment_row(doc: int, memory: Memory) -> tuple | None:
    """(doc, status, due, closed, hidden) of a commitment; None for any other memory."""
    raw = memory.raw
    if not commitment.is_commitment(raw):
        return None
    due = commitment.due_of(raw)
    closed = parse_instant(raw.get("closed"))
    hidden = int(memory.superseded or memory.archived)
    return (
        doc,
        commitment.status_of(raw),
        due.timestamp() if due else None,
        closed.timestamp() if closed else None,
        hidden,
    )


# What a document's rows are written from: its row of docs, its body and its commitment row or None (an entry's
# words and sessions are taken into the postings at once: a batch of rows does not hold them).
Rows = tuple[tuple, bytes, tuple | None]


def _rows(entry: Entry) -> Rows:
    return entry[0], entry[1], entry[5]


def _insert(db: sqlite3.Connection, rows: list[Rows]) -> None:
    db.executemany(f"INSERT INTO docs VALUES ({','.join('?' * 18)})", [r[0] for r in rows])
    db.executemany("INSERT INTO bodies VALUES (?, ?)", [(r[0][0], r[1]) for r in rows])
    db.executemany("INSERT INTO commitments VALUES (?, ?, ?, ?, ?)", [r[2] for r in rows if r[2] is not None])


def _set_meta(db: sqlite3.Connection, **values) -> None:
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, str(v)) for k, v in values.items()])


def _totals(db: sqlite3.Connection) -> None:
    count, length = db.execute("SELECT COUNT(*), COALESCE(SUM(length), 0) FROM docs").fetchone()
    _set_meta(db, count=count, length=repr(float(length)))


def build(db: sqlite3.Connection, index: Index, today: date, shelf: Iterable[Memory] = ()) -> int:
    """Fill an empty database with every memory of the index, and the archived memories recall finds (`shelf`,
    see archive.searchable); the caller commits. Every memory held as text is validated (model.Memory.validated);
    returns how many of their texts validating changed."""
    for table in ("meta", "docs", "bodies", "terms", "topics", "commitments", "sessions"):
        db.execute(f"DROP TABLE IF EXISTS {table}")
    for statement in _TABLES.split(";"):
        db.execute(statement)  # one by one: a script would end the caller's transaction
    db.execute(f"PRAGMA user_version = {VERSION}")
    postings: dict[str, tuple[array, array, array]] = {}
    topics: dict[str, array] = {}
    sessions: dict[int, array] = {}
    entries = []
    every = chain(((memory, False) for memory in index.memories), ((memory, True) for memory in shelf))
    renewed = held = 0
    for doc, (memory, shelved) in enumerate(every, 1):
        seen, changed = memory.validated()  # read, not kept parsed: see model.Memory
        renewed += changed
        entry = _entry(doc, seen, index.meta, today, shelved)
        held += len(entry[2])
        if held > POSTINGS_HELD:
            _append_postings(db, postings, topics, sessions)
            postings, topics, sessions, held = {}, {}, {}, len(entry[2])
        for term, (tf, length) in entry[2].items():
            found = postings.get(term)
            if found is None:
                found = postings[term] = (array("I"), array("f"), array("f"))
            found[0].append(doc)
            found[1].append(tf)
            found[2].append(length)
        for term in entry[4]:
            topics.setdefault(term, array("I")).append(doc)
        for session in entry[6]:
            sessions.setdefault(session, array("I")).append(doc)
        entries.append(_rows(entry))
        if len(entries) == BATCH:
            _insert(db, entries)
            entries = []
    _insert(db, entries)
    _append_postings(db, postings, topics, sessions)
    _totals(db)
    return renewed


# Postings a build holds before it writes them out, appended to those written before (each term's documents stay in
# order: they are built in order). A first run over years of history holds a share of its postings at a time.
POSTINGS_HELD = 500_000


def _append_postings(
    db: sqlite3.Connection, postings: dict[str, tuple[array, array, array]], topics: dict, sessions: dict
) -> None:
    db.executemany(
        "INSERT INTO terms VALUES (?, ?, ?, ?) ON CONFLICT(term) DO UPDATE SET docs = CAST(docs || excluded.docs AS"
        " BLOB), tfs = CAST(tfs || excluded.tfs AS BLOB), lengths = CAST(lengths || excluded.lengths AS BLOB)",
        ((term, d.tobytes(), t.tobytes(), n.tobytes()) for term, (d, t, n) in postings.items()),
    )
    lists: tuple[tuple[str, str, dict], ...] = (("topics", "term", topics), ("sessions", "key", sessions))
    for table, key, held in lists:
        db.executemany(
            f"INSERT INTO {table} VALUES (?, ?) ON CONFLICT({key}) DO UPDATE SET docs = CAST(docs || excluded.docs"
            " AS BLOB)",
            ((name, docs.tobytes()) for name, docs in held.items()),
        )


# Memories whose rows `update` redoes together: what they change in the postings is held until the part is written,
# and a term of many of them is written once a part (a week's consolidation archives thousands; bench/scale.py).
UPDATE_PART = 200


def update(
    db: sqlite3.Connection, index: Index, changed: set[str], today: date, shelved: dict[str, Memory] | None = None
) -> None:
    """Redo the rows of the memories whose ids are in `changed` (added, changed or removed from the index; those
    moved to the archive and still searchable in `shelved`); the caller commits. UPDATE_PART memories at a time."""
    memories = {m.id: m for m in index.memories if m.id in changed}  # not a map of the whole store: a few change
    shelved = shelved or {}
    next_doc = (db.execute("SELECT COALESCE(MAX(doc), 0) FROM docs").fetchone()[0]) + 1
    ordered = sorted(changed)
    for start in range(0, len(ordered), UPDATE_PART):
        part = ordered[start : start + UPDATE_PART]
        next_doc = _update_part(db, part, memories, shelved, index.meta, today, next_doc)
    _totals(db)


def _update_part(
    db: sqlite3.Connection,
    ids: list[str],
    memories: dict[str, Memory],
    shelved: dict[str, Memory],
    meta: dict,
    today: date,
    next_doc: int,
) -> int:
    """`update` for these ids; returns the next free document number."""
    # term -> (the documents to take out of its postings, the postings to put in)
    terms: dict[str, tuple[set[int], list[tuple]]] = {}
    topics: dict[str, tuple[set[int], list[tuple]]] = {}
    sessions: dict[int, tuple[set[int], list[tuple]]] = {}
    entries = []
    for memory_id in ids:
        found = db.execute("SELECT doc, topic FROM docs WHERE id = ?", (memory_id,)).fetchone()
        doc: int | None = None
        if found is not None:
            doc = found[0]
            (body,) = db.execute("SELECT body FROM bodies WHERE doc = ?", (doc,)).fetchone()
            before = Memory.wrap(unpacked(body))
            for term in document_terms(before)[0]:
                terms.setdefault(term, (set(), []))[0].add(doc)
            for term in found[1].split():
                topics.setdefault(term, (set(), []))[0].add(doc)
            for session in _sessions(before):
                sessions.setdefault(session, (set(), []))[0].add(doc)
            db.execute("DELETE FROM docs WHERE doc = ?", (doc,))
            db.execute("DELETE FROM bodies WHERE doc = ?", (doc,))
            db.execute("DELETE FROM commitments WHERE doc = ?", (doc,))
        memory = memories.get(memory_id)
        to_shelf = memory is None and memory_id in shelved
        if to_shelf:
            memory = shelved[memory_id]
        if memory is None:
            continue  # removed from the index, and not kept searchable
        if doc is None:
            doc, next_doc = next_doc, next_doc + 1
        entry = _entry(doc, memory.peek(), meta, today, to_shelf)  # read, not kept parsed: see model.Memory
        entries.append(_rows(entry))
        for term, (tf, length) in entry[2].items():
            terms.setdefault(term, (set(), []))[1].append((doc, tf, length))
        for term in entry[4]:
            topics.setdefault(term, (set(), []))[1].append((doc,))
        for session in entry[6]:
            sessions.setdefault(session, (set(), []))[1].append((doc,))
    _insert(db, entries)
    changed: tuple[tuple[str, str, dict[Any, tuple[set[int], list[tuple]]]], ...] = (
        ("terms", "term", terms),
        ("topics", "term", topics),
        ("sessions", "key", sessions),
    )
    for table, key, changes in changed:
        columns = "docs, tfs, lengths" if table == "terms" else "docs"
        for name, (out, added) in changes.items():
            row = db.execute(f"SELECT {columns} FROM {table} WHERE {key} = ?", (name,)).fetchone()
            arrays = arrays_of(row) if row else tuple(array(code) for code in CODES[: len(columns.split(","))])
            _splice(arrays, out, sorted(added))
            if arrays[0]:
                values = ",".join("?" * (len(arrays) + 1))
                db.execute(f"INSERT OR REPLACE INTO {table} VALUES ({values})", (name, *(a.tobytes() for a in arrays)))
            elif row:
                db.execute(f"DELETE FROM {table} WHERE {key} = ?", (name,))
    return next_doc


def _splice(arrays: tuple[array, ...], out: set[int], added: list[tuple]) -> None:
    """Take the documents `out` from a term's sorted arrays (its documents first) and put the postings `added`
    (sorted) in their places."""
    docs = arrays[0]
    for doc in sorted(out, reverse=True):
        at = bisect_left(docs, doc)
        if at < len(docs) and docs[at] == doc:
            for part in arrays:
                del part[at]
    for posting in added:
        at = bisect_left(docs, posting[0])
        for part, value in zip(arrays, posting, strict=True):
            part.insert(at, value)


def in_memory(index: Index, today: date, shelf: Iterable[Memory] = ()) -> Cache:
    """A cache of these memories (and of the archived ones in `shelf`) held in memory only (a read-only workspace,
    a first run under way)."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.execute("BEGIN")
    build(db, index, today, shelf)
    db.execute("COMMIT")
    return Cache(db)


def connect_for_writing(ws: Workspace) -> sqlite3.Connection | None:
    """The cache database of a writer that holds the workspace lock (a broken one removed first). None when it
    cannot be written (the folder is read-only): the writer goes on without it, and the next run builds it."""
    try:
        return connect(ws, create=True)
    except Broken:
        _remove(ws)  # it is only ever derived
        return connect(ws, create=True)


def vouched(db: sqlite3.Connection | None) -> str | None:
    """The identity (files.identity) of the index.json that this cache, of this version, describes: a write of this
    version saved that file, or a build of the cache found each of its memories valid as it stands — so each is one
    this version validated or wrote (see store.indexfile.load)."""
    if db is None:
        return None
    try:
        if db.execute("PRAGMA user_version").fetchone()[0] != VERSION:
            return None
        found = db.execute("SELECT value FROM meta WHERE key = 'index'").fetchone()
    except sqlite3.Error:
        return None
    return found[0] if found and found[0] else None


def open_for_writing(db: sqlite3.Connection | None, ws: Workspace, loaded: Loaded, today: date) -> Cache | None:
    """The cache of a writer that holds the workspace lock and has `loaded` the index, from `connect_for_writing`:
    built again unless it describes that very file. None when there is none to write. `db` is closed if this fails
    (a memory found invalid as the cache is built again raises)."""
    if db is None:
        return None
    try:
        current = db.execute("PRAGMA user_version").fetchone()[0] == VERSION and describes(
            db, loaded.identity, lambda: loaded.checksum
        )
        if not current:
            shelf = archive.searchable(ws, {m.id for m in loaded.index.memories})
            db.execute("BEGIN IMMEDIATE")
            loaded.renewed = build(db, loaded.index, today, shelf) > 0
            if not loaded.renewed:  # else the cache describes the file this write saves (commit_write), not this
                _record(db, loaded)
            db.execute("COMMIT")
        return Cache(db)
    except sqlite3.Error:
        db.close()
        return None
    except BaseException:
        db.close()
        raise


def _record(db: sqlite3.Connection, loaded: Loaded) -> None:
    _set_meta(db, index=loaded.identity or "", checksum=loaded.checksum or "")


# A write that changed more than this share of the store builds the cache afresh: redoing rows one memory at a time
# costs more than building them all (a first run over a long history makes every memory at once).
REBUILT_ABOVE = 0.25


def commit_write(
    cache: Cache,
    index: Index,
    changed: set[str],
    loaded: Loaded,
    today: date,
    ws: Workspace,
    shelved: dict[str, Memory] | None = None,
    redated: set[str] | None = None,
) -> None:
    """After a write saved `loaded`: redo the changed memories' rows (those it moved to the archive and that stay
    searchable: `shelved`; those it took out of the index otherwise, as the archive holds them), write the decay
    columns of those whose anchors alone moved (`redated`), and record the file the cache now describes, in one
    transaction (readers see the cache before it or after it, never half of it)."""
    db = cache.db
    rebuilt = len(changed) > REBUILT_ABOVE * max(cache.count, len(index.memories))
    shelf = archive.searchable(ws, {m.id for m in index.memories}) if rebuilt else ()
    shelved = dict(shelved or {})
    gone = set() if rebuilt else changed - {m.id for m in index.memories if m.id in changed} - shelved.keys()
    if gone:  # one brought back from the archive and taken out again stays there (archive.drop)
        shelved.update((m.id, m) for m in archive.searchable(ws, set()) if m.id in gone)
    db.execute("BEGIN IMMEDIATE")
    try:
        if rebuilt:
            build(db, index, today, shelf)
        else:
            missing = _redate(db, index, redated or set(), changed, today)
            update(db, index, changed | missing, today, shelved)
        _record(db, loaded)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    cache.read_meta()


def published(cache: Cache) -> str | None:
    """The index.json the published files (mirrors, core file, dashboard) were last written from."""
    return cache.meta.get("published")


def mark_published(cache: Cache, loaded: Loaded) -> None:
    cache.db.execute("INSERT OR REPLACE INTO meta VALUES ('published', ?)", (loaded.identity or "",))
    cache.meta["published"] = loaded.identity or ""


def _remove(ws: Workspace) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.unlink(f"{path_of(ws)}{suffix}")
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise HippocampusError(f"cannot remove the broken search cache {path_of(ws)}: {exc.strerror}") from None
