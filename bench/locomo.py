#!/usr/bin/env python3
"""Recall quality end to end on LoCoMo-format conversations: transcripts in, memories through the real pipeline,
questions through recall.py, scored against the evidence turns.

For each conversation: its sessions are written as OpenClaw JSONL transcripts (session dates from the data, one
message per dialog turn, message ids that map back to dialog ids), encode.py runs after each session and decay.py
each session day, in a temporary workspace; then every question goes through `recall.py --json --no-touch` and the
memories' `sources` say which turns came back. At k, the first k distinct turns in the order recall lists them count
(recall lists a memory's sources in the order they match the question, so a memory carrying several turns is not k
answers at once). Printed per question category and overall: Recall@1/5/10 at turn and at session level (the
sessions of those k turns), the share of evidence turns that survived encoding at all (a memory's own sources and
the turns attached to it), memories per turn, the index's size per turn and time; then both modes side by side.

Modes: `default` (the product as shipped) and `all-turns` (`--min-importance 0`: every turn kept, the ranking
alone). A plain Okapi BM25 (k1 1.5, b 0.75) over "speaker: text" turns, one store per conversation, is computed on
the same data as a reference.

Usage: python3 bench/locomo.py [--data FILE] [--mode default|all-turns|both] [--conversations N] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
KS = (1, 5, 10)
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


def message_id(session: int, turn: int) -> str:
    return f"{session:03x}{turn:05x}"


def turn_of(message: str) -> tuple[int, int] | None:
    if not re.fullmatch(r"[0-9a-f]{8}", message or ""):
        return None
    return int(message[:3], 16), int(message[3:], 16)


def sessions_of(conversation: dict) -> list[tuple[int, datetime, list[dict]]]:
    out = []
    for key, turns in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if match and isinstance(turns, list) and turns:
            number = int(match.group(1))
            out.append((number, session_date(conversation[f"session_{number}_date_time"]), turns))
    return sorted(out)


def write_session(path: Path, number: int, when: datetime, turns: list[dict], speaker_a: str) -> None:
    """One OpenClaw session file: speaker A's turns as the user's messages, speaker B's as the assistant's."""
    lines = [
        {
            "type": "session",
            "version": 3,
            "id": f"locomo-session-{number}",
            "timestamp": when.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            "cwd": "/bench",
        }
    ]
    parent = None
    for position, turn in enumerate(turns):
        session, index = evidence_turns([turn["dia_id"]]).pop()
        ts = when + timedelta(seconds=30 * position)
        entry = message_id(session, index)
        text = f"{turn['speaker']}: {turn['text']}"
        role = "user" if turn["speaker"] == speaker_a else "assistant"
        content = text if role == "user" else [{"type": "text", "text": text}]
        lines.append(
            {
                "type": "message",
                "id": entry,
                "parentId": parent,
                "timestamp": ts.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                "message": {"role": role, "content": content, "timestamp": int(ts.timestamp() * 1000)},
            }
        )
        parent = entry
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n", encoding="utf-8")


def run(script: str, ws: Path, now: datetime, *args: str, tail: tuple = ()) -> str:
    """Run a script; `tail` goes after a `--`, so a question that starts with a dash stays a question."""
    command = [
        sys.executable,
        str(SCRIPTS / f"{script}.py"),
        *args,
        "--workspace",
        str(ws),
        "--now",
        now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        *(("--", *tail) if tail else ()),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{script}.py failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return done.stdout


def build_memory(sample: dict, workdir: Path, mode: str) -> tuple[Path, datetime, int]:
    """Run the pipeline over one conversation; returns (workspace, the time questions are asked, turns)."""
    conversation = sample["conversation"]
    ws = workdir / "workspace"
    (ws / "memory").mkdir(parents=True)
    transcripts = workdir / "sessions"
    transcripts.mkdir()
    extra = ["--min-importance", "0"] if mode == "all-turns" else []
    turns = 0
    last_day = None
    for number, when, dialog in sessions_of(conversation):
        if last_day is None or when.date() > last_day:
            run("decay", ws, when)
            last_day = when.date()
        write_session(transcripts / f"session-{number:03d}.jsonl", number, when, dialog, conversation["speaker_a"])
        turns += len(dialog)
        run("encode", ws, when + timedelta(hours=3), "--sessions", str(transcripts), *extra)
    asked = datetime.combine(last_day + timedelta(days=1), datetime.min.time(), tzinfo=timezone.utc)
    run("decay", ws, asked)
    return ws, asked, turns


def ask(ws: Path, asked: datetime, question: str) -> list[list[tuple[int, int]]]:
    """The turns behind each of the top 10 recalled memories, best first, each memory's in the order recall lists
    them."""
    out = json.loads(run("recall", ws, asked, "--json", "--no-touch", "--top", str(max(KS)), tail=(question,)))
    ranked = []
    for result in out["results"]:
        ranked.append([t for t in (turn_of(s.get("message")) for s in result.get("sources", [])) if t])
    return ranked


def first_turns(ranked: list[list[tuple[int, int]]], k: int) -> list[tuple[int, int]]:
    """The first k distinct turns in the order recall listed them."""
    out: list[tuple[int, int]] = []
    for memory in ranked:
        for turn in memory:
            if turn not in out:
                out.append(turn)
                if len(out) == k:
                    return out
    return out


def recall_at(ranked: list[list[tuple[int, int]]], wanted: set, k: int, key=lambda t: t) -> float:
    got = {key(t) for t in first_turns(ranked, k)}
    targets = {key(t) for t in wanted}
    return len(got & targets) / len(targets) if targets else 0.0


def stored_turns(memory: dict) -> set[tuple[int, int]]:
    """The turns a stored memory holds: its own sources and the turns attached to it (its `episode`)."""
    sources = list(memory.get("sources") or [])
    sources += [e.get("source") or {} for e in memory.get("episode") or [] if isinstance(e, dict)]
    return {t for t in (turn_of(s.get("message")) for s in sources if isinstance(s, dict)) if t}


# --- the plain BM25 reference ---------------------------------------------------------------------------------


def plain_tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def bm25_reference(sample: dict) -> list[list[list[tuple[int, int]]]]:
    """Okapi BM25 (k1 1.5, b 0.75) over raw "speaker: text" turns: the top 10 turns for each question."""
    docs, ids = [], []
    for _, _, dialog in sessions_of(sample["conversation"]):
        for turn in dialog:
            docs.append(Counter(plain_tokens(f"{turn['speaker']}: {turn['text']}")))
            ids.append(evidence_turns([turn["dia_id"]]).pop())
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / len(lengths)
    df = Counter(t for d in docs for t in d)
    results = []
    for qa in sample["qa"]:
        terms = set(plain_tokens(qa["question"]))
        scores = []
        for i, doc in enumerate(docs):
            score = 0.0
            for t in terms & doc.keys():
                idf = math.log(1 + (len(docs) - df[t] + 0.5) / (df[t] + 0.5))
                score += idf * doc[t] * 2.5 / (doc[t] + 1.5 * (0.25 + 0.75 * lengths[i] / average))
            if score > 0:
                scores.append((-score, i))
        results.append([[ids[i]] for _, i in sorted(scores)[: max(KS)]])
    return results


# --- scoring ----------------------------------------------------------------------------------------------------


class Tally:
    def __init__(self):
        self.sums = defaultdict(lambda: defaultdict(float))
        self.counts = Counter()

    def add(self, category: str, ranked, wanted: set) -> None:
        for group in (category, "overall"):
            self.counts[group] += 1
            for k in KS:
                self.sums[group][f"turn@{k}"] += recall_at(ranked, wanted, k)
                self.sums[group][f"session@{k}"] += recall_at(ranked, wanted, k, key=lambda t: t[0])

    def overall(self) -> dict:
        return {m: 100 * v / max(1, self.counts["overall"]) for m, v in self.sums["overall"].items()}

    def rows(self) -> list[tuple[str, int, dict]]:
        order = [CATEGORIES[c] for c in sorted(CATEGORIES)] + ["overall"]
        return [
            (g, self.counts[g], {m: 100 * v / self.counts[g] for m, v in self.sums[g].items()})
            for g in order
            if self.counts[g]
        ]


def print_table(title: str, tally: Tally, notes: str = "") -> None:
    print(f"\n## {title}{notes}\n")
    header = " | ".join(f"turn R@{k}" for k in KS) + " | " + " | ".join(f"session R@{k}" for k in KS)
    print(f"| category | questions | {header} |")
    print("|---|---:|" + "---:|" * (2 * len(KS)))
    for group, count, metrics in tally.rows():
        cells = (
            " | ".join(f"{metrics[f'turn@{k}']:.1f} %" for k in KS)
            + " | "
            + " | ".join(f"{metrics[f'session@{k}']:.1f} %" for k in KS)
        )
        print(f"| {group} | {count} | {cells} |")


def evaluate(samples: list[dict], mode: str, jobs: int, reference_shown: bool) -> dict:
    tally = Tally()
    reference = Tally()
    survived = evidence_total = memories = turns_total = size = 0
    started = time.perf_counter()
    for sample in samples:
        with tempfile.TemporaryDirectory(prefix="hippocampus-locomo-") as tmp:
            ws, asked, turns = build_memory(sample, Path(tmp), mode)
            size += (ws / "memory" / "index.json").stat().st_size
            stored = json.loads((ws / "memory" / "index.json").read_text())["memories"]
            memories += len(stored)
            turns_total += turns
            encoded = {t for m in stored for t in stored_turns(m)}
            questions = [qa for qa in sample["qa"] if evidence_turns(qa.get("evidence"))]
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                answers = list(pool.map(partial(ask, ws, asked), [qa["question"] for qa in questions]))
            plain = dict(zip((id(qa) for qa in sample["qa"]), bm25_reference(sample), strict=True))
            for qa, ranked in zip(questions, answers, strict=True):
                wanted = evidence_turns(qa["evidence"])
                category = CATEGORIES.get(qa.get("category"), str(qa.get("category")))
                tally.add(category, ranked, wanted)
                reference.add(category, plain[id(qa)], wanted)
                survived += len(wanted & encoded)
                evidence_total += len(wanted)
        print(f"done: {sample.get('sample_id', '?')} ({mode})", file=sys.stderr)
    elapsed = time.perf_counter() - started
    kept = 100 * survived / max(1, evidence_total)
    per_turn = memories / max(1, turns_total)
    print_table(f"hippocampus, mode `{mode}`", tally)
    print(
        f"\nevidence turns that survived encoding: {kept:.1f} % · "
        f"memories per turn: {per_turn:.2f} ({memories} memories from {turns_total} turns) · "
        f"index.json: {size / max(1, turns_total):.0f} bytes per turn · "
        f"time: {elapsed:.0f} s for {len(samples)} conversations (pipeline and every question)"
    )
    if not reference_shown:
        print_table("reference: plain BM25 over raw turns, same data", reference)
    return {
        "mode": {"mode": f"`{mode}`", "metrics": tally.overall(), "kept": kept, "per_turn": per_turn},
        "reference": {
            "mode": "plain BM25 over raw turns",
            "metrics": reference.overall(),
            "kept": 100.0,
            "per_turn": 1.0,
        },
    }


def print_summary(rows: list[dict]) -> None:
    print("\n## overall\n")
    print("| | " + " | ".join(f"turn R@{k}" for k in KS) + " | session R@5 | evidence turns kept | memories per turn |")
    print("|---|" + "---:|" * (len(KS) + 3))
    for row in rows:
        m = row["metrics"]
        cells = " | ".join(f"{m[f'turn@{k}']:.1f} %" for k in KS)
        print(f"| {row['mode']} | {cells} | {m['session@5']:.1f} % | {row['kept']:.1f} % | {row['per_turn']:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a LoCoMo-format JSON file")
    parser.add_argument("--mode", choices=["default", "all-turns", "both"], default="both")
    parser.add_argument("--conversations", type=int, metavar="N", help="only the first N conversations")
    parser.add_argument("--jobs", type=int, default=2, help="questions asked in parallel")
    args = parser.parse_args()
    samples = json.loads(args.data.read_text(encoding="utf-8"))
    if args.conversations:
        samples = samples[: args.conversations]
    print(f"data: {args.data.name}, {len(samples)} conversations, {sum(len(s['qa']) for s in samples)} questions")
    rows = []
    for mode in ["default", "all-turns"] if args.mode == "both" else [args.mode]:
        found = evaluate(samples, mode, args.jobs, reference_shown=bool(rows))
        if not rows:
            rows.append(found["reference"])
        rows.append(found["mode"])
    print_summary(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
