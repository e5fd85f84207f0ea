"""Files derived from the index for others to read: HIPPOCAMPUS_CORE.md (OpenClaw's memory search indexes only
Markdown). Written atomically, always from a whole index."""

from __future__ import annotations

from datetime import datetime

from .model import CORE_THRESHOLD, Index
from .render import render
from .selection import CORE_FILE_BUDGET, CoreSelection, select_core
from .store import atomic_write
from .timeutil import iso
from .workspace import Workspace


def write_core_file(ws: Workspace, index: Index | None, now: datetime, threshold: float = CORE_THRESHOLD,
                    budget: int = CORE_FILE_BUDGET, candidates=None) -> CoreSelection:
    """Write HIPPOCAMPUS_CORE.md from an index, or from (total, ordered core candidates) given."""
    selection = select_core(index, now, threshold, budget, candidates=candidates)
    atomic_write(ws.core_file, render("HIPPOCAMPUS_CORE.md", selection=selection, synced=iso(now)))
    return selection
