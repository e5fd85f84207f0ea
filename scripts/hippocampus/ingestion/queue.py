"""memory/signals.jsonl, the queue: one numbered signal a line, appended by preprocessing (fsynced before the
ledger records them) and taken by encoding, which saves `encodedThrough` — the last signal number it consumed — in
the same atomic write of index.json as the memories it made. Signals at or below it are never encoded again; the
queue is trimmed afterwards, and a trim lost to a kill is redone by the next run."""

from __future__ import annotations

import os
from array import array
from typing import Callable, Iterator

from .. import jsonl
from ..errors import HippocampusError
from ..model import positive_whole
from ..store import files
from ..workspace import Workspace
from .transcripts import Signal


def queued(ws: Workspace) -> Iterator[Signal]:
    """Each readable queued signal, in file order, streamed: the queue of a long history is never held whole."""
    return (signal for signal in _queue(ws) if signal is not None)


def _queue(ws: Workspace) -> Iterator[Signal | None]:
    """Each line of the queue that is not blank, streamed: its signal, or None when it cannot be read (the lines
    that are not JSON come last)."""
    return (signal for _, signal in _entries(ws))


def _entries(ws: Workspace) -> Iterator[tuple[int, Signal | None]]:
    """`_queue`, each signal with the byte offset of its line (-1 for the lines that cannot be read)."""
    try:
        handle = open(ws.signals, "rb")
    except FileNotFoundError:
        return
    except IsADirectoryError:
        raise files.folder_error(ws.signals) from None
    name = str(ws.signals)
    at = [0, 0]  # the offset of the line just read, and of the next

    def lines() -> Iterator[str]:
        # Binary lines end at "\n" only, as the queue's do: a session or message id may hold any other line
        # separator (U+2028, NEL, …).
        for line in handle:
            at[0], at[1] = at[1], at[1] + len(line)
            yield line.decode("utf-8", errors="replace")

    with handle:
        values = jsonl.Lines(lines())
        for number, value in values:  # the reader takes one line at a time: `at[0]` is where this one starts
            try:
                yield at[0], Signal.from_dict(value, f"{name}:{number}")
            except HippocampusError:
                yield -1, None
        for _ in range(values.invalid):
            yield -1, None


class Backlog:
    """The queued signals past `after`, in the order `order` (a key of a signal) gives them, read from the queue as
    they are iterated (only each one's place in the file is held: a long history's queue is never held whole).
    Iterated under the workspace lock that keeps the queue as it was read."""

    def __init__(self, ws: Workspace, after: int, order: Callable[[Signal], tuple]) -> None:
        self.path = ws.signals
        self.last = after  # the highest signal number queued
        self.sessions: set[str] = set()  # the sessions they were said in
        ranked = []
        for offset, signal in _entries(ws):
            if signal is not None and signal.seq > after:
                self.last = max(self.last, signal.seq)
                self.sessions.add(signal.session)
                ranked.append((order(signal), offset))
        ranked.sort()
        self._offsets = array("q", (offset for _, offset in ranked))

    def __len__(self) -> int:
        return len(self._offsets)

    def __iter__(self) -> Iterator[Signal]:
        if not self._offsets:
            return
        with open(self.path, "rb") as handle:
            for offset in self._offsets:
                handle.seek(offset)
                try:
                    value = jsonl.loads(handle.readline())
                except ValueError:
                    raise HippocampusError(f"{self.path} changed while this run was reading it") from None
                yield Signal.from_dict(value, f"{self.path}:byte {offset}")


def _dump(signals: list[Signal]) -> str:
    return jsonl.text(s.to_dict() for s in signals)


def append_signals(ws: Workspace, signals: list[Signal]) -> None:
    if not signals:
        return
    payload = _dump(signals).encode("utf-8")
    try:
        ws.signals.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(ws.signals, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError as exc:
        raise files.write_error(ws.signals, exc) from None
    try:
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError as exc:
        # The ledger is not committed: the lines written are dropped and redone by the next run.
        raise files.write_error(ws.signals, exc) from None
    finally:
        os.close(fd)


def keep_signals(ws: Workspace, keep) -> int:
    """Rewrite the queue atomically with the signals `keep` accepts; returns how many lines were dropped."""
    kept = dropped = 0
    for signal in _queue(ws):  # streamed twice, never held whole: a long history's queue can be large
        if signal is not None and keep(signal):
            kept += 1
        else:
            dropped += 1
    if dropped:
        with files.replacing(ws.signals) as out:
            for signal in queued(ws) if kept else ():
                if keep(signal):
                    out.write(_dump([signal]).encode("utf-8"))
    return dropped


def clear_signals(ws: Workspace) -> None:
    """Empty the queue atomically without reading it: for a caller that read it under the lock it still holds and
    encoded every signal in it (what `keep_signals` would drop, it drops at once)."""
    if ws.signals.exists() and ws.signals.stat().st_size:
        with files.replacing(ws.signals):
            pass


def encoded_through(meta: dict) -> int:
    return positive_whole(meta.get("encodedThrough"))
