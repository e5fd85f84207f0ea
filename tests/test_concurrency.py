"""Many processes at once on one workspace: encodes of different transcripts, decays, recalls that touch memories,
sync_core, load_core, the dashboard and log_event, for a bounded time. Afterwards the store holds every memory every
encode reported, each once, every touch applied, and nothing written half."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta

from conftest import NOW, ROOT, SCRIPTS, run_script
from reliability import (
    LOCK_GRABBER,
    assert_each_once,
    assert_nothing_half_written,
    fact,
    memories_of,
    session_with_facts,
    start_of,
)

from hippocampus.timeutil import parse_instant
from hippocampus.workspace import Workspace
from hippocampus.store import indexfile, touches

STORM_SECONDS = 14
ENCODERS = 3
RECALLERS = 2


def script(name: str, *args: str, ws) -> subprocess.CompletedProcess:
    command = [sys.executable, str(SCRIPTS / f"{name}.py"), *args, "--workspace", str(ws)]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=150)


class Storm:
    """Workers that each run one kind of script in a loop until the deadline; every run is recorded."""

    def __init__(self, ws, transcripts, seconds: float):
        self.ws = ws
        self.transcripts = transcripts
        self.deadline = time.monotonic() + seconds
        self.lock = threading.Lock()
        self.runs: list[tuple[str, subprocess.CompletedProcess]] = []
        self.tokens: list[str] = []
        self.encoded: list[dict] = []
        self.touched: list[tuple[datetime, list[str]]] = []

    def record(self, kind: str, done: subprocess.CompletedProcess) -> None:
        with self.lock:
            self.runs.append((kind, done))

    def encoder(self, worker: int) -> None:
        rng = random.Random(worker)
        number = 0
        while time.monotonic() < self.deadline:
            number += 1
            tokens = [f"tok{worker}x{number}x{k}" for k in range(2)]
            session = session_with_facts(
                f"w{worker}-s{number}", start_of(1 + number % 27), [fact(rng, t) for t in tokens]
            )
            path = session.write(self.transcripts / f"w{worker}")
            done = script("encode", "--sessions", str(path), "--json", "--now", NOW, ws=self.ws)
            self.record("encode", done)
            if done.returncode == 0:
                with self.lock:
                    self.tokens += tokens
                    self.encoded.append(json.loads(done.stdout))

    def recaller(self, worker: int) -> None:
        rng = random.Random(100 + worker)
        hour = 0
        while time.monotonic() < self.deadline:
            hour += 1
            with self.lock:
                known = list(self.tokens)
            query = rng.choice(known) if known and rng.random() < 0.7 else "kept beside"
            now = parse_instant(NOW) + timedelta(hours=hour, minutes=worker)
            done = script("recall", query, "--json", "--top", "3", "--now", now.isoformat(), ws=self.ws)
            self.record("recall", done)
            if done.returncode == 0:
                ids = [hit["id"] for hit in json.loads(done.stdout)["results"]]
                if ids:
                    with self.lock:
                        self.touched.append((now, ids))

    def decayer(self) -> None:
        day = 0
        while time.monotonic() < self.deadline:
            now = parse_instant(NOW) + timedelta(days=day % 5)
            day += 1
            self.record("decay", script("decay", "--now", now.isoformat(), ws=self.ws))

    def publisher(self) -> None:
        rng = random.Random(7)
        jobs = [
            ("sync_core",),
            ("load_core",),
            ("dashboard",),
            ("log_event", "tried", 'value="quoted" \\ and\nnewline', "n=3", "odd=\u2028\u00e9\U0001f600"),
        ]
        while time.monotonic() < self.deadline:
            name, *args = rng.choice(jobs)
            self.record(name, script(name, *args, "--now", NOW, ws=self.ws))

    def run(self) -> None:
        workers = [threading.Thread(target=self.encoder, args=(w,)) for w in range(ENCODERS)]
        workers += [threading.Thread(target=self.recaller, args=(w,)) for w in range(RECALLERS)]
        workers += [threading.Thread(target=self.decayer), threading.Thread(target=self.publisher)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()


def test_many_processes_at_once_lose_no_memory_no_touch_and_write_nothing_half(workspace, tmp_path):
    storm = Storm(workspace, tmp_path / "transcripts", STORM_SECONDS)
    storm.run()

    failed = [(kind, done.returncode, done.stderr[-400:]) for kind, done in storm.runs if done.returncode != 0]
    assert not failed, failed
    kinds = {kind for kind, _ in storm.runs}
    assert {"encode", "recall", "decay", "sync_core", "load_core", "dashboard", "log_event"} <= kinds
    assert len(storm.tokens) >= 2 * ENCODERS and storm.touched

    stored = assert_each_once(workspace, storm.tokens)
    assert len(stored) == sum(report["new"] for report in storm.encoded)
    # Every touch is recorded at once (the next writer folds it in), and is in index.json itself after the next write.
    index = indexfile.load(Workspace(workspace)).index
    touches.fold(index, touches.read(Workspace(workspace))[0])
    for when, ids in storm.touched:
        for memory in (m for m in index.memories if m.id in ids):
            assert parse_instant(memory.lastAccessed) >= when, (memory.id, when)
    assert run_script("decay", ws=workspace, now="2026-03-07T00:00:00Z").returncode == 0
    by_id = {m["id"]: m for m in memories_of(workspace)}
    for when, ids in storm.touched:
        for memory_id in ids:
            assert parse_instant(by_id[memory_id]["lastAccessed"]) >= when, (memory_id, when)
    assert_nothing_half_written(workspace)
    assert (workspace / "memory" / "touches.jsonl").read_bytes() == b""
    # The Markdown mirrors OpenClaw searches hold every memory of the final index.
    mirrored = "".join(p.read_text(encoding="utf-8") for p in (workspace / "memory").glob("*/*.md"))
    assert [m["id"] for m in stored if f"· {m['id']}" not in mirrored] == []
    per_kind = ", ".join(f"{k} {sum(1 for r in storm.runs if r[0] == k)}" for k in sorted(kinds))
    print(
        f"\nstorm: {len(storm.runs)} runs ({per_kind}), "
        f"{len(stored)} memories, {sum(len(i) for _, i in storm.touched)} touches"
    )


BETWEEN = r"""
import os, runpy, subprocess, sys, time
scripts, grabber, lock, got, *argv = sys.argv[1:]
sys.path.insert(0, scripts)
from hippocampus.ingestion import runs
real = runs._tidy
def tidy(*args, **kwargs):
    # Between this run's save and its tidy-up, another process asks for the workspace lock (and holds it for two
    # seconds once it has it); this run goes on when the other has it, or after a second and a half.
    subprocess.Popen([sys.executable, "-c", grabber, "-", lock, got + ".ready", got])
    deadline = time.monotonic() + 1.5
    while not os.path.exists(got) and time.monotonic() < deadline:
        time.sleep(0.005)
    return real(*args, **kwargs)
runs._tidy = tidy
sys.argv = argv
runpy.run_path(argv[0], run_name="__main__")
"""


def test_no_other_run_gets_the_lock_between_an_encode_s_save_and_its_tidy_up(workspace, tmp_path):
    # A cron run (which skips when the lock is taken) keeps it from loading the index to publishing: it finishes,
    # logs its event and publishes its memories, and the other process gets the lock only afterwards.
    rng = random.Random(3)
    first = session_with_facts("first", start_of(2), [fact(rng, "tokfirst")]).write(tmp_path / "t")
    assert run_script("encode", "--sessions", str(first), ws=workspace).returncode == 0
    second = session_with_facts("second", start_of(3), [fact(rng, "toksecond")]).write(tmp_path / "t2")
    driver = tmp_path / "between.py"
    driver.write_text(BETWEEN)
    got = tmp_path / "other-got-the-lock"
    done = subprocess.run(
        [
            sys.executable,
            str(driver),
            str(SCRIPTS),
            LOCK_GRABBER,
            str(workspace / "memory" / ".hippocampus.lock"),
            str(got),
            str(SCRIPTS / "encode.py"),
            "--workspace",
            str(workspace),
            "--sessions",
            str(second),
            "--cron",
            "--now",
            NOW,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    deadline = time.monotonic() + 10
    while not got.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    # The other process got the lock, and only after this run had published.
    assert got.exists() and got.stat().st_mtime_ns >= (workspace / "HIPPOCAMPUS_CORE.md").stat().st_mtime_ns
    events = [json.loads(line) for line in (workspace / "memory" / "brain-events.jsonl").read_text().splitlines()]
    assert [e["event"] for e in events].count("encoding") == 2
    assert_each_once(workspace, ["tokfirst", "toksecond"])
    mirrored = "".join(p.read_text(encoding="utf-8") for p in (workspace / "memory").glob("*/*.md"))
    core = (workspace / "HIPPOCAMPUS_CORE.md").read_text(encoding="utf-8")
    assert "tokfirst" in mirrored and "toksecond" in mirrored
    assert "tokfirst" in core and "toksecond" in core
