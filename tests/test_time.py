"""Time in memories and in questions: the days a message refers to ("last Tuesday", "two weeks ago", "in May"), read
in six languages from when it was said and kept on its memory; a question that names a time favours the memories
said in it or referring to it; a question that names none ranks as before."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta, timezone

import pytest
from conftest import memory, read_index, run_script, write_index

from hippocampus import search
from hippocampus.errors import HippocampusError
from hippocampus import daywords
from hippocampus.ingestion import duetime, encoding
from hippocampus.ingestion.duetime import PERIODS_READ, read_periods
from hippocampus.ingestion.transcripts import Signal
from hippocampus.model import Index, Memory
from hippocampus.store import cache_writer

# Thursday 9 March 2023, in the afternoon, UTC.
SAID = datetime(2023, 3, 9, 15, 47, tzinfo=timezone.utc)


def days(text: str, question: bool = False, said: datetime = SAID) -> list[tuple[str, str]]:
    return [(p.first.isoformat(), p.last.isoformat()) for p in read_periods(text, said, question)]


LAST_SATURDAY = [("2023-03-04", "2023-03-04")]
YESTERDAY = [("2023-03-08", "2023-03-08")]
TWO_WEEKS_AGO = [("2023-02-20", "2023-02-26")]  # about then: the day, three days either side
LAST_MONTH = [("2023-02-01", "2023-02-28")]
LAST_WEEK = [("2023-02-27", "2023-03-05")]


@pytest.mark.parametrize(
    "text, expected",
    [
        # English
        ("I got it last Saturday", LAST_SATURDAY),
        ("we went there yesterday", YESTERDAY),
        ("that was two weeks ago", TWO_WEEKS_AGO),
        ("I cleaned my sneakers last month", LAST_MONTH),
        ("busy last week", LAST_WEEK),
        ("three days ago", [("2023-03-06", "2023-03-06")]),
        ("the day before yesterday", [("2023-03-07", "2023-03-07")]),
        ("last weekend", [("2023-03-04", "2023-03-05")]),
        ("last year", [("2022-01-01", "2022-12-31")]),
        ("in May 2022", [("2022-05-01", "2022-05-31")]),
        ("in 2021", [("2021-01-01", "2021-12-31")]),
        ("on March 3, 2023", [("2023-03-03", "2023-03-03")]),
        ("2023-01-15", [("2023-01-15", "2023-01-15")]),
        ("over the past two weeks", [("2023-02-23", "2023-03-09")]),
        ("see you tomorrow", [("2023-03-10", "2023-03-10")]),
        ("we met last night", YESTERDAY),
        ("next month", [("2023-04-01", "2023-04-30")]),
        # French
        ("samedi dernier", LAST_SATURDAY),
        ("hier soir", YESTERDAY),
        ("il y a deux semaines", TWO_WEEKS_AGO),
        ("le mois dernier", LAST_MONTH),
        ("la semaine dernière", LAST_WEEK),
        ("le 3 mars 2023", [("2023-03-03", "2023-03-03")]),
        ("je suis allé à Lisbonne l'an dernier", [("2022-01-01", "2022-12-31")]),
        ("on déménage l’an prochain", [("2024-01-01", "2024-12-31")]),
        ("l'année dernière", [("2022-01-01", "2022-12-31")]),
        ("on part ce week-end", [("2023-03-11", "2023-03-12")]),
        # German
        ("letzten Samstag", LAST_SATURDAY),
        ("gestern", YESTERDAY),
        ("vor zwei Wochen", TWO_WEEKS_AGO),
        ("letzten Monat", LAST_MONTH),
        ("letzte Woche", LAST_WEEK),
        ("im Jahr 2021", [("2021-01-01", "2021-12-31")]),
        # Spanish
        ("el sábado pasado", LAST_SATURDAY),
        ("ayer", YESTERDAY),
        ("hace dos semanas", TWO_WEEKS_AGO),
        ("el mes pasado", LAST_MONTH),
        ("vamos al cine esta noche", [("2023-03-09", "2023-03-09")]),
        ("esta tarde fui ao médico", [("2023-03-09", "2023-03-09")]),
        ("esta noite vamos jantar fora", [("2023-03-09", "2023-03-09")]),
        ("la semana pasada", LAST_WEEK),
        # Portuguese
        ("no sábado passado", LAST_SATURDAY),
        ("ontem", YESTERDAY),
        ("há duas semanas", TWO_WEEKS_AGO),
        ("duas semanas atrás", TWO_WEEKS_AGO),
        ("o mês passado", LAST_MONTH),
        ("a semana passada", LAST_WEEK),
        # Chinese
        ("上周六", LAST_SATURDAY),
        ("昨天", YESTERDAY),
        ("两周前", TWO_WEEKS_AGO),
        ("上个月", LAST_MONTH),
        ("上周", LAST_WEEK),
        ("2022年5月", [("2022-05-01", "2022-05-31")]),
        ("去年", [("2022-01-01", "2022-12-31")]),
    ],
)
def test_the_days_a_text_refers_to_are_read_from_when_it_was_said(text, expected):
    assert days(text) == expected
    assert days(text, question=True) == expected  # said outright: the same in a question


@pytest.mark.parametrize(
    "text, in_a_question, in_a_message",
    [
        ("on Saturday", LAST_SATURDAY, []),  # the last one or the coming one: only a question says which
        ("am Samstag", LAST_SATURDAY, []),
        ("in May", [("2022-05-01", "2022-05-31")], [("2023-05-01", "2023-05-31")]),  # the last one / the nearest
        ("en mai", [("2022-05-01", "2022-05-31")], [("2023-05-01", "2023-05-31")]),
        ("五月", [("2022-05-01", "2022-05-31")], [("2023-05-01", "2023-05-31")]),
        ("in February", [("2023-02-01", "2023-02-28")], [("2023-02-01", "2023-02-28")]),
        ("on the 3rd", [("2023-03-03", "2023-03-03")], [("2023-03-03", "2023-03-03")]),
        ("on the 12th", [("2023-02-12", "2023-02-12")], [("2023-03-12", "2023-03-12")]),
        ("le 12", [("2023-02-12", "2023-02-12")], [("2023-03-12", "2023-03-12")]),
        ("3月12日", [("2022-03-12", "2022-03-12")], [("2023-03-12", "2023-03-12")]),
    ],
)
def test_a_name_alone_is_the_last_one_in_a_question_and_the_nearest_in_a_message(text, in_a_question, in_a_message):
    assert days(text, question=True) == in_a_question
    assert days(text) == in_a_message


@pytest.mark.parametrize(
    "text",
    [
        "I like coffee",
        "Ich bin hier",  # German "here", not French "yesterday"
        "my locker code is 5521",
        "she may come",
        "what did we decide about the database",
        "the Sunday mass at St. Mary's",  # a weekday alone, with no "on": a name, not a day
        "the 27th parameter of the list",
        "",
    ],
)
def test_a_text_naming_no_day_gives_none(text):
    assert days(text) == [] and days(text, question=True) == []


def test_the_words_each_stretch_was_read_from_are_kept_with_it():
    found = read_periods("I cleaned my sneakers last month, and yesterday the boots", SAID)
    assert [(p.phrase, p.first.isoformat()) for p in found] == [
        ("last month", "2023-02-01"),
        ("yesterday", "2023-03-08"),
    ]


def test_a_day_is_read_in_the_speakers_zone():
    # 23:30 on Thursday in UTC is already Friday in Tokyo: "yesterday" there is Thursday.
    late = datetime(2023, 3, 9, 23, 30, tzinfo=timezone.utc)
    assert days("yesterday", said=late) == YESTERDAY
    tokyo = late.astimezone(timezone(timedelta(hours=9)))
    assert days("yesterday", said=tokyo) == [("2023-03-09", "2023-03-09")]


def test_a_questions_in_so_long_is_how_long_not_when():
    assert days("How many followers did I gain in two weeks?", question=True) == []
    assert days("I fly to Lisbon in two weeks") == [("2023-03-20", "2023-03-26")]
    assert days("What did I do a week ago?", question=True) == [("2023-02-27", "2023-03-05")]


def test_a_text_made_of_dates_is_read_no_further_than_its_first_few():
    found = read_periods("last Tuesday, two weeks ago, yesterday; " * 5000, SAID)
    assert len(found) == PERIODS_READ


def test_the_due_reader_still_reads_due_times_as_before():
    # The two readers share their words and patterns: a due time reads as it did.
    due = duetime.read_due("tomorrow at 5pm", SAID)
    assert due is not None and due.at == datetime(2023, 3, 10, 17, 0, tzinfo=timezone.utc)


# --- kept on the memory at encode -------------------------------------------------------------------------------


def signal(seq: int, text: str, timestamp: str, session: str = "s1", **extra) -> Signal:
    return Signal(seq=seq, id=f"m{seq:04d}", session=session, role="user", text=text, timestamp=timestamp, **extra)


def test_encoding_keeps_the_days_a_message_refers_to_on_its_memory():
    index = Index(memories=[])
    text = "I'm glad I finally got around to cleaning my white Adidas sneakers last month, they were dirty"
    encoding.encode(index, [signal(1, text, "2023-05-24T19:37:00Z")], datetime(2023, 5, 25, tzinfo=timezone.utc))
    (made,) = index.memories
    assert made.raw["dates"] == [{"from": "2023-04-01", "to": "2023-04-30", "words": "last month"}]


def test_a_turn_attached_to_a_memory_gives_it_the_days_it_refers_to():
    index = Index(memories=[])
    now = datetime(2023, 5, 25, tzinfo=timezone.utc)
    signals = [
        signal(1, "I'm planning my wedding and I want a small venue by the lake with a garden", "2023-05-24T10:00:00Z"),
        signal(2, "saw it yesterday", "2023-05-24T10:01:00Z"),  # too short to be a memory of its own
    ]
    encoding.encode(index, signals, now)
    held = [m for m in index.memories if m.episode]
    assert held and any(d.words == "yesterday" and d.first == date(2023, 5, 23) for d in held[0].dates)


def test_the_days_are_read_in_the_speakers_zone_when_the_transcript_says_it():
    index = Index(memories=[])
    text = "I finally visited the science museum with my nephew yesterday, it was wonderful"
    # 23:30 UTC on 9 March is 08:30 on 10 March in Tokyo: "yesterday" is the 9th there.
    said = signal(1, text, "2023-03-09T23:30:00Z", local="2023-03-10T08:30+09:00")
    encoding.encode(index, [said], datetime(2023, 3, 11, tzinfo=timezone.utc))
    assert index.memories[0].raw["dates"][0]["from"] == "2023-03-09"


def test_a_message_naming_no_day_adds_no_field():
    index = Index(memories=[])
    encoding.encode(
        index, [signal(1, "I really prefer green tea over coffee in general", "2023-03-09T10:00:00Z")], SAID
    )
    assert "dates" not in index.memories[0].raw


def test_the_days_kept_on_one_memory_are_bounded():
    index = Index(memories=[])
    text = "I remember all of it: " + ", ".join(f"{n} days ago" for n in range(2, 12))
    now = datetime(2023, 3, 11, tzinfo=timezone.utc)
    signals = [signal(i, f"{text} ({i})", f"2023-03-{i + 1:02d}T10:00:00Z", session="s") for i in range(1, 10)]
    encoding.encode(index, signals, now)
    assert all(len(m.raw.get("dates", [])) <= encoding.DATES_KEPT for m in index.memories)


# --- the field in index.json ------------------------------------------------------------------------------------


def test_an_index_without_the_field_loads_and_its_memories_refer_to_no_days(workspace):
    write_index(workspace, [memory("mem_001", "User likes hiking")])
    result = run_script("recall", "hiking", "--json", "--no-touch", ws=workspace)
    assert result.returncode == 0, result.stderr
    assert "dates" not in json.loads(result.stdout)["results"][0]
    assert Memory.from_dict(memory("mem_001", "x"), "test").dates == []


def test_recall_json_shows_the_days_a_memory_refers_to(workspace):
    dated = [{"from": "2023-04-01", "to": "2023-04-30", "words": "last month"}]
    write_index(workspace, [memory("mem_001", "User cleaned the white sneakers", dates=dated)], version=2)
    result = run_script("recall", "sneakers", "--json", "--no-touch", ws=workspace)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["results"][0]["dates"] == dated
    # Saved again, the field is kept as it was.
    assert run_script("log_event", "test", ws=workspace).returncode in (0, 2)
    assert read_index(workspace)["memories"][0]["dates"] == dated


def test_a_dates_field_that_is_no_list_of_objects_is_refused_in_words():
    with pytest.raises(HippocampusError, match="`dates` must be a list of objects"):
        Memory.from_dict(memory("mem_001", "x", dates="last month"), "index.json")


def test_unreadable_entries_of_the_field_are_left_out():
    raw = memory(
        "mem_001",
        "x",
        dates=[
            {"from": "2023-04-01", "to": "2023-04-30", "words": "last month"},
            {"from": "2023-04-30", "to": "2023-04-01"},  # backwards
            {"from": "April", "to": "2023-04-30"},
            {"to": "2023-04-30"},
        ],
    )
    assert [(d.first, d.last) for d in Memory.from_dict(raw, "test").dates] == [(date(2023, 4, 1), date(2023, 4, 30))]


# --- a question that names a time -------------------------------------------------------------------------------

ASKED = datetime(2023, 4, 22, 8, 1, tzinfo=timezone.utc)  # a Saturday


def said_on(mid: str, content: str, day: str, **extra) -> Memory:
    source = {"session": mid, "message": "m1", "ts": f"{day}T18:00:00Z"}
    return Memory(
        id=mid,
        content=content,
        created=f"{day}T18:00:00Z",
        lastAccessed=f"{day}T18:00:00Z",
        sources=[source],
        extra=extra,
    )


def rank(memories: list[Memory], query: str, now: datetime = ASKED):
    return search.rank(cache_writer.in_memory(Index(memories=memories), now.date()), query, now)


def test_a_question_naming_a_time_favours_the_memory_said_then_over_an_equal_one():
    memories = [
        said_on("mem_001", "Went to a music event with my sister", "2023-04-08"),
        said_on("mem_002", "Went to a music event with my colleague", "2023-04-15"),  # last Saturday
    ]
    hits = rank(memories, "Who did I go with to the music event last Saturday?")
    assert [h.memory.id for h in hits] == ["mem_002", "mem_001"]
    assert hits[0].parts["when"] == 1.0 and hits[1].parts["when"] == 0.0
    # Asked a week earlier, "last Saturday" is the other one.
    earlier = rank(memories, "Who did I go with to the music event last Saturday?", ASKED - timedelta(days=7))
    assert [h.memory.id for h in earlier] == ["mem_001", "mem_002"]


def test_a_question_naming_a_time_favours_the_memory_referring_to_it():
    memories = [
        said_on("mem_001", "I cleaned my black boots", "2023-05-24"),
        said_on(
            "mem_002",
            "I cleaned my white sneakers",
            "2023-05-24",
            dates=[{"from": "2023-04-01", "to": "2023-04-30", "words": "last month"}],
        ),
    ]
    hits = rank(memories, "Which shoes did I clean in April?", datetime(2023, 5, 24, 9, tzinfo=timezone.utc))
    assert [h.memory.id for h in hits] == ["mem_002", "mem_001"]


@pytest.mark.parametrize(
    "question",
    [
        "Wer hat mich letzten Samstag zum Konzert begleitet? music event",
        "上周六 music event",
        "music event el sábado pasado",
    ],
)
def test_a_question_naming_a_time_is_read_in_the_other_languages_too(question):
    memories = [
        said_on("mem_001", "Went to a music event with my sister", "2023-04-08"),
        said_on("mem_002", "Went to a music event with my colleague", "2023-04-15"),
    ]
    assert rank(memories, question)[0].memory.id == "mem_002"


def test_a_question_naming_no_time_ranks_exactly_as_before(monkeypatch):
    memories = [
        said_on("mem_001", "Went to a music event with my sister", "2023-04-08"),
        said_on(
            "mem_002",
            "Went to a music event with my colleague",
            "2023-04-15",
            dates=[{"from": "2023-04-15", "to": "2023-04-15", "words": "today"}],
        ),
    ]
    question = "Who did I go with to the music event?"
    hits = rank(memories, question)
    assert all(set(h.parts) == {"relevance", "importance", "recency"} for h in hits)
    # Whatever weight a named time would have, a question naming none gives the same scores.
    monkeypatch.setitem(search.WEIGHTS, "when", 5.0)
    assert [(h.memory.id, h.score) for h in rank(memories, question)] == [(h.memory.id, h.score) for h in hits]


def test_the_score_with_a_named_time_is_still_the_sum_of_its_weighted_parts():
    hits = rank([said_on("mem_001", "Went to a music event", "2023-04-15")], "music event last Saturday")
    hit = hits[0]
    assert set(hit.parts) == {"relevance", "importance", "recency", "when"}
    assert abs(hit.score - sum(search.WEIGHTS[k] * v for k, v in hit.parts.items())) < 0.001


def test_a_named_time_never_brings_in_a_memory_that_shares_no_word_with_the_question():
    memories = [said_on("mem_001", "Bought a new lamp", "2023-04-15"), said_on("mem_002", "Music event", "2023-04-01")]
    assert [h.memory.id for h in rank(memories, "music event last Saturday")] == ["mem_002"]


def test_the_words_that_name_the_asked_time_relative_to_now_are_read_as_days_not_matched_as_words():
    memories = [
        said_on("mem_001", "We went to the lake for a picnic", "2023-04-12"),  # last week
        said_on("mem_002", "Last week we went to the cinema", "2023-02-20"),  # another "last week"
    ]
    hits = rank(memories, "Where did we go last week?")
    assert [h.memory.id for h in hits] == ["mem_001", "mem_002"]
    assert hits[0].parts["when"] == 1.0 and hits[1].parts["when"] == 0.0


@pytest.mark.parametrize(
    "question",
    [
        "What sport did I play on Saturday?",  # a name of a day stays a word
        "What sport did I play in April?",  # a name of a month too
        "What sport did I play in 2023?",  # and a number
    ],
)
def test_the_names_of_days_months_and_years_in_a_question_stay_words(question):
    memories = [said_on("mem_001", "Saturday in April 2023 is the day", "2022-01-10")]  # said long before
    assert [h.memory.id for h in rank(memories, question)] == ["mem_001"]


def test_a_question_of_only_relative_time_words_is_matched_by_them():
    memories = [said_on("mem_001", "Last week was long", "2023-02-20")]
    assert [h.memory.id for h in rank(memories, "last week?")] == ["mem_001"]


def test_recall_why_explains_the_when_part(workspace):
    stored = said_on("mem_001", "Went to a music event with my colleague", "2023-04-15").to_dict()
    write_index(workspace, [stored], version=2)
    result = run_script(
        "recall", "music event last Saturday", "--why", "--no-touch", ws=workspace, now=ASKED.isoformat()
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"when 1\.00×0\.10", result.stdout), result.stdout


def test_the_dashboard_data_carries_the_days_a_memory_refers_to():
    from hippocampus.published.dashboard_data import compact_row, memory_row
    from hippocampus.store.cache import Scored

    dated = said_on(
        "mem_001",
        "I cleaned my white sneakers",
        "2023-05-24",
        dates=[{"from": "2023-04-01", "to": "2023-04-30", "words": "last month"}],
    )
    row = memory_row(Scored(dated, 0.5, "active", "user", False, None, 0), date(2023, 5, 25))
    assert row["dates"] == [{"from": "2023-04-01", "to": "2023-04-30", "words": "last month"}]
    plain = memory_row(
        Scored(said_on("mem_002", "x", "2023-05-24"), 0.5, "active", "user", False, None, 0), date(2023, 5, 25)
    )
    assert "dates" not in compact_row(plain)


@pytest.mark.parametrize(
    "text, may",
    [
        ("coffee in the morning", False),
        ("what did I eat this morning", True),
        ("sister Lisbon", False),
        ("3 apples", True),
    ],
)
def test_only_a_text_that_may_name_a_day_is_read_with_the_patterns(text, may):
    assert daywords.may_name_days(text) is may
    if not may:
        assert days(text, question=True) == []
    assert days("what did I eat this morning", question=True) == [("2023-03-09", "2023-03-09")]
