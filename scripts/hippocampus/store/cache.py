"""memory/.cache/recall.sqlite: the search cache, derived from index.json, and the one read model every feature reads
the store through (`Cache`). Deleting the folder is always safe.

It holds, for each memory, the facts that rank and select it (domain, flags, decay anchor, dates, length), its
topic terms (encoding's same-fact lookup) and its stored body; and for each term, the documents that hold it with
their term frequency and length, as three packed arrays (an inverted index small enough to stay under twice the
size of the index it is built from). It records which index.json it describes (`files.identity` and a checksum):
one rule says when it is stale — the file there is another one — and then it is built again from the file.

Writers update it under the workspace lock, in one SQLite transaction per write; the database is in WAL mode, so
readers keep reading the snapshot they started with and never wait for a writer.
"""

from __future__ import annotations

import heapq
import json
import os
import sqlite3
from array import array
from bisect import bisect_left
from itertools import islice
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Callable, Iterator

from .. import redaction
from ..errors import BusyError, HippocampusError
from ..model import Index, Memory, tier
from ..retention import anchor, ceiling, importance, lowest_key, order_key, recency
from ..terms import document_terms, topic_terms
from ..timeutil import parse_day
from ..workspace import Workspace
from . import files, indexfile

SCHEMA = 12
# The cache holds the store's words as redacted under one set of rules: after new rules it is built again.
VERSION = SCHEMA * 1000 + redaction.RULES
BATCH = 500  # documents read in one statement

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
    length REAL NOT NULL,         -- of the weighted terms (ranking)
    topic TEXT NOT NULL           -- the topic terms, space-separated (encoding's same-fact lookup)
);
CREATE TABLE bodies(doc INTEGER PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE terms(term TEXT PRIMARY KEY, docs BLOB NOT NULL, tfs BLOB NOT NULL, lengths BLOB NOT NULL);
CREATE TABLE topics(term TEXT PRIMARY KEY, docs BLOB NOT NULL);
CREATE INDEX docs_core ON docs(hidden, pinned, explicit, rank_key);
"""
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
# What a body leaves out: its importance and decay anchor are the row's (a body stays as it is when the daily decay
# writes new importances).
_LEFT_OUT = ("importance", "decay")


def path_of(ws: Workspace):
    return ws.cache / "recall.sqlite"


# --- what the features read -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Facts:
    """A document's id, filters and today's importance and recency: what ranking reads before decoding anything."""

    id: str
    domain: str
    hidden: bool
    importance: float
    recency: float


@dataclass(slots=True)
class Scored:
    """A memory with today's importance and what the dashboard's aggregates need."""

    memory: Memory
    importance: float
    tier: str
    domain: str
    pinned: bool
    created: date | None
    reinforced: int


@dataclass
class Census:
    """Aggregates over every memory: tier counts per domain, importance in `bins` equal bins, today's importance of
    the fading and of the pinned memories (ascending), memories per creation day, and totals."""

    bins: list
    total: int = 0
    per_domain: dict = field(default_factory=dict)
    fading: list = field(default_factory=list)
    pinned: list = field(default_factory=list)
    days: Counter = field(default_factory=Counter)
    undated: int = 0
    reinforced: int = 0


@dataclass
class Shelf:
    """A shelf of a domain (a mirror file): its most important visible memories, and how many it holds in all."""

    memories: list[tuple[Memory, float]]
    total: int


def histogram_bin(value: float, bins: int) -> int:
    """The bin of an importance from 0 to 1 (1.0 falls in the last bin)."""
    return min(bins - 1, int(value * bins + 1e-9))


ShelfOf = Callable[[str], str]  # a memory's category -> the name of its shelf


class Cache:
    """The store as the features read it, from a cache database (on disk, or built in memory). A reader's `snapshot`
    is one read transaction: every question it asks is answered from the same state, whatever a writer commits
    meanwhile."""

    def __init__(self, db: sqlite3.Connection, snapshot: bool = False):
        self.db = db
        if snapshot:
            db.execute("BEGIN")
        self.meta: dict[str, str] = {}
        self.count = 0
        self.average_length = 1.0
        self.read_meta()

    def read_meta(self) -> None:
        self._scan: tuple[date, list[tuple]] | None = None  # every row as of a day, read once for all the views
        self.meta = dict(self.db.execute("SELECT key, value FROM meta"))
        self.count = int(self.meta.get("count", 0))
        total = float(self.meta.get("length", 0.0))
        self.average_length = total / self.count if self.count else 1.0

    def close(self) -> None:
        self.db.close()

    def _rows(self, docs: list[int], columns: str, table: str = "docs") -> Iterator[tuple]:
        for start in range(0, len(docs), BATCH):
            part = docs[start : start + BATCH]
            yield from self.db.execute(
                f"SELECT doc, {columns} FROM {table} WHERE doc IN ({','.join('?' * len(part))})", part
            )

    # --- ranking (search.rank) ---
    def postings(self, term: str) -> list[tuple[int, float, float]]:
        """(doc, weighted term frequency, doc length) of every document holding `term`."""
        row = self.db.execute("SELECT docs, tfs, lengths FROM terms WHERE term = ?", (term,)).fetchone()
        if row is None:
            return []
        docs, tfs, lengths = _arrays(row)
        return list(zip(docs, tfs, lengths, strict=True))

    def facts(self, docs: list[int], now: datetime) -> dict[int, Facts]:
        today = now.date()
        out = {}
        for doc, memory_id, domain, hidden, pinned, base, since, value, seen in self._rows(
            docs, "id, domain, hidden, pinned, base, since, importance, seen"
        ):
            out[doc] = Facts(
                memory_id,
                domain,
                bool(hidden),
                importance(bool(pinned), value, base, date.fromordinal(since), today),
                recency(date.fromordinal(seen) if seen else None, today),
            )
        return out

    def fetch(self, docs: list[int], today: date) -> dict[int, Memory]:
        """The memories of these documents as stored, with their importance as of `today`."""
        out = {}
        for doc, pinned, base, since, value, body in self._rows(
            docs, "pinned, base, since, importance, body", "docs JOIN bodies USING (doc)"
        ):
            memory = Memory.wrap(json.loads(body))
            memory.importance = round(importance(bool(pinned), value, base, date.fromordinal(since), today), 4)
            out[doc] = memory
        return out

    # --- published views ---
    def _today(self, today: date) -> list[tuple]:
        """(today's importance, doc, id, domain, category, pinned, explicit, hidden, created, reinforced) of every
        document."""
        out = []
        for (
            doc,
            memory_id,
            domain,
            category,
            pinned,
            explicit,
            hidden,
            base,
            since,
            value,
            created,
            reinforced,
        ) in self.db.execute(
            "SELECT doc, id, domain, category, pinned, explicit, hidden, base, since, importance, created, "
            "reinforced FROM docs"
        ):
            found = importance(bool(pinned), value, base, date.fromordinal(since), today)
            out.append((found, doc, memory_id, domain, category, pinned, explicit, hidden, created, reinforced))
        return out

    def _every(self, today: date) -> list[tuple]:
        """`_today` of every document, read once for the published views of one day."""
        if self._scan is None or self._scan[0] != today:
            self._scan = (today, self._today(today))
        return self._scan[1]

    def core(self, today: date, threshold: float) -> tuple[int, Iterator[tuple[Memory, float]]]:
        """How many visible memories reach `threshold` today, and those memories: explicit "remember this" first,
        then by today's importance, ties by id. Counted and walked in order on the index of (hidden, pinned,
        explicit, rank_key): however large the store, only the memories read are looked at."""
        bound = lowest_key(threshold, today)
        fading = "hidden = 0 AND pinned = 0 AND explicit = ? AND rank_key >= ?"
        steady = "hidden = 0 AND pinned = 1 AND explicit = ? AND importance >= ?"
        total = sum(
            self.db.execute(f"SELECT COUNT(*) FROM docs WHERE {where}", (flag, value)).fetchone()[0]
            for where, value in ((fading, bound), (steady, threshold))
            for flag in (0, 1)
        )

        def rows(where: str, flag: int, value: float, order: str) -> Iterator[tuple[float, str, int]]:
            for doc, memory_id, pinned, base, since, kept in self.db.execute(
                f"SELECT doc, id, pinned, base, since, importance FROM docs WHERE {where} ORDER BY {order} DESC, id",
                (flag, value),
            ):
                yield importance(bool(pinned), kept, base, date.fromordinal(since), today), memory_id, doc

        def walk() -> Iterator[tuple[Memory, float]]:
            for flag in (1, 0):
                ordered = heapq.merge(
                    rows(fading, flag, bound, "rank_key"),
                    rows(steady, flag, threshold, "importance"),
                    key=lambda row: (-row[0], row[1]),
                )
                while part := list(islice(ordered, 50)):  # the caller stops at its budget: read as far as it gets
                    bodies = self.fetch([doc for _, _, doc in part], today)
                    for value, _, doc in part:
                        yield bodies[doc], value

        return total, walk()

    def shelves(self, today: date, shelf_of: ShelfOf, limit: int) -> dict[tuple[str, str], Shelf]:
        """{(domain, shelf): Shelf}: each shelf's `limit` most important visible memories, most important first,
        ties by id, and its count."""
        grouped: dict[tuple[str, str], list[tuple]] = {}
        names: dict[str, str] = {}  # category -> shelf: a store has few categories
        for row in self._every(today):
            if not row[7]:  # hidden
                name = names.get(row[4])
                if name is None:
                    name = names[row[4]] = shelf_of(row[4])
                grouped.setdefault((row[3], name), []).append(row)
        kept = {key: heapq.nsmallest(max(0, limit), rows, key=lambda r: (-r[0], r[2])) for key, rows in grouped.items()}
        bodies = self.fetch([row[1] for rows in kept.values() for row in rows], today)
        return {key: Shelf([(bodies[row[1]], row[0]) for row in rows], len(grouped[key])) for key, rows in kept.items()}

    def ranked(self, today: date, limit: int) -> list[Scored]:
        """The `limit` most important memories today (hidden ones too), then the most reinforced, ties by id."""
        rows = heapq.nsmallest(max(0, limit), self._every(today), key=lambda r: (-r[0], -r[9], r[2]))
        bodies = self.fetch([row[1] for row in rows], today)
        return [
            Scored(
                bodies[doc],
                value,
                tier(value),
                domain or "user",
                bool(pinned),
                date.fromordinal(created) if created else None,
                reinforced,
            )
            for value, doc, _, domain, _, pinned, _, _, created, reinforced in rows
        ]

    def census(self, today: date, bins: int) -> Census:
        """Aggregates over every memory today."""
        out = Census(bins=[0] * bins)
        for value, _, _, domain, _, pinned, _, _, created, reinforced in self._every(today):
            out.total += 1
            out.per_domain.setdefault(domain or "user", Counter())[tier(value)] += 1
            out.bins[histogram_bin(value, bins)] += 1
            (out.pinned if pinned else out.fading).append(value)
            if created:
                out.days[date.fromordinal(created)] += 1
            else:
                out.undated += 1
            out.reinforced += reinforced
        out.fading.sort()
        out.pinned.sort()
        return out

    # --- encoding's same-fact lookup ---
    def topic_docs(self, term: str) -> array:
        """The documents that have `term` among their topic terms."""
        row = self.db.execute("SELECT docs FROM topics WHERE term = ?", (term,)).fetchone()
        return _arrays(row)[0] if row else array("I")

    def topic_entries(self, docs: list[int]) -> dict[int, tuple[str, set[str]]]:
        """{doc: (memory id, its topic terms)} of these documents."""
        return {doc: (memory_id, set(topic.split())) for doc, memory_id, topic in self._rows(docs, "id, topic")}


_CODES = "Iff"  # the types of a posting list's arrays: documents, term frequencies, document lengths


def _arrays(row) -> tuple[array, ...]:
    """The arrays a row of `terms` or `topics` packs."""
    out = tuple(array(code) for code in _CODES[: len(row)])
    for part, data in zip(out, row, strict=True):
        part.frombytes(data)
    return out


# --- building and updating ------------------------------------------------------------------------------------


def _entry(doc: int, memory: Memory, meta: dict, today: date) -> tuple[tuple, str, dict[str, float], float, set[str]]:
    """(the document's row, its body, its weighted terms, its length, its topic terms) for a memory."""
    counts = document_terms(memory)
    topic = topic_terms(memory.content)
    length = float(sum(counts.values()))
    pinned = min(memory.importance, ceiling(memory)) if memory.pinned else None
    # A pinned memory does not fade: it has no anchor, only its importance.
    base, since = (pinned, date.min) if pinned is not None else anchor(memory, meta, today)
    seen = parse_day(memory.lastAccessed) or parse_day(memory.created)
    created = parse_day(memory.created)
    row = (
        doc,
        memory.id,
        memory.domain,
        memory.category,
        int(memory.superseded or memory.archived),
        int(memory.extra.get("kind") == "explicit"),
        int(memory.pinned),
        base,
        since.toordinal(),
        None if pinned is not None else order_key(base, since),
        pinned or 0.0,
        seen.toordinal() if seen else None,
        created.toordinal() if created else None,
        memory.timesReinforced,
        length,
        " ".join(sorted(topic)),
    )
    body = {k: v for k, v in memory.to_dict().items() if k not in _LEFT_OUT}
    return row, _ENCODE(body), counts, length, topic


def _insert(db: sqlite3.Connection, entries: list[tuple[tuple, str, dict, float, set[str]]]) -> None:
    db.executemany(f"INSERT INTO docs VALUES ({','.join('?' * 16)})", [e[0] for e in entries])
    db.executemany("INSERT INTO bodies VALUES (?, ?)", [(e[0][0], e[1]) for e in entries])


def _set_meta(db: sqlite3.Connection, **values) -> None:
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, str(v)) for k, v in values.items()])


def _totals(db: sqlite3.Connection) -> None:
    count, length = db.execute("SELECT COUNT(*), COALESCE(SUM(length), 0) FROM docs").fetchone()
    _set_meta(db, count=count, length=repr(float(length)))


def build(db: sqlite3.Connection, index: Index, today: date) -> None:
    """Fill an empty database with every memory of the index (the caller commits)."""
    for table in ("meta", "docs", "bodies", "terms", "topics"):
        db.execute(f"DROP TABLE IF EXISTS {table}")
    for statement in _TABLES.split(";"):
        db.execute(statement)  # one by one: a script would end the caller's transaction
    db.execute(f"PRAGMA user_version = {VERSION}")
    postings: dict[str, tuple[array, array, array]] = {}
    topics: dict[str, array] = {}
    entries = []
    for doc, memory in enumerate(index.memories, 1):
        entry = _entry(doc, memory, index.meta, today)
        for term, tf in entry[2].items():
            found = postings.get(term)
            if found is None:
                found = postings[term] = (array("I"), array("f"), array("f"))
            found[0].append(doc)
            found[1].append(tf)
            found[2].append(entry[3])
        for term in entry[4]:
            topics.setdefault(term, array("I")).append(doc)
        entries.append(entry)
        if len(entries) == BATCH:
            _insert(db, entries)
            entries = []
    _insert(db, entries)
    db.executemany(
        "INSERT INTO terms VALUES (?, ?, ?, ?)",
        ((term, d.tobytes(), t.tobytes(), n.tobytes()) for term, (d, t, n) in postings.items()),
    )
    db.executemany("INSERT INTO topics VALUES (?, ?)", ((term, d.tobytes()) for term, d in topics.items()))
    _totals(db)


def update(db: sqlite3.Connection, index: Index, changed: set[str], today: date) -> None:
    """Redo the rows of the memories whose ids are in `changed` (added, changed or removed from the index); the
    caller commits."""
    memories = index.by_id()
    # term -> (the documents to take out of its postings, the postings to put in)
    terms: dict[str, tuple[set[int], list[tuple]]] = {}
    topics: dict[str, tuple[set[int], list[tuple]]] = {}
    next_doc = (db.execute("SELECT COALESCE(MAX(doc), 0) FROM docs").fetchone()[0]) + 1
    entries = []
    for memory_id in sorted(changed):
        found = db.execute("SELECT doc, topic FROM docs WHERE id = ?", (memory_id,)).fetchone()
        doc: int | None = None
        if found is not None:
            doc = found[0]
            (body,) = db.execute("SELECT body FROM bodies WHERE doc = ?", (doc,)).fetchone()
            for term in document_terms(Memory.wrap(json.loads(body))):
                terms.setdefault(term, (set(), []))[0].add(doc)
            for term in found[1].split():
                topics.setdefault(term, (set(), []))[0].add(doc)
            db.execute("DELETE FROM docs WHERE doc = ?", (doc,))
            db.execute("DELETE FROM bodies WHERE doc = ?", (doc,))
        memory = memories.get(memory_id)
        if memory is None:
            continue  # removed from the index
        if doc is None:
            doc, next_doc = next_doc, next_doc + 1
        entry = _entry(doc, memory, index.meta, today)
        entries.append(entry)
        for term, tf in entry[2].items():
            terms.setdefault(term, (set(), []))[1].append((doc, tf, entry[3]))
        for term in entry[4]:
            topics.setdefault(term, (set(), []))[1].append((doc,))
    _insert(db, entries)
    for table, changes in (("terms", terms), ("topics", topics)):
        columns = "docs, tfs, lengths" if table == "terms" else "docs"
        for term, (out, added) in changes.items():
            row = db.execute(f"SELECT {columns} FROM {table} WHERE term = ?", (term,)).fetchone()
            arrays = _arrays(row) if row else tuple(array(code) for code in _CODES[: len(columns.split(","))])
            _splice(arrays, out, sorted(added))
            if arrays[0]:
                values = ",".join("?" * (len(arrays) + 1))
                db.execute(f"INSERT OR REPLACE INTO {table} VALUES ({values})", (term, *(a.tobytes() for a in arrays)))
            elif row:
                db.execute(f"DELETE FROM {table} WHERE term = ?", (term,))
    _totals(db)


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


# --- opening ----------------------------------------------------------------------------------------------------


class _Broken(Exception):
    """The cache file is not a database, or a damaged one."""


def _connect(ws: Workspace, create: bool) -> sqlite3.Connection | None:
    """The cache database, ready to use: None when there is none (and `create` is false), when it is of another
    version (and `create` is false), or when it cannot be opened (a read-only folder); _Broken when the file is no
    database or a damaged one."""
    path = path_of(ws)
    if not create and not path.is_file():
        return None
    try:
        if create:
            ws.cache.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
    except (OSError, sqlite3.Error):
        return None
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        # A rebuild passes the whole database through the log: once it is copied back, the log shrinks again.
        db.execute(f"PRAGMA journal_size_limit = {1 << 20}")
        if db.execute("PRAGMA user_version").fetchone()[0] != VERSION and not create:
            db.close()
            return None
        return db
    except sqlite3.Error as exc:
        db.close()
        if getattr(exc, "sqlite_errorname", "") in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
            raise _Broken() from None
        return None


def _describes(db: sqlite3.Connection, identity: str | None, checksum: Callable[[], str | None]) -> bool:
    """Does the cache describe the index.json of this identity (files.identity; None: there is none)? The same
    file, or one that differs only in its change time (a new permission, a hard link) and holds the same bytes."""
    try:
        values = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('index', 'checksum')"))
    except sqlite3.Error:
        return False
    described = values.get("index", "")
    if identity is None or described == identity:
        return described == (identity or "")
    return bool(described) and files.same_contents(described, identity) and checksum() == values.get("checksum")


def _describes_disk(db: sqlite3.Connection, ws: Workspace) -> bool:
    try:
        identity: str | None = files.identity(os.stat(ws.index))
    except FileNotFoundError:
        identity = None
    except OSError:
        return False
    return _describes(db, identity, lambda: files.checksum(ws.index))


def for_reading(ws: Workspace, today: date) -> Cache:
    """The store as it is on disk, for a reader (recall, load_core, the dashboard), who never waits for a writer: the
    cache when it describes index.json; else, when no other run holds the workspace lock, the cache built again; else
    (a writer is at work and will bring the cache up to date) the cache as it was, the last consistent snapshot —
    or, when there is none yet, one built in memory from index.json."""
    try:
        db = _connect(ws, create=False)
    except _Broken:
        db = None
    if db is not None and _describes_disk(db, ws):
        return Cache(db, snapshot=True)
    loaded = None
    try:
        with files.workspace_lock(ws, wait=False):
            loaded = indexfile.load(ws)
            built = open_for_writing(ws, loaded, today)
    except BusyError:
        if db is not None:
            return Cache(db, snapshot=True)
    else:
        if built is not None:
            if db is not None:
                db.close()
            return Cache(built.db, snapshot=True)
    if db is not None:
        db.close()
    return in_memory((loaded or indexfile.load(ws)).index, today)


def in_memory(index: Index, today: date) -> Cache:
    """A cache of these memories held in memory only (a read-only workspace, a first run under way, the archive)."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.execute("BEGIN")
    build(db, index, today)
    db.execute("COMMIT")
    return Cache(db)


def open_for_writing(ws: Workspace, loaded: indexfile.Loaded, today: date) -> Cache | None:
    """The cache of a writer that holds the workspace lock and has `loaded` the index: built again unless it
    describes that very file. None when it cannot be written (the folder is read-only): the writer goes on
    without it, and the next run builds it."""
    try:
        db = _connect(ws, create=True)
    except _Broken:
        _remove(ws)  # it is only ever derived
        db = _connect(ws, create=True)
    if db is None:
        return None
    try:
        current = db.execute("PRAGMA user_version").fetchone()[0] == VERSION and _describes(
            db, loaded.identity, lambda: loaded.checksum
        )
        if not current:
            db.execute("BEGIN IMMEDIATE")
            build(db, loaded.index, today)
            _record(db, loaded)
            db.execute("COMMIT")
        return Cache(db)
    except sqlite3.Error:
        db.close()
        return None


def _record(db: sqlite3.Connection, loaded: indexfile.Loaded) -> None:
    _set_meta(db, index=loaded.identity or "", checksum=loaded.checksum or "")


# A write that changed more than this share of the store builds the cache afresh: redoing rows one memory at a time
# costs more than building them all (a first run over a long history makes every memory at once).
REBUILT_ABOVE = 0.25


def commit_write(cache: Cache, index: Index, changed: set[str], loaded: indexfile.Loaded, today: date) -> None:
    """After a write saved `loaded`: redo the changed memories' rows and record the file the cache now describes,
    in one transaction (readers see the cache before it or after it, never half of it)."""
    db = cache.db
    db.execute("BEGIN IMMEDIATE")
    try:
        if len(changed) > REBUILT_ABOVE * max(cache.count, len(index.memories)):
            build(db, index, today)
        else:
            update(db, index, changed, today)
        _record(db, loaded)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    cache.read_meta()


def published(cache: Cache) -> str | None:
    """The index.json the published files (mirrors, core file, dashboard) were last written from."""
    return cache.meta.get("published")


def mark_published(cache: Cache, loaded: indexfile.Loaded) -> None:
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
