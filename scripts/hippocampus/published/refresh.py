"""The files published from the store — the per-domain mirrors, HIPPOCAMPUS_CORE.md and the dashboard — rewritten
together from one read of the store, as of the run's clock."""

from __future__ import annotations

from datetime import datetime

from ..model import CORE_THRESHOLD
from ..store.cache import Cache
from ..workspace import Workspace
from . import dashboard_data, mirrors, publish
from .selection import CORE_FILE_BUDGET, CoreSelection


def refresh(
    ws: Workspace, cache: Cache, now: datetime, threshold: float = CORE_THRESHOLD, budget: int = CORE_FILE_BUDGET
) -> CoreSelection:
    """Rewrite every published file from the store as `cache` reads it (the core file with this threshold and
    budget); returns what the core file lists. The caller holds the workspace lock."""
    shelves, census = mirrors.shelves(), dashboard_data.census()
    cache.tally(now.date(), shelves, census)  # the mirrors and the dashboard from one read of every row
    mirrors.write_mirrors(ws, cache, now.date(), shelves)
    selection = publish.write_core_file(ws, cache, now, threshold, budget)
    publish.write_dashboard(ws, cache, now, tallies=census)
    return selection
