"""The user's time zone as OpenClaw is told it: `agents.defaults.userTimezone` in openclaw.json, in its state dir
or where $OPENCLAW_CONFIG_PATH says (an IANA name, "America/Chicago"). OpenClaw 2026.9.6 has no per-agent setting
of it (an entry of `agents.list` with one fails its config check), so the default is every agent's.

Commitments read due times in this zone when it is set — wall-clock times, right across a clock change — and
otherwise at the UTC offset of the user's message stamps (`duetime.zone_of`). A name that is no zone known here, or
an openclaw.json that cannot be read, is ignored with one line of warning; no file or no setting says nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

from .. import json5
from ..workspace import resolve_config

KEY = ("agents", "defaults", "userTimezone")
CONFIG_LIMIT = 1 << 20  # bytes of openclaw.json read at most (a real one is a few kilobytes)
# What an IANA zone name looks like ("America/Argentina/Buenos_Aires", "Etc/GMT+5", "UTC"): checked before the
# name reaches ZoneInfo, which takes it as a path below the zone folder.
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+-]{0,30}(?:/[A-Za-z0-9][A-Za-z0-9_+-]{0,30}){0,3}")


@dataclass(frozen=True)
class UserZone:
    """The zone configured (None: none, or none usable), its name, and why a setting was not used."""

    zone: tzinfo | None = None
    name: str | None = None
    problem: str | None = None


def read(state_dir: Path | None) -> UserZone:
    """The user's zone from OpenClaw's config: openclaw.json in its state dir (None: not known where that is), or the
    file $OPENCLAW_CONFIG_PATH names, as OpenClaw reads it (workspace.resolve_config)."""
    if state_dir is None:
        return UserZone()
    path = resolve_config(state_dir)
    try:
        with path.open("rb") as handle:
            raw = handle.read(CONFIG_LIMIT + 1)
    except FileNotFoundError:
        return UserZone()
    except OSError as exc:
        return UserZone(problem=f"{path}: cannot read it ({exc.strerror or exc}); due times read at message stamps")
    if len(raw) > CONFIG_LIMIT:
        return UserZone(problem=f"{path}: larger than {CONFIG_LIMIT} bytes, not read; due times read at message stamps")
    try:
        config = json5.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json5.JSON5Error) as exc:
        return UserZone(problem=f"{path}: cannot read it as JSON5 ({exc}); due times read at message stamps")
    node = config
    for part in KEY:
        node = node.get(part) if isinstance(node, dict) else None
    if node is None:
        return UserZone()
    return zone_named(node, f"{path}: {'.'.join(KEY)}")


def zone_named(name: object, where: str) -> UserZone:
    """The zone of an IANA name, or why it is none."""
    if isinstance(name, str) and _NAME.fullmatch(name.strip()):
        try:
            return UserZone(ZoneInfo(name.strip()), name.strip())
        except Exception:  # not found, not a zone file, a folder, a name too deep: no zone, whatever the reason
            pass
    shown = repr(name)[:60] + ("…" if len(repr(name)) > 60 else "")
    return UserZone(problem=f"{where} {shown} is no time zone known here; due times read at message stamps")
