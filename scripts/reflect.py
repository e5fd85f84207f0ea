#!/usr/bin/env python3
"""Weekly self-reflection: prompts from this week's memories, and the agent's answers stored as memories.

The command is hippocampus/commands/reflect.py; `python3 reflect.py --help` shows its usage.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.commands import reflect  # noqa: E402

if __name__ == "__main__":
    cli.run(reflect.main)
