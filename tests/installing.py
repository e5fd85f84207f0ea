"""Helpers for the install tests: run install.py as a user would, stand-ins for `openclaw` and `crontab`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FAKE_OPENCLAW = r'''#!{python}
"""A recording stand-in for the openclaw CLI and its gateway, behaving as OpenClaw 2026.9.6 does.

`cron list --json` hides disabled jobs unless `--all` is given; `cron add` (an agent turn with --message, a command
job with --command-argv), `cron rm`, `cron status`; jobs are kept in a JSON file, shaped as the real CLI lists them.
Like the real gateway it restarts itself when openclaw.json changes: the next command is refused
("admission closed"), then commands fail as unreachable for FAKE_OPENCLAW_RESTART_SECONDS (default 1). With
FAKE_OPENCLAW_DOWN set, no gateway runs at all; with FAKE_OPENCLAW_NO_COMMANDS, `cron add` knows no command jobs.
"""
import json, os, sys, time
home = os.environ["FAKE_OPENCLAW_HOME"]
log, state, gate = (os.path.join(home, name) for name in ("calls.jsonl", "jobs.json", "gateway.json"))
with open(log, "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\n")
jobs = json.load(open(state)) if os.path.exists(state) else []
args = sys.argv[1:]
UNREACHABLE = ("Gateway not reachable at ws://127.0.0.1:18789 (ECONNREFUSED).\n"
               "Start it with `openclaw gateway run` or check `openclaw gateway status`.\n"
               "Gateway target: ws://127.0.0.1:18789\nSource: local loopback\nConfig: {config}\nBind: loopback")
ADMISSION = "gateway rejected websocket upgrade (HTTP 503): Gateway websocket admission closed"

def fail(message):
    print(json.dumps({"ok": False, "error": {"type": "cli_error", "message": message}}, indent=2))
    print(message, file=sys.stderr)
    sys.exit(1)

def gateway():
    state_dir = os.environ.get("OPENCLAW_STATE_DIR") or os.path.join(os.environ["HOME"], ".openclaw")
    config = os.path.join(state_dir, "openclaw.json")
    if os.environ.get("FAKE_OPENCLAW_DOWN"):
        fail(UNREACHABLE.format(config=config))
    seen = os.stat(config).st_mtime_ns if os.path.exists(config) else 0
    now = time.time()
    current = json.load(open(gate)) if os.path.exists(gate) else {"config": seen, "until": 0}
    if current["config"] != seen:  # the watcher noticed a change: restart
        current = {"config": seen, "until": now + float(os.environ.get("FAKE_OPENCLAW_RESTART_SECONDS", "1"))}
        json.dump(current, open(gate, "w"))
        fail(ADMISSION)
    json.dump(current, open(gate, "w"))
    if now < current["until"]:
        fail(UNREACHABLE.format(config=config))

if args[:1] == ["cron"]:
    gateway()
if args[:2] == ["cron", "list"]:
    shown = jobs if "--all" in args else [j for j in jobs if j.get("enabled", True)]
    print(json.dumps({"jobs": shown, "total": len(shown), "offset": 0, "limit": 200, "hasMore": False,
                      "nextOffset": None}, indent=2))
elif args[:2] == ["cron", "status"]:
    print(json.dumps({"enabled": True, "jobs": len(jobs)}))
elif args[:2] == ["cron", "add"]:
    opts = {args[i]: args[i + 1] for i in range(2, len(args) - 1) if args[i].startswith("--")}
    if "--command-argv" in opts and os.environ.get("FAKE_OPENCLAW_NO_COMMANDS"):  # as versions before command jobs
        print("error: unknown option '--command-argv'", file=sys.stderr)
        sys.exit(1)
    if "--command-argv" in opts:
        payload = {"kind": "command", "argv": json.loads(opts["--command-argv"])}
        if "--timeout-seconds" in opts:
            payload["timeoutSeconds"] = int(opts["--timeout-seconds"])
    else:
        if "--agent" not in args:
            print("No --agent specified; the job will run with the configured default agent.", file=sys.stderr)
        payload = {"kind": "agentTurn", "message": opts["--message"]}
    number = sum(1 for _ in open(log))  # every call is logged: a number never given twice
    job = {"id": "job-%d" % number, "name": opts["--name"], "enabled": True,
           "description": opts.get("--description"), "schedule": {"kind": "cron", "expr": opts["--cron"]},
           "sessionTarget": "isolated", "payload": payload}
    jobs.append(job)
    json.dump(jobs, open(state, "w"))
    print(json.dumps(job))
elif args[:2] == ["cron", "rm"]:
    jobs = [j for j in jobs if j["id"] != args[2]]
    json.dump(jobs, open(state, "w"))
else:
    sys.exit(2)
'''

FAKE_CRONTAB = r"""#!/bin/sh
# A stand-in for crontab(1) that keeps the table in $FAKE_CRONTAB_FILE.
if [ "$1" = "-l" ]; then
  if [ -f "$FAKE_CRONTAB_FILE" ]; then cat "$FAKE_CRONTAB_FILE"; exit 0; fi
  echo "no crontab for $(id -un)" >&2; exit 1
fi
if [ "$1" = "-" ]; then cat > "$FAKE_CRONTAB_FILE"; exit 0; fi
exit 2
"""


class Machine:
    """A temporary HOME with an OpenClaw state dir and workspace, and optional stand-ins on PATH."""

    def __init__(self, base: Path, openclaw: bool = False):
        self.base = base
        self.home = base / "home"
        self.state = self.home / ".openclaw"
        self.workspace = self.state / "workspace"
        self.bin = base / "bin"
        self.bin.mkdir(parents=True, exist_ok=True)
        self.state.mkdir(parents=True, exist_ok=True)
        self.crontab_file = base / "crontab.txt"
        crontab = self.bin / "fake-crontab"
        crontab.write_text(FAKE_CRONTAB)
        crontab.chmod(0o755)
        self.crontab = crontab
        self.openclaw_home = base / "openclaw-calls"
        self.openclaw_home.mkdir(exist_ok=True)
        if openclaw:
            tool = self.bin / "openclaw"
            tool.write_text(FAKE_OPENCLAW.replace("{python}", sys.executable))
            tool.chmod(0o755)

    def env(self, **extra) -> dict:
        path = [str(self.bin)] + [
            p for p in os.environ.get("PATH", "").split(os.pathsep) if p and not (Path(p) / "openclaw").exists()
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WORKSPACE", "OPENCLAW", "HIPPOCAMPUS"))}
        env.update(
            HOME=str(self.home),
            PATH=os.pathsep.join(path),
            HIPPOCAMPUS_CRONTAB=str(self.crontab),
            FAKE_CRONTAB_FILE=str(self.crontab_file),
            FAKE_OPENCLAW_HOME=str(self.openclaw_home),
        )
        env.update(extra)
        return env

    def install(
        self, *args: str, root: Path = ROOT, python: str = sys.executable, timeout: float = 300, **env
    ) -> subprocess.CompletedProcess:
        return subprocess.run(
            [python, str(root / "install.py"), *args],
            capture_output=True,
            text=True,
            env=self.env(**env),
            cwd=self.base,
            timeout=timeout,
        )

    def openclaw(self, *args: str, **env) -> subprocess.CompletedProcess:
        """Run the `openclaw` stand-in as the installer would."""
        return subprocess.run(
            [str(self.bin / "openclaw"), *args], capture_output=True, text=True, env=self.env(**env), timeout=60
        )

    def openclaw_calls(self) -> list[list[str]]:
        log = self.openclaw_home / "calls.jsonl"
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]

    def openclaw_jobs(self) -> list[dict]:
        state = self.openclaw_home / "jobs.json"
        return json.loads(state.read_text()) if state.exists() else []

    def seed_openclaw_jobs(self, jobs: list[dict]) -> None:
        (self.openclaw_home / "jobs.json").write_text(json.dumps(jobs))


def snapshot(*folders: Path) -> dict:
    """Every file under the folders: bytes and modification time (a rewrite with the same bytes still shows)."""
    out = {}
    for folder in folders:
        if folder.is_file():
            out[str(folder)] = (folder.read_bytes(), folder.stat().st_mtime_ns)
            continue
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                out[str(path)] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out
