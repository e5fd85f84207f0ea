"""What the brain dashboard shows, as plain values for its template. Pure: the index, events, sibling states and
the clock are passed in.

The page carries aggregates over every memory (counts, histogram, growth, fade projection) and a bounded list of
the most important memories for its search box, so it stays small with any number of memories.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from .. import commitment, redaction, retention
from ..model import tier, ACTIVE_THRESHOLD, BACKGROUND_THRESHOLD, CORE_THRESHOLD, DOMAIN_TITLES, DOMAINS
from ..store.cache import Cache, Census, Scored
from ..timeutil import iso, parse_day, parse_instant

LIST_LIMIT = 2000  # memories carried in the page for search
TOP_COUNT = 10
CONTENT_LIMIT = 600  # characters of one memory in the page
KEYWORD_LIMIT = 12
SOURCE_LIMIT = 3
HISTORY_LIMIT = 5  # earlier values of one memory in the page, newest first (and the first days it refers to)
HISTOGRAM_BINS = 20  # 0.05 wide: the tier thresholds 0.2, 0.4 and 0.7 fall on bin edges
PROJECTION_DAYS = 90
PROJECTION_MARKS = (0, 7, 30, 60, 90)
ACTIVITY_DAYS = 30
GROWTH_POINTS = 120
RECENT_EVENTS = 12
SIBLING_ITEMS = 10
SIBLING_TEXT = 200
OTHER_DOMAINS = 6  # domains beyond the four known ones shown by name
COMMITMENTS_LISTED = 20  # open ones, and recently closed ones, each
CLOSED_SHOWN_FOR = timedelta(days=14)  # a closed commitment stays in the panel this long

TIERS = (
    ("core", "Core", f"≥ {CORE_THRESHOLD:.2f}", "loaded at every session start"),
    ("active", "Active", f"{ACTIVE_THRESHOLD:.2f}–{CORE_THRESHOLD:.2f}", "found by recall"),
    ("background", "Background", f"{BACKGROUND_THRESHOLD:.2f}–{ACTIVE_THRESHOLD:.2f}", "found by specific searches"),
    ("archive", "Archive candidates", f"< {BACKGROUND_THRESHOLD:.2f}", "fading out; never deleted"),
)
EMOTION_DIMENSIONS = (
    ("valence", -1.0, 1.0),
    ("arousal", 0.0, 1.0),
    ("connection", 0.0, 1.0),
    ("curiosity", 0.0, 1.0),
    ("energy", 0.0, 1.0),
    ("trust", 0.0, 1.0),
    ("anticipation", 0.0, 1.0),
)
AMYGDALA_HINT = (
    "Add the amygdala skill (amygdala-memory) to see the agent's emotional state here: it keeps "
    "memory/emotional-state.json, and this panel appears the next time the page is generated."
)
VTA_HINT = (
    "Add the VTA skill (vta-memory) to see the agent's drive and rewards here: it keeps "
    "memory/reward-state.json, and this panel appears the next time the page is generated."
)


@dataclass
class StateFile:
    """A sibling skill's state file as read from disk: the parsed JSON, or why there is none."""

    value: object = None
    missing: bool = True
    problem: str | None = None


# --- small helpers --------------------------------------------------------------------------------------------


def _text(value, limit: int = SIBLING_TEXT) -> str | None:
    """A bounded one-line string, or None for anything that is not a non-empty string."""
    if not isinstance(value, str):
        return None
    flat = " ".join(value.split())
    if not flat:
        return None
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _number(value, low: float, high: float) -> float | None:
    """A finite number clamped to [low, high], or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return round(min(high, max(low, float(value))), 4)


def _count(value) -> int | None:
    """A whole, non-negative count from an event field, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return None
    return int(min(value, 10**9))


def _when(value) -> str | None:
    instant = parse_instant(value)
    return iso(instant) if instant else None


# --- memories -------------------------------------------------------------------------------------------------


def _source(source: dict) -> dict:
    out = {}
    for key in ("session", "message", "ts", "channel", "from"):
        if key in source and source[key] is not None:
            value = source[key]
            out[key] = _text(value if isinstance(value, str) else str(value), 80)
    return {k: v for k, v in out.items() if v}


def memory_row(item: Scored, today: date) -> dict:
    """One memory as the page shows it (content and lists bounded)."""
    m = item.memory
    content = m.content if len(m.content) <= CONTENT_LIMIT else m.content[: CONTENT_LIMIT - 1].rstrip() + "…"
    last = parse_instant(m.lastAccessed)
    created = parse_day(m.created)
    return {
        "id": m.id[:60],
        "content": content,
        "domain": item.domain[:40],
        "category": (m.category or "general")[:60],
        "importance": round(item.importance, 3),
        "tier": item.tier,
        "keywords": [k[:40] for k in m.keywords[:KEYWORD_LIMIT]],
        "reinforced": m.timesReinforced,
        "lastAccessed": last.date().isoformat() if last else None,
        "idleDays": max(0, (today - last.date()).days) if last else None,
        "created": created.isoformat() if created else None,
        "sources": [s for s in (_source(s) for s in m.sources[:SOURCE_LIMIT]) if s],
        "sourceCount": len(m.sources),
        "history": [
            {"content": _text(c.content, CONTENT_LIMIT), "from": (c.since or "")[:10] or None, "until": c.until[:10]}
            for c in m.changes[::-1][:HISTORY_LIMIT]
        ],
        "dates": [
            {"from": d.first.isoformat(), "to": d.last.isoformat(), "words": _text(d.words, 80) or ""}
            for d in m.dates[:HISTORY_LIMIT]
        ],
        "pinned": m.pinned,
        "untrusted": m.untrusted,
        "archived": m.archived or m.superseded,
    }


_OPTIONAL = (
    "lastAccessed",
    "idleDays",
    "created",
    "sources",
    "pinned",
    "untrusted",
    "archived",
    "keywords",
    "history",
    "dates",
)


def compact_row(row: dict) -> dict:
    """A row for the page's search list: optional fields only when they say something (the list is most of the
    page's size)."""
    return {
        k: v
        for k, v in row.items()
        if k not in _OPTIONAL or not (v is None or v is False or (isinstance(v, list) and not v))
    }


def domain_counts(tallies: Census) -> list[dict]:
    """Memories per domain, split by tier: the four known domains always, then the largest others (at most
    OTHER_DOMAINS; the rest are added up as one row, so a store with thousands of odd domains stays small)."""
    per: dict[str, Counter] = {d: Counter() for d in DOMAINS}
    for domain, counts in tallies.per_domain.items():
        per.setdefault(domain, Counter()).update(counts)
    others = sorted((d for d in per if d not in DOMAINS), key=lambda d: (-sum(per[d].values()), d))
    rows = [(d, DOMAIN_TITLES[d], per[d]) for d in DOMAINS]
    rows += [(d, _text(d, 40) or "?", per[d]) for d in others[:OTHER_DOMAINS]]
    if len(others) > OTHER_DOMAINS:
        rest: Counter[str] = Counter()
        for d in others[OTHER_DOMAINS:]:
            rest.update(per[d])
        rows.append(("", f"{len(others) - OTHER_DOMAINS:,} other domains", rest))
    return [
        {"domain": d, "title": title, "count": sum(c.values()), "tiers": {t: c[t] for t, *_ in TIERS}}
        for d, title, c in rows
    ]


def tier_counts(tallies: Census) -> list[dict]:
    counts: Counter = Counter()
    for per in tallies.per_domain.values():
        counts.update(per)
    return [
        {"tier": key, "label": label, "range": span, "meaning": meaning, "count": counts[key]}
        for key, label, span, meaning in TIERS
    ]


def histogram(tallies: Census, bins: int = HISTOGRAM_BINS) -> list[dict]:
    """Counts of today's importance in equal bins from 0 to 1 (1.0 falls in the last bin)."""
    counts = tallies.bins
    return [
        {"low": round(i / bins, 4), "high": round((i + 1) / bins, 4), "count": counts[i], "tier": tier(i / bins + 1e-9)}
        for i in range(bins)
    ]


def _count_at_least(ascending: list[float], threshold: float, factor: float) -> int:
    """How many values v satisfy v × factor ≥ threshold (the values sorted ascending)."""
    i = bisect_left(ascending, threshold / factor)
    # Division and multiplication can round apart at the boundary; settle it with the multiplication decay uses.
    while i > 0 and ascending[i - 1] * factor >= threshold:
        i -= 1
    while i < len(ascending) and ascending[i] * factor < threshold:
        i += 1
    return len(ascending) - i


def fade_projection(tallies: Census, horizon: int = PROJECTION_DAYS) -> dict:
    """How many memories stay core (and at least active) each day if none is used again: 0.99^days. Pinned stay."""
    curves = {}
    fading = tallies.fading
    for name, threshold in (("core", CORE_THRESHOLD), ("active", ACTIVE_THRESHOLD)):
        pinned = len(tallies.pinned) - bisect_left(tallies.pinned, threshold)
        curves[name] = [
            pinned + _count_at_least(fading, threshold, retention.faded(1.0, day)) for day in range(horizon + 1)
        ]
    marks = [
        {"day": d, "core": curves["core"][d], "active": curves["active"][d], "share": round(retention.faded(1.0, d), 3)}
        for d in PROJECTION_MARKS
        if d <= horizon
    ]
    return {"horizon": horizon, "core": curves["core"], "active": curves["active"], "marks": marks}


def growth(tallies: Census, today: date) -> dict:
    """Memories added per period (week when the store is young, else month) and the running total."""
    days, undated = tallies.days, tallies.undated
    if not days:
        return {"unit": "month", "points": [], "undated": undated}
    first, newest = min(days), max(days)
    weekly = (max(newest, today) - first).days <= 16 * 7
    added: Counter = Counter()
    for day, count in days.items():
        added[_period(day, weekly)] += count
    # From the first period to today's (or the newest, if dates run ahead), at most GROWTH_POINTS of them.
    start, period = _period(first, weekly), _period(max(newest, today), weekly)
    periods = [period]
    while period > start and len(periods) < GROWTH_POINTS:
        period = period - timedelta(days=7) if weekly else _previous_month(period)
        periods.append(period)
    periods.reverse()
    total = undated + sum(n for p, n in added.items() if p < periods[0])
    points = []
    for period in periods:
        total += added.get(period, 0)
        points.append(
            {"period": period.isoformat()[: 10 if weekly else 7], "added": added.get(period, 0), "total": total}
        )
    return {"unit": "week" if weekly else "month", "points": points, "undated": undated}


def _period(day: date, weekly: bool) -> date:
    return day - timedelta(days=day.weekday()) if weekly else day.replace(day=1)


def _previous_month(day: date) -> date:
    return date(day.year - 1, 12, 1) if day.month == 1 else date(day.year, day.month - 1, 1)


# --- commitments ----------------------------------------------------------------------------------------------


def commitment_row(memory, now: datetime) -> dict:
    """One commitment as the page shows it."""
    raw = memory.raw
    task = commitment.task_of(raw)
    due = commitment.due_of(raw)
    closed = parse_instant(raw.get("closed"))
    return {
        "id": memory.id[:60],
        "task": task if len(task) <= CONTENT_LIMIT else task[: CONTENT_LIMIT - 1].rstrip() + "…",
        "who": "asked by the user" if raw.get("by") == commitment.BY_USER else "promised by the agent",
        "due": commitment.when_text(due) if due is not None and raw.get("dueText") else None,
        "relative": commitment.relative_text(due, now) if due is not None and raw.get("dueText") else "no time given",
        "status": commitment.status_of(raw),
        "closed": closed.date().isoformat() if closed else None,
    }


def commitments_panel(view: Cache, now: datetime) -> dict:
    """The open commitments (soonest due first, not expired) and those closed in the last two weeks (newest
    first), each list bounded, with how many there are."""
    today = now.date()
    after = (now - commitment.EXPIRE_AFTER).timestamp()
    total_open, found_open = view.commitments(today, commitment.OPEN, due_after=after, limit=COMMITMENTS_LISTED)
    since = (now - CLOSED_SHOWN_FOR).timestamp()
    total_closed, found_closed = view.commitments(today, closed_since=since, limit=COMMITMENTS_LISTED)
    return {
        "open": [commitment_row(m, now) for m in found_open],
        "openCount": total_open,
        "closed": [commitment_row(m, now) for m in found_closed],
        "closedCount": total_closed,
    }


# --- events ---------------------------------------------------------------------------------------------------


def _event_summary(event: dict) -> str:
    """An event's first fields, redacted before they are cut to length (a cut secret is no longer recognised)."""
    parts = []
    for key, value in event.items():
        if key in ("ts", "type", "event"):
            continue
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            parts.append("{} {}".format(*redaction.redact_field(str(key), value)))
        if len(parts) == 6:
            break
    return _text(", ".join(parts), 160) or ""


def _event_text(value, limit: int) -> str | None:
    return _text(redaction.redact(value) if isinstance(value, str) else value, limit)


def activity(events: list[dict], skipped: int, today: date, days: int = ACTIVITY_DAYS) -> dict:
    """Encoding and decay over the last `days` days, totals per event type, and the latest events of any skill."""
    start = today - timedelta(days=days - 1)
    daily = {start + timedelta(days=i): {"new": 0, "reinforced": 0, "encodings": 0, "decays": 0} for i in range(days)}
    kinds: Counter = Counter()
    last: dict[str, str] = {}
    recent = []
    for event in events:
        kind = _event_text(event.get("type"), 40) or "unknown"
        name = _event_text(event.get("event"), 40) or "event"
        instant = parse_instant(event.get("ts"))
        kinds[kind] += 1
        if kind == "hippocampus" and instant:
            stamp = iso(instant)
            if name not in last or stamp > last[name]:
                last[name] = stamp
            bucket = daily.get(instant.date())
            if bucket is not None:
                if name == "encoding":
                    bucket["encodings"] += 1
                    bucket["new"] += _count(event.get("new")) or 0
                    bucket["reinforced"] += _count(event.get("reinforced")) or 0
                elif name == "decay":
                    bucket["decays"] += 1
        recent.append((iso(instant) if instant else "", kind, name, event))
    recent.sort(key=lambda r: r[0])
    latest = [
        {"ts": ts or None, "type": kind, "event": name, "summary": _event_summary(event)}
        for ts, kind, name, event in reversed(recent[-RECENT_EVENTS:])
    ]
    series = [{"day": d.isoformat(), **v} for d, v in daily.items()]
    return {
        "days": series,
        "totals": {
            "new": sum(s["new"] for s in series),
            "reinforced": sum(s["reinforced"] for s in series),
            "encodings": sum(s["encodings"] for s in series),
            "decays": sum(s["decays"] for s in series),
        },
        "byType": dict(sorted(kinds.items())),
        "lastEncoding": last.get("encoding"),
        "lastDecay": last.get("decay"),
        "recent": latest,
        "skipped": skipped,
        "count": len(events),
    }


# --- sibling skills -------------------------------------------------------------------------------------------


def _list_of(value, limit: int = SIBLING_ITEMS) -> tuple[list, int]:
    """Up to `limit` items of a list (the newest, at its end), and how many items were not lists' items at all."""
    if not isinstance(value, list):
        return [], 0 if value is None else 1
    return value[-limit:], 0


def _label(item) -> str | None:
    if isinstance(item, dict):
        for key in ("label", "name", "what", "goal", "description", "text"):
            text = _text(item.get(key))
            if text:
                return text
        return None
    return _text(item)


def _unreadable(state: StateFile, name: str, hint: str) -> dict:
    if state.missing:
        return {"present": False, "note": hint}
    return {
        "present": False,
        "note": f"memory/{name} is there but could not be used ({state.problem}); "
        "the panel is hidden until the file is valid.",
    }


def _state_object(state: StateFile, name: str, hint: str) -> tuple[dict | None, dict | None]:
    """(the state file's object, None), or (None, the panel saying why it cannot be shown)."""
    if state.missing or state.problem or not isinstance(state.value, dict):
        if not state.missing and not state.problem:
            state = StateFile(missing=False, problem="it is not a JSON object")
        return None, _unreadable(state, name, hint)
    return _redacted(state.value), None


def _redacted(value):
    """A sibling skill's state with every text redacted: those skills write what the same chats said, and the page is
    a boundary like any other (a key names its value: "password": "…" is a credential)."""
    if isinstance(value, str):
        return redaction.redact(value)
    if isinstance(value, list):
        return [_redacted(item) for item in value]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if isinstance(key, str) and isinstance(item, str):
                key, item = redaction.redact_field(key, item)
            out[key] = _redacted(item) if not isinstance(item, str) else item
        return out
    return value


def amygdala_panel(state: StateFile) -> dict:
    """The emotional state of the amygdala skill, validated value by value; anything malformed is left out."""
    raw, unusable = _state_object(state, "emotional-state.json", AMYGDALA_HINT)
    if unusable is not None:
        return unusable
    assert raw is not None  # one of the two is given
    ignored = 0
    dimensions = []
    given = raw.get("dimensions")
    if not isinstance(given, dict):
        ignored += given is not None
        given = {}
    for key, low, high in EMOTION_DIMENSIONS:
        if key in given:
            value = _number(given[key], low, high)
            if value is None:
                ignored += 1
                continue
            dimensions.append(
                {"name": key, "value": value, "low": low, "high": high, "share": round((value - low) / (high - low), 4)}
            )
    emotions = []
    items, bad = _list_of(raw.get("recentEmotions"))
    ignored += bad
    for item in reversed(items):
        if not isinstance(item, dict) or not _text(item.get("label"), 40):
            ignored += 1
            continue
        emotions.append(
            {
                "label": _text(item.get("label"), 40),
                "intensity": _number(item.get("intensity"), 0, 1),
                "trigger": _text(item.get("trigger")),
                "when": _when(item.get("timestamp")),
            }
        )
    if not dimensions and not emotions:
        return _unreadable(
            StateFile(missing=False, problem="it has no dimensions or recent emotions"),
            "emotional-state.json",
            AMYGDALA_HINT,
        )
    return {
        "present": True,
        "dimensions": dimensions,
        "emotions": emotions,
        "updated": _when(raw.get("lastUpdated")),
        "note": f"{ignored} malformed value(s) in memory/emotional-state.json were left out." if ignored else None,
    }


def vta_panel(state: StateFile) -> dict:
    """The reward state of the VTA skill, validated value by value; anything malformed is left out."""
    raw, unusable = _state_object(state, "reward-state.json", VTA_HINT)
    if unusable is not None:
        return unusable
    assert raw is not None  # one of the two is given
    ignored = 0
    drive = _number(raw.get("drive"), 0, 1)
    if drive is None and raw.get("drive") is not None:
        ignored += 1
    lists = {}
    for key in ("seeking", "anticipating"):
        items, bad = _list_of(raw.get(key))
        ignored += bad
        labels = [_label(item) for item in items]
        ignored += sum(1 for label in labels if label is None)
        lists[key] = [label for label in labels if label]
    rewards = []
    items, bad = _list_of(raw.get("recentRewards"))
    ignored += bad
    for item in reversed(items):
        if not isinstance(item, dict) or not (_text(item.get("type"), 40) or _text(item.get("source"))):
            ignored += 1
            continue
        rewards.append(
            {
                "type": _text(item.get("type"), 40) or "reward",
                "source": _text(item.get("source")),
                "intensity": _number(item.get("intensity"), 0, 1),
                "when": _when(item.get("timestamp")),
            }
        )
    if drive is None and not rewards and not lists["seeking"] and not lists["anticipating"]:
        return _unreadable(
            StateFile(missing=False, problem="it has no drive, goals or rewards"), "reward-state.json", VTA_HINT
        )
    return {
        "present": True,
        "drive": drive,
        "seeking": lists["seeking"],
        "anticipating": lists["anticipating"],
        "rewards": rewards,
        "updated": _when(raw.get("lastUpdated")),
        "note": f"{ignored} malformed value(s) in memory/reward-state.json were left out." if ignored else None,
    }


# --- the whole page -------------------------------------------------------------------------------------------


def census(limit: int = LIST_LIMIT) -> Census:
    """An empty tally of what the page shows with its `limit` most important memories, for `Cache.tally`."""
    return Census(HISTOGRAM_BINS, max(limit, TOP_COUNT))


def build(
    view: Cache,
    now: datetime,
    events: list[dict] | None = None,
    skipped_events: int = 0,
    agent: dict | None = None,
    emotional: StateFile | None = None,
    reward: StateFile | None = None,
    limit: int = LIST_LIMIT,
    tallies: Census | None = None,
) -> dict:
    """Everything the dashboard template receives: aggregates over every memory of the store (`tallies`, a `census`
    of `limit` tallied already, else read here), and its `limit` most important memories."""
    today = now.date()
    if tallies is None:
        tallies = census(limit)
        view.tally(today, tallies)
    rows = [memory_row(item, today) for item in tallies.top]
    listed = rows[: max(0, limit)]
    tiers = tier_counts(tallies)
    agent = agent or {}
    return {
        "generated": iso(now),
        "today": today.isoformat(),
        "agent": agent,
        "title": f"{agent['name']}'s brain" if agent.get("name") else "Brain dashboard",
        "total": tallies.total,
        "tiers": tiers,
        "tierCounts": {t["tier"]: t["count"] for t in tiers},
        "domains": domain_counts(tallies),
        "histogram": histogram(tallies),
        "projection": fade_projection(tallies),
        "growth": growth(tallies, today),
        "activity": activity(events or [], skipped_events, today),
        "top": rows[:TOP_COUNT],
        "commitments": commitments_panel(view, now),
        "memories": [compact_row(row) for row in listed],
        "listed": len(listed),
        "pinned": len(tallies.pinned),
        "reinforcedTotal": tallies.reinforced,
        "amygdala": amygdala_panel(emotional or StateFile()),
        "vta": vta_panel(reward or StateFile()),
        "thresholds": {"core": CORE_THRESHOLD, "active": ACTIVE_THRESHOLD, "background": BACKGROUND_THRESHOLD},
    }
