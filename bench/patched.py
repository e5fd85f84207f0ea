#!/usr/bin/env python3
"""Run one of the scripts with module attributes set first: how the quality bench switches off a part of the product
that has no option of its own, without editing the package (bench/ablations.py holds the switches).

Usage: python3 bench/patched.py PATCHES SCRIPT [ARG ...]   (PATCHES: as ablations.encoded writes them)
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ablations  # noqa: E402


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    patches, script = ablations.decoded(sys.argv[1]), str(Path(sys.argv[2]).resolve())
    # The script's own modules, found the way it finds them, so the ones patched are the ones it imports.
    sys.path.insert(0, str(Path(script).parent))
    try:
        ablations.apply(patches)
    except ValueError as exc:
        sys.exit(f"error: {exc}")
    sys.argv = [script, *sys.argv[3:]]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
