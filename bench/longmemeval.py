#!/usr/bin/env python3
"""Recall quality end to end on LongMemEval: each question's own haystack of dated user–assistant sessions through
the real pipeline, the question through recall.py, scored against the evidence turns.

For each question (abstention questions, which have no evidence, are left out): its haystack's sessions are written
as OpenClaw session files (session dates from the data, message ids that map back to turns) into a temporary
workspace, and the scripts run as a user's cron runs them (bench/harness.py: encoding after each session, decay each
day, weekly consolidation); then the question goes through `recall.py --json --no-touch` at the question's date (or
just after the last encoding, for the few haystacks with a session later that day), and the memories' `sources` say
which turns came back. Evidence: the turns marked `has_answer`, and the sessions of `answer_session_ids`.

Printed per question type and overall: turn R@1/5/10 (the share of evidence turns among the first k distinct turns
recall lists), turn any@5 (an evidence turn among the first five), session recall_any@5 and recall_all@5 (any / all
evidence sessions among the first five distinct sessions), with the share of evidence turns held by a memory recall
searches (in the index or archived), memories per turn and time; then both modes side by side. Modes: `default`
(the product as shipped) and `all-turns` (`--min-importance 0`). A plain Okapi BM25 (k1 1.5, b 0.75) over single
turns, as bench/locomo.py computes it, runs on the same haystacks as the reference. bench/quality.py runs this with
the ablations, beside LoCoMo.

Usage: python3 bench/longmemeval.py [--data FILE] [--mode default|all-turns|both] [--questions N] [--per-type N]
       [--type TYPE] [--jobs 2]

The file holds its questions in the order of their ids, most temporal-reasoning ones last: `--per-type N` (the first
N of each type) is a subset with every type in it, `--questions N` the first N.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from harness import Columns, Item, Question, Session, Turn  # noqa: E402

DEFAULT_DATA = harness.ROOT.parent / "shared" / "data" / "longmemeval" / "longmemeval_s_dev.json.gz"
TYPES = (
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "multi-session",
    "temporal-reasoning",
    "knowledge-update",
)
COLUMNS = Columns(
    TYPES,
    (
        *((f"turn@{k}", f"turn R@{k}") for k in harness.KS),
        ("turn_any", f"turn any@{harness.ANY_K}"),
        ("session_any", f"session any@{harness.ANY_K}"),
        ("session_all", f"session all@{harness.ANY_K}"),
    ),
)


def when(text: str) -> datetime:
    """'2023/05/20 (Sat) 02:21' as an aware UTC datetime."""
    return datetime.strptime(text.strip(), "%Y/%m/%d (%a) %H:%M").replace(tzinfo=timezone.utc)


def abstains(entry: dict) -> bool:
    return str(entry.get("question_id", "")).endswith("_abs")


def item_of(entry: dict) -> Item:
    """One question and its haystack: sessions numbered by their place in the haystack, in time order."""
    sessions = []
    evidence = set()
    for number, (date, name, turns) in enumerate(
        zip(entry["haystack_dates"], entry["haystack_session_ids"], entry["haystack_sessions"], strict=True)
    ):
        kept = []
        for position, turn in enumerate(turns):
            kept.append(Turn((number, position), "user" if turn["role"] == "user" else "assistant", turn["content"]))
            if turn.get("has_answer"):
                evidence.add((number, position))
        sessions.append(Session(number, when(date), tuple(kept), str(name)))
    sessions.sort(key=lambda s: (s.when, s.number))
    question = Question(
        entry["question"],
        entry["question_type"],
        frozenset(evidence),
        frozenset(str(s) for s in entry.get("answer_session_ids") or []),
    )
    return Item(str(entry["question_id"]), sessions, [question], when(entry["question_date"]))


def load(
    path: Path, questions: int | None = None, types: list[str] | None = None, per_type: int | None = None
) -> list[Item]:
    """The questions with evidence (abstention ones left out), in the file's order: of the `types` given, at most
    `per_type` of each type, then the first `questions` of them."""
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8") as f:
        entries = json.load(f)
    items = [item_of(e) for e in entries if not abstains(e) and (not types or e["question_type"] in types)]
    items = [i for i in items if i.questions[0].evidence]
    if per_type is not None:
        seen: Counter[str] = Counter()
        kept = []
        for item in items:
            seen[item.questions[0].category] += 1
            if seen[item.questions[0].category] <= per_type:
                kept.append(item)
        items = kept
    return items[:questions]


def describe(items: list[Item], path: Path) -> str:
    turns = sum(len(s.turns) for i in items for s in i.sessions)
    sessions = sum(len(i.sessions) for i in items)
    return (
        f"{path.name}: {len(items)} questions with evidence (abstention ones left out), {sessions} sessions, "
        f"{turns} turns"
    )


def main() -> int:
    parser = harness.modes_parser(__doc__, DEFAULT_DATA, "LongMemEval-format JSON (.gz or not)")
    parser.add_argument("--questions", type=int, metavar="N", help="only the first N questions with evidence")
    parser.add_argument("--type", action="append", choices=TYPES, help="only questions of this type (repeatable)")
    parser.add_argument("--per-type", type=int, metavar="N", help="only the first N questions of each type")
    args = parser.parse_args()
    items = load(args.data, args.questions, args.type, args.per_type)
    print(describe(items, args.data))
    harness.report_modes(items, args.mode, args.jobs, "longmemeval", COLUMNS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
