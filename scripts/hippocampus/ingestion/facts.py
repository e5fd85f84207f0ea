"""What a statement asserts, as the same-fact test reads it: what it is about (its frame: topic terms, an attribute
such as where someone lives), its values (numbers, dates, names), which value is said of what, whether it is
negated, which words qualify it ("this year", "next year"), and whether it corrects or changes something said
before ("No, actually…", "…, not Sofia", "we moved to…", "from now on…"), in the languages the skill reads. Pure.

The same fact again (the same frame, values, polarity and qualifiers) reinforces a memory. The same frame with a
new value, said as a change or a correction, updates it; so does the same frame negated ("I can't swim" after "I can
swim"): the store believes what was said last. A statement that says more, or less, or of something else ("my
wife's car" after "my car"), is another fact. "The locker code for unit 12 is 4417" and "… unit 19 is 8803" are two
facts however alike their words, and so are "the gate code is 12" and "the gate code is 1290 and the alarm code is
12".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..model import Memory
from .. import claims as claims_of
from ..claims import attribute
from ..terms import CHANGE_WORDS, DIGIT, topic_terms, without_said
from ..text import SENTENCE_BREAK, alternatives, label, terms, words

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


# Words that make a statement the opposite of another, in the languages the skill reads (Chinese: its characters).
NEGATIONS = frozenset(
    """not no never nor neither none nothing nobody without cannot can't don't doesn't didn't isn't aren't wasn't
    weren't won't wouldn't shouldn't couldn't haven't hasn't hadn't ain't mustn't needn't pas jamais aucun aucune ne
    nicht kein keine keinen keinem keiner keines nie niemals nunca jamás tampoco ninguno ninguna não nao nenhum
    nenhuma sans ohne sin sem""".split()
)
_CJK_NEGATIONS = ("不", "没", "沒", "别", "別", "未")
# Words that say which one of a kind a fact is about: "this year" is not "next year", "every day" not "one day".
QUALIFIERS = frozenset(
    """this next last previous coming past first second third fourth every each other both only ce cette prochain
    prochaine dernier dernière dieses diesen nächste nächstes letzte letzten este esta próximo próxima último
    última""".split()
)
# When a fact holds, not what it is about: a change of it ("we moved last month") is no other fact.
WHEN_WORDS = frozenset(
    """today tonight tomorrow yesterday day days week weeks weekend month months year years morning afternoon evening
    night ago soon later recently lately currently""".split()
)
# How a correction opens: "No, actually…", "Correction:", "Sorry, I got that wrong", "I mixed it up" (and in French,
# German, Spanish, Portuguese and Chinese).
_CORRECTION = re.compile(
    r"\A\s*(?:(?:no|nope|wait|oops|hmm|ah|oh|non|nein|não|nao|不|不对|不對)[,.!，。]?\s*)*(?:(?:"
    r"actually|in\s+fact|correction|my\s+(?:bad|mistake)"
    r"|sorry[,.!]?(?:(?:\s*,)?\s*i\s+(?:got\s+(?:that|it)\s+wrong|was\s+wrong|made\s+a\s+mistake|meant|misspoke))?"
    r"|i\s+(?:mixed\s+(?:it|them|that|those)\s+up|got\s+(?:that|it)\s+wrong|was\s+wrong|meant|misspoke)"
    r"|en\s+fait|en\s+réalité|(?:pardon|désolée?)[,.!]?(?:(?:\s*,)?\s*je\s+me\s+suis\s+trompée?)?"
    r"|je\s+me\s+suis\s+trompée?|j['’]ai\s+confondu"
    r"|eigentlich|korrektur|(?:sorry|entschuldigung)[,.!]?(?:(?:\s*,)?\s*ich\s+habe\s+mich\s+(?:geirrt|vertan))?"
    r"|ich\s+habe\s+mich\s+(?:geirrt|vertan)|ich\s+habe\s+(?:das|es)\s+verwechselt"
    r"|en\s+realidad|corrección|(?:perdón|lo\s+siento)[,.!]?(?:(?:\s*,)?\s*me\s+equivoqué)?|me\s+equivoqué"
    r"|me\s+confundí"
    r"|na\s+verdade|correção|(?:desculpa|desculpe)[,.!]?(?:(?:\s*,)?\s*(?:eu\s+)?me\s+enganei)?"
    r"|(?:eu\s+)?me\s+enganei|(?:eu\s+)?me\s+confundi"
    r")\b[,.!:：]?\s*|(?:其实|其實|更正|纠正|糾正|抱歉[，,]?我说错了|我说错了|我說錯了|我搞错了|我搞錯了|我记错了|我記錯了"
    r"|我弄错了)[,，:：]?\s*)+",
    re.IGNORECASE,
)
# A value named as the one being replaced, and the words that name it: "…, not Sofia", "not on Tuesday but…",
# "instead of MySQL", "no longer Berlin" (and in French, German, Spanish, Portuguese and Chinese).
_NOT_WORDS = ("not", "pas", "nicht", "no", "não", "nao")
_INSTEAD_WORDS = (
    "instead of",
    "rather than",
    "no longer",
    *(f"no longer {word}" for word in ("in", "at", "with", "on", "use", "uses")),
    "switched from",
    "moved from",
    "changed from",
    "replaced",
    "au lieu de",
    "plutôt que",
    "statt",
    "anstatt",
    "en lugar de",
    "en vez de",
    "em vez de",
    "ao invés de",
)
_VALUE_WORDS = r"(?:(?:the|a|an|our|my|their|on|at|in|le|la|les|der|die|das|am|el|los|las|o|os|as|em|no|na)\s+)?"
_NAMED = r"([\w'’-]+(?:\s\d[\d.:,/-]*)?)"
# The words are written as trees of their letters (`alternatives`), behind a lookahead for the letters they start
# with, which the words imply: at a word that starts none of them, the regex engine leaves after one test.
_NOT = alternatives(_NOT_WORDS)
_OPENINGS = "".join(sorted({word[0] for word in (*_NOT_WORDS, *_INSTEAD_WORDS)}))
_REPLACED = re.compile(
    rf",\s*{_NOT}\s+{_VALUE_WORDS}{_NAMED}(?=\s*[.!,;]|\s*\Z)"
    rf"|\b(?=[{_OPENINGS}])(?:{_NOT}\s+{_VALUE_WORDS}{_NAMED}(?:\s*,)?\s*(?:but|mais|sondern|sino|mas)\b"
    rf"|{alternatives(_INSTEAD_WORDS, any_space=True)}\s+{_VALUE_WORDS}{_NAMED})"
    # A value in Chinese is a few characters: bounded, so a long run of 不是 is read once.
    r"|[，,]\s*(?:不是|而不是)\s*([^，,。.!！]{1,40})|不是([^，,。.!！]{1,40}?)而是",
    re.IGNORECASE,
)


def replaced_values(text: str) -> set[str]:
    """Values a text says are being replaced ("we use Postgres instead of MySQL" → {"mysql"}, "Sara, not Sofia" →
    {"sofia"})."""
    return _named_values(_REPLACED.finditer(without_said(text))) | denied_tokens(without_said(text))


def denied_tokens(text: str) -> set[str]:
    """The tokens of the values a text denies and gives another in place of (claims.denied: "my sister's name isn't
    Claire, it's Clara")."""
    return {token for value in claims_of.denied(text) for token in _tokens(value)}


def _named_values(matches: Iterable[re.Match[str]]) -> set[str]:
    """The values these matches of _REPLACED name."""
    out: set[str] = set()
    for match in matches:
        named = next((group for group in match.groups() if group), "")
        out |= _tokens(named)
    return out


class Said(NamedTuple):
    """A message as it asserts something: its words without the opening of a correction and without the values it
    names as replaced ("No, actually my sister's name is Sara, not Sofia." → "my sister's name is Sara."), whether it
    corrects what was said before, and the values it replaces."""

    text: str
    correction: bool
    replaced: frozenset[str]


def asserted(text: str) -> Said:
    """What a message asserts (see Said)."""
    opening = _CORRECTION.match(text)
    rest = text[opening.end() :] if opening and opening.end() < len(text.rstrip()) else text
    found = list(_REPLACED.finditer(rest))
    # The values it replaces, as `replaced_values` reads them: from the same matches unless a "(said …)" ends it.
    stated = without_said(rest)
    replaced = _named_values(found if stated == rest else _REPLACED.finditer(stated))
    denied = denied_tokens(stated)  # "my sister's name isn't Claire, it's Clara"
    replaced |= denied
    named = [m for m in found if not m.group(0).lower().lstrip(", ").startswith(_CHANGE_OPENINGS)]
    for match in reversed(named):  # "…, not Sofia" and "not on Tuesday but" go; "instead of MySQL" says a change
        rest = rest[: match.start()] + rest[match.end() :]
    rest = re.sub(r" ([.!?,;])", r"\1", " ".join(rest.split())).strip()
    if rest and rest[0].islower() and opening:
        rest = rest[0].upper() + rest[1:]
    return Said(
        rest or text,
        bool(opening and opening.end() < len(text.rstrip())) or bool(named) or bool(denied),
        frozenset(replaced),
    )


_CHANGE_OPENINGS = (
    "instead",
    "rather",
    "no longer",
    "switched",
    "moved",
    "changed",
    "replaced",
    "au lieu",
    "plutôt",
    "statt",
    "anstatt",
    "en lugar",
    "en vez",
    "em vez",
    "ao invés",
)


_NOT_FRAME = WHEN_WORDS | QUALIFIERS | NEGATIONS


@dataclass
class Fact:
    """What the same-fact test reads of a text: its topic terms, frame, values, tokens, qualifiers, polarity and
    replaced values, read once from `content`. Every Draft is one; so is a stored memory seen as the newer side of
    `relation` (consolidation compares memories with memories)."""

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
        """It says a value changed: a word of change other than "new", which names as often as it changes ("Write
        Chapter 4: New Friends"; "my new number is…" is read as what it states, `claims`)."""
        return bool(self.tokens & CHANGE_WORDS - {"new"})

    @property
    def frame(self) -> frozenset[str]:
        """What the fact is about, whatever its value and whenever it holds: its topic terms less its values, its
        qualifiers and the words of time."""
        found = self.__dict__.get("_frame")
        if found is None:
            values = self.values | set(terms(" ".join(self.values)))  # "Postgres" is the topic term "postgr"
            # An attribute said only by a word of change is no part of the frame: "the appointment moved to
            # Friday" is about the appointment, not about where anyone lives.
            changing = {attribute(word) for word in self.tokens & CHANGE_WORDS}
            said = {attribute(word) for word in self.tokens - CHANGE_WORDS}
            found = self.__dict__["_frame"] = frozenset(
                term
                for term in self.topic
                if term not in values and term not in _NOT_FRAME and (term not in changing or term in said)
            )
        return found

    @property
    def qualifiers(self) -> frozenset[str]:
        return frozenset(self.tokens & (QUALIFIERS | WHEN_WORDS))

    @property
    def polarity(self) -> tuple[frozenset[str], frozenset[str]]:
        """(the topic terms said only in clauses that are not negated, those said only in negated ones): "I prefer
        oat milk. Never regular milk." says "milk" both ways, "regular" only negated."""
        found = self.__dict__.get("_polarity")
        if found is None:
            said: tuple[set[str], set[str]] = (set(), set())
            for clause in _CLAUSE_END.split(without_said(self.content)):
                said[negated(clause)].update(topic_terms(clause))
            found = self.__dict__["_polarity"] = (
                frozenset(said[0] - said[1]),
                frozenset(said[1] - said[0]),
            )
        return found

    @property
    def claims(self) -> tuple[claims_of.Claim, ...]:
        """What it asserts of whom (see claims)."""
        found = self.__dict__.get("_claims")
        if found is None:
            found = self.__dict__["_claims"] = claims_of.claims(without_said(self.content))
        return found

    @property
    def bindings(self) -> dict[str, set[str]]:
        """Each value → the words said with it (read when first asked: most comparisons never need it)."""
        found = self.__dict__.get("_bindings")
        if found is None:
            found = self.__dict__["_bindings"] = bindings(self.content)
        return found


def negated(clause: str) -> bool:
    """Whether a clause says no: a negation word, or in Chinese a negating character."""
    found = set(words(clause))
    return bool(found & NEGATIONS) or any(c in clause for c in _CJK_NEGATIONS)


def opposite(new: Fact, old: Fact) -> bool:
    """One text says no of what the other says yes of: a term of what both are about said only negated on one side
    and only plainly on the other ("I can't swim well" after "I can swim well")."""
    (new_yes, new_no), (old_yes, old_no) = new.polarity, old.polarity
    return bool((new_yes & old_no) | (new_no & old_yes))


def same_frame(new: Fact, old: Fact) -> bool:
    """No word of what one text is about, missing from the other, is said with a value both hold: "my wife's car is
    a red Toyota" is not "my car is a red Toyota", but "the alarm code is 12" is part of "the gate code is 1290 and
    the alarm code is 12" (its "gate" is said of 1290). Words said with no shared value leave it to similarity."""
    if new.frame == old.frame:
        return True
    shared = new.values & old.values
    for side, other in ((new, old), (old, new)):
        extra = side.frame - other.frame
        if any(side.bindings.get(value, set()) & extra for value in shared):
            return False
    return True


def relation(draft: Fact, memory: Memory | Fact, similarity: float, correcting: bool = False) -> str | None:
    """ "reinforce" (the same fact), "update" (the same thing with a changed value, or its opposite) or None (another
    fact). `draft` is the newer text (a draft of a new memory, or a stored memory as a Fact); `memory` the older
    one. `correcting`: the newer text corrects something said before ("No, actually…"), so it may say only part of
    the fact it corrects."""
    if label(draft.content) != label(memory.content):
        return None  # "Nate: Bye!" and "Joanna: Bye Nate!": what one person says is not what another says
    old = memory if isinstance(memory, Fact) else Fact(memory.content)
    if not claims_of.asserts_any(without_said(draft.content)):
        return None  # a question or a supposition changes nothing ("Actually, is the meeting on Monday?")
    if not claims_of.asserts_any(without_said(old.content)):
        return None  # nor is an instruction to the agent a value to change ("Don't tell me what the character is")
    met = claims_of.meeting(draft.claims, old.claims, draft.replaced)
    if met is not None and met[0] == "changed":
        return "update"  # the same holder's attribute, said with another value: what was said last holds
    if met is None and claims_of.other_holder(draft.claims, old.claims):
        return None  # "my brother's car is a Ford" says nothing of "my car is a Kia"
    if met is None and claims_of.another_named(draft.claims, old.claims):
        return None  # "my new neighbour Luis" is not a new name of "my new neighbour Ana"
    marked = correcting or draft.changes or bool(draft.replaced)
    if similarity < SAME_TOPIC and not marked:
        return None
    partial = marked and draft.frame and draft.frame <= old.frame  # a change or correction may name less
    if not partial and (similarity < SAME_TOPIC or not same_frame(draft, old)):
        return None
    if opposite(draft, old):
        return "update"  # the opposite of what was said: the store believes what was said last
    if not marked and draft.qualifiers != old.qualifiers:
        return None  # "this year" is not "next year"
    old_values = old.values
    new_only = draft.values - old.tokens
    if not new_only and not (draft.replaced & old_values) and not misbound(draft.bindings, old.bindings):
        return "reinforce"
    kept = draft.tokens - draft.replaced  # "Postgres instead of MySQL" no longer holds MySQL
    old_only = old_values - kept
    if marked and old_only:
        if len(old_values) >= 2 and not (draft.values & old_values) and not correcting:
            return None  # every value differs, the qualifier too ("unit 19" is not "unit 12")
        return "update"
    return None


# Kinds of value a correction may give alone ("sorry, it's the 16th"), most particular first.
_KINDS = [
    re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b", re.IGNORECASE),
    re.compile(r"\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b|\b\d{1,2}:\d\d\b", re.IGNORECASE),
    re.compile(
        r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b",
        re.IGNORECASE,
    ),
    re.compile(r"\b\d+(?:[.,]\d+)?\b"),
]


def with_value(content: str, correction: Fact) -> str | None:
    """`content` with its one value of the kind a correction gives alone put right ("The team dinner is on the
    15th" corrected by "it's the 16th" → "…on the 16th"); None when no kind has exactly one value on each side."""
    for kind in _KINDS:
        new = {m.group(0) for m in kind.finditer(without_said(correction.content))}
        old = [m for m in kind.finditer(content)]
        if len(new) == 1 and len({m.group(0).lower() for m in old}) == 1:
            value = next(iter(new))
            if value.lower() == old[0].group(0).lower():
                return None
            return kind.sub(value, content)
    return None
