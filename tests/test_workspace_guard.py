"""A folder that is not a workspace is refused in one line, with nothing created in it; a source with no
transcripts is said in words."""

from __future__ import annotations

import json

import pytest

from conftest import read_index, run_script

SCRIPTS = [
    ("encode", "--state-dir"),
    ("preprocess", "--state-dir"),
    ("decay",),
    ("recall", "coffee"),
    ("load_core",),
    ("sync_core",),
    ("dashboard",),
    ("log_event", "x"),
    ("consolidate",),
    ("reflect",),
]


def everything_under(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def openclaw_state_dir(root):
    """What OpenClaw's own folder (~/.openclaw) holds: its config, an agent's transcript store, its workspace."""
    (root / "agents" / "main" / "agent").mkdir(parents=True)
    (root / "agents" / "main" / "agent" / "openclaw-agent.sqlite").write_bytes(b"")
    (root / "openclaw.json").write_text(json.dumps({"agents": {"defaults": {"workspace": str(root / "workspace")}}}))
    (root / "workspace").mkdir()
    (root / "workspace" / "AGENTS.md").write_text("# Agents\n")
    return root


@pytest.mark.parametrize("name_and_args", SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_openclaw_s_own_folder_is_refused_in_one_line_and_nothing_is_made_there(tmp_path, name_and_args):
    state = openclaw_state_dir(tmp_path / "openclaw")
    name, *args = name_and_args
    if args == ["--state-dir"]:
        args = ["--state-dir", str(state)]
    before = everything_under(state)
    done = run_script(name, *args, ws=state)
    assert done.returncode == 1, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: ") and "not a workspace" in line and str(state / "workspace") in line
    assert everything_under(state) == before


@pytest.mark.parametrize("name_and_args", SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_a_folder_with_neither_memories_nor_openclaw_s_workspace_files_is_refused(tmp_path, name_and_args):
    folder = tmp_path / "Downloads"
    folder.mkdir()
    (folder / "holiday.jpg").write_bytes(b"\xff\xd8")
    name, *args = name_and_args
    if args == ["--state-dir"]:
        args = ["--state-dir", str(tmp_path / "openclaw")]
    done = run_script(name, *args, ws=folder)
    assert done.returncode == 1, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: ") and "not a workspace" in line and "install.py" in line
    assert everything_under(folder) == ["holiday.jpg"]


def test_an_openclaw_workspace_without_memories_yet_is_a_workspace(tmp_path):
    ws = tmp_path / "workspace"
    ws.mkdir()
    (ws / "AGENTS.md").write_text("# Agents\n")
    done = run_script("load_core", ws=ws)
    assert done.returncode == 0, done.stderr


def test_an_empty_folder_made_for_the_memories_is_a_new_workspace_and_encode_fills_it_from_real_openclaw_data(tmp_path):
    from conftest import ROOT

    ws = tmp_path / "ws"
    ws.mkdir()
    fixture = ROOT.parent / "shared" / "data" / "openclaw-2026.9.6"
    if not fixture.is_dir():
        pytest.skip(f"no OpenClaw fixture at {fixture}")
    done = run_script("encode", "--sessions", str(fixture / "openclaw-agent.sqlite"), ws=ws)
    assert done.returncode == 0, done.stderr
    assert read_index(ws)["memories"], done.stdout


def test_encode_says_in_words_when_no_transcripts_are_where_it_looked(workspace, tmp_path):
    state = tmp_path / "openclaw"
    state.mkdir()
    done = run_script("encode", "--state-dir", str(state), "--agent", "nobody", ws=workspace)
    assert done.returncode == 0, done.stderr
    assert "no transcripts found for agent 'nobody'" in done.stdout


def test_install_refuses_openclaw_s_own_folder_and_makes_nothing_there(tmp_path):
    import subprocess
    import sys

    from conftest import ROOT

    state = openclaw_state_dir(tmp_path / "openclaw")
    before = everything_under(state)
    done = subprocess.run(
        [sys.executable, str(ROOT / "install.py"), "--workspace", str(state), "--no-cron", "--state-dir", str(state)],
        capture_output=True,
        text=True,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.strip().startswith("error: ") and "not a workspace" in done.stderr
    assert everything_under(state) == before
