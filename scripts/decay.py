#!/usr/bin/env python3
"""Let unused memories fade: importance × 0.99^days since last access, however often it runs.

The command is hippocampus/commands/decay.py; `python3 decay.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import decay  # noqa: E402

if __name__ == "__main__":
    cli.run(decay.main)
