"""Decay, reinforcement and access: how importance changes with time. Pure: `now` is passed in.

Each memory carries a decay anchor {base, from, last}: the importance it had on day `from`, and the value last
written to `importance`. Today's importance is always base × 0.99^(days since from), computed afresh, so running
decay once, daily, twice a day or after a missed week gives the same number (the old skill compounded).
A memory whose `importance` no longer equals `last` was edited by hand (or comes from the old skill): its
`importance` is taken as the new base, dated from the last decay run or its last access, whichever is later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import NamedTuple

from .model import BACKGROUND_THRESHOLD, Index, Memory, UNTRUSTED_CEILING
from ..timeutil import day_text, days_between, iso, parse_day, parse_instant

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


def anchor(memory: Memory, meta: Mapping, today: date) -> tuple[float, date]:
    """(base importance, the day it held): the memory's own anchor while `importance` is the value last written
    from it, else its `importance` dated from the last decay run or last access (today when it has no dates)."""
    return _anchor(memory, memory.importance, memory.decay, meta, today)


def _anchor(memory: Memory, importance: float, decay: dict | None, meta: Mapping, today: date) -> tuple[float, date]:
    """`anchor`, given the memory's importance and decay anchor (read once by a caller that needs them too)."""
    if decay is not None and abs(decay["last"] - importance) < 1e-9:
        day = parse_day(decay["from"])
        if day is not None:
            return min(float(decay["base"]), ceiling(memory)), day
    candidates = [d for d in (parse_day(meta.get("decayLastRun")), parse_day(memory.lastAccessed)) if d]
    if not candidates and memory.created:
        candidates = [d for d in (parse_day(memory.created),) if d]
    return min(importance, ceiling(memory)), max(candidates) if candidates else today


def fade_factor(days: int) -> float:
    """What importance is multiplied by after `days` days: 0.99^days (1 before its anchor's day: nothing fades
    before it). The one place the decay formula is written."""
    return DECAY_RATE ** max(0, days)


def faded(base: float, days: int) -> float:
    """Importance `base` after `days` days."""
    return base * fade_factor(days)


UNDATED_RECENCY = 0.5


def recency(seen: date | None, today: date) -> float:
    """0.99^days since a memory was last accessed (or created) on `seen`: 1.0 today, 0.74 after a month."""
    return faded(1.0, (today - seen).days) if seen is not None else UNDATED_RECENCY


def importance_on(memory: Memory, today: date, meta: Mapping) -> float:
    """The memory's importance on `today`, from its anchor (pinned memories do not fade)."""
    if memory.pinned:
        return min(memory.importance, ceiling(memory))
    base, since = anchor(memory, meta, today)
    return faded(base, days_between(since, today))


def importance_of_row(pinned: int, importance: float, base: float, since: int, day: int) -> float:
    """`importance_on` from a cached row: a pinned memory's (capped) importance, else its anchor `base` on day
    number `since`, faded to day number `day`; within 0 and 1, as every listing shows it."""
    return _within(importance if pinned else faded(base, day - since))


def faded_rows(base: Sequence[float], since: Sequence[int], day: int) -> list[float]:
    """`importance_of_row` of many fading rows at once, given as columns: each anchor day's factor computed once (a
    store's anchors fall on few days), each row a multiplication (`faded`'s)."""
    factors = {first: fade_factor(day - first) for first in set(since)}
    values = (b * factors[s] for b, s in zip(base, since, strict=True))
    return [v if 0.0 < v <= 1.0 else _within(v) for v in values]


def _within(value: float) -> float:
    return value if 0.0 < value <= 1.0 else min(1.0, max(0.0, value))


def _set(memory: Memory, value: float, day: date) -> None:
    value = round(min(ceiling(memory), max(0.0, value)), 6)
    memory.importance = round(value, PRECISION)
    memory.decay = {"base": value, "from": day.isoformat(), "last": memory.importance}


def restart(memory: Memory, value: float, day: date) -> None:
    """Give the memory importance `value` on `day`, and let it fade from there."""
    _set(memory, value, day)


def touch(memory: Memory, when: datetime, meta: Mapping) -> bool:
    """Mark the memory accessed at `when`: decay restarts from there. False if it was already accessed since."""
    last = parse_instant(memory.lastAccessed)
    if last is not None and last >= when:
        return False
    _set(memory, importance_on(memory, when.date(), meta), when.date())
    memory.lastAccessed = iso(when)
    return True


def reinforce(memory: Memory, when: datetime, meta: Mapping, source: dict | None = None) -> None:
    """Same topic again: importance += (1 - importance) × 0.10, accessed now, one more reinforcement, new source."""
    current = importance_on(memory, when.date(), meta)
    _set(memory, current + (1 - current) * REINFORCE_STEP, when.date())
    last = parse_instant(memory.lastAccessed)
    if last is None or when > last:
        memory.lastAccessed = iso(when)
    memory.timesReinforced += 1
    if source and source not in memory.sources:
        memory.sources.append(source)


class ArchiveCandidate(NamedTuple):
    """What a decay report keeps of a memory below BACKGROUND_THRESHOLD: not the memory (on a store where most have
    faded, a run would hold most of it), only what is shown of it. A tuple: a store that was never consolidated
    can have tens of thousands of them."""

    id: str
    importance: float
    content: str  # its first CANDIDATE_TEXT characters
    untrusted: bool  # a stranger's words: shown framed (published.selection.frame)
    created: str | None


CANDIDATE_TEXT = 120


@dataclass
class DecayReport:
    day: str
    already_ran: bool = False
    changed: int = 0
    total: int = 0
    archive_candidates: list[ArchiveCandidate] = field(default_factory=list)


def decay_memory(memory: Memory, today: date, meta: Mapping) -> bool:
    """Bring one memory's importance to today's value along its anchor; True if anything changed."""
    if memory.pinned:
        if memory.importance <= ceiling(memory):
            return False
        memory.importance = ceiling(memory)  # pinned words of a stranger still stay below the core
        return True
    importance, before = memory.importance, memory.decay
    base, since = _anchor(memory, importance, before, meta, today)
    value = round(min(1.0, faded(base, today.toordinal() - since.toordinal())), PRECISION)
    after = {"base": base, "from": day_text(since), "last": value}
    memory.importance = value
    memory.decay = after
    return value != importance or after != before


def is_archive_candidate(memory: Memory) -> bool:
    return memory.importance < BACKGROUND_THRESHOLD and not (memory.archived or memory.superseded)


class Decay:
    """One decay run, a memory at a time (`run(memory)`): brings it to today's importance along its anchor, and
    counts it and its archive candidacy in `report`. The same step for a loaded index (`decay_index`) and for a
    store streamed through a transaction. `meta` is the index's bookkeeping as loaded (it dates memories without
    an anchor); `finish` gives the report once every memory has been through."""

    def __init__(self, now: datetime, meta: dict):
        self.today = now.date()
        self.meta = dict(meta)
        self.report = DecayReport(day=self.today.isoformat())
        self.ran_today = meta.get("decayLastRun") == self.report.day

    def __call__(self, memory: Memory) -> bool:
        report = self.report
        report.total += 1
        changed = decay_memory(memory, self.today, self.meta)
        if changed:
            report.changed += 1
        if is_archive_candidate(memory):
            report.archive_candidates.append(
                ArchiveCandidate(
                    memory.id, memory.importance, memory.content[:CANDIDATE_TEXT], memory.untrusted, memory.created
                )
            )
        return changed

    def finish(self) -> DecayReport:
        self.report.already_ran = self.ran_today and self.report.changed == 0
        return self.report


def decay_index(index: Index, now: datetime) -> DecayReport:
    """Bring every memory's importance to today's value and record the run. Deletes nothing."""
    run = Decay(now, index.meta)
    for memory in index.memories:
        run(memory)
    index.meta["decayLastRun"] = run.report.day
    return run.finish()
