"""openclaw.json: the memory-search paths earlier installs added come out of either key; JSON5 is never rewritten."""

import json

from hippocampus.installation import openclaw_config as oc

ALIASES = {
    "HIPPOCAMPUS_CORE.md": "HIPPOCAMPUS_CORE.md",
    "/ws/HIPPOCAMPUS_CORE.md": "HIPPOCAMPUS_CORE.md",
    "memory/user": "memory/user",
    "/ws/memory/user": "memory/user",
}


def test_removal_takes_out_only_our_paths_and_the_objects_it_left_empty():
    earlier = json.dumps({"gateway": {"port": 1}, "memory": {"search": {"extraPaths": list(ALIASES)[::2]}}})
    removed = oc.plan_remove(earlier, ALIASES)
    assert json.loads(removed.text) == {"gateway": {"port": 1}}
    assert removed.removed == ["HIPPOCAMPUS_CORE.md", "memory/user"] and removed.keys == [oc.NEW_KEY]
    text = json.dumps({"memory": {"search": {"extraPaths": ["mine.md", "/ws/memory/user"], "k": 1}}})
    assert json.loads(oc.plan_remove(text, ALIASES).text) == {"memory": {"search": {"extraPaths": ["mine.md"], "k": 1}}}


def test_paths_in_any_form_and_as_objects_are_recognised():
    text = json.dumps({"memory": {"search": {"extraPaths": ["/ws/HIPPOCAMPUS_CORE.md", {"path": "memory/user/"}]}}})
    assert json.loads(oc.plan_remove(text, ALIASES).text) == {}


def test_the_old_skills_key_loses_our_paths_and_goes_when_they_were_all_it_held():
    text = json.dumps({"agents": {"defaults": {"model": "x", "memorySearch": {"extraPaths": ["HIPPOCAMPUS_CORE.md"]}}}})
    plan = oc.plan_remove(text, ALIASES)
    assert json.loads(plan.text) == {"agents": {"defaults": {"model": "x"}}} and plan.keys == [oc.OLD_KEY]


def test_json5_is_never_rewritten_and_what_to_remove_by_hand_is_said():
    text = "// my config\n{ memory: { search: { extraPaths: ['HIPPOCAMPUS_CORE.md'], }, }, }\n"
    plan = oc.plan_remove(text, ALIASES)
    assert plan.text is None and plan.parse_error
    assert plan.snippet.startswith("remove these entries from memory.search.extraPaths: ")
    assert '"HIPPOCAMPUS_CORE.md"' in plan.snippet


def test_removal_from_a_file_without_our_paths_changes_nothing():
    assert not oc.plan_remove('{"memory": {"search": {"extraPaths": ["mine.md"]}}}', ALIASES).changed
