"""memory/index.json: its versions and migrations, loading (validated, secrets redacted) and saving, its
one-memory-a-line form read and rewritten a line at a time, and the dated backups."""

from __future__ import annotations

import json
import os
import shutil
import zlib
from datetime import datetime
from pathlib import Path

from .. import redaction
from ..errors import HippocampusError
from ..timeutil import iso
from ..workspace import Workspace
from .files import (atomic_write, check_index_link, fsync_dir, remember_checksum, replacing, temporary_file,
                    through_links, write_error)
from .model import SCHEMA_VERSION, Index

BACKUPS_KEPT = 7


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

def read_raw(ws: Workspace) -> dict | None:
    """The index file as parsed JSON, or None when there is none yet. Corrupt files are an error naming the file."""
    try:
        with open(ws.index, "rb") as handle:
            st = os.fstat(handle.fileno())
            text = handle.read()
    except FileNotFoundError:
        check_index_link(ws)
        return None
    except OSError as exc:
        raise HippocampusError(f"cannot read {ws.index}: {exc.strerror}") from None
    remember_checksum(ws.index, st, zlib.crc32(text))
    try:
        raw = json.loads(text)
    except UnicodeDecodeError:
        raise HippocampusError(f"{ws.index} is not UTF-8 text; restore a copy from {ws.backups}/") from None
    except json.JSONDecodeError as exc:
        raise HippocampusError(
            f"{ws.index} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            f"fix it or restore a copy from {ws.backups}/"
        ) from None
    except RecursionError:
        raise HippocampusError(f"{ws.index} is nested too deeply to be an index; restore a copy from "
                               f"{ws.backups}/") from None
    if not isinstance(raw, dict):
        raise HippocampusError(f"{ws.index}: expected a JSON object with `memories`, found {type(raw).__name__}")
    return raw


def load_index(ws: Workspace, ours: bool = False) -> Index:
    """The index as it is on disk (no touches applied), secrets redacted: a store written before a kind of secret
    was known (or by hand) shows none, and the next write saves it so (`Index.redacted`). `ours`: the file is
    exactly our last write under the current rules (`cache.witnessed`), so there is nothing to redact. A
    missing file is an empty index."""
    raw = read_raw(ws)
    if raw is None:
        return Index(memories=[], meta={})
    disk_version = raw.get("version", 1)
    index = Index.from_dict(migrate(raw, str(ws.index)), str(ws.index))
    index.disk_version = disk_version
    if not ours:
        index.redacted = {m.id for m in index.memories if redaction.redact_memory(m.raw)}
    return index


def save_index(ws: Workspace, index: Index, now: datetime) -> None:
    """Write the index atomically. A v1 file is copied to memory/backups/ once before it is first rewritten."""
    disk_version = index.disk_version
    if disk_version < SCHEMA_VERSION and ws.index.exists():
        keep = ws.backups / f"index.v{disk_version}.original.json"
        if not keep.exists():
            atomic_write(keep, ws.index.read_bytes())
    index.version = SCHEMA_VERSION
    index.meta["lastUpdated"] = iso(now)
    payload = dump_index(index).encode("utf-8")
    atomic_write(ws.index, payload)
    remember_checksum(ws.index, os.stat(ws.index), zlib.crc32(payload))
    index.disk_version = SCHEMA_VERSION


def _copy_atomically(source: Path, target: Path) -> None:
    """A copy that streams (a 50 MB index is not read into memory) and appears whole or not at all."""
    with replacing(target) as out, open(source, "rb") as src:
        shutil.copyfileobj(src, out, 1 << 20)


def dump_index(index: Index) -> str:
    """The file's text: the bookkeeping keys, then one memory a line (readable, diffable and fast to write)."""
    data = index.to_dict()
    memories = data.pop("memories")
    head = json.dumps(data, ensure_ascii=False)[:-1]
    lines = ",\n".join(map(_ENCODE, memories))
    return f'{head}, "memories": [\n{lines}\n]}}\n' if memories else f'{head}, "memories": []}}\n'


# --- line by line: large stores, files we wrote ourselves -----------------------------------------------------

class NotLineFormat(Exception):
    """index.json is not in the one-memory-a-line form that `dump_index` writes (a hand edit, an old file)."""


_OPEN = ', "memories": [\n'
_EMPTY = ', "memories": []}\n'
_CLOSE = "]}\n"
_ENCODE = ENCODE = json.JSONEncoder(ensure_ascii=False).encode  # one memory's line


def _head(line: str) -> tuple[dict, bool]:
    """The bookkeeping keys of a first line, and whether memory lines follow."""
    for ending, more in ((_OPEN, True), (_EMPTY, False)):
        if line.endswith(ending):
            try:
                meta = json.loads(line[: -len(ending)] + "}")
            except json.JSONDecodeError:
                break
            if isinstance(meta, dict) and meta.get("version") == SCHEMA_VERSION:
                return meta, more
    raise NotLineFormat(line[:80])


def memory_lines(ws: Workspace):
    """(bookkeeping keys, an iterator over each memory's JSON text) of a line-format index.json, streamed."""
    handle = open(ws.index, encoding="utf-8")
    try:
        meta, more = _head(handle.readline())
    except BaseException:
        handle.close()
        raise

    def lines():
        with handle:
            if not more:
                return
            for line in handle:
                if line == _CLOSE:
                    return
                if line.endswith(",\n"):
                    yield line[:-2]
                elif line.endswith("\n"):
                    yield line[:-1]
                else:
                    raise NotLineFormat("a memory line without its end")
            raise NotLineFormat("no closing line")

    return meta, lines()


def read_meta(ws: Workspace) -> dict | None:
    """The index's bookkeeping keys (None without an index): from the first line alone when the file is in line
    form, else from the whole file."""
    try:
        meta, lines = memory_lines(ws)
        lines.close()
        return meta
    except FileNotFoundError:
        return None
    except (NotLineFormat, OSError, UnicodeDecodeError, RecursionError):
        raw = read_raw(ws)
        return None if raw is None else {k: v for k, v in raw.items() if k != "memories"}


def rewrite_index(ws: Workspace, now: datetime, edit_line, edit_meta=None, append=()) -> dict:
    """Stream index.json into its replacement a line at a time: `edit_line(text)` returns each memory's new text,
    `edit_meta(meta)` may change the bookkeeping keys, `append` adds memories at the end. Memory stays small
    however large the store; the file is replaced atomically. Raises NotLineFormat (nothing replaced) for a file
    not in line form. Use only on a file this version wrote (`cache.witnessed`): lines are not re-validated."""
    meta, lines = memory_lines(ws)
    if edit_meta is not None:
        edit_meta(meta)
    meta["version"] = SCHEMA_VERSION
    meta["lastUpdated"] = iso(now)
    head = json.dumps(meta, ensure_ascii=False)[:-1]
    target = through_links(ws.index)
    fd, tmp_name = temporary_file(target)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", buffering=1 << 20) as out:
            out.write(head + _OPEN)
            count = 0
            for text in lines:
                out.write((",\n" if count else "") + edit_line(text))
                count += 1
            for memory in append:
                out.write((",\n" if count else "") + _ENCODE(memory.to_dict()))
                count += 1
            if count:
                out.write("\n" + _CLOSE)
            else:
                out.seek(0)
                out.truncate()
                out.write(head + _EMPTY)
            out.flush()
            os.fsync(out.fileno())
        shutil.copymode(target, tmp_name)
        os.replace(tmp_name, target)
    except BaseException as exc:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise write_error(ws.index, exc) from None
        raise
    fsync_dir(target.parent)
    return meta


def backup_index(ws: Workspace, now: datetime, keep: int = BACKUPS_KEPT, link: bool = False) -> Path | None:
    """A dated copy of the current index (one a day), keeping the newest `keep` of them.

    `link`: the caller replaces index.json right away (every write of ours is a rename, never an edit in place),
    so a hard link holds the old file as well as a copy would, at no cost; the caller calls `unlink_backup` if
    it then does not replace the file. Filesystems without hard links get a copy."""
    if not ws.index.exists():
        return None
    target = ws.backups / f"index-{now.date().isoformat()}.json"
    if not target.exists():
        made = False
        if link:
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.link(os.path.realpath(ws.index), target)  # the file itself, never a link to the link
                made = True
            except OSError:
                pass
        if not made:
            _copy_atomically(ws.index, target)
    dated = sorted(p for p in ws.backups.glob("index-????-??-??.json"))
    for old in dated[:-keep] if keep > 0 else dated:
        try:
            old.unlink()
        except OSError:
            pass
    return target


def unlink_backup(ws: Workspace, backup: Path | None) -> None:
    """Undo a linked backup whose index.json was not replaced after all (an edit in place would reach it)."""
    try:
        if backup is not None and os.path.samefile(backup, ws.index):
            backup.unlink()
    except OSError:
        pass


