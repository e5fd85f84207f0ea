"""Ranking memories for a query: BM25 over words (content, plus keywords at a lower weight), blended with
importance and recency. Each hit carries its named parts so a ranking can be explained, and its sources in the
order they match the query (a memory holds its own statement and the turns attached to it). Pure.

Ranking runs over a corpus: `MemoryCorpus` (a list of memories in memory) or the disk-cached one in
`searchindex`. Both give the same results; the cached one only avoids parsing and tokenising the whole store.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Iterable, Protocol

from .store import retention
from .store.model import Memory
from .text import asks, terms
from .timeutil import days_between, parse_day

K1 = 0.9
B = 0.5
KEYWORD_WEIGHT = 0.5
CONTEXT_WEIGHT = 0.5
REPLY_WEIGHT = 0.25
DATE_WEIGHT = 0.1  # the month and year a memory was made: "what did she do in May 2023" leans towards them
TIME_TERM = "_time"  # stands for "says when": no word typed can be it (an underscore splits words)
WHEN_WEIGHT = 0.5  # how much a "when" question favours memories that say when
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
    sources: list[dict] = field(default_factory=list)  # every source of the memory, best match of the query first
    turn: dict | None = None  # the attached turn that matches the query best, when it matches better than the memory


@dataclass
class Piece:
    """One searchable piece of a memory: its own statement (with its own sources) or one attached turn."""

    text: str
    sources: list[dict]
    turn: dict | None = None  # the attached turn, None for the memory's own statement


def pieces(memory: Memory) -> list[Piece]:
    """The memory's statement (its content and the detail it left out), then its attached turns."""
    own = Piece(" ".join(t for t in (memory.content, _text(memory.raw.get("detail"))) if t),
                [s for s in memory.sources if type(s) is dict])
    return [own, *(Piece(t["text"], [t["source"]], t) for t in memory.episode)]


def _text(value) -> str:
    """A stored text field: a string, or (as older versions kept `context`) a list of words."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(w for w in value if isinstance(w, str))
    return ""


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


_MONTHS = "january february march april june july august september october november december"
_DAYS = "monday tuesday wednesday thursday friday saturday sunday"
# A text that says when: a date, a time of day, a day or month name, a year, "yesterday", "last week", "3 days ago".
_SAYS_WHEN = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago|recently|lately|(?:last|next|this|past|coming) (?:week|weekend|month"
    r"|year|night|morning|evening|summer|winter|spring|fall|autumn|" + _DAYS.replace(" ", "|") + r")|"
    + _MONTHS.replace(" ", "|") + r"|" + _DAYS.replace(" ", "|") + r"|weekend|(?:19|20)\d\d|may \d|\d+ may"
    r"|in may|\d{1,2}(?::\d\d)? ?(?:am|pm)|\d{1,2}:\d\d|\d{4}-\d\d-\d\d)\b", re.IGNORECASE)
# A question that asks when: "When did…", "What year…", "How long ago…" (after a speaker's label, if any).
_ASKS_WHEN = re.compile(r"\A\W*(?:[A-Z][\w'’.-]*:\s+)?(?:when\b|what (?:date|day|time|year|month)\b|which (?:date|day"
                        r"|year|month)\b|how long ago\b|since when\b)", re.IGNORECASE)


def text_terms(text: str) -> Counter:
    """Term counts of one text, with TIME_TERM once when it says when."""
    counts: Counter = Counter()
    _add_text(counts, text)
    return counts


def _add_text(counts: Counter, text: str) -> None:
    """Add a text's term counts to `counts`, and TIME_TERM when it says when (once, however many texts do)."""
    counts.update(terms(text))
    if TIME_TERM not in counts and _SAYS_WHEN.search(text):
        counts[TIME_TERM] = 1


def document_terms(memory: Memory) -> Counter:
    """Weighted term counts of a memory: its content and the `detail` its summary left out, the turns attached to
    it, its keywords at KEYWORD_WEIGHT, the `context` (the message it answered) at CONTEXT_WEIGHT, the `reply` (the
    message that followed it) at REPLY_WEIGHT, the month and year it was made at DATE_WEIGHT, and TIME_TERM once
    when any of its own texts says when."""
    counts: Counter = Counter()
    for piece in pieces(memory):
        _add_text(counts, piece.text)
    for term in terms(" ".join(memory.keywords)):
        counts[term] += KEYWORD_WEIGHT
    for name, weight in (("context", CONTEXT_WEIGHT), ("reply", REPLY_WEIGHT)):
        for term in terms(_text(memory.raw.get(name))):
            counts[term] += weight
    made = parse_day(memory.created)
    if made is not None:
        for term in terms(made.strftime("%B %Y")):
            counts[term] += DATE_WEIGHT
    return counts


def query_weights(query: str) -> dict[str, float]:
    """Each distinct term of a query with its weight: 1, and WHEN_WEIGHT for TIME_TERM when it asks when. A query
    of only stop words, like "who is it", has none."""
    found = dict.fromkeys(terms(query), 1.0)
    if found and _ASKS_WHEN.search(query):
        found[TIME_TERM] = WHEN_WEIGHT
    return found


def order_sources(memory: Memory, weights: dict[str, float]) -> tuple[list[dict], dict | None]:
    """(every source of the memory in the order its pieces match the query — its statement's own sources, an attached
    turn's source — where the answer to a matching question comes just before the question unless it is small talk
    ("ok, let's do that"), and equal matches in the order they were said; the attached turn that comes first, when
    it is not the memory's own statement). `weights`: each query term's weight (its idf × its weight in the query)."""
    scored = []
    for piece in pieces(memory):
        counts = text_terms(piece.text)
        value = sum(w * counts[t] * (K1 + 1) / (counts[t] + K1) for t, w in weights.items() if counts.get(t))
        scored.append([value, False, _said_at(piece), piece])
    scored.sort(key=lambda item: item[2])
    from .ingestion.scoring import substance  # only for memories with attached turns: a recall need not import the rules

    for question, answer in zip(scored, scored[1:]):
        if asks(question[3].text) and not asks(answer[3].text) and question[0] > answer[0] and \
                substance(answer[3].text):
            answer[0], answer[1] = question[0], True  # it answers what matched: it matches as well, and first
    scored.sort(key=lambda item: (-item[0], not item[1], item[2]))
    out: list[dict] = []
    for *_, piece in scored:
        out += [s for s in piece.sources if s not in out]
    best_value, _, _, best = scored[0]
    return out, (best.turn if best.turn is not None and best_value > 0 else None)


def _said_at(piece: Piece) -> str:
    return min((str(s.get("ts") or "") for s in piece.sources), default="")


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
    wanted = query_weights(query)
    if not wanted or not corpus.count:
        return []
    lists = {t: corpus.postings(t) for t in wanted}
    idf = {t: wanted[t] * math.log(1 + (corpus.count - len(p) + 0.5) / (len(p) + 0.5)) for t, p in lists.items()}
    # The score of a document that holds every query term once at average length.
    ideal = sum(idf.values()) or 1.0
    average = corpus.average_length or 1.0
    relevance: dict[int, float] = {}
    get = relevance.get
    base, slope = K1 * (1 - B), K1 * B / average
    # Words first; saying when only adds to a memory that shares a word with the question. (The loop over every
    # posting is the hot path of a recall: kept to one dictionary update each.)
    for term, postings in sorted(lists.items(), key=lambda item: item[0] == TIME_TERM):
        weight = idf[term] * (K1 + 1)
        if term == TIME_TERM:
            for doc, tf, length in postings:
                if doc in relevance:
                    relevance[doc] += weight * tf / (tf + base + slope * length)
        else:
            for doc, tf, length in postings:
                relevance[doc] = get(doc, 0.0) + weight * tf / (tf + base + slope * length)
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
        memory = memories[doc]
        held = document_terms(memory)
        matched = [t for t in lists if held.get(t)]
        sources, turn = order_sources(memory, {t: idf[t] for t in matched})
        shown = ["(says when)" if t == TIME_TERM else t for t in matched]
        hits.append(Hit(memory, round(score, 4), parts, fact.importance, shown, sources, turn))
    return hits
