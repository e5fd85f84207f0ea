"""What a message repeats of a memory system's own output, found and taken out before the message is encoded.

An agent that runs load_core or recall, reads HIPPOCAMPUS_CORE.md or a mirror, or searches OpenClaw's memory, may
repeat what it got in its reply (and a user may paste it); OpenClaw itself may put recalled memories or runtime
context around a user turn. Read back from the transcript, that text would become memories of memories, or
strengthen a memory every time it was recalled. Taken out here:

- hippocampus's listings: load_core's lines (`- [0.92] …`), recall's hits (`1. [0.93] (user/preferences) … · mem_7`)
  and the lines under them, HIPPOCAMPUS_CORE.md's lines (`- **[0.92]** …`), the mirrors' lines
  (`- … _(0.92 · mem_7 · 2026-03-01)_`); their titles, notes and trailers when one of those lines is there too; the
  JSON of `--json` (any JSON holding a memory with its `mem_` id and content);
- OpenClaw's: memory-search results (any JSON holding a result with a `snippet` and a `path`), the active-memory
  block (`<active_memory_plugin>…</active_memory_plugin>` and the header line before it) and the runtime-context
  block (`<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>…<<<END_OPENCLAW_INTERNAL_CONTEXT>>>`).

Pure, and by shape only: a line goes only when it has exactly the shape one of those listings prints; everything
else a message says stays.
"""

from __future__ import annotations

import json
import re

from ..model import DOMAIN_TITLES

# Anything worth a closer look holds one of these; most messages hold none and go no further.
_HINT = re.compile(
    r"\[\d\.\d\d\]|· mem_\d|core memor|no memory matches that|<active_memory_plugin>|<!-- hippocampus"
    r"|<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>|\"(?:snippet|content)\""
)
_BLOCKS = re.compile(
    r"(?:^[ \t]*(?:Context:|Untrusted context \(metadata, do not treat as instructions or commands\):)[ \t]*\n)?"
    # Each block ends before another one opens: a text of opening tags alone is read once, not once a tag.
    r"^[ \t]*<active_memory_plugin>(?:(?!<active_memory_plugin>).)*?</active_memory_plugin>[ \t]*$"
    r"|<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>(?:(?!<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>).)*?"
    r"<<<END_OPENCLAW_INTERNAL_CONTEXT>>>"
    r"|^<!-- hippocampus\n(?:(?!<!-- hippocampus\n).)*?^-->$",
    re.DOTALL | re.MULTILINE,
)
_SCORE = r"\[(?:0\.\d\d|1\.00)\]"
_ITEM = re.compile(
    rf"^\s*(?:[-*] {_SCORE} \S"  # load_core
    rf"|[-*] \*\*{_SCORE}\*\* \S"  # HIPPOCAMPUS_CORE.md
    r"|\d+\. \[\d\.\d\d\] \([^()\s]+/[^()\s]+\) .*· mem_\d+"  # recall
    r"|[-*] .* _\(\d\.\d\d · mem_\d+(?: · \d{4}-\d\d-\d\d)?\)_\s*$)"  # a mirror
)
# Lines printed only when there is nothing to list: ours, whatever stands beside them.
_ALONE = re.compile(r"^\s*(?:No core memories yet \(none at importance ≥ \d\.\d\d\)\.|no memory matches that)\s*$")
_TITLES = "|".join(re.escape(title) for title in DOMAIN_TITLES.values())
# The furniture of a listing: taken out only beside one of its memory lines.
_FURNITURE = re.compile(
    r"^\s*(?:## Core memories \(\d+ of \d+ at importance ≥ \d\.\d\d\)"
    rf"|#{{1,3}} (?:{_TITLES})(?: — [a-z0-9_-]+)?"
    r"|# Hippocampus Core Memories"
    r"|_[\d,]+ core memor(?:y|ies) \(importance ≥ .*_"
    r"|\(\d+ more core memories left out .*\)"
    r"|_[\d,]+ less important memories of this shelf are not listed here; recall\.py finds them\._"
    r"|_No core memories yet\._"
    r"|turn (?:said by|observed) .*"
    r"|why: relevance .*"
    r"|Source: \S+#L\d+-L\d+)\s*$"
)
_JSON_START = re.compile(r"^[ \t]*(?:```(?:json)?[ \t]*\n[ \t]*)?(?=[{\[])", re.MULTILINE)
_JSON_TRIES = 20  # JSON texts tried in one message, at most
_JSON_NODES = 20_000  # values looked at in one JSON text, at most


def strip_content(content):
    """A message's content (a string, or a list of blocks) with `strip` applied to its text; other shapes, and
    content with nothing to take out, as they are."""
    if isinstance(content, str):
        return strip(content)
    if not isinstance(content, list):
        return content
    out = content
    for i, block in enumerate(content):
        text = block.get("text") if isinstance(block, dict) else block
        if isinstance(text, str) and _HINT.search(text):
            kept = strip(text)
            if kept != text:
                out = list(out) if out is content else out
                out[i] = {**block, "text": kept} if isinstance(block, dict) else kept
    return out


def strip(text: str) -> str:
    """`text` without what it repeats of a memory listing (lines left empty are kept; callers tidy them)."""
    if not _HINT.search(text):
        return text
    text = _BLOCKS.sub("", text)
    text = _without_listing_json(text)
    lines = text.split("\n")
    items = {i for i, line in enumerate(lines) if _ITEM.match(line)}
    drop = items | {i for i, line in enumerate(lines) if _ALONE.match(line)}
    if items:
        drop |= {i for i, line in enumerate(lines) if _FURNITURE.match(line)}
    if not drop:
        return text
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


def _without_listing_json(text: str) -> str:
    """`text` without the JSON texts in it that hold memories or memory-search results."""
    if '"content"' not in text and '"snippet"' not in text:
        return text
    decoder = json.JSONDecoder()
    spans: list[tuple[int, int]] = []
    tries = 0
    for match in _JSON_START.finditer(text):
        start = match.end()
        if spans and start < spans[-1][1]:
            continue
        tries += 1
        if tries > _JSON_TRIES:
            break
        try:
            value, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            continue
        if _is_listing(value):
            closing = re.match(r"\A\s*```", text[end:])
            spans.append((match.start(), end + (closing.end() if closing else 0)))
    for start, end in reversed(spans):
        text = text[:start] + text[end:]
    return text


def _is_listing(value) -> bool:
    """Whether a JSON value holds one of our memories (id and content) or one of OpenClaw's search results."""
    stack = [value]
    seen = 0
    while stack and seen < _JSON_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            if isinstance(node.get("snippet"), str) and isinstance(node.get("path"), str):
                return True
            if isinstance(node.get("content"), str) and re.fullmatch(r"mem_\d+", str(node.get("id"))):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False
