"""preprocess.py and encode.py as a user (or cron, or the agent) runs them: real transcripts, real SQLite, real
subprocesses, real kills."""

from __future__ import annotations

import json
import random
import signal as signals
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import ROOT, SCRIPTS, read_index, run_script, write_index
from transcript_fixtures import (
    Session,
    conversation_sessions,
    day,
    write_database,
    write_jsonl_store,
    write_sqlite_store,
)
from hippocampus import frontmatter
from hippocampus.ingestion.transcripts import CUT_NOTE, MESSAGE_LIMIT

STORES = {"jsonl": write_jsonl_store, "sqlite": write_sqlite_store}


@pytest.fixture
def state(tmp_path) -> Path:
    """An OpenClaw state dir holding three weeks of sessions as JSONL files."""
    folder = tmp_path / "openclaw"
    write_jsonl_store(folder, conversation_sessions())
    return folder


def encode(ws, state_dir, *args, now="2026-03-01T12:00:00Z"):
    return run_script("encode", "--state-dir", str(state_dir), *args, ws=ws, now=now)


def memories(ws) -> list[tuple]:
    """What the store says, independent of id order: content, reinforcements, sources, kind, trust, history."""
    return sorted(
        (
            m["content"],
            m["timesReinforced"],
            len(m.get("sources", [])),
            m.get("kind"),
            m.get("trust"),
            len(m.get("history", [])),
        )
        for m in read_index(ws)["memories"]
    )


def signal_lines(ws) -> list[dict]:
    path = ws / "memory" / "signals.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def ok(done: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert done.returncode == 0, done.stderr + done.stdout
    return done


# --- preprocess -----------------------------------------------------------------------------------------------


def test_preprocess_writes_one_line_per_message_with_the_documented_keys(workspace, state):
    ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    lines = signal_lines(workspace)
    assert lines and all({"seq", "id", "session", "timestamp", "role", "text"} <= set(line) for line in lines)
    assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
    texts = " ".join(line["text"] for line in lines)
    assert "私は朝は短い返事が好きです。" in texts and "Я живу в Берлине" in texts and "🚀" in texts
    assert texts.count("black tea") == 1  # the deleted and the reset copy of one session, read once
    for noise in (
        "HEARTBEAT",
        "cron:",
        "untrusted metadata",
        "[message_id",
        "<media:",
        "reply_to",
        "# Calendar",
        "The user wants me to remember",
    ):
        assert noise not in texts, noise
    assert texts.count("I prefer oat milk flat whites") == 3  # three sessions; the retry is not a fourth
    assert "sk-proj-AbCd" not in texts and "[REDACTED:openai-key]" in texts


def test_preprocess_again_adds_nothing(workspace, state):
    ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    first = signal_lines(workspace)
    for _ in range(3):
        ok(run_script("preprocess", "--state-dir", str(state), "--full", ws=workspace))
    assert signal_lines(workspace) == first


def test_a_growing_session_gives_only_its_new_messages(workspace, tmp_path):
    session = Session("grow-1", day(3))
    session.user("I prefer oat milk flat whites")
    folder = tmp_path / "openclaw" / "agents" / "main" / "sessions"
    session.write(folder)
    ok(run_script("preprocess", "--state-dir", str(tmp_path / "openclaw"), ws=workspace))
    session.user("Remember that the car is due for inspection on 2026-04-02", at=session.clock)  # same timestamp
    session.write(folder)
    ok(run_script("preprocess", "--state-dir", str(tmp_path / "openclaw"), ws=workspace))
    assert [line["text"] for line in signal_lines(workspace)] == [
        "I prefer oat milk flat whites",
        "Remember that the car is due for inspection on 2026-04-02",
    ]


def test_a_malformed_line_is_counted_in_the_report(workspace, state):
    done = ok(run_script("preprocess", "--state-dir", str(state), "--json", ws=workspace))
    report = json.loads(done.stdout)
    assert report["malformedLines"] == 1
    assert report["signals"] == len(signal_lines(workspace))


def test_preprocess_is_quiet_under_cron(workspace, state):
    done = ok(run_script("preprocess", "--state-dir", str(state), "--cron", ws=workspace))
    assert done.stdout == "" and done.stderr == ""


def test_sessions_flag_reads_the_given_files_and_databases(workspace, tmp_path):
    one = Session("given-1", day(3))
    one.user("I prefer oat milk flat whites")
    two = Session("given-2", day(4))
    two.user("Remember that the bike lock code is 2718")
    path = one.write(tmp_path / "export")
    database = write_database(tmp_path / "db" / "openclaw-agent.sqlite", [two])
    ok(run_script("preprocess", "--sessions", str(path), str(database), ws=workspace))
    assert sorted(line["session"] for line in signal_lines(workspace)) == ["given-1", "given-2"]


def test_an_unknown_database_schema_is_a_warning_beside_readable_files(workspace, state):
    database = state / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    database.parent.mkdir(parents=True)
    import sqlite3

    db = sqlite3.connect(database)
    db.execute("CREATE TABLE transcript_events (x TEXT)")
    db.commit()
    db.close()
    done = ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    assert "warning:" in done.stderr and "schema this version does not know" in done.stderr
    assert signal_lines(workspace)


def test_an_unknown_database_schema_alone_is_an_error(workspace, tmp_path):
    path = tmp_path / "odd.sqlite"
    import sqlite3

    sqlite3.connect(path).execute("CREATE TABLE other (x)").connection.close()
    done = run_script("preprocess", "--sessions", str(path), ws=workspace)
    assert done.returncode == 1 and done.stderr.startswith("error:")
    assert "Traceback" not in done.stderr


def test_the_first_run_takes_the_installer_s_limit_and_later_runs_take_everything_new(workspace, state):
    (workspace / "memory" / "hippocampus-config.json").write_text('{"firstRun": {"signals": 3}}')
    ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    lines = signal_lines(workspace)
    assert len(lines) == 3
    assert lines[-1]["text"].startswith("I'm working on the booking app")  # the most recent ones
    late = Session("late-1", day(20))
    late.user("Remember that the plumber comes on 2026-02-24 at 8:00")
    late.write(state / "agents" / "main" / "sessions")
    ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    assert len(signal_lines(workspace)) == 4


def test_a_first_run_with_whole_takes_all_history(workspace, state, tmp_path):
    (workspace / "memory" / "hippocampus-config.json").write_text('{"firstRun": {"whole": true}}')
    ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    other = tmp_path / "other"
    (other / "memory").mkdir(parents=True)
    ok(run_script("preprocess", "--state-dir", str(state), ws=other))
    assert len(signal_lines(workspace)) == len(signal_lines(other)) > 10


def test_limit_flag_takes_the_most_recent_messages(workspace, state):
    ok(run_script("preprocess", "--state-dir", str(state), "--limit", "2", ws=workspace))
    assert len(signal_lines(workspace)) == 2
    ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    assert len(signal_lines(workspace)) == 2  # the older ones were marked read, not postponed


def test_a_bad_installer_config_is_an_error_that_names_the_file(workspace, state):
    (workspace / "memory" / "hippocampus-config.json").write_text('{"firstRun": {"signals": "lots"}}')
    done = run_script("preprocess", "--state-dir", str(state), ws=workspace)
    assert done.returncode == 1 and "hippocampus-config.json" in done.stderr


def test_messages_the_old_skill_already_read_are_not_read_again(workspace, state):
    write_index(workspace, [], lastProcessedTimestamp="2026-02-10T00:00:00.000Z")
    ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    assert all(line["timestamp"] > "2026-02-10" for line in signal_lines(workspace))


# --- encode ---------------------------------------------------------------------------------------------------


def test_encode_makes_the_memories_the_conversations_hold(workspace, state):
    ok(encode(workspace, state))
    index = read_index(workspace)
    contents = [m["content"] for m in index["memories"]]
    assert sum("oat milk flat whites" in c for c in contents) == 1
    oat = next(m for m in index["memories"] if "oat milk" in m["content"])
    assert oat["timesReinforced"] == 2 and len(oat["sources"]) == 3
    assert any("unit 12 is 4417" in c for c in contents) and any("unit 19 is 8803" in c for c in contents)
    gym = next(m for m in index["memories"] if "gym locker" in m["content"])
    assert "5521" in gym["content"] and "3141" in gym["history"][0]["content"]
    bob = next(m for m in index["memories"] if m["content"].startswith("Bob said:"))
    assert bob["trust"] == "untrusted" and bob["importance"] <= 0.6
    assert all(m.get("sources") for m in index["memories"])
    assert index["encodedThrough"] == 33 and signal_lines(workspace) == []  # every signal consumed, queue trimmed
    assert not any("HEARTBEAT" in c or "cron" in c for c in contents)
    assert sum("black tea" in c for c in contents) == 1  # a session deleted before encoding still counts, once


def held_messages(ws) -> list[tuple[str, str]]:
    """Every message the store holds, as (session, message), once for each memory or turn that holds it."""
    out = []
    for m in read_index(ws)["memories"]:
        for source in m.get("sources", []) + [t["source"] for t in m.get("episode", [])]:
            out.append((source["session"], source["message"]))
    return sorted(out)


def test_a_history_is_encoded_in_the_order_things_were_said_each_message_once(tmp_path, state):
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    one = json.loads(ok(encode(ws, state, "--json")).stdout)
    assert one["signals"] == 33
    assert len(set(held_messages(ws))) == len(held_messages(ws))
    index = read_index(ws)
    assert index["encodedThrough"] == 33 and signal_lines(ws) == []
    contents = [m["content"] for m in index["memories"]]
    # A value changed in a later session replaces the earlier one, whatever order the sessions were read in.
    gym = next(m for m in index["memories"] if "gym locker" in m["content"])
    assert "5521" in gym["content"] and "3141" in gym["history"][0]["content"]
    assert sum("oat milk flat whites" in c for c in contents) == 1
    ok(encode(ws, state))
    assert read_index(ws)["memories"] == index["memories"]  # nothing left to do


def test_a_note_of_parts_an_older_version_left_is_dropped_and_every_message_still_counts_once(tmp_path, state):
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    ok(run_script("preprocess", "--state-dir", str(state), ws=ws))
    ok(encode(ws, state, "--no-preprocess"))
    reference = held_messages(ws)
    index = read_index(ws)
    index["encodingPart"] = {"through": 20, "said": "2026-01-01T00:00:00Z", "seq": 3}
    (ws / "memory" / "index.json").write_text(json.dumps(index))
    ok(run_script("preprocess", "--state-dir", str(state), "--full", ws=ws))
    ok(encode(ws, state, "--no-preprocess"))
    assert held_messages(ws) == reference
    assert "encodingPart" not in read_index(ws)


def test_the_jsonl_and_sqlite_stores_give_the_same_memories(tmp_path):
    results = {}
    for name, writer in STORES.items():
        ws = tmp_path / name / "workspace"
        (ws / "memory").mkdir(parents=True)
        writer(tmp_path / name / "openclaw", conversation_sessions())
        ok(encode(ws, tmp_path / name / "openclaw"))
        results[name] = memories(ws)
    assert results["jsonl"] == results["sqlite"]
    assert len(results["jsonl"]) >= 10


def test_encoding_again_in_any_order_adds_nothing(workspace, state):
    ok(encode(workspace, state))
    once = memories(workspace)
    ok(run_script("preprocess", "--state-dir", str(state), "--full", ws=workspace))
    ok(encode(workspace, state, "--no-preprocess"))
    ok(encode(workspace, state, "--full"))
    ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    ok(encode(workspace, state))
    assert memories(workspace) == once
    assert signal_lines(workspace) == []


def test_the_same_sessions_in_both_stores_count_once(workspace, tmp_path):
    sessions = conversation_sessions()
    write_jsonl_store(tmp_path / "openclaw", sessions)
    ok(encode(workspace, tmp_path / "openclaw"))
    once = memories(workspace)
    write_sqlite_store(tmp_path / "openclaw", sessions)  # the upgrade moved them into the database
    ok(encode(workspace, tmp_path / "openclaw"))
    assert memories(workspace) == once


def test_secrets_never_reach_the_index_the_mirrors_the_core_file_or_the_queue(workspace, state):
    ok(run_script("preprocess", "--state-dir", str(state), ws=workspace))
    queued = (workspace / "memory" / "signals.jsonl").read_text(encoding="utf-8")
    ok(encode(workspace, state))
    files = [
        workspace / "memory" / "index.json",
        workspace / "HIPPOCAMPUS_CORE.md",
        *sorted((workspace / "memory").glob("*/*.md")),
    ]
    for text in [queued] + [p.read_text(encoding="utf-8") for p in files]:
        assert "sk-proj-AbCdEfGh" not in text
    assert "[REDACTED:openai-key]" in (workspace / "memory" / "index.json").read_text(encoding="utf-8")


def test_encode_writes_readable_mirrors_per_domain(workspace, state):
    ok(encode(workspace, state))
    preferences = (workspace / "memory" / "user" / "preferences.md").read_text(encoding="utf-8")
    fields, body = frontmatter.split_trailer(preferences)
    assert (fields["generator"], fields["domain"], fields["shelf"]) == ("hippocampus", "user", "preferences")
    assert body.startswith("- ")
    assert "- User prefers oat milk flat whites" in preferences
    observed = (workspace / "memory" / "world" / "observed.md").read_text(encoding="utf-8")
    assert "untrusted sender" in observed


def test_encode_logs_an_encoding_event_and_refreshes_the_core_file(workspace, state):
    ok(encode(workspace, state))
    events = [json.loads(line) for line in (workspace / "memory" / "brain-events.jsonl").read_text().splitlines()]
    encoding = [e for e in events if e["event"] == "encoding"]
    assert len(encoding) == 1
    total = len(read_index(workspace)["memories"])
    assert encoding[0]["new"] == total and encoding[0]["reinforced"] >= 2 and encoding[0]["total"] == total
    assert "skipped" in encoding[0]
    core = (workspace / "HIPPOCAMPUS_CORE.md").read_text(encoding="utf-8")
    assert "The dentist moved the user's appointment to Friday 16:30." in core


def test_encode_is_quiet_under_cron_and_reports_otherwise(workspace, state):
    done = ok(encode(workspace, state, "--cron"))
    assert done.stdout == "" and done.stderr == ""
    again = ok(encode(workspace, state))
    assert again.stdout.startswith("encoded 0 signals")


def test_min_importance_leaves_out_what_scores_below_it(workspace, state, tmp_path):
    ok(encode(workspace, state, "--min-importance", "0.85"))
    stored = read_index(workspace)["memories"]
    # What scores below the threshold is no memory of its own: it is attached to its session's memory, or — in a
    # session with none — held by a memory in the background.
    assert all(m["importance"] >= 0.8 or m.get("trust") or m["importance"] == 0.3 for m in stored)
    assert len([m for m in stored if m["importance"] != 0.3]) < 10
    assert any(m.get("episode") for m in stored if m["importance"] >= 0.8)


def test_scripts_answer_help_and_are_documented_in_skill_md(workspace):
    skill = (ROOT / "SKILL.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("preprocess", "encode"):
        done = ok(run_script(name, "--help", now=None))
        assert "--state-dir" in done.stdout and "--sessions" in done.stdout
        assert f"scripts/{name}.py" in skill and f"`{name}.py" in readme
    assert "pending-memories.json" in skill and '"decisions"' in skill


def test_encode_runs_from_another_folder_and_under_python_p(workspace, state, tmp_path):
    done = run_script("encode", "--state-dir", str(state), ws=workspace, cwd=tmp_path, python_flags=("-P",))
    ok(done)
    assert read_index(workspace)["memories"]


# --- killed half way ------------------------------------------------------------------------------------------

CRASH_DRIVER = """
import importlib, os, runpy, signal, sys
scripts, module, attr, when, *argv = sys.argv[1:]
sys.path.insert(0, scripts)
owner = importlib.import_module("hippocampus." + module)
parts = attr.split(".")
for part in parts[:-1]:
    owner = getattr(owner, part)
real = getattr(owner, parts[-1])
def crash(*args, **kwargs):
    if when == "before":
        os.kill(os.getpid(), signal.SIGKILL)
    result = real(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGKILL)
    return result
setattr(owner, parts[-1], crash)
sys.argv = argv
runpy.run_path(argv[0], run_name="__main__")
"""


def crash_at(tmp_path, module: str, attr: str, when: str, script: str, *args: str) -> subprocess.CompletedProcess:
    driver = tmp_path / "crash_driver.py"
    driver.write_text(CRASH_DRIVER)
    command = [sys.executable, str(driver), str(SCRIPTS), module, attr, when, str(SCRIPTS / f"{script}.py"), *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.fixture
def reference(tmp_path, state) -> list[tuple]:
    """The memories of one clean, uninterrupted run."""
    ws = tmp_path / "clean"
    (ws / "memory").mkdir(parents=True)
    ok(encode(ws, state))
    return memories(ws)


@pytest.mark.parametrize(
    "module,attr,when",
    [
        ("ingestion.queue", "append_signals", "after"),  # queue written, ledger not committed
        ("ingestion.ledger", "Ledger.commit", "before"),  # the same, seen from the ledger
        ("ingestion.ledger", "Ledger.commit", "after"),  # ledger committed, nothing encoded yet
        ("store.indexfile", "save", "before"),  # encoding done in memory, nothing saved
        ("store.indexfile", "save", "after"),  # index saved with encodedThrough, queue not trimmed
        ("published.mirrors", "write_mirrors", "before"),  # saved and trimmed, mirrors and core file not refreshed
    ],
)
def test_killing_encode_at_any_step_loses_nothing_and_doubles_nothing(
    tmp_path, workspace, state, reference, module, attr, when
):
    done = crash_at(
        tmp_path,
        module,
        attr,
        when,
        "encode",
        "--workspace",
        str(workspace),
        "--state-dir",
        str(state),
        "--now",
        "2026-03-01T12:00:00Z",
    )
    assert done.returncode == -signals.SIGKILL, done.stderr
    ok(encode(workspace, state))
    ok(encode(workspace, state))
    assert memories(workspace) == reference
    assert "oat milk" in (workspace / "memory" / "user" / "preferences.md").read_text(encoding="utf-8")


def test_killing_encode_at_random_moments_loses_nothing_and_doubles_nothing(tmp_path, workspace, state, reference):
    rng = random.Random(7)
    command = [
        sys.executable,
        str(SCRIPTS / "encode.py"),
        "--workspace",
        str(workspace),
        "--state-dir",
        str(state),
        "--now",
        "2026-03-01T12:00:00Z",
    ]
    # How long a whole run takes here, so that the kills land within runs rather than after them.
    timed = tmp_path / "timed"
    (timed / "memory").mkdir(parents=True)
    began = time.monotonic()
    ok(encode(timed, state))
    took = time.monotonic() - began
    landed = 0
    for _ in range(6):
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 0.9) * took)
        process.send_signal(signals.SIGKILL)
        landed += process.wait() == -signals.SIGKILL
    # A run that finished before its kill leaves the later ones less to do; how many land depends on the load.
    assert landed >= 2, f"only {landed} of 6 kills landed in a run"
    ok(encode(workspace, state))
    assert memories(workspace) == reference


# --- the LLM in the loop --------------------------------------------------------------------------------------


def prepare(ws, state_dir, now="2026-03-01T12:00:00Z"):
    done = ok(encode(ws, state_dir, "--prepare", "--json", now=now))
    return json.loads(done.stdout)


def pending_items(ws) -> list[dict]:
    return json.loads((ws / "memory" / "pending-memories.json").read_text(encoding="utf-8"))["items"]


def test_prepare_queues_items_with_sources_score_and_closest_memories(workspace, state):
    report = prepare(workspace, state)
    items = pending_items(workspace)
    assert report["prepared"] == len(items) == len(report["items"]) > 5
    for item in items:
        assert item["sources"] and {"session", "message", "ts"} <= set(item["sources"][0])
        assert 0 < item["score"] <= 1 and "closest" in item and item["suggested"]["content"]
    # The signals are consumed (the index records how far), and no memory is made until the agent decides.
    index = read_index(workspace)
    assert index["memories"] == []
    assert index["encodedThrough"] == report["signals"] >= max(item["signal"]["seq"] for item in items)


def test_prepare_never_overwrites_items_already_pending(workspace, state):
    prepare(workspace, state)
    before = pending_items(workspace)
    late = Session("late-2", day(27))
    late.user("Remember that the piano tuner comes on 2026-03-03 at 10:00")
    late.write(state / "agents" / "main" / "sessions")
    prepare(workspace, state)
    after = pending_items(workspace)
    assert after[: len(before)] == before and len(after) == len(before) + 1
    prepare(workspace, state)
    assert pending_items(workspace) == after


def test_an_unreadable_pending_file_is_an_error_and_stays_as_it_was(workspace, state):
    path = workspace / "memory" / "pending-memories.json"
    path.write_text('{"items": [ half written')
    done = encode(workspace, state, "--prepare")
    assert done.returncode == 1 and "pending-memories.json" in done.stderr
    assert path.read_text() == '{"items": [ half written'


def test_apply_applies_valid_decisions_reports_invalid_ones_and_removes_only_the_applied(workspace, state, tmp_path):
    ok(
        encode(
            workspace,
            state,
            "--sessions",
            str(state / "agents" / "main" / "sessions" / "5f0c2a9e-0001-4c3e-9a47-2b6d1e0f7a31.jsonl"),
        )
    )
    existing = read_index(workspace)["memories"][0]["id"]
    prepare(workspace, state)
    items = pending_items(workspace)
    create, reinforce, skip, bad_domain, bad_memory, extra_field = items[:6]
    decisions = {
        "decisions": [
            {
                "item": create["id"],
                "action": "create",
                "content": "Dana keeps her gym locker at unit 12",
                "keywords": ["gym", "locker"],
                "domain": "user",
                "category": "facts",
                "importance": 0.77,
            },
            {"item": reinforce["id"], "action": "reinforce", "memory": existing},
            {"item": skip["id"], "action": "skip", "reason": "small talk"},
            {
                "item": bad_domain["id"],
                "action": "create",
                "content": "x",
                "keywords": [],
                "domain": "moon",
                "category": "facts",
            },
            {"item": bad_memory["id"], "action": "reinforce", "memory": "mem_999"},
            {"item": extra_field["id"], "action": "skip", "sumary": "typo"},
            {"item": create["id"], "action": "skip"},
            {"item": "sig-424242", "action": "skip"},
        ]
    }
    file = tmp_path / "decisions.json"
    file.write_text(json.dumps(decisions))
    done = run_script("encode", "--apply", str(file), "--json", ws=workspace)
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["applied"] == 3 and len(report["invalid"]) == 5
    left = {i["id"] for i in pending_items(workspace)}
    assert {bad_domain["id"], bad_memory["id"], extra_field["id"]} <= left
    assert not {create["id"], reinforce["id"], skip["id"]} & left
    index = read_index(workspace)
    made = next(m for m in index["memories"] if m["content"] == "Dana keeps her gym locker at unit 12")
    assert made["importance"] == 0.77 and made["sources"] == create["sources"]
    assert next(m for m in index["memories"] if m["id"] == existing)["timesReinforced"] == 1
    again = run_script("encode", "--apply", str(file), "--json", ws=workspace)
    assert json.loads(again.stdout)["applied"] == 0  # nothing applied twice
    assert len(read_index(workspace)["memories"]) == len(index["memories"])


def test_apply_killed_after_saving_is_not_applied_twice(workspace, state, tmp_path):
    prepare(workspace, state)
    item = pending_items(workspace)[0]
    file = tmp_path / "decisions.json"
    file.write_text(
        json.dumps(
            {
                "decisions": [
                    {
                        "item": item["id"],
                        "action": "create",
                        "content": "A fact",
                        "keywords": [],
                        "domain": "world",
                        "category": "facts",
                    }
                ]
            }
        )
    )
    done = crash_at(
        tmp_path,
        "store.indexfile",
        "save",
        "after",
        "encode",
        "--apply",
        str(file),
        "--workspace",
        str(workspace),
        "--now",
        "2026-03-01T12:00:00Z",
    )
    assert done.returncode == -signals.SIGKILL
    assert item["id"] in {i["id"] for i in pending_items(workspace)}
    ok(run_script("encode", "--apply", str(file), ws=workspace))
    assert [m["content"] for m in read_index(workspace)["memories"]].count("A fact") == 1
    assert item["id"] not in {i["id"] for i in pending_items(workspace)}


def test_prepare_killed_before_the_index_is_saved_adds_no_item_twice(workspace, state, tmp_path):
    done = crash_at(
        tmp_path,
        "ingestion.pending",
        "write_items",
        "after",
        "encode",
        "--prepare",
        "--workspace",
        str(workspace),
        "--state-dir",
        str(state),
        "--now",
        "2026-03-01T12:00:00Z",
    )
    assert done.returncode == -signals.SIGKILL
    first = pending_items(workspace)
    prepare(workspace, state)
    assert pending_items(workspace) == first


def test_items_no_agent_decided_on_for_a_day_are_encoded_the_default_way(workspace, state, reference):
    prepare(workspace, state)
    ok(encode(workspace, state, now="2026-03-01T20:00:00Z"))
    assert len(pending_items(workspace)) > 0  # not a day yet
    ok(encode(workspace, state, now="2026-03-02T12:00:01Z"))
    assert pending_items(workspace) == []
    assert [m[0] for m in memories(workspace)] == [m[0] for m in reference]


# --- weeks of use ---------------------------------------------------------------------------------------------


def test_weeks_of_daily_encoding_and_decay_remember_what_was_said(workspace, state):
    start = day(1, 23)
    for n in range(0, 27):
        now = (start + timedelta(days=n)).strftime("%Y-%m-%dT%H:%M:%SZ")
        ok(encode(workspace, state, "--cron", now=now))
        ok(run_script("decay", "--cron", ws=workspace, now=now))
    now = (start + timedelta(days=27)).strftime("%Y-%m-%dT%H:%M:%SZ")
    found = json.loads(
        ok(run_script("recall", "locker code unit 19", "--json", "--no-touch", ws=workspace, now=now)).stdout
    )
    assert "8803" in found["results"][0]["content"]
    found = json.loads(ok(run_script("recall", "oat milk", "--json", "--no-touch", ws=workspace, now=now)).stdout)
    assert found["results"][0]["content"] == "User prefers oat milk flat whites"
    found = json.loads(ok(run_script("recall", "Postgres", "--json", "--no-touch", ws=workspace, now=now)).stdout)
    assert "Postgres" in found["results"][0]["content"]
    core = ok(run_script("load_core", ws=workspace, now=now)).stdout
    bullets = [line for line in core.splitlines() if line.startswith("- [")]
    index = read_index(workspace)
    explicit = {m["content"] for m in index["memories"] if m.get("kind") == "explicit"}
    user_section = core.split("###")[1]
    first = [line for line in user_section.splitlines() if line.startswith("- [")][0]
    assert any(text in first for text in explicit)
    assert bullets
    positions = [i for i, b in enumerate(user_section.splitlines()) if b.startswith("- [")]
    kinds = [any(t in line for t in explicit) for line in user_section.splitlines() if line.startswith("- [")]
    assert kinds == sorted(kinds, reverse=True), "explicit items come first"
    assert positions


# --- long histories and huge lines ----------------------------------------------------------------------------


def test_a_line_of_many_megabytes_is_read_in_pieces_and_its_message_kept_cut(workspace, tmp_path):
    session = Session("huge-1", day(3))
    session.user("Remember this: my pasted notes follow. " + "Lorem ipsum dolor sit amet. " * 120_000)
    session.assistant(tool="read")
    session.tool_result("x" * 5_000_000)
    session.user("I prefer window seats on long flights")
    folder = tmp_path / "openclaw" / "agents" / "main" / "sessions"
    session.write(folder)
    report = json.loads(
        ok(run_script("preprocess", "--state-dir", str(tmp_path / "openclaw"), "--json", ws=workspace)).stdout
    )
    assert report["malformedLines"] == 0 and report["cutMessages"] == 1
    texts = [line["text"] for line in signal_lines(workspace)]
    assert len(texts) == 2 and texts[1] == "I prefer window seats on long flights"
    assert texts[0].startswith("Remember this: my pasted notes follow.") and texts[0].endswith(CUT_NOTE)
    assert len(texts[0]) == MESSAGE_LIMIT + len(CUT_NOTE)


def test_a_long_first_run_keeps_its_progress_when_killed_half_way(tmp_path, workspace):
    session = Session("long-history", day(1))
    for n in range(6500):
        session.user(f"Note {n}: I prefer the {n}th shelf of the archive for project {n % 97}", local_stamp=False)
    state = tmp_path / "openclaw"
    session.write(state / "agents" / "main" / "sessions")
    done = crash_at(
        tmp_path,
        "ingestion.ledger",
        "Ledger.commit",
        "after",
        "preprocess",
        "--workspace",
        str(workspace),
        "--state-dir",
        str(state),
        "--full",
        "--now",
        "2026-03-01T12:00:00Z",
    )
    assert done.returncode == -signals.SIGKILL, done.stderr
    first = signal_lines(workspace)
    assert 0 < len(first) < 6500  # the first part stayed done
    ok(run_script("preprocess", "--state-dir", str(state), "--full", ws=workspace))
    lines = signal_lines(workspace)
    assert [line["seq"] for line in lines] == list(range(1, 6501))
    assert sorted(line["id"] for line in lines) == sorted({line["id"] for line in lines})
    assert lines[: len(first)] == first


def test_a_value_changed_in_a_later_session_updates_the_memory_whatever_order_the_files_come_in(workspace, tmp_path):
    earlier = Session("zz-earlier", day(1))
    earlier.user("my gym locker code is 3141, remember that")
    later = Session("aa-later", day(5))
    later.user("my gym locker code is now 5521")
    folder = tmp_path / "openclaw" / "agents" / "main" / "sessions"
    earlier.write(folder)
    later.write(folder)
    ok(encode(workspace, tmp_path / "openclaw"))
    gym = [m for m in read_index(workspace)["memories"] if "gym locker" in m["content"]]
    assert len(gym) == 1 and "5521" in gym[0]["content"] and "3141" in gym[0]["history"][0]["content"]


def test_encode_reads_the_state_dir_the_installer_recorded_when_none_is_given(workspace, state):
    (workspace / "memory" / "hippocampus-config.json").write_text(json.dumps({"stateDir": str(state)}))
    ok(run_script("encode", ws=workspace, env={"HOME": str(workspace.parent / "elsewhere")}))
    assert any("oat milk" in m["content"] for m in read_index(workspace)["memories"])


def test_a_recorded_state_dir_that_is_not_an_absolute_path_is_an_error_naming_the_file(workspace):
    (workspace / "memory" / "hippocampus-config.json").write_text(json.dumps({"stateDir": "openclaw"}))
    done = run_script("encode", ws=workspace)
    assert done.returncode == 1 and "hippocampus-config.json" in done.stderr and "stateDir" in done.stderr


# --- episodes -------------------------------------------------------------------------------------------------


def test_what_the_agent_said_is_recalled_with_its_turn_and_never_shown_as_a_memory(workspace, tmp_path):
    state = tmp_path / "openclaw"
    s = Session("e5e5e5e5-0008-4000-8000-000000000008", day(3, 10))
    s.user("Remember that I need to renew my passport before the Osaka trip")
    reply = s.assistant("Your passport appointment is at the Harbor Street office on October 9.")
    s.user("ok thanks!")
    write_jsonl_store(state, {"agent:main:telegram:dm:81234:p": s}, archives=False)
    ok(encode(workspace, state, now="2026-02-03T12:00:00Z"))
    [memory] = read_index(workspace)["memories"]
    assert "passport" in memory["content"] and "Harbor" not in memory["content"]
    assert [t["source"]["message"] for t in memory["episode"]] == [reply, s.last]

    found = json.loads(ok(run_script("recall", "Harbor Street office", "--json", "--no-touch", ws=workspace)).stdout)
    hit = found["results"][0]
    assert hit["sources"][0]["message"] == reply and hit["turn"]["source"]["message"] == reply
    text = ok(run_script("recall", "Harbor Street office", "--no-touch", ws=workspace)).stdout
    assert "turn said by the agent on 2026-02-03: Your passport appointment is at the Harbor Street office" in text

    # A later run finds the session's memory in the store (through the search cache) and attaches to it.
    s.assistant("The Harbor Street office opens at 8:30.")
    write_jsonl_store(state, {"agent:main:telegram:dm:81234:p": s}, archives=False)
    ok(encode(workspace, state, now="2026-02-03T15:00:00Z"))
    [memory] = read_index(workspace)["memories"]
    assert [t["source"]["message"] for t in memory["episode"]][-1] == s.last
    found = json.loads(
        ok(run_script("recall", "when does the office open", "--json", "--no-touch", ws=workspace)).stdout
    )
    assert found["results"][0]["sources"][0]["message"] == s.last

    shown = [
        (workspace / "HIPPOCAMPUS_CORE.md").read_text(encoding="utf-8"),
        ok(run_script("load_core", ws=workspace, now="2026-02-04T08:00:00Z")).stdout,
        *(p.read_text(encoding="utf-8") for p in (workspace / "memory").glob("*/*.md")),
    ]
    assert any("passport" in text for text in shown)
    assert not any("Harbor" in text or "8:30" in text for text in shown)


def test_with_the_agent_s_summaries_the_turns_of_a_session_go_where_its_item_goes(workspace, tmp_path):
    state = tmp_path / "openclaw"
    s = Session("e6e6e6e6-0009-4000-8000-000000000009", day(4, 10))
    s.user("Remember that I need to renew my passport before the Osaka trip")
    reply = s.assistant("Your passport appointment is at the Harbor Street office on October 9.")
    s.user("I'm also planning to visit the Kyoto tea houses on that trip, remember that")
    later = s.assistant("Ippodo in Kyoto is open until 6pm.")
    write_jsonl_store(state, {"agent:main:telegram:dm:81234:q": s}, archives=False)
    ok(encode(workspace, state, "--prepare", now="2026-02-04T12:00:00Z"))
    passport, kyoto = pending_items(workspace)
    assert [a["id"] for a in passport["attached"]] == [reply] and [a["id"] for a in kyoto["attached"]] == [later]
    assert not (workspace / "memory" / "index.json").exists() or read_index(workspace)["memories"] == []
    file = tmp_path / "decisions.json"
    file.write_text(
        json.dumps(
            {
                "decisions": [
                    {
                        "item": passport["id"],
                        "action": "create",
                        "content": "User must renew their passport before Osaka",
                        "keywords": ["passport"],
                        "domain": "user",
                        "category": "context",
                    },
                    {"item": kyoto["id"], "action": "skip", "reason": "not worth a memory"},
                ]
            }
        )
    )
    ok(run_script("encode", "--apply", str(file), ws=workspace, now="2026-02-04T12:05:00Z"))
    [memory] = read_index(workspace)["memories"]
    # The skipped item's reply is still what was said: it joins the session's memory.
    assert [t["source"]["message"] for t in memory["episode"]] == [reply, later]
