"""The words a memory is found by: what ranking indexes of a memory (`document_terms`) and what the same-fact test
compares (`topic_terms`). Shared by the features that search and by the derived cache that stores both. Pure."""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

from .model import Memory
from .text import STOP_WORDS, may_contain, stem, terms, without_label, words
from .timeutil import parse_day

KEYWORD_WEIGHT = 0.5
CONTEXT_WEIGHT = 0.5
REPLY_WEIGHT = 0.25
HISTORY_WEIGHT = 0.5  # the values a memory held before ("what was her name before?" finds the memory that changed)
DATE_WEIGHT = 0.1  # the month and year a memory was made: "what did she do in May 2023" leans towards them
TIME_TERM = "_time"  # stands for "says when": no word typed can be it (an underscore splits words)
AGENT_SIDE = "_agent "  # before a term: the term in the agent's words around a memory (see document_terms)

# Words that say a value changed; they are not part of a fact's topic.
CHANGE_WORDS = frozenset(
    {
        "now",
        "changed",
        "change",
        "moved",
        "new",
        "instead",
        "anymore",
        "longer",
        "updated",
        "switched",
        "rescheduled",
        "postponed",
        "becomes",
        "became",
    }
)
IGNORED_TERMS = frozenset({"user", "user's"}) | CHANGE_WORDS
DIGIT = re.compile(r"\d")
# The date note a summary ends with, from the first space before it (tried from each space of a run, it would read
# the rest of the run each time).
SAID = re.compile(r"(?<!\s)\s*\(said \d{4}-\d{2}-\d{2}\)\Z")


class Piece(NamedTuple):
    """One searchable piece of a memory: its own statement (with its own sources) or one attached turn."""

    text: str
    sources: list[dict]
    turn: dict | None = None  # the attached turn, None for the memory's own statement


def agent_term(term: str) -> str:
    """The key a term is indexed under when the agent's words around a memory hold it."""
    return AGENT_SIDE + term


def agents(piece: Piece) -> bool:
    """Whether a piece is one of the agent's turns attached to the memory (its replies), not the user's words."""
    return piece.turn is not None and piece.turn.get("role") == "assistant"


def pieces(memory: Memory) -> list[Piece]:
    """The memory's statement (its content and the detail it left out), then its attached turns. The statement's
    sources that said its value as it is now come first: once a value changed, the message that changed it before
    the ones that said the older value (kept in its history)."""
    sources = [s for s in memory.sources if type(s) is dict]
    since = memory.extra.get("since")
    if isinstance(since, str) and since:
        sources = sorted(sources, key=lambda s: str(s.get("ts") or "")[:19] < since[:19])
    own = Piece(" ".join(t for t in (memory.content, stored_text(memory.raw.get("detail"))) if t), sources)
    return [own, *(Piece(t["text"], [t["source"]], t) for t in memory.episode)]


def stored_text(value) -> str:
    """A stored text field: a string, or (as older versions kept `context`) a list of words."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(w for w in value if isinstance(w, str))
    return ""


_MONTHS = "january february march april june july august september october november december"
_DAYS = "monday tuesday wednesday thursday friday saturday sunday"
# A text that says when: a date, a time of day, a day or month name, a year, "yesterday", "last week", "3 days ago".
# Every word it finds starts with a letter or a digit: the look-ahead passes over other places at once.
_SAYS_WHEN = re.compile(
    r"(?=\w)\b(?:yesterday|today|tonight|tomorrow|ago|recently|lately|(?:last|next|this|past|coming) "
    r"(?:week|weekend|month|year|night|morning|evening|summer|winter|spring|fall|autumn|"
    + _DAYS.replace(" ", "|")
    + r")|"
    + _MONTHS.replace(" ", "|")
    + r"|"
    + _DAYS.replace(" ", "|")
    + r"|weekend|(?:19|20)\d\d|may \d|\d+ may"
    r"|in may|\d{1,2}(?::\d\d)? ?(?:am|pm)|\d{1,2}:\d\d|\d{4}-\d\d-\d\d)\b",
    re.IGNORECASE,
)
# The same pattern for lower-case text: on ASCII text, lowering it first finds the same and is twice as fast (the
# case-insensitive match also knows characters beyond ASCII, such as the long s, that lowering does not change).
_SAYS_WHEN_LOWER = re.compile(_SAYS_WHEN.pattern)


def says_when(text: str) -> bool:
    """Whether a text says when something happened: a date, a time, a day, a month or a year."""
    if text.isascii():
        return _SAYS_WHEN_LOWER.search(text.lower()) is not None
    return _SAYS_WHEN.search(text) is not None


def _add_text(counts: Counter[str], text: str) -> None:
    """Add a text's term counts to `counts`, and TIME_TERM when it says when (once, however many texts do)."""
    counts.update(terms(text))
    if TIME_TERM not in counts and says_when(text):
        counts[TIME_TERM] = 1


def text_terms(text: str) -> Counter[str]:
    """Term counts of one text, with TIME_TERM once when it says when."""
    counts: Counter[str] = Counter()
    _add_text(counts, text)
    return counts


def denser(tf: float, length: float, held: tuple[float, float] | None) -> bool:
    """Whether a term counted `tf` times in a piece of `length` is denser there than where it is `held` (count,
    length), or held nowhere yet: where a memory's term is counted (document_terms, search.rank)."""
    return held is None or tf * held[1] > held[0] * length


def document_terms(memory: Memory, claimed: bool = True) -> tuple[dict[str, tuple[float, float]], float]:
    """Each term of a memory with its weighted count and the length of the piece it is counted in, and the memory's
    average piece length. Its pieces: its statement — its content and the `detail` its summary left out, with its
    keywords at KEYWORD_WEIGHT, the values it held before at HISTORY_WEIGHT, the month and year it was made at
    DATE_WEIGHT, and the messages around it that it keeps: the `context` (the message it answered) at CONTEXT_WEIGHT,
    the `reply` (the message that followed it) at REPLY_WEIGHT — and each turn attached to it; TIME_TERM in each that
    says when. A term is counted in the piece where it is densest (its count over the piece's length): a memory
    matches as well as its best piece for each word, so a long reply attached to a short statement neither lends its
    many repeats to the statement nor hides it.

    The user's words and the agent's are counted apart, the agent's under agent_term(term): the agent's attached
    turns, the messages around the statement (in a chat with the agent, the agent's), and the whole statement of a
    memory of the agent's own (domain "self") are the agent's. A question about what the user said is matched against
    the user's words alone, any other against the denser of the two (search.rank).

    The statement also holds, once, a term for each attribute of whom its content states (claims.claim_terms:
    "_age@user" for "User is 34"), the values it held before theirs at HISTORY_WEIGHT: a question asking that
    attribute ("how old am I?") finds it whatever words it was said in. `claimed`: False leaves them out (search
    reads a hit's terms to say which words matched, and claims' patterns are not compiled for a recall)."""
    every = pieces(memory)
    statement: dict[str, float] = dict(text_terms(every[0].text))
    around: dict[str, float] = {}

    def add(counts: dict[str, float], found, weight: float) -> None:
        for term in found:
            counts[term] = counts.get(term, 0.0) + weight

    add(statement, terms(" ".join(memory.keywords)), KEYWORD_WEIGHT)
    for change in memory.changes:
        add(statement, terms(change.content), HISTORY_WEIGHT)
    if claimed:
        from .claims import claim_terms  # its patterns are compiled only where documents are indexed

        add(statement, sorted(claim_terms(without_said(memory.content), named=True)), 1.0)
        for change in memory.changes:
            add(statement, sorted(claim_terms(without_said(change.content), named=True)), HISTORY_WEIGHT)
    made = parse_day(memory.created)
    if made is not None:
        add(statement, terms(made.strftime("%B %Y")), DATE_WEIGHT)
    for name, weight in (("context", CONTEXT_WEIGHT), ("reply", REPLY_WEIGHT)):
        add(around, terms(stored_text(memory.raw.get(name))), weight)
    # The statement and the messages around it are one piece in length, their words counted on their sides; an
    # agent's own memory (domain "self": what it said of itself) is the agent's words throughout.
    length = float(sum(statement.values()) + sum(around.values())) or 1.0
    if memory.domain == "self":
        for term, tf in around.items():
            statement[term] = statement.get(term, 0.0) + tf
        out = {agent_term(term): (tf, length) for term, tf in statement.items()}
    else:
        out = {term: (tf, length) for term, tf in statement.items()}
        out.update((agent_term(term), (tf, length)) for term, tf in around.items())
    total = length
    for piece in every[1:]:
        counts = text_terms(piece.text)
        length = float(sum(counts.values())) or 1.0
        total += length
        side = agent_term if agents(piece) else str
        for term, tf in counts.items():
            key = side(term)
            if denser(tf, length, out.get(key)):
                out[key] = (float(tf), length)
    return out, total / len(every)


def memory_days(memory: Memory) -> list[tuple[int, int]]:
    """The days a memory is about, as (first, last) day numbers (date.toordinal), in order, overlapping and adjacent
    stretches joined: the days its messages were said (UTC) and the days they refer to (`Memory.dates`)."""
    found = [(d.first.toordinal(), d.last.toordinal()) for d in memory.dates]
    for value in [memory.created, *(s.get("ts") for s in memory.every_source())]:
        day = parse_day(value)
        if day is not None:
            found.append((day.toordinal(), day.toordinal()))
    joined: list[tuple[int, int]] = []
    for first, last in sorted(found):
        if joined and first <= joined[-1][1] + 1:
            joined[-1] = (joined[-1][0], max(joined[-1][1], last))
        else:
            joined.append((first, last))
    return joined


def days_text(days: list[tuple[int, int]]) -> str:
    """Stretches of days as the search cache keeps them: "738000-738006 738100-738100"."""
    return " ".join(f"{first}-{last}" for first, last in days)


def days_of_text(text: str) -> list[tuple[int, int]]:
    """The stretches of days `days_text` wrote."""
    out = []
    for part in text.split():
        first, _, last = part.partition("-")
        out.append((int(first), int(last)))
    return out


# Words that colour how a thing is said, not what it is about ("again please", "by the way", "I always take…").
# Negations ("never", "only", "rarely") are not among them: they change the fact.
_ASIDE_WORDS = (
    "by the way",
    "btw",
    "please",
    "pls",
    "again",
    "anyway",
    "always",
    "usually",
    "often",
    "sometimes",
    "really",
    "also",
    "just",
    "still",
    "generally",
    "normally",
    "typically",
    "mostly",
    "actually",
    "definitely",
    "absolutely",
    "totally",
    "already",
    "strongly",
)
_ASIDES = re.compile(r"\b(?:" + "|".join(map(re.escape, _ASIDE_WORDS)) + r")\b", re.IGNORECASE)  # one word a match


def without_said(text: str) -> str:
    """The text without the "(said <day>)" a memory of a relative time ends with."""
    return SAID.sub("", text) if "(said " in text else text


def topic_terms(text: str) -> set[str]:
    """The terms that say what a fact is about: its words minus numbers, stop words, change words and asides, the
    words of an attribute as that attribute (see claims.ATTRIBUTES), and which attributes of whom it states or names
    (claims.claim_terms: "my sister Claire" is about her name, which a later "her name isn't Claire" corrects)."""
    text = without_label(without_said(text))  # nor is who speaks
    if may_contain(text, _ASIDE_WORDS):
        text = _ASIDES.sub(" ", text)
    from .claims import attribute, claim_terms  # its patterns are compiled only where topics are read

    out = claim_terms(text, named=True)
    for word in words(text):
        found = attribute(word)
        if found is not None:
            out.add(found)
            if word.isascii():
                continue  # a CJK pair keeps its other character
        if word in STOP_WORDS or word in IGNORED_TERMS:
            continue
        term = stem(word)
        if term not in IGNORED_TERMS and (term.isalpha() or not DIGIT.search(term)):
            out.add(term)
    return out
