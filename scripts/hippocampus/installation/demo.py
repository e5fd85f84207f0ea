"""The demo: a month of generated OpenClaw conversations, run through the pipeline day by day in its own workspace.

The generator writes session files in OpenClaw's format (session format v3: header, model changes, user turns with
the channel envelope and a local-time stamp, assistant turns with thinking, tool calls and results, failed attempts
and retries, heartbeats, the skill's own cron sessions, an abandoned branch, a compaction) with every kind of signal
the encoder scores: "remember this", preferences, decisions, feelings, projects, thanks, appointments, and noise.
It is deterministic: the same seed gives the same bytes.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from ..errors import HippocampusError

START = date(2026, 4, 6)  # a Monday
WEEKS = 4
SEED = 7
LOCAL_OFFSET = timedelta(hours=2)  # the user lives at GMT+2
USER = {"label": "telegram", "id": "81234", "name": "Maya"}
SESSION_KEY = "agent:main:telegram:direct:81234"
MODEL = {"api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-6"}
HEARTBEAT = (
    "Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old "
    "tasks from prior chats. If nothing needs attention, reply HEARTBEAT_OK."
)
MARKER = ".hippocampus-demo"
RECALL_QUERY = "what did we decide about the database"
AGENT_QUERY = "interview practice plan"  # what only the agent said: found in the turns attached to a memory

# The month, scene by scene: (day, local time, turns). A turn is (kind, text…):
#   ("user", text) · ("bot", text…) · ("tool", name, argument, result) · ("fail",) a failed attempt the user retries
#   ("heartbeat",) · ("branch", abandoned user text, abandoned reply) · ("compact", summary)
SCENES: list[tuple[int, str, list[tuple]]] = [
    (
        0,
        "08:10",
        [
            ("user", "Morning! Remember that my sister Lea's birthday is on June 14 — I want to plan something nice."),
            ("tool", "read", "calendar.md", "# Calendar\n- Tue: standup 09:30\n- Thu: 1:1 with Jonas"),
            ("bot", "[[reply_to_current]] Noted: Lea's birthday is on June 14.", "I added it to calendar.md as well."),
            ("user", "I'm working on the Atlas billing migration this month, it's the big project at work."),
            ("bot", "Good luck with Atlas. Tell me what you need for the migration."),
            ("heartbeat",),
        ],
    ),
    (
        1,
        "19:40",
        [
            ("user", "I prefer oat milk flat whites, by the way. Never regular milk."),
            ("bot", "Oat milk flat white it is ☕"),
            ("user", "hi never mind"),
            ("user", "the projector in room 4 is broken again"),
            ("bot", "That is annoying. Want me to write a note to facilities?"),
            ("user", "ok"),
            ("bot", "NO_REPLY"),
        ],
    ),
    (
        3,
        "21:05",
        [
            ("fail",),
            (
                "user",
                "I'm worried about the interview at Northwind next Thursday. I feel like I'm not prepared at all.",
            ),
            (
                "bot",
                "That is a normal feeling before an interview. Shall we make a short plan: two mock questions a day?",
            ),
            ("user", "Yes please, let's do that."),
        ],
    ),
    (
        4,
        "12:20",
        [
            (
                "user",
                "We decided to use PostgreSQL instead of MongoDB for Atlas. "
                "Let's do the schema migration in two steps.",
            ),
            ("bot", "Decision noted: PostgreSQL for Atlas, schema migration in two steps."),
            ("heartbeat",),
        ],
    ),
    (
        7,
        "09:05",
        [
            ("user", "Thanks Nova, the migration checklist you wrote was really helpful. Great job!"),
            ("bot", "Glad it helped! 🎉"),
            ("user", "Can you remind me what we decided about the database?"),
            ("tool", "exec", 'python3 scripts/recall.py "database decision"', "1. [0.78] PostgreSQL for Atlas"),
            ("bot", "We chose PostgreSQL over MongoDB for Atlas, with the schema migration in two steps."),
        ],
    ),
    (
        8,
        "07:45",
        [
            ("user", "Order me the usual on the way: an oat milk flat white. I always take oat milk."),
            ("bot", "Done: one oat milk flat white."),
        ],
    ),
    (
        9,
        "18:30",
        [
            ("user", "Don't forget: the dentist moved my appointment to Friday 16:30. It's important."),
            ("bot", "Got it, dentist on Friday at 16:30."),
            ("user", "来週は東京に出張します。Tokyo trip next week for the Atlas kickoff with the Japan team."),
            ("bot", "いいですね! I will keep the Tokyo trip in mind."),
        ],
    ),
    (
        10,
        "17:10",
        [
            ("user", "The Northwind interview went really well! I'm so relieved 😊"),
            ("bot", "Congratulations! All that practice paid off."),
        ],
    ),
    (
        11,
        "20:15",
        [
            ("branch", "Actually, cancel the dinner with Jonas on Saturday.", "Okay, cancelled."),
            ("user", "Let's keep the dinner with Jonas on Saturday at 19:00, we decided on the Thai place."),
            ("bot", "Saturday 19:00 with Jonas at the Thai place, noted."),
            ("compact", "Maya: Lea's birthday June 14; Atlas on PostgreSQL; dentist Friday 16:30; dinner with Jonas."),
        ],
    ),
    (
        14,
        "10:00",
        [
            ("user", "On weekends I'm building a small budgeting app in Rust, called Penny. It's my side project."),
            ("bot", "Penny sounds fun. Which part are you working on first?"),
            (
                "user",
                "The import of bank statements. I'd like it to read CSV files from two banks and categorise "
                "every line automatically, with rules I can edit by hand, because the existing apps get my "
                "grocery and rent categories wrong all the time.",
            ),
            ("bot", "A rule file plus a CSV importer per bank is a good start."),
        ],
    ),
    (15, "11:00", [("heartbeat",)]),
    (
        16,
        "08:50",
        [
            ("user", "I hate long meetings before 10am. I'd rather have them after lunch."),
            ("bot", "Understood: no long meetings before 10, after lunch is better."),
        ],
    ),
    (
        18,
        "16:40",
        [
            ("user", "Remember this: the locker code for unit 12 at the climbing gym is 4417."),
            ("bot", "Saved: locker unit 12, code 4417."),
            ("heartbeat",),
        ],
    ),
    (
        21,
        "19:20",
        [
            ("user", "For Lea's birthday on June 14 let's book Trattoria Sole at 7pm. She loves their tiramisu."),
            ("bot", "I will remind you to book Trattoria Sole for June 14 at 7pm."),
        ],
    ),
    (
        22,
        "13:15",
        [
            ("user", "What kind of assistant do you think you are?"),
            ("bot", "I am Nova. I believe I work best when you give me the goal first and the details after."),
            ("user", "That matches my experience, thank you."),
        ],
    ),
    (
        23,
        "08:05",
        [
            ("user", "Flat white with oat milk again please ☕ I prefer it over cappuccino."),
            ("bot", "Coming up: oat milk flat white."),
        ],
    ),
    (
        25,
        "15:30",
        [
            ("user", "We should move the Atlas cut-over to May 12. Decided, I told the team."),
            ("bot", "Atlas cut-over moved to May 12."),
            ("heartbeat",),
        ],
    ),
    (
        27,
        "20:00",
        [
            ("user", "Quiet Sunday. Thanks for this month, you have been a great help with Atlas and Penny."),
            ("bot", "Thank you, Maya. It was a good month."),
        ],
    ),
]


def _utc(day: date, local_time: str) -> datetime:
    hour, minute = (int(x) for x in local_time.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc) - LOCAL_OFFSET


def _iso(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def _ms(when: datetime) -> int:
    return int(when.timestamp() * 1000)


@dataclass
class Session:
    """One transcript file: its id, key, lines (dicts) and first day."""

    id: str
    key: str
    day: date
    lines: list[dict] = field(default_factory=list)

    @property
    def updated(self) -> datetime:
        return datetime.fromisoformat(self.lines[-1]["timestamp"].replace("Z", "+00:00"))

    def text(self) -> str:
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)


class _Writer:
    """Builds one session's lines: ids, parent links, timestamps that move forward."""

    def __init__(self, rng: random.Random, key: str, day: date, start: datetime):
        self.rng = rng
        self.clock = start
        self.session = Session(str(uuid.UUID(int=rng.getrandbits(128), version=4)), key, day)
        self.parent: str | None = None
        self.entry("session", version=3, id=self.session.id, cwd="/home/maya", link=False)
        self.entry("model_change", provider="anthropic", modelId="claude-sonnet-4-6")
        self.entry("thinking_level_change", thinkingLevel="low")

    def tick(self, low: float = 2, high: float = 40) -> datetime:
        self.clock += timedelta(seconds=self.rng.uniform(low, high))
        return self.clock

    def entry(self, kind: str, link: bool = True, parent: str | None = None, **fields) -> str:
        line: dict[str, Any] = {"type": kind}
        entry_id = fields.pop("id", None) or f"{self.rng.getrandbits(32):08x}"
        if link:
            line.update(id=entry_id, parentId=parent if parent is not None else self.parent)
        else:
            line["id"] = entry_id
        line["timestamp"] = _iso(self.tick(0.005, 0.05) if kind != "message" else self.clock)
        line.update(fields)
        self.session.lines.append(line)
        if link:
            self.parent = entry_id
        return entry_id

    def user(self, text: str, envelope: bool = True, parent: str | None = None) -> str:
        when = self.tick(20, 240)
        content: str | list[dict[str, str]]
        if envelope:
            local = (when + LOCAL_OFFSET).strftime("%a %Y-%m-%d %H:%M")
            meta = json.dumps(USER, indent=2)
            text = f"Sender (untrusted metadata):\n```json\n{meta}\n```\n\n[{local} GMT+2] {text}"
            content = [{"type": "text", "text": text}]
        else:
            content = text
        return self.entry(
            "message", parent=parent, message={"role": "user", "content": content, "timestamp": _ms(when)}
        )

    def assistant(self, blocks: list[dict], stop: str = "stop", parent: str | None = None, **extra) -> str:
        when = self.tick(2, 12)
        tokens = sum(len(json.dumps(b)) for b in blocks) // 4 + 1
        message = {
            "role": "assistant",
            "content": blocks,
            **MODEL,
            "stopReason": stop,
            "usage": {"input": 4000 + tokens, "output": tokens, "totalTokens": 4000 + 2 * tokens},
            "timestamp": _ms(when),
            **extra,
        }
        return self.entry("message", parent=parent, message=message)

    def reply(self, *texts: str) -> str:
        blocks = [{"type": "thinking", "thinking": "Answer briefly and warmly."}]
        return self.assistant(blocks + [{"type": "text", "text": t} for t in texts])

    def tool(self, name: str, argument: str, result: str) -> None:
        call = f"call_{self.rng.getrandbits(40):010x}"
        key = "file_path" if name == "read" else "command"
        self.assistant([{"type": "toolCall", "id": call, "name": name, "arguments": {key: argument}}], "toolUse")
        when = self.tick(0.1, 1.5)
        self.entry(
            "message",
            message={
                "role": "toolResult",
                "toolCallId": call,
                "toolName": name,
                "content": [{"type": "text", "text": result}],
                "isError": False,
                "timestamp": _ms(when),
            },
        )


def _scene(writer: _Writer, turns: list[tuple]) -> None:
    pending_retry = False
    for turn in turns:
        kind = turn[0]
        if kind == "user":
            writer.user(turn[1])
            if pending_retry:
                # The first attempt failed; the user sends the same words again.
                writer.assistant([], "error", errorMessage="overloaded")
                writer.user(turn[1])
                pending_retry = False
        elif kind == "bot":
            writer.reply(*turn[1:])
        elif kind == "tool":
            writer.tool(*turn[1:])
        elif kind == "fail":
            pending_retry = True
        elif kind == "heartbeat":
            fork = writer.parent
            writer.clock += timedelta(minutes=writer.rng.randint(20, 50))
            writer.user(HEARTBEAT, envelope=False)
            writer.assistant([{"type": "text", "text": "HEARTBEAT_OK"}])
            writer.parent = fork  # the heartbeat pair is a side branch: the conversation goes on from before it
        elif kind == "branch":
            fork = writer.parent
            writer.user(turn[1])
            writer.reply(turn[2])
            writer.parent = fork  # the user edited that message: the first version stays as an abandoned branch
        elif kind == "compact":
            writer.entry("compaction", summary=turn[1], firstKeptEntryId=writer.parent, tokensBefore=48000)


def _cron_session(rng: random.Random, day: date) -> Session:
    """The skill's own scheduled run, as OpenClaw records it: never a memory."""
    writer = _Writer(rng, f"cron:{rng.getrandbits(32):08x}", day, _utc(day, "05:17"))
    prompt = "[cron:5b1e2c3d hippocampus-encoding] [hippocampus] Scheduled memory encoding. Run exactly this command:"
    writer.user(prompt + "\n\npython3 skills/hippocampus/scripts/encode.py --cron", envelope=False)
    writer.tool("exec", "python3 skills/hippocampus/scripts/encode.py --cron", "")
    writer.assistant([{"type": "text", "text": "NO_REPLY"}])
    return writer.session


def generate(start: date = START, seed: int = SEED) -> list[Session]:
    """Every session of the demo month, in time order. Deterministic for a given seed."""
    rng = random.Random(seed)
    sessions = []
    for offset, local_time, turns in SCENES:
        day = start + timedelta(days=offset)
        writer = _Writer(rng, SESSION_KEY, day, _utc(day, local_time))
        _scene(writer, turns)
        sessions.append(writer.session)
        if offset % 3 == 2 or offset in (3, 10):
            sessions.append(_cron_session(rng, day))
    sessions.sort(key=lambda s: s.lines[0]["timestamp"])
    return sessions


def write_sessions(folder: Path, sessions: list[Session]) -> None:
    """Session files plus sessions.json (session key → newest session), as OpenClaw keeps them."""
    folder.mkdir(parents=True, exist_ok=True)
    index = {}
    for session in sessions:
        path = folder / f"{session.id}.jsonl"
        path.write_text(session.text(), encoding="utf-8")
        index[session.key] = {"sessionId": session.id, "updatedAt": _ms(session.updated), "sessionFile": str(path)}
    (folder / "sessions.json").write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")


# --- running it ------------------------------------------------------------------------------------------------

IDENTITY = """# IDENTITY.md

- **Name:** Nova
- **Creature:** a helpful familiar
- **Vibe:** warm, brief, curious
- **Emoji:** 🦉
"""


@dataclass
class Paths:
    root: Path

    @property
    def workspace(self) -> Path:
        return self.root / "workspace"

    @property
    def sessions(self) -> Path:
        return self.root / "state" / "agents" / "main" / "sessions"


def prepare(root: Path) -> Paths:
    """A fresh demo folder. Only a folder made by an earlier demo (it holds the marker file) is ever emptied."""
    if root.exists() and any(root.iterdir()):
        if not (root / MARKER).exists():
            raise HippocampusError(f"{root} exists and is not a hippocampus demo folder; move it away first")
        shutil.rmtree(root)
    root.mkdir(parents=True, exist_ok=True)
    (root / MARKER).write_text("made by install.py --demo; deleted and rebuilt by the next --demo\n")
    paths = Paths(root)
    paths.workspace.mkdir(parents=True)
    (paths.workspace / "IDENTITY.md").write_text(IDENTITY, encoding="utf-8")
    return paths


def _script(skill: Path, python: str, name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [python, str(skill / "scripts" / f"{name}.py"), *args], capture_output=True, text=True, timeout=600
    )


def _check(done: subprocess.CompletedProcess, what: str) -> None:
    if done.returncode != 0:
        reason = (done.stderr or done.stdout).strip().splitlines()
        raise HippocampusError(f"demo: {what} failed (exit {done.returncode}): {reason[-1] if reason else ''}")


def run(settings, emit, root: Path | None = None) -> int:
    """Build the demo workspace, encode and decay it day by day, then show core memories, a recall, the dashboard."""
    from . import steps  # the demo workspace gets the same layout as a real one

    skill, python = settings.skill, settings.python
    root = root or skill / "demo"
    missing = [name for name in ("encode", "dashboard") if not (skill / "scripts" / f"{name}.py").exists()]
    paths = prepare(root)
    demo_settings = steps.Settings(
        skill=skill,
        workspace=paths.workspace,
        state_dir=root / "state",
        now=datetime.combine(START, datetime.min.time(), timezone.utc),
        python=python,
        first_run={"whole": True},
    )
    report = steps.InstallReport()
    for step in (steps.layout, steps.first_run):
        step(demo_settings, report)
    steps.index(demo_settings, report)
    sessions = generate()
    messages = sum(1 for s in sessions for line in s.lines if line.get("type") == "message")
    emit(f"\nDemo: {len(sessions)} generated OpenClaw sessions ({messages} messages) over {WEEKS} weeks, in {root}")
    if "encode" in missing:
        write_sessions(paths.sessions, sessions)
        emit(
            "  encoding is unavailable: scripts/encode.py is not in this copy of the skill yet, so the demo stops "
            f"here (the transcripts are in {paths.sessions})"
        )
        return 1
    ws = ["--workspace", str(paths.workspace)]
    last = START + timedelta(days=7 * WEEKS - 1)
    day = START
    while day <= last:
        today = [s for s in sessions if s.day == day]
        if today:
            write_sessions(paths.sessions, [s for s in sessions if s.day <= day])
            done = _script(
                skill, python, "encode", "--sessions", str(paths.sessions), *ws, "--now", f"{day.isoformat()}T21:59:00Z"
            )
            _check(done, f"encode.py on {day}")
        done = _script(skill, python, "decay", *ws, "--now", f"{(day + timedelta(days=1)).isoformat()}T02:43:00Z")
        _check(done, f"decay.py on {day + timedelta(days=1)}")
        if (day - START).days % 7 == 6:
            week = (day - START).days // 7 + 1
            count = len(json.loads((paths.workspace / "memory" / "index.json").read_text())["memories"])
            emit(f"  week {week} ({day}): encoded and decayed, {count} memories")
        day += timedelta(days=1)
    now = ["--now", f"{(last + timedelta(days=1)).isoformat()}T08:00:00Z"]
    done = _script(skill, python, "load_core", *ws, *now)
    _check(done, "load_core.py")
    emit("\nCore memories at the start of the next session (load_core.py):\n")
    emit(done.stdout.rstrip())
    done = _script(skill, python, "recall", *ws, *now, RECALL_QUERY, "--top", "3")
    _check(done, "recall.py")
    emit(f'\nrecall.py "{RECALL_QUERY}":\n')
    emit(done.stdout.rstrip())
    done = _script(skill, python, "recall", *ws, *now, AGENT_QUERY, "--top", "2")
    _check(done, "recall.py")
    emit(f'\nrecall.py "{AGENT_QUERY}" (what the agent said is found too, with the turn that matched):\n')
    emit(done.stdout.rstrip())
    if "dashboard" in missing:
        emit("\nThe dashboard is unavailable: scripts/dashboard.py is not in this copy of the skill yet.")
        return 1
    done = _script(skill, python, "dashboard", *ws, *now)
    _check(done, "dashboard.py")
    emit(f"\nDashboard: {paths.workspace / 'brain-dashboard.html'}")
    emit(f'Try more: python3 {skill / "scripts" / "recall.py"} --workspace {paths.workspace} "Lea birthday"')
    return 0
