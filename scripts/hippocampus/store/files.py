"""Files of the store on disk: the workspace's one lock, atomic writes (through links), appended lines, and which
version of a file is there."""

from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import tempfile
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

from ..errors import BusyError, HippocampusError
from ..workspace import Workspace
from ..model import DOMAINS

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
            raise write_error(ws.lock, exc) from None
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
        raise HippocampusError(
            f"{path} is a link to {target}, whose folder does not exist; reconnect it or remove "
            "the link (nothing was written)"
        )
    return target


def check_index_link(ws: Workspace) -> None:
    """A memory/index.json that links to a missing file is an error, never an empty store to start afresh."""
    if ws.index.is_symlink() and not ws.index.exists():
        raise HippocampusError(
            f"{ws.index} is a link to {os.path.realpath(ws.index)}, which does not exist; "
            "reconnect it (a synced folder or drive) or remove the link"
        )


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
        raise write_error(path, exc) from None
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
            raise write_error(path, exc) from None
        raise
    fsync_dir(path.parent)


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


def folder_error(path: Path) -> HippocampusError:
    """The error for a folder where the workspace keeps a file (made or moved there by hand)."""
    return HippocampusError(f"{path} is a folder, not a file; move it away and run again")


def check_file(path: Path) -> None:
    """Refuse a folder where the workspace keeps a file, before a run changes anything."""
    if path.is_dir():
        raise folder_error(path)


def check_folder(path: Path) -> None:
    """Refuse a file where the workspace keeps a folder, before a run changes anything."""
    if path.exists() and not path.is_dir():
        raise HippocampusError(f"{path} is a file, not a folder; move it away and run again")


def write_error(path: Path, exc: OSError) -> HippocampusError:
    reason = os.strerror(exc.errno) if exc.errno else str(exc)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        reason = "the disk is full"
    elif exc.errno == errno.EFBIG:
        reason = "the file would pass the size limit"
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        reason = "the folder is read-only or not writable"
    return HippocampusError(f"could not write {path}: {reason}; the previous file is unchanged")


def fsync_dir(folder: Path) -> None:
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
    """Append one line in a single write under an exclusive lock of that file, so lines never interleave. Needs no
    workspace lock: a writer that takes what the file holds replaces it under the same file lock (`take_lines`),
    and a line is then appended to the new file, never to the old one."""
    payload = (line.rstrip("\n") + "\n").encode("utf-8")
    while True:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise write_error(path, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if not _still_there(path, fd):
                continue  # replaced while this waited for its lock: append to the file there now
            size = os.fstat(fd).st_size
            data = payload
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + payload  # a torn last line (a crash mid-write) must not swallow this one
            if os.write(fd, data) != len(data):
                raise HippocampusError(f"could not write all of a line to {path}")
            return
        except OSError as exc:
            raise write_error(path, exc) from None
        finally:
            os.close(fd)


def _still_there(path: Path, fd: int) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def take_lines(path: Path, size: int) -> None:
    """Remove the first `size` bytes of a file of appended lines (what a writer read and folded in), keeping the
    lines appended since; under the file's own lock, so no line is lost. A missing file is left missing."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise write_error(path, exc) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if not _still_there(path, fd):
            return
        rest = b""
        end = os.fstat(fd).st_size
        if end > size:
            rest = os.pread(fd, end - size, size)
        atomic_write(path, rest)
    finally:
        os.close(fd)


# --- which version of a file is there ----------------------------------------------------------------------------


def identity(st: os.stat_result) -> str:
    """Which version of a file a stat describes: its size, modification time, inode and change time. Every write
    of ours replaces the file (a new inode); an edit in place moves the change time, which no program can set."""
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}:{st.st_ctime_ns}"


def same_contents(identity_a: str, identity_b: str) -> bool:
    """Two identities of one file that differ at most in the change time (a new permission or hard link moves
    it; so does an edit that puts size and mtime back): the caller compares checksums to tell."""
    return identity_a.rsplit(":", 1)[0] == identity_b.rsplit(":", 1)[0]


def checksum(path: Path) -> str | None:
    """The CRC-32 of a file's contents, read a block at a time (None when it cannot be read)."""
    crc = 0
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                crc = zlib.crc32(block, crc)
    except OSError:
        return None
    return f"{crc:08x}"
