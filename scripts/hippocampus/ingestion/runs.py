"""The encode runs — automatic, --prepare and --apply — each one write of the store, in the order that keeps every
message exactly once: preprocess (transcripts → queue), encode the queue past `encodedThrough` in the order things
were said, save the index with the new `encodedThrough`, then — still under the lock — trim the queue and drop the
pending items handled. A kill at any point leaves work the next run redoes or recognises as done: a queued signal at
or below `encodedThrough` is never encoded again, and a message the store holds already is a duplicate.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .. import retention, writing
from ..model import Memory
from ..redaction import redact_memory
from ..text import asks
from ..timeutil import parse_instant
from ..workspace import Workspace
from . import commitments, encoding, pending, queue
from .userzone import UserZone
from .candidates import Candidates
from .encoding import Draft, Outcome
from .ledger import Ledger, ledger_path
from .preprocess import PreprocessReport, preprocess
from .sources import SourceSpec
from .transcripts import Signal


@dataclass
class EncodeReport:
    mode: str
    outcome: Outcome = field(default_factory=Outcome)
    signals: int = 0
    prepared: int = 0
    expired: int = 0
    applied: int = 0
    already_applied: int = 0
    invalid: list[dict] = field(default_factory=list)
    pending_left: int = 0
    total: int = 0
    preprocess: PreprocessReport | None = None
    commitments: commitments.Tracked = field(default_factory=commitments.Tracked)
    zone: UserZone = field(default_factory=UserZone)  # the user's zone from openclaw.json, due times are read in

    def to_dict(self) -> dict:
        out = {"mode": self.mode, **self.outcome.to_dict(), "signals": self.signals, "total": self.total}
        out["commitments"] = self.commitments.to_dict()
        if self.zone.name is not None:
            out["commitments"]["zone"] = self.zone.name
        if self.mode == "prepare":
            out["prepared"] = self.prepared
        if self.mode == "apply":
            out.update(applied=self.applied, alreadyApplied=self.already_applied, invalid=self.invalid)
        out["expired"] = self.expired
        out["pending"] = self.pending_left
        if self.preprocess is not None:
            out["preprocess"] = self.preprocess.to_dict()
        return out


@dataclass
class Sources:
    """Where a run reads new messages from, and how much of them (preprocess.py's and encode.py's flags)."""

    spec: SourceSpec
    limit: int | None = None
    full: bool = False


def run_preprocess(ws: Workspace, now: datetime, read: Sources, wait: bool) -> PreprocessReport:
    """Preprocessing alone (preprocess.py): under the workspace lock, as every run that writes the queue."""
    from ..store import files

    with files.workspace_lock(ws, wait=wait):
        files.check_file(ws.events)  # logged to once the run is done
        return preprocess(ws, now, read.spec, limit=read.limit, full=read.full)


def _lookup(store: writing.Store, sessions: set[str]) -> Candidates:
    """The store's memories by topic — through the cache, which holds all but those changed since it was written —
    and the messages of these sessions they hold."""
    return Candidates(store.index.memories, store.cache, stale=store.changed_ids, sessions=sessions)


def _holding(store: writing.Store, sessions: set[str], outcome: Outcome) -> Iterable[Memory]:
    """The memories that may hold messages of these sessions: those the cache says hold them and those this write
    changed (every memory without a cache)."""
    if store.cache is None:
        return store.index.memories
    ids = store.cache.holders(sessions) | outcome.changed | store.changed_ids
    return [memory for memory in store.index.memories if memory.id in ids]


def _fallback(
    index, lookup: Candidates, items: list[dict], now: datetime, min_importance: float, outcome: Outcome, where: str
) -> None:
    """Expired pending items go the automatic way (already-applied ones are recognised by their source)."""
    signals = []
    for item in items:
        try:
            signals.append(pending.item_signal(item, where))
        except Exception:  # an item without a readable signal cannot be encoded; it is dropped as expired
            outcome.skipped += 1
        attached, bad = pending.attached_signals(item, where)
        signals += attached
        outcome.skipped += bad
    signals.sort(key=lambda s: s.seq)  # in the order they were said, as the automatic path would have met them
    outcome.add(encoding.encode(index, signals, now, min_importance, lookup=lookup))


def encode(
    ws: Workspace,
    now: datetime,
    wait: bool,
    min_importance: float,
    prepare: bool = False,
    read: Sources | None = None,
    zone: UserZone | None = None,
) -> EncodeReport:
    """The automatic path (or, with `prepare`, the first half of the agent's path): preprocess when `read` says
    where from, then encode every queued signal past `encodedThrough`, in the order things were said. `zone`: the
    user's zone as OpenClaw is configured with it, for the due times of commitments."""
    report = EncodeReport(mode="prepare" if prepare else "auto", zone=zone or UserZone())
    with writing.write(ws, now, wait=wait) as store:
        index = store.index
        if read is not None:
            report.preprocess = preprocess(ws, now, read.spec, limit=read.limit, full=read.full, meta=index.meta)
        through = queue.encoded_through(index.meta)
        if index.meta.pop(PARTS_NOTE, None) is not None:
            store.touch_meta()  # an older version's note of a run killed between parts: what it did is held already
        # In the order things were said: the queue holds each session in turn, and a value changed in a later
        # session must come after the one it replaces.
        backlog = queue.Backlog(ws, through, lambda s: (encoding.signal_time(s, now), s.seq))
        items = pending.read_items(ws)
        old = pending.expired(items, now)
        handled = {item["id"] for item in old}
        outcome = report.outcome
        lookup = None
        if backlog or old:
            sessions = set(backlog.sessions)
            for item in old:
                sessions |= {session for session, _ in pending.item_keys(item)}
            lookup = _lookup(store, sessions)
            _fallback(index, lookup, old, now, min_importance, outcome, str(ws.pending))
            if prepare:
                waiting = {key for item in items if item["id"] not in handled for key in pending.item_keys(item)}
                added, left = _prepare_items(backlog, lookup, waiting, now, min_importance, outcome)
                # What is no item of its own and has none of its session to go with goes the automatic way.
                outcome.add(encoding.encode(index, left, now, min_importance, lookup=lookup))
                if added:
                    # Written before the index records the signals as consumed: a kill in between re-prepares
                    # them, and the check above keeps them from being added twice.
                    pending.write_items(ws, items + added)
                report.prepared = len(added)
            else:
                outcome.add(encoding.encode(index, backlog, now, min_importance, lookup=lookup))
        # Beside encoding, over the same messages: the promises and reminders they make or keep; and those long past
        # due expire, whether or not anything new was said.
        if lookup is None and store.cache is not None:
            lookup = _lookup(store, set())  # of a store with a cache, only its commitments are read
        known = lookup.commitments if lookup is not None else None
        report.commitments = commitments.track(
            index, backlog, now, report.zone.zone, known, among=lambda: _holding(store, backlog.sessions, outcome)
        )
        lookup = known = None  # let go before the save, the cache and the published files are written
        report.signals = len(backlog)
        report.expired = len(old)
        report.total = len(index.memories)
        if outcome.changed or report.commitments.changed:
            store.changed(*outcome.changed, *report.commitments.changed)
        if backlog.last > through:
            index.meta["encodedThrough"] = backlog.last
            store.touch_meta()
        store.after_save.append(lambda: _tidy(ws, backlog.last, handled, report))
        if outcome.changed or report.signals or report.expired or report.commitments.changed:
            store.event = ("encoding", _event(report))
    return report


PARTS_NOTE = "encodingPart"
ATTACH_ONLY = float("inf")  # a threshold no message reaches: each is attached to its session's memory


def apply(ws: Workspace, now: datetime, wait: bool, decisions_file: Path) -> EncodeReport:
    """The second half of the agent's path: apply the agent's valid decisions, report the rest."""
    report = EncodeReport(mode="apply")
    raw = pending.load_decisions(decisions_file)
    done: set[str] = set()
    with writing.write(ws, now, wait=wait) as store:
        index = store.index
        items = pending.read_items(ws)
        valid, report.invalid = pending.validate(raw, items, index)
        lookup = _lookup(store, {session for item in items for session, _ in pending.item_keys(item)})
        by_id = index.by_id()
        outcome = report.outcome
        for decision in valid:
            item = decision.item
            key = pending.item_key(item)
            done.add(item["id"])
            if decision.action == "skip":
                outcome.skipped += 1
                report.applied += 1
                # The messages that went with it are still what was said: the automatic way attaches them.
                attached, bad = pending.attached_signals(item, str(ws.pending))
                outcome.skipped += bad
                outcome.add(encoding.encode(index, attached, now, ATTACH_ONLY, lookup=lookup))
                continue
            if key is not None and key in lookup.held:
                report.already_applied += 1  # applied by a run that was killed before it could tidy up
                continue
            draft = _decision_draft(decision, item, now, str(ws.pending))
            if decision.action == "create":
                memory = encoding.create(index, lookup, draft)
                outcome.new.append(memory.id)
            else:
                assert decision.memory is not None  # `pending.validate` names the memory of every reinforcement
                memory = by_id[decision.memory]
                encoding.reinforce(index, memory, draft)
                lookup.holds(memory, draft.source)
                outcome.reinforced.append(memory.id)
            encoding.note_dates(memory, pending.item_signal(item, str(ws.pending)))
            if key is not None:
                lookup.held.add(key)
            attached, bad = pending.attached_signals(item, str(ws.pending))
            outcome.skipped += bad
            for signal in attached:
                if signal.key not in lookup.held:
                    lookup.held.add(signal.key)
                    encoding.attach_turn(memory, signal)
                    lookup.holds(memory, signal.source)
                    outcome.attached.append(memory.id)
            report.applied += 1
        if outcome.changed:
            store.changed(*outcome.changed)
        report.total = len(index.memories)
        through = queue.encoded_through(index.meta)
        store.after_save.append(lambda: _tidy(ws, through, done, report))
        if outcome.changed or report.applied:
            store.event = ("encoding", _event(report))
    return report


def _event(report: EncodeReport) -> dict:
    out = dict(
        new=len(report.outcome.new),
        reinforced=len(report.outcome.reinforced),
        updated=len(report.outcome.updated),
        attached=len(report.outcome.attached),
        skipped=report.outcome.skipped,
        total=report.total,
        mode=report.mode,
    )
    kept = report.commitments
    for name, ids in (
        ("commitmentsOpened", kept.opened),
        ("commitmentsClosed", kept.closed),
        ("commitmentsExpired", kept.expired),
    ):
        if ids:
            out[name] = len(ids)
    return out


def _tidy(ws: Workspace, through: int, handled_items: set[str], report: EncodeReport) -> None:
    """Once the index recording `through` is saved: empty the queue (the run read it under the lock it still holds,
    and `through` is the last signal in it), note how far encoding got in the ledger (a hint for preprocessing
    alone), drop the pending items handled."""
    queue.clear_signals(ws)
    book = Ledger(ledger_path(ws))
    try:
        book.note_encoded(through)
    finally:
        book.close()
    pending.remove_items(ws, handled_items)
    report.pending_left = len(pending.read_items(ws))


def _prepare_items(
    batch: Iterable[Signal],
    lookup: Candidates,
    waiting: set,
    now: datetime,
    min_importance: float,
    outcome: Outcome,
) -> tuple[list[dict], list]:
    """(pending items for the agent, the signals that go the automatic way). A message that is no memory of its
    own goes with its session's item, as encoding would attach it to the memory the item becomes: with the
    session's latest item, or with the next one when it asks something or comes before the session's first (and
    the store holds no memory of the session); a question the other side answers goes the automatic way with its
    answer."""
    added: list[dict] = []
    left: list = []
    latest: dict[str, dict] = {}
    early: dict[str, list] = {}
    for signal in batch:
        if signal.key in lookup.held or signal.key in waiting:
            outcome.duplicates += 1
            continue
        score = encoding.score_of(signal)
        draft = encoding.draft_from(signal, score, now) if encoding.kept(score, min_importance) else None
        if draft is None:
            if score.rule == "noise":
                left.append(signal)
            elif signal.session in latest and not asks(signal.text) and not early.get(signal.session):
                pending.attach(latest[signal.session], signal)
            elif signal.session in latest or lookup.latest_in_session(signal.session) is None:
                held = early.setdefault(signal.session, [])
                held.append(signal)
                if (
                    score.rule != "smalltalk"
                    and not asks(signal.text)
                    and any(asks(s.text) and s.role != signal.role for s in held)
                ):
                    left += early.pop(signal.session)  # an answer and its question: a memory of their own
            else:
                left.append(signal)
            continue
        item = pending.make_item(signal, now, score, draft, encoding.candidates(lookup, draft))
        for turn in early.pop(signal.session, []):
            pending.attach(item, turn)
        latest[signal.session] = item
        added.append(item)
    for session, turns in early.items():
        if session in latest:
            for turn in turns:  # asked last, answered after this run: with the session's latest item
                pending.attach(latest[session], turn)
        else:
            left += turns
    left.sort(key=lambda s: s.seq)
    return added, left


def _decision_draft(decision: pending.Decision, item: dict, now: datetime, where: str) -> Draft:
    signal = pending.item_signal(item, where)
    when = min(parse_instant(signal.timestamp) or now, now)
    untrusted = signal.trust == "untrusted"
    score = float(item.get("score", 0.5)) if isinstance(item.get("score"), (int, float)) else 0.5
    if decision.action == "create":
        importance = decision.importance if decision.importance is not None else score
        # `pending.validate` gives a decision to create all of these.
        assert decision.content is not None and decision.domain is not None and decision.category is not None
        said: dict[str, Any] = {"content": decision.content, "keywords": list(decision.keywords or [])}
        redact_memory(said)  # the agent may have written a secret down
        content, keywords = str(said["content"]), list(said["keywords"])
        domain, category = decision.domain, decision.category
        explicit = (decision.explicit or item.get("rule") == "explicit") and not untrusted
    else:
        importance, content, keywords, domain, category, explicit = score, "", [], "user", "general", False
        suggested = item.get("suggested")
        if isinstance(suggested, dict) and isinstance(suggested.get("keywords"), list):
            keywords = [k for k in suggested["keywords"] if isinstance(k, str)]
        explicit = item.get("rule") == "explicit" and not untrusted
    importance = min(importance, retention.ceiling_for(untrusted))
    return Draft(
        content=content,
        keywords=keywords,
        domain=domain,
        category=category,
        importance=importance,
        when=when,
        source=signal.source,
        explicit=explicit,
        trust="untrusted" if untrusted else None,
    )
