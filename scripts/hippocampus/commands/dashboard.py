"""Write the brain dashboard: one self-contained HTML page (brain-dashboard.html in the workspace).

It shows the agent's name and avatar (from IDENTITY.md), memories by domain and tier, the importance
distribution, growth and encoding/decay activity, how today's core memories will fade over 90 days if unused, the
top memories, a search over the most important ones (2,000 by default), and the amygdala and VTA panels when those
sibling skills are installed. The page loads nothing from the network and works offline; every text in it is
escaped. encode.py and decay.py refresh it after each run.

Examples:
  dashboard.py
  dashboard.py --open
  dashboard.py --output /tmp/brain.html --limit 500
"""

from __future__ import annotations


import webbrowser

from pathlib import Path

from .. import cli
from ..published import publish
from ..store import reading
from ..published.dashboard_data import LIST_LIMIT
from ..errors import UsageError


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__)
    p.add_argument(
        "--output", metavar="FILE", help="where to write the page (default: brain-dashboard.html in the workspace)"
    )
    p.add_argument(
        "--limit",
        type=int,
        default=LIST_LIMIT,
        metavar="N",
        help=f"how many of the most important memories the page carries for search (default {LIST_LIMIT})",
    )
    p.add_argument("--open", action="store_true", help="open the page in a web browser afterwards")
    ctx = cli.context(p, argv)
    if ctx.args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    ctx.require_workspace()
    output = Path(ctx.args.output).expanduser().resolve() if ctx.args.output else None
    # From the search cache (built first if index.json changed): a large store is never parsed whole for the page.
    view = reading.for_reading(ctx.ws, ctx.now.date())
    try:
        result = publish.write_dashboard(ctx.ws, view, ctx.now, path=output, limit=ctx.args.limit)
    finally:
        view.close()
    carried = "all" if result.listed == result.total else f"the {result.listed:,} most important"
    cli.emit(f"wrote {result.path} ({result.size / 1024:,.0f} KiB; {result.total:,} memories, {carried} searchable)")
    if ctx.args.open:
        try:
            opened = webbrowser.open(result.path.as_uri())
        except webbrowser.Error:
            opened = False
        if not opened:
            cli.emit("no web browser found here; open the file above in one")
    return 0
