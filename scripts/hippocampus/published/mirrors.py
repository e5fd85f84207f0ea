"""Per-domain Markdown mirrors of the index, `memory/<domain>/<category>.md`: readable, and searchable by OpenClaw's
memory search (which indexes only Markdown). Derived from the index, rewritten only when their text changes.

Each file holds its shelf's SHELF_LIMIT most important memories today, most important first (a note says how many
more there are), so the mirrors stay a readable size however large the store grows; recall.py searches them all. A
file opens with its first memory and ends with a trailer naming the skill, the domain, the shelf and its counts: that
is how a mirror is told from a file someone else keeps beside it."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from .. import frontmatter
from ..model import DOMAIN_TITLES, DOMAINS, Memory
from ..store.cache import Cache, Shelves
from ..store.files import atomic_write
from .selection import framed
from ..timeutil import parse_day
from ..workspace import Workspace

NOTE = "written from memory/index.json; edits here are replaced"
# What marked a mirror before the front matter did: files that hold it are ours too, and are replaced or removed.
MARKER = "<!-- written by hippocampus encode.py from memory/index.json; edits here are replaced -->"
SHELF_LIMIT = 200


def file_name(category: str) -> str:
    name = re.sub(r"[^a-z0-9_-]+", "-", category.lower()).strip("-") or "general"
    return "readme-notes" if name == "readme" else name


def line(memory: Memory, importance: float) -> str:
    text = framed(memory, memory.content)  # redacted already: the store holds nothing else (indexfile.load_index)
    day = parse_day(memory.created)
    when = f" · {day.isoformat()}" if day else ""
    return f"- {text} _({importance:.2f} · {memory.id}{when})_"


def render(domain: str, category: str, shelf: list[tuple[Memory, float]], more: int = 0) -> str:
    """The mirror of one shelf: its memories, a note when some are left out, then the trailer."""
    body = "\n".join(line(m, importance) for m, importance in shelf)
    tail = (
        f"\n\n_{more:,} less important memories of this shelf are not listed here; recall.py finds them._"
        if more
        else ""
    )
    fields = {
        "generator": frontmatter.GENERATOR,
        "note": NOTE,
        "title": f"{DOMAIN_TITLES.get(domain, domain.title())} — {category}",
        "domain": domain,
        "shelf": category,
        "memories": len(shelf) + more,
        "listed": len(shelf),
    }
    return frontmatter.render_trailer(fields, f"{body}{tail}\n\n")


def is_ours(path: Path) -> bool:
    """Whether a Markdown file under memory/<domain>/ is a mirror (ours to replace or remove): its trailer names us,
    or, for a mirror of an earlier version, its front matter does or it holds the marker they had before that.
    Reads only the file's head and tail, whatever its encoding."""
    with open(path, "rb") as handle:
        head = handle.read(frontmatter.LIMIT + 16)
        handle.seek(max(0, handle.seek(0, 2) - frontmatter.LIMIT - 64))
        tail = handle.read()
    fields, _ = frontmatter.split_trailer(tail.decode("utf-8", errors="replace"))
    if (fields or {}).get("generator") == frontmatter.GENERATOR:
        return True
    text = head.decode("utf-8", errors="replace")
    fields, _ = frontmatter.split(text)
    return (fields or {}).get("generator") == frontmatter.GENERATOR or MARKER in text[:400]


def shelves() -> Shelves:
    """An empty tally of the mirrors' shelves, for `Cache.tally`."""
    return Shelves(file_name, SHELF_LIMIT)


def write_mirrors(ws: Workspace, view: Cache, today: date, tallied: Shelves | None = None) -> int:
    """Bring every mirror up to date with the store as of `today` (its shelves as `tallied` already, else read
    here); returns how many files were written or removed."""
    if tallied is None:
        tallied = shelves()
        view.tally(today, tallied)
    written = 0
    wanted = set()
    for (domain, name), shelf in tallied.read(view, today):
        if domain not in DOMAINS or not shelf.memories:
            continue
        path = ws.domain_dir(domain) / f"{name}.md"
        wanted.add(path)
        text = render(domain, name, shelf.memories, shelf.total - len(shelf.memories))
        try:
            if path.read_text(encoding="utf-8") == text:
                continue
        except (OSError, UnicodeDecodeError):
            pass  # missing, unreadable or not text: written anew
        atomic_write(path, text)
        written += 1
    for domain in DOMAINS:
        folder = ws.domain_dir(domain)
        if not folder.is_dir():
            continue
        for path in folder.glob("*.md"):
            if path in wanted or path.name == "README.md":
                continue
            try:
                ours = is_ours(path)
            except OSError:
                continue
            if ours:
                path.unlink(missing_ok=True)  # a shelf emptied by archiving; the memories are still in the index
                written += 1
    return written
