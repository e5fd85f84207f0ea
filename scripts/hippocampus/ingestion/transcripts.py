"""OpenClaw transcripts → cleaned messages. Pure: lines in, messages out (reading the stores is `sources`' job).

Every message entry of a session comes out exactly once, abandoned branches included; what is not worth encoding
carries the reason in `noise` (heartbeats and other internal system turns, cron runs, tool traffic, failed attempts,
retries, branches abandoned by an edit), so a caller can mark it handled. A malformed line is counted and skipped,
never more. A message longer than MESSAGE_LIMIT characters is cut there, with a note. Naive timestamps are UTC.
Who said a message comes from what OpenClaw put around it — the session's chat type, `senderIsOwner`, the first
metadata block of each kind — never from words inside the message.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Iterable

from ..errors import HippocampusError
from . import echoes
from .linereader import Line
from ..timeutil import iso, parse_instant

MESSAGE_LIMIT = 16_000  # characters of one message that are kept; the rest is cut, with CUT_NOTE
CUT_NOTE = " [… the rest of this very long message was not kept]"


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
    redacted: int | None = None  # the redaction rules (redaction.RULES) preprocess redacted `text` under

    @property
    def key(self) -> tuple[str, str]:
        return self.session, self.id

    @property
    def source(self) -> dict:
        return {"session": self.session, "message": self.id, "ts": self.timestamp}

    def to_dict(self) -> dict:
        out = {
            "seq": self.seq,
            "id": self.id,
            "session": self.session,
            "timestamp": self.timestamp,
            "role": self.role,
            "text": self.text,
        }
        for name in ("local", "sender", "trust", "redacted"):
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
        rules = raw.get("redacted")
        return cls(
            seq=seq,
            id=raw["id"],
            session=raw["session"],
            timestamp=raw["timestamp"],
            role=raw["role"],
            text=raw["text"],
            **optional,
            redacted=rules if type(rules) is int else None,
        )


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
    redacted: int | None = None  # as Signal.redacted

    @property
    def key(self) -> tuple[str, str]:
        return self.session, self.id

    @property
    def timestamp(self) -> str:
        return iso(self.when)

    def signal(self, seq: int) -> Signal:
        return Signal(
            seq=seq,
            id=self.id,
            session=self.session,
            timestamp=self.timestamp,
            role=self.role,
            text=self.text,
            local=self.local,
            sender=self.sender,
            trust=self.trust,
            redacted=self.redacted,
        )


@dataclass
class SessionRead:
    """What one session gave: its messages in file order and what had to be skipped."""

    session: str
    where: str
    messages: list[Message] = field(default_factory=list)
    malformed: int = 0  # lines that are not JSON objects, or entries of a shape we cannot read
    incomplete: int = 0  # a last line still being written (read again next time)
    undecodable: int = 0  # rows stored compressed that could not be decoded (read again next time)
    cut: int = 0  # messages longer than MESSAGE_LIMIT, kept cut


@dataclass(frozen=True)
class SessionInfo:
    """What OpenClaw recorded about a session beside its transcript: its key, and whether it is a group chat."""

    key: str | None = None
    group: bool = False


@dataclass
class Owner:
    """Who the agent's owner is, when the installer recorded it: sender ids, usernames or names."""

    names: frozenset[str] = frozenset()

    def includes(self, sender: dict) -> bool:
        values = {
            str(sender.get(k)).strip().lower().lstrip("@")
            for k in ("id", "username", "name", "e164", "label")
            if sender.get(k) not in (None, "")
        }
        return bool(values & self.names)


# --- cleaning (pure) ------------------------------------------------------------------------------------------

_ENVELOPE = re.compile(
    r"\A\s*([A-Za-z][A-Za-z ]{0,40}?) \(untrusted metadata\):[ \t]*\n```[a-z]*[ \t]*\n(.*?)\n```[ \t]*"
    r"(?:\n|\Z)",
    re.DOTALL,
)
_STAMP = re.compile(
    r"\A\s*\[(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]* )?(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2}(?::\d{2})?)"
    r"(?: ?(?:GMT|UTC)?([+-]\d{1,2}(?::?\d{2})?)?(?: ?[A-Za-z]{2,5})?)?\][ \t]*"
)
_CHANNEL = re.compile(
    r"\A\s*\[(?:Telegram|WhatsApp|Discord|Signal|Slack|iMessage|Matrix|Teams|Google ?Chat|Messenger"
    r"|LINE|Zalo|Mattermost|WebChat|SMS|Email)\b([^\]\n]*)\][ \t]*",
    re.IGNORECASE,
)
_MESSAGE_ID = re.compile(r"[ \t]*\[message_id:[^\]\n]*\]")
_FILE = re.compile(r"<file\b[^>]*?(?:/>|>.*?</file>)", re.DOTALL)
_MEDIA = re.compile(r"<media:[^>\n]*>")
_REPLY_TAG = re.compile(r"\[\[\s*(?:reply_to_current|reply_to\s*:[^\]\n]*|audio_as_voice)\s*\]\]")
_REPLYING = re.compile(r"\[Replying to[^\]\n]*\].*?\[/Replying\]", re.DOTALL)
_SYSTEM_LINE = re.compile(r"\ASystem: \[[^\n]*(?:\n|\Z)")
_HEARTBEAT = re.compile(r"\ARead HEARTBEAT\.md\b|\breply HEARTBEAT_OK\b")
_CRON_PROMPT = re.compile(r"\A\s*\[cron:[^\]\n]*\]")
# Two or more spaces or tabs after a visible character: `(?<=\S)[ \t]{2,}`, written to start with the space it takes
# so the regex engine passes over other characters quickly.
_SPACES = re.compile(r"[ \t](?<=\S[ \t])[ \t]+")
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
    titles: set[str] = set()
    while True:
        match = _ENVELOPE.match(text)
        if not match:
            break
        title = match.group(1).strip().lower()
        if title in titles:
            break  # OpenClaw writes each block once, first: a second one of a kind is the sender's own words
        titles.add(title)
        try:
            block = json.loads(match.group(2))
        except (json.JSONDecodeError, RecursionError):
            block = None
        if isinstance(block, dict):
            meta.append({**block, "_title": title})
        text = text[match.end() :]
    while _SYSTEM_LINE.match(text.lstrip("\n")):
        text = _SYSTEM_LINE.sub("", text.lstrip("\n"), count=1)
    local = None
    channel = None
    for _ in range(3):  # stamp and channel tag come in either order
        stamp = _STAMP.match(text)
        if stamp:
            local = _local_time(stamp)
            text = text[stamp.end() :]
            continue
        tag = _CHANNEL.match(text)
        if tag:
            channel = tag.group(0).strip()
            text = text[tag.end() :]
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
    if "[message_id:" in text:
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


def sender_and_trust(
    meta: Iterable[dict], channel: str | None, info: SessionInfo, owner: Owner | None, is_owner: bool | None = None
) -> tuple[str | None, str | None]:
    """Who sent a user turn and whether it can be trusted as the owner's word (None = trusted).

    Untrusted: anything said in a group chat (by the session's record, its key, or the metadata OpenClaw put before
    the text), a turn OpenClaw marked `senderIsOwner: false`, and — where OpenClaw did not say — a sender other than
    the owners recorded by the installer."""
    sender: dict = {}
    group = info.group or is_group_key(info.key)
    for block in meta:
        if block.get("_title", "").startswith("sender") and not sender:
            sender = block
        if is_group_entry(block):
            group = True
    if channel and re.search(r"\bgroup\b|id:-\d", channel, re.IGNORECASE):
        group = True
    name = None
    for key in ("name", "username", "id", "e164"):
        value = sender.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            name = str(value).strip()
            break
    if is_owner is None:
        stranger = bool(owner and owner.names and sender and not owner.includes(sender))
    else:
        stranger = not is_owner
    return name, ("untrusted" if group or stranger else None)


def is_group_entry(block: dict) -> bool:
    """Whether a session record or a metadata block says group chat (chat type, group ids or subject, label)."""
    for key in ("chat_type", "chatType", "conversation_type", "type"):
        value = block.get(key)
        if isinstance(value, str) and value.lower() in _GROUP_TYPES:
            return True
    if any(block.get(k) is True for k in ("is_group_chat", "isGroup", "is_group", "isGroupChat")):
        return True
    if any(
        block.get(k) not in (None, "")
        for k in ("group_subject", "group_id", "groupId", "group_channel", "groupSubject")
    ):
        return True
    label = block.get("label") or block.get("conversation_label")
    return isinstance(label, str) and bool(re.search(r"\bgroup\b", label, re.IGNORECASE))


def is_group_key(session_key: str | None) -> bool:
    """Session keys of group chats and channels: `agent:main:telegram:group:-100…`."""
    parts = (session_key or "").lower().split(":")
    return "group" in parts or "channel" in parts


def is_cron_key(session_key: str | None) -> bool:
    """Session keys of cron runs: `cron:<id>` or `agent:<id>:cron:<job>` (this skill's own runs among them)."""
    parts = (session_key or "").lower().split(":")
    return "cron" in parts


# --- parsing (pure) -------------------------------------------------------------------------------------------


def parse_lines(
    lines: Iterable[tuple[int, str | None]],
    fallback_session: str,
    where: str,
    session_key: str | None = None,
    owner: Owner | None = None,
    ended: bool = True,
    fallback_time: datetime | None = None,
    group: bool = False,
) -> SessionRead:
    """Parse one session from (line number, text) pairs; text None is a row that could not be decoded.

    `ended` False means the source may still be growing: a bad last line is incomplete, not malformed.
    """
    items = list(lines)
    wrapped = [
        None
        if text is None
        else Line(number, text.encode("utf-8", "surrogatepass"), ended or position < len(items) - 1)
        for position, (number, text) in enumerate(items)
    ]
    return parse(wrapped, fallback_session, where, SessionInfo(session_key, group), owner, fallback_time)


def parse(
    lines: Iterable[Line | None],
    fallback_session: str,
    where: str,
    info: SessionInfo | None = None,
    owner: Owner | None = None,
    fallback_time: datetime | None = None,
) -> SessionRead:
    """Parse one session from its lines, streamed (None: a row that could not be decoded)."""
    parser = _SessionParser(fallback_session, where, info or SessionInfo(), owner, fallback_time)
    for line in lines:
        parser.feed(line)
    return parser.finish()


class _SessionParser:
    """The state of one session read line by line: its tree of entries and what each user turn was."""

    def __init__(
        self, fallback_session: str, where: str, info: SessionInfo, owner: Owner | None, fallback_time: datetime | None
    ):
        self.read = SessionRead(session=fallback_session, where=where)
        self.info = info
        self.owner = owner
        self.fallback_time = fallback_time
        self.last_time: datetime | None = None
        self.header_seen = False
        self.cron_session = is_cron_key(info.key)
        self.turn_noise: dict[str, str | None] = {}  # message id → noise reason of the user turn it is
        self.parents: dict[str, str | None] = {}
        self.last_user_noise: str | None = None
        self.last_user: tuple[int, str | None, bool] | None = None  # hash of its text, parentId, answered
        self.said: set[tuple[str | None, int]] = set()  # (parentId, hash of text) of user turns: a re-sent one
        self.first_user = True

    def feed(self, line: Line | None) -> None:
        read = self.read
        if line is None:
            read.undecodable += 1
            return
        if not line.data.strip():
            return
        try:
            entry = json.loads(line.data.decode("utf-8", errors="replace"))
        except (json.JSONDecodeError, RecursionError):  # deep nesting is as unreadable as a torn line
            if line.ended:
                read.malformed += 1
            else:
                read.incomplete += 1
            return
        if not isinstance(entry, dict):
            read.malformed += 1
            return
        if entry.get("type") == "session" and not self.header_seen:
            self.header_seen = True
            if isinstance(entry.get("id"), str) and entry["id"].strip():
                read.session = entry["id"].strip()
            self.last_time = parse_instant(entry.get("timestamp"))
        entry_id = entry.get("id") if isinstance(entry.get("id"), str) and entry.get("id") else None
        parent = entry.get("parentId") if isinstance(entry.get("parentId"), str) else None
        if entry_id:
            self.parents[entry_id] = parent
        if entry.get("type") == "message":
            self._message(entry, entry_id, parent, line)

    def _message(self, entry: dict, entry_id: str | None, parent: str | None, line: Line) -> None:
        read = self.read
        message = entry.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            read.malformed += 1
            return
        message_id = entry_id or "h" + hashlib.sha1(line.data).hexdigest()[:12]
        when = (
            parse_instant(entry.get("timestamp"))
            or parse_instant(message.get("timestamp"))
            or self.last_time
            or self.fallback_time
            or datetime(1970, 1, 1, tzinfo=timezone.utc)
        )
        self.last_time = when
        role = message["role"]
        content = echoes.strip_content(message.get("content"))  # what it repeats of a memory listing is not news
        if role == "user":
            raw = _text_blocks(content)
            if raw is None:
                read.malformed += 1
                return
            cleaned = clean_user_text(raw)
            sender, trust = sender_and_trust(
                cleaned.meta, cleaned.channel, self.info, self.owner, _sender_is_owner(message)
            )
            text = self._bounded(cleaned.text, line)
            noise = _system_noise(message)
            if noise is None and "HEARTBEAT" in text and _HEARTBEAT.search(text):
                noise = "heartbeat"
            elif noise is None and (_CRON_PROMPT.match(raw) or _CRON_PROMPT.match(text)):
                noise = "cron"
            elif noise is None and not text:
                noise = "empty"
            elif noise is None and (
                (parent, hash(text)) in self.said
                or (self.last_user and self.last_user[0] == hash(text) and not self.last_user[2])
            ):
                noise = "retry"
            if noise == "cron" and self.first_user:
                self.cron_session = True  # an isolated cron run: its replies are the job's, not a conversation
            self.first_user = False
            if self.cron_session:
                noise = "cron"
            self.said.add((parent, hash(text)))
            self.last_user = (hash(text), parent, False)
            self.last_user_noise = noise
            if entry_id:
                self.turn_noise[entry_id] = noise
            read.messages.append(
                Message(read.session, message_id, when, "user", text, noise, cleaned.local, sender, trust)
            )
        elif role == "assistant":
            raw = _text_blocks(content, assistant=True)
            if raw is None:
                read.malformed += 1
                return
            text = self._bounded(clean_reply_text(raw), line)
            answered = _turn_noise(entry_id, self.parents, self.turn_noise, self.last_user_noise)
            noise = None
            if message.get("stopReason") == "error":
                noise = "failed"
            elif self.cron_session:
                noise = "cron"
            elif answered in ("heartbeat", "cron", "system"):
                noise = answered
            elif not text:
                noise = "tool" if _has_tool_call(content) else "empty"
            elif text.strip() in _NOISE_REPLIES:
                noise = "no-reply"
            if noise is None and self.last_user is not None:
                self.last_user = (self.last_user[0], self.last_user[1], True)
            read.messages.append(Message(read.session, message_id, when, "assistant", text, noise))
        else:
            # toolResult and any role this version does not know: tool output is never a memory.
            read.messages.append(Message(read.session, message_id, when, role, "", "tool"))

    def _bounded(self, text: str, line: Line) -> str:
        if len(text) > MESSAGE_LIMIT or (line.cut and text):
            self.read.cut += 1
            return text[:MESSAGE_LIMIT].rstrip() + CUT_NOTE
        return text

    def finish(self) -> SessionRead:
        _mark_abandoned(self.read, self.parents)
        return self.read


def _sender_is_owner(message: dict) -> bool | None:
    """OpenClaw's own word on who sent a user turn (2026.9 and later): `__openclaw.senderIsOwner`."""
    marks = message.get("__openclaw")
    value = marks.get("senderIsOwner") if isinstance(marks, dict) else None
    return value if isinstance(value, bool) else None


def _system_noise(message: dict) -> str | None:
    """A turn OpenClaw wrote itself (provenance kind `internal_system`): a heartbeat poll, a cron run, or another
    system turn. Never a memory, whatever it says."""
    provenance = message.get("provenance")
    if not isinstance(provenance, dict) or provenance.get("kind") != "internal_system":
        return None
    tool = provenance.get("sourceTool")
    return tool if tool in ("heartbeat", "cron") else "system"


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
        elif (
            isinstance(block, dict)
            and block.get("type") in ("text", "input_text", "output_text")
            and isinstance(block.get("text"), str)
        ):
            parts.append(block["text"])
    return "\n\n".join(p.strip() for p in parts if p.strip())


def _has_tool_call(content: Any) -> bool:
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") in ("toolCall", "tool_use") for b in content
    )
