"""Files derived from the index for others to read: HIPPOCAMPUS_CORE.md (OpenClaw's memory search indexes only
Markdown) and brain-dashboard.html. Written atomically, from one read of the store."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from markupsafe import Markup

from . import dashboard_data
from ..events import read_events
from .identity import read_identity
from ..model import CORE_THRESHOLD
from ..store.cache import Cache
from ..render import render, TEMPLATES
from .selection import select_core, CORE_FILE_BUDGET, CoreSelection
from ..store.files import atomic_write
from ..timeutil import iso
from ..workspace import Workspace


def write_core_file(
    ws: Workspace, view: Cache, now: datetime, threshold: float = CORE_THRESHOLD, budget: int = CORE_FILE_BUDGET
) -> CoreSelection:
    """Write HIPPOCAMPUS_CORE.md: the store's open commitments and core memories as of `now`."""
    selection = select_core(view, now, threshold, budget, commitments_due_only=False)
    atomic_write(ws.core_file, render("HIPPOCAMPUS_CORE.md", selection=selection, synced=iso(now)))
    return selection


DASHBOARD_TEMPLATE = "brain-dashboard.html"
DASHBOARD_SCRIPT = "brain-dashboard.js"
STATE_FILE_MAX_BYTES = 1024 * 1024


@dataclass
class DashboardResult:
    path: Path
    size: int
    total: int
    listed: int


def read_state_file(path: Path) -> dashboard_data.StateFile:
    """A sibling skill's JSON state file; unreadable, oversized or invalid files come back with the reason."""
    try:
        if not path.is_file():
            return dashboard_data.StateFile(
                missing=not path.exists(), problem=None if not path.exists() else "it is not a regular file"
            )
        with open(path, "rb") as handle:
            raw = handle.read(STATE_FILE_MAX_BYTES + 1)
    except OSError as exc:
        return dashboard_data.StateFile(missing=False, problem=f"cannot read it: {exc.strerror or exc}")
    if len(raw) > STATE_FILE_MAX_BYTES:
        return dashboard_data.StateFile(missing=False, problem="it is larger than 1 MiB")
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return dashboard_data.StateFile(missing=False, problem="it is not UTF-8 text")
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        return dashboard_data.StateFile(missing=False, problem=f"it is not valid JSON{where}")
    return dashboard_data.StateFile(value=value, missing=False)


def dashboard_html(
    ws: Workspace,
    view: Cache,
    now: datetime,
    limit: int = dashboard_data.LIST_LIMIT,
    tallies: dashboard_data.Census | None = None,
) -> tuple[str, dict]:
    """The dashboard page and the data it was made from (`tallies`: see `dashboard_data.build`)."""
    events, skipped = read_events(ws)
    agent = read_identity(ws.identity, ws.root)
    data = dashboard_data.build(
        view,
        now,
        events=events,
        skipped_events=skipped,
        agent=agent.to_dict(),
        emotional=read_state_file(ws.memory / "emotional-state.json"),
        reward=read_state_file(ws.memory / "reward-state.json"),
        limit=limit,
        tallies=tallies,
    )
    # The page's one script is a static file of ours; the page allows exactly that script by its hash, so an
    # inline script that somehow got into the page would still not run.
    script = (TEMPLATES / DASHBOARD_SCRIPT).read_text(encoding="utf-8")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    html = render(DASHBOARD_TEMPLATE, data=data, script=Markup(script), script_hash=f"sha256-{digest}")
    return html, data


def write_dashboard(
    ws: Workspace,
    view: Cache,
    now: datetime,
    path: Path | None = None,
    limit: int = dashboard_data.LIST_LIMIT,
    tallies: dashboard_data.Census | None = None,
) -> DashboardResult:
    """Write brain-dashboard.html (or `path`) atomically: the store as of `now` (`tallies`: see
    `dashboard_data.build`)."""
    html, data = dashboard_html(ws, view, now, limit, tallies)
    target = Path(path) if path is not None else ws.dashboard
    payload = html.encode("utf-8")
    atomic_write(target, payload)
    return DashboardResult(path=target, size=len(payload), total=data["total"], listed=data["listed"])
