"""memory/archive.jsonl: the memories consolidation moved out of the hot index (faded below 0.20, or merged into
another), one JSON object a line. Nothing in it is lost: the search cache holds what was not merged, so recall
finds it (marked as archived), and `recall.py --archive` moves a memory it finds back into the index.

A memory whose id is in the index as well as here (a run killed between its two writes) is the index's: the copy
here is stale and is dropped by the next write of this file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from itertools import chain

from .. import jsonl, redaction, retention
from ..errors import HippocampusError
from ..model import BACKGROUND_THRESHOLD, Index, Memory
from ..timeutil import iso
from ..workspace import Workspace
from . import files

# A memory brought back by a recall starts again in the background tier, so it is not archived again at once.
RESTORED_IMPORTANCE = BACKGROUND_THRESHOLD + 0.1
ARCHIVE_KEYS = ("archived", "archivedOn")


def read_entries(ws: Workspace) -> list[dict]:
    """Every archived memory as stored, secrets redacted (see `redact_file`)."""
    return [entry for entry, _ in _entries(ws)]


def _entries(ws: Workspace) -> Iterator[tuple[dict, bool]]:
    """Each archived memory as stored, its secrets redacted, and whether it held one; read a line at a time (the
    archive grows every week and is never held whole). A line that cannot be read is an error: rewriting would lose
    it."""
    try:
        # Lines end at "\n" only: a memory may hold U+2028, NEL or any other character Python also splits lines at.
        handle = open(ws.archive, encoding="utf-8", newline="\n")
    except FileNotFoundError:
        return
    except OSError as exc:
        raise HippocampusError(f"cannot read {ws.archive}: {exc}") from None
    with handle:
        try:
            for number, entry in jsonl.Lines(handle, skip_invalid=False):
                Memory.from_dict(entry, f"{ws.archive} line {number}")
                yield entry, redaction.redact_memory(entry)
        except jsonl.InvalidLineError as exc:
            why = exc.__cause__.msg if isinstance(exc.__cause__, json.JSONDecodeError) else exc.__cause__ or exc
            raise HippocampusError(
                f"{ws.archive} line {exc.lineno} is not valid JSON ({why}); fix or remove that "
                "line by hand — the file is never rewritten while it cannot be read"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise HippocampusError(f"cannot read {ws.archive}: {exc}") from None


def redact_file(ws: Workspace) -> int:
    """Rewrite the archive without the secrets an older version stored in it (every entry kept, only their secrets
    replaced); returns how many entries held one. Call under the workspace lock."""
    redacted = sum(held for _, held in _entries(ws))
    if redacted:
        write_entries(ws, (entry for entry, _ in _entries(ws)))
    return redacted


def write_entries(ws: Workspace, entries: Iterable[dict]) -> None:
    """Replace the archive with these entries, written as they come (they may be read from the archive itself:
    the new file is written beside it and replaces it at the end)."""
    with files.replacing(ws.archive) as out:
        jsonl.write(out, entries)


def add(ws: Workspace, memories: list[Memory], live_ids: set[str]) -> int:
    """Write these memories to the archive (replacing older copies of the same ids; dropping copies of ids that
    are in the index, `live_ids`). Call before the index that no longer holds them is saved."""
    if not memories:
        return 0
    moved = {m.id: m for m in memories}
    kept = (entry for entry, _ in _entries(ws) if entry["id"] not in moved and entry["id"] not in live_ids)
    write_entries(ws, chain(kept, (m.peek().to_dict() for m in moved.values())))  # read, not kept parsed
    return len(moved)


def findable(memory: Memory) -> bool:
    """Whether recall finds an archived memory: not one merged into another (its words live on in it)."""
    return not memory.peek().raw.get("mergedInto")


def searchable(ws: Workspace, live_ids: set[str]) -> Iterator[Memory]:
    """The archived memories recall can find (`findable`), but for stale copies of memories that are in the
    index; read as they are taken."""
    for entry, _ in _entries(ws):
        memory = Memory.wrap(entry)
        if findable(memory) and memory.id not in live_ids:
            yield memory


def bring_back(memory: Memory, now: datetime, meta: dict) -> None:
    """An archived memory recalled: no longer archived, reinforced, at least in the background tier again."""
    for key in ARCHIVE_KEYS:
        memory.extra.pop(key, None)
    current = retention.importance_on(memory, now.date(), meta)
    value = max(current + (1 - current) * retention.REINFORCE_STEP, RESTORED_IMPORTANCE)
    retention.restart(memory, value, now.date())
    memory.lastAccessed = iso(now)
    memory.timesReinforced += 1
    memory.history.append({"ts": iso(now), "restored": "archive"})


def restore(ws: Workspace, index: Index, ids: list[str], now: datetime) -> list[str]:
    """Move these archived memories back into the index a writer holds; returns the ids moved. They leave the
    archive only once the index holding them is saved (`drop`): a kill in between leaves a stale copy here, which
    the index shadows."""
    wanted = set(ids)
    present = {m.id for m in index.memories}
    back = []
    for entry, _ in _entries(ws):
        if entry["id"] in wanted and entry["id"] not in present and not entry.get("mergedInto"):
            memory = Memory.from_dict(entry, str(ws.archive))
            bring_back(memory, now, index.meta)
            index.memories.append(memory)
            present.add(memory.id)
            back.append(memory.id)
    return back


def drop(ws: Workspace, ids: list[str], index: Index) -> None:
    """Remove these memories from the archive once `index`, which holds them, is saved. One the same write moved
    out of the index again (archived anew) stays: its new copy is the only one."""
    gone = set(ids) & {m.id for m in index.memories}
    if gone:
        write_entries(ws, (entry for entry, _ in _entries(ws) if entry["id"] not in gone))
