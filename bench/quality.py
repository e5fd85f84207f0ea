#!/usr/bin/env python3
"""Recall quality on both data sets in one run: per category, both modes, a plain BM25 over single turns beside us,
and each part of the product switched off in turn.

For LoCoMo (bench/locomo.py) and LongMemEval (bench/longmemeval.py), on the same items in the same run: `default`
(the product as shipped, run as the installer's cron runs it), `all-turns` (`--min-importance 0`), the plain Okapi
BM25 baseline, and `default` with one switch of bench/ablations.py off — importance (its weight in ranking), recency
(its weight), decay (nothing fades), episodes (the turns attached to memories), consolidation (the weekly job) — so
each shows what it adds. Weekly consolidation archives what has faded (recall still finds it, its importance low); the
switches that need no build of their own are also measured with consolidation off, where nothing is archived.

Printed per data set: turn R@5 by category for every variant with its distance from its reference (for LongMemEval
also "an evidence turn among the first five" by type), every figure overall, where `default` (and `default` without
consolidation) stands against the targets — at least the baseline in every category, 10 points above it overall in
turn R@5, LongMemEval knowledge-update evidence among the first five at 85 % or more — and the time each set took.

Everything is recomputed from the product on every run. A full run takes one to two hours on two shared cores: for
quick iteration take a subset (`--conversations N`; `--per-type N`, the first N LongMemEval questions of each
type, or `--questions N`, the first N), fewer switches (`--off episodes,recency` or
`--off none`) or one set (`--sets longmemeval`); the output says what it ran on.

Usage: python3 bench/quality.py [--sets locomo,longmemeval] [--off NAME,...|none] [--conversations N]
       [--per-type N] [--questions N] [--jobs 2] [--json FILE] [--locomo-data FILE] [--longmemeval-data FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ablations  # noqa: E402
import harness  # noqa: E402
import locomo  # noqa: E402
import longmemeval  # noqa: E402
from ablations import Switch  # noqa: E402
from harness import Columns, Item, Result, Variant  # noqa: E402

TARGET_LEAD = 10.0  # points of turn R@5 above the baseline, overall
TARGET_UPDATES = 85.0  # LongMemEval knowledge-update: an evidence turn among the first five, percent


@dataclass(frozen=True)
class DataSet:
    name: str
    columns: Columns
    noun: str


LOCOMO = DataSet("LoCoMo", locomo.COLUMNS, "conversations")
LONGMEMEVAL = DataSet("LongMemEval", longmemeval.COLUMNS, "questions")


def targets(data: DataSet, baseline: Result, default: Result) -> list[str]:
    """Where `default` (or another variant) stands against the targets, one line each."""
    lines = []
    behind = []
    for category in data.columns.categories:
        if default.tally.counts[category]:
            ours = default.tally.percent(category)["turn@5"]
            theirs = baseline.tally.percent(category)["turn@5"]
            if ours < theirs:
                behind.append(f"{category} {ours:.1f} vs {theirs:.1f}")
    lines.append(
        f"- {default.label} at least the baseline in turn R@5 in every category: "
        + ("yes" if not behind else "no — below it in " + ", ".join(behind))
    )
    ours, theirs = default.tally.percent("overall")["turn@5"], baseline.tally.percent("overall")["turn@5"]
    verdict = "yes" if ours - theirs >= TARGET_LEAD else "no"
    lines.append(
        f"- {default.label} {TARGET_LEAD:.0f} points or more above it overall in turn R@5: {verdict} "
        f"({ours:.1f} vs {theirs:.1f}, {ours - theirs:+.1f})"
    )
    if data is LONGMEMEVAL and default.tally.counts["knowledge-update"]:
        mine = default.tally.percent("knowledge-update")
        base = baseline.tally.percent("knowledge-update")
        verdict = "yes" if mine["turn_any"] >= TARGET_UPDATES else "no"
        lines.append(
            f"- {default.label}, knowledge-update, an evidence turn among the first five ≥ {TARGET_UPDATES:.0f} %: "
            f"{verdict} "
            f"({mine['turn_any']:.1f} %; baseline {base['turn_any']:.1f} %; turn R@5 {mine['turn@5']:.1f} % vs "
            f"{base['turn@5']:.1f} %)"
        )
    return lines


def variants_for(switches: list[Switch]) -> tuple[list[Variant], list[Variant]]:
    """(`default`, `all-turns` and `default` with each switch off; `default` without consolidation and with each
    switch that needs no build of its own off as well — what the ranking's parts add where nothing is archived)."""
    first = [Variant("default"), Variant("all-turns"), *(Variant("default", (s,)) for s in switches)]
    second: list[Variant] = []
    consolidation = next((s for s in switches if s.name == "consolidation"), None)
    if consolidation is not None:
        second = [Variant("default", (consolidation,))]
        second += [Variant("default", (consolidation, s)) for s in switches if not s.own_build]
    return first, second


def run_set(data: DataSet, items: list[Item], description: str, switches: list[Switch], jobs: int) -> dict:
    """Every variant and the baseline on one data set; prints its tables, returns its figures."""
    first, second = variants_for(switches)
    variants = list(dict.fromkeys([*first, *second]))
    baseline, results, timing = harness.evaluate(items, variants, jobs, data.name.lower(), harness.progress_to_stderr)
    found = dict(zip(variants, results, strict=True))
    blocks = [[found[v] for v in first], [found[v] for v in second]]
    print(f"\n# {data.name}: {description}\n")
    figures = [("turn@5", "turn R@5")]
    if data is LONGMEMEVAL:
        figures.append(("turn_any", f"turn any@{harness.ANY_K}"))
    for block in blocks:
        if not block:
            continue
        for figure, heading in figures:
            print(harness.by_category_table([baseline, *block], block[0], data.columns, figure, heading))
            print()
    print(harness.overall_table([baseline, *results], data.columns))
    print("\nAgainst the targets:\n")
    for block in blocks:
        if block:
            print("\n".join(targets(data, baseline, block[0])))
    print(f"\nTime for {len(items)} {data.noun}: {harness.timing_line(timing, jobs)}. Building and asking, summed:")
    print("; ".join(f"{r.label} {r.seconds:.0f} s" for r in results) + " (variants that share a build share its time)")
    for s in switches:
        print(f"- `− {s.name}`: {s.off}")
    return {
        "description": description,
        "wall_seconds": round(timing.wall, 1),
        "cpu_seconds": round(timing.cpu, 1),
        "jobs": jobs,
        "results": [figures_of(r) for r in [baseline, *results]],
    }


def figures_of(result: Result) -> dict:
    groups = sorted(result.tally.counts)
    return {
        "label": result.label,
        "questions": {g: result.tally.counts[g] for g in groups},
        "percent": {g: {k: round(v, 2) for k, v in result.tally.percent(g).items()} for g in groups},
        "stats": {k: round(v, 3) for k, v in result.stats().items()},
        "seconds": round(result.seconds, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="locomo,longmemeval", help="locomo, longmemeval or both (comma-separated)")
    parser.add_argument(
        "--off",
        default=",".join(s.name for s in ablations.SWITCHES),
        help="the switches to turn off one at a time, comma-separated, or none (default: all of them)",
    )
    parser.add_argument("--conversations", type=int, metavar="N", help="only the first N LoCoMo conversations")
    parser.add_argument("--questions", type=int, metavar="N", help="only the first N LongMemEval questions")
    parser.add_argument("--per-type", type=int, metavar="N", help="only the first N LongMemEval questions of each type")
    parser.add_argument("--jobs", type=int, default=2, help="builds run in parallel")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write every figure to FILE")
    parser.add_argument("--locomo-data", type=Path, default=locomo.DEFAULT_DATA)
    parser.add_argument("--longmemeval-data", type=Path, default=longmemeval.DEFAULT_DATA)
    args = parser.parse_args()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    if not sets or set(sets) - {"locomo", "longmemeval"}:
        parser.error("--sets takes locomo, longmemeval or both")
    try:
        names = [] if args.off.strip() == "none" else [n.strip() for n in args.off.split(",") if n.strip()]
        switches = ablations.named(names)
    except ValueError as exc:
        parser.error(str(exc))
    out = {}
    if "locomo" in sets:
        items = locomo.load(args.locomo_data, args.conversations)
        out["locomo"] = run_set(LOCOMO, items, locomo.describe(items, args.locomo_data), switches, args.jobs)
    if "longmemeval" in sets:
        items = longmemeval.load(args.longmemeval_data, args.questions, per_type=args.per_type)
        description = longmemeval.describe(items, args.longmemeval_data)
        out["longmemeval"] = run_set(LONGMEMEVAL, items, description, switches, args.jobs)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
