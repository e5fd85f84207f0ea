"""memory/index.json: its versions and migrations, loading (validated, secrets redacted), saving in our
one-memory-a-line form, reading that form a memory at a time, and the dated backups."""

from __future__ import annotations

import gc
import json
import math
import os
import shutil
import zlib
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .. import redaction
from ..errors import HippocampusError
from ..timeutil import iso
from ..workspace import Workspace
from .files import check_index_link, remember_checksum, replacing, signature_of
from .model import SCHEMA_VERSION, Index, Memory

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
        raise HippocampusError(
            f"{ws.index} is nested too deeply to be an index; restore a copy from {ws.backups}/"
        ) from None
    if not isinstance(raw, dict):
        raise HippocampusError(f"{ws.index}: expected a JSON object with `memories`, found {type(raw).__name__}")
    return raw


def load_index(ws: Workspace) -> Index:
    """The index as it is on disk (no touches applied), loaded whole: validated, migrated, secrets redacted — a
    store written before a kind of secret was known (or by hand) shows none, and the next write saves it so
    (`Index.redacted`). A missing file is an empty index."""
    raw = read_raw(ws)
    if raw is None:
        return Index(memories=[], meta={})
    disk_version = raw.get("version", 1)
    index = Index.from_dict(migrate(raw, str(ws.index)), str(ws.index))
    index.disk_version = disk_version
    index.redacted = {m.id for m in index.memories if redaction.redact_memory(m.raw)}
    return index


_OPEN = ', "memories": [\n'
_EMPTY = ', "memories": []}\n'
_CLOSE = "]}\n"
ENCODE = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode  # one memory's line (a tree from JSON)
_STRING = json.encoder.encode_basestring  # a string as ENCODE writes it
_BATCH = 1 << 20  # characters written at a time
_ANCHOR_KEYS = ("base", "from", "last")


def _anchored(importance, anchor) -> tuple[float, float, str, float] | None:
    """(importance, base, day, last) of a memory whose importance and decay anchor ENCODE writes as `_tail`
    does; None when they are of another shape (then only ENCODE knows how it writes them)."""
    if type(importance) is not float or type(anchor) is not dict or tuple(anchor) != _ANCHOR_KEYS:
        return None
    base, day, last = anchor.values()
    if type(base) is not float or type(last) is not float or type(day) is not str:
        return None
    if not math.isfinite(importance + base + last):
        return None  # written by ENCODE as NaN or Infinity, not by repr
    return importance, base, day, last


def _anchor_text(base: float, day: str) -> str:
    """The middle of a tail (see `line_tail`): the decay anchor's base and day, up to its last value."""
    return f', "decay": {{"base": {base!r}, "from": {_STRING(day)}, "last": '


def _tail(importance: float, anchor_text: str, last: float) -> str:
    """The end of a line as ENCODE writes these values (see `line_tail`)."""
    shown = repr(importance)
    # Decay writes one value twice; parsed, they are two equal floats. Equal floats print alike, but for 0 and -0.
    last_shown = shown if last is importance or (last == importance and last) else repr(last)
    return f'"importance": {shown}{anchor_text}{last_shown}}}}}'


def line_tail(memory: Memory) -> str | None:
    """How ENCODE ends the line of a memory whose last keys are `importance` and its decay anchor (where
    `Memory.to_dict` puts them): `"importance": 0.5, "decay": {"base": 0.5, "from": "2026-11-01", "last": 0.5}}`.
    None when the values are of another shape."""
    found = _anchored(memory.raw.get("importance"), memory.raw.get("decay"))
    return None if found is None else _tail(found[0], _anchor_text(found[1], found[2]), found[3])


def refade(text: str, memory: Memory, each: Callable[[Memory], bool]) -> str:
    """The line of a memory stored as `text` once `each(memory)` — which changes at most its importance and decay
    anchor (the daily decay) — has run: `text` when it changed nothing; `text` with a new tail when its old tail
    (see `line_tail`) is how `text` ends and the memory has the keys it had; else the memory encoded whole. The same
    text either way: ENCODE writes keys in order and floats by their repr, so a line's tail is the encoding of its
    last two keys."""
    raw = memory.raw
    keys, old = len(raw), _anchored(raw.get("importance"), raw.get("decay"))
    if not each(memory):
        return text
    new = _anchored(raw.get("importance"), raw.get("decay")) if old is not None and len(raw) == keys else None
    if old is not None and new is not None:
        anchor_text = _anchor_text(old[1], old[2])
        before = _tail(old[0], anchor_text, old[3])
        if text.endswith(before):
            if new[1] is not old[1] or new[2] != old[2]:  # a new anchor (the daily decay keeps the same base)
                anchor_text = _anchor_text(new[1], new[2])
            return text[: len(text) - len(before)] + _tail(new[0], anchor_text, new[3])
    return ENCODE(memory.to_dict())


def save_index(ws: Workspace, index: Index, now: datetime, lines: Iterable[str] | None = None) -> None:
    """Write index.json atomically in our line form: the bookkeeping keys on the first line, then one memory a
    line (readable, diffable, and streamed — memory stays small however large the store). The memories are
    `index.memories`, or the JSON text of each given by `lines` (a transaction streaming the stored file into
    its replacement). A v1 file is copied to memory/backups/ once before it is first rewritten."""
    disk_version = index.disk_version
    if disk_version < SCHEMA_VERSION and ws.index.exists():
        keep = ws.backups / f"index.v{disk_version}.original.json"
        if not keep.exists():
            _copy_atomically(ws.index, keep)
    index.version = SCHEMA_VERSION
    index.meta["lastUpdated"] = iso(now)
    if lines is None:
        lines = (ENCODE(memory.to_dict()) for memory in index.memories)
    head = json.dumps(
        {"version": SCHEMA_VERSION, **{k: v for k, v in index.meta.items() if k not in ("version", "memories")}},
        ensure_ascii=False,
    )[:-1]
    crc = 0
    with replacing(ws.index) as out, _cycle_collection_paused():

        def put(text: str) -> None:
            nonlocal crc
            data = text.encode("utf-8")
            out.write(data)
            crc = zlib.crc32(data, crc)

        batch: list[str] = []
        size = written = 0
        for text in lines:
            batch.append(text)
            size += len(text)
            if size >= _BATCH:
                put((",\n" if written else head + _OPEN) + ",\n".join(batch))
                written += len(batch)
                batch.clear()
                size = 0
        if batch:
            put((",\n" if written else head + _OPEN) + ",\n".join(batch))
            written += len(batch)
        put("\n" + _CLOSE if written else head + _EMPTY)
    remember_checksum(ws.index, os.stat(ws.index), crc)
    index.disk_version = SCHEMA_VERSION


@contextmanager
def _cycle_collection_paused() -> Iterator[None]:
    """Pause Python's cycle collector while memories stream through a save. Values parsed from JSON make no
    reference cycles, so it would find nothing; but with each batch in hand surviving its collections, it would
    scan the whole heap again every few batches (about a tenth of a daily decay at 100k memories)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _copy_atomically(source: Path, target: Path) -> None:
    """A copy that streams (a 50 MB index is not read into memory) and appears whole or not at all."""
    with replacing(target) as out, open(source, "rb") as src:
        shutil.copyfileobj(src, out, 1 << 20)


# --- a stored memory at a time: files in our line form --------------------------------------------------------


def _head(line: str) -> tuple[dict, bool] | None:
    """(the bookkeeping keys, whether memory lines follow) of the first line of a file in our line form."""
    for ending, more in ((_OPEN, True), (_EMPTY, False)):
        if line.endswith(ending):
            try:
                meta = json.loads(line[: -len(ending)] + "}")
            except (json.JSONDecodeError, RecursionError):
                return None
            if isinstance(meta, dict) and meta.get("version") == SCHEMA_VERSION:
                meta.pop("version")
                return meta, more
    return None


def _not_ours(ws: Workspace, what: str) -> HippocampusError:
    return HippocampusError(
        f"{ws.index} is not one memory a line as this version writes it ({what}); "
        f"nothing was changed — run again, or restore a copy from {ws.backups}/"
    )


def _open_stored(ws: Workspace):
    """(an open handle past the first line, the bookkeeping keys, whether memory lines follow) of an index.json
    in our line form; None when there is no file."""
    try:
        handle = open(ws.index, encoding="utf-8")
    except FileNotFoundError:
        check_index_link(ws)
        return None
    except OSError as exc:
        raise HippocampusError(f"cannot read {ws.index}: {exc.strerror}") from None
    try:
        found = _head(handle.readline())
    except UnicodeDecodeError:
        found = None
    except BaseException:
        handle.close()
        raise
    if found is None:
        handle.close()
        raise _not_ours(ws, "its first line")
    return handle, *found


def stored_meta(ws: Workspace) -> dict:
    """The bookkeeping keys of an index.json in our line form, from its first line ({} without a file)."""
    opened = _open_stored(ws)
    if opened is None:
        return {}
    opened[0].close()
    return opened[1]


def stored_memories(ws: Workspace, ours: str | None = None) -> tuple[dict, Iterator[tuple[Memory, str]]]:
    """(the bookkeeping keys, and streamed, each stored memory with its line's text) of an index.json in our
    line form (every transaction first makes it so). Each line is parsed as JSON and validated as a whole load
    validates it (`Memory.from_dict`, ids unique); anything else is an error naming the file. A missing file is
    an empty store.

    `ours`: the signature of the file as our last write produced it (`cache.witnessed`). Every line of that file
    was validated before it was written, so its memories are taken as parsed — once the open file is seen to be
    that very one (else nothing is read: the file changed since the caller looked)."""
    opened = _open_stored(ws)
    if opened is None:
        return {}, iter(())
    handle, meta, more = opened
    if ours is not None and signature_of(os.fstat(handle.fileno())) != ours:
        handle.close()
        raise HippocampusError(f"{ws.index} changed while this run was reading it; nothing was changed — run again")

    seen: set[str] = set()
    where = str(ws.index)

    def memories() -> Iterator[tuple[Memory, str]]:
        number = 1  # of the line last read
        with handle:
            if not more:
                return
            try:
                texts: list[str] = []
                closed = False
                for line in handle:
                    if line == _CLOSE:
                        closed = True
                        break
                    texts.append(line[:-2] if line.endswith(",\n") else line[:-1] if line.endswith("\n") else "")
                    if len(texts) == _PARSED_TOGETHER:
                        yield from take(texts, number + 1)
                        number += len(texts)
                        texts = []
                yield from take(texts, number + 1)
                number += len(texts) + 1
                if closed:
                    return
            except UnicodeDecodeError:
                raise HippocampusError(f"{ws.index} is not UTF-8 text; restore a copy from {ws.backups}/") from None
            raise _not_ours(ws, "no closing line")

    def take(texts: list[str], first: int) -> list[tuple[Memory, str]]:
        """The memories of consecutive lines, numbered from `first`: parsed together (one parse of many lines is
        several times faster than one per line), or one by one to name the line when that fails."""
        values = _parse_together(texts)
        if values is not None and ours is not None:
            return [(Memory.wrap(raw), text) for raw, text in zip(values, texts, strict=True)]
        out = []
        for number, (text, raw) in enumerate(zip(texts, values or [_parse_one(t) for t in texts], strict=True), first):
            if raw is None:
                raise _not_ours(ws, f"line {number}")
            memory = Memory.from_dict(raw, f"{where} line {number}")
            if memory.id in seen:
                raise HippocampusError(f"{where}: the id {memory.id} appears twice; give one of them a new id")
            seen.add(memory.id)
            out.append((memory, text))
        return out

    return meta, memories()


_PARSED_TOGETHER = 500  # memory lines parsed in one call


def _parse_one(text: str) -> object:
    """One memory line's value; None when it is not one JSON object."""
    if not (text.startswith("{") and text.endswith("}")):
        return None
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None


def _parse_together(texts: list[str]) -> list | None:
    """The values of many memory lines in one parse, when each line is one JSON object (as we write them: an
    object from its first character to its last) and together they make exactly one value each; else None."""
    if not all(t.startswith("{") and t.endswith("}") for t in texts):
        return None
    try:
        values = json.loads("[" + ",".join(texts) + "]")
    except (json.JSONDecodeError, RecursionError):
        return None
    return values if len(values) == len(texts) else None


def read_meta(ws: Workspace) -> dict | None:
    """The index's bookkeeping keys (None without an index): from the first line alone when the file is in line
    form, else from the whole file."""
    try:
        with open(ws.index, encoding="utf-8") as handle:
            found = _head(handle.readline())
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        found = None
    if found is not None:
        return found[0]
    raw = read_raw(ws)
    return None if raw is None else {k: v for k, v in raw.items() if k not in ("version", "memories")}


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
