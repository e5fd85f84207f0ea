"""Setting the skill up: its Python packages, the workspace, AGENTS.md, openclaw.json, the scheduled jobs, and the
demo. Used by install.py; the scripts that run every day need none of it but `bootstrap` (standard library only)."""
