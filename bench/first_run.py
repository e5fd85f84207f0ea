#!/usr/bin/env python3
"""A first run over a long history: encode.py taking a year of chats in one go, timed as a whole process.

Generates a year of OpenClaw conversations (`--messages` in all, default 20,000): one or two sessions a day,
owner and agent turns of mixed lengths — "ok", one-liners, preferences and decisions said again weeks later,
paragraphs, pasted logs — with the channel envelope and local time stamp OpenClaw puts on each owner turn, tool
calls and results, heartbeats, cron runs and a group chat where other people write. As session files (`--shape
jsonl`, the default) or as the SQLite store OpenClaw 2026.9.6 writes (`--shape sqlite`: its `transcript_events`
table, keyed by session and sequence, events of 1,024 bytes or more zstd-compressed when that saves 10 %).

Then, in fresh processes, each measured for wall time and peak memory (max RSS):
  floor       python, reading every transcript line and json.loads of each (nothing else; a compressed row is
              decompressed first)
  preprocess  preprocess.py alone, on a fresh workspace (the reading side)
  encode      encode.py --no-preprocess on that workspace (the encoding side)
  first run   encode.py on a fresh workspace, as the first cron run does: both sides, the whole history

and prints each (wall time, and CPU time, which other work on the machine disturbs less) as a ratio to the
floor — each run to a run of the floor just before it, the median of those (target for the first run: ≤ 60 × the
floor) and its peak memory (target: under 200 MB, whatever the
history's size: try --messages 60000). Nothing is asserted: it prints.

Usage: python3 bench/first_run.py [--messages 20000] [--shape jsonl|sqlite] [--runs 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import scale  # noqa: E402
from scale import VOCABULARY, cache_bytecode, zipf_words  # noqa: E402  the same long-tailed vocabulary as the store benchmark

SCRIPTS = ROOT / "scripts"
START = datetime(2025, 11, 1, 7, 0, tzinfo=timezone.utc)
NOW = START + timedelta(days=366)

NAMES = "Ana Ben Chen Eli Farah Goran Hana Ivo Jun Kai Lena Mara Nils Omar Pia Quinn Rosa Sami Tara Udo".split()
PLACES = "Lisbon Berlin Osaka Porto Denver Lyon Quito Tartu Cork Kyoto Oslo Pune Bergen Malmo Sintra".split()
OWNER = {"label": "telegram", "id": "81234", "name": "Dana", "username": "dana"}
STRANGERS = [{"label": "telegram", "id": str(55500 + n), "name": name} for n, name in enumerate(NAMES[:6])]
# Facts the owner says again weeks apart (the store reinforces them instead of growing).
RECURRING = [
    "I prefer oat milk flat whites in the morning",
    "Remember that my sister {n} lives in {p} and visits every {m}",
    "We decided to ship the {w} release on Fridays only",
    "I'm working on the {w} {w} project with {n} this quarter",
    "My gym locker code is {k}, remember it",
    "I always take the 8:10 train to {p} on Mondays",
]
OPENERS = scale.OPENERS + ["I think", "Can you", "Please", "The", "Our", "I need to", "I love"]


class Chat:
    """Random chat text of realistic lengths."""

    def __init__(self, seed: int, vocabulary: int | None = None):
        """`vocabulary`: how many of the commonest words are said (default all)."""
        self.rng = random.Random(seed)
        self.stream = zipf_words(self.rng, vocabulary)  # real chat words: a few common, most rare (Zipf)

    def words(self, low: int, high: int) -> str:
        return " ".join(next(self.stream) for _ in range(self.rng.randint(low, high)))

    def fill(self, template: str) -> str:
        rng = self.rng
        out = template
        while "{" in out:
            out = (
                out.replace("{w}", rng.choice(VOCABULARY), 1)
                .replace("{n}", rng.choice(NAMES), 1)
                .replace("{p}", rng.choice(PLACES), 1)
                .replace("{k}", str(rng.randint(1000, 9999)), 1)
                .replace("{m}", rng.choice(["spring", "summer", "autumn", "winter"]), 1)
            )
        return out

    def owner_text(self) -> str:
        rng = self.rng
        kind = rng.random()
        if kind < 0.20:
            return rng.choice(
                [
                    "ok",
                    "thanks!",
                    "yes please",
                    "no",
                    "sounds good",
                    "hmm",
                    "lol",
                    "great, thanks",
                    "not now",
                    "later maybe",
                ]
            )
        if kind < 0.30:
            return self.fill(rng.choice(RECURRING))
        if kind < 0.45:
            return f"{rng.choice(OPENERS)} the {self.words(2, 6)}?"
        if kind < 0.90:
            text = f"{rng.choice(OPENERS)} {self.words(5, 25)}"
            if rng.random() < 0.4:
                text += f" with {rng.choice(NAMES)} in {rng.choice(PLACES)} on {rng.randint(1, 28)} March"
            return text + "."
        if kind < 0.97:
            return " ".join(f"{rng.choice(OPENERS)} {self.words(8, 30)}." for _ in range(rng.randint(3, 12)))
        lines = [
            f"2026-01-{rng.randint(1, 28):02d} 12:{rng.randint(0, 59):02d}:01 ERROR {self.words(3, 9)}"
            for _ in range(rng.randint(20, 120))
        ]
        return "Here is the log:\n" + "\n".join(lines)

    def agent_text(self) -> str:
        rng = self.rng
        if rng.random() < 0.6:
            return f"{rng.choice(['Sure', 'Noted', 'Done', 'Got it', 'Okay'])}. {self.words(3, 20)}."
        return " ".join(f"{self.words(6, 24).capitalize()}." for _ in range(rng.randint(2, 10)))


def envelope(sender: dict, when: datetime, group: bool) -> str:
    out = ""
    if group:
        out += (
            "Conversation info (untrusted metadata):\n```json\n"
            + json.dumps({"chat_type": "group", "group_subject": "Climbing crew"}, indent=2)
            + "\n```\n\n"
        )
    local = when + timedelta(hours=1)
    return (
        out
        + "Sender (untrusted metadata):\n```json\n"
        + json.dumps(sender, indent=2)
        + "\n```\n\n"
        + f"[{local.strftime('%a %Y-%m-%d %H:%M')} GMT+1] "
    )


def uuid(rng: random.Random) -> str:
    value = f"{rng.getrandbits(128):032x}"
    return f"{value[:8]}-{value[8:12]}-4{value[13:16]}-8{value[17:20]}-{value[20:]}"


def sessions(
    total: int,
    seed: int = 5,
    lengths: tuple[int, int] = (10, 100),
    pause: float = 0.0,
    direct: bool = False,
    vocabulary: int | None = None,
):
    """(session id, session key, [events as dicts]) for a year of chats holding `total` messages in all, in the
    event shapes OpenClaw 2026.9.6 writes (see ../shared/data/openclaw-2026.9.6/): a version 4 header, model and
    thinking-level changes, a model snapshot, then messages with ids, parents, `__openclaw` and, for the agent's,
    usage and cost. A session holds `lengths` messages (at random between the two); after a turn, with chance
    `pause`, nothing is said for 3 to 14 hours (a night); `direct`: every session is the owner's direct chat;
    `vocabulary`: how many of the commonest words are said (default all)."""
    chat = Chat(seed, vocabulary)
    rng = chat.rng
    days = 366
    made = 0
    number = 0
    while made < total:
        day = number % days
        number += 1
        when = START + timedelta(days=day, hours=rng.randint(0, 14), minutes=rng.randint(0, 59))
        group = not direct and rng.random() < 0.08
        cron = not direct and not group and rng.random() < 0.04
        session_id = uuid(rng)
        key = (
            f"agent:main:telegram:group:-100{number}"
            if group
            else f"agent:main:cron:{number:x}"
            if cron
            else f"agent:main:telegram:direct:81234:{number}"
        )
        first, second, third = uuid(rng), uuid(rng), uuid(rng)
        model = {"provider": "anthropic", "modelId": "claude-sonnet-4-6"}
        lines = [
            {
                "type": "session",
                "version": 4,
                "id": session_id,
                "timestamp": stamp(when),
                "cwd": "/home/dana/.openclaw/workspace",
            },
            {"type": "model_change", **model, "id": first, "parentId": None, "timestamp": stamp(when)},
            {
                "type": "thinking_level_change",
                "thinkingLevel": "off",
                "id": second,
                "parentId": first,
                "timestamp": stamp(when),
            },
            {
                "type": "custom",
                "customType": "model-snapshot",
                "data": {
                    "timestamp": int(when.timestamp() * 1000),
                    "provider": "anthropic",
                    "modelApi": "anthropic-messages",
                    "modelId": "claude-sonnet-4-6",
                },
                "id": third,
                "parentId": second,
                "timestamp": stamp(when),
            },
        ]
        parent = third
        run = uuid(rng)
        count = min(total - made, rng.randint(*lengths))
        for turn in range(count):
            when += timedelta(seconds=rng.randint(5, 600))
            if pause and rng.random() < pause:
                when += timedelta(hours=rng.randint(3, 14))
            entry = uuid(rng)
            role = "user" if turn % 2 == 0 else "assistant"
            if role == "user":
                run = uuid(rng)
                if cron:
                    content = f"[cron:{number:x} hippocampus-encoding] Run the encoding and report problems only."
                    message = {"role": "user", "content": content, "__openclaw": {"senderIsOwner": False}}
                elif rng.random() < 0.03:
                    message = {
                        "role": "user",
                        "content": "[OpenClaw heartbeat poll]",
                        "provenance": {"kind": "internal_system", "sourceTool": "heartbeat"},
                        "__openclaw": {"senderIsOwner": False},
                    }
                else:
                    sender = rng.choice(STRANGERS) if group else OWNER
                    text = envelope(sender, when, group) + chat.owner_text()
                    message = {
                        "role": "user",
                        "content": text if rng.random() < 0.5 else [{"type": "text", "text": text}],
                        "__openclaw": {"senderIsOwner": not group},
                    }
                message["idempotencyKey"] = f"{run}:user"
            else:
                content = [{"type": "text", "text": chat.agent_text()}]
                if rng.random() < 0.1:
                    content.append(
                        {
                            "type": "toolCall",
                            "id": f"call_{entry[:8]}",
                            "name": "read",
                            "arguments": {"file_path": "/home/dana/notes.md"},
                        }
                    )
                tokens = rng.randint(200, 9000), rng.randint(5, 900)
                message = {
                    "role": "assistant",
                    "content": content,
                    "api": "anthropic-messages",
                    "provider": "anthropic",
                    "model": "claude-sonnet-4-6",
                    "usage": {
                        "input": tokens[0],
                        "output": tokens[1],
                        "cacheRead": 0,
                        "cacheWrite": 0,
                        "totalTokens": sum(tokens),
                        "cost": {
                            "input": round(tokens[0] * 3e-6, 6),
                            "output": round(tokens[1] * 15e-6, 6),
                            "cacheRead": 0,
                            "cacheWrite": 0,
                            "total": round(tokens[0] * 3e-6 + tokens[1] * 15e-6, 6),
                        },
                    },
                    "stopReason": "toolUse" if len(content) > 1 else "stop",
                    "responseId": f"msg_{rng.getrandbits(96):024x}",
                    "__openclaw": {"runId": run},
                }
            message["timestamp"] = int(when.timestamp() * 1000)
            lines.append(
                {"type": "message", "id": entry, "parentId": parent, "timestamp": stamp(when), "message": message}
            )
            parent = entry
            if role == "assistant" and len(message["content"]) > 1:
                result = uuid(rng)
                lines.append(
                    {
                        "type": "message",
                        "id": result,
                        "parentId": parent,
                        "timestamp": stamp(when),
                        "message": {
                            "role": "toolResult",
                            "toolCallId": f"call_{entry[:8]}",
                            "toolName": "read",
                            "content": [{"type": "text", "text": chat.words(20, 200)}],
                            "isError": False,
                            "timestamp": int(when.timestamp() * 1000),
                        },
                    }
                )
                parent = result
        made += count
        yield session_id, key, lines


def stamp(when: datetime) -> str:
    return when.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def zstd_codec():
    """Python 3.14's zstd, else the backports.zstd package (a runtime dependency before 3.14)."""
    try:
        from compression import zstd  # type: ignore[import-not-found]
    except ImportError:
        from backports import zstd
    return zstd


def stored_event(line: dict) -> tuple:
    """(event_json, created_at, event_zstd, event_utf8_bytes, navigation_json) of one event as OpenClaw 2026.9.6
    stores it: compressed when its JSON is at least 1,024 bytes and compresses by at least 10 %."""
    text = json.dumps(line)
    raw = text.encode("utf-8")
    created = int(datetime.fromisoformat(line["timestamp"].replace("Z", "+00:00")).timestamp() * 1000)
    if len(raw) >= 1024:
        packed = zstd_codec().compress(raw)
        if len(packed) <= 0.9 * len(raw):
            return None, created, packed, len(raw), '{"version": 1}'
    return text, created, None, None, None


def write_history(state: Path, total: int, shape: str, **chats) -> list[Path]:
    """Write the history under an OpenClaw state dir; returns the files holding transcript lines. `chats`: how
    `sessions` makes them."""
    folder = state / "agents" / "main" / "sessions"
    folder.mkdir(parents=True)
    index = {}
    files = []
    database = None
    if shape == "sqlite":
        path = state / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
        path.parent.mkdir(parents=True)
        database = sqlite3.connect(path)
        database.execute("PRAGMA journal_mode=WAL")
        # The columns and key of OpenClaw 2026.9.6's table (../shared/data/openclaw-2026.9.6/README.md).
        database.execute(
            "CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, "
            "created_at INTEGER NOT NULL, event_zstd BLOB, event_utf8_bytes INTEGER, navigation_json TEXT, "
            "PRIMARY KEY (session_id, seq))"
        )
        files.append(path)
    for session_id, key, lines in sessions(total, **chats):
        index[key] = {"sessionId": session_id, "updatedAt": 1770000000000, "sessionFile": f"{session_id}.jsonl"}
        if database is not None:
            database.executemany(
                "INSERT INTO transcript_events VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(session_id, seq, *stored_event(line)) for seq, line in enumerate(lines, 1)],
            )
        else:
            path = folder / f"{session_id}.jsonl"
            path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
            files.append(path)
    if database is not None:
        database.commit()
        database.close()
    (folder / "sessions.json").write_text(json.dumps(index), encoding="utf-8")
    return files


FLOOR = r"""
import json, sqlite3, sys
for name in sys.argv[1:]:
    if name.endswith(".sqlite"):
        try:
            from compression import zstd
        except ImportError:
            from backports import zstd
        db = sqlite3.connect(f"file:{name}?mode=ro", uri=True)
        for text, packed in db.execute("SELECT event_json, event_zstd FROM transcript_events"):
            json.loads(text if text is not None else zstd.decompress(packed))
        db.close()
    else:
        with open(name, encoding="utf-8") as handle:
            for line in handle:
                json.loads(line)
"""


def measure(command: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS MiB) of one process, which must succeed. CPU time (user + system)
    changes less than wall time when other work shares the machine."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command[:3])} failed: {proc.stderr.read().decode()[-500:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def script(name: str, ws: Path, state: Path, *args: str) -> list[str]:
    return [
        sys.executable,
        str(SCRIPTS / f"{name}.py"),
        "--workspace",
        str(ws),
        "--state-dir",
        str(state),
        "--now",
        NOW.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "--cron",
        *args,
    ]


def fresh(workdir: Path, name: str) -> Path:
    ws = workdir / name
    shutil.rmtree(ws, ignore_errors=True)
    (ws / "memory").mkdir(parents=True)
    return ws


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20_000, help="messages in the history (default 20000)")
    parser.add_argument("--shape", choices=("jsonl", "sqlite"), default="jsonl", help="session files or SQLite")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (median wall, max peak)")
    parser.add_argument("--keep", metavar="DIR", help="work here and keep it")
    args = parser.parse_args()
    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="hippocampus-first-run-"))
    workdir.mkdir(parents=True, exist_ok=True)
    cache_bytecode()
    try:
        state = workdir / "openclaw"
        shutil.rmtree(state, ignore_errors=True)
        files = write_history(state, args.messages, args.shape)
        lines = sum(1 for p in files if p.suffix == ".jsonl" for _ in open(p, encoding="utf-8"))
        size = sum(p.stat().st_size for p in files) / 2**20
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, {sys.platform}")
        count = len(json.loads((state / "agents" / "main" / "sessions" / "sessions.json").read_text()))
        print(
            f"history: {args.messages:,} messages in {count:,} sessions ({args.shape}), {size:.1f} MiB"
            + (f", {lines:,} lines" if lines else "")
        )
        rows = []
        floors: list[tuple[float, float, float]] = []  # (wall, CPU, peak) of every run of the floor

        def floor_run() -> list[str]:
            return [sys.executable, "-c", FLOOR, *map(str, files)]

        def run(what: str, make) -> None:
            # Each run is paired with a run of the floor just before it, and its ratios are to that floor: the speed
            # of a shared machine drifts within minutes, and a floor measured once, minutes before, would move every
            # ratio with it.
            walls, cpus, peaks, ratios = [], [], [], []
            for _ in range(args.runs):
                floor_wall, floor_cpu, floor_peak = measure(floor_run())
                floors.append((floor_wall, floor_cpu, floor_peak))
                wall, cpu, peak = measure(make())
                walls.append(wall)
                cpus.append(cpu)
                peaks.append(peak)
                ratios.append((wall / floor_wall, cpu / floor_cpu))
            wall_ratio = statistics.median(r[0] for r in ratios)
            cpu_ratio = statistics.median(r[1] for r in ratios)
            rows.append((what, statistics.median(walls), wall_ratio, statistics.median(cpus), cpu_ratio, max(peaks)))

        def preprocess_only():
            return script("preprocess", fresh(workdir, "pre"), state)

        run("preprocess.py (reading)", preprocess_only)
        queued = fresh(workdir, "queued")
        subprocess.run(script("preprocess", queued, state), check=True, capture_output=True)
        template = workdir / "queued-template"
        shutil.rmtree(template, ignore_errors=True)
        shutil.copytree(queued, template)

        def encode_only():
            shutil.rmtree(queued)
            shutil.copytree(template, queued)
            return script("encode", queued, state, "--no-preprocess")

        run("encode.py --no-preprocess (encoding)", encode_only)
        run("encode.py, first run (both)", lambda: script("encode", fresh(workdir, "first"), state))
        stored = json.loads((workdir / "first" / "memory" / "index.json").read_text())["memories"]
        floor_row = (
            "floor: python + json.loads of every line",
            statistics.median(f[0] for f in floors),
            1.0,
            statistics.median(f[1] for f in floors),
            1.0,
            max(f[2] for f in floors),
        )
        rows.insert(0, floor_row)  # its runs are those paired with the others
        print()
        print("| what | wall s | × floor | CPU s | × floor CPU | peak MiB |")
        print("|---|---:|---:|---:|---:|---:|")
        for what, wall, wall_ratio, cpu, cpu_ratio, peak in rows:
            print(f"| {what} | {wall:.2f} | {wall_ratio:.1f} | {cpu:.2f} | {cpu_ratio:.1f} | {peak:.0f} |")
        cpu_floors = sorted(f[1] for f in floors)
        print()
        print(
            f"ratios: the median over the runs of each run to the floor run just before it; the floor's CPU time ranged"
            f" {cpu_floors[0]:.2f}-{cpu_floors[-1]:.2f} s over its {len(floors)} runs"
        )
        print(
            f"first run: {len(stored):,} memories from {args.messages:,} messages; target ≤ 60 × floor, peak < 200 MB"
        )
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
