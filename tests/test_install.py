"""install.py as a user runs it: a temporary HOME, real files, stand-ins only for `openclaw` and `crontab`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import memory, read_index, run_script, write_index
from installing import FAKE_OPENCLAW, ROOT, Machine, snapshot
from transcript_fixtures import Session, write_jsonl_store

NOW = "2026-03-01T12:00:00Z"

OLD_AGENTS = """# AGENTS.md - Your Workspace

## Every Session
1. Read SOUL.md
2. Run `~/.openclaw/workspace/skills/hippocampus/scripts/load-core.sh`

## When answering context questions
Use hippocampus recall:
```bash
./scripts/recall.sh "query"
```

## Safety
Don't exfiltrate private data.
"""


@pytest.fixture
def machine(tmp_path) -> Machine:
    m = Machine(tmp_path)
    m.workspace.mkdir(parents=True)
    (m.workspace / "AGENTS.md").write_text(OLD_AGENTS)
    (m.state / "openclaw.json").write_text(json.dumps({"gateway": {"port": 18789}}, indent=2) + "\n")
    return m


@pytest.fixture
def claw(tmp_path) -> Machine:
    m = Machine(tmp_path, openclaw=True)
    m.workspace.mkdir(parents=True)
    return m


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_plain_install_creates_the_layout_an_empty_index_and_the_first_run_limit(machine):
    out = ok(machine.install("--now", NOW))
    ws = machine.workspace
    for domain in ("user", "self", "relationship", "world"):
        assert (ws / "memory" / domain / "README.md").is_file()
    assert read_index(ws)["version"] == 2 and read_index(ws)["memories"] == []
    assert (ws / "HIPPOCAMPUS_CORE.md").is_file()
    assert json.loads((ws / "memory" / "hippocampus-config.json").read_text()) == {"firstRun": {"signals": 200}}
    assert "already importable" in out


def test_a_plain_install_schedules_the_jobs_and_the_agents_block_says_encoding_runs_every_3_hours(machine):
    out = ok(machine.install("--now", NOW))
    assert "scripts/encode.py --cron" in machine.crontab_file.read_text()
    assert "crontab block" in out and "created" in out
    agents = (machine.workspace / "AGENTS.md").read_text()
    assert "at the next encoding run, every 3 hours" in agents and "Nothing encodes" not in agents


def test_without_a_scheduler_the_install_says_nothing_runs_and_the_agents_block_does_not_promise_it(machine):
    out = ok(machine.install("--now", NOW, HIPPOCAMPUS_CRONTAB=str(machine.base / "nowhere")))
    assert "nothing runs on a schedule" in out and "scripts/decay.py --cron || [ $? -eq 75 ]" in out
    agents = (machine.workspace / "AGENTS.md").read_text()
    assert "every 3 hours" not in agents and "Nothing encodes this conversation on a schedule" in agents
    assert "scripts/encode.py --workspace" in agents


def test_no_cron_schedules_nothing_says_so_and_a_later_install_schedules(machine):
    out = ok(machine.install("--no-cron", "--now", NOW))
    assert not machine.crontab_file.exists()
    assert "--no-cron: nothing runs on a schedule" in out
    assert "Nothing encodes this conversation" in (machine.workspace / "AGENTS.md").read_text()
    ok(machine.install("--now", NOW))
    assert "scripts/encode.py --cron" in machine.crontab_file.read_text()
    assert "every 3 hours" in (machine.workspace / "AGENTS.md").read_text()


def test_a_second_install_changes_no_file(machine):
    ok(machine.install("--now", NOW))
    before = snapshot(machine.home, machine.crontab_file)
    out = ok(machine.install("--now", "2026-03-02T08:00:00Z"))
    assert snapshot(machine.home, machine.crontab_file) == before
    changes = [line for line in out.splitlines() if line.split()[:1] in (["created"], ["updated"], ["removed"])]
    assert changes == [], out


def test_an_old_skill_workspace_is_taken_over_without_duplicates(claw):
    ws = claw.workspace
    original = write_index(
        ws,
        [
            memory("mem_001", "User prefers concise responses", 0.85),
            memory("mem_007", "Lea's birthday is on June 14", 0.9),
        ],
        lastUpdated="2026-01-20T19:00:00",
        decayLastRun="2026-01-20",
    ).read_bytes()
    (ws / "AGENTS.md").write_text(OLD_AGENTS)
    (claw.state / "openclaw.json").write_text(
        json.dumps({"agents": {"defaults": {"memorySearch": {"extraPaths": ["HIPPOCAMPUS_CORE.md"]}}}})
    )
    claw.seed_openclaw_jobs(
        [
            {
                "id": "old-1",
                "name": "hippocampus-encoding",
                "schedule": {"kind": "cron", "expr": "0 3 * * *"},
                "payload": {"kind": "agentTurn", "message": "Run encode-pipeline.sh"},
            },
            {
                "id": "old-2",
                "name": "hippocampus-decay",
                "schedule": {"kind": "cron", "expr": "0 3 * * *"},
                "payload": {"kind": "agentTurn", "message": "Run decay.sh and report any memories below 0.2"},
            },
            {"id": "mine", "name": "morning-brief", "schedule": {"kind": "cron", "expr": "0 7 * * *"}},
        ]
    )
    out = ok(claw.install("--now", NOW))

    index = read_index(ws)
    assert index["version"] == 2 and [m["id"] for m in index["memories"]] == ["mem_001", "mem_007"]
    assert (ws / "memory" / "backups" / "index.v1.original.json").read_bytes() == original
    assert "migrated" in out
    agents = (ws / "AGENTS.md").read_text()
    assert agents.count("<!-- hippocampus:start -->") == 1 and "load-core.sh" not in agents
    assert "recall.sh" not in agents and "1. Read SOUL.md" in agents and "Don't exfiltrate" in agents
    assert list(ws.glob("AGENTS.md.bak-*")), "the file is backed up before old lines are removed"
    config = json.loads((claw.state / "openclaw.json").read_text())
    assert config == {}, "the old skill's memory-search path is taken out, and the rejected key with it"
    names = sorted(j["name"] for j in claw.openclaw_jobs())
    assert names == [
        "hippocampus-consolidation",
        "hippocampus-decay",
        "hippocampus-encoding",
        "hippocampus-reflection",
        "morning-brief",
    ]
    assert ["cron", "rm", "old-1"] in claw.openclaw_calls() and ["cron", "rm", "old-2"] in claw.openclaw_calls()
    kinds = {j["name"]: j.get("payload", {}).get("kind") for j in claw.openclaw_jobs()}
    assert kinds["hippocampus-encoding"] == kinds["hippocampus-decay"] == "command"

    before = snapshot(claw.home, claw.openclaw_home / "jobs.json")
    ok(claw.install("--now", "2026-03-05T00:00:00Z"))
    assert snapshot(claw.home, claw.openclaw_home / "jobs.json") == before


def test_encoding_decay_and_consolidation_are_command_jobs_and_only_the_reflection_is_an_agent_turn(claw):
    out = ok(claw.install("--agent", "work", "--now", NOW))
    adds = [call for call in claw.openclaw_calls() if call[:2] == ["cron", "add"]]
    assert len(adds) == 4
    scripts = {
        "hippocampus-encoding": ["encode.py", "--cron", "--agent", "work"],
        "hippocampus-decay": ["decay.py", "--cron"],
        "hippocampus-consolidation": ["consolidate.py", "--cron"],
    }
    schedules = {}
    for call in adds:
        opts = {call[i]: call[i + 1] for i in range(2, len(call) - 1) if call[i].startswith("--")}
        assert opts["--agent"] == "work" and "--no-deliver" in call
        schedules[opts["--name"]] = opts["--cron"]
        if opts["--name"] == "hippocampus-reflection":
            assert opts["--session"] == "isolated" and "--light-context" in call and "--command-argv" not in call
            message = opts["--message"]
            assert "\n" in message and "\\n" not in message
            assert f"{ROOT / 'scripts' / 'reflect.py'} --week --workspace {claw.workspace}" in message
            assert "--apply" in message and "three questions" in message
            assert "uses the model" in opts["--description"]
            continue
        assert "--message" not in call and "--light-context" not in call
        argv = json.loads(opts["--command-argv"])
        script, *flags = scripts[opts["--name"]]
        assert argv[:3] == ["/bin/sh", "-c", '"$@" || [ $? -eq 75 ]']
        assert argv[4:] == [sys.executable, str(ROOT / "scripts" / script), *flags, "--workspace", str(claw.workspace)]
        assert "no model call" in opts["--description"] and int(opts["--timeout-seconds"]) >= 600
    assert schedules == {
        "hippocampus-encoding": "17 */3 * * *",
        "hippocampus-decay": "43 4 * * *",
        "hippocampus-consolidation": "13 5 * * 0",
        "hippocampus-reflection": "29 5 * * 0",
    }
    minutes = [s.split()[0] for s in schedules.values()]
    assert len(set(minutes)) == len(minutes), "no two jobs start at the same minute"
    assert out.count("no model call") == 3 and "an agent turn" in out


def test_a_command_job_exits_0_when_another_run_holds_the_lock_and_1_on_an_error(claw, tmp_path):
    ok(claw.install("--now", NOW))
    decay = next(j for j in claw.openclaw_jobs() if j["name"] == "hippocampus-decay")
    argv = decay["payload"]["argv"]
    held = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(claw.workspace / "memory" / ".hippocampus.lock")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert held.stdout is not None and held.stdout.readline().strip() == "locked"
        busy = subprocess.run(argv, capture_output=True, text=True, env=claw.env(), timeout=120)
    finally:
        held.kill()
        held.wait()
    assert busy.returncode == 0, busy.stderr
    broken = [*argv[:-1], str(tmp_path / "no-such-workspace")]
    failed = subprocess.run(broken, capture_output=True, text=True, env=claw.env(), timeout=120)
    assert failed.returncode == 1 and failed.stderr.startswith("error: workspace"), failed.stderr
    done = subprocess.run(argv, capture_output=True, text=True, env=claw.env(), timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), "quiet on success"


LOCK_HOLDER = """
import fcntl, sys, time
handle = open(sys.argv[1], "a")
fcntl.flock(handle, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(120)
"""


def test_when_openclaw_cannot_list_its_jobs_nothing_is_added_and_install_says_why(claw):
    done = claw.install("--now", NOW, FAKE_OPENCLAW_DOWN="1")
    assert done.returncode == 1
    assert "Gateway not reachable at ws://127.0.0.1:18789 (ECONNREFUSED)." in done.stdout
    assert "Bind: loopback" not in done.stdout, "the cause is shown, not the last line of the CLI's output"
    assert "openclaw cron add" in done.stdout and "nothing runs on a schedule yet" in done.stdout
    assert not [c for c in claw.openclaw_calls() if c[:2] == ["cron", "add"]]
    assert (
        "every 3 hours" not in (claw.workspace / "AGENTS.md").read_text()
        if (claw.workspace / "AGENTS.md").exists()
        else True
    )


def test_an_openclaw_without_command_jobs_keeps_the_earlier_jobs_and_the_install_says_why(claw):
    (claw.workspace / "AGENTS.md").write_text("# AGENTS.md\n")
    earlier = {"id": "old-1", "name": "hippocampus-encoding", "schedule": {"kind": "cron", "expr": "17 */3 * * *"}}
    claw.seed_openclaw_jobs([{**earlier, "payload": {"kind": "agentTurn", "message": "Run encode.py"}}])
    done = claw.install("--now", NOW, FAKE_OPENCLAW_NO_COMMANDS="1")
    assert done.returncode == 1 and "unknown option '--command-argv'" in done.stdout
    assert "the earlier job of that name is left as it was" in done.stdout
    assert [j["id"] for j in claw.openclaw_jobs() if j["name"] == "hippocampus-encoding"] == ["old-1"]
    assert "every 3 hours" in (claw.workspace / "AGENTS.md").read_text(), "the earlier job still encodes"


def test_a_disabled_job_of_ours_is_seen_so_reinstalling_keeps_one_and_uninstalling_removes_it(claw):
    ok(claw.install("--now", NOW))
    jobs = claw.openclaw_jobs()
    for job in jobs:
        job["enabled"] = job["name"] != "hippocampus-decay"  # the user paused the decay job
    claw.seed_openclaw_jobs(jobs)
    ok(claw.install("--now", NOW))
    names = [j["name"] for j in claw.openclaw_jobs()]
    assert names.count("hippocampus-decay") == 1 and len(names) == 4
    assert all("--all" in call for call in claw.openclaw_calls() if call[:2] == ["cron", "list"])
    ok(claw.install("--uninstall", "--now", NOW))
    assert claw.openclaw_jobs() == []


def test_an_earlier_installs_search_paths_are_taken_out_after_the_jobs_and_the_restart_is_waited_for(claw):
    earlier = {
        "gateway": {"mode": "local", "port": 18789},
        "memory": {"search": {"provider": "openai", "extraPaths": ["notes.md", "HIPPOCAMPUS_CORE.md", "memory/user"]}},
    }
    (claw.state / "openclaw.json").write_text(json.dumps(earlier))
    assert claw.openclaw("cron", "status").returncode == 0, "the gateway runs"
    out = ok(claw.install("--now", NOW, FAKE_OPENCLAW_RESTART_SECONDS="3"))
    assert sorted(j["name"] for j in claw.openclaw_jobs()) == [
        "hippocampus-consolidation",
        "hippocampus-decay",
        "hippocampus-encoding",
        "hippocampus-reflection",
    ]
    assert "waiting for the OpenClaw gateway" in out and "accepts commands again" in out
    listed = claw.openclaw("cron", "list", "--all", "--json")
    assert listed.returncode == 0, "install.py returns once the restarted gateway answers: " + listed.stderr
    config = json.loads((claw.state / "openclaw.json").read_text())
    assert config["memory"]["search"] == {"provider": "openai", "extraPaths": ["notes.md"]}
    assert "OpenClaw indexes memory/**/*.md" in out


def test_the_config_openclaw_config_path_names_is_the_one_cleaned(claw):
    """OpenClaw reads its config from $OPENCLAW_CONFIG_PATH when it is set (a config kept outside the state dir):
    that file loses an earlier install's paths, and a file at the default place is not touched."""
    earlier = {"memory": {"search": {"extraPaths": ["notes.md", "HIPPOCAMPUS_CORE.md"]}}}
    elsewhere = claw.base / "configs" / "main.json"
    elsewhere.parent.mkdir()
    elsewhere.write_text(json.dumps(earlier))
    default = json.dumps(earlier) + "\n"
    (claw.state / "openclaw.json").write_text(default)
    ok(claw.install("--now", NOW, OPENCLAW_CONFIG_PATH=str(elsewhere)))
    assert json.loads(elsewhere.read_text())["memory"]["search"] == {"extraPaths": ["notes.md"]}
    assert (claw.state / "openclaw.json").read_text() == default


def test_a_config_without_our_paths_is_left_as_it_is_and_the_gateway_is_not_restarted(claw):
    text = json.dumps({"gateway": {"port": 18789}}, indent=2) + "\n"
    (claw.state / "openclaw.json").write_text(text)
    out = ok(claw.install("--now", NOW))
    assert (claw.state / "openclaw.json").read_text() == text and not list(claw.state.glob("openclaw.json.bak-*"))
    assert "waiting" not in out


def test_with_no_gateway_running_the_config_change_is_not_waited_for(machine):
    (machine.bin / "openclaw").write_text(FAKE_OPENCLAW.replace("{python}", sys.executable))
    (machine.bin / "openclaw").chmod(0o755)
    config = machine.state / "openclaw.json"
    config.write_text(json.dumps({"memory": {"search": {"extraPaths": ["memory/world", "memory/self"]}}}))
    done = machine.install("--now", NOW, FAKE_OPENCLAW_DOWN="1")
    assert "waiting" not in done.stdout
    assert json.loads(config.read_text()) == {}


def test_the_crontab_block_is_inserted_updated_and_removed_around_the_users_lines(machine):
    mine = "MAILTO=me@example.org\n0 1 * * * /usr/local/bin/backup %H\n"
    machine.crontab_file.write_text(mine)
    ok(machine.install("--now", NOW))
    table = machine.crontab_file.read_text()
    assert table.startswith(mine) and table.count("# hippocampus:start") == 1
    lines = [line for line in table.splitlines() if "scripts/" in line]
    assert len(lines) == 3 and all("--cron || [ $? -eq 75 ]" in line for line in lines)
    assert all(f"WORKSPACE={machine.workspace}" in line for line in lines)
    assert len({line.split()[0] for line in lines}) == 3
    assert lines[2].startswith("13 5 * * 0 ") and "scripts/consolidate.py --cron" in lines[2]
    assert "reflect.py" not in table, "the reflection is the agent's own turn: no crontab line"

    stale = table.replace("17 */3 * * *", "0 3 * * *")
    machine.crontab_file.write_text(stale)
    out = ok(machine.install("--now", NOW))
    assert "updated" in out and machine.crontab_file.read_text() == table

    ok(machine.install("--uninstall", "--now", NOW))
    assert machine.crontab_file.read_text() == mine


@pytest.mark.skipif(shutil.which("crontab") is None, reason="no crontab program on this machine")
def test_the_real_crontab_gets_the_block_and_loses_it_again(machine):
    saved = subprocess.run(["crontab", "-l"], capture_output=True, text=True)
    try:
        subprocess.run(["crontab", "-"], input="# a line of mine\n", text=True, check=True)
        ok(machine.install("--now", NOW, HIPPOCAMPUS_CRONTAB="crontab"))
        table = subprocess.run(["crontab", "-l"], capture_output=True, text=True, check=True).stdout
        assert table.startswith("# a line of mine\n") and "scripts/encode.py --cron" in table
        ok(machine.install("--uninstall", "--now", NOW, HIPPOCAMPUS_CRONTAB="crontab"))
        table = subprocess.run(["crontab", "-l"], capture_output=True, text=True, check=True).stdout
        assert "hippocampus" not in table and "# a line of mine" in table
    finally:
        if saved.returncode == 0:
            subprocess.run(["crontab", "-"], input=saved.stdout, text=True, check=True)
        else:
            subprocess.run(["crontab", "-r"], capture_output=True)


def test_a_json5_openclaw_json_with_our_old_paths_is_left_untouched_and_what_to_remove_is_printed(machine):
    text = "// my settings\n{\n  memory: { search: { extraPaths: ['HIPPOCAMPUS_CORE.md', 'notes.md'], }, },\n}\n"
    config = machine.state / "openclaw.json"
    config.write_text(text)
    out = ok(machine.install("--now", NOW))
    assert config.read_text() == text and not list(machine.state.glob("openclaw.json.bak-*"))
    assert "not plain JSON" in out and '"HIPPOCAMPUS_CORE.md"' in out and "by hand" in out


def test_a_json5_openclaw_json_without_our_paths_needs_nothing(machine):
    text = "// my settings\n{ gateway: { port: 1, }, }\n"
    (machine.state / "openclaw.json").write_text(text)
    out = ok(machine.install("--now", NOW))
    assert "by hand" not in out.split("openclaw.json", 1)[1].split("\n")[0]
    assert (machine.state / "openclaw.json").read_text() == text


@pytest.mark.parametrize("flags, recorded", [(["--signals", "50"], {"signals": 50}), (["--whole"], {"whole": True})])
def test_signals_and_whole_are_recorded_for_the_first_encoding(machine, flags, recorded):
    ok(machine.install(*flags, "--now", NOW))
    config = machine.workspace / "memory" / "hippocampus-config.json"
    assert json.loads(config.read_text()) == {"firstRun": recorded}
    ok(machine.install("--now", NOW))
    assert json.loads(config.read_text()) == {"firstRun": recorded}, "a later plain install keeps the choice"


def test_signals_and_whole_together_are_a_usage_error(machine):
    done = machine.install("--signals", "5", "--whole")
    assert done.returncode == 2 and "not allowed with" in done.stderr


def test_a_dry_run_changes_nothing_and_says_what_it_would_do(machine):
    before = snapshot(machine.home)
    out = ok(machine.install("--dry-run", "--now", NOW))
    assert snapshot(machine.home) == before and not machine.crontab_file.exists()
    assert "would be created" in out and "dry run" in out


def test_uninstall_removes_jobs_block_and_mirrors_keeps_every_memory_and_says_what_remains(tmp_path):
    m = Machine(tmp_path, openclaw=True)
    m.workspace.mkdir(parents=True)
    agents = "# AGENTS.md\n\nBe kind.\n"
    (m.workspace / "AGENTS.md").write_text(agents)
    config = {"gateway": {"port": 1}, "memory": {"search": {"extraPaths": ["notes.md"]}}}
    (m.state / "openclaw.json").write_text(json.dumps(config))
    write_index(m.workspace, [memory("mem_001", "The locker code for unit 12 is 4417", 0.9)], version=2)
    ok(m.install("--now", NOW))
    assert run_script("decay", ws=m.workspace).returncode == 0
    mirrors = [p for p in (m.workspace / "memory").glob("*/*.md") if p.name != "README.md"]
    assert mirrors, "the memory has a mirror"
    (m.workspace / "memory" / "user" / "mine.md").write_text("- oat milk\n")
    memories = snapshot(m.workspace / "memory" / "index.json", m.workspace / "memory" / "user" / "mine.md")

    out = ok(m.install("--uninstall", "--now", NOW))
    assert snapshot(m.workspace / "memory" / "index.json", m.workspace / "memory" / "user" / "mine.md") == memories
    assert not any(p.exists() for p in mirrors), "memory search would go on serving the mirrors"
    assert (m.workspace / "AGENTS.md").read_text() == agents
    assert json.loads((m.state / "openclaw.json").read_text()) == config
    assert [j["name"] for j in m.openclaw_jobs()] == []
    kept = out.split("kept", 1)[1]
    assert f"rm -r {ROOT}" in kept and "OpenClaw does not list skills from there" in kept
    assert (
        f"cd {m.workspace / 'memory'} && rm -r index.json" in kept
        and "rm " + str(m.workspace / "HIPPOCAMPUS_CORE.md") in kept
    )
    forget = next(line for line in kept.splitlines() if "To forget them too" in line).split(": ", 1)[1].split(" (")[0]
    subprocess.run(["/bin/sh", "-c", forget], check=True)
    left = sorted(p.name for p in (m.workspace / "memory").rglob("*") if p.is_file())
    assert left == ["brain-events.jsonl", "mine.md"], "shared with sibling skills, and the user's own file"
    out = ok(m.install("--uninstall", "--now", NOW))
    assert "removed" not in out


def test_install_from_a_clean_clone_into_a_temporary_home_then_the_scripts_work(tmp_path):
    clone = tmp_path / "skill"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    m = Machine(tmp_path)
    ok(m.install(root=clone))
    ws = m.home / ".openclaw" / "workspace"
    assert (ws / "memory" / "index.json").is_file()
    done = subprocess.run(
        [sys.executable, str(clone / "scripts" / "load_core.py")],
        capture_output=True,
        text=True,
        env=m.env(),
        cwd=tmp_path,
    )
    assert done.returncode == 0 and "No core memories yet" in done.stdout


def _system_python_without_packages() -> str | None:
    python = "/usr/bin/python3"
    if not Path(python).exists() or Path(sys.executable).resolve() == Path(python).resolve():
        return None
    probe = subprocess.run([python, "-c", "import jinja2, dateutil, jsonlines, yaml"], capture_output=True)
    return python if probe.returncode != 0 else None


def test_scripts_stay_with_a_python_that_has_the_packages_even_beside_an_empty_venv(tmp_path):
    clone = tmp_path / "skill"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(clone / ".venv")], check=True)
    done = subprocess.run(
        [sys.executable, "-P", str(clone / "scripts" / "recall.py"), "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "usage" in done.stdout, done.stderr


@pytest.mark.skipif(_system_python_without_packages() is None, reason="needs a system python3 lacking the packages")
def test_a_python_without_the_packages_switches_to_the_venv_once_and_never_loops(tmp_path):
    python = _system_python_without_packages()
    clone = tmp_path / "skill"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run([python, "-m", "venv", "--without-pip", str(clone / ".venv")], check=True)
    done = subprocess.run(
        [python, str(clone / "scripts" / "recall.py"), "--help"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 1 and "packages" in done.stderr and "install.py" in done.stderr


@pytest.mark.skipif(_system_python_without_packages() is None, reason="needs a system python3 lacking the packages")
def test_an_externally_managed_python_gets_a_venv_that_every_script_then_uses(tmp_path):
    python = _system_python_without_packages()
    clone = tmp_path / "skill"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    m = Machine(tmp_path)
    out = ok(m.install("--now", NOW, root=clone, python=python, timeout=600))
    assert (clone / ".venv" / "bin" / "python3").exists()
    assert "virtual environment" in out and "Install:" in out
    for script in ("recall.py", "load_core.py"):
        done = subprocess.run(
            [python, "-P", str(clone / "scripts" / script), "--help"],
            capture_output=True,
            text=True,
            env=m.env(),
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [python, str(clone / "scripts" / "load_core.py")], capture_output=True, text=True, env=m.env(), cwd=tmp_path
    )
    assert done.returncode == 0 and "No core memories yet" in done.stdout
    again = ok(m.install("--now", NOW, root=clone, python=python))
    assert "already importable with the skill's virtual environment" in again


def _run_like_cron(line: str, machine: Machine) -> subprocess.CompletedProcess:
    """A crontab line's command, run the way cron runs it: sh, HOME and a bare PATH, nothing else."""
    command = line.split(None, 5)[5]
    return subprocess.run(
        ["/bin/sh", "-c", command],
        capture_output=True,
        text=True,
        timeout=120,
        env={"HOME": str(machine.home), "PATH": "/usr/bin:/bin"},
    )


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_a_state_dir_that_is_not_the_default_is_named_in_the_jobs_and_recorded(machine, how):
    state = machine.base / "claw-state"
    flags, env = (["--state-dir", str(state)], {}) if how == "flag" else ([], {"OPENCLAW_STATE_DIR": str(state)})
    ok(machine.install("--now", NOW, "--workspace", str(machine.workspace), *flags, **env))
    lines = [line for line in machine.crontab_file.read_text().splitlines() if "scripts/" in line]
    encoding = next(line for line in lines if "encode.py" in line)
    assert f"encode.py --cron --state-dir {state} " in encoding
    assert all("--state-dir" not in line for line in lines if line is not encoding)
    config = json.loads((machine.workspace / "memory" / "hippocampus-config.json").read_text())
    assert config == {"firstRun": {"signals": 200}, "stateDir": str(state)}
    assert f"--state-dir {state}" in (machine.workspace / "AGENTS.md").read_text()

    talk = Session("c0ffee00-0001-4000-8000-000000000001", datetime(2026, 2, 27, 9, tzinfo=timezone.utc))
    talk.user("Remember this: the spare bike key is in the red tin on the top shelf.")
    write_jsonl_store(state, {"agent:main:main": talk})
    ran = _run_like_cron(encoding, machine)
    assert ran.returncode == 0, ran.stderr
    contents = [m["content"] for m in read_index(machine.workspace)["memories"]]
    assert any("red tin" in c for c in contents), "encoding started by cron read the named state dir"

    ok(machine.install("--now", NOW, "--workspace", str(machine.workspace)))
    assert "--state-dir" not in machine.crontab_file.read_text()
    config = json.loads((machine.workspace / "memory" / "hippocampus-config.json").read_text())
    assert config == {"firstRun": {"signals": 200}}, "back on the default state dir, nothing is recorded"


def test_openclaw_jobs_name_a_state_dir_that_is_not_the_default(claw):
    state = claw.base / "claw-state"
    ok(claw.install("--now", NOW, "--workspace", str(claw.workspace), "--state-dir", str(state)))
    encoding = next(j for j in claw.openclaw_jobs() if j["name"] == "hippocampus-encoding")
    assert ["--state-dir", str(state)] == encoding["payload"]["argv"][-4:-2]
    decay = next(j for j in claw.openclaw_jobs() if j["name"] == "hippocampus-decay")
    assert "--state-dir" not in decay["payload"]["argv"]


def test_the_install_says_whether_openclaw_will_list_the_skill_from_where_its_folder_is(tmp_path):
    m = Machine(tmp_path)
    out = ok(m.install("--now", NOW))
    assert f"skill folder {ROOT}" in out and "the agent will not see this skill" in out
    inside = m.workspace / "skills" / "hippocampus"
    shutil.copytree(ROOT, inside, ignore=shutil.ignore_patterns(".git", ".cache", ".venv", "demo", "__pycache__"))
    out = ok(m.install("--now", NOW, root=inside))
    assert f"OpenClaw lists the skill from {m.workspace / 'skills'}" in out
