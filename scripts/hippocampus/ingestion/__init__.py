"""Ingestion: OpenClaw transcripts read, cleaned and queued, and turned into memories."""
