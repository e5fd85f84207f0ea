"""Touches: recall marks memories accessed in memory/touches.jsonl, without rewriting the index; the next write
folds them in, and readers apply them on the fly."""

from __future__ import annotations

from datetime import datetime

from .. import jsonl
from ..timeutil import iso, parse_instant
from ..workspace import Workspace
from . import retention
from .files import append_line
from .model import Index


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


def apply_touches(index: Index, touches) -> set[str]:
    """Apply recorded touches in time order; returns the ids of the memories they changed. Idempotent."""
    if not touches:
        return set()
    by_id = index.by_id()
    changed = set()
    for when, ids in sorted(touches, key=lambda t: t[0]):
        for memory_id in ids:
            memory = by_id.get(memory_id)
            if memory is not None and retention.touch(memory, when, index.meta):
                changed.add(memory_id)
    return changed


