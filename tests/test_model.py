"""The Memory and Index values: comparing and reading them changes nothing."""

import copy

from hippocampus.model import Index, Memory


def _stored() -> dict:
    # As a hand edit or an older version may leave it: the anchor before other keys, empty lists kept.
    return {
        "id": "mem_001",
        "importance": 0.8,
        "decay": {"base": 0.8, "from": "2026-02-01", "last": 0.8},
        "content": "User prefers tea",
        "sources": [],
        "history": [],
        "keywords": ["tea"],
        "pinned": True,
    }


def test_comparing_a_memory_with_itself_leaves_it_as_it_was():
    memory = Memory.from_dict(_stored(), "test")
    before = list(copy.deepcopy(memory.raw).items())
    assert memory == memory
    assert list(memory.raw.items()) == before


def test_the_dict_form_is_a_new_object_and_reading_it_changes_nothing():
    memory = Memory.from_dict(_stored(), "test")
    before = list(copy.deepcopy(memory.raw).items())
    out = memory.to_dict()
    assert out is not memory.raw
    assert list(memory.raw.items()) == before
    out["content"] = "changed"
    assert memory.content == "User prefers tea"


def test_the_dict_form_drops_empty_lists_and_keeps_the_order_the_keys_were_read_in():
    out = Memory.from_dict(_stored(), "test").to_dict()
    assert list(out) == ["id", "importance", "decay", "content", "keywords", "pinned"]


def test_memories_that_differ_only_in_key_order_or_empty_lists_are_equal():
    a = Memory.from_dict(_stored(), "test")
    b = Memory.from_dict({k: v for k, v in reversed(_stored().items()) if v != []}, "test")
    assert a == b
    b.content = "User prefers coffee"
    assert a != b


def test_ids_reserved_elsewhere_are_never_given_and_a_lower_reservation_changes_nothing():
    index = Index(memories=[Memory(id="mem_002", content="a")])
    index.reserve(7)
    index.reserve(3)
    assert index.next_id() == "mem_008"
    index.reserve(5)
    assert index.next_id() == "mem_009"
