"""Lines of a transcript, read with bounded memory.

A transcript is read one line at a time. A line longer than LINE_LIMIT (a pasted file, a huge tool output) is read
in pieces, and every JSON string in it is cut to STRING_LIMIT bytes on the way, so the entry keeps its shape (its
type, ids, role and the start of its text) while memory stays bounded whatever the line's size. Standard library
only; pure apart from reading the stream it is given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO, Iterator

LINE_LIMIT = 1 << 20  # bytes: a line up to this size is read and parsed whole
STRING_LIMIT = 1 << 17  # bytes kept of one JSON string of a longer line
_PIECE = 1 << 16
_PLAIN = re.compile(rb'[^"\\]*')
_PARTIAL_ESCAPE = re.compile(rb"(?:\\u[0-9A-Fa-f]{0,3}|\\u[dD][89abAB][0-9A-Fa-f]{2})\Z")


@dataclass(frozen=True, slots=True)
class Line:
    """One line: its number (from 1), its bytes without the newline, whether a newline ended it, and whether some
    string in it was cut short."""

    number: int
    data: bytes
    ended: bool
    cut: bool = False


def lines(stream: BinaryIO) -> Iterator[Line]:
    """Every line of a binary stream, each bounded in size (see the module's docstring)."""
    number = 0
    while True:
        piece = stream.readline(LINE_LIMIT)
        if not piece:
            return
        number += 1
        if piece.endswith(b"\n"):
            yield Line(number, piece[:-1], True)
        elif len(piece) < LINE_LIMIT:
            yield Line(number, piece, False)  # the last line, without its newline (perhaps still being written)
        else:
            data, ended, cut = _shrink(piece, stream)
            yield Line(number, data, ended, cut)


def bounded(data: bytes) -> Line:
    """One line given whole (a database row), bounded like a line read from a file."""
    if len(data) <= LINE_LIMIT:
        return Line(1, data, True)
    shrinker = _Shrinker()
    for start in range(0, len(data), _PIECE):
        shrinker.feed(data[start : start + _PIECE])
    shrinker.finish()
    return Line(1, bytes(shrinker.out), True, shrinker.any_cut)


class _Shrinker:
    """Copies JSON text, keeping at most STRING_LIMIT bytes of each string."""

    def __init__(self):
        self.out = bytearray()
        self.in_string = False
        self.escape = False
        self.kept = 0
        self.start = 0
        self.cut = False
        self.any_cut = False

    def feed(self, part: bytes) -> None:
        i, n = 0, len(part)
        while i < n:
            if not self.in_string:
                quote = part.find(b'"', i)
                if quote < 0:
                    self.out += part[i:]
                    return
                self.out += part[i : quote + 1]
                i = quote + 1
                self.in_string, self.kept, self.cut, self.start = True, 0, False, len(self.out)
                continue
            if self.escape:
                self._keep(part[i : i + 1])
                self.escape = False
                i += 1
                continue
            plain = _PLAIN.match(part, i)
            assert plain is not None  # the pattern matches the empty string
            j = plain.end()
            self._keep(part[i:j])
            i = j
            if i >= n:
                return
            if part[i] == 0x5C:  # a backslash: the next byte belongs to it
                self._keep(b"\\")
                self.escape = True
            else:
                self._close()
            i += 1

    def _keep(self, data: bytes) -> None:
        room = STRING_LIMIT - self.kept
        if room > 0:
            self.out += data[:room]
        if len(data) > room:
            self.cut = self.any_cut = True
        self.kept += len(data)

    def finish(self) -> None:
        """The text stopped inside a string: close it, so that what was kept can still be read."""
        if self.in_string:
            self._close()

    def _close(self) -> None:
        if self.cut:
            self.out[self.start :] = _clean_end(bytes(self.out[self.start :]))
        self.out += b'"'
        self.in_string = False


def _clean_end(content: bytes) -> bytes:
    """A string's kept bytes without a half escape or half character at the cut."""
    while True:
        trailing = len(content) - len(content.rstrip(b"\\"))
        if trailing % 2:
            content = content[:-1]
            continue
        partial = _PARTIAL_ESCAPE.search(content)
        if partial:
            content = content[: partial.start()]
            continue
        break
    end = len(content)
    back = 0
    while back < 4 and end - back > 0 and 0x80 <= content[end - back - 1] < 0xC0:
        back += 1
    if end - back > 0 and content[end - back - 1] >= 0xC0:
        lead = content[end - back - 1]
        width = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        if back + 1 < width:
            content = content[: end - back - 1]
    return content


def _shrink(first: bytes, stream: BinaryIO) -> tuple[bytes, bool, bool]:
    """The rest of a long line read from `stream`, its strings cut: (bytes, ended with a newline, cut)."""
    shrinker = _Shrinker()
    piece = first
    while True:
        ended = piece.endswith(b"\n")
        shrinker.feed(piece[:-1] if ended else piece)
        if ended:
            break
        piece = stream.readline(_PIECE)
        if not piece:
            break
    shrinker.finish()
    return bytes(shrinker.out), ended, shrinker.any_cut
