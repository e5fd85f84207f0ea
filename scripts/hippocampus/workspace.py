"""Where things live: the workspace, the OpenClaw state dir and the clock.

This is the only module that reads the environment; everything else is handed paths and a `now`.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

from .errors import UsageError
from .timeutil import parse_instant, EARLIEST_NOW, LATEST_NOW

CONFIG_NAME = "hippocampus-config.json"  # in memory/, written by install.py


def _profile_home(env) -> Path:
    profile = env.get("OPENCLAW_PROFILE", "").strip()
    home = Path(env.get("HOME") or Path.home())
    if profile and profile != "default":
        return home / f".openclaw-{profile}"
    return home / ".openclaw"


def resolve_workspace(flag: str | None = None, env=None) -> Path:
    """The workspace folder: --workspace, WORKSPACE, OPENCLAW_WORKSPACE_DIR, profile default, ~/.openclaw/workspace."""
    env = os.environ if env is None else env
    for candidate in (flag, env.get("WORKSPACE"), env.get("OPENCLAW_WORKSPACE_DIR")):
        if candidate:
            return Path(candidate).expanduser().resolve()
    return (_profile_home(env) / "workspace").resolve()


def resolve_state_dir(flag: str | None = None, env=None, recorded: str | None = None) -> Path:
    """OpenClaw's state dir (transcripts): --state-dir, OPENCLAW_STATE_DIR, the one the installer recorded,
    profile default, ~/.openclaw."""
    env = os.environ if env is None else env
    for candidate in (flag, env.get("OPENCLAW_STATE_DIR"), recorded):
        if candidate:
            return Path(candidate).expanduser().resolve()
    return _profile_home(env).resolve()


def resolve_config(state_dir: Path, env=None) -> Path:
    """OpenClaw's config file: OPENCLAW_CONFIG_PATH when it is set (a config kept outside the state dir), else
    openclaw.json in the state dir."""
    env = os.environ if env is None else env
    named = (env.get("OPENCLAW_CONFIG_PATH") or "").strip()  # trimmed, as OpenClaw's resolveConfigPathCandidate
    return Path(named).expanduser().resolve() if named else state_dir / "openclaw.json"


def cron_state_dir(env=None) -> Path:
    """The state dir a job started by cron finds: cron passes HOME, but neither OPENCLAW_STATE_DIR nor a profile."""
    env = os.environ if env is None else env
    return (Path(env.get("HOME") or Path.home()) / ".openclaw").resolve()


def is_openclaw_state(root: Path) -> bool:
    """Is this OpenClaw's own folder (~/.openclaw): its config, or an agent's transcript store?"""
    return (root / "openclaw.json").is_file() or any(root.glob("agents/*/agent/openclaw-agent.sqlite"))


def not_a_workspace(root: Path) -> str | None:
    """Why a folder is not a workspace to keep memories in, or None when it is one: it holds our memory/ folder or
    OpenClaw's workspace files (AGENTS.md), or nothing at all — and it is not OpenClaw's own state folder (its
    openclaw.json or an agent's transcript store), whose workspace is a folder inside it."""
    if is_openclaw_state(root):
        return (
            f"{root} is OpenClaw's own folder, not a workspace: its workspace is {_state_workspace(root)} "
            "(give that to --workspace)"
        )
    if not (root / "memory").is_dir() and not (root / "AGENTS.md").is_file() and _holds_anything(root):
        return (
            f"{root} is not a workspace (it has no memory/ folder and no AGENTS.md): give the agent's workspace "
            "to --workspace, or run install.py --workspace DIR to make one"
        )
    return None


def _holds_anything(root: Path) -> bool:
    """Does the folder hold anything? An empty one was made for the memories: nothing of anyone else's is in it (a
    folder that is not there, or cannot be listed, counts as holding something: it is refused as before)."""
    try:
        return next(root.iterdir(), None) is not None
    except OSError:
        return True


def _state_workspace(state: Path) -> Path:
    """The workspace OpenClaw's config in this state folder names (agents.defaults.workspace), else its default."""
    import json  # only to say where the workspace is, when a wrong folder was given

    try:
        config = json.loads((state / "openclaw.json").read_text(encoding="utf-8"))
        configured = config["agents"]["defaults"]["workspace"]
    except (OSError, ValueError, KeyError, TypeError):
        configured = None
    return Path(configured).expanduser() if isinstance(configured, str) and configured.strip() else state / "workspace"


def in_agent_turn(env=None) -> bool:
    """Run by an OpenClaw agent's exec tool (it sets OPENCLAW_SHELL=exec)?"""
    env = os.environ if env is None else env
    return env.get("OPENCLAW_SHELL") == "exec"


def resolve_now(flag: str | None = None, env=None) -> datetime:
    """The clock for the whole run: --now, HIPPOCAMPUS_NOW, else the real time (always aware, UTC)."""
    env = os.environ if env is None else env
    text = flag or env.get("HIPPOCAMPUS_NOW")
    if not text:
        return datetime.now(timezone.utc)
    instant = parse_instant(text)
    if instant is None:
        raise UsageError(
            f"--now: cannot read {text!r} as an ISO-8601 date or time (between the years "
            f"{EARLIEST_NOW.year} and {LATEST_NOW.year - 1})"
        )
    if not EARLIEST_NOW <= instant < LATEST_NOW:
        raise UsageError(
            f"--now: {text!r} is outside the years this skill runs in ({EARLIEST_NOW.year} to {LATEST_NOW.year - 1})"
        )
    return instant


class Workspace:
    """The paths of one workspace."""

    __slots__ = ("root",)

    def __init__(self, root: Path):
        self.root = root

    def __eq__(self, other) -> bool:
        return isinstance(other, Workspace) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    def __repr__(self) -> str:
        return f"Workspace({self.root!r})"

    @property
    def memory(self) -> Path:
        return self.root / "memory"

    @property
    def index(self) -> Path:
        return self.memory / "index.json"

    @property
    def touches(self) -> Path:
        return self.memory / "touches.jsonl"

    @property
    def lock(self) -> Path:
        return self.memory / ".hippocampus.lock"

    @property
    def backups(self) -> Path:
        return self.memory / "backups"

    @property
    def events(self) -> Path:
        return self.memory / "brain-events.jsonl"

    @property
    def signals(self) -> Path:
        return self.memory / "signals.jsonl"

    @property
    def pending(self) -> Path:
        return self.memory / "pending-memories.json"

    @property
    def archive(self) -> Path:
        """Memories moved out of the index by consolidation (faded or merged): one JSON object a line."""
        return self.memory / "archive.jsonl"

    @property
    def ids(self) -> Path:
        """The highest memory id ever given, and the files read to know it: an id is never given twice."""
        return self.memory / "ids.json"

    @property
    def consolidation(self) -> Path:
        """Weekly consolidation reports, `<YYYY-Www>.md`."""
        return self.memory / "consolidation"

    @property
    def config(self) -> Path:
        """Settings written by install.py, e.g. {"firstRun": {"signals": 200}} or {"firstRun": {"whole": true}}."""
        return self.memory / CONFIG_NAME

    @property
    def cache(self) -> Path:
        return self.memory / ".cache"

    @property
    def core_file(self) -> Path:
        return self.root / "HIPPOCAMPUS_CORE.md"

    @property
    def dashboard(self) -> Path:
        return self.root / "brain-dashboard.html"

    @property
    def identity(self) -> Path:
        return self.root / "IDENTITY.md"

    def domain_dir(self, domain: str) -> Path:
        return self.memory / domain


def resolve_crontab(env=None) -> str:
    """The crontab program: $HIPPOCAMPUS_CRONTAB (tests point it at a stand-in), else `crontab`."""
    env = os.environ if env is None else env
    return env.get("HIPPOCAMPUS_CRONTAB") or "crontab"
