"""Preprocessing: transcripts → memory/signals.jsonl, each message exactly once, ever.

Exactly once rests on three records, each written atomically, in this order:

1. `memory/ingest.sqlite` (the ledger): every (session, message id) ever handled — signal or noise — and the next
   signal number. A message in the ledger is never read again, whatever its timestamp; ties, naive times and
   abandoned branches do not matter.
2. `memory/signals.jsonl` (the queue): one numbered signal a line. New signals are appended and fsynced *before*
   the ledger commits; a run killed in between leaves lines numbered at or past the ledger's next number, which the
   next run drops before it reads the transcripts again, so they come back once, with the same numbers.
3. `encodedThrough` in memory/index.json: the last signal number encode consumed, saved in the same atomic write
   as the memories it made. Signals at or below it are never encoded again; the queue is trimmed afterwards, and a
   trim lost to a kill is redone by the next run.

Callers hold the workspace lock.
"""

from __future__ import annotations

import copy
import heapq
import json
import os
import sqlite3
from array import array
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Iterator, overload

from .. import jsonl, redaction
from . import sources
from ..errors import HippocampusError, UsageError
from .sources import SourceSpec
from ..timeutil import parse_instant
from .transcripts import Message, Owner, Signal
from ..workspace import resolve_state_dir, Workspace
from ..store import files, indexfile
from ..store.model import positive_whole

LEDGER_NAME = "ingest.sqlite"
# Messages stamped later than now by more than this wait for a later run (a transcript clock a little ahead is fine).
FUTURE_SLACK = timedelta(minutes=10)


def ledger_path(ws: Workspace) -> Path:
    return ws.memory / LEDGER_NAME


# --- configuration written by the installer -------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """memory/hippocampus-config.json: `firstRun` ({"signals": N} or {"whole": true}) and `owners` (sender ids,
    usernames or names of the agent's owner; other senders' words are kept as untrusted)."""

    first_run_limit: int | None = None
    owners: frozenset[str] = frozenset()
    state_dir: str | None = None  # OpenClaw's state dir, when the installer was given one other than the default

    @property
    def owner(self) -> Owner | None:
        return Owner(self.owners) if self.owners else None


def load_config(ws: Workspace) -> Config:
    path = ws.config
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Config()
    except (OSError, ValueError, RecursionError) as exc:
        raise HippocampusError(f"{path} is not readable JSON ({exc}); fix it or delete it") from None
    if not isinstance(raw, dict):
        raise HippocampusError(f"{path}: expected a JSON object")
    limit = None
    first = raw.get("firstRun")
    if first is not None:
        signals = first.get("signals") if isinstance(first, dict) else None
        whole = first.get("whole") if isinstance(first, dict) else None
        if whole is True and signals is None:
            limit = None
        elif isinstance(signals, int) and not isinstance(signals, bool) and signals >= 0 and not whole:
            limit = signals
        else:
            raise HippocampusError(f'{path}: `firstRun` must be {{"signals": N}} or {{"whole": true}}, not {first!r}')
    owners = raw.get("owners", [])
    if not isinstance(owners, list) or not all(isinstance(o, (str, int)) and not isinstance(o, bool) for o in owners):
        raise HippocampusError(f"{path}: `owners` must be a list of sender ids, usernames or names")
    state_dir = raw.get("stateDir")
    if state_dir is not None and not (isinstance(state_dir, str) and Path(state_dir).is_absolute()):
        raise HippocampusError(f"{path}: `stateDir` must be an absolute path, not {state_dir!r}")
    return Config(limit, frozenset(str(o).strip().lower().lstrip("@") for o in owners if str(o).strip()), state_dir)


# --- the ledger -----------------------------------------------------------------------------------------------


class Ledger:
    """memory/ingest.sqlite: which messages were handled, the next signal number, what each source looked like."""

    SCHEMA = """
    CREATE TABLE IF NOT EXISTS seen (
        session TEXT NOT NULL, message TEXT NOT NULL, seq INTEGER, reason TEXT,
        PRIMARY KEY (session, message)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS sources (source TEXT PRIMARY KEY, fingerprint TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    """

    def __init__(self, path: Path):
        self.path = path
        self.fresh = not path.exists()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, timeout=30, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=DELETE")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(self.SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise HippocampusError(
                f"{path} is not a readable ledger ({exc}); move it aside and run again "
                "(messages already encoded would then be read once more)"
            ) from None

    def close(self) -> None:
        self.db.close()

    @overload
    def state(self, key: str) -> str | None: ...
    @overload
    def state(self, key: str, default: str) -> str: ...

    def state(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    @property
    def next_seq(self) -> int:
        return int(self.state("nextSeq", "1"))

    @property
    def initialized(self) -> bool:
        return self.state("initialized") == "1"

    def seen_in(self, session: str) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT message FROM seen WHERE session = ?", (session,))}

    def fingerprint(self, source: str) -> str | None:
        row = self.db.execute("SELECT fingerprint FROM sources WHERE source = ?", (source,)).fetchone()
        return row[0] if row else None

    def note_encoded(self, through: int) -> None:
        """Remember how far encode got (a hint for trimming the queue; the index holds the truth)."""
        self.db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('encodedThrough', ?)", (str(through),))

    def note_published(self, version: str) -> None:
        """Remember which index (its file signature, `cache.signature`) the mirrors and HIPPOCAMPUS_CORE.md were
        last written from."""
        self.db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('publishedIndex', ?)", (version,))

    def commit(
        self, handled: list[tuple[str, str, int | None, str | None]], fingerprints: dict[str, str], next_seq: int
    ) -> None:
        """Record handled messages, source fingerprints and the next number in one transaction."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany(
                "INSERT OR IGNORE INTO seen (session, message, seq, reason) VALUES (?, ?, ?, ?)", handled
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO sources (source, fingerprint) VALUES (?, ?)", list(fingerprints.items())
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                [("nextSeq", str(next_seq)), ("initialized", "1")],
            )
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise HippocampusError(f"could not write {self.path}: {exc}; nothing was recorded") from None


# --- the queue ------------------------------------------------------------------------------------------------


def queued(ws: Workspace) -> Iterator[Signal]:
    """Each readable queued signal, in file order, streamed: the queue of a long history is never held whole."""
    return (signal for signal in _queue(ws) if signal is not None)


def _queue(ws: Workspace) -> Iterator[Signal | None]:
    """Each line of the queue that is not blank, streamed: its signal, or None when it cannot be read (the lines
    that are not JSON come last)."""
    return (signal for _, signal in _entries(ws))


def _entries(ws: Workspace) -> Iterator[tuple[int, Signal | None]]:
    """`_queue`, each signal with the byte offset of its line (-1 for the lines that cannot be read)."""
    try:
        handle = open(ws.signals, "rb")
    except FileNotFoundError:
        return
    name = str(ws.signals)
    at = [0, 0]  # the offset of the line just read, and of the next

    def lines() -> Iterator[str]:
        # Binary lines end at "\n" only, as the queue's do: a session or message id may hold any other line
        # separator (U+2028, NEL, …).
        for line in handle:
            at[0], at[1] = at[1], at[1] + len(line)
            yield line.decode("utf-8", errors="replace")

    with handle:
        values = jsonl.Lines(lines())
        for number, value in values:  # the reader takes one line at a time: `at[0]` is where this one starts
            try:
                yield at[0], Signal.from_dict(value, f"{name}:{number}")
            except HippocampusError:
                yield -1, None
        for _ in range(values.invalid):
            yield -1, None


class Backlog:
    """The queued signals past `after`, ordered by `order` (a key of a signal) — less those `done` (called with a
    signal's number and key) says a killed run encoded already — read from the queue as they are iterated: only
    each one's place in the file is held (8 bytes a signal), so a long history's queue is never held whole. `part`
    gives a stretch of it in the same order. Iterated under the workspace lock that keeps the queue as it was read."""

    def __init__(self, ws: Workspace, after: int, order, done=None) -> None:
        self.path = ws.signals
        self.order = order
        self.last = after  # the highest signal number past `after`, done ones included
        ranked = []
        for offset, signal in _entries(ws):
            if signal is not None and signal.seq > after:
                self.last = max(self.last, signal.seq)
                key = order(signal)
                if done is None or not done(signal.seq, key):
                    ranked.append((key, offset))
        ranked.sort()
        self._offsets = array("q", (offset for _, offset in ranked))

    def __len__(self) -> int:
        return len(self._offsets)

    def part(self, start: int, stop: int) -> "Backlog":
        """The signals from place `start` to before `stop` in this order (the same `last`)."""
        out = copy.copy(self)
        out._offsets = self._offsets[start:stop]
        return out

    @property
    def last_key(self):
        """The key of the last signal in this order."""
        with open(self.path, "rb") as handle:
            return self.order(self._read(handle, self._offsets[-1]))

    def __iter__(self) -> Iterator[Signal]:
        if not self._offsets:
            return
        with open(self.path, "rb") as handle:
            for offset in self._offsets:
                yield self._read(handle, offset)

    def _read(self, handle, offset: int) -> Signal:
        handle.seek(offset)
        try:
            value = json.loads(handle.readline())
        except ValueError:
            raise HippocampusError(f"{self.path} changed while this run was reading it") from None
        return Signal.from_dict(value, f"{self.path}:byte {offset}")


def _dump(signals: list[Signal]) -> str:
    return jsonl.text(s.to_dict() for s in signals)


def append_signals(ws: Workspace, signals: list[Signal]) -> None:
    if not signals:
        return
    payload = _dump(signals).encode("utf-8")
    try:
        ws.signals.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(ws.signals, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError as exc:
        raise files.write_error(ws.signals, exc) from None
    try:
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError as exc:
        # The ledger is not committed: the lines written are dropped and redone by the next run.
        raise files.write_error(ws.signals, exc) from None
    finally:
        os.close(fd)


def keep_signals(ws: Workspace, keep) -> int:
    """Rewrite the queue atomically with the signals `keep` accepts; returns how many lines were dropped."""
    kept = dropped = 0
    for signal in _queue(ws):  # streamed twice, never held whole: a long history's queue can be large
        if signal is not None and keep(signal):
            kept += 1
        else:
            dropped += 1
    if dropped:
        with files.replacing(ws.signals) as out:
            for signal in queued(ws) if kept else ():
                if keep(signal):
                    out.write(_dump([signal]).encode("utf-8"))
    return dropped


def clear_signals(ws: Workspace) -> None:
    """Empty the queue atomically without reading it: for a caller that read it under the lock it still holds and
    encoded every signal in it (what `keep_signals` would drop, it drops at once)."""
    if ws.signals.exists() and ws.signals.stat().st_size:
        with files.replacing(ws.signals):
            pass


def encoded_through(meta: dict) -> int:
    return positive_whole(meta.get("encodedThrough"))


# --- the run --------------------------------------------------------------------------------------------------


@dataclass
class Report:
    sources: int = 0
    unchanged: int = 0
    sessions: int = 0
    messages: int = 0
    new: int = 0
    seen: int = 0
    noise: dict = field(default_factory=dict)
    deferred: int = 0
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
            "deferred": self.deferred,
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

    def __init__(self, ws: Workspace, ledger: Ledger, report: Report, next_seq: int, cap: int | None):
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
        append_signals(self.ws, signals)
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
) -> Report:
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


def _preprocess(ws, now, spec, limit, full, meta, config, ledger) -> Report:
    report = Report(first_run=not ledger.initialized)
    if meta is None and (report.first_run or ledger.fresh):
        meta = indexfile.read_meta(ws) or {}
    # Without the index at hand, the ledger's note of encode's last run will do: it only decides what to trim.
    through = encoded_through(meta) if meta is not None else int(ledger.state("encodedThrough", "0"))
    meta = meta or {}
    committed = ledger.next_seq
    # Lines a killed run appended but never committed come back below, under the same numbers.
    report.recovered = keep_signals(ws, lambda s: through < s.seq < committed)
    next_seq = max([committed, through + 1] + [s.seq + 1 for s in queued(ws)])
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
            if message.when > horizon:
                report.deferred += 1
                complete = False
                continue
            seen.add(message.id)
            run.take(message.session, message.id)
            if message.noise:
                report.noise[message.noise] = report.noise.get(message.noise, 0) + 1
                run.handled.append((message.session, message.id, None, message.noise))
            elif watermark is not None and message.when <= watermark:
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


# --- the source flags preprocess.py and encode.py share -------------------------------------------------------


def add_source_arguments(parser) -> None:
    group = parser.add_argument_group("where the transcripts are")
    group.add_argument(
        "--agent", default="main", metavar="ID", help="the OpenClaw agent whose sessions to read (default main)"
    )
    group.add_argument(
        "--state-dir", metavar="DIR", help="OpenClaw's state dir (default: $OPENCLAW_STATE_DIR, then ~/.openclaw)"
    )
    group.add_argument(
        "--sessions",
        nargs="+",
        metavar="DIR|FILE",
        help="read these session files, folders or openclaw-agent.sqlite files instead of the agent's stores",
    )
    group.add_argument(
        "--full",
        action="store_true",
        help="read every session in full, changed or not (a message "
        "already read is still never read twice), and take the whole history on a first run",
    )
    group.add_argument(
        "--limit",
        type=int,
        metavar="N",
        help="take only the most recent N new messages; older "
        "unread ones are marked read and left out (default on the very first run: the installer's "
        "choice in memory/hippocampus-config.json, else the whole history)",
    )


def source_spec(args, ws: Workspace) -> tuple[SourceSpec, int | None, bool]:
    """(where to read, the limit, full) from parsed arguments and the state dir the installer recorded."""

    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    agent: str = args.agent  # "main" unless --agent names another
    if not agent.strip() or "/" in agent or agent in (".", ".."):
        raise UsageError(f"--agent: {agent!r} is not an agent id")
    paths = [Path(p) for p in args.sessions] if args.sessions else None
    state_dir = None if paths else resolve_state_dir(args.state_dir, recorded=load_config(ws).state_dir)
    spec = SourceSpec(state_dir=state_dir, agent=agent, paths=paths)
    limit = args.limit
    if args.full and limit is None:
        limit = -1  # no first-run limit
    return spec, limit, args.full
