"""Ids are never given twice: the highest `mem_NNN` a workspace gave, kept where a restored index.json does not
roll it back."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..workspace import Workspace
from .files import atomic_write
from .model import ID_PREFIX, Index, known_highest


# --- ids: never given twice -----------------------------------------------------------------------------------

# A memory's id as a key in stored JSON (inside a string its quotes would be escaped, so text never matches).
_GIVEN_ID = re.compile(rb'"id"\s*:\s*"' + re.escape(ID_PREFIX.encode()) + rb'(\d{1,40})"')


def _version(path: Path) -> str | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def _read_ids(ws: Workspace) -> tuple[int, dict[str, str]]:
    """(the highest id number recorded, {file: the version of it read}) of memory/ids.json; (0, {}) if unreadable."""
    try:
        raw = json.loads(ws.ids.read_bytes())
    except (OSError, ValueError, RecursionError):
        return 0, {}
    if not isinstance(raw, dict):
        return 0, {}
    read = raw.get("read")
    read = {k: v for k, v in read.items() if isinstance(v, str)} if isinstance(read, dict) else {}
    return known_highest(raw.get("highestId")), read


def _write_ids(ws: Workspace, highest: int, read: dict[str, str]) -> None:
    atomic_write(ws.ids, json.dumps({"highestId": highest, "read": read}, indent=1, sort_keys=True) + "\n")


def _highest_in(path: Path) -> int:
    """The highest `mem_NNN` number stored in a file, read a block at a time (memory stays small)."""
    highest, tail = 0, b""
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                block = tail + block
                found = _GIVEN_ID.findall(block)
                if found:
                    highest = max(highest, max(map(int, found)))
                tail = block[-64:]  # an id cut by the block's end is found whole in the next
    except OSError:
        return highest
    return highest


def ids_given(ws: Workspace) -> int:
    """The highest id number this workspace has given, by the files a restored index.json does not roll back:
    memory/ids.json and every id in the archive and the backups. Each of those files is read again only when it
    changed (ids.json records the versions it read), so a restored ids.json cannot hide them either. Call with
    the workspace lock held."""
    highest, read = _read_ids(ws)
    now_read = {}
    for path in (ws.archive, *sorted(ws.backups.glob("*.json"))):
        version = _version(path)
        if version is None:
            continue
        name = path.relative_to(ws.memory).as_posix()
        now_read[name] = version
        if read.get(name) != version:
            highest = max(highest, _highest_in(path))
    if now_read != read:
        _write_ids(ws, highest, now_read)
    return highest


def reserve_ids(ws: Workspace, index: Index) -> None:
    """Raise the index's `highestId` past every id the workspace has given (see `ids_given`), before any is."""
    index.reserve(ids_given(ws))


def note_ids(ws: Workspace, meta: dict) -> None:
    """Record in memory/ids.json the highest id an index just saved holds (its `highestId`), if it is higher."""
    highest, read = _read_ids(ws)
    saved = known_highest(meta.get("highestId"))
    if saved > highest:
        _write_ids(ws, saved, read)


def note_backup(ws: Workspace, backup: Path, meta: dict) -> None:
    """Record a backup that is a hard link to an index.json of ours, whose bookkeeping is `meta`, as read: every id
    that file holds is at most its `highestId` (our writes keep it so), so the next run need not read the whole
    copy for ids. Call it only for a file that is ours (a hand edit may hold any id), before replacing it."""
    try:
        if not os.path.samefile(backup, ws.index):
            return  # a copy, or a backup made earlier of another file: read as any other
    except OSError:
        return
    version = _version(backup)
    highest, read = _read_ids(ws)
    name = backup.relative_to(ws.memory).as_posix()
    if version is not None and read.get(name) != version:
        _write_ids(ws, max(highest, known_highest(meta.get("highestId"))), {**read, name: version})
