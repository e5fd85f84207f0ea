"""The YAML fields on the Markdown files the skill writes: front matter on the weekly reports (a `---` line, a YAML
mapping, a `---` line, then the Markdown), and a trailer on the mirrors (the Markdown, then the mapping in an HTML
comment opened by a `<!-- hippocampus` line), so that what OpenClaw's memory search shows of a mirror, which starts
where the file does, starts with a memory. Written and read with PyYAML's safe functions only."""

from __future__ import annotations

import yaml

FENCE = "---"
TRAILER_OPEN = "<!-- hippocampus"
TRAILER_CLOSE = "-->"
GENERATOR = "hippocampus"  # `generator:` in the front matter of every file the skill writes
# Front matter longer than this is not one the skill wrote: a stranger's file is not parsed whole to find out.
LIMIT = 4096


def render(fields: dict, body: str) -> str:
    """`body` under front matter holding `fields` (plain values: strings, numbers, lists and mappings of them)."""
    return f"{FENCE}\n{_dump(fields)}{FENCE}\n{body}"


def split(text: str, limit: int = LIMIT) -> tuple[dict | None, str]:
    """(the front matter's fields, the Markdown after it); (None, text) when the text does not open with front
    matter, or its front matter is not a readable YAML mapping (a hand edit that broke it) or is over `limit`
    characters."""
    opening = FENCE + "\n"
    if not text.startswith(opening):
        return None, text
    end = text.find(f"\n{FENCE}\n", len(opening) - 1, len(opening) + limit)
    if end < 0:
        return None, text
    try:
        fields = yaml.safe_load(text[len(opening) : end + 1])
    except (yaml.YAMLError, RecursionError, ValueError):
        return None, text
    if not isinstance(fields, dict):
        return None, text
    return fields, text[end + len(FENCE) + 2 :]


def _dump(fields: dict) -> str:
    return yaml.safe_dump(fields, sort_keys=False, allow_unicode=True, default_flow_style=False, width=1000)


def render_trailer(fields: dict, body: str) -> str:
    """`body` (empty, or ending with a newline), then `fields` in an HTML comment that ends the file."""
    head = _dump(fields)
    if TRAILER_CLOSE in head:
        raise ValueError(f"a trailer field holds {TRAILER_CLOSE!r}, which would end its comment early")
    return f"{body}{TRAILER_OPEN}\n{head}{TRAILER_CLOSE}\n"


def split_trailer(text: str, limit: int = LIMIT) -> tuple[dict | None, str]:
    """(the trailer's fields, the Markdown before it); (None, text) when the text does not end with a readable
    trailer holding a YAML mapping of at most `limit` characters."""
    closing = TRAILER_CLOSE + "\n"
    if not text.endswith(closing):
        return None, text
    opening = TRAILER_OPEN + "\n"
    start = text.rfind("\n" + opening, max(0, len(text) - limit - len(opening) - len(closing) - 1)) + 1
    if start == 0 and not text.startswith(opening):
        return None, text
    inside = text[start + len(opening) : len(text) - len(closing)]
    if TRAILER_CLOSE in inside:
        return None, text
    try:
        fields = yaml.safe_load(inside)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None, text
    if not isinstance(fields, dict):
        return None, text
    return fields, text[:start]
