"""How often recall lists a hit as "said earlier" on real chats, and a random sample of those marks to hand-check:
when the store cannot tell whether a newer statement replaces an older one, recall lists the newer first and marks
the older (search.newest_first); a mark put between two statements that are not the same thing with another value
misleads the agent. Every question of each history is asked as the benches ask it, top 5.

Usage: python3 bench/said_earlier.py [--conversations N] [--histories N] [--sample K] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

import harness
import locomo
import longmemeval


def marks(item: harness.Item) -> tuple[int, list[tuple[str, str, str]]]:
    """How many questions were asked of one history, and each (question, newer, older) recall marked."""
    found = []
    with tempfile.TemporaryDirectory() as folder:
        ws, asked = harness.build_memory(item, Path(folder), harness.Variant(), "said-earlier")
        for question in item.questions:
            argv = ["--json", "--no-touch", "--top", "5", *harness.at(ws, asked), "--", question.text]
            results = json.loads(harness.run_script("recall", argv))["results"]
            by_id = {r["id"]: r for r in results}
            for hit in results:
                newer = by_id.get(hit.get("saidEarlier", {}).get("newer"))
                if newer is not None:
                    found.append((question.text, newer["content"], hit["content"]))
    return len(item.questions), found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=2, metavar="N", help="LoCoMo dev conversations")
    parser.add_argument("--histories", type=int, default=5, metavar="N", help="first LongMemEval dev histories")
    parser.add_argument("--sample", type=int, default=20, metavar="K", help="marks printed to hand-check")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    items = [("LoCoMo", item) for item in locomo.load(locomo.DEFAULT_DATA, args.conversations)]
    items += [("LongMemEval", item) for item in longmemeval.load(longmemeval.DEFAULT_DATA, args.histories)]
    everything = []
    for source in ("LoCoMo", "LongMemEval"):
        asked, found = 0, []
        for _, item in (pair for pair in items if pair[0] == source):
            n, marked = marks(item)
            asked, found = asked + n, found + marked
        if asked:
            rate = 100 * len(found) / asked
            print(f"{source}: {asked} questions, {len(found)} hits marked said earlier ({rate:.1f} per 100)")
        everything += [(source, *mark) for mark in found]
    random.seed(args.seed)
    for source, question, newer, older in random.sample(everything, min(args.sample, len(everything))):
        print(f"\n[{source}] {question}\n  newer: {newer[:240]}\n  older: {older[:240]}")


if __name__ == "__main__":
    main()
