#!/usr/bin/env python3
"""Recall quality end to end on LoCoMo-format conversations: transcripts in, memories through the real pipeline,
questions through recall.py, scored against the evidence turns.

For each conversation: its sessions are written as OpenClaw session files (session dates from the data, one message
per dialog turn, speaker A's as the user's, message ids that map back to dialog ids) into a temporary workspace, and
the scripts run as a user's cron runs them (bench/harness.py: encoding after each session, decay each day, weekly
consolidation); then every question goes through `recall.py --json --no-touch` the day after the last session, and
the memories' `sources` say which turns came back. At k, the first k distinct turns in the order recall lists them
count (recall lists a memory's sources in the order they match the question, so a memory carrying several turns is
not k answers at once). Printed per question category and overall: Recall@1/5/10 at turn and at session level (the
sessions of those k turns), the share of evidence turns held by a memory recall searches (its own sources and the turns
attached to it), memories per turn, the index's size per turn and time; then both modes side by side.

Modes: `default` (the product as shipped) and `all-turns` (`--min-importance 0`: every turn kept, the ranking
alone). A plain Okapi BM25 (k1 1.5, b 0.75) over "speaker: text" turns, one store per conversation, is computed on
the same data as a reference. bench/quality.py runs this with the ablations, beside LongMemEval.

Usage: python3 bench/locomo.py [--data FILE] [--mode default|all-turns|both] [--conversations N] [--jobs 2]
"""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from harness import Columns, Item, Question, Session, Turn  # noqa: E402

DEFAULT_DATA = harness.ROOT.parent / "shared" / "data" / "locomo" / "locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
COLUMNS = Columns(
    tuple(CATEGORIES.values()),
    (
        *((f"turn@{k}", f"turn R@{k}") for k in harness.KS),
        *((f"session@{k}", f"session R@{k}") for k in harness.KS),
    ),
)
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")


def session_date(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' as an aware UTC datetime."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)


def evidence_turns(evidence) -> set[tuple[int, int]]:
    """Dialog ids as (session, turn), tolerating the source's malformed forms (D:11:26, D30:05, several in one)."""
    found = set()
    for item in evidence or []:
        for session, turn in _EVIDENCE.findall(str(item)):
            found.add((int(session), int(turn)))
    return found


def item_of(sample: dict) -> Item:
    """One conversation as a history of sessions and its questions with evidence (the others cannot be scored)."""
    conversation = sample["conversation"]
    sessions = []
    for key, dialog in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if not (match and isinstance(dialog, list) and dialog):
            continue
        number = int(match.group(1))
        turns = tuple(
            Turn(
                evidence_turns([turn["dia_id"]]).pop(),
                "user" if turn["speaker"] == conversation["speaker_a"] else "assistant",
                f"{turn['speaker']}: {turn['text']}",
            )
            for turn in dialog
        )
        sessions.append(Session(number, session_date(conversation[f"session_{number}_date_time"]), turns, str(number)))
    sessions.sort(key=lambda s: s.number)
    questions = []
    for qa in sample["qa"]:
        wanted = evidence_turns(qa.get("evidence"))
        if wanted:
            category = CATEGORIES.get(qa.get("category"), str(qa.get("category")))
            sessions_wanted = frozenset(str(s) for s, _ in wanted)
            questions.append(Question(qa["question"], category, frozenset(wanted), sessions_wanted))
    last = max(s.when for s in sessions)
    asked = datetime.combine(last.date() + timedelta(days=1), datetime.min.time(), tzinfo=timezone.utc)
    return Item(str(sample.get("sample_id", "?")), sessions, questions, asked)


def load(path: Path, conversations: int | None = None) -> list[Item]:
    samples = json.loads(path.read_text(encoding="utf-8"))
    return [item_of(s) for s in samples[:conversations] if s]


def describe(items: list[Item], path: Path) -> str:
    turns = sum(len(s.turns) for i in items for s in i.sessions)
    questions = sum(len(i.questions) for i in items)
    names = ", ".join(i.name for i in items)
    return f"{path.name}: {len(items)} conversations ({names}), {turns} turns, {questions} questions with evidence"


def main() -> int:
    parser = harness.modes_parser(__doc__, DEFAULT_DATA, "LoCoMo-format JSON")
    parser.add_argument("--conversations", type=int, metavar="N", help="only the first N conversations")
    args = parser.parse_args()
    items = load(args.data, args.conversations)
    print(describe(items, args.data))
    harness.report_modes(items, args.mode, args.jobs, "locomo", COLUMNS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
