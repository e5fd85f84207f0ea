"""A commitment as the store keeps it: a memory of kind `commitment` — a promise of the agent's, or the user's request
to be reminded — with when it is due, whether it is open, done or expired, and when it was closed. When one is shown
and when it expires, and how its due time reads, are here, for the encoder, the cache and every listing. Pure, and
light: load_core imports it.

    {"id": "mem_042", "kind": "commitment", "by": "user", "task": "Remind the user to call the plumber",
     "due": "2026-03-06T09:00:00+02:00", "dueText": "on Friday", "status": "open",
     "content": "Remind the user to call the plumber (due Fri 2026-03-06 09:00 GMT+2)", "sources": [...], ...}

`due` keeps the speaker's UTC offset, so a listing gives the time as the user said it. A request that named no time
has none of `dueText` and is due from the moment it was made. Once closed: `status` "done" (said so in the
conversation, with `closedFrom` the message; or by hand), "cancelled" (the owner called it off, `closedFrom` the
message) or "expired", and `closed`, when. The owner may move one to another time ("move the plumber reminder to
Monday"): its `due` and `dueText` change, the time before kept in `moved`.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

KIND = "commitment"
OPEN, DONE, EXPIRED, CANCELLED = "open", "done", "expired", "cancelled"
STATUSES = (OPEN, DONE, EXPIRED, CANCELLED)
BY_USER, BY_AGENT = "user", "agent"
# An open commitment is shown at the start of a session from this long before it is due ("shortly before")...
SHOW_BEFORE = timedelta(hours=12)
# ...until it is done, or this long after it was due: then it expires (it is kept, closed as expired).
EXPIRE_AFTER = timedelta(days=7)
IMPORTANCE = 0.6  # found by recall like any active memory; listed as a commitment, never among the core memories


def is_commitment(raw: dict) -> bool:
    """Whether a stored memory (its object) is a commitment."""
    return raw.get("kind") == KIND


def task_of(raw: dict) -> str:
    """What is to be done, as a listing shows it: its `task`, or (hand-edited away) its content."""
    task = raw.get("task")
    if isinstance(task, str) and task.strip():
        return task
    content = raw.get("content")
    return content if isinstance(content, str) else ""


def status_of(raw: dict) -> str:
    """open, done, cancelled or expired (a hand-edited value this version does not know reads as done: never shown)."""
    value = raw.get("status")
    return value if value in STATUSES else DONE


def due_of(raw: dict) -> datetime | None:
    """When a stored commitment is due, in the zone it was said in; None when it has no readable due time."""
    value = raw.get("due")
    if not isinstance(value, str) or len(value) > 64:
        return None
    try:
        found = datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    except ValueError:
        return None
    return found if found.tzinfo is not None else found.replace(tzinfo=timezone.utc)


def expires(due: datetime) -> datetime:
    """When an open commitment due then expires."""
    return due + EXPIRE_AFTER


def showing(due: datetime, now: datetime) -> bool:
    """Whether an open commitment due then is shown at the start of a session at `now`."""
    return due - SHOW_BEFORE <= now < expires(due)


def zone_name(at: datetime) -> str:
    """ "GMT+2", "GMT-3:30" or "UTC": the offset a time was said in."""
    offset = at.utcoffset() or timedelta(0)
    if not offset:
        return "UTC"
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"GMT{sign}{hours}" + (f":{rest:02d}" if rest else "")


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def when_text(at: datetime) -> str:
    """A time as listings give it, in the zone it was said in: "Fri 2026-03-06 09:00 GMT+2"."""
    day = f"{at.year:04d}-{at.month:02d}-{at.day:02d}"
    return f"{_DAYS[at.weekday()]} {day} {at.hour:02d}:{at.minute:02d} {zone_name(at)}"


def relative_text(due: datetime, now: datetime) -> str:
    """How far off a due time is: "in 3 hours", "in 2 days", "due now", "overdue by 5 hours"."""
    seconds = (due - now).total_seconds()
    if abs(seconds) < 30 * 60:
        return "due now"
    span = abs(seconds)
    if span < 36 * 3600:
        amount, unit = round(span / 3600), "hour"
    else:
        amount, unit = round(span / 86400), "day"
    words = f"{amount} {unit}{'' if amount == 1 else 's'}"
    return f"in {words}" if seconds > 0 else f"overdue by {words}"


def content_of(raw: dict[str, Any]) -> str:
    """The one line a commitment shows as its content everywhere (recall, the mirrors, the dashboard): what, when
    due, and how it was closed."""
    task = task_of(raw)
    due = due_of(raw)
    if due is None:
        when = "no due time"
    elif raw.get("dueText"):
        when = f"due {when_text(due)}"
    else:
        when = f"asked {when_text(due)}, no time given"
    status = status_of(raw)
    closed = raw.get("closed") if isinstance(raw.get("closed"), str) else ""
    if status != OPEN:
        when += f"; {status}" + (f" {closed[:10]}" if closed else "")
    return f"{task} ({when})"
