#!/usr/bin/env python3
"""One long session: what encode.py costs as a single session grows (OpenClaw's main session lives for weeks).

For each size (`--sizes`, default 1,000, 2,000, 4,000 and 8,000 messages; `--large` adds 20,000) writes one direct
session of that many messages — the owner's and the agent's turns of first_run.py's chats, a few minutes apart, with
a night's pause after about one turn in a hundred — as a session file, then measures in fresh processes:
  floor       python, reading every transcript line and json.loads of each (first_run.py's floor)
  parse       the skill's own transcript reader (transcripts.parse_lines) over the session: parsing them
  first run   encode.py on a fresh workspace, as the first cron run (a backfill) does it: preprocess and encode
  encoding    encode.py --no-preprocess on a workspace preprocess.py filled (the encoding side alone)

and prints their CPU time (user + system), the first run's as a ratio to the floor and to parsing (target for
20,000 messages: ≤ 40 × parsing them), and the growth of each from one size to the next: a cost that grows with the
session's length, not its square, about doubles when the session does. `--common-words` draws the turns' words from the
common vocabulary only, without the long tail of rare words: a session that keeps to the same few hundred things,
where every word of a message has many holders among the memories before it. `--profile N` runs the encoding side
of N messages under cProfile instead and prints the functions that took the most time. Nothing is asserted: it
prints.

Usage: python3 bench/one_session.py [--sizes 1000,2000,4000,8000] [--large] [--common-words] [--runs 1]
                                    [--profile N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from first_run import FLOOR, SCRIPTS, fresh, measure, script, write_history  # noqa: E402
from scale import VOCABULARY, cache_bytecode  # noqa: E402

# Parsing them: the skill's own transcript reader over the session's lines, in a fresh process (the messages as
# encode receives them, before any scoring): what "encode ≤ 40 × parsing them" is measured against.
PARSE = r"""
import sys
sys.path.insert(0, sys.argv[1])
from hippocampus.ingestion.transcripts import parse_lines
for name in sys.argv[2:]:
    with open(name, encoding="utf-8") as handle:
        read = parse_lines(enumerate(handle, 1), "session", name)
    assert read.messages
"""
SIZES = (1_000, 2_000, 4_000, 8_000)
LARGE = 20_000
ONE_SESSION = {"pause": 0.01, "direct": True}


def history(workdir: Path, size: int, common: bool = False) -> tuple[Path, list[Path]]:
    """An OpenClaw state dir holding one session of `size` messages, and its transcript files. `common`: its words
    are the common vocabulary's only."""
    state = workdir / f"openclaw-{size}"
    shutil.rmtree(state, ignore_errors=True)
    vocabulary = len(VOCABULARY) if common else None
    files = write_history(state, size, "jsonl", **ONE_SESSION, lengths=(size, size), vocabulary=vocabulary)
    return state, files


def profile(workdir: Path, size: int, common: bool, shown: int = 30) -> None:
    """The encoding side of one session of `size` messages under cProfile: the functions that took the most time."""
    state, _ = history(workdir, size, common)
    ws = fresh(workdir, f"profiled-{size}")
    subprocess.run(script("preprocess", ws, state), check=True, capture_output=True)
    output = workdir / f"encode-{size}.prof"
    command = script("encode", ws, state, "--no-preprocess")
    subprocess.run([command[0], "-m", "cProfile", "-o", str(output), *command[1:]], check=True, capture_output=True)
    for order in ("tottime", "cumulative"):
        text = io.StringIO()
        pstats.Stats(str(output), stream=text).strip_dirs().sort_stats(order).print_stats(shown)
        print(text.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="messages in the session, comma-separated")
    parser.add_argument("--large", action="store_true", help=f"also a session of {LARGE:,} messages")
    parser.add_argument("--runs", type=int, default=1, help="runs per measurement (medians)")
    parser.add_argument("--profile", type=int, metavar="N", help="profile the encoding of N messages instead")
    parser.add_argument(
        "--common-words",
        action="store_true",
        help=f"the turns' words drawn from the {len(VOCABULARY)} common ones only, without the long tail",
    )
    parser.add_argument("--keep", metavar="DIR", help="work here and keep it")
    args = parser.parse_args()
    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="hippocampus-one-session-"))
    workdir.mkdir(parents=True, exist_ok=True)
    cache_bytecode()
    try:
        if args.profile:
            profile(workdir, args.profile, args.common_words)
            return 0
        sizes = [int(s) for s in args.sizes.split(",")] + ([LARGE] if args.large else [])
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, {sys.platform}")
        print()
        print(
            "| messages | floor CPU s | parse CPU s | first run CPU s | × floor | × parse | growth | encoding CPU s"
            " | growth | memories |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        before: tuple[int, float, float] | None = None
        for size in sizes:
            state, files = history(workdir, size, args.common_words)
            floors, parses, firsts, ratios, parsed, encodings = [], [], [], [], [], []
            for _ in range(args.runs):
                _, floor, _ = measure([sys.executable, "-c", FLOOR, *map(str, files)])
                _, parse, _ = measure([sys.executable, "-c", PARSE, str(SCRIPTS), *map(str, files)])
                _, first, _ = measure(script("encode", fresh(workdir, f"first-{size}"), state))
                floors.append(floor)
                parses.append(parse)
                firsts.append(first)
                ratios.append(first / floor)
                parsed.append(first / parse)
                queued = fresh(workdir, f"queued-{size}")
                subprocess.run(script("preprocess", queued, state), check=True, capture_output=True)
                _, encoding, _ = measure(script("encode", queued, state, "--no-preprocess"))
                encodings.append(encoding)
            first, encoding = statistics.median(firsts), statistics.median(encodings)
            with open(workdir / f"first-{size}" / "memory" / "index.json", encoding="utf-8") as handle:
                memories = len(json.load(handle)["memories"])
            growth = ["", ""]
            if before is not None:
                # per doubling of the session, whatever the step from the size before
                doublings = math.log2(size / before[0])
                growth = [
                    f"{(now / then) ** (1 / doublings):.2f}"
                    for now, then in zip((first, encoding), before[1:], strict=True)
                ]
            print(
                f"| {size:,} | {statistics.median(floors):.2f} | {statistics.median(parses):.2f} | {first:.2f} "
                f"| {statistics.median(ratios):.1f} | {statistics.median(parsed):.1f} | {growth[0]} | {encoding:.2f} "
                f"| {growth[1]} | {memories:,} |"
            )
            before = (size, first, encoding)
        print()
        print("growth: CPU time over the previous size's, per doubling of the session (2.0: linear, 4.0: quadratic)")
        print(f"target: a first run over {LARGE:,} messages in one session ≤ 40 × parsing them (× parse)")
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
