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
