"""memory/.cache/recall.sqlite: the search cache, derived from index.json, and the one read model every feature reads
the store through (`Cache`). Deleting the folder is always safe.

It holds, for each memory, the facts that rank and select it (domain, flags, decay anchor, dates, length), its
topic terms (encoding's same-fact lookup) and its stored body; for each term, the documents that hold it with their
term frequency and length, as three packed arrays (an inverted index small enough to stay under twice the size of
the index it is built from); for each session, the memories holding its messages; and the commitments (encoding reads
only those of the store's memories). It records which index.json it describes (`files.identity` and a checksum):
one rule says when it is stale — the file there is another one — and then it is built again from the file.

Writers update it under the workspace lock, in one SQLite transaction per write; the database is in WAL mode, so
readers keep reading the snapshot they started with and never wait for a writer.
"""

from __future__ import annotations

import heapq
import json
import math
import sqlite3
import zlib
from array import array
from itertools import islice
from collections import Counter
from datetime import date, datetime
from typing import Callable, Iterable, Iterator, NamedTuple

from .. import redaction
from ..model import ENCODE, Memory, tier
from ..retention import importance, lowest_key, recency
from ..workspace import Workspace
from . import files

SCHEMA = 23
# The cache holds the store's words as redacted under one set of rules: after new rules it is built again.
VERSION = SCHEMA * 1000 + redaction.RULES
BATCH = 500  # documents read in one statement


def packed(body: dict) -> bytes:
    """A memory's body as the cache stores it: its JSON, compressed (zlib: the bodies of 100,000 memories with
    their turns take about 60 % of their JSON)."""
    return zlib.compress(ENCODE(body).encode("utf-8"))


def unpacked(body: bytes) -> dict:
    return json.loads(zlib.decompress(body))


def session_key(session: str) -> int:
    """What the cache files a session under: the CRC-32 of its id. Smaller than the ids (a store of 100,000
    memories may hold as many sessions); two sessions of one key only make encoding read a few more memories."""
    return zlib.crc32(session.encode("utf-8", errors="surrogatepass"))


def path_of(ws: Workspace):
    return ws.cache / "recall.sqlite"


# --- what the features read -----------------------------------------------------------------------------------


class Facts(NamedTuple):
    """A document's id, filters and today's importance and recency: what ranking reads before decoding anything."""

    id: str
    domain: str
    hidden: bool  # superseded (found only with --all), or in the index with its archived flag set
    importance: float
    recency: float
    days: str  # the days it is about (terms.days_text)
    archived: bool = False  # in memory/archive.jsonl


class Scored(NamedTuple):
    """A memory with today's importance and what the dashboard's aggregates need."""

    memory: Memory
    importance: float
    tier: str
    domain: str
    pinned: bool
    created: date | None
    reinforced: int


class Shelf(NamedTuple):
    """A shelf of a domain (a mirror file): its most important visible memories, and how many it holds in all."""

    memories: list[tuple[Memory, float]]
    total: int


def histogram_bin(value: float, bins: int) -> int:
    """The bin of an importance from 0 to 1 (1.0 falls in the last bin)."""
    return min(bins - 1, int(value * bins + 1e-9))


ShelfOf = Callable[[str], str]  # a memory's category -> the name of its shelf


# A view that lists the best N of the store's rows holds at most this many times N as it reads them, then keeps the
# best N: memory bounded (the mirrors list 200 of each of their dozens of shelves, the dashboard 2,000, while a
# write may hold the whole index: bench/scale.py measures the peak), and a sort of the held rows every N rows.
HELD_PER_LISTED = 2


def _shelf_order(row: tuple) -> tuple:
    """Most important today first, ties by id."""
    return -row[0], row[2]


def _ranked_order(row: tuple) -> tuple:
    """Most important today first, then the most reinforced, ties by id."""
    return -row[0], -row[9], row[2]


class Best:
    """The best `limit` of the rows it is given, in `order` (most important today first: a row's first field is its
    importance today), without holding them all: at most HELD_PER_LISTED times the limit at a time, and once rows were
    let go, a row less important than the least of those kept is not held at all (it can never be among the best)."""

    def __init__(self, limit: int, order: Callable[[tuple], tuple]):
        self.limit, self.order = max(0, limit), order
        self.rows: list[tuple] = []
        self.least = -math.inf  # a row less important than this is worse than every row kept

    def add(self, row: tuple) -> None:
        if row[0] < self.least:
            return
        self.rows.append(row)
        if len(self.rows) > HELD_PER_LISTED * self.limit:
            self.rows = heapq.nsmallest(self.limit, self.rows, key=self.order)
            self.least = self.rows[-1][0] if self.rows else math.inf

    def best(self) -> list[tuple]:
        return heapq.nsmallest(self.limit, self.rows, key=self.order)


class Census:
    """Aggregates over every memory: tier counts per domain, importance in `bins` equal bins, today's importance of
    the fading and of the pinned memories (ascending), memories per creation day, and totals; and (`top`, once
    `finish`ed) its `top` most important memories (hidden ones too), then the most reinforced, ties by id. A tally:
    filled by `Cache.tally`."""

    def __init__(self, bins: int, top: int = 0):
        # The most important memories, read 50 at a time as they are taken: 2,000 of them held parsed with their
        # turns would weigh more than the page made of them.
        self.top: Iterator[Scored] = iter(())
        self.bins = [0] * bins
        self.total = 0
        self.per_domain: dict[str, Counter] = {}
        self.fading: list[float] = []
        self.pinned: list[float] = []
        self.days: Counter = Counter()
        self.undated = 0
        self.reinforced = 0
        self._best = Best(top, _ranked_order)
        self._created: Counter[int] = Counter()  # day number -> memories made that day

    def add(self, row: tuple) -> None:
        value, _, _, domain, _, pinned, _, _, created, reinforced = row
        self._best.add(row)
        self.total += 1
        tiers = self.per_domain.get(domain or "user")
        if tiers is None:
            tiers = self.per_domain[domain or "user"] = Counter()
        tiers[tier(value)] += 1
        self.bins[histogram_bin(value, len(self.bins))] += 1
        (self.pinned if pinned else self.fading).append(value)
        if created:
            self._created[created] += 1
        else:
            self.undated += 1
        self.reinforced += reinforced

    def finish(self, cache: Cache, today: date) -> None:
        self.days.update({date.fromordinal(day): count for day, count in self._created.items()})
        self.fading.sort()
        self.pinned.sort()
        best = self._best.best()
        self.top = (scored for at in range(0, len(best), 50) for scored in cache.scored(best[at : at + 50], today))


class Shelves:
    """The shelves of the visible memories (a shelf: a domain and the name `shelf_of` gives a category), each with its
    `limit` most important memories, most important first, ties by id, and its count. A tally: filled by
    `Cache.tally`, then `read`."""

    def __init__(self, shelf_of: ShelfOf, limit: int):
        self.shelf_of, self.limit = shelf_of, limit
        self.best: dict[tuple[str, str], Best] = {}
        self.counts: Counter[tuple[str, str]] = Counter()
        self.names: dict[str, str] = {}  # category -> shelf: a store has few categories

    def add(self, row: tuple) -> None:
        if row[7]:  # hidden
            return
        name = self.names.get(row[4])
        if name is None:
            name = self.names[row[4]] = self.shelf_of(row[4])
        key = (row[3], name)
        self.counts[key] += 1
        best = self.best.get(key)
        if best is None:
            best = self.best[key] = Best(self.limit, _shelf_order)
        best.add(row)

    def finish(self, cache: Cache, today: date) -> None:
        pass  # its memories are read as each shelf comes (`read`)

    def read(self, cache: Cache, today: date) -> Iterator[tuple[tuple[str, str], Shelf]]:
        """((domain, shelf), Shelf) of each shelf, each shelf's memories read from `cache` as it comes (not every
        shelf's at once)."""
        for key, best in self.best.items():
            rows = best.best()
            bodies = cache.fetch([row[1] for row in rows], today)
            yield key, Shelf([(bodies[row[1]], row[0]) for row in rows], self.counts[key])


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
        """(doc, weighted term frequency, length of the piece it is counted in) of every document holding `term`."""
        row = self.db.execute("SELECT docs, tfs, lengths FROM terms WHERE term = ?", (term,)).fetchone()
        if row is None:
            return []
        docs, tfs, lengths = arrays_of(row)
        return list(zip(docs, tfs, lengths, strict=True))

    def facts(self, docs: list[int], now: datetime) -> dict[int, Facts]:
        today = now.date()
        out = {}
        for doc, memory_id, domain, hidden, pinned, base, since, value, seen, days, shelved in self._rows(
            docs, "id, domain, hidden, pinned, base, since, importance, seen, days, shelved"
        ):
            out[doc] = Facts(
                memory_id,
                domain,
                bool(hidden) and shelved != 1,
                importance(bool(pinned), value, base, date.fromordinal(since), today),
                recency(date.fromordinal(seen) if seen else None, today),
                days,
                bool(shelved),
            )
        return out

    def fetch(self, docs: list[int], today: date) -> dict[int, Memory]:
        """The memories of these documents as stored, with their importance as of `today`."""
        out = {}
        for doc, pinned, base, since, value, body in self._rows(
            docs, "pinned, base, since, importance, body", "docs JOIN bodies USING (doc)"
        ):
            memory = Memory.wrap(unpacked(body))
            memory.importance = round(importance(bool(pinned), value, base, date.fromordinal(since), today), 4)
            out[doc] = memory
        return out

    # --- published views ---
    def _today(self, today: date) -> Iterator[tuple]:
        """(today's importance, doc, id, domain, category, pinned, explicit, hidden, created, reinforced) of every
        document, streamed: each published view reads them afresh rather than holding 100,000 of them."""
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
            "reinforced FROM docs WHERE shelved = 0"
        ):
            found = importance(bool(pinned), value, base, date.fromordinal(since), today)
            yield found, doc, memory_id, domain, category, pinned, explicit, hidden, created, reinforced

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

    def tally(self, today: date, *tallies: Census | Shelves) -> None:
        """Give each of today's rows of the store (see `_today`) to every tally, then finish them: one read of the
        store for all of them."""
        adds = [t.add for t in tallies]
        for row in self._today(today):
            for add in adds:
                add(row)
        for t in tallies:
            t.finish(self, today)

    def scored(self, rows: list[tuple], today: date) -> list[Scored]:
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

    # --- commitments ---
    def commitments(
        self,
        today: date,
        status: str | None = None,
        due_until: float | None = None,
        due_after: float | None = None,
        closed_since: float | None = None,
        limit: int = -1,
    ) -> tuple[int, list[Memory]]:
        """How many commitments there are of this `status` (None: any) whose due time and closing fall in these
        bounds (seconds since the epoch), and the first `limit` of them (-1: all) by due time — or by closing,
        newest first, with `closed_since`."""
        where, values = ["hidden = 0"], []
        for clause, value in (
            ("status = ?", status),
            ("due <= ?", due_until),
            ("due > ?", due_after),
            ("closed >= ?", closed_since),
        ):
            if value is not None:
                where.append(clause)
                values.append(value)
        condition = " AND ".join(where)
        order = "closed DESC, doc" if closed_since is not None else "due IS NULL, due, doc"
        (total,) = self.db.execute(f"SELECT COUNT(*) FROM commitments WHERE {condition}", values).fetchone()
        docs = [
            doc
            for (doc,) in self.db.execute(
                f"SELECT doc FROM commitments WHERE {condition} ORDER BY {order} LIMIT ?", (*values, limit)
            )
        ]
        bodies = self.fetch(docs, today)
        return total, [bodies[doc] for doc in docs]

    # --- encoding's same-fact lookup ---
    def holders(self, sessions: Iterable[str]) -> set[str]:
        """The ids of the memories of the index that hold messages of these sessions (their own or their turns')."""
        docs: set[int] = set()
        for key in {session_key(session) for session in sessions}:
            row = self.db.execute("SELECT docs FROM sessions WHERE key = ?", (key,)).fetchone()
            if row is not None:
                docs.update(arrays_of(row)[0])
        return {memory_id for _, memory_id in self._rows(sorted(docs), "id")}

    def commitment_ids(self) -> set[str]:
        """The ids of the commitments of the index, hidden ones too."""
        return {memory_id for (memory_id,) in self.db.execute("SELECT id FROM commitments JOIN docs USING (doc)")}

    def holds_topics(self) -> bool:
        """Whether any document has topic terms (a new store's cache has none)."""
        return self.db.execute("SELECT 1 FROM topics LIMIT 1").fetchone() is not None

    def topic_docs(self, term: str) -> array:
        """The documents that have `term` among their topic terms."""
        row = self.db.execute("SELECT docs FROM topics WHERE term = ?", (term,)).fetchone()
        return arrays_of(row)[0] if row else array("I")

    def topic_entries(self, docs: list[int]) -> dict[int, tuple[str, set[str]]]:
        """{doc: (memory id, its topic terms)} of these documents."""
        return {doc: (memory_id, set(topic.split())) for doc, memory_id, topic in self._rows(docs, "id, topic")}


CODES = "Iff"  # the types of a posting list's arrays: documents, term frequencies, document lengths


def arrays_of(row) -> tuple[array, ...]:
    """The arrays a row of `terms` or `topics` packs."""
    out = tuple(array(code) for code in CODES[: len(row)])
    for part, data in zip(out, row, strict=True):
        part.frombytes(data)
    return out


# --- building and updating ------------------------------------------------------------------------------------


# --- opening ----------------------------------------------------------------------------------------------------


class Broken(Exception):
    """The cache file is not a database, or a damaged one."""


def connect(ws: Workspace, create: bool) -> sqlite3.Connection | None:
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
            raise Broken() from None
        return None


def describes(db: sqlite3.Connection, identity: str | None, checksum: Callable[[], str | None]) -> bool:
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
