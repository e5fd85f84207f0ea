#!/usr/bin/env python3
"""Write the brain dashboard: one self-contained HTML page (brain-dashboard.html in the workspace).

The command is hippocampus/commands/dashboard.py; `python3 dashboard.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import dashboard  # noqa: E402

if __name__ == "__main__":
    cli.run(dashboard.main)
