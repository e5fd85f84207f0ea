#!/usr/bin/env python3
"""Start-up where someone waits: recall.py and load_core.py on a store of the size most users have (1,000 memories by
default), each as a ratio to starting Python and doing nothing (`python3 -c pass`), with the bytecode cached as on a
user's machine; then what each script imports, the slowest first.

Each run of a script is paired with a floor run just before it and its ratio is the median of the pairs' (other work
on a shared machine slows both sides of a pair). Nothing is asserted: it prints.

Usage: python3 bench/startup.py [--memories 1000] [--runs 21] [--imports 12]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale import NOW, QUERIES, cache_bytecode, script, write_store  # noqa: E402


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def paired(make_command, runs: int) -> tuple[float, float, float]:
    """(median ratio to the floor, median seconds, median floor seconds) over `runs` pairs."""
    floor = [sys.executable, "-c", "pass"]
    ratios, walls, floors = [], [], []
    for run in range(runs):
        below = wall(floor)
        above = wall(make_command(run))
        ratios.append(above / below)
        walls.append(above)
        floors.append(below)
    return statistics.median(ratios), statistics.median(walls), statistics.median(floors)


def imports(command: list[str], shown: int) -> list[tuple[int, str]]:
    """(cumulative microseconds, module) of what a run's command imports itself (`python3 -X importtime`: the
    modules one level below the command's own), the slowest first."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *command[1:]], capture_output=True, text=True, check=True
    )
    found = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        _, cumulative, name = line.split("|", 2)
        # Nested imports are indented by two spaces a level below the script's own (hippocampus.commands.<verb>).
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        if cumulative.strip().isdigit() and depth == 1:
            found.append((int(cumulative), name.strip()))
    return sorted(found, reverse=True)[:shown]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--imports", type=int, default=12, help="how many of the slowest imports to list")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hippocampus-startup-") as tmp:
        ws = Path(tmp) / "ws"
        (ws / "memory").mkdir(parents=True)
        write_store(args.memories, ws / "memory" / "index.json")
        # The first run builds the search cache and writes the bytecode; neither is what a user waits for later.
        cache_bytecode()
        for name in ("sync_core", "recall", "load_core"):
            subprocess.run(
                script(name, ws, *(["coffee"] if name == "recall" else [])), check=True, stdout=subprocess.DEVNULL
            )
        print(
            f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; {args.memories:,} memories, "
            f"{args.runs} paired runs each, as of {NOW.date()}"
        )
        print("| script | wall s | python3 -c pass s | × python3 -c pass |")
        print("|---|---:|---:|---:|")
        commands = {
            "recall.py": lambda r: script("recall", ws, QUERIES[r % len(QUERIES)], "--no-touch"),
            "load_core.py": lambda r: script("load_core", ws),
        }
        for name, make in commands.items():
            ratio, seconds, floor = paired(make, args.runs)
            print(f"| {name} | {seconds:.3f} | {floor:.3f} | {ratio:.2f} |")
        for name, make in commands.items():
            print(f"\n{name}: the slowest of its top-level imports (cumulative ms, one run)")
            for us, module in imports(make(0), args.imports):
                print(f"  {us / 1000:7.1f}  {module}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
