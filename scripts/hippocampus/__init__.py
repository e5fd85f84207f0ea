"""hippocampus: a brain-shaped memory for OpenClaw agents (shared core)."""

__version__ = "1.0.0"
