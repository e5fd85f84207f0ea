"""The recall-quality bench's own logic: the cron schedule it replays, how LongMemEval maps onto transcripts and back,
the figures, the plain BM25 baseline, and the switches that turn a part of the product off."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import ablations  # noqa: E402
import harness  # noqa: E402
import longmemeval  # noqa: E402
from ablations import Patch  # noqa: E402
from harness import Item, Question, Session, Turn, Variant  # noqa: E402

UTC = timezone.utc
MONDAY = datetime(2026, 3, 2, tzinfo=UTC)  # 2026-03-08 and 2026-03-15 are Sundays


def session(number: int, when: datetime, texts: list[str], name: str | None = None) -> Session:
    turns = tuple(Turn((number, i), "user" if i % 2 == 0 else "assistant", t) for i, t in enumerate(texts))
    return Session(number, when, turns, name or f"s{number}")


def test_encoding_runs_at_the_first_cron_run_after_a_session_ends_and_sessions_of_one_window_share_it():
    early = session(0, MONDAY + timedelta(hours=10), ["a", "b", "c"])
    later = session(1, MONDAY + timedelta(hours=11), ["d"])
    evening = session(2, MONDAY + timedelta(hours=12, minutes=17), ["e"])  # its one turn at 12:17 exactly
    steps, _ = harness.cron_steps([early, later, evening], MONDAY + timedelta(days=1))
    encodes = [(s.when, [x.number for x in s.sessions]) for s in steps if s.script == "encode"]
    assert encodes == [(MONDAY + timedelta(hours=12, minutes=17), [0, 1, 2])]


def test_consolidation_runs_every_sunday_after_that_days_decay_and_the_last_decay_comes_before_the_questions():
    first = session(0, MONDAY + timedelta(hours=9), ["a"])
    asked = MONDAY + timedelta(days=15, hours=2)  # Tuesday 02:00, before that day's decay
    steps, when = harness.cron_steps([first], asked)
    assert when == asked
    assert [(s.when.strftime("%a %d %H:%M"), s.script) for s in steps] == [
        ("Mon 02 09:17", "encode"),
        ("Sun 08 04:43", "decay"),
        ("Sun 08 05:13", "consolidate"),
        ("Sun 15 04:43", "decay"),
        ("Sun 15 05:13", "consolidate"),
        ("Mon 16 04:43", "decay"),
    ]


def test_questions_are_asked_at_their_date_with_a_session_the_cron_has_not_reached_encoded_on_demand():
    earlier = session(0, MONDAY + timedelta(hours=8), ["a"])
    recent = session(1, MONDAY + timedelta(hours=19), ["b", "c"])  # the cron's next encoding would be at 21:17
    steps, asked = harness.cron_steps([earlier, recent], MONDAY + timedelta(hours=20))
    assert asked == MONDAY + timedelta(hours=20)
    encodes = [(s.when, [x.number for x in s.sessions]) for s in steps if s.script == "encode"]
    assert encodes == [(MONDAY + timedelta(hours=9, minutes=17), [0]), (asked, [1])]


def test_questions_dated_before_a_session_of_the_same_day_wait_for_it_to_end():
    late = session(0, MONDAY + timedelta(hours=20), ["a", "b"])
    steps, asked = harness.cron_steps([late], MONDAY + timedelta(hours=8))
    assert asked == late.end == MONDAY + timedelta(hours=20, seconds=30)
    assert [(s.when, s.script) for s in steps][-1] == (asked, "encode")


def test_the_cron_reader_refuses_a_schedule_it_does_not_know():
    with pytest.raises(ValueError, match="does not know"):
        harness.next_fire("*/5 * * * *", MONDAY)


def lme_entry(question_id: str, question_type: str = "single-session-user") -> dict:
    return {
        "question_id": question_id,
        "question_type": question_type,
        "question": "Where does my sister live?",
        "answer": "Lisbon",
        "question_date": "2023/05/30 (Tue) 10:00",
        "haystack_dates": ["2023/05/20 (Sat) 09:00", "2023/05/10 (Wed) 09:00", "2023/05/25 (Thu) 09:00"],
        "haystack_session_ids": ["later", "answer_1", "later"],
        "haystack_sessions": [
            [{"role": "user", "content": "Recommend a film.", "has_answer": False}],
            [
                {"role": "user", "content": "Hi there."},
                {"role": "assistant", "content": "Hello!"},
                {"role": "user", "content": "My sister moved to Lisbon.", "has_answer": True},
            ],
            [{"role": "user", "content": "And a book?"}],
        ],
        "answer_session_ids": ["answer_1"],
    }


def test_a_longmemeval_haystack_keeps_its_dates_and_its_message_ids_lead_back_to_the_has_answer_turns(tmp_path):
    item = longmemeval.item_of(lme_entry("q1"))
    assert [s.number for s in item.sessions] == [1, 0, 2]  # in time order, numbered by place in the haystack
    assert [s.name for s in item.sessions] == ["answer_1", "later", "later"]  # a repeated session stays two files
    question = item.questions[0]
    assert question.evidence == {(1, 2)} and question.sessions == {"answer_1"}
    path = tmp_path / "s.jsonl"
    harness.write_session(path, item.sessions[0], "lme")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["timestamp"] == "2023-05-10T09:00:00.000Z"
    said = {harness.turn_of(x["id"]): x["message"] for x in lines[1:]}
    assert said[(1, 2)]["content"] == "My sister moved to Lisbon." and said[(1, 2)]["role"] == "user"
    assert said[(1, 1)]["role"] == "assistant" and said[(1, 1)]["content"] == [{"type": "text", "text": "Hello!"}]


def test_abstention_questions_are_left_out_and_a_subset_takes_the_first_questions_of_the_file_or_of_each_type(
    tmp_path,
):
    path = tmp_path / "dev.json.gz"
    entries = [lme_entry("a_abs"), lme_entry("b", "knowledge-update"), lme_entry("c"), lme_entry("d")]
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(entries, f)
    assert [i.name for i in longmemeval.load(path)] == ["b", "c", "d"]
    assert [i.name for i in longmemeval.load(path, questions=2)] == ["b", "c"]
    assert [i.name for i in longmemeval.load(path, types=["single-session-user"])] == ["c", "d"]
    assert [i.name for i in longmemeval.load(path, per_type=1)] == ["b", "c"]


def test_figures_count_the_first_distinct_turns_and_sessions_in_the_order_recall_lists_them():
    question = Question("q", "x", frozenset({(2, 0), (3, 1)}), frozenset({"B", "C"}))
    session_of = {1: "A", 2: "B", 3: "C", 4: "A"}
    ranked = [[(1, 0), (1, 1)], [(1, 0), (2, 0)], [(4, 0)], [(5, 0)], [(6, 0)], [(3, 1)]]
    got = harness.scores(ranked, question, session_of)
    assert got["turn@1"] == 0.0 and got["turn@5"] == 0.5 and got["turn@10"] == 1.0
    assert got["turn_any"] == 1.0
    assert got["session@1"] == 0.0 and got["session@5"] == 0.5
    # Distinct sessions: A, B, (A again), 5, 6, C: C is the fifth.
    assert got["session_any"] == 1.0 and got["session_all"] == 1.0
    assert harness.scores(ranked[:5], question, session_of)["session_all"] == 0.0


def test_the_plain_bm25_baseline_ranks_the_turn_with_the_rare_word_first_and_leaves_out_turns_without_a_match():
    sessions = [
        session(0, MONDAY, ["the cat sat on the mat", "the dog sat", "a zebra sat on the mat"]),
        session(1, MONDAY + timedelta(days=1), ["nothing in common here"]),
    ]
    question = Question("Where did the zebra sit?", "x", frozenset({(0, 2)}), frozenset({"s0"}))
    ranked = harness.plain_bm25(Item("i", sessions, [question], MONDAY))[0]
    assert ranked[0] == [(0, 2)]
    assert [(1, 0)] not in ranked and len(ranked) == 3


def write_store(ws: Path) -> None:
    """Two memories that match a query equally, one important and one not."""
    memories = [
        {
            "id": f"mem_00{n}",
            "domain": "user",
            "category": "general",
            "content": "User keeps the spare key under the blue flowerpot",
            "importance": importance,
            "created": "2026-03-01",
            "lastAccessed": "2026-03-01",
            "timesReinforced": 0,
            "keywords": [],
        }
        for n, importance in ((1, 0.9), (2, 0.3))
    ]
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "index.json").write_text(json.dumps({"version": 1, "memories": memories}))


def test_a_switch_patches_recall_in_the_process_that_runs_it_and_leaves_other_runs_alone(tmp_path):
    write_store(tmp_path)
    argv = ["--json", "--no-touch", *harness.at(tmp_path, datetime(2026, 3, 2, tzinfo=UTC)), "--", "spare key"]
    (importance,) = ablations.named(["importance"])
    for patches, weight in (((), 0.1), (importance.patches, 0.0), ((), 0.1)):
        hits = json.loads(harness.run_script("recall", argv, patches))["results"]
        assert len(hits) == 2
        for hit in hits:
            parts = hit["parts"]
            expected = 0.8 * parts["relevance"] + weight * parts["importance"] + 0.1 * parts["recency"]
            assert hit["score"] == pytest.approx(expected, abs=1e-3)


def test_a_switch_that_names_something_the_product_no_longer_has_stops_with_a_sentence(tmp_path):
    with pytest.raises(ValueError, match="switch table out of date: hippocampus.search has no NO_SUCH_WEIGHT"):
        ablations.apply([Patch("hippocampus.search", "NO_SUCH_WEIGHT", 0.0)])
    with pytest.raises(ValueError, match="has no entry 'surprise'"):
        ablations.apply([Patch("hippocampus.search", "WEIGHTS", 0.0, key="surprise")])
    write_store(tmp_path)
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "patched.py"),
            ablations.encoded([Patch("hippocampus.nowhere", "X", 1.0)]),
            str(ROOT / "scripts" / "recall.py"),
            "--workspace",
            str(tmp_path),
            "key",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and done.stderr.startswith("error: switch table out of date: cannot import")


@pytest.mark.parametrize("switch", ablations.SWITCHES, ids=lambda s: s.name)
def test_every_switch_of_the_table_reaches_what_the_product_has_now(switch):
    undo = ablations.apply(switch.patches)
    try:
        for patch in switch.patches:
            module = sys.modules[patch.module]
            value = getattr(module, patch.name)
            assert (value[patch.key] if patch.key is not None else value) == patch.value
    finally:
        ablations.restore(undo)


def test_patches_applied_in_this_process_are_undone_after_the_block():
    from hippocampus import search

    before = dict(search.WEIGHTS)
    with ablations.patched([Patch("hippocampus.search", "WEIGHTS", 0.0, key="recency")]):
        assert search.WEIGHTS["recency"] == 0.0
    assert search.WEIGHTS == before


def test_the_bench_finds_an_attached_turn_through_the_real_pipeline_and_not_once_episodes_are_switched_off():
    talk = session(
        0,
        MONDAY + timedelta(hours=9),
        [
            "My sister Priya moved to Lisbon last spring and works as a nurse there.",
            "That sounds like a big change for her! Lisbon has a lovely mild climate all year.",
        ],
    )
    questions = [
        Question("Where does my sister Priya live?", "single-session-user", frozenset({(0, 0)}), frozenset({"s0"})),
        Question(
            "What is the climate like in Lisbon?", "single-session-assistant", frozenset({(0, 1)}), frozenset({"s0"})
        ),
    ]
    item = Item("tiny", [talk], questions, MONDAY + timedelta(days=3))
    (episodes,) = ablations.named(["episodes"])
    variants = [Variant(), Variant("default", (episodes,))]
    baseline, (default, without), _ = harness.evaluate([item], variants, 1, "t", print)
    assert default.tally.percent("single-session-user")["turn@1"] == 100.0
    assert default.tally.percent("single-session-assistant")["turn@5"] == 100.0
    assert without.tally.percent("single-session-user")["turn@1"] == 100.0
    assert without.tally.percent("single-session-assistant")["turn@5"] == 0.0
    assert baseline.tally.percent("overall")["turn@5"] == 100.0
    assert default.kept == 2 and default.evidence == 2
