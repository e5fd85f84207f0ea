"""A disk-cached search structure, derived from index.json: recall and load_core answer from it without parsing
or tokenising the whole store.

It lives in memory/.cache/recall.sqlite and records the size, mtime, inode, change time and checksum (CRC-32) of
the index.json it was built from. Our own writers update it in place for the memories they changed; any other
change of index.json (a hand edit, a restored backup) no longer matches the record, and the next reader rebuilds it
from the index. Size, mtime and inode tell most versions apart for the cost of a stat; an edit in place that keeps
all three still moves the change time (which no user can set), and then the checksum decides: a file whose change
time moved for another reason (permissions, a new hard link, a sync tool's attributes) is read once to compare. Touches
recorded since the last write are applied on the fly, like `transaction.read` does. Deleting the folder is always safe.
"""

from __future__ import annotations

import heapq
from collections import Counter
from itertools import chain
import json
import math
import os
import sqlite3
from contextlib import nullcontext
from datetime import date, datetime
from types import MappingProxyType
from typing import Iterable, Iterator, Mapping

from .. import redaction
from . import files, indexfile, retention, touches
from .model import id_number, tier, Index, Memory
from .views import histogram_bin, runs, Census, Facts, IndexView, Scored, ShelfOf
from ..terms import document_terms, topic_terms
from ..timeutil import parse_day
from ..workspace import Workspace

SCHEMA = 10
# The cache holds memories' words, so it is built under one set of redaction rules: a cache from older rules is
# rebuilt, and the index.json it vouched for is then no longer `witnessed` — the next write loads it whole, which
# redacts it (indexfile.load_index).
VERSION = SCHEMA * 1000 + redaction.RULES
_LOG_RATE = math.log(retention.DECAY_RATE)

_TABLES = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE docs(
    doc INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    domain TEXT NOT NULL,
    hidden INTEGER NOT NULL,      -- superseded or archived
    explicit INTEGER NOT NULL,    -- an explicit "remember this"
    pinned INTEGER NOT NULL,
    base REAL NOT NULL,           -- the decay anchor: importance `base` on day `since`
    since INTEGER NOT NULL,       -- (a day number)
    strength REAL,                -- ln(base) - since * ln(0.99): orders memories by today's importance
    importance REAL NOT NULL,     -- for pinned memories, which do not fade
    seen INTEGER,                 -- the day last accessed (or created), for recency
    created INTEGER,              -- the day created
    reinforced INTEGER NOT NULL,  -- times reinforced
    category TEXT NOT NULL,
    topic TEXT NOT NULL,          -- encoding's topic terms, space-separated (the same-fact test's input)
    length REAL NOT NULL,
    body TEXT NOT NULL            -- the memory as stored, with its anchor
);
CREATE TABLE postings(term TEXT NOT NULL, doc INTEGER NOT NULL, tf REAL NOT NULL, length REAL NOT NULL);
CREATE TABLE topics(term TEXT NOT NULL, doc INTEGER NOT NULL);
CREATE TABLE sources(session TEXT NOT NULL, message TEXT NOT NULL, doc INTEGER NOT NULL, ts TEXT NOT NULL);
"""
# Built after the bulk insert of a rebuild: sorting once is much faster than inserting into a B-tree in doc order.
_INDEXES = """
CREATE INDEX IF NOT EXISTS docs_core ON docs(hidden, pinned, explicit, strength);
CREATE INDEX IF NOT EXISTS docs_shelf ON docs(hidden, domain, category, pinned, strength, importance);
CREATE INDEX IF NOT EXISTS docs_rank ON docs(pinned, strength, importance);
CREATE INDEX IF NOT EXISTS docs_census ON docs(domain, pinned, importance, base, since);
CREATE INDEX IF NOT EXISTS docs_created ON docs(created, reinforced);
CREATE INDEX IF NOT EXISTS postings_term ON postings(term, doc, tf, length);
CREATE INDEX IF NOT EXISTS topics_term ON topics(term, doc);
CREATE INDEX IF NOT EXISTS sources_key ON sources(session, message);
"""


def _path(ws: Workspace):
    return ws.cache / "recall.sqlite"


def signature(ws: Workspace) -> str | None:
    """What identifies the current index.json cheaply: size, modification time and inode."""
    return files.signature(ws.index)


def _record(db: sqlite3.Connection, ws: Workspace, sig: str | None) -> None:
    """Note that the cache describes index.json as of `sig`, with that version's change time and checksum."""
    found = files.fingerprint(ws.index) if sig else None
    if found is not None and found[0] == sig:
        _set_meta(db, signature=sig, ctime=found[1], checksum=found[2])
    else:
        _set_meta(db, signature=sig or "", ctime="", checksum="")  # unknown: the next reader compares and rebuilds


def _vouched(db: sqlite3.Connection, ws: Workspace) -> str | None:
    """index.json's signature when the cache was built from exactly the file there now, else None."""
    try:
        st = os.stat(ws.index)
        values = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('signature', 'ctime', 'checksum')"))
    except (OSError, sqlite3.DatabaseError):
        return None
    sig = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"
    if values.get("signature") != sig:
        return None
    if values.get("ctime") == str(st.st_ctime_ns):
        return sig  # no write since (a write, or resetting mtime after one, moves the change time)
    found = files.fingerprint(ws.index)
    if found is None or found[0] != sig or not values.get("checksum") or found[2] != values["checksum"]:
        return None
    try:
        with db:  # the same contents: the next reader need not read it again
            _set_meta(db, ctime=found[1])
    except sqlite3.Error:
        pass
    return sig


def vouched_signature(ws: Workspace) -> str | None:
    """index.json's signature when the cache describes exactly that file (what a writer loaded), else None."""
    db = _open(ws)
    if db is None:
        return None
    try:
        return _vouched(db, ws)
    finally:
        db.close()


def _strength(base: float, since: int) -> float | None:
    """A fading memory's `strength`: the logarithm of its importance `base` on day number `since` carried back to
    day 0. Today's importance is exp(strength + today × ln 0.99): one column orders memories by it on any day."""
    return math.log(base) - since * _LOG_RATE if base > 0 else None


def _reach(strength: float | None, day: int) -> float:
    """The most a fading memory of this `strength` is worth on day number `day`. Its importance (retention.faded)
    is exactly this, but for rounding (allowed for), when its anchor's day has come; less when the anchor lies
    ahead (nothing fades before its day); 0 at base 0."""
    if strength is None:
        return 0.0
    exponent = strength + day * _LOG_RATE
    # The slack: relative for rounding, and absolute below 1e-300, where floats lose their precision.
    return math.exp(exponent) * (1 + 1e-9) + 1e-300 if exponent < 0 else math.inf


def _rows(memories: Iterable[Memory], meta: dict, today: date, first_doc: int):
    """(doc row, its postings, its topic terms, its sources) for each memory, numbered from `first_doc`."""
    for doc, memory in enumerate(memories, first_doc):
        counts = document_terms(memory)
        length = float(sum(counts.values()))
        base, since = retention.anchor(memory, meta, today)
        strength = _strength(base, since.toordinal())
        seen = parse_day(memory.lastAccessed) or parse_day(memory.created)
        created = parse_day(memory.created)
        topic = sorted(topic_terms(memory.content))
        # The body carries its anchor, so the cache needs none of the index's bookkeeping to date it.
        body = dict(memory.to_dict())
        body["decay"] = {"base": base, "from": since.isoformat(), "last": memory.importance}
        row = (
            doc,
            memory.id,
            memory.domain,
            int(memory.superseded or memory.archived),
            int(memory.extra.get("kind") == "explicit"),
            int(memory.pinned),
            base,
            since.toordinal(),
            strength,
            min(memory.importance, retention.ceiling(memory)),
            seen.toordinal() if seen else None,
            created.toordinal() if created else None,
            memory.timesReinforced,
            memory.category,
            " ".join(topic),
            length,
            _ENCODE(body),
        )
        sources = [
            (str(s.get("session")), str(s.get("message")), doc, str(s.get("ts") or ""))
            for s in memory.every_source()
            if s.get("session") is not None
        ]
        yield row, [(term, doc, tf, length) for term, tf in counts.items()], [(t, doc) for t in topic], sources


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def _insert(
    db: sqlite3.Connection, memories: Iterable[Memory], meta: dict, today: date, indexed: bool = True
) -> tuple[int, int]:
    """Add the memories' rows; returns how many, and their total length (in `_units`). Into `indexed` tables (an
    update) each table's rows go in the order of its index: SQLite then walks every index once instead of jumping
    about it, which is much faster for many rows."""
    first = (db.execute("SELECT COALESCE(MAX(doc), 0) FROM docs").fetchone()[0]) + 1
    docs: list[tuple] = []
    postings: list[tuple] = []
    topics: list[tuple] = []
    sources: list[tuple] = []
    highest = count = units = 0

    def flush():
        if indexed:
            for batch in (postings, topics, sources):
                batch.sort()
        for table, batch in (("docs", docs), ("postings", postings), ("topics", topics), ("sources", sources)):
            _insert_rows(db, table, batch)
            batch.clear()

    for row, entries, topic, origin in _rows(memories, meta, today, first):
        docs.append(row)
        postings.extend(entries)
        topics.extend(topic)
        sources.extend(origin)
        highest = max(highest, id_number(row[1]) or 0)
        count += 1
        units += _units(row[15])
        if len(postings) > 20_000:
            flush()
    flush()
    known = db.execute("SELECT value FROM meta WHERE key = 'highest_id'").fetchone()
    _set_meta(db, highest_id=max(highest, int(known[0]) if known else 0))
    return count, units


# What a statement may take in every SQLite: 999 parameters (the limit before version 3.32), and 500 rows of VALUES
# (a compound SELECT to versions before 3.8.8).
_PARAMETERS, _ROWS = 999, 500


def _insert_rows(db: sqlite3.Connection, table: str, rows: list[tuple]) -> None:
    """Insert rows of one width, in order, as many a statement as its parameters allow: binding a row costs the same
    either way, but each run of a statement has a cost of its own (for a cache's many small rows, most of it)."""
    if not rows:
        return
    width = len(rows[0])
    each = max(1, min(_ROWS, _PARAMETERS // width))
    values = "(" + ",".join("?" * width) + ")"
    whole = len(rows) - len(rows) % each
    if whole:
        statement = f"INSERT INTO {table} VALUES " + ",".join([values] * each)
        db.executemany(statement, (list(chain.from_iterable(rows[i : i + each])) for i in range(0, whole, each)))
    # The rest one a statement: a statement of each length would be compiled and cached anew.
    db.executemany(f"INSERT INTO {table} VALUES {values}", rows[whole:])


def _remove(db: sqlite3.Connection, memory_id: str) -> float | None:
    """Delete a memory's rows; returns the length of its document (None when there was none)."""
    found = db.execute("SELECT doc, topic, body, length FROM docs WHERE id = ?", (memory_id,)).fetchone()
    if found:
        doc, topic, body, length = found
        memory = Memory.wrap(json.loads(body))
        # Deleted by their indexed keys: a scan of these tables per memory would not scale.
        db.executemany("DELETE FROM postings WHERE term = ? AND doc = ?", [(t, doc) for t in document_terms(memory)])
        db.executemany("DELETE FROM topics WHERE term = ? AND doc = ?", [(t, doc) for t in topic.split()])
        db.executemany(
            "DELETE FROM sources WHERE session = ? AND message = ? AND doc = ?",
            [
                (str(s.get("session")), str(s.get("message")), doc)
                for s in memory.every_source()
                if s.get("session") is not None
            ],
        )
        db.execute("DELETE FROM docs WHERE doc = ?", (doc,))
        return length
    return None


def _set_meta(db: sqlite3.Connection, **values) -> None:
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, str(v)) for k, v in values.items()])


# Document lengths are added up exactly, as whole numbers of 2^-60: every length (a sum of term weights, none below
# 0.1) is a float at least 2^-8, so a whole multiple of that unit. The total as a float is then the correctly rounded
# sum, which is what math.fsum gives IndexView: both views rank with the same average length, however many updates.
_UNIT = 60


def _units(length: float) -> int:
    return int(math.ldexp(length, _UNIT))


def _totals(db: sqlite3.Connection) -> tuple[int, int]:
    """(documents, their total length in units of 2^-_UNIT) as recorded: kept up to date by every change, never
    summed again (a scan of a large cache's documents costs a tenth of a second)."""
    values = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('count', 'total_units')"))
    try:
        return int(values["count"]), int(values["total_units"])
    except (KeyError, ValueError):
        raise NotIncremental() from None


def rebuild(ws: Workspace, index: Index, sig: str | None, today: date) -> None:
    """Build the whole structure from an index into a new file, then move it into place."""
    ws.cache.mkdir(parents=True, exist_ok=True)
    target = _path(ws)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    db = sqlite3.connect(temporary)
    try:
        # Helper threads sort the rows for the indexes built at the end (SQLite's sorter; a no-op where it was
        # built without them): on more than one core, a rebuild's largest sort no longer waits for one.
        db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA threads=4;" + _TABLES)
        db.execute(f"PRAGMA user_version={VERSION}")
        count, units = _insert(db, index.memories, index.meta, today, indexed=False)
        db.executescript(_INDEXES)
        _set_meta(db, count=count, total_units=units)
        _record(db, ws, sig)
        db.commit()
    finally:
        db.close()
    os.replace(temporary, target)


class NotIncremental(Exception):
    """The cache cannot be brought up to date from the few memories a streaming write holds."""


def update(
    ws: Workspace, index: Index, loaded_from: str | None, changed: set[str] | None, today: date, partial: bool = False
) -> None:
    """After a writer saved the index: refresh the documents of `changed` ids (all when None) and record the new
    index.json. Incremental only when the cache matched the index.json the writer loaded (`loaded_from`): a hand
    edit before the write means a rebuild. A `partial` index (only the memories a streaming write held) can
    never rebuild it: NotIncremental instead. Called with the workspace lock held."""
    sig = signature(ws)
    db = _open(ws)
    if db is None or changed is None or not _current(db, loaded_from):
        if db is not None:
            db.close()
        if partial:
            raise NotIncremental()
        rebuild(ws, index, sig, today)
        return
    try:
        with db:
            _set_meta(db, signature="")  # a crash half way must read as out of date
        with db:
            by_id = index.by_id() if changed else {}
            count, units = _totals(db)
            for memory_id in changed:
                removed = _remove(db, memory_id)
                if removed is not None:
                    count, units = count - 1, units - _units(removed)
            added, more = _insert(db, [by_id[i] for i in sorted(changed) if i in by_id], index.meta, today)
            _set_meta(db, count=count + added, total_units=units + more)
            _record(db, ws, sig)
    finally:
        db.close()


def refresh_after_write(
    ws: Workspace, index: Index, loaded_from: str | None, changed: set[str] | None, today: date, partial: bool = False
) -> None:
    """`update` after one of our own writes, and note that index.json is now exactly as we wrote it (see
    `witnessed`). A failure only removes the cache: the index is saved already and the next reader rebuilds."""
    try:
        update(ws, index, loaded_from, changed, today, partial)
        db = _open(ws)
        if db is not None:
            with db:
                _set_meta(db, written=signature(ws) or "")
            db.close()
    except (OSError, sqlite3.Error, NotIncremental):
        try:
            _path(ws).unlink()
        except OSError:
            pass


def _open(ws: Workspace) -> sqlite3.Connection | None:
    path = _path(ws)
    if not path.exists():
        return None
    try:
        db = sqlite3.connect(path, timeout=30)
        if db.execute("PRAGMA user_version").fetchone()[0] != VERSION:
            db.close()
            return None
        return db
    except sqlite3.DatabaseError:
        return None


class CacheView:
    """views.View over the cache, with the touches recorded since the last write applied to what it returns.
    Memories come decoded from their cached bodies, each carrying its own decay anchor."""

    def __init__(self, db: sqlite3.Connection, touched: list):
        self.db = db
        values = dict(db.execute("SELECT key, value FROM meta"))
        self.count = int(values.get("count", 0))
        total = math.ldexp(int(values.get("total_units", 0)), -_UNIT)
        self.average_length = total / self.count if self.count else 1.0
        self.highest_id = int(values.get("highest_id", 0))
        self._rows: dict[int, tuple] = {}
        self._touches: dict[str, list[datetime]] = {}
        for when, ids in touched:
            for memory_id in ids:
                self._touches.setdefault(memory_id, []).append(when)

    def close(self) -> None:
        self.db.close()

    def _memory(self, body: str) -> Memory:
        memory = Memory.wrap(json.loads(body))
        for when in sorted(self._touches.get(memory.id, ())):
            retention.touch(memory, when, _ANCHORED)
        return memory

    def _bodies(self, docs: list[int], columns: str = "body") -> Iterator[tuple]:
        for start in range(0, len(docs), 500):
            part = docs[start : start + 500]
            yield from self.db.execute(
                f"SELECT doc, {columns} FROM docs WHERE doc IN ({','.join('?' * len(part))})", part
            )

    # --- ranking ---
    def postings(self, term: str) -> list[tuple[int, float, float]]:
        # From the covering index alone: a common word's list is long, and ranking reads the facts of only the
        # few best documents (`facts`).
        return self.db.execute("SELECT doc, tf, length FROM postings WHERE term = ?", (term,)).fetchall()

    def facts(self, docs: list[int], now: datetime) -> dict[int, Facts]:
        today = now.date()
        wanted = [doc for doc in docs if doc not in self._rows]
        for row in self._bodies(wanted, "id, domain, hidden, pinned, base, since, importance, seen"):
            self._rows[row[0]] = row[1:]
        out = {}
        for doc in docs:
            memory_id, domain, hidden, pinned, base, since, importance, seen = self._rows[doc]
            if not pinned:
                importance = retention.faded(base, today.toordinal() - since)
            touched = self._touches.get(memory_id)
            if touched:
                seen = max(seen or 0, max(touched).date().toordinal())
            out[doc] = Facts(
                memory_id,
                domain,
                bool(hidden),
                importance,
                retention.recency(date.fromordinal(seen) if seen else None, today),
            )
        return out

    def fetch(self, docs: list[int]) -> dict[int, Memory]:
        return {doc: self._memory(body) for doc, body in self._bodies(docs)}

    # --- published views ---
    def _top(self, where: str, params: tuple, today: date, limit: int, columns: str) -> list[tuple]:
        """(today's importance, pinned, *columns) of the rows under `where` whose importance is among the `limit`
        highest, and of every row tied with the last of them, in no order. Read off the indexes, pinned rows by
        importance and fading ones by strength, each walk stopping at the first row that cannot reach the
        `limit`-th importance found so far (`_reach`): a few rows more than `limit`, however large the store."""
        day = today.toordinal()
        highest: list[float] = []  # the `limit` highest importances found so far, as a heap
        found: list[tuple] = []
        select = f"{columns} FROM docs WHERE {where}"
        walks = (
            (1, f"SELECT importance, 0, 0, {select} AND pinned = 1 ORDER BY importance DESC"),
            (0, f"SELECT strength, base, since, {select} AND pinned = 0 ORDER BY strength DESC"),
        )
        for pinned, query in walks if limit > 0 else ():
            cursor = self.db.execute(query, params)
            try:
                for first, base, since, *row in cursor:
                    # The most this row is worth today: exactly, for a pinned one; a bound, for a fading one.
                    most = retention.importance_of_row(1, first, 0.0, 0, day) if pinned else _reach(first, day)
                    if len(highest) == limit and most < highest[0]:
                        break
                    value = most if pinned else retention.importance_of_row(0, 0.0, base, since, day)
                    found.append((value, pinned, *row))
                    if len(highest) < limit:
                        heapq.heappush(highest, value)
                    elif value > highest[0]:
                        heapq.heapreplace(highest, value)
            finally:
                cursor.close()
        return [item for item in found if item[0] >= highest[0]] if len(highest) == limit else found

    def core(self, today: date, threshold: float) -> tuple[int, Iterator[tuple[Memory, float]]]:
        bound = math.log(threshold) - today.toordinal() * _LOG_RATE if threshold > 0 else -math.inf
        fading = "hidden = 0 AND pinned = 0 AND explicit = ? AND strength >= ?"
        steady = "hidden = 0 AND pinned = 1 AND explicit = ? AND importance >= ?"
        total = sum(
            self.db.execute(f"SELECT COUNT(*) FROM docs WHERE {where}", (flag, value)).fetchone()[0]
            for where, value in ((fading, bound), (steady, threshold))
            for flag in (0, 1)
        )

        def rows(where: str, flag: int, value: float, order: str):
            for (body,) in self.db.execute(
                f"SELECT body FROM docs WHERE {where} ORDER BY {order} DESC, id", (flag, value)
            ):
                memory = self._memory(body)
                yield memory, retention.importance_on(memory, today, _ANCHORED)

        def walk():
            # Both lists come sorted from the index on (hidden, explicit, strength); pinned ones are few.
            for flag in (1, 0):
                yield from heapq.merge(
                    rows(fading, flag, bound, "strength"),
                    rows(steady, flag, threshold, "importance"),
                    key=lambda pair: (-pair[1], pair[0].id),
                )

        return total, walk()

    def shelves(self, today: date, shelf_of: ShelfOf, limit: int) -> dict[tuple[str, str], list[tuple[Memory, float]]]:
        # Each category's `limit` most important from the index on (hidden, domain, category, pinned, strength);
        # categories with the same shelf name are merged, then cut.
        out: dict[tuple[str, str], list] = {}
        for domain, category in self.db.execute(
            "SELECT DISTINCT domain, category FROM docs WHERE hidden = 0"
        ).fetchall():
            out.setdefault((domain, shelf_of(category)), []).extend(
                self._top("hidden = 0 AND domain = ? AND category = ?", (domain, category), today, limit, "doc, id")
            )
        for shelf in out.values():
            shelf.sort(key=lambda row: (-row[0], row[3]))
            del shelf[max(0, limit) :]
        bodies = self.fetch([row[2] for shelf in out.values() for row in shelf])
        return {key: [(bodies[row[2]], row[0]) for row in shelf] for key, shelf in out.items()}

    def shelf_counts(self, shelf_of: ShelfOf) -> dict[tuple[str, str], int]:
        out: dict = {}
        for domain, category, count in self.db.execute(
            "SELECT domain, category, COUNT(*) FROM docs WHERE hidden = 0 GROUP BY domain, category"
        ):
            key = (domain, shelf_of(category))
            out[key] = out.get(key, 0) + count
        return out

    def ranked(self, today: date, limit: int) -> list[Scored]:
        rows = self._top("1", (), today, limit, "doc, id, domain, created, reinforced")
        rows.sort(key=lambda row: (-row[0], -row[6], row[3]))
        del rows[max(0, limit) :]
        bodies = self.fetch([row[2] for row in rows])
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
            for value, pinned, doc, _, domain, created, reinforced in rows
        ]

    def census(self, today: date, bins: int) -> Census:
        """Counted from small columns, read off covering indexes (a scan of the documents would read every body):
        every memory's importance today computed once, sorted, and the tiers and bins counted as runs of the
        sorted values (a call of `tier` or `histogram_bin` per run, not per memory)."""
        out = Census(bins=[0] * bins)
        values: list[float] = []
        number = today.toordinal()
        for (domain,) in self.db.execute("SELECT DISTINCT domain FROM docs").fetchall():
            rows = self.db.execute("SELECT base, since FROM docs WHERE domain = ? AND pinned = 0", (domain,))
            bases, sinces = list(zip(*rows, strict=True)) or [(), ()]
            fading = retention.faded_rows(bases, sinces, number)
            pinned = [
                retention.importance_of_row(1, importance, 0.0, 0, number)
                for (importance,) in self.db.execute(
                    "SELECT importance FROM docs WHERE domain = ? AND pinned = 1", (domain,)
                )
            ]
            out.fading += fading
            out.pinned += pinned
            some = fading + pinned
            some.sort()
            for name, start, end in runs(some, tier):
                out.per_domain.setdefault(domain or "user", Counter())[name] += end - start
            values += some
        out.pinned.sort()
        out.fading.sort()
        values.sort()
        out.total = len(values)
        for number, start, end in runs(values, lambda value: histogram_bin(value, bins)):
            out.bins[number] += end - start
        for day, count, reinforced in self.db.execute(
            "SELECT created, COUNT(*), SUM(reinforced) FROM docs GROUP BY created"
        ):
            if day:
                out.days[date.fromordinal(day)] += count
            else:
                out.undated += count
            out.reinforced += reinforced
        return out

    # --- the same-fact lookup ---
    def topic_count(self, term: str) -> int:
        return self.db.execute("SELECT COUNT(*) FROM topics WHERE term = ?", (term,)).fetchone()[0]

    def topic_docs(self, term: str) -> Iterable[int]:
        return [doc for (doc,) in self.db.execute("SELECT doc FROM topics WHERE term = ?", (term,))]

    def entries(self, docs: list[int]) -> list[tuple[int, Memory, set[str]]]:
        return [(doc, self._memory(body), set(topic.split())) for doc, topic, body in self._bodies(docs, "topic, body")]

    def tie_keys(self, docs: list[int]) -> dict[int, tuple[int, str]]:
        return {doc: (len(topic.split()), memory_id) for doc, memory_id, topic in self._bodies(docs, "id, topic")}

    def latest_in_session(self, session: str) -> int | None:
        row = self.db.execute(
            "SELECT d.doc FROM sources s JOIN docs d ON d.doc = s.doc WHERE s.session = ? AND d.hidden = 0 "
            "ORDER BY s.ts DESC, length(d.id) DESC, d.id DESC LIMIT 1",
            (session,),
        ).fetchone()
        return row[0] if row else None

    def has_source(self, session: str, message: str) -> bool:
        return (
            self.db.execute(
                "SELECT 1 FROM sources WHERE session = ? AND message = ? LIMIT 1", (session, message)
            ).fetchone()
            is not None
        )


# A cached body carries its own decay anchor: no index bookkeeping is needed to date it.
_ANCHORED: Mapping = MappingProxyType({})


def open_view(ws: Workspace, today: date, locked: bool = False):
    """A View of the current index for readers: the cache (built or rebuilt as needed, with the touches recorded
    since the last write), or, when the cache folder cannot be written, an IndexView of the index read whole.
    `locked`: the caller holds the workspace lock already."""
    view = cached_view(ws)
    if view is not None:
        return view
    with nullcontext() if locked else files.workspace_lock(ws):
        view = cached_view(ws)
        if view is not None:
            return view
        index = indexfile.load_index(ws)
        try:
            rebuild(ws, index, signature(ws), today)
        except (OSError, sqlite3.Error):
            # A read-only cache folder: answer from memory this time.
            touches.apply_touches(index, touches.read_touches(ws))
            return IndexView(index)
        return cached_view(ws) or IndexView(index)


def cached_view(ws: Workspace) -> CacheView | None:
    """The cache as a View when it describes exactly the index.json there now (with the touches recorded since)."""
    db = _open(ws)
    if db is None or not _vouched(db, ws):
        if db is not None:
            db.close()
        return None
    return CacheView(db, touches.read_touches(ws))


def witnessed(ws: Workspace) -> bool:
    """Is index.json exactly the file our last write produced (and the cache current for it)? Then it is in our
    line form, redacted under today's rules, and a transaction streams it as it is; any other file is normalised
    first (transaction.normalise)."""
    db = _open(ws)
    if db is None:
        return False
    try:
        sig = _vouched(db, ws)
        row = db.execute("SELECT value FROM meta WHERE key = 'written'").fetchone()
    except sqlite3.DatabaseError:
        return False
    finally:
        db.close()
    return bool(sig) and row is not None and row[0] == sig


def _current(db: sqlite3.Connection, sig: str | None) -> bool:
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'signature'").fetchone()
    except sqlite3.DatabaseError:
        return False
    return bool(row and sig and row[0] == sig)
