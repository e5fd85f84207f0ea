"""The AGENTS.md block: inserted, updated and removed in place; everything else byte for byte as it was."""

import pytest

from hippocampus.installation import agents_block
from hippocampus.errors import HippocampusError

BLOCK = f"{agents_block.START}\n## Memory\nrun load_core.py\n{agents_block.END}\n"
NEWER = f"{agents_block.START}\n## Memory\nrun load_core.py, then recall.py\n{agents_block.END}\n"

OLD_SKILL = """# AGENTS.md

Be kind.

## Every Session
1. Run `~/.openclaw/workspace/skills/hippocampus/scripts/load-core.sh`

## When answering context questions
Use hippocampus recall:
```bash
./scripts/recall.sh "query"
```

Check the calendar too.
"""


def test_a_block_is_appended_after_one_blank_line_and_removing_it_restores_the_file():
    text = "# AGENTS.md\n\nBe kind.\n"
    added = agents_block.apply_block(text, BLOCK)
    assert added == text + "\n" + BLOCK
    assert agents_block.remove_block(added) == text


def test_applying_the_same_block_twice_changes_nothing():
    once = agents_block.apply_block("# AGENTS.md\n", BLOCK)
    assert agents_block.apply_block(once, BLOCK) == once


def test_a_newer_block_replaces_the_old_one_in_place_and_leaves_the_rest_alone():
    text = "# AGENTS.md\n\nbefore\n\n" + BLOCK + "\nafter ünïcode ✓\n"
    updated = agents_block.apply_block(text, NEWER)
    assert updated == "# AGENTS.md\n\nbefore\n\n" + NEWER + "\nafter ünïcode ✓\n"
    assert updated.count(agents_block.START) == 1


def test_removing_a_block_from_the_middle_keeps_the_lines_around_it():
    text = "top\n\n" + BLOCK + "\nbottom\n"
    assert agents_block.remove_block(text) == "top\n\n\nbottom\n"


def test_a_file_without_a_block_is_left_as_it_is_by_remove():
    assert agents_block.remove_block(OLD_SKILL) == OLD_SKILL


def test_the_old_skills_lines_are_taken_over_by_the_block_and_never_duplicated():
    new = agents_block.apply_block(OLD_SKILL, BLOCK)
    assert "load-core.sh" not in new and "recall.sh" not in new
    assert "Use hippocampus recall:" not in new and "```" not in new
    assert new.count(agents_block.START) == 1
    # The block stands where the first old call was; the user's own lines stay.
    assert new.index("Be kind.") < new.index(agents_block.START) < new.index("Check the calendar too.")
    assert "## When answering context questions" in new
    assert agents_block.apply_block(new, BLOCK) == new


def test_old_lines_left_next_to_an_existing_block_are_removed_too():
    text = BLOCK + "\nRun `scripts/load-core.sh` first.\nKeep this.\n"
    assert agents_block.apply_block(text, BLOCK) == BLOCK + "\nKeep this.\n"


def test_a_start_marker_without_an_end_is_an_error_that_names_the_fix():
    with pytest.raises(HippocampusError, match="hippocampus:end"):
        agents_block.apply_block("x\n" + agents_block.START + "\nhalf\n", BLOCK)
