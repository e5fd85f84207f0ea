"""Turn new messages into memories: score, summarise, redact secrets, then create, reinforce or update.

Default (what cron runs, no LLM needed): preprocess (same source flags as preprocess.py), then for each new signal:
score it (an explicit "remember this", a feeling, a preference, a decision and more, matched as whole words), make a
concise standalone memory (about 200 characters at most, names, numbers and dates kept; "I prefer X" becomes "User
prefers X"), redact secrets, and either reinforce the memory that holds the same fact, update the one whose value
changed ("my locker code is now 5521"; the old value goes to its history) or create a new one. A message that is no
memory of its own (the agent's reply, a short answer, a question, small talk) is attached to the memory of its
session — a question to the memory of its answer — where recall finds it. Every memory records its sources (session,
message, time). Then the Markdown mirrors under memory/<domain>/ and HIPPOCAMPUS_CORE.md are refreshed and an
`encoding` event is logged. Messages from group chats or other senders than the owner are kept as untrusted
observations.

With an LLM (the agent's own cron turn):
  encode.py --prepare --json     adds candidate items to memory/pending-memories.json (never replacing any)
  encode.py --apply FILE         applies the agent's decisions from FILE; invalid ones are reported and kept
Pending items left for a day are encoded the default way by the next run. SKILL.md shows the file shapes.

Exit 0 on success; with --apply, 1 when some decisions were invalid (the valid ones are applied).
"""

from __future__ import annotations


import json
import sys

from .. import cli
from ..ingestion import arguments, encoding, runs, userzone


def describe(report: runs.EncodeReport) -> str:
    o = report.outcome
    if report.mode == "apply":
        text = (
            f"applied {report.applied} decisions: {len(o.new)} new, {len(o.reinforced)} reinforced, {o.skipped} skipped"
        )
        if report.already_applied:
            text += f", {report.already_applied} already applied"
        if report.invalid:
            text += f"; {len(report.invalid)} invalid (kept pending)"
    elif report.mode == "prepare":
        text = f"{report.prepared} items added to pending-memories.json from {report.signals} signals"
        if o.attached:
            text += f", {len(o.attached)} attached to memories of their session"
        if o.skipped:
            text += f" ({o.skipped} skipped as noise or small talk)"
    else:
        text = (
            f"encoded {report.signals} signals: {len(o.new)} new, {len(o.reinforced)} reinforced, "
            f"{len(o.updated)} updated, {len(o.attached)} attached to memories of their session, "
            f"{o.skipped} skipped"
        )
    if report.expired:
        text += f"; {report.expired} pending items older than a day encoded automatically"
    if report.preprocess is not None and report.preprocess.ahead:
        text += f"; {report.preprocess.ahead} messages stamped ahead of this run's clock, taken at its time"
    return text + f"; {report.total} memories, {report.pending_left} pending"


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__, cron=True)
    arguments.add_source_arguments(p)
    p.add_argument("--no-preprocess", action="store_true", help="encode only what is already in signals.jsonl")
    p.add_argument(
        "--min-importance",
        type=float,
        default=encoding.MIN_IMPORTANCE,
        metavar="X",
        help=f"leave out messages scoring below X (0-1, default {encoding.MIN_IMPORTANCE:g})",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--prepare", action="store_true", help="queue candidates for the agent's own summary instead of encoding them"
    )
    mode.add_argument("--apply", metavar="FILE", help="apply the agent's decisions from FILE")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    ctx = cli.context(p, argv)
    if not 0 <= ctx.args.min_importance <= 1:
        p.error("--min-importance must be from 0 to 1")
    ctx.require_workspace()
    if ctx.args.apply:
        report = runs.apply(ctx.ws, ctx.now, ctx.wait, ctx.args.apply)
    else:
        read = None
        if not ctx.args.no_preprocess:
            read = runs.Sources(*arguments.source_spec(ctx.args, ctx.ws))
        zone = userzone.read(arguments.config_dir(ctx.args, ctx.ws))
        report = runs.encode(
            ctx.ws, ctx.now, ctx.wait, ctx.args.min_importance, prepare=ctx.args.prepare, read=read, zone=zone
        )
    if report.preprocess is not None:
        for problem in report.preprocess.problems:
            print(f"warning: {problem}", file=sys.stderr)
    if report.zone.problem is not None:
        print(f"warning: {report.zone.problem}", file=sys.stderr)
    if ctx.args.json:
        data = report.to_dict()
        if ctx.args.prepare:
            from ..ingestion import pending

            data["items"] = pending.read_items(ctx.ws)
        cli.emit(json.dumps(data, ensure_ascii=False))
    elif not ctx.quiet or report.invalid:
        cli.emit(describe(report))
        for note in report.preprocess.notes if report.preprocess is not None else ():
            cli.emit(note)  # no transcripts where it looked: a wrong --agent or --state-dir
        for invalid in report.invalid:
            cli.emit(f"  invalid decision #{invalid['index']} ({invalid['item']}): {invalid['error']}")
    return 1 if report.invalid else 0
