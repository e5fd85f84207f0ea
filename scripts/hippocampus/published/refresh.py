"""One refresh step for every writer: after encode, decay, consolidate, reflect or an archive restore saved the
index, the files derived from it — the per-domain mirrors, HIPPOCAMPUS_CORE.md and the dashboard — are brought up
to date together, from one View of the store, under the workspace lock, as of the run's clock."""

from __future__ import annotations

from datetime import datetime

from .. import events
from ..store import cache
from ..workspace import Workspace
from . import mirrors, publish


def refresh(ws: Workspace, now: datetime) -> None:
    """Rewrite the derived files from the store as it is now. The caller holds the workspace lock."""
    view = cache.open_view(ws, now.date(), locked=True)
    try:
        mirrors.write_mirrors(ws, view, now.date())
        publish.write_core_file(ws, view, now)
        publish.write_dashboard(ws, view, now)
    finally:
        view.close()


def after_write(ws: Workspace, now: datetime, event: str | None = None, fields: dict | None = None) -> None:
    """Log a writer's event (first, so the dashboard shows this run) and refresh. The caller holds the workspace
    lock it saved the index under: no other run comes between the save and the files derived from it."""
    if event is not None:
        events.log_event(ws, event, now, fields or {})
    refresh(ws, now)
