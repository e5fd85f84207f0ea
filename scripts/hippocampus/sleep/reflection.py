"""The weekly self-reflection: prompts built from the week's memories for the agent's own turn, and its answers,
validated field by field like encode's LLM decisions, stored as `self` / `relationship` memories whose sources
point at the reflection. Pure, except `load_answers`, which reads the answer file.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..ingestion import encoding
from .. import redaction
from .consolidation import week_id
from ..errors import HippocampusError
from ..model import Index, Memory
from ..ingestion.pending import (
    checked_category,
    checked_content,
    checked_domain,
    checked_importance,
    checked_keywords,
    read_apply_file,
    CONTENT_MAX,
    KEYWORDS_MAX,
)
from ..text import one_line
from ..timeutil import iso, parse_instant

VERSION = 1
WINDOW = timedelta(days=7)
DOMAINS = ("relationship", "self")
DEFAULT_CATEGORY = {"relationship": "insight", "self": "identity"}
DEFAULT_IMPORTANCE = 0.75
LISTED = 12
FIELDS = frozenset({"domain", "content", "category", "importance", "keywords", "about"})
_WEEK = re.compile(r"^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$")

QUESTIONS = (
    ("relationship", "What did you learn about the user this week that should change how you work with them?"),
    ("relationship", "What went well between you this week, and what went badly? What will you do differently?"),
    ("self", "What do you believe about yourself after this week: how you work, what you are good or bad at?"),
)


# --- the prompt -----------------------------------------------------------------------------------------------


@dataclass
class Week:
    """The memories of a week, by the section of the prompt they belong to."""

    name: str
    since: datetime
    until: datetime
    sections: dict[str, list[tuple[Memory, str]]] = field(default_factory=dict)


def _section(memory: Memory) -> str:
    if memory.domain == "self":
        return "self"
    if memory.domain == "relationship" or memory.category in ("feedback", "emotions"):
        return "between"
    return "user"


def week_memories(index: Index, now: datetime) -> Week:
    """Memories made this week ("new") or mentioned again this week ("again"), strongest first per section."""
    since = now - WINDOW
    week = Week(name=week_id(now), since=since, until=now, sections={"user": [], "between": [], "self": []})
    for memory in index.memories:
        if memory.superseded or memory.archived or memory.untrusted or memory.extra.get("kind") == "reflection":
            continue
        created = parse_instant(memory.created)
        if created is not None and since <= created <= now:
            week.sections[_section(memory)].append((memory, "new"))
            continue
        for source in memory.sources:
            when = parse_instant(source.get("ts")) if isinstance(source, dict) else None
            if when is not None and since <= when <= now:
                week.sections[_section(memory)].append((memory, "again"))
                break
    for items in week.sections.values():
        items.sort(key=lambda item: (-item[0].importance, item[0].id))
    return week


def example(week: Week) -> dict:
    """An answer file of the right shape (its `about` names a memory of this week, when there is one)."""
    first = next((items[0][0].id for items in week.sections.values() if items), None)
    insight = {
        "domain": "relationship",
        "content": "The user opens up about work stress late in the evening; short, "
        "calm answers help more than plans then.",
        "category": "insight",
        "importance": 0.8,
        "keywords": ["stress", "evening"],
    }
    if first:
        insight["about"] = [first]
    return {
        "reflection": week.name,
        "answers": [
            insight,
            {
                "domain": "self",
                "content": "I tend to over-explain when a task is unclear; asking one question first works better.",
            },
        ],
    }


def _example_text(data: dict) -> str:
    answers = ",\n  ".join(json.dumps(a, ensure_ascii=False) for a in data["answers"])
    return f'{{"reflection": "{data["reflection"]}", "answers": [\n  {answers}]}}'


def prompt(week: Week, apply_command: str, answer_file: str) -> str:
    """The text the agent reads in its weekly turn: the week's memories, three questions, the answer format."""
    titles = {
        "user": "What you learned about the user",
        "between": "Between you: thanks, feelings, feedback",
        "self": "What you said about yourself",
    }
    lines = [
        f"# Weekly reflection {week.name} ({week.since.date().isoformat()} to {week.until.date().isoformat()})",
        "",
        "Below is what you remembered this week. Read it, then answer the questions as yourself: briefly, "
        "honestly, in your own words.",
        "",
    ]
    for key in ("user", "between", "self"):
        items = week.sections[key]
        lines.append(f"## {titles[key]} ({len(items)})")
        lines.append("")
        if not items:
            lines.append("Nothing this week.")
        for memory, how in items[:LISTED]:
            lines.append(f"- {memory.id} [{memory.importance:.2f}] {one_line(memory.content, 240)} ({how})")
        if len(items) > LISTED:
            lines.append(f"- … and {len(items) - LISTED} more (recall.py finds them)")
        lines.append("")
    lines += ["## Questions", ""]
    for number, (domain, question) in enumerate(QUESTIONS, 1):
        lines.append(f'{number}. {question} (domain "{domain}")')
    lines += [
        "",
        "## Your answers",
        "",
        f"Write one JSON file, {answer_file}, with one entry per insight (none is fine too):",
        "",
        _example_text(example(week)),
        "",
        "(That is the shape only: write your own entries, or none.)",
        "",
        f'- `reflection`: "{week.name}" (this week, as above).',
        '- `domain`: "relationship" (about the user and the two of you) or "self" (about you).',
        f"- `content`: one standalone sentence or two, at most {CONTENT_MAX} characters.",
        f'- optional `category` (a lower-case word; default "insight" for relationship, "identity" for '
        f"self), `importance` (0 to 1, default {DEFAULT_IMPORTANCE}), `keywords` (at most {KEYWORDS_MAX} "
        "words), `about` (ids of the memories above it draws on). No other fields.",
        "",
        "Then run:",
        "",
        f"    {apply_command} {answer_file}",
        "",
        "Entries that say what a memory already says reinforce it instead of adding another; applying the "
        "same file twice changes nothing. Invalid entries are listed and nothing else is affected.",
    ]
    return "\n".join(lines) + "\n"


# --- the answers ----------------------------------------------------------------------------------------------


@dataclass
class Answer:
    position: int
    domain: str
    content: str
    category: str
    importance: float
    keywords: list[str]
    about: list[str]

    @property
    def digest(self) -> str:
        """Names the answer in its memory's sources, so the same answer is never applied twice."""
        return hashlib.sha256(" ".join(self.content.lower().split()).encode("utf-8")).hexdigest()[:12]


def load_answers(path: Path) -> tuple[str, list[Any]]:
    """(week, raw answers) from an answer file; a file that is not one is an error naming it."""
    raw = read_apply_file(path)
    if not isinstance(raw, dict) or not isinstance(raw.get("answers"), list):
        raise HippocampusError(f'--apply: {path} must hold {{"reflection": "YYYY-Www", "answers": [...]}}')
    name = raw.get("reflection")
    if not isinstance(name, str) or not _WEEK.match(name):
        raise HippocampusError(
            f'--apply: {path}: `reflection` must name the week the prompt gave, like "2026-W09", not {name!r}'
        )
    unknown = set(raw) - {"reflection", "answers", "version"}
    if unknown:
        raise HippocampusError(f"--apply: {path}: unknown top-level field(s): {', '.join(sorted(unknown))}")
    return name, raw["answers"]


def validate(raw_answers: list[Any], index: Index) -> tuple[list[Answer], list[dict]]:
    """Check every field of every answer: (valid answers, [{"index", "error"}])."""
    ids = {m.id for m in index.memories}
    valid: list[Answer] = []
    errors: list[dict] = []
    seen: set[str] = set()
    for position, raw in enumerate(raw_answers):
        try:
            answer = _check(position, raw, ids)
            if answer.digest in seen:
                raise ValueError("the same answer appears twice in this file")
            seen.add(answer.digest)
        except ValueError as exc:
            errors.append({"index": position, "error": str(exc)})
            continue
        valid.append(answer)
    return valid, errors


def _check(position: int, raw: Any, ids: set[str]) -> Answer:
    if not isinstance(raw, dict):
        raise ValueError("an answer must be an object")
    unknown = set(raw) - FIELDS
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
    domain = checked_domain(raw.get("domain"), DOMAINS)
    content = checked_content(raw.get("content"))
    category = checked_category(raw.get("category", DEFAULT_CATEGORY[domain]))
    importance = checked_importance(raw.get("importance", DEFAULT_IMPORTANCE))
    keywords = checked_keywords(raw.get("keywords", []))
    about = raw.get("about", [])
    if not isinstance(about, list) or not all(isinstance(a, str) for a in about):
        raise ValueError("`about` must be a list of memory ids")
    missing = [a for a in about if a not in ids]
    if missing:
        raise ValueError(f"`about` names no memory of the index: {', '.join(missing[:5])}")
    return Answer(
        position=position,
        domain=domain,
        content=content,
        category=category,
        importance=importance,
        keywords=keywords,
        about=list(dict.fromkeys(about)),
    )


def as_dict(outcome: encoding.Outcome) -> dict:
    """What applying the answers did, as `--apply --json` prints it: the ids of the memories made, reinforced and
    updated, and how many answers were applied before."""
    return {
        "new": outcome.new,
        "reinforced": outcome.reinforced,
        "updated": outcome.updated,
        "alreadyApplied": outcome.duplicates,
    }


def applied_before(index: Index) -> set[tuple[str, str]]:
    """(week, answer digest) of every reflection answer already in the index."""
    out = set()
    for memory in index.memories:
        for source in memory.sources:
            if isinstance(source, dict) and isinstance(source.get("reflection"), str):
                out.add((source["reflection"], str(source.get("answer"))))
    return out


def apply(index: Index, name: str, answers: list[Answer], now: datetime) -> encoding.Outcome:
    """Store each answer as a memory (or reinforce the one that already says it), its source the reflection. An
    answer applied before counts among the outcome's `duplicates`."""
    result = encoding.Outcome()
    done = applied_before(index)
    lookup = encoding.Candidates([m for m in index.memories if m.domain in DOMAINS])
    for answer in answers:
        if (name, answer.digest) in done:
            result.duplicates += 1
            continue
        source: dict[str, Any] = {"reflection": name, "answer": answer.digest, "ts": iso(now)}
        if answer.about:
            source["about"] = answer.about
        said: dict[str, Any] = {"content": answer.content, "keywords": list(answer.keywords or [])}
        redaction.redact_memory(said)  # the agent may have written a secret down
        keywords = said["keywords"] or encoding.keywords_of(said["content"])
        draft = encoding.Draft(
            content=said["content"],
            keywords=keywords,
            domain=answer.domain,
            category=answer.category,
            importance=answer.importance,
            when=now,
            source=source,
        )
        made = len(result.new)
        memory = encoding.place(index, lookup, draft, result)
        if len(result.new) > made:
            memory.extra["kind"] = "reflection"
        done.add((name, answer.digest))
    return result
