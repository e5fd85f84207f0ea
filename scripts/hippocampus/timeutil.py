"""Reading and writing instants and dates. Naive times mean UTC."""

from __future__ import annotations

from datetime import date, datetime, timezone
from functools import lru_cache



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
    return parsed.astimezone(timezone.utc)


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


def iso(instant: datetime) -> str:
    """An ISO-8601 UTC string with a Z, to the second (milliseconds kept when present)."""
    instant = instant.astimezone(timezone.utc)
    if instant.microsecond:
        return instant.strftime("%Y-%m-%dT%H:%M:%S.") + f"{instant.microsecond // 1000:03d}Z"
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


def days_between(earlier: date, later: date) -> int:
    """Whole calendar days from earlier to later, never negative."""
    return max(0, (later - earlier).days)
