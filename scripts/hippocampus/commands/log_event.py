"""Append one event to memory/brain-events.jsonl, the log shared with sibling brain skills.

Usage: log_event.py EVENT [key=value ...]. Values that are numbers are stored as numbers, everything else as the
exact string given, whatever characters it holds; each line is one valid JSON object.
Example: log_event.py recall query="coffee order" hits=3
"""

from __future__ import annotations


import json

from .. import cli, events


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__)
    p.add_argument("event", help="the event's name, e.g. encoding")
    p.add_argument("fields", nargs="*", metavar="key=value", help="fields of the event")
    p.add_argument("--type", default="hippocampus", help="the skill writing the event (default hippocampus)")
    ctx = cli.context(p, argv)
    ctx.require_workspace()
    fields = {}
    for item in ctx.args.fields:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            p.error(f"fields are key=value, not {item!r}")
        if key in events.RESERVED:
            p.error(f"{key!r} is set by log_event itself")
        fields[key] = events.coerce(value)
    entry = events.log_event(ctx.ws, ctx.args.event, ctx.now, fields, kind=ctx.args.type)
    if ctx.args.verbose:
        cli.emit(json.dumps(entry, ensure_ascii=False))
    return 0
