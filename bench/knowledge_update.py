#!/usr/bin/env python3
"""Newest first on LongMemEval's knowledge-update questions: whether the first evidence turn recall gives the agent
to read comes from the newest evidence session, beside a plain BM25 over single turns.

A knowledge-update question asks for a value that changed (a count, a time, a record): its evidence lies in two or
more sessions, and the newest holds the value that is current. For each such question (abstention ones left out),
its haystack goes through the real pipeline as bench/longmemeval.py runs it (bench/harness.py: the installer's cron
schedule in a fresh workspace, mode `default`), the question through `recall.py --json --no-touch` at its date, and
recall's `turns` (the order the agent reads them) are walked to the first evidence turn (`has_answer`). "yes" when
that turn's session is the newest evidence session (of `answer_session_ids` and the sessions holding evidence turns,
by date); "no" when it is an older one, or when no evidence turn comes back. The plain Okapi BM25 of
bench/harness.py is read the same way, in its ranking's order.

Printed: each question (its id, its half, the newest evidence session and its date; for us and for BM25, yes or no
and the session whose evidence came first), then the rate of "yes" in each half and overall. The halves split the
questions by the first byte of sha256(question id): even "tuning", odd "check". Target: 90 % or more.

Usage: python3 bench/knowledge_update.py [--data FILE] [--questions N] [--jobs 2]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
import longmemeval  # noqa: E402
from harness import Item, Session  # noqa: E402

TYPE = "knowledge-update"
HALVES = ("tuning", "check")
TARGET = 90.0  # percent of questions whose first evidence turn is from the newest evidence session


def half(question_id: str) -> str:
    """The question's half, stable across runs and files: the first byte of sha256(id), even or odd."""
    return HALVES[hashlib.sha256(question_id.encode("utf-8")).digest()[0] % 2]


def newest_evidence(item: Item) -> Session:
    """The latest evidence session: of those named in `answer_session_ids` and those holding evidence turns."""
    question = item.questions[0]
    holding = {session for session, _ in question.evidence}
    wanted = [s for s in item.sessions if s.number in holding or s.name in question.sessions]
    return max(wanted, key=lambda s: (s.when, s.number))


def first_evidence(ranked: Sequence[Sequence[tuple[int, int]]], item: Item) -> Session | None:
    """The session of the first evidence turn in the order given; None when no evidence turn is in it."""
    sessions = {s.number: s for s in item.sessions}
    for memory in ranked:
        for turn in memory:
            if turn in item.questions[0].evidence:
                return sessions[turn[0]]
    return None


def recalled(item: Item, ws: Path, asked: datetime) -> list[list[tuple[int, int]]]:
    return harness.ask(ws, asked, item.questions[0].text)


def shown(session: Session | None) -> str:
    return "none" if session is None else f"{session.name} ({session.when:%Y-%m-%d})"


def rate(hits: Sequence[bool]) -> str:
    return f"{100 * sum(hits) / len(hits):.1f} % ({sum(hits)}/{len(hits)})" if hits else "–"


def main() -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--data", type=Path, default=longmemeval.DEFAULT_DATA, help="a LongMemEval-format JSON file")
    parser.add_argument("--questions", type=int, metavar="N", help=f"only the first N {TYPE} questions")
    parser.add_argument("--jobs", type=int, default=2, help="haystacks built and asked in parallel")
    args = parser.parse_args()
    items = longmemeval.load(args.data, args.questions, [TYPE])
    print(longmemeval.describe(items, args.data) + f", type {TYPE}")

    started = time.perf_counter()
    ours = harness.each_built(items, recalled, args.jobs, "knowledge-update", harness.progress_to_stderr)
    baseline = [harness.plain_bm25(item)[0] for item in items]
    wall = time.perf_counter() - started

    hits: dict[str, dict[str, list[bool]]] = {who: {h: [] for h in HALVES} for who in ("ours", "bm25")}
    print("\n| question | half | newest evidence | hippocampus | first evidence | plain BM25 | first evidence |")
    print("|---|---|---|---|---|---|---|")
    for item, mine, theirs in zip(items, ours, baseline, strict=True):
        newest, part = newest_evidence(item), half(item.name)
        cells = []
        for who, ranked in (("ours", mine), ("bm25", theirs)):
            first = first_evidence(ranked, item)
            hits[who][part].append(first == newest)
            cells += ["yes" if first == newest else "no", shown(first)]
        print(f"| {item.name} | {part} | {shown(newest)} | " + " | ".join(cells) + " |")

    print("\n## newest evidence session first\n")
    counts = " | ".join(f"{h} ({len(hits['ours'][h])})" for h in HALVES)
    print(f"| | {counts} | overall ({len(items)}) |")
    print("|---|" + "---:|" * (len(HALVES) + 1))
    for who, label in (("ours", "hippocampus, mode `default`"), ("bm25", "plain BM25 over single turns")):
        parts = [rate(hits[who][h]) for h in HALVES]
        print(f"| {label} | " + " | ".join(parts) + f" | {rate([x for h in HALVES for x in hits[who][h]])} |")
    print(f"\ntarget: {TARGET:.0f} % or more")
    print(f"wall time: {wall:.0f} s, {args.jobs} at a time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
