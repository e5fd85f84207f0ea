"""Encoding a store we wrote ourselves (line by line, against the search cache) gives exactly what encoding the
whole loaded store gives."""

import json
import shutil

from conftest import read_index, run_script
from hippocampus.store import cache
from hippocampus.workspace import Workspace
from transcript_fixtures import conversation_sessions, day


def encode_each_session(root, tmp_path, fast: bool):
    """Hand the sessions to encode one at a time, as cron would find them; `fast` False forbids the line path."""
    ws = root / "workspace"
    (ws / "memory").mkdir(parents=True)
    folder = tmp_path / f"sessions-{fast}"
    folder.mkdir()
    for number, session in enumerate(conversation_sessions().values()):
        session.write(folder, f"{number:02d}.jsonl")
        if not fast:
            shutil.rmtree(ws / "memory" / ".cache", ignore_errors=True)
        elif number > 0:
            assert cache.witnessed(Workspace(ws))
        when = day(20 + number).strftime("%Y-%m-%dT%H:%M:%SZ")
        done = run_script("encode", "--sessions", str(folder), "--json", ws=ws, now=when)
        assert done.returncode == 0, done.stderr
    return ws


def test_line_by_line_encoding_equals_whole_store_encoding(tmp_path):
    fast = encode_each_session(tmp_path / "fast", tmp_path, fast=True)
    whole = encode_each_session(tmp_path / "whole", tmp_path, fast=False)
    a, b = read_index(fast), read_index(whole)
    a.pop("lastUpdated"), b.pop("lastUpdated")
    assert a == b
    assert len(a["memories"]) >= 5
    for name in ("HIPPOCAMPUS_CORE.md",):
        assert (fast / name).read_text().split("\n", 3)[3] == (whole / name).read_text().split("\n", 3)[3]
    fast_mirrors = sorted(p.relative_to(fast) for p in (fast / "memory").glob("*/*.md"))
    assert fast_mirrors == sorted(p.relative_to(whole) for p in (whole / "memory").glob("*/*.md"))
    for path in fast_mirrors:
        assert (fast / path).read_text() == (whole / path).read_text()


def test_a_line_by_line_encode_keeps_the_file_valid_and_one_memory_a_line(tmp_path):
    ws = encode_each_session(tmp_path / "fast", tmp_path, fast=True)
    text = (ws / "memory" / "index.json").read_text()
    data = json.loads(text)
    assert len(text.splitlines()) == len(data["memories"]) + 2
    assert len({m["id"] for m in data["memories"]}) == len(data["memories"])
