"""Print the core memories for the start of a session, grouped by domain, highest first, within a token budget.

Core means importance ≥ 0.70 today (explicit "remember this" items come first). The output stays within the
budget (about 1,500 tokens by default) and says how many core memories were left out; recall.py finds those.
Before them come the commitments due: what the agent promised and what the user asked to be reminded of, from 12
hours before they are due until they are done or a week overdue (commitments.py lists and closes them).
"""

from __future__ import annotations


import json

from .. import cli
from ..store import reading
from ..model import CORE_THRESHOLD
from ..published.selection import select_core, LOAD_CORE_BUDGET


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__)
    p.add_argument(
        "--threshold",
        type=float,
        default=CORE_THRESHOLD,
        metavar="X",
        help=f"lowest importance shown (default {CORE_THRESHOLD})",
    )
    p.add_argument(
        "--budget",
        type=int,
        default=LOAD_CORE_BUDGET,
        metavar="TOKENS",
        help=f"about how many tokens the output may take (default {LOAD_CORE_BUDGET})",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    ctx = cli.context(p, argv)
    ctx.require_workspace()
    view = reading.for_reading(ctx.ws, ctx.now.date())
    try:
        selection = select_core(view, ctx.now, ctx.args.threshold, ctx.args.budget)
    finally:
        view.close()
    if ctx.args.json:
        cli.emit(
            json.dumps(
                {
                    "threshold": selection.threshold,
                    "budget": selection.budget,
                    "total": selection.total,
                    "shown": selection.shown,
                    "leftOut": selection.left_out,
                    "commitments": [item.to_dict() for item in selection.commitments],
                    "commitmentsDue": selection.commitments_total,
                    "domains": {d: [i.to_dict() for i in items] for d, _, items in selection.sections()},
                },
                ensure_ascii=False,
            )
        )
    else:
        cli.emit(selection.as_text())
    return 0
