"""The daily decay: bring the whole store to today's importance, keep a dated backup, publish."""

from __future__ import annotations

from datetime import datetime

from .. import retention, writing
from ..workspace import Workspace


def decay(ws: Workspace, now: datetime, wait: bool) -> retention.DecayReport:
    """One write of the store: every memory decayed along its anchor; a second run the same day changes nothing
    (and writes nothing, unless an importance was edited by hand since)."""
    run = retention.Decay(now)
    with writing.write(ws, now, wait=wait, each=run.first) as store:  # each memory decayed as index.json is read
        report = run.finish(store.index, store.loaded.later)
        if not report.already_ran:
            store.backup = True
            store.touch_meta()
            store.redated(*report.moved)  # the cache dates every memory along its anchor: only moved anchors
            store.event = (
                "decay",
                dict(total=report.total, changed=report.changed, archiveCandidates=len(report.archive_candidates)),
            )
    return report
