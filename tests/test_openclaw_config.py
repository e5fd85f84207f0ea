"""openclaw.json: memory-search paths under the key the file uses; JSON5 is never rewritten."""

import json

from hippocampus.installation import openclaw_config as oc

PATHS = ["HIPPOCAMPUS_CORE.md", "memory/user"]
ALIASES = {
    "HIPPOCAMPUS_CORE.md": "HIPPOCAMPUS_CORE.md",
    "/ws/HIPPOCAMPUS_CORE.md": "HIPPOCAMPUS_CORE.md",
    "memory/user": "memory/user",
    "/ws/memory/user": "memory/user",
}


def test_a_file_with_only_the_old_key_is_not_extended_and_says_which_key_is_wrong():
    text = json.dumps({"agents": {"defaults": {"model": "x", "memorySearch": {"enabled": True}}}})
    plan = oc.plan_add(text, PATHS, ALIASES)
    assert not plan.changed and plan.blocked_by_legacy
    assert plan.legacy == "agents.defaults.memorySearch"
    assert "openclaw doctor --fix" in oc.legacy_advice(plan.legacy)
    top = oc.plan_add(json.dumps({"memorySearch": {"extraPaths": ["x.md"]}}), PATHS, ALIASES)
    assert not top.changed and top.legacy == "memorySearch"


def test_a_file_with_neither_key_gets_the_new_one():
    plan = oc.plan_add('{"gateway": {"port": 18789}}', PATHS, ALIASES)
    assert json.loads(plan.text)["memory"] == {"search": {"extraPaths": PATHS}}


def test_a_file_with_both_keys_gets_the_paths_only_under_the_new_one_and_the_old_one_is_reported():
    text = json.dumps({"agents": {"defaults": {"memorySearch": {}}}, "memory": {"search": {"extraPaths": ["x.md"]}}})
    plan = oc.plan_add(text, PATHS, ALIASES)
    data = json.loads(plan.text)
    assert data["agents"]["defaults"]["memorySearch"] == {}
    assert data["memory"]["search"]["extraPaths"] == ["x.md", *PATHS]
    assert plan.legacy == "agents.defaults.memorySearch"


def test_paths_already_there_in_any_form_are_not_added_again():
    text = json.dumps({"memory": {"search": {"extraPaths": ["/ws/HIPPOCAMPUS_CORE.md", {"path": "memory/user"}]}}})
    plan = oc.plan_add(text, PATHS, ALIASES)
    assert not plan.changed and plan.added == []


def test_json5_is_never_rewritten_and_a_pasteable_snippet_is_offered():
    text = "// my config\n{ agents: { defaults: { memorySearch: { enabled: true, }, }, }, }\n"
    plan = oc.plan_add(text, PATHS, ALIASES)
    assert plan.text is None and plan.parse_error
    assert plan.keys == [oc.NEW_KEY] and plan.legacy
    assert "extraPaths: [" in plan.snippet and '"memory/user",' in plan.snippet
    assert plan.snippet.startswith("{\n  memory: {\n    search: {\n      extraPaths: [")


def test_removal_takes_out_only_our_paths_and_the_objects_it_left_empty():
    added = oc.plan_add('{"gateway": {"port": 1}}', PATHS, ALIASES).text
    removed = oc.plan_remove(added, ALIASES)
    assert json.loads(removed.text) == {"gateway": {"port": 1}}
    text = json.dumps({"memory": {"search": {"extraPaths": ["mine.md", "/ws/memory/user"], "k": 1}}})
    assert json.loads(oc.plan_remove(text, ALIASES).text) == {"memory": {"search": {"extraPaths": ["mine.md"], "k": 1}}}


def test_removal_from_a_file_without_our_paths_changes_nothing():
    assert not oc.plan_remove('{"memory": {"search": {"extraPaths": ["mine.md"]}}}', ALIASES).changed
