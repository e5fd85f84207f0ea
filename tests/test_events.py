"""The shared event log: one valid JSON object a line, whatever the values."""

import json
from datetime import datetime, timezone

import pytest

from hippocampus import events
from hippocampus.workspace import Workspace

NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    "text, value",
    [
        ("3", 3),
        ("-12", -12),
        ("0.25", 0.25),
        ("1.5e3", 1500.0),
        ("0", 0),
        ("007", "007"),
        ("1e400", "1e400"),
        ("NaN", "NaN"),
        ("inf", "inf"),
        ("12abc", "12abc"),
        ("", ""),
        ("3 ", "3 "),
        ("+5", "+5"),
        ("0x1F", "0x1F"),
        ("true", "true"),
    ],
)
def test_values_that_are_plain_numbers_become_numbers_and_the_rest_stay_text(text, value):
    assert events.coerce(text) == value
    assert type(events.coerce(text)) is type(value)


def test_every_event_is_one_valid_json_line_whatever_the_characters(tmp_path):
    ws = Workspace(tmp_path)
    odd = [
        'He said "hi"\nand left',
        "</script><script>alert(1)</script>",
        "tab\there",
        "nul\x00byte",
        "東京 🎉 Привет",
        "\\",
        '{"json": true}',
        "\u2028line separator",
    ]
    for value in odd:
        events.log_event(ws, "note", NOW, {"text": value})
    lines = ws.events.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""
    parsed = [json.loads(line) for line in lines[:-1]]
    assert [p["text"] for p in parsed] == odd
    assert all(p["ts"] == "2026-03-01T12:00:00Z" and p["type"] == "hippocampus" for p in parsed)


def test_reading_events_skips_and_counts_broken_lines(tmp_path):
    ws = Workspace(tmp_path)
    events.log_event(ws, "a", NOW, {})
    with open(ws.events, "a") as handle:
        handle.write("not json\n[1,2]\n")
    events.log_event(ws, "b", NOW, {"n": 1})
    found, skipped = events.read_events(ws)
    assert [e["event"] for e in found] == ["a", "b"] and skipped == 2


def test_fields_named_like_the_logger_s_own_parameters_are_stored_as_given(workspace):
    from conftest import run_script

    done = run_script("log_event", "visit", "now=5", "kind=x", "ws=3", "workspace_=y", ws=workspace)
    assert done.returncode == 0, done.stderr
    entry = json.loads((workspace / "memory" / "brain-events.jsonl").read_text(encoding="utf-8"))
    assert (entry["now"], entry["kind"], entry["ws"], entry["type"]) == (5, "x", 3, "hippocampus")


LOGGED = [
    ("password=hunter22x", "hunter22x"),
    ("note=my password is Sunshine2024", "Sunshine2024"),
    ("db=postgres://app:pa55w0rd@db.example.com/app", "pa55w0rd"),
    ("token=ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    ("card=4111111111111111", "4111111111111111"),  # digits only: stored as text once redacted, never as a number
    ("pin=4821", "4821"),
    ("said=pass\u200bword:\u00a0hunter22x", "hunter22x"),
]


@pytest.mark.parametrize("field, secret", LOGGED)
def test_a_secret_given_to_log_event_is_redacted_before_it_is_written(workspace, field, secret):
    from conftest import run_script

    done = run_script("log_event", "login", field, "hits=3", "--type", "amygdala", "-v", ws=workspace)
    assert done.returncode == 0, done.stderr
    written = (workspace / "memory" / "brain-events.jsonl").read_text(encoding="utf-8")
    assert secret not in written and secret not in done.stdout
    entry = json.loads(written)
    key = field.partition("=")[0]
    assert "[REDACTED:" in entry[key] and entry["hits"] == 3 and entry["type"] == "amygdala"


def test_an_event_s_name_kind_and_field_names_are_redacted_too(tmp_path):
    ws = Workspace(tmp_path)
    token = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789"
    entry = events.log_event(ws, f"used {token}", NOW, {f"key {token}": "x"}, kind=f"skill {token}")
    assert token not in ws.events.read_text(encoding="utf-8") and token not in json.dumps(entry)


def test_the_dashboard_shows_recent_events_of_every_skill_redacted(workspace):
    from conftest import run_script

    secrets = ["hunter22x", "4111 1111 1111 1111", "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"]
    lines = [
        {
            "ts": "2026-03-01T10:00:00Z",
            "type": "amygdala",
            "event": "feeling",
            "trigger": f"my password is {secrets[0]}",
        },
        {"ts": "2026-03-01T10:01:00Z", "type": "vta", "event": "reward", "source": f"paid with card {secrets[1]}"},
        {"ts": "2026-03-01T10:02:00Z", "type": "vta", "event": f"token {secrets[2]}", "password": "hunter22x"},
    ]
    (workspace / "memory" / "brain-events.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8"
    )
    done = run_script("dashboard", ws=workspace)
    assert done.returncode == 0, done.stderr
    page = (workspace / "brain-dashboard.html").read_text(encoding="utf-8")
    assert [s for s in secrets if s in page] == []
    assert "[REDACTED:password]" in page and "[REDACTED:card-number]" in page
