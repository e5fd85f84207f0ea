"""The YAML fields on the Markdown files the skill writes: the trailer of the per-domain mirrors and the front matter
of the weekly consolidation reports. Parsed here with yaml.safe_load on its own, not only with the skill's reader."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings, strategies as st
import yaml

from conftest import memory, read_index, run_script, write_index
from hippocampus import frontmatter
from hippocampus.published import mirrors
from hippocampus.model import Index, Memory
from hippocampus.store import cache, cache_writer
from hippocampus.workspace import Workspace

NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
HOSTILE = (
    "---\ngenerator: evil\ndomain: self\nmemories: 999\n---\n# Injected\n... {{ 7*7 }} {% raw %} "
    "<script>alert(1)</script> <!-- --> key: [unclosed &anchor *alias !!python/object:os.system"
)


def front_matter(text: str) -> tuple[dict, str]:
    """The front matter as yaml.safe_load reads it, and the Markdown after it."""
    found = re.match(r"---\n(.*?\n)---\n", text, re.DOTALL)
    assert found, text[:200]
    fields = yaml.safe_load(found.group(1))
    assert isinstance(fields, dict)
    return fields, text[found.end() :]


def trailer(text: str) -> tuple[dict, str]:
    """A mirror's trailer as yaml.safe_load reads it, and the Markdown before it."""
    found = re.search(r"(?:\A|\n)<!-- hippocampus\n(.*?)-->\n\Z", text, re.DOTALL)
    assert found, text[-300:]
    fields = yaml.safe_load(found.group(1))
    assert isinstance(fields, dict)
    return fields, text[: found.start(1) - len("<!-- hippocampus\n")]


def index_of(*memories: dict) -> cache.Cache:
    return cache_writer.in_memory(Index.from_dict({"version": 2, "memories": list(memories)}, "test"), NOW.date())


def shelf_files(ws: Workspace) -> dict:
    return {str(p.relative_to(ws.memory)): p.read_text(encoding="utf-8") for p in sorted(ws.memory.glob("*/*.md"))}


# --- mirrors --------------------------------------------------------------------------------------------------


def test_a_mirror_opens_with_its_most_important_memory_and_ends_with_a_trailer_naming_its_writer_and_shelf(tmp_path):
    ws = Workspace(tmp_path)
    index = index_of(
        memory("mem_001", "User prefers oat milk flat whites", 0.9, category="preferences"),
        memory("mem_002", "User dislikes early meetings", 0.7, category="preferences"),
        memory("mem_003", "The agent keeps answers short", 0.8, domain="self", category="style"),
    )
    assert mirrors.write_mirrors(ws, index, NOW.date()) == 2
    files = shelf_files(ws)
    assert sorted(files) == ["self/style.md", "user/preferences.md"]
    fields, body = trailer(files["user/preferences.md"])
    assert fields == {
        "generator": "hippocampus",
        "note": "written from memory/index.json; edits here are replaced",
        "title": "About the user — preferences",
        "domain": "user",
        "shelf": "preferences",
        "memories": 2,
        "listed": 2,
    }
    assert body.startswith("- User prefers oat milk flat whites _(0.68 · mem_001 · 2026-02-01)_\n")
    assert body.splitlines()[1].startswith("- User dislikes early meetings _(0.53")
    assert trailer(files["self/style.md"])[0]["domain"] == "self"
    assert frontmatter.split_trailer(files["user/preferences.md"]) == (fields, body)


def test_a_mirror_too_long_to_list_whole_says_how_many_memories_its_shelf_holds(tmp_path):
    ws = Workspace(tmp_path)
    many = [memory(f"mem_{n:03d}", f"Fact number {n} about the user", 0.5) for n in range(1, 6)]
    mirrors.write_mirrors(ws, index_of(*many), NOW.date())
    text = (ws.domain_dir("user") / "general.md").read_text(encoding="utf-8")
    fields, _ = trailer(text)
    assert (fields["memories"], fields["listed"]) == (5, 5)
    shelf = [(Memory.from_dict(m, "test"), 0.5) for m in many]
    fields, body = trailer(mirrors.render("user", "general", shelf[:2], more=3))
    assert (fields["memories"], fields["listed"]) == (5, 2)
    assert "_3 less important memories of this shelf are not listed here" in body


@pytest.mark.parametrize("field", ["content", "category"])
def test_memory_text_that_looks_like_yaml_a_trailer_or_a_template_stays_in_the_body(tmp_path, field):
    ws = Workspace(tmp_path)
    values = {"content": "User said hello", "category": "general", field: HOSTILE}
    mirrors.write_mirrors(
        ws, index_of(memory("mem_001", values["content"], 0.9, category=values["category"])), NOW.date()
    )
    [(name, text)] = shelf_files(ws).items()
    fields, body = trailer(text)
    assert fields["generator"] == "hippocampus" and fields["domain"] == "user" and fields["memories"] == 1
    assert set(fields) == {"generator", "note", "title", "domain", "shelf", "memories", "listed"}
    assert re.fullmatch(r"[a-z0-9_-]+", fields["shelf"]) and name == f"user/{fields['shelf']}.md"
    if field == "content":
        assert "{{ 7*7 }}" in body and "generator: evil" in body and body.startswith("- ---")
    assert frontmatter.split_trailer(text)[0] == fields


def test_a_mirror_left_by_an_older_version_is_replaced_and_one_whose_shelf_emptied_is_removed(tmp_path):
    ws = Workspace(tmp_path)
    folder = ws.domain_dir("user")
    folder.mkdir(parents=True)
    (folder / "general.md").write_text(f"# User — general\n\n{mirrors.MARKER}\n\n- old line\n", encoding="utf-8")
    (folder / "travel.md").write_text(f"# User — travel\n\n{mirrors.MARKER}\n\n- gone\n", encoding="utf-8")
    mirrors.write_mirrors(ws, index_of(memory("mem_001", "User likes tea", 0.9)), NOW.date())
    assert sorted(shelf_files(ws)) == ["user/general.md"]
    assert trailer((folder / "general.md").read_text(encoding="utf-8"))[0]["generator"] == "hippocampus"
    # a mirror whose shelf empties is removed as well, and so is one with the front matter of an earlier version
    (folder / "diet.md").write_text("---\ngenerator: hippocampus\ndomain: user\n---\n# old\n", encoding="utf-8")
    mirrors.write_mirrors(ws, index_of(memory("mem_002", "User likes maps", 0.9, category="travel")), NOW.date())
    assert sorted(shelf_files(ws)) == ["user/travel.md"]


@pytest.mark.parametrize(
    "text",
    [
        "---\ngenerator: someone else\n---\n# My notes\n",
        "---\ngenerator: [hippocampus\n---\n# broken front matter\n",
        "---\n- generator\n- hippocampus\n---\n# a list, not a mapping\n",
        "---\ngenerator: hippocampus\n# never closed\n",
        "# My notes\n\ngenerator: hippocampus\n",
        "---\nwhen: 2026-13-45\n---\nan impossible date\n",
        "---\n" + "[" * 5000 + "\n---\n",
        "---\na: &a [1]\nb: [*a, *a, *a]\n---\n",
        "# My notes\n\n<!-- hippocampus\ngenerator: someone else\n-->\n",
        "# My notes\n\n<!-- hippocampus\ngenerator: hippocampus\n",
        "# My notes\n\n<!-- hippocampus\ngenerator: [hippocampus\n-->\n",
        "<!-- hippocampus\n" + "[" * 5000 + "\n-->\n",
        "- a\n<!-- hippocampus\ngenerator: hippocampus\n-->\n\nmore of my notes\n",
    ],
    ids=[
        "another writer",
        "broken yaml",
        "a list",
        "unclosed",
        "no front matter",
        "bad date",
        "deep",
        "aliases",
        "another trailer",
        "trailer never closed",
        "broken trailer",
        "deep trailer",
        "trailer not at the end",
    ],
)
def test_a_markdown_file_the_user_keeps_beside_the_mirrors_is_never_removed(tmp_path, text):
    ws = Workspace(tmp_path)
    folder = ws.domain_dir("user")
    folder.mkdir(parents=True)
    (folder / "mine.md").write_text(text, encoding="utf-8")
    mirrors.write_mirrors(ws, index_of(memory("mem_001", "User likes tea", 0.9)), NOW.date())
    assert (folder / "mine.md").read_text(encoding="utf-8") == text


def test_a_markdown_file_that_is_not_utf8_beside_the_mirrors_is_kept_and_the_mirrors_are_written(tmp_path):
    ws = Workspace(tmp_path)
    folder = ws.domain_dir("user")
    folder.mkdir(parents=True)
    (folder / "latin1.md").write_bytes(b"---\ngenerator: caf\xe9\n---\nnotes \xe9t\xe9\n")
    mirrors.write_mirrors(ws, index_of(memory("mem_001", "User likes tea", 0.9)), NOW.date())
    assert (folder / "latin1.md").read_bytes() == b"---\ngenerator: caf\xe9\n---\nnotes \xe9t\xe9\n"
    assert (folder / "general.md").exists()


def test_a_file_that_is_not_utf8_where_a_mirror_goes_is_replaced_by_the_mirror(tmp_path):
    ws = Workspace(tmp_path)
    folder = ws.domain_dir("user")
    folder.mkdir(parents=True)
    (folder / "general.md").write_bytes(b"notes \xe9t\xe9\n")
    assert mirrors.write_mirrors(ws, index_of(memory("mem_001", "User likes tea", 0.9)), NOW.date()) == 1
    assert "User likes tea" in (folder / "general.md").read_text(encoding="utf-8")


# --- the weekly report ----------------------------------------------------------------------------------------


def duplicates(first: int, text: str) -> list[dict]:
    return [
        memory(f"mem_{first:03d}", f"User {text} on long flights", 0.8, created="2026-01-02"),
        memory(f"mem_{first + 1:03d}", f"User {text} on long flights", 0.6, created="2026-01-09"),
    ]


def test_the_weekly_report_opens_with_front_matter_for_the_week_and_each_run_that_changed_something(workspace):
    write_index(workspace, duplicates(1, "prefers a window seat") + [memory("mem_003", HOSTILE, 0.9)], version=2)
    done = run_script("consolidate", ws=workspace, now="2026-03-01T05:00:00Z")
    assert done.returncode == 0, done.stderr
    path = workspace / "memory" / "consolidation" / "2026-W09.md"
    fields, body = front_matter(path.read_text(encoding="utf-8"))
    assert fields == {
        "generator": "hippocampus",
        "report": "weekly consolidation",
        "week": "2026-W09",
        "date": "2026-03-01",
        "memories": 2,
        "runs": [
            {
                "at": "2026-03-01T05:00:00Z",
                "memoriesBefore": 3,
                "memoriesAfter": 2,
                "merged": 1,
                "superseded": 0,
                "contradictions": 0,
                "schemas": 0,
                "archived": 0,
            }
        ],
    }
    assert body.startswith("# Consolidation 2026-W09\n\nRun on 2026-03-01 05:00 UTC: 3 memories before")
    mirror = (workspace / "memory" / "user" / "general.md").read_text(encoding="utf-8")
    assert trailer(mirror)[0]["memories"] == 2

    # Later the same week, new duplicates: the run is added to the front matter and its report under the first.
    index = read_index(workspace)
    write_index(workspace, index["memories"] + duplicates(10, "reads paper books"), version=2)
    done = run_script("consolidate", ws=workspace, now="2026-03-01T18:00:00Z")
    assert done.returncode == 0, done.stderr
    text = path.read_text(encoding="utf-8")
    fields, body = front_matter(text)
    assert (fields["date"], fields["memories"]) == ("2026-03-01", 3)
    assert [(r["at"], r["merged"]) for r in fields["runs"]] == [
        ("2026-03-01T05:00:00Z", 1),
        ("2026-03-01T18:00:00Z", 1),
    ]
    assert body.count("# Consolidation 2026-W09\n") == 2 and "\n---\n\n# Consolidation 2026-W09\n" in body
    assert text.count("generator: hippocampus") == 1


@pytest.mark.parametrize(
    "before",
    [
        "# Consolidation 2026-W09\n\nRun on 2026-03-01 05:00 UTC: an older version's report.\n",
        "---\nweek: [broken\n---\n# Consolidation 2026-W09\n\nhand edited\n",
    ],
    ids=["no front matter", "broken front matter"],
)
def test_a_report_without_readable_front_matter_is_kept_whole_under_the_new_one(workspace, before):
    write_index(workspace, duplicates(1, "prefers a window seat"), version=2)
    path = workspace / "memory" / "consolidation" / "2026-W09.md"
    path.parent.mkdir(parents=True)
    path.write_text(before, encoding="utf-8")
    done = run_script("consolidate", ws=workspace, now="2026-03-01T05:00:00Z")
    assert done.returncode == 0, done.stderr
    fields, body = front_matter(path.read_text(encoding="utf-8"))
    assert fields["week"] == "2026-W09" and len(fields["runs"]) == 1
    assert body.startswith(before + "\n---\n\n# Consolidation 2026-W09\n")


# --- the reader and writer on their own -----------------------------------------------------------------------

# NEL (U+0085) is left out of the fields: PyYAML folds it inside a quoted scalar. No front matter field holds free
# text (shelves are file names, the rest numbers, dates and the skill's own words); the body may hold anything.
FIELD_TEXT = st.text(st.characters(blacklist_characters="\x85", blacklist_categories=("Cs",)))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(FIELD_TEXT.filter(bool), st.one_of(FIELD_TEXT, st.integers(), st.lists(FIELD_TEXT))), st.text())
def test_any_fields_and_any_markdown_read_back_exactly_as_written(fields, body):
    text = frontmatter.render(fields, body)
    assert frontmatter.split(text) == (fields, body)
    assert front_matter(text)[0] == fields if fields else True


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("-\n :[]{}&*!|>'\"#%@`?,.a1\t\ufeff\u2028\x85")), max_size=200))
def test_reading_front_matter_from_any_text_never_raises(text):
    fields, body = frontmatter.split("---\n" + text)
    assert fields is None or isinstance(fields, dict)
    fields, body = frontmatter.split_trailer("<!-- hippocampus\n" + text + "-->\n")
    assert fields is None or isinstance(fields, dict)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        FIELD_TEXT.filter(lambda t: t and "-->" not in t),
        st.one_of(FIELD_TEXT.filter(lambda t: "-->" not in t), st.integers()),
    ),
    st.text().map(lambda t: t + "\n" if t else t),
)
def test_any_trailer_fields_after_any_markdown_read_back_exactly_as_written(fields, body):
    text = frontmatter.render_trailer(fields, body)
    assert frontmatter.split_trailer(text) == (fields, body)
    assert trailer(text) == (fields, body)


def test_a_trailer_field_that_would_close_its_comment_is_refused():
    with pytest.raises(ValueError, match="-->"):
        frontmatter.render_trailer({"note": "a --> b"}, "")
