"""Ranking memories for a query: BM25 over words (content, plus keywords at a lower weight), blended with
importance and recency. Each hit carries its named parts so a ranking can be explained. Pure."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from . import retention
from .model import Memory
from .text import terms
from .timeutil import days_between, parse_day

K1 = 1.5
B = 0.75
KEYWORD_WEIGHT = 0.5
WEIGHTS = {"relevance": 0.6, "importance": 0.25, "recency": 0.15}


@dataclass
class Hit:
    memory: Memory
    score: float
    parts: dict
    importance: float
    matched: list[str] = field(default_factory=list)


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


def rank(memories: list[Memory], query: str, now: datetime, meta: dict, top: int = 5, min_score: float = 0.0,
         domain: str | None = None, include_all: bool = False) -> list[Hit]:
    """The best `top` memories for `query`, best first. Only memories that share a term with the query qualify."""
    wanted = query_terms(query)
    if not wanted:
        return []
    pool = [m for m in memories if eligible(m, domain, include_all)]
    docs = [document_terms(m) for m in pool]
    count = len(docs)
    if not count:
        return []
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / count or 1.0
    frequency = {t: sum(1 for d in docs if t in d) for t in wanted}
    idf = {t: math.log(1 + (count - n + 0.5) / (n + 0.5)) for t, n in frequency.items()}
    # The score of a document that holds every query term once at average length: relevance 1.0.
    ceiling = sum(idf.values()) or 1.0
    today = now.date()
    hits = []
    for memory, doc, length in zip(pool, docs, lengths):
        matched = [t for t in wanted if t in doc]
        if not matched:
            continue
        bm25 = 0.0
        for term in matched:
            tf = doc[term]
            bm25 += idf[term] * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))
        importance = retention.importance_on(memory, today, meta)
        parts = {
            "relevance": round(min(1.0, bm25 / ceiling), 4),
            "importance": round(importance, 4),
            "recency": round(recency(memory, now), 4),
        }
        score = sum(WEIGHTS[name] * value for name, value in parts.items())
        if score >= min_score:
            hits.append(Hit(memory, round(score, 4), parts, importance, matched))
    hits.sort(key=lambda h: (-h.score, -h.parts["relevance"], h.memory.id))
    return hits[:top]
