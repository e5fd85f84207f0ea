"""What the store is published as: the core listing, HIPPOCAMPUS_CORE.md, the Markdown mirrors and the dashboard."""
