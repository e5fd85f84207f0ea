"""The one error family. `cli.run` turns these into a line on stderr and an exit code."""


class HippocampusError(Exception):
    """A problem the user can act on: printed as `error: …`, exit 1."""

    exit_code = 1


class UsageError(HippocampusError):
    """Wrong flags or arguments: exit 2."""

    exit_code = 2


class BusyError(HippocampusError):
    """Another run holds the workspace lock and this run should skip: exit 75 (EX_TEMPFAIL)."""

    exit_code = 75
