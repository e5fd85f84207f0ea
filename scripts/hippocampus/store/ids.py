"""memory/ids.json: the highest `mem_NNN` the workspace ever gave, kept apart from index.json so that restoring an
older index never gives an id again. Without it (deleted, unreadable), it is worked out again from every id the
archive and the backups hold."""

from __future__ import annotations

import json
from pathlib import Path

from .. import jsonl
from ..model import id_number, positive_whole, Index
from ..workspace import Workspace
from .files import atomic_write


def _recorded(ws: Workspace) -> int | None:
    try:
        raw = json.loads(ws.ids.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return positive_whole(raw.get("highestId")) if isinstance(raw, dict) and "highestId" in raw else None


def _highest_in(path: Path) -> int:
    """The highest id held by a file of memories: an index (its memories and `highestId`) or the archive (one
    memory a line). A file that cannot be read counts for nothing."""
    values: list = []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 0
    if path.suffix == ".jsonl":
        values = [entry for _, entry in jsonl.Lines(text.split("\n"))]
        highest = 0
    else:
        try:
            raw = json.loads(text)
        except (ValueError, RecursionError):
            return 0
        if not isinstance(raw, dict):
            return 0
        highest = positive_whole(raw.get("highestId"))
        memories = raw.get("memories")
        values = memories if isinstance(memories, list) else []
    for value in values:
        if isinstance(value, dict) and isinstance(value.get("id"), str):
            highest = max(highest, id_number(value["id"]) or 0)
    return highest


def reserve(ws: Workspace, index: Index) -> None:
    """Raise the index's `highestId` past every id the workspace has given, before any new one is. Call with the
    workspace lock held."""
    recorded = _recorded(ws)
    if recorded is None:
        recorded = max((_highest_in(p) for p in (ws.archive, *sorted(ws.backups.glob("*.json")))), default=0)
    index.reserve(recorded)


def note(ws: Workspace, index: Index) -> None:
    """Record the highest id the index holds or has given, when it is higher than the one recorded."""
    highest = index.highest_id()
    recorded = _recorded(ws)
    if recorded is None or highest > recorded:
        atomic_write(ws.ids, json.dumps({"highestId": highest}) + "\n")
