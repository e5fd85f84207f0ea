"""YAML front matter on the Markdown files the skill writes (the mirrors, the weekly reports): a `---` line, a YAML
mapping, a `---` line, then the Markdown. Written and read with PyYAML's safe functions only."""

from __future__ import annotations

import yaml

FENCE = "---"
GENERATOR = "hippocampus"  # `generator:` in the front matter of every file the skill writes
# Front matter longer than this is not one the skill wrote: a stranger's file is not parsed whole to find out.
LIMIT = 4096


def render(fields: dict, body: str) -> str:
    """`body` under front matter holding `fields` (plain values: strings, numbers, lists and mappings of them)."""
    head = yaml.safe_dump(fields, sort_keys=False, allow_unicode=True, default_flow_style=False, width=1000)
    return f"{FENCE}\n{head}{FENCE}\n{body}"


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
