"""Ranking memories for a query: BM25 over words (content, plus keywords at a lower weight), blended with
importance and recency. Each hit carries its named parts so a ranking can be explained. Pure.

Ranking runs over a corpus: `MemoryCorpus` (a list of memories in memory) or the disk-cached one in
`searchindex`. Both give the same results; the cached one only avoids parsing and tokenising the whole store.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Iterable, Protocol

from . import retention
from .model import Memory
from .text import terms
from .timeutil import days_between, parse_day

K1 = 1.2
B = 0.75
KEYWORD_WEIGHT = 0.5
CONTEXT_WEIGHT = 0.5
WEIGHTS = {"relevance": 0.8, "importance": 0.1, "recency": 0.1}
WEAK_MATCH = 0.5
BATCH = 256


@dataclass
class Hit:
    memory: Memory
    score: float
    parts: dict
    importance: float
    matched: list[str] = field(default_factory=list)


class Corpus(Protocol):
    """What ranking needs from a store of memories."""

    count: int
    average_length: float

    def postings(self, term: str) -> list[tuple[int, float, float]]:
        """(doc, weighted term frequency, doc length) of every document holding `term`."""

    def facts(self, docs: list[int], today) -> dict[int, "Facts"]:
        """What scoring needs of these documents, cheaply: no memory is decoded for it."""

    def fetch(self, docs: list[int]) -> dict[int, Memory]:
        """The memories of these documents."""


@dataclass(slots=True)
class Facts:
    """A document's id, filters and today's importance and recency."""

    id: str
    domain: str
    hidden: bool
    importance: float
    recency: float


def facts_of(memory: Memory, now: datetime, meta: dict) -> Facts:
    return Facts(memory.id, memory.domain, memory.superseded or memory.archived,
                 retention.importance_on(memory, now.date(), meta), recency(memory, now))


def document_terms(memory: Memory) -> Counter:
    """Weighted term counts of a memory: its content and the `detail` its summary left out, its keywords at
    KEYWORD_WEIGHT and the `context` words (of the message it answered) at CONTEXT_WEIGHT."""
    counts: Counter = Counter(terms(memory.content))
    detail = memory.raw.get("detail")
    if isinstance(detail, str) and detail:
        counts.update(terms(detail))
    for term in terms(" ".join(memory.keywords)):
        counts[term] += KEYWORD_WEIGHT
    context = memory.raw.get("context")
    if isinstance(context, list) and context:
        for term in terms(" ".join(w for w in context if isinstance(w, str))):
            counts[term] += CONTEXT_WEIGHT
    return counts


def query_terms(query: str) -> list[str]:
    """Distinct terms of a query (a query of only stop words, like "who is it", has none)."""
    return list(dict.fromkeys(terms(query)))


def recency(memory: Memory, now: datetime) -> float:
    """0.99^days since the memory was last accessed (or created): 1.0 today, 0.74 after a month."""
    day = parse_day(memory.lastAccessed) or parse_day(memory.created)
    return retention.DECAY_RATE ** days_between(day, now.date()) if day else 0.5


class MemoryCorpus:
    """A corpus built in memory from a list of memories (tokenises every memory once)."""

    def __init__(self, memories: Iterable[Memory], meta: dict | None = None):
        self.memories = list(memories)
        self.meta = meta or {}
        self._index: dict[str, list[tuple[int, float, float]]] = {}
        total = 0.0
        for doc, memory in enumerate(self.memories):
            counts = document_terms(memory)
            length = sum(counts.values())
            total += length
            for term, tf in counts.items():
                self._index.setdefault(term, []).append((doc, tf, length))
        self.count = len(self.memories)
        self.average_length = total / self.count if self.count else 1.0

    def postings(self, term: str) -> list[tuple[int, float, float]]:
        return self._index.get(term, [])

    def facts(self, docs: list[int], now: datetime) -> dict[int, Facts]:
        return {doc: facts_of(self.memories[doc], now, self.meta) for doc in docs}

    def fetch(self, docs: list[int]) -> dict[int, Memory]:
        return {doc: self.memories[doc] for doc in docs}


def rank(corpus: Corpus | list[Memory], query: str, now: datetime, meta: dict, top: int = 5,
         min_score: float = 0.0, domain: str | None = None, include_all: bool = False) -> list[Hit]:
    """The best `top` memories for `query`, best first. Only memories that share a term with the query qualify.

    Documents are visited in order of relevance, their facts read in batches; the walk stops once even a perfect
    importance and recency could not lift the next one into the results. Only the hits are decoded.
    """
    if isinstance(corpus, list):
        corpus = MemoryCorpus(corpus, meta)
    wanted = query_terms(query)
    if not wanted or not corpus.count:
        return []
    lists = {t: corpus.postings(t) for t in wanted}
    idf = {t: math.log(1 + (corpus.count - len(p) + 0.5) / (len(p) + 0.5)) for t, p in lists.items()}
    # The score of a document that holds every query term once at average length.
    ideal = sum(idf.values()) or 1.0
    average = corpus.average_length or 1.0
    relevance: dict[int, float] = {}
    matched: dict[int, list[str]] = {}
    for term, postings in lists.items():
        weight = idf[term]
        for doc, tf, length in postings:
            relevance[doc] = relevance.get(doc, 0.0) + weight * tf * (K1 + 1) / (
                tf + K1 * (1 - B + B * length / average))
            matched.setdefault(doc, []).append(term)
    order = sorted(relevance, key=relevance.__getitem__, reverse=True)
    if not order:
        return []
    # Relevance 1.0 is the best match of this query — or half an ideal match when every match is weaker, so a
    # weak match stays weak. Relative to the best, the strongest matches keep their order instead of all
    # reaching a cap, and importance and recency reorder only memories about as relevant as each other.
    ceiling = max(relevance[order[0]], ideal * WEAK_MATCH)
    w_rel, w_imp, w_rec = WEIGHTS["relevance"], WEIGHTS["importance"], WEIGHTS["recency"]
    found: list[tuple[float, float, str, int, object]] = []
    floor = -1.0  # the score to beat once `top` hits are in hand
    for start in range(0, len(order), BATCH):
        batch = order[start:start + BATCH]
        if len(found) >= top and w_rel * min(1.0, relevance[batch[0]] / ceiling) + w_imp + w_rec < floor:
            break
        for doc, fact in corpus.facts(batch, now).items():
            if (domain and fact.domain != domain) or (fact.hidden and not include_all):
                continue
            rel = min(1.0, relevance[doc] / ceiling)
            score = w_rel * rel + w_imp * fact.importance + w_rec * fact.recency
            if score >= min_score and (len(found) < top or score >= floor):
                found.append((score, rel, fact.id, doc, fact))
        found.sort(key=lambda h: (-h[0], -h[1], h[2]))
        del found[top:]
        if len(found) >= top:
            floor = found[-1][0]
    memories = corpus.fetch([h[3] for h in found])
    hits = []
    for score, rel, _, doc, fact in found:
        parts = {"relevance": round(rel, 4), "importance": round(fact.importance, 4),
                 "recency": round(fact.recency, 4)}
        hits.append(Hit(memories[doc], round(score, 4), parts, fact.importance, matched[doc]))
    return hits
