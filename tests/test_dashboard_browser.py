"""The dashboard in a real browser (headless Chromium from the system's packages, driven by Playwright).

Outside CI the tests skip, saying why, when Chromium or Playwright is missing; under CI (CI=true) that is a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import run_script
from dashboard_fixtures import HOSTILE, known_memories, stored, write_workspace

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    for candidate in (shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI must run the browser tests (.ci/run installs Chromium)")
    pytest.skip(f"{reason} (apt-get install chromium; pip install -r requirements-dev.txt)")


@pytest.fixture(scope="module")
def browser():
    executable = chromium_path()
    if executable is None:
        unavailable("no chromium on this machine")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Visit:
    """A page loaded from disk, with every request, console message and page error it caused."""

    def __init__(self, browser, path: Path, width: int = 1280, height: int = 900, scheme: str = "light"):
        self.url = path.as_uri()
        self.context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on(
            "console",
            lambda message: (
                message.type in ("error", "warning") and self.errors.append(f"{message.type}: {message.text}")
            ),
        )
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        # Anything that is not the page itself is refused, so a stray request cannot leave the machine.
        self.context.route("**/*", lambda route: route.continue_() if route.request.url == self.url else route.abort())
        self.page.goto(self.url)
        self.page.wait_for_selector("html[data-ready=yes]")

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def close(self):
        self.context.close()


@pytest.fixture
def visit(browser):
    opened = []

    def open_page(path: Path, **kwargs) -> Visit:
        opened.append(Visit(browser, path, **kwargs))
        return opened[-1]

    yield open_page
    for v in opened:
        v.close()


def generate(ws: Path) -> Path:
    result = run_script("dashboard", ws=ws)
    assert result.returncode == 0, result.stderr
    return ws / "brain-dashboard.html"


@pytest.fixture
def known_page(tmp_path) -> Path:
    return generate(write_workspace(tmp_path / "ws", known_memories()))


def test_the_page_loads_with_no_console_errors_and_no_network_request(visit, known_page):
    v = visit(known_page)
    for tab in ("brain", "overview", "memories"):
        v.page.click(f"#tab-{tab}")
    v.page.fill("#search", "coffee")
    v.page.wait_for_timeout(200)
    assert v.errors == []
    assert v.requests == [v.url]
    assert v.page.evaluate("document.querySelector('img.avatar').naturalWidth") == 48  # the data URI avatar


def test_the_page_shows_the_expected_counts(visit, known_page):
    v = visit(known_page)
    assert v.text("#agent-name") == "Nova's brain"
    counts = {tier: v.text(f"#stat-{tier}") for tier in ("total", "core", "active", "background", "archive")}
    assert counts == {"total": "40", "core": "10", "active": "14", "background": "9", "archive": "7"}
    assert v.page.locator("#top-memories article").count() == 10
    assert v.text("#projection-marks").split()[0] == "10"


def test_the_search_box_and_filters_narrow_the_memories(visit, known_page):
    v = visit(known_page)
    v.page.click("#tab-memories")
    cards = v.page.locator("#memory-list article")
    assert cards.count() == 40
    assert v.text("#result-count") == "Showing 40 memories."
    assert "last used 2026-03-01 (today)" in cards.first.inner_text()
    v.page.fill("#search", "coffee")
    v.page.wait_for_function("document.querySelectorAll('#memory-list article').length === 4")
    assert v.text("#result-count") == "4 matches among 40 memories."
    assert all("coffee" in text.lower() for text in cards.all_inner_texts())
    assert v.page.locator("#memory-list mark").first.inner_text().lower() == "coffee"
    v.page.fill("#search", "")
    v.page.select_option("#domain-filter", "world")
    assert cards.count() == 12
    v.page.click(".seg[data-tier=core]")
    assert cards.count() == 3
    v.page.fill("#search", "no such words anywhere")
    v.page.wait_for_function("!document.querySelector('#memory-list article')")
    assert "No memory matches" in v.text("#memory-list")


def test_show_more_counts_down_and_is_gone_once_every_memory_is_shown(visit, known_page, tmp_path):
    v = visit(known_page)
    v.page.click("#tab-memories")
    assert v.page.locator("#memory-list article").count() == 40
    assert not v.page.is_visible("#show-more"), "40 memories fit on one page: nothing more to show"
    many = [stored(n, f"Fact {n} about the allotment garden", 0.5) for n in range(1, 71)]
    v = visit(generate(write_workspace(tmp_path / "many", many)))
    v.page.click("#tab-memories")
    assert v.page.locator("#memory-list article").count() == 60
    assert v.page.is_visible("#show-more") and v.text("#show-more") == "Show more (10 left)"
    v.page.click("#show-more")
    assert v.page.locator("#memory-list article").count() == 70
    assert not v.page.is_visible("#show-more")


def test_counts_of_one_are_singular(visit, tmp_path):
    once = [stored(1, "User keeps bees on the roof", 0.9, reinforced=1)]
    v = visit(generate(write_workspace(tmp_path / "ws", once)))
    stat = v.page.locator(".stat").filter(has=v.page.locator("#stat-total")).inner_text()
    assert "1 reinforcement" in stat and "1 reinforcements" not in stat
    assert v.text("#total-count") == "1" and "memory ·" in v.text(".stamp") and "memories" not in v.text(".stamp")
    v.page.click("#tab-memories")
    assert v.text("#result-count") == "Showing 1 memory."


def test_a_memory_shows_the_values_it_held_before_and_is_found_by_them(visit, tmp_path):
    history = [
        {"ts": "2026-02-10T09:00:00Z", "merged": "mem_007", "content": "User's sister is called Sara"},
        {
            "ts": "2026-02-20T09:00:00Z",
            "content": "User's sister's name is Sofia",
            "from": "2026-02-01T09:00:00Z",
            "until": "2026-02-20T09:00:00Z",
        },
    ]
    memories = [
        stored(1, "User's sister's name is Sara", 0.9, history=history),
        stored(2, "User keeps bees on the roof", 0.8),
    ]
    v = visit(generate(write_workspace(tmp_path / "ws", memories)))
    v.page.click("#tab-memories")
    v.page.fill("#search", "sofia")
    v.page.wait_for_function("document.querySelectorAll('#memory-list article').length === 1")
    card = v.page.locator("#memory-list article").first
    assert "User's sister's name is Sara" in card.inner_text()
    assert card.locator("details.history summary").inner_text() == "1 earlier value"  # a merge is no value it held
    card.locator("details.history summary").click()
    assert "User's sister's name is Sofia (2026-02-01 – 2026-02-20)" in card.locator("details.history").inner_text()
    assert v.errors == [] and v.requests == [v.url]


def test_the_tabs_switch_panels(visit, known_page):
    v = visit(known_page)
    assert v.page.is_visible("#panel-overview") and not v.page.is_visible("#panel-brain")
    v.page.click("#tab-brain")
    assert v.page.is_visible("#panel-brain") and not v.page.is_visible("#panel-overview")
    assert v.page.get_attribute("#tab-brain", "aria-selected") == "true"
    assert "joy" in v.text("#amygdala") and "accomplishment" in v.text("#vta")
    v.page.keyboard.press("ArrowLeft")
    assert v.page.is_visible("#panel-memories")


def test_a_link_to_a_tab_opens_that_tab(visit, known_page, browser):
    v = visit(known_page)
    v.page.goto(v.url + "#brain")
    v.page.wait_for_selector("html[data-ready=yes]")
    assert v.page.is_visible("#panel-brain") and not v.page.is_visible("#panel-overview")


def test_hostile_text_stays_inert_and_shows_as_text(visit, tmp_path):
    memories = known_memories()
    memories[0]["content"] = HOSTILE
    memories[0]["keywords"] = [HOSTILE]
    memories[0]["sources"] = [{"session": HOSTILE}]
    memories[0]["history"] = [{"ts": "2026-02-01T00:00:00Z", "content": HOSTILE, "until": "2026-02-01T00:00:00Z"}]
    path = generate(write_workspace(tmp_path / "ws", memories, hostile=True))
    v = visit(path)
    assert v.text("#agent-name").startswith("Nova </script><script>window.__pwned=1</script><img src=x")
    assert HOSTILE in v.text("#top-memories")
    v.page.click("#tab-memories")
    v.page.fill("#search", "pwned")
    v.page.wait_for_function("document.querySelectorAll('#memory-list article').length === 1")
    v.page.click("#memory-list details summary")
    assert HOSTILE in v.text("#memory-list")
    v.page.click("#tab-brain")
    assert HOSTILE in v.text("#emotions") and HOSTILE in v.text("#rewards") and HOSTILE in v.text("#events")
    assert v.page.evaluate("typeof window.__pwned") == "undefined"
    assert v.page.locator("img").count() == 1  # the avatar; the <img> in the text is text
    assert v.page.locator("script").count() == 2
    assert v.errors == [] and v.requests == [v.url]


def test_the_page_works_with_no_memories_no_identity_and_no_sibling_skills(visit, workspace):
    v = visit(generate(workspace))
    assert v.text("#agent-name") == "Brain dashboard"
    assert v.text("#stat-total") == "0"
    v.page.click("#tab-memories")
    assert "No memories yet" in v.text("#memory-list")
    v.page.click("#tab-brain")
    assert "amygdala-memory" in v.text("#amygdala") and "vta-memory" in v.text("#vta")
    assert v.errors == [] and v.requests == [v.url]


def test_screenshots_on_a_laptop_and_a_phone_in_light_and_dark(browser, known_page, tmp_path):
    shots = tmp_path / "screenshots"
    shots.mkdir()
    for scheme in ("light", "dark"):
        for device, (width, height) in {"laptop": (1366, 900), "phone": (390, 844)}.items():
            v = Visit(browser, known_page, width=width, height=height, scheme=scheme)
            try:
                # Nothing may stick out sideways on a phone.
                assert v.page.evaluate("document.documentElement.scrollWidth") <= width
                dark = v.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
                assert dark == (scheme == "dark")
                for tab in ("overview", "memories", "brain"):
                    v.page.click(f"#tab-{tab}")
                    assert v.page.evaluate("document.documentElement.scrollWidth") <= width, (device, tab)
                    target = shots / f"{tab}-{device}-{scheme}.png"
                    v.page.screenshot(path=str(target), full_page=True)
                    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
                assert v.errors == []
            finally:
                v.close()
    assert len(list(shots.iterdir())) == 12
