"""How a reader (recall, load_core, the dashboard) gets the store: from the search cache, never waiting for a writer.
A reader that finds the cache current — nearly always — reads nothing else and imports nothing more."""

from __future__ import annotations

import os
import sqlite3
from datetime import date

from ..errors import BusyError
from ..workspace import Workspace
from . import files
from .cache import Broken, Cache, connect, describes


def _describes_disk(db: sqlite3.Connection, ws: Workspace) -> bool:
    try:
        identity: str | None = files.identity(os.stat(ws.index))
    except FileNotFoundError:
        identity = None
    except OSError:
        return False
    return describes(db, identity, lambda: files.checksum(ws.index))


def for_reading(ws: Workspace, today: date) -> Cache:
    """The store as it is on disk, for a reader (recall, load_core, the dashboard), who never waits for a writer: the
    cache when it describes index.json; else, when no other run holds the workspace lock, the cache built again; else
    (a writer is at work and will bring the cache up to date) the cache as it was, the last consistent snapshot —
    or, when there is none yet, one built in memory from index.json."""
    try:
        db = connect(ws, create=False)
    except Broken:
        db = None
    if db is not None and _describes_disk(db, ws):
        return Cache(db, snapshot=True)
    # Only when the cache is stale: a reader that finds it current never needs them.
    from .cache_writer import connect_for_writing, in_memory, open_for_writing
    from .indexfile import load

    loaded = None
    try:
        with files.workspace_lock(ws, wait=False):
            loaded = load(ws)
            built = open_for_writing(connect_for_writing(ws), ws, loaded, today)
    except BusyError:
        if db is not None:
            return Cache(db, snapshot=True)
    else:
        if built is not None:
            if db is not None:
                db.close()
            return Cache(built.db, snapshot=True)
    if db is not None:
        db.close()
    from .archive import searchable

    index = (loaded or load(ws)).index
    return in_memory(index, today, searchable(ws, {m.id for m in index.memories}))
