#!/usr/bin/env python3
"""Print the core memories for the start of a session, grouped by domain, highest first, within a token budget.

The command is hippocampus/commands/load_core.py; `python3 load_core.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import load_core  # noqa: E402

if __name__ == "__main__":
    cli.run(load_core.main)
