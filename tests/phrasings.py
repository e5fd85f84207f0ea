"""The phrasing corpus: chats in the six languages, each with what a memory that believes the user's own words must
show afterwards (tests/data/phrasings/FORMAT.md). `run(case, folder)` plays a case as cron would — encoding after
each session of a real workspace — and returns what did not hold (nothing: it passes).

Two parts: `tuning.jsonl`, read while building, and `check.jsonl`, written beside it and kept unread: its pass rate
is the honest figure. tests/test_phrasings.py runs both; bench/phrasings.py prints their pass rates.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from conftest import run_script
from transcript_fixtures import Session

CORPUS = Path(__file__).resolve().parent / "data" / "phrasings"
PARTS = ("tuning", "check")
START = datetime(2026, 5, 4, 9, tzinfo=timezone.utc)  # session 0: Monday 4 May 2026, 11:00 at GMT+2
CLASSES = frozenset(
    "correction partial count multi_value not_update ambiguous note short_fact commitment long_note "
    "summary_language history".split()
)
LANGUAGES = frozenset("en fr de es pt zh".split())
CHECKS = {
    "recall": {"recall", "first_has", "first_lacks", "has", "lacks", "all", "as_of"},
    "core": {"core_has", "core_lacks"},
    "open": {"open_has", "open_lacks"},
    "due": {"due"},
    "done": {"done_has"},
}


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # its class
    lang: str
    source: str
    sessions: tuple[tuple[int, tuple[str, ...]], ...]  # (day, turns)
    checks: tuple[dict, ...]
    part: str


def load(part: str) -> list[Case]:
    """The cases of one part of the corpus, each checked for its shape (a malformed case is an error, not a pass)."""
    path = CORPUS / f"{part}.jsonl"
    if not path.exists():
        return []
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            cases.append(parse(json.loads(line), part, f"{path.name}:{number}"))
    ids = [case.id for case in cases]
    assert len(ids) == len(set(ids)), f"{path.name}: ids repeat"
    return cases


def parse(raw: dict, part: str, where: str) -> Case:
    assert raw.get("class") in CLASSES, f"{where}: class {raw.get('class')!r}"
    assert raw.get("lang") in LANGUAGES, f"{where}: lang {raw.get('lang')!r}"
    sessions, day = [], -1
    for session in raw["sessions"]:
        if isinstance(session, dict):
            turns, when = session["turns"], int(session["day"])
        else:
            turns, when = session, day + 1
        assert when > day and turns and all(isinstance(t, str) and t.strip() for t in turns), where
        sessions.append((when, tuple(turns)))
        day = when
    checks = tuple(raw["checks"])
    assert checks, f"{where}: no check"
    for check in checks:
        kinds = [kind for kind, keys in CHECKS.items() if set(check) <= keys]
        assert kinds, f"{where}: check {check}"
    return Case(raw["id"], raw["class"], raw["lang"], raw.get("source", "pen"), tuple(sessions), checks, part)


def run(case: Case, folder: Path) -> list[str]:
    """Play `case` in a new workspace under `folder`; what did not hold, one line each."""
    ws = folder / "workspace"
    (ws / "memory").mkdir(parents=True)
    transcripts = folder / "sessions"
    now = ""
    for number, (day, turns) in enumerate(case.sessions):
        session = Session(f"{number:08x}-cafe-4000-8000-{day:012x}", START + timedelta(days=day))
        for turn in turns:
            if turn.startswith("agent: "):
                session.assistant(turn.removeprefix("agent: "))
            else:
                session.user(turn)
        session.write(transcripts)
        now = (session.clock + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
        done = run_script("encode", "--sessions", str(transcripts), ws=ws, now=now)
        if done.returncode != 0:
            return [f"encode failed: {done.stderr.strip()[-300:]}"]
    failures: list[str] = []
    for check in case.checks:
        failures += _check(check, ws, now)
    return failures


def _check(check: dict, ws: Path, now: str) -> list[str]:
    if "recall" in check:
        args = [check["recall"], "--no-touch"]
        args += ["--all"] if check.get("all") else []
        args += ["--as-of", check["as_of"]] if check.get("as_of") else []
        text = _output("recall", args, ws, now)
        first = _first_hit(text)
        label = f"recall {check['recall']!r}"
        return _holds(f"{label} first hit", first, check.get("first_has", ()), check.get("first_lacks", ())) + _holds(
            label, text, check.get("has", ()), check.get("lacks", ())
        )
    if "core_has" in check or "core_lacks" in check:
        text = _output("load_core", [], ws, now)
        return _holds("load_core", text, check.get("core_has", ()), check.get("core_lacks", ()))
    listed = _output("commitments", ["--all", "--json"], ws, now)
    rows = json.loads(listed)["commitments"] if listed.startswith("{") else []
    opened = "\n".join(row["task"] for row in rows if row["status"] == "open")
    if "due" in check:
        words, date = check["due"]
        found = [row for row in rows if row["status"] == "open" and words.lower() in row["task"].lower()]
        if not any(_local_date(row.get("due")) == date for row in found):
            return [f"no open commitment on {words!r} due {date}: {[(r['task'], r.get('due')) for r in found]}"]
        return []
    if "done_has" in check:
        closed = "\n".join(row["task"] for row in rows if row["status"] not in ("open", "expired"))
        return _holds("closed commitments", closed, check["done_has"], ())
    return _holds("open commitments", opened, check.get("open_has", ()), check.get("open_lacks", ()))


def _local_date(due: str | None) -> str:
    """The day a due time falls on where the chats happen (GMT+2)."""
    if not due:
        return ""
    when = datetime.fromisoformat(due.replace("Z", "+00:00"))
    if when.tzinfo is None:
        return when.date().isoformat()
    return when.astimezone(timezone(timedelta(hours=2))).date().isoformat()


def _output(script: str, args: list[str], ws: Path, now: str) -> str:
    done = run_script(script, *args, ws=ws, now=now)
    if done.returncode != 0:
        return f"<{script} failed: {done.stderr.strip()[-200:]}>"
    return done.stdout


def _first_hit(text: str) -> str:
    """The first hit recall printed: its numbered line and the lines under it."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("1. ")), None)
    if start is None:
        return ""
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("2. ")), len(lines))
    return "\n".join(lines[start:end])


def _holds(label: str, text: str, has, lacks) -> list[str]:
    low = text.lower()
    out = [f"{label}: lacks {want!r}" for want in has if want.lower() not in low]
    out += [f"{label}: holds {unwanted!r}" for unwanted in lacks if unwanted.lower() in low]
    if out:
        out.append(f"    {label} printed: {' | '.join(text.strip().splitlines()[:6])[:400]}")
    return out
