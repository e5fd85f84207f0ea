"""Consolidate the memories, weekly (after decay): merge, supersede, form schemas, archive, and report.

- Merge: memories that say the same thing (encoding's same-fact test, both ways) become one: the strongest wording,
  the union of keywords and sources, the highest importance plus one reinforcement, the merged ids in its history.
  Memories that differ in a name, number or date are never merged.
- Supersede: an older memory whose value a newer one changed ("moved to", "now", "instead of") gets `supersededBy`;
  it is kept, left out of load_core and recall (`recall.py --all` shows it). Contradictions it cannot settle are
  listed in the report, never guessed.
- Schemas: three or more related episodes become one summary memory (kind `schema`, the episodes as `members` and
  sources); later episodes of the same theme join it.
- Archive: memories below 0.20 and unused for a week move from memory/index.json to memory/archive.jsonl, so
  load_core and the dashboard stay fast. Nothing is deleted, and nothing becomes unfindable: recall searches the
  archive too (its memories marked as archived), and `recall.py --archive` moves an archived memory it finds back
  into the index.

Writes memory/consolidation/<YYYY-Www>.md, logs a `consolidation` event and refreshes HIPPOCAMPUS_CORE.md, the
Markdown mirrors and the dashboard. A dated backup of the index is kept first. --dry-run prints the same report and
changes nothing. A second run with nothing new changes nothing.
"""

from __future__ import annotations


import json

from .. import cli, writing
from ..sleep import consolidation
from ..store import archive, files, indexfile


def _write_report(ws, report, text: str, now) -> None:
    """memory/consolidation/<week>.md; a second run in the same week that changed something adds its part."""
    path = ws.consolidation / f"{report.week}.md"
    try:
        before = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        before = ""
    if before and not report.changed:
        return
    files.atomic_write(path, consolidation.report_file(before, report, text, now))


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__, cron=True)
    p.add_argument("--dry-run", action="store_true", help="print the report, change nothing")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    ctx = cli.context(p, argv)
    ctx.require_workspace()
    ws, now = ctx.ws, ctx.now
    if not ws.index.exists():
        if not ctx.quiet:
            cli.emit("no memories yet: nothing to consolidate")
        return 0
    if ctx.args.dry_run:
        report = consolidation.consolidate(indexfile.load(ws).index, now)
        path = None
    else:
        with writing.write(ws, now, wait=ctx.wait) as store:
            files.check_folder(ws.consolidation)  # where the report goes, once the index is saved
            archive.redact_file(ws)  # an archive written before a kind of secret was known
            report = consolidation.consolidate(store.index, now)
            if report.changed:
                store.backup = True
                # The archive is written before the index that no longer holds these memories.
                archive.add(ws, report.moved, {m.id for m in store.index.memories})
                store.shelved = {m.id: m for m in report.moved if archive.findable(m)}
            if report.changed or report.marked:
                store.changed(*report.changed_ids)
            path = ws.consolidation / f"{report.week}.md"
            if report.changed or not path.exists():
                text = consolidation.as_markdown(report, now)
                store.after_save.append(lambda: _write_report(ws, report, text, now))
                store.event = (
                    "consolidation",
                    dict(
                        week=report.week,
                        merged=len(report.merged),
                        superseded=len(report.superseded),
                        schemas=len(report.schemas),
                        archived=len(report.archived),
                        contradictions=len(report.contradictions),
                        total=report.total_after,
                    ),
                )
    if ctx.args.json:
        data = report.to_dict()
        data["dryRun"] = ctx.args.dry_run
        data["report"] = str(path) if path else None
        cli.emit(json.dumps(data, ensure_ascii=False))
    elif ctx.args.dry_run or ctx.args.verbose:
        cli.emit(consolidation.as_markdown(report, now, dry_run=ctx.args.dry_run).rstrip("\n"))
    elif not ctx.quiet:
        if report.changed:
            cli.emit(
                f"consolidated {report.week}: {len(report.merged)} merged, {len(report.superseded)} "
                f"superseded, {len(report.schemas)} schemas, {len(report.archived)} archived, "
                f"{len(report.contradictions)} open contradictions; {report.total_after} memories in the "
                f"index; report: {path}"
            )
        else:
            cli.emit(f"nothing to consolidate ({report.total_after} memories); report: {path}")
    return 0
