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

K1 = 1.5
B = 0.75
KEYWORD_WEIGHT = 0.5
WEIGHTS = {"relevance": 0.6, "importance": 0.25, "recency": 0.15}
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

    def fetch(self, docs: list[int]) -> dict[int, Memory]:
        """The memories of these documents."""


def document_terms(memory: Memory) -> Counter:
    """Weighted term counts of a memory: its content, and its keywords at KEYWORD_WEIGHT."""
    counts: Counter = Counter(terms(memory.content))
    for term in terms(" ".join(memory.keywords)):
        counts[term] += KEYWORD_WEIGHT
    return counts


def query_terms(query: str) -> list[str]:
    """Distinct terms of a query (a query of only stop words, like "who is it", has none)."""
    return list(dict.fromkeys(terms(query)))


def recency(memory: Memory, now: datetime) -> float:
    """0.99^days since the memory was last accessed (or created): 1.0 today, 0.74 after a month."""
    day = parse_day(memory.lastAccessed) or parse_day(memory.created)
    return retention.DECAY_RATE ** days_between(day, now.date()) if day else 0.5


def eligible(memory: Memory, domain: str | None, include_all: bool) -> bool:
    if domain and memory.domain != domain:
        return False
    return include_all or not (memory.superseded or memory.archived)


class MemoryCorpus:
    """A corpus built in memory from a list of memories (tokenises every memory once)."""

    def __init__(self, memories: Iterable[Memory]):
        self.memories = list(memories)
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

    def fetch(self, docs: list[int]) -> dict[int, Memory]:
        return {doc: self.memories[doc] for doc in docs}


def rank(corpus: Corpus | list[Memory], query: str, now: datetime, meta: dict, top: int = 5,
         min_score: float = 0.0, domain: str | None = None, include_all: bool = False,
         prepare=None) -> list[Hit]:
    """The best `top` memories for `query`, best first. Only memories that share a term with the query qualify.

    Documents are visited in order of relevance and fetched in batches; the walk stops once even a perfect
    importance and recency could not lift the next one into the results. `prepare` may adjust each fetched
    memory first (the cached corpus applies recorded touches with it).
    """
    if isinstance(corpus, list):
        corpus = MemoryCorpus(corpus)
    wanted = query_terms(query)
    if not wanted or not corpus.count:
        return []
    lists = {t: corpus.postings(t) for t in wanted}
    idf = {t: math.log(1 + (corpus.count - len(p) + 0.5) / (len(p) + 0.5)) for t, p in lists.items()}
    # The score of a document that holds every query term once at average length: relevance 1.0.
    ceiling = sum(idf.values()) or 1.0
    average = corpus.average_length or 1.0
    relevance: dict[int, float] = {}
    matched: dict[int, list[str]] = {}
    for term, postings in lists.items():
        weight = idf[term]
        for doc, tf, length in postings:
            relevance[doc] = relevance.get(doc, 0.0) + weight * tf * (K1 + 1) / (
                tf + K1 * (1 - B + B * length / average))
            matched.setdefault(doc, []).append(term)
    order = sorted(relevance, key=lambda d: -relevance[d])
    today = now.date()
    best: list[Hit] = []
    ceiling_rest = WEIGHTS["importance"] + WEIGHTS["recency"]
    for start in range(0, len(order), BATCH):
        batch = order[start:start + BATCH]
        if len(best) >= top and WEIGHTS["relevance"] * min(1.0, relevance[batch[0]] / ceiling) + ceiling_rest \
                < best[top - 1].score:
            break
        fetched = corpus.fetch(batch)
        for doc in batch:
            memory = fetched.get(doc)
            if memory is None:
                continue
            if prepare is not None:
                prepare(memory)
            if not eligible(memory, domain, include_all):
                continue
            importance = retention.importance_on(memory, today, meta)
            parts = {
                "relevance": round(min(1.0, relevance[doc] / ceiling), 4),
                "importance": round(importance, 4),
                "recency": round(recency(memory, now), 4),
            }
            score = round(sum(WEIGHTS[name] * value for name, value in parts.items()), 4)
            if score >= min_score:
                best.append(Hit(memory, score, parts, importance, matched[doc]))
        best.sort(key=lambda h: (-h.score, -h.parts["relevance"], h.memory.id))
        del best[top:]
    return best
