"""brain-events.jsonl: one JSON object a line, shared with sibling brain skills."""

from __future__ import annotations

import json
import math
import re
from datetime import datetime

from . import jsonl, redaction
from .store.files import append_line, folder_error
from .timeutil import iso
from .workspace import Workspace

# Leading zeros ("007", a postcode) stay text: turning them into numbers would change the value.
_INTEGER = re.compile(r"^-?(0|[1-9]\d{0,17})$")
_DECIMAL = re.compile(r"^-?(0|[1-9]\d*)\.\d+([eE][+-]?\d{1,3})?$")
RESERVED = ("ts", "event")
# Anything that is not JSON (a date from a caller) is stored as its text; a NaN is refused rather than written.
_DUMPS = json.JSONEncoder(ensure_ascii=False, allow_nan=False, default=str).encode


def coerce(value: str):
    """A command-line value as JSON: numbers as numbers, everything else as the string it is."""
    if _INTEGER.match(value):
        return int(value)
    if _DECIMAL.match(value):
        number = float(value)
        if math.isfinite(number):
            return number
    return value


def record(event: str, now: datetime, fields: dict, kind: str = "hippocampus") -> dict:
    """The event as it is written: every name and value redacted (sibling skills log what they like here)."""
    out = {"ts": iso(now), "type": redaction.redact(_text(kind)), "event": redaction.redact(_text(event))}
    for key, value in fields.items():
        if key not in RESERVED:
            name, value = redaction.redact_field(_text(key), _text(value))
            out[name] = value
    return out


def _text(value):
    """A string UTF-8 can hold: lone surrogates (the bytes of an argument that was not UTF-8) become U+FFFD."""
    if not isinstance(value, str):
        return value
    try:
        raw = value.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = value.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "replace")


def log_event(ws: Workspace, event: str, now: datetime, fields: dict, kind: str = "hippocampus") -> dict:
    """Append one event; the line is valid JSON whatever characters the values hold and whatever the fields are
    named."""
    entry = record(event, now, fields, kind)
    append_line(ws.events, jsonl.text([entry], dumps=_DUMPS))
    return entry


def read_events(ws: Workspace) -> tuple[list[dict], int]:
    """Every readable event and the number of lines skipped as unreadable."""
    events: list[dict] = []
    try:
        handle = open(ws.events, encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return events, 0
    except IsADirectoryError:
        raise folder_error(ws.events) from None
    with handle:
        lines = jsonl.Lines(handle)
        for _, entry in lines:
            if isinstance(entry, dict):
                events.append(entry)
            else:
                lines.invalid += 1
    return events, lines.invalid
