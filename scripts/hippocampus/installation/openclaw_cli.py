"""Running the `openclaw` CLI: the cause of a failure in one line, whether the gateway accepts commands, and waiting
for it to come back after openclaw.json changed (a running gateway restarts itself when `memory.search` changes, and
refuses commands for a few seconds: "Gateway websocket admission closed", then "Gateway not reachable").

The clock and the pause are parameters, so the waiting can be tested without waiting.
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import dataclass

TIMEOUT = 60
# After openclaw.json changed: how long a restart may take to begin (the gateway notices the change within about a
# second) and how long to wait in all for the gateway to accept commands again (a restart takes 5 to 15 seconds).
RESTART_BEGINS_WITHIN = 15.0
READY_WITHIN = 120.0
POLL_EVERY = 0.5

# Lines the CLI prints around an error that are not its cause: warnings, hints and the context it adds below.
_NOT_A_CAUSE = (
    "No --agent specified",
    "(node:",
    "(Use `node",
    "Upgrade tip",
    "Tip:",
    "Hint:",
    "Docs:",
    "Start it with",
    "Gateway target:",
    "Source:",
    "Config:",
    "Bind:",
)


def cause(stdout: str, stderr: str, returncode: int | None = None) -> str:
    """The first meaningful line of a failed command: the message of its JSON error, else the first line of stderr
    that is not a warning or a hint, else the first line of stdout, else the exit code."""
    try:
        data = json.loads(stdout) if stdout.strip().startswith("{") else None
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        message = data["error"].get("message")
        if isinstance(message, str) and message.strip():
            return message.strip().splitlines()[0].strip()
    for text in (stderr, stdout):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        meaningful = [line for line in lines if not line.startswith(_NOT_A_CAUSE)]
        if meaningful:
            return meaningful[0]
    return f"exit code {returncode}" if returncode is not None else "no output"


@dataclass(frozen=True)
class Outcome:
    ok: bool
    stdout: str = ""
    cause: str = ""


def run(argv, timeout: float = TIMEOUT) -> Outcome:
    """Run one openclaw command; a failure carries its cause."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Outcome(False, cause=f"no answer within {timeout:g} s")
    except OSError as exc:
        return Outcome(False, cause=str(exc))
    if done.returncode != 0:
        return Outcome(False, done.stdout, cause(done.stdout, done.stderr, done.returncode))
    return Outcome(True, done.stdout)


def probe(openclaw: str) -> Outcome:
    """Does the gateway accept commands? (`openclaw cron status --json`: cheap, and the scheduler is what we use.)"""
    return run((openclaw, "cron", "status", "--json"), timeout=30)


@dataclass(frozen=True)
class Waited:
    """How the wait for the gateway ended: `restarted`, `no-restart` (it kept answering) or `timeout`."""

    how: str
    seconds: float
    cause: str = ""


def wait_for_restart(
    openclaw: str,
    probe_fn=probe,
    clock=time.monotonic,
    pause=time.sleep,
    begins_within: float = RESTART_BEGINS_WITHIN,
    ready_within: float = READY_WITHIN,
) -> Waited:
    """After openclaw.json changed under a running gateway: wait until it has restarted and accepts commands again.

    A gateway that keeps answering for `begins_within` seconds did not restart (its reload mode may be off);
    one that has not come back within `ready_within` seconds ends the wait with the last cause."""
    start = clock()
    went_down = False
    last = ""
    while True:
        outcome = probe_fn(openclaw)
        elapsed = clock() - start
        if not outcome.ok:
            went_down, last = True, outcome.cause
        elif went_down:
            return Waited("restarted", elapsed)
        elif elapsed >= begins_within:
            return Waited("no-restart", elapsed)
        if elapsed >= ready_within:
            return Waited("timeout", elapsed, last)
        pause(POLL_EVERY)
