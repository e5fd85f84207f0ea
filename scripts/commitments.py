#!/usr/bin/env python3
"""List the open commitments (promises of the agent, reminders the user asked for) with their due times; close one.

The command is hippocampus/commands/commitments.py; `python3 commitments.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import commitments  # noqa: E402

if __name__ == "__main__":
    cli.run(commitments.main)
