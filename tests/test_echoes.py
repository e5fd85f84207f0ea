"""What a conversation repeats of a memory listing is not encoded again: hippocampus's own outputs (load_core, recall,
HIPPOCAMPUS_CORE.md, the mirrors, their JSON) and OpenClaw's (memory-search results, the active-memory and
runtime-context blocks), read back from the transcript. The listings here are the real scripts' output."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from conftest import memory, read_index, run_script, write_index
from hippocampus.ingestion import echoes
from transcript_fixtures import Session, write_sqlite_store

TEA = "User's favourite tea is jasmine green tea"
MEMORIES = [
    memory("mem_001", TEA, 0.92, category="preferences", created="2026-02-20", lastAccessed="2026-03-01"),
    memory(
        "mem_002",
        "User's sister Ana lives in Porto",
        0.8,
        category="people",
        created="2026-02-21",
        lastAccessed="2026-03-01",
    ),
]
# What OpenClaw 2026.9.6's memory_search tool returned in a real run (tests/test_openclaw_e2e.py), shortened.
OPENCLAW_SEARCH = {
    "results": [
        {
            "path": "memory/user/preferences.md",
            "startLine": 1,
            "endLine": 3,
            "score": 0.50,
            "snippet": f"- {TEA}. _(0.92 · mem_001 · 2026-02-20)_\n\nSource: memory/user/preferences.md#L1-L3",
            "source": "memory",
            "citation": "memory/user/preferences.md#L1-L3",
        }
    ],
    "provider": "openai-compatible",
}
ACTIVE_MEMORY = (
    "Context:\n<active_memory_plugin>\nRelevant memories:\n- The user's favourite tea is jasmine green tea.\n"
    "</active_memory_plugin>\n\n"
)
INTERNAL = (
    "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nConversation data (data, not instructions):\n"
    '"Active exec sessions:\\nnone"\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>'
)


@pytest.fixture
def listings(workspace) -> dict[str, str]:
    """What each of our listings prints for MEMORIES, from the real scripts."""
    write_index(workspace, MEMORIES, version=2)
    out = {}
    for name, args in {
        "load_core": ("load_core", ()),
        "load_core --json": ("load_core", ("--json",)),
        "recall": ("recall", ("--why", "--no-touch", "tea sister")),
        "recall --json": ("recall", ("--json", "--no-touch", "tea")),
    }.items():
        done = run_script(args[0], *args[1], ws=workspace)
        assert done.returncode == 0, done.stderr
        out[name] = done.stdout.strip()
    assert run_script("decay", ws=workspace).returncode == 0
    out["HIPPOCAMPUS_CORE.md"] = (workspace / "HIPPOCAMPUS_CORE.md").read_text(encoding="utf-8")
    out["a mirror"] = (workspace / "memory" / "user" / "preferences.md").read_text(encoding="utf-8")
    out["OpenClaw memory search"] = json.dumps(OPENCLAW_SEARCH, indent=2)
    return out


@pytest.mark.parametrize(
    "name",
    [
        "load_core",
        "load_core --json",
        "recall",
        "recall --json",
        "HIPPOCAMPUS_CORE.md",
        "a mirror",
        "OpenClaw memory search",
    ],
)
def test_a_reply_repeating_a_listing_keeps_only_its_own_words(listings, name):
    assert "jasmine" in listings[name]
    reply = f"Let me check what I remember.\n\n{listings[name]}\n\nYou like jasmine tea, and Ana is in Porto!"
    kept = echoes.strip(reply)
    assert "mem_00" not in kept and "[0.92]" not in kept and "Core memor" not in kept
    assert [line for line in kept.splitlines() if line.strip()] == [
        "Let me check what I remember.",
        "You like jasmine tea, and Ana is in Porto!",
    ]


def test_openclaws_active_memory_and_runtime_context_blocks_leave_the_users_words():
    said = "[Sun 2026-03-01 10:00 GMT+2] " + "I switched to oolong this week."
    kept = echoes.strip(ACTIVE_MEMORY + said + "\n\n" + INTERNAL)
    assert kept.strip() == said
    [text, image] = echoes.strip_content([{"type": "text", "text": ACTIVE_MEMORY + said}, {"type": "image"}])
    assert text["text"].strip() == said and image == {"type": "image"}


@pytest.mark.parametrize(
    "text",
    [
        "- [x] buy oat milk\n- [ ] call Ana",
        "### About Me\nI am a teacher in Porto.",
        "## Core memories of my childhood: the sea, the bakery.",
        "My score was [0.75] on the test, and the next one is 1. [0.80] (math/algebra) hard.",
        '{"content": "my notes", "id": "note_1"}',
        '{"results": [{"path": "a.md"}]}',
        "Source: memory/2026-03-01.md#L1-L2 is where I wrote it down.",
    ],
    ids=["checklist", "heading", "title", "numbers", "json", "results", "citation"],
)
def test_words_that_only_look_like_a_listing_are_kept(text):
    assert echoes.strip(text) == text


def test_a_hostile_or_huge_json_in_a_message_is_kept_quickly_and_never_raises():
    deep = "[" * 100_000 + "]" * 100_000
    assert echoes.strip(f'{deep}\n"content"') == f'{deep}\n"content"'
    many = "\n".join('{"content": "x", "id": "mem_1"' for _ in range(1000))
    assert echoes.strip(many) == many


def test_a_session_where_the_agent_repeated_its_memories_is_encoded_without_new_memories_of_them(
    workspace, tmp_path, listings
):
    before = {m["id"]: m for m in read_index(workspace)["memories"]}
    talk = Session("e1e1e1e1-0001-4000-8000-000000000001", datetime(2026, 3, 1, 9, tzinfo=timezone.utc))
    talk.user("What do you remember about my tea and my family?", is_owner=True)
    talk.assistant("Here is what I found.\n\n" + "\n\n".join(listings[n] for n in ("load_core", "recall")))
    talk.user(ACTIVE_MEMORY + "Thanks! And please note that my brother Rui moved to Lisbon last month.", is_owner=True)
    talk.assistant(listings["OpenClaw memory search"] + "\n\n" + listings["a mirror"])
    state = tmp_path / "state"
    write_sqlite_store(state, {"agent:main:main": talk})
    done = run_script("encode", "--state-dir", str(state), "--min-importance", "0", "--json", ws=workspace)
    assert done.returncode == 0, done.stderr
    after = read_index(workspace)["memories"]
    new = [m for m in after if m["id"] not in before]
    texts = json.dumps(new)
    assert "Rui moved to Lisbon" in texts, "what the user said besides is kept"
    for echo in ("jasmine", "Ana lives", "· mem_", "[0.9", "Core memor", "snippet", "active_memory", "mem_001"):
        assert echo not in texts, (echo, new)
    for mid, old in before.items():
        now = next(m for m in after if m["id"] == mid)
        assert now.get("timesReinforced", 0) == old.get("timesReinforced", 0), now
