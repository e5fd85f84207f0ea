"""Memory-search paths in OpenClaw's openclaw.json: which key the file uses, what to add or remove, and the text.

Pure: text in, a decision out. openclaw.json is JSON5; only plain JSON is ever rewritten. For anything else (comments,
trailing commas, unquoted keys, single quotes) the caller prints `snippet` and leaves the file as it is.

Keys: the paths are written under `memory.search.extraPaths`, the key of current OpenClaw (2026.9.6 is tested). The old
`agents.defaults.memorySearch` (or a top-level `memorySearch`) is never extended: OpenClaw 2026.9.6 rejects it
(`openclaw config validate`: Unrecognized key "memorySearch") and `openclaw doctor --fix` moves it to `memory.search`.
A file that has only the old key is left alone and the fix is printed; removal takes our paths out of either key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

OLD_KEY = ("agents", "defaults", "memorySearch", "extraPaths")
NEW_KEY = ("memory", "search", "extraPaths")
LEGACY_OBJECTS = (("agents", "defaults", "memorySearch"), ("memorySearch",))
LEGACY_FIX = "openclaw doctor --fix"


def dotted(key: tuple[str, ...]) -> str:
    return ".".join(key)


@dataclass
class ConfigPlan:
    """What to do with openclaw.json. `text` is the new file (None: leave it); `snippet` is for people to paste."""

    keys: list[tuple[str, ...]] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    text: str | None = None
    parse_error: str | None = None
    snippet: str | None = None
    legacy: str | None = None  # the old key the file holds (dotted), which current OpenClaw rejects
    blocked_by_legacy: bool = False  # only the old key: nothing written until `openclaw doctor --fix` has run

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


def _get(data: dict, key: tuple[str, ...]):
    node = data
    for part in key:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _parent_exists(data: dict, key: tuple[str, ...]) -> bool:
    return isinstance(_get(data, key[:-1]), dict)


def legacy_key(data: dict) -> str | None:
    """The old memory-search key the file holds, dotted (None when it has none)."""
    return next((dotted(key) for key in LEGACY_OBJECTS if _get(data, key) is not None), None)


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


def plan_add(text: str, paths: list[str], aliases: dict[str, str]) -> ConfigPlan:
    """Add `paths` (each also known by the forms in `aliases`: form → canonical path) under the keys in use."""
    data, error = parse(text)
    if data is None:
        return ConfigPlan(
            keys=[NEW_KEY],
            added=list(paths),
            parse_error=error,
            snippet=snippet(NEW_KEY, paths),
            legacy="memorySearch" if "memorySearch" in text else None,
        )
    plan = ConfigPlan(keys=[NEW_KEY], legacy=legacy_key(data))
    if plan.legacy and not _parent_exists(data, NEW_KEY):
        # Moving the old settings is OpenClaw's own migration; writing beside them would leave a rejected key.
        plan.blocked_by_legacy = True
        plan.snippet = snippet(NEW_KEY, paths)
        return plan
    for key in plan.keys:
        node = data
        for part in key[:-1]:
            node = node.setdefault(part, {}) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            return ConfigPlan(
                keys=[key],
                added=list(paths),
                parse_error=f"{dotted(key[:-1])} is not an object",
                snippet=snippet(key, paths),
            )
        current = node.get(key[-1])
        if not isinstance(current, list):
            if current is not None:
                return ConfigPlan(
                    keys=[key],
                    added=list(paths),
                    parse_error=f"{dotted(key)} is not a list",
                    snippet=snippet(key, paths),
                )
            current = []
        present = {_is_ours(entry, aliases) for entry in current}
        missing = [p for p in paths if p not in present]
        if missing:
            node[key[-1]] = current + missing
            plan.added += [p for p in missing if p not in plan.added]
    if plan.added:
        plan.text = dump(data)
    return plan


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
        current = _get(data, key)
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


def legacy_advice(legacy: str) -> str:
    """What is wrong with an old memory-search key, and the fix."""
    return (
        f"it has the old key {legacy}, which OpenClaw 2026.9.6 and later reject (`openclaw config validate`: "
        f'Unrecognized key "memorySearch"). Run `{LEGACY_FIX}` (it moves those settings to memory.search)'
    )


def snippet(key: tuple[str, ...], paths: list[str]) -> str:
    """JSON5 to merge into openclaw.json by hand: the nested objects down to the key, and the paths."""
    inner = "[\n" + "".join(f"{'  ' * (len(key) + 1)}{json.dumps(p, ensure_ascii=False)},\n" for p in paths)
    inner += "  " * len(key) + "]"
    text = inner
    for depth in range(len(key) - 1, -1, -1):
        pad = "  " * (depth + 1)
        text = "{\n" + f"{pad}{key[depth]}: {text},\n" + "  " * depth + "}"
    return text
