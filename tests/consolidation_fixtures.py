"""A workspace with months of use: twelve weekly conversations encoded by encode.py (with decay runs between), plus a
batch of memories as the old skill left them (it never merged duplicates or updated changed values)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from conftest import SCRIPTS
from transcript_fixtures import Session, write_sessions_json

START = datetime(2025, 11, 3, 8, tzinfo=timezone.utc)  # a Monday
WEEKS = 12
NOW = "2026-01-25T05:13:00Z"  # the Sunday after the last week: consolidation's slot
TASKS = [
    "moved the invoices table to the new cluster",
    "tested the rollback on staging",
    "fixed the currency rounding bug",
    "migrated the Stripe webhooks",
    "ran the dry run with real data",
    "wrote the cutover checklist",
    "split the ledger service",
    "archived the old reports",
    "load tested the new billing API",
    "trained support on refunds",
]


def stamp(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def run(name: str, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / f"{name}.py"), *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode in (0, 75), done.stderr
    return done


def encode_weeks(ws: Path, state: Path) -> None:
    """Twelve weeks of chats: a recurring project, preferences, birthdays, thanks; encoded and decayed weekly."""
    folder = state / "agents" / "main" / "sessions"
    sessions: dict[str, Session] = {}
    for week in range(WEEKS):
        s = Session(f"{week:08x}-aaaa-4000-8000-000000000000", START + timedelta(days=7 * week))
        s.user(f"I'm working on the Atlas billing migration project, this week we {TASKS[week % len(TASKS)]}")
        s.assistant("Good progress.")
        if week == 0:
            s.user("I prefer oat milk flat whites, never regular milk")
            s.assistant("Noted.")
        if week == 1:
            s.user("Remember that my sister Lea's birthday is on June 14")
            s.assistant("Noted.")
        if week == 2:
            s.user("Remember that my brother Tom's birthday is on June 18")
            s.assistant("Noted.")
        if week % 4 == 3:
            s.user("Thanks, you're the best! That was really helpful with the migration")
            s.assistant("Happy to help!")
        sessions[f"agent:main:telegram:dm:81234:{week}"] = s
        s.write(folder)
        write_sessions_json(folder, sessions)
        now = stamp(START + timedelta(days=7 * week + 1))
        run("encode", "--workspace", str(ws), "--state-dir", str(state), "--now", now, "--full", "--cron")
        run("decay", "--workspace", str(ws), "--now", now, "--cron")


def old(mid: int, content: str, importance: float, created: str, **fields) -> dict:
    out = {
        "id": f"mem_{mid:03d}",
        "domain": "user",
        "category": "general",
        "content": content,
        "importance": importance,
        "created": created,
        "lastAccessed": fields.pop("lastAccessed", "2026-01-20"),
        "timesReinforced": fields.pop("timesReinforced", 1),
        "keywords": fields.pop("keywords", []),
    }
    out.update(fields)
    return out


# What the old skill left: duplicates in other words, look-alikes that are different facts, a value that changed
# twice, a contradiction, and a memory long faded. Ids start at 101, past the encoded ones.
IMPORTED = [
    old(
        101,
        "User prefers a window seat on long flights",
        0.8,
        "2025-10-02",
        keywords=["window", "seat"],
        sources=[{"session": "old-1", "message": "a1", "ts": "2025-10-02T09:00:00Z"}],
    ),
    old(
        102,
        "User prefers window seats on long flights",
        0.6,
        "2025-10-20",
        keywords=["flights", "travel"],
        sources=[{"session": "old-2", "message": "b2", "ts": "2025-10-20T09:00:00Z"}],
    ),
    old(103, "User's colleague Priya leads the Atlas data team", 0.7, "2025-10-03"),
    old(104, "User's colleague Jonas leads the Atlas data team", 0.7, "2025-10-04"),
    old(105, "The locker code for unit 12 is 4417", 0.75, "2025-10-05"),
    old(106, "The locker code for unit 19 is 8803", 0.75, "2025-10-06"),
    old(107, "User's passport expires on 2027-04-02", 0.7, "2025-10-07"),
    old(108, "User's passport expires on 2029-04-02", 0.7, "2025-10-08"),
    old(109, "The team standup is at 09:30", 0.7, "2025-10-01"),
    old(110, "The team standup moved to 10:00 now", 0.7, "2025-10-15"),
    old(111, "The team standup moved again, it is at 10:30 now", 0.7, "2025-11-01"),
    old(112, "User once mentioned a podcast about beekeeping", 0.15, "2025-09-01", lastAccessed="2025-09-01"),
]


def build(base: Path) -> Path:
    """The workspace (encoded weeks plus the old skill's batch); returns its folder."""
    ws = base / "workspace"
    (ws / "memory").mkdir(parents=True)
    encode_weeks(ws, base / "state")
    path = ws / "memory" / "index.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["memories"] += json.loads(json.dumps(IMPORTED))
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return ws
