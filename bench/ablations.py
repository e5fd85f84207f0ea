"""The quality bench's switches: each names one part of the product and how the bench turns it off, in one table.

A switch acts in up to three ways:
- `patches`: module attributes set before a script starts, for a part that has no option of its own (a ranking
  weight, the decay rate); a script run as a process gets them through bench/patched.py;
- `skipped`: scheduled jobs left out (consolidation);
- `stripped`: fields removed from every memory in memory/index.json before the questions are asked (the turns
  attached to a memory).

A switch whose patches matter to recall alone (`recall_only`) asks its questions of the default build; any other
builds its own memory, every script of it patched. The names patched are the product's: when one of them is gone,
`apply` stops the run with a sentence naming the switch, so the table is brought up to date rather than measuring
nothing.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Patch:
    """Set `module`.`name` (or one entry `key` of it, a dict) to `value` before a script runs."""

    module: str
    name: str
    value: float
    key: str | None = None


@dataclass(frozen=True)
class Switch:
    """One part of the product switched off, and how."""

    name: str
    off: str  # what the variant without it does, as the tables say it
    patches: tuple[Patch, ...] = ()
    skipped: frozenset[str] = frozenset()  # scripts of the schedule left out
    stripped: tuple[str, ...] = ()  # memory fields removed from the index before the questions
    recall_only: bool = False  # the patches change recall alone: the default build serves

    @property
    def own_build(self) -> bool:
        return bool(self.skipped) or (bool(self.patches) and not self.recall_only)


# --- the table ------------------------------------------------------------------------------------------------
SWITCHES = (
    Switch(
        "importance",
        "ranking without importance (its weight 0)",
        patches=(Patch("hippocampus.search", "WEIGHTS", 0.0, key="importance"),),
        recall_only=True,
    ),
    Switch(
        "recency",
        "ranking without recency (its weight 0)",
        patches=(Patch("hippocampus.search", "WEIGHTS", 0.0, key="recency"),),
        recall_only=True,
    ),
    Switch(
        "decay",
        "nothing fades (decay rate 1, in every script: importance stays as encoded and reinforced, so nothing is "
        "archived for fading, and recency, the same curve, is flat)",
        patches=(
            Patch("hippocampus.retention", "DECAY_RATE", 1.0),  # every reader of the rate reads it there, at each call
        ),
    ),
    Switch(
        "episodes",
        "memories without their attached turns (removed from the index before the questions)",
        stripped=("episode",),
    ),
    Switch("consolidation", "no weekly consolidation", skipped=frozenset({"consolidate"})),
)
# ----------------------------------------------------------------------------------------------------------------


def named(names: Sequence[str]) -> list[Switch]:
    """The switches of these names, in the table's order; ValueError for a name the table lacks."""
    known = {s.name: s for s in SWITCHES}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"no switch named {', '.join(unknown)} (known: {', '.join(known)})")
    return [s for s in SWITCHES if s.name in names]


def encoded(patches: Sequence[Patch]) -> str:
    """Patches as one command-line argument (bench/patched.py reads it back with `decoded`)."""
    return json.dumps([[p.module, p.name, p.value, p.key] for p in patches])


def decoded(text: str) -> list[Patch]:
    return [Patch(module, name, value, key) for module, name, value, key in json.loads(text)]


def apply(patches: Sequence[Patch]) -> list[tuple[object, str, object]]:
    """Apply `patches` in order; returns what `restore` needs to undo them. ValueError when a patched name is gone."""
    undo: list[tuple[object, str, object]] = []
    for p in patches:
        try:
            module = importlib.import_module(p.module)
        except ImportError as exc:
            raise ValueError(f"switch table out of date: cannot import {p.module} ({exc})") from exc
        if not hasattr(module, p.name):
            raise ValueError(f"switch table out of date: {p.module} has no {p.name}")
        if p.key is None:
            undo.append((module, p.name, getattr(module, p.name)))
            setattr(module, p.name, p.value)
            continue
        table = getattr(module, p.name)
        if not isinstance(table, dict) or p.key not in table:
            raise ValueError(f"switch table out of date: {p.module}.{p.name} has no entry {p.key!r}")
        undo.append((table, p.key, table[p.key]))
        table[p.key] = p.value
    return undo


def restore(undo: list[tuple[object, str, object]]) -> None:
    for target, name, value in reversed(undo):
        if isinstance(target, dict):
            target[name] = value
        else:
            setattr(target, name, value)


@contextmanager
def patched(patches: Sequence[Patch]) -> Iterator[None]:
    """`patches` applied for the duration of a block (for scripts called in this process)."""
    undo = apply(patches)
    try:
        yield
    finally:
        restore(undo)


def strip(index: Path, fields: Sequence[str]) -> int:
    """Remove `fields` from every memory of an index.json, as a hand edit would; how many memories had one."""
    data = json.loads(index.read_text(encoding="utf-8"))
    changed = 0
    for memory in data.get("memories") or []:
        if isinstance(memory, dict) and [f for f in fields if memory.pop(f, None) is not None]:
            changed += 1
    index.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return changed
