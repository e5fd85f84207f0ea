"""The core's shape, read from its source: no import cycle (imports inside functions count), the store imports no
feature, and no module reaches into another's private names."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "scripts" / "hippocampus"
# What the store serves: none of these may be imported by the store (the cache included).
FEATURES = (
    "hippocampus.ingestion",
    "hippocampus.sleep",
    "hippocampus.published",
    "hippocampus.installation",
    "hippocampus.search",
    "hippocampus.cli",
    "hippocampus.events",
    "hippocampus.render",
)


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> dict[str, set[str]]:
    """{module imported: names taken from it} for every import in the file, at any depth."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    out.setdefault(alias.name, set())
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                if f"{origin}.{alias.name}" in known:
                    out.setdefault(f"{origin}.{alias.name}", set())
                elif origin in known:
                    out.setdefault(origin, set()).add(alias.name)
    return out


def graph() -> dict[str, dict[str, set[str]]]:
    known = modules()
    return {
        name: {
            m: names
            for m, names in imports(name, path, known).items()
            if m != name and not name.startswith(m + ".") and m != "hippocampus"
        }
        for name, path in known.items()
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, ()):
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_core_has_no_import_cycle_even_counting_imports_inside_functions():
    edges = {name: set(targets) for name, targets in graph().items()}
    assert len(edges) > 40  # the whole package was read
    assert cycles(edges) == []


def test_no_package_imports_a_package_that_imports_it():
    """Packages (and the top-level modules) depend one way: no loop like the store's cache using `terms` while
    `terms` used the store's model."""

    def unit(name: str) -> str:
        parts = name.split(".")
        return ".".join(parts[:2]) if len(parts) > 2 else name

    edges: dict[str, set[str]] = {}
    for name, targets in graph().items():
        for target in targets:
            if unit(target) != unit(name):
                edges.setdefault(unit(name), set()).add(unit(target))
    assert cycles(edges) == []


def test_the_cycle_check_finds_a_cycle_made_by_an_import_inside_a_function():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_store_and_its_cache_import_no_feature():
    offending = {
        name: sorted(t for t in targets if t.startswith(FEATURES))
        for name, targets in graph().items()
        if name.startswith("hippocampus.store")
    }
    assert "hippocampus.store.cache" in offending and "hippocampus.store.indexfile" in offending
    assert {name: found for name, found in offending.items() if found} == {}


def test_no_module_imports_another_module_s_private_names():
    taken = {
        (name, origin, n)
        for name, targets in graph().items()
        for origin, names in targets.items()
        for n in names
        if n.startswith("_") and not n.startswith("__")
    }
    assert taken == set()


def private_reads(source: str) -> list[str]:
    """`name._private` where `name` was bound by an import of the same file."""
    tree = ast.parse(source)
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            bound |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return [
        f"{node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in bound
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    ]


def test_the_private_name_check_finds_a_module_s_private_name_read_inside_a_function():
    source = "from . import cache\n\ndef f(ws):\n    return cache._open(ws), cache.open_view, self._own\n"
    assert private_reads(source) == ["cache._open"]


def test_no_module_reads_a_private_name_of_a_module_it_imported():
    found = [
        f"{name}: {read}"
        for name, path in modules().items()
        for read in private_reads(path.read_text(encoding="utf-8"))
    ]
    assert found == []
