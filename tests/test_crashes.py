"""SIGKILL encode, decay and install.py at every write they make — before a write, half way through one, between a
temporary file's fsync and its rename, between the index and the ledger — and at random moments. After each kill
the next run completes and the workspace holds exactly what one uninterrupted run leaves: no memory lost, none
encoded twice, the derived files current."""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import NOW, ROOT, SCRIPTS, memory, read_index, write_index
from crashing import points, run
from installing import Machine
from reliability import assert_nothing_half_written
from transcript_fixtures import conversation_sessions, write_jsonl_store

KILLED = -signal.SIGKILL
DECAY_NOW = "2026-03-09T06:00:00Z"
RANDOM_KILLS = 8


def ok(done: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert done.returncode == 0, done.stderr + done.stdout
    return done


def script(name: str, ws: Path, *args: str, now: str = NOW) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPTS / f"{name}.py"), "--workspace", str(ws), "--now", now, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def derived(ws: Path) -> dict[str, bytes]:
    """The files a reader sees: the mirrors and HIPPOCAMPUS_CORE.md (their text depends only on the index)."""
    files = {str(p.relative_to(ws)): p.read_bytes() for p in sorted((ws / "memory").glob("*/*.md"))}
    core = ws / "HIPPOCAMPUS_CORE.md"
    files["HIPPOCAMPUS_CORE.md"] = core.read_bytes() if core.exists() else b""
    return files


def stored(ws: Path) -> list[dict]:
    """The memories as stored, minus nothing: a rerun must reproduce them exactly."""
    return read_index(ws)["memories"]


def interesting(names: list[str]) -> list[int]:
    """The 1-based points worth a kill: all of them except the run of near-identical mirror writes, of which the
    first stays."""
    chosen, in_mirrors = [], False
    for number, name in enumerate(names, 1):
        mirror = name.startswith("replace ") and name.endswith(".md") and name != "replace HIPPOCAMPUS_CORE.md"
        if mirror and in_mirrors:
            continue
        if mirror:
            in_mirrors = True
        elif in_mirrors and name == "fsync":
            continue
        else:
            in_mirrors = False
        chosen.append(number)
    return chosen


# --- encode ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def encode_case(tmp_path_factory):
    """A workspace that has encoded part of the history and holds a recall touch, the whole history to encode
    next, and the result of encoding it without a kill."""
    base = tmp_path_factory.mktemp("encode-crash")
    state = base / "openclaw"
    sessions = write_jsonl_store(state, conversation_sessions())
    start = base / "start"
    (start / "memory").mkdir(parents=True)
    first = sorted(sessions.glob("*.jsonl"))[:2]
    ok(script("encode", start, "--sessions", *map(str, first)))
    hit = json.loads(ok(script("recall", start, "oat milk", "--json", now="2026-03-01T11:00:00Z")).stdout)
    assert hit["results"]
    reference = base / "reference"
    shutil.copytree(start, reference)
    ok(script("encode", reference, "--state-dir", str(state)))
    return start, state, reference, encode_points(base, start, state)


def encode_points(base, start, state, *args: str) -> list[str]:
    """The write points of encode.py (with `args`) on a copy of the workspace `start`."""
    copy = str(shutil.copytree(start, base / "count"))
    return points(base, SCRIPTS / "encode.py", "--workspace", copy, "--state-dir", str(state), *args, "--now", NOW)


def test_encode_killed_at_every_write_loses_nothing_and_doubles_nothing(tmp_path, encode_case):
    start, state, reference, names = encode_case
    chosen = interesting(names)
    assert len(chosen) >= 15 and {"ledger commit", "ledger note_encoded", "replace index.json"} <= set(names)
    cases = [(n, "kill") for n in chosen] + [(n, "torn") for n, name in enumerate(names, 1) if name == "write"]
    print(f"\nencode: {len(cases)} kills at exact points of {len(names)}")
    for number, mode in cases:
        ws = tmp_path / f"ws-{number}-{mode}"
        shutil.copytree(start, ws)
        done, where = run(
            tmp_path,
            mode,
            number,
            SCRIPTS / "encode.py",
            "--workspace",
            str(ws),
            "--state-dir",
            str(state),
            "--now",
            NOW,
        )
        assert done.returncode == KILLED, (number, done.stderr)
        ok(script("encode", ws, "--state-dir", str(state)))
        context = f"killed at point {number} ({where}, {mode})"
        assert stored(ws) == stored(reference), context
        assert derived(ws) == derived(reference), context
        assert_nothing_half_written(ws)
        ok(script("encode", ws, "--state-dir", str(state)))
        assert stored(ws) == stored(reference), context + ", then run twice"


@pytest.fixture(scope="module", params=["old-skill", "encoded"])
def decay_case(request, tmp_path_factory, encode_case):
    """An old skill's index, or one this version wrote (with its search cache), with touches waiting to be folded
    in; and the result of one decay without a kill."""
    base = tmp_path_factory.mktemp("decay-crash")
    start = base / "start"
    if request.param == "old-skill":
        write_index(
            start,
            [
                memory(
                    f"mem_{n:03d}",
                    f"Fact number {n} about the harbour",
                    0.3 + n / 50,
                    lastAccessed=f"2026-02-{1 + n % 20:02d}",
                )
                for n in range(1, 31)
            ],
            lastUpdated="2026-02-20T19:00:00",
            decayLastRun="2026-02-20",
        )
    else:
        shutil.copytree(encode_case[2], start)
    (start / "memory" / "touches.jsonl").write_text(
        json.dumps({"ts": "2026-03-02T10:00:00Z", "ids": ["mem_003", "mem_005"]}) + "\n"
    )
    reference = base / "reference"
    shutil.copytree(start, reference)
    ok(script("decay", reference, now=DECAY_NOW))
    names = points(
        base, SCRIPTS / "decay.py", "--workspace", str(shutil.copytree(start, base / "count")), "--now", DECAY_NOW
    )
    return start, reference, names


def test_decay_killed_at_every_write_keeps_every_memory_and_refreshes_what_it_did_not(tmp_path, decay_case):
    start, reference, names = decay_case
    assert {"replace index.json", "replace HIPPOCAMPUS_CORE.md", "replace brain-dashboard.html"} <= set(names)
    cases = [(n, "kill") for n in range(1, len(names) + 1)]
    cases += [(n, "torn") for n, name in enumerate(names, 1) if name == "write"]
    print(f"\ndecay: {len(cases)} kills at exact points of {len(names)}")
    for number, mode in cases:
        ws = tmp_path / f"ws-{number}-{mode}"
        shutil.copytree(start, ws)
        done, where = run(tmp_path, mode, number, SCRIPTS / "decay.py", "--workspace", str(ws), "--now", DECAY_NOW)
        assert done.returncode == KILLED, (number, done.stderr)
        ok(script("decay", ws, now=DECAY_NOW))
        context = f"killed at point {number} ({where}, {mode})"
        assert read_index(ws) == read_index(reference), context
        assert derived(ws) == derived(reference), context
        assert (ws / "brain-dashboard.html").exists(), context
        assert_nothing_half_written(ws)
        if read_index(start)["version"] == 1:
            assert (ws / "memory" / "backups" / "index.v1.original.json").read_bytes() == (
                start / "memory" / "index.json"
            ).read_bytes(), context


# --- install.py -----------------------------------------------------------------------------------------------

OLD_AGENTS = "# AGENTS.md\n\n## Every Session\n1. Run `~/.openclaw/workspace/skills/hippocampus/scripts/load-core.sh`\n"


def old_skill_machine(base: Path) -> Machine:
    machine = Machine(base)
    machine.workspace.mkdir(parents=True)
    write_index(
        machine.workspace,
        [
            memory("mem_001", "User prefers concise responses", 0.85),
            memory("mem_007", "Lea's birthday is on June 14", 0.9),
        ],
        lastUpdated="2026-01-20T19:00:00",
        decayLastRun="2026-01-20",
    )
    (machine.workspace / "AGENTS.md").write_text(OLD_AGENTS)
    (machine.state / "openclaw.json").write_text(json.dumps({"gateway": {"port": 18789}}, indent=2) + "\n")
    return machine


def test_install_killed_at_every_write_then_run_again_keeps_every_memory_and_finishes(tmp_path):
    reference = old_skill_machine(tmp_path / "reference")
    ok(reference.install("--now", NOW))
    counted = old_skill_machine(tmp_path / "count")
    names = points(counted.base, ROOT / "install.py", "--now", NOW, env=counted.env(), cwd=counted.base)
    chosen = [n for n, name in enumerate(names, 1) if name.startswith("replace ")]
    assert len(chosen) >= 10 and "replace index.json" in names
    print(f"\ninstall: {len(chosen)} kills at exact points of {len(names)}")
    for number in chosen:
        machine = old_skill_machine(tmp_path / f"m-{number}")
        original = (machine.workspace / "memory" / "index.json").read_bytes()
        done, where = run(
            machine.base, "kill", number, ROOT / "install.py", "--now", NOW, env=machine.env(), cwd=machine.base
        )
        assert done.returncode == KILLED, (number, done.stderr)
        ok(machine.install("--now", NOW))
        context = f"killed at point {number} ({where})"
        ws = machine.workspace
        assert read_index(ws) == read_index(reference.workspace), context
        assert (ws / "memory" / "backups" / "index.v1.original.json").read_bytes() == original, context
        assert derived(ws) == derived(reference.workspace), context
        agents = (ws / "AGENTS.md").read_text()
        assert agents.count("<!-- hippocampus:start -->") == 1 and "load-core.sh" not in agents, context
        paths = json.loads((machine.state / "openclaw.json").read_text())
        assert paths == json.loads((reference.state / "openclaw.json").read_text()), context
        assert_nothing_half_written(ws)
        assert not list(machine.state.glob("*.tmp")), context


# --- at random moments ----------------------------------------------------------------------------------------


def test_encode_and_decay_killed_at_random_moments_leave_what_uninterrupted_runs_leave(tmp_path, encode_case):
    start, state, reference, _ = encode_case
    clean = tmp_path / "clean"
    shutil.copytree(start, clean)
    took = {}
    jobs = (("encode", NOW, ["--state-dir", str(state)]), ("decay", DECAY_NOW, []))
    for name, now, extra in jobs:
        began = time.monotonic()
        ok(script(name, clean, *extra, now=now))
        took[name] = time.monotonic() - began
    ws = tmp_path / "ws"
    shutil.copytree(start, ws)
    rng = random.Random(11)
    kills = 0
    for name, now, extra in jobs:
        for _ in range(RANDOM_KILLS):
            process = subprocess.Popen(
                [sys.executable, str(SCRIPTS / f"{name}.py"), "--workspace", str(ws), "--now", now, *extra],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            time.sleep(rng.uniform(0.3, 1.0) * took[name])
            process.send_signal(signal.SIGKILL)
            kills += process.wait() == KILLED
        ok(script(name, ws, *extra, now=now))
    # Of 2 × RANDOM_KILLS runs, those that ended before their kill (a later one has less left to do) do not count;
    # how many that are depends on the machine's load, so only that some kills landed is required.
    assert kills >= 2
    assert stored(ws) == stored(clean)
    assert derived(ws) == derived(clean)
    assert_nothing_half_written(ws)
