"""The two ways in: `read` for readers (no lock), `transaction` for every read-modify-write of the index."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime

from ..workspace import Workspace
from . import cache, files, ids, indexfile, touches
from .model import Index


# --- the two ways in ------------------------------------------------------------------------------------------

def read(ws: Workspace) -> Index:
    """The index with every recorded touch applied, for readers (recall, load_core, dashboard). Takes no lock."""
    index = indexfile.load_index(ws)
    touches.apply_touches(index, touches.read_touches(ws))
    return index


class Transaction:
    """A locked read-modify-write of the index. Set `dirty` when the body changed something, and say which
    memories it added, changed or removed with `changed(ids)` — or nothing, and the search cache is rebuilt.
    Memories touched since the last write, or redacted as they were loaded, are saved whatever the body does."""

    def __init__(self, ws: Workspace, index: Index, touched: set[str]):
        self.ws = ws
        self.index = index
        self.dirty = bool(touched)
        self._touched = touched
        self._changed: set[str] | None = None
        self.signature: str | None = None  # index.json's, once the transaction is over

    def changed(self, ids) -> None:
        """Declare the ids this write added, changed (content, keywords, anchor, flags) or removed."""
        self._changed = (self._changed or set()) | set(ids)

    def search_changes(self) -> set[str] | None:
        return None if self._changed is None else self._changed | self._touched


@contextmanager
def transaction(ws: Workspace, now: datetime, wait: bool = True):
    """Lock, load, apply touches; yield; save atomically if dirty, clear the applied touches, update the cache."""
    with files.workspace_lock(ws, wait=wait):
        loaded_from = cache.vouched_signature(ws)  # None when the cache does not describe this file
        index = indexfile.load_index(ws, ours=cache.witnessed(ws))
        ids.reserve_ids(ws, index)
        txn = Transaction(ws, index, touches.apply_touches(index, touches.read_touches(ws)) | index.redacted)
        txn.loaded_from = loaded_from
        yield txn
        if txn.dirty:
            indexfile.save_index(ws, txn.index, now)
            ids.note_ids(ws, txn.index.meta)
        txn.signature = cache.signature(ws)
        if ws.touches.exists():
            # Every touch is now in the saved index (or was a no-op); replaying them would change nothing.
            files.atomic_write(ws.touches, b"")
        if txn.dirty:
            cache.refresh_after_write(ws, txn.index, loaded_from, txn.search_changes(), now.date())
