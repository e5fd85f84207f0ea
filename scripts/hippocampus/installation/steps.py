"""The install and uninstall steps: workspace layout, index, first-run limit, scheduled jobs, AGENTS.md block,
openclaw.json, and where the skill folder is.

Each step decides what to change, changes it unless this is a dry run, and reports one line. Running the install
twice changes nothing the second time. Uninstalling removes what the install added and what OpenClaw's memory search
would go on serving (the mirrors), never a memory, and says what remains and how to remove it.
"""

from __future__ import annotations

import json
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..ingestion.ledger import ledger_path
from ..published import mirrors
from . import agents_block, cronjobs, openclaw_cli, openclaw_config
from ..errors import HippocampusError
from ..model import DOMAINS, SCHEMA_VERSION
from ..render import render
from ..workspace import CONFIG_NAME, Workspace
from .. import writing
from ..store import files, indexfile

# How much history the very first encoding takes when the installer was given neither --signals nor --whole:
# enough for a useful start, little enough for a first run of a few seconds.
DEFAULT_FIRST_RUN = {"signals": 200}


@dataclass
class Settings:
    """Everything the steps need, resolved by install.py (the only place that reads flags and the environment)."""

    skill: Path
    workspace: Path
    state_dir: Path
    now: datetime
    python: str
    agent: str | None = None
    no_schedule: str | None = None  # why no job is scheduled (--no-cron, --demo); None: schedule them
    first_run: dict | None = None
    dry_run: bool = False
    openclaw: str | None = None
    crontab: str | None = None
    default_state_dir: Path | None = None  # what a bare cron environment finds (~/.openclaw); None: same as state_dir
    in_agent_turn: bool = False  # run by the agent's exec tool: the gateway restarts only after this turn
    config: Path | None = None  # OpenClaw's config file (workspace.resolve_config); None: openclaw.json in state_dir
    progress: Callable[[str], None] | None = None  # says at once what takes a while

    @property
    def ws(self) -> Workspace:
        return Workspace(self.workspace)

    @property
    def named_state_dir(self) -> Path | None:
        """The state dir, when commands run later (cron, the agent) must be told it: it is not the default one."""
        if self.default_state_dir is None or self.state_dir == self.default_state_dir:
            return None
        return self.state_dir

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    @property
    def openclaw_json(self) -> Path:
        return self.config or self.state_dir / "openclaw.json"


@dataclass
class Step:
    status: str  # created, updated, removed, unchanged, skipped, by hand, failed
    what: str
    detail: str = ""


@dataclass
class InstallReport:
    steps: list[Step] = field(default_factory=list)
    dry_run: bool = False

    def add(self, status: str, what: str, detail: str = "") -> None:
        self.steps.append(Step(status, what, detail))

    @property
    def failed(self) -> bool:
        return any(step.status == "failed" for step in self.steps)

    @property
    def changes(self) -> list[Step]:
        return [s for s in self.steps if s.status in ("created", "updated", "removed", "migrated")]

    def lines(self) -> list[str]:
        out = []
        for step in self.steps:
            status = step.status
            if self.dry_run and status in ("created", "updated", "removed", "migrated"):
                status = f"would be {status}"
            out.append(f"  {status:<16} {step.what}")
            out += [f"  {'':<16}   {line}" for line in step.detail.splitlines()]
        return out


def _write(settings: Settings, path: Path, data: bytes | str) -> None:
    if not settings.dry_run:
        files.atomic_write(path, data)


def _show(path: Path, settings: Settings) -> str:
    """A path for the report: relative to the workspace when inside it."""
    try:
        return str(path.relative_to(settings.workspace))
    except ValueError:
        return str(path)


# --- the workspace -------------------------------------------------------------------------------------------


def layout(settings: Settings, report: InstallReport) -> None:
    """The memory/ skeleton (domain folders and READMEs); files already there are kept as they are."""
    ws = settings.ws
    skeleton = settings.skill / "memory"
    created = []
    for source in sorted(p for p in skeleton.rglob("*") if p.is_file()):
        target = ws.memory / source.relative_to(skeleton)
        if not target.exists():
            created.append(_show(target, settings))
            _write(settings, target, source.read_bytes())
    for domain in DOMAINS:
        folder = ws.domain_dir(domain)
        if not folder.is_dir():
            created.append(_show(folder, settings) + "/")
            if not settings.dry_run:
                folder.mkdir(parents=True, exist_ok=True)
    if created:
        report.add("created", f"memory layout in {settings.workspace}", ", ".join(created))
    else:
        report.add("unchanged", f"memory layout in {settings.workspace}")


def index(settings: Settings, report: InstallReport) -> bool:
    """An empty index, or the existing one kept (an older version is migrated, its original kept), and the files
    derived from it: one write of the store. True when the index changed."""
    ws = settings.ws
    found = indexfile.load(ws)  # refuses an unknown future version or a broken file, in words
    count = len(found.index.memories)
    if found.identity is None:
        status, text = "created", f"empty, version {SCHEMA_VERSION}"
    elif found.version < SCHEMA_VERSION:
        status = "migrated"
        text = (
            f"{count} memories, version {found.version} → {SCHEMA_VERSION}; the original is kept as "
            f"memory/backups/index.v{found.version}.original.json"
        )
    else:
        status, text = "unchanged", f"{count} memories kept"
    if not settings.dry_run:
        with writing.write(ws, settings.now) as store:
            if store.loaded.identity is None:
                store.touch_meta()  # an empty index to start from
    report.add(status, "memory/index.json", text)
    return status != "unchanged"


def core_file(settings: Settings, report: InstallReport, index_changed: bool) -> None:
    """HIPPOCAMPUS_CORE.md, so memory search has something to index from the start."""
    ws = settings.ws
    if ws.core_file.exists() and not index_changed:
        report.add("unchanged", "HIPPOCAMPUS_CORE.md")
        return
    status = "updated" if ws.core_file.exists() else "created"
    if not settings.dry_run:
        with writing.write(ws, settings.now) as store:
            store.publish = True
    report.add(status, "HIPPOCAMPUS_CORE.md")


def first_run(settings: Settings, report: InstallReport) -> None:
    """memory/hippocampus-config.json: how much history the first encoding takes ({"signals": N} or {"whole": true}),
    and OpenClaw's state dir (`stateDir`) when it is not the default one, so that later runs read the right
    transcripts."""
    path = settings.ws.config
    try:
        current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        report.add("failed", f"memory/{CONFIG_NAME}", f"not valid JSON ({exc}); fix or delete it, then run again")
        return
    if not isinstance(current, dict):
        report.add("failed", f"memory/{CONFIG_NAME}", "expected a JSON object; fix or delete it, then run again")
        return
    wanted = settings.first_run or current.get("firstRun") or DEFAULT_FIRST_RUN
    label = "whole history" if wanted.get("whole") else f"last {wanted.get('signals')} messages"
    detail = f"first encoding takes the {label}"
    new = {**current, "firstRun": wanted}
    new.pop("stateDir", None)
    if settings.named_state_dir is not None:
        new["stateDir"] = str(settings.named_state_dir)
        detail += f"; transcripts are read from {settings.named_state_dir}"
    if current == new:
        report.add("unchanged", f"memory/{CONFIG_NAME}", detail)
        return
    status = "updated" if path.exists() else "created"
    _write(settings, path, json.dumps(new, indent=2) + "\n")
    report.add(status, f"memory/{CONFIG_NAME}", detail)


# --- AGENTS.md -----------------------------------------------------------------------------------------------


def agents_text(settings: Settings, scheduled: bool) -> str:
    """The block for AGENTS.md; `scheduled`: whether encoding runs on a schedule (the block says so only then)."""
    flags = cronjobs.source_args(settings.agent, settings.named_state_dir)
    agent_flag = "".join(f" {shlex.quote(f)}" for f in flags)
    return render(
        "agents_block.md",
        skill=str(settings.skill),
        skill_q=shlex.quote(str(settings.skill)),
        workspace_q=shlex.quote(str(settings.workspace)),
        python=shlex.quote(settings.python),
        agent_flag=agent_flag,
        scheduled=scheduled,
    )


def agents_md(settings: Settings, report: InstallReport, remove: bool = False, scheduled: bool = False) -> None:
    path = settings.workspace / "AGENTS.md"
    if not path.exists():
        if remove:
            report.add("unchanged", "AGENTS.md", "no AGENTS.md in the workspace")
        else:
            report.add(
                "skipped",
                "AGENTS.md",
                "not in the workspace yet (OpenClaw writes it when it first starts "
                "there); run install.py again afterwards to add the hippocampus block",
            )
        return
    text = path.read_text(encoding="utf-8")
    if remove:
        new = agents_block.remove_block(text)
        status = "removed"
    else:
        new = agents_block.apply_block(text, agents_text(settings, scheduled))
        status = "updated" if agents_block.find_block(text) or agents_block.has_legacy(text) else "created"
    if new == text:
        report.add("unchanged", "AGENTS.md", "" if remove else "hippocampus block up to date")
        return
    detail = ""
    if not remove and agents_block.has_legacy(text):
        backup = _backup(settings, path)
        detail = f"took over the old skill's load-core.sh / recall.sh lines (before: {backup.name})"
    _write(settings, path, new)
    report.add(status, "AGENTS.md", detail or ("hippocampus block removed" if remove else "hippocampus block"))


def _backup(settings: Settings, path: Path) -> Path:
    stamp = settings.now.strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.bak-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.bak-{stamp}-{number}")
    _write(settings, target, path.read_bytes())
    return target


# --- openclaw.json -------------------------------------------------------------------------------------------


def memory_paths(settings: Settings) -> dict[str, str]:
    """Every form (relative, absolute, ./relative) of the memory-search paths earlier installs added → the path.

    They are no longer added: OpenClaw's memory search indexes memory/**/*.md of the workspace by default, where the
    mirrors are, and HIPPOCAMPUS_CORE.md only repeats the mirrors' core memories (each would be found twice)."""
    root = settings.workspace
    aliases = {}
    for rel in ("HIPPOCAMPUS_CORE.md", *(f"memory/{d}" for d in DOMAINS)):
        for form in (rel, str(root / rel), "./" + rel):
            aliases[form] = rel
    return aliases


def openclaw_json(settings: Settings, report: InstallReport) -> None:
    """Take the memory-search paths of earlier installs out of openclaw.json (a backup first); add nothing."""
    path = settings.openclaw_json
    aliases = memory_paths(settings)
    if not path.exists():
        report.add("unchanged", str(path), "no openclaw.json")
        return
    text = path.read_text(encoding="utf-8")
    plan = openclaw_config.plan_remove(text, aliases)
    if plan.parse_error:
        if not any(form in text for form in aliases):
            report.add("unchanged", str(path), NOTHING_TO_SEARCH)
            return
        assert plan.snippet is not None  # a file that could not be read comes with what to do by hand
        report.add(
            "by hand",
            str(path),
            f"left untouched: it is not plain JSON ({plan.parse_error}); {plan.snippet} ({NOTHING_TO_SEARCH})",
        )
        return
    if plan.text is None:
        report.add("unchanged", str(path), NOTHING_TO_SEARCH)
        return
    keys = ", ".join(openclaw_config.dotted(k) for k in plan.keys)
    gateway_up = _gateway_answers(settings)
    backup = _backup(settings, path)
    _write(settings, path, plan.text)
    report.add(
        "updated",
        str(path),
        f"took {', '.join(plan.removed)} out of {keys} (before: {backup.name}); {NOTHING_TO_SEARCH}",
    )
    if gateway_up:
        _await_gateway(settings, report, openclaw_config.parse(plan.text)[0] or {})


NOTHING_TO_SEARCH = (
    "hippocampus adds nothing to memory search: OpenClaw indexes memory/**/*.md, where the mirrors of the memories are"
)


def _gateway_answers(settings: Settings) -> bool:
    """Is an OpenClaw gateway running (one that will restart when openclaw.json changes)?"""
    return bool(settings.openclaw and not settings.dry_run and openclaw_cli.probe(settings.openclaw).ok)


def _await_gateway(settings: Settings, report: InstallReport, config: dict) -> None:
    """After openclaw.json changed: a running gateway restarts itself; wait (bounded) until it accepts commands."""
    label = "OpenClaw gateway"
    assert settings.openclaw is not None  # only a gateway that answered is waited for
    gateway = config.get("gateway")
    reload = gateway.get("reload") if isinstance(gateway, dict) else None
    if isinstance(reload, dict) and reload.get("mode") == "off":
        report.add(
            "by hand",
            label,
            "its reload mode is off: run `openclaw gateway restart` so that memory search sees the change",
        )
        return
    if settings.in_agent_turn:
        report.add("skipped", label, "it restarts itself to apply the change once this agent turn has ended")
        return
    settings.say(
        f"openclaw.json changed: waiting for the OpenClaw gateway to restart and accept commands again "
        f"(at most {openclaw_cli.READY_WITHIN:.0f} s)..."
    )
    waited = openclaw_cli.wait_for_restart(settings.openclaw)
    if waited.how == "restarted":
        report.add(
            "unchanged", label, f"restarted for the change and accepts commands again (after {waited.seconds:.0f} s)"
        )
    elif waited.how == "no-restart":
        report.add(
            "unchanged",
            label,
            "kept running without a restart; if memory search does not see the change, run `openclaw gateway restart`",
        )
    else:
        report.add(
            "failed",
            label,
            f"did not accept commands again within {waited.seconds:.0f} s "
            f"({waited.cause}); check `openclaw gateway status`, then run install.py again",
        )


# --- cron ----------------------------------------------------------------------------------------------------


def cron_jobs(settings: Settings) -> list[cronjobs.Job]:
    return cronjobs.jobs(settings.skill, settings.workspace, settings.python, settings.agent, settings.named_state_dir)


def cron(settings: Settings, report: InstallReport) -> bool:
    """With openclaw on PATH: OpenClaw's scheduler, by name. Else the user's crontab. Else the lines to add.

    Returns whether encoding runs on a schedule once this step is done."""
    wanted = cron_jobs(settings)
    if settings.no_schedule:
        report.add(
            "skipped",
            "scheduled jobs",
            f"{settings.no_schedule}: nothing runs on a schedule until you run install.py without it; until then "
            "memories are made only when encode.py runs",
        )
        return False
    if settings.openclaw:
        return _openclaw_cron(settings, report, wanted, settings.openclaw)
    if settings.crontab:
        return _crontab(settings, report, cronjobs.crontab_block(wanted), settings.crontab)
    report.add(
        "by hand",
        "scheduled jobs",
        "neither `openclaw` nor `crontab` is on PATH, so nothing runs on a schedule: memories are made only when "
        "encode.py runs. Add these lines to your scheduler (or run install.py again where OpenClaw is):\n"
        + cronjobs.crontab_block(wanted).rstrip("\n"),
    )
    return False


def _what_runs(job: cronjobs.Job) -> str:
    if job.needs_agent:
        return (
            f"{job.schedule}, an agent turn in an isolated session: it needs the agent, and uses the model once a week"
        )
    return f"{job.schedule}, a command the gateway runs: no model call"


def _openclaw_cron(settings: Settings, report: InstallReport, wanted: list[cronjobs.Job], openclaw: str) -> bool:
    try:
        existing = cronjobs.list_jobs(openclaw)
    except HippocampusError as exc:
        by_hand = "\n".join(cronjobs.quoted(cronjobs.add_argv("openclaw", j, settings.agent)) for j in wanted)
        report.add(
            "failed",
            "OpenClaw cron jobs",
            f"{exc}\nNothing was added (to avoid duplicates), so nothing runs on a schedule yet. Run install.py "
            f"again when the gateway is up, or add them yourself:\n{by_hand}",
        )
        return False
    actions = cronjobs.plan_openclaw(existing, wanted, openclaw, settings.agent)
    scheduled = False
    for job in wanted:
        label = f"OpenClaw cron job {job.name}"
        mine = [a for a in actions if a.name == job.name]
        if all(a.kind == "keep" for a in mine):
            report.add("unchanged", label, _what_runs(job))
            scheduled |= job.name == cronjobs.ENCODING
            continue
        try:
            if not settings.dry_run:
                for action in mine:
                    cronjobs.run_action(action)
        except HippocampusError as exc:
            earlier = any(a.kind == "remove" for a in mine)  # added first: a job of that name is still there
            report.add(
                "failed", label, str(exc) + ("; the earlier job of that name is left as it was" if earlier else "")
            )
            scheduled |= earlier and job.name == cronjobs.ENCODING
            continue
        replaced = any(a.kind == "remove" for a in mine)
        report.add(
            "updated" if replaced else "created",
            label,
            _what_runs(job) + (" (replaces the job of that name)" if replaced else ""),
        )
        scheduled |= job.name == cronjobs.ENCODING
    return scheduled


def _crontab(settings: Settings, report: InstallReport, block: str | None, crontab: str) -> bool:
    label = "crontab block (# hippocampus:start … # hippocampus:end)"
    try:
        text = cronjobs.read_crontab(crontab)
        new = cronjobs.remove_crontab_block(text) if block is None else cronjobs.apply_crontab_block(text, block)
        if new == text:
            report.add("unchanged", label)
            return block is not None
        if not settings.dry_run:
            cronjobs.write_crontab(crontab, new)
    except HippocampusError as exc:
        report.add("failed", label, str(exc))
        return False
    if block is None:
        report.add("removed", label)
        return False
    had = cronjobs.BLOCK_START in text
    report.add(
        "updated" if had else "created",
        label,
        "encoding at minute 17 every 3 hours, decay daily at 04:43, consolidation on Sundays at 05:13; exit 75 "
        "(busy) counts as fine. The weekly reflection needs the agent: it runs only from OpenClaw's scheduler",
    )
    return True


def remove_cron(settings: Settings, report: InstallReport) -> None:
    if settings.openclaw:
        try:
            existing = cronjobs.list_jobs(settings.openclaw)
        except HippocampusError as exc:
            report.add(
                "failed",
                "OpenClaw cron jobs",
                f"{exc}\nRemove them yourself: openclaw cron list --all, then "
                f"openclaw cron rm <id> for {', '.join(cronjobs.NAMES)}",
            )
        else:
            actions = cronjobs.plan_openclaw_removal(existing, settings.openclaw)
            if not actions:
                report.add("unchanged", "OpenClaw cron jobs", "none of ours")
            for action in actions:
                label = f"OpenClaw cron job {action.name}"
                try:
                    if not settings.dry_run:
                        cronjobs.run_action(action)
                except HippocampusError as exc:
                    report.add("failed", label, str(exc))
                else:
                    report.add("removed", label)
    if settings.crontab:
        _crontab(settings, report, None, settings.crontab)


# --- where the skill is, and what an uninstall leaves -----------------------------------------------------------


def skill_roots(settings: Settings) -> list[Path]:
    """The folders OpenClaw looks for skills in, for this workspace and state dir (its own list, highest first)."""
    roots = [settings.workspace / "skills", settings.workspace / ".agents" / "skills"]
    if settings.named_state_dir is None:
        roots.append(Path.home() / ".agents" / "skills")  # only with the default state dir
    roots.append(settings.state_dir / "skills")
    try:
        config, _ = openclaw_config.parse(settings.openclaw_json.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        config = None
    extra = openclaw_config.get(config or {}, ("skills", "load", "extraDirs"))
    roots += [Path(d).expanduser() for d in extra if isinstance(d, str)] if isinstance(extra, list) else []
    return roots


def skill_folder(settings: Settings, report: InstallReport) -> None:
    """Whether OpenClaw will list the skill from where its folder is (it looks in a few folders only)."""
    here = settings.skill.resolve()
    found = next((root for root in skill_roots(settings) if here.is_relative_to(root.resolve())), None)
    if found is not None:
        report.add("unchanged", f"skill folder {settings.skill}", f"OpenClaw lists the skill from {found}")
        return
    report.add(
        "by hand",
        f"skill folder {settings.skill}",
        "OpenClaw does not look for skills here, so the agent will not see this skill. Move the folder to "
        f"{settings.workspace / 'skills' / 'hippocampus'} (or another folder OpenClaw reads skills from: "
        f"{', '.join(str(r) for r in skill_roots(settings)[1:])}), then run its install.py again",
    )


def remove_mirrors(settings: Settings, report: InstallReport) -> None:
    """The mirrors under memory/<domain>/: OpenClaw's memory search indexes them, and would go on serving them."""
    ws = settings.ws
    found = []
    for domain in DOMAINS:
        folder = ws.domain_dir(domain)
        for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
            try:
                if path.name != "README.md" and mirrors.is_ours(path):
                    found.append(path)
            except OSError:
                continue
    if not found:
        report.add("unchanged", "memory mirrors", "none")
        return
    if not settings.dry_run:
        with files.workspace_lock(ws):
            for path in found:
                path.unlink(missing_ok=True)
    report.add(
        "removed",
        f"{len(found)} memory mirrors (memory/<domain>/*.md)",
        "OpenClaw's memory search would have gone on finding them; they hold nothing the index does not, and "
        "the next encode.py or decay.py run writes them again",
    )


def remains(settings: Settings, report: InstallReport) -> None:
    """What an uninstall leaves, and the command that removes each part."""
    ws = settings.ws
    ours = [
        ws.index,
        ws.archive,
        ws.backups,
        ws.consolidation,
        ws.signals,
        ws.pending,
        ws.touches,
        ws.ids,
        ws.config,
        ws.cache,
        ws.lock,
        ledger_path(ws),
        ws.memory / "README.md",
        *(ws.domain_dir(d) / "README.md" for d in DOMAINS),
    ]
    present = [str(p.relative_to(ws.memory)) for p in ours if p.exists()]
    if present:
        report.add(
            "kept",
            f"your memories, in {ws.memory}",
            f"{', '.join(present)}. To forget them too: cd {shlex.quote(str(ws.memory))} && rm -r "
            f"{' '.join(shlex.quote(p) for p in present)} (OpenClaw's own notes in memory/ are not ours, and "
            "brain-events.jsonl is shared with sibling brain skills: leave those)",
        )
    derived = [p for p in (ws.core_file, ws.dashboard) if p.exists()]
    if derived:
        report.add(
            "kept",
            " and ".join(p.name for p in derived),
            f"nothing updates {'them' if len(derived) > 1 else 'it'} any more; to remove: "
            f"rm {' '.join(shlex.quote(str(p)) for p in derived)}",
        )
    listed = any(settings.skill.resolve().is_relative_to(root.resolve()) for root in skill_roots(settings))
    report.add(
        "kept",
        f"the skill folder {settings.skill}",
        (
            "OpenClaw goes on listing the skill as ready, and the agent can still read its SKILL.md, while the folder "
            "is there"
            if listed
            else "OpenClaw does not list skills from there"
        )
        + f"; to remove it: rm -r {shlex.quote(str(settings.skill))}",
    )


# --- the whole --------------------------------------------------------------------------------------------------


def install(settings: Settings) -> InstallReport:
    report = InstallReport(dry_run=settings.dry_run)
    if not settings.workspace.is_dir():
        report.add("created", f"workspace {settings.workspace}")
        if not settings.dry_run:
            settings.workspace.mkdir(parents=True, exist_ok=True)
    if not settings.dry_run:
        files.sweep_temporaries(settings.ws, settings.openclaw_json.parent)  # left by a run killed mid-write
    skill_folder(settings, report)
    layout(settings, report)
    changed = index(settings, report)
    core_file(settings, report, changed)
    first_run(settings, report)
    # Cron before openclaw.json: changing memory.search makes a running gateway restart, refusing commands meanwhile.
    scheduled = cron(settings, report)
    agents_md(settings, report, scheduled=scheduled)
    openclaw_json(settings, report)
    return report


def uninstall(settings: Settings) -> InstallReport:
    """Remove the scheduled jobs, the AGENTS.md block, old memory-search paths and the mirrors; say what remains."""
    report = InstallReport(dry_run=settings.dry_run)
    remove_cron(settings, report)
    agents_md(settings, report, remove=True)
    openclaw_json(settings, report)
    remove_mirrors(settings, report)
    remains(settings, report)
    return report


def find_program(name: str | None) -> str | None:
    return shutil.which(name) if name else None
