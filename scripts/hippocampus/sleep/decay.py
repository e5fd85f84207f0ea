"""The daily cycle: decay the whole store, keep a backup, refresh what is derived from it.

Two ways, same result: a store this version wrote itself (the search cache vouches for the file) is decayed line
by line, streaming, with most lines rewritten by their tail alone; any other store (an old skill's, a hand-edited
one) is loaded, validated and saved whole.
"""

from __future__ import annotations

import os
from datetime import datetime

from .. import events
from ..published import refresh
from ..store import cache, retention
from ..store.model import Index
from ..workspace import Workspace
from ..store import files, indexfile, touches


def decay(ws: Workspace, now: datetime, wait: bool) -> retention.DecayReport:
    """Run decay under the workspace lock; after a change, log the event and refresh the derived files."""
    with files.workspace_lock(ws, wait=wait):
        report = _by_lines(ws, now) if cache.witnessed(ws) else None
        if report is None:
            report = _whole(ws, now)
        if not report.already_ran:
            events.log_event(ws, "decay", now, dict(total=report.total, changed=report.changed,
                             archiveCandidates=len(report.archive_candidates)))
        # A run killed after saving the index left the files derived from it behind: refresh them too.
        if not report.already_ran or not _published(ws):
            refresh.refresh(ws, now)
    return report


def _published(ws: Workspace) -> bool:
    """HIPPOCAMPUS_CORE.md and the dashboard were both written after index.json last changed."""
    try:
        changed = os.stat(ws.index).st_mtime_ns
        return all(os.stat(path).st_mtime_ns >= changed for path in (ws.core_file, ws.dashboard))
    except OSError:
        return False


def _whole(ws: Workspace, now: datetime) -> retention.DecayReport:
    loaded_from = cache.vouched_signature(ws)
    index = indexfile.load_index(ws)
    touched = touches.apply_touches(index, touches.read_touches(ws)) | index.redacted
    report = retention.decay_index(index, now)
    if report.already_ran and not touched:
        return report
    if not report.already_ran:
        indexfile.backup_index(ws, now)
    indexfile.save_index(ws, index, now)
    _clear_touches(ws)
    # Decay moves importance along each memory's anchor, which the cache holds already: only touches changed it.
    cache.refresh_after_write(ws, index, loaded_from, touched, now.date())
    return report


def _by_lines(ws: Workspace, now: datetime) -> retention.DecayReport | None:
    """Decay a line-format store by streaming it; None when the file turns out not to be in line form."""
    loaded_from = cache.signature(ws)
    try:
        meta, lines = indexfile.memory_lines(ws)
        lines.close()
    except indexfile.NotLineFormat:
        return None
    accessed: dict = {}
    for when, ids in touches.read_touches(ws):
        for memory_id in ids:
            accessed.setdefault(memory_id, []).append(when)
    day = now.date().isoformat()
    if meta.get("decayLastRun") == day and not accessed:
        return retention.DecayReport(day=day, already_ran=True, total=_count(ws))
    decayer = retention.LineDecay(now, dict(meta), accessed)
    already = meta.get("decayLastRun") == day  # here only to fold in touches: importance is today's already
    backup = None if already else indexfile.backup_index(ws, now, link=True)
    try:
        indexfile.rewrite_index(ws, now, decayer, edit_meta=lambda m: m.__setitem__("decayLastRun", day))
    except BaseException as failure:
        indexfile.unlink_backup(ws, backup)
        if isinstance(failure, indexfile.NotLineFormat):
            return None
        raise
    _clear_touches(ws)
    meta["decayLastRun"] = day
    touched = Index(memories=decayer.touched, meta=meta)
    cache.refresh_after_write(ws, touched, loaded_from, {m.id for m in decayer.touched}, now.date(),
                                    partial=True)
    report = decayer.finish()
    report.already_ran = already
    return report


def _count(ws: Workspace) -> int:
    meta, lines = indexfile.memory_lines(ws)
    return sum(1 for _ in lines)


def _clear_touches(ws: Workspace) -> None:
    if ws.touches.exists():
        files.atomic_write(ws.touches, b"")
