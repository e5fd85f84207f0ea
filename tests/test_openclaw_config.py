"""openclaw.json: the memory-search paths earlier installs added come out of either key; JSON5 is never rewritten,
only read."""

import json
import math

import pytest

from hippocampus import json5
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


def test_json5_as_people_write_openclaw_json_by_hand_reads_as_the_json_it_means():
    text = """{
      // the user's zone
      agents: { defaults: { userTimezone: 'America/Chicago', workspace: "~/w", }, },
      /* a block
         comment */ $port: 0x1F90, ratio: .5, big: +1e3, none: null, on: true, list: [1, 2.5, -3,],
      'quoted key': 'it\\'s "fine"', escapes: "\\u00e9\\x41\\t\\
    continued", max: Infinity,
    }"""
    got = json5.loads(text)
    assert got["agents"] == {"defaults": {"userTimezone": "America/Chicago", "workspace": "~/w"}}
    assert got["$port"] == 8080 and got["ratio"] == 0.5 and got["big"] == 1000.0 and got["list"] == [1, 2.5, -3]
    assert got["none"] is None and got["on"] is True and got["quoted key"] == 'it\'s "fine"'
    assert got["escapes"] == "éA\t    continued" and math.isinf(got["max"])
    plain = {"a": [1, {"b": "c\u00e9\n"}], "d": -0.25e-3, "e": False}
    assert json5.loads(json.dumps(plain)) == json5.loads(json.dumps(plain, ensure_ascii=False)) == plain


@pytest.mark.parametrize(
    "text",
    ["", "{a: 1", "{a 1}", "{a: 01}", "'never ends", "'a\nb'", "'a\\", "{a: 1} 2", "[" * 100_000, "{1: 2}", "tru"],
)
def test_text_that_is_no_json5_is_an_error_saying_where(text):
    with pytest.raises(json5.JSON5Error, match="line 1|leading zero"):
        json5.loads(text)


def test_the_users_zone_is_read_from_the_config_openclaw_config_path_names(tmp_path, monkeypatch):
    """OpenClaw reads its config from $OPENCLAW_CONFIG_PATH when it is set; so does encode, for the user's zone."""
    from hippocampus.ingestion import userzone

    state = tmp_path / "state"
    state.mkdir()
    (state / "openclaw.json").write_text('{agents: {defaults: {userTimezone: "America/Chicago"}}}')
    elsewhere = tmp_path / "configs" / "main.json"
    elsewhere.parent.mkdir()
    elsewhere.write_text('{agents: {defaults: {userTimezone: "Europe/Berlin"}}}')
    for unset in (None, "  "):  # OpenClaw trims the value: blank is unset
        if unset is None:
            monkeypatch.delenv("OPENCLAW_CONFIG_PATH", raising=False)
        else:
            monkeypatch.setenv("OPENCLAW_CONFIG_PATH", unset)
        assert userzone.read(state).name == "America/Chicago"
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(elsewhere))
    assert userzone.read(state).name == "Europe/Berlin"
