"""The encode runs — automatic, --prepare and --apply — each in the order that keeps every message exactly once.

Each run has up to three locked steps: preprocess (transcripts → queue), a transaction that changes the index and
records `encodedThrough` in the same atomic write, and the tidy-up (trim the queue, drop handled pending items,
refresh the Markdown mirrors and HIPPOCAMPUS_CORE.md). A kill between two steps leaves work the next run redoes or
recognises as done: a queued signal at or below `encodedThrough` is never encoded again, and a pending item whose
message is already a memory's source is treated as applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterable
from typing import Any
from datetime import datetime
from pathlib import Path

from . import encoding, ledger, pending
from .. import events
from ..published import refresh
from ..store import cache
from .encoding import Draft, Outcome
from .transcripts import Signal
from ..store.model import positive_whole
from ..store.views import IndexView
from ..redaction import redact_memory
from ..text import asks
from ..timeutil import parse_instant
from ..workspace import Workspace
from ..store import files, retention, transaction


@dataclass
class RunReport:
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
    preprocess: ledger.Report | None = None

    def to_dict(self) -> dict:
        out = {"mode": self.mode, **self.outcome.to_dict(), "signals": self.signals, "total": self.total}
        if self.mode == "prepare":
            out["prepared"] = self.prepared
        if self.mode == "apply":
            out.update(applied=self.applied, alreadyApplied=self.already_applied, invalid=self.invalid)
        out["expired"] = self.expired
        out["pending"] = self.pending_left
        if self.preprocess is not None:
            out["preprocess"] = self.preprocess.to_dict()
        return out


def run_preprocess(
    ws: Workspace, now: datetime, spec: ledger.SourceSpec, wait: bool, limit: int | None = None, full: bool = False
) -> ledger.Report:
    with files.workspace_lock(ws, wait=wait):
        return ledger.preprocess(ws, now, spec, limit=limit, full=full)


def _fallback(
    index, lookup, seen, items: list[dict], now: datetime, min_importance: float, outcome: Outcome, where: str
) -> None:
    """Expired pending items go the automatic way (already-applied ones are recognised by their source)."""
    if not items:
        return
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
    part = encoding.encode(index, signals, now, min_importance, lookup=lookup, seen=seen)
    _add(outcome, part)


def _add(total: Outcome, part: Outcome) -> None:
    total.new += part.new
    total.reinforced += part.reinforced
    total.updated += part.updated
    total.attached += part.attached
    total.extended += part.extended
    total.skipped += part.skipped
    total.duplicates += part.duplicates


PART = 20_000  # queued signals encoded per transaction: what a part made is saved and let go before the next
NOTE = "encodingPart"  # the index's note of how far, in the order things were said, a run's backlog is encoded


class _Plan:
    """How one run takes its backlog: in parts of `size` signals (all at once when None), in the order things were
    said, each part encoded and saved by a transaction of its own, so a first run over years of chats holds one
    part's memories at a time. Each part is encoded as one run of its own would be (as cron takes a history a day at
    a time), so a resumed run encodes exactly what an uninterrupted one does. Until the last part, `encodedThrough`
    stays where it was and the index notes, in the same atomic write as the memories, the last signal encoded
    (NOTE): a run killed between parts is resumed from there by the next one, which encodes every message once."""

    def __init__(self, now: datetime, size: int | None):
        self.now, self.size = now, size
        self.backlog: ledger.Backlog | None = None
        self.done = 0  # signals of the backlog encoded by this run
        self.noted = 0  # the highest signal number a killed run's note covers
        self.finished = False

    def order(self, signal: Signal) -> tuple:
        # In the order things were said: the queue holds each session in turn, and a value changed in a later
        # session must come after the one it replaces.
        return encoding.signal_time(signal, self.now), signal.seq

    def next_part(self, ws: Workspace, meta: dict) -> ledger.Backlog:
        """The next part of the backlog past the index's `encodedThrough` (the first call reads the queue)."""
        if self.backlog is None:
            note = _note(meta)
            done = None
            if note is not None:
                self.noted, key = note
                done = lambda seq, order: seq <= self.noted and order <= key  # noqa: E731
            self.backlog = ledger.Backlog(ws, ledger.encoded_through(meta), self.order, done)
        stop = len(self.backlog) if self.size is None else self.done + self.size
        part = self.backlog.part(self.done, stop)
        self.done += len(part)
        self.finished = self.done >= len(self.backlog)
        return part

    def record(self, meta: dict, part: ledger.Backlog) -> bool:
        """Note in the index's bookkeeping how far the backlog is encoded; whether that changed it."""
        assert self.backlog is not None
        if not self.finished:
            when, seq = part.last_key
            meta[NOTE] = {"through": max(self.backlog.last, self.noted), "said": when.isoformat(), "seq": seq}
            return True
        changed = meta.pop(NOTE, None) is not None
        through = max(self.backlog.last, self.noted)
        if through > ledger.encoded_through(meta):
            meta["encodedThrough"] = through
            changed = True
        return changed


def _note(meta: dict) -> tuple[int, tuple[datetime, int]] | None:
    """(the highest signal number it covers, the order key of the last signal encoded) of a killed run's NOTE;
    None when there is none, or it cannot be read (then the signals it covered are recognised as encoded, one
    by one, by the messages the store holds)."""
    value = meta.get(NOTE)
    if not isinstance(value, dict):
        return None
    through, seq = positive_whole(value.get("through")), positive_whole(value.get("seq"))
    said = value.get("said")
    when = parse_instant(said) if isinstance(said, str) else None
    if when is None or not (through and seq):
        return None
    return through, (when, seq)


def encode(
    ws: Workspace, now: datetime, wait: bool, min_importance: float, prepare: bool = False, part: int | None = PART
) -> RunReport:
    """The automatic path (or, with `prepare`, the first half of the LLM path) over the queued signals; the
    automatic path takes a long backlog `part` signals per transaction (see `_Plan`).

    A streaming transaction: the memories to compare new messages with, and the messages the store holds already,
    come from the cache (a large store is never loaded or tokenised whole); the memories this run changes or makes
    are held, and index.json streams into its replacement around them. A file that is not ours (see
    store/transaction.py), or a store without a current cache (it could not be written), is loaded whole and
    compared in memory."""
    report = RunReport(mode="prepare" if prepare else "auto")
    plan = _Plan(now, None if prepare else part)
    handled: set[str] = set()
    # One lock from loading the index to publishing: no other run comes between these saves and the tidy-up.
    with files.workspace_lock(ws, wait=wait):
        while True:
            through, expired_ids = _encode_saved(ws, now, min_importance, prepare, report, plan)
            handled |= expired_ids
            if plan.finished:
                break
        # Every signal the queue held is encoded when the run got past the last one it read: emptied unread.
        spent = plan.backlog is not None and through >= plan.backlog.last
        _tidy(ws, now, through, handled, bool(report.outcome.changed), report, spent)
    return report


def _encode_saved(
    ws: Workspace, now: datetime, min_importance: float, prepare: bool, report: RunReport, plan: _Plan
) -> tuple[int, set[str]]:
    """One part of `encode`: its transaction, under the caller's lock: (`encodedThrough` as saved, the expired
    items' ids). The memories it held are let go on return, before the next part or the tidy-up."""
    with transaction.transaction(ws, now, whole=False, locked=True) as txn:
        view = None if txn.whole else cache.cached_view(ws)
        held: list[encoding.ViewCandidates] = []
        if view is None:
            txn.load_whole()

        def lookups():
            found = encoding.lookups(view if view is not None else IndexView(txn.index))
            held.append(found[0])
            return found

        try:
            if view is not None:
                txn.index.reserve(view.highest_id)
            outcome = Outcome()
            expired_ids, noted = _encode_batch(
                ws, txn.index, now, min_importance, prepare, report, outcome, lookups, plan
            )
            changed = outcome.changed
            _add(report.outcome, outcome)
            report.total = len(txn.index.memories)  # the whole store, or the memories this part made
            if view is not None:
                # The stored memories this part changed replace their lines; those it made are added at the end.
                taken = held[0].loaded if held else {}
                made = {memory.id for memory in txn.index.memories}
                # Only a memory held whole can change (a stub is never saved): nothing changed is left out.
                assert all(i in taken or i in made for i in changed), "a changed memory was not held whole"
                txn.index.memories += [taken[i] for i in sorted(set(changed)) if i in taken]
                report.total += view.count
            txn.dirty = txn.dirty or noted or bool(changed)
            txn.changed(changed)
            through = ledger.encoded_through(txn.index.meta)
        finally:
            if view is not None:
                view.close()
    return through, expired_ids


def _encode_batch(
    ws: Workspace,
    index,
    now: datetime,
    min_importance: float,
    prepare: bool,
    report: RunReport,
    outcome: Outcome,
    make_lookups,
    plan: _Plan,
) -> tuple[set[str], bool]:
    """Encode (or prepare) the plan's next part of the queued signals, and — with the first part — the expired
    pending items, into `index`; notes in it how far the backlog is encoded. Returns (the expired items' ids,
    whether the bookkeeping changed)."""
    first = plan.backlog is None
    batch = plan.next_part(ws, index.meta)
    items = pending.read_items(ws) if first else []
    old = pending.expired(items, now)
    expired_ids = {item["id"] for item in old}
    if not batch and not old:
        lookup = seen = None  # nothing to encode: no need to index the whole store
    else:
        lookup, seen = make_lookups()
    _fallback(index, lookup, seen, old, now, min_importance, outcome, str(ws.pending))
    if prepare:
        waiting = {key for item in items if item["id"] not in expired_ids for key in pending.item_keys(item)}
        added, left = _prepare_items(batch, lookup, seen, waiting, now, min_importance, outcome)
        # What is no item of its own and has none of its session to go with goes the automatic way.
        _add(outcome, encoding.encode(index, left, now, min_importance, lookup=lookup, seen=seen))
        if added:
            # Written before the index records the signals as consumed: a kill in between re-prepares them,
            # and the check above keeps them from being added twice.
            pending.write_items(ws, [i for i in items] + added)
        report.prepared = len(added)
    else:
        _add(outcome, encoding.encode(index, batch, now, min_importance, lookup=lookup, seen=seen))
    report.signals += len(batch)
    report.expired += len(old)
    return expired_ids, plan.record(index.meta, batch) if batch or plan.finished else False


def _prepare_items(
    batch: Iterable[Signal],
    lookup,
    seen,
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
        if signal.key in seen or signal.key in waiting:
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


ATTACH_ONLY = float("inf")  # a threshold no message reaches: each is attached to its session's memory


def apply(ws: Workspace, now: datetime, wait: bool, decisions_file: Path) -> RunReport:
    """The second half of the LLM path: apply the agent's valid decisions, report the rest."""
    report = RunReport(mode="apply")
    raw = pending.load_decisions(decisions_file)
    done: set[str] = set()
    with files.workspace_lock(ws, wait=wait):
        with transaction.transaction(ws, now, locked=True) as txn:
            index = txn.index
            items = pending.read_items(ws)
            valid, report.invalid = pending.validate(raw, items, index)
            lookup, seen = encoding.lookups(IndexView(index))
            by_id = index.by_id()
            for decision in valid:
                item = decision.item
                key = pending.item_key(item)
                done.add(item["id"])
                if decision.action == "skip":
                    report.outcome.skipped += 1
                    report.applied += 1
                    # The messages that went with it are still what was said: the automatic way attaches them.
                    attached, bad = pending.attached_signals(item, str(ws.pending))
                    report.outcome.skipped += bad
                    _add(report.outcome, encoding.encode(index, attached, now, ATTACH_ONLY, lookup=lookup, seen=seen))
                    continue
                if key is not None and key in seen:
                    report.already_applied += 1  # applied by a run that was killed before it could tidy up
                    continue
                draft = _decision_draft(decision, item, now, str(ws.pending))
                if decision.action == "create":
                    memory = encoding.create(index, lookup, draft)
                    report.outcome.new.append(memory.id)
                else:
                    memory = by_id[decision.memory]
                    encoding.reinforce(index, memory, draft)
                    lookup.holds(memory, draft.source)
                    report.outcome.reinforced.append(memory.id)
                if key is not None:
                    seen.add(key)
                attached, bad = pending.attached_signals(item, str(ws.pending))
                report.outcome.skipped += bad
                for signal in attached:
                    if signal.key not in seen:
                        seen.add(signal.key)
                        encoding.attach_turn(memory, signal)
                        lookup.holds(memory, signal.source)
                        report.outcome.attached.append(memory.id)
                report.applied += 1
            txn.dirty = txn.dirty or bool(report.outcome.changed)
            txn.changed(report.outcome.changed)
            report.total = len(index.memories)
            through = ledger.encoded_through(index.meta)
        _tidy(ws, now, through, done, bool(report.outcome.changed), report)
    return report


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


def _tidy(
    ws: Workspace,
    now: datetime,
    through: int,
    handled_items: set[str],
    changed: bool,
    report: RunReport,
    spent: bool = False,
) -> None:
    """Trim the queue (empty it when `spent`: no signal in it is past `through`), note what was encoded, log the
    event and publish; the caller holds the workspace lock it saved the index under."""
    if spent:
        ledger.clear_signals(ws)
    else:
        ledger.keep_signals(ws, lambda s: s.seq > through)
    book = ledger.Ledger(ledger.ledger_path(ws))
    try:
        book.note_encoded(through)
        pending.remove_items(ws, handled_items)
        report.pending_left = len(pending.read_items(ws))
        if changed or report.signals or report.expired or report.applied:
            events.log_event(
                ws,
                "encoding",
                now,
                dict(
                    new=len(report.outcome.new),
                    reinforced=len(report.outcome.reinforced),
                    updated=len(report.outcome.updated),
                    attached=len(report.outcome.attached),
                    skipped=report.outcome.skipped,
                    total=report.total,
                    mode=report.mode,
                ),
            )
        # Publish when this run changed memories, or when a killed run saved changes it never published. The
        # index file's signature tells every write apart, even two in the same second.
        version = cache.signature(ws) or ""
        if changed or book.state("publishedIndex") != version:
            refresh.refresh(ws, now)
            book.note_published(version)
    finally:
        book.close()
