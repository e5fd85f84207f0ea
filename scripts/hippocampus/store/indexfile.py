"""memory/index.json, the store of record: its versions and migrations, loading it whole (validated, secrets
redacted), saving it whole (one memory a line, atomically), and the dated backups."""

from __future__ import annotations

import json
import os
import shutil
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .. import redaction
from ..errors import HippocampusError
from ..model import SCHEMA_VERSION, Index
from ..timeutil import iso
from ..workspace import Workspace
from .files import check_index_link, folder_error, identity, replacing

BACKUPS_KEPT = 7
# The redaction rules the memories were last saved under: a store saved under older rules (or by hand, or by the old
# skill) is redacted as it is loaded, and saved redacted by the next write.
RULES_KEY = "redactionRules"


# --- versions -------------------------------------------------------------------------------------------------


def _v1_to_v2(raw: dict) -> dict:
    """Version 2 adds optional per-memory fields (sources, decay anchor, history); a v1 file only needs the number."""
    raw["version"] = 2
    return raw


MIGRATIONS = {1: _v1_to_v2}  # from-version -> function returning the next version


def migrate(raw: dict, where: str) -> dict:
    version = raw.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise HippocampusError(f"{where}: `version` must be a whole number, not {version!r}")
    if version > SCHEMA_VERSION:
        raise HippocampusError(
            f"{where} is version {version}, newer than this hippocampus understands ({SCHEMA_VERSION}); "
            "update the skill, or restore an older copy from memory/backups/"
        )
    while raw.get("version", 1) < SCHEMA_VERSION:
        raw = MIGRATIONS[raw.get("version", 1)](raw)
    return raw


# --- load and save --------------------------------------------------------------------------------------------


@dataclass
class Loaded:
    """An index as read from disk, and what the next save must know of the file it came from."""

    index: Index
    identity: str | None = None  # of the file read (files.identity); None when there was none
    checksum: str | None = None  # CRC-32 of the bytes read
    version: int = SCHEMA_VERSION  # the file's version before migration
    redacted: set[str] = field(default_factory=set)  # memories whose stored words held a secret (redacted now)

    @property
    def stale(self) -> bool:
        """The file must be saved again: it is an older version, or its words were redacted as it was loaded."""
        return self.identity is not None and (self.version < SCHEMA_VERSION or bool(self.redacted))


def _parse(ws: Workspace, text: bytes):
    try:
        return json.loads(text)
    except UnicodeDecodeError:
        raise HippocampusError(f"{ws.index} is not UTF-8 text; restore a copy from {ws.backups}/") from None
    except json.JSONDecodeError as exc:
        raise HippocampusError(
            f"{ws.index} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            f"fix it or restore a copy from {ws.backups}/"
        ) from None
    except RecursionError:
        raise HippocampusError(
            f"{ws.index} is nested too deeply to be an index; restore a copy from {ws.backups}/"
        ) from None


def load(ws: Workspace) -> Loaded:
    """The whole index as it is on disk: validated, migrated, and redacted unless it was saved under today's rules
    (see RULES_KEY). A missing file is an empty index; anything unreadable is an error that names the file."""
    try:
        with open(ws.index, "rb") as handle:
            st = os.fstat(handle.fileno())
            text = handle.read()
    except FileNotFoundError:
        check_index_link(ws)
        return Loaded(Index(memories=[], meta={RULES_KEY: redaction.RULES}))
    except IsADirectoryError:
        raise folder_error(ws.index) from None
    except OSError as exc:
        raise HippocampusError(f"cannot read {ws.index}: {exc.strerror}") from None
    raw = _parse(ws, text)
    if not isinstance(raw, dict):
        raise HippocampusError(f"{ws.index}: expected a JSON object with `memories`, found {type(raw).__name__}")
    version = raw.get("version", 1)
    index = Index.from_dict(migrate(raw, str(ws.index)), str(ws.index))
    loaded = Loaded(index, identity(st), f"{zlib.crc32(text):08x}", version if isinstance(version, int) else 1)
    if index.meta.get(RULES_KEY) != redaction.RULES:
        loaded.redacted = {m.id for m in index.memories if redaction.redact_memory(m.raw)}
        index.meta[RULES_KEY] = redaction.RULES
    return loaded


ENCODE = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def save(ws: Workspace, loaded: Loaded, now: datetime) -> None:
    """Write index.json atomically, whole: the bookkeeping keys on the first line, then one memory a line (readable
    and diffable). A file of an older version is copied to memory/backups/ once before it is first rewritten.
    `loaded` then describes the file written."""
    index = loaded.index
    if loaded.version < SCHEMA_VERSION and ws.index.exists():
        keep = ws.backups / f"index.v{loaded.version}.original.json"
        if not keep.exists():
            _copy_atomically(ws.index, keep)
    index.version = SCHEMA_VERSION
    index.meta["lastUpdated"] = iso(now)
    head = ENCODE({"version": SCHEMA_VERSION, **{k: v for k, v in index.meta.items() if k != "version"}})[:-1]
    lines = [ENCODE(memory.stored()) for memory in index.memories]
    body = head + (', "memories": [\n' + ",\n".join(lines) + "\n]}\n" if lines else ', "memories": []}\n')
    data = body.encode("utf-8")
    with replacing(ws.index) as out:
        out.write(data)
    loaded.identity = identity(os.stat(ws.index))
    loaded.checksum = f"{zlib.crc32(data):08x}"
    loaded.version = SCHEMA_VERSION
    loaded.redacted = set()


def _copy_atomically(source: Path, target: Path) -> None:
    """A copy that streams (a 50 MB index is not read into memory) and appears whole or not at all."""
    with replacing(target) as out, open(source, "rb") as src:
        shutil.copyfileobj(src, out, 1 << 20)


def backup(ws: Workspace, now: datetime, keep: int = BACKUPS_KEPT) -> Path | None:
    """A dated copy of the current index (one a day), keeping the newest `keep` of them."""
    if not ws.index.exists():
        return None
    target = ws.backups / f"index-{now.date().isoformat()}.json"
    if not target.exists():
        _copy_atomically(ws.index, target)
    dated = sorted(ws.backups.glob("index-????-??-??.json"))
    for old in dated[:-keep] if keep > 0 else dated:
        try:
            old.unlink()
        except OSError:
            pass
    return target


def read_meta(ws: Workspace) -> dict:
    """The index's bookkeeping keys ({} without an index), for a caller that needs nothing else (preprocess)."""
    return load(ws).index.meta
