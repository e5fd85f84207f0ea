"""Small talk: greetings, thanks, praise without an object, acknowledgements, laughter and requests for a recap —
what says nothing a memory should keep. Pure; shared by scoring (a message of small talk is no memory of its own)
and by search (an answer that is small talk is not ranked before its question)."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import filterfalse, islice

from .text import may_contain, without_label, words, SENTENCE_BREAK

# Words a sentence of small talk is made of: greetings, thanks, praise without an object, acknowledgements,
# laughter, and the small words between them. A sentence with any other word (bar one name: "Thanks Nova!") says
# something.
SMALL_WORDS = frozenset(
    """
a ah aha alright all also always am amazing an and anytime anything anyway appreciate appreciated are as awesome
aw aww back be been beautiful best bit brilliant bye cheers cool congrats congratulations course cya day definitely
did do doing done enjoy everything exactly excellent experience fab fair fantastic fine for fun glad go going good
goodbye goodnight got gotcha great ha haha hahaha hehe hello help helped helpful helps hey hi hiya hmm how i i'd i'll
i'm i've indeed is it it's just k kind kk later let let's lmao lol lot love lovely lucky made make makes man matches me
mean meant mhm morning much my neat new nice night no nope not noted now of oh ok okay omg on one oops perfect pleasure
please pls point problem quite really right rofl same see sense so sorry sounds soon super sure sweet take talk thank
thanks that that's the thing things this thx to too totally true ty uh um understood up us very was we we'll welcome
well what what's will with wonderful worries wow ya yay yeah yep yes you you're your yup
""".split()
)
# Acknowledgements whose words could say something elsewhere: taken out of a sentence before its words are looked at
# (each with the space before it, which lets the regex engine pass over other characters quickly).
_SMALL_PHRASES = re.compile(
    r"\s(?:that (?:matches|fits) (?:my|our) experience|(?:you're|you are|that's|that is) "
    r"(?:so )?right|i agree|me too|same here|fair enough|good (?:point|call|idea)|no worries"
    r"|all good|take care|(?:talk|see you|speak)(?: to you)? (?:soon|later|tomorrow)|(?:great|good|nice) (?:job|work)"
    r"|well done|keep up the good work|have a (?:good|nice|great) (?:one|day"
    r"|night|evening|weekend)|good (?:morning|evening|night|afternoon)|how are you"
    r"|how have you been|how's it going|what's up|good to (?:see|hear from) you"
    r"|nice to (?:see|meet|hear from) you|keep (?:it|that) up)(?=\s)"
)
# A request for a recap or a summary of the conversation: asks for what is known already, tells nothing new.
_RECAP = re.compile(
    r"\b(?:(?:give|send|get|make|write|do|need|want)(?: me| us)?(?: a| the| another)?(?: quick| short"
    r"| brief| little)? (?:recap|summary|rundown)|(?:can|could|would) you (?:please )?(?:recap|summari[sz]e"
    r"|sum (?:it |this |that |everything |things )?up)|(?:recap|summari[sz]e|sum up) (?:what|everything"
    r"|today|this|that|our|the (?:conversation|chat|discussion))|remind me (?:what|of what|again)"
    r"|what (?:did|have) we (?:talk(?:ed)?|discuss(?:ed)?|decide[d]?|say|said|cover(?:ed)?))\b",
    re.IGNORECASE,
)
_RECAP_WORDS = ("recap", "summar", "rundown", "sum ", "remind me", "what did we", "what have we")  # in every match
_NAME = re.compile(r"\b[A-Z][a-z'’]+\b")
_VALUE = re.compile(r"\d|(?<=\s)(?!I\b|I['’])[A-Z]")


@lru_cache(maxsize=128)  # a message, and each of its sentences, is looked at by several rules
def normalized(text: str) -> str:
    """The text's words, lower-cased, joined by single spaces and padded: what rule phrases are matched against."""
    return " " + " ".join(words(text)) + " "


@lru_cache(maxsize=256)  # a message's sentences are looked at to score it, and again to summarise it
def small_talk_sentence(sentence: str) -> bool:
    """Whether a sentence is only small talk: greeting, thanks, praise, acknowledgement, laughter (one name aside)."""
    flat = _SMALL_PHRASES.sub(" ", normalized(sentence))
    others = list(islice(filterfalse(SMALL_WORDS.__contains__, flat.split()), 2))  # two tell it is no small talk
    return not others or (len(others) == 1 and others[0] in {w.lower() for w in _NAME.findall(sentence)})


def substance(text: str, role: str = "user") -> str:
    """The text without its small-talk sentences: what it says. Empty for small talk — and for the user's request
    for a recap, unless it names something (a name, a number)."""
    sentences = [s.strip() for s in SENTENCE_BREAK.split(without_label(text).strip()) if s.strip()]
    kept = [s for s in sentences if not small_talk_sentence(s)]
    if (
        role == "user"
        and any(may_contain(s, _RECAP_WORDS) and _RECAP.search(s) for s in kept)
        and not any(_VALUE.search(" " + s[1:]) for s in kept)
    ):
        return ""
    return " ".join(kept)
