"""Which stored memories a new message could be about: an inverted index of the memories' topic terms, and the
messages each session's memories already hold. Built once per run and kept up to date as the run adds or changes
memories; over a large store, the topic terms come from the store's cache, term by term, as they are asked for."""

from __future__ import annotations

import heapq
import math
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from itertools import filterfalse, islice

from ..commitment import is_commitment
from ..model import id_number, Memory
from ..store.cache import Cache
from ..terms import topic_terms
from .facts import SAME_TOPIC

CANDIDATES_SHOWN = 3
NO_DOCS = array("I")
EXAMINED = 50  # memories compared in full per lookup, those sharing the most rare terms
READ = 1000  # holders of its terms a lookup reads at most: the rarest terms' first, and of each term the newest


def weighted_dice(
    topic: set[str],
    other: set[str],
    weight: Callable[[str], float],
    topic_total: float | None = None,
    other_total: float | None = None,
) -> float:
    """How much two sets of topic terms overlap, from 0 to 1: twice the weight they share over the weight of both
    (each term weighs `weight(term)`, rare words more). `topic_total` and `other_total` are their sums, when known."""
    if topic_total is None:
        topic_total = sum(map(weight, topic))
    if other_total is None:
        other_total = sum(map(weight, other))
    total = topic_total + other_total
    return 2 * sum(map(weight, topic & other)) / total if total else 0.0


def term_weight(memories: int, holders: int) -> float:
    """How rare a term is among the topics of `memories` memories, `holders` of which hold it: rare words say more
    about what a fact is about."""
    return math.log(1 + (memories + 1) / (holders + 1))


def by_age(memory_id: str) -> tuple[int, str]:
    """A sort key that puts older memories (lower id numbers) first; ids of another shape after them."""
    number = id_number(memory_id)
    return (number if number is not None else 1 << 62), memory_id


class Candidates:
    """An inverted index of topic terms over the memories: which memories could be about the same thing; and the
    messages the memories hold, by session.

    Over a store with a cache (`stored`), the topic terms of the memories as the cache holds them are read from it,
    term by term as lookups ask, and only the memories the run adds or changes — and those the cache holds out of
    date (`stale`) — are indexed here; of the others, only the commitments and those holding messages of the run's
    `sessions` are read (the cache says which). Without one, every memory is read and indexed here. Either way a
    lookup sees the memories as they are now.
    """

    def __init__(
        self,
        memories: Iterable[Memory],
        stored: Cache | None = None,
        stale: Iterable[str] = (),
        sessions: set[str] | None = None,
    ):
        """`sessions`: the only sessions whose messages a run asks about (`held`, `latest_in_session`); None: all."""
        self.by_id: dict[str, Memory] = {}
        self.stored = stored
        self.topics: dict[str, set[str]] = {}  # memory id -> topic terms, of the memories indexed here
        # term -> the ids indexed here that have it, in the order they were indexed (a dict kept as an ordered set)
        self.postings: dict[str, dict[str, None]] = defaultdict(dict)
        self.held: set[tuple[str, str]] = set()  # (session, message) of every message the memories hold
        self.latest: dict[str, tuple[tuple, Memory]] = {}  # session -> (when, memory) of its latest message
        self.sessions = sessions
        self.holders_read = 0  # holders of terms the lookups have read, all told (one lookup reads READ at most)
        self._entries: dict[int, tuple[str, set[str]]] = {}  # stored doc -> (id, topic terms), as read
        self._stored: dict[str, array] = {}  # term -> its stored documents, as read (a run changes none of them)
        self._stored_df: dict[str, int] = {}  # term -> how many of them are not stale
        # A cache that holds no topic terms (a new store's) has no documents for any term: it is not asked for them.
        self._stored_terms = stored is not None and stored.holds_topics()
        self.commitments: list[Memory] = []  # the memories that are commitments, as the run began
        for memory in memories:
            self.by_id[memory.id] = memory
        # Over a cache, only the memories it says are commitments or hold messages of these sessions are read, and
        # those it holds out of date; else every one (read, not kept parsed: see model.Memory).
        stale = set(stale)
        wanted: set[str] | None = None
        if stored is not None and sessions is not None:
            wanted = stored.commitment_ids() | stored.holders(sessions) | stale
        for memory in self.by_id.values():
            if wanted is not None and memory.id not in wanted:
                continue
            seen = memory.peek()
            if is_commitment(seen.raw):
                self.commitments.append(memory)
            if stored is None:
                self._index(memory, topic_terms(seen.content))
            self._sources(memory, seen)
        self._stale_docs: set[int] = set()
        if stored is not None:
            # in the order of their ids: the order of a term's holders is the order a lookup reads them in
            for memory_id in sorted(stale, key=by_age):
                self._forget_stored(memory_id)
                if memory_id in self.by_id:
                    self._index(self.by_id[memory_id], topic_terms(self.by_id[memory_id].content))

    def _index(self, memory: Memory, topic: set[str]) -> None:
        for term in self.topics.get(memory.id, ()):
            self.postings[term].pop(memory.id, None)
        self.topics[memory.id] = topic
        for term in topic:
            self.postings[term][memory.id] = None

    def _forget_stored(self, memory_id: str) -> None:
        """The cache's copy of a memory is out of date: its postings there are passed over from now on (and no
        longer counted among the holders of its terms)."""
        assert self.stored is not None
        found = self.stored.db.execute("SELECT doc, topic FROM docs WHERE id = ?", (memory_id,)).fetchone()
        if found and found[0] not in self._stale_docs:
            self._stale_docs.add(found[0])
            for term in found[1].split():
                if term in self._stored_df:
                    self._stored_df[term] -= 1

    def _sources(self, memory: Memory, seen: Memory | None = None) -> None:
        seen = memory if seen is None else seen
        for source in seen.every_source():
            session = source.get("session")
            if session is not None and (self.sessions is None or str(session) in self.sessions):
                self.holds(memory, source, seen)

    def add(self, memory: Memory, topic: set[str] | None = None) -> None:
        """A memory the run made (its `topic` terms when they are known already)."""
        self.by_id[memory.id] = memory
        self._index(memory, topic_terms(memory.content) if topic is None else topic)
        self._sources(memory)

    def refresh(self, memory: Memory) -> None:
        """The memory's content changed: it is looked up by its new terms."""
        if self.stored is not None and memory.id not in self.topics:
            self._forget_stored(memory.id)
        self._index(memory, topic_terms(memory.content))

    def holds(self, memory: Memory, source: dict, seen: Memory | None = None) -> None:
        """The memory holds a message it did not before: `source`, a new source or an attached turn's (`seen`: the
        memory as read, when it is held as text)."""
        session = source.get("session")
        if session is None:
            return
        self.held.add((str(session), str(source.get("message"))))
        seen = memory if seen is None else seen
        if seen.superseded or seen.archived or is_commitment(seen.raw):
            return  # a commitment is kept beside the conversation: its next turns never go to it
        # Of two messages said at once, the newer memory's is the later.
        when = (str(source.get("ts") or ""), len(memory.id), memory.id)
        known = self.latest.get(str(session))
        if known is None or when > known[0]:
            self.latest[str(session)] = (when, memory)

    def latest_in_session(self, session: str) -> Memory | None:
        """The visible memory holding the latest message of `session`."""
        found = self.latest.get(session)
        if found is None or found[1].superseded or found[1].archived:
            return None
        return found[1]

    def latest_said(self, session: str) -> str | None:
        """When the latest message of `session` that a visible memory holds was said (as its source says)."""
        found = self.latest.get(session)
        return found[0][0] or None if found is not None else None

    def _stored_docs(self, term: str) -> array:
        """The cache's documents that have `term`, stale ones too (read once a run)."""
        if self.stored is None or not self._stored_terms:
            return NO_DOCS
        found = self._stored.get(term)
        if found is None:
            found = self._stored[term] = self.stored.topic_docs(term)
        return found

    def holders(self, term: str) -> int:
        """How many memories have `term` among their topic terms."""
        stored = self._stored_df.get(term)
        if stored is None:
            found = self._stored_docs(term)
            stale = sum(doc in self._stale_docs for doc in found) if self._stale_docs else 0
            stored = self._stored_df[term] = len(found) - stale
        return stored + len(self.postings.get(term, ()))

    def weight(self, term: str) -> float:
        """How rare a term is among the memories' topics: rare words say more about what a fact is about."""
        return term_weight(len(self.by_id), self.holders(term))

    def similarity(
        self, topic: set[str], other: set[str], weights: dict | None = None, topic_total: float | None = None
    ) -> float:
        """Weighted Dice overlap of two topic-term sets (rare words count more). `weights` caches term weights
        (filled in here), `topic_total` is the sum of `topic`'s when known."""
        weights = {} if weights is None else weights
        for term in other if topic_total is not None else (*topic, *other):
            if term not in weights:
                weights[term] = self.weight(term)
        return weighted_dice(topic, other, weights.__getitem__, topic_total)

    def probe(self, topic: set[str], weights: dict[str, float] | None = None, floor: float = SAME_TOPIC) -> list[str]:
        """The terms to look a topic up by. A memory at similarity ≥ `floor` must share one of the rarest terms
        that carry over 1 - floor/2 of the weight; probing those first keeps common words from pulling in half the
        store. `weights` receives each term's weight."""
        weights = {} if weights is None else weights
        for term in topic:
            if term not in weights:
                weights[term] = self.weight(term)
        ranked = sorted(topic, key=lambda t: (-weights[t], t))
        total = sum(weights[t] for t in ranked)
        probe, carried = [], 0.0
        for term in ranked:
            probe.append(term)
            carried += weights[term]
            if carried > (1 - floor / 2) * total and len(probe) >= 2:
                break
        return probe

    @staticmethod
    def need(topic: set[str], probe: list[str], weights: dict[str, float], floor: float) -> float:
        """The least weight of `probe` terms a memory must share with `topic` to reach similarity `floor` (weights
        of every topic term in `weights`). Similarity is at most 2S / (W + S) for a memory sharing weight S of the
        topic's W, so reaching the floor takes S ≥ floor × W / (2 - floor); the terms not probed can add at most
        their own weight."""
        topic_total = sum(map(weights.__getitem__, topic))
        unprobed = topic_total - sum(weights[t] for t in probe)
        return (floor - 1e-4) * topic_total / (2 - floor + 1e-4) - unprobed - 1e-9

    def lookup(
        self, topic: set[str], untrusted: bool, limit: int = CANDIDATES_SHOWN, floor: float = 0.0
    ) -> list[tuple[Memory, float]]:
        """The memories closest to `topic`, best first, among memories of the same trust (at most `limit`)."""
        if not topic:
            return []
        weights: dict[str, float] = {}  # document frequencies do not change during one lookup
        probe = self.probe(topic, weights, floor if floor > 0 else SAME_TOPIC)
        topic_total = sum(map(weights.__getitem__, topic))
        need = self.need(topic, probe, weights, floor) if floor > 0 else 0.0
        shared, topic_of = self._shared_weight(probe, weights, need)
        # Among memories sharing as much, the one with the fewest topic terms is the closest (a "Thanks!" among
        # a hundred "Thanks for the …"); then the older. Only those sharing as much as the EXAMINED-th most can be
        # among them, and only theirs are ranked so.
        closest: Iterable[str] = shared
        if len(shared) > EXAMINED:
            least = heapq.nlargest(EXAMINED, shared.values())[-1]
            closest = heapq.nsmallest(
                EXAMINED,
                [memory_id for memory_id, value in shared.items() if value >= least],
                key=lambda i: (-shared[i], len(topic_of(i)), by_age(i)),
            )
        scored = []
        for memory_id in closest:
            value = self.similarity(topic, topic_of(memory_id), weights, topic_total)
            if round(value, 4) >= floor:
                scored.append((value, memory_id))
        scored.sort(key=lambda item: (-item[0], by_age(item[1])))
        # Which of them may be found is read last, of the closest only: reading a memory held as text parses it.
        found: list[tuple[Memory, float]] = []
        for value, memory_id in scored:
            if len(found) >= limit:
                break
            memory = self.by_id.get(memory_id)
            if memory is None or memory.superseded or memory.untrusted != untrusted or is_commitment(memory.raw):
                continue  # a commitment is no fact to reinforce or update: its words are its task
            found.append((memory, round(value, 4)))
        return found

    def _shared_weight(
        self, probe: list[str], weights: dict[str, float], need: float
    ) -> tuple[dict[str, float], Callable[[str], set[str]]]:
        """The memories that share at least `need` of the `probe` terms' weight, with the weight each shares; and
        the topic terms of each.

        The holders of the terms are read rarest first, READ at most: of the first term with more holders than are
        left to read, only the newest; that term and the commoner ones after it are looked up in the topic terms of
        the memories met. So a lookup's work stays bounded however large the store grows (and a session, whose
        memories share its common words). Below READ it finds every memory the whole postings would; above, it
        misses a memory that holds none of the rarer terms read and is not among the newest holders of the first
        term not read whole."""
        shared: dict[str, float] = {}  # memory id (indexed here) -> the weight of the terms read that it holds
        stored: dict[int, float] = {}  # the same of the cache's documents
        read, left = len(probe), READ
        for i, term in enumerate(probe):
            local, docs = self.postings.get(term, {}), self._fresh_docs(term)
            holders = self.holders(term)
            if holders > left:
                for memory_id in islice(reversed(local), left):
                    shared.setdefault(memory_id, 0.0)
                for doc in islice(docs, max(left - len(local), 0)):
                    stored.setdefault(doc, 0.0)
                self.holders_read += left
                read = i
                break
            weight = weights[term]
            for memory_id in local:
                shared[memory_id] = shared.get(memory_id, 0.0) + weight
            for doc in docs:
                stored[doc] = stored.get(doc, 0.0) + weight
            self.holders_read += holders
            left -= holders
        later = [(term, weights[term]) for term in probe[read:]]  # looked up in the memories met
        if need > 0 and not later:
            shared = {memory_id: value for memory_id, value in shared.items() if value >= need}
            stored = {doc: value for doc, value in stored.items() if value >= need}
        read_terms: dict[str, set[str]] = {}  # the topic terms of the stored memories met
        for doc, (memory_id, terms) in self._read(list(stored)).items():
            shared[memory_id] = stored[doc]
            read_terms[memory_id] = terms

        def topic_of(memory_id: str) -> set[str]:
            found = read_terms.get(memory_id)
            return self.topics[memory_id] if found is None else found

        if later:
            # The memories met are looked up in the terms not read, in the order of the probe (each memory's sum
            # adds the same weights in the same order as reading every holder would): those indexed here in the
            # term's holders, those of the cache in their topic terms.
            for term, weight in later:
                for memory_id in shared.keys() & self.postings.get(term, {}).keys():
                    shared[memory_id] += weight
                for memory_id, terms in read_terms.items():
                    if term in terms:
                        shared[memory_id] += weight
            if need > 0:
                shared = {memory_id: value for memory_id, value in shared.items() if value >= need}
        return shared, topic_of

    def _fresh_docs(self, term: str) -> Iterator[int]:
        """The cache's documents that have `term`, newest first, but those it holds out of date."""
        return filterfalse(self._stale_docs.__contains__, reversed(self._stored_docs(term)))

    def sharing(self, term: str, untrusted: bool, limit: int = CANDIDATES_SHOWN) -> list[Memory]:
        """The newest memories (at most `limit`) whose topic holds `term` (one attribute of one holder, as
        claims.claim_terms names it), among memories of the same trust: read from the index, however little else
        they share."""
        ids = set(self.postings.get(term, ()))
        ids.update(memory_id for memory_id, _ in self._read(list(self._fresh_docs(term))).values())
        found = []
        for memory_id in sorted(ids, key=by_age, reverse=True):
            memory = self.by_id.get(memory_id)
            if memory is None or memory.superseded or memory.untrusted != untrusted or is_commitment(memory.raw):
                continue
            found.append(memory)
            if len(found) >= limit:
                break
        return found

    def _read(self, docs: list[int]) -> dict[int, tuple[str, set[str]]]:
        """(memory id, topic terms) of stored documents, read once a run."""
        wanted = [doc for doc in docs if doc not in self._entries]
        if wanted and self.stored is not None:
            self._entries.update(self.stored.topic_entries(wanted))
        return {doc: self._entries[doc] for doc in docs if doc in self._entries}
