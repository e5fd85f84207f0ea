#!/usr/bin/env python3
"""Pass rates of the phrasing corpus (tests/data/phrasings/: what a memory must show after chats in six languages),
by part, class, language and source. The `check` part is kept unread while building: its rate is the honest figure.

Usage: python3 bench/phrasings.py [--part tuning|check] [--failures] [--ids FILE]
  --failures  prints what did not hold for each failing case (of the tuning part only, unless --part check)
  --ids FILE  writes the ids of the failing cases to FILE (one a line)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import phrasings  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--part", choices=phrasings.PARTS)
    p.add_argument("--failures", action="store_true")
    p.add_argument("--ids", type=Path)
    args = p.parse_args(argv)
    parts = [args.part] if args.part else list(phrasings.PARTS)
    failed_ids = []
    for part in parts:
        cases = phrasings.load(part)
        passed: Counter = Counter()
        total: Counter = Counter()
        for case in cases:
            with tempfile.TemporaryDirectory() as folder:
                failures = phrasings.run(case, Path(folder))
            keys = ("all", f"class {case.kind}", f"lang {case.lang}", f"source {case.source}")
            for key in keys:
                total[key] += 1
                passed[key] += not failures
            if failures:
                failed_ids.append(case.id)
                if args.failures and (part == "tuning" or args.part == "check"):
                    print(f"FAIL {case.id}: " + "\n  ".join(failures))
        print(f"\n{part}: {passed['all']} of {total['all']} pass ({100 * passed['all'] / max(total['all'], 1):.1f} %)")
        for key in sorted(total):
            if key != "all":
                print(f"  {key:<26} {passed[key]:>4} / {total[key]:<4} {100 * passed[key] / total[key]:5.1f} %")
    if args.ids:
        args.ids.write_text("".join(f"{i}\n" for i in failed_ids), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
