#!/usr/bin/env python3
"""Bring every file derived from memory/index.json up to date: the search cache, the Markdown mirrors under

The command is hippocampus/commands/sync_core.py; `python3 sync_core.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import sync_core  # noqa: E402

if __name__ == "__main__":
    cli.run(sync_core.main)
