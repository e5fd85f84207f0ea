"""The words that name days, in English, French, German, Spanish, Portuguese and Chinese: the units of time, the
days of the week, the months, the parts of the day; and whether a text may name a day at all, which is all a search
of a question that names none needs to know (the patterns that read days, in `duetime`, are built only past it)."""

from __future__ import annotations

import re

from .text import by_word

UNITS = {
    "minutes": "minute minutes min mins minuto minutos minuten 分钟 分鐘",
    "hours": "hour hours hr hrs h heure heures stunde stunden hora horas 小时 个小时 個小時 小時 钟头 個鐘頭",
    "days": "day days jour jours tag tage tagen día días dia dias 天",
    "weeks": "week weeks semaine semaines woche wochen semana semanas 周 个星期 個星期 星期 礼拜 个礼拜",
    "months": "month months mois monat monate monaten mes meses mês 个月 個月",
}
UNIT_OF = by_word(UNITS)

WEEKDAY_NAMES = {
    0: "monday lundi montag lunes segunda-feira segunda 星期一 周一 礼拜一",
    1: "tuesday mardi dienstag martes terça-feira terca-feira terça terca 星期二 周二 礼拜二",
    2: "wednesday mercredi mittwoch miércoles miercoles quarta-feira quarta 星期三 周三 礼拜三",
    3: "thursday jeudi donnerstag jueves quinta-feira quinta 星期四 周四 礼拜四",
    4: "friday vendredi freitag viernes sexta-feira sexta 星期五 周五 礼拜五",
    5: "saturday samedi samstag sonnabend sábado sabado 星期六 周六 礼拜六",
    6: "sunday dimanche sonntag domingo 星期日 星期天 周日 周天 礼拜天 礼拜日",
}
WEEKDAY_OF = by_word(WEEKDAY_NAMES)

MONTH_NAMES = {
    1: "january jan janvier januar jänner enero janeiro",
    2: "february feb février fevrier februar febrero fevereiro",
    3: "march mar mars märz maerz marzo março marco",
    4: "april apr avril abril",
    5: "may mai mayo maio",
    6: "june jun juin juni junio junho",
    7: "july jul juillet juli julio julho",
    8: "august aug août aout agosto",
    9: "september sep sept septembre setembro septiembre setiembre",
    10: "october oct octobre oktober octubre outubro",
    11: "november nov novembre noviembre novembro",
    12: "december dec décembre decembre dezember diciembre dezembro",
}
MONTH_OF = by_word(MONTH_NAMES)

PART_OF = {
    "morning": "morning matin morgen früh vormittag morgens manhã mañana 上午 早上 早晨",
    "noon": "noon midday midi mittag mittags mediodía meio-dia 中午",
    "afternoon": "afternoon après-midi apres-midi nachmittag nachmittags tarde 下午",
    "evening": "evening soir abend abends 傍晚 晚上",
    "night": "night nuit nacht nachts noche noite 夜里 夜裡",
}
PART_WORD = by_word(PART_OF)

AGO_UNIT_OF = {
    **UNIT_OF,
    **dict.fromkeys("year years yr yrs ans année années jahr jahre jahren año años ano anos 年".split(), "years"),
}

DIGIT, HAN = "0", "中"
WORD = re.compile(r"[^\W\d_]+")  # a word of letters, in any script


# Words without which no pattern of days matches (a text without them and without a digit is not read: the patterns
# are compiled, which takes a while, only when a text may name a day).
DAY_WORDS = frozenset(
    w for words in (WEEKDAY_OF, MONTH_OF, AGO_UNIT_OF) for word in words for w in WORD.findall(word)
) | frozenset(
    """yesterday today tonight tomorrow ago weekend hier aujourd demain soir matin semaine gestern heute morgen
    vorgestern übermorgen wochenende ayer anoche hoy mañana anteayer ontem hoje amanhã anteontem an night noche tarde
    noite manhã""".split()
)  # "an": l'an dernier; "night": last night; "noche", "tarde"…: esta noche
_DAY_CHARACTER = re.compile("[年月日号號天周週星期礼拜禮昨今明晚早]")  # one scan of the regex engine finds one
_DIGIT = re.compile(r"\d")


def may_name_days(text: str) -> bool:
    """Whether `text` may name a day (a digit, a word of days, months, weeks…, "this" with a part of the day): when
    not, it names none. ("coffee in the morning" names none.)"""
    return day_tokens(text) is not None


def day_tokens(text: str) -> frozenset[str] | None:
    """The words of a text that may name a day, with DIGIT for a digit and HAN for a Chinese word of days; None when
    it may name none."""
    found = set(WORD.findall(text.lower()))
    if _DIGIT.search(text):
        found.add(DIGIT)
    if _DAY_CHARACTER.search(text):
        found.add(HAN)
    if found.isdisjoint(DAY_WORDS) and not found & {DIGIT, HAN}:
        if not ("this" in found and not found.isdisjoint(PART_WORD)):
            return None
    return frozenset(found)
