#!/usr/bin/env python3
"""Append one event to memory/brain-events.jsonl, the log shared with sibling brain skills.

The command is hippocampus/commands/log_event.py; `python3 log_event.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import log_event  # noqa: E402

if __name__ == "__main__":
    cli.run(log_event.main)
