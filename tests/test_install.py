"""install.py as a user runs it: a temporary HOME, real files, stand-ins only for `openclaw` and `crontab`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import memory, read_index, write_index
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


def test_a_second_install_changes_no_file(machine):
    ok(machine.install("--with-cron", "--now", NOW))
    before = snapshot(machine.home, machine.crontab_file)
    out = ok(machine.install("--with-cron", "--now", "2026-03-02T08:00:00Z"))
    assert snapshot(machine.home, machine.crontab_file) == before
    assert all(
        line.split()[0] in ("unchanged", "Python", "Install:", "kept") or line.startswith("   ")
        for line in out.splitlines()
        if line.strip()
    ), out


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
    out = ok(claw.install("--with-cron", "--now", NOW))

    index = read_index(ws)
    assert index["version"] == 2 and [m["id"] for m in index["memories"]] == ["mem_001", "mem_007"]
    assert (ws / "memory" / "backups" / "index.v1.original.json").read_bytes() == original
    assert "migrated" in out
    agents = (ws / "AGENTS.md").read_text()
    assert agents.count("<!-- hippocampus:start -->") == 1 and "load-core.sh" not in agents
    assert "recall.sh" not in agents and "1. Read SOUL.md" in agents and "Don't exfiltrate" in agents
    assert list(ws.glob("AGENTS.md.bak-*")), "the file is backed up before old lines are removed"
    config = json.loads((claw.state / "openclaw.json").read_text())
    assert config == {"agents": {"defaults": {"memorySearch": {"extraPaths": ["HIPPOCAMPUS_CORE.md"]}}}}
    assert "openclaw doctor --fix" in out, "the old key is not extended: the fix is printed"
    names = sorted(j["name"] for j in claw.openclaw_jobs())
    assert names == [
        "hippocampus-consolidation",
        "hippocampus-decay",
        "hippocampus-encoding",
        "hippocampus-reflection",
        "morning-brief",
    ]
    assert ["cron", "rm", "old-1"] in claw.openclaw_calls() and ["cron", "rm", "old-2"] in claw.openclaw_calls()

    before = snapshot(claw.home, claw.openclaw_home / "jobs.json")
    ok(claw.install("--with-cron", "--now", "2026-03-05T00:00:00Z"))
    assert snapshot(claw.home, claw.openclaw_home / "jobs.json") == before


def test_openclaw_jobs_are_added_with_the_documented_flags_and_readable_prompts(claw):
    ok(claw.install("--with-cron", "--agent", "work", "--now", NOW))
    adds = [call for call in claw.openclaw_calls() if call[:2] == ["cron", "add"]]
    assert len(adds) == 4
    scripts = {
        "hippocampus-encoding": "encode.py --cron",
        "hippocampus-decay": "decay.py --cron",
        "hippocampus-consolidation": "consolidate.py --cron",
        "hippocampus-reflection": "reflect.py --week",
    }
    schedules = {}
    for call in adds:
        opts = {call[i]: call[i + 1] for i in range(2, len(call) - 1) if call[i].startswith("--")}
        assert opts["--session"] == "isolated" and opts["--agent"] == "work"
        assert "--no-deliver" in call and "--light-context" in call and "--agent-turn" not in call
        message = opts["--message"]
        assert "\n" in message and "\\n" not in message
        schedules[opts["--name"]] = opts["--cron"]
        script = scripts[opts["--name"]]
        assert f"{ROOT / 'scripts' / script}" in message and str(claw.workspace) in message
        if opts["--name"] != "hippocampus-reflection":
            assert "75" in message
        else:
            assert "--apply" in message and "three questions" in message
        if script.startswith("encode.py"):
            assert "--cron --agent work --workspace" in message
    assert schedules == {
        "hippocampus-encoding": "17 */3 * * *",
        "hippocampus-decay": "43 4 * * *",
        "hippocampus-consolidation": "13 5 * * 0",
        "hippocampus-reflection": "29 5 * * 0",
    }
    minutes = [s.split()[0] for s in schedules.values()]
    assert len(set(minutes)) == len(minutes), "no two jobs start at the same minute"


def test_when_openclaw_cannot_list_its_jobs_nothing_is_added_and_install_says_why(claw):
    done = claw.install("--with-cron", "--now", NOW, FAKE_OPENCLAW_DOWN="1")
    assert done.returncode == 1
    assert "Gateway not reachable at ws://127.0.0.1:18789 (ECONNREFUSED)." in done.stdout
    assert "Bind: loopback" not in done.stdout, "the cause is shown, not the last line of the CLI's output"
    assert "openclaw cron add" in done.stdout
    assert not [c for c in claw.openclaw_calls() if c[:2] == ["cron", "add"]]


def test_a_disabled_job_of_ours_is_seen_so_reinstalling_keeps_one_and_uninstalling_removes_it(claw):
    ok(claw.install("--with-cron", "--now", NOW))
    jobs = claw.openclaw_jobs()
    for job in jobs:
        job["enabled"] = job["name"] != "hippocampus-decay"  # the user paused the decay job
    claw.seed_openclaw_jobs(jobs)
    ok(claw.install("--with-cron", "--now", NOW))
    names = [j["name"] for j in claw.openclaw_jobs()]
    assert names.count("hippocampus-decay") == 1 and len(names) == 4
    assert all("--all" in call for call in claw.openclaw_calls() if call[:2] == ["cron", "list"])
    ok(claw.install("--uninstall", "--now", NOW))
    assert claw.openclaw_jobs() == []


def test_a_fresh_install_with_cron_waits_for_the_gateway_to_restart_after_the_config_change(claw):
    (claw.state / "openclaw.json").write_text(json.dumps({"gateway": {"mode": "local", "port": 18789}}))
    assert claw.openclaw("cron", "status").returncode == 0, "the gateway runs"
    out = ok(claw.install("--with-cron", "--now", NOW, FAKE_OPENCLAW_RESTART_SECONDS="3"))
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
    assert "HIPPOCAMPUS_CORE.md" in config["memory"]["search"]["extraPaths"]


def test_with_no_gateway_running_the_config_change_is_not_waited_for(machine):
    (machine.bin / "openclaw").write_text(FAKE_OPENCLAW.replace("{python}", sys.executable))
    (machine.bin / "openclaw").chmod(0o755)
    out = ok(machine.install("--now", NOW, FAKE_OPENCLAW_DOWN="1"))
    assert "waiting" not in out
    assert json.loads((machine.state / "openclaw.json").read_text())["memory"]["search"]["extraPaths"]


def test_the_crontab_block_is_inserted_updated_and_removed_around_the_users_lines(machine):
    mine = "MAILTO=me@example.org\n0 1 * * * /usr/local/bin/backup %H\n"
    machine.crontab_file.write_text(mine)
    ok(machine.install("--with-cron", "--now", NOW))
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
    out = ok(machine.install("--with-cron", "--now", NOW))
    assert "updated" in out and machine.crontab_file.read_text() == table

    ok(machine.install("--uninstall", "--now", NOW))
    assert machine.crontab_file.read_text() == mine


@pytest.mark.skipif(shutil.which("crontab") is None, reason="no crontab program on this machine")
def test_the_real_crontab_gets_the_block_and_loses_it_again(machine):
    saved = subprocess.run(["crontab", "-l"], capture_output=True, text=True)
    try:
        subprocess.run(["crontab", "-"], input="# a line of mine\n", text=True, check=True)
        ok(machine.install("--with-cron", "--now", NOW, HIPPOCAMPUS_CRONTAB="crontab"))
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


def test_without_openclaw_or_crontab_the_cron_lines_are_printed(machine):
    out = ok(machine.install("--with-cron", "--now", NOW, HIPPOCAMPUS_CRONTAB=str(machine.base / "nowhere")))
    assert "by hand" in out and "scripts/decay.py --cron || [ $? -eq 75 ]" in out
    assert not machine.crontab_file.exists()


def test_json5_openclaw_json_is_left_untouched_and_the_snippet_is_printed(machine):
    text = "// my settings\n{\n  agents: { defaults: { memorySearch: { enabled: true, }, }, },\n  'x': 1,\n}\n"
    config = machine.state / "openclaw.json"
    config.write_text(text)
    out = ok(machine.install("--now", NOW))
    assert config.read_text() == text and not list(machine.state.glob("openclaw.json.bak-*"))
    assert "not plain JSON" in out and "search: {" in out and '"memory/user",' in out
    assert "openclaw doctor --fix" in out


def test_json_openclaw_json_is_backed_up_then_given_the_paths_once(machine):
    config = machine.state / "openclaw.json"
    original = config.read_text()
    ok(machine.install("--now", NOW))
    backups = list(machine.state.glob("openclaw.json.bak-*"))
    assert [b.read_text() for b in backups] == [original]
    data = json.loads(config.read_text())
    assert data["gateway"] == {"port": 18789}
    assert data["memory"]["search"]["extraPaths"] == [
        "HIPPOCAMPUS_CORE.md",
        "memory/user",
        "memory/self",
        "memory/relationship",
        "memory/world",
    ]
    ok(machine.install("--now", NOW))
    assert len(list(machine.state.glob("openclaw.json.bak-*"))) == 1


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
    before = snapshot(machine.home, machine.crontab_file) if machine.crontab_file.exists() else snapshot(machine.home)
    out = ok(machine.install("--with-cron", "--dry-run", "--now", NOW))
    assert snapshot(machine.home) == before and not machine.crontab_file.exists()
    assert "would be created" in out and "would be updated" in out and "dry run" in out


def test_uninstall_removes_what_install_added_and_keeps_every_memory(tmp_path):
    m = Machine(tmp_path, openclaw=True)
    m.workspace.mkdir(parents=True)
    agents = "# AGENTS.md\n\nBe kind.\n"
    (m.workspace / "AGENTS.md").write_text(agents)
    config = {"gateway": {"port": 1}, "memory": {"search": {"extraPaths": ["notes.md"]}}}
    (m.state / "openclaw.json").write_text(json.dumps(config))
    write_index(m.workspace, [memory("mem_001", "The locker code for unit 12 is 4417", 0.9)], version=2)
    ok(m.install("--with-cron", "--now", NOW))
    (m.workspace / "memory" / "user" / "preferences.md").write_text("- oat milk\n")
    memories = snapshot(m.workspace / "memory", m.workspace / "HIPPOCAMPUS_CORE.md")

    out = ok(m.install("--uninstall", "--now", NOW))
    assert snapshot(m.workspace / "memory", m.workspace / "HIPPOCAMPUS_CORE.md") == memories
    assert (m.workspace / "AGENTS.md").read_text() == agents
    assert json.loads((m.state / "openclaw.json").read_text()) == config
    assert [j["name"] for j in m.openclaw_jobs()] == []
    assert "kept" in out
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
    ok(machine.install("--with-cron", "--now", NOW, "--workspace", str(machine.workspace), *flags, **env))
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

    ok(machine.install("--with-cron", "--now", NOW, "--workspace", str(machine.workspace)))
    assert "--state-dir" not in machine.crontab_file.read_text()
    config = json.loads((machine.workspace / "memory" / "hippocampus-config.json").read_text())
    assert config == {"firstRun": {"signals": 200}}, "back on the default state dir, nothing is recorded"


def test_openclaw_jobs_name_a_state_dir_that_is_not_the_default(claw):
    state = claw.base / "claw-state"
    ok(claw.install("--with-cron", "--now", NOW, "--workspace", str(claw.workspace), "--state-dir", str(state)))
    encoding = next(j for j in claw.openclaw_jobs() if j["name"] == "hippocampus-encoding")
    assert f"--state-dir {state}" in encoding["payload"]["message"]
    decay = next(j for j in claw.openclaw_jobs() if j["name"] == "hippocampus-decay")
    assert "--state-dir" not in decay["payload"]["message"]


def test_a_legacy_memory_search_key_is_left_alone_and_the_fix_is_printed(machine):
    config = machine.state / "openclaw.json"
    text = json.dumps({"agents": {"defaults": {"memorySearch": {"extraPaths": ["notes.md"]}}}}, indent=2) + "\n"
    config.write_text(text)
    out = ok(machine.install("--now", NOW))
    assert config.read_text() == text and not list(machine.state.glob("openclaw.json.bak-*"))
    assert "agents.defaults.memorySearch" in out and "openclaw doctor --fix" in out
    assert "run install.py again" in out
