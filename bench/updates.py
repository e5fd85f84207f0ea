#!/usr/bin/env python3
"""How often the truth layer changes a stored value on real chats, and a random sample of those changes for a person
to mark right or wrong (the precision of updates).

An update is either of two things. Encoding replaces a memory's value when a message says it changed ("my locker code
is now 5521"), keeping the old one in the memory's `history` with the time it held (the changes `Memory.changes`
reads; merges and restores are left out). Weekly consolidation marks an older memory `supersededBy` a newer one that
changed its value. Over the LoCoMo dev conversations and the first 40 LongMemEval dev histories (each question's
haystack), every history goes through the real pipeline as the recall benches run it (bench/harness.py: the
installer's cron schedule in a fresh workspace, mode `default`); then index.json and memory/archive.jsonl (a memory
consolidation archived keeps its history) are read and every update counted.

Printed per data set: histories, messages read (the turns written to transcripts), updates by encoding, memories
superseded by consolidation, and updates per 1,000 messages. Then `--count` updates drawn at random (`--seed`) are
written to `--sample` as a numbered Markdown list: the old content and when it held, the new content, and the message
that made the change (the newest of the changed memory's sources up to the change, its text from the data; the new
content when none can be found) with its date.

Usage: python3 bench/updates.py [--locomo-data FILE] [--longmemeval-data FILE] [--histories 40] [--jobs 2]
       [--seed 1] [--count 60] [--sample FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
import locomo  # noqa: E402
import longmemeval  # noqa: E402
from harness import Item, Session, Turn  # noqa: E402
from hippocampus.model import Memory  # noqa: E402
from hippocampus.timeutil import parse_instant  # noqa: E402

SHOWN = 600  # characters of a text shown in the sample; LongMemEval's assistant turns run to thousands


@dataclass(frozen=True)
class Update:
    data: str  # the data set and the history
    by: str  # "encoding" or "consolidation"
    memory: str  # the id of the memory that changed (for consolidation: the one superseded)
    old: str
    held: str  # when the old value held, "from → until"
    new: str
    cause: str  # the message that made the change, as the sample shows it


def stored(ws: Path) -> list[dict]:
    """Every memory the workspace holds: index.json's, then the archive's not in it (the index's copy wins)."""
    memories = json.loads((ws / "memory" / "index.json").read_text(encoding="utf-8"))["memories"]
    ids = {m["id"] for m in memories}
    archive = ws / "memory" / "archive.jsonl"
    if archive.exists():
        for line in archive.read_text(encoding="utf-8").split("\n"):
            if line.strip() and (entry := json.loads(line))["id"] not in ids:
                memories.append(entry)
    return memories


def day(value: str | None) -> str:
    when = parse_instant(value)
    return "?" if when is None else f"{when:%Y-%m-%d %H:%M}"


def short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[:SHOWN] + " …"


def cause(memory: Memory | None, moment: str | None, turns: dict[tuple[int, int], tuple[Turn, Session]]) -> str:
    """The newest of the memory's sources said at or before `moment` whose turn the data holds, shown with its
    date; the memory's content when there is none."""
    limit = parse_instant(moment)
    found = []
    for source in memory.sources if memory else []:
        key = harness.turn_of(source.get("message")) if isinstance(source, dict) else None
        when = parse_instant(source.get("ts")) if key else None
        if key in turns and when is not None and (limit is None or when <= limit):
            found.append((when, key))
    if not found:
        return "(no source found) " + (short(memory.content) if memory else "?")
    when, key = max(found)
    turn, session = turns[key]
    return f"{turn.role}, {when:%Y-%m-%d %H:%M}, session {session.name}: {short(turn.text)}"


def updates_of(name: str, item: Item, memories: list[dict]) -> list[Update]:
    """Every update the stored memories show, in the order they are stored."""
    turns = {t.key: (t, s) for s in item.sessions for t in s.turns}
    seen = [Memory.from_dict(m, f"{name} index.json") for m in memories]
    by_id = {m.id: m for m in seen}
    out = []
    for memory in seen:
        changes = memory.changes
        for number, change in enumerate(changes):
            new = changes[number + 1].content if number + 1 < len(changes) else memory.content
            held = f"{day(change.since)} → {day(change.until)}"
            said = cause(memory, change.until, turns)
            out.append(Update(name, "encoding", memory.id, short(change.content), held, short(new), said))
        if memory.superseded:
            newer = by_id.get(memory.raw["supersededBy"])
            # The newer memory's history says when (consolidation's run); supersededOn keeps only the day.
            marks = [h.get("ts") for h in (newer.history if newer else []) if h.get("supersedes") == memory.id]
            moment = marks[0] if marks else memory.raw.get("supersededOn")
            held = f"{day(memory.created)} → {day(moment)}"
            new = short(newer.content) if newer else f"(memory {memory.raw['supersededBy']}, not kept)"
            said = cause(newer, moment, turns)
            out.append(Update(name, "consolidation", memory.id, short(memory.content), held, new, said))
    return out


@dataclass
class Tally:
    histories: int = 0
    messages: int = 0
    encoding: int = 0
    consolidation: int = 0


def main() -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--locomo-data", type=Path, default=locomo.DEFAULT_DATA, help="a LoCoMo-format JSON file")
    parser.add_argument("--longmemeval-data", type=Path, default=longmemeval.DEFAULT_DATA, help="LongMemEval JSON")
    parser.add_argument("--histories", type=int, default=40, metavar="N", help="the first N LongMemEval histories")
    parser.add_argument("--conversations", type=int, metavar="N", help="only the first N LoCoMo conversations")
    parser.add_argument("--jobs", type=int, default=2, help="histories built in parallel")
    parser.add_argument("--seed", type=int, default=1, help="of the random sample")
    parser.add_argument("--count", type=int, default=60, help="updates in the sample")
    parser.add_argument("--sample", type=Path, default=Path("/tmp/updates-sample.md"), help="where the sample goes")
    args = parser.parse_args()
    sets = {
        "LoCoMo": locomo.load(args.locomo_data, args.conversations),
        "LongMemEval": longmemeval.load(args.longmemeval_data, args.histories),
    }
    started = time.perf_counter()
    everything: list[Update] = []
    print("| data set | histories | messages read | by encoding | by consolidation | updates per 1,000 messages |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, items in sets.items():

        def found(item: Item, ws: Path, asked: datetime, label: str = label) -> list[Update]:
            return updates_of(f"{label} {item.name}", item, stored(ws))

        made = harness.each_built(items, found, args.jobs, f"updates-{label.lower()}", harness.progress_to_stderr)
        tally = Tally(len(items), sum(len(s.turns) for i in items for s in i.sessions))
        for update in (u for per_item in made for u in per_item):
            everything.append(update)
            setattr(tally, update.by, getattr(tally, update.by) + 1)
        total = tally.encoding + tally.consolidation
        print(
            f"| {label} | {tally.histories} | {tally.messages} | {tally.encoding} | {tally.consolidation} | "
            f"{1000 * total / max(1, tally.messages):.2f} |"
        )
    wall = time.perf_counter() - started

    drawn = random.Random(args.seed).sample(everything, min(args.count, len(everything)))
    lines = [
        f"# {len(drawn)} of {len(everything)} updates, drawn with seed {args.seed}",
        "",
        "Mark each right (the new content does replace the old value) or wrong.",
        "",
    ]
    for number, u in enumerate(drawn, 1):
        lines += [
            f"{number}. **{u.data}**, by {u.by} (memory {u.memory})",
            f"   - old ({u.held}): {u.old}",
            f"   - new: {u.new}",
            f"   - message: {u.cause}",
            "   - right / wrong:",
            "",
        ]
    args.sample.write_text("\n".join(lines), encoding="utf-8")
    print(f"\n{len(drawn)} of {len(everything)} updates drawn (seed {args.seed}) into {args.sample}")
    print(f"wall time: {wall:.0f} s, {args.jobs} at a time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
