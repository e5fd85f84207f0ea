"""The install and uninstall steps: workspace layout, index, first-run limit, AGENTS.md block, openclaw.json, cron.

Each step decides what to change, changes it unless this is a dry run, and reports one line. Running the install
twice changes nothing the second time. Uninstalling removes what the install added and never a memory.
"""

from __future__ import annotations

import json
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

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
    with_cron: bool = False
    first_run: dict | None = None
    dry_run: bool = False
    openclaw: str | None = None
    crontab: str | None = None
    default_state_dir: Path | None = None  # what a bare cron environment finds (~/.openclaw); None: same as state_dir
    in_agent_turn: bool = False  # run by the agent's exec tool: the gateway restarts only after this turn
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
        return self.state_dir / "openclaw.json"


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


def agents_text(settings: Settings) -> str:
    flags = cronjobs.source_args(settings.agent, settings.named_state_dir)
    agent_flag = "".join(f" {shlex.quote(f)}" for f in flags)
    return render(
        "agents_block.md",
        skill=str(settings.skill),
        skill_q=shlex.quote(str(settings.skill)),
        workspace_q=shlex.quote(str(settings.workspace)),
        python=shlex.quote(settings.python),
        agent_flag=agent_flag,
    )


def agents_md(settings: Settings, report: InstallReport, remove: bool = False) -> None:
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
        new = agents_block.apply_block(text, agents_text(settings))
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


def memory_paths(settings: Settings) -> tuple[list[str], dict[str, str]]:
    """The paths for memory search and every form of each (form → the form we write).

    Workspace-relative when the workspace is OpenClaw's default one (as the old skill wrote them), else absolute."""
    root = settings.workspace
    relative = ["HIPPOCAMPUS_CORE.md", *(f"memory/{d}" for d in DOMAINS)]
    absolute = [str(root / p) for p in relative]
    default = root == (settings.state_dir / "workspace")
    chosen = relative if default else absolute
    aliases = {}
    for rel, abs_, pick in zip(relative, absolute, chosen, strict=True):
        for form in (rel, abs_, "./" + rel):
            aliases[form] = pick
    return chosen, aliases


def openclaw_json(settings: Settings, report: InstallReport, remove: bool = False) -> None:
    path = settings.openclaw_json
    paths, aliases = memory_paths(settings)
    if not path.exists():
        if remove:
            report.add("unchanged", str(path), "no openclaw.json")
        else:
            report.add(
                "skipped",
                str(path),
                "no openclaw.json here (OpenClaw not set up?). To let OpenClaw's "
                "memory search see the memories, add to it:\n"
                + openclaw_config.snippet(openclaw_config.NEW_KEY, paths),
            )
        return
    text = path.read_text(encoding="utf-8")
    plan = openclaw_config.plan_remove(text, aliases) if remove else openclaw_config.plan_add(text, paths, aliases)
    if plan.parse_error:
        if remove and not any(form in text for form in aliases):
            report.add("unchanged", str(path), "no hippocampus paths in it")
            return
        assert plan.snippet is not None  # a file that could not be read comes with what to paste by hand
        legacy = f" Also, {openclaw_config.legacy_advice(plan.legacy)}." if plan.legacy and not remove else ""
        report.add(
            "by hand",
            str(path),
            f"left untouched: it is not plain JSON ({plan.parse_error}). "
            + ("Remove by hand — " + plan.snippet if remove else "Merge this into it by hand:\n" + plan.snippet)
            + legacy,
        )
        return
    if plan.blocked_by_legacy:
        assert plan.legacy is not None  # blocked by that key
        report.add(
            "by hand",
            str(path),
            f"left untouched: {openclaw_config.legacy_advice(plan.legacy)}, then run "
            f"install.py again. (An OpenClaw older than that reads only {plan.legacy}: add "
            f"{', '.join(paths)} to its extraPaths yourself.)",
        )
        return
    keys = ", ".join(openclaw_config.dotted(k) for k in plan.keys)
    if plan.legacy and not remove:
        report.add(
            "by hand",
            str(path),
            openclaw_config.legacy_advice(plan.legacy)[0].upper()
            + openclaw_config.legacy_advice(plan.legacy)[1:]
            + "; memory search uses memory.search.",
        )
    if plan.text is None:
        report.add("unchanged", str(path), f"memory search paths present ({keys})" if not remove else "")
        return
    gateway_up = _gateway_answers(settings)
    backup = _backup(settings, path)
    _write(settings, path, plan.text)
    if remove:
        report.add("removed", str(path), f"{len(plan.removed)} memory search paths from {keys} (before: {backup.name})")
    else:
        report.add("updated", str(path), f"added {', '.join(plan.added)} to {keys} (before: {backup.name})")
    if gateway_up:
        _await_gateway(settings, report, openclaw_config.parse(plan.text)[0] or {})


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


def cron(settings: Settings, report: InstallReport) -> None:
    """With openclaw on PATH: OpenClaw's scheduler, by name. Else the user's crontab. Else the lines to add."""
    wanted = cron_jobs(settings)
    if settings.openclaw:
        _openclaw_cron(settings, report, wanted, settings.openclaw)
    elif settings.crontab:
        _crontab(settings, report, cronjobs.crontab_block(wanted, settings.workspace), settings.crontab)
    else:
        report.add(
            "by hand",
            "cron jobs",
            "no `openclaw` and no `crontab` on PATH; add these lines to your "
            "scheduler:\n" + cronjobs.crontab_block(wanted, settings.workspace).rstrip("\n"),
        )


def _openclaw_cron(settings: Settings, report: InstallReport, wanted: list[cronjobs.Job], openclaw: str) -> None:
    try:
        existing = cronjobs.list_jobs(openclaw)
    except HippocampusError as exc:
        by_hand = "\n".join(cronjobs.quoted(cronjobs.add_argv("openclaw", j, settings.agent)) for j in wanted)
        report.add(
            "failed",
            "OpenClaw cron jobs",
            f"{exc}\nNothing was added (to avoid duplicates). Run install.py "
            f"--with-cron again when the gateway is up, or add them yourself:\n{by_hand}",
        )
        return
    for action in cronjobs.plan_openclaw(existing, wanted, openclaw, settings.agent):
        _run_openclaw(settings, report, action)


def _run_openclaw(settings: Settings, report: InstallReport, action: cronjobs.Action) -> None:
    label = f"OpenClaw cron job {action.name}"
    if action.kind == "keep":
        report.add("unchanged", label)
        return
    try:
        if not settings.dry_run:
            cronjobs.run_action(action)
    except HippocampusError as exc:
        report.add("failed", label, str(exc))
        return
    job = next((j for j in cron_jobs(settings) if j.name == action.name), None)
    detail = f"{job.schedule}, isolated session, no delivery" if action.kind == "add" and job else ""
    report.add("created" if action.kind == "add" else "removed", label, detail)


def _crontab(settings: Settings, report: InstallReport, block: str | None, crontab: str) -> None:
    label = "crontab block (# hippocampus:start … # hippocampus:end)"
    try:
        text = cronjobs.read_crontab(crontab)
        new = cronjobs.remove_crontab_block(text) if block is None else cronjobs.apply_crontab_block(text, block)
        if new == text:
            report.add("unchanged", label)
            return
        if not settings.dry_run:
            cronjobs.write_crontab(crontab, new)
    except HippocampusError as exc:
        report.add("failed", label, str(exc))
        return
    if block is None:
        report.add("removed", label)
    else:
        had = cronjobs.BLOCK_START in text
        report.add(
            "updated" if had else "created",
            label,
            "encoding at minute 17 every 3 hours, decay daily at 04:43; exit 75 (busy) counts as fine",
        )


def remove_cron(settings: Settings, report: InstallReport) -> None:
    if settings.openclaw:
        try:
            existing = cronjobs.list_jobs(settings.openclaw)
        except HippocampusError as exc:
            report.add(
                "failed",
                "OpenClaw cron jobs",
                f"{exc}\nRemove them yourself: openclaw cron list, then "
                f"openclaw cron rm <id> for {' and '.join(cronjobs.NAMES)}",
            )
        else:
            actions = cronjobs.plan_openclaw_removal(existing, settings.openclaw)
            if not actions:
                report.add("unchanged", "OpenClaw cron jobs", "none of ours")
            for action in actions:
                _run_openclaw(settings, report, action)
    if settings.crontab:
        _crontab(settings, report, None, settings.crontab)


# --- the whole --------------------------------------------------------------------------------------------------


def install(settings: Settings) -> InstallReport:
    report = InstallReport(dry_run=settings.dry_run)
    if not settings.workspace.is_dir():
        report.add("created", f"workspace {settings.workspace}")
        if not settings.dry_run:
            settings.workspace.mkdir(parents=True, exist_ok=True)
    if not settings.dry_run:
        files.sweep_temporaries(settings.ws, settings.openclaw_json.parent)  # left by a run killed mid-write
    layout(settings, report)
    changed = index(settings, report)
    core_file(settings, report, changed)
    first_run(settings, report)
    agents_md(settings, report)
    # Cron before openclaw.json: changing memory.search makes a running gateway restart, refusing commands meanwhile.
    if settings.with_cron:
        cron(settings, report)
    openclaw_json(settings, report)
    return report


def uninstall(settings: Settings) -> InstallReport:
    """Remove the cron jobs, the AGENTS.md block and the memory-search paths. Memories stay, every one."""
    report = InstallReport(dry_run=settings.dry_run)
    remove_cron(settings, report)
    agents_md(settings, report, remove=True)
    openclaw_json(settings, report, remove=True)
    report.add("kept", f"memories in {settings.ws.memory}", "nothing under memory/ is ever deleted")
    return report


def find_program(name: str | None) -> str | None:
    return shutil.which(name) if name else None
