"""Encoding against the search cache: the same-fact candidates and known sources of a 100k-memory store, without
loading or tokenising it. (A module of its own so that readers of the cache never import encoding.)"""

from __future__ import annotations

import heapq
import math
from datetime import date

from .encoding import elder, Candidates, EXAMINED
from ..store.model import Index, Memory
from ..store.cache import _current, _open, CachedCorpus
from ..workspace import Workspace


class CachedCandidates(Candidates):
    """encoding.Candidates over the cache. Memories a lookup returns are decoded once and then kept, changed or
    not, in the in-memory part (so a run sees its own changes); memories the run creates go there too."""

    def __init__(self, corpus: CachedCorpus, resolve=None):
        super().__init__([])
        self.corpus = corpus
        self.resolve = resolve  # id -> the loaded index's own Memory, when the caller holds the whole index
        self.loaded: dict[str, Memory] = {}
        self._docs: set[int] = set()  # cached documents already in the in-memory part
        self._df: dict[str, int] = {}
        self._weights: dict[str, float] = {}
        self._new = 0
        self._new_df: dict[str, int] = {}

    def add(self, memory: Memory, topic: set[str] | None = None) -> None:
        super().add(memory, topic)
        if memory.id not in self.loaded:  # made in this run: the store grows, every weight moves a little
            self._new += 1
            for term in self.topics[-1]:
                self._new_df[term] = self._new_df.get(term, 0) + 1
            self._weights.clear()

    def weight(self, term: str) -> float:
        value = self._weights.get(term)
        if value is None:
            df = self._df.get(term)
            if df is None:
                df = self._df[term] = self.corpus.db.execute("SELECT COUNT(*) FROM topics WHERE term = ?",
                                                             (term,)).fetchone()[0]
            value = self._weights[term] = math.log(
                1 + (self.corpus.count + self._new + 1) / (df + self._new_df.get(term, 0) + 1))
        return value

    def lookup(self, topic: set[str], untrusted: bool, limit: int = 3, floor: float = 0.0):
        if not topic:
            return []
        shared: dict[int, float] = {}
        for term in self.probe(topic):
            weight = self.weight(term)
            for (doc,) in self.corpus.db.execute("SELECT doc FROM topics WHERE term = ?", (term,)):
                if doc not in self._docs:
                    shared[doc] = shared.get(doc, 0.0) + weight
        closest = shared if len(shared) <= EXAMINED else self._closest(shared)
        wanted = list(closest)
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            marks = ",".join("?" * len(part))
            for row in self.corpus.db.execute(
                    f"SELECT doc, id, topic, body FROM docs WHERE doc IN ({marks})", part):
                self._take(*row)
        return super().lookup(topic, untrusted, limit, floor)

    def latest_in_session(self, session: str) -> Memory | None:
        row = self.corpus.db.execute(
            "SELECT d.doc, d.id, d.topic, d.body FROM sources s JOIN docs d ON d.doc = s.doc "
            "WHERE s.session = ? AND d.hidden = 0 ORDER BY s.ts DESC, length(d.id) DESC, d.id DESC LIMIT 1",
            (session,)).fetchone()
        if row is None:
            return None
        if row[0] in self._docs:
            return self.loaded.get(row[1])
        return self._take(*row)

    def _take(self, doc: int, memory_id: str, terms: str, body: str) -> Memory | None:
        """A cached memory into the in-memory part (the loaded index's own object, when there is one)."""
        self._docs.add(doc)
        memory = self.resolve(memory_id) if self.resolve else self.corpus._memory(body)
        if memory is not None:
            self.loaded[memory.id] = memory
            super().add(memory, set(terms.split()))
        return memory


    def _closest(self, shared: dict[int, float]) -> list[int]:
        """The EXAMINED documents sharing the most, ties broken as the in-memory lookup breaks them (see
        Candidates.lookup), so both examine the same memories. Only the documents tied at the cut are read."""
        cut = heapq.nlargest(EXAMINED, shared.values())[-1]
        above = [d for d, v in shared.items() if v > cut]
        tied = [d for d, v in shared.items() if v == cut]
        if len(above) + len(tied) <= EXAMINED:
            return above + tied
        ties: dict[int, tuple] = {}
        for start in range(0, len(tied), 500):
            part = tied[start:start + 500]
            for doc, memory_id, terms in self.corpus.db.execute(
                    f"SELECT doc, id, topic FROM docs WHERE doc IN ({','.join('?' * len(part))})", part):
                ties[doc] = (-len(terms.split()), *elder(memory_id))
        return above + heapq.nlargest(EXAMINED - len(above), tied, key=ties.__getitem__)


def cached_lookups(ws: Workspace, index: Index, loaded_from: str | None, today: date):
    """(candidates, seen) for encoding into `index` from the cache, when the cache describes exactly the file
    the index was loaded from; else None (the caller indexes the loaded store itself)."""
    db = _open(ws)
    if db is None or not _current(db, loaded_from):
        if db is not None:
            db.close()
        return None
    corpus = CachedCorpus(db, [])
    by_id = index.by_id()
    return CachedCandidates(corpus, resolve=by_id.get), CachedSeen(corpus)


class CachedSeen:
    """The (session, message) pairs already in the store, asked of the cache one at a time, plus this run's."""

    def __init__(self, corpus: CachedCorpus):
        self.corpus = corpus
        self.local: set = set()

    def __contains__(self, key) -> bool:
        if key in self.local:
            return True
        session, message = key
        return self.corpus.db.execute("SELECT 1 FROM sources WHERE session = ? AND message = ? LIMIT 1",
                                      (str(session), str(message))).fetchone() is not None

    def add(self, key) -> None:
        self.local.add(key)
