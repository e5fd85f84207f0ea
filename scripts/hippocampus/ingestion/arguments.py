"""The flags that say where the transcripts are, shared by preprocess.py and encode.py."""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from ..workspace import resolve_state_dir, Workspace
from .config import load_config
from .sources import SourceSpec


def add_source_arguments(parser) -> None:
    group = parser.add_argument_group("where the transcripts are")
    group.add_argument(
        "--agent", default="main", metavar="ID", help="the OpenClaw agent whose sessions to read (default main)"
    )
    group.add_argument(
        "--state-dir", metavar="DIR", help="OpenClaw's state dir (default: $OPENCLAW_STATE_DIR, then ~/.openclaw)"
    )
    group.add_argument(
        "--sessions",
        nargs="+",
        metavar="DIR|FILE",
        help="read these session files, folders or openclaw-agent.sqlite files instead of the agent's stores",
    )
    group.add_argument(
        "--full",
        action="store_true",
        help="read every session in full, changed or not (a message "
        "already read is still never read twice), and take the whole history on a first run",
    )
    group.add_argument(
        "--limit",
        type=int,
        metavar="N",
        help="take only the most recent N new messages; older "
        "unread ones are marked read and left out (default on the very first run: the installer's "
        "choice in memory/hippocampus-config.json, else the whole history)",
    )


def source_spec(args, ws: Workspace) -> tuple[SourceSpec, int | None, bool]:
    """(where to read, the limit, full) from parsed arguments and the state dir the installer recorded."""

    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    agent: str = args.agent  # "main" unless --agent names another
    if not agent.strip() or "/" in agent or agent in (".", ".."):
        raise UsageError(f"--agent: {agent!r} is not an agent id")
    paths = [Path(p) for p in args.sessions] if args.sessions else None
    spec = SourceSpec(state_dir=None if paths else state_dir(args, ws), agent=agent, paths=paths)
    limit = args.limit
    if args.full and limit is None:
        limit = -1  # no first-run limit
    return spec, limit, args.full


def state_dir(args, ws: Workspace) -> Path:
    """OpenClaw's state dir these flags name: --state-dir, $OPENCLAW_STATE_DIR, the one the installer recorded…"""
    return resolve_state_dir(args.state_dir, recorded=load_config(ws).state_dir)


def config_dir(args, ws: Workspace) -> Path | None:
    """Where OpenClaw's openclaw.json is, for what it says of the user (their time zone): its state dir when the
    run reads the agent's stores there; with --sessions only a --state-dir given as well."""
    if args.sessions:
        return Path(args.state_dir) if args.state_dir else None
    return state_dir(args, ws)
