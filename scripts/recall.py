#!/usr/bin/env python3
"""Find the memories that matter for a question: words weighted by rarity (BM25), blended with importance and recency.

The command is hippocampus/commands/recall.py; `python3 recall.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import recall  # noqa: E402

if __name__ == "__main__":
    cli.run(recall.main)
