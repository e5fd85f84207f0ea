"""memory/hippocampus-config.json, written by the installer: how much history the first encoding takes, who the
agent's owner is, and where OpenClaw's state dir is."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import HippocampusError
from ..workspace import Workspace
from .transcripts import Owner


@dataclass(frozen=True)
class Config:
    """memory/hippocampus-config.json: `firstRun` ({"signals": N} or {"whole": true}) and `owners` (sender ids,
    usernames or names of the agent's owner; other senders' words are kept as untrusted)."""

    first_run_limit: int | None = None
    owners: frozenset[str] = frozenset()
    state_dir: str | None = None  # OpenClaw's state dir, when the installer was given one other than the default

    @property
    def owner(self) -> Owner | None:
        return Owner(self.owners) if self.owners else None


def load_config(ws: Workspace) -> Config:
    path = ws.config
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Config()
    except (OSError, ValueError, RecursionError) as exc:
        raise HippocampusError(f"{path} is not readable JSON ({exc}); fix it or delete it") from None
    if not isinstance(raw, dict):
        raise HippocampusError(f"{path}: expected a JSON object")
    limit = None
    first = raw.get("firstRun")
    if first is not None:
        signals = first.get("signals") if isinstance(first, dict) else None
        whole = first.get("whole") if isinstance(first, dict) else None
        if whole is True and signals is None:
            limit = None
        elif isinstance(signals, int) and not isinstance(signals, bool) and signals >= 0 and not whole:
            limit = signals
        else:
            raise HippocampusError(f'{path}: `firstRun` must be {{"signals": N}} or {{"whole": true}}, not {first!r}')
    owners = raw.get("owners", [])
    if not isinstance(owners, list) or not all(isinstance(o, (str, int)) and not isinstance(o, bool) for o in owners):
        raise HippocampusError(f"{path}: `owners` must be a list of sender ids, usernames or names")
    state_dir = raw.get("stateDir")
    if state_dir is not None and not (isinstance(state_dir, str) and Path(state_dir).is_absolute()):
        raise HippocampusError(f"{path}: `stateDir` must be an absolute path, not {state_dir!r}")
    return Config(limit, frozenset(str(o).strip().lower().lstrip("@") for o in owners if str(o).strip()), state_dir)
