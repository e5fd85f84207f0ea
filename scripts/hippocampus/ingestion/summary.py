"""Summaries: a message as a concise standalone memory ("I prefer X" becomes "User prefers X"), what it set aside
as detail, and the keywords to find it by. Pure."""

from __future__ import annotations

import re

from ..terms import IGNORED_TERMS, without_said
from ..text import may_contain, one_line, split_label, words, SENTENCE_BREAK, STOP_WORDS
from .. import notes
from ..claims import note_lead, note_tail, states
from ..smalltalk import normalized, small_talk_sentence
from .facts import CAPITAL, NUMBER
from .transcripts import MESSAGE_LIMIT

CONTENT_LIMIT = 200
DETAIL_LIMIT = MESSAGE_LIMIT  # what a summary leaves out is kept whole, as long as a message is kept
KEYWORDS_KEPT = 6

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
# A match starts where a run of separators starts (the lookbehind): tried from inside a run, it would read the rest
# of the run each time ("remember this, , , , …"). The lookahead, the letters its words start with (which the words
# imply), lets the regex engine leave after one test a place where none of them starts.
_TRAIL = re.compile(
    r"(?<![\s,;:.\-–—])[\s,;:.\-–—]*(?=[abdfjkprs])(?:(?:and |so )?(?:please )?(?:remember (?:that|this|it)"
    r"|(?:don't|do not|dont) forget(?: (?:that|this|it))?|keep (?:that|this|it) in mind)(?: (?:please|ok|okay))?"
    r"|by the way|btw|fyi|just so you know)[\s.!?]*\Z",
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


# Small words that say which language a sentence is in: English ones, and those of the other languages read here
# ("me" is a word of French, Spanish and Portuguese too: "¿Qué me recomiendas?" is no English sentence to retell).
_ENGLISH_WORDS = frozenset("the a an is are was to of and i my for in on with it that this have you what can".split())
_OTHER_WORDS = frozenset(
    """que de la le les et est und ist der die das y el los las não você é um uma para pour ich je tu por con mit
    nicht ne pas mi mis yo eu meu minha se lo una un une des du dans sur auf ein eine zu es en au qué cómo está
    estoy soy tengo j'ai c'est il elle nous vous wir sie ihr bin habe ja nein sí também muito""".split()
)


def in_english(sentence: str) -> bool:
    """Whether a sentence is in English, as far as its small words tell: more of them English than of the other
    languages the skill reads."""
    found = [word.lower() for word in words(sentence)]
    return sum(word in _ENGLISH_WORDS for word in found) > sum(word in _OTHER_WORDS for word in found)


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
        and (not small_talk_sentence(s) or any(p in normalized(s) for p in wanted) or states(s))
    ]
    aside = [s for s in sentences if s not in meaningful] if meaningful else []  # still searchable, as detail
    sentences = meaningful or sentences
    out = []
    said = []  # each kept sentence as it was said: "remember this: …" matches the rule before the lead is cut off
    for sentence in sentences:
        unaside = _ASIDE.sub(",", sentence)
        # "Could you please make a note that …", "for the record, …" (one lead is taken off, not two)
        asked = note_lead(unaside)
        if asked:
            stripped = unaside[len(asked) :]
            if stripped.endswith("?"):  # "Could you note that…?" asks to keep a statement
                stripped = stripped[:-1] + "."
        else:
            stripped = _LEAD.sub("", notes.LEAD.sub("", unaside, count=1), count=1)
        tail = note_tail(stripped)
        if tail:  # "…, retiens-le bien.", "…，记一下。"
            stripped = stripped[: len(stripped) - len(tail)]
        elif may_contain(stripped, _TRAIL_WORDS):
            stripped = _TRAIL.sub("", stripped)
        stripped = stripped.strip()
        if not stripped:
            continue
        if sentence[-1] in ".!?" and stripped[-1] not in ".!?" and stripped != sentence.rstrip(".!?"):
            stripped += sentence[-1]  # "…flat whites, by the way." keeps its full stop
        stripped = stripped[0].upper() + stripped[1:]
        english = first_person and _FIRST_PERSON.search(stripped) and in_english(stripped)
        out.append(rewrite_sentence(stripped) if english else stripped)
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
        flat = normalized(said[position]) if wanted else ""
        number, name = NUMBER.search(sentence), CAPITAL.search(sentence[1:])
        # The sentence that asks for a note to be kept matched the rule by its lead alone: what the note asserts
        # (the unit, its number, its code) comes before its opening words when those name nothing.
        hit = any(f" {p} " in flat for p in wanted) and (number or name or notes.lead(said[position]) is None)
        return (not hit, not number, not name, position)

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
    capitals = {w.lower().removesuffix("'s") for w in CAPITAL.findall(content[1:])}
    ranked: dict[str, tuple] = {}
    for position, match in enumerate(NUMBER.finditer(content)):
        ranked.setdefault(match.group(0).strip(".,:/-"), (1, 0, position))
    for position, word in enumerate(words(content)):
        if (
            word in STOP_WORDS
            or word in IGNORED_TERMS
            or word in ranked
            or (not word.isalpha() and any(map(str.isdigit, word)))
        ):
            continue
        if len(word) < 3 and word.isascii():
            continue
        ranked[word] = (0 if word in capitals else 2, -len(word), position)
    return [w for w, _ in sorted(ranked.items(), key=lambda item: item[1])][:limit]
