"""Signals → memories: score, summarise, and either create a memory, reinforce the same fact, or update a changed
value (keeping the old one in `history`). Pure: the index and the clock are passed in.

Same fact means the same topic (weighted word overlap of at least SAME_TOPIC) *and* no value of the new message
(a number, a date, a name) missing from the memory or said there of something else. "The locker code for unit 12
is 4417" and "… unit 19 is 8803" are two memories however alike their words, and so are "the gate code is 12" and
"the gate code is 1290 and the alarm code is 12"; "my locker code is now 5521" says a value changed ("now", "moved",
"new", …) and updates the memory that held the old one. Candidates come from an inverted index of terms, never from
comparing every signal with every memory.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from .. import redaction
from ..store import retention
from . import scoring
from ..store.model import id_number, DOMAINS, Index, Memory
from ..store.views import IndexView, View
from .scoring import Score
from ..text import asks, label, may_contain, one_line, split_label, words, SENTENCE_BREAK, STOP_WORDS
from ..timeutil import iso, parse_instant
from .transcripts import Signal
from ..terms import CHANGE_WORDS, DIGIT as _DIGIT, IGNORED_TERMS as _IGNORED_TERMS, without_said
from ..terms import topic_terms

SAME_TOPIC = 0.7
MIN_IMPORTANCE = 0.5  # a message scoring below this is no memory of its own (encode.py --min-importance)
CONTENT_LIMIT = 200
DETAIL_LIMIT = 2000  # what a summary leaves out stays searchable up to this length; a pasted document is no memory
SMALL_TALK_CEILING = 0.3  # small talk kept as a memory of its own (at --min-importance 0) stays in the background
KEYWORDS_KEPT = 6
CONTEXT_WORDS = 40  # of the message a memory answered (its `context`) and of the one that followed (its `reply`)
CANDIDATES_SHOWN = 3
TURN_LIMIT = DETAIL_LIMIT  # characters of one attached turn
EPISODE_TURNS = 24  # turns attached to one memory at most; the next one starts a memory of its own
EPISODE_HEAD = 0.3  # a memory made only to hold turns that are no memory of their own: background, found by search
EXAMINED = 50  # memories compared in full per lookup, those sharing the most rare terms
STUBS_HELD = 10_000  # stored memories a run keeps stubs of between lookups (see ViewCandidates)

_DAY_NAMES = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may "
    "june july august september october november december".split()
)
_NUMBER = re.compile(r"\d+(?:[.:,/\-]\d+)*")
_CAPITAL = re.compile(r"\b[A-Z][\w'’-]*")
_RELATIVE = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|week|weekend|month)"
    r"|next (?:week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|last (?:week|weekend|month|night)|monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday)\b",
    re.IGNORECASE,
)
_RELATIVE_WORDS = (
    "today",
    "tonight",
    "tomorrow",
    "yesterday",
    "morning",
    "afternoon",
    "evening",
    "week",
    "month",
    "year",
    "night",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)


# --- summarising (pure) ---------------------------------------------------------------------------------------

_FILLERS = frozenset(
    {
        "hi",
        "hey",
        "hello",
        "morning",
        "good morning",
        "evening",
        "good evening",
        "ok",
        "okay",
        "so",
        "oh",
        "btw",
        "yo",
        "hmm",
        "well",
        "alright",
        "cool",
        "hiya",
        "great",
        "sure",
        "yes",
        "no",
        "lol",
        "haha",
        "hey there",
        "hi there",
        "good afternoon",
        "afternoon",
    }
)
_LEAD = re.compile(
    r"\A(?:(?:please|pls|oh|and|also|so|btw|by the way|fyi|just so you know|hey|ok|okay|one more thing)[,:!]?\s+)*"
    r"(?:(?:please\s+)?(?:remember|note|keep in mind)(?:\s+(?:that|this))?\s*[:,\-–—]?\s+"
    r"|(?:don't|do not|dont)\s+forget(?:\s+(?:that|this))?\s*[:,\-–—]?\s+)?",
    re.IGNORECASE,
)
_TRAIL = re.compile(
    r"[\s,;:.\-–—]*(?:(?:and |so )?(?:please )?(?:remember (?:that|this|it)|(?:don't|do not|dont) forget"
    r"(?: (?:that|this|it))?|keep (?:that|this|it) in mind)(?: (?:please|ok|okay))?|by the way|btw|fyi"
    r"|just so you know)[\s.!?]*\Z",
    re.IGNORECASE,
)
_TRAIL_WORDS = ("remember", "forget", "in mind", "by the way", "btw", "fyi", "just so you know")  # in every match
# A sentence that only says how to take the others: "It's important.", "Please keep that in mind."
_FILLER_SENTENCE = re.compile(
    r"\A(?:(?:it's|it is|this is|that's|that is) (?:(?:really|very|super|so) )?(?:important"
    r"|urgent)|(?:please )?(?:keep (?:that|this|it) in mind|remember (?:that|this|it)|(?:don't"
    r"|do not) forget(?: (?:that|this|it))?)|just so you know|for the record)[\s.!]*\Z",
    re.IGNORECASE,
)
_ASIDE = re.compile(r",\s*(?:by the way|btw|fyi)\s*,", re.IGNORECASE)
_ADVERBS = frozenset(
    "always never usually often sometimes rarely really also just still generally normally "
    "typically mostly actually definitely absolutely totally only even already strongly so kinda "
    "sorta almost once first then too now ever".split()
)
_PRESENT = frozenset(
    """prefer like love hate want need feel think believe live work use drink eat have do go take enjoy
dislike know plan own study play speak read watch run ride drive hope wish mind care avoid get keep start finish wake
sleep cook train teach write listen visit travel commute swim walk bike hike leave miss forget mean buy pay make wear
stay try support follow cycle jog meditate practice practise learn understand agree disagree expect intend aim tend
collect adore prefer wake drink teach fly fix""".split()
)
_PAST = frozenset(
    """went met got had was were did made took saw bought told said left found came ran began gave felt
thought knew wrote ate drank spent sold lost won paid sent kept slept flew drove rode swam forgot chose broke heard set
put cut hit let quit became brought caught taught fought sat stood understood built grew drew threw wore meant woke
awoke bent bet bit bled blew bore bound burnt dealt dug dove dreamt fed fell fled flung forgave froze hid held hung hurt
knelt laid lay leant leapt led lent lit mistook overslept rang rose sang sank shook shone shot shut slid smelt sped
spelt spilt spoke spun split spread sprang stole stuck stung stank strode struck swore swept swung tore thrust trod
upset wept withdrew wound""".split()
)
_MODALS = {
    "can": "can",
    "can't": "can't",
    "cannot": "cannot",
    "will": "will",
    "won't": "won't",
    "would": "would",
    "wouldn't": "wouldn't",
    "should": "should",
    "shouldn't": "shouldn't",
    "could": "could",
    "couldn't": "couldn't",
    "must": "must",
    "might": "might",
    "may": "may",
    "didn't": "didn't",
    "don't": "doesn't",
    "am": "is",
    "was": "was",
    "wasn't": "wasn't",
    "have": "has",
    "haven't": "hasn't",
    "do": "does",
    "go": "goes",
}
# After "they" (the user named once already) only these forms differ from what follows "I".
_PLURAL = {"am": "are", "was": "were", "wasn't": "weren't"}
_CONTRACTED = {"i'm": ("is", "are"), "i've": ("has", "have"), "i'll": ("will", "will"), "i'd": ("would", "would")}
_PUNCTUATION = ",.;:!?)\"'"


def third_person(verb: str) -> str | None:
    """The verb for "User …": prefers, watches, tries; past tenses stay; None for what cannot be a verb."""
    if verb in _MODALS:
        return _MODALS[verb]
    if verb in _PAST or (verb.endswith("ed") and len(verb) > 3):
        return verb
    if not verb.isalpha():
        return None
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# A word `rewrite_sentence` tells in the third person ("I", "my", "me", "I'm", …, with punctuation after it): a
# sentence without one stays as it is.
_FIRST_PERSON = re.compile(r"(?:^| )(?:i|my|me|myself|mine|i['’](?:m|ve|ll|d))[,.;:!?)\"'’]*(?= |$)", re.IGNORECASE)


def rewrite_sentence(sentence: str) -> str:
    """The user's words in the third person: "I prefer X" → "User prefers X", "My X" → "User's X", "… and I am
    bringing the rings" → "… and they are bringing the rings". The first mention is the user ("User" at the start,
    "the user" later), every other one "they"; a sentence it cannot rewrite reliably stays as it is."""
    parts = sentence.replace("’", "'").split(" ")
    out: list[str] = []
    named = False  # the user was mentioned already in this sentence: "they" from now on
    position = 0
    while position < len(parts):
        word = parts[position]
        bare = word.rstrip(_PUNCTUATION)
        tail = word[len(bare) :]
        lower = bare.lower()
        first = position == 0
        who = "User" if first else ("they" if named else "the user")
        if lower == "i" and bare in ("I", "i"):
            if tail:
                return sentence  # "I, for one, …": no verb to follow
            after = position + 1
            while after < len(parts) - 1 and (
                parts[after].lower() in _ADVERBS or (parts[after].lower().endswith("ly") and len(parts[after]) > 4)
            ):
                after += 1
            if after >= len(parts):
                return sentence
            verb_word = parts[after]
            verb = verb_word.rstrip(_PUNCTUATION)
            if who == "they":
                conjugated = _PLURAL.get(verb.lower(), verb)
            elif verb.lower() == "do" and after + 1 < len(parts) and parts[after + 1].lower() == "not":
                conjugated = "does"
            else:
                found = third_person(verb.lower())
                if found is None:
                    return sentence
                conjugated = found
            out += [who, *parts[position + 1 : after], conjugated + verb_word[len(verb) :]]
            named = True
            position = after + 1
            continue
        if lower in _CONTRACTED:
            singular, plural = _CONTRACTED[lower]
            following = parts[position + 1].lower().rstrip(_PUNCTUATION) if position + 1 < len(parts) else ""
            if lower == "i'd" and (following in _PAST or following.endswith(("ed", "en"))):
                singular = plural = "had"  # "I'd gone", "I'd booked": had, not would
            out.append(f"{who} {plural if who == 'they' else singular}{tail}")
            named = True
        elif lower == "my":
            out.append(("User's" if first else "their" if named else "the user's") + tail)
            named = True
        elif lower in ("me", "myself"):
            out.append(
                ("User" if first else ("them" if lower == "me" else "themselves") if named else "the user") + tail
            )
            named = True
        elif lower == "mine":
            out.append(("theirs" if named else "the user's") + tail)
            named = True
        else:
            out.append(word)
        position += 1
    return " ".join(out) if named else sentence


def concise(text: str, matched: tuple[str, ...] = (), first_person: bool = True, limit: int = CONTENT_LIMIT) -> str:
    """A standalone memory of at most about `limit` characters that keeps names, numbers and dates."""
    return summarise(text, matched, first_person, limit)[0]


def summarise(
    text: str, matched: tuple[str, ...] = (), first_person: bool = True, limit: int = CONTENT_LIMIT
) -> tuple[str, str]:
    """(the concise memory, what it left out): the left-out sentences stay searchable, never shown as the memory.

    Greetings, small talk and filler ("It's important.", "please keep that in mind", "by the way") are left out; the
    user's words are told in the third person ("User prefers…"). A message with a speaker's label ("Caroline: …")
    is that speaker's: the label stays in front, their words stay theirs."""
    speaker, text = split_label(text)
    if speaker:
        first_person = False
        limit -= len(speaker)
    sentences = [s.strip() for s in SENTENCE_BREAK.split(text) if s and s.strip()]
    wanted = [f" {p} " for p in matched if p]
    meaningful = [
        s
        for s in sentences
        if s.lower().strip(" .!?,") not in _FILLERS
        and not _FILLER_SENTENCE.match(s)
        and (not scoring.small_talk_sentence(s) or any(p in scoring.normalized(s) for p in wanted))
    ]
    aside = [s for s in sentences if s not in meaningful] if meaningful else []  # still searchable, as detail
    sentences = meaningful or sentences
    out = []
    said = []  # each kept sentence as it was said: "remember this: …" matches the rule before the lead is cut off
    for sentence in sentences:
        stripped = _LEAD.sub("", _ASIDE.sub(",", sentence), count=1)
        if may_contain(stripped, _TRAIL_WORDS):
            stripped = _TRAIL.sub("", stripped)
        stripped = stripped.strip()
        if not stripped:
            continue
        if sentence[-1] in ".!?" and stripped[-1] not in ".!?" and stripped != sentence.rstrip(".!?"):
            stripped += sentence[-1]  # "…flat whites, by the way." keeps its full stop
        stripped = stripped[0].upper() + stripped[1:]
        out.append(rewrite_sentence(stripped) if first_person and _FIRST_PERSON.search(stripped) else stripped)
        said.append(sentence)
    if not out:
        return "", ""
    content, detail = _fit(out, said, matched, limit)
    if aside:
        detail = _detail([detail, *aside])
    return (speaker + content if content else ""), detail


def _fit(out: list[str], said: list[str], matched: tuple[str, ...], limit: int) -> tuple[str, str]:
    """The sentences within `limit` (those that matched a rule, then those with numbers or names, in their order),
    and what was left out. `said` holds each sentence as it was said, before its lead was cut: a rule's words
    ("remember this: …") are looked for there."""
    joined = " ".join(out)
    if len(joined) <= limit:
        return joined, ""
    # Too long: the sentences that matched a rule, then those with numbers or names, in their original order.
    wanted = [p for p in matched if p]

    def rank(item: tuple[int, str]) -> tuple:
        position, sentence = item
        flat = scoring.normalized(said[position]) if wanted else ""
        hit = any(f" {p} " in flat for p in wanted)
        return (not hit, not _NUMBER.search(sentence), not _CAPITAL.search(sentence[1:]), position)

    ranked = sorted(enumerate(out), key=rank)
    chosen: list[tuple[int, str]] = []
    size = 0
    for position, sentence in ranked:
        if size + len(sentence) + (1 if chosen else 0) <= limit:
            chosen.append((position, sentence))
            size += len(sentence) + (1 if len(chosen) > 1 else 0)
    if not chosen:
        position, best = ranked[0]
        cut = best[: limit - 1]
        if " " in cut[limit // 2 :]:
            cut = cut[: cut.rfind(" ")]
        rest = [best[len(cut) :].strip()] + [s for i, s in enumerate(out) if i != position]
        return cut.rstrip(" ,;:") + "…", _detail(rest)
    kept = {position for position, _ in chosen}
    return " ".join(sentence for _, sentence in sorted(chosen)), _detail(
        [s for i, s in enumerate(out) if i not in kept]
    )


def _detail(sentences: list[str]) -> str:
    return one_line(" ".join(s for s in sentences if s), DETAIL_LIMIT)


def keywords_of(content: str, limit: int = KEYWORDS_KEPT) -> list[str]:
    """A few words to find the memory by: names first, then numbers, then the longest words."""
    content = without_said(content)
    capitals = {w.lower().removesuffix("'s") for w in _CAPITAL.findall(content[1:])}
    ranked: dict[str, tuple] = {}
    for position, match in enumerate(_NUMBER.finditer(content)):
        ranked.setdefault(match.group(0).strip(".,:/-"), (1, 0, position))
    for position, word in enumerate(words(content)):
        if (
            word in STOP_WORDS
            or word in _IGNORED_TERMS
            or word in ranked
            or (not word.isalpha() and any(map(str.isdigit, word)))
        ):
            continue
        if len(word) < 3 and word.isascii():
            continue
        ranked[word] = (0 if word in capitals else 2, -len(word), position)
    return [w for w, _ in sorted(ranked.items(), key=lambda item: item[1])][:limit]


def values_of(text: str) -> set[str]:
    """What makes a fact this fact: its numbers, dates and times, names, and day or month names."""
    text = without_said(text)
    return _values(text, _numbers(text), words(text))


def _numbers(text: str) -> set[str]:
    return {m.group(0).strip(".,:/-") for m in _NUMBER.finditer(text)}


def _values(text: str, numbers: set[str], found_words: list[str]) -> set[str]:
    found = set(numbers)
    for sentence in SENTENCE_BREAK.split(text):
        for match in _CAPITAL.finditer(sentence.strip()):
            word = match.group(0).lower().replace("’", "'")
            if match.start() == 0 or word in ("i", "user", "user's") or word.startswith(("i'", "user")):
                continue
            found.add(word.removesuffix("'s"))
    found |= _DAY_NAMES.intersection(found_words)
    return {v for v in found if v}


# Where one statement of a message ends and the next begins: "the gate code is 1290 and the alarm code is 12".
_CLAUSE_END = re.compile(r"[.;!?]\s+|,\s+|\n+|\s+(?:and|but|while|whereas|plus)\s+", re.IGNORECASE)


def bindings(text: str) -> dict[str, set[str]]:
    """Each value of a text → the topic terms said with it (in the same clause): what the value is about."""
    out: dict[str, set[str]] = {}
    for clause in _CLAUSE_END.split(without_said(text)):
        found = _tokens(clause)
        if not found:
            continue
        topic = topic_terms(clause)
        for value in values_of(clause) | {v for v in found if _DIGIT.search(v)}:
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
    return set(words(text)) | {m.group(0).strip(".,:/-") for m in _NUMBER.finditer(text)}


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


# --- drafts ---------------------------------------------------------------------------------------------------


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


@dataclass
class Draft(Fact):
    """A memory about to be made from one signal (or one decision of the agent)."""

    keywords: list[str]
    domain: str
    category: str
    importance: float
    when: datetime
    source: dict
    explicit: bool = False
    trust: str | None = None
    score: Score | None = None
    detail: str = ""  # what the concise content left out of the message (searchable, never shown as the memory)
    context: str = ""  # the message this one answered (its first CONTEXT_WORDS words)


def signal_time(signal: Signal, now: datetime) -> datetime:
    when = parse_instant(signal.timestamp) or now
    return min(when, now)


# The same text is redacted to be drafted or attached, and again as a neighbour's `context` or `reply`: once will do.
_redacted = lru_cache(maxsize=64)(redaction.redact)


def redacted_text(signal: Signal) -> str:
    """The signal's text as a memory may keep it: as queued when preprocess redacted it under today's rules, else
    redacted here, so a queue written by an older version leaks nothing either."""
    return signal.text if signal.redacted == redaction.RULES else _redacted(signal.text)


def draft_from(signal: Signal, score: Score, now: datetime, previous: str | None = None) -> Draft | None:
    """The memory a signal would make (already redacted text in, a concise memory out); None if nothing is left.

    `previous` is the message this one follows in its session (as `redacted_text` gives it): it is kept as the
    memory's `context` (its first CONTEXT_WORDS words), so a reply ("Tilly, after my old dog") is found by what it
    answered ("why did you name her Tilly").
    """
    text = redacted_text(signal)
    when = signal_time(signal, now)
    untrusted = signal.trust == "untrusted"
    relative = may_contain(text, _RELATIVE_WORDS) and _RELATIVE.search(text)
    said = f" (said {(signal.local or iso(when))[:10]})" if relative else ""
    content, detail = summarise(
        text, score.matched, first_person=signal.role == "user" and not untrusted, limit=CONTENT_LIMIT - len(said)
    )
    if not content:
        return None
    if untrusted:
        content = f"{signal.sender or 'Someone'} said: {content}"
    content = redaction.redact(content + said)
    domain, category = ("world", "observed") if untrusted else (score.domain, score.category)
    importance = min(score.value, retention.ceiling_for(untrusted))
    context = neighbour_text(previous) if previous else ""
    return Draft(
        content=content,
        keywords=keywords_of(content),
        domain=domain,
        category=category,
        importance=importance,
        when=when,
        source=signal.source,
        explicit=score.explicit and not untrusted,
        trust="untrusted" if untrusted else None,
        score=score,
        detail=redaction.redact(detail),
        context=context,
    )


# --- candidates -----------------------------------------------------------------------------------------------


def weighted_dice(
    topic: set[str],
    other: set[str],
    weight: Callable[[str], float],
    topic_total: float | None = None,
    other_total: float | None = None,
) -> float:
    """How much two sets of topic terms overlap, from 0 to 1: twice the weight they share over the weight of both
    (each term weighs `weight(term)`, rare words more). `topic_total` and `other_total` are their sums, when known."""
    if topic_total is None:
        topic_total = sum(map(weight, topic))
    if other_total is None:
        other_total = sum(map(weight, other))
    total = topic_total + other_total
    return 2 * sum(map(weight, topic & other)) / total if total else 0.0


class Candidates:
    """An inverted index of topic terms over the memories: which memories could be about the same thing.

    Built once per run and kept up to date as the run adds or changes memories; `lookup` is the one entry point,
    so a cached structure on disk can take its place.
    """

    def __init__(self, memories: list[Memory]):
        self.memories: list[Memory] = []
        self.topics: list[set[str]] = []
        self.postings: dict[str, list[int]] = defaultdict(list)
        self.position: dict[str, int] = {}
        for memory in memories:
            self.add(memory)

    def add(self, memory: Memory, topic: set[str] | None = None) -> None:
        """Index a memory (by its `topic` terms when they are known already)."""
        position = len(self.memories)
        self.memories.append(memory)
        self.position[memory.id] = position
        topic = topic_terms(memory.content) if topic is None else topic
        self.topics.append(topic)
        for term in topic:
            self.postings[term].append(position)

    def holds(self, memory: Memory, source: dict) -> None:
        """The memory holds a message it did not before: `source`, a new source or an attached turn's."""

    def refresh(self, memory: Memory) -> None:
        """The memory's content changed: index its new terms (stale postings are harmless, topics are re-read)."""
        position = self.position[memory.id]
        topic = topic_terms(memory.content)
        for term in topic - self.topics[position]:
            self.postings[term].append(position)
        self.topics[position] = topic

    def weight(self, term: str) -> float:
        return math.log(1 + (len(self.memories) + 1) / (len(self.postings.get(term, ())) + 1))

    def similarity(
        self, topic: set[str], other: set[str], weights: dict | None = None, topic_total: float | None = None
    ) -> float:
        """Weighted Dice overlap of two topic-term sets (rare words count more). `weights` caches term weights
        (filled in here), `topic_total` is the sum of `topic`'s when known."""
        weights = {} if weights is None else weights
        for term in other if topic_total is not None else (*topic, *other):
            if term not in weights:
                weights[term] = self.weight(term)
        return weighted_dice(topic, other, weights.__getitem__, topic_total)

    def probe(self, topic: set[str], weights: dict[str, float] | None = None) -> list[str]:
        """The terms to look a topic up by. A memory at similarity ≥ SAME_TOPIC must share one of the rarest
        terms that carry over 1 - SAME_TOPIC/2 of the weight; probing those first keeps common words from pulling
        in half the store. `weights` receives each term's weight."""
        weights = {} if weights is None else weights
        for term in topic:
            if term not in weights:
                weights[term] = self.weight(term)
        ranked = sorted(topic, key=lambda t: (-weights[t], t))
        total = sum(weights[t] for t in ranked)
        probe, carried = [], 0.0
        for term in ranked:
            probe.append(term)
            carried += weights[term]
            if carried > (1 - SAME_TOPIC / 2) * total and len(probe) >= 2:
                break
        return probe

    @staticmethod
    def need(topic: set[str], probe: list[str], weights: dict[str, float], floor: float) -> float:
        """The least weight of `probe` terms a memory must share with `topic` to reach similarity `floor` (weights
        of every topic term in `weights`). Similarity is at most 2S / (W + S) for a memory sharing weight S of the
        topic's W, so reaching the floor takes S ≥ floor × W / (2 - floor); the terms not probed can add at most
        their own weight."""
        topic_total = sum(map(weights.__getitem__, topic))
        unprobed = topic_total - sum(weights[t] for t in probe)
        return (floor - 1e-4) * topic_total / (2 - floor + 1e-4) - unprobed - 1e-9

    def lookup(
        self, topic: set[str], untrusted: bool, limit: int = CANDIDATES_SHOWN, floor: float = 0.0
    ) -> list[tuple[Memory, float]]:
        """The memories closest to `topic`, best first, among memories of the same trust (at most `limit`)."""
        if not topic:
            return []
        weights: dict[str, float] = {}  # document frequencies do not change during one lookup
        probe = self.probe(topic, weights)
        topic_total = sum(map(weights.__getitem__, topic))
        # Which memories share probe terms, and how much weight: cheap to add up over the postings. Only the
        # EXAMINED memories sharing the most are compared in full, so a message of common words stays fast.
        shared: dict[int, float] = {}
        for term in probe:
            weight = weights[term]
            for position in self.postings.get(term, ()):
                shared[position] = shared.get(position, 0.0) + weight
        if floor > 0 and shared:
            shared = _reaching(shared, self.need(topic, probe, weights, floor))
        memories, topics = self.memories, self.topics
        # Among memories sharing as much, the one with the fewest topic terms is the closest (a "Thanks!" among
        # a hundred "Thanks for the …"); then the older. The cached lookup chooses by the same key.
        closest = (
            shared
            if len(shared) <= EXAMINED
            else heapq.nlargest(EXAMINED, shared, key=lambda p: (shared[p], -len(topics[p]), *elder(memories[p].id)))
        )
        scored = []
        for position in closest:
            memory = self.memories[position]
            if memory.superseded or memory.untrusted != untrusted:
                continue
            value = self.similarity(topic, self.topics[position], weights, topic_total)
            if round(value, 4) >= floor:
                scored.append((value, position))
        scored.sort(key=lambda item: (-item[0], *younger(memories[item[1]].id)))
        return [(self.memories[p], round(v, 4)) for v, p in scored[:limit]]


def _reaching(shared: dict[int, float], need: float) -> dict[int, float]:
    """The memories sharing at least `need` (all of them when `need` is not above 0)."""
    return {p: v for p, v in shared.items() if v >= need} if need > 0 else shared


class ViewCandidates(Candidates):
    """Candidates over a store View (the cache of a 100k-memory store, or an index in memory): memories are looked
    up by topic term in the view and kept in the in-memory part, so a run sees its own changes; memories the run
    creates go there too. A memory only compared is kept as a stub (`stub`: what the same-fact test reads); one a
    lookup returns, or that holds a session's latest message, is kept whole (`loaded`), and only those can change.
    Past STUBS_HELD stubs, the next lookup lets them all go (they are read again when needed, and compare the same):
    a run over a long history holds the memories it may change, not every one it compared."""

    def __init__(self, view: View):
        super().__init__([])
        self.view = view
        self.loaded: dict[str, Memory] = {}
        self._by_doc: dict[int, Memory] = {}  # view documents already in the in-memory part
        self._docs: dict[str, int] = {}  # the view's document of each stored memory in it
        self._df: dict[str, int] = {}
        self._weights: dict[str, float] = {}
        self._new = 0
        self._new_df: dict[str, int] = {}
        self._made: set[str] = set()  # the ids of the memories this run created
        self._made_in: dict[str, dict[str, Memory]] = {}  # session → the memories this run made holding its messages
        self._stubs = 0

    def add(self, memory: Memory, topic: set[str] | None = None) -> None:
        """A memory made in this run: the store grows, every weight moves a little."""
        super().add(memory, topic)
        self._made.add(memory.id)
        for source in memory.every_source():
            self.holds(memory, source)
        self._new += 1
        for term in self.topics[-1]:
            self._new_df[term] = self._new_df.get(term, 0) + 1
        self._weights.clear()

    def weight(self, term: str) -> float:
        value = self._weights.get(term)
        if value is None:
            df = self._df.get(term)
            if df is None:
                df = self._df[term] = self.view.topic_count(term)
            value = self._weights[term] = math.log(
                1 + (self.view.count + self._new + 1) / (df + self._new_df.get(term, 0) + 1)
            )
        return value

    def lookup(
        self, topic: set[str], untrusted: bool, limit: int = CANDIDATES_SHOWN, floor: float = 0.0
    ) -> list[tuple[Memory, float]]:
        if not topic:
            return []
        if self._stubs > STUBS_HELD:
            self._forget_stubs()
        shared: dict[int, float] = {}
        weights: dict[str, float] = {}
        probe = self.probe(topic, weights)
        for term in probe:
            weight = weights[term]
            for doc in self.view.topic_docs(term):
                if doc not in self._by_doc:
                    shared[doc] = shared.get(doc, 0.0) + weight
        if floor > 0 and shared:
            # What cannot reach the floor is never read: the lookup below would pass over it.
            shared = _reaching(shared, self.need(topic, probe, weights, floor))
        closest = list(shared) if len(shared) <= EXAMINED else self._closest(shared)
        for doc, memory, terms in self.view.entries(closest):
            self._take(doc, memory, terms)
        return [(self._whole(memory), value) for memory, value in super().lookup(topic, untrusted, limit, floor)]

    def holds(self, memory: Memory, source: dict) -> None:
        """A memory this run created is found by the session of every message it holds (`latest_in_session`)."""
        if memory.id in self._made:  # a stored memory is found by what the view holds of it
            self._made_in.setdefault(str(source.get("session")), {})[memory.id] = memory

    def latest_in_session(self, session: str) -> Memory | None:
        found = []
        doc = self.view.latest_in_session(session)
        if doc is not None:
            if doc not in self._by_doc:
                [(doc, memory, terms)] = self.view.entries([doc])
                self._take(doc, memory, terms)
            found.append(self._whole(self._by_doc[doc]))
        found += self._made_in.get(session, {}).values()
        held = [(_said_last(m, session), m) for m in found if not (m.superseded or m.archived)]
        return max(((key, m) for key, m in held if key), key=lambda pair: pair[0], default=(None, None))[1]

    def _take(self, doc: int, memory: Memory, terms: set[str]) -> None:
        """A view's memory into the in-memory part, as a stub (see `stub`)."""
        kept = stub(memory)
        self._by_doc[doc] = kept
        self._docs[memory.id] = doc
        self._stubs += 1
        Candidates.add(self, kept, set(terms))  # stored already: no new memory for the weights

    def _forget_stubs(self) -> None:
        """Let every stub go: the in-memory part keeps the memories this run made or holds whole (in its order)."""
        pairs = zip(self.memories, self.topics, strict=True)
        kept = [(m, t) for m, t in pairs if m.id in self._made or m.id in self.loaded]
        self.memories, self.topics, self.postings, self.position = [], [], defaultdict(list), {}
        for memory, topic in kept:
            Candidates.add(self, memory, topic)
        self._by_doc = {doc: m for doc, m in self._by_doc.items() if m.id in self.loaded}
        self._docs = {memory_id: doc for memory_id, doc in self._docs.items() if memory_id in self.loaded}
        self._stubs = 0

    def _whole(self, memory: Memory) -> Memory:
        """The whole memory a stub stands for, in place of the stub from now on; a memory made in this run, or
        loaded already, as it is."""
        if memory.id in self._made or memory.id in self.loaded:
            return self.loaded.get(memory.id, memory)
        doc = self._docs[memory.id]
        [(_, whole, _)] = self.view.entries([doc])
        self.loaded[whole.id] = whole
        self._by_doc[doc] = whole
        self.memories[self.position[whole.id]] = whole
        return whole

    def _closest(self, shared: dict[int, float]) -> list[int]:
        """The EXAMINED documents sharing the most, ties broken as the in-memory lookup breaks them (see
        Candidates.lookup), so both examine the same memories. Only the documents tied at the cut are read."""
        cut = heapq.nlargest(EXAMINED, shared.values())[-1]
        above = [d for d, v in shared.items() if v > cut]
        tied = [d for d, v in shared.items() if v == cut]
        if len(above) + len(tied) <= EXAMINED:
            return above + tied
        keys = {doc: (-size, *elder(memory_id)) for doc, (size, memory_id) in self.view.tie_keys(tied).items()}
        return above + heapq.nlargest(EXAMINED - len(above), tied, key=keys.__getitem__)


_STUB_KEYS = ("id", "content", "trust", "supersededBy", "archived")


def stub(memory: Memory) -> Memory:
    """What a lookup reads of a stored memory it only compares: its id, content, trust and whether it was superseded
    or archived, as stored (the same values give the same answers)."""
    raw = memory.raw
    return Memory.wrap({key: raw[key] for key in _STUB_KEYS if key in raw})


def _said_last(memory: Memory, session: str) -> tuple:
    """When a memory holds the latest message of `session`: of two said at once, the newer memory (as the views
    order them); empty for a memory holding no message of the session."""
    times = [str(s.get("ts") or "") for s in memory.every_source() if str(s.get("session")) == session]
    return (max(times), len(memory.id), memory.id) if times else ()


class Seen:
    """The (session, message) pairs a store holds already, asked of its View, plus those of this run."""

    def __init__(self, view: View):
        self.view = view
        self.local: set[tuple[str, str]] = set()

    def __contains__(self, key) -> bool:
        session, message = key
        return key in self.local or self.view.has_source(str(session), str(message))

    def add(self, key) -> None:
        self.local.add(key)


def lookups(view: View) -> tuple[ViewCandidates, Seen]:
    """What encoding into a store compares new messages with: its memories by topic, and the messages it holds."""
    return ViewCandidates(view), Seen(view)


def elder(memory_id: str) -> tuple[int, str]:
    """A sort key under which older memories come last in ascending order (first in `nlargest`). Lookups break
    ties by it, so the in-memory and the cached lookup examine and return the same memories."""
    number = id_number(memory_id)
    return (-number if number is not None else -(1 << 62)), memory_id


def younger(memory_id: str) -> tuple[int, str]:
    """The opposite of `elder`: older memories first in ascending order."""
    number = id_number(memory_id)
    return (number if number is not None else 1 << 62), memory_id


def candidates(
    lookup: Candidates, draft: Draft, limit: int = CANDIDATES_SHOWN, floor: float = 0.0
) -> list[tuple[Memory, float]]:
    """The existing memories a draft could be about, closest first (those at `floor` or above)."""
    return lookup.lookup(draft.topic, draft.trust == "untrusted", limit=limit, floor=floor)


def relation(draft: Draft | Fact, memory: Memory | Fact, similarity: float) -> str | None:
    """ "reinforce" (the same fact), "update" (the same thing with a changed value) or None (another fact).

    `draft` is the newer text (a Draft, or a stored memory as a Fact); `memory` the older one.
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


# --- changing the index (pure: values in, values changed) -------------------------------------------------------


@dataclass
class Outcome:
    """What a run of encoding (or of the weekly reflection's answers) did: the ids of the memories it made,
    reinforced, updated, gave turns to or extended, and how many inputs it skipped or had handled before."""

    new: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    attached: list[str] = field(default_factory=list)  # the memory each attached turn went to
    extended: list[str] = field(default_factory=list)  # memories that learnt the words of the turn after them
    skipped: int = 0
    duplicates: int = 0  # a message that is a memory's source already, an answer applied before

    @property
    def changed(self) -> set[str]:
        return set(self.new) | set(self.reinforced) | set(self.updated) | set(self.attached) | set(self.extended)

    def to_dict(self) -> dict:
        return {
            "new": len(self.new),
            "reinforced": len(self.reinforced),
            "updated": len(self.updated),
            "attached": len(self.attached),
            "skipped": self.skipped,
            "duplicates": self.duplicates,
        }


def create(index: Index, lookup: Candidates, draft: Draft) -> Memory:
    extra: dict = {}
    if draft.explicit:
        extra["kind"] = "explicit"
    if draft.trust:
        extra["trust"] = draft.trust
    if draft.detail:
        extra["detail"] = draft.detail
    if draft.context:
        extra["context"] = draft.context
    memory = Memory(
        id=index.next_id(),
        content=draft.content,
        domain=draft.domain,
        category=draft.category,
        importance=draft.importance,
        created=iso(draft.when),
        lastAccessed=iso(draft.when),
        timesReinforced=0,
        keywords=list(draft.keywords),
        sources=[draft.source],
        extra=extra,
    )
    retention.restart(memory, draft.importance, draft.when.date())
    index.memories.append(memory)
    lookup.add(memory, draft.topic)  # the draft's content is the memory's: its topic terms are read already
    return memory


def reinforce(index: Index, memory: Memory, draft: Draft) -> None:
    """SPEC §6 reinforcement, with the new source; a fresh mention is worth at least what a new memory would be."""
    retention.reinforce(memory, draft.when, index.meta, draft.source)
    if draft.importance > memory.importance:
        retention.restart(memory, draft.importance, draft.when.date())
    if memory.category == "smalltalk" and memory.importance > SMALL_TALK_CEILING:
        retention.restart(
            memory, SMALL_TALK_CEILING, draft.when.date()
        )  # "Thanks!" said fifty times is still small talk
    _merge(memory, draft)


def update(index: Index, lookup: Candidates, memory: Memory, draft: Draft) -> None:
    """The same thing with a new value: the new content, the old one kept in `history`."""
    memory.history.append({"ts": iso(draft.when), "content": memory.content})
    stale = values_of(memory.content) - draft.tokens
    memory.keywords = [k for k in memory.keywords if k.lower() not in stale]
    memory.content = draft.content
    for name, value in (("detail", draft.detail), ("context", draft.context)):
        if value:
            memory.extra[name] = value
        else:
            memory.extra.pop(name, None)
    lookup.refresh(memory)
    reinforce(index, memory, draft)


def _merge(memory: Memory, draft: Draft) -> None:
    if draft.explicit and memory.extra.get("kind") != "explicit":
        memory.extra["kind"] = "explicit"
    keywords = list(memory.keywords)
    for keyword in draft.keywords:
        if keyword not in keywords and len(keywords) < 2 * KEYWORDS_KEPT:
            keywords.append(keyword)
    memory.keywords = keywords


def attach(
    index: Index, lookup: Candidates, draft: Draft, outcome: Outcome, related: list[Memory] | None = None
) -> Memory | None:
    """Reinforce or update the memory the draft is the same fact as; None when there is none. Memories about the
    same thing that the draft says something else of are added to `related`, when given."""
    for memory, similarity in candidates(lookup, draft, limit=5, floor=SAME_TOPIC):
        kind = relation(draft, memory, similarity)
        if (
            kind is None
            and related is not None
            and similarity >= SAME_TOPIC
            and label(draft.content) == label(memory.content)
        ):
            related.append(memory)
        if kind == "reinforce":
            reinforce(index, memory, draft)
            lookup.holds(memory, draft.source)
            outcome.reinforced.append(memory.id)
            return memory
        if kind == "update":
            update(index, lookup, memory, draft)
            lookup.holds(memory, draft.source)
            outcome.updated.append(memory.id)
            return memory
    return None


def place(index: Index, lookup: Candidates, draft: Draft, outcome: Outcome) -> Memory:
    """Create, reinforce or update, whichever the draft is to the closest memories."""
    memory = attach(index, lookup, draft, outcome)
    if memory is None:
        memory = create(index, lookup, draft)
        outcome.new.append(memory.id)
    return memory


def neighbour_text(text: str) -> str:
    """A message next to a memory's in its session (as `redacted_text` gives it), as the memory keeps it: its first
    CONTEXT_WORDS words, searchable at a lower weight, never shown."""
    kept = one_line(text).split(" ")
    return " ".join(kept[:CONTEXT_WORDS]) + (" …" if len(kept) > CONTEXT_WORDS else "")


def attach_turn(memory: Memory, signal: Signal) -> None:
    """Attach a message that is no memory of its own to a memory of its session: searchable, with its own source,
    never shown as the memory. A stranger's words stay marked as a stranger's."""
    text = one_line(redacted_text(signal), TURN_LIMIT)
    turn: dict = {"text": text, "role": signal.role, "source": signal.source}
    if signal.trust == "untrusted":
        turn["text"] = f"{signal.sender or 'Someone'} said: {text}"
        turn["trust"] = "untrusted"
    episode = memory.raw.get("episode")
    if type(episode) is not list:
        episode = memory.raw["episode"] = []
    episode.append(turn)


class Episodes:
    """Where each session's messages go that are no memory of their own: to the memory its latest message went
    into (an episode), or — when the session has none yet, or the message asks something — to the next one it
    makes. A question the other side answers with such a message makes the answer a memory of its own at
    EPISODE_HEAD, holding the question; so does what is left waiting when a run ends in a session with no memory.
    Small talk alone is skipped."""

    def __init__(self, index: Index, lookup: ViewCandidates, now: datetime, outcome: Outcome):
        self.index, self.lookup, self.now, self.outcome = index, lookup, now, outcome
        self.last: dict[str, Memory | None] = {}
        self.waiting: dict[str, list[tuple[Signal, Score, str | None]]] = {}

    def current(self, session: str) -> Memory | None:
        if session not in self.last:
            self.last[session] = self.lookup.latest_in_session(session)
        return self.last[session]

    def joined(self, signal: Signal, memory: Memory) -> None:
        """A message of the session went into `memory` (made, reinforced or updated by it). The memory before it
        keeps the words of this message as its `reply`: what followed it is a clue to what it was about."""
        before = self.current(signal.session)
        if before is not None and before is not memory and not before.raw.get("reply"):
            before.raw["reply"] = neighbour_text(redacted_text(signal))
            self.outcome.extended.append(before.id)
        self.last[signal.session] = memory
        for turn, _, _ in self.waiting.pop(signal.session, []):
            self._attach(memory, turn)

    def left_out(self, signal: Signal, score: Score, before: str | None) -> None:
        """A message that is no memory of its own: attached to the session's memory so far — unless it asks
        something, then it waits for the answer's memory (a question goes with its answer), as does what follows
        it until then."""
        memory = self.current(signal.session)
        if (
            memory is not None
            and not asks(signal.text)
            and not self.waiting.get(signal.session)
            and len(memory.episode) < EPISODE_TURNS
        ):
            self._attach(memory, signal)
            return
        if memory is not None and len(memory.episode) >= EPISODE_TURNS:
            self.last[signal.session] = None  # full: the session's next memory starts a new episode
        waiting = self.waiting.setdefault(signal.session, [])
        waiting.append((signal, score, before))
        if (
            score.rule != "smalltalk"
            and not asks(signal.text)
            and any(asks(t[0].text) and t[0].role != signal.role for t in waiting)
        ):
            # The other side answered what was asked, and neither is a memory of its own: the answer holds both.
            head = self._hold(self.waiting.pop(signal.session))
            if head is not None:
                self.last[signal.session] = head

    def finish(self) -> None:
        """What is still waiting when the run ends: a question no one answered yet, or small talk, goes with the
        session's memory so far; anything else is held by its most informative message, made a memory of its own
        in the background."""
        for session, turns in self.waiting.items():
            memory = self.last.get(session)
            answered = any(t[1].rule != "smalltalk" and not asks(t[0].text) for t in turns)
            if memory is not None and not answered and len(memory.episode) + len(turns) <= EPISODE_TURNS:
                for turn, _, _ in turns:
                    self._attach(memory, turn)
                continue
            self._hold(turns)
        self.waiting.clear()

    def _hold(self, turns: list[tuple[Signal, Score, str | None]]) -> Memory | None:
        """The most informative of these messages made a background memory holding the others (None, and all
        counted as skipped, when they are only small talk)."""
        worthy = [t for t in turns if t[1].rule != "smalltalk"]
        draft = None
        if worthy:
            signal, score, before = max(worthy, key=_informative)
            draft = draft_from(signal, score, self.now, before)
        if draft is None:
            self.outcome.skipped += len(turns)
            return None
        draft.importance = EPISODE_HEAD
        head = create(self.index, self.lookup, draft)
        self.outcome.new.append(head.id)
        for turn, _, _ in turns:
            if turn is not signal:
                self._attach(head, turn)
        return head

    def _attach(self, memory: Memory, signal: Signal) -> None:
        attach_turn(memory, signal)
        self.lookup.holds(memory, signal.source)
        self.outcome.attached.append(memory.id)


def _informative(turn: tuple[Signal, Score, str | None]) -> tuple:
    """A statement over a question, then the one with more names, numbers and dates, then the longer."""
    signal, score, _ = turn
    return (score.rule != "question", len(values_of(signal.text)), len(signal.text))


def encode(
    index: Index,
    signals: Iterable[Signal],
    now: datetime,
    min_importance: float = MIN_IMPORTANCE,
    lookup: ViewCandidates | None = None,
    seen: Seen | None = None,
    previous: dict[str, str] | None = None,
) -> Outcome:
    """Encode signals into the index in order; a signal whose message is already a source is skipped.

    A message too short to be a memory of its own ("my locker code is now 5521") still reinforces or updates the
    memory it is the same fact as. Every other message but noise is attached to its session's memory (`Episodes`).
    `previous` holds each session's last message so far (as `redacted_text` gives it), and is kept up to date.
    """
    outcome = Outcome()
    if not signals:  # a list or a ledger.Backlog
        return outcome
    if lookup is None or seen is None:
        default_lookup, default_seen = lookups(IndexView(index))
        lookup = default_lookup if lookup is None else lookup
        seen = default_seen if seen is None else seen
    episodes = Episodes(index, lookup, now, outcome)
    previous = {} if previous is None else previous  # session → the text of its last message so far
    for signal in signals:
        before = previous.get(signal.session)
        previous[signal.session] = redacted_text(signal)
        if signal.key in seen:
            outcome.duplicates += 1
            continue
        seen.add(signal.key)
        score = score_of(signal)
        if score.rule == "noise":
            outcome.skipped += 1
            continue
        memory = None
        if kept(score, min_importance):
            draft = draft_from(signal, score, now, before)
            if draft is not None:
                memory = place(index, lookup, draft, outcome)
        elif score.rule == "short" and signal.role == "user":
            draft = draft_from(signal, score, now, before)
            related: list[Memory] = []
            if draft is not None:
                memory = attach(index, lookup, draft, outcome, related)
            if memory is None and draft is not None and related:
                # Too short to be a memory of its own, but it says something new about a remembered thing ("the
                # gate code is 12"): kept, as important as what it is about.
                value = max(retention.importance_on(m, draft.when.date(), index.meta) for m in related)
                draft.importance = min(value, retention.ceiling_for(draft.trust == "untrusted"))
                memory = create(index, lookup, draft)
                outcome.new.append(memory.id)
        if memory is not None:
            episodes.joined(signal, memory)
        else:
            episodes.left_out(signal, score, before)
    episodes.finish()
    return outcome


def score_of(signal: Signal) -> Score:
    """The signal's score. Its text is scored as queued (preprocess redacted it already); everything a memory
    keeps of it is what `redacted_text` gives."""
    return scoring.score(signal.text, signal.role)


def kept(score: Score, min_importance: float) -> bool:
    """Whether a message scored so becomes a memory of its own: at or above `min_importance` and above 0 — or, at
    `min_importance` 0, anything but noise (short messages and the agent's replies too: every turn is kept)."""
    if min_importance <= 0:
        return score.rule != "noise"
    return score.value > 0 and score.value >= min_importance


def prepare(signal: Signal, now: datetime, min_importance: float) -> Draft | None:
    """Score a signal and draft its memory; None when it is noise or below `min_importance`."""
    score = score_of(signal)
    if not kept(score, min_importance):
        return None
    return draft_from(signal, score, now)


def valid_domain(domain: str) -> bool:
    return domain in DOMAINS
