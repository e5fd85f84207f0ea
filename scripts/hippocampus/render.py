"""One Jinja2 environment for every template: the core file, the dashboard, the AGENTS block and the cron jobs'
messages. (load_core's text is not a template: `selection.CoreSelection.as_text` writes it, so a session start
imports no template engine.)"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    # HTML templates are autoescaped by name; Markdown and text ones are not (their values are flattened first).
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=jinja2.select_autoescape(["html", "htm", "xml"]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        # Compiled templates are kept in a private per-user temp folder: the dashboard's template takes a
        # noticeable share of a run to compile.
        bytecode_cache=jinja2.FileSystemBytecodeCache(),
    )
    # `tojson` stays HTML-safe (it escapes < > & '); compact separators keep data-heavy pages small.
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":"), "ensure_ascii": False}
    return env


def render(name: str, **values) -> str:
    return environment().get_template(name).render(**values)
