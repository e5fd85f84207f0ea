"""Every write of the store, one way: take the workspace lock, load index.json whole (the accesses recall recorded
folded in), let the caller change it, save it, bring the search cache up to date, log the run's event, and rewrite
the files published from the store (mirrors, HIPPOCAMPUS_CORE.md, the dashboard) as of the run's clock.

    with writing.write(ws, now) as store:
        memory = store.index.by_id()["mem_007"]
        ...                                   # change it
        store.changed(memory.id)
        store.event = ("reflection", {...})

A run killed at any point leaves what the next run repairs: index.json is replaced atomically; a cache that does
not describe it is built again; published files made from another index.json are written again; recorded
accesses are removed only once the index holding them is saved.

Once the block is done, `store.index` holds no memories any more (see `finish`): a caller keeps what it needs of
them.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Iterator

from . import events
from .model import CORE_THRESHOLD, Index, Memory
from .published.refresh import refresh
from .published.selection import CORE_FILE_BUDGET, CoreSelection
from .store import cache, cache_writer, files, ids, indexfile, touches
from .workspace import Workspace


@dataclass(eq=False)
class Store:
    """The store as a writer holds it: the whole index, and the cache it reads through."""

    ws: Workspace
    now: datetime
    loaded: indexfile.Loaded
    cache: cache.Cache | None  # None when the cache folder cannot be written
    touches_read: int = 0  # bytes of memory/touches.jsonl folded in
    backup: bool = False  # keep a dated copy of the index before saving it
    publish: bool = False  # rewrite the published files even when nothing changed
    core_file: tuple[float, int] = (CORE_THRESHOLD, CORE_FILE_BUDGET)  # HIPPOCAMPUS_CORE.md's threshold and budget
    published_core: CoreSelection | None = None  # what the core file lists, once published
    event: tuple[str, dict] | None = None  # logged once the index is saved
    after_save: list[Callable[[], None]] = field(default_factory=list)  # the writer's tidy-up, still under the lock
    shelved: dict[str, Memory] = field(default_factory=dict)  # moved to the archive by this write, still searchable
    _changed: set[str] = field(default_factory=set)
    _redated: set[str] = field(default_factory=set)
    _dirty: bool = False

    @property
    def index(self) -> Index:
        return self.loaded.index

    def changed(self, *ids: str) -> None:
        """Say which memories this write added, changed or removed (the index is saved, their cache rows redone)."""
        self._changed.update(ids)
        self._dirty = True

    def redated(self, *ids: str) -> None:
        """Say which memories this write gave a new decay anchor and nothing else (the index is saved, their cache
        rows' decay columns rewritten)."""
        self._redated.update(ids)
        self._dirty = True

    def add(self, memory: Memory) -> None:
        self.index.memories.append(memory)
        self.changed(memory.id)

    def touch_meta(self) -> None:
        """The bookkeeping keys changed, no memory did: the index is saved all the same."""
        self._dirty = True

    @property
    def changed_ids(self) -> set[str]:
        return set(self._changed)

    @property
    def dirty(self) -> bool:
        return self._dirty


def open_store(ws: Workspace, now: datetime, each: indexfile.Each | None = None) -> Store:
    """Load the store for a writer holding the workspace lock (`each`: see `write`)."""
    recorded, size = touches.read(ws)
    first = None
    if each is not None:

        def first(memory: Memory) -> bool | None:
            return None if memory.id in recorded else each(memory)  # accessed: read once the accesses are in

    db = cache_writer.connect_for_writing(ws)  # first: it says whether index.json is a file a write saved
    try:
        loaded = indexfile.load(ws, first, vouched=cache_writer.vouched(db))
        ids.reserve(ws, loaded.index)
    except BaseException:
        if db is not None:
            db.close()
        raise
    found = cache_writer.open_for_writing(db, ws, loaded, now.date())
    store = Store(ws, now, loaded, found, touches_read=size)
    touched = touches.fold(loaded.index, recorded)
    if touched or loaded.redacted:
        store.changed(*touched, *loaded.redacted)
    if loaded.stale:
        store.touch_meta()
    return store


def finish(store: Store) -> None:
    """Save what the writer changed, update the cache, log the event, publish (see the module)."""
    ws, now, loaded = store.ws, store.now, store.loaded
    if store.dirty:
        if store.backup:
            indexfile.backup(ws, now)
        indexfile.save(ws, loaded, now)
        ids.note(ws, store.index)
        if store.cache is not None:
            cache_writer.commit_write(
                store.cache, store.index, store._changed, loaded, now.date(), ws, store.shelved, store._redated
            )
    touches.clear(ws, store.touches_read)
    for step in store.after_save:
        step()
    if store.event is not None:
        events.log_event(ws, store.event[0], now, store.event[1])
    view = store.cache
    publish = store.dirty or store.publish or view is None or cache_writer.published(view) != (loaded.identity or "")
    if publish and view is None:
        view = cache_writer.in_memory(store.index, now.date())
    # Saved, and the cache describes it: the published files are read from the cache, so the memories are let go
    # first (those this run read or made are held parsed or as their text).
    store.index.memories.clear()
    if publish:
        assert view is not None
        store.published_core = refresh(ws, view, now, *store.core_file)
        if store.cache is not None:
            cache_writer.mark_published(store.cache, loaded)
    if store.cache is not None:
        store.cache.close()


@contextmanager
def write(ws: Workspace, now: datetime, wait: bool = True, each: indexfile.Each | None = None) -> Iterator[Store]:
    """Lock, load, yield the store to change, then `finish`. `wait=False` (cron) raises BusyError at once when
    another run holds the lock. A writer that reads every memory gives `each`: it is handed them as index.json is
    read (see store.indexfile.load), but for those it leaves and those with accesses recorded, which the writer
    reads from `store.loaded.later` (their places in `store.index.memories`) once the accesses are folded in."""
    with files.workspace_lock(ws, wait=wait):
        files.check_file(ws.events)  # logged to and published from by `finish`, after the index is saved
        store = open_store(ws, now, each)
        try:
            yield store
        except BaseException:
            if store.cache is not None:
                store.cache.close()
            raise
        finish(store)
