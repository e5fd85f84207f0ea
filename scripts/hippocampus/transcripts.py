"""OpenClaw transcripts → cleaned messages: session JSONL files (≤ 2026.7.1) and the SQLite `transcript_events`
table (≥ 2026.7.2).

Parsing is pure (lines in, messages out); the readers around it only open files. Every message entry of a session
comes out exactly once, abandoned branches included; what is not worth encoding carries the reason in `noise`
(heartbeats, cron runs, tool traffic, failed attempts, retries, branches abandoned by an edit), so a caller can mark
it handled. A malformed line is
counted and skipped, never more. Naive timestamps are UTC.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator

from .errors import HippocampusError
from .timeutil import iso, parse_instant

ARCHIVE_MARKERS = (".jsonl.deleted.", ".reset.", ".bak")
SQLITE_NAME = "openclaw-agent.sqlite"
EVENTS_TABLE = "transcript_events"


# --- values ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Signal:
    """One cleaned message waiting to be encoded: a line of memory/signals.jsonl.

    `seq` numbers signals in the order they were written and is never reused; `id` is the message's id in its session.
    """

    seq: int
    id: str
    session: str
    timestamp: str
    role: str
    text: str
    local: str | None = None  # the user's local time, from a "[Mon 2026-05-04 09:58 GMT+2]" stamp
    sender: str | None = None
    trust: str | None = None  # "untrusted" for group chats and senders other than the owner

    @property
    def key(self) -> tuple[str, str]:
        return self.session, self.id

    @property
    def source(self) -> dict:
        return {"session": self.session, "message": self.id, "ts": self.timestamp}

    def to_dict(self) -> dict:
        out = {"seq": self.seq, "id": self.id, "session": self.session, "timestamp": self.timestamp,
               "role": self.role, "text": self.text}
        for name in ("local", "sender", "trust"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    @classmethod
    def from_dict(cls, raw: Any, where: str) -> "Signal":
        if not isinstance(raw, dict):
            raise HippocampusError(f"{where}: a signal must be an object")
        seq = raw.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
            raise HippocampusError(f"{where}: `seq` must be a positive whole number")
        for name in ("id", "session", "timestamp", "role", "text"):
            if not isinstance(raw.get(name), str):
                raise HippocampusError(f"{where}: `{name}` must be text")
        optional = {k: raw[k] if isinstance(raw.get(k), str) else None for k in ("local", "sender", "trust")}
        return cls(seq=seq, id=raw["id"], session=raw["session"], timestamp=raw["timestamp"], role=raw["role"],
                   text=raw["text"], **optional)


@dataclass(frozen=True, slots=True)
class Message:
    """One message entry of a session, cleaned. `noise` says why it is not a signal (None: it is one)."""

    session: str
    id: str
    when: datetime
    role: str
    text: str
    noise: str | None = None
    local: str | None = None
    sender: str | None = None
    trust: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return self.session, self.id

    @property
    def timestamp(self) -> str:
        return iso(self.when)

    def signal(self, seq: int) -> Signal:
        return Signal(seq=seq, id=self.id, session=self.session, timestamp=self.timestamp, role=self.role,
                      text=self.text, local=self.local, sender=self.sender, trust=self.trust)


@dataclass
class SessionRead:
    """What one session gave: its messages in file order and what had to be skipped."""

    session: str
    where: str
    messages: list[Message] = field(default_factory=list)
    malformed: int = 0    # lines that are not JSON objects, or entries of a shape we cannot read
    incomplete: int = 0   # a last line still being written (read again next time)
    undecodable: int = 0  # SQLite rows stored compressed in a format the standard library cannot read


@dataclass
class Owner:
    """Who the agent's owner is, when the installer recorded it: sender ids, usernames or names."""

    names: frozenset[str] = frozenset()

    def includes(self, sender: dict) -> bool:
        values = {str(sender.get(k)).strip().lower().lstrip("@") for k in ("id", "username", "name", "e164", "label")
                  if sender.get(k) not in (None, "")}
        return bool(values & self.names)


# --- cleaning (pure) ------------------------------------------------------------------------------------------

_ENVELOPE = re.compile(r"\A\s*([A-Za-z][A-Za-z ]{0,40}?) \(untrusted metadata\):[ \t]*\n```[a-z]*[ \t]*\n(.*?)\n```[ \t]*"
                       r"(?:\n|\Z)", re.DOTALL)
_STAMP = re.compile(r"\A\s*\[(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]* )?(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2}(?::\d{2})?)"
                    r"(?: ?(?:GMT|UTC)?([+-]\d{1,2}(?::?\d{2})?)?(?: ?[A-Za-z]{2,5})?)?\][ \t]*")
_CHANNEL = re.compile(r"\A\s*\[(?:Telegram|WhatsApp|Discord|Signal|Slack|iMessage|Matrix|Teams|Google ?Chat|Messenger"
                      r"|LINE|Zalo|Mattermost|WebChat|SMS|Email)\b([^\]\n]*)\][ \t]*", re.IGNORECASE)
_MESSAGE_ID = re.compile(r"[ \t]*\[message_id:[^\]\n]*\]")
_FILE = re.compile(r"<file\b[^>]*?(?:/>|>.*?</file>)", re.DOTALL)
_MEDIA = re.compile(r"<media:[^>\n]*>")
_REPLY_TAG = re.compile(r"\[\[\s*(?:reply_to_current|reply_to\s*:[^\]\n]*|audio_as_voice)\s*\]\]")
_REPLYING = re.compile(r"\[Replying to[^\]\n]*\].*?\[/Replying\]", re.DOTALL)
_SYSTEM_LINE = re.compile(r"\ASystem: \[[^\n]*(?:\n|\Z)")
_HEARTBEAT = re.compile(r"\ARead HEARTBEAT\.md\b|\breply HEARTBEAT_OK\b")
_CRON_PROMPT = re.compile(r"\A\s*\[cron:[^\]\n]*\]")
_SPACES = re.compile(r"(?<=\S)[ \t]{2,}")
_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")
_NOISE_REPLIES = frozenset({"NO_REPLY", "HEARTBEAT_OK"})
_GROUP_TYPES = frozenset({"group", "supergroup", "channel", "room", "guild"})


@dataclass(frozen=True)
class Cleaned:
    text: str
    local: str | None = None
    meta: tuple[dict, ...] = ()
    channel: str | None = None


def clean_user_text(text: str) -> Cleaned:
    """Strip the channel envelope and transport tags from a user turn; keep every word the user wrote."""
    meta: list[dict] = []
    while True:
        match = _ENVELOPE.match(text)
        if not match:
            break
        try:
            block = json.loads(match.group(2))
        except (json.JSONDecodeError, RecursionError):
            block = None
        if isinstance(block, dict):
            meta.append({"_title": match.group(1).strip().lower(), **block})
        text = text[match.end():]
    while _SYSTEM_LINE.match(text.lstrip("\n")):
        text = _SYSTEM_LINE.sub("", text.lstrip("\n"), count=1)
    local = None
    channel = None
    for _ in range(3):  # stamp and channel tag come in either order
        stamp = _STAMP.match(text)
        if stamp:
            local = _local_time(stamp)
            text = text[stamp.end():]
            continue
        tag = _CHANNEL.match(text)
        if tag:
            channel = tag.group(0).strip()
            text = text[tag.end():]
            continue
        break
    return Cleaned(_tidy(text), local, tuple(meta), channel)


def clean_reply_text(text: str) -> str:
    """Strip reply tags and attachments from an agent reply."""
    return _tidy(text)


def _tidy(text: str) -> str:
    text = _REPLYING.sub("", text)
    text = _FILE.sub("", text)
    text = _MEDIA.sub("", text)
    text = _MESSAGE_ID.sub("", text)
    text = _REPLY_TAG.sub("", text)
    text = _BLANK_LINES.sub("\n\n", text)
    return "\n".join(_SPACES.sub(" ", line).rstrip() for line in text.strip().splitlines()).strip()


def _local_time(stamp: re.Match) -> str:
    day, clock, offset = stamp.group(1), stamp.group(2), stamp.group(3)
    if len(clock.split(":")[0]) == 1:
        clock = "0" + clock
    text = f"{day}T{clock}"
    if offset:
        sign, digits = offset[0], offset[1:].replace(":", "")
        hours, minutes = (digits[:-2], digits[-2:]) if len(digits) > 2 else (digits, "00")
        text += f"{sign}{int(hours):02d}:{minutes}"
    return text


def sender_and_trust(meta: Iterable[dict], channel: str | None, session_key: str | None,
                     owner: Owner | None) -> tuple[str | None, str | None]:
    """Who sent a user turn and whether it can be trusted as the owner's word (None = trusted)."""
    sender: dict = {}
    group = _group_key(session_key)
    for block in meta:
        if block.get("_title", "").startswith("sender"):
            sender = block
        if _is_group(block):
            group = True
    if channel and re.search(r"\bgroup\b|id:-\d", channel, re.IGNORECASE):
        group = True
    name = None
    for key in ("name", "username", "id", "e164"):
        value = sender.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            name = str(value).strip()
            break
    untrusted = group or bool(owner and owner.names and sender and not owner.includes(sender))
    return name, ("untrusted" if untrusted else None)


def _is_group(block: dict) -> bool:
    for key in ("chat_type", "chatType", "conversation_type", "type"):
        value = block.get(key)
        if isinstance(value, str) and value.lower() in _GROUP_TYPES:
            return True
    if any(block.get(k) is True for k in ("is_group_chat", "isGroup", "is_group", "isGroupChat")):
        return True
    if any(block.get(k) not in (None, "") for k in ("group_subject", "group_id", "groupId", "group_channel",
                                                      "groupSubject")):
        return True
    label = block.get("label") or block.get("conversation_label")
    return isinstance(label, str) and bool(re.search(r"\bgroup\b", label, re.IGNORECASE))


def _group_key(session_key: str | None) -> bool:
    parts = (session_key or "").lower().split(":")
    return "group" in parts or "channel" in parts


def is_cron_key(session_key: str | None) -> bool:
    """Session keys of cron runs: `cron:<id>` or `agent:<id>:cron:<job>` (this skill's own runs among them)."""
    parts = (session_key or "").lower().split(":")
    return "cron" in parts


# --- parsing (pure) -------------------------------------------------------------------------------------------

def parse_lines(lines: Iterable[tuple[int, str | None]], fallback_session: str, where: str,
                session_key: str | None = None, owner: Owner | None = None, ended: bool = True,
                fallback_time: datetime | None = None) -> SessionRead:
    """Parse one session from its lines: (line number or seq, text). `text` None is an undecodable row.

    `ended` False means the source may still be growing: a bad last line is incomplete, not malformed.
    """
    entries: list[tuple[int, dict, str]] = []
    malformed = incomplete = undecodable = 0
    items = list(lines)
    for position, (number, line) in enumerate(items):
        if line is None:
            undecodable += 1
            continue
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except (json.JSONDecodeError, RecursionError):  # deep nesting is as unreadable as a torn line
            if not ended and position == len(items) - 1:
                incomplete += 1
            else:
                malformed += 1
            continue
        if not isinstance(entry, dict):
            malformed += 1
            continue
        entries.append((number, entry, line))
    read = parse_entries(entries, fallback_session, where, session_key, owner, fallback_time)
    read.malformed += malformed
    read.incomplete += incomplete
    read.undecodable += undecodable
    return read


def parse_entries(entries: list[tuple[int, dict, str]], fallback_session: str, where: str,
                  session_key: str | None = None, owner: Owner | None = None,
                  fallback_time: datetime | None = None) -> SessionRead:
    session = fallback_session
    header_time = None
    for _, entry, _ in entries:
        if entry.get("type") == "session":
            if isinstance(entry.get("id"), str) and entry["id"].strip():
                session = entry["id"].strip()
            header_time = parse_instant(entry.get("timestamp"))
            break
    read = SessionRead(session=session, where=where)
    last_time = header_time or fallback_time or datetime(1970, 1, 1, tzinfo=timezone.utc)
    cron_session = is_cron_key(session_key)
    turn_noise: dict[str, str | None] = {}  # message id → noise reason of the user turn it answers
    parents: dict[str, str | None] = {}
    last_user_noise: str | None = None
    last_user: tuple[str, str | None, bool] | None = None  # text, parentId, answered
    said: set[tuple[str | None, str]] = set()  # (parentId, text) of user turns: a re-sent sibling is a retry
    first_user = True
    for number, entry, line in entries:
        entry_id = entry.get("id") if isinstance(entry.get("id"), str) and entry.get("id") else None
        parent = entry.get("parentId") if isinstance(entry.get("parentId"), str) else None
        if entry_id:
            parents[entry_id] = parent
        if entry.get("type") != "message":
            continue
        message = entry.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            read.malformed += 1
            continue
        message_id = entry_id or "h" + hashlib.sha1(line.encode("utf-8")).hexdigest()[:12]
        when = parse_instant(entry.get("timestamp")) or parse_instant(message.get("timestamp")) or last_time
        last_time = when
        role = message["role"]
        content = message.get("content")
        if role == "user":
            raw = _text_blocks(content)
            if raw is None:
                read.malformed += 1
                continue
            cleaned = clean_user_text(raw)
            sender, trust = sender_and_trust(cleaned.meta, cleaned.channel, session_key, owner)
            text = cleaned.text
            noise = None
            if _HEARTBEAT.search(text):
                noise = "heartbeat"
            elif _CRON_PROMPT.match(raw) or _CRON_PROMPT.match(text):
                noise = "cron"
                if first_user:
                    cron_session = True  # an isolated cron run: its replies are the job's, not a conversation
            elif not text:
                noise = "empty"
            elif (parent, text) in said or (last_user and last_user[0] == text and not last_user[2]):
                noise = "retry"
            first_user = False
            if cron_session:
                noise = "cron"
            said.add((parent, text))
            last_user = (text, parent, False)
            last_user_noise = noise
            if entry_id:
                turn_noise[entry_id] = noise
            read.messages.append(Message(read.session, message_id, when, "user", text, noise, cleaned.local,
                                         sender, trust))
        elif role == "assistant":
            raw = _text_blocks(content, assistant=True)
            if raw is None:
                read.malformed += 1
                continue
            text = clean_reply_text(raw)
            answered = _turn_noise(entry_id, parents, turn_noise, last_user_noise)
            noise = None
            if message.get("stopReason") == "error":
                noise = "failed"
            elif cron_session:
                noise = "cron"
            elif answered in ("heartbeat", "cron"):
                noise = answered
            elif not text:
                noise = "tool" if _has_tool_call(content) else "empty"
            elif text.strip() in _NOISE_REPLIES:
                noise = "no-reply"
            if noise is None and last_user is not None:
                last_user = (last_user[0], last_user[1], True)
            read.messages.append(Message(read.session, message_id, when, "assistant", text, noise))
        else:
            # toolResult and any role this version does not know: tool output is never a memory.
            read.messages.append(Message(read.session, message_id, when, role, "", "tool"))
    _mark_abandoned(read, parents)
    return read


def _mark_abandoned(read: SessionRead, parents: dict) -> None:
    """A user message edited afterwards (a later user message with other words hangs off the same parent) was taken
    back: it and everything that followed it on its branch are noise "abandoned". A re-sent identical message is a
    retry, not an edit, and a heartbeat or cron prompt beside it edits nothing."""
    later: dict[str | None, list[Message]] = {}
    edited: list[str] = []
    for message in reversed(read.messages):
        if message.role != "user" or message.id not in parents:
            continue
        parent = parents[message.id]
        siblings = later.setdefault(parent, [])
        if message.noise is None and any(s.noise is None and s.text != message.text for s in siblings):
            edited.append(message.id)
        if message.noise is None:
            siblings.append(message)
    if not edited:
        return
    children: dict[str, list[str]] = {}
    for child, parent in parents.items():
        if parent is not None:
            children.setdefault(parent, []).append(child)
    gone, stack = set(), list(edited)
    while stack:
        entry = stack.pop()
        if entry not in gone:
            gone.add(entry)
            stack.extend(children.get(entry, ()))
    read.messages = [replace(m, noise="abandoned") if m.id in gone and m.noise is None else m for m in read.messages]


def _turn_noise(entry_id: str | None, parents: dict, turn_noise: dict, fallback: str | None) -> str | None:
    """The noise reason of the user turn an assistant entry answers: its nearest user ancestor in the tree."""
    current = parents.get(entry_id) if entry_id else None
    for _ in range(10_000):
        if current is None:
            break
        if current in turn_noise:
            return turn_noise[current]
        current = parents.get(current)
    return fallback


def _text_blocks(content: Any, assistant: bool = False) -> str | None:
    """Every text block of a message, joined; thinking, tool calls and images left out. None: unreadable shape."""
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    if not isinstance(content, list):
        return None
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") in ("text", "input_text", "output_text") \
                and isinstance(block.get("text"), str):
            parts.append(block["text"])
    return "\n\n".join(p.strip() for p in parts if p.strip())


def _has_tool_call(content: Any) -> bool:
    return isinstance(content, list) and any(isinstance(b, dict) and b.get("type") in ("toolCall", "tool_use")
                                             for b in content)


# --- where transcripts are ------------------------------------------------------------------------------------

def is_archive(path: Path) -> bool:
    return any(marker in path.name for marker in ARCHIVE_MARKERS)


def agent_dir(state_dir: Path, agent: str) -> Path:
    return state_dir / "agents" / agent


def session_files(folder: Path) -> list[Path]:
    """The live session files of a folder (archives left out), in name order."""
    try:
        return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(".jsonl") and not is_archive(p))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise HippocampusError(f"cannot list {folder}: {exc.strerror}") from None


def session_keys(folder: Path) -> dict[str, str]:
    """sessions.json of a folder as {sessionId or file name: session key}; empty when missing or unreadable."""
    try:
        raw = json.loads((folder / "sessions.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    keys: dict[str, str] = {}
    if isinstance(raw, dict):
        for key, value in raw.items():
            if not isinstance(value, dict):
                continue
            for name in ("sessionId", "sessionFile"):
                if isinstance(value.get(name), str) and value[name]:
                    keys[Path(value[name]).name if name == "sessionFile" else value[name]] = key
    return keys


# --- readers (thin I/O) ---------------------------------------------------------------------------------------

def file_fingerprint(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}"


def read_jsonl(path: Path, keys: dict[str, str], owner: Owner | None) -> SessionRead:
    """Read one session file; a file that does not end in a newline may still be being written."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise HippocampusError(f"cannot read {path}: {exc.strerror}") from None
    ended = data.endswith(b"\n") or not data
    lines = [(n, raw.decode("utf-8", errors="replace")) for n, raw in enumerate(data.split(b"\n"), 1)]
    if lines and not lines[-1][1]:
        lines.pop()
    stem = path.name[: -len(".jsonl")] if path.name.endswith(".jsonl") else path.stem
    key = keys.get(stem) or keys.get(path.name)
    mtime = datetime.fromtimestamp(path.stat().st_mtime, tz=timezone.utc)
    read = parse_lines(lines, stem, str(path), key, owner, ended=ended, fallback_time=mtime)
    if key is None and read.session in keys:
        # The header names the session: its key tells a cron run; parse again with it.
        read = parse_lines(lines, stem, str(path), keys[read.session], owner, ended=ended, fallback_time=mtime)
    return read


@dataclass
class Columns:
    session: str
    order: str
    json: str | None
    zstd: str | None


def open_database(path: Path) -> sqlite3.Connection:
    """The OpenClaw agent database, read-only (it is in WAL mode and OpenClaw may be writing it)."""
    try:
        connection = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return connection
    except sqlite3.Error as exc:
        raise HippocampusError(f"cannot open {path} read-only: {exc}") from None


def detect_columns(connection: sqlite3.Connection, path: Path) -> Columns:
    """The columns of `transcript_events`, whatever this OpenClaw build named them; a clear error otherwise."""
    try:
        found = connection.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?", (EVENTS_TABLE,)).fetchall()
        if not found:
            raise HippocampusError(f"{path} has no `{EVENTS_TABLE}` table: an OpenClaw schema this version does not "
                                   "know; its transcripts were not read (use --sessions with JSONL exports)")
        names = [row[1] for row in connection.execute(f"PRAGMA table_info({EVENTS_TABLE})")]
    except sqlite3.Error as exc:
        raise HippocampusError(f"cannot read {path}: {exc}") from None

    def pick(*options: str) -> str | None:
        return next((name for name in options if name in names), None)

    session = pick("session_id", "sessionId", "session")
    order = pick("seq", "sequence", "idx", "position") or "rowid"
    json_column = pick("event_json", "json", "event", "data", "line")
    zstd_column = pick("event_zstd", "zstd")
    if session is None or (json_column is None and zstd_column is None):
        raise HippocampusError(f"{path}: `{EVENTS_TABLE}` has columns {', '.join(names)}; expected session_id and "
                               "event_json: an OpenClaw schema this version does not know; its transcripts were "
                               "not read")
    return Columns(session, order, json_column, zstd_column)


def database_sessions(connection: sqlite3.Connection, columns: Columns) -> dict[str, str]:
    """{session id: fingerprint} of every session in the table (row count and last position)."""
    rows = connection.execute(
        f'SELECT "{columns.session}", COUNT(*), MAX("{columns.order}") FROM {EVENTS_TABLE} '
        f'GROUP BY "{columns.session}"').fetchall()
    return {str(session): f"{count}:{last}" for session, count, last in rows if session is not None}


def read_database_session(connection: sqlite3.Connection, columns: Columns, session: str, path: Path,
                          keys: dict[str, str], owner: Owner | None) -> SessionRead:
    select = ", ".join(f'"{c}"' if c else "NULL" for c in (columns.order, columns.json, columns.zstd))
    rows = connection.execute(
        f'SELECT {select} FROM {EVENTS_TABLE} WHERE "{columns.session}" = ? ORDER BY "{columns.order}"',
        (session,)).fetchall()
    lines = [(position, _row_text(text, packed)) for position, text, packed in rows]
    return parse_lines(lines, session, f"{path} (session {session})", keys.get(session), owner)


def _row_text(text: Any, packed: Any) -> str | None:
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if isinstance(text, str):
        return text
    if packed is not None:
        return _unzstd(packed)
    return ""


def _unzstd(packed: Any) -> str | None:
    """zstd-compressed rows: readable only where the standard library has zstd (Python 3.14+)."""
    try:
        from compression import zstd  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        return zstd.decompress(bytes(packed)).decode("utf-8", errors="replace")
    except Exception:  # a corrupt row is one skipped row, whatever the decoder raises
        return None


def iter_messages(reads: Iterable[SessionRead]) -> Iterator[Message]:
    for read in reads:
        yield from read.messages
