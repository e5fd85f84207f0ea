"""Decay, reinforcement and access: how importance changes with time. Pure: `now` is passed in.

Each memory carries a decay anchor {base, from, last}: the importance it had on day `from`, and the value last
written to `importance`. Today's importance is always base × 0.99^(days since from), computed afresh, so running
decay once, daily, twice a day or after a missed week gives the same number (the old skill compounded).
A memory whose `importance` no longer equals `last` was edited by hand (or comes from the old skill): its
`importance` is taken as the new base, dated from the last decay run or its last access, whichever is later.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping
from datetime import date, datetime

from .model import BACKGROUND_THRESHOLD, Index, Memory, UNTRUSTED_CEILING
from .timeutil import days_between, iso, parse_day, parse_instant

DECAY_RATE = 0.99
REINFORCE_STEP = 0.10
PRECISION = 4


def ceiling_for(untrusted: bool) -> float:
    """The most importance can be: 1, or UNTRUSTED_CEILING for a stranger's words (whatever path raised it —
    reinforcement, a merge, an agent's decision, a hand edit or an older version of this skill)."""
    return UNTRUSTED_CEILING if untrusted else 1.0


def ceiling(memory: Memory) -> float:
    """The most this memory's importance can be (`ceiling_for`)."""
    return ceiling_for(memory.untrusted)


def own_anchor(memory: Memory) -> tuple[float, date] | None:
    """(base importance, the day it held) of the memory's own anchor while `importance` is the value last written
    from it; else None."""
    decay = memory.decay
    if decay is not None and abs(decay["last"] - memory.importance) < 1e-9:
        day = parse_day(decay["from"])
        if day is not None:
            return min(float(decay["base"]), ceiling(memory)), day
    return None


def anchor(memory: Memory, meta: Mapping, today: date) -> tuple[float, date]:
    """(base importance, the day it held): the memory's own anchor (`own_anchor`), else its `importance` dated from
    the last decay run or last access (today when it has no dates)."""
    own = own_anchor(memory)
    if own is not None:
        return own
    candidates = [d for d in (parse_day(meta.get("decayLastRun")), parse_day(memory.lastAccessed)) if d]
    if not candidates and memory.created:
        candidates = [d for d in (parse_day(memory.created),) if d]
    return min(memory.importance, ceiling(memory)), max(candidates) if candidates else today


def faded(base: float, days: int) -> float:
    """Importance `base` after `days` days: base × 0.99^days (nothing fades before its anchor's day). The one place
    the decay formula is written."""
    return base * DECAY_RATE ** max(0, days)


def importance(pinned: bool, value: float, base: float, since: date, today: date) -> float:
    """Today's importance, within 0 and 1: a pinned memory's `value` (it does not fade), else its anchor `base` on
    day `since` faded to `today`. Every listing and ranking computes it here."""
    found = value if pinned else faded(base, (today - since).days)
    return min(1.0, max(0.0, found))


def order_key(base: float, since: date) -> float | None:
    """A number that orders fading memories by their importance on any one day (the logarithm of the importance
    `base` on day `since` carried back to day 0; None at base 0). It ranks; `importance` gives the values."""
    return math.log(base) - since.toordinal() * math.log(DECAY_RATE) if base > 0 else None


def lowest_key(threshold: float, today: date) -> float:
    """The least `order_key` of a memory whose importance is `threshold` today, less a margin for rounding: every
    memory at or above the threshold has a key at least this. Below the smallest normal float every memory counts."""
    if threshold < sys.float_info.min:
        return -math.inf
    return math.log(threshold) - today.toordinal() * math.log(DECAY_RATE) - 1e-9


def importance_on(memory: Memory, today: date, meta: Mapping) -> float:
    """The memory's importance on `today`, from its anchor (pinned memories do not fade)."""
    base, since = anchor(memory, meta, today)
    return importance(memory.pinned, min(memory.importance, ceiling(memory)), base, since, today)


UNDATED_RECENCY = 0.5


def recency(seen: date | None, today: date) -> float:
    """0.99^days since a memory was last accessed (or created) on `seen`: 1.0 today, 0.74 after a month."""
    return faded(1.0, (today - seen).days) if seen is not None else UNDATED_RECENCY


def restart(memory: Memory, value: float, day: date) -> None:
    """Give the memory importance `value` on `day`, and let it fade from there."""
    value = round(min(ceiling(memory), max(0.0, value)), 6)
    memory.importance = round(value, PRECISION)
    memory.decay = {"base": value, "from": day.isoformat(), "last": memory.importance}


def touch(memory: Memory, when: datetime, meta: Mapping) -> bool:
    """Mark the memory accessed at `when`: decay restarts from there. False if it was already accessed since."""
    last = parse_instant(memory.lastAccessed)
    if last is not None and last >= when:
        return False
    restart(memory, importance_on(memory, when.date(), meta), when.date())
    memory.lastAccessed = iso(when)
    return True


def reinforce(memory: Memory, when: datetime, meta: Mapping, source: dict | None = None) -> None:
    """Same topic again: importance += (1 - importance) × 0.10, accessed now, one more reinforcement, new source."""
    current = importance_on(memory, when.date(), meta)
    restart(memory, current + (1 - current) * REINFORCE_STEP, when.date())
    last = parse_instant(memory.lastAccessed)
    if last is None or when > last:
        memory.lastAccessed = iso(when)
    memory.timesReinforced += 1
    if source and source not in memory.sources:
        memory.sources.append(source)


def decay_memory(memory: Memory, today: date, meta: Mapping) -> tuple[bool, bool]:
    """Bring one memory's stored importance to today's value along its anchor: (whether anything changed, whether
    its anchor is not the one it stored — an importance edited by hand is the new base; a memory of the old skill
    gets its first)."""
    if memory.pinned:
        if memory.importance <= ceiling(memory):
            return False, False
        memory.importance = ceiling(memory)  # pinned words of a stranger still stay below the core
        return True, False
    before, anchored = memory.importance, memory.decay
    base, since = anchor(memory, meta, today)
    value = round(min(1.0, faded(base, days_between(since, today))), PRECISION)
    memory.importance = value
    day = since.isoformat()
    if anchored is not None and anchored["base"] == base and anchored["from"] == day:
        changed = value != before or anchored["last"] != value
        anchored["last"] = value  # the same anchor, its last value written
        return changed, False
    memory.decay = {"base": base, "from": day, "last": value}
    return True, True


def is_archive_candidate(memory: Memory) -> bool:
    return memory.importance < BACKGROUND_THRESHOLD and not (memory.archived or memory.superseded)


class DecayReport:
    """What a day's decay did: memories looked at and changed, archive candidates, and the memories whose anchor is
    not the one they stored."""

    def __init__(self, day: str, total: int = 0):
        self.day = day
        self.total = total
        self.already_ran = False
        self.changed = 0
        self.archive_candidates: list[Memory] = []
        # A list (ids are unique): a first decay moves every anchor, and a set of 100,000 ids holds 4 MiB.
        self.moved: list[str] = []


class Decay:
    """A day's decay, one memory at a time: each memory whose value does not hang on the index's bookkeeping keys as
    the index is read (`first`, given to store.indexfile.load), then the others once it is whole (`finish`)."""

    def __init__(self, now: datetime):
        self.today = now.date()
        self.report = DecayReport(day=self.today.isoformat())

    def first(self, memory: Memory) -> bool | None:
        """Decay a memory as the index is read; whether it changed. None, left for `finish`, for a fading memory with
        no anchor of its own: it is dated from the last decay run, a key that may come after the memories."""
        if not memory.pinned and own_anchor(memory) is None:
            return None
        return self.one(memory, {})

    def one(self, memory: Memory, meta: Mapping) -> bool:
        changed, moved = decay_memory(memory, self.today, meta)
        report = self.report
        if changed:
            report.changed += 1
        if moved:
            report.moved.append(memory.id)
        if is_archive_candidate(memory):
            report.archive_candidates.append(memory)
        memory.settle()  # held as its stored text again: a store of any size is decayed one memory at a time
        return changed

    def finish(self, index: Index, rest: Iterable[int]) -> DecayReport:
        """Decay the memories at these places of the whole index, record the run, and say what the day's decay did."""
        report = self.report
        ran_today = index.meta.get("decayLastRun") == report.day
        for place in rest:
            self.one(index.memories[place], index.meta)
        report.total = len(index.memories)
        index.meta["decayLastRun"] = report.day
        report.already_ran = ran_today and report.changed == 0
        return report


def decay_index(index: Index, now: datetime) -> DecayReport:
    """Bring every memory's stored importance to today's value and record the run. Deletes nothing."""
    return Decay(now).finish(index, range(len(index.memories)))
