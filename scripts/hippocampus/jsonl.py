"""The skill's JSON Lines files (signals, events, touches, the archive), read and written with the jsonlines package.

Values are parsed by the standard library's `json` whatever faster parser is installed, so every reader sees the
same numbers and strings, and written with its default separators, so the files stay byte for byte as before.
Callers choose how a file is split into lines (the archive and the queue end lines at "\\n" only: a memory or an id
may hold U+2028 or NEL); this module only turns lines into values and values into lines.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

import jsonlines

from .model import escaped, whole_characters

InvalidLineError = jsonlines.InvalidLineError
# How every line is written unless a caller says otherwise: `json.dumps(value, ensure_ascii=False)`.
DUMPS = json.JSONEncoder(ensure_ascii=False).encode


def loads(line: str | bytes) -> Any:
    """One line's value (each half of a surrogate pair an escape held, as U+FFFD: see model.whole_characters)."""
    try:
        value = json.loads(line)
    except RecursionError:  # nested deeper than Python recurses: invalid like any other line
        raise ValueError("nested too deeply to read") from None
    if escaped(line):  # perhaps half a character
        whole_characters(value)
    return value


class Lines:
    """Iterates (line number, value) over the lines that hold JSON; blank lines are passed over. A line that is not
    JSON is counted in `invalid` and skipped, or (`skip_invalid=False`) raises InvalidLineError, whose `lineno`
    says which line. `null` is a value like any other: callers check what they read."""

    def __init__(self, lines: Iterable[str], skip_invalid: bool = True) -> None:
        self.number = 0
        self.invalid = 0
        self._skip = skip_invalid
        self._reader = jsonlines.Reader(self._numbered(lines), loads=loads)

    def _numbered(self, lines: Iterable[str]) -> Iterator[str]:
        for self.number, line in enumerate(lines, 1):
            yield line

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        while True:
            try:
                value = self._reader.read(allow_none=True, skip_empty=True)
            except InvalidLineError:
                if not self._skip:
                    raise
                self.invalid += 1
                continue
            except EOFError:
                return
            yield self.number, value  # the reader takes one line at a time: `number` is the line just read


def write(handle: IO, values: Iterable[Any], dumps: Callable[[Any], str] | None = None) -> None:
    """Write the values to an open file (text, or binary: UTF-8) as JSON Lines, each line ending in "\\n", one value
    at a time (`dumps`: an encoder other than DUMPS)."""
    writer = jsonlines.Writer(handle, dumps=dumps or DUMPS)
    writer.write_all(values)
    writer.close()


def text(values: Iterable[Any], dumps: Callable[[Any], str] | None = None) -> str:
    """The values as JSON Lines, each line ending in "\\n" (`dumps`: an encoder other than DUMPS)."""
    buffer = io.StringIO()
    write(buffer, values, dumps)
    return buffer.getvalue()
