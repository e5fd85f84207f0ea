"""Words: tokenising (word boundaries, every script), light English stemming, stop words, token estimates."""

from __future__ import annotations

import re
import unicodedata

from .notes import LABELS as NOTE_LABELS

# A word is a run of letters/digits, with inner apostrophes ("don't"); `_` and punctuation split words.
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
# A French word's elided article or pronoun, written onto the word it comes before: "l'opérateur" is "opérateur",
# "s'appelle" is "appelle" (words keeps it on: a French word that says little, such as "c'est", is no match).
ELIDED = re.compile(r"\A(?:[ldjtmnsc]|qu)['’]", re.IGNORECASE)
# Scripts written without spaces: each run becomes overlapping two-character pieces.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u31f0-\u31ff]+")
# Every ASCII character that is not part of a word (neither a letter, a digit nor an apostrophe), as a space.
_ASCII_BREAKS = str.maketrans({c: " " for c in map(chr, range(128)) if not (c.isalnum() or c == "'")})

STOP_WORDS = frozenset(
    """
a about above after again against all am an and any are aren't as at be because been before being below between
both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from
further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his
how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor
not of off on once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should
shouldn't so some such than that that's the their theirs them themselves then there there's these they they'd
they'll they're they've this those through to too under until up very was wasn't we we'd we'll we're we've were
weren't what what's when when's where where's which while who who's whom why why's will with won't would wouldn't
you you'd you'll you're you've your yours yourself yourselves also just yes ok okay oh um uh yeah really
""".split()
)

_VOWEL = re.compile(r"[aeiouy]")
# (suffix, replacement), longest first; applied once, only when a stem of 3+ letters with a vowel stays.
_SUFFIXES = (
    ("ational", "ate"),
    ("ization", "ize"),
    ("fulness", "ful"),
    ("iveness", "ive"),
    ("ousness", "ous"),
    ("ations", "ate"),
    ("ation", "ate"),
    ("ments", ""),
    ("ment", ""),
    ("nesses", ""),
    ("ness", ""),
    ("ingly", ""),
    ("ings", ""),
    ("ing", ""),
    ("edly", ""),
    ("ied", "y"),
    ("ies", "y"),
    ("sses", "ss"),
    ("ed", ""),
    ("ly", ""),
    ("s", ""),
)
_UNDOUBLE = frozenset("bdfgkmnprt")
# Irregular English forms and the word they are a form of, so "went" finds "go" as "painted" finds "paint".
_IRREGULAR = {
    form: base
    for base, forms in (
        ("go", "went gone"),
        ("get", "got gotten"),
        ("make", "made"),
        ("take", "took taken"),
        ("see", "saw seen"),
        ("buy", "bought"),
        ("tell", "told"),
        ("say", "said"),
        ("leave", "left"),
        ("find", "found"),
        ("come", "came"),
        ("begin", "began begun"),
        ("give", "gave given"),
        ("know", "knew known"),
        ("write", "wrote written"),
        ("eat", "ate eaten"),
        ("drink", "drank drunk"),
        ("spend", "spent"),
        ("sell", "sold"),
        ("lose", "lost"),
        ("win", "won"),
        ("pay", "paid"),
        ("send", "sent"),
        ("keep", "kept"),
        ("sleep", "slept"),
        ("fly", "flew flown"),
        ("drive", "drove driven"),
        ("ride", "rode ridden"),
        ("swim", "swam swum"),
        ("forget", "forgot forgotten"),
        ("choose", "chose chosen"),
        ("break", "broke broken"),
        ("hear", "heard"),
        ("meet", "met"),
        ("teach", "taught"),
        ("catch", "caught"),
        ("bring", "brought"),
        ("build", "built"),
        ("grow", "grew grown"),
        ("draw", "drew drawn"),
        ("throw", "threw thrown"),
        ("wear", "wore worn"),
        ("mean", "meant"),
        ("sit", "sat"),
        ("stand", "stood"),
        ("understand", "understood"),
        ("become", "became"),
        ("fight", "fought"),
        ("feel", "felt"),
        ("think", "thought"),
        ("run", "ran"),
        ("sing", "sang sung"),
        ("hold", "held"),
        ("fall", "fell fallen"),
        ("lead", "led"),
        ("speak", "spoke spoken"),
        ("steal", "stole stolen"),
        ("wake", "woke woken"),
        ("shake", "shook shaken"),
        ("hide", "hid hidden"),
        ("bite", "bit bitten"),
        ("blow", "blew blown"),
        ("freeze", "froze frozen"),
        ("light", "lit"),
        ("feed", "fed"),
        ("dig", "dug"),
        ("hang", "hung"),
        ("shoot", "shot"),
        ("ring", "rang rung"),
        ("rise", "rose risen"),
        ("sink", "sank sunk"),
        ("strike", "struck"),
        ("swing", "swung"),
        ("tear", "tore torn"),
        ("lend", "lent"),
        ("bend", "bent"),
        ("deal", "dealt"),
        ("dream", "dreamt"),
        ("learn", "learnt"),
        ("burn", "burnt"),
        ("spill", "spilt"),
        ("seek", "sought"),
        ("sweep", "swept"),
        ("weep", "wept"),
        ("bleed", "bled"),
        ("flee", "fled"),
        ("forgive", "forgave forgiven"),
        ("child", "children"),
        ("man", "men"),
        ("woman", "women"),
        ("person", "people"),
        ("mouse", "mice"),
        ("foot", "feet"),
        ("tooth", "teeth"),
    )
    for form in forms.split()
}


_STEMS: dict[str, str] = {}
STEMS_CACHED = 200_000  # words whose stem is kept, found once: a long history holds more, mostly rare ones


def stem(word: str) -> str:
    """A light English stem: plural, -ing/-ed/-ly, -ation → -ate, final e, irregular forms ("went" → "go").
    "migration" and "migrate" meet."""
    found = _STEMS.get(word)
    if found is None:
        found = _stem(word)
        if len(_STEMS) < STEMS_CACHED:
            _STEMS[word] = found
    return found


def _stem(word: str) -> str:
    word = _IRREGULAR.get(word, word)
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    if word.endswith(("ss", "us", "is")) and not word.endswith(("sses",)):
        return word
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix):
            root = word[: -len(suffix)]
            minimum = 4 if suffix == "ly" else 3
            if suffix in ("ed", "edly") and root.endswith("e"):
                break  # "speed", "need", "agreed": the e belongs to the word
            if len(root) >= minimum and _VOWEL.search(root):
                word = root + replacement
                if (
                    suffix in ("ing", "ings", "ed", "edly")
                    and len(word) > 3
                    and word[-1] == word[-2]
                    and word[-1] in _UNDOUBLE
                ):
                    word = word[:-1]
            break
    if word.endswith("e") and not word.endswith("ee") and len(word) >= 4:
        word = word[:-1]
    return word


def words(text: str) -> list[str]:
    """Lower-cased words of any script, split at word boundaries (no stemming, stop words kept)."""
    if text.isascii():  # then NFKC changes nothing, casefold lowers, and there is no CJK nor curly apostrophe
        text = text.lower()
        # What _WORD finds, found faster: every character it cannot take becomes a space, and only a piece with an
        # apostrophe (which _WORD takes only between letters) goes through the regex.
        found = text.translate(_ASCII_BREAKS).split()
        if "'" in text:
            found = [word for piece in found for word in (_WORD.findall(piece) if "'" in piece else (piece,))]
    else:
        text = unicodedata.normalize("NFKC", text).casefold()
        if _CJK.search(text):
            return _cjk_words(text)
        text = text.replace("’", "'")
        found = _WORD.findall(text)
    if "'s" not in text:
        return found  # most text: no possessive to take off
    return [w[:-2] if w.endswith("'s") else w for w in found]


def _cjk_words(text: str) -> list[str]:
    """words() of a text with runs of a script written without spaces."""
    out: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group(0).replace("’", "'")
        if word.endswith("'s"):
            word = word[:-2]
        if not _CJK.search(word):
            out.append(word)
            continue
        # Split mixed runs into CJK and non-CJK parts; CJK parts become bigrams (or a single character).
        position = 0
        for cjk in _CJK.finditer(word):
            if cjk.start() > position:
                out.append(word[position : cjk.start()])
            run = cjk.group(0)
            out.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
            position = cjk.end()
        if position < len(word):
            out.append(word[position:])
    return out


def terms(text: str) -> list[str]:
    """Index terms: words minus stop words, stemmed."""
    cache = _STEMS
    return [cache.get(w) or stem(w) for w in words(text) if w not in STOP_WORDS]


# Titles written with a full stop before a name: "Mr. Osei", "M. Le Goff" are one sentence.
TITLES = ("Mr", "Mrs", "Ms", "Mx", "Dr", "Prof", "Sr", "Sra", "Srta", "St", "M", "Mme", "Mlle", "Jr", "Hr", "Fr")
# A title's full stop ("Dr. Okafor"), its title kept in group 1: a name follows it, not a new sentence.
TITLE_STOP = re.compile(r"\b(" + "|".join(TITLES) + r")\.(?=\s)")
# A German date's day ends with a point ("am 13. Juni"): no sentence ends there.
_GERMAN_MONTH = r"(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember)\b"
# Where a sentence ends: white space after a full stop (not a title's, nor a German date's day), "!" or "?" (in any
# script), or line breaks. Written to start with the white space it takes, so the regex engine passes over other
# characters quickly; it splits text as `(?<=[.!?。！？])\s+|\n+` does, but after a title.
SENTENCE_BREAK = re.compile(
    r"\s(?:(?<=[.!?。！？]\s)"
    + "".join(rf"(?<!\b{title}\.\s)" for title in TITLES)
    + r"(?!(?<=\d\.\s)"
    + _GERMAN_MONTH
    + r")\s*|(?<=\n)\n*)"
)
# Where a part of a long text ends for recall to show it: a sentence's end (not a title's) or a semicolon.
PART_BREAK = re.compile(r"(?<=[.;!?。；！？])" + "".join(rf"(?<!\b{title}\.)" for title in TITLES) + r"\s+")


def alternatives(words, any_space: bool = False) -> str:
    """A regex matching any of these words, the longest first (so "a few" wins over "a"), written as a tree of their
    letters — "f(?:ew|ive|our)" rather than "five|four|few" — so that the regex engine leaves a place no word starts
    after a letter or two instead of trying every word in turn. `any_space`: a space in a word matches any run of
    white space. No words: the empty string."""
    tree: dict = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    space = r"\s+" if any_space else re.escape(" ")

    def branches(node: dict) -> str:
        # The branches start with different letters, so their order does not matter (sorted: the same regex every
        # run); a word that ends here is tried last ("?" is greedy), after the longer ones.
        parts = [(space if char == " " else re.escape(char)) + branches(node[char]) for char in sorted(node) if char]
        if not parts:
            return ""
        if "" not in node:
            return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
        return ("(?:" + "|".join(parts) + ")" if len(parts) > 1 or len(parts[0]) > 1 else parts[0]) + "?"

    return branches(tree)


def by_word(table: dict) -> dict:
    """{word: key} of a table of {key: its words, separated by spaces}."""
    return {word: key for key, said in table.items() for word in said.split()}


def may_contain(text: str, needles: tuple[str, ...]) -> bool:
    """False only when `text` holds none of `needles` (lower-case ASCII) in any letter case: a cheap test before a
    case-insensitive regex that cannot match without one of them. Text with characters beyond ASCII always may
    (case-insensitive matching knows more than `lower`: the Kelvin sign is a "k")."""
    if not text.isascii():
        return True
    return any(map(text.lower().__contains__, needles))


# "Caroline: …", "Dr Okafor: …": who speaks, written before the words of a relayed or group message ("Remember: …",
# "Note: …" open a note: no one is speaking).
_LABEL = re.compile(
    r"\A\s*(?!(?i:" + "|".join(re.escape(word) for word in NOTE_LABELS) + r")\s*:)"
    r"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}:\s+(?=\S)"
)


def without_label(text: str) -> str:
    """The text without a leading speaker label ("Caroline: I went…" → "I went…")."""
    return _LABEL.sub("", text, count=1)


def split_label(text: str) -> tuple[str, str]:
    """(the leading speaker label as written, with its colon and space; the rest): ("Caroline: ", "I went…")."""
    found = _LABEL.match(text)
    return (found.group(0), text[found.end() :]) if found else ("", text)


def label(text: str) -> str | None:
    """The leading speaker label of a text, lower-cased ("Caroline: I went…" → "caroline"), or None."""
    found = _LABEL.match(text)
    return found.group(0).strip().rstrip(":").casefold() if found else None


def asks(text: str) -> bool:
    """Whether a message ends by asking something: what follows it answers it."""
    return text.rstrip().endswith(("?", "？"))


def estimate_tokens(text: str) -> int:
    """A model-token estimate: about four characters each, one per CJK character."""
    cjk = sum(len(run) for run in _CJK.findall(text))
    return cjk + (len(text) - cjk + 3) // 4


def one_line(text: str, limit: int | None = None) -> str:
    """Collapse whitespace and newlines, so a memory cannot add headings or list items to a Markdown file."""
    flat = " ".join(text.split())
    if limit is not None and len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    return flat
