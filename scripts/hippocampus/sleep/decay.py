"""The daily decay: bring the whole store to today's importance, keep a dated backup, publish."""

from __future__ import annotations

from datetime import datetime

from .. import retention, writing
from ..workspace import Workspace


def decay(ws: Workspace, now: datetime, wait: bool) -> retention.DecayReport:
    """One write of the store: every memory decayed along its anchor; a second run the same day changes nothing
    (and writes nothing, unless an importance was edited by hand since)."""
    with writing.write(ws, now, wait=wait) as store:
        report = retention.decay_index(store.index, now)
        if not report.already_ran:
            store.backup = True
            store.touch_meta()
            store.redated(*report.moved)  # the cache dates every memory along its anchor: only moved anchors
            store.event = (
                "decay",
                dict(total=report.total, changed=report.changed, archiveCandidates=len(report.archive_candidates)),
            )
    return report
