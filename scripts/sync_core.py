#!/usr/bin/env python3
"""Write HIPPOCAMPUS_CORE.md: the core memories as Markdown, for OpenClaw's own memory search.

Same threshold as load_core (0.70), bounded by a token budget (default about 4,000), written atomically.
encode.py and decay.py refresh it themselves; run this after editing memory/index.json by hand.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from hippocampus import cli  # noqa: E402
from hippocampus.published import publish  # noqa: E402
from hippocampus.store import cache  # noqa: E402
from hippocampus.store.model import CORE_THRESHOLD  # noqa: E402
from hippocampus.published.selection import CORE_FILE_BUDGET  # noqa: E402
from hippocampus.store import files


def main() -> int:
    p = cli.parser(__doc__, cron=True)
    p.add_argument(
        "--threshold",
        type=float,
        default=CORE_THRESHOLD,
        metavar="X",
        help=f"lowest importance included (default {CORE_THRESHOLD})",
    )
    p.add_argument(
        "--budget",
        type=int,
        default=CORE_FILE_BUDGET,
        metavar="TOKENS",
        help=f"about how many tokens the file may take (default {CORE_FILE_BUDGET})",
    )
    ctx = cli.context(p)
    ctx.require_workspace()
    with files.workspace_lock(ctx.ws, wait=ctx.wait):
        view = cache.open_view(ctx.ws, ctx.now.date(), locked=True)
        try:
            selection = publish.write_core_file(ctx.ws, view, ctx.now, ctx.args.threshold, ctx.args.budget)
        finally:
            view.close()
    if not ctx.quiet:
        extra = f" ({selection.left_out} left out for the budget)" if selection.left_out else ""
        cli.emit(f"wrote {ctx.ws.core_file}: {selection.shown} core memories{extra}")
    return 0


if __name__ == "__main__":
    cli.run(main)
