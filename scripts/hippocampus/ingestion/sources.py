"""Where OpenClaw keeps transcripts, and reading them with bounded memory.

- Session files `<state>/agents/<agent>/sessions/<id>.jsonl` (up to OpenClaw 2026.7.1), with `sessions.json` saying
  each session's key.
- The agent database `<state>/agents/<agent>/agent/openclaw-agent.sqlite` (from 2026.7.2): one row of
  `transcript_events` per former line, long ones zstd-compressed in `event_zstd`; each session's key, scope and chat
  type in `session_windows` and `session_nodes`. Opened read-only, never written.
- What a deleted or reset session leaves: `<id>.jsonl.deleted.<time>[.<hash>][.zst]` and `….reset.…` files in the
  sessions folder, and their copies in the database's `session_transcript_archives`. They are read like live
  sessions, so that nothing said before the session went is lost (messages already read are known by their ids).

zstd comes from the standard library (Python 3.14) or the `backports.zstd` package. A row or archive that cannot be
decoded is counted; the caller reads its session again next time.
"""

from __future__ import annotations

import io
import json
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator

from ..errors import HippocampusError
from .linereader import bounded, lines, Line
from .transcripts import is_group_entry, is_group_key, parse, Owner, SessionInfo, SessionRead

SQLITE_NAME = "openclaw-agent.sqlite"
EVENTS_TABLE = "transcript_events"
ARCHIVE_MARKERS = (".jsonl.deleted.", ".jsonl.reset.")  # what a deleted or reset session leaves
BACKUP_MARKER = ".bak"  # a copy of a live file: never read
ZSTD_MISSING = (
    "this Python has no zstd: run install.py, which installs the backports.zstd package "
    "(or `python3 -m pip install backports.zstd`)"
)


# --- zstd -----------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def zstd_module() -> Any:
    """The zstd codec: Python 3.14's `compression.zstd`, else `backports.zstd`; None when neither is there."""
    try:
        from compression import zstd  # type: ignore[import-not-found]
    except ImportError:
        try:
            from backports import zstd
        except ImportError:
            return None
    return zstd


def unzstd(packed: Any) -> bytes | None:
    """A zstd frame's bytes, or None when it cannot be decoded (no codec, or a corrupt frame)."""
    codec = zstd_module()
    if codec is None:
        return None
    try:
        return codec.decompress(bytes(packed))
    except Exception:  # a corrupt row is one undecodable row, whatever the decoder raises
        return None


# --- sources --------------------------------------------------------------------------------------------------


@dataclass
class SourceSpec:
    """Where to read: an agent's stores under the state dir, or given files and folders (--sessions)."""

    state_dir: Path | None = None
    agent: str = "main"
    paths: list[Path] | None = None


@dataclass
class Source:
    """One session's transcript somewhere: `name` is the ledger's key for it, `fingerprint` changes whenever its
    content may have, `read` parses it."""

    name: str
    fingerprint: str
    read: Callable[[Owner | None], SessionRead]


@dataclass
class Found:
    """What looking for sources found besides the sources: problems to report and notes for people."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    count: int = 0


def find(spec: SourceSpec, found: Found) -> Iterator[Source]:
    """Every source of the spec: session files and archives, then each database's sessions and archives."""
    folders: list[Path] = []
    files: list[Path] = []
    databases: list[Path] = []
    if spec.paths:
        for path in spec.paths:
            path = path.expanduser()
            if path.is_dir():
                folders.append(path)
                if (path / SQLITE_NAME).is_file():
                    databases.append(path / SQLITE_NAME)
            elif path.is_file():
                (databases if path.suffix in (".sqlite", ".db", ".sqlite3") else files).append(path)
            else:
                raise HippocampusError(f"--sessions: {path} does not exist")
    else:
        assert spec.state_dir is not None
        home = agent_dir(spec.state_dir, spec.agent)
        folders.append(home / "sessions")
        if (home / "agent" / SQLITE_NAME).is_file():
            databases.append(home / "agent" / SQLITE_NAME)
    infos: dict[str, SessionInfo] = {}
    archive_names: set[str] = set()
    for folder in folders:
        infos.update(session_infos(folder))
        archive_names |= {p.name for p in archive_files(folder)}
    opened: list[tuple[Path, sqlite3.Connection, Columns]] = []
    try:
        for path in databases:
            try:
                connection = open_database(path)
                opened.append((path, connection, detect_columns(connection, path)))
                for session, info in database_infos(connection).items():
                    if info.key is not None or session not in infos:
                        infos[session] = info  # the database's record is the newer one
            except HippocampusError as exc:
                found.problems.append(str(exc))
            except sqlite3.Error as exc:
                found.problems.append(f"cannot read {path}: {exc}; its transcripts were not read")
        paths = [*(p for folder in folders for p in session_files(folder) + archive_files(folder)), *files]
        if not spec.paths and not paths and not opened and not found.problems:
            assert spec.state_dir is not None  # no --sessions: the agent's stores were looked in
            found.notes.append(
                f"no transcripts found for agent {spec.agent!r} under {agent_dir(spec.state_dir, spec.agent)}"
            )
        for path in paths:
            source = file_source(path, infos)
            if source is not None:
                found.count += 1
                yield source
        for path, connection, columns in opened:
            try:
                for source in database_sources(connection, columns, path, infos, archive_names):
                    found.count += 1
                    yield source
            except sqlite3.Error as exc:
                found.problems.append(f"cannot read {path}: {exc}; its transcripts were not read")
    finally:
        for _, connection, _ in opened:
            connection.close()


# --- session files and archives -------------------------------------------------------------------------------


def agent_dir(state_dir: Path, agent: str) -> Path:
    return state_dir / "agents" / agent


def is_archive(path: Path) -> bool:
    return any(marker in path.name for marker in ARCHIVE_MARKERS)


def _listing(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.is_file())
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise HippocampusError(f"cannot list {folder}: {exc.strerror}") from None


def session_files(folder: Path) -> list[Path]:
    """The live session files of a folder (archives and backups left out), in name order."""
    return [
        p for p in _listing(folder) if p.name.endswith(".jsonl") and not is_archive(p) and BACKUP_MARKER not in p.name
    ]


def archive_files(folder: Path) -> list[Path]:
    """What deleted and reset sessions left in a folder, compressed or not (backups left out), in name order."""
    return [p for p in _listing(folder) if is_archive(p) and BACKUP_MARKER not in p.name]


def session_infos(folder: Path) -> dict[str, SessionInfo]:
    """sessions.json of a folder as {sessionId or file name: SessionInfo}; empty when missing or unreadable."""
    try:
        raw = json.loads((folder / "sessions.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    infos: dict[str, SessionInfo] = {}
    if isinstance(raw, dict):
        for key, value in raw.items():
            if not isinstance(value, dict):
                continue
            info = SessionInfo(key, is_group_key(key) or is_group_entry(value))
            for name in ("sessionId", "sessionFile"):
                if isinstance(value.get(name), str) and value[name]:
                    infos[Path(value[name]).name if name == "sessionFile" else value[name]] = info
    return infos


def file_fingerprint(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}"


def _session_of(path: Path) -> str:
    """The session id a file name gives: `<id>.jsonl`, `<id>.jsonl.deleted.…`, `<id>.jsonl.reset.…`."""
    name = path.name
    return name[: name.index(".jsonl")] if ".jsonl" in name else path.stem


class _Undecodable(Exception):
    """A compressed file that cannot be decoded here: no codec, or a corrupt or truncated frame."""


def _open_file(path: Path) -> BinaryIO:
    if path.name.endswith(".zst"):
        codec = zstd_module()
        if codec is None:
            raise _Undecodable(ZSTD_MISSING)
        return codec.open(path, "rb")
    return open(path, "rb")


def _undecodable(error: BaseException) -> bool:
    codec = zstd_module()
    return isinstance(error, (_Undecodable, EOFError)) or (codec is not None and isinstance(error, codec.ZstdError))


def _header_session(path: Path) -> str | None:
    """The id in a transcript's first line (its session header), when it has one."""
    try:
        with _open_file(path) as stream:
            first = next(lines(stream), None)
        header = json.loads(first.data) if first is not None else None
    except Exception:  # anything unreadable here is found and counted by the full read
        return None
    if isinstance(header, dict) and header.get("type") == "session" and isinstance(header.get("id"), str):
        return header["id"].strip() or None
    return None


def file_source(path: Path, infos: dict[str, SessionInfo]) -> Source | None:
    """A session file or archive as a source; None when it is gone since it was listed."""
    try:
        fingerprint = file_fingerprint(path)
    except OSError:
        return None
    return Source(f"file:{path.resolve()}", fingerprint, lambda owner: read_file(path, infos, owner))


def read_file(path: Path, infos: dict[str, SessionInfo], owner: Owner | None) -> SessionRead:
    """Read one session file or archive, streamed. A file that does not end in a newline may still be written."""
    session = _session_of(path)
    info = infos.get(session) or infos.get(path.name)
    if info is None:
        header = _header_session(path)
        info = infos.get(header) if header else None
    try:
        mtime = datetime.fromtimestamp(path.stat().st_mtime, tz=timezone.utc)
        with _open_file(path) as stream:
            return parse(lines(stream), session, str(path), info or SessionInfo(), owner, mtime)
    except Exception as exc:
        if _undecodable(exc):
            read = SessionRead(session=session, where=str(path))  # read again next time
            read.undecodable = 1
            return read
        if isinstance(exc, OSError):
            raise HippocampusError(f"cannot read {path}: {exc.strerror or exc}") from None
        raise


# --- the agent database ---------------------------------------------------------------------------------------


@dataclass
class Columns:
    session: str
    order: str
    json: str | None
    zstd: str | None


def open_database(path: Path) -> sqlite3.Connection:
    """The OpenClaw agent database, read-only (it is in WAL mode and OpenClaw may be writing it)."""
    try:
        connection = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return connection
    except sqlite3.Error as exc:
        raise HippocampusError(f"cannot open {path} read-only: {exc}") from None


def _columns_of(connection: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')]


def detect_columns(connection: sqlite3.Connection, path: Path) -> Columns:
    """The columns of `transcript_events`, whatever this OpenClaw build named them; a clear error otherwise."""
    try:
        found = connection.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?", (EVENTS_TABLE,)
        ).fetchall()
        if not found:
            raise HippocampusError(
                f"{path} has no `{EVENTS_TABLE}` table: an OpenClaw schema this version does not "
                "know; its transcripts were not read (use --sessions with JSONL exports)"
            )
        names = _columns_of(connection, EVENTS_TABLE)
    except sqlite3.Error as exc:
        raise HippocampusError(f"cannot read {path}: {exc}") from None

    def pick(*options: str) -> str | None:
        return next((name for name in options if name in names), None)

    session = pick("session_id", "sessionId", "session")
    order = pick("seq", "sequence", "idx", "position") or "rowid"
    json_column = pick("event_json", "json", "event", "data", "line")
    zstd_column = pick("event_zstd", "zstd")
    if session is None or (json_column is None and zstd_column is None):
        raise HippocampusError(
            f"{path}: `{EVENTS_TABLE}` has columns {', '.join(names)}; expected session_id and "
            "event_json: an OpenClaw schema this version does not know; its transcripts were "
            "not read"
        )
    return Columns(session, order, json_column, zstd_column)


def database_sessions(connection: sqlite3.Connection, columns: Columns) -> dict[str, str]:
    """{session id: fingerprint} of every session in the table (row count and last position)."""
    rows = connection.execute(
        f'SELECT "{columns.session}", COUNT(*), MAX("{columns.order}") FROM {EVENTS_TABLE} GROUP BY "{columns.session}"'
    ).fetchall()
    return {str(session): f"{count}:{last}" for session, count, last in rows if session is not None}


def database_infos(connection: sqlite3.Connection) -> dict[str, SessionInfo]:
    """{session id: SessionInfo} from the tables that describe sessions (2026.9 and later), where they exist:
    `session_windows` (key, scope, chat type), `session_nodes` (key, current session, its entry's chat type and
    group id) and `session_transcript_archives` (the key of a deleted session)."""
    infos: dict[str, SessionInfo] = {}
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error:
        return infos

    def add(session: Any, key: Any, group: bool) -> None:
        if session is None:
            return
        key = key if isinstance(key, str) else None
        before = infos.get(str(session), SessionInfo())
        infos[str(session)] = SessionInfo(before.key or key, before.group or group or is_group_key(key))

    try:
        if "session_windows" in tables:
            names = _columns_of(connection, "session_windows")
            wanted = [c for c in ("session_scope", "chat_type") if c in names]
            if {"session_id", "session_key"} <= set(names):
                for row in connection.execute(
                    f"SELECT session_id, session_key{''.join(', ' + c for c in wanted)} FROM session_windows"
                ):
                    kinds = {str(v).lower() for v in row[2:] if v is not None}
                    add(row[0], row[1], bool(kinds & {"group", "channel"}))
        if "session_nodes" in tables and {"session_key", "current_session_id", "entry_json"} <= set(
            _columns_of(connection, "session_nodes")
        ):
            for key, session, entry in connection.execute(
                "SELECT session_key, current_session_id, entry_json FROM session_nodes"
            ):
                add(session, key, _entry_is_group(entry))
        if "session_transcript_archives" in tables and {"session_id", "session_key"} <= set(
            _columns_of(connection, "session_transcript_archives")
        ):
            for session, key in connection.execute("SELECT session_id, session_key FROM session_transcript_archives"):
                add(session, key, False)
    except sqlite3.Error:
        pass  # what could be read is used; the transcripts themselves are read all the same
    return infos


def _entry_is_group(entry: Any) -> bool:
    if isinstance(entry, bytes):
        entry = entry.decode("utf-8", errors="replace")
    if not isinstance(entry, str) or len(entry) > 4 << 20:
        return False
    try:
        value = json.loads(entry)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and is_group_entry(value)


def database_sources(
    connection: sqlite3.Connection, columns: Columns, path: Path, infos: dict[str, SessionInfo], published: set[str]
) -> Iterator[Source]:
    """The database's sessions, then the archives of deleted or reset sessions it holds that are not also in the
    sessions folder (`published`: the archive files there)."""
    where = path.resolve()
    for session, fingerprint in sorted(database_sessions(connection, columns).items()):
        yield Source(
            f"db:{where}:{session}",
            fingerprint,
            partial(read_database_session, connection, columns, session, path, infos.get(session, SessionInfo())),
        )
    for name, session, encoding, digest in database_archives(connection):
        if name in published:
            continue
        yield Source(
            f"db-archive:{where}:{name}",
            digest,
            partial(
                read_database_archive, connection, path, name, session, encoding, infos.get(session, SessionInfo())
            ),
        )


def read_database_session(
    connection: sqlite3.Connection, columns: Columns, session: str, path: Path, info: SessionInfo, owner: Owner | None
) -> SessionRead:
    """One session's rows, in order, streamed; a compressed row that cannot be decoded is counted."""
    select = ", ".join(f'CAST("{c}" AS BLOB)' if c else "NULL" for c in (columns.json, columns.zstd))
    rows = connection.execute(
        f'SELECT {select} FROM {EVENTS_TABLE} WHERE "{columns.session}" = ? ORDER BY "{columns.order}"', (session,)
    )
    return parse(
        (_row_line(text, packed) for text, packed in rows), session, f"{path} (session {session})", info, owner
    )


def _row_line(text: bytes | None, packed: Any) -> Line | None:
    if text is None and packed is not None:
        text = unzstd(packed)
        if text is None:
            return None
    return bounded(text or b"")


def database_archives(connection: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """(archive name, session id, encoding, sha256) of each archived session transcript the database holds."""
    try:
        if not connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_transcript_archives'"
        ).fetchone():
            return []
        return [
            (str(n), str(s), str(e), str(d))
            for n, s, e, d in connection.execute(
                "SELECT archive_name, session_id, encoding, archive_sha256 FROM session_transcript_archives "
                "ORDER BY created_at, archive_name"
            )
        ]
    except sqlite3.Error:
        return []


def read_database_archive(
    connection: sqlite3.Connection,
    path: Path,
    name: str,
    session: str,
    encoding: str,
    info: SessionInfo,
    owner: Owner | None,
) -> SessionRead:
    row = connection.execute(
        "SELECT archive_blob FROM session_transcript_archives WHERE archive_name = ?", (name,)
    ).fetchone()
    where = f"{path} (archive {name})"
    data = bytes(row[0]) if row and row[0] is not None else b""
    if encoding == "zstd":
        unpacked = unzstd(data)
        if unpacked is None:
            read = SessionRead(session=session, where=where)
            read.undecodable = 1
            return read
        data = unpacked
    return parse(lines(io.BytesIO(data)), session, where, info, owner)
