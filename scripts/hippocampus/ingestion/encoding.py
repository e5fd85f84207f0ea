"""Signals → memories: score, summarise, and either create a memory, reinforce the same fact, or update a changed
value (keeping the old one in `history`); a message that is no memory of its own is attached to the memory of its
session. Pure: the index and the clock are passed in. What "the same fact" means is in `facts`, how a message is
summarised in `summary`, and how the memories it could be about are found in `candidates`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache

from .. import redaction, retention
from ..claims import (
    asks_to_keep_next,
    asserts_any,
    claim_terms,
    claims,
    corrected,
    given_up,
    holders,
    keeps_what_came_before,
    meeting,
    same_holder,
    unquoted,
)
from ..model import DOMAINS, Index, Memory
from ..text import asks, label, may_contain, one_line, words
from ..terms import topic_terms, without_said
from ..timeutil import iso, parse_instant
from . import scoring
from .candidates import CANDIDATES_SHOWN, Candidates
from .duetime import read_periods, zone_of
from .facts import SAME_TOPIC, Fact, asserted, relation, values_of, with_value
from .scoring import Score
from .summary import CONTENT_LIMIT, KEYWORDS_KEPT, keywords_of, summarise
from .transcripts import Signal

MIN_IMPORTANCE = 0.5  # a message scoring below this is no memory of its own (encode.py --min-importance)
SMALL_TALK_CEILING = 0.3  # small talk kept as a memory of its own (at --min-importance 0) stays in the background
CONTEXT_WORDS = 40  # of the message a memory answered (its `context`) and of the one that followed (its `reply`)
TURN_LIMIT = 2000  # characters of one attached turn (a long reply is kept to its start: it is context, not a note)
EPISODE_TURNS = 24  # turns attached to one memory at most; the next one starts a memory of its own
DATES_KEPT = 24  # stretches of days one memory keeps (`dates`): those its messages refer to, the first ones
EPISODE_HEAD = 0.3  # a memory made only to hold turns that are no memory of their own: background, found by search
# A pause this long in a session ends a stretch of conversation: OpenClaw's main session lives for days, and what was
# said the next morning is no context, episode, reply or correction of what was said the evening before.
STRETCH = timedelta(hours=3)
# Signals encoded between two times the memories this run read or made are held as their text again (see
# model.Memory.settle): a first run over years of history keeps a few of them parsed at a time, not all it made.
SETTLE_EVERY = 1000

_RELATIVE = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|week|weekend|month)"
    r"|next (?:week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|last (?:week|weekend|month|night)|monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday)\b",
    re.IGNORECASE,
)
_RELATIVE_WORDS = (
    "today",
    "tonight",
    "tomorrow",
    "yesterday",
    "morning",
    "afternoon",
    "evening",
    "week",
    "month",
    "year",
    "night",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)


@dataclass
class Draft(Fact):
    """A memory about to be made from one signal (or one decision of the agent)."""

    keywords: list[str]
    domain: str
    category: str
    importance: float
    when: datetime
    source: dict
    explicit: bool = False
    trust: str | None = None
    score: Score | None = None
    correction: bool = False  # it corrects something said before ("No, actually…", "I mixed it up, …")
    detail: str = ""  # what the concise content left out of the message (searchable, never shown as the memory)
    context: str = ""  # the message this one answered (its first CONTEXT_WORDS words)


def signal_time(signal: Signal, now: datetime) -> datetime:
    when = parse_instant(signal.timestamp) or now
    return min(when, now)


# The same text is redacted to be drafted or attached, and again as a neighbour's `context` or `reply`: once will do.
_redacted = lru_cache(maxsize=64)(redaction.redact)


def redacted_text(signal: Signal) -> str:
    """The signal's text as a memory may keep it: as queued when preprocess redacted it under today's rules, else
    redacted here, so a queue written by an older version leaks nothing either."""
    return signal.text if signal.redacted == redaction.RULES else _redacted(signal.text)


def draft_from(signal: Signal, score: Score, now: datetime, previous: str | None = None) -> Draft | None:
    """The memory a signal would make (already redacted text in, a concise memory out); None if nothing is left.

    `previous` is the message this one follows in its session (as `redacted_text` gives it): it is kept as the
    memory's `context` (its first CONTEXT_WORDS words), so a reply ("Tilly, after my old dog") is found by what it
    answered ("why did you name her Tilly").
    """
    claim = asserted(redacted_text(signal))
    text = claim.text
    when = signal_time(signal, now)
    untrusted = signal.trust == "untrusted"
    relative = may_contain(text, _RELATIVE_WORDS) and _RELATIVE.search(text)
    said = f" (said {(signal.local or iso(when))[:10]})" if relative else ""
    content, detail = summarise(
        text, score.matched, first_person=signal.role == "user" and not untrusted, limit=CONTENT_LIMIT - len(said)
    )
    if not content:
        return None
    if untrusted:
        content = f"{signal.sender or 'Someone'} said: {content}"
    content = redaction.redact(content + said)
    domain, category = ("world", "observed") if untrusted else (score.domain, score.category)
    importance = min(score.value, retention.ceiling_for(untrusted))
    context = neighbour_text(previous) if previous else ""
    draft = Draft(
        content=content,
        keywords=keywords_of(content),
        domain=domain,
        category=category,
        importance=importance,
        when=when,
        source=signal.source,
        explicit=score.explicit and not untrusted,
        trust="untrusted" if untrusted else None,
        score=score,
        correction=claim.correction,
        detail=redaction.redact(detail),
        context=context,
    )
    draft.replaced |= claim.replaced  # "…, not Sofia": named in the message, not in what it asserts
    return draft


def candidates(
    lookup: Candidates, draft: Draft, limit: int = CANDIDATES_SHOWN, floor: float = 0.0
) -> list[tuple[Memory, float]]:
    """The existing memories a draft could be about, closest first (those at `floor` or above)."""
    return lookup.lookup(draft.topic, draft.trust == "untrusted", limit=limit, floor=floor)


# --- changing the index (pure: values in, values changed) -------------------------------------------------------


@dataclass
class Outcome:
    """What a run of encoding (or of the weekly reflection's answers) did: the ids of the memories it made,
    reinforced, updated, gave turns to or extended, and how many inputs it skipped or had handled before."""

    new: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    attached: list[str] = field(default_factory=list)  # the memory each attached turn went to
    extended: list[str] = field(default_factory=list)  # memories that learnt the words of the turn after them
    skipped: int = 0
    duplicates: int = 0  # a message that is a memory's source already, an answer applied before

    def add(self, other: "Outcome") -> None:
        """Count what another run of encoding did into this one."""
        self.new += other.new
        self.reinforced += other.reinforced
        self.updated += other.updated
        self.attached += other.attached
        self.extended += other.extended
        self.skipped += other.skipped
        self.duplicates += other.duplicates

    @property
    def changed(self) -> set[str]:
        return set(self.new) | set(self.reinforced) | set(self.updated) | set(self.attached) | set(self.extended)

    def to_dict(self) -> dict:
        return {
            "new": len(self.new),
            "reinforced": len(self.reinforced),
            "updated": len(self.updated),
            "attached": len(self.attached),
            "skipped": self.skipped,
            "duplicates": self.duplicates,
        }


def create(index: Index, lookup: Candidates, draft: Draft) -> Memory:
    extra: dict = {}
    if draft.explicit:
        extra["kind"] = "explicit"
    if draft.trust:
        extra["trust"] = draft.trust
    if draft.detail:
        extra["detail"] = draft.detail
    if draft.context:
        extra["context"] = draft.context
    extra.update(statement_marks(f"{draft.content} {draft.detail}"))
    memory = Memory(
        id=index.next_id(),
        content=draft.content,
        domain=draft.domain,
        category=draft.category,
        importance=draft.importance,
        created=iso(draft.when),
        lastAccessed=iso(draft.when),
        timesReinforced=0,
        keywords=list(draft.keywords),
        sources=[draft.source],
        extra=extra,
    )
    retention.restart(memory, draft.importance, draft.when.date())
    index.memories.append(memory)
    lookup.add(memory, draft.topic)  # the draft's content is the memory's: its topic terms are read already
    return memory


def statement_marks(content: str) -> dict:
    """What a memory keeps of what its words state, for recall to read without reading the words again: `states`,
    the attributes of whom (claims.claim_terms), `about`, whom they speak of (claims.holders), and `asks`, when they
    state nothing (a question, a supposition, a text being written; a claim is read only from a clause that asserts)
    — search.newest_first never lists such a memory above what it could replace."""
    said = without_said(content)
    marks: dict = {}
    found = sorted(claim_terms(said))
    if found:
        marks["states"] = found
    about = sorted(holders(said))
    if about:
        marks["about"] = about
    if not found and not asserts_any(unquoted(said)):
        marks["asks"] = True
    return marks


def reinforce(index: Index, memory: Memory, draft: Draft) -> None:
    """The same fact again: reinforced (importance += a tenth of the way to 1), with the new source; a fresh mention
    is worth at least what a new memory of it would be."""
    retention.reinforce(memory, draft.when, index.meta, draft.source)
    if draft.importance > memory.importance:
        retention.restart(memory, draft.importance, draft.when.date())
    if memory.category == "smalltalk" and memory.importance > SMALL_TALK_CEILING:
        retention.restart(
            memory, SMALL_TALK_CEILING, draft.when.date()
        )  # "Thanks!" said fifty times is still small talk
    _merge(memory, draft)


def update(index: Index, lookup: Candidates, memory: Memory, draft: Draft, content: str | None = None) -> None:
    """The same thing with a new value, or its opposite: the memory says the new content (`content`, else the
    draft's) from now on, and keeps the old one in `history` with the time it held. No reinforcement: a changed
    fact is not the same fact said again."""
    memory.history.append(
        {
            "ts": iso(draft.when),
            "content": memory.content,
            "from": memory.extra.get("since") or memory.created,
            "until": iso(draft.when),
        }
    )
    new = draft.content if content is None else content
    stale = values_of(memory.content) - set(words(new)) - values_of(new)
    memory.keywords = [k for k in memory.keywords if k.lower() not in stale]
    memory.content = new
    memory.extra["since"] = iso(draft.when)
    for mark in ("states", "about", "asks"):
        memory.extra.pop(mark, None)
    memory.extra.update(statement_marks(f"{new} {draft.detail}"))
    for name, value in (("detail", draft.detail), ("context", draft.context)):
        if value:
            memory.extra[name] = value
        else:
            memory.extra.pop(name, None)
    lookup.refresh(memory)
    current = retention.importance_on(memory, draft.when.date(), index.meta)
    retention.restart(memory, max(current, draft.importance), draft.when.date())
    last = parse_instant(memory.lastAccessed)
    if last is None or draft.when > last:
        memory.lastAccessed = iso(draft.when)
    if draft.source not in memory.sources:
        memory.sources.append(draft.source)
    _merge(memory, draft)


def _merge(memory: Memory, draft: Draft) -> None:
    if draft.explicit and memory.extra.get("kind") != "explicit":
        memory.extra["kind"] = "explicit"
    keywords = list(memory.keywords)
    for keyword in draft.keywords:
        if keyword not in keywords and len(keywords) < 2 * KEYWORDS_KEPT:
            keywords.append(keyword)
    memory.keywords = keywords


CORRECTION_FLOOR = 0.25  # how alike a memory must be for a correction or a change to be looked at as its target


def attach(
    index: Index,
    lookup: Candidates,
    draft: Draft,
    outcome: Outcome,
    related: list[Memory] | None = None,
    recent: Memory | None = None,
) -> Memory | None:
    """Reinforce or update the memory the draft is the same fact as; None when there is none. Memories about the
    same thing that the draft says something else of are added to `related`, when given. A correction or a change
    is looked for among less alike memories too, and a correction that says only a new value ("sorry, it's the
    16th") corrects the value of that kind in `recent`, the memory its session made last."""
    marked = draft.correction or draft.changes or bool(draft.replaced)
    floor = CORRECTION_FLOOR if marked else SAME_TOPIC
    found = candidates(lookup, draft, limit=5, floor=floor)
    # The memories stating an attribute of the same holder, however few other words they share.
    untrusted = draft.trust == "untrusted"
    # And those whose value or thing the draft gives up ("Sold the Focus" after "I drive a Ford Focus").
    for term in sorted(claim_terms(without_said(draft.content))) + given_up(draft.claims):
        for memory in lookup.sharing(term, untrusted):
            if all(memory is not seen for seen, _ in found):
                found.append((memory, 0.0))
    for memory, similarity in found:
        kind = relation(draft, memory, similarity, correcting=draft.correction)
        if (
            kind is None
            and related is not None
            and similarity >= SAME_TOPIC
            and label(draft.content) == label(memory.content)
        ):
            related.append(memory)
        if kind == "reinforce":
            reinforce(index, memory, draft)
            lookup.holds(memory, draft.source)
            outcome.reinforced.append(memory.id)
            return memory
        if kind == "update":
            update(index, lookup, memory, draft, kept_details(memory, draft))
            lookup.holds(memory, draft.source)
            outcome.updated.append(memory.id)
            return memory
    if draft.correction and recent is not None and not draft.frame and label(draft.content) == label(recent.content):
        corrected = with_value(recent.content, draft)
        if corrected is not None:
            update(index, lookup, recent, draft, corrected)
            lookup.holds(recent, draft.source)
            outcome.updated.append(recent.id)
            return recent
    return None


DETAILS = 3  # the words of its own a memory must say besides a corrected value for its words to be kept


def kept_details(memory: Memory, draft: Draft) -> str | None:
    """What a memory says once a draft has changed values of it, when the memory says more than the draft: its own
    words with those values put right ("Our cat Luna is three and loves the radiator" corrected by "she's called
    Nala" keeps her age and habits); None: the draft's words replace the memory's."""
    before = claims(without_said(memory.content))
    met = meeting(draft.claims, before, draft.replaced)
    if met is None or met[0] != "changed":
        return None
    others = [claim for claim in before if not any(same_holder(claim, c) for c in draft.claims)]
    details = topic_terms(memory.content) - topic_terms(draft.content)  # "…is a vet in Leeds", beside the name
    if not others and len(details) < DETAILS and len(memory.content) <= len(draft.content) + 20:
        return None
    return corrected(memory.content, draft.claims, before)


def place(index: Index, lookup: Candidates, draft: Draft, outcome: Outcome, recent: Memory | None = None) -> Memory:
    """Create, reinforce or update, whichever the draft is to the closest memories (or, for a correction of a value
    alone, to `recent`)."""
    memory = attach(index, lookup, draft, outcome, recent=recent)
    if memory is None:
        memory = create(index, lookup, draft)
        outcome.new.append(memory.id)
    return memory


def neighbour_text(text: str) -> str:
    """A message next to a memory's in its session (as `redacted_text` gives it), as the memory keeps it: its first
    CONTEXT_WORDS words, searchable at a lower weight, never shown."""
    kept = one_line(text).split(" ")
    return " ".join(kept[:CONTEXT_WORDS]) + (" …" if len(kept) > CONTEXT_WORDS else "")


def attach_turn(memory: Memory, signal: Signal) -> None:
    """Attach a message that is no memory of its own to a memory of its session: searchable, with its own source,
    never shown as the memory (the days it refers to are kept with the memory's). A stranger's words stay marked as
    a stranger's."""
    text = one_line(redacted_text(signal), TURN_LIMIT)
    turn: dict = {"text": text, "role": signal.role, "source": signal.source}
    if signal.trust == "untrusted":
        turn["text"] = f"{signal.sender or 'Someone'} said: {text}"
        turn["trust"] = "untrusted"
    episode = memory.raw.get("episode")
    if type(episode) is not list:
        episode = memory.raw["episode"] = []
    episode.append(turn)
    note_dates(memory, signal)


def note_dates(memory: Memory, signal: Signal) -> None:
    """Keep on the memory (`dates`) the days its new message refers to ("last Tuesday", "two weeks ago", "in May"),
    read from when it was said, in the speaker's zone when known."""
    said = parse_instant(signal.timestamp)
    if said is None:
        return
    zone = zone_of(signal.local, signal.timestamp)
    found = read_periods(redacted_text(signal), said.astimezone(zone) if zone else said)
    if not found:
        return
    dates = memory.raw.get("dates")
    if type(dates) is not list:
        dates = memory.raw["dates"] = []
    for period in found:
        entry = {"from": period.first.isoformat(), "to": period.last.isoformat(), "words": period.phrase}
        if len(dates) >= DATES_KEPT:
            break
        if entry not in dates:
            dates.append(entry)


class Episodes:
    """Where each session's messages go that are no memory of their own: to the memory its latest message went
    into (an episode), or — when the session has none yet, or the message asks something — to the next one it
    makes. A question the other side answers with such a message makes the answer a memory of its own at
    EPISODE_HEAD, holding the question; so does what is left waiting when a run ends in a session with no memory.
    Small talk alone is skipped."""

    def __init__(self, index: Index, lookup: Candidates, now: datetime, outcome: Outcome):
        self.index, self.lookup, self.now, self.outcome = index, lookup, now, outcome
        self.last: dict[str, Memory | None] = {}
        self.waiting: dict[str, list[tuple[Signal, Score, str | None]]] = {}
        self.said_at: dict[str, datetime | None] = {}  # session -> when its latest message was said

    def arrived(self, signal: Signal, when: datetime) -> bool:
        """A message of the session arrived, said at `when`: False when it starts a new stretch of conversation
        (STRETCH or more after the session's latest message), and then nothing said before is its context."""
        session = signal.session
        if session in self.said_at:
            before = self.said_at[session]
        else:
            before = parse_instant(self.lookup.latest_said(session))
        self.said_at[session] = when if before is None else max(before, when)
        if before is None or when - before < STRETCH:
            return True
        self._settle(session, self.waiting.pop(session, []))
        self.last[session] = None
        return False

    def current(self, session: str) -> Memory | None:
        if session not in self.last:
            self.last[session] = self.lookup.latest_in_session(session)
        return self.last[session]

    def joined(self, signal: Signal, memory: Memory) -> None:
        """A message of the session went into `memory` (made, reinforced or updated by it). The memory before it
        keeps the words of this message as its `reply`: what followed it is a clue to what it was about."""
        before = self.current(signal.session)
        if before is not None and before is not memory and not before.raw.get("reply"):
            before.raw["reply"] = neighbour_text(redacted_text(signal))
            self.outcome.extended.append(before.id)
        self.last[signal.session] = memory
        for turn, _, _ in self.waiting.pop(signal.session, []):
            self._attach(memory, turn)

    def left_out(self, signal: Signal, score: Score, before: str | None) -> None:
        """A message that is no memory of its own: attached to the session's memory so far — unless it asks
        something, then it waits for the answer's memory (a question goes with its answer), as does what follows
        it until then."""
        memory = self.current(signal.session)
        if (
            memory is not None
            and not asks(signal.text)
            and not self.waiting.get(signal.session)
            and len(memory.episode) < EPISODE_TURNS
        ):
            self._attach(memory, signal)
            return
        if memory is not None and len(memory.episode) >= EPISODE_TURNS:
            self.last[signal.session] = None  # full: the session's next memory starts a new episode
        waiting = self.waiting.setdefault(signal.session, [])
        waiting.append((signal, score, before))
        if (
            score.rule != "smalltalk"
            and not asks(signal.text)
            and any(asks(t[0].text) and t[0].role != signal.role for t in waiting)
        ):
            # The other side answered what was asked, and neither is a memory of its own: the answer holds both.
            head = self._hold(self.waiting.pop(signal.session))
            if head is not None:
                self.last[signal.session] = head

    def withdraw(self, signal: Signal) -> None:
        """A message left out is a memory of its own after all (a note asked for after it): no longer waiting, nor
        attached to the session's memory so far."""
        waiting = self.waiting.get(signal.session, [])
        waiting[:] = [t for t in waiting if t[0] is not signal]
        memory = self.current(signal.session)
        episode = memory.raw.get("episode") if memory is not None else None
        if memory is not None and type(episode) is list:
            memory.raw["episode"] = [t for t in episode if not (type(t) is dict and t.get("source") == signal.source)]

    def finish(self) -> None:
        """What is still waiting when the run ends: a question no one answered yet, or small talk, goes with the
        session's memory so far; anything else is held by its most informative message, made a memory of its own
        in the background."""
        for session, turns in self.waiting.items():
            self._settle(session, turns)
        self.waiting.clear()

    def _settle(self, session: str, turns: list[tuple[Signal, Score, str | None]]) -> None:
        if not turns:
            return
        memory = self.last.get(session)
        answered = any(t[1].rule != "smalltalk" and not asks(t[0].text) for t in turns)
        if memory is not None and not answered and len(memory.episode) + len(turns) <= EPISODE_TURNS:
            for turn, _, _ in turns:
                self._attach(memory, turn)
            return
        self._hold(turns)

    def _hold(self, turns: list[tuple[Signal, Score, str | None]]) -> Memory | None:
        """The most informative of these messages made a background memory holding the others (None, and all
        counted as skipped, when they are only small talk)."""
        worthy = [t for t in turns if t[1].rule != "smalltalk"]
        draft = None
        if worthy:
            signal, score, before = max(worthy, key=_informative)
            draft = draft_from(signal, score, self.now, before)
        if draft is None:
            self.outcome.skipped += len(turns)
            return None
        draft.importance = EPISODE_HEAD
        head = create(self.index, self.lookup, draft)
        note_dates(head, signal)
        self.outcome.new.append(head.id)
        for turn, _, _ in turns:
            if turn is not signal:
                self._attach(head, turn)
        return head

    def _attach(self, memory: Memory, signal: Signal) -> None:
        attach_turn(memory, signal)
        self.lookup.holds(memory, signal.source)
        self.outcome.attached.append(memory.id)


def _informative(turn: tuple[Signal, Score, str | None]) -> tuple:
    """A statement over a question, then the one with more names, numbers and dates, then the longer."""
    signal, score, _ = turn
    return (score.rule != "question", len(values_of(signal.text)), len(signal.text))


def encode(
    index: Index,
    signals: Iterable[Signal],
    now: datetime,
    min_importance: float = MIN_IMPORTANCE,
    lookup: Candidates | None = None,
) -> Outcome:
    """Encode signals into the index in order; a signal whose message the store holds already is skipped.

    A message too short to be a memory of its own ("my locker code is now 5521") still reinforces or updates the
    memory it is the same fact as. Every other message but noise is attached to its session's memory (`Episodes`).
    `lookup` indexes the index's memories (built here when not given). A message is another's context, reply or
    episode only within one stretch of conversation (`STRETCH`).
    """
    outcome = Outcome()
    if lookup is None:
        lookup = Candidates(index.memories)
    episodes = Episodes(index, lookup, now, outcome)
    previous: dict[str, str] = {}  # session → the text of its last message so far
    # The owner's requests that point at another message of theirs: session → True when the last one asked to keep
    # what comes next ("Can you remember something for me?"); session → the memory of their last message, which a
    # request that follows it ("Please remember that.") makes a note.
    asked_next: dict[str, bool] = {}
    last_said: dict[str, tuple[Signal, Memory | None]] = {}
    for count, signal in enumerate(signals, 1):
        if count % SETTLE_EVERY == 0:
            for held in index.memories:
                held.settle()
        before = previous.get(signal.session)
        previous[signal.session] = redacted_text(signal)
        if not episodes.arrived(signal, signal_time(signal, now)):
            before = None
        if signal.key in lookup.held:
            outcome.duplicates += 1
            continue
        lookup.held.add(signal.key)
        owners = signal.role == "user" and signal.trust != "untrusted"
        if before is None:
            asked_next.pop(signal.session, None)  # another stretch of conversation: the request is stale
            last_said.pop(signal.session, None)
        if owners and keeps_what_came_before(redacted_text(signal)) and signal.session in last_said:
            said, earlier = last_said.pop(signal.session)
            stated = asserts_any(unquoted(redacted_text(said)))  # "Write me a poem", "Save it": no note of theirs
            if not stated:
                earlier = None
            elif earlier is None:  # too short to be a memory of its own ("我的车牌是京A12345。"): one now, a note
                episodes.withdraw(said)
                draft = draft_from(said, score_of(said, asked_to_keep=True), now)
                earlier = place(index, lookup, draft, outcome, None) if draft is not None else None
            if earlier is not None:
                made_a_note(earlier, signal_time(signal, now))
            outcome.skipped += 1
            continue
        score = score_of(signal, owners and asked_next.pop(signal.session, False))
        if owners and asks_to_keep_next(redacted_text(signal)):
            asked_next[signal.session] = True
            outcome.skipped += 1
            continue
        if score.rule == "noise":
            outcome.skipped += 1
            continue
        memory = None
        if kept(score, min_importance):
            draft = draft_from(signal, score, now, before)
            if draft is not None:
                memory = place(index, lookup, draft, outcome, episodes.current(signal.session))
        elif min_importance <= MIN_IMPORTANCE and states_a_fact(signal, score):
            # A short fact said beside something else ("Hi, I'm Dana. Can you help me…?", "Our dog is called Max."):
            # a memory of its own at the default threshold, so that its later correction finds it.
            draft = draft_from(signal, score, now, before)
            if draft is not None:
                draft.importance = max(draft.importance, MIN_IMPORTANCE)
                memory = place(index, lookup, draft, outcome, episodes.current(signal.session))
        elif score.rule == "short" and signal.role == "user":
            draft = draft_from(signal, score, now, before)
            related: list[Memory] = []
            if draft is not None:
                memory = attach(index, lookup, draft, outcome, related, episodes.current(signal.session))
            if memory is None and draft is not None and related:
                # Too short to be a memory of its own, but it says something new about a remembered thing ("the
                # gate code is 12"): kept, as important as what it is about.
                value = max(retention.importance_on(m, draft.when.date(), index.meta) for m in related)
                draft.importance = min(value, retention.ceiling_for(draft.trust == "untrusted"))
                memory = create(index, lookup, draft)
                outcome.new.append(memory.id)
        if owners:
            last_said[signal.session] = (signal, memory)
        if memory is not None:
            note_dates(memory, signal)
            episodes.joined(signal, memory)
        else:
            episodes.left_out(signal, score, before)
    episodes.finish()
    return outcome


def made_a_note(memory: Memory, when: datetime) -> None:
    """The owner asked to keep what they had just said ("Please remember that."): its memory is a note from now on,
    as important as one said with its request."""
    memory.extra["kind"] = "explicit"
    value = scoring.RULES[0].value
    if memory.importance < value:
        retention.restart(memory, value, when.date())


def states_a_fact(signal: Signal, score: Score) -> bool:
    """Whether a message of the owner's too short or too much of a question to be a memory of its own states an
    attribute of the user or of theirs ("I'm Dana", "our dog is called Max", "I'm 34"): it is one all the same."""
    if signal.role != "user" or signal.trust == "untrusted" or score.rule == "noise":
        return False
    return any(claim.stated and claim.holder.startswith("user") for claim in claims(redacted_text(signal)))


def score_of(signal: Signal, asked_to_keep: bool = False) -> Score:
    """The signal's score (`asked_to_keep`: see scoring.score). Its text is scored as queued (preprocess redacted it
    already); everything a memory keeps of it is what `redacted_text` gives."""
    return scoring.score(signal.text, signal.role, asked_to_keep)


def kept(score: Score, min_importance: float) -> bool:
    """Whether a message scored so becomes a memory of its own: at or above `min_importance` and above 0 — or, at
    `min_importance` 0, anything but noise (short messages and the agent's replies too: every turn is kept)."""
    if min_importance <= 0:
        return score.rule != "noise"
    return score.value > 0 and score.value >= min_importance


def prepare(signal: Signal, now: datetime, min_importance: float) -> Draft | None:
    """Score a signal and draft its memory; None when it is noise or below `min_importance`."""
    score = score_of(signal)
    if not kept(score, min_importance):
        return None
    return draft_from(signal, score, now)


def valid_domain(domain: str) -> bool:
    return domain in DOMAINS
