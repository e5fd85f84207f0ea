#!/usr/bin/env python3
"""Set up hippocampus for an OpenClaw workspace, or try it on a generated demo with --demo.

Installs the Python packages if they are missing (in a virtual environment inside the skill folder when the system
Python is externally managed; every script then uses it by itself), creates the workspace's memory layout and an
empty index (an old skill's index.json is kept and migrated, its original saved in memory/backups/), schedules the
jobs, adds a marked block to AGENTS.md, and records how much history the first encoding takes. It also says whether
OpenClaw will find the skill where its folder is. Running it again changes nothing.

Scheduled jobs: encoding every 3 hours (minute 17), decay daily at 04:43, consolidation on Sundays at 05:13, each a
command with no model call, and the agent's weekly reflection at 05:29 (an agent turn). They go to OpenClaw's
scheduler when `openclaw` is on PATH, else to a marked block in your crontab (without the reflection); with neither,
the lines are printed and nothing runs on a schedule.

  --no-cron     schedule nothing (memories are then made only when encode.py runs)
  --demo        set up without scheduling, then build a separate demo workspace from a generated month of
                conversations, run the pipeline day by day, and show the core memories, a recall and the dashboard
  --uninstall   remove the scheduled jobs, the AGENTS.md block, the mirrors OpenClaw's memory search would go on
                serving and the memory-search paths of earlier installs; never a memory. Says what remains.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from hippocampus.installation import bootstrap, dependencies  # noqa: E402  (may restart this program in <skill>/.venv)

RESTARTED = "HIPPOCAMPUS_INSTALL_RESTARTED"


def arguments(argv=None) -> argparse.Namespace:
    summary, _, rest = __doc__.strip().partition("\n")
    p = argparse.ArgumentParser(
        prog="install.py",
        description=summary,
        epilog=rest.strip(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--workspace",
        metavar="DIR",
        help="the OpenClaw workspace (default: $WORKSPACE, $OPENCLAW_WORKSPACE_DIR, then ~/.openclaw/workspace)",
    )
    p.add_argument(
        "--state-dir",
        metavar="DIR",
        help="OpenClaw's state folder holding openclaw.json (default: $OPENCLAW_STATE_DIR, then ~/.openclaw)",
    )
    p.add_argument("--agent", metavar="ID", help="the OpenClaw agent whose conversations are encoded (default main)")
    cron = p.add_mutually_exclusive_group()
    cron.add_argument("--no-cron", action="store_true", help="schedule nothing")
    # Scheduling is the default; earlier versions asked for it with --with-cron, which is still accepted.
    cron.add_argument("--with-cron", action="store_true", help=argparse.SUPPRESS)
    first = p.add_mutually_exclusive_group()
    first.add_argument(
        "--signals", type=int, metavar="N", help="the first encoding takes the last N messages (default 200)"
    )
    first.add_argument("--whole", action="store_true", help="the first encoding takes the whole history")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--demo", action="store_true", help="install, then run the demo in its own workspace")
    mode.add_argument("--uninstall", action="store_true", help="remove cron jobs, AGENTS.md block, config entries")
    p.add_argument(
        "--demo-dir",
        metavar="DIR",
        help="where --demo builds its workspace (default: demo/ in the skill folder; rebuilt on every --demo)",
    )
    p.add_argument("--dry-run", action="store_true", help="print what would change and change nothing")
    p.add_argument("--now", metavar="ISO", help="run as if it were this time (default: $HIPPOCAMPUS_NOW, then now)")
    args = p.parse_args(argv)
    if args.signals is not None and args.signals < 1:
        p.error("--signals must be at least 1")
    return args


def main() -> int:
    args = arguments()
    if not args.uninstall:
        outcome = dependencies.ensure(bootstrap.SKILL_ROOT, dry_run=args.dry_run)
        print(outcome.message)
        if not outcome.ok:
            return 1
        if outcome.restart_with is not None:
            if os.environ.get(RESTARTED):
                print("error: the packages were installed but still cannot be imported", file=sys.stderr)
                return 1
            os.environ[RESTARTED] = "1"
            sys.stdout.flush()
            os.execv(str(outcome.restart_with), bootstrap.relaunch_argv(outcome.restart_with))
    missing = bootstrap.missing_modules()
    if missing:
        if args.dry_run:
            print("(the remaining steps need those packages; run without --dry-run to see them)")
            return 0
        print(
            f"error: the Python packages {', '.join(missing)} are missing; run install.py without --uninstall first",
            file=sys.stderr,
        )
        return 1

    from hippocampus import cli  # noqa: E402  (needs the packages)

    cli.run(lambda _argv: configure(args))
    return 0


def configure(args: argparse.Namespace) -> int:
    from hippocampus import workspace  # noqa: E402
    from hippocampus.errors import HippocampusError  # noqa: E402
    from hippocampus.installation import steps  # noqa: E402

    root = workspace.resolve_workspace(args.workspace)
    if workspace.is_openclaw_state(root):  # any other folder is made a workspace; this one holds OpenClaw's own
        raise HippocampusError(str(workspace.not_a_workspace(root)))
    state_dir = workspace.resolve_state_dir(args.state_dir)
    settings = steps.Settings(
        skill=bootstrap.SKILL_ROOT,
        workspace=root,
        state_dir=state_dir,
        config=workspace.resolve_config(state_dir),
        now=workspace.resolve_now(args.now),
        python=sys.executable,
        agent=args.agent,
        no_schedule="--no-cron" if args.no_cron else "--demo" if args.demo else None,
        first_run={"whole": True} if args.whole else {"signals": args.signals} if args.signals else None,
        dry_run=args.dry_run,
        openclaw=steps.find_program("openclaw"),
        crontab=steps.find_program(workspace.resolve_crontab()),
        default_state_dir=workspace.cron_state_dir(),
        in_agent_turn=workspace.in_agent_turn(),
        progress=lambda text: print(text, flush=True),
    )
    if args.uninstall:
        report = steps.uninstall(settings)
        title = "Uninstall"
    else:
        report = steps.install(settings)
        title = "Install"
    print(f"{title}{' (dry run: nothing was changed)' if args.dry_run else ''}:")
    print("\n".join(report.lines()))
    if report.failed:
        return 1
    if args.demo:
        from hippocampus.installation import demo  # noqa: E402

        if args.dry_run:
            print("\nDemo: not built in a dry run")
            return 0
        return demo.run(settings, print, root=Path(args.demo_dir).expanduser().resolve() if args.demo_dir else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
