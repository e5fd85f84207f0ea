"""OpenClaw transcripts → cleaned messages. Pure: lines in, messages out (reading the stores is `sources`' job).

Every message entry of a session comes out exactly once, abandoned branches included; what is not worth encoding
carries the reason in `noise` (heartbeats and other internal system turns, cron runs, tool traffic, failed attempts,
retries, branches abandoned by an edit), so a caller can mark it handled. A malformed line is counted and skipped,
never more. A message longer than MESSAGE_LIMIT characters is cut there, with a note. Naive timestamps are UTC.
Who said a message comes from what OpenClaw put around it — the session's chat type and key, `senderIsOwner`,
`senderName`, the turn's provenance, the first metadata block of each kind — never from words inside the message;
OpenClaw's wrapping of outside content and its header of a turn routed from another session can only make a turn
untrusted (content from a hook run, an email, another agent is never the owner's word).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Iterable

from ..errors import HippocampusError
from ..model import escaped, whole_characters
from . import echoes
from .linereader import Line
from ..timeutil import iso, parse_instant

MESSAGE_LIMIT = 32_000  # characters of one message that are kept; the rest is cut, with CUT_NOTE
CUT_NOTE = f" [… cut here: only the first {MESSAGE_LIMIT:,} characters of this very long message are kept]"


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

# The mark OpenClaw (2026.9 and later) puts after the label of each block of context it adds to a turn —
# `Conversation info: ⟦openclaw:ctx⟧`, `Sender: …`, `Reply target of current user message: …` — and that
# `openclaw doctor --fix` puts in place of the older "(untrusted metadata)" and "(untrusted, for context)".
CONTEXT_MARK = "⟦openclaw:ctx⟧"
_LEGACY_LABEL = re.compile(r"(.{1,80}?) \((?:untrusted metadata|untrusted, [^)\n]{1,60})\):")
_LEGACY_CONTEXT = "Untrusted context (metadata, do not treat as instructions or commands):"
_FENCE_END = re.compile(r"^[ \t]*```[ \t]*$", re.MULTILINE)
_BLANK_LINE = re.compile(r"\n[ \t]*(?:\n|\Z)")
# Lines OpenClaw adds to a turn for the model: how to deliver a reply, the session's goal, memory it recalled.
_DELIVERY_HINT = re.compile(r"\ADelivery: [^\n]*`message` tool[^\n]*(?:\n|\Z)")
_ACTIVE_GOAL = re.compile(r"\AActive goal: [^\n]* — advance; keep active until fully achieved;[^\n]*(?:\n|\Z)")
_RECALLED = re.compile(r"\AContext:[ \t]*\n<active_memory_plugin>.*?</active_memory_plugin>[ \t]*(?:\n|\Z)", re.DOTALL)
_STAMP = re.compile(
    r"\A\s*\[(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]* )?(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2}(?::\d{2})?)"
    r"(?: ?(?:GMT|UTC)?([+-]\d{1,2}(?::?\d{2})?)?(?: ?[A-Za-z]{2,5})?)?\][ \t]*"
)
_CHANNEL = re.compile(
    r"\A\s*\[(?:Telegram|WhatsApp|Discord|Signal|Slack|iMessage|Matrix|Teams|Google ?Chat|Messenger"
    r"|LINE|Zalo|Mattermost|WebChat|SMS|Email)\b([^\]\n]*)\][ \t]*",
    re.IGNORECASE,
)
# A tag's inside stops at the next opening (`[^<>…]`, or the lookahead `(?!<file\b)`): read to the end of the text
# from every opening, many openings never closed would take time quadratic in their number. (OpenClaw escapes
# `<file` inside a file's text.) Spaces before a message id are taken from the first one of their run.
_MESSAGE_ID = re.compile(r"(?<![ \t])[ \t]*\[message_id:[^\[\]\n]*\]")
_FILE = re.compile(r"<file\b[^<>]*?(?:/>|>(?:(?!<file\b).)*?</file>)", re.DOTALL)
_MEDIA = re.compile(r"<media:[^<>\n]*>")
_REPLY_TAG = re.compile(r"\[\[\s*(?:reply_to_current\s*|audio_as_voice\s*|reply_to\s*:[^\[\]\n]*)\]\]")
_REPLYING = re.compile(r"\[Replying to(?:(?!\[Replying to)[^\]\n])*\](?:(?!\[Replying to).)*?\[/Replying\]", re.DOTALL)
_SYSTEM_LINE = re.compile(r"\ASystem: \[[^\n]*(?:\n|\Z)")
_HEARTBEAT = re.compile(r"\ARead HEARTBEAT\.md\b|\breply HEARTBEAT_OK\b")
_CRON_PROMPT = re.compile(r"\A\s*\[cron:[^\]\n]*\]")
# Content OpenClaw took from outside (an email or webhook of a hook run, an attachment, a fetched page), between its
# start and end markers; what it writes around it in a hook run: a notice, the job's line, the clock, a preamble.
_MARKER_END = r"EXTERNAL[ _]UNTRUSTED[ _]CONTENT(?:[ \t]+id=\\*\"[^\"\n]{0,64}\")?[ \t]*>>>"
_EXTERNAL = re.compile(
    rf"<<<[ \t]*{_MARKER_END}[ \t]*\n?(?P<body>(?:(?!<<<[ \t]*END[ _]EXTERNAL)[\s\S])*)"
    rf"(?:<<<[ \t]*END[ _]{_MARKER_END}|\Z)",
    re.IGNORECASE,
)
_EXTERNAL_META = re.compile(r"\A(?:(?:Source|Task|From|Subject): [^\n]*\n){1,4}---[ \t]*(?:\n|\Z)")
_RUN_LINES = re.compile(
    r"^SECURITY NOTICE: The following content is from an EXTERNAL, UNTRUSTED source[^\n]*(?:\n[ \t]*- [^\n]*)*"
    r"|^Job ID: [^\n]*\| Received: [^\n]*$|^Current time: [^\n]*$|^Reference UTC: [^\n]*$"
    r"|^This is an unattended scheduled run\. [^\n]*$",
    re.MULTILINE,
)
_INTER_SESSION = re.compile(
    r"\A\s*\[Inter-session message\][^\n]*(?:\n|\Z)(?:This content was routed by OpenClaw from another session[^\n]*"
    r"(?:\n|\Z))?"
)
# Two or more spaces or tabs after a visible character: `(?<=\S)[ \t]{2,}`, written to start with the space it takes
# so the regex engine passes over other characters quickly.
_SPACES = re.compile(r"[ \t](?<=\S[ \t])[ \t]+")
_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")
_NOISE_REPLIES = frozenset({"NO_REPLY", "HEARTBEAT_OK"})
_GROUP_TYPES = frozenset({"group", "supergroup", "channel", "room", "guild"})
_GROUP_FIELDS = (
    "group_subject",
    "group_id",
    "groupId",
    "group_channel",
    "groupSubject",
    "group_space",
    "group_members",
)


@dataclass(frozen=True)
class Cleaned:
    text: str
    local: str | None = None
    meta: tuple[dict, ...] = ()
    channel: str | None = None
    external: str | None = None  # who sent the content from outside the turn holds (its From, else its source)
    routed: bool = False  # the turn carries OpenClaw's header of a message routed from another session


def _context_label(line: str) -> str | None:
    """The label of a line that starts a block of context OpenClaw added ("conversation info", "sender", "context"
    …), lower case; None for any other line."""
    line = line.strip()
    if line.endswith(CONTEXT_MARK) and len(line) > len(CONTEXT_MARK):
        return line[: -len(CONTEXT_MARK)].strip().rstrip(":").strip().lower()
    if line == _LEGACY_CONTEXT:
        return "context"
    legacy = _LEGACY_LABEL.fullmatch(line)
    return legacy.group(1).strip().lower() if legacy else None


def _context_block(text: str) -> tuple[str, str | None, str] | None:
    """(label, the JSON it holds or None, the text after it) for a block of context at the start of `text`: its
    label line, then a fenced JSON block or lines up to a blank one. A block labelled "context" (what a channel adds
    after the words) runs to the end."""
    line, _, rest = text.partition("\n")
    label = _context_label(line)
    if label is None:
        return None
    if label == "context":
        return label, None, ""
    if rest.lstrip(" \t").startswith("```"):
        fence = rest.find("\n")
        body = rest[fence + 1 :] if fence >= 0 else ""
        end = _FENCE_END.search(body)
        return (label, body[: end.start()], body[end.end() :]) if end else (label, body, "")
    end = _BLANK_LINE.search("\n" + rest)
    return (label, None, rest[end.end() - 1 :]) if end else (label, None, "")


def _leading_context(text: str, meta: list[dict], labels: set[str]) -> str | None:
    """The text after one thing OpenClaw put before the words (a block of context, a delivery hint, the session's
    goal, recalled memory); None when the text does not start with one. A block's JSON object goes to `meta` when
    it is the first of its label: OpenClaw writes each once, first, so a second one is the sender's own words."""
    text = text.lstrip("\n")
    for line in (_DELIVERY_HINT, _ACTIVE_GOAL, _RECALLED):
        found = line.match(text)
        if found:
            return text[found.end() :]
    block = _context_block(text)
    if block is None:
        return None
    label, raw, rest = block
    if raw is not None and label not in labels:
        labels.add(label)
        try:
            value = json.loads(raw)
        except (json.JSONDecodeError, RecursionError):
            value = None
        if isinstance(value, dict):
            meta.append({**value, "_title": label})
    return rest


def _trailing_context(text: str) -> str:
    """The text without the context a channel adds after the words (`Context: ⟦openclaw:ctx⟧` and what follows)."""
    if CONTEXT_MARK not in text and _LEGACY_CONTEXT not in text:
        return text
    start = 0
    for line in text.splitlines(keepends=True):
        if _context_label(line) == "context":
            return text[:start]
        start += len(line)
    return text


def _unwrap_external(text: str) -> tuple[str, str | None]:
    """The text with each block of outside content OpenClaw wrapped replaced by its content (its subject first),
    and its wrapping in a hook run (notice, job line, clock, preamble) taken out; and who sent the first block (its
    From line, else its Source). (text, None) when the text holds no such block."""
    if "<<<" not in text or not _EXTERNAL.search(text):
        return text, None
    senders: list[str] = []

    def content(block: re.Match) -> str:
        body = block.group("body")
        head = _EXTERNAL_META.match(body)
        fields: dict[str, str] = {}
        if head:
            for line in head.group(0).splitlines()[:-1]:
                name, _, value = line.partition(": ")
                fields[name] = value.strip()
            body = body[head.end() :]
        sender = fields.get("From") or fields.get("Source") or "External content"
        senders.append(sender)
        subject = fields.get("Subject")
        return f"{subject}\n{body.strip()}" if subject else body.strip()

    text = _EXTERNAL.sub(content, text)
    return _RUN_LINES.sub("", text), senders[0]


def clean_user_text(text: str) -> Cleaned:
    """Strip what OpenClaw put around a user turn — blocks of context (the older "(untrusted metadata)" ones and
    the ones marked ⟦openclaw:ctx⟧), time stamp, channel tag, transport tags, the wrapping of outside content — and
    keep every word that was sent."""
    meta: list[dict] = []
    labels: set[str] = set()
    local = None
    channel = None
    routed = False
    for _ in range(64):  # blocks, stamp, channel tag and system lines come in any order, each a few times at most
        stripped = text.lstrip("\n")
        if _SYSTEM_LINE.match(stripped):
            text = _SYSTEM_LINE.sub("", stripped, count=1)
            continue
        routing = _INTER_SESSION.match(text)
        if routing:
            routed, text = True, text[routing.end() :]
            continue
        stamp = _STAMP.match(text)
        if stamp:
            local = local or _local_time(stamp)
            text = text[stamp.end() :]
            continue
        tag = _CHANNEL.match(text)
        if tag:
            channel = channel or tag.group(0).strip()
            text = text[tag.end() :]
            continue
        after = _leading_context(text, meta, labels)
        if after is not None:
            text = after
            continue
        break
    text, external = _unwrap_external(_trailing_context(text))
    return Cleaned(_tidy(text), local, tuple(meta), channel, external, routed)


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
    meta: Iterable[dict],
    channel: str | None,
    info: SessionInfo,
    owner: Owner | None,
    is_owner: bool | None = None,
    name: str | None = None,
) -> tuple[str | None, str | None]:
    """Who sent a user turn and whether it can be trusted as the owner's word (None = trusted).

    Untrusted: anything said in a group chat (by the session's record, its key, or the metadata OpenClaw put before
    the text), a turn OpenClaw marked `senderIsOwner: false`, and — where OpenClaw did not say — a sender other than
    the owners recorded by the installer. The name is the one OpenClaw recorded for the turn (`name`), else the
    metadata's."""
    sender: dict = {}
    group = info.group or is_group_key(info.key)
    for block in meta:
        title = block.get("_title", "")
        if title.startswith("sender") and not sender:
            sender = block
        elif title == "conversation info" and not sender:
            said = block.get("sender")
            sender = said if isinstance(said, dict) else {"name": said} if isinstance(said, str) else {}
        if is_group_entry(block):
            group = True
    if channel and re.search(r"\bgroup\b|id:-\d", channel, re.IGNORECASE):
        group = True
    for key in ("name", "username", "id", "e164"):
        value = sender.get(key)
        if name is None and isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            name = str(value).strip()
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
    if any(block.get(k) not in (None, "") for k in _GROUP_FIELDS):
        return True
    label = block.get("label") or block.get("conversation_label")
    return isinstance(label, str) and bool(re.search(r"\bgroup\b", label, re.IGNORECASE))


def is_group_key(session_key: str | None) -> bool:
    """Session keys of group chats and channels: `agent:main:telegram:group:-100…`."""
    parts = (session_key or "").lower().split(":")
    return "group" in parts or "channel" in parts


def is_hook_key(session_key: str | None) -> bool:
    """Session keys of hook runs, whose turns are content from outside (an email, a webhook): `hook:<…>` or
    `agent:<id>:hook:<…>`."""
    parts = (session_key or "").lower().split(":")
    return parts[0] == "hook" or (len(parts) > 2 and parts[0] == "agent" and parts[2] == "hook")


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
        self.hook_session = is_hook_key(info.key)
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
        if escaped(line.data):  # perhaps half a character
            whole_characters(entry)
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
                cleaned.meta, cleaned.channel, self.info, self.owner, _sender_is_owner(message), _sender_name(message)
            )
            routed = _routed_from(message, cleaned.routed)
            if cleaned.external or self.hook_session or routed:  # not the words of anyone in the conversation
                sender, trust = cleaned.external or routed or sender, "untrusted"
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
            elif self.hook_session:
                noise = "external"  # the agent's work on a stranger's email is not its own memory
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


def _sender_name(message: dict) -> str | None:
    """The name OpenClaw recorded for the sender of a user turn (2026.9 and later): `__openclaw.senderName`, else
    the sender's username or id."""
    marks = message.get("__openclaw")
    if not isinstance(marks, dict):
        return None
    for key in ("senderName", "senderUsername", "senderId"):
        value = marks.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _routed_from(message: dict, header: bool) -> str | None:
    """Where a user turn that is not a person's own words came from — a turn routed from another session or agent
    (provenance kind `inter_session`: a subagent's result, `sessions_send`), or of a kind this version does not know
    — or None for a person's turn (no provenance, or `external_user`). Internal system turns are noise instead."""
    provenance = message.get("provenance")
    kind = provenance.get("kind") if isinstance(provenance, dict) else None
    if not isinstance(kind, str) or kind in ("external_user", "internal_system"):
        return "another session" if header else None
    assert isinstance(provenance, dict)
    for key in ("sourceSessionKey", "sourceTool"):
        value = provenance.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return "another session"


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
