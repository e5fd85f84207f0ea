"""The store's sleep: daily decay, weekly consolidation and the agent's weekly reflection."""
