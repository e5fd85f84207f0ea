"""Consolidation, the store's weekly sleep: merge memories that say the same thing, mark memories whose value a newer
one changed as superseded, list contradictions it cannot settle, form schemas from recurring episodes, and move
faded memories out of the hot index. Pure: the index and the clock are passed in; the caller writes the archive,
the index and the report.

Every comparison goes through an inverted index of topic terms (`_Topics`, weighed as encoding's lookup weighs), and
the same-fact test is encoding's (`encoding.relation`), applied in both directions: two memories merge only when
each would reinforce the other, so "unit 12 is 4417" and "unit 19 is 8803", or Lea's birthday and Mia's, never do.
A restatement that only adds detail ("User lives in Porto, Portugal, with their two cats" after "User lives in
Porto with two cats") is merged into the richer one, whose wording stays (`adds_detail`).
"""

from __future__ import annotations

import heapq
import re
import sys
from collections import Counter
from collections.abc import Iterable
from itertools import combinations
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from .. import commitment, frontmatter
from .. import retention
from ..ingestion.candidates import term_weight, weighted_dice
from ..ingestion.facts import NEGATIONS, misbound, relation, Fact, SAME_TOPIC
from ..terms import topic_terms, without_said
from ..model import id_number, BACKGROUND_THRESHOLD, CORE_THRESHOLD, Index, Memory
from ..published.selection import framed
from ..text import label, one_line, words, STOP_WORDS
from ..timeutil import iso, parse_day, parse_instant

MARKER = "consolidated"  # index meta: {"through": highest id number seen, "at": time of that run}
PROBE_TERMS = 4
PROBE_POSTINGS = 400  # a term in more memories than this is too common to find neighbours by
POOL = 40
SCHEMA_SIMILARITY = 0.4  # related episodes: a weighted share of their topic words, below "the same fact"
SCHEMA_MIN = 3  # episodes needed for a schema
THEME_MIN = 2  # topic terms every member of a schema shares
ARCHIVE_GRACE = timedelta(days=7)  # a memory used this week stays, whatever its importance
WEEK = timedelta(days=7)
GROWN_LISTED = 5
SCHEMA_CONTENT_LIMIT = 300
# Facts rather than episodes: these never become members of a schema.
_NOT_EPISODIC_CATEGORIES = frozenset({"preferences", "identity"})
_NOT_EPISODIC_KINDS = frozenset({"schema", "explicit", "reflection"})
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def week_id(day: date | datetime) -> str:
    """The ISO week, `YYYY-Www`: the name of the week's report."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


@dataclass
class ConsolidationReport:
    week: str
    day: str
    total_before: int = 0
    total_after: int = 0
    merged: list[dict] = field(default_factory=list)
    superseded: list[dict] = field(default_factory=list)
    contradictions: list[dict] = field(default_factory=list)
    schemas: list[dict] = field(default_factory=list)
    archived: list[dict] = field(default_factory=list)
    grown: list[dict] = field(default_factory=list)
    faded: list[dict] = field(default_factory=list)
    changed_ids: set[str] = field(default_factory=set)
    moved: list[Memory] = field(default_factory=list)  # out of the index, into the archive
    marked: bool = False  # the index's record of this run changed (a reason to save it)

    @property
    def changed(self) -> bool:
        return bool(self.changed_ids)

    def to_dict(self) -> dict:
        return {
            "week": self.week,
            "day": self.day,
            "changed": self.changed,
            "totalBefore": self.total_before,
            "totalAfter": self.total_after,
            "merged": self.merged,
            "superseded": self.superseded,
            "contradictions": self.contradictions,
            "schemas": self.schemas,
            "archived": self.archived,
            "grown": self.grown,
            "faded": self.faded,
        }


def _short(memory: Memory, limit: int = 160) -> str:
    return one_line(framed(memory), limit)  # a stranger's words are marked as such in the report too


def _created(memory: Memory) -> tuple:
    when = parse_instant(memory.created)
    number = id_number(memory.id)
    return (when.timestamp() if when else 0.0, number if number is not None else -1, memory.id)


class _Run:
    """One consolidation over an index: the shared lookups and today's importances.

    Only memories that are new or changed since the last consolidation ("fresh") look for neighbours; pairs of
    two older memories were looked at before. A neighbour must share the fresh memory's rarer topic terms (two of
    its PROBE_TERMS rarest, each in at most PROBE_POSTINGS memories): the cost of a lookup is bounded whatever the
    store's size, and nothing compares every memory with every other.

    A writer holds the store's memories as where their stored text is (model.Memory): the run reads each as it
    begins and lets it go, keeping whether it is fresh; its sorts read them again the same way (`read`), and a
    memory's importance today is computed as it is read, unless the run gave it a new one (`importance_of`). Only
    the memories it changes or compares are held parsed: a week's run over 100,000 memories with their turns holds
    a few, not all (over 600 MiB).
    """

    def __init__(self, index: Index, now: datetime, report: ConsolidationReport):
        self.index = index
        self.now = now
        self.today = now.date()
        self.meta = index.meta
        self.report = report
        self.gone: set[str] = set()  # merged into another this run
        self.facts: dict[str, Fact] = {}
        self.live: list[Memory] = []
        self.importance: dict[str, float] = {}  # of the memories this run gave a new importance (merged, schemas)
        self._fresh = _fresh_test(index.meta.get(MARKER))
        self._fresh_ids: set[str] = set()  # as the run began
        count: Counter[str] = Counter()  # how many live memories hold each topic term
        for memory in index.memories:
            seen = memory.peek()
            if self._fresh(seen):
                self._fresh_ids.add(memory.id)
            # A commitment is no fact: never merged, superseded or gathered into a schema (its own run closes it).
            if not (seen.superseded or seen.archived or commitment.is_commitment(seen.raw)):
                self.live.append(memory)
                count.update(topic_terms(seen.content))
        looked_up = [m for m in self.live if m.id in self._fresh_ids]  # no other memory looks for neighbours
        self.lookup = _Topics(self.live, count, looked_up) if looked_up else _Topics([], Counter(), [])
        self._near: dict[str, list[tuple[Memory, float]]] = {}
        self.weights: dict[str, float] = {}  # term weights, read once per run
        self._totals: dict[str, float] = {}

    def read(self, memory: Memory) -> Memory:
        """The memory to read and let go: itself once this run changed it, else a copy of it as stored."""
        return memory if memory.id in self.report.changed_ids else memory.peek()

    def importance_of(self, memory: Memory) -> float:
        """Today's importance: the one this run gave the memory, else as its anchor says (retention.importance_on)."""
        found = self.importance.get(memory.id)
        return retention.importance_on(self.read(memory), self.today, self.meta) if found is None else found

    def fresh(self, memory: Memory) -> bool:
        """New or changed since the last consolidation (see _fresh_test), this one's changes included."""
        return self._fresh(memory) if memory.id in self.report.changed_ids else memory.id in self._fresh_ids

    def created(self, memory: Memory) -> tuple:
        """When the memory was made (oldest first, then by id): a sort key."""
        return _created(self.read(memory))

    def strength(self, memory: Memory) -> tuple:
        """Strongest first: pinned, explicit, today's importance, reinforcements, then the older id."""
        seen = self.read(memory)
        number = id_number(memory.id)
        return (
            not seen.pinned,
            seen.extra.get("kind") != "explicit",
            -self.importance_of(memory),
            -seen.timesReinforced,
            number if number is not None else 1 << 62,
            memory.id,
        )

    def mergeable(self, memory: Memory) -> bool:
        return _mergeable(self.read(memory))

    def fact(self, memory: Memory) -> Fact:
        found = self.facts.get(memory.id)
        if found is None or memory.id in self.report.changed_ids:  # else its words are those the fact was made of
            content = self.read(memory).content
            if found is None or found.content != content:
                found = self.facts[memory.id] = Fact(content)
        return found

    def topic(self, memory: Memory) -> set[str]:
        if self.lookup.by_id.get(memory.id) is memory:
            return set(self.lookup.topic_of(memory.id))
        return self.fact(memory).topic

    def near(self, memory: Memory, floor: float) -> list[tuple[Memory, float]]:
        """The memories closest to this one at `floor` or above, best first (merged-away ones left out)."""
        found = self._near.get(memory.id)
        if found is None:
            found = self._near[memory.id] = self._probe(memory)
        return [(m, s) for m, s in found if s >= floor and m.id not in self.gone]

    def forget_total(self, memory: Memory) -> None:
        """The memory was added or changed: the weight of its terms is to be summed again."""
        self._totals.pop(memory.id, None)

    def _weight_of(self, topic: Iterable[str]) -> float:
        weights, weigh = self.weights, self.lookup.weight
        total = 0.0
        for term in topic:
            value = weights.get(term)
            if value is None:
                value = weights[term] = weigh(term)
            total += value
        return total

    def _total(self, memory_id: str, topic: Iterable[str]) -> float:
        found = self._totals.get(memory_id)
        if found is None:
            found = self._totals[memory_id] = self._weight_of(topic)
        return found

    def _probe(self, memory: Memory) -> list[tuple[Memory, float]]:
        lookup = self.lookup
        mine = self.read(memory)
        topic = set(lookup.topic_of(memory.id)) if lookup.by_id.get(memory.id) is memory else topic_terms(mine.content)
        cap = PROBE_POSTINGS
        sizes = {t: lookup.count[t] for t in topic}
        probe = sorted((t for t in topic if 0 < sizes[t] <= cap), key=lambda t: (sizes[t], t))[:PROBE_TERMS]
        if not probe:
            return []
        lookup.index(set(probe))
        sets = [set(lookup.holders.get(term, ())) for term in probe]
        if len(sets) == 1:
            pool = sets[0]
        else:
            # A neighbour worth scoring shares two of the rarer terms (set intersections run in C).
            pool = set().union(*(a & b for a, b in combinations(sets, 2)))
        chosen: Iterable[str] = pool
        if len(pool) > POOL:
            # Too many: those sharing the most of the rarer terms.
            counts: Counter = Counter()
            for found in sets:
                counts.update(found & pool)
            chosen = [p for p, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:POOL]]
        own = self._weight_of(topic)
        weight = self.weights.__getitem__
        out = []
        for memory_id in chosen:
            other = lookup.by_id[memory_id]
            seen = self.read(other)
            if memory_id == memory.id or seen.superseded or seen.untrusted != mine.untrusted:
                continue
            theirs = set(lookup.topic_of(memory_id))
            # Every term of `topic` is weighed already; each memory's total is kept for the run.
            similarity = weighted_dice(topic, theirs, weight, own, self._total(memory_id, theirs))
            if similarity >= SCHEMA_SIMILARITY:
                out.append((other, round(similarity, 4)))
        out.sort(key=lambda pair: (-pair[1], pair[0].id))
        return out


class _Topics:
    """The run's index of topic terms: how many memories hold each term, and which memories hold each of the rarer
    terms (PROBE_POSTINGS holders or fewer: `_Run._probe` probes no other) of the memories the run looks up. Terms
    are counted as the run first reads the store; holders are listed from one more read, and from another for the
    terms of a memory looked up later (one the run changed); a memory's own terms are kept once it is looked up or
    compared (`topic_of`), every other memory's are counted and let go (a store of 100,000 memories held with all
    their terms took 180 MiB). Terms are weighed as encoding's lookup weighs them (`term_weight`)."""

    def __init__(self, memories: list[Memory], count: Counter[str], looked_up: list[Memory]):
        """`count`: how many of `memories` hold each topic term (counted as the run read them)."""
        self.by_id = {m.id: m for m in memories}
        self.count = count
        self.holders: dict[str, list[str]] = {}  # a list, not a set: a store's rare terms take 4 × less
        # Of the memories looked up or compared, as first read: a tuple of interned terms (a first run looks up every
        # memory, and 100,000 sets of their own strings took 80 MiB).
        self._topics: dict[str, tuple[str, ...]] = {}
        self.index(set().union(*(self.topic_of(m.id) for m in looked_up)))

    def topic_of(self, memory_id: str) -> tuple[str, ...]:
        """The topic terms of a memory here (as last counted)."""
        found = self._topics.get(memory_id)
        if found is None:
            found = self._topics[memory_id] = _interned(topic_terms(self.by_id[memory_id].peek().content))
        return found

    def index(self, terms: set[str]) -> None:
        """List the holders of those of these terms that are rare enough to be probed and not listed yet."""
        wanted = {t for t in terms if t not in self.holders and 0 < self.count[t] <= PROBE_POSTINGS}
        if not wanted:
            return
        for term in wanted:
            self.holders[term] = []
        for memory_id, memory in self.by_id.items():
            topic = self._topics.get(memory_id)
            for term in wanted.intersection(topic_terms(memory.peek().content) if topic is None else topic):
                self.holders[term].append(memory_id)

    def weight(self, term: str) -> float:
        return term_weight(len(self.by_id), self.count[term])

    def add(self, memory: Memory) -> None:
        """A memory the run made."""
        self.by_id[memory.id] = memory
        self._hold(memory, topic_terms(memory.content))

    def refresh(self, memory: Memory, before: str) -> None:
        """The memory's content changed from `before`: it is counted and listed by its new terms."""
        old = topic_terms(before)
        self.count.subtract(old)
        for term in old:
            held = self.holders.get(term)
            if held is not None and memory.id in held:
                held.remove(memory.id)
        self._hold(memory, topic_terms(memory.content))

    def _hold(self, memory: Memory, topic: set[str]) -> None:
        self._topics[memory.id] = _interned(topic)
        self.count.update(topic)
        for term in topic:
            if term in self.holders:
                self.holders[term].append(memory.id)


def _interned(terms: set[str]) -> tuple[str, ...]:
    """Terms as a tuple of strings held once in the process (sys.intern)."""
    return tuple(map(sys.intern, terms))


def _fresh_test(marker):
    """Which memories are new or changed since the consolidation that left `marker` ({through, at})."""
    if not isinstance(marker, dict) or not isinstance(marker.get("through"), int):
        return lambda memory: True
    through = marker["through"]
    at = parse_instant(marker.get("at"))

    def fresh(memory: Memory) -> bool:
        number = id_number(memory.id)
        if number is None or number > through or at is None:
            return True
        history = memory.raw.get("history")
        if history:
            return any((parse_instant(h.get("ts")) or at) > at for h in history if isinstance(h, dict))
        return False

    return fresh


def mark(index: Index, now: datetime) -> bool:
    """Record how far this consolidation got; True if the index changed by it."""
    through = index.highest_id()
    current = index.meta.get(MARKER)
    if isinstance(current, dict) and current.get("through") == through:
        return False
    index.meta[MARKER] = {"through": through, "at": iso(now)}
    return True


# --- merge ----------------------------------------------------------------------------------------------------


def _mergeable(memory: Memory) -> bool:
    return memory.extra.get("kind") != "schema"


def same_fact(run: _Run, a: Memory, b: Memory, similarity: float) -> bool:
    """Each would reinforce the other under encoding's test: the same topic, and no value of either missing
    from the other."""
    a_seen, b_seen = run.read(a), run.read(b)
    if a_seen.domain != b_seen.domain or a_seen.untrusted != b_seen.untrusted:
        return False
    if not (_mergeable(a_seen) and _mergeable(b_seen)):
        return False
    fa, fb = run.fact(a), run.fact(b)
    return relation(fa, fb, similarity) == "reinforce" and relation(fb, fa, similarity) == "reinforce"


_VALUE_WORD = re.compile(r"\d+(?:[.:,/\-]\d+)*|[\w'’-]+")


def _value_order(fact: Fact) -> list[str]:
    """The fact's values in the order its text says them."""
    out: list[str] = []
    for match in _VALUE_WORD.finditer(fact.content):
        word = match.group(0).lower().replace("’", "'").strip(".,:/-").removesuffix("'s")
        if word in fact.values and word not in out:
            out.append(word)
    return out


def adds_detail(richer: Fact, poorer: Fact) -> bool:
    """Whether `richer` says all that `poorer` says and more, contradicting nothing: every value and topic word of
    the poorer is in it, its values in the same order and side by side ("Porto" → "Porto, Portugal", not "Bob is
    12" → "Bob is 40 and Tom is 12"), the same negations, and no value said to have changed."""
    if poorer.values - richer.tokens or poorer.topic - richer.topic:
        return False
    if not (richer.values - poorer.tokens or richer.topic - poorer.topic):
        return False  # nothing added: the same fact, or the same words
    if richer.changes or poorer.changes or richer.replaced or poorer.replaced:
        return False  # a changed value is for `supersede`
    if {w for w in words(richer.content) if w in NEGATIONS} != {w for w in words(poorer.content) if w in NEGATIONS}:
        return False
    if misbound(poorer.bindings, richer.bindings):
        return False  # a value of the richer said of something else ("the gate code is 12" / "… the alarm code is 12")
    inner, outer = _value_order(poorer), _value_order(richer)
    return not inner or any(outer[i : i + len(inner)] == inner for i in range(len(outer) - len(inner) + 1))


def restate(run: _Run, report: ConsolidationReport) -> None:
    """A memory that another restates with more detail, contradicting nothing ("User lives in Porto with two
    cats" / "User lives in Porto, Portugal, with their two cats"), is merged into it: the richer wording stays."""
    # The fresh memories, oldest first; a memory this loop makes fresh (the richer one, taking in another) joins
    # them if it is younger than the one being read: the order a walk over every memory by age takes them in.
    waiting = [(run.created(m), m) for m in run.live if run.fresh(m)]
    heapq.heapify(waiting)
    while waiting:
        made, memory = heapq.heappop(waiting)
        if memory.id in run.gone or not run.fresh(memory) or not run.mergeable(memory):
            continue
        for other, _ in run.near(memory, SAME_TOPIC):
            own = run.read(memory)  # read again: the memory may have taken in another above
            seen = run.read(other)
            if (
                other.id in run.gone
                or seen.superseded
                or not _mergeable(seen)
                or seen.domain != own.domain
                or seen.untrusted != own.untrusted
                or label(seen.content) != label(own.content)
            ):
                continue
            mine, theirs = run.fact(memory), run.fact(other)
            if adds_detail(theirs, mine):
                richer, poorer = other, memory
            elif adds_detail(mine, theirs):
                richer, poorer = memory, other
            else:
                continue
            if run.read(poorer).pinned:
                continue
            if richer is other and not run.fresh(other) and run.created(other) > made:
                heapq.heappush(waiting, (run.created(other), other))
            _merge_into(run, richer, [poorer], report)
            run.gone.add(poorer.id)
            if poorer is memory:
                break


def merge(run: _Run, report: ConsolidationReport) -> None:
    # The fresh memories, strongest first (nothing changes before the groups are merged at the end). Their
    # neighbours are live memories (`_Run.lookup`), weighed against them by strength.
    order = sorted((m for m in run.live if run.fresh(m) and run.mergeable(m)), key=run.strength)
    groups: dict[str, list[Memory]] = {}
    keepers: dict[str, Memory] = {}
    for memory in order:
        if memory.id in run.gone:
            continue
        same = [(m, s) for m, s in run.near(memory, SAME_TOPIC) if run.mergeable(m) and same_fact(run, memory, m, s)]
        mine = run.strength(memory)
        stronger = [m for m, _ in same if run.strength(m) < mine]
        if stronger:
            if run.read(memory).pinned or memory.id in groups:
                continue  # a pinned memory is never merged away; a keeper keeps its own group
            keeper = min(stronger, key=run.strength)
            groups.setdefault(keeper.id, []).append(memory)
            keepers[keeper.id] = keeper
            run.gone.add(memory.id)
            continue
        for other, _ in same:
            if run.read(other).pinned or other.id in groups or other.id in run.gone:
                continue
            groups.setdefault(memory.id, []).append(other)
            keepers[memory.id] = memory
            run.gone.add(other.id)
    for keeper_id, absorbed in groups.items():
        _merge_into(run, keepers[keeper_id], absorbed, report)


def _merge_into(run: _Run, keeper: Memory, absorbed: list[Memory], report: ConsolidationReport) -> None:
    stamp = iso(run.now)
    best = max(run.importance_of(m) for m in [keeper, *absorbed])
    keywords = list(keeper.keywords)
    sources = list(keeper.sources)
    turns = list(keeper.episode)
    created = [keeper.created] if keeper.created else []
    reinforced = keeper.timesReinforced
    for other in absorbed:
        keywords += [k for k in other.keywords if k not in keywords]
        sources += [s for s in other.sources if s not in sources]
        turns += [t for t in other.episode if t not in turns]  # the turns attached to it stay recallable
        if other.created:
            created.append(other.created)
        reinforced += other.timesReinforced + 1
        if other.extra.get("kind") == "explicit":
            keeper.extra["kind"] = "explicit"
        keeper.history.append({"ts": stamp, "merged": other.id, "content": other.content})
        other.extra["mergedInto"] = keeper.id
    keeper.keywords = keywords
    keeper.sources = sources
    if turns:
        keeper.raw["episode"] = sorted(turns, key=lambda t: str(t["source"].get("ts") or ""))
    if created:
        keeper.created = min(created, key=lambda c: parse_instant(c) or run.now)
    keeper.timesReinforced = max(0, reinforced - 1)  # reinforce() below adds the last one
    retention.restart(keeper, best, run.today)
    retention.reinforce(keeper, run.now, run.meta)
    run.importance[keeper.id] = keeper.importance
    report.changed_ids.add(keeper.id)
    report.changed_ids.update(m.id for m in absorbed)
    report.merged.append(
        {
            "id": keeper.id,
            "content": _short(keeper),
            "importance": keeper.importance,
            "merged": [{"id": m.id, "content": _short(m)} for m in absorbed],
        }
    )


# --- supersede, and what cannot be settled ----------------------------------------------------------------------


def supersede(run: _Run, report: ConsolidationReport) -> None:
    """Newest last: a memory that says a value of an older one changed ("moved to", "now", "instead of") marks
    that one superseded by it. Chains form in order: A → B → C."""
    suspects: dict[tuple[str, str], tuple[Memory, Memory]] = {}
    # The fresh memories, oldest first; their neighbours are live memories (`_Run.lookup`). Nothing here changes
    # when a memory was made, nor makes one fresh that was not.
    order = sorted((m for m in run.live if m.id not in run.gone and run.fresh(m)), key=run.created)
    for newer in order:
        if run.read(newer).superseded:
            continue
        made = run.created(newer)
        for older, similarity in run.near(newer, SAME_TOPIC):
            old_seen, new_seen = run.read(older), run.read(newer)
            if older.id in run.gone or run.created(older) >= made or old_seen.superseded:
                continue
            if old_seen.domain != new_seen.domain or old_seen.untrusted != new_seen.untrusted:
                continue
            new_fact, old_fact = run.fact(newer), run.fact(older)
            kind = relation(new_fact, old_fact, similarity)
            if kind == "update" and not old_seen.pinned:
                older.extra["supersededBy"] = newer.id
                older.extra["supersededOn"] = run.today.isoformat()
                newer.history.append({"ts": iso(run.now), "supersedes": older.id, "content": older.content})
                report.changed_ids.update((older.id, newer.id))
                report.superseded.append(
                    {"id": older.id, "content": _short(older), "by": newer.id, "byContent": _short(newer)}
                )
                continue
            if kind is None and relation(old_fact, new_fact, similarity) is None:
                shared = new_fact.values & old_fact.tokens
                new_only = new_fact.values - old_fact.tokens
                old_only = old_fact.values - new_fact.tokens
                if not (new_only and old_only and len(new_only) <= 2 and len(old_only) <= 2):
                    continue
                if shared:
                    # The same subject with another value, not another subject with the same value.
                    unsettled = _differs_after(new_seen.content, shared, new_only) and _differs_after(
                        old_seen.content, shared, old_only
                    )
                else:
                    # One value each, about the same thing ("the passport expires on …").
                    unsettled = len(new_fact.values) == len(old_fact.values) == 1
                if unsettled:
                    suspects[(older.id, newer.id)] = (older, newer)
    for (older_id, newer_id), (older, newer) in sorted(suspects.items(), key=lambda kv: run.created(kv[1][1])):
        if run.read(older).superseded or run.read(newer).superseded:
            continue
        new_fact, old_fact = run.fact(newer), run.fact(older)
        report.contradictions.append(
            {
                "ids": [older_id, newer_id],
                "contents": [_short(older), _short(newer)],
                "differ": [sorted(old_fact.values - new_fact.tokens), sorted(new_fact.values - old_fact.tokens)],
            }
        )


def _differs_after(content: str, shared: set[str], differing: set[str]) -> bool:
    """The differing value comes after a shared one: the same subject with another value ("Lea lives in Berlin"
    / "… in Munich"), not another subject ("Lea's birthday is June 14" / "Mia's birthday is June 14")."""
    positions: dict[str, int] = {}
    for position, word in enumerate(w.lower().strip(".,:/-") for w in re.findall(r"[\w'’.:/-]+", content)):
        word = word.removesuffix("'s").removesuffix("’s")
        positions.setdefault(word, position)
    first_shared = min((positions[v] for v in shared if v in positions), default=None)
    first_differing = min((positions[v] for v in differing if v in positions), default=None)
    return first_shared is not None and first_differing is not None and first_shared < first_differing


# --- schemas --------------------------------------------------------------------------------------------------


def _episodic(memory: Memory) -> bool:
    return (
        not (memory.superseded or memory.archived or memory.pinned or memory.untrusted)
        and memory.domain in ("user", "world", "relationship")
        and memory.category not in _NOT_EPISODIC_CATEGORIES
        and memory.extra.get("kind") not in _NOT_EPISODIC_KINDS
        and not memory.extra.get("schema")
    )


def theme_phrase(memory: Memory, theme: set[str]) -> str:
    """The words of a memory that carry the theme, as it wrote them: its longest run of theme words (with the
    small words between them, never across punctuation), else the theme words in order."""
    found = list(_WORD.finditer(memory.content))
    best: tuple[int, int, int] | None = None  # (theme words, first, last) of the best run
    first = last = None
    count = 0
    for i, match in enumerate(found):
        word = match.group(0)
        gap = memory.content[found[i - 1].end() : match.start()] if i else ""
        if first is not None and gap.strip():
            first, count = None, 0  # punctuation ends a run
        if topic_terms(word) & theme:  # "working" is the theme's "_work"
            if first is None:
                first = i
            last, count = i, count + 1
            if best is None or count > best[0]:
                best = (count, first, last)
        elif word.lower() not in STOP_WORDS:
            first, count = None, 0
    if best is None:
        return " ".join(sorted(t for t in theme if not t.startswith("_")))
    _, a, b = best
    return one_line(memory.content[found[a].start() : found[b].end()])


def _day(memory: Memory) -> str:
    day = parse_day(memory.created)
    return day.isoformat() if day else "?"


def schema_content(phrase: str, count: int, first: str, last: str, gist: str, latest: str | None) -> str:
    head = f"Recurring: {phrase} ({count} memories, {first} to {last})."
    if gist and gist[-1] not in ".!?…。！？":
        gist += "."
    body = gist if latest is None or latest == gist else f"{gist} Latest: {latest}"
    room = SCHEMA_CONTENT_LIMIT - len(head) - 1
    return f"{head} {one_line(body, room) if room > 20 else ''}".strip()


def schemas(run: _Run, report: ConsolidationReport) -> None:
    """Groups of SCHEMA_MIN or more related episodes become one schema memory (their gist, with the members as
    sources); a later episode of a schema's theme joins it."""
    existing = {}
    for memory in run.index.memories:
        seen = run.read(memory)
        if seen.extra.get("kind") == "schema" and not seen.superseded:
            existing[memory.id] = memory
    taken: set[str] = set()
    seeds = sorted(
        (m for m in run.live if m.id not in run.gone and run.fresh(m) and _episodic(run.read(m))), key=run.created
    )
    for seed in seeds:
        if seed.id in taken or not _episodic(run.read(seed)):
            continue
        topic = run.topic(seed)
        related = run.near(seed, SCHEMA_SIMILARITY)
        joined = False
        for other, _ in related:
            schema = existing.get(other.id) or existing.get(run.read(other).extra.get("schema") or "")
            if schema is not None and set(schema.extra.get("theme") or ()) <= topic:
                _join(run, schema, seed, report)
                taken.add(seed.id)
                joined = True
                break
        if joined:
            continue
        group, theme = [seed], set(topic)
        for other, _ in related:
            if other.id in taken or not _episodic(run.read(other)):
                continue
            shared = theme & run.topic(other)
            if len(shared) >= THEME_MIN:
                group.append(other)
                theme = shared
        if len(group) < SCHEMA_MIN:
            continue
        schema = _form(run, group, theme, report)
        existing[schema.id] = schema
        taken.update(m.id for m in group)


def _form(run: _Run, group: list[Memory], theme: set[str], report: ConsolidationReport) -> Memory:
    strongest = min(group, key=run.strength)
    ordered = sorted(group, key=run.created)
    latest = ordered[-1]
    phrase = theme_phrase(strongest, theme)
    gist = one_line(without_said(strongest.content.rstrip()))
    domains = Counter(m.domain for m in group).most_common()
    categories = Counter(m.category for m in group).most_common()
    keywords = [w for w in phrase.lower().split() if w.strip(".,;:")][:4]
    for member in sorted(group, key=run.strength):
        keywords += [k for k in member.keywords if k not in keywords]
    sources: list[dict] = []
    for member in ordered:
        sources += [s for s in member.sources if s not in sources]
    value = max(run.importance_of(m) for m in group)
    for _ in group[1:]:
        value += (1 - value) * retention.REINFORCE_STEP  # every further episode reinforces the gist
    last_words = one_line(without_said(latest.content.rstrip())) if latest is not strongest else None
    memory = Memory(
        id=run.index.next_id(),
        content=schema_content(phrase, len(group), _day(ordered[0]), _day(latest), gist, last_words),
        domain=domains[0][0],
        category=categories[0][0],
        created=iso(run.now),
        lastAccessed=iso(run.now),
        timesReinforced=len(group) - 1,
        keywords=keywords[:12],
        sources=sources,
        extra={
            "kind": "schema",
            "theme": sorted(theme),
            "phrase": phrase,
            "gist": gist,
            "members": [m.id for m in ordered],
            "firstDay": _day(ordered[0]),
            "lastDay": _day(latest),
        },
    )
    retention.restart(memory, value, run.today)
    run.index.memories.append(memory)
    run.importance[memory.id] = memory.importance
    run.lookup.add(memory)
    run.forget_total(memory)
    for member in group:
        member.extra["schema"] = memory.id
    report.changed_ids.add(memory.id)
    report.changed_ids.update(m.id for m in group)
    report.schemas.append(
        {"id": memory.id, "content": memory.content, "members": [m.id for m in ordered], "joined": []}
    )
    return memory


def _join(run: _Run, schema: Memory, episode: Memory, report: ConsolidationReport) -> None:
    before = schema.content
    members = list(schema.extra.get("members") or [])
    members.append(episode.id)
    schema.extra["members"] = members
    first = schema.extra.get("firstDay") or _day(episode)
    last = max(str(schema.extra.get("lastDay") or ""), _day(episode))
    schema.extra["lastDay"] = last
    schema.content = schema_content(
        schema.extra.get("phrase") or "",
        len(members),
        first,
        last,
        schema.extra.get("gist") or "",
        one_line(without_said(episode.content.rstrip())),
    )
    schema.sources = schema.sources + [s for s in episode.sources if s not in schema.sources]
    retention.reinforce(schema, run.now, run.meta)
    episode.extra["schema"] = schema.id
    run.importance[schema.id] = schema.importance
    run.lookup.refresh(schema, before)
    run.forget_total(schema)
    report.changed_ids.update((schema.id, episode.id))
    entry = next((s for s in report.schemas if s["id"] == schema.id), None)
    if entry is None:
        entry = {"id": schema.id, "content": schema.content, "members": members, "joined": []}
        report.schemas.append(entry)
    entry["content"] = schema.content
    entry["joined"].append(episode.id)


# --- archive --------------------------------------------------------------------------------------------------


def archive(run: _Run, report: ConsolidationReport) -> None:
    """Below 0.20 today and not used this week (or archived already, or merged away): out of the index."""
    stale_before = run.now - ARCHIVE_GRACE
    kept = []
    for memory in run.index.memories:
        if memory.id in run.gone:
            memory.extra["archived"] = True
            memory.extra["archivedOn"] = run.today.isoformat()
            memory.settle()  # held as its text until the archive is written: a week archives thousands
            report.moved.append(memory)
            continue
        seen = run.read(memory)
        importance = retention.importance_on(seen, run.today, run.meta)
        last = parse_instant(seen.lastAccessed) or parse_instant(seen.created)
        faded = not seen.pinned and importance < BACKGROUND_THRESHOLD and (last is None or last < stale_before)
        if faded and commitment.is_commitment(seen.raw) and commitment.status_of(seen.raw) == commitment.OPEN:
            faded = False  # an open commitment stays until it is done or expires, however long before it is due
        if seen.archived or faded:
            # Its anchor is written out, so its importance reads the same from the archive, with no index meta.
            retention.restart(memory, importance, run.today)
            memory.extra["archived"] = True
            memory.extra["archivedOn"] = run.today.isoformat()
            report.changed_ids.add(memory.id)
            report.archived.append({"id": memory.id, "content": _short(memory), "importance": memory.importance})
            memory.settle()
            report.moved.append(memory)
            continue
        kept.append(memory)
    run.index.memories = kept


# --- what grew and what faded -----------------------------------------------------------------------------------


def growth(run: _Run, report: ConsolidationReport) -> None:
    since = run.now - WEEK
    grown = []
    faded = []
    for memory in run.index.memories:
        seen = run.read(memory)
        if seen.superseded:
            continue
        created = parse_instant(seen.created)
        mentions = 0
        if created is not None and created < since:
            for source in seen.sources:
                when = parse_instant(source.get("ts")) if isinstance(source, dict) else None
                if when is not None and since <= when <= run.now:
                    mentions += 1
        if mentions:
            grown.append((mentions, memory))
        last = parse_instant(seen.lastAccessed)
        if last is not None and last >= since:
            continue
        before = retention.importance_on(seen, since.date(), run.meta)
        now_value = retention.importance_on(seen, run.today, run.meta)
        if before >= CORE_THRESHOLD > now_value:
            faded.append((before - now_value, memory, before, now_value))
    grown.sort(key=lambda g: (-g[0], -run.importance_of(g[1]), g[1].id))
    faded.sort(key=lambda f: (-f[0], f[1].id))
    report.grown = [
        {
            "id": m.id,
            "content": _short(run.read(m)),
            "mentions": n,
            "importance": round(retention.importance_on(run.read(m), run.today, run.meta), 4),
        }
        for n, m in grown[:GROWN_LISTED]
    ]
    report.faded = [
        {"id": m.id, "content": _short(run.read(m)), "from": round(b, 4), "to": round(a, 4)}
        for _, m, b, a in faded[:GROWN_LISTED]
    ]


# --- the whole run --------------------------------------------------------------------------------------------


def consolidate(index: Index, now: datetime) -> ConsolidationReport:
    """Merge, merge restatements, supersede, form schemas, archive, in that order; returns what was done (the
    memories to archive are in `moved`, already taken out of `index.memories`)."""
    report = ConsolidationReport(week=week_id(now), day=now.date().isoformat(), total_before=len(index.memories))
    index.highest_id()  # ids are never reused, even once the highest of them has moved to the archive
    run = _Run(index, now, report)
    merge(run, report)
    restate(run, report)
    supersede(run, report)
    schemas(run, report)
    archive(run, report)
    growth(run, report)
    report.total_after = len(index.memories)
    if mark(index, now):
        report.marked = True
    return report


# --- the report -----------------------------------------------------------------------------------------------


def _more(items: list, limit: int) -> list[str]:
    return [f"- … and {len(items) - limit} more"] if len(items) > limit else []


def as_markdown(report: ConsolidationReport, now: datetime, dry_run: bool = False, limit: int = 30) -> str:
    """The weekly report: what was merged, superseded, formed and archived, what grew and faded, what is open."""
    q = lambda text: one_line(str(text), 200)  # noqa: E731 - memory text comes from chats: one line, bounded
    lines = [f"# Consolidation {report.week}", ""]
    when = now.strftime("%Y-%m-%d %H:%M UTC")
    lines.append(
        f"{'Dry run (nothing was changed)' if dry_run else 'Run'} on {when}: {report.total_before} "
        f"memories before, {report.total_after} in the index after."
    )
    if not report.changed:
        lines.append("Nothing needed consolidating.")
    lines += ["", f"## Merged ({len(report.merged)})", ""]
    if not report.merged:
        lines.append("None: no two memories say the same thing.")
    for item in report.merged[:limit]:
        ids = ", ".join(m["id"] for m in item["merged"])
        lines.append(f"- {item['id']} [{item['importance']:.2f}] {q(item['content'])} ← {ids}")
    lines += _more(report.merged, limit)
    lines += ["", f"## Superseded ({len(report.superseded)})", ""]
    if not report.superseded:
        lines.append("None.")
    for item in report.superseded[:limit]:
        lines.append(f"- {item['id']} “{q(item['content'])}” → {item['by']} “{q(item['byContent'])}”")
    lines += _more(report.superseded, limit)
    lines += ["", f"## Open contradictions ({len(report.contradictions)})", ""]
    if report.contradictions:
        lines.append(
            "Same topic, a value differs, and neither says it changed: nothing was guessed. Ask the user "
            "or check, then keep the right one."
        )
        lines.append("")
    else:
        lines.append("None.")
    for item in report.contradictions[:limit]:
        (a, b), (ca, cb) = item["ids"], item["contents"]
        lines.append(f"- {a} “{q(ca)}” vs {b} “{q(cb)}”")
    lines += _more(report.contradictions, limit)
    lines += ["", f"## Schemas ({len(report.schemas)})", ""]
    if not report.schemas:
        lines.append("None formed.")
    for item in report.schemas[:limit]:
        joined = f"; joined by {', '.join(item['joined'])}" if item["joined"] else ""
        lines.append(f"- {item['id']} {q(item['content'])} (members: {len(item['members'])}{joined})")
    lines += _more(report.schemas, limit)
    lines += ["", f"## Archived ({len(report.archived)})", ""]
    if not report.archived:
        lines.append("None: no memory faded below 0.20.")
    else:
        lines.append("Moved to memory/archive.jsonl; recall still finds them (`--archive` brings one back).")
        lines.append("")
    for item in report.archived[:limit]:
        lines.append(f"- {item['id']} [{item['importance']:.2f}] {q(item['content'])}")
    lines += _more(report.archived, limit)
    lines += ["", "## Grew strongest this week", ""]
    if not report.grown:
        lines.append("No older memory came up again this week.")
    for item in report.grown:
        lines.append(
            f"- {item['id']} [{item['importance']:.2f}] {q(item['content'])} "
            f"(+{item['mentions']} mention{'s' if item['mentions'] != 1 else ''})"
        )
    lines += ["", "## Faded this week", ""]
    if not report.faded:
        lines.append("No core memory fell out of the core this week.")
    for item in report.faded:
        lines.append(f"- {item['id']} {item['from']:.2f} → {item['to']:.2f} {q(item['content'])}")
    return "\n".join(lines) + "\n"


def report_file(before: str, report: ConsolidationReport, text: str, now: datetime) -> str:
    """memory/consolidation/<week>.md once this run's report `text` is added to what the file held (`before`).
    Its front matter says the week, the day of the last run, the memories in the index after it, and what each run
    of the week did; the reports follow, oldest first, `---` between them. A file without our front matter (an older
    version's, or one broken by hand) is kept whole under the new front matter."""
    fields, body = frontmatter.split(before)
    if not fields or fields.get("generator") != frontmatter.GENERATOR:
        fields, body = {}, before
    runs = fields.get("runs")
    if not isinstance(runs, list):
        runs = []
    run = {
        "at": iso(now),
        "memoriesBefore": report.total_before,
        "memoriesAfter": report.total_after,
        "merged": len(report.merged),
        "superseded": len(report.superseded),
        "contradictions": len(report.contradictions),
        "schemas": len(report.schemas),
        "archived": len(report.archived),
    }
    head = {
        "generator": frontmatter.GENERATOR,
        "report": "weekly consolidation",
        "week": report.week,
        "date": now.date().isoformat(),
        "memories": report.total_after,
        "runs": [*runs, run],
    }
    return frontmatter.render(head, body + ("\n---\n\n" if body.strip() else "") + text)
