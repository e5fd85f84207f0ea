"""The one read model: what every feature reads of the store, asked the same way whatever answers.

A `View` is answered by `IndexView`, over an index held in memory (a writer's, a small store's, or a store whose
cache folder cannot be written), or by `cache.CacheView`, over the derived SQLite cache (recall, load_core and the
dashboard of a 100k-memory store, without parsing or tokenising it). Both give the same answers: the features
(search, core selection, mirrors, dashboard, encoding's same-fact lookup) never know which one they hold.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from bisect import bisect_left
from typing import Callable, Iterable, Iterator, Protocol, Sequence, TypeVar

from . import retention
from .model import tier, Index, Memory
from ..terms import document_terms, topic_terms
from ..timeutil import parse_day

ShelfOf = Callable[[str], str]  # a memory's category -> the name of the shelf (mirror file) it is listed on


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
    """A memory with today's importance (from 0 to 1) and what the dashboard's aggregates need, read once."""

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


def histogram_bin(importance: float, bins: int) -> int:
    """The bin of an importance from 0 to 1 (1.0 falls in the last bin)."""
    return min(bins - 1, int(importance * bins + 1e-9))


Label = TypeVar("Label")


def runs(values: Sequence[float], label: Callable[[float], Label]) -> Iterator[tuple[Label, int, int]]:
    """(label, start, end) of each run of ascending `values` that `label` gives one value: the label must never
    come back once left as the values rise (a tier, a histogram bin). A few calls of `label` a run, by bisection."""
    start = 0
    while start < len(values):
        name = label(values[start])
        end = bisect_left(values, True, lo=start, key=lambda value: label(value) != name)
        yield name, start, end
        start = end


class View(Protocol):
    """What the features read of a store. Documents are numbered by the view (`doc`); a memory returned is the
    store's own object for an IndexView and a decoded copy (with recorded touches applied) for a CacheView."""

    # Read-only: an implementation may compute them on first use.
    @property
    def count(self) -> int:
        """Memories, hidden ones included."""

    @property
    def average_length(self) -> float:
        """Of a memory's weighted terms (ranking)."""

    @property
    def highest_id(self) -> int:
        """The highest mem_NNN number the store holds or has given."""

    # --- ranking (search.rank) ---
    def postings(self, term: str) -> list[tuple[int, float, float]]:
        """(doc, weighted term frequency, doc length) of every document holding `term`."""

    def facts(self, docs: list[int], now: datetime) -> dict[int, Facts]:
        """What scoring needs of these documents, without decoding them."""

    def fetch(self, docs: list[int]) -> dict[int, Memory]:
        """The memories of these documents."""

    # --- published views ---
    def core(self, today: date, threshold: float) -> tuple[int, Iterator[tuple[Memory, float]]]:
        """How many visible memories reach `threshold` today, and those memories: explicit "remember this" first,
        then by today's importance, ties by id."""

    def shelves(self, today: date, shelf_of: ShelfOf, limit: int) -> dict[tuple[str, str], list[tuple[Memory, float]]]:
        """{(domain, shelf): [(memory, today's importance)]}: each shelf's `limit` most important visible memories,
        most important first, ties by id."""

    def shelf_counts(self, shelf_of: ShelfOf) -> dict[tuple[str, str], int]:
        """{(domain, shelf): how many visible memories}."""

    def ranked(self, today: date, limit: int) -> list[Scored]:
        """The `limit` most important memories today (hidden ones too), then the most reinforced, ties by id."""

    def census(self, today: date, bins: int) -> Census:
        """Aggregates over every memory today."""

    # --- the same-fact lookup (encoding.Candidates) and the sources already held ---
    def topic_count(self, term: str) -> int:
        """How many memories have `term` among their topic terms."""

    def topic_docs(self, term: str) -> Iterable[int]:
        """The documents with `term` among their topic terms."""

    def entries(self, docs: list[int]) -> list[tuple[int, Memory, set[str]]]:
        """(doc, memory, its topic terms) of these documents."""

    def tie_keys(self, docs: list[int]) -> dict[int, tuple[int, str]]:
        """(number of topic terms, id) of these documents, without decoding them."""

    def latest_in_session(self, session: str) -> int | None:
        """The visible document holding the latest message of `session` (of two said at once, the newer memory)."""

    def has_source(self, session: str, message: str) -> bool:
        """Does any memory hold this message already?"""

    def close(self) -> None:
        """Let go of what the view holds open."""


def shown(value: float) -> float:
    """Today's importance as listed: within 0 and 1."""
    return min(1.0, max(0.0, value))


def _core_order(explicit: bool, importance: float, memory_id: str) -> tuple:
    return (not explicit, -importance, memory_id)


class IndexView:
    """A View over an index in memory. Each structure is built on first use, from the memories as they were then
    (documents are their positions in the list): a writer's later changes go through encoding's own bookkeeping."""

    def __init__(self, index: Index):
        self.memories = list(index.memories)
        self.meta = index.meta  # dates a hand-edited importance (retention.anchor)
        self.count = len(self.memories)
        self.highest_id = index.highest_id()
        self._postings: dict[str, list[tuple[int, float, float]]] | None = None
        self._average = 1.0
        self._topics: list[set[str]] | None = None
        self._topic_docs: dict[str, list[int]] = {}
        self._sources: set[tuple[str, str]] | None = None
        self._latest: dict[str, tuple[tuple, int]] | None = None

    def close(self) -> None:
        pass

    def importance(self, memory: Memory, today: date) -> float:
        return retention.importance_on(memory, today, self.meta)

    def _visible(self) -> Iterator[tuple[int, Memory]]:
        for doc, memory in enumerate(self.memories):
            if not (memory.superseded or memory.archived):
                yield doc, memory

    # --- ranking ---
    def _index(self) -> dict[str, list[tuple[int, float, float]]]:
        if self._postings is None:
            self._postings = {}
            lengths = []
            for doc, memory in enumerate(self.memories):
                counts = document_terms(memory)
                length = sum(counts.values())
                lengths.append(length)
                for term, tf in counts.items():
                    self._postings.setdefault(term, []).append((doc, tf, length))
            # Correctly rounded, as the cache's exact total is (cache._totals): the same average either way.
            self._average = math.fsum(lengths) / self.count if self.count else 1.0
        return self._postings

    @property
    def average_length(self) -> float:
        self._index()
        return self._average

    def postings(self, term: str) -> list[tuple[int, float, float]]:
        return self._index().get(term, [])

    def facts(self, docs: list[int], now: datetime) -> dict[int, Facts]:
        today = now.date()
        out = {}
        for doc in docs:
            memory = self.memories[doc]
            seen = parse_day(memory.lastAccessed) or parse_day(memory.created)
            out[doc] = Facts(
                memory.id,
                memory.domain,
                memory.superseded or memory.archived,
                self.importance(memory, today),
                retention.recency(seen, today),
            )
        return out

    def fetch(self, docs: list[int]) -> dict[int, Memory]:
        return {doc: self.memories[doc] for doc in docs}

    # --- published views ---
    def core(self, today: date, threshold: float) -> tuple[int, Iterator[tuple[Memory, float]]]:
        found = []
        for _, memory in self._visible():
            importance = self.importance(memory, today)
            if importance >= threshold:
                found.append((memory, importance))
        found.sort(key=lambda c: _core_order(c[0].extra.get("kind") == "explicit", c[1], c[0].id))
        return len(found), iter(found)

    def shelves(self, today: date, shelf_of: ShelfOf, limit: int) -> dict[tuple[str, str], list[tuple[Memory, float]]]:
        out: dict[tuple[str, str], list] = {}
        for _, memory in self._visible():
            out.setdefault((memory.domain, shelf_of(memory.category)), []).append(
                (memory, shown(self.importance(memory, today)))
            )
        for shelf in out.values():
            shelf.sort(key=lambda pair: (-pair[1], pair[0].id))
            del shelf[max(0, limit) :]
        return out

    def shelf_counts(self, shelf_of: ShelfOf) -> dict[tuple[str, str], int]:
        return dict(Counter((m.domain, shelf_of(m.category)) for _, m in self._visible()))

    def _scored(self, today: date) -> list[Scored]:
        scored = []
        for memory in self.memories:
            value = shown(self.importance(memory, today))
            scored.append(
                Scored(
                    memory,
                    value,
                    tier(value),
                    memory.domain or "user",
                    memory.pinned,
                    parse_day(memory.created),
                    memory.timesReinforced,
                )
            )
        scored.sort(key=lambda s: (-s.importance, -s.reinforced, s.memory.id))
        return scored

    def ranked(self, today: date, limit: int) -> list[Scored]:
        return self._scored(today)[: max(0, limit)]

    def census(self, today: date, bins: int) -> Census:
        out = Census(bins=[0] * bins)
        for item in self._scored(today):
            out.total += 1
            out.per_domain.setdefault(item.domain, Counter())[item.tier] += 1
            out.bins[histogram_bin(item.importance, bins)] += 1
            (out.pinned if item.pinned else out.fading).append(item.importance)
            if item.created:
                out.days[item.created] += 1
            else:
                out.undated += 1
            out.reinforced += item.reinforced
        out.fading.sort()
        out.pinned.sort()
        return out

    # --- the same-fact lookup ---
    def _topic_index(self) -> list[set[str]]:
        if self._topics is None:
            self._topics = []
            for doc, memory in enumerate(self.memories):
                topic = topic_terms(memory.content)
                self._topics.append(topic)
                for term in topic:
                    self._topic_docs.setdefault(term, []).append(doc)
        return self._topics

    def topic_count(self, term: str) -> int:
        self._topic_index()
        return len(self._topic_docs.get(term, ()))

    def topic_docs(self, term: str) -> Iterable[int]:
        self._topic_index()
        return self._topic_docs.get(term, ())

    def entries(self, docs: list[int]) -> list[tuple[int, Memory, set[str]]]:
        topics = self._topic_index()
        return [(doc, self.memories[doc], topics[doc]) for doc in docs]

    def tie_keys(self, docs: list[int]) -> dict[int, tuple[int, str]]:
        topics = self._topic_index()
        return {doc: (len(topics[doc]), self.memories[doc].id) for doc in docs}

    def latest_in_session(self, session: str) -> int | None:
        if self._latest is None:
            self._latest = {}
            for doc, memory in self._visible():
                for source in memory.every_source():
                    name = source.get("session")
                    if name is None:
                        continue
                    when = (str(source.get("ts") or ""), len(memory.id), memory.id)
                    known = self._latest.get(str(name))
                    if known is None or when > known[0]:
                        self._latest[str(name)] = (when, doc)
        found = self._latest.get(session)
        return found[1] if found else None

    def has_source(self, session: str, message: str) -> bool:
        if self._sources is None:
            self._sources = {
                (str(s.get("session")), str(s.get("message")))
                for m in self.memories
                for s in m.every_source()
                if s.get("session") is not None
            }
        return (session, message) in self._sources
