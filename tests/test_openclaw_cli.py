"""The cause of a failed openclaw command, from what OpenClaw 2026.9.6 really prints."""

import json

from hippocampus.installation.openclaw_cli import cause

UNREACHABLE = (
    "Gateway not reachable at ws://127.0.0.1:18790 (ECONNREFUSED).\n"
    "Start it with `openclaw gateway run` or check `openclaw gateway status`.\n"
    "Gateway target: ws://127.0.0.1:18790\nSource: local loopback\nConfig: /h/.openclaw/openclaw.json\n"
    "Bind: loopback\n"
)


def test_the_cause_is_the_first_line_of_the_json_error_not_the_context_below_it():
    stdout = json.dumps({"ok": False, "error": {"type": "cli_error", "message": UNREACHABLE.strip()}}, indent=2)
    assert cause(stdout, UNREACHABLE, 1) == "Gateway not reachable at ws://127.0.0.1:18790 (ECONNREFUSED)."
    assert cause("", UNREACHABLE, 1) == "Gateway not reachable at ws://127.0.0.1:18790 (ECONNREFUSED)."


def test_a_warning_printed_before_the_error_is_not_taken_for_its_cause():
    stderr = (
        "No --agent specified; the job will run with the configured default agent.\n"
        "gateway rejected websocket upgrade (HTTP 503): Gateway websocket admission closed\n"
    )
    assert cause("", stderr, 1) == "gateway rejected websocket upgrade (HTTP 503): Gateway websocket admission closed"


def test_a_silent_failure_is_named_by_its_exit_code():
    assert cause("", "\n", 3) == "exit code 3"
    assert cause("not json {", "", 1) == "not json {"
