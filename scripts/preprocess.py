#!/usr/bin/env python3
"""Read new messages from OpenClaw's transcripts into memory/signals.jsonl, each message exactly once, ever.

The command is hippocampus/commands/preprocess.py; `python3 preprocess.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import preprocess  # noqa: E402

if __name__ == "__main__":
    cli.run(preprocess.main)
