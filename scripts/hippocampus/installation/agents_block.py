"""The hippocampus block in a workspace's AGENTS.md: insert, update, remove; the rest of the file stays as it was.

Pure text in, text out. The block sits between two marker lines. Lines of the old bash skill (calls of
`load-core.sh` / `recall.sh`) are taken over: the block replaces the first of them and the others go.
"""

from __future__ import annotations

import re

from ..errors import HippocampusError

START = "<!-- hippocampus:start -->"
END = "<!-- hippocampus:end -->"

_LEGACY = re.compile(r"(load-core\.sh|recall\.sh)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^#{1,6}\s")


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def find_block(text: str) -> tuple[int, int] | None:
    """(first, last) line numbers of the marked block, markers included; None when there is none."""
    lines = _lines(text)
    start = next((i for i, line in enumerate(lines) if line.strip() == START), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == END), None)
    if end is None:
        raise HippocampusError(f"AGENTS.md has `{START}` but no `{END}` after it; fix or remove the marker by hand")
    return start, end


def _drop_in(lines: list[str]) -> tuple[list[str], int | None]:
    """Lines without the old skill's calls (and code fences or lead-in lines left empty by their removal).

    Returns the new lines and the position where the first removed line was (None when nothing was removed)."""
    out: list[str] = []
    first = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if _LEGACY.search(line):
            first = len(out) if first is None else first
            i += 1
            continue
        # A fence whose only content was old calls: drop the whole fence, and an "Use hippocampus recall:" lead-in.
        if _FENCE.match(line):
            close = next((j for j in range(i + 1, len(lines)) if _FENCE.match(lines[j])), None)
            if (
                close is not None
                and close > i + 1
                and all(_LEGACY.search(x) or not x.strip() for x in lines[i + 1 : close])
            ):
                if out and "hippocampus" in out[-1].lower() and out[-1].rstrip().endswith(":"):
                    out.pop()
                first = len(out) if first is None else min(first, len(out))
                i = close + 1
                continue
        out.append(line)
        i += 1
    return out, first


def _sections(lines: list[str]) -> list[list[str]]:
    """The lines cut before each Markdown heading (outside code fences)."""
    sections: list[list[str]] = [[]]
    fenced = False
    for line in lines:
        if _FENCE.match(line):
            fenced = not fenced
        if not fenced and _HEADING.match(line) and sections[-1]:
            sections.append([])
        sections[-1].append(line)
    return sections


def _drop_legacy(lines: list[str]) -> tuple[list[str], int | None]:
    """The lines without the old skill's calls; a section they leave empty goes with its heading.

    Returns the new lines and where the first removed line was (None when nothing was removed)."""
    out: list[str] = []
    first = None
    for section in _sections(lines):
        kept, where = _drop_in(section)
        if where is None:
            out += section
            continue
        headed = bool(kept) and bool(_HEADING.match(kept[0]))
        if headed and not any(line.strip() for line in kept[1:]):
            first = len(out) if first is None else first
            continue
        first = len(out) + where if first is None else first
        out += kept
    return out, first


def has_legacy(text: str) -> bool:
    return any(_LEGACY.search(line) for line in _lines(text))


def apply_block(text: str, block: str) -> str:
    """`text` with the block inserted or updated. Idempotent: applying the same block twice changes nothing."""
    body = block if block.endswith("\n") else block + "\n"
    if not body.startswith(START) or not body.rstrip("\n").endswith(END):
        raise ValueError("the AGENTS.md block must start and end with the hippocampus markers")
    found = find_block(text)
    lines = _lines(text)
    if found is not None:
        start, end = found
        before, _ = _drop_legacy(lines[:start])
        after, _ = _drop_legacy(lines[end + 1 :])
        return "".join(before) + body + "".join(after)
    kept, where = _drop_legacy(lines)
    if where is not None:
        rest = kept[where:]
        gap = "\n" if rest and rest[0].strip() else ""
        return "".join(kept[:where]) + body + gap + "".join(rest)
    if not text:
        return body
    separator = "\n" if text.endswith("\n") else "\n\n"
    return text + separator + body


def remove_block(text: str) -> str:
    """`text` without the block (and without the blank line put before it when it was appended at the end)."""
    found = find_block(text)
    if found is None:
        return text
    start, end = found
    lines = _lines(text)
    after = lines[end + 1 :]
    before = lines[:start]
    if not after and before and before[-1] == "\n":
        before = before[:-1]
    return "".join(before) + "".join(after)
