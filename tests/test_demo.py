"""The demo: a deterministic month of OpenClaw transcripts, and install.py --demo run end to end."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from hippocampus.ingestion import scoring
from hippocampus.installation import demo
from hippocampus.errors import HippocampusError
from installing import ROOT, Machine


def _messages(sessions):
    return [line for s in sessions for line in s.lines if line["type"] == "message"]


def test_the_same_seed_gives_the_same_transcripts_and_another_seed_other_ids():
    first, second = demo.generate(), demo.generate()
    assert [s.text() for s in first] == [s.text() for s in second]
    assert [s.id for s in demo.generate(seed=8)] != [s.id for s in first]


def test_the_month_has_every_shape_of_an_openclaw_session():
    sessions = demo.generate()
    lines = [line for s in sessions for line in s.lines]
    assert all(s.lines[0]["type"] == "session" and s.lines[0]["version"] == 3 for s in sessions)
    days = {s.day for s in sessions}
    assert (max(days) - min(days)).days >= 21 and len({s.id for s in sessions}) == len(sessions)
    kinds = Counter(line["type"] for line in lines)
    assert {"message", "model_change", "thinking_level_change", "compaction"} <= set(kinds)
    messages = _messages(sessions)
    roles = Counter(m["message"]["role"] for m in messages)
    assert roles["user"] and roles["assistant"] and roles["toolResult"]
    texts = [
        b.get("text", "")
        for m in messages
        if isinstance(m["message"]["content"], list)
        for b in m["message"]["content"]
    ]
    blocks = Counter(
        b["type"] for m in messages if isinstance(m["message"]["content"], list) for b in m["message"]["content"]
    )
    assert blocks["thinking"] and blocks["toolCall"]
    assert any(t.startswith("Sender (untrusted metadata):\n```json") for t in texts)
    assert any("[[reply_to_current]]" in t for t in texts) and "HEARTBEAT_OK" in texts and "NO_REPLY" in texts
    assert any("東京" in t for t in texts) and any("☕" in t for t in texts)
    assert any(m["message"].get("stopReason") == "error" and m["message"]["content"] == [] for m in messages)
    assert any(s.key.startswith("cron:") for s in sessions)
    for signal in ("Remember that", "I prefer", "We decided", "I'm worried", "Thanks", "dentist", "working on"):
        assert any(signal in t for t in texts), signal


def test_every_entry_hangs_off_an_earlier_one_and_branches_exist():
    for session in demo.generate():
        seen = set()
        parents = Counter()
        for line in session.lines[1:]:
            assert line["parentId"] is None or line["parentId"] in seen
            seen.add(line["id"])
            parents[line["parentId"]] += 1
        assert all(m["message"]["timestamp"] > 1_700_000_000_000 for m in _messages([session]))
    assert any(
        count > 1 for s in demo.generate() for count in Counter(line.get("parentId") for line in s.lines[1:]).values()
    )


def test_sessions_are_written_with_an_index_of_the_newest_session_per_key(tmp_path):
    sessions = demo.generate()
    demo.write_sessions(tmp_path, sessions)
    index = json.loads((tmp_path / "sessions.json").read_text())
    assert index[demo.SESSION_KEY]["sessionId"] == [s for s in sessions if s.key == demo.SESSION_KEY][-1].id
    assert len(list(tmp_path.glob("*.jsonl"))) == len(sessions)


def test_a_demo_folder_from_an_earlier_run_is_rebuilt_from_scratch(tmp_path):
    paths = demo.prepare(tmp_path / "demo")
    (paths.workspace / "memory").mkdir()
    (paths.workspace / "memory" / "index.json").write_text("{}")
    again = demo.prepare(tmp_path / "demo")
    assert not (again.workspace / "memory").exists() and (again.workspace / "IDENTITY.md").is_file()


def test_a_folder_that_is_not_a_demo_is_never_emptied(tmp_path):
    (tmp_path / "precious.txt").write_text("mine")
    with pytest.raises(HippocampusError, match="not a hippocampus demo folder"):
        demo.prepare(tmp_path)
    assert (tmp_path / "precious.txt").read_text() == "mine"


def test_install_demo_runs_the_month_and_shows_core_memories_a_recall_and_the_dashboard(tmp_path):
    m = Machine(tmp_path)
    target = tmp_path / "demo"
    done = m.install("--demo", "--demo-dir", str(target), timeout=900)
    real = m.home / ".openclaw" / "workspace"
    assert json.loads((real / "memory" / "index.json").read_text())["memories"] == []
    if not (ROOT / "scripts" / "encode.py").exists():
        assert done.returncode == 1 and "encoding is unavailable" in done.stdout
        return
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "week 4" in out and "Core memories" in out and demo.RECALL_QUERY in out
    core = out.split("Core memories", 1)[1].split(f'recall.py "{demo.RECALL_QUERY}"', 1)[0]
    lines = [line.split("] ", 1)[1] for line in core.splitlines() if line.startswith("- [")]
    assert len(lines) >= 4
    # Worth remembering: no thanks, acknowledgement or other small talk, and the user in the third person.
    assert not any(scoring.score(line).rule == "smalltalk" for line in lines), lines
    assert not any(phrase in core for phrase in ("That matches", "Yes please", "thank you", " I ", " my "))
    answer = out.split(demo.RECALL_QUERY, 1)[1].split(demo.AGENT_QUERY, 1)[0]
    assert "1. [" in answer and "(self/replies) We chose PostgreSQL over MongoDB" in answer.splitlines()[2]
    agent = out.split(demo.AGENT_QUERY, 1)[1]
    assert (
        "turn said by the agent on 2026-04-09: That is a normal feeling before an interview. Shall we make a "
        "short plan: two mock questions a day?" in agent
    )
    index = json.loads((target / "workspace" / "memory" / "index.json").read_text())
    assert len(index["memories"]) >= 8
    assert all("HEARTBEAT" not in m["content"] and "cron:" not in m["content"] for m in index["memories"])
    dashboard = target / "workspace" / "brain-dashboard.html"
    assert dashboard.is_file() and f"Dashboard: {dashboard}" in out
    assert (target / demo.MARKER).exists()
