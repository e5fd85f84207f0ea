"""Let unused memories fade: importance × 0.99^days since last access, however often it runs.

Run daily (cron). The result depends only on the days passed, never on how many runs there were: running twice a
day, or after a missed week, gives the same importance as running once a day. A second run on the same day changes
nothing. Memories that fall below 0.20 are reported as archive candidates; nothing is deleted. A dated copy of the
index is kept in memory/backups/ (the last 7) before each write. HIPPOCAMPUS_CORE.md and
brain-dashboard.html are refreshed afterwards.
"""

from __future__ import annotations


import json

from .. import cli
from ..published.selection import frame
from ..sleep import decay


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__, cron=True)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    ctx = cli.context(p, argv)
    ctx.require_workspace()
    if not ctx.ws.index.exists():
        if not ctx.quiet:
            cli.emit("no memories yet: nothing to decay")
        return 0
    report = decay.decay(ctx.ws, ctx.now, ctx.wait)
    # Each candidate is shown only with --json or -v: cron asks for the count alone.
    shown = ctx.args.json or ctx.args.verbose
    candidates = [
        {"id": c.id, "importance": c.importance, "content": frame(c.content, c.untrusted, c.created)}
        | ({"trust": "untrusted"} if c.untrusted else {})
        for c in (report.archive_candidates if shown else ())
    ]
    if ctx.args.json:
        cli.emit(
            json.dumps(
                {
                    "day": report.day,
                    "alreadyRan": report.already_ran,
                    "total": report.total,
                    "changed": report.changed,
                    "archiveCandidates": candidates,
                },
                ensure_ascii=False,
            )
        )
    elif not ctx.quiet:
        if report.already_ran:
            cli.emit(f"decay already ran on {report.day}: nothing changed")
        else:
            cli.emit(
                f"decay {report.day}: {report.total} memories, {report.changed} changed, "
                f"{len(report.archive_candidates)} archive candidates (below 0.20)"
            )
        if ctx.args.verbose:
            for c in candidates:
                cli.emit(f"  {c['id']}  [{c['importance']:.2f}]  {c['content']}")
    return 0
