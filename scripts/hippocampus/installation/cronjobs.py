"""The scheduled jobs (encoding every 3 hours, decay daily at another minute, consolidation weekly after decay, and
a weekly reflection turn for the agent) and their two homes: OpenClaw's scheduler (`openclaw cron`) or the user's
crontab (a marked block).

In OpenClaw, encoding, decay and consolidation are command jobs (`--command-argv`): the gateway runs the script
itself, with no model call. The weekly reflection needs the agent's own judgement, so it alone is an agent turn (an
isolated session with a short prompt naming the command); it has no crontab line.

Planning is pure; the few functions that run `openclaw` or `crontab` take the executable's path.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import openclaw_cli
from ..errors import HippocampusError
from ..render import render

ENCODING = "hippocampus-encoding"
DECAY = "hippocampus-decay"
CONSOLIDATION = "hippocampus-consolidation"
REFLECTION = "hippocampus-reflection"
NAMES = (ENCODING, DECAY, CONSOLIDATION, REFLECTION)
# Off the hour and at different minutes: the old skill ran both at 03:00, so they fought over the index.
ENCODING_SCHEDULE = "17 */3 * * *"
DECAY_SCHEDULE = "43 4 * * *"
CONSOLIDATION_SCHEDULE = "13 5 * * 0"  # Sundays, half an hour after that day's decay
REFLECTION_SCHEDULE = "29 5 * * 0"  # then the agent reflects on the consolidated week

BLOCK_START = "# hippocampus:start"
BLOCK_END = "# hippocampus:end"
BLOCK_NOTE = "(managed by hippocampus install.py; `install.py --uninstall` removes it)"
OK_WHEN_BUSY = "|| [ $? -eq 75 ]"  # exit 75: another run holds the lock, the job skipped on purpose
_OLD_SCRIPTS = ("encode-pipeline.sh", "decay.sh", "preprocess.sh", "sync-core.sh", "load-core.sh")
TIMEOUT = 60
# How long OpenClaw lets a command job run before it stops it (its own default is 10 minutes). A first encoding
# of a long history takes minutes (240,000 messages: under 4 on a small machine) and resumes where a stop left it.
ENCODING_TIMEOUT = 3600
SLEEP_TIMEOUT = 1800


@dataclass(frozen=True)
class Job:
    """One scheduled job: a name, a 5-field cron expression and the script it runs (without `--workspace`).

    A job with a `message` needs the agent: OpenClaw runs it as an agent turn with that prompt, and crontab has no
    line for it. Every other job is a plain command."""

    name: str
    schedule: str
    argv: tuple[str, ...]
    workspace: Path
    description: str
    message: str | None = None
    timeout: int = SLEEP_TIMEOUT

    @property
    def minute(self) -> str:
        return self.schedule.split()[0]

    @property
    def needs_agent(self) -> bool:
        return self.message is not None

    @property
    def command(self) -> tuple[str, ...]:
        """What OpenClaw's gateway runs: the script through `sh`, so that a run skipped because another one holds
        the lock (exit 75) is recorded as fine, as in the crontab; the paths stay arguments, never shell text."""
        return ("/bin/sh", "-c", f'"$@" {OK_WHEN_BUSY}', self.name, *self.argv, "--workspace", str(self.workspace))


def quoted(argv) -> str:
    return " ".join(shlex.quote(str(a)) for a in argv)


def source_args(agent: str | None = None, state_dir: Path | None = None) -> tuple[str, ...]:
    """Where encoding reads the transcripts, as flags: the agent, and the state dir when it is not the default."""
    return (*(("--agent", agent) if agent else ()), *(("--state-dir", str(state_dir)) if state_dir else ()))


def jobs(
    skill: Path, workspace: Path, python: str, agent: str | None = None, state_dir: Path | None = None
) -> list[Job]:
    """The encoding, decay, consolidation and reflection jobs for this skill folder and workspace.

    `state_dir` is OpenClaw's state dir when it is not the one a bare cron environment would find (~/.openclaw):
    encoding then names it, or it would read no transcripts."""
    script = skill / "scripts"
    encode = (python, str(script / "encode.py"), "--cron", *source_args(agent, state_dir))
    reflect = (python, str(script / "reflect.py"), "--week")
    command = quoted([*reflect, "--workspace", str(workspace)])
    prompt = render("cron_reflection.txt", command=command, workspace=str(workspace), skill=str(skill)).strip()
    out = [
        Job(
            ENCODING,
            ENCODING_SCHEDULE,
            encode,
            workspace,
            "hippocampus: new messages become memories (no model call)",
            timeout=ENCODING_TIMEOUT,
        ),
        Job(
            DECAY,
            DECAY_SCHEDULE,
            (python, str(script / "decay.py"), "--cron"),
            workspace,
            "hippocampus: unused memories fade (no model call)",
        ),
        Job(
            CONSOLIDATION,
            CONSOLIDATION_SCHEDULE,
            (python, str(script / "consolidate.py"), "--cron"),
            workspace,
            "hippocampus: weekly consolidation of memories (no model call)",
        ),
        Job(
            REFLECTION,
            REFLECTION_SCHEDULE,
            reflect,
            workspace,
            "hippocampus: the agent's weekly self-reflection (an agent turn: it uses the model)",
            message=prompt,
        ),
    ]
    if len({job.minute for job in out}) != len(out):
        raise AssertionError("the jobs must not start at the same minute")
    return out


# --- crontab ------------------------------------------------------------------------------------------------


def crontab_line(job: Job) -> str:
    """`MIN HOUR … WORKSPACE=… python3 …/script.py --cron || [ $? -eq 75 ]` (cron treats % as a newline: escaped)."""
    command = f"WORKSPACE={shlex.quote(str(job.workspace))} {quoted(job.argv)} {OK_WHEN_BUSY}"
    return f"{job.schedule} {command.replace('%', chr(92) + '%')}"


def crontab_block(job_list: list[Job]) -> str:
    """The marked block of crontab lines (jobs that need the agent's own turn have none)."""
    lines = [
        f"{BLOCK_START} {BLOCK_NOTE}",
        *(crontab_line(j) for j in job_list if not j.needs_agent),
        BLOCK_END,
    ]
    return "\n".join(lines) + "\n"


def _is_old_line(line: str) -> bool:
    return not line.lstrip().startswith("#") and "hippocampus" in line and any(s in line for s in _OLD_SCRIPTS)


def _split(text: str) -> tuple[list[str], int | None, int | None]:
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith(BLOCK_START)), None)
    if start is None:
        return lines, None, None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == BLOCK_END), None)
    if end is None:
        raise HippocampusError(f"your crontab has `{BLOCK_START}` but no `{BLOCK_END}`; fix it with `crontab -e`")
    return lines, start, end


def apply_crontab_block(text: str, block: str) -> str:
    """The crontab with our block inserted or replaced, and the old bash skill's lines taken over."""
    lines, start, end = _split(text)
    if start is None:
        kept = [line for line in lines if not _is_old_line(line)]
        body = "".join(kept)
        if body and not body.endswith("\n"):
            body += "\n"
        return body + block
    assert end is not None  # found with the start
    before = [line for line in lines[:start] if not _is_old_line(line)]
    after = [line for line in lines[end + 1 :] if not _is_old_line(line)]
    return "".join(before) + block + "".join(after)


def remove_crontab_block(text: str) -> str:
    lines, start, end = _split(text)
    if start is None:
        return text
    assert end is not None  # found with the start
    return "".join(lines[:start]) + "".join(lines[end + 1 :])


def read_crontab(crontab: str) -> str:
    """The user's crontab ('' when there is none)."""
    done = subprocess.run([crontab, "-l"], capture_output=True, text=True, timeout=TIMEOUT)
    if done.returncode == 0:
        return done.stdout
    if "no crontab" in (done.stderr + done.stdout).lower():
        return ""
    raise HippocampusError(f"`{crontab} -l` failed: {(done.stderr or done.stdout).strip() or done.returncode}")


def write_crontab(crontab: str, text: str) -> None:
    done = subprocess.run([crontab, "-"], input=text, capture_output=True, text=True, timeout=TIMEOUT)
    if done.returncode != 0:
        raise HippocampusError(f"`{crontab} -` failed: {(done.stderr or done.stdout).strip() or done.returncode}")


# --- OpenClaw's scheduler -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One call of the openclaw CLI, or a job left as it is (argv None)."""

    kind: str  # "add", "remove" or "keep"
    name: str
    argv: tuple[str, ...] | None = None


def add_argv(openclaw: str, job: Job, agent: str | None = None) -> tuple[str, ...]:
    """`openclaw cron add` for a job: a command job, or for a job that needs the agent an isolated agent turn."""
    argv = [openclaw, "cron", "add", "--name", job.name, "--cron", job.schedule, "--description", job.description]
    if job.needs_agent:
        assert job.message is not None  # needs_agent says so
        argv += ["--session", "isolated", "--message", job.message, "--light-context"]
    else:
        argv += ["--command-argv", json.dumps(job.command), "--timeout-seconds", str(job.timeout)]
    argv.append("--no-deliver")
    if agent:
        argv += ["--agent", agent]
    return tuple(argv)


def remove_argv(openclaw: str, job_id: str) -> tuple[str, ...]:
    return (openclaw, "cron", "rm", job_id)


def list_argv(openclaw: str) -> tuple[str, ...]:
    # --all: without it OpenClaw hides disabled jobs, and a paused job of ours would be added again, or left behind.
    return (openclaw, "cron", "list", "--all", "--json")


def parse_job_list(text: str) -> list[dict]:
    """The jobs of `openclaw cron list --all --json`: a list, or an object holding one under jobs/items/data.

    OpenClaw 2026.9.6 answers {"jobs": [...], "total", "offset", "limit": 200, "hasMore", "nextOffset"}; a partial
    page is refused, since a job we cannot see would be added twice."""
    data = json.loads(text)
    if isinstance(data, dict):
        if data.get("hasMore") is True:
            raise ValueError(f"it lists only {len(data.get('jobs') or [])} of {data.get('total', 'more')} jobs")
        data = next((data[k] for k in ("jobs", "items", "data") if isinstance(data.get(k), list)), None)
    if not isinstance(data, list):
        raise ValueError("no list of jobs in the output")
    return [job for job in data if isinstance(job, dict)]


def list_jobs(openclaw: str) -> list[dict]:
    done = openclaw_cli.run(list_argv(openclaw), timeout=TIMEOUT)
    if not done.ok:
        raise HippocampusError(f"`openclaw cron list --all --json` failed: {done.cause}")
    try:
        return parse_job_list(done.stdout)
    except ValueError as exc:
        raise HippocampusError(f"cannot read the output of `openclaw cron list --all --json`: {exc}") from None


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def job_id(job: dict) -> str | None:
    for key in ("id", "jobId"):
        if isinstance(job.get(key), str) and job[key]:
            return job[key]
    return None


def is_current(found: dict, job: Job) -> bool:
    """Whether a listed job is this one as it is now: same schedule and the same command (or prompt); an agent-turn
    job of an earlier install for what is now a command is not."""
    payload = found.get("payload")
    if not isinstance(payload, dict):
        payload = {}
    if job.schedule not in _strings(found.get("schedule")):
        return False
    if job.needs_agent:
        return payload.get("kind") == "agentTurn" and payload.get("message") == job.message
    timeouts = {v for v in (payload.get("timeoutSeconds"), found.get("timeoutSeconds")) if v is not None}
    return payload.get("kind") == "command" and payload.get("argv") == list(job.command) and timeouts <= {job.timeout}


def plan_openclaw(existing: list[dict], wanted: list[Job], openclaw: str, agent: str | None = None) -> list[Action]:
    """Keep a job that is already as wanted; otherwise add ours, then remove every other job of that name (an earlier
    install's agent turn among them), so that each name is there once. Adding first leaves the earlier job in place
    when the new one cannot be added (an OpenClaw without command jobs, a gateway gone)."""
    actions = []
    for job in wanted:
        same_name = [j for j in existing if j.get("name") == job.name]
        if len(same_name) == 1 and is_current(same_name[0], job):
            actions.append(Action("keep", job.name))
            continue
        actions.append(Action("add", job.name, add_argv(openclaw, job, agent)))
        for old in same_name:
            if old_id := job_id(old):
                actions.append(Action("remove", job.name, remove_argv(openclaw, old_id)))
    return actions


def plan_openclaw_removal(existing: list[dict], openclaw: str) -> list[Action]:
    return [
        Action("remove", j["name"], remove_argv(openclaw, old_id))
        for j in existing
        if j.get("name") in NAMES and (old_id := job_id(j))
    ]


def run_action(action: Action) -> None:
    if action.argv is None:
        return
    done = openclaw_cli.run(action.argv, timeout=TIMEOUT)
    if not done.ok:
        raise HippocampusError(f"`openclaw cron {action.argv[2]}` for {action.name} failed: {done.cause}")
