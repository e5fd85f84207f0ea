"""The store on disk: one lock per workspace, atomic writes, schema versions and migrations, backups, touches."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import shutil
import tempfile
import time
import zlib
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from . import redaction, retention
from .errors import BusyError, HippocampusError
from .model import DOMAINS, SCHEMA_VERSION, Index, known_highest
from .timeutil import iso, parse_instant
from .workspace import Workspace

BACKUPS_KEPT = 7
LOCK_WAIT_SECONDS = 120.0


# --- the lock -------------------------------------------------------------------------------------------------

@contextmanager
def workspace_lock(ws: Workspace, wait: bool = True, timeout: float = LOCK_WAIT_SECONDS):
    """Hold the workspace's one lock. wait=False (cron runs) raises BusyError at once when it is taken."""
    try:
        ws.memory.mkdir(parents=True, exist_ok=True)
        handle = open(ws.lock, "a+")
    except OSError as exc:
        try:
            handle = open(ws.lock)  # a read-only workspace: lock it all the same; a write then fails in words
        except OSError:
            raise _write_error(ws.lock, exc) from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not wait:
                    raise BusyError("another hippocampus run holds the workspace lock; skipping this run") from None
                if time.monotonic() > deadline:
                    raise HippocampusError(
                        f"another hippocampus run has held {ws.lock} for over {timeout:.0f} s; try again later"
                    ) from None
                time.sleep(0.02)
        sweep_temporaries(ws)
        yield
    finally:
        handle.close()


# --- atomic files ---------------------------------------------------------------------------------------------

def atomic_write(path: Path, data: bytes | str) -> None:
    """Write a file so that readers see the old one or the new one, never half; the old stays if anything fails."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with replacing(Path(path)) as out:
        out.write(payload)


def through_links(path: Path) -> Path:
    """The file a write of `path` replaces: `path` itself, or the file it links to — a user who linked index.json
    into a synced folder expects that file updated and the link kept. A link into a folder that is not there (a
    drive not mounted) is an error: writing a new file in its place would hide the real one."""
    if not path.is_symlink():
        return path
    target = Path(os.path.realpath(path))
    if not target.parent.is_dir():
        raise HippocampusError(f"{path} is a link to {target}, whose folder does not exist; reconnect it or remove "
                               "the link (nothing was written)")
    return target


def check_index_link(ws: Workspace) -> None:
    """A memory/index.json that links to a missing file is an error, never an empty store to start afresh."""
    if ws.index.is_symlink() and not ws.index.exists():
        raise HippocampusError(f"{ws.index} is a link to {os.path.realpath(ws.index)}, which does not exist; "
                               "reconnect it (a synced folder or drive) or remove the link")


@contextmanager
def replacing(path: Path):
    """A new binary file that replaces `path` (or the file it links to) when the block ends: written beside it,
    fsynced, renamed over it. On any failure the temporary file goes, `path` is as it was, and an OSError becomes
    one clear error."""
    path = through_links(Path(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = temporary_file(path)
    except OSError as exc:
        raise _write_error(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        if path.exists():
            shutil.copymode(path, tmp_name)
        else:
            os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, path)
    except BaseException as exc:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _write_error(path, exc) from None
        raise
    _fsync_dir(path.parent)


def temporary_file(path: Path) -> tuple[int, str]:
    """A new temporary file beside `path`, named with this process's id so a later run can tell one left by a
    killed writer from one being written."""
    return tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)


_TEMPORARY = re.compile(r"^\..+\.(\d+)(?:\.[A-Za-z0-9_]+)?\.tmp$")


def sweep_temporaries(ws: Workspace, *more: Path) -> int:
    """Remove the temporary files of writers that are gone (killed half way through a write) from the workspace's
    folders and `more`; returns how many."""
    removed = 0
    folders = [ws.root, ws.memory, ws.backups, ws.cache, *(ws.domain_dir(d) for d in DOMAINS), *more]
    if ws.index.is_symlink():
        folders.append(Path(os.path.realpath(ws.index)).parent)  # where writes through the link put theirs
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            match = _TEMPORARY.match(entry.name)
            if match and not _running(int(match.group(1))):
                try:
                    os.unlink(entry.path)
                    removed += 1
                except OSError:
                    pass
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: alive
    return True


def _write_error(path: Path, exc: OSError) -> HippocampusError:
    reason = os.strerror(exc.errno) if exc.errno else str(exc)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        reason = "the disk is full"
    elif exc.errno == errno.EFBIG:
        reason = "the file would pass the size limit"
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        reason = "the folder is read-only or not writable"
    return HippocampusError(f"could not write {path}: {reason}; the previous file is unchanged")


write_error = _write_error  # for the other writers of the store's files


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def append_line(path: Path, line: str) -> None:
    """Append one line in a single write under an exclusive lock of that file, so lines never interleave."""
    payload = (line.rstrip("\n") + "\n").encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise _write_error(path, exc) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            payload = b"\n" + payload  # a torn last line (a crash mid-write) must not swallow this one
        written = os.write(fd, payload)
        if written != len(payload):
            raise HippocampusError(f"could not write all of a line to {path}")
    except OSError as exc:
        raise _write_error(path, exc) from None
    finally:
        os.close(fd)


# --- which version of a file is there ----------------------------------------------------------------------------

# path → ((signature, change time), CRC-32) of the bytes this process last read or wrote there, so that recording
# a version we just read or wrote never reads the file again.
_CHECKSUMS: dict[str, tuple[tuple[str, int], str]] = {}


def _signature_of(st: os.stat_result) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def signature(path: Path) -> str | None:
    """Which version of a file is there, cheaply: its size, modification time and inode (None when missing)."""
    try:
        return _signature_of(os.stat(path))
    except FileNotFoundError:
        return None


def _remember(path: Path, st: os.stat_result, crc: int) -> None:
    _CHECKSUMS[str(path)] = ((_signature_of(st), st.st_ctime_ns), f"{crc:08x}")


def _crc(handle, size: int) -> int:
    """The CRC-32 of an open file, read a block at a time into one buffer (a mapped file would count its every
    page in the process's memory)."""
    crc = 0
    buffer = bytearray(1 << 20)
    view = memoryview(buffer)
    while True:
        count = handle.readinto(buffer)
        if not count:
            return crc
        crc = zlib.crc32(view[:count], crc)


def fingerprint(path: Path) -> tuple[str, int, str] | None:
    """(signature, change time in ns, CRC-32 of the contents) of the file there now, None when there is none. The
    checksum is this process's own, when it read or wrote that very version, else the file is read for it."""
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            key = (_signature_of(st), st.st_ctime_ns)
            known = _CHECKSUMS.get(str(path))
            if known is not None and known[0] == key:
                return key[0], key[1], known[1]
            crc = _crc(handle, st.st_size)
    except FileNotFoundError:
        return None
    _remember(path, st, crc)
    return key[0], key[1], f"{crc:08x}"


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
    _remember(ws.index, st, zlib.crc32(text))
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
    exactly our last write under the current rules (`searchindex.witnessed`), so there is nothing to redact. A
    missing file is an empty index."""
    raw = read_raw(ws)
    if raw is None:
        return Index(memories=[], meta={})
    disk_version = raw.get("version", 1)
    index = Index.from_dict(migrate(raw, str(ws.index)), str(ws.index))
    index.meta["_diskVersion"] = disk_version
    if not ours:
        index.redacted = {m.id for m in index.memories if redaction.redact_memory(m.raw)}
    return index


def save_index(ws: Workspace, index: Index, now: datetime) -> None:
    """Write the index atomically. A v1 file is copied to memory/backups/ once before it is first rewritten."""
    disk_version = index.meta.pop("_diskVersion", SCHEMA_VERSION)
    if disk_version < SCHEMA_VERSION and ws.index.exists():
        keep = ws.backups / f"index.v{disk_version}.original.json"
        if not keep.exists():
            atomic_write(keep, ws.index.read_bytes())
    index.version = SCHEMA_VERSION
    index.meta["lastUpdated"] = iso(now)
    payload = dump_index(index).encode("utf-8")
    atomic_write(ws.index, payload)
    _remember(ws.index, os.stat(ws.index), zlib.crc32(payload))
    index.meta["_diskVersion"] = SCHEMA_VERSION


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
    not in line form. Use only on a file this version wrote (`searchindex.witnessed`): lines are not re-validated."""
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
            raise _write_error(ws.index, exc) from None
        raise
    _fsync_dir(target.parent)
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


# --- ids: never given twice -----------------------------------------------------------------------------------

# A memory's id as a key in stored JSON (inside a string its quotes would be escaped, so text never matches).
_GIVEN_ID = re.compile(rb'"id"\s*:\s*"mem_(\d{1,40})"')


def _version(path: Path) -> str | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def _read_ids(ws: Workspace) -> tuple[int, dict[str, str]]:
    """(the highest id number recorded, {file: the version of it read}) of memory/ids.json; (0, {}) if unreadable."""
    try:
        raw = json.loads(ws.ids.read_bytes())
    except (OSError, ValueError, RecursionError):
        return 0, {}
    if not isinstance(raw, dict):
        return 0, {}
    read = raw.get("read")
    read = {k: v for k, v in read.items() if isinstance(v, str)} if isinstance(read, dict) else {}
    return known_highest(raw.get("highestId")), read


def _write_ids(ws: Workspace, highest: int, read: dict[str, str]) -> None:
    atomic_write(ws.ids, json.dumps({"highestId": highest, "read": read}, indent=1, sort_keys=True) + "\n")


def _highest_in(path: Path) -> int:
    """The highest `mem_NNN` number stored in a file, read a block at a time (memory stays small)."""
    highest, tail = 0, b""
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                block = tail + block
                found = _GIVEN_ID.findall(block)
                if found:
                    highest = max(highest, max(map(int, found)))
                tail = block[-64:]  # an id cut by the block's end is found whole in the next
    except OSError:
        return highest
    return highest


def ids_given(ws: Workspace) -> int:
    """The highest id number this workspace has given, by the files a restored index.json does not roll back:
    memory/ids.json and every id in the archive and the backups. Each of those files is read again only when it
    changed (ids.json records the versions it read), so a restored ids.json cannot hide them either. Call with
    the workspace lock held."""
    highest, read = _read_ids(ws)
    now_read = {}
    for path in (ws.archive, *sorted(ws.backups.glob("*.json"))):
        version = _version(path)
        if version is None:
            continue
        name = path.relative_to(ws.memory).as_posix()
        now_read[name] = version
        if read.get(name) != version:
            highest = max(highest, _highest_in(path))
    if now_read != read:
        _write_ids(ws, highest, now_read)
    return highest


def reserve_ids(ws: Workspace, index: Index) -> None:
    """Raise the index's `highestId` past every id the workspace has given (see `ids_given`), before any is."""
    given = ids_given(ws)
    if given > known_highest(index.meta.get("highestId")):
        index.meta["highestId"] = given


def note_ids(ws: Workspace, meta: dict) -> None:
    """Record in memory/ids.json the highest id an index just saved holds (its `highestId`), if it is higher."""
    highest, read = _read_ids(ws)
    saved = known_highest(meta.get("highestId"))
    if saved > highest:
        _write_ids(ws, saved, read)


# --- touches: recall marks memories accessed without rewriting the whole index ----------------------------------

def record_touches(ws: Workspace, ids: list[str], now: datetime) -> None:
    """Note that these memories were accessed now. Applied to the index by the next write (or `read`)."""
    if ids:
        append_line(ws.touches, json.dumps({"ts": iso(now), "ids": ids}, ensure_ascii=False))


def read_touches(ws: Workspace) -> list[tuple[datetime, list[str]]]:
    try:
        # Lines end at "\n" only: an id may hold any other line separator (U+2028, NEL, …).
        lines = ws.touches.read_text(encoding="utf-8", errors="replace").split("\n")
    except FileNotFoundError:
        return []
    out = []
    for line in lines:
        try:
            entry = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            continue  # a torn last line from a crash: the touch is lost, the memory is not
        when = parse_instant(entry.get("ts")) if isinstance(entry, dict) else None
        ids = entry.get("ids") if isinstance(entry, dict) else None
        if when and isinstance(ids, list):
            out.append((when, [i for i in ids if isinstance(i, str)]))
    return out


def apply_touches(index: Index, touches) -> set[str]:
    """Apply recorded touches in time order; returns the ids of the memories they changed. Idempotent."""
    if not touches:
        return set()
    by_id = index.by_id()
    changed = set()
    for when, ids in sorted(touches, key=lambda t: t[0]):
        for memory_id in ids:
            memory = by_id.get(memory_id)
            if memory is not None and retention.touch(memory, when, index.meta):
                changed.add(memory_id)
    return changed


# --- the two ways in ------------------------------------------------------------------------------------------

def read(ws: Workspace) -> Index:
    """The index with every recorded touch applied, for readers (recall, load_core, dashboard). Takes no lock."""
    index = load_index(ws)
    apply_touches(index, read_touches(ws))
    return index


class Transaction:
    """A locked read-modify-write of the index. Set `dirty` when the body changed something, and say which
    memories it added, changed or removed with `changed(ids)` — or nothing, and the search cache is rebuilt.
    Memories touched since the last write, or redacted as they were loaded, are saved whatever the body does."""

    def __init__(self, ws: Workspace, index: Index, touched: set[str]):
        self.ws = ws
        self.index = index
        self.dirty = bool(touched)
        self._touched = touched
        self._changed: set[str] | None = None
        self.signature: str | None = None  # index.json's, once the transaction is over

    def changed(self, ids) -> None:
        """Declare the ids this write added, changed (content, keywords, anchor, flags) or removed."""
        self._changed = (self._changed or set()) | set(ids)

    def search_changes(self) -> set[str] | None:
        return None if self._changed is None else self._changed | self._touched


@contextmanager
def transaction(ws: Workspace, now: datetime, wait: bool = True):
    """Lock, load, apply touches; yield; save atomically if dirty, clear the applied touches, update the cache."""
    from . import searchindex  # the cache is derived from the store, not part of it

    with workspace_lock(ws, wait=wait):
        loaded_from = searchindex.vouched_signature(ws)  # None when the cache does not describe this file
        index = load_index(ws, ours=searchindex.witnessed(ws))
        reserve_ids(ws, index)
        txn = Transaction(ws, index, apply_touches(index, read_touches(ws)) | index.redacted)
        txn.loaded_from = loaded_from
        yield txn
        if txn.dirty:
            save_index(ws, txn.index, now)
            note_ids(ws, txn.index.meta)
        txn.signature = searchindex.signature(ws)
        if ws.touches.exists():
            # Every touch is now in the saved index (or was a no-op); replaying them would change nothing.
            atomic_write(ws.touches, b"")
        if txn.dirty:
            searchindex.refresh_after_write(ws, txn.index, loaded_from, txn.search_changes(), now.date())
