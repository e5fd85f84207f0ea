"""A full disk or a read-only workspace during a write: the old index stays as it was, the script says so in one
line, and once the trouble is gone the next run loses nothing. Real file systems, not mocks: a small tmpfs and a
read-only bind mount where this machine allows mounting, and always a file size limit (RLIMIT_FSIZE), which makes
real writes fail the way a full disk does."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import NOW, ROOT, SCRIPTS, read_index, run_script
from reliability import assert_nothing_half_written, fact, session_with_facts, start_of
from transcript_fixtures import conversation_sessions, write_jsonl_store

import random


def can_mount() -> str | None:
    """None when this process may mount file systems, else why not."""
    if os.geteuid() != 0:
        return "mounting needs root"
    if not shutil.which("mount"):
        return "no mount(8) on PATH"
    return None


def mount(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["mount", *args], capture_output=True, text=True)


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs, unmounted afterwards."""
    why = can_mount()
    folder = tmp_path / "small"
    folder.mkdir()
    if why is None:
        done = mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder))
        why = None if done.returncode == 0 else f"mount -t tmpfs failed: {done.stderr.strip()}"
    if why is not None:
        pytest.skip(why)
    yield folder
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder: Path) -> Path:
    """Fill the file system under `folder` to the last byte."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as out:
        for size in (65536, 1):
            try:
                while out.write(b"\0" * size):
                    pass
            except OSError:
                pass
    return filler


def pipeline_workspace(root: Path) -> tuple[Path, Path]:
    """A workspace that has encoded three weeks of conversations, and a new session waiting to be encoded."""
    ws, state = root / "ws", root / "openclaw"
    (ws / "memory").mkdir(parents=True)
    sessions = write_jsonl_store(state, conversation_sessions())
    assert run_script("encode", "--state-dir", str(state), ws=ws).returncode == 0
    session_with_facts("late-1", start_of(27), [fact(random.Random(5), "toklate")]).write(sessions)
    return ws, state


def one_line_error(done: subprocess.CompletedProcess, *words: str) -> str:
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in done.stderr, done.stderr
    assert any(word in lines[0] for word in words), lines[0]
    return lines[0]


def limited(limit: int):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing the process
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def script_limited(name: str, ws: Path, limit: int, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(SCRIPTS / f"{name}.py"), *args, "--workspace", str(ws), "--now", NOW]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, preexec_fn=limited(limit), timeout=120)


def test_encode_and_decay_on_a_full_disk_keep_the_old_index_and_lose_nothing_once_there_is_room(small_disk):
    ws, state = pipeline_workspace(small_disk)
    index = (ws / "memory" / "index.json").read_bytes()
    filler = fill(small_disk)
    one_line_error(run_script("encode", "--state-dir", str(state), ws=ws), "the disk is full", "disk or")
    one_line_error(run_script("decay", ws=ws, now="2026-03-05T04:43:00Z"), "the disk is full")
    assert (ws / "memory" / "index.json").read_bytes() == index
    filler.unlink()
    assert run_script("encode", "--state-dir", str(state), ws=ws).returncode == 0
    assert run_script("decay", ws=ws, now="2026-03-05T04:43:00Z").returncode == 0
    assert sum("toklate" in m["content"] for m in read_index(ws)["memories"]) == 1
    assert_nothing_half_written(ws)


def test_a_file_size_limit_fails_the_index_write_in_one_line_and_the_next_run_completes(tmp_path):
    ws, state = pipeline_workspace(tmp_path)
    index = (ws / "memory" / "index.json").read_bytes()
    limit = len(index) // 2
    assert run_script("preprocess", "--state-dir", str(state), ws=ws).returncode == 0
    one_line_error(script_limited("encode", ws, limit, "--no-preprocess"), "size limit")
    one_line_error(script_limited("decay", ws, limit), "size limit")
    one_line_error(script_limited("sync_core", ws, 64), "size limit")
    assert (ws / "memory" / "index.json").read_bytes() == index
    assert_nothing_half_written(ws)
    assert run_script("encode", "--state-dir", str(state), ws=ws).returncode == 0
    assert sum("toklate" in m["content"] for m in read_index(ws)["memories"]) == 1


@pytest.fixture
def read_only(tmp_path):
    """Make a folder read-only for this (root) process: a read-only bind mount, else chattr +i, else chmod."""
    made = []

    def protect(folder: Path) -> None:
        if os.geteuid() != 0:
            folder.chmod(0o555)
            made.append(("chmod", folder))
            return
        if can_mount() is None and mount("--bind", str(folder), str(folder)).returncode == 0:
            made.append(("mount", folder))
            if mount("-o", "remount,bind,ro", str(folder)).returncode == 0:
                return
        if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(folder)],
                                                     capture_output=True).returncode == 0:
            made.append(("chattr", folder))
            return
        pytest.skip("neither a read-only bind mount nor chattr +i works here, and root ignores permission bits")

    yield protect
    for kind, folder in reversed(made):
        if kind == "mount":
            subprocess.run(["umount", "-l", str(folder)], capture_output=True)
        elif kind == "chattr":
            subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
        else:
            folder.chmod(0o755)


def test_a_read_only_workspace_keeps_its_index_and_every_script_says_why_in_one_line(tmp_path, read_only):
    ws, state = pipeline_workspace(tmp_path)
    files = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    read_only(ws)
    for name, *args in (("encode", "--state-dir", str(state)), ("decay",), ("sync_core",), ("dashboard",),
                        ("log_event", "x")):
        one_line_error(run_script(name, *args, ws=ws, now="2026-03-05T04:43:00Z"), "read-only", "readonly")
    done = run_script("recall", "oat milk", "--no-touch", ws=ws)
    assert done.returncode == 0 and "oat milk" in done.stdout, done.stderr
    # A recall still answers; only its access cannot be recorded, and it says so in one line.
    done = run_script("recall", "oat milk", ws=ws, now="2026-03-05T04:43:00Z")
    assert done.returncode == 0 and "oat milk" in done.stdout, done.stderr
    assert done.stderr.startswith("warning: ") and done.stderr.count("\n") == 1
    assert "read-only" in done.stderr or "readonly" in done.stderr
    assert {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()} == files
