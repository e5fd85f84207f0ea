"""The store: memory/index.json and what is derived from it, the values it holds, and how they fade."""
