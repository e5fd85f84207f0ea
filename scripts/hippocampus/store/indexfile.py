"""memory/index.json, the store of record: its versions and migrations, loading it (each memory kept as its JSON
text until read, see model.Memory; secrets redacted), saving it whole (one memory a line, atomically, streamed), and
the dated backups."""

from __future__ import annotations

import codecs
import json
import os
import re
import shutil
import zlib
from array import array
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO, Callable

from .. import redaction
from ..errors import HippocampusError
from ..model import DECODE, ENCODE, SCHEMA_VERSION, Index, Memory, Span, escaped, whole_characters
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
    renewed: bool = False  # validating its memories changed the text of some (model.Memory.validated)
    held: Held | None = None  # the file read, where its memories are read again from
    # The places of the memories `load`'s `each` left to its caller (32-bit numbers: 100,000 of them as a list of
    # ints would hold 3.4 MiB).
    later: array = field(default_factory=lambda: array("I"))

    @property
    def stale(self) -> bool:
        """The file must be saved again: it is an older version, its words were redacted as it was loaded, or its
        memories were validated into another text."""
        return self.identity is not None and (self.version < SCHEMA_VERSION or bool(self.redacted) or self.renewed)


# A writer's reader of every memory as the index is read (see `load`): whether it changed the memory, or None to
# leave it for later.
Each = Callable[[Memory], bool | None]
_SPACE = re.compile(r"[ \t\n\r]*")
CHUNK = 1 << 20  # bytes of index.json read at a time


class Held:
    """index.json held open as it was read, for the memories read from it to be read again from it (model.Span),
    after a writer has replaced it too. The file changed in place since (restored from a backup with `cp`, edited
    by hand) is an error, never memories read from the wrong place: the text at a memory's place is not that
    memory, or a writer finds its size or time changed before it saves (`check`)."""

    __slots__ = ("fd", "path", "contents")

    def __init__(self, fd: int, path: Path):
        self.fd, self.path = fd, path
        self.contents = self._contents()

    def _contents(self) -> tuple[int, int]:
        st = os.fstat(self.fd)
        return st.st_size, st.st_mtime_ns

    def read(self, start: int, end: int) -> bytes:
        data = os.pread(self.fd, end - start, start)
        if len(data) != end - start:
            raise self.changed()
        return data

    def check(self) -> None:
        """Raise `changed()` if the file is no longer the one read."""
        if self._contents() != self.contents:
            raise self.changed()

    def changed(self) -> HippocampusError:
        return HippocampusError(
            f"{self.path} was changed by another program while this one was reading it; nothing was saved from "
            "what it read: run it again"
        )

    def __del__(self, close=os.close) -> None:  # `os` may be gone when the interpreter ends
        close(self.fd)


class _Reader:
    """An index's JSON text read front to back in chunks, however it is laid out: the memories one at a time, each
    parsed once to check it is an object with an id (and handed to `each`, see `load`) and then kept as where it is
    in the file (model.Span; the text of a memory laid out over lines, as one line), so that reading a large store
    never holds the file, nor every memory parsed; everything else parsed as usual. Also the CRC-32 of the bytes
    read."""

    def __init__(self, ws: Workspace, handle: BinaryIO, each: Each | None = None, trusted: bool = False):
        self.ws, self.handle, self.each, self.trusted = ws, handle, each, trusted
        self.later = array("I")  # places of the memories `each` left
        self.held = Held(os.dup(handle.fileno()), ws.index)
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.text, self.at, self.done, self.checksum = "", 0, False, 0
        self.lines, self.column = 0, 0  # newlines in the text let go of, and characters after the last of them
        self.mark, self.offset = 0, 0  # a place in `text`, and where it is in the file (a byte offset)
        self.begun = False  # a chunk was read

    def offset_of(self, at: int) -> int:
        """Where `text[at]` is in the file, for an `at` at or after the last one asked for."""
        self.offset += len(self.text[self.mark : at].encode("utf-8"))
        self.mark = at
        return self.offset

    def more(self, at_least: int = CHUNK) -> None:
        """Read the next chunk, or `at_least` bytes (all read: `done`)."""
        data = self.handle.read(max(CHUNK, at_least))
        if not self.begun and data.startswith(codecs.BOM_UTF8):
            self.offset = len(codecs.BOM_UTF8)  # which the decoder drops
        self.begun = True
        self.checksum = zlib.crc32(data, self.checksum)
        try:
            self.text += self.decoder.decode(data, final=not data)
        except UnicodeDecodeError:
            raise HippocampusError(
                f"{self.ws.index} is not UTF-8 text; restore a copy from {self.ws.backups}/"
            ) from None
        self.done = not data

    def let_go(self) -> None:
        """Drop the text read past, once it is a chunk's worth."""
        if self.at > CHUNK:
            self.offset_of(self.at)
            self.mark = 0
            gone = self.text[: self.at]
            last = gone.rfind("\n")
            self.lines += gone.count("\n")
            self.column = self.at - last - 1 if last >= 0 else self.column + self.at
            self.text, self.at = self.text[self.at :], 0

    def fail(self, message: str, at: int | None = None) -> HippocampusError:
        at = self.at if at is None else at
        last = self.text.rfind("\n", 0, at)
        line = self.lines + self.text.count("\n", 0, at) + 1
        column = at - last if last >= 0 else self.column + at + 1
        return HippocampusError(
            f"{self.ws.index} is not valid JSON (line {line}, column {column}: {message}); "
            f"fix it or restore a copy from {self.ws.backups}/"
        )

    def space(self) -> str:
        """Skip white space; the character reached ("" at the end)."""
        while True:
            found = _SPACE.match(self.text, self.at)
            self.at = found.end() if found else self.at
            if self.at < len(self.text) or self.done:
                return self.text[self.at : self.at + 1]
            self.more()

    def value(self) -> Any:
        """The JSON value at `at`, which must end before the text read does (a number cut by a chunk is read
        whole)."""
        while True:
            try:
                found, end = DECODE(self.text, self.at)
                if end < len(self.text) or self.done:
                    self.at = end
                    return found
            except json.JSONDecodeError as exc:
                if self.done:
                    raise self.fail(exc.msg, exc.pos) from None
            except RecursionError:
                raise HippocampusError(
                    f"{self.ws.index} is nested too deeply to be an index; restore a copy from {self.ws.backups}/"
                ) from None
            self.more(len(self.text))  # a value larger than a chunk: read as much again, so it is parsed few times

    def after(self, close: str) -> bool:
        """Past the `,` before another item (True) or the `close` that ends them (False)."""
        found = self.space()
        if found == ",":
            self.at += 1
            self.space()
            return True
        if found != close:
            raise self.fail("Expecting ',' delimiter")
        self.at += 1
        return False

    def memories(self) -> list[Memory]:
        """The memories of the array opened at `at`."""
        out: list[Memory] = []
        self.at += 1
        if self.space() == "]":
            self.at += 1
            return out
        where = f"{self.ws.index}: memories"
        while True:
            self.let_go()
            start = self.at
            place = f"{where}[{len(out)}]"
            found = self.value()
            memory_id = Memory.check_id(found, place)
            text = self.text[start : self.at]
            stored: bytes | Span
            if "\n" in text or "\r" in text:  # laid out over lines (the old skill, a hand edit): one line again
                stored = ENCODE(whole_characters(DECODE(text)[0])).encode("utf-8")
            else:
                stored = Span(self.held, self.offset_of(start), self.offset_of(self.at))
            memory = Memory.from_text(stored, memory_id, None if self.trusted else where)  # its id names it
            if self.each is not None:
                read = Memory.wrap(found) if self.trusted else Memory.from_dict(found, where, escaped(text))
                done = self.each(read)
                if done is None:
                    self.later.append(len(out))
                elif done:
                    memory = read
            out.append(memory)
            if not self.after("]"):
                return out

    def index(self) -> tuple[dict, Any]:
        """(the bookkeeping keys, the `memories` value)."""
        if self.space() != "{":
            found = self.value()  # valid JSON of another kind, or an error that says where
            raise HippocampusError(
                f"{self.ws.index}: expected a JSON object with `memories`, found {type(found).__name__}"
            )
        meta: dict = {}
        memories: Any = []
        self.at += 1
        if self.space() == "}":
            self.at += 1
        else:
            while True:
                if self.space() != '"':
                    raise self.fail("Expecting property name enclosed in double quotes")
                key = self.value()
                if self.space() != ":":
                    raise self.fail("Expecting ':' delimiter")
                self.at += 1
                opens = self.space()
                if key == "memories":
                    memories = self.memories() if opens == "[" else self.value()
                else:
                    meta[key] = self.value()
                if not self.after("}"):
                    break
        if self.space():
            raise self.fail("Extra data")
        return meta, memories


def load(ws: Workspace, each: Each | None = None, vouched: str | None = None) -> Loaded:
    """The whole index as it is on disk: migrated, and redacted unless it was saved under today's rules (see
    RULES_KEY). Each memory is validated when first read (model.Memory), unless the file is the one of identity
    `vouched` (files.identity), which a write validated or wrote whole (store.cache_writer.vouched). A missing file
    is an empty index; anything unreadable is an error that names the file.

    `each`, given, is handed every memory as it is read, parsed and validated (the bookkeeping keys that follow the
    memories in the file, if any, not read yet), for a writer that reads every memory to read each once: a memory it
    changed (True) is held as it left it, one it left (None) is listed in `Loaded.later` for the caller."""
    try:
        with open(ws.index, "rb") as handle:
            st = os.fstat(handle.fileno())
            reader = _Reader(ws, handle, each, trusted=vouched is not None and identity(st) == vouched)
            meta, memories = reader.index()
    except FileNotFoundError:
        check_index_link(ws)
        return Loaded(Index(memories=[], meta={RULES_KEY: redaction.RULES}))
    except IsADirectoryError:
        raise folder_error(ws.index) from None
    except OSError as exc:
        raise HippocampusError(f"cannot read {ws.index}: {exc.strerror}") from None
    checksum = f"{reader.checksum:08x}"
    if not isinstance(memories, list):
        raise HippocampusError(f"{ws.index}: `memories` must be a list")
    version = meta.get("version", 1)
    meta = migrate(meta, str(ws.index))
    meta.pop("version", None)
    seen: set[str] = set()
    for memory in memories:
        if memory.id in seen:
            raise HippocampusError(f"{ws.index}: the id {memory.id} appears twice; give one of them a new id")
        seen.add(memory.id)
    del seen
    index = Index(memories=memories, meta=meta, version=SCHEMA_VERSION)
    loaded = Loaded(
        index, identity(st), checksum, version if isinstance(version, int) else 1, held=reader.held, later=reader.later
    )
    if index.meta.get(RULES_KEY) != redaction.RULES:
        for i, memory in enumerate(index.memories):  # one at a time, each kept as it is held unless redacted
            read = memory.peek()
            if redaction.redact_memory(read.raw):
                loaded.redacted.add(memory.id)
                read.settle()
                index.memories[i] = read
        index.meta[RULES_KEY] = redaction.RULES
    return loaded


def save(ws: Workspace, loaded: Loaded, now: datetime) -> None:
    """Write index.json atomically, whole: the bookkeeping keys on the first line, then one memory a line (readable
    and diffable), streamed to the file. A file of an older version is copied to memory/backups/ once before it is
    first rewritten. `loaded` then describes the file written."""
    index = loaded.index
    if loaded.held is not None:
        loaded.held.check()  # its memories not read yet are copied from it
    if loaded.version < SCHEMA_VERSION and ws.index.exists():
        keep = ws.backups / f"index.v{loaded.version}.original.json"
        if not keep.exists():
            _copy_atomically(ws.index, keep)
    index.version = SCHEMA_VERSION
    index.meta["lastUpdated"] = iso(now)
    head = ENCODE({"version": SCHEMA_VERSION, **{k: v for k, v in index.meta.items() if k != "version"}})[:-1]
    checksum = 0
    with replacing(ws.index) as out:

        def write(data: bytes) -> None:
            nonlocal checksum
            checksum = zlib.crc32(data, checksum)
            out.write(data)

        if not index.memories:
            write((head + ', "memories": []}\n').encode("utf-8"))
        else:
            write((head + ', "memories": [\n').encode("utf-8"))
            for i, memory in enumerate(index.memories):
                write(b",\n" + memory.encoded() if i else memory.encoded())
            write(b"\n]}\n")
    loaded.identity = identity(os.stat(ws.index))
    loaded.checksum = f"{checksum:08x}"
    loaded.version = SCHEMA_VERSION
    loaded.redacted = set()
    loaded.renewed = False


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
