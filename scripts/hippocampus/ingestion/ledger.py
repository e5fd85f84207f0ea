"""memory/ingest.sqlite, the ledger: every transcript message ever handled (signal or noise), the next signal
number, and what each source looked like when it was last read whole. A message in the ledger is never read again,
whatever its timestamp: ties, naive times and abandoned branches do not matter. Written only by preprocessing."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import overload

from ..errors import HippocampusError
from ..workspace import Workspace

LEDGER_NAME = "ingest.sqlite"


def ledger_path(ws: Workspace) -> Path:
    return ws.memory / LEDGER_NAME


class Ledger:
    """memory/ingest.sqlite: which messages were handled, the next signal number, what each source looked like."""

    SCHEMA = """
    CREATE TABLE IF NOT EXISTS seen (
        session TEXT NOT NULL, message TEXT NOT NULL, seq INTEGER, reason TEXT,
        PRIMARY KEY (session, message)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS sources (source TEXT PRIMARY KEY, fingerprint TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    """

    def __init__(self, path: Path):
        self.path = path
        self.fresh = not path.exists()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, timeout=30, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=DELETE")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(self.SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise HippocampusError(
                f"{path} is not a readable ledger ({exc}); move it aside and run again "
                "(messages already encoded would then be read once more)"
            ) from None

    def close(self) -> None:
        self.db.close()

    @overload
    def state(self, key: str) -> str | None: ...
    @overload
    def state(self, key: str, default: str) -> str: ...

    def state(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    @property
    def next_seq(self) -> int:
        return int(self.state("nextSeq", "1"))

    @property
    def initialized(self) -> bool:
        return self.state("initialized") == "1"

    def seen_in(self, session: str) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT message FROM seen WHERE session = ?", (session,))}

    def fingerprint(self, source: str) -> str | None:
        row = self.db.execute("SELECT fingerprint FROM sources WHERE source = ?", (source,)).fetchone()
        return row[0] if row else None

    def note_encoded(self, through: int) -> None:
        """Remember how far encode got (a hint for trimming the queue; the index holds the truth)."""
        self.db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('encodedThrough', ?)", (str(through),))

    def commit(
        self, handled: list[tuple[str, str, int | None, str | None]], fingerprints: dict[str, str], next_seq: int
    ) -> None:
        """Record handled messages, source fingerprints and the next number in one transaction."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany(
                "INSERT OR IGNORE INTO seen (session, message, seq, reason) VALUES (?, ?, ?, ?)", handled
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO sources (source, fingerprint) VALUES (?, ?)", list(fingerprints.items())
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                [("nextSeq", str(next_seq)), ("initialized", "1")],
            )
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise HippocampusError(f"could not write {self.path}: {exc}; nothing was recorded") from None
