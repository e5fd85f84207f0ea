"""Preprocessing: transcripts → the queue (memory/signals.jsonl), each message exactly once, ever.

Exactly once rests on three records, each written atomically, in this order: the queue's new lines, appended and
fsynced; the ledger (memory/ingest.sqlite), which records every message handled and the next signal number — a run
killed before it commits leaves lines numbered at or past that number, which the next run drops before it reads the
transcripts again, so they come back once, with the same numbers; and `encodedThrough` in index.json (see `queue`).

Callers hold the workspace lock.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from .. import redaction
from ..errors import HippocampusError
from ..store import files, indexfile
from ..timeutil import parse_instant
from ..workspace import Workspace
from . import sources
from .config import load_config
from .ledger import Ledger, ledger_path
from . import queue
from .sources import SourceSpec
from .transcripts import Message

# A message stamped later than now by more than this was written while the machine's clock was fast: it is taken at
# the run's time (a transcript clock a little ahead is fine). Waiting for the time it shows would keep it from
# memory, unsaid, until then.
FUTURE_SLACK = timedelta(minutes=10)


@dataclass
class PreprocessReport:
    sources: int = 0
    unchanged: int = 0
    sessions: int = 0
    messages: int = 0
    new: int = 0
    seen: int = 0
    noise: dict = field(default_factory=dict)
    ahead: int = 0  # messages stamped ahead of the run's clock, taken at its time
    limited: int = 0
    before_watermark: int = 0
    malformed: int = 0
    incomplete: int = 0
    undecodable: int = 0
    cut: int = 0
    recovered: int = 0
    first_run: bool = False
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "sources": self.sources,
            "unchanged": self.unchanged,
            "sessions": self.sessions,
            "messages": self.messages,
            "signals": self.new,
            "alreadySeen": self.seen,
            "noise": self.noise,
            "aheadOfClock": self.ahead,
            "limited": self.limited,
            "beforeWatermark": self.before_watermark,
            "malformedLines": self.malformed,
            "incompleteLines": self.incomplete,
            "undecodableRows": self.undecodable,
            "cutMessages": self.cut,
            "recovered": self.recovered,
            "firstRun": self.first_run,
            "problems": self.problems,
            "notes": self.notes,
        }


# Handled messages are committed to the ledger (and their signals appended to the queue) about this many at a time:
# a long history is taken in steps that each stay done, and memory does not grow with the history.
COMMIT_EVERY = 5000


class _Run:
    """One preprocess run's progress: what is handled and queued but not yet committed."""

    def __init__(self, ws: Workspace, ledger: Ledger, report: PreprocessReport, next_seq: int, cap: int | None):
        self.ws = ws
        self.ledger = ledger
        self.report = report
        self.next_seq = next_seq
        self.cap = cap
        self.handled: list[tuple[str, str, int | None, str | None]] = []
        self.fingerprints: dict[str, str] = {}
        self.keepers: list[Message] = []
        # With a cap, the most recent `cap` messages so far: (time, order, message), the oldest on top.
        self.recent: list[tuple[datetime, int, Message]] = []
        self.order = 0
        self._taken: dict[str, set[str]] = {}  # message ids handled by this run and not yet committed
        self.conversations = redaction.Conversations()

    def take(self, session: str, message: str) -> None:
        self._taken.setdefault(session, set()).add(message)

    def taken(self, session: str) -> set[str]:
        return self._taken.get(session, set())

    def keep(self, message: Message) -> None:
        """A message to queue: redacted now, in its session's order (a key may be pasted over several messages),
        whether or not a cap lets it through."""
        text = self.conversations.redact(message.session, message.text)
        sender = redaction.redact(message.sender) if message.sender else None  # a display name is anyone's
        message = replace(message, text=text, sender=sender, redacted=redaction.RULES)
        if self.cap is None:
            self.keepers.append(message)
            return
        self.order += 1
        entry = (message.when, self.order, message)
        if len(self.recent) < self.cap:
            heapq.heappush(self.recent, entry)
            return
        if self.recent and entry[:2] > self.recent[0][:2]:
            entry = heapq.heapreplace(self.recent, entry)
        older = entry[2]
        self.report.limited += 1
        self.handled.append((older.session, older.id, None, "limit"))

    def done(self, source: str, fingerprint: str) -> None:
        """A source read whole: recorded with the next commit, so that an unchanged source is not read again."""
        self.fingerprints[source] = fingerprint
        self.step()

    def step(self) -> None:
        """Commit when enough is in hand. With a cap nothing is final before every source is read."""
        if self.cap is None and len(self.handled) + len(self.keepers) >= COMMIT_EVERY:
            self.commit()

    def commit(self) -> None:
        """Queue the kept messages as numbered signals, then record everything handled in one ledger transaction."""
        if self.cap is not None:
            self.keepers = [m for _, _, m in sorted(self.recent, key=lambda e: e[:2])]
            self.recent = []
        signals = []
        for message in self.keepers:
            signals.append(message.signal(self.next_seq))
            self.handled.append((message.session, message.id, self.next_seq, None))
            self.next_seq += 1
        queue.append_signals(self.ws, signals)
        self.ledger.commit(self.handled, self.fingerprints, self.next_seq)
        self.report.new += len(signals)
        self.keepers, self.handled, self.fingerprints, self._taken = [], [], {}, {}


def preprocess(
    ws: Workspace,
    now: datetime,
    spec: SourceSpec,
    limit: int | None = None,
    full: bool = False,
    meta: dict | None = None,
) -> PreprocessReport:
    """Read new messages, queue them as numbered signals, record them in the ledger. Hold the workspace lock.

    Sources are read one at a time and streamed; what is read is committed every COMMIT_EVERY messages, so memory
    stays bounded and a long first run keeps its progress. `meta` is the index's bookkeeping (for encodedThrough
    and the old skill's watermark); read from disk if None.
    """
    config = load_config(ws)
    ledger = Ledger(ledger_path(ws))
    try:
        return _preprocess(ws, now, spec, limit, full, meta, config, ledger)
    finally:
        ledger.close()


def _preprocess(ws, now, spec, limit, full, meta, config, ledger) -> PreprocessReport:
    files.check_file(ws.signals)
    report = PreprocessReport(first_run=not ledger.initialized)
    if meta is None and (report.first_run or ledger.fresh):
        meta = indexfile.read_meta(ws)
    # Without the index at hand, the ledger's note of encode's last run will do: it only decides what to trim.
    through = queue.encoded_through(meta) if meta is not None else int(ledger.state("encodedThrough", "0"))
    meta = meta or {}
    committed = ledger.next_seq
    # Lines a killed run appended but never committed come back below, under the same numbers.
    report.recovered = queue.keep_signals(ws, lambda s: through < s.seq < committed)
    next_seq = max([committed, through + 1] + [s.seq + 1 for s in queue.queued(ws)])
    # limit -1 (from --full) means the whole history even on a first run.
    cap = limit if limit is not None else (config.first_run_limit if report.first_run else None)
    cap = None if cap is not None and cap < 0 else cap
    run = _Run(ws, ledger, report, next_seq, cap)
    horizon = now + FUTURE_SLACK
    watermark = parse_instant(meta.get("lastProcessedTimestamp")) if report.first_run else None
    found = sources.Found()
    for source in sources.find(spec, found):
        report.sources += 1
        if not full and ledger.fingerprint(source.name) == source.fingerprint:
            report.unchanged += 1
            continue
        read = source.read(config.owner)
        report.sessions += 1
        report.malformed += read.malformed
        report.incomplete += read.incomplete
        report.undecodable += read.undecodable
        report.cut += read.cut
        seen = ledger.seen_in(read.session) | run.taken(read.session)
        complete = not read.incomplete and not read.undecodable
        for message in read.messages:
            report.messages += 1
            if message.id in seen:
                report.seen += 1
                continue
            stamped = message.when
            if stamped > horizon:
                # The local time in its text came from the same clock: no hint of when it was said.
                message = replace(message, when=now, local=None)
                report.ahead += 1
            seen.add(message.id)
            run.take(message.session, message.id)
            if message.noise:
                report.noise[message.noise] = report.noise.get(message.noise, 0) + 1
                run.handled.append((message.session, message.id, None, message.noise))
            elif watermark is not None and stamped <= watermark:  # the old skill read by the same clock
                report.before_watermark += 1
                run.handled.append((message.session, message.id, None, "before-watermark"))
            else:
                run.keep(message)
            run.step()  # a long session is committed in parts too; its source is recorded once read whole
        if complete:
            run.done(source.name, source.fingerprint)
    report.problems += found.problems
    report.notes += found.notes
    if report.undecodable:
        report.problems.append(
            f"{report.undecodable} compressed transcript rows or archives could not be decoded"
            + (f" ({sources.ZSTD_MISSING})" if sources.zstd_module() is None else "")
            + "; their sessions are read again by the next run"
        )
    if found.problems and not found.count:
        raise HippocampusError("; ".join(found.problems))
    run.commit()
    return report
