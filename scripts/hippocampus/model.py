"""Memory and Index values, their dict form on disk, and the tiers. No I/O here."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import HippocampusError

SCHEMA_VERSION = 2
DOMAINS = ("user", "self", "relationship", "world")
DOMAIN_TITLES = {
    "user": "About the user",
    "relationship": "Our Relationship",
    "self": "About Me",
    "world": "World Knowledge",
}

# One threshold per tier, used everywhere (the old skill had 0.7 in one place and 0.75 in another).
CORE_THRESHOLD = 0.7
ACTIVE_THRESHOLD = 0.4
BACKGROUND_THRESHOLD = 0.2

_ID_RE = re.compile(r"^mem_(\d+)$")

# Keys the model reads and writes itself; any other key of a memory is carried through untouched.
_KNOWN = (
    "id", "domain", "category", "content", "importance", "created", "lastAccessed",
    "timesReinforced", "keywords", "sources", "decay", "history",
)


def tier(importance: float) -> str:
    """core / active / background / archive, by the thresholds of SPEC §6."""
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
    return f"mem_{number:03d}"


@dataclass(slots=True)
class Memory:
    """One memory. `extra` holds keys this version does not know, so nothing a user or a sibling wrote is dropped."""

    id: str
    content: str
    domain: str = "user"
    category: str = "general"
    importance: float = 0.5
    created: str | None = None
    lastAccessed: str | None = None
    timesReinforced: int = 0
    keywords: list[str] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)
    decay: dict | None = None
    history: list[dict] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    @property
    def pinned(self) -> bool:
        return self.extra.get("pinned") is True

    @property
    def superseded(self) -> bool:
        return bool(self.extra.get("supersededBy"))

    @property
    def archived(self) -> bool:
        return self.extra.get("archived") is True

    @property
    def untrusted(self) -> bool:
        return self.extra.get("trust") == "untrusted"

    @classmethod
    def from_dict(cls, raw: Any, where: str) -> "Memory":
        """Validate one stored memory; `where` names it in error messages."""
        if not isinstance(raw, dict):
            raise HippocampusError(f"{where}: a memory must be an object, not {type(raw).__name__}")
        memory_id = raw.get("id")
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise HippocampusError(f"{where}: the memory has no string `id`")
        where = f"{where} ({memory_id})"
        content = raw.get("content")
        if not isinstance(content, str):
            raise HippocampusError(f"{where}: `content` must be a string")
        importance = raw.get("importance", 0.5)
        if isinstance(importance, str):
            try:
                importance = float(importance)
            except ValueError:
                pass
        if (isinstance(importance, bool) or not isinstance(importance, (int, float))
                or not math.isfinite(importance) or not 0 <= importance <= 1):
            raise HippocampusError(f"{where}: `importance` must be a number from 0 to 1, not {importance!r}")
        reinforced = raw.get("timesReinforced", 0)
        if isinstance(reinforced, bool) or not isinstance(reinforced, (int, float)) or reinforced < 0:
            raise HippocampusError(f"{where}: `timesReinforced` must be a whole number, not {reinforced!r}")
        keywords = raw.get("keywords") or []
        if not isinstance(keywords, list):
            raise HippocampusError(f"{where}: `keywords` must be a list")
        sources = raw.get("sources") or []
        if not isinstance(sources, list) or not all(isinstance(s, dict) for s in sources):
            raise HippocampusError(f"{where}: `sources` must be a list of objects")
        history = raw.get("history") or []
        if not isinstance(history, list):
            raise HippocampusError(f"{where}: `history` must be a list")
        decay = raw.get("decay")
        if decay is not None and not _valid_anchor(decay):
            decay = None  # a hand-edited anchor is re-derived from `importance`, never trusted half-way
        domain = raw.get("domain")
        category = raw.get("category")
        return cls(
            id=memory_id,
            content=content,
            domain=domain if isinstance(domain, str) and domain else "user",
            category=category if isinstance(category, str) and category else "general",
            importance=float(importance),
            created=_date_text(raw.get("created")),
            lastAccessed=_date_text(raw.get("lastAccessed")),
            timesReinforced=int(reinforced),
            keywords=[str(k) for k in keywords if isinstance(k, (str, int, float)) and not isinstance(k, bool)],
            sources=sources,
            decay=decay,
            history=history,
            extra={k: v for k, v in raw.items() if k not in _KNOWN},
        )

    def to_dict(self) -> dict:
        out: dict[str, Any] = {
            "id": self.id,
            "domain": self.domain,
            "category": self.category,
            "content": self.content,
            "importance": self.importance,
            "created": self.created,
            "lastAccessed": self.lastAccessed,
            "timesReinforced": self.timesReinforced,
            "keywords": self.keywords,
        }
        if self.created is None:
            del out["created"]
        if self.lastAccessed is None:
            del out["lastAccessed"]
        if self.sources:
            out["sources"] = self.sources
        if self.decay is not None:
            out["decay"] = self.decay
        if self.history:
            out["history"] = self.history
        out.update(self.extra)
        return out


def _valid_anchor(decay: Any) -> bool:
    return (
        isinstance(decay, dict)
        and isinstance(decay.get("base"), (int, float)) and not isinstance(decay.get("base"), bool)
        and 0 <= decay["base"] <= 1
        and isinstance(decay.get("from"), str)
        and isinstance(decay.get("last"), (int, float))
    )


def _date_text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


@dataclass
class Index:
    """The whole store: memories plus the top-level bookkeeping keys (kept as they are, known or not)."""

    memories: list[Memory]
    meta: dict = field(default_factory=dict)
    version: int = SCHEMA_VERSION

    def by_id(self) -> dict[str, Memory]:
        return {m.id: m for m in self.memories}

    def next_id(self) -> str:
        """A fresh `mem_NNN`: past every id ever given out here, so ids are never reused."""
        highest = self.meta.get("highestId")
        highest = highest if isinstance(highest, int) and not isinstance(highest, bool) else 0
        for memory in self.memories:
            number = id_number(memory.id)
            if number is not None and number > highest:
                highest = number
        self.meta["highestId"] = highest + 1
        return format_id(highest + 1)

    def to_dict(self) -> dict:
        out = {"version": self.version}
        out.update({k: v for k, v in self.meta.items() if k not in ("version", "memories")})
        out["memories"] = [m.to_dict() for m in self.memories]
        return out

    @classmethod
    def from_dict(cls, raw: Any, where: str) -> "Index":
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
