"""reflect.py as the agent runs it in its weekly turn: the prompt, then --apply with its answer file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import memory, read_index, run_script, write_index
from reliability import lock_taken_after_the_index_is_replaced

NOW = "2026-03-01T05:29:00Z"  # Sunday of ISO week 2026-W09


@pytest.fixture
def ws(workspace) -> Path:
    write_index(
        workspace,
        [
            memory("mem_001", "User prefers oat milk flat whites", 0.8, category="preferences", created="2026-02-26"),
            memory(
                "mem_002",
                "Thanks, you're the best! That refactor was great work",
                0.82,
                domain="relationship",
                category="feedback",
                created="2026-02-27",
            ),
            memory(
                "mem_003",
                "I am Nova; I believe short answers work best for Dana",
                0.7,
                domain="self",
                category="identity",
                created="2026-02-28",
            ),
            memory(
                "mem_004",
                "User's sister Lea lives in Berlin",
                0.7,
                created="2026-01-10",
                sources=[{"session": "s1", "message": "m1", "ts": "2026-02-25T10:00:00Z"}],
            ),
            memory("mem_005", "User mentioned the old bike shop on Elm Street", 0.6, created="2026-01-05"),
            memory("mem_006", "User's gym locker code is 3141", 0.7, created="2026-02-26", supersededBy="mem_007"),
        ],
        version=2,
    )
    return workspace


def reflect(ws: Path, *args: str, now: str = NOW):
    return run_script("reflect", *args, ws=ws, now=now)


def answers(ws: Path, entries: list, week: str = "2026-W09") -> Path:
    path = ws / "memory" / "reflections" / f"{week}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"reflection": week, "answers": entries}), encoding="utf-8")
    return path


def test_the_prompt_lists_this_weeks_memories_by_section_and_states_the_answer_file(ws):
    done = reflect(ws)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("# Weekly reflection 2026-W09 (2026-02-22 to 2026-03-01)")
    user = text.split("## What you learned about the user (2)", 1)[1].split("##", 1)[0]
    assert "mem_001 [0.80] User prefers oat milk flat whites (new)" in user
    assert "mem_004 [0.70] User's sister Lea lives in Berlin (again)" in user
    between = text.split("## Between you: thanks, feelings, feedback (1)", 1)[1].split("##", 1)[0]
    assert "mem_002" in between
    assert "mem_003" in text.split("## What you said about yourself (1)", 1)[1]
    assert "mem_005" not in text, "a memory neither made nor mentioned this week is not listed"
    assert "mem_006" not in text, "a superseded memory is not listed"
    assert text.count('(domain "relationship")') == 2 and text.count('(domain "self")') == 1
    target = ws / "memory" / "reflections" / "2026-W09.json"
    assert f"Write one JSON file, {target}," in text
    assert f"--apply {target}" in text and "reflect.py --workspace" in text


def test_the_example_the_prompt_shows_is_a_file_apply_accepts(ws):
    data = json.loads(reflect(ws, "--json").stdout)
    assert data["reflection"] == "2026-W09"
    assert [q["domain"] for q in data["questions"]] == ["relationship", "relationship", "self"]
    path = Path(data["answerFile"])
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data["example"]))
    done = reflect(ws, "--apply", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 new" in done.stdout


def test_answers_become_relationship_and_self_memories_whose_sources_name_the_reflection(ws):
    path = answers(
        ws,
        [
            {
                "domain": "relationship",
                "content": "Dana likes being thanked back briefly; long replies to praise feel awkward to her.",
                "about": ["mem_002"],
                "keywords": ["praise"],
            },
            {
                "domain": "self",
                "content": "I work best when I ask one clarifying question first.",
                "importance": 0.9,
                "category": "habits",
            },
        ],
    )
    done = reflect(ws, "--apply", str(path))
    assert done.returncode == 0, done.stderr
    made = [m for m in read_index(ws)["memories"] if m.get("kind") == "reflection"]
    assert [(m["id"], m["domain"], m["category"], m["importance"]) for m in made] == [
        ("mem_007", "relationship", "insight", 0.75),
        ("mem_008", "self", "habits", 0.9),
    ]
    source = made[0]["sources"][0]
    assert source["reflection"] == "2026-W09" and source["about"] == ["mem_002"] and source["ts"] == NOW
    assert made[0]["keywords"] == ["praise"]
    event = json.loads((ws / "memory" / "brain-events.jsonl").read_text().splitlines()[-1])
    assert event["event"] == "reflection" and event["new"] == 2
    assert "ask one clarifying question" in (ws / "memory" / "self" / "habits.md").read_text()


def test_applying_the_same_file_twice_changes_no_byte_of_the_index(ws):
    path = answers(ws, [{"domain": "self", "content": "I explain too much when a task is unclear."}])
    assert reflect(ws, "--apply", str(path)).returncode == 0
    before = (ws / "memory" / "index.json").read_bytes()
    again = reflect(ws, "--apply", str(path), now="2026-03-01T09:00:00Z")
    assert again.returncode == 0 and "1 already applied" in again.stdout
    assert (ws / "memory" / "index.json").read_bytes() == before


def test_an_answer_that_says_what_a_memory_already_says_reinforces_it(ws):
    path = answers(ws, [{"domain": "self", "content": "I am Nova; I believe short answers work best for Dana"}])
    done = reflect(ws, "--apply", str(path))
    assert done.returncode == 0 and "0 new, 1 reinforced" in done.stdout
    nova = next(m for m in read_index(ws)["memories"] if m["id"] == "mem_003")
    assert nova["timesReinforced"] == 1 and nova["sources"][-1]["reflection"] == "2026-W09"


@pytest.mark.parametrize(
    "entry, error",
    [
        ({"domain": "user", "content": "Dana likes tea"}, "`domain` must be one of relationship, self"),
        ({"domain": "self", "content": "   "}, "`content` must be non-empty text"),
        ({"domain": "self", "content": "x" * 301}, "`content` must be at most 300 characters"),
        ({"domain": "self", "content": "ok", "importance": 1.5}, "`importance` must be a number from 0 to 1"),
        ({"domain": "self", "content": "ok", "importance": True}, "`importance` must be a number from 0 to 1"),
        ({"domain": "self", "content": "ok", "category": "Big Ideas"}, "`category` must be a lower-case word"),
        ({"domain": "self", "content": "ok", "keywords": "tea"}, "`keywords` must be a list"),
        ({"domain": "self", "content": "ok", "about": ["mem_999"]}, "`about` names no memory of the index: mem_999"),
        ({"domain": "self", "content": "ok", "mood": "glad"}, "unknown field(s): mood"),
        ("I learned a lot", "an answer must be an object"),
    ],
)
def test_every_field_of_an_answer_is_validated_and_an_invalid_one_is_reported_while_the_rest_apply(ws, entry, error):
    path = answers(ws, [entry, {"domain": "self", "content": "I keep promises about reminders."}])
    done = reflect(ws, "--apply", str(path))
    assert done.returncode == 1
    assert f"invalid answer #0: {error}" in done.stdout
    assert "1 new" in done.stdout
    assert [m["content"] for m in read_index(ws)["memories"] if m.get("kind") == "reflection"] == [
        "I keep promises about reminders."
    ]


@pytest.mark.parametrize(
    "body, error",
    [
        ({"reflection": "week 9", "answers": []}, "`reflection` must name the week"),
        ({"reflection": "2026-W09"}, "must hold"),
        ({"reflection": "2026-W09", "answers": [], "notes": "x"}, "unknown top-level field(s): notes"),
        ([], "must hold"),
    ],
)
def test_a_file_that_is_not_an_answer_file_is_one_error_and_changes_nothing(ws, body, error):
    path = ws / "answers.json"
    path.write_text(json.dumps(body))
    before = (ws / "memory" / "index.json").read_bytes()
    done = reflect(ws, "--apply", str(path))
    assert done.returncode == 1 and error in done.stderr and done.stderr.startswith("error: ")
    assert (ws / "memory" / "index.json").read_bytes() == before


def test_printing_the_prompt_changes_nothing(ws):
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    assert reflect(ws, "--week").returncode == 0
    assert {p: p.read_bytes() for p in ws.rglob("*") if p.is_file() and ".cache" not in p.parts} == before


def test_an_answer_file_nested_too_deeply_is_one_line_of_error(tmp_path):
    from conftest import run_script

    ws = tmp_path / "workspace"
    (ws / "memory").mkdir(parents=True)
    deep = tmp_path / "answers.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    done = run_script("reflect", "--apply", str(deep), ws=ws)
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_cron_apply_keeps_the_lock_from_its_save_to_its_refresh_and_logs_its_event(ws):
    path = answers(
        ws,
        [{"domain": "self", "content": "I work best when I ask one clarifying question first.", "category": "habits"}],
    )
    with lock_taken_after_the_index_is_replaced(ws) as got:
        done = reflect(ws, "--apply", str(path), "--cron")
    assert got.exists()
    assert done.returncode == 0, done.stderr
    event = json.loads((ws / "memory" / "brain-events.jsonl").read_text().splitlines()[-1])
    assert event["event"] == "reflection" and event["new"] == 1
    assert "ask one clarifying question" in (ws / "memory" / "self" / "habits.md").read_text()
