"""memory/pending-memories.json and the agent's decisions about it: the optional LLM step of encoding.

`encode.py --prepare` adds items (never replacing one already there); the agent writes decisions and runs
`encode.py --apply FILE`, which validates every field, applies what is valid and removes only the applied items.
Items older than EXPIRY fall back to the automatic path, so nothing waits forever for an LLM.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import HippocampusError
from ..model import DOMAINS, Index, whole_characters
from ..timeutil import iso, parse_instant
from .transcripts import Signal
from ..workspace import Workspace
from ..store import files

VERSION = 1
EXPIRY = timedelta(days=1)
ACTIONS = ("create", "reinforce", "skip")
CONTENT_MAX = 300
KEYWORDS_MAX = 12
_CATEGORY = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
_FIELDS = {
    "create": {"item", "action", "content", "keywords", "domain", "category", "importance", "explicit"},
    "reinforce": {"item", "action", "memory"},
    "skip": {"item", "action", "reason"},
}


# --- the pending file -----------------------------------------------------------------------------------------


def read_items(ws: Workspace) -> list[dict]:
    """The pending items. A file that cannot be read is an error, never something to overwrite."""
    try:
        text = ws.pending.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise HippocampusError(f"cannot read {ws.pending}: {exc.strerror}") from None
    if not text.strip():
        return []
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise HippocampusError(
            f"{ws.pending} is not valid JSON (line {exc.lineno}: {exc.msg}); fix it by hand — "
            "it is never overwritten while it cannot be read"
        ) from None
    except RecursionError:
        raise HippocampusError(
            f"{ws.pending} is nested too deeply; fix it by hand — it is never overwritten while it cannot be read"
        ) from None
    items = raw.get("items") if isinstance(raw, dict) else raw
    if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in items):
        raise HippocampusError(
            f'{ws.pending}: expected {{"items": [{{"id": …}}, …]}}; fix it by hand — it is '
            "never overwritten while it cannot be read"
        )
    return items


def write_items(ws: Workspace, items: list[dict]) -> None:
    files.atomic_write(
        ws.pending, json.dumps({"version": VERSION, "items": items}, ensure_ascii=False, indent=1) + "\n"
    )


def remove_items(ws: Workspace, ids: set[str]) -> int:
    """Drop the items with these ids (re-reading the file, so items added meanwhile stay)."""
    if not ids:
        return 0
    items = read_items(ws)
    kept = [item for item in items if item["id"] not in ids]
    if len(kept) != len(items):
        write_items(ws, kept)
    return len(items) - len(kept)


def item_id(signal: Signal) -> str:
    return f"sig-{signal.seq}"


def make_item(signal: Signal, now: datetime, score, draft, closest: list[tuple[Any, float]]) -> dict:
    item = {
        "id": item_id(signal),
        "added": iso(now),
        "role": signal.role,
        "text": signal.text,
        "score": score.value,
        "rule": score.rule,
        "sources": [signal.source],
        "suggested": {
            "content": draft.content,
            "keywords": draft.keywords,
            "domain": draft.domain,
            "category": draft.category,
        },
        "closest": [{"id": m.id, "content": m.content, "similarity": s} for m, s in closest],
        "signal": signal.to_dict(),
    }
    if signal.trust:
        item["trust"] = signal.trust
        item["sender"] = signal.sender
    return item


def item_signal(item: dict, where: str) -> Signal:
    return Signal.from_dict(item.get("signal"), f"{where}: item {item.get('id')}")


def attach(item: dict, signal: Signal) -> None:
    """A message of the item's session that is no memory of its own: it goes where the item goes."""
    item.setdefault("attached", []).append(signal.to_dict())


def attached_signals(item: dict, where: str) -> tuple[list[Signal], int]:
    """(the messages attached to an item, how many attached entries could not be read)."""
    out, bad = [], 0
    entries = item.get("attached")
    for position, raw in enumerate(entries if isinstance(entries, list) else []):
        try:
            out.append(Signal.from_dict(raw, f"{where}: item {item.get('id')} attached[{position}]"))
        except HippocampusError:
            bad += 1
    return out, bad


def item_keys(item: dict) -> set[tuple[str, str]]:
    """(session, message) of the item's message and of the messages attached to it."""
    keys = {key for key in [item_key(item)] if key is not None}
    entries = item.get("attached")
    for raw in entries if isinstance(entries, list) else []:
        if isinstance(raw, dict) and isinstance(raw.get("session"), str) and isinstance(raw.get("id"), str):
            keys.add((raw["session"], raw["id"]))
    return keys


def item_key(item: dict) -> tuple[str, str] | None:
    signal = item.get("signal")
    if isinstance(signal, dict) and isinstance(signal.get("session"), str) and isinstance(signal.get("id"), str):
        return signal["session"], signal["id"]
    return None


def expired(items: list[dict], now: datetime) -> list[dict]:
    """Items that waited longer than EXPIRY (or carry no readable time): the automatic path takes them."""
    out = []
    for item in items:
        added = parse_instant(item.get("added"))
        if added is None or now - added >= EXPIRY:
            out.append(item)
    return out


# --- decisions ------------------------------------------------------------------------------------------------


@dataclass
class Decision:
    item: dict
    action: str
    content: str | None = None
    keywords: list[str] | None = None
    domain: str | None = None
    category: str | None = None
    importance: float | None = None
    explicit: bool = False
    memory: str | None = None


# --- fields an agent writes (decisions here, reflection answers too): each checked the same way ---------------


def checked_content(value) -> str:
    """Non-empty text of at most CONTENT_MAX characters, whitespace folded to single spaces."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("`content` must be non-empty text")
    content = " ".join(value.split())
    if len(content) > CONTENT_MAX:
        raise ValueError(f"`content` must be at most {CONTENT_MAX} characters (it has {len(content)})")
    return content


def checked_keywords(value) -> list[str]:
    if (
        not isinstance(value, list)
        or len(value) > KEYWORDS_MAX
        or not all(isinstance(k, str) and 0 < len(k.strip()) <= 40 for k in value)
    ):
        raise ValueError(f"`keywords` must be a list of at most {KEYWORDS_MAX} words (1–40 characters each)")
    return [k.strip().lower() for k in value]


def checked_domain(value, allowed=DOMAINS) -> str:
    if value not in allowed:
        raise ValueError(f"`domain` must be one of {', '.join(allowed)}, not {value!r}")
    return value


def checked_category(value) -> str:
    if not isinstance(value, str) or not _CATEGORY.match(value):
        raise ValueError(f"`category` must be a lower-case word (a-z, 0-9, - or _; up to 40), not {value!r}")
    return value


def checked_importance(value) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not 0 <= value <= 1
    ):
        raise ValueError(f"`importance` must be a number from 0 to 1, not {value!r}")
    return float(value)


def read_apply_file(path: Path) -> Any:
    """The JSON of a file given to --apply (an agent's decisions or answers); anything else is one clear error."""
    try:
        return whole_characters(json.loads(Path(path).read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise HippocampusError(f"--apply: {path} does not exist") from None
    except OSError as exc:
        raise HippocampusError(f"--apply: cannot read {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise HippocampusError(f"--apply: {path} is not valid JSON ({exc})") from None
    except RecursionError:
        raise HippocampusError(f"--apply: {path} is nested too deeply to be read") from None


def load_decisions(path: Path) -> list[Any]:
    """The decisions file: {"decisions": [...]} or a bare list."""
    raw = read_apply_file(path)
    decisions = raw.get("decisions") if isinstance(raw, dict) else raw
    if not isinstance(decisions, list):
        raise HippocampusError(f'--apply: {path} must hold {{"decisions": [...]}}')
    return decisions


def validate(raw_decisions: list[Any], items: list[dict], index: Index) -> tuple[list[Decision], list[dict]]:
    """Check every field of every decision: (valid decisions, [{"index", "item", "error"}])."""
    by_id = {item["id"]: item for item in items}
    memories = index.by_id()
    valid: list[Decision] = []
    errors: list[dict] = []
    decided: set[str] = set()
    for position, raw in enumerate(raw_decisions):
        try:
            decision = _check(raw, by_id, memories, decided)
        except ValueError as exc:
            item = raw.get("item") if isinstance(raw, dict) else None
            errors.append({"index": position, "item": item if isinstance(item, str) else None, "error": str(exc)})
            continue
        decided.add(decision.item["id"])
        valid.append(decision)
    return valid, errors


def _check(raw: Any, items: dict, memories: dict, decided: set[str]) -> Decision:
    if not isinstance(raw, dict):
        raise ValueError("a decision must be an object")
    item_name = raw.get("item")
    if not isinstance(item_name, str) or item_name not in items:
        raise ValueError(f"`item` must name a pending item, not {item_name!r}")
    if item_name in decided:
        raise ValueError(f"{item_name} has more than one decision")
    action = raw.get("action")
    if action not in ACTIONS:
        raise ValueError(f"`action` must be one of {', '.join(ACTIONS)}, not {action!r}")
    unknown = set(raw) - _FIELDS[action]
    if unknown:
        raise ValueError(f"unknown field(s) for {action}: {', '.join(sorted(unknown))}")
    item = items[item_name]
    decision = Decision(item=item, action=action)
    if action == "skip":
        if "reason" in raw and not isinstance(raw["reason"], str):
            raise ValueError("`reason` must be text")
        return decision
    if action == "reinforce":
        memory_id = raw.get("memory")
        if not isinstance(memory_id, str) or memory_id not in memories:
            raise ValueError(f"`memory` must be the id of an existing memory, not {memory_id!r}")
        memory = memories[memory_id]
        if memory.superseded:
            raise ValueError(f"{memory_id} was superseded; reinforce the memory that replaced it")
        if (item.get("trust") == "untrusted") != memory.untrusted:
            raise ValueError(
                f"{item_name} and {memory_id} differ in trust: an untrusted sender's words and the "
                "owner's are never merged"
            )
        decision.memory = memory_id
        return decision
    content = checked_content(raw.get("content"))
    keywords = checked_keywords(raw.get("keywords", []))
    domain = checked_domain(raw.get("domain"))
    category = checked_category(raw.get("category"))
    importance = raw.get("importance")
    if importance is not None:
        importance = checked_importance(importance)
    explicit = raw.get("explicit", False)
    if not isinstance(explicit, bool):
        raise ValueError("`explicit` must be true or false")
    decision.content = content
    decision.keywords = keywords
    decision.domain = domain
    decision.category = category
    decision.importance = importance
    decision.explicit = explicit
    return decision
