"""List the open commitments — what the agent promised and what the user asked to be reminded of — with when each is
due, and close one by hand.

Encoding opens them from the conversation (the agent's "I'll send you the summary tomorrow", the user's "remind me on
Friday to call the plumber", in English, French, German, Spanish, Portuguese or Chinese), closes them when the
conversation says they are done ("I called the plumber", "done"), cancels or moves them when the user says so ("cancel
the plumber reminder", "move it to Monday"), and lets them expire a week after they were due;
load_core.py shows those due, from 12 hours before. --done ID closes one now, as kept (nothing is deleted);
--all also lists the done, cancelled and expired ones.
"""

from __future__ import annotations

import json
from datetime import datetime

from .. import cli, commitment
from ..errors import HippocampusError
from ..model import Memory
from ..published.selection import commitment_item
from ..store import reading


def _status(memory: Memory, now: datetime) -> str:
    """open, done or expired — an open one past its expiry reads as expired before the next encoding says so."""
    status = commitment.status_of(memory.raw)
    due = commitment.due_of(memory.raw)
    if status == commitment.OPEN and due is not None and commitment.expires(due) <= now:
        return commitment.EXPIRED
    return status


def _line(memory: Memory, now: datetime) -> str:
    item = commitment_item(memory)
    status = _status(memory, now)
    label = item.label(now)
    if status != commitment.OPEN:
        closed = str(memory.raw.get("closed") or "")[:10]
        label = f"{status}{' ' + closed if closed else ''}; {item.label(None)}"
    who = "asked by the user" if memory.raw.get("by") == commitment.BY_USER else "promised by the agent"
    return f"- {memory.id} [{label}] {item.text} ({who})"


def _row(memory: Memory, now: datetime) -> dict:
    return {**commitment_item(memory).to_dict(), "status": _status(memory, now), "closed": memory.raw.get("closed")}


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__)
    p.add_argument("--all", action="store_true", help="also list the done, cancelled and expired commitments")
    p.add_argument("--done", metavar="ID", help="close this commitment now: it was kept")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    ctx = cli.context(p, argv)
    ctx.require_workspace()
    now = ctx.now
    if ctx.args.done:
        from .. import writing
        from ..ingestion.commitments import NotOpen, close_by_hand

        with writing.write(ctx.ws, now) as store:
            try:
                memory = close_by_hand(store.index, ctx.args.done, now)
            except NotOpen as exc:
                raise HippocampusError(str(exc)) from None
            store.changed(memory.id)
            store.event = ("commitment", {"closed": memory.id})
        if ctx.args.json:
            cli.emit(json.dumps(_row(memory, now), ensure_ascii=False))
        else:
            cli.emit(f"closed {memory.id}: {commitment_item(memory).text}")
        return 0
    view = reading.for_reading(ctx.ws, now.date())
    try:
        if ctx.args.all:
            _, found = view.commitments(now.date())
        else:
            after = (now - commitment.EXPIRE_AFTER).timestamp()
            _, found = view.commitments(now.date(), commitment.OPEN, due_after=after)
    finally:
        view.close()
    if ctx.args.json:
        rows = [_row(m, now) for m in found]
        opened = sum(r["status"] == commitment.OPEN for r in rows)
        cli.emit(json.dumps({"commitments": rows, "open": opened}, ensure_ascii=False))
        return 0
    open_count = sum(_status(m, now) == commitment.OPEN for m in found)
    if not found:
        cli.emit("No commitments yet." if ctx.args.all else "No open commitments.")
        return 0
    title = f"{open_count} open commitment{'' if open_count == 1 else 's'}"
    if ctx.args.all:
        title += f", {len(found)} in all"
    cli.emit("\n".join([title + ":", *(_line(m, now) for m in found)]))
    return 0
