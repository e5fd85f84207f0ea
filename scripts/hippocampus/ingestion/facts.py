"""What a statement asserts, as the same-fact test reads it: its topic terms, its values (numbers, dates, names),
which value is said of what, and whether it says a value changed. Pure.

Same fact means the same topic (weighted word overlap of at least SAME_TOPIC) *and* no value of the new statement
missing from the older one or said there of something else. "The locker code for unit 12 is 4417" and "… unit 19 is
8803" are two facts however alike their words, and so are "the gate code is 12" and "the gate code is 1290 and the
alarm code is 12"; "my locker code is now 5521" says a value changed ("now", "moved", "new", …) and updates the
memory that held the old one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import Memory
from ..terms import CHANGE_WORDS, DIGIT, topic_terms, without_said
from ..text import label, words, SENTENCE_BREAK

SAME_TOPIC = 0.7

_DAY_NAMES = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may "
    "june july august september october november december".split()
)
NUMBER = re.compile(r"\d+(?:[.:,/\-]\d+)*")
CAPITAL = re.compile(r"\b[A-Z][\w'’-]*")


def values_of(text: str) -> set[str]:
    """What makes a fact this fact: its numbers, dates and times, names, and day or month names."""
    text = without_said(text)
    return _values(text, _numbers(text), words(text))


def _numbers(text: str) -> set[str]:
    return {m.group(0).strip(".,:/-") for m in NUMBER.finditer(text)}


def _values(text: str, numbers: set[str], found_words: list[str]) -> set[str]:
    found = set(numbers)
    for sentence in SENTENCE_BREAK.split(text):
        for match in CAPITAL.finditer(sentence.strip()):
            word = match.group(0).lower().replace("’", "'")
            if match.start() == 0 or word in ("i", "user", "user's") or word.startswith(("i'", "user")):
                continue
            found.add(word.removesuffix("'s"))
    found |= _DAY_NAMES.intersection(found_words)
    return {v for v in found if v}


# Where one statement of a message ends and the next begins: "the gate code is 1290 and the alarm code is 12". A
# joining word is tried from the first space of a run only (the lookbehind), after line breaks too: tried from every
# space, `\s+` would read the rest of the run each time (a PDF's run of Unicode spaces).
_CLAUSE_END = re.compile(r"[.;!?]\s+|,\s+|(?<!\s)\s+(?:and|but|while|whereas|plus)\s+|\n+", re.IGNORECASE)


def bindings(text: str) -> dict[str, set[str]]:
    """Each value of a text → the topic terms said with it (in the same clause): what the value is about."""
    out: dict[str, set[str]] = {}
    for clause in _CLAUSE_END.split(without_said(text)):
        found = _tokens(clause)
        if not found:
            continue
        topic = topic_terms(clause)
        for value in values_of(clause) | {v for v in found if DIGIT.search(v)}:
            out.setdefault(value, set()).update(topic - {value})
    return out


def misbound(new: dict[str, set[str]], old: dict[str, set[str]]) -> bool:
    """A value both texts hold is said of something else in the newer one: the newer text says it with a word the
    older one says only of another value ("the gate code is 12" after "the gate code is 1290 and the alarm code is
    12"). Words the older text does not say of a value, and values said alone, prove nothing either way."""
    for value, said_with in new.items():
        before = old.get(value)
        if not before:
            continue
        elsewhere = set().union(*(words for other, words in old.items() if other != value))
        if (said_with & elsewhere) - before:
            return True
    return False


def _tokens(text: str) -> set[str]:
    """Every word and number of a text, to test whether a value appears in it."""
    text = without_said(text)
    return set(words(text)) | {m.group(0).strip(".,:/-") for m in NUMBER.finditer(text)}


# "instead of MySQL", "no longer Berlin", "switched from Slack": the value named here is the one being replaced.
_REPLACED = re.compile(
    r"\b(?:instead of|rather than|no longer(?: in| at| with| on| uses?)?|switched from|moved from"
    r"|changed from|replaced)\s+(?:the |a |an |our |my |their )?([\w'’-]+(?:\s\d[\d.:,/-]*)?)",
    re.IGNORECASE,
)


def replaced_values(text: str) -> set[str]:
    """Values a text says are being replaced ("we use Postgres instead of MySQL" → {"mysql"})."""
    out: set[str] = set()
    for match in _REPLACED.finditer(without_said(text)):
        out |= _tokens(match.group(1))
    return out


@dataclass
class Fact:
    """What the same-fact test reads of a text: its topic terms, values, tokens and replaced values, read once from
    `content`. Every Draft is one; so is a stored memory seen as the newer side of `relation` (consolidation
    compares memories with memories)."""

    content: str
    topic: set[str] = field(init=False)
    values: set[str] = field(init=False)
    tokens: set[str] = field(init=False)
    replaced: set[str] = field(init=False)

    def __post_init__(self):
        text = without_said(self.content)
        found_words, numbers = words(text), _numbers(text)
        self.topic = topic_terms(self.content)
        self.values = _values(text, numbers, found_words)
        self.tokens = set(found_words) | numbers
        self.replaced = replaced_values(self.content)

    @property
    def changes(self) -> bool:
        return bool(self.tokens & CHANGE_WORDS)

    @property
    def bindings(self) -> dict[str, set[str]]:
        """Each value → the words said with it (read when first asked: most comparisons never need it)."""
        found = self.__dict__.get("_bindings")
        if found is None:
            found = self.__dict__["_bindings"] = bindings(self.content)
        return found


def relation(draft: Fact, memory: Memory | Fact, similarity: float) -> str | None:
    """ "reinforce" (the same fact), "update" (the same thing with a changed value) or None (another fact).

    `draft` is the newer text (a draft of a new memory, or a stored memory as a Fact); `memory` the older one.
    """
    if similarity < SAME_TOPIC:
        return None
    if label(draft.content) != label(memory.content):
        return None  # "Nate: Bye!" and "Joanna: Bye Nate!": what one person says is not what another says
    old = memory if isinstance(memory, Fact) else Fact(memory.content)
    old_values = old.values
    new_only = draft.values - old.tokens
    if not new_only and not misbound(draft.bindings, old.bindings):
        return "reinforce"
    kept = draft.tokens - draft.replaced  # "Postgres instead of MySQL" no longer holds MySQL
    old_only = old_values - kept
    if draft.changes and old_only:
        if len(old_values) >= 2 and not (draft.values & old_values):
            return None  # every value differs, the qualifier too ("unit 19" is not "unit 12")
        return "update"
    return None
