"""The two ways in: `read` for readers (no lock), `transaction` for every read-modify-write of the index.

Every write goes through one transaction and one save (`indexfile.save_index`, one memory a line). The file is
either ours — exactly what our last write produced (`cache.witnessed`) — or not (the old skill's index, a hand
edit, a restored backup). A file that is not ours is loaded whole: validated, migrated, its secrets redacted; the
transaction then saves it in our line form and rebuilds the cache whatever the body did (its normalisation, done
once: the file is ours from then on). A file that is ours streams: the body gets its bookkeeping keys, holds only
the memories it takes (from the cache) or makes, and the save streams the stored memories into the new file a line
at a time, each parsed (validated when it was written), a held memory replacing the stored one of its id and the
others added at the end. A body that needs every memory at hand asks for the whole store (`whole=True`, or
`load_whole()`). Either way each memory written gets its recorded touches, then the body's `each` step.
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Iterator

from ..workspace import Workspace
from . import cache, files, ids, indexfile, touches
from .model import Index, Memory


# --- the two ways in ------------------------------------------------------------------------------------------


def read(ws: Workspace) -> Index:
    """The index with every recorded touch applied, for readers (recall, load_core, dashboard). Takes no lock."""
    index = indexfile.load_index(ws)
    touches.apply_touches(index, touches.read_touches(ws))
    return index


@dataclass(eq=False)
class Transaction:
    """A locked read-modify-write of the index (see the module and `transaction`).

    `index` holds the bookkeeping keys and the memories the body holds: the whole store when `whole`, else only
    those it took and changed, or made. Set `dirty` when the body changed something, and say which memories it
    added, changed or removed with `changed(ids)` — or nothing, and a whole transaction rebuilds the cache (a
    streaming one declares the memories it holds by holding them). `each` is applied to every memory as the save
    writes it, after its recorded touches, and returns whether it changed it; it may change only a memory's
    importance and decay anchor, which the cache derives itself (decay along each memory's anchor), and a stored
    line it changed alone gets a new tail (`indexfile.refade`). Memories touched since the last write, or redacted
    as they were loaded, and a file that was not ours, are saved whatever the body does."""

    ws: Workspace
    now: datetime
    index: Index
    loaded_from: str | None  # index.json's signature when the cache described the file loaded, else None
    touches: dict[str, list[datetime]]  # recorded accesses not yet in the file, by memory
    whole: bool
    dirty: bool = False
    each: Callable[[Memory], bool] | None = None
    signature: str | None = None  # index.json's, once the transaction is over
    loaded_meta: dict = field(default_factory=dict)  # the bookkeeping as loaded: touches are dated by it
    touched: list[Memory] = field(default_factory=list)  # memories their recorded touches changed
    _changed: set[str] | None = None

    def changed(self, ids) -> None:
        """Declare the ids this write added, changed (content, keywords, anchor, flags) or removed."""
        self._changed = (self._changed or set()) | set(ids)

    def load_whole(self) -> Index:
        """Load every stored memory into `index` (before the body holds any), touches applied; the save then
        writes the memories held."""
        if not self.whole:
            assert not self.index.memories, "load the whole store before holding memories"
            reserved = self.index.meta
            self.index, self.touched = _load_whole(self.ws, self.touches)
            self.index.meta.update(reserved)  # with the ids reserved since
            self.dirty = self.dirty or bool(self.touched or self.index.redacted)
            self.whole = True
        return self.index

    def memories(self) -> Iterator[Memory]:
        """Every memory of the store as the save would start from it (touches applied), without writing: the
        loaded ones, or the stored ones streamed."""
        if self.whole:
            yield from self.index.memories
            return
        _, stored = indexfile.stored_memories(self.ws, ours=self.loaded_from)
        for memory, _ in stored:
            touches.touch_memory(memory, self.touches.get(memory.id), self.loaded_meta)
            yield memory

    def search_changes(self) -> set[str] | None:
        touched = {m.id for m in self.touched}
        if not self.whole:
            return (self._changed or set()) | {m.id for m in self.index.memories} | touched
        return None if self._changed is None else self._changed | touched | self.index.redacted

    def save(self) -> None:
        """Write index.json: the whole store held, or the stored one streamed through (see the module)."""
        if self.whole:
            self.index.highest_id()  # `highestId` past every id the file holds: a streaming write relies on it
        indexfile.save_index(self.ws, self.index, self.now, self._lines())
        ids.note_ids(self.ws, self.index.meta)

    def _lines(self) -> Iterator[str]:
        """Each memory's JSON text for the new file."""
        if self.whole:
            for memory in self.index.memories:
                if self.each is not None:
                    self.each(memory)
                yield indexfile.ENCODE(memory.to_dict())
            return
        held = {memory.id: memory for memory in self.index.memories}
        recorded, each = self.touches, self.each
        _, stored = indexfile.stored_memories(self.ws, ours=self.loaded_from)
        for memory, text in stored:
            memory_id = memory.id
            mine = held.pop(memory_id, None) if held else None
            if mine is not None:
                memory = mine  # taken and changed by the body: written as it holds it
            changed = mine is not None
            if memory_id in recorded and touches.touch_memory(memory, recorded[memory_id], self.loaded_meta):
                if mine is None:
                    self.touched.append(memory)
                changed = True
            if each is None:
                yield indexfile.ENCODE(memory.to_dict()) if changed else text
            elif changed:
                each(memory)
                yield indexfile.ENCODE(memory.to_dict())
            else:
                yield indexfile.refade(text, memory, each)
        for memory in held.values():
            if self.each is not None:
                self.each(memory)
            yield indexfile.ENCODE(memory.to_dict())

    def refresh_cache(self) -> None:
        if self.whole:
            cache.refresh_after_write(self.ws, self.index, self.loaded_from, self.search_changes(), self.now.date())
        else:
            held = Index(memories=[*self.index.memories, *self.touched], meta=self.index.meta)
            cache.refresh_after_write(
                self.ws, held, self.loaded_from, self.search_changes(), self.now.date(), partial=True
            )


def _load_whole(ws: Workspace, recorded: dict[str, list[datetime]]) -> tuple[Index, list[Memory]]:
    """(the whole index, validated and redacted, with its recorded touches applied; the memories they changed)."""
    index = indexfile.load_index(ws)
    return index, [
        m for m in index.memories if m.id in recorded and touches.touch_memory(m, recorded[m.id], index.meta)
    ]


@contextmanager
def transaction(ws: Workspace, now: datetime, wait: bool = True, whole: bool = True, locked: bool = False):
    """Lock and load: a file that is not ours whole (and marked for saving in our form), else whole or — with
    `whole=False` — only its bookkeeping, the memories then streaming through the save. Yield; save atomically if
    dirty, clear the applied touches, update the cache. `locked`: the caller holds the workspace lock already."""
    with nullcontext() if locked else files.workspace_lock(ws, wait=wait):
        ours = cache.witnessed(ws)
        recorded = touches.by_memory(touches.read_touches(ws))
        loaded_from = cache.vouched_signature(ws)
        if whole or not ours:
            index, touched = _load_whole(ws, recorded)
            # A file not ours is rewritten in our form (once; then it is ours), unless there is none.
            dirty = bool(touched or index.redacted) or (not ours and ws.index.exists())
        else:
            index, touched, dirty = Index(memories=[], meta=indexfile.stored_meta(ws)), [], bool(recorded)
        txn = Transaction(
            ws,
            now,
            index,
            loaded_from,
            recorded,
            whole or not ours,
            dirty=dirty,
            loaded_meta=dict(index.meta),
            touched=touched,
        )
        ids.reserve_ids(ws, txn.index)
        yield txn
        if txn.dirty:
            txn.save()
        txn.signature = cache.signature(ws)
        if ws.touches.exists():
            # Every touch is now in the saved index (or was a no-op); replaying them would change nothing.
            files.atomic_write(ws.touches, b"")
        if txn.dirty:
            txn.refresh_cache()
