"""Memory-search paths in OpenClaw's openclaw.json that earlier installs added: where they are, and the file without
them.

Pure: text in, a decision out. openclaw.json is JSON5; only plain JSON is ever rewritten. For anything else (comments,
trailing commas, unquoted keys, single quotes) the caller prints `snippet` and leaves the file as it is.

Keys: earlier installs wrote `memory.search.extraPaths` (the key of current OpenClaw), and the old bash skill
`agents.defaults.memorySearch.extraPaths`, which OpenClaw 2026.9.6 rejects; our paths come out of either, and an
object left empty by that goes too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

OLD_KEY = ("agents", "defaults", "memorySearch", "extraPaths")
NEW_KEY = ("memory", "search", "extraPaths")


def dotted(key: tuple[str, ...]) -> str:
    return ".".join(key)


@dataclass
class ConfigPlan:
    """What to do with openclaw.json. `text` is the new file (None: leave it); `snippet` is for people to paste."""

    keys: list[tuple[str, ...]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    text: str | None = None
    parse_error: str | None = None
    snippet: str | None = None

    @property
    def changed(self) -> bool:
        return self.text is not None


def parse(text: str) -> tuple[dict | None, str | None]:
    """The file as a dict when it is plain JSON; otherwise None and why."""
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        return None, f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
    except RecursionError:
        return None, "it is nested too deeply"
    if not isinstance(data, dict):
        return None, "the top level is not an object"
    return data, None


def get(data: dict, key: tuple[str, ...]):
    """The value at a key path, or None."""
    node = data
    for part in key:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _entry_path(entry) -> str | None:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and isinstance(entry.get("path"), str):
        return entry["path"]
    return None


def _is_ours(entry, aliases: dict[str, str]) -> str | None:
    path = _entry_path(entry)
    return aliases.get(path.rstrip("/")) if path else None


def dump(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def plan_remove(text: str, aliases: dict[str, str]) -> ConfigPlan:
    """Remove every path of ours (any of its forms) from both keys; objects left empty by that go too."""
    data, error = parse(text)
    if data is None:
        key = OLD_KEY if "memorySearch" in text else NEW_KEY
        ours = sorted(set(aliases.values()))
        return ConfigPlan(
            keys=[key],
            removed=ours,
            parse_error=error,
            snippet=f"remove these entries from {dotted(key)}: " + ", ".join(json.dumps(p) for p in ours),
        )
    plan = ConfigPlan()
    for key in (OLD_KEY, NEW_KEY):
        current = get(data, key)
        if not isinstance(current, list):
            continue
        kept = [entry for entry in current if _is_ours(entry, aliases) is None]
        if len(kept) == len(current):
            continue
        plan.keys.append(key)
        for entry in current:
            path = _entry_path(entry)
            if path is not None and _is_ours(entry, aliases) is not None:
                plan.removed.append(path)
        chain = [data]
        for part in key[:-1]:
            chain.append(chain[-1][part])
        if kept:
            chain[-1][key[-1]] = kept
        else:
            del chain[-1][key[-1]]
            for depth in range(len(key) - 2, -1, -1):
                if chain[depth + 1]:
                    break
                del chain[depth][key[depth]]
    if plan.removed:
        plan.text = dump(data)
    return plan
