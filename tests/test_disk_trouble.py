"""A full disk or a read-only workspace during a write: the old index stays as it was, the script says so in one
line, and once the trouble is gone the next run loses nothing. Real file systems, not mocks: a small tmpfs and a
read-only bind mount where this machine allows mounting, and always a file size limit (RLIMIT_FSIZE), which makes
real writes fail the way a full disk does."""

from __future__ import annotations

import json
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
    # The index is the old one, or a whole new one holding every memory (the write that failed came after it).
    before = {m["id"]: m["content"] for m in json.loads(index)["memories"]}
    after = {m["id"]: m["content"] for m in read_index(ws)["memories"]}
    assert before.items() <= after.items()
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
        if (
            shutil.which("chattr")
            and subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0
        ):
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
    for name, *args in (
        ("encode", "--state-dir", str(state)),
        ("decay",),
        ("sync_core",),
        ("dashboard",),
        ("log_event", "x"),
    ):
        one_line_error(run_script(name, *args, ws=ws, now="2026-03-05T04:43:00Z"), "read-only", "readonly")
    done = run_script("recall", "oat milk", "--no-touch", ws=ws)
    assert done.returncode == 0 and "oat milk" in done.stdout, done.stderr
    # A recall still answers; only its access cannot be recorded, and it says so in one line.
    done = run_script("recall", "oat milk", ws=ws, now="2026-03-05T04:43:00Z")
    assert done.returncode == 0 and "oat milk" in done.stdout, done.stderr
    assert done.stderr.startswith("warning: ") and done.stderr.count("\n") == 1
    assert "read-only" in done.stderr or "readonly" in done.stderr
    assert {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()} == files


# --- files linked elsewhere (a synced folder) -------------------------------------------------------------------

LINKED = ["memory/index.json", "memory/archive.jsonl", "HIPPOCAMPUS_CORE.md", "brain-dashboard.html"]


def linked_workspace(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(workspace, the synced folder its files were moved to and link into, the OpenClaw state dir), with the first
    week of chats encoded before the files were moved."""
    ws, synced, state = tmp_path / "workspace", tmp_path / "synced", tmp_path / "openclaw"
    (ws / "memory").mkdir(parents=True)
    synced.mkdir()
    sessions = conversation_sessions()
    first = next(iter(sessions))
    write_jsonl_store(state, {first: sessions[first]})
    assert run_script("encode", "--state-dir", str(state), ws=ws).returncode == 0
    (ws / "memory" / "archive.jsonl").write_text("")
    for name in LINKED:
        target = synced / name.replace("/", "-")
        (ws / name).rename(target)
        (ws / name).symlink_to(target)
    write_jsonl_store(state, sessions)
    return ws, synced, state


def test_files_linked_into_another_folder_are_written_through_their_links(tmp_path):
    ws, synced, state = linked_workspace(tmp_path)
    before = len(read_index(ws)["memories"])
    runs = [
        ("encode", "--state-dir", str(state)),
        ("recall", "oat milk"),
        ("decay", "--now", "2026-03-02T04:43:00Z"),
        ("consolidate", "--now", "2026-08-02T05:13:00Z"),
        ("sync_core",),
        ("dashboard",),
    ]
    for name, *args in runs:
        if name == "recall":
            assert len(json.loads((synced / "memory-index.json").read_text())["memories"]) > before
        done = run_script(name, *args, ws=ws, now=None if "--now" in args else NOW)
        assert done.returncode == 0, (name, done.stderr)
        for linked in LINKED:
            path = ws / linked
            assert path.is_symlink() and path.resolve() == synced / linked.replace("/", "-"), (name, linked)
    assert (synced / "memory-archive.jsonl").read_text().count('"archived": true') >= 1
    assert "Hippocampus Core Memories" in (synced / "HIPPOCAMPUS_CORE.md").read_text()
    assert (synced / "brain-dashboard.html").read_text().rstrip().endswith("</html>")
    # The dated backup is a copy of the index, not a second link to the live file.
    backups = list((ws / "memory" / "backups").glob("index-*.json"))
    assert backups and not any(p.is_symlink() for p in backups)
    assert_nothing_half_written(ws)
    assert not [p for p in synced.iterdir() if p.name.endswith(".tmp")]


def test_an_index_linked_to_a_missing_file_is_an_error_and_nothing_is_made_in_its_place(tmp_path):
    ws, synced, state = linked_workspace(tmp_path)
    assert run_script("encode", "--state-dir", str(state), ws=ws).returncode == 0
    before = (synced / "memory-index.json").read_bytes()
    (synced / "memory-index.json").rename(tmp_path / "unplugged.json")  # the synced folder is not there
    for name, *args in [
        ("encode", "--state-dir", str(state)),
        ("decay",),
        ("recall", "oat"),
        ("load_core",),
        ("consolidate",),
        ("dashboard",),
        ("sync_core",),
    ]:
        done = run_script(name, *args, ws=ws, now="2026-03-05T12:00:00Z")
        assert done.returncode == 1 and "Traceback" not in done.stderr, (name, done.stderr)
        assert "index.json" in done.stderr and "link" in done.stderr, (name, done.stderr)
        assert not (synced / "memory-index.json").exists(), name
        assert (ws / "memory" / "index.json").is_symlink()
    (tmp_path / "unplugged.json").rename(synced / "memory-index.json")
    assert run_script("encode", "--state-dir", str(state), ws=ws, now="2026-03-05T12:00:00Z").returncode == 0
    assert len(read_index(ws)["memories"]) >= len(json.loads(before)["memories"])
