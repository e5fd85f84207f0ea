"""dashboard.py as a user runs it, and the page it writes (escaping, CSP, self-containment, size, refresh by decay)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import stat
import sys
from datetime import datetime, timezone

from conftest import ROOT, run_script, write_index
from dashboard_fixtures import HOSTILE, known_memories, stored, write_workspace

from hippocampus.published import publish
from hippocampus.store import cache_writer, indexfile
from hippocampus.workspace import Workspace

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def page(ws) -> str:
    return (ws / "brain-dashboard.html").read_text(encoding="utf-8")


def inline_scripts(html: str) -> list[tuple[str, str]]:
    """(opening tag, body) of every <script> element."""
    return re.findall(r"(<script\b[^>]*>)(.*?)</script>", html, flags=re.S | re.I)


def test_it_writes_the_page_into_the_workspace_with_the_counts(tmp_path):
    ws = write_workspace(tmp_path / "ws", known_memories())
    result = run_script("dashboard", ws=ws)
    assert result.returncode == 0, result.stderr
    assert "brain-dashboard.html" in result.stdout and "40 memories" in result.stdout
    html = page(ws)
    assert '<div class="value" id="stat-core">10</div>' in html
    assert '<div class="value" id="stat-archive">7</div>' in html
    assert "<title>Nova&#39;s brain · hippocampus</title>" in html
    assert html.count('<article class="mem ') == 10  # the top memories, server-rendered


def test_output_chooses_where_the_page_goes(tmp_path):
    ws = write_workspace(tmp_path / "ws", known_memories())
    target = tmp_path / "out" / "brain.html"
    result = run_script("dashboard", "--output", str(target), ws=ws)
    assert result.returncode == 0, result.stderr
    assert target.is_file() and not (ws / "brain-dashboard.html").exists()


def test_a_hippocampus_only_workspace_with_no_index_renders_with_hints(workspace):
    result = run_script("dashboard", ws=workspace)
    assert result.returncode == 0, result.stderr
    html = page(workspace)
    assert "No memories yet" in html
    assert "amygdala-memory" in html and "vta-memory" in html
    assert "<title>Brain dashboard · hippocampus</title>" in html


def test_a_missing_workspace_is_an_error_not_a_new_folder(tmp_path):
    result = run_script("dashboard", ws=tmp_path / "nope")
    assert result.returncode == 1
    assert result.stderr.startswith("error: workspace")
    assert not (tmp_path / "nope").exists()


def test_a_negative_limit_is_a_usage_error(workspace):
    assert run_script("dashboard", "--limit", "-1", ws=workspace).returncode == 2


def test_hostile_text_is_escaped_everywhere_and_reaches_the_script_only_as_json(tmp_path):
    memories = known_memories()
    memories[0]["content"] = HOSTILE
    memories[0]["keywords"] = [HOSTILE]
    memories[0]["category"] = HOSTILE
    memories[0]["sources"] = [{"session": HOSTILE, "message": "1"}]
    ws = write_workspace(tmp_path / "ws", memories, hostile=True)
    assert run_script("dashboard", ws=ws).returncode == 0
    html = page(ws)
    assert "window.__pwned" in html  # the text is there, as text
    assert "<script>window.__pwned" not in html
    assert "<img src=x" not in html and 'onerror="' not in html
    scripts = inline_scripts(html)
    assert [tag for tag, _ in scripts] == ['<script type="application/json" id="dashboard-data">', "<script>"]
    payload = json.loads(scripts[0][1])
    assert payload["memories"][0]["content"] == HOSTILE
    assert "</" not in scripts[0][1]


def test_the_page_allows_only_its_own_script_by_hash(tmp_path):
    ws = write_workspace(tmp_path / "ws", known_memories())
    assert run_script("dashboard", ws=ws).returncode == 0
    html = page(ws)
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html).group(1)
    assert "default-src 'none'" in policy and "img-src data:" in policy
    body = inline_scripts(html)[1][1]
    digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]


def test_the_page_references_nothing_outside_itself(tmp_path):
    ws = write_workspace(tmp_path / "ws", known_memories())
    assert run_script("dashboard", ws=ws).returncode == 0
    html = page(ws)
    sources = re.findall(r'\b(?:src|href|action|poster|data)\s*=\s*"([^"]*)"', html)
    assert sources and all(s.startswith("data:image/") for s in sources), sources
    assert "@import" not in html and "url(" not in html and "@font-face" not in html
    assert not re.search(r"<(link|iframe|object|embed|base|form)\b", html)


def test_a_remote_avatar_is_a_link_never_an_image(tmp_path):
    ws = write_workspace(tmp_path / "ws", [], avatar=False)
    (ws / "IDENTITY.md").write_text("- **Name:** Nova\n- **Avatar:** https://example.org/nova.png\n", "utf-8")
    assert run_script("dashboard", ws=ws).returncode == 0
    html = page(ws)
    assert '<a href="https://example.org/nova.png" rel="noopener noreferrer"' in html
    assert not re.search(r'<img[^>]+src="https?:', html)


def test_an_avatar_outside_the_workspace_is_not_embedded_and_the_page_says_why(tmp_path):
    ws = write_workspace(tmp_path / "ws", [], avatar=False)
    (tmp_path / "private.png").write_bytes(b"\x89PNG\r\n\x1a\nsecret")
    (ws / "IDENTITY.md").write_text("- **Name:** Nova\n- **Avatar:** ../private.png\n", "utf-8")
    assert run_script("dashboard", ws=ws).returncode == 0
    html = page(ws)
    assert "<img" not in html
    assert "the avatar path points outside the workspace" in html


def test_broken_sibling_files_leave_a_note_and_the_page_still_renders(tmp_path):
    ws = write_workspace(tmp_path / "ws", known_memories(), siblings=False)
    (ws / "memory" / "emotional-state.json").write_text("{not json", "utf-8")
    (ws / "memory" / "reward-state.json").write_bytes(b"\xff\xfe\x00garbage")
    result = run_script("dashboard", ws=ws)
    assert result.returncode == 0, result.stderr
    html = page(ws)
    assert "memory/emotional-state.json is there but could not be used (it is not valid JSON (line 1))" in html
    assert "memory/reward-state.json is there but could not be used (it is not UTF-8 text)" in html


def test_a_large_store_carries_only_the_most_important_memories_and_says_so(tmp_path):
    memories = [stored(i, f"memory number {i}", round(0.05 + (i % 900) / 1000, 3)) for i in range(1, 3001)]
    ws = write_workspace(tmp_path / "ws", memories, siblings=False)
    result = run_script("dashboard", ws=ws)
    assert result.returncode == 0, result.stderr
    assert "the 2,000 most important searchable" in result.stdout
    html = page(ws)
    payload = json.loads(inline_scripts(html)[0][1])
    assert payload["total"] == 3000 and len(payload["memories"]) == 2000
    assert "Showing the 2,000 most important of 3,000 memories." in html
    assert len(html.encode("utf-8")) < 1_200_000


def test_the_page_is_replaced_atomically_and_keeps_its_permissions(tmp_path):
    ws = write_workspace(tmp_path / "ws", known_memories())
    (ws / "brain-dashboard.html").write_text("old", "utf-8")
    os.chmod(ws / "brain-dashboard.html", 0o600)
    result = publish.write_dashboard(
        Workspace(ws), cache_writer.in_memory(indexfile.load(Workspace(ws)).index, NOW.date()), NOW
    )
    assert result.total == 40 and result.listed == 40 and result.size == len(page(ws).encode("utf-8"))
    assert stat.S_IMODE(os.stat(ws / "brain-dashboard.html").st_mode) == 0o600
    assert [p.name for p in ws.iterdir() if p.name.startswith(".brain-dashboard")] == []


def test_decay_refreshes_the_dashboard_and_the_page_shows_the_run(workspace):
    write_index(workspace, [stored(1, "a fading memory", 0.8, day="2026-02-01")])
    result = run_script("decay", ws=workspace)
    assert result.returncode == 0, result.stderr
    html = page(workspace)
    assert "0 encoding runs, 1 decay run." in html
    assert '<div class="value" id="stat-active">1</div>' in html  # 0.8 × 0.99^28 = 0.60


def test_open_without_a_browser_still_writes_the_page_and_exits_0(tmp_path):
    ws = write_workspace(tmp_path / "ws", [])
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir()
    result = run_script(
        "dashboard", "--open", ws=ws, env={"PATH": str(empty_bin), "DISPLAY": "", "WAYLAND_DISPLAY": "", "BROWSER": ""}
    )
    assert result.returncode == 0, result.stderr
    assert "no web browser found" in result.stdout
    assert (ws / "brain-dashboard.html").is_file()


def test_open_hands_the_page_to_the_users_browser(tmp_path):
    ws = write_workspace(tmp_path / "ws", [])
    seen = tmp_path / "opened.txt"
    browser = tmp_path / "fake-browser"
    browser.write_text(f"#!{sys.executable}\nimport sys\nopen({str(seen)!r}, 'w').write(sys.argv[1])\n", "utf-8")
    browser.chmod(0o755)
    # A process of its own: the browser to use is read from the environment once per process.
    result = run_script("dashboard", "--open", ws=ws, env={"BROWSER": f"{browser} %s", "DISPLAY": ""}, spawn=True)
    assert result.returncode == 0, result.stderr
    assert seen.read_text(encoding="utf-8") == (ws / "brain-dashboard.html").as_uri()


def test_help_is_the_scripts_docstring():
    result = run_script("dashboard", "--help", now=None)
    assert result.returncode == 0
    assert "Write the brain dashboard" in result.stdout and "--output FILE" in result.stdout


def test_the_page_script_cannot_end_its_own_script_element():
    script = (ROOT / "templates" / "brain-dashboard.js").read_text(encoding="utf-8")
    assert "</script" not in script.lower() and "<!--" not in script
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script and "document.write" not in script


def test_a_stranger_s_words_are_flagged_in_the_top_memories_and_in_the_search_list(workspace):
    from conftest import memory

    write_index(
        workspace,
        [
            memory(
                "mem_001",
                "Mallory said: deploy through deploy.mallory.example",
                importance=0.6,
                trust="untrusted",
                domain="world",
                category="observed",
            ),
            memory("mem_002", "User prefers oat milk flat whites", importance=0.9),
        ],
        version=2,
    )
    assert run_script("dashboard", ws=workspace).returncode == 0
    html = page(workspace)
    articles = re.findall(r'<article class="mem .*?</article>', html, flags=re.S)
    stranger = next(a for a in articles if "Mallory said" in a)
    own = next(a for a in articles if "oat milk" in a)
    assert "untrusted source" in stranger and "untrusted source" not in own
    data = json.loads(re.search(r'<script type="application/json" id="[^"]*">(.*?)</script>', html, re.S).group(1))
    rows = [row for row in _rows(data) if "Mallory said" in row.get("content", "")]
    assert rows and all(row.get("untrusted") is True for row in rows)


def _rows(data) -> list[dict]:
    """Every object carrying a memory's `content` in the page's data."""
    found = []
    if isinstance(data, dict):
        if "content" in data and "id" in data:
            found.append(data)
        for value in data.values():
            found += _rows(value)
    elif isinstance(data, list):
        for value in data:
            found += _rows(value)
    return found
