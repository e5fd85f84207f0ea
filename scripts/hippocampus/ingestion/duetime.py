"""When something is due, read from the words that say it — "tomorrow", "on Friday at 5pm", "in two hours", "on the
16th", "by end of day", "March 16", "le 16", "morgen um 17 Uhr", "el viernes", "amanhã às 17h", "明天下午五点" —
relative to when it was said, in the speaker's zone. Pure: the text and the instant it was said are passed in.

The rules, so that a reader of a listing can check one:
- a day named without a time is due at DEFAULT_HOUR; a part of a day at its hour (morning 9, afternoon 15, evening
  19, night 20); "by end of day" at END_OF_DAY, the end of the week on Friday at END_OF_DAY;
- a time named without a day is today's, or tomorrow's when it has passed; an hour from 1 to 6 without am/pm is
  in the afternoon ("at 5" is 17:00);
- a weekday is the coming one; today's name means a week from today, unless a time later today goes with it;
  "next Friday" is the coming Friday unless that is tomorrow or the day after, then the one a week later
  ("下周五", Friday of next week, is read by the week);
- "next week" is its Monday, "next month" its first day, "the weekend" the coming Saturday at 10:00;
- "in two hours" counts the hours that pass (a clock change between does not move it); "in three days" keeps the
  time of day on the calendar;
- a date or a day of the month that has passed this year or month means the next one; a due time before the
  moment it was said (today's morning, said in the afternoon) is that moment.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from datetime import date, datetime, time, timedelta, timezone
from typing import NamedTuple, TypeVar

from dateutil.relativedelta import relativedelta

from ..text import alternatives
from ..daywords import (
    AGO_UNIT_OF,
    DIGIT,
    HAN,
    MONTH_OF,
    PART_WORD,
    UNIT_OF,
    WEEKDAY_OF,
    WORD,
    day_tokens,
)

DEFAULT_HOUR = 9
END_OF_DAY = 17
WEEKEND_HOUR = 10
PARTS = {"morning": 9, "noon": 12, "afternoon": 15, "evening": 19, "night": 20}
NEXT_IS_LATER_WITHIN = 3  # "next Friday" said two days before it or less: the one a week later
SOON_MINUTES = 10  # "in a minute", "in five minutes": said of what is done at once
PHRASE_LIMIT = 80  # characters of the words a due time was read from, as kept


class Due(NamedTuple):
    """A due time: the instant (aware, in the zone it was read in), the words it was read from, and where those
    words are in the text (to take them out of what is to be done)."""

    at: datetime
    phrase: str
    spans: tuple[tuple[int, int], ...]


# --- words ------------------------------------------------------------------------------------------------------

_NUMBERS = {
    **dict.fromkeys(("a", "an", "one", "un", "une", "ein", "eine", "einer", "einem", "einen", "uno", "una", "um"), 1),
    **dict.fromkeys(("uma",), 1),
    **dict.fromkeys(("two", "deux", "zwei", "dos", "dois", "duas", "a couple of", "couple of", "a couple"), 2),
    **dict.fromkeys(("three", "trois", "drei", "tres", "três", "a few", "few", "several"), 3),
    **dict.fromkeys(("four", "quatre", "vier", "cuatro", "quatro"), 4),
    **dict.fromkeys(("five", "cinq", "fünf", "cinco"), 5),
    **dict.fromkeys(("six", "sechs", "seis"), 6),
    **dict.fromkeys(("seven", "sept", "sieben", "siete", "sete"), 7),
    **dict.fromkeys(("eight", "huit", "acht", "ocho", "oito"), 8),
    **dict.fromkeys(("nine", "neuf", "neun", "nueve", "nove"), 9),
    **dict.fromkeys(("ten", "dix", "zehn", "diez", "dez"), 10),
    **dict.fromkeys(("eleven", "onze", "elf", "once"), 11),
    **dict.fromkeys(("twelve", "douze", "zwölf", "doce"), 12),
    **dict.fromkeys(("fifteen", "quinze", "fünfzehn", "quince"), 15),
    **dict.fromkeys(("twenty", "vingt", "zwanzig", "veinte", "vinte"), 20),
    **dict.fromkeys(("thirty", "trente", "dreißig", "treinta", "trinta"), 30),
    **dict.fromkeys(("forty-five", "forty five", "quarante-cinq"), 45),
}
_HAN_DIGITS = {**{c: i for i, c in enumerate("零一二三四五六七八九")}, "两": 2, "兩": 2}


def _group(match: re.Match, name: str) -> str | None:
    """The group `name` of a match — or of the alternative that matched, whose groups are `name2`, `name3`…"""
    for key, value in match.groupdict().items():
        if value is not None and (key == name or (key.startswith(name) and key[len(name) :].isdigit())):
            return value
    return None


def _alternatives(words) -> str:
    """A regex matching any of these words, the longest first; a space in one matches any run of spaces."""
    return alternatives(words, any_space=True)


_NUM = rf"(?:\d{{1,3}}|{_alternatives(_NUMBERS)})"
_HAN_NUM = r"(?:\d{1,3}|[零一二两兩三四五六七八九十]{1,3})"


def _number(word: str) -> int | None:
    word = " ".join(word.lower().split())
    if word.isdigit():
        return int(word)
    if word in _NUMBERS:
        return _NUMBERS[word]
    if word and all(c in _HAN_DIGITS or c == "十" for c in word):
        if "十" not in word:
            return int("".join(str(_HAN_DIGITS[c]) for c in word))
        tens, _, units = word.partition("十")
        return (_HAN_DIGITS[tens] if tens else 1) * 10 + (_HAN_DIGITS[units] if units else 0)
    return None


_UNIT = _alternatives(UNIT_OF)
_HALF_HOUR = _alternatives(
    ("half an hour", "une demi-heure", "une demi heure", "einer halben stunde", "eine halbe stunde", "media hora")
    + ("meia hora", "半小时", "半个小时", "半個小時")
)

# Portuguese weekdays without "-feira" are also ordinals ("a segunda vez"): read as days only after a preposition.
_BARE_ORDINALS = frozenset({"segunda", "terça", "terca", "quarta", "quinta", "sexta"})
_NAMES_OF_DAYS = frozenset(WEEKDAY_OF) | frozenset(MONTH_OF)
_ORDINAL_NOUN = re.compile(
    r"(?<!\s)\s+(?:vez|vezes|op[çc][ãa]o|parte|metade|m[ãa]o|classe|s[ée]rie|etapa|fase|via)\b", re.IGNORECASE
)


_MONTH = _alternatives(MONTH_OF)
_ENGLISH_MONTH = _alternatives(
    "january february march april may june july august september october november december".split()
    + "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)

# Where a word starts and ends: not beside another letter or digit — except in the scripts written without spaces,
# whose words start and end anywhere.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# (Case-sensitive either way, "(?-i:…)": the same characters, and a pattern that ignores case compiles its classes of
# thousands of characters once for every case, slowly.)
_AT_BOUNDARY = rf"(?-i:(?<![^\W{_CJK}])(?<!['’]))"
_END = rf"(?-i:(?![^\W{_CJK}])(?!['’]))"  # also not "tomorrow's": a possessive names no due time
_NAMES_WITHOUT_SPACES = [name for name in _NAMES_OF_DAYS if re.match(f"[{_CJK}]", name)]  # 星期六, 周日…


def names_a_day(word: str) -> bool:
    """Whether a word (text.words) is the name of a day of the week or of a month ("saturday", "mai", "周六"), or a
    piece of one in a script written without spaces ("星期", of "星期六")."""
    return word in _NAMES_OF_DAYS or any(word in name for name in _NAMES_WITHOUT_SPACES)


# A part of the day after a day ("tomorrow morning", "vendredi soir", "morgen früh", "mañana por la tarde",
# "amanhã à noite", "明天下午").
_PART_AFTER = (
    r"(?:(?:\s*,)?\s*(?:in\s+the\s+|por\s+la\s+|en\s+la\s+|de\s+la\s+|à\s+|a\s+|de\s+|pela\s+|am\s+)?"
    rf"(?P<part>{_alternatives(PART_WORD)}){_END})?"
)

# --- what a text says, piece by piece -------------------------------------------------------------------------


class _Reading:
    """The pieces of a due time found so far."""

    def __init__(self, said: datetime):
        self.said = said
        self.today = said.date()
        self.day: date | None = None  # an explicit day
        self.weekday: tuple[int, str] | None = None  # (0-6, "coming" / "next" / "this" / "next-week")
        self.clock: tuple[int, int] | None = None  # an explicit time of day
        self.part: str | None = None  # a part of the day ("afternoon")
        self.after: timedelta | None = None  # "in two hours": time that passes
        self.wall: relativedelta | None = None  # "in three days": days on the calendar
        self.spans: list[tuple[int, int]] = []

    def found(self) -> bool:
        return bool(self.spans)


Handler = Callable[[_Reading, re.Match], bool]  # takes what a match says; False when it says nothing after all
H = TypeVar("H")


def _set_day(reading: _Reading, day: date) -> bool:
    if reading.day is None and reading.weekday is None:
        reading.day = day
    return True


def _set_part(reading: _Reading, match: re.Match) -> None:
    word = _group(match, "part")
    if word and reading.part is None:
        reading.part = PART_WORD.get(word.lower())


def _relative(reading: _Reading, match: re.Match) -> bool:
    if _group(match, "half"):
        amount, unit = 30, "minutes"
    else:
        number = _number(_group(match, "n") or "")
        unit = UNIT_OF.get((_group(match, "unit") or "").lower(), "")
        if number is None or not unit or number > 1000:
            return False
        amount = number
        if unit == "minutes" and amount < SOON_MINUTES:
            return False  # "in a minute": at once, nothing to be reminded of
    if reading.after is not None or reading.wall is not None:
        return True
    if unit == "minutes":
        reading.after = timedelta(minutes=amount)
    elif unit == "hours":
        reading.after = timedelta(hours=amount)
    elif unit == "days":
        reading.wall = relativedelta(days=amount)
    elif unit == "weeks":
        reading.wall = relativedelta(weeks=amount)
    else:
        reading.wall = relativedelta(months=amount)
    return True


def _days_from_today(offset: int) -> Handler:
    def handle(reading: _Reading, match: re.Match) -> bool:
        _set_part(reading, match)
        return _set_day(reading, reading.today + timedelta(days=offset))

    return handle


def _today_part(part: str) -> Handler:
    def handle(reading: _Reading, match: re.Match) -> bool:
        reading.part = reading.part or part
        return _set_day(reading, reading.today)

    return handle


def _weekday(reading: _Reading, match: re.Match) -> bool:
    name = match.group("day").lower()
    day = WEEKDAY_OF.get(name)
    if day is None:
        return False
    before = (match.group("pre") or "").lower().split()
    before = before[-1] if before else ""
    after = (match.group("post") or "").lower()
    if name in _BARE_ORDINALS and not (before or match.group("prep") or match.group("feira")):
        return False
    if name in _BARE_ORDINALS and not match.group("feira") and _ORDINAL_NOUN.match(match.string, match.end("day")):
        return False  # "na segunda vez", "para a quinta opção": an ordinal
    if before in ("下", "下个", "下個"):
        mode = "next-week"
    elif before in ("这", "這", "本", "这个", "這個", "this", "ce", "diesen", "este", "esta", "nesta", "neste"):
        mode = "this"
    elif before.startswith(("next", "näch", "komm", "próx", "prox")) or after:
        mode = "next"
    else:
        mode = "coming"
    _set_part(reading, match)
    if reading.day is None and reading.weekday is None:
        reading.weekday = (day, mode)
    return True


def _next_week(reading: _Reading, match: re.Match) -> bool:
    monday = reading.today - timedelta(days=reading.today.weekday()) + timedelta(days=7)
    return _set_day(reading, monday)


def _next_month(reading: _Reading, match: re.Match) -> bool:
    return _set_day(reading, reading.today.replace(day=1) + relativedelta(months=1))


def _weekend(reading: _Reading, match: re.Match) -> bool:
    ahead = 0 if reading.today.weekday() >= 5 else 5 - reading.today.weekday()
    reading.part = reading.part or "weekend"
    return _set_day(reading, reading.today + timedelta(days=ahead))


def _end_of(unit: str) -> Handler:
    def handle(reading: _Reading, match: re.Match) -> bool:
        today = reading.today
        if unit == "week":
            day = today + timedelta(days=(4 - today.weekday()) % 7)
        elif unit == "month":
            day = today + relativedelta(day=31)
        else:
            day = today
        reading.part = reading.part or "end"
        return _set_day(reading, day)

    return handle


def _roll_year(reading: _Reading, month: int, day: int, year: int | None) -> date | None:
    try:
        if year is not None:
            return date(year if year >= 100 else 2000 + year, month, day)
        found = date(reading.today.year, month, day)
        return found if found >= reading.today else date(reading.today.year + 1, month, day)
    except ValueError:
        return None


def _english_date(reading: _Reading, match: re.Match) -> bool:
    # dateutil reads the English forms ("March 16th, 2026", "16 Mar", "the 16th of March"); the year, when not
    # said, is the next one to reach that day.
    from dateutil import parser as dateparser  # only for a date in words: keeps recall's start-up light

    phrase = re.sub(r"\b(?:the|of|on|by|before|until)\b", " ", match.group(0), flags=re.IGNORECASE)
    try:
        parsed = dateparser.parse(phrase, default=datetime(reading.today.year, 1, 1))
    except (ValueError, OverflowError):
        return False
    has_year = re.search(r"\d{4}", match.group(0)) is not None
    found = _roll_year(reading, parsed.month, parsed.day, parsed.year if has_year else None)
    return found is not None and _set_day(reading, found)


def _iso_date(reading: _Reading, match: re.Match) -> bool:
    from dateutil import parser as dateparser

    try:
        parsed = dateparser.isoparse(match.group("iso"))
    except (ValueError, OverflowError):
        return False
    if match.group("clock"):
        reading.clock = reading.clock or (parsed.hour, parsed.minute)
    return _set_day(reading, parsed.date())


def _named_date(reading: _Reading, match: re.Match) -> bool:
    month = MONTH_OF.get(match.group("month").lower())
    day = int(match.group("d"))
    year = int(match.group("y")) if match.group("y") else None
    found = _roll_year(reading, month, day, year) if month else None
    return found is not None and _set_day(reading, found)


def _numeric_date(reading: _Reading, match: re.Match) -> bool:
    year = int(match.group("y")) if match.group("y") else None
    found = _roll_year(reading, int(match.group("m")), int(match.group("d")), year)
    return found is not None and _set_day(reading, found)


def _han_date(reading: _Reading, match: re.Match) -> bool:
    year = int(match.group("y")) if match.group("y") else None
    found = _roll_year(reading, int(match.group("m")), int(match.group("d")), year)
    return found is not None and _set_day(reading, found)


def _day_of_month(reading: _Reading, match: re.Match) -> bool:
    number = _number(_group(match, "d") or "")
    if number is None or not 1 <= number <= 31:
        return False
    start = reading.today.replace(day=1)
    for months in range(0, 13):
        first = start + relativedelta(months=months)
        try:
            found = first.replace(day=number)
        except ValueError:
            continue  # a month without that day
        if found >= reading.today:
            return _set_day(reading, found)
    return False


def _clock(reading: _Reading, match: re.Match) -> bool:
    word = (_group(match, "word") or "").lower()
    if word:
        hour, minute = (0, 0) if word in ("midnight", "minuit", "mitternacht", "medianoche", "meia-noite") else (12, 0)
    else:
        found = _number(_group(match, "h") or "")
        if found is None:
            return False
        hour = found
        minutes = _group(match, "m")
        minute = int(minutes) if minutes else (30 if _group(match, "halfpast") else 0)
        marker = (_group(match, "ampm") or "").lower().replace(".", "")
        if not (0 <= hour <= 24 and 0 <= minute <= 59) or (marker and not 1 <= hour <= 12):
            return False
        if marker == "pm" and hour < 12:
            hour += 12
        elif marker == "am" and hour == 12:
            hour = 0
        elif not marker:
            _set_part(reading, match)
            part = reading.part
            if part in ("afternoon", "evening", "night") and hour < 12:
                hour += 12
            elif part is None and 1 <= hour <= 6:
                hour += 12  # "at 5" in a conversation is five in the afternoon
        hour %= 24
    if reading.clock is None:
        reading.clock = (hour, minute)
    return True


def _tomorrow(reading: _Reading, match: re.Match) -> bool:
    word = match.group(0).lower()
    if word.startswith(("明早",)):
        reading.part = reading.part or "morning"
    elif word.startswith("明晚"):
        reading.part = reading.part or "night"
    _set_part(reading, match)
    return _set_day(reading, reading.today + timedelta(days=1))


def _this_part(reading: _Reading, match: re.Match) -> bool:
    """ "this afternoon", "heute Abend", "esta tarde", "今天下午": today, at that part of the day."""
    return _today_part(PART_WORD.get((_group(match, "part") or "").lower(), "morning"))(reading, match)


def _part_alone(reading: _Reading, match: re.Match) -> bool:
    _set_part(reading, match)
    return reading.part is not None


# --- the patterns ----------------------------------------------------------------------------------------------

# A pattern is tried at every place of a text, so alternatives that each start a word share one `\b` (here and in the
# patterns of days below: "\b(?:last\s+week|this\s+week)\b", not "\blast\s+week\b|\bthis\s+week\b"), tested once
# at each place rather than once for each. tests/test_duetime.py compares such a pattern with its plain form.
_D = r"(?<!\d)(?P<d>\d{1,2})(?!\d)"
# The words before a time of day: "at 5", "à 17h", "um 17 Uhr", "a las cinco", "às 17h".
_AT_CLOCK = r"(?:at|by|around|before|à|vers|avant|um|gegen|bis|a\s+las?|às|as|para\s+las?)"
# Hours said in words, in the languages that say them so ("a las cinco", "às cinco"): one to twelve.
_CLOCK_WORDS = [w for w in _NUMBERS if 1 <= _NUMBERS[w] <= 12 and len(w) > 2 and " " not in w]


_ENGLISH_DATE = (
    rf"{_AT_BOUNDARY}(?:(?:on|by|before|until)\s+)?(?:(?:the\s+)?{_D}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"(?:{_ENGLISH_MONTH})\.?|(?:{_ENGLISH_MONTH})\.?\s+{_D.replace('?P<d>', '')}(?:st|nd|rd|th)?)"
    r"(?:,?\s+\d{4})?(?![\w'’])"
)
_NAMED_DATE = (
    rf"{_AT_BOUNDARY}(?:(?:le|am|el|o|no|dia)\s+)?{_D}(?:er|\.)?\s++(?:de\s++)?(?P<month>{_MONTH})"
    r"(?:\s+(?:de\s+)?(?P<y>\d{4}))?(?![\w'’])"
)
_HAN_DATE = r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号號]"
_NUMERIC_DATE = r"(?:\bam\s+)?(?<![\d.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4}|\d{2})?(?![\d.])"
_IN_TIME = (
    rf"(?:{_AT_BOUNDARY}(?:in|within|dans|d['’]ici|en|dentro\s+de|em|daqui\s+a)\s++"
    rf"(?:(?P<half>{_HALF_HOUR})|(?P<n>{_NUM})\s*+(?P<unit>{_UNIT})(?![\w'’]))"
    rf"|(?P<half2>{_HALF_HOUR})\s*(?:后|以后|之后|後)|(?P<n2>{_HAN_NUM})\s*(?P<unit2>{_UNIT})\s*(?:后|以后|之后|後))"
)
_DAY_AFTER_TOMORROW = (
    r"(?:\bthe\s+day\s+after\s+tomorrow|\bapr[èe]s[- ]demain|\bübermorgen|\bpasado\s+mañana"
    rf"|\bdepois\s+de\s+amanhã|后天|後天){_END}{_PART_AFTER}"
)
_TOMORROW = (
    r"(?:\b(?:tomorrow|demain|(?<!guten )(?<!schönen )(?<!jeden )(?<!heute )(?<!gestern )(?<![Aa]m )morgen"
    r"|(?<!la )(?<!esta )(?<!cada )(?<!pasado )mañana|amanhã)|明天|明日|明早|明晚)"
    rf"{_END}{_PART_AFTER}"
)
_NEXT_WEEK = (
    r"\b(?:next\s+week|la\s+semaine\s+(?:prochaine|suivante)|(?:nächste|kommende)\s+woche"
    r"|la\s+semana\s+que\s+viene|la\s+(?:próxima|proxima)\s+semana|semana\s+que\s+vem"
    r"|(?:na\s+)?(?:próxima|proxima)\s+semana)\b|下周(?![一二三四五六日天末])|下星期(?![一二三四五六日天])"
    r"|下礼拜(?![一二三四五六日天])"
)
_NEXT_MONTH = (
    r"\b(?:next\s+month|le\s+mois\s+prochain|(?:nächsten|kommenden)\s+monat"
    r"|el\s+(?:mes\s+que\s+viene|(?:próximo|proximo)\s+mes)|(?:o\s+)?(?:mês\s+que\s+vem|próximo\s+mês))\b"
    r"|下个月|下個月"
)
_WEEKEND = (
    r"\b(?:(?:this|the)\s+weekend|ce\s+week-?end|(?:am|dieses|diesem)\s+wochenende"
    r"|(?:este|el)\s+fin\s+de\s+semana|(?:este|no|neste)\s+fim\s+de\s+semana)\b|这个?周末|這個?週末|周末"
)
_WEEKDAY = (
    rf"{_AT_BOUNDARY}(?:(?P<prep>on|by|until|before|le|am|bis|el|la|na|no|até|ate|hasta|para(?:\s+a)?|pra|pro)\s++)?"
    r"(?:(?P<pre>next|this|nächsten|nächster|kommenden|diesen|este|esta|el\s+próximo|el\s+proximo|próximo|"
    r"proximo|próxima|proxima|na\s+próxima|nesta|neste|下个|下個|下|这个|這個|这|這|本|ce)\s*+)?"
    rf"(?P<day>{_alternatives(WEEKDAY_OF)})(?P<feira>-feira)?"
    r"(?P<post>\s+(?:prochain|que\s+viene|que\s+vem))?"
    rf"{_END}{_PART_AFTER}"
)
_DAY_OF_MONTH = (
    r"\b(?:on|by|before|until)\s+the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\b|\bthe\s+(?P<d7>\d{1,2})(?:st|nd|rd|th)\b"
    r"|\ble\s+(?P<d2>\d{1,2})(?:er)?(?!\s*(?:h\b|heures?|:|%|\d|[.,]\d))\b"
    r"|\bam\s+(?P<d3>\d{1,2})\.(?!\d)"
    r"|\bel\s+(?:día\s+)?(?P<d4>\d{1,2})\b(?!\s*(?:de\b|:|%|h\b))"
    r"|\b(?:no\s+)?dia\s+(?P<d5>\d{1,2})\b(?!\s*de\b)"
    r"|(?<![月\d])(?P<d6>\d{1,2})\s*[号號]"
)


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[re.Pattern, Handler]]:
    """The patterns, in the order they are tried (a word is read once, by the first that takes it); compiled on
    first use: most encode runs meet no promise and need none of them."""
    return [
        (re.compile(r"(?<!\d)(?P<iso>\d{4}-\d{2}-\d{2}(?P<clock>[ T]\d{2}:\d{2})?)(?!\d)"), _iso_date),
        (re.compile(_HAN_DATE), _han_date),
        (re.compile(_ENGLISH_DATE, re.IGNORECASE), _english_date),
        (re.compile(_NAMED_DATE, re.IGNORECASE), _named_date),
        (
            re.compile(_NUMERIC_DATE),
            _numeric_date,
        ),
        (re.compile(_IN_TIME, re.IGNORECASE), _relative),
        (re.compile(_DAY_AFTER_TOMORROW, re.IGNORECASE), _days_from_today(2)),
        (
            re.compile(
                r"\btonight\b|\bce\s+soir\b|\bheute\s+(?:abend|nacht)\b|\besta\s+noche\b|\b(?:hoje|logo)\s+[àa]\s+noite\b"
                r"|\besta\s+noite\b|今晚|今天晚上|今夜",
                re.IGNORECASE,
            ),
            _today_part("night"),
        ),
        (
            re.compile(
                r"\bthis\s+(?P<part>morning|afternoon|evening)\b|\b(?:ce|cet)\s+(?P<part2>matin|après-midi|apres-midi)\b"
                r"|\bheute\s+(?P<part3>morgen|früh|vormittag|nachmittag)\b|\besta\s+(?P<part4>mañana|tarde)\b"
                r"|\bhoje\s+(?:de|à|a)\s+(?P<part5>manhã|tarde)\b|\besta\s+(?P<part6>manhã|tarde)\b"
                r"|今天(?P<part7>上午|下午|早上)|今早",
                re.IGNORECASE,
            ),
            _this_part,
        ),
        (re.compile(_TOMORROW, re.IGNORECASE), _tomorrow),
        (
            re.compile(r"\btoday\b(?!['’]s)|\baujourd['’]hui\b|\bheute\b|\bhoy\b|\bhoje\b|今天|今日", re.IGNORECASE),
            _days_from_today(0),
        ),
        (re.compile(_NEXT_WEEK, re.IGNORECASE), _next_week),
        (re.compile(_NEXT_MONTH, re.IGNORECASE), _next_month),
        (
            re.compile(
                r"(?:\bby\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?week\b|\bfin\s+de\s+(?:la\s+)?semaine\b"
                r"|\bende\s+der\s+woche\b|\bfinal\s+de\s+(?:la\s+|esta\s+)?semana\b|\bfim\s+da\s+semana\b",
                re.IGNORECASE,
            ),
            _end_of("week"),
        ),
        (
            re.compile(
                r"(?:\bby\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?month\b|\bfin\s+(?:du|de)\s+mois\b|\bende\s+des\s+monats\b"
                r"|\bmonatsende\b|\b(?:final|fin)\s+de(?:l)?\s+mes\b|\bfim\s+do\s+mês\b|月底",
                re.IGNORECASE,
            ),
            _end_of("month"),
        ),
        (
            re.compile(
                r"(?:\bby\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?(?:business\s+)?day\b|\beod\b|\bclose\s+of\s+business\b"
                r"|\bfin\s+de\s+(?:la\s+)?journée\b|\bende\s+des\s+tages\b|\bfeierabend\b|\bfinal\s+del\s+día\b"
                r"|\bfi[mn]\s+do\s+dia\b|下班前|今天之内",
                re.IGNORECASE,
            ),
            _end_of("day"),
        ),
        (re.compile(_WEEKEND, re.IGNORECASE), _weekend),
        (re.compile(_WEEKDAY, re.IGNORECASE), _weekday),
        (re.compile(_DAY_OF_MONTH, re.IGNORECASE), _day_of_month),
        (
            re.compile(
                rf"(?:(?P<part>{_alternatives(('上午', '早上', '早晨', '中午', '下午', '傍晚', '晚上'))})\s*)?"
                rf"(?P<h>{_HAN_NUM})\s*[点點时時](?:\s*(?P<m>\d{{1,2}})\s*分?|(?P<halfpast>半))?",
            ),
            _clock,
        ),
        (
            re.compile(
                r"(?:\b(?:at|by|around|before|à|a|vers|avant|um|gegen|bis|a\s+las?|às|as|para\s+las?)\s+)?"
                r"\b(?P<h>\d{1,2})(?:[:.h](?P<m>\d{2}))?\s*(?P<ampm>am|pm|a\.m\.|p\.m\.)(?![\w'’])",
                re.IGNORECASE,
            ),
            _clock,
        ),
        (
            re.compile(
                rf"(?:\b{_AT_CLOCK}\s+)?(?P<h>\d{{1,2}})\s*(?:h|uhr)(?:\s*(?P<m>\d{{2}}))?(?![\w'’])"
                rf"|\b{_AT_CLOCK}\s+(?P<h2>\d{{1,2}})(?:[:.](?P<m2>\d{{2}}))?\s*(?:heures?|horas?|hs|o['’]clock)?"
                rf"(?!\s*(?:%|percent|people|st\b|nd\b|rd\b|th\b|[./-]\d|\d|(?:{_UNIT})(?![\w'’])))(?![\w'’])"
                rf"|\b(?:a\s+las?|à|às|as|para\s+las?)\s+(?P<h4>{_alternatives(_CLOCK_WORDS)})(?:\s+(?:heures?|horas?))?"
                r"(?![\w'’])"
                r"|\b(?P<h3>\d{1,2}):(?P<m3>\d{2})(?!\d)",
                re.IGNORECASE,
            ),
            _clock,
        ),
        (
            re.compile(
                r"\b(?:at\s+|à\s+|a\s+|ao\s+|um\s+)?(?P<word>noon|midday|midnight|midi|minuit|mitternacht|mittags"
                r"|mediodía|medianoche|meio-dia|meia-noite)\b",
                re.IGNORECASE,
            ),
            _clock,
        ),
        (
            re.compile(
                r"\bin\s+the\s+(?P<part>morning|afternoon|evening)\b|\b(?:por|en|de)\s+la\s+(?P<part2>mañana|tarde|noche)\b"
                r"|\b(?:à|de|pela)\s+(?P<part3>manhã|tarde|noite)\b|\b(?P<part4>morgens|abends|nachmittags|vormittags)\b"
                r"|(?P<part5>上午|下午|晚上|早上)(?!好)",
                re.IGNORECASE,
            ),
            _part_alone,
        ),
    ]


# --- putting the pieces together ------------------------------------------------------------------------------


def _unread(
    text: str, patterns: list[tuple[re.Pattern, H]], taken: list[tuple[int, int]]
) -> Iterator[tuple[H, re.Match]]:
    """(handler, match) of each match of each pattern in turn, left to right, that takes no word of `taken` (the
    spans read so far, which the caller adds to as it reads)."""
    for pattern, handle in patterns:
        position = 0
        while position <= len(text) and (match := pattern.search(text, position)) is not None:
            start, end = match.span()
            overlap = [e for s, e in taken if start < e and s < end]
            if overlap or start == end:
                # Words read already: look again after them ("明天下午" taken, "五点" is still there).
                position = max([start + 1, *(e for e in overlap if e > start)])
                continue
            yield handle, match
            position = end


def read_due(text: str, said: datetime) -> Due | None:
    """The due time `text` names, read relative to `said` (an aware instant, in the speaker's zone when known);
    None when it names none."""
    if said.tzinfo is None:
        said = said.replace(tzinfo=timezone.utc)
    reading = _Reading(said)
    taken: list[tuple[int, int]] = []
    for handle, match in _unread(text, _patterns(), taken):
        if handle(reading, match):
            taken.append(match.span())
    if not taken:
        return None
    at = _resolve(reading)
    if at is None:
        return None
    taken.sort()
    phrase = " ".join(" ".join(text[start:end].split()) for start, end in taken)[:PHRASE_LIMIT]
    return Due(at, phrase, tuple(taken))


def _local(day: date, clock: tuple[int, int], said: datetime) -> datetime:
    """That wall time on that day in the zone of `said` (a time a clock change skips reads as the instant after)."""
    naive = datetime.combine(day, time(*clock))
    zone = said.tzinfo
    assert zone is not None
    return naive.replace(tzinfo=zone).astimezone(timezone.utc).astimezone(zone)


def _default_clock(reading: _Reading) -> tuple[int, int]:
    if reading.clock is not None:
        return reading.clock
    if reading.part == "end":
        return (END_OF_DAY, 0)
    if reading.part == "weekend":
        return (WEEKEND_HOUR, 0)
    return (PARTS.get(reading.part or "", DEFAULT_HOUR), 0)


def _resolve(reading: _Reading) -> datetime | None:
    said, today = reading.said, reading.today
    if reading.after is not None:
        return (said.astimezone(timezone.utc) + reading.after).astimezone(said.tzinfo)
    day = reading.day
    if reading.weekday is not None:
        weekday, mode = reading.weekday
        ahead = (weekday - today.weekday()) % 7
        if mode == "next-week":
            day = today - timedelta(days=today.weekday()) + timedelta(days=7 + weekday)
        elif mode == "next":
            ahead = ahead or 7
            day = today + timedelta(days=ahead + (7 if ahead < NEXT_IS_LATER_WITHIN else 0))
        elif ahead == 0 and mode != "this":
            later_today = reading.clock is not None and _local(today, reading.clock, said) > said
            day = today if later_today else today + timedelta(days=7)
        else:
            day = today + timedelta(days=ahead)
    if reading.wall is not None and day is None:
        moved = said.replace(tzinfo=None) + reading.wall
        if reading.clock is None and reading.part is None:
            return _local(moved.date(), (moved.hour, moved.minute), said)
        day = moved.date()
    if day is not None:
        return max(_local(day, _default_clock(reading), said), said)
    if reading.clock is not None or reading.part is not None:
        at = _local(today, _default_clock(reading), said)
        return at if at > said else _local(today + timedelta(days=1), _default_clock(reading), said)
    return None


# --- the days a text refers to ----------------------------------------------------------------------------------
#
# The same words, read for the days they name rather than for a due time: "last Tuesday", "two weeks ago",
# "yesterday", "last month", "in May", "on the 3rd", "in 2023", and the days ahead ("tomorrow", "next week"). What is
# read is a stretch of days (a day, a week, a month, a year). A name alone (a weekday, a month, a day of the month, a
# date without its year) may point back or ahead: in a question (`question`) it is the last one up to that day —
# questions ask about what was said; in a message it is the nearest one, and a weekday alone is not read at all (the
# last one and the coming one are as near).

AGO_SPREAD = {"days": 0, "weeks": 3, "months": 15, "years": 182}  # "two weeks ago" is about then: ± this many days
PERIODS_READ = 8  # stretches read from one text at most (a text made of dates is read no further)


class Period(NamedTuple):
    """Days a text refers to: the first and the last (inclusive), the words they were read from, where those are."""

    first: date
    last: date
    phrase: str
    span: tuple[int, int]


Span = tuple[date, date]
PeriodHandler = Callable[[datetime, re.Match, bool], "Span | None"]  # (said, match, question) -> days, or None

_AGO_UNIT = _alternatives(AGO_UNIT_OF)
_PAST_WORDS = r"(?:dernier|dernière|derniere|passé|passe|passée|passee|pasado|pasada|passado|passada)"
_LAST = r"(?:last|letzten|letzter|letztes|letzte|vergangenen|vergangene|vergangenes)"


def _day(offset: int) -> PeriodHandler:
    def handle(said: datetime, match: re.Match, question: bool) -> Span | None:
        day = said.date() + timedelta(days=offset)
        return day, day

    return handle


def _week_of(day: date) -> Span:
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


def _month_of(day: date) -> Span:
    first = day.replace(day=1)
    return first, first + relativedelta(day=31)


def _calendar(unit: str, offset: int) -> PeriodHandler:
    """The week, weekend, month or year `offset` of them from the one the text was said in ("last month": -1)."""

    def handle(said: datetime, match: re.Match, question: bool) -> Span | None:
        today = said.date()
        if unit == "week":
            return _week_of(today + timedelta(weeks=offset))
        if unit == "weekend":
            saturday = _week_of(today + timedelta(weeks=offset))[0] + timedelta(days=5)
            return saturday, saturday + timedelta(days=1)
        if unit == "month":
            return _month_of(today + relativedelta(months=offset))
        return date(today.year + offset, 1, 1), date(today.year + offset, 12, 31)

    return handle


def _ago(said: datetime, match: re.Match, question: bool) -> Span | None:
    """ "two weeks ago", "il y a trois jours", "vor einem Monat", "hace dos semanas", "há duas semanas", "三天前";
    and ahead, "in three days": about that day (AGO_SPREAD)."""
    number = _number(_group(match, "n") or "")
    unit = AGO_UNIT_OF.get((_group(match, "unit") or "").lower())
    if number is None or unit is None or number > 1000:
        return None
    if _group(match, "ahead") and question:
        return None  # "how much did it grow in two weeks?": a question's "in two weeks" is how long, not when
    sign = 1 if _group(match, "ahead") else -1
    if unit in ("minutes", "hours"):
        day = (said + sign * timedelta(**{unit: number})).date()
        return day, day
    day = said.date() + _units(unit, sign * number)
    spread = timedelta(days=AGO_SPREAD[unit])
    return day - spread, day + spread


def _lately(said: datetime, match: re.Match, question: bool) -> Span | None:
    """ "the past two weeks", "ces derniers jours", "in den letzten drei Tagen", "过去三天": up to the day said."""
    word = _group(match, "n")
    number = _number(word) if word else (3 if (_group(match, "unit") or "").lower().endswith(("s", "en")) else 1)
    unit = AGO_UNIT_OF.get((_group(match, "unit") or "").lower())
    if number is None or unit is None or unit in ("minutes", "hours") or number > 1000:
        return None
    today = said.date()
    return today - _units(unit, number), today


def _units(unit: str, number: int) -> relativedelta:
    """`number` days, weeks, months or years on the calendar."""
    if unit == "days":
        return relativedelta(days=number)
    if unit == "weeks":
        return relativedelta(weeks=number)
    if unit == "months":
        return relativedelta(months=number)
    return relativedelta(years=number)


def _nearest(candidates: list[date], today: date, question: bool) -> date | None:
    """Of the days a name may mean: in a question the last one up to `today`, else the nearest one."""
    if question:
        return max((d for d in candidates if d <= today), default=None)
    return min(candidates, key=lambda d: (abs((d - today).days), d > today), default=None)


def _on(today: date, month: int, day: int, year: int | None, question: bool) -> Span | None:
    years = [year] if year is not None else [today.year - 1, today.year, today.year + 1]
    candidates = []
    for y in years:
        try:
            candidates.append(date(y if y >= 100 else 2000 + y, month, day))
        except ValueError:
            continue
    found = candidates[0] if year is not None and candidates else _nearest(candidates, today, question)
    return (found, found) if found else None


def _date_in_words(said: datetime, match: re.Match, question: bool) -> Span | None:
    """A date with a month's name: "March 16th, 2023", "the 16th of March", "16 mars", "am 16. März", "3 de mayo"."""
    text = match.group(0).lower()
    month = next((MONTH_OF[w] for w in WORD.findall(text) if w in MONTH_OF), None)
    day = re.search(r"(?<!\d)\d{1,2}(?!\d)", text)
    year = re.search(r"(?<!\d)\d{4}(?!\d)", text)
    if month is None or day is None:
        return None
    return _on(said.date(), month, int(day.group(0)), int(year.group(0)) if year else None, question)


def _date_in_numbers(said: datetime, match: re.Match, question: bool) -> Span | None:
    """ "2023-05-02", "2.5.2023", "2023年5月2日", "5月2日"."""
    if match.groupdict().get("iso"):
        try:
            found = date.fromisoformat(match.group("iso"))
        except ValueError:
            return None
        return found, found
    year = _group(match, "y")
    month, day = _number(_group(match, "m") or ""), _number(_group(match, "d") or "")
    if month is None or day is None:
        return None
    return _on(said.date(), month, day, int(year) if year else None, question)


def _month(said: datetime, match: re.Match, question: bool) -> Span | None:
    """A month: "in May", "im Mai", "May 2023", "2023年5月", "五月", "last May", "mai dernier"."""
    word = (_group(match, "month") or "").lower()
    month = MONTH_OF.get(word) or _number(_group(match, "m") or "")
    if month is None or not 1 <= month <= 12:
        return None
    today = said.date()
    year = _group(match, "y")
    which = (_group(match, "which") or "").lower()
    if year:
        first = date(int(year), month, 1)
    elif which in ("last",) or _group(match, "past"):
        first = date(today.year - (month >= today.month), month, 1)
    elif which == "next":
        first = date(today.year + (month <= today.month), month, 1)
    elif which == "this":
        first = date(today.year, month, 1)
    else:
        nearest = _nearest([date(today.year + k, month, 1) for k in (-1, 0, 1)], today.replace(day=1), question)
        if nearest is None:
            return None
        first = nearest
    return _month_of(first)


def _year(said: datetime, match: re.Match, question: bool) -> Span | None:
    year = int(_group(match, "y") or 0)
    return (date(year, 1, 1), date(year, 12, 31)) if 1900 <= year <= 2100 else None


def _day_in_month(said: datetime, match: re.Match, question: bool) -> Span | None:
    """ "on the 3rd", "le 3", "am 3.", "el 3", "dia 3", "3号": the last such day (a question) or the nearest."""
    if match.group("d7"):
        return None  # "the 27th" alone may be the 27th of anything
    number = _number(_group(match, "d") or "")
    if number is None or not 1 <= number <= 31:
        return None
    today = said.date()
    candidates = []
    for months in (-1, 0, 1):
        try:
            candidates.append((today.replace(day=1) + relativedelta(months=months)).replace(day=number))
        except ValueError:
            continue  # a month without that day
    found = _nearest(candidates, today, question)
    return (found, found) if found else None


def _weekday_named(said: datetime, match: re.Match, question: bool) -> Span | None:
    """A weekday: "last Tuesday", "mardi dernier", "letzten Dienstag", "el martes pasado", "na terça passada", "上周二"
    are the last one before the day said; "next Friday", "this Friday", "下周五" as a due time reads them; a weekday
    alone ("on Saturday") is the last one before the day said in a question, and nothing in a message."""
    today = said.date()
    han = _group(match, "handay")
    if han:
        weekday = "一二三四五六".find(han) if han in "一二三四五六" else 6
        which = _group(match, "hanwhich") or ""
        week = -1 if which == "上" else (1 if which == "下" else 0)
        day = _week_of(today + timedelta(weeks=week))[0] + timedelta(days=weekday)
        return day, day
    name = (_group(match, "lastday") or "").lower()
    if name:
        weekday = WEEKDAY_OF[name]
        day = today - timedelta(days=(today.weekday() - weekday) % 7 or 7)
        return day, day
    if not (question and match.group("prep")) and not match.group("pre") and not match.group("post"):
        return None  # "the Sunday mass": a weekday alone is read in a question only after "on" ("am", "el"…)
    reading = _Reading(said)
    if not _weekday(reading, match):
        return None
    assert reading.weekday is not None
    weekday, mode = reading.weekday
    if mode == "coming":  # the weekday alone, in a question
        day = today - timedelta(days=(today.weekday() - weekday) % 7 or 7)
        return day, day
    due = _resolve(reading)
    return (due.date(), due.date()) if due else None


_HAN_WEEKDAY = r"(?P<hanwhich>上|下|这|這|本)(?:个|個)?(?:周|週|星期|礼拜|禮拜)(?P<handay>[一二三四五六日天])"
_LAST_WEEKDAY = (
    rf"{_AT_BOUNDARY}(?:on\s++|am\s++)?{_LAST}\s++(?P<lastday>{_alternatives(WEEKDAY_OF)}){_END}"
    rf"|{_AT_BOUNDARY}(?:(?:el|na|no|le)\s++)?(?P<lastday2>{_alternatives(WEEKDAY_OF)})(?:-feira)?\s++{_PAST_WORDS}{_END}"
)
# The words that start a word share one boundary, and "三天前" and "三天后" one reading up to the last word, tried once
# at each place rather than once for each (what follows a number and a unit tells them apart: a place holds at most
# one of them). tests/test_duetime.py compares it with each alternative written out.
_AGO = (
    rf"{_AT_BOUNDARY}(?:(?:(?P<n>{_NUM})\s++(?P<unit>{_AGO_UNIT})\s++(?:ago|back|earlier|atrás|atras)"
    rf"|(?:il\s+y\s+a|vor|hace|há|ha)\s++(?P<n2>{_NUM})\s++(?P<unit2>{_AGO_UNIT}))(?![\w'’])"
    rf"|(?P<ahead>(?:in|dans|en|em|daqui\s+a)\s++(?P<n4>{_NUM})\s++(?P<unit4>{_AGO_UNIT})(?![\w'’])"
    r"(?!\s+(?:ago|back|earlier))))"
    rf"|(?P<n3>{_HAN_NUM})\s*(?P<unit3>{_AGO_UNIT})\s*(?:前|以前|之前|(?P<ahead2>后|以后|之后|後))"
)
_LATELY = (
    rf"{_AT_BOUNDARY}(?:(?:(?:the|these)\s+(?:past|last)|past)\s++(?:(?P<n>{_NUM})\s++)?(?P<unit>{_AGO_UNIT})(?![\w'’])"
    rf"|(?:les|ces)\s++(?:(?P<n2>{_NUM})\s++)?(?:derniers|dernières|dernieres)\s++(?P<unit2>{_AGO_UNIT})(?![\w'’])"
    rf"|(?:in\s+)?den\s+letzten\s++(?:(?P<n3>{_NUM})\s++)?(?P<unit3>{_AGO_UNIT})(?![\w'’])"
    rf"|(?:los|las|n?os|n?as)\s+(?:últimos|últimas|ultimos|ultimas)\s++(?:(?P<n4>{_NUM})\s++)?"
    rf"(?P<unit4>{_AGO_UNIT})(?![\w'’]))"
    rf"|(?:过去|過去|最近)(?:\s*(?P<n5>{_HAN_NUM}))?\s*(?P<unit5>天|周|週|个星期|個星期|个月|個月|年)"
)
_MONTH_NAMED = (
    rf"{_AT_BOUNDARY}(?P<month>{_MONTH})\.?\s++(?:(?:de|of)\s++)?(?P<y>(?:19|20)\d\d)(?![\d'’])"
    r"|(?P<y2>(?:19|20)\d\d)\s*年\s*(?P<m>\d{1,2})\s*月(?!\s*\d)"
    rf"|{_AT_BOUNDARY}(?:(?:in|during|since|en|im|em|durant|pendant|während|durante|no\s+mês\s+de|au\s+mois\s+de)\s++"
    rf"(?:(?:early|late|mid)[- ]?\s*)?|(?P<which>last|this|next)\s++)(?P<month2>{_MONTH}){_END}"
    r"(?:\s+(?:de\s+)?(?P<y3>(?:19|20)\d\d)(?![\d'’]))?"
    rf"(?P<past>\s+{_PAST_WORDS}{_END})?"
    rf"|(?<![\d年个個几幾])(?P<m2>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])\s*月(?:份)?(?!\s*[\d一二三四五六七八九十]+\s*[日号號])"
)
_YEAR = (
    r"(?:\b(?:in|during|since|en|em|durant|pendant|während|durante|im\s+jahr(?:e)?|in\s+the\s+year|no\s+ano\s+de|"
    r"en\s+el\s+año|en\s+l['’]an)\s+)(?P<y>(?:19|20)\d\d)(?![\d'’]|\s*[-/.:]\d)|(?P<y2>(?:19|20)\d\d)\s*年(?!\s*\d)"
)
_YESTERDAY = (
    r"\b(?:yesterday|last\s+night|hier\s+(?:soir|matin|midi|après-midi|apres-midi)|(?:depuis\s+|d['’])hier"
    r"|gestern|ayer|anoche|ontem)\b|昨天|昨日|昨晚|昨夜"
)
_BEFORE_YESTERDAY = (
    r"\b(?:the\s+day\s+before\s+yesterday|avant[- ]hier|vorgestern|antes\s+de\s*ayer|anteayer"
    r"|anteontem)\b|前天"
)
_TODAY = (
    r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening)|aujourd['’]hui|ce\s+(?:matin|soir)"
    r"|heute|hoy|esta\s+(?:mañana|tarde|noche|noite|manhã)|hoje)\b|今天|今日|今晚|今早"
)
_CALENDAR = {
    ("week", -1): (
        r"\b(?:last\s+week|la\s+semaine\s+(?:dernière|derniere|passée|passee)|(?:letzte|vergangene)\s+woche"
        r"|la\s+semana\s+pasada|semana\s+passada)\b|上周(?![一二三四五六日天末])"
        r"|上(?:个|個)?(?:星期|礼拜|禮拜)(?![一二三四五六日天])"
    ),
    ("week", 0): (
        r"\b(?:this\s+week|cette\s+semaine|diese\s+woche|esta\s+semana|nesta\s+semana)\b"
        r"|这周(?![一二三四五六日天末])|本周(?![一二三四五六日天末])|這週(?![一二三四五六日天末])"
    ),
    ("week", 1): _NEXT_WEEK,
    ("weekend", -1): (
        r"\b(?:last\s+weekend|le\s+week-?end\s+dernier|(?:letztes|vergangenes|letzten|vergangenen)\s+wochenende"
        r"|el\s+fin\s+de\s+semana\s+pasado|fim\s+de\s+semana\s+passado)\b|上(?:个|個)?(?:周末|週末)"
    ),
    ("weekend", 0): _WEEKEND,
    ("month", -1): (
        r"\b(?:last\s+month|le\s+mois\s+dernier|(?:letzten|vergangenen)\s+monat|el\s+mes\s+pasado"
        r"|mês\s+passado)\b|上个月|上個月"
    ),
    ("month", 0): (
        r"\b(?:this\s+month|ce\s+mois(?:-ci)?|diesen\s+monat|este\s+mes|(?:n?este)\s+mês)\b"
        r"|这个月|這個月|本月"
    ),
    ("month", 1): _NEXT_MONTH,
    ("year", -1): (
        r"\b(?:last\s+year|l['’]année\s+(?:dernière|derniere)|l['’]an\s+dernier"
        r"|(?:letztes|vergangenes|letzten|vergangenen)\s+jahr|el\s+año\s+pasado|ano\s+passado)\b|去年"
    ),
    ("year", 0): r"\b(?:this\s+year|cette\s+année|dieses\s+jahr|este\s+año|(?:n?este)\s+ano)\b|今年",
    ("year", 1): (
        r"\b(?:next\s+year|l['’]année\s+prochaine|l['’]an\s+prochain|nächstes\s+jahr"
        r"|el\s+(?:año\s+que\s+viene|próximo\s+año)|(?:ano\s+que\s+vem|próximo\s+ano))\b|明年"
    ),
}


# Each pattern with the words one of which a text must hold for it to match: DIGIT stands for a digit, HAN for a
# character of days in Chinese, None for none needed; and the further sets of words a text written in ASCII must hold
# one of each of (below). A question compiles only the patterns its words may match.
_UNIT_WORDS = frozenset(AGO_UNIT_OF) | {HAN}
_BEFORE_YESTERDAY_WORDS = frozenset({"yesterday", "hier", "vorgestern", "ayer", "anteayer", "anteontem", HAN})
_YESTERDAY_WORDS = frozenset({"yesterday", "night", "hier", "gestern", "ayer", "anoche", "ontem", HAN})
_TODAY_WORDS = frozenset({"today", "tonight", "this", "aujourd", "ce", "heute", "hoy", "esta", "hoje", HAN})
_TOMORROW_WORDS = frozenset({"tomorrow", "demain", "morgen", "mañana", "amanhã", "übermorgen", "pasado", HAN})
_WEEKDAY_WORDS = frozenset(w for word in WEEKDAY_OF for w in WORD.findall(word)) | {HAN}
_MONTH_WORDS = frozenset(MONTH_OF) | {DIGIT, HAN}
_ONLY_DIGITS = frozenset({DIGIT})
# The words one of which "last week", "le mois prochain", "l'an dernier"… hold, by the stretch they name.
_CALENDAR_WORDS = {
    "week": frozenset(w for w, unit in AGO_UNIT_OF.items() if unit == "weeks") | {HAN},
    "weekend": frozenset(w for w, unit in AGO_UNIT_OF.items() if unit == "weeks") | {"weekend", "wochenende", HAN},
    "month": frozenset(w for w, unit in AGO_UNIT_OF.items() if unit == "months") | {HAN},
    "year": frozenset(w for w, unit in AGO_UNIT_OF.items() if unit == "years") | {"an", HAN},
}
# In a text written in ASCII, a pattern's words can be only those words themselves, in either case: no other letter
# stands in for one of theirs (as the long s "ſ" does for "s" when case is ignored) and no Chinese character runs into
# them (as the boundary of a word allows): so such a text holds one word of each of a rule's further sets too when the
# pattern matches it. (The alternatives written with letters beyond ASCII, "há", "三天前", match no such text.)
# A number said ahead of its unit: "two", "a" of "a couple of", "forty" of "forty-five", or a digit.
_NUMBER_WORDS = frozenset(WORD.findall(word)[0] for word in _NUMBERS) | {DIGIT}
# "the past two weeks", "ces derniers jours", "in den letzten drei Tagen", "los últimos tres días".
_LATELY_WORDS = frozenset("past last derniers dernières dernieres letzten últimos últimas ultimos ultimas".split())
# The word that says which one in "last week", "ce mois-ci", "nächstes Jahr", "la semana que viene"…, by its offset.
_WHICH_WORDS = {
    -1: frozenset(
        """last dernier dernière derniere passée passee letzte letztes letzten vergangene vergangenes vergangenen
        pasado pasada passado passada""".split()
    ),
    0: frozenset("this ce cette diese dieses diesen esta este nesta neste".split()),
    1: frozenset(
        """next prochain prochaine suivante nächste nächstes nächsten kommende kommenden que próximo proximo próxima
        proxima""".split()
    ),
}
_WEEKEND_WHICH_WORDS = _WHICH_WORDS[0] | {"the", "am", "diesem", "el", "no"}  # "the weekend", "am Wochenende"…
# The word before a year ("in 2023", "im Jahr 2023", "no ano de 2023") and before a day of the month ("on the 3rd",
# "le 3", "am 3.", "el 3", "dia 3").
_BEFORE_YEAR_WORDS = frozenset("in during since en em durant pendant während durante im no".split())
_BEFORE_DAY_WORDS = frozenset("the le am el dia".split())
_NOT_IN_ASCII = (frozenset[str](),)  # a pattern of Chinese characters ("5月2日"): no word of none is held


class PeriodRule(NamedTuple):
    """A pattern of days, with the words a text must hold for it to run."""

    needs: frozenset[str] | None  # a text must hold one of these words (DIGIT, HAN); None: none needed
    ascii_needs: tuple[frozenset[str], ...]  # and, written in ASCII, one word of each of these
    source: str
    flags: int
    handler: PeriodHandler


_PERIOD_RULES: list[PeriodRule] = [
    PeriodRule(_ONLY_DIGITS, (), r"(?<!\d)(?P<iso>\d{4}-\d{2}-\d{2})(?!\d)", 0, _date_in_numbers),
    PeriodRule(_ONLY_DIGITS, _NOT_IN_ASCII, _HAN_DATE, 0, _date_in_numbers),
    PeriodRule(_ONLY_DIGITS, (), _NUMERIC_DATE, 0, _date_in_numbers),
    PeriodRule(_ONLY_DIGITS, (), _ENGLISH_DATE, re.IGNORECASE, _date_in_words),
    PeriodRule(_ONLY_DIGITS, (), _NAMED_DATE, re.IGNORECASE, _date_in_words),
    PeriodRule(_UNIT_WORDS, (_NUMBER_WORDS,), _AGO, re.IGNORECASE, _ago),
    PeriodRule(_UNIT_WORDS, (_LATELY_WORDS,), _LATELY, re.IGNORECASE, _lately),
    PeriodRule(_BEFORE_YESTERDAY_WORDS, (), _BEFORE_YESTERDAY, re.IGNORECASE, _day(-2)),
    PeriodRule(_TOMORROW_WORDS, (), _DAY_AFTER_TOMORROW, re.IGNORECASE, _day(2)),
    PeriodRule(_YESTERDAY_WORDS, (), _YESTERDAY, re.IGNORECASE, _day(-1)),
    PeriodRule(_TODAY_WORDS, (), _TODAY, re.IGNORECASE, _day(0)),
    PeriodRule(_TOMORROW_WORDS, (), _TOMORROW, re.IGNORECASE, _day(1)),
    *(
        PeriodRule(
            _CALENDAR_WORDS[unit],
            (_WEEKEND_WHICH_WORDS if (unit, offset) == ("weekend", 0) else _WHICH_WORDS[offset],),
            pattern,
            re.IGNORECASE,
            _calendar(unit, offset),
        )
        for (unit, offset), pattern in _CALENDAR.items()
    ),
    PeriodRule(_WEEKDAY_WORDS, (), _HAN_WEEKDAY + "|" + _LAST_WEEKDAY, re.IGNORECASE, _weekday_named),
    PeriodRule(_WEEKDAY_WORDS, (), _WEEKDAY, re.IGNORECASE, _weekday_named),
    PeriodRule(_MONTH_WORDS, (), _MONTH_NAMED, re.IGNORECASE, _month),
    PeriodRule(_ONLY_DIGITS, (_BEFORE_YEAR_WORDS,), _YEAR, re.IGNORECASE, _year),
    PeriodRule(_ONLY_DIGITS, (_BEFORE_DAY_WORDS,), _DAY_OF_MONTH, re.IGNORECASE, _day_in_month),
]
_compile = lru_cache(maxsize=None)(re.compile)


def _period_patterns(
    tokens: frozenset[str] | None = None, in_ascii: bool = False
) -> list[tuple[re.Pattern, PeriodHandler]]:
    """The patterns of days, in the order they are tried (a word is read once, by the first that takes it): those a
    text of these `tokens` (its words, DIGIT, HAN; `in_ascii`: a text written in ASCII) may match, or all of them. Each
    is compiled on first use."""
    return [
        (_compile(rule.source, rule.flags), rule.handler)
        for rule in _PERIOD_RULES
        if tokens is None
        or (
            (rule.needs is None or not rule.needs.isdisjoint(tokens))
            and not (in_ascii and any(words.isdisjoint(tokens) for words in rule.ascii_needs))
        )
    ]


def read_periods(text: str, said: datetime, question: bool = False) -> list[Period]:
    """The stretches of days `text` refers to, read relative to `said` (an aware instant, in the speaker's zone when
    known; naive is UTC), in the order they are written: at most PERIODS_READ. `question`: the text asks about what
    was said before (a name alone is the last one; see above)."""
    tokens = day_tokens(text)
    if tokens is None:
        return []
    if said.tzinfo is None:
        said = said.replace(tzinfo=timezone.utc)
    found: list[Period] = []
    taken: list[tuple[int, int]] = []
    for handle, match in _unread(text, _period_patterns(tokens, text.isascii()), taken):
        try:
            days = handle(said, match, question)
        except (ValueError, OverflowError):
            days = None  # a date beyond the calendar
        if days is None:
            continue
        taken.append(match.span())
        phrase = " ".join(match.group(0).split())[:PHRASE_LIMIT]
        found.append(Period(days[0], days[1], phrase, match.span()))
        if len(found) >= PERIODS_READ:
            break
    return sorted(found, key=lambda p: p.span)


def zone_of(local: str | None, timestamp: str | None) -> timezone | None:
    """The speaker's UTC offset from OpenClaw's local-time stamp (`Signal.local`: "2026-03-08T22:03+09:00", or
    without the offset when the stamp named a zone by its abbreviation, then worked out from the message's UTC
    time); None when it cannot be told."""
    if not local:
        return None
    try:
        stamped = datetime.fromisoformat(local)
    except ValueError:
        return None
    if stamped.tzinfo is not None:
        offset = stamped.utcoffset()
        return timezone(offset) if offset is not None else None
    from ..timeutil import parse_instant

    instant = parse_instant(timestamp)
    if instant is None:
        return None
    seconds = (stamped - instant.replace(tzinfo=None)).total_seconds()
    quarters = round(seconds / 900)
    if abs(quarters) > 14 * 4:
        return None
    return timezone(timedelta(minutes=15 * quarters))
