"""install.py as a user runs it: a temporary HOME, real files, stand-ins only for `openclaw` and `crontab`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import memory, read_index, write_index
from installing import ROOT, Machine, snapshot

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
    assert all(line.split()[0] in ("unchanged", "Python", "Install:", "kept") or line.startswith("   ")
               for line in out.splitlines() if line.strip()), out


def test_an_old_skill_workspace_is_taken_over_without_duplicates(claw):
    ws = claw.workspace
    original = write_index(ws, [memory("mem_001", "User prefers concise responses", 0.85),
                                memory("mem_007", "Lea's birthday is on June 14", 0.9)],
                           lastUpdated="2026-01-20T19:00:00", decayLastRun="2026-01-20").read_bytes()
    (ws / "AGENTS.md").write_text(OLD_AGENTS)
    (claw.state / "openclaw.json").write_text(json.dumps(
        {"agents": {"defaults": {"memorySearch": {"extraPaths": ["HIPPOCAMPUS_CORE.md"]}}}}))
    claw.seed_openclaw_jobs([
        {"id": "old-1", "name": "hippocampus-encoding", "schedule": {"kind": "cron", "expr": "0 3 * * *"},
         "payload": {"kind": "agentTurn", "message": "Run encode-pipeline.sh"}},
        {"id": "old-2", "name": "hippocampus-decay", "schedule": {"kind": "cron", "expr": "0 3 * * *"},
         "payload": {"kind": "agentTurn", "message": "Run decay.sh and report any memories below 0.2"}},
        {"id": "mine", "name": "morning-brief", "schedule": {"kind": "cron", "expr": "0 7 * * *"}}])
    out = ok(claw.install("--with-cron", "--now", NOW))

    index = read_index(ws)
    assert index["version"] == 2 and [m["id"] for m in index["memories"]] == ["mem_001", "mem_007"]
    assert (ws / "memory" / "backups" / "index.v1.original.json").read_bytes() == original
    assert "migrated" in out
    agents = (ws / "AGENTS.md").read_text()
    assert agents.count("<!-- hippocampus:start -->") == 1 and "load-core.sh" not in agents
    assert "recall.sh" not in agents and "1. Read SOUL.md" in agents and "Don't exfiltrate" in agents
    assert list(ws.glob("AGENTS.md.bak-*")), "the file is backed up before old lines are removed"
    paths = json.loads((claw.state / "openclaw.json").read_text())["agents"]["defaults"]["memorySearch"]["extraPaths"]
    assert paths.count("HIPPOCAMPUS_CORE.md") == 1 and "memory/user" in paths
    names = sorted(j["name"] for j in claw.openclaw_jobs())
    assert names == ["hippocampus-consolidation", "hippocampus-decay", "hippocampus-encoding",
                     "hippocampus-reflection", "morning-brief"]
    assert ["cron", "rm", "old-1"] in claw.openclaw_calls() and ["cron", "rm", "old-2"] in claw.openclaw_calls()

    before = snapshot(claw.home, claw.openclaw_home / "jobs.json")
    ok(claw.install("--with-cron", "--now", "2026-03-05T00:00:00Z"))
    assert snapshot(claw.home, claw.openclaw_home / "jobs.json") == before


def test_openclaw_jobs_are_added_with_the_documented_flags_and_readable_prompts(claw):
    ok(claw.install("--with-cron", "--agent", "work", "--now", NOW))
    adds = [call for call in claw.openclaw_calls() if call[:2] == ["cron", "add"]]
    assert len(adds) == 4
    scripts = {"hippocampus-encoding": "encode.py --cron", "hippocampus-decay": "decay.py --cron",
               "hippocampus-consolidation": "consolidate.py --cron", "hippocampus-reflection": "reflect.py --week"}
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
    assert schedules == {"hippocampus-encoding": "17 */3 * * *", "hippocampus-decay": "43 4 * * *",
                         "hippocampus-consolidation": "13 5 * * 0", "hippocampus-reflection": "29 5 * * 0"}
    minutes = [s.split()[0] for s in schedules.values()]
    assert len(set(minutes)) == len(minutes), "no two jobs start at the same minute"


def test_when_openclaw_cannot_list_its_jobs_nothing_is_added_and_install_says_why(claw):
    done = claw.install("--with-cron", "--now", NOW, FAKE_OPENCLAW_LIST_FAILS="1")
    assert done.returncode == 1
    assert "gateway not reachable" in done.stdout and "openclaw cron add" in done.stdout
    assert not [c for c in claw.openclaw_calls() if c[:2] == ["cron", "add"]]


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
    assert "not plain JSON" in out and "memorySearch: {" in out and '"memory/user",' in out


def test_json_openclaw_json_is_backed_up_then_given_the_paths_once(machine):
    config = machine.state / "openclaw.json"
    original = config.read_text()
    ok(machine.install("--now", NOW))
    backups = list(machine.state.glob("openclaw.json.bak-*"))
    assert [b.read_text() for b in backups] == [original]
    data = json.loads(config.read_text())
    assert data["gateway"] == {"port": 18789}
    assert data["memory"]["search"]["extraPaths"] == ["HIPPOCAMPUS_CORE.md", "memory/user", "memory/self",
                                                      "memory/relationship", "memory/world"]
    ok(machine.install("--now", NOW))
    assert len(list(machine.state.glob("openclaw.json.bak-*"))) == 1


@pytest.mark.parametrize("flags, recorded", [(["--signals", "50"], {"signals": 50}),
                                             (["--whole"], {"whole": True})])
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
    done = subprocess.run([sys.executable, str(clone / "scripts" / "load_core.py")], capture_output=True,
                          text=True, env=m.env(), cwd=tmp_path)
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
    done = subprocess.run([sys.executable, "-P", str(clone / "scripts" / "recall.py"), "--help"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "usage" in done.stdout, done.stderr


@pytest.mark.skipif(_system_python_without_packages() is None, reason="needs a system python3 lacking the packages")
def test_a_python_without_the_packages_switches_to_the_venv_once_and_never_loops(tmp_path):
    python = _system_python_without_packages()
    clone = tmp_path / "skill"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run([python, "-m", "venv", "--without-pip", str(clone / ".venv")], check=True)
    done = subprocess.run([python, str(clone / "scripts" / "recall.py"), "--help"], capture_output=True,
                          text=True, timeout=30)
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
        done = subprocess.run([python, "-P", str(clone / "scripts" / script), "--help"], capture_output=True,
                              text=True, env=m.env(), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    done = subprocess.run([python, str(clone / "scripts" / "load_core.py")], capture_output=True, text=True,
                          env=m.env(), cwd=tmp_path)
    assert done.returncode == 0 and "No core memories yet" in done.stdout
    again = ok(m.install("--now", NOW, root=clone, python=python))
    assert "already importable with the skill's virtual environment" in again
