"""Reading when something is due from the words people use, against a fixed clock: relative days and weekdays, times
of day, "in two hours", days of the month and dates, in English, French, German, Spanish, Portuguese and Chinese; in
the speaker's zone, across clock changes."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from itertools import pairwise
from zoneinfo import ZoneInfo

import re

import pytest
from hypothesis import given, settings, strategies as st

from hippocampus import daywords
from hippocampus.ingestion import duetime
from hippocampus.ingestion.duetime import read_due, zone_of
from hippocampus.text import alternatives

GMT2 = timezone(timedelta(hours=2))
# Thursday 5 March 2026, 10:00 in the speaker's zone.
SAID = datetime(2026, 3, 5, 10, 0, tzinfo=GMT2)
BERLIN = ZoneInfo("Europe/Berlin")


def due(text: str, said: datetime = SAID) -> str | None:
    found = read_due(text, said)
    return found.at.isoformat(timespec="minutes") if found else None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("tomorrow", "2026-03-06T09:00+02:00"),
        ("tomorrow at 5pm", "2026-03-06T17:00+02:00"),
        ("at noon tomorrow", "2026-03-06T12:00+02:00"),
        ("tomorrow afternoon", "2026-03-06T15:00+02:00"),
        ("tonight", "2026-03-05T20:00+02:00"),
        ("the day after tomorrow", "2026-03-07T09:00+02:00"),
        ("on Friday", "2026-03-06T09:00+02:00"),
        ("next Friday", "2026-03-13T09:00+02:00"),  # tomorrow is never "next Friday": the one after
        ("next Tuesday", "2026-03-10T09:00+02:00"),
        ("next week", "2026-03-09T09:00+02:00"),
        ("next month", "2026-04-01T09:00+02:00"),
        ("this weekend", "2026-03-07T10:00+02:00"),
        ("by the end of the week", "2026-03-06T17:00+02:00"),
        ("by end of day", "2026-03-05T17:00+02:00"),
        ("at 5pm", "2026-03-05T17:00+02:00"),
        ("at 5", "2026-03-05T17:00+02:00"),  # an hour from 1 to 6 alone is in the afternoon
        ("at 9am", "2026-03-06T09:00+02:00"),  # passed today: tomorrow's
        ("at 17:30", "2026-03-05T17:30+02:00"),
        ("in two hours", "2026-03-05T12:00+02:00"),
        ("in 30 minutes", "2026-03-05T10:30+02:00"),
        ("in a couple of hours", "2026-03-05T12:00+02:00"),
        ("in 3 days", "2026-03-08T10:00+02:00"),
        ("in a week", "2026-03-12T10:00+02:00"),
        ("on the 16th", "2026-03-16T09:00+02:00"),
        ("on the 2nd", "2026-04-02T09:00+02:00"),  # passed this month: next month's
        ("March 16", "2026-03-16T09:00+02:00"),
        ("16th of March", "2026-03-16T09:00+02:00"),
        ("on March 2", "2027-03-02T09:00+02:00"),  # passed this year: next year's
        ("2026-04-01", "2026-04-01T09:00+02:00"),
        ("2026-04-01 14:30", "2026-04-01T14:30+02:00"),
    ],
)
def test_english_due_times_are_read_relative_to_when_they_were_said(text, expected):
    assert due(f"Remind me {text} to call the plumber", SAID) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Rappelle-moi demain d'appeler le plombier", "2026-03-06T09:00+02:00"),
        ("demain à 17h", "2026-03-06T17:00+02:00"),
        ("vendredi", "2026-03-06T09:00+02:00"),
        ("dans deux heures", "2026-03-05T12:00+02:00"),
        ("dans une demi-heure", "2026-03-05T10:30+02:00"),
        ("la semaine prochaine", "2026-03-09T09:00+02:00"),
        ("le 16", "2026-03-16T09:00+02:00"),
        ("le 16 mars", "2026-03-16T09:00+02:00"),
        ("ce soir", "2026-03-05T20:00+02:00"),
        ("après-demain", "2026-03-07T09:00+02:00"),
        ("Erinnere mich morgen daran", "2026-03-06T09:00+02:00"),
        ("morgen um 17 Uhr", "2026-03-06T17:00+02:00"),
        ("morgen früh", "2026-03-06T09:00+02:00"),
        ("am Freitag", "2026-03-06T09:00+02:00"),
        ("in zwei Stunden", "2026-03-05T12:00+02:00"),
        ("nächste Woche", "2026-03-09T09:00+02:00"),
        ("übermorgen", "2026-03-07T09:00+02:00"),
        ("heute Abend", "2026-03-05T20:00+02:00"),
        ("am 16.", "2026-03-16T09:00+02:00"),
        ("am 16. März", "2026-03-16T09:00+02:00"),
        ("16.03.2026", "2026-03-16T09:00+02:00"),
        ("Recuérdame mañana", "2026-03-06T09:00+02:00"),
        ("mañana a las 5 de la tarde", "2026-03-06T17:00+02:00"),
        ("mañana por la mañana", "2026-03-06T09:00+02:00"),
        ("el viernes", "2026-03-06T09:00+02:00"),
        ("en dos horas", "2026-03-05T12:00+02:00"),
        ("la semana que viene", "2026-03-09T09:00+02:00"),
        ("esta noche", "2026-03-05T20:00+02:00"),
        ("pasado mañana", "2026-03-07T09:00+02:00"),
        ("el 16 de marzo", "2026-03-16T09:00+02:00"),
        ("a las cinco", "2026-03-05T17:00+02:00"),
        ("amanhã", "2026-03-06T09:00+02:00"),
        ("amanhã às 17h", "2026-03-06T17:00+02:00"),
        ("na sexta", "2026-03-06T09:00+02:00"),
        ("sexta-feira", "2026-03-06T09:00+02:00"),
        ("daqui a duas horas", "2026-03-05T12:00+02:00"),
        ("semana que vem", "2026-03-09T09:00+02:00"),
        ("hoje à noite", "2026-03-05T20:00+02:00"),
        ("depois de amanhã", "2026-03-07T09:00+02:00"),
        ("dia 16", "2026-03-16T09:00+02:00"),
        ("明天", "2026-03-06T09:00+02:00"),
        ("明天下午五点", "2026-03-06T17:00+02:00"),
        ("周五", "2026-03-06T09:00+02:00"),
        ("星期五", "2026-03-06T09:00+02:00"),
        ("下周五", "2026-03-13T09:00+02:00"),
        ("下周", "2026-03-09T09:00+02:00"),
        ("两个小时后", "2026-03-05T12:00+02:00"),
        ("半小时后", "2026-03-05T10:30+02:00"),
        ("今晚", "2026-03-05T20:00+02:00"),
        ("后天", "2026-03-07T09:00+02:00"),
        ("16号", "2026-03-16T09:00+02:00"),
        ("3月16日", "2026-03-16T09:00+02:00"),
    ],
)
def test_french_german_spanish_portuguese_and_chinese_due_times_are_read(text, expected):
    assert due(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Can you check tomorrow's forecast",  # a possessive names no due time
        "Guten Morgen!",
        "Buenos días, esta es la mañana de la reunión",
        "I'll send it in a minute",  # at once
        "a segunda vez que tentei",  # an ordinal, not Monday
        "I have 2 kids and 3 cats",
        "remind me to buy milk",
        "早上好",
    ],
)
def test_words_that_name_no_due_time_give_none(text):
    assert due(text) is None


def test_a_day_name_that_is_today_means_a_week_from_today_unless_a_later_time_today_goes_with_it():
    assert due("on Thursday") == "2026-03-12T09:00+02:00"
    assert due("jeudi") == "2026-03-12T09:00+02:00"
    assert due("on Thursday at 5pm") == "2026-03-05T17:00+02:00"
    assert due("on Thursday at 8am") == "2026-03-12T08:00+02:00"  # passed today


def test_a_time_already_past_today_is_due_at_once_not_in_the_past():
    assert due("this morning") == "2026-03-05T10:00+02:00"
    assert due("today") == "2026-03-05T10:00+02:00"


def test_the_day_is_the_speakers_day_not_the_utc_day():
    # 23:30 UTC on Thursday is 08:30 on Friday in Tokyo: "tomorrow" is Saturday there.
    tokyo = datetime(2026, 3, 5, 23, 30, tzinfo=timezone.utc).astimezone(timezone(timedelta(hours=9)))
    found = read_due("remind me tomorrow", tokyo)
    assert found is not None
    assert found.at.isoformat(timespec="minutes") == "2026-03-07T09:00+09:00"
    assert found.at.astimezone(timezone.utc).isoformat(timespec="minutes") == "2026-03-07T00:00+00:00"


def test_on_the_day_clocks_go_forward_tomorrow_at_nine_is_nine_on_the_wall_and_two_hours_are_two_hours():
    evening = datetime(2026, 3, 28, 20, 0, tzinfo=BERLIN)  # Saturday; summer time starts at 02:00 on Sunday
    found = read_due("tomorrow at 9am", evening)
    assert found is not None and found.at.isoformat() == "2026-03-29T09:00:00+02:00"
    assert found.at.astimezone(timezone.utc).hour == 7
    night = datetime(2026, 3, 29, 1, 30, tzinfo=BERLIN)
    found = read_due("in 2 hours", night)
    assert found is not None
    assert found.at.astimezone(timezone.utc) == night.astimezone(timezone.utc) + timedelta(hours=2)
    assert found.at.isoformat() == "2026-03-29T04:30:00+02:00"
    found = read_due("tomorrow at 2:30am", evening)  # a time the clock change skips: the instant after
    assert found is not None and found.at.isoformat() == "2026-03-29T03:30:00+02:00"


def test_on_the_day_clocks_go_back_tomorrow_at_nine_is_nine_on_the_wall_and_days_keep_their_hour():
    evening = datetime(2026, 10, 24, 20, 0, tzinfo=BERLIN)  # Saturday; summer time ends at 03:00 on Sunday
    found = read_due("tomorrow at 9am", evening)
    assert found is not None and found.at.isoformat() == "2026-10-25T09:00:00+01:00"
    found = read_due("in 1 day", evening)
    assert found is not None and found.at.isoformat() == "2026-10-25T20:00:00+01:00"  # 25 hours later
    found = read_due("in two hours", datetime(2026, 10, 25, 1, 30, tzinfo=BERLIN))
    assert found is not None and found.at.astimezone(timezone.utc).isoformat() == "2026-10-25T01:30:00+00:00"


def test_the_words_of_the_due_time_are_given_with_where_they_are():
    text = "Can you remind me on Friday at 5pm to call the plumber?"
    found = read_due(text, SAID)
    assert found is not None
    assert found.phrase == "on Friday at 5pm"
    assert [text[s:e] for s, e in found.spans] == ["on Friday", "at 5pm"]


def test_a_naive_instant_is_read_as_utc():
    found = read_due("tomorrow", datetime(2026, 3, 5, 10, 0))
    assert found is not None and found.at.isoformat() == "2026-03-06T09:00:00+00:00"


def test_the_speakers_zone_comes_from_openclaws_stamp_with_or_without_its_offset():
    assert zone_of("2026-03-08T22:03+09:00", "2026-03-08T13:03:00.000Z") == timezone(timedelta(hours=9))
    # "[Sun 2026-03-08 22:03 PST]": no offset in the stamp; the message's UTC time gives it.
    assert zone_of("2026-03-08T22:03", "2026-03-09T06:03:41.120Z") == timezone(timedelta(hours=-8))
    assert zone_of("2026-03-08T22:03", "2026-03-08T16:33:00Z") == timezone(timedelta(hours=5, minutes=30))
    assert zone_of("2026-03-08T22:03", None) is None
    assert zone_of("2026-03-08T22:03", "2026-03-01T00:00:00Z") is None  # days apart: no zone
    assert zone_of(None, "2026-03-08T13:03:00Z") is None
    assert zone_of("yesterday", "2026-03-08T13:03:00Z") is None


@given(
    words=st.sets(st.text(alphabet="abé ", min_size=1, max_size=5).map(str.strip).filter(bool), min_size=1),
    text=st.text(alphabet="abé \n", max_size=12),
    any_space=st.booleans(),
)
def test_a_tree_of_words_finds_what_the_plain_list_of_them_finds_longest_first(words, text, any_space):
    space = r"\s+" if any_space else r"\ "
    plain = re.compile("|".join(re.escape(w).replace(r"\ ", space) for w in sorted(words, key=len, reverse=True)), re.I)
    tree = re.compile(alternatives(words, any_space=any_space), re.I)
    for start in range(len(text) + 1):
        assert [m.span() for m in tree.finditer(text, start)] == [m.span() for m in plain.finditer(text, start)]


def _top_level(source: str, start: int = 0):
    """(index, character) of each character of a regex from `start` that is in no class, nor in a group opened after
    `start`, up to the `)` closing the group `start` is in (the last one given)."""
    depth, in_class, at = 0, False, start
    while at < len(source):
        char = source[at]
        if char == "\\":
            at += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                yield at, char
                return
            depth -= 1
        elif depth == 0:
            yield at, char
        at += 1


def _plain(source: str, boundary: str) -> str:
    r"""The plain form of a pattern written `<boundary>(?:A|B|…)`, with `\b` after or not: `<boundary>A|<boundary>B|…`
    (each with that `\b`), the group being one alternative of the pattern or of the group around it."""
    start = source.index(boundary + "(?:")
    assert start == 0 or source[:start].endswith(("|", "(?:")), source
    opened = start + len(boundary) + 3
    *bars, closed = [at for at, char in _top_level(source, opened) if char in "|)"]
    after = r"\b" if source.startswith(r"\b", closed + 1) else ""
    end = closed + 1 + len(after)
    assert end == len(source) or source[end] in "|)", source
    branches = [source[a + 1 : b] for a, b in pairwise([opened - 1, *bars, closed])]
    return source[:start] + "|".join(boundary + branch + after for branch in branches) + source[end:]


# The patterns of days written `\b(?:last\s+week|…)\b|上周…`: one `\b` tried at each place rather than one for every
# alternative. Each finds what its plain form finds.
_SHARED_BOUNDARY = {
    **{f"{unit} {offset:+d}": source for (unit, offset), source in duetime._CALENDAR.items()},
    "yesterday": duetime._YESTERDAY,
    "the day before yesterday": duetime._BEFORE_YESTERDAY,
    "today": duetime._TODAY,
    "tomorrow": duetime._TOMORROW,
    "the weekend": duetime._WEEKEND,
    "lately": duetime._LATELY,
}


@settings(max_examples=1000)
@given(name=st.sampled_from(sorted(_SHARED_BOUNDARY)), data=st.data())
def test_patterns_of_days_sharing_one_word_boundary_find_what_their_plain_forms_find(name, data):
    source = _SHARED_BOUNDARY[name]
    boundary = duetime._AT_BOUNDARY if source.startswith(duetime._AT_BOUNDARY) else r"\b"
    pattern, plain = (re.compile(s, re.IGNORECASE) for s in (source, _plain(source, boundary)))
    words = sorted(set(re.findall(r"[^\W\d_]+|[^\x00-\x7f]", source.replace(duetime._AT_BOUNDARY, ""))))
    pieces = st.sampled_from([*words, " ", "  ", "\n", "'", "’", "-", ",", "x", "2", "三", "Am ", "la "])
    text = "".join(data.draw(st.lists(pieces, max_size=12)))
    for start in range(len(text) + 1):
        assert [(m.span(), m.groups()) for m in pattern.finditer(text, start)] == [
            (m.span(), m.groups()) for m in plain.finditer(text, start)
        ]


# Written in ASCII, each way of saying these that a pattern of days reads with further words needed
# (duetime._PERIOD_RULES): "two weeks ago", "the past two weeks", "last week", "in 2023", "on the 3rd"…
_ASCII_SAYINGS = """two weeks ago|3 days back|A few days earlier|forty-five minutes ago|a couple of months atras
il y a trois jours|vor zwei Wochen|hace dos semanas|ha dois meses|in a couple of days|dans deux semaines|en tres dias
em duas semanas|daqui a cinco dias|in 2 hours|the past two weeks|these last days|past month|les derniers jours
ces trois dernieres semaines|in den letzten drei Tagen|den letzten Monaten|los ultimos dias|nas ultimas semanas
last week|la semaine derniere|la semaine passee|letzte Woche|vergangene Woche|la semana pasada|semana passada
this week|cette semaine|diese Woche|esta semana|nesta semana|next week|la semaine prochaine|la semaine suivante
kommende Woche|la semana que viene|la proxima semana|semana que vem|na proxima semana|last weekend
le week-end dernier|le weekend dernier|letztes Wochenende|vergangenen Wochenende|el fin de semana pasado
fim de semana passado|this weekend|the weekend|ce week-end|am Wochenende|dieses Wochenende|diesem Wochenende
este fin de semana|el fin de semana|no fim de semana|neste fim de semana|last month|le mois dernier|letzten Monat
vergangenen Monat|el mes pasado|this month|ce mois-ci|diesen Monat|este mes|next month|le mois prochain
kommenden Monat|el mes que viene|el proximo mes|last year|l'an dernier|letztes Jahr|vergangenen Jahr|ano passado
this year|dieses Jahr|este ano|neste ano|next year|l'an prochain|ano que vem|in 2023|during 2019|since 2020|en 2021
em 2022|durant 2018|pendant 2017|durante 2016|im Jahr 2015|im Jahre 2014|in the year 2013|no ano de 2012|en l'an 2011
on the 3rd|by the 12th|before the 5|until the 20th|the 27th|le 3|le 1er|am 3.|el 3|el dia 3|no dia 3|dia 3""".replace(
    "\n", "|"
).split("|")


@pytest.mark.parametrize("saying", _ASCII_SAYINGS)
def test_a_text_in_ascii_is_read_by_every_pattern_of_days_that_matches_it(saying):
    everything = duetime._period_patterns()
    for text in (saying, saying.upper(), f"So, {saying}, fine.", f"(it was {saying.title()})\n"):
        tokens = daywords.day_tokens(text)
        assert tokens is not None, text
        matching = [pattern for pattern, _ in everything if pattern.search(text)]
        assert matching, text
        chosen = [pattern for pattern, _ in duetime._period_patterns(tokens, in_ascii=True)]
        assert all(pattern in chosen for pattern in matching), text


@settings(max_examples=1000)
@given(data=st.data())
def test_a_text_in_ascii_of_the_words_of_days_is_read_by_every_pattern_that_matches_it(data):
    words = sorted({w for s in _ASCII_SAYINGS for w in re.findall(r"[^\W\d_]+", s)} | set(duetime._NUMBERS))
    pieces = st.sampled_from(
        [*words, *map(str.upper, words), " ", "  ", "\n", "'", "-", ",", ".", "x", "2", "12", "2023", "_"]
    )
    text = "".join(data.draw(st.lists(pieces, max_size=12)))
    tokens = daywords.day_tokens(text)
    if tokens is None:
        return  # a text without a word of days is not read
    chosen = [pattern for pattern, _ in duetime._period_patterns(tokens, in_ascii=True)]
    assert all(pattern in chosen for pattern, _ in duetime._period_patterns() if pattern.search(text)), text


def test_no_pattern_of_days_holds_a_letter_beyond_ascii_that_matches_one_in_ascii_when_case_is_ignored():
    # What lets a text written in ASCII be read only by the patterns whose further words it holds.
    beyond = {char for rule in duetime._PERIOD_RULES for char in rule.source if not char.isascii()}
    assert not [c for c in beyond if any(re.fullmatch(re.escape(c), chr(a), re.I) for a in range(128))]


# "two weeks ago", "in three days", "三天前", "三天后"… with each alternative written out, its own boundary each.
_AGO_WRITTEN_OUT = (
    rf"{duetime._AT_BOUNDARY}(?:(?P<n>{duetime._NUM})\s++(?P<unit>{duetime._AGO_UNIT})\s++(?:ago|back|earlier|atrás"
    rf"|atras)|(?:il\s+y\s+a|vor|hace|há|ha)\s++(?P<n2>{duetime._NUM})\s++(?P<unit2>{duetime._AGO_UNIT}))(?![\w'’])"
    rf"|(?P<n3>{duetime._HAN_NUM})\s*(?P<unit3>{duetime._AGO_UNIT})\s*(?:前|以前|之前)"
    rf"|(?P<ahead>{duetime._AT_BOUNDARY}(?:in|dans|en|em|daqui\s+a)\s++(?P<n4>{duetime._NUM})\s++"
    rf"(?P<unit4>{duetime._AGO_UNIT})(?![\w'’])(?!\s+(?:ago|back|earlier))"
    rf"|(?P<n5>{duetime._HAN_NUM})\s*(?P<unit5>{duetime._AGO_UNIT})\s*(?:后|以后|之后|後))"
)


_AGO_LEADS = ["", "in ", "dans ", "il y a ", "vor ", "hace ", "há ", "ha ", "daqui a ", "x", "我", "'", "3", "İn "]
_AGO_NUMBERS = ["", "two", "a couple of", "forty-five", "fünf", "1", "12", "1234", "三", "十二", "两", "x"]
_AGO_UNITS = ["", "days", "day", "h", "hours", "Weeks", "天", "个月", "小时", "年", "xyz"]
_AGO_TAILS = [
    "",
    " ago",
    " back",
    "  earlier",
    " atrás",
    "前",
    "以前",
    "之前",
    "后",
    "以后",
    "之后",
    "後",
    " ago's",
    "x",
    "'",
]


@settings(max_examples=2000)
@given(
    phrases=st.lists(
        st.tuples(*(st.sampled_from(words) for words in (_AGO_LEADS, _AGO_NUMBERS, _AGO_UNITS, _AGO_TAILS))),
        max_size=3,
    ),
    spaces=st.sampled_from(["", " ", "  ", "\n"]),
)
def test_the_pattern_of_days_ago_and_ahead_finds_what_it_finds_with_each_alternative_written_out(phrases, spaces):
    pattern, written_out = (re.compile(s, re.IGNORECASE) for s in (duetime._AGO, _AGO_WRITTEN_OUT))
    text = " ".join(lead + number + spaces + unit + tail for lead, number, unit, tail in phrases)
    for start in range(len(text) + 1):
        found, expected = pattern.finditer(text, start), written_out.finditer(text, start)
        for one, other in zip(found, expected, strict=True):
            assert one.span() == other.span()
            assert [duetime._group(one, name) for name in ("n", "unit")] == [
                duetime._group(other, name) for name in ("n", "unit")
            ]
            assert bool(duetime._group(one, "ahead")) == bool(duetime._group(other, "ahead"))
            assert duetime._ago(SAID, one, False) == duetime._ago(SAID, other, False)
