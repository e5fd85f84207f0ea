"""Reading and writing instants and dates. Naive times mean UTC."""

from __future__ import annotations

from datetime import date, datetime, timezone
from functools import lru_cache

# The clock a run may be given (--now): scripts count days and weeks either side of it, which the ends of the
# calendar (years 1 and 9999) leave no room for. Dates in stored data may be anything readable.
EARLIEST_NOW = datetime(1970, 1, 1, tzinfo=timezone.utc)
LATEST_NOW = datetime(9000, 1, 1, tzinfo=timezone.utc)


def parse_instant(value) -> datetime | None:
    """An aware UTC datetime from an ISO string, a date string or epoch milliseconds/seconds; None if unreadable."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        seconds = value / 1000.0 if abs(value) > 1e11 else float(value)
        try:
            return datetime.fromtimestamp(seconds, tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str) or len(value) > 64:
        return None
    return _parse_text(value)


@lru_cache(maxsize=8192)
def _parse_text(value: str) -> datetime | None:
    # Stores repeat the same few thousand dates; parsing each once keeps 100k-memory passes fast.
    text = value.strip()
    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    except ValueError:
        from dateutil import parser as dateparser  # only for forms fromisoformat misses; keeps start-up light

        try:
            parsed = dateparser.isoparse(text)
        except (ValueError, OverflowError):
            return None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=timezone.utc)
    try:
        return parsed.astimezone(timezone.utc)
    except OverflowError:
        return None  # "0001-01-01T00:30+01:00" is in year 0 in UTC: no date this program can hold


def parse_day(value) -> date | None:
    """The UTC calendar day of a date or datetime value; None if unreadable."""
    if isinstance(value, str):
        return _parse_day_text(value) if len(value) <= 64 else None
    instant = parse_instant(value)
    return instant.date() if instant else None


@lru_cache(maxsize=8192)
def _parse_day_text(value: str) -> date | None:
    instant = _parse_text(value)
    return instant.date() if instant else None


# A day as YYYY-MM-DD. Cached: the daily decay writes the day of every memory's anchor, and they are few.
day_text = lru_cache(maxsize=4096)(date.isoformat)


def iso(instant: datetime) -> str:
    """An ISO-8601 UTC string with a Z, to the second (milliseconds kept when present)."""
    instant = instant.astimezone(timezone.utc)
    # Not strftime: its %Y gives "1", not "0001", for the year 1 on some platforms.
    text = (
        f"{instant.year:04d}-{instant.month:02d}-{instant.day:02d}"
        f"T{instant.hour:02d}:{instant.minute:02d}:{instant.second:02d}"
    )
    if instant.microsecond:
        return f"{text}.{instant.microsecond // 1000:03d}Z"
    return text + "Z"


def days_between(earlier: date, later: date) -> int:
    """Whole calendar days from earlier to later, never negative."""
    return max(0, (later - earlier).days)
