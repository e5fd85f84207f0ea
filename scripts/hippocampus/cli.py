"""Argument parsing shared by the scripts, and the one place where errors become exit codes."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import Callable

from .errors import HippocampusError
from .workspace import not_a_workspace, resolve_now, resolve_workspace, Workspace

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_BUSY = 75


def parser(doc: str, command: str, cron: bool = False) -> argparse.ArgumentParser:
    """A parser for the command of module `command`, named after its script, whose help is the command's
    docstring, with the flags every script takes."""
    summary, _, rest = (doc or "").strip().partition("\n")
    p = argparse.ArgumentParser(
        prog=command.rpartition(".")[2] + ".py",
        description=summary,
        epilog=rest.strip() or None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--workspace",
        metavar="DIR",
        help="the OpenClaw workspace (default: $WORKSPACE, $OPENCLAW_WORKSPACE_DIR, then ~/.openclaw/workspace)",
    )
    p.add_argument("--now", metavar="ISO", help="run as if it were this time (default: $HIPPOCAMPUS_NOW, then now)")
    if cron:
        p.add_argument(
            "--cron",
            action="store_true",
            help="a scheduled run: skip with exit 75 if another run holds the lock, print only problems",
        )
    p.add_argument("-v", "--verbose", action="store_true", help="say more")
    return p


class Context:
    """A command's parsed arguments, its workspace and its clock."""

    def __init__(self, args: argparse.Namespace, ws: Workspace, now: datetime):
        self.args, self.ws, self.now = args, ws, now

    @property
    def wait(self) -> bool:
        """Interactive runs wait for the lock; cron runs skip."""
        return not getattr(self.args, "cron", False)

    def require_workspace(self) -> None:
        """A workspace that does not exist, or a folder that is not one, is a typo or a missing install: refused in
        words, never something to create files in."""
        if not self.ws.root.is_dir():
            raise HippocampusError(
                f"workspace {self.ws.root} does not exist (set --workspace or WORKSPACE, or run install.py)"
            )
        problem = not_a_workspace(self.ws.root)
        if problem is not None:
            raise HippocampusError(problem)
        from .store.files import check_index_link  # the store is imported only by scripts that get this far

        check_index_link(self.ws)

    @property
    def quiet(self) -> bool:
        return getattr(self.args, "cron", False) and not self.args.verbose


def context(p: argparse.ArgumentParser, argv: list[str] | None = None) -> Context:
    args = p.parse_args(argv)
    return Context(args=args, ws=Workspace(resolve_workspace(args.workspace)), now=resolve_now(args.now))


def call(main: Callable[[list[str] | None], int | None], argv: list[str] | None = None) -> int:
    """Call a command with its arguments and return its exit code: user errors as one line `error: …` on stderr
    (exit 1, 2 or 75); usage errors as argparse prints them (2); bugs keep their traceback."""
    try:
        return main(argv) or EXIT_OK
    except HippocampusError as exc:
        message = " ".join(str(exc).split())
        print(f"error: {message}", file=sys.stderr)
        return exc.exit_code
    except SystemExit as exc:  # argparse: --help, or wrong usage
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE if exc.code else EXIT_OK
    except KeyboardInterrupt:
        return 130


def run(main: Callable[[list[str] | None], int | None]) -> None:
    """A script's entry point: call its command with the process's arguments and exit with its code."""
    try:
        code = call(main)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more to say.
        sys.stderr.close()
        code = EXIT_OK
    sys.exit(code)


def emit(text: str) -> None:
    """Print for people; never fails on a terminal that cannot show some characters."""
    try:
        print(text)
    except UnicodeEncodeError:
        sys.stdout.buffer.write((text + "\n").encode("utf-8", "replace"))
