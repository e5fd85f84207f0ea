"""Touches: recall marks memories accessed in memory/touches.jsonl, without rewriting the index; the next write
folds them in, and readers apply them on the fly."""

from __future__ import annotations

from datetime import datetime

from .. import jsonl
from ..timeutil import iso, parse_instant
from ..workspace import Workspace
from . import retention
from .files import append_line
from .model import Index, Memory


# --- touches: recall marks memories accessed without rewriting the whole index ----------------------------------


def record_touches(ws: Workspace, ids: list[str], now: datetime) -> None:
    """Note that these memories were accessed now. Applied to the index by the next write (or `read`)."""
    if ids:
        append_line(ws.touches, jsonl.text([{"ts": iso(now), "ids": ids}]))


def read_touches(ws: Workspace) -> list[tuple[datetime, list[str]]]:
    try:
        # Lines end at "\n" only: an id may hold any other line separator (U+2028, NEL, …).
        lines = ws.touches.read_text(encoding="utf-8", errors="replace").split("\n")
    except FileNotFoundError:
        return []
    out = []
    # A line that is not JSON (torn by a crash) is skipped: the touch is lost, the memory is not.
    for _, entry in jsonl.Lines(lines):
        when = parse_instant(entry.get("ts")) if isinstance(entry, dict) else None
        ids = entry.get("ids") if isinstance(entry, dict) else None
        if when and isinstance(ids, list):
            out.append((when, [i for i in ids if isinstance(i, str)]))
    return out


def by_memory(touches) -> dict[str, list[datetime]]:
    """{memory id: the moments it was accessed, oldest first} of recorded touches."""
    out: dict[str, list[datetime]] = {}
    for when, ids in touches:
        for memory_id in ids:
            out.setdefault(memory_id, []).append(when)
    for moments in out.values():
        moments.sort()
    return out


def touch_memory(memory: Memory, moments, meta: dict) -> bool:
    """Apply one memory's recorded accesses (oldest first); True if they changed it. Idempotent."""
    changed = False
    for when in moments or ():
        changed = retention.touch(memory, when, meta) or changed
    return changed


def apply_touches(index: Index, touches) -> set[str]:
    """Apply recorded touches to every memory of the index; returns the ids of the memories they changed."""
    if not touches:
        return set()
    moments = by_memory(touches)
    return {m.id for m in index.memories if m.id in moments and touch_memory(m, moments[m.id], index.meta)}
