#!/usr/bin/env python3
"""Consolidate the memories, weekly (after decay): merge, supersede, form schemas, archive, and report.

The command is hippocampus/commands/consolidate.py; `python3 consolidate.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import consolidate  # noqa: E402

if __name__ == "__main__":
    cli.run(consolidate.main)
