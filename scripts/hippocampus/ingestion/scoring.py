"""Initial importance (0–1) and category of a message, by rules matched as whole words. Pure.

The rules keep the old skill's values (an explicit "remember this" 0.92, an urgent appointment 0.90, a feeling 0.85,
thanks 0.82, a preference 0.80, a decision 0.75, a project 0.65). Two things differ on purpose: a rule matches whole
words ("projector" is not "project", "hi never mind" is not "I never"), and when several rules match, the highest
value wins (the old skill took the first, so an emotional word hid a deadline). The agent's own replies count only
when it says who it is: they mostly repeat what the user said.

A question is not a fact: a message made only of questions ("Can you remind me what we decided about the database?")
scores QUESTION, below the default threshold, whatever words it shares with a rule — unless it asks to remember
something. Small talk is not a fact either: greetings, thanks, acknowledgements, laughter and requests for a recap
("Thanks!", "That matches my experience, thank you.", "haha ok", "Can I get a recap of today?") score SMALL_TALK,
whoever says them; a message is scored by what is left once its small-talk sentences are set aside, and gratitude or
praise counts as feedback only when it says what for ("the checklist you wrote was really helpful"). Messages that
score 0 (short ones, the agent's replies) still get a shelf, for a run that keeps every message (`--min-importance
0`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import notes
from ..claims import asks_to_keep, unquoted
from ..smalltalk import SMALL_WORDS, normalized, substance
from ..text import without_label, words, SENTENCE_BREAK, STOP_WORDS

NOISE_REPLIES = frozenset({"no_reply", "heartbeat_ok"})

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


@dataclass(frozen=True)
class Rule:
    name: str
    value: float
    domain: str
    category: str
    pattern: re.Pattern
    roles: tuple[str, ...] = ("user",)
    also: re.Pattern | None = None  # a second set of words that must appear too


def _phrases(*alternatives: str) -> re.Pattern:
    """Whole-word phrases over the text's words joined by single spaces (see `normalized`); group 1 is the phrase.
    The match starts with the space before it, which lets the regex engine pass over other characters quickly."""
    return re.compile(r"\s(" + "|".join(alternatives) + r")(?=\s)")


_NOT_ASKING = r"(?<!\sdo\syou\s)(?<!\sdid\syou\s)(?<!\si\s)(?<!\swe\s)"

RULES: tuple[Rule, ...] = (
    Rule(
        "explicit",
        0.92,
        "user",
        "notes",
        _phrases(
            _NOT_ASKING + r"remember (?:this|that|my|it)",
            r"please remember",
            r"(?:don't|dont|do not) forget",
        ),
    ),
    Rule(
        "emotional",
        0.85,
        "user",
        "emotions",
        _phrases(
            r"i (?:feel|felt)",
            r"i'm feeling",
            r"i am feeling",
            r"(?:i'm|i am) (?:(?:so|really|very|a bit|quite|kind of|pretty) )?(?:worried|scared|afraid|anxious|nervous"
            r"|stressed|terrified|sad|upset|overwhelmed|lonely|depressed|excited|happy|proud|grateful|heartbroken)",
        ),
    ),
    Rule("loves", 0.85, "user", "preferences", _phrases(r"i (?:really )?(?:love|hate|adore|can't stand|cannot stand)")),
    Rule(
        "deadline",
        0.90,
        "user",
        "context",
        _phrases(r"deadlines?", r"urgent(?:ly)?", r"critical", r"important"),
        also=_phrases(r"appointments?", r"worried", r"interviews?", r"tomorrow", r"today"),
    ),
    Rule(
        "preference",
        0.80,
        "user",
        "preferences",
        _phrases(
            r"i (?:(?:really|usually|generally|strongly) )?(?:prefer|like)",
            r"i always",
            r"i never",
            r"i'd rather",
            r"i would rather",
            r"i (?:don't|do not) (?:like|want|eat|drink)",
            r"i dislike",
            r"my (?:favorite|favourite)",
        ),
    ),
    Rule(
        "decision",
        0.75,
        "world",
        "decisions",
        _phrases(
            r"decided",
            r"decision",
            r"decide",
            r"let's do",
            r"let's go with",
            r"we should",
            r"we agreed",
            r"we'll go with",
        ),
    ),
    Rule(
        "feedback",
        0.82,
        "relationship",
        "feedback",
        _phrases(
            r"thanks",
            r"thank you",
            r"thx",
            r"ty so much",
            r"great job",
            r"good job",
            r"well done",
            r"nice work",
            r"great work",
            r"you're (?:the best|amazing|great|awesome|brilliant)",
            r"you are (?:the best|amazing|great)",
            r"i appreciate",
            r"much appreciated",
            r"that's perfect",
            r"perfect",
        ),
    ),
    Rule(
        "identity",
        0.70,
        "self",
        "identity",
        _phrases(
            r"my name is",
            r"call me",
            r"i believe",
            r"(?:i am|i'm) (?:your|an?)(?! (?:bit|little|lot|moment|second))",
            r"(?:i am|i'm) (?:called|named)",
        ),
        roles=("assistant",),
    ),
    Rule(
        "project",
        0.65,
        "world",
        "projects",
        _phrases(
            r"projects?",
            r"tasks?",
            r"working on",
            r"building",
            r"milestones?",
            r"sprints?",
        ),
    ),
)

# Words that say which category a memory belongs to, whatever rule scored it ("remember that …" has no own shelf).
_CONTEXT = _phrases(
    r"appointments?",
    r"deadlines?",
    r"meetings?",
    r"interviews?",
    r"tomorrow",
    r"today",
    r"tonight",
    r"dentist",
    r"doctor",
    r"flight",
    r"birthday",
    r"schedule",
    r"calendar",
    r"monday",
    r"tuesday",
    r"wednesday",
    r"thursday",
    r"friday",
    r"saturday",
    r"sunday",
    r"next week",
)
_SECONDARY = ("preference", "loves", "deadline", "project", "decision", "emotional")

LONG_TEXT = 200
SHORT_TEXT = 30
MEDIUM_TEXT = 50
QUESTION = 0.2
SMALL_TALK = 0.1


# A question sentence: ends with a question mark and opens like one ("what …", "can you …", "is it …").
_ASKING = re.compile(
    r"\A(?:(?:and|but|so|ok|okay|hey|hi|also|btw|oh|well|um)\W+)*"
    r"(?:what|when|where|who|whom|whose|why|how|which|can|could|would|will|won't|do|does|did|don't"
    r"|doesn't|didn't|is|isn't|are|aren't|was|wasn't|were|should|shall|may|might|have|has|had"
    r"|any|anything|remind)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Score:
    value: float
    rule: str
    domain: str
    category: str
    matched: tuple[str, ...] = field(default_factory=tuple)

    @property
    def explicit(self) -> bool:
        return self.rule == "explicit"


def length(text: str) -> int:
    """Characters, with each CJK character counted twice (it carries about a word)."""
    return len(text) + len(_CJK.findall(text))


def is_noise(text: str) -> bool:
    flat = text.strip().strip(".!").strip().lower()
    return not flat or flat in NOISE_REPLIES


def is_question(text: str) -> bool:
    """Whether a message only asks: every sentence of it is a question (greetings and fillers aside)."""
    if "?" not in text and "？" not in text:
        return False  # no sentence of it asks
    sentences = [s.strip() for s in SENTENCE_BREAK.split(without_label(text).strip()) if s.strip()]
    asked = [s for s in sentences if s.endswith(("?", "？"))]
    if not asked:
        return False
    rest = [s for s in sentences if not s.endswith(("?", "？")) and len(words(s)) > 2]
    return not rest and all(_ASKING.match(s) for s in asked)


_FOR_WHAT = _phrases(r"(?:helpful|useful|help|lifesaver|life saver) (?:with|for|on)")
_GRATITUDE = _phrases(
    r"thanks",
    r"thank you",
    r"thx",
    r"ty",
    r"grateful",
    r"appreciate[ds]?",
    r"much appreciated",
    r"great (?:job|work)",
    r"good job",
    r"well done",
    r"nice work",
    r"perfect",
)


def says_what_for(text: str) -> bool:
    """Whether gratitude or praise says what it is for, in its sentence or the next: "thanks for booking the table",
    "the checklist you wrote was really helpful", "Thanks! That was a great help with the migration" — not "thanks,
    that was helpful" nor "thanks, I'll book it myself"."""
    sentences = [normalized(s) for s in SENTENCE_BREAK.split(without_label(text)) if s.strip()]
    for position, flat in enumerate(sentences):
        found = _GRATITUDE.search(flat)
        if not found:
            continue
        window = flat + " " + " ".join(sentences[position + 1 : position + 2])
        said = window.split()
        if not [w for w in said if w not in SMALL_WORDS and w not in STOP_WORDS]:
            continue  # nothing it is for
        if (
            re.match(r"\A\s*(?:(?:so|very) much )?(?:for|with|on)\s", flat[found.end() :])
            or set(said) & {"you", "your", "you've", "you're"}
            or _FOR_WHAT.search(window)
        ):
            return True
    return False


def score(text: str, role: str = "user", asked_to_keep: bool = False) -> Score:
    """The importance and category of one cleaned message; `asked_to_keep`: the owner asked just before to keep what
    comes next ("Can you remember something for me?"), so an owner's message is a note."""
    if is_noise(text):
        return Score(0.0, "noise", "user", "noise")
    said = substance(text, role)
    if not said:
        return Score(SMALL_TALK, "smalltalk", "user", "smalltalk")
    flat = normalized(said)
    own = normalized(unquoted(said))  # the speaker's own words: a quoted "remember that…" is no note of theirs
    opening = (
        (notes.lead(without_label(said)) or asks_to_keep(without_label(said)) or asked_to_keep)
        if role == "user"
        else None
    )
    if role == "user" and is_question(said) and not RULES[0].pattern.search(own) and not opening:
        return Score(QUESTION, "question", "user", "questions")
    matches: list[tuple[Rule, tuple[str, ...]]] = []
    if role == "user" and opening:  # "Remember: …", "Note that …", "Rappelle-toi que …", "请记住…"
        matches.append((RULES[0], (" ".join(words(opening)),) if isinstance(opening, str) else ()))
    for rule in RULES:
        if role not in rule.roles:
            continue
        if rule.name == "feedback":  # gratitude said in a sentence of its own counts, when it says what for
            found = rule.pattern.search(normalized(text)) if says_what_for(text) else None
        elif rule.name == "explicit":
            found = rule.pattern.search(own)
        else:
            found = rule.pattern.search(flat)
        if not found:
            continue
        if rule.also is not None:
            second = rule.also.search(flat)
            if not second:
                continue
            matches.append((rule, (found.group(1), second.group(1))))
        else:
            matches.append((rule, (found.group(1),)))
    if matches:
        # The highest value wins; among equals the earlier rule (the documented order).
        best, matched = max(matches, key=lambda m: m[0].value)
        domain, category = _shelf(best, [m[0] for m in matches], flat)
        return Score(best.value, best.name, domain, category, matched)
    if role != "user":
        return Score(0.0, "assistant", "self", "replies")
    size = length(said)
    if size > LONG_TEXT:
        return Score(0.70, "long", "user", _general_category(flat))
    if size < SHORT_TEXT:
        return Score(0.0, "short", "user", _general_category(flat))
    if size > MEDIUM_TEXT:
        return Score(0.55, "general", "user", _general_category(flat))
    return Score(0.50, "general", "user", _general_category(flat))


def _shelf(best: Rule, matched: list[Rule], flat: str) -> tuple[str, str]:
    """Domain and category: the winning rule's, except for "remember this", which takes the content's shelf."""
    if best.name != "explicit":
        if best.name in ("emotional", "decision") and _CONTEXT.search(flat):
            return "user", "context"
        return best.domain, best.category
    names = {rule.name: rule for rule in matched}
    for name in _SECONDARY:
        if name in names:
            rule = names[name]
            if name in ("emotional", "decision") and _CONTEXT.search(flat):
                return "user", "context"
            return rule.domain, rule.category
    return "user", _general_category(flat, default="notes")


def _general_category(flat: str, default: str = "facts") -> str:
    return "context" if _CONTEXT.search(flat) else default
