"""Bring every file derived from memory/index.json up to date: the search cache, the Markdown mirrors under
memory/<domain>/, HIPPOCAMPUS_CORE.md (the core memories in one Markdown file, to read or share; OpenClaw's memory
search finds them in the mirrors) and the dashboard.

encode.py, decay.py and the other writers do this themselves after each change; run this after editing
memory/index.json by hand, or to see the core file's figures. HIPPOCAMPUS_CORE.md has the same threshold as
load_core (0.70) and is bounded by a token budget (default about 4,000).
"""

from __future__ import annotations

from .. import cli, writing
from ..model import CORE_THRESHOLD
from ..published.selection import CORE_FILE_BUDGET


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__, cron=True)
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
    ctx = cli.context(p, argv)
    ctx.require_workspace()
    with writing.write(ctx.ws, ctx.now, wait=ctx.wait) as store:
        store.publish = True
        store.core_file = (ctx.args.threshold, ctx.args.budget)
    selection = store.published_core
    assert selection is not None  # published: asked for
    if not ctx.quiet:
        extra = f" ({selection.left_out} left out for the budget)" if selection.left_out else ""
        cli.emit(f"wrote {ctx.ws.core_file}: {selection.shown} core memories{extra}")
    return 0
