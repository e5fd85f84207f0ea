"""Memory and Index values, their dict form on disk, and the tiers. No I/O here."""

from __future__ import annotations

import json
import re
from collections.abc import MutableMapping
from datetime import date, datetime
from typing import Any, NamedTuple

from .errors import HippocampusError
from .timeutil import parse_instant

SCHEMA_VERSION = 2
DOMAINS = ("user", "self", "relationship", "world")
DOMAIN_TITLES = {
    "user": "About the user",
    "relationship": "Our Relationship",
    "self": "About Me",
    "world": "World Knowledge",
}

DEFAULT_IMPORTANCE = 0.5  # of a memory stored without one
# One threshold per tier, used everywhere (the old skill had 0.7 in one place and 0.75 in another).
CORE_THRESHOLD = 0.7
ACTIVE_THRESHOLD = 0.4
BACKGROUND_THRESHOLD = 0.2
# A stranger's words (`trust: untrusted`) never reach the core memories, however often they are repeated.
UNTRUSTED_CEILING = 0.6
# The largest count or id number stored: the largest whole number JSON readers (and the dashboard's JavaScript) and
# SQLite both hold exactly.
COUNT_LIMIT = 2**53 - 1

# How index.json's JSON is written (a memory, one line; store.indexfile writes the file around them) and read.
ENCODE = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
DECODE = json.JSONDecoder().raw_decode
_HALF = re.compile("[\ud800-\udfff]")


def whole_characters(value: Any) -> Any:
    """A parsed JSON value with each half of a surrogate pair in its strings (keys too) as U+FFFD, the replacement
    character: JSON may hold one as an escape — JavaScript's strings may, when a text is cut in the middle of an
    emoji — and no UTF-8 text can. Lists and objects are changed in place."""
    if type(value) is str:
        return value if value.isascii() else _HALF.sub("\ufffd", value)
    if type(value) is list:
        for i, item in enumerate(value):
            value[i] = whole_characters(item)
    elif type(value) is dict:
        for key, item in list(value.items()):
            whole = whole_characters(key)
            if whole != key:
                del value[key]
            value[whole] = whole_characters(item)
    return value


def escaped(text: str | bytes) -> bool:
    """Whether JSON `text` holds an escape (`\\u…`): only an escape gives a string half of a surrogate pair (no UTF-8
    text holds one), so a value parsed from text without one is made of whole characters already."""
    if isinstance(text, bytes):
        return b"\\u" in text
    return "\\u" in text


ID_PREFIX = "mem_"  # every id this version gives is the prefix and a number
_ID_RE = re.compile(rf"^{ID_PREFIX}(\d+)$")

# Keys the model reads and writes itself; any other key of a memory is carried through untouched.
_KNOWN = (
    "id",
    "domain",
    "category",
    "content",
    "importance",
    "created",
    "lastAccessed",
    "timesReinforced",
    "keywords",
    "sources",
    "decay",
    "history",
)
# Lists a memory leaves out of its stored form when they are empty.
_DROPPED_WHEN_EMPTY = ("sources", "history", "episode", "dates")


class Change(NamedTuple):
    """A value a memory held before it changed: its words, when they were said (None when not known) and when a
    newer value replaced them (ISO times)."""

    content: str
    since: str | None
    until: str


class Dated(NamedTuple):
    """Days a memory's words refer to: the first and the last (inclusive), and the words."""

    first: date
    last: date
    words: str


def _iso_day(value: Any) -> date | None:
    if type(value) is not str or len(value) != 10:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def tier(importance: float) -> str:
    """core (≥ 0.70), active (≥ 0.40), background (≥ 0.20) or archive (below)."""
    if importance >= CORE_THRESHOLD:
        return "core"
    if importance >= ACTIVE_THRESHOLD:
        return "active"
    if importance >= BACKGROUND_THRESHOLD:
        return "background"
    return "archive"


def id_number(memory_id: str) -> int | None:
    """The number in `mem_NNN`, or None for an id of another shape."""
    match = _ID_RE.match(memory_id)
    return int(match.group(1)) if match else None


def format_id(number: int) -> str:
    return f"{ID_PREFIX}{number:03d}"


def positive_whole(value: Any) -> int:
    """A stored whole number above 0 as itself; anything else (missing, a boolean, a float, text) as 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


class _Extra(MutableMapping):
    """The keys of a memory that this version does not model itself (pinned, kind, trust, a sibling's own…)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: dict):
        self._raw = raw

    def __getitem__(self, key):
        if key in _KNOWN:
            raise KeyError(key)
        return self._raw[key]

    def __setitem__(self, key, value):
        if key in _KNOWN:
            raise KeyError(f"{key} is a field of Memory, not an extra")
        self._raw[key] = value

    def __delitem__(self, key):
        if key in _KNOWN:
            raise KeyError(key)
        del self._raw[key]

    def __iter__(self):
        return (k for k in self._raw if k not in _KNOWN)

    def __len__(self):
        return sum(1 for _ in self)

    def __repr__(self):
        return repr(dict(self))


def _field(name: str, default=None):
    def get(self):
        raw = self._raw
        value = (self.raw if raw is None else raw).get(name)
        return default if value is None else value  # a hand-written null reads as the field left out

    def set(self, value):
        self.raw[name] = value

    return property(get, set, doc=f"The memory's `{name}`.")


def _list_field(name: str):
    def get(self):
        value = self.raw.get(name)
        if value is None:
            value = self.raw[name] = []
        return value

    def set(self, value):
        self.raw[name] = value

    return property(get, set, doc=f"The memory's `{name}` (a list, created on first use).")


class Span:
    """Where a memory's stored JSON text is in a file held open (store.indexfile's `Held`, which raises its
    `changed()` error when the file is no longer the one read)."""

    __slots__ = ("source", "start", "end")

    def __init__(self, source: Any, start: int, end: int):
        self.source, self.start, self.end = source, start, end

    def read(self) -> bytes:
        return self.source.read(self.start, self.end)

    def decoded(self, memory_id: str) -> tuple[dict, bool]:
        """The stored object, which must be the memory `memory_id` (else the file was changed in place), and whether
        its text holds an escape (`escaped`)."""
        text = self.read().decode("utf-8")
        try:
            found = DECODE(text)[0]
        except ValueError:
            found = None
        if type(found) is not dict or found.get("id") != memory_id:
            raise self.source.changed()
        return found, escaped(text)


class Memory:
    """One memory: a validated view over its stored object, so every key a user or a sibling wrote is kept as it
    was.

    A memory read from index.json is held as where its stored JSON text is in the file, until something reads it
    (`from_text`, `Span`): a process reading a large store holds neither 100,000 parsed objects nor their text, and
    validates only the memories it reads. `settle` turns a memory read back into text, held as UTF-8 bytes (not
    `str`: a string holding one character beyond Latin-1 — an accent of Polish, a dash, an emoji — takes two or four
    bytes a character)."""

    __slots__ = ("_raw", "_text", "_where", "_id")
    _raw: dict[str, Any] | None  # the stored object once read
    _text: bytes | Span | None  # else its stored JSON text, UTF-8, or where to read it
    _where: str | None  # and where it was read, for error messages
    _id: str

    def __init__(
        self,
        id: str,
        content: str,
        domain: str = "user",
        category: str = "general",
        importance: float = DEFAULT_IMPORTANCE,
        created: str | None = None,
        lastAccessed: str | None = None,
        timesReinforced: int = 0,
        keywords: list | None = None,
        sources: list | None = None,
        decay: dict | None = None,
        history: list | None = None,
        extra: dict | None = None,
    ):
        raw: dict[str, Any] = {
            "id": id,
            "domain": domain,
            "category": category,
            "content": content,
            "importance": importance,
            "created": created,
            "lastAccessed": lastAccessed,
            "timesReinforced": timesReinforced,
            "keywords": list(keywords or []),
        }
        if sources:
            raw["sources"] = list(sources)
        if decay is not None:
            raw["decay"] = decay
        if history:
            raw["history"] = list(history)
        raw.update(extra or {})
        self._raw = {k: v for k, v in raw.items() if v is not None}
        self._text = self._where = None
        self._id = id

    @property
    def raw(self) -> dict:
        """The stored object, parsed (and validated, unless it is trusted: see `from_text`) the first time it is
        read."""
        raw = self._raw
        if raw is None:
            raw = self._read().raw
            self._raw, self._text, self._where = raw, None, None
        return raw

    def _decoded(self) -> tuple[Any, bool]:
        """Its stored object parsed, and whether its text holds an escape (`escaped`)."""
        text = self._text
        assert text is not None
        if isinstance(text, bytes):
            read = text.decode("utf-8")
            return DECODE(read)[0], escaped(read)
        return text.decoded(self._id)

    def _read(self) -> "Memory":
        found, escape = self._decoded()
        where = self._where
        return Memory.wrap(found) if where is None else Memory.from_dict(found, where, escape)

    @property
    def id(self) -> str:
        return self._id

    @id.setter
    def id(self, value: str) -> None:
        self.raw["id"] = self._id = value

    def encoded(self) -> bytes:
        """Its stored form, one line of JSON in UTF-8: the text read when nothing has read it since, else encoded
        now."""
        text = self._text
        if text is None:
            return ENCODE(self.stored()).encode("utf-8")
        return text if isinstance(text, bytes) else text.read()

    def peek(self) -> "Memory":
        """The memory to read once and let go: itself when parsed already, else a parsed copy (validated unless
        trusted), leaving it held as it was."""
        return self if self._raw is not None else self._read()

    def validated(self) -> tuple["Memory", bool]:
        """`peek`, validating a memory held as text, which is trusted from then on; and whether validating changed
        what it stores (a number written as text, a broken decay anchor dropped): it then holds the changed text,
        and the file must be saved again — or the text trusted would not be the one on disk."""
        if self._raw is not None or self._where is None:
            return self.peek(), False
        text, where = self._text, self._where
        assert text is not None and where is not None
        found, escape = self._decoded()
        before = ENCODE(found)  # its values however they were laid out, before validating changes any in place
        seen = Memory.from_dict(found, where, escape)
        now = ENCODE(seen.stored())
        renewed = now != before
        self._text, self._where = now.encode("utf-8") if renewed else text, None
        return seen, renewed

    def settle(self) -> None:
        """Hold the memory as its stored text again (a writer done with it, trusted: it was read validated); the
        next read parses it."""
        if self._raw is not None:
            self._text, self._where, self._raw = self.encoded(), None, None

    content = _field("content")
    domain = _field("domain", "user")
    category = _field("category", "general")
    importance = _field("importance", DEFAULT_IMPORTANCE)
    created = _field("created")
    lastAccessed = _field("lastAccessed")
    timesReinforced = _field("timesReinforced", 0)
    decay = _field("decay")
    keywords = _list_field("keywords")
    sources = _list_field("sources")
    history = _list_field("history")

    @property
    def extra(self) -> MutableMapping:
        return _Extra(self.raw)

    @property
    def pinned(self) -> bool:
        return self.raw.get("pinned") is True

    @property
    def superseded(self) -> bool:
        return bool(self.raw.get("supersededBy"))

    @property
    def archived(self) -> bool:
        return self.raw.get("archived") is True

    @property
    def untrusted(self) -> bool:
        return self.raw.get("trust") == "untrusted"

    @property
    def episode(self) -> list[dict]:
        """The turns attached to this memory (its episode): messages of its session that are no memory of their
        own, each `{"text", "role", "source"}` (plus `trust` and `sender` for a stranger's), oldest first."""
        value = self.raw.get("episode")
        if type(value) is not list:
            return []
        return [t for t in value if type(t) is dict and type(t.get("text")) is str and type(t.get("source")) is dict]

    @property
    def dates(self) -> list["Dated"]:
        """The days its messages refer to ("last Tuesday", "in May", "two weeks ago"), read when they were encoded:
        each stored `{"from", "to", "words"}` whose days are readable, in the order kept."""
        value = self.raw.get("dates")
        if type(value) is not list:
            return []
        out = []
        for entry in value:
            if type(entry) is not dict:
                continue
            first, last = _iso_day(entry.get("from")), _iso_day(entry.get("to"))
            if first is not None and last is not None and first <= last:
                words = entry.get("words")
                out.append(Dated(first, last, words if type(words) is str else ""))
        return out

    @property
    def changes(self) -> list["Change"]:
        """The values this memory said before its current one, oldest first: each corrected or updated content with
        when it was said and until when it held (not what it merged or superseded: those were memories of their
        own)."""
        out = []
        for entry in self.history:
            if type(entry) is not dict or not isinstance(entry.get("content"), str):
                continue
            if any(key in entry for key in ("merged", "supersedes", "restored")):
                continue
            until = entry.get("until") or entry.get("ts")  # earlier versions wrote only when it changed
            since = entry.get("from")
            if isinstance(until, str):
                out.append(Change(entry["content"], since if isinstance(since, str) else None, until))
        return out

    def content_on(self, moment: datetime) -> str | None:
        """What this memory said at `moment`: None when it was not yet made then, or had been superseded by then;
        else the value it held then (an earlier one from its `changes`, or its current content)."""
        made = parse_instant(self.created)
        if made is not None and made > moment:
            return None
        if self.superseded:
            replaced = parse_instant(self.raw.get("supersededOn"))
            if replaced is None or replaced <= moment:
                return None
        held = [(when, change) for change in self.changes if (when := parse_instant(change.until)) is not None]
        for when, change in sorted(held, key=lambda item: item[0]):
            if when > moment:
                since = parse_instant(change.since)
                return None if since is not None and since > moment else change.content
        return self.content

    def every_source(self) -> list[dict]:
        """Its own sources, then those of the turns attached to it: every message this memory holds."""
        return [s for s in self.sources if type(s) is dict] + [t["source"] for t in self.episode]

    def __repr__(self):
        return f"Memory({self.raw!r})"

    def __eq__(self, other):
        return isinstance(other, Memory) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # unhashable like any mutable value; typeshed calls it a method

    @classmethod
    def wrap(cls, raw: dict) -> "Memory":
        """A view over an object that was validated before (the search cache's copies)."""
        memory = cls.__new__(cls)
        memory._raw, memory._text, memory._where, memory._id = raw, None, None, raw.get("id") or ""
        return memory

    @classmethod
    def from_text(cls, text: bytes | Span, memory_id: str, where: str | None) -> "Memory":
        """A memory held as its stored JSON `text` (UTF-8: one object, id `memory_id`, checked by `check_id`) or
        where to read it, parsed and validated when first read; `where` names it in error messages then. None: a
        text a write validated or wrote, read without validating it again (see store.indexfile.load)."""
        memory = cls.__new__(cls)
        memory._raw, memory._text, memory._where, memory._id = None, text, where, memory_id
        return memory

    @staticmethod
    def check_id(raw: Any, where: str) -> str:
        """The id of a stored memory: `raw` must be an object with a string `id`."""
        if type(raw) is not dict:
            raise HippocampusError(f"{where}: a memory must be an object, not {type(raw).__name__}")
        memory_id = raw.get("id")
        if type(memory_id) is not str or not memory_id.strip():
            raise HippocampusError(f"{where}: the memory has no string `id`")
        return memory_id

    @classmethod
    def from_dict(cls, raw: Any, where: str, escape: bool = True) -> "Memory":
        """Validate one stored memory in place (half of a surrogate pair becomes U+FFFD — unless `escape` says the
        text it was parsed from holds no escape, see `escaped`; a numeric string importance becomes a number; an
        invalid decay anchor is dropped and re-derived); `where` names it in error messages."""
        memory_id = cls.check_id(raw, where)
        if escape:
            whole_characters(raw)
        if type(raw.get("content")) is not str:
            raise HippocampusError(f"{where} ({memory_id}): `content` must be a string")
        importance = raw.get("importance", DEFAULT_IMPORTANCE)
        if type(importance) is not float:
            importance = _number(importance)
            if importance is None:
                raise HippocampusError(
                    f"{where} ({memory_id}): `importance` must be a number from 0 to 1, not {raw.get('importance')!r}"
                )
            if "importance" in raw:
                raw["importance"] = importance
        if not 0.0 <= importance <= 1.0:  # also false for NaN
            raise HippocampusError(
                f"{where} ({memory_id}): `importance` must be a number from 0 to 1, not {importance!r}"
            )
        reinforced = raw.get("timesReinforced", 0)
        if type(reinforced) is float and reinforced.is_integer():
            reinforced = raw["timesReinforced"] = int(reinforced)
        if type(reinforced) is not int or not 0 <= reinforced <= COUNT_LIMIT:
            raise HippocampusError(
                f"{where} ({memory_id}): `timesReinforced` must be a whole number from 0 to "
                f"{COUNT_LIMIT}, not {raw.get('timesReinforced')!r}"
            )
        keywords = raw.get("keywords")
        if keywords is not None:
            if type(keywords) is not list:
                raise HippocampusError(f"{where} ({memory_id}): `keywords` must be a list")
            for i, keyword in enumerate(keywords):
                if type(keyword) is not str:
                    if isinstance(keyword, bool) or not isinstance(keyword, (int, float)):
                        raise HippocampusError(f"{where} ({memory_id}): `keywords` must be words, not {keyword!r}")
                    keywords[i] = str(keyword)
        for name in ("sources", "history", "episode", "dates"):
            value = raw.get(name)
            if value is not None and not (type(value) is list and all(type(v) is dict for v in value)):
                raise HippocampusError(f"{where} ({memory_id}): `{name}` must be a list of objects")
        for name in ("domain", "category", "created", "lastAccessed"):
            value = raw.get(name)
            if value is not None and type(value) is not str:
                raise HippocampusError(f"{where} ({memory_id}): `{name}` must be text, not {value!r}")
        decay = raw.get("decay")
        if decay is not None and not _valid_anchor(decay):
            del raw["decay"]  # a hand-edited anchor is re-derived from `importance`, never trusted half-way
        return cls.wrap(raw)

    def to_dict(self) -> dict:
        """The stored object as a new dict (its values shared, not copied), keys in the order they were read, empty
        lists left out. The memory itself is left as it is."""
        return {k: v for k, v in self.raw.items() if not (k in _DROPPED_WHEN_EMPTY and not v)}

    def stored(self) -> dict:
        """What is written for the memory: `to_dict()`, or — when it holds no empty list to leave out, as most do —
        its own object, not a copy (a save of 100,000 memories makes no 100,000 dicts). Read it, never change it."""
        raw = self.raw
        for name in _DROPPED_WHEN_EMPTY:
            if name in raw and not raw[name]:
                return self.to_dict()
        return raw


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _valid_anchor(decay: Any) -> bool:
    return (
        isinstance(decay, dict)
        and isinstance(decay.get("base"), (int, float))
        and not isinstance(decay.get("base"), bool)
        and 0 <= decay["base"] <= 1
        and isinstance(decay.get("from"), str)
        and isinstance(decay.get("last"), (int, float))
    )


class Index:
    """The whole store: memories plus the top-level bookkeeping keys (kept as they are, known or not). Its
    `highestId` is past every id its memories hold."""

    def __init__(self, memories: list[Memory], meta: dict | None = None, version: int = SCHEMA_VERSION):
        self.memories = memories
        self.meta = {} if meta is None else meta
        self.version = version
        self.reserve(max((id_number(m.id) or 0 for m in self.memories), default=0))

    def __repr__(self) -> str:
        return f"Index({len(self.memories)} memories, {self.meta!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Index) and other.to_dict() == self.to_dict()

    def by_id(self) -> dict[str, Memory]:
        return {m.id: m for m in self.memories}

    def highest_id(self) -> int:
        """The highest `mem_NNN` number given out here (`highestId`, kept past every id the memories hold)."""
        return positive_whole(self.meta.get("highestId"))

    def next_id(self) -> str:
        """A fresh `mem_NNN`, past every id ever given out here: ids are never reused. The one place ids are given."""
        number = self.highest_id() + 1
        self.meta["highestId"] = number
        return format_id(number)

    def reserve(self, number: int) -> None:
        """Count every id up to `mem_<number>` as given (another file holds it): the next id given is past it."""
        if number > self.highest_id():
            self.meta["highestId"] = number

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"version": self.version}
        out.update({k: v for k, v in self.meta.items() if k not in ("version", "memories")})
        out["memories"] = [m.to_dict() for m in self.memories]
        return out

    @classmethod
    def from_dict(cls, raw: Any, where: str) -> "Index":
        """Validate a parsed index (every memory, ids unique)."""
        if not isinstance(raw, dict):
            raise HippocampusError(f"{where}: expected a JSON object with `memories`, found {type(raw).__name__}")
        memories = raw.get("memories", [])
        if not isinstance(memories, list):
            raise HippocampusError(f"{where}: `memories` must be a list")
        parsed = [Memory.from_dict(m, f"{where}: memories[{i}]") for i, m in enumerate(memories)]
        seen: set[str] = set()
        for memory in parsed:
            if memory.id in seen:
                raise HippocampusError(f"{where}: the id {memory.id} appears twice; give one of them a new id")
            seen.add(memory.id)
        meta = {k: v for k, v in raw.items() if k not in ("version", "memories")}
        return cls(memories=parsed, meta=meta, version=raw.get("version", 1))
