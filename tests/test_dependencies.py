"""The packages the scripts refuse to start without are the packages the skill's code imports: none required for
nothing, none imported without being required."""

from __future__ import annotations

import ast
import sys

from conftest import ROOT, SCRIPTS
from hippocampus.installation import bootstrap

COMES_WITH = {"markupsafe": "jinja2"}


def imported_packages() -> dict[str, set[str]]:
    """{top-level name of every module the skill's code imports (at the top or inside a function): its files}."""
    found: dict[str, set[str]] = {}
    for path in [*SCRIPTS.rglob("*.py"), ROOT / "install.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_required_package_is_imported_by_the_skill_and_every_imported_package_is_required():
    imported = imported_packages()
    own = {"hippocampus"}
    zstd = {"compression", "backports"}  # zstd: the standard library's from Python 3.14, else the backport
    outside = {name for name in imported if name not in sys.stdlib_module_names and name not in own | zstd}
    # MarkupSafe is installed with Jinja2, which requires it: no package of its own to check for.
    assert {COMES_WITH.get(name, name) for name in outside} == set(bootstrap.REQUIRED)
    assert {"yaml", "jsonlines", "dateutil", "jinja2"} == set(bootstrap.REQUIRED)
