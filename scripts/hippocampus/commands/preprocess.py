"""Read new messages from OpenClaw's transcripts into memory/signals.jsonl, each message exactly once, ever.

Reads the agent's session files (<state>/agents/<agent>/sessions/*.jsonl), its SQLite store
(<state>/agents/<agent>/agent/openclaw-agent.sqlite, read-only; long rows are zstd-compressed), and what deleted or
reset sessions left (*.jsonl.deleted.*, *.jsonl.reset.*, compressed or not, and their copies in the database), or
the files and folders given with --sessions. A row or archive that cannot be decoded (no zstd here, or a corrupt
one) is reported on every run, even under --cron, and its session is read again by the next run.
Strips channel envelopes, time stamps (kept as a local-time hint), reply tags, attachments and message ids; leaves
out heartbeats and other turns OpenClaw wrote itself, cron runs, tool calls and results, thinking, failed attempts
and re-sent retries; keeps every text block in every script. Group chats (by OpenClaw's record of the session) and
turns OpenClaw marks as not from the owner are kept as untrusted. Each signal line: {"seq", "id", "session",
"timestamp", "role", "text"} (plus "local", "sender" and "trust" when known). Secrets are redacted before the line is
written. Transcripts are streamed: a message over 32,000 characters is kept cut, with a note, and a long history
is committed in steps, so memory stays small and an interrupted run keeps its progress.

A ledger (memory/ingest.sqlite) records every message handled, so running again, in any order with encode.py,
after a crash, with shared or naive timestamps or abandoned branches, never reads a message twice. A malformed line
is counted and skipped; a message stamped ahead of the run's clock (written while the machine's clock was fast) is
taken at the run's time and counted. The very first run takes the most recent --limit N messages, or what the
installer recorded in memory/hippocampus-config.json ({"firstRun": {"signals": N}} or {"firstRun": {"whole": true}}),
else everything. encode.py runs this itself; run it alone to inspect what would be encoded.
"""

from __future__ import annotations


import json
import sys

from .. import cli, events
from ..ingestion import arguments, runs
from ..ingestion.preprocess import PreprocessReport
from ..ingestion.transcripts import MESSAGE_LIMIT


def describe(report: PreprocessReport) -> str:
    noise = sum(report.noise.values())
    parts = [f"{report.new} new signals from {report.messages} messages in {report.sessions} sessions"]
    if report.unchanged:
        parts.append(f"{report.unchanged} unchanged sources skipped")
    if report.seen:
        parts.append(f"{report.seen} already read")
    if noise:
        parts.append(f"{noise} noise (" + ", ".join(f"{k} {v}" for k, v in sorted(report.noise.items())) + ")")
    for count, label in (
        (report.limited, "older ones left out by the limit"),
        (report.before_watermark, "already read by the old skill"),
        (report.ahead, "stamped ahead of this run's clock, taken at its time"),
        (report.malformed, "malformed lines skipped"),
        (report.incomplete, "lines still being written"),
        (report.undecodable, "compressed rows or archives not decoded (read again next run)"),
        (report.cut, f"very long messages cut to their first {MESSAGE_LIMIT:,} characters"),
        (report.recovered, "queue lines of an interrupted run redone"),
    ):
        if count:
            parts.append(f"{count} {label}")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__, cron=True)
    arguments.add_source_arguments(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    ctx = cli.context(p, argv)
    ctx.require_workspace()
    report = runs.run_preprocess(ctx.ws, ctx.now, runs.Sources(*arguments.source_spec(ctx.args, ctx.ws)), ctx.wait)
    if report.new or report.malformed or report.undecodable:
        events.log_event(
            ctx.ws,
            "preprocess",
            ctx.now,
            dict(
                signals=report.new, messages=report.messages, malformed=report.malformed, undecodable=report.undecodable
            ),
        )
    for problem in report.problems:
        print(f"warning: {problem}", file=sys.stderr)
    if ctx.args.json:
        cli.emit(json.dumps(report.to_dict(), ensure_ascii=False))
    elif not ctx.quiet:
        cli.emit(describe(report))
        for note in report.notes:
            cli.emit(note)
    return 0
