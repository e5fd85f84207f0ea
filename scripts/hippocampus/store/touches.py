"""memory/touches.jsonl: the memories recall returned, appended without the workspace lock (a recall never waits for
a running job); the next write folds them into the index and removes what it folded."""

from __future__ import annotations

import json
from datetime import datetime

from ..errors import HippocampusError
from ..model import Index
from ..retention import touch
from ..timeutil import iso, parse_instant
from ..workspace import Workspace
from .files import append_line, folder_error, take_lines


def record(ws: Workspace, ids: list[str], now: datetime) -> None:
    """Note that these memories were accessed now."""
    if ids:
        append_line(ws.touches, json.dumps({"ts": iso(now), "ids": ids}, ensure_ascii=False))


def read(ws: Workspace) -> tuple[dict[str, list[datetime]], int]:
    """({memory id: the moments it was accessed, oldest first}, the bytes read). A line that is not JSON (torn by a
    crash) is skipped: the touch is lost, never a memory."""
    try:
        data = ws.touches.read_bytes()
    except FileNotFoundError:
        return {}, 0
    except IsADirectoryError:
        raise folder_error(ws.touches) from None
    except OSError as exc:
        raise HippocampusError(f"cannot read {ws.touches}: {exc.strerror}") from None
    # Only whole lines count: one being appended right now is read by the next write.
    size = data.rfind(b"\n") + 1
    out: dict[str, list[datetime]] = {}
    # Lines end at "\n" only: an id may hold any other line separator (U+2028, NEL, …).
    for line in data[:size].decode("utf-8", errors="replace").split("\n"):
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            continue
        when = parse_instant(entry.get("ts")) if isinstance(entry, dict) else None
        ids = entry.get("ids") if isinstance(entry, dict) else None
        if when and isinstance(ids, list):
            for memory_id in ids:
                if isinstance(memory_id, str):
                    out.setdefault(memory_id, []).append(when)
    for moments in out.values():
        moments.sort()
    return out, size


def fold(index: Index, recorded: dict[str, list[datetime]]) -> set[str]:
    """Apply recorded accesses to the index; the ids of the memories they changed. Applying them twice changes
    nothing."""
    changed = set()
    for memory in index.memories:
        for when in recorded.get(memory.id, ()):
            if touch(memory, when, index.meta):
                changed.add(memory.id)
    return changed


def clear(ws: Workspace, size: int) -> None:
    """Remove the touches a write folded in (the first `size` bytes), keeping any recorded since."""
    if size:
        take_lines(ws.touches, size)
