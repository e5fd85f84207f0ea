#!/usr/bin/env python3
"""Turn new messages into memories: score, summarise, redact secrets, then create, reinforce or update.

The command is hippocampus/commands/encode.py; `python3 encode.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import encode  # noqa: E402

if __name__ == "__main__":
    cli.run(encode.main)
