"""Explicit notes: the words that open a message the user wants kept ("Remember: …", "Note that …", "Don't forget
…", "FYI …") in English, French, German, Spanish, Portuguese and Chinese. Pure.

A message that opens with one is an explicit note: a core memory, stored without its opening words. The words of a
note are never a speaker's name ("Remember: the key is …" is not Remember speaking)."""

from __future__ import annotations

import re

# Words that open a note followed by a colon: never a speaker's label.
LABELS = (
    "remember",
    "note",
    "notes",
    "nb",
    "n.b",
    "ps",
    "p.s",
    "important",
    "reminder",
    "fyi",
    "todo",
    "update",
    "correction",
    "heads up",
    "warning",
    "rappel",
    "remarque",
    "attention",
    "wichtig",
    "hinweis",
    "notiz",
    "erinnerung",
    "korrektur",
    "nota",
    "importante",
    "recordatorio",
    "corrección",
    "correção",
    "lembrete",
    "aviso",
)

# How a note opens, by language: phrases that open one whatever follows, and words that do so before a colon.
_PHRASES = [
    # English
    r"(?:please\s+)?remember(?:\s+(?:that|this))?(?!\s+(?:when|how|what|where|who|why|if|whether|the\s+time)\b)",
    r"note\s+that",
    r"keep\s+in\s+mind(?:\s+(?:that|this))?",
    r"(?:don't|dont|do\s+not)\s+forget(?:\s+(?:that|this))?",
    r"fyi",
    r"for\s+your\s+information",
    r"just\s+so\s+you\s+know",
    # French
    r"rappelle[- ]toi(?:\s+(?:que|qu'|de))?",
    r"souviens[- ]toi(?:\s+(?:que|qu'|de))?",
    r"n['’]oublie\s+pas(?:\s+(?:que|qu'))?",
    r"retiens(?:\s+bien)?(?:\s+(?:que|qu'))?",
    r"note(?:\s+bien)?\s+que",
    r"garde\s+(?:en\s+tête|à\s+l['’]esprit)(?:\s+(?:que|qu'))?",
    r"pour\s+info",
    # German
    r"merk(?:e)?\s+dir(?:(?:\s*,)?\s*dass)?",
    r"denk(?:e)?\s+daran(?:(?:\s*,)?\s*dass)?",
    r"vergiss\s+nicht(?:(?:\s*,)?\s*dass)?",
    r"behalte\s+im\s+kopf(?:(?:\s*,)?\s*dass)?",
    r"zur\s+info",
    # Spanish
    r"recuerda(?:\s+que)?",
    r"acu[ée]rdate(?:\s+de)?(?:\s+que)?",
    r"no\s+olvides(?:\s+que)?",
    r"ten\s+en\s+cuenta(?:\s+que)?",
    r"que\s+no\s+se\s+te\s+olvide(?:\s+que)?",
    # Portuguese
    r"lembre[- ]se(?:\s+de)?(?:\s+que)?",
    r"lembra[- ]te(?:\s+de)?(?:\s+que)?",
    r"lembra\s+que",
    r"n[ãa]o\s+(?:te\s+)?esque[çc]as?(?:\s+de)?(?:\s+que)?",
    r"tenha\s+em\s+mente(?:\s+que)?",
]
_BEFORE_COLON = [
    r"note",
    r"n\.?b\.?",
    r"important",
    r"reminder",
    r"wichtig",
    r"notiz",
    r"importante",
    r"nota",
    r"aviso",
]
_CJK = [r"请记住", r"請記住", r"记住", r"記住", r"记得", r"記得", r"别忘了", r"別忘了", r"不要忘记", r"不要忘記"]
_CJK_BEFORE_COLON = [r"重要", r"注意", r"提醒", r"备注", r"備註"]

# The lead of a note at the start of a message, after small words ("ok, please remember: …"), with what separates
# it from the note.
LEAD = re.compile(
    r"\A\s*(?:(?:please|pls|oh|and|also|so|btw|by\s+the\s+way|hey|ok|okay|one\s+more\s+thing)[,:!]?\s+)*(?:"
    r"(?:" + "|".join(_PHRASES) + r")\b(?:\s*[:：,，\-–—]\s*|\s+)"
    r"|(?:" + "|".join(_BEFORE_COLON) + r")\s*[:：\-–—]\s*"
    r"|(?:" + "|".join(_CJK) + r")\s*[:：,，]?\s*"
    r"|(?:" + "|".join(_CJK_BEFORE_COLON) + r")\s*[:：]\s*"
    r")",
    re.IGNORECASE,
)


def lead(text: str) -> str | None:
    """The words that open `text` as an explicit note, as written (with their separator), or None."""
    found = LEAD.match(text)
    if found is None or not text[found.end() :].strip():
        return None  # a lead with nothing after it notes nothing
    return found.group(0)
