"""Which stored memories a new message could be about: an inverted index of the memories' topic terms, and the
messages each session's memories already hold. Built once per run, from the store's cache (a large store's
memories are never tokenised again), and kept up to date as the run adds or changes memories."""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Callable, Iterable

from ..model import id_number, Memory
from ..terms import topic_terms
from .facts import SAME_TOPIC

CANDIDATES_SHOWN = 3
EXAMINED = 50  # memories compared in full per lookup, those sharing the most rare terms


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


def by_age(memory_id: str) -> tuple[int, str]:
    """A sort key that puts older memories (lower id numbers) first; ids of another shape after them."""
    number = id_number(memory_id)
    return (number if number is not None else 1 << 62), memory_id


class Candidates:
    """An inverted index of topic terms over the memories: which memories could be about the same thing. The
    memories' sessions are indexed too: which messages the store holds, and the latest memory of each session."""

    def __init__(self, memories: Iterable[Memory], topics: dict[str, set[str]] | None = None):
        """`topics`: the topic terms of the memories, where known already (the cache's); the rest are read here."""
        self.memories: list[Memory] = []
        self.topics: list[set[str]] = []
        self.postings: dict[str, list[int]] = defaultdict(list)
        self.position: dict[str, int] = {}
        self.held: set[tuple[str, str]] = set()  # (session, message) of every message the memories hold
        self.latest: dict[str, tuple[tuple, Memory]] = {}  # session -> (when, memory) of its latest message
        known = topics or {}
        for memory in memories:
            self.add(memory, known.get(memory.id))

    def add(self, memory: Memory, topic: set[str] | None = None) -> None:
        """Index a memory (by its `topic` terms when they are known already)."""
        position = len(self.memories)
        self.memories.append(memory)
        self.position[memory.id] = position
        topic = topic_terms(memory.content) if topic is None else topic
        self.topics.append(topic)
        for term in topic:
            self.postings[term].append(position)
        for source in memory.every_source():
            self.holds(memory, source)

    def holds(self, memory: Memory, source: dict) -> None:
        """The memory holds a message it did not before: `source`, a new source or an attached turn's."""
        session = source.get("session")
        if session is None:
            return
        self.held.add((str(session), str(source.get("message"))))
        if memory.superseded or memory.archived:
            return
        # Of two messages said at once, the newer memory's is the later.
        when = (str(source.get("ts") or ""), len(memory.id), memory.id)
        known = self.latest.get(str(session))
        if known is None or when > known[0]:
            self.latest[str(session)] = (when, memory)

    def refresh(self, memory: Memory) -> None:
        """The memory's content changed: index its new terms (stale postings are harmless, topics are re-read)."""
        position = self.position[memory.id]
        topic = topic_terms(memory.content)
        for term in topic - self.topics[position]:
            self.postings[term].append(position)
        self.topics[position] = topic

    def latest_in_session(self, session: str) -> Memory | None:
        """The visible memory holding the latest message of `session`."""
        found = self.latest.get(session)
        if found is None or found[1].superseded or found[1].archived:
            return None
        return found[1]

    def weight(self, term: str) -> float:
        return math.log(1 + (len(self.memories) + 1) / (len(self.postings.get(term, ())) + 1))

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

    def probe(self, topic: set[str], weights: dict[str, float] | None = None) -> list[str]:
        """The terms to look a topic up by. A memory at similarity ≥ SAME_TOPIC must share one of the rarest
        terms that carry over 1 - SAME_TOPIC/2 of the weight; probing those first keeps common words from pulling
        in half the store. `weights` receives each term's weight."""
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
            if carried > (1 - SAME_TOPIC / 2) * total and len(probe) >= 2:
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
        probe = self.probe(topic, weights)
        topic_total = sum(map(weights.__getitem__, topic))
        # Which memories share probe terms, and how much weight: cheap to add up over the postings. Only the
        # EXAMINED memories sharing the most are compared in full, so a message of common words stays fast.
        shared: dict[int, float] = {}
        for term in probe:
            weight = weights[term]
            for position in self.postings.get(term, ()):
                shared[position] = shared.get(position, 0.0) + weight
        if floor > 0 and shared:
            need = self.need(topic, probe, weights, floor)
            if need > 0:
                shared = {p: v for p, v in shared.items() if v >= need}
        memories, topics = self.memories, self.topics
        # Among memories sharing as much, the one with the fewest topic terms is the closest (a "Thanks!" among
        # a hundred "Thanks for the …"); then the older.
        closest = (
            shared
            if len(shared) <= EXAMINED
            else heapq.nsmallest(EXAMINED, shared, key=lambda p: (-shared[p], len(topics[p]), by_age(memories[p].id)))
        )
        scored = []
        for position in closest:
            memory = memories[position]
            if memory.superseded or memory.untrusted != untrusted:
                continue
            value = self.similarity(topic, topics[position], weights, topic_total)
            if round(value, 4) >= floor:
                scored.append((value, position))
        scored.sort(key=lambda item: (-item[0], by_age(memories[item[1]].id)))
        return [(memories[p], round(v, 4)) for v, p in scored[:limit]]
