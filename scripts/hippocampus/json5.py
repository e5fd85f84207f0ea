"""Reading JSON5, the format of OpenClaw's openclaw.json: JSON plus comments, unquoted keys, single-quoted strings,
trailing commas, hexadecimal numbers, Infinity and NaN. Read only: nothing here writes it.

Pure: text in, Python values out (`loads`), or `JSON5Error` saying where the text stops being JSON5. Nesting is
bounded (`MAX_DEPTH`), so a hostile file costs a bounded stack.
"""

from __future__ import annotations

import math
import re
from typing import NoReturn

MAX_DEPTH = 200

_SPACE = re.compile(r"(?:[\s\ufeff]+|//[^\n\r\u2028\u2029]*|/\*.*?\*/)*", re.DOTALL)
_NUMBER = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|Infinity|NaN|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_IDENTIFIER = re.compile(r"(?:[^\W\d]|\$|\\u[0-9a-fA-F]{4})(?:[\w$\u200c\u200d]|\\u[0-9a-fA-F]{4})*")
_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "0": "\0"}
_LINE_ENDS = "\n\r\u2028\u2029"
_PLAIN = {q: re.compile(rf"[^{q}\\\n\r]*") for q in ("'", '"')}  # a run of a string's characters


class JSON5Error(ValueError):
    """The text is no JSON5: where it stops being so, and why."""


def loads(text: str):
    """The value the JSON5 text holds."""
    reader = _Reader(text)
    value = reader.value(0)
    reader.space()
    if reader.at < len(text):
        reader.fail("more after the value")
    return value


class _Reader:
    def __init__(self, text: str):
        self.text, self.at = text, 0

    def fail(self, why: str) -> NoReturn:
        line = self.text.count("\n", 0, self.at) + 1
        column = self.at - (self.text.rfind("\n", 0, self.at) + 1) + 1
        raise JSON5Error(f"line {line}, column {column}: {why}")

    def space(self) -> None:
        self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]  # matches the empty string

    def peek(self) -> str:
        self.space()
        return self.text[self.at : self.at + 1]

    def value(self, depth: int):
        if depth > MAX_DEPTH:
            self.fail("nested too deeply")
        first = self.peek()
        if first == "{":
            return self.object(depth)
        if first == "[":
            return self.array(depth)
        if first in ("'", '"'):
            return self.string()
        for word, meaning in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.at) and not _IDENTIFIER.match(self.text, self.at + len(word)):
                self.at += len(word)
                return meaning
        match = _NUMBER.match(self.text, self.at)
        if match is None:
            self.fail("no value here")
        self.at = match.end()
        return _number(match.group())

    def object(self, depth: int) -> dict:
        self.at += 1
        out: dict = {}
        while self.peek() != "}":
            if self.peek() in ("'", '"'):
                key = self.string()
            else:
                match = _IDENTIFIER.match(self.text, self.at)
                if match is None:
                    self.fail("no key here")
                self.at = match.end()
                key = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), match.group())
            if self.peek() != ":":
                self.fail("':' expected")
            self.at += 1
            out[key] = self.value(depth + 1)
            self.separator("}")
        self.at += 1
        return out

    def separator(self, close: str) -> None:
        """Past the `,` after an item (a trailing one too), or at the `close` that ends the items."""
        if self.peek() == ",":
            self.at += 1
        elif self.peek() != close:
            self.fail(f"',' or '{close}' expected")

    def array(self, depth: int) -> list:
        self.at += 1
        out = []
        while self.peek() != "]":
            out.append(self.value(depth + 1))
            self.separator("]")
        self.at += 1
        return out

    def string(self) -> str:
        text, quote = self.text, self.text[self.at]
        plain = _PLAIN[quote]
        self.at += 1
        parts: list[str] = []
        while True:
            end = plain.match(text, self.at).end()  # type: ignore[union-attr]  # matches the empty string
            parts.append(text[self.at : end])
            self.at = end
            mark = text[end : end + 1]
            if mark != quote and mark != "\\":
                self.fail("the string never ends" if not mark else "a line break inside a string")
            self.at += 1
            if mark == quote:
                return "".join(parts)
            escaped = text[self.at : self.at + 1]
            self.at += 1
            if not escaped:
                self.fail("the string never ends")
            if escaped in ("x", "u"):
                size = 2 if escaped == "x" else 4
                digits = text[self.at : self.at + size]
                if len(digits) != size or not all(c in "0123456789abcdefABCDEF" for c in digits):
                    self.fail(f"a bad \\{escaped} escape")
                parts.append(chr(int(digits, 16)))
                self.at += size
            elif escaped == "\r" and text[self.at : self.at + 1] == "\n":
                self.at += 1  # a line continuation: nothing
            elif escaped not in _LINE_ENDS:  # else a line continuation: nothing
                parts.append(_ESCAPES.get(escaped, escaped))


def _number(word: str) -> float | int:
    sign = -1 if word.startswith("-") else 1
    bare = word.lstrip("+-")
    if bare == "Infinity":
        return sign * math.inf
    if bare == "NaN":
        return math.nan
    if bare[:2] in ("0x", "0X"):
        return sign * int(bare, 16)
    if len(bare) > 1 and bare[0] == "0" and bare[1].isdigit():
        raise JSON5Error(f"a number with a leading zero: {word}")
    return sign * (float(bare) if any(c in bare for c in ".eE") else int(bare))
