"""The daily decay: bring the whole store to today's importance, keep a backup, refresh what is derived from it.

One way for every store: the transaction (store/transaction.py) passes each memory through `retention.Decay` as it
saves index.json — streamed a line at a time from a file of ours, or loaded whole (and so normalised) from any
other.
"""

from __future__ import annotations

import os
from datetime import datetime

from .. import events
from ..published import refresh
from ..store import files, ids, indexfile, retention, transaction
from ..workspace import Workspace


def decay(ws: Workspace, now: datetime, wait: bool) -> retention.DecayReport:
    """Run decay under the workspace lock; after a change, log the event and refresh the derived files."""
    with files.workspace_lock(ws, wait=wait):
        report = _decay(ws, now)
        if not report.already_ran:
            events.log_event(
                ws,
                "decay",
                now,
                dict(total=report.total, changed=report.changed, archiveCandidates=len(report.archive_candidates)),
            )
        # A run killed after saving the index left the files derived from it behind: refresh them too.
        if not report.already_ran or not _published(ws):
            refresh.refresh(ws, now)
    return report


def _decay(ws: Workspace, now: datetime) -> retention.DecayReport:
    """Decay every memory as the transaction streams it into the new index.json (called with the lock held)."""
    backup = None
    try:
        with transaction.transaction(ws, now, whole=False, locked=True) as txn:
            run = retention.Decay(now, txn.index.meta)
            write = True
            if run.ran_today and not txn.dirty:
                # Today's importance is stored already and nothing was recorded since: count, and write only if a
                # memory is not at today's value after all (an importance edited by hand since).
                for memory in txn.memories():
                    run(memory)
                write = bool(run.report.changed)
                if write:
                    run = retention.Decay(now, txn.index.meta)  # the stored memories, decayed as they are saved
            if write:
                if not run.ran_today:
                    backup = indexfile.backup_index(ws, now, link=True)
                    if backup is not None and not txn.whole:  # streamed: index.json is ours
                        ids.note_backup(ws, backup, txn.index.meta)
                txn.each = run
                txn.changed(())  # the cache dates every memory along its anchor itself: decay changes none of it
                txn.index.meta["decayLastRun"] = run.report.day
                txn.dirty = True
    except BaseException:
        indexfile.unlink_backup(ws, backup)  # a linked backup of a file that was not replaced after all
        raise
    return run.finish()


def _published(ws: Workspace) -> bool:
    """HIPPOCAMPUS_CORE.md and the dashboard were both written after index.json last changed."""
    try:
        changed = os.stat(ws.index).st_mtime_ns
        return all(os.stat(path).st_mtime_ns >= changed for path in (ws.core_file, ws.dashboard))
    except OSError:
        return False
