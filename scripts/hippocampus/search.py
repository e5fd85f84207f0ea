"""Ranking memories for a query: BM25 over words (content, plus keywords at a lower weight), blended with
importance and recency. Each hit carries its named parts so a ranking can be explained, and its sources in the
order they match the query (a memory holds its own statement and the turns attached to it). Pure.

Ranking reads the store through its search cache (store.cache.Cache).
"""

from __future__ import annotations

import math
import re
from itertools import pairwise
from collections.abc import Collection
from typing import Any, NamedTuple
from datetime import datetime

from .claims import asserted, one_party, speaks_of
from .daywords import MONTH_OF, WEEKDAY_NAMES, WEEKDAY_OF, may_name_days
from .model import Memory
from .store.cache import Cache, Facts
from .terms import (
    days_of_text,
    denser,
    document_terms,
    pieces,
    text_terms,
    without_said,
    Piece,
    TIME_TERM,
    agent_term,
    agents,
)
from .smalltalk import substance
from .text import TITLE_STOP, asks, label, stem, terms, without_label, words

K1 = 0.9
B = 0.5
WHEN_WEIGHT = 0.5  # how much a "when" question favours memories that say when
# "when": a question that names a time ("last Saturday", "two weeks ago", "in May") favours the memories said in it
# or referring to it; a question that names none has no such part and ranks as if it did not exist.
WEIGHTS = {"relevance": 0.8, "importance": 0.1, "recency": 0.1, "when": 0.1}
WEAK_MATCH = 0.5
BATCH = 256
# The answer to a matching question is listed before it when the sentences that ask hold at least this share of the
# question's match; else just after it (the question's statement part matched: that statement is what was found).
ASKED_SHARE = 0.5
# A memory's turns that match the query at least this share as well as its best turn are what was found; its other
# turns (weaker matches, and the turns that do not match at all) are context, read after the turns that match well of
# the next CONTEXT_AFTER memories (reading_order).
LEAD_SHARE = 0.5
CONTEXT_AFTER = 2


class Hit(NamedTuple):
    """A memory found, with its score and the score's named parts, the query terms it holds, its sources in the
    order they match (best first), how many of those lead (the turns that match well: reading_order) and the attached
    turn that matches best (when it matches better than the memory)."""

    memory: Memory
    score: float
    parts: dict
    importance: float
    matched: list[str]
    sources: list[dict]
    turn: dict | None
    lead: int = 0  # the first `lead` sources match the query at least LEAD_SHARE as well as the best one
    newer: str = ""  # the id of a hit listed above it that says another value of the same thing later (newest_first)


_ASKS_WHEN = re.compile(
    r"\A\W*(?:[A-Z][\w'’.-]*:\s+)?(?:when\b|what (?:date|day|time|year|month)\b|which (?:date|day"
    r"|year|month)\b|how long ago\b|since when\b)",
    re.IGNORECASE,
)

# The words that ask for a count or an amount ("How many guitars do I own?", "Combien de…", "Wie viele…"): the form of
# the question, not what it is about (a memory that says "so many plans" does not answer it).
_ASKS_HOW_MANY = re.compile(
    r"(?<![\w'’])(?:how\s+(?:many|much)|combien|wie\s+viele?|cu[áa]nt[oa]s?|quant[oa]s?)(?![\w'’])|多少", re.IGNORECASE
)


def query_weights(query: str, read_as_days: Collection[str] = ()) -> dict[str, float]:
    """Each distinct term of a query with its weight: 1, and WHEN_WEIGHT for TIME_TERM when it asks when; not the
    words that ask how many, nor the terms `read_as_days` (asked_days) unless the query has no other; and the
    attribute of whom it asks (asked_attributes), at 1. A query of only stop words, like "who is it", has none."""
    found = dict.fromkeys(terms(_ASKS_HOW_MANY.sub(" ", query)), 1.0)
    found = {t: w for t, w in found.items() if t not in read_as_days} or found
    if found and _ASKS_WHEN.search(query):
        found[TIME_TERM] = WHEN_WEIGHT
    found.update(dict.fromkeys(asked_attributes(query), 1.0))
    return found


# What a question asks of whom, as claims.claim_terms names what a statement states ("how old am I?" →
# "_age@user", "what's my sister's name?" → "_name@user>sister", "who is my manager?" → "_name@user>manager"). The
# words of each attribute, in the languages the skill reads; a possessive names the holder, else "I" the user.
_ASKED = {
    "name": (
        "names? called call nom appelle[sz]? appelles heiße heisse heißt heisst llamo llamas llama nombre chamo"
        " chama nome",
        "名字 叫什么 叫啥",
    ),
    "age": ("old age âge alt años anos edad idade", "岁 歲 多大"),
    "phone": (
        "phone cell mobile cellphone telephone téléphone portable handy telefon handynummer telefonnummer teléfono"
        " móvil celular telemóvel telefone",
        "电话 手机",
    ),
    "home": ("live lives living habite[sz]? habites vis wohne wohnst wohnt vivo vives vive moro moras mora", "住"),
    "work": (
        "work works job employer travaille[sz]? travailles boulot arbeite arbeitest arbeitgeber trabajo trabajas"
        " trabalho trabalhas empresa entreprise",
        "上班 工作 公司",
    ),
}
# Words of a script with spaces stand alone; Chinese ones are found inside a run of characters.
_ASKED_WORDS = re.compile(
    "|".join(
        rf"(?P<{name}>(?<!\w)(?:{'|'.join(spaced.split())})(?!\w)|{'|'.join(unspaced.split())})"
        for name, (spaced, unspaced) in _ASKED.items()
    ),
    re.IGNORECASE,
)
_ASKED_HOLDER = re.compile(
    r"(?<!\w)(?i:my|our|mon|ma|mes|notre|mein|meine|meinen|meinem|meiner|unser|unsere|mi|mis|nuestro|nuestra|meu"
    r"|minha|nosso|nossa|o\s+meu|a\s+minha)\s+(?P<noun>[^\W\d_]+)(?:['’]s\b)?(?:\s+(?P<name>[A-ZÀ-Ý][\w'’-]+))?"
)
# A person the question names ("how old is Diego?", "¿cuántos años tiene Diego?"): a capitalised word after the first.
_ASKED_NAME = re.compile(r"(?<=\w )[A-ZÀ-Ý][a-zà-ÿ]+")
_CARS = re.compile(r"(?<!\w)(?:car|drive|voiture|auto|wagen|coche|carro|车)(?!\w)", re.IGNORECASE)
_NOT_HOLDERS = frozenset(
    """name names age job work car nom âge alter edad idade nombre nome phone cell mobile number telephone téléphone
    portable handy telefon teléfono móvil celular telemóvel telefone""".split()
)


def asked_attributes(query: str) -> list[str]:
    """The terms of the attributes a question asks of whom (see _ASKED); none when it asks of no one."""
    said = list(_ASKED_HOLDER.finditer(query))
    holders = [m.group("noun").lower() for m in said]
    chain = [stem(n) for n in holders if n not in _NOT_HOLDERS]
    named = [m.group("name") for m in said if m.group("name")] or _ASKED_NAME.findall(query)
    if named:
        holder = named[-1].lower()  # a person is known by their name ("my sister Ana" → "ana")
    elif chain:
        holder = ">".join(["user", *chain[:2]])
    else:
        holder = "user"  # "where do I live?", and a question that names no one else
    found = {
        f"{name}@{holder}"
        for match in _ASKED_WORDS.finditer(query)
        for name, said in match.groupdict().items()
        if said
        for name in [f"_{name}"]
    }
    if _CARS.search(query) and holder == "user":
        found.add("_name@user>car")
    if chain and not found and re.search(r"(?<!\w)(?:who|qui|wer|quién|quem|谁)(?!\w)", query, re.IGNORECASE):
        found.add(f"_name@{holder}")  # "who is my manager?": the role's name
    return sorted(found)


def asked_days(query: str, now: datetime) -> tuple[list[tuple[int, int]], set[str]]:
    """The stretches of days a question names, as (first, last) day numbers, read against `now` ("last Saturday",
    "two weeks ago", "in May", "上周六"): [] when it names none. With them, the terms of the words that name those
    days relative to `now` ("last", "week", "ago", "上周"): those are read as days, not matched as words — a memory
    that says "last week" of another week is not about the week asked. The names of days and months and numbers
    ("Saturday", "May", "2023") stay words: a memory may say them of the day it means."""
    if not may_name_days(query):
        return [], set()  # the reader of dates is not even loaded
    from .ingestion.duetime import names_a_day, read_periods  # the one reader of dates, built on first use

    periods = read_periods(query, now, question=True)
    relative = " ".join(
        w for p in periods for w in words(p.phrase) if not names_a_day(w) and not any(c.isnumeric() for c in w)
    )
    return [(p.first.toordinal(), p.last.toordinal()) for p in periods], set(terms(relative))


def in_days(days: str, asked: list[tuple[int, int]]) -> float:
    """1.0 when a memory's days (terms.days_text) meet any of the days asked about, else 0.0."""
    for found in days_of_text(days):
        if any(found[0] <= last and first <= found[1] for first, last in asked):
            return 1.0
    return 0.0


# A question in the first person that does not speak to the agent ("How long was I in Japan?", "Wie lange war ich in
# Japan?") asks what the user said: it is matched against the user's words, and the agent's turns attached to a
# memory there are context, not what was found. One that speaks to the agent ("What did you recommend?", "Was hast du
# mir empfohlen?") or of someone else ("What did Caroline research?") is matched against every word of a memory and
# lists every turn by how well it matches.
_FIRST_PERSON = re.compile(
    r"(?<![\w'’])(?:i|me|my|mine|myself|i['’](?:m|ve|ll|d)|je|moi|mon|ma|mes|ich|mich|mir|mein(?:e[mnrs]?)?|yo|mi|mis"
    r"|m[íi][oa]s?|conmigo|eu|mim|meu|minha|meus|minhas|comigo)(?![\w'’])|(?<![\w'’])[jm]['’](?=[^\W\d_])|我(?![们們])",
    re.IGNORECASE,
)
_SECOND_PERSON = re.compile(
    r"(?<![\w'’])(?:you|your|yours|yourself|yourselves|you['’](?:re|ve|ll|d)|tu|te|toi|ton|ta|tes|vous|votre|vos|du|dich"
    r"|dir|dein(?:e[mnrs]?)?|euch|euer|t[úu]|ti|tus|usted(?:es)?|contigo|vosotros|voc[êe]s?|teu|tua|teus|tuas"
    # Spanish and Portuguese say "you" in the verb: what the agent said, told, recommended…
    r"|dijiste|disseste|diste|(?:cont|mencion|recomend|aconsej|aconselh|explic|habl|fal|envi|mand|coment|pregunt"
    r"|pergunt)aste|(?:suger|escrib|respond|propus)iste|(?:escrev|respond|propus)este)"
    r"(?![\w'’])|(?<![\w'’])t['’](?=[^\W\d_])|[你您]",
    re.IGNORECASE,
)


# A request for advice ("Any suggestions?", "Can you recommend a hotel for my trip?", "What do you think?") is answered
# from what the user said of themselves — their tastes, plans and constraints — like a question about them; asking
# what the agent said before ("Which hotel did you recommend?", "Was hast du mir empfohlen?") is not a request.
_ASKS_ADVICE = re.compile(
    r"(?<![\w'’])(?:"
    r"(?:any|some)\s+(?:suggestions?|advice|tips|ideas|recommendations?)"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:suggest|recommend|advise)"
    r"|what\s+(?:do|would)\s+you\s+(?:suggest|recommend|advise|think)"
    r"|(?:des|quelques)\s+(?:conseils|suggestions|idées|recommandations|astuces)"
    r"|conseilles|conseillez|recommandes|recommandez|suggères|suggérez"
    r"|(?:m['’]|me\s+)(?:conseiller|recommander|suggérer)|qu['’]en\s+penses[-\s]tu"
    r"|(?:irgendwelche|ein\s+paar|einige)\s+(?:tipps|vorschläge|ratschläge|ideen|empfehlungen)"
    r"|empfiehlst|schlägst|(?:empfehlen|vorschlagen)(?=\s*\?)|was\s+meinst\s+du"
    r"|alg[uú]n[oa]?s?\s+(?:consejos?|sugerencias?|ideas?|recomendaci[oó]n(?:es)?)"
    r"|recomiendas|sugieres|aconsejas|(?:recomendar|sugerir|aconsejar)me|qu[ée]\s+opinas"
    r"|(?:alguma?s?|algum)\s+(?:dicas?|sugest(?:ão|ões)|conselhos?|ideias?|recomenda(?:ção|ções))"
    r"|recomenda|recomendas|sugere|sugeres|aconselha|(?:recomendar|sugerir|aconselhar)-me|me\s+(?:recomendar|sugerir|aconselhar)"
    r"|o\s+que\s+(?:você|tu)\s+acha"
    r")(?![\w'’])|有(?:什么|沒有|没有)?(?:好的?)?(?:建议|建議|推荐|推薦|主意)|(?:能|可以)(?:给我|給我)?(?:推荐|推薦|建议|建議)"
    r"|你(?:觉得|覺得)(?:呢|怎么样|怎麼樣)",
    re.IGNORECASE,
)


def about_the_user(query: str) -> bool:
    """Whether a question is answered from what the user said: it speaks in the first person, and either not to the
    agent or to ask its advice."""
    if _FIRST_PERSON.search(query) is None:
        return False
    return _SECOND_PERSON.search(query) is None or _ASKS_ADVICE.search(query) is not None


def order_sources(
    memory: Memory, weights: dict[str, float], average: float, about_user: bool = False
) -> tuple[list[dict], dict | None, int]:
    """(every source of the memory, those that lead first: in the order its pieces match the query — its statement's
    own sources, an attached turn's source — where the answer to a matching question comes just before the question
    unless it is small talk ("ok, let's do that"), and equal matches in the order they were said; the attached turn
    that matches best, when it matches better than the memory's own statement; how many of the sources lead). The
    pieces that lead: the first that may, and each that matches at least LEAD_SHARE as well — but not an attached turn
    that only repeats words of the query the memory's own statement holds (a reply that echoes what was said), unless
    it answers a matching question; and, for a question `about_user` (about_the_user), not an agent's turn attached to
    a memory whose own statement matches. `weights`: each query term's weight (its idf × its weight in the query);
    `average`: the store's average piece length (a piece's match is normalised by its length as in rank)."""
    # [value, comes before the question it answers, said at, piece, query terms it holds, answers a matching question]
    scored: list[list[Any]] = []
    for piece in pieces(memory):
        value, held = _match(piece.text, weights, average)
        scored.append([value, False, _said_at(piece), piece, held, False])
    own_value, own_held = scored[0][0], scored[0][4]  # the memory's own statement comes first in pieces()
    scored.sort(key=lambda item: item[2])
    for question, answer in pairwise(scored):
        if (
            asks(question[3].text)
            and not asks(answer[3].text)
            and question[0] > answer[0]
            and substance(answer[3].text)
        ):
            # It answers what matched: it matches as well, and comes first when what was asked matched; when only
            # what was said before the asking did ("I was in Japan for two weeks. Any tips?"), just after it.
            asked_value = _match(asked_part(question[3].text), weights)[0]
            first = asked_value >= ASKED_SHARE * _match(question[3].text, weights)[0]
            answer[0], answer[1], answer[5] = question[0], first, True
    scored.sort(key=lambda item: (-item[0], not item[1], item[2]))

    def context(piece: Piece) -> bool:
        return about_user and own_value > 0 and agents(piece)

    # The best piece that may lead (the memory's own statement always may).
    best_value, best = next((value, piece) for value, _, _, piece, _, _ in scored if not context(piece))
    leading: list[dict] = []
    rest: list[dict] = []
    for value, _, _, piece, held, answers in scored:
        echo = piece.turn is not None and own_value > 0 and held <= own_held and not answers
        leads = piece is best or (value > 0 and value >= LEAD_SHARE * best_value and not echo and not context(piece))
        (leading if leads else rest).extend(piece.sources)
    out: list[dict] = []
    for source in leading:
        if source not in out:
            out.append(source)
    lead = len(out)
    for source in rest:
        if source not in out:
            out.append(source)
    # The turn shown under the memory: the attached turn that matches best, context or not.
    shown_value, shown = scored[0][0], scored[0][3]
    return out, (shown.turn if shown.turn is not None and shown_value > 0 else None), lead


def _match(text: str, weights: dict[str, float], average: float | None = None) -> tuple[float, set[str]]:
    """How well one text matches the query, and the query terms it holds: BM25 over pieces as rank scores a memory,
    its length normalised against `average` (or not at all, to compare the parts of one text: None)."""
    counts = text_terms(text)
    held = [t for t in weights if counts.get(t)]
    norm = K1 * (1 - B + B * sum(counts.values()) / average) if average else K1
    return sum(weights[t] * counts[t] * (K1 + 1) / (counts[t] + norm) for t in held), set(held)


def reading_order(hits: list[Hit], about_user: bool = False) -> list[tuple[int, dict]]:
    """Every hit's sources as (the hit's place, source) in the order to read them, each turn once: a hit's leading
    turns (those that match the query well) in its place, and its other turns — context that matches weakly or not at
    all — after the leading turns of the next CONTEXT_AFTER hits; for a question `about_user` (about_the_user), where
    the agent's replies are context, after the leading turns of every hit. So the first few turns are the ones that
    answer, from more memories, rather than every turn of the first two."""
    out: list[tuple[int, dict]] = []
    seen: set = set()  # the turns listed: (session, message), or the source itself when it names no message
    after = len(hits) if about_user else CONTEXT_AFTER

    def add(place: int, sources: list[dict]) -> None:
        for source in sources:
            message = source.get("message")
            key = (str(source.get("session")), str(message)) if message is not None else id(source)
            if key not in seen:
                seen.add(key)
                out.append((place, source))

    for place, hit in enumerate(hits):
        add(place, hit.sources[: hit.lead])
        if place >= after:
            add(place - after, hits[place - after].sources[hits[place - after].lead :])
    for place in range(max(0, len(hits) - after), len(hits)):
        add(place, hits[place].sources[hits[place].lead :])
    return out


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


def asked_part(text: str) -> str:
    """The question a message ends with: its last sentences that ask ("I was in Japan for two weeks. Any tips for
    Kyoto? Or Osaka?" asks "Any tips for Kyoto? Or Osaka?")."""
    sentences = _SENTENCE_END.split(text.strip())
    start = len(sentences)
    while start and asks(sentences[start - 1]):
        start -= 1
    return " ".join(sentences[start:])


def _said_at(piece: Piece) -> str:
    return min((str(s.get("ts") or "") for s in piece.sources), default="")


def _postings(view: Cache, term: str, about_user: bool) -> list[tuple[int, float, float]]:
    """(doc, weighted count, piece length) of every memory that holds `term`: in the user's words for a question
    about what the user said (about_the_user), so an agent's reply that repeats the question's words does not lift
    the memory it is attached to; for any other, in the user's words or the agent's words around the memory,
    whichever is denser (as terms.document_terms picks a memory's piece)."""
    own = view.postings(term)
    theirs = [] if about_user else view.postings(agent_term(term))
    if not theirs:
        return own
    best = {doc: (tf, length) for doc, tf, length in own}
    for doc, tf, length in theirs:
        if denser(tf, length, best.get(doc)):
            best[doc] = (tf, length)
    return [(doc, tf, length) for doc, (tf, length) in best.items()]


def rank(
    view: Cache,
    query: str,
    now: datetime,
    top: int = 5,
    min_score: float = 0.0,
    domain: str | None = None,
    include_all: bool = False,
) -> list[Hit]:
    """The best `top` memories for `query`, best first. Only memories that share a term with the query qualify.

    Documents are visited in order of relevance, their facts read in batches; the walk stops once even a perfect
    importance and recency could not lift the next one into the results. Only the hits are decoded.
    """
    asked, read_as_days = asked_days(query, now)
    wanted = query_weights(query, read_as_days)
    if not wanted or not view.count:
        return []
    about_user = about_the_user(query)
    lists = {t: _postings(view, t, about_user) for t in wanted}
    idf = {t: wanted[t] * math.log(1 + (view.count - len(p) + 0.5) / (len(p) + 0.5)) for t, p in lists.items()}
    # The score of a document that holds every query term once at average length.
    ideal = sum(idf.values()) or 1.0
    average = view.average_length or 1.0
    relevance: dict[int, float] = {}
    get = relevance.get
    base, slope = K1 * (1 - B), K1 * B / average
    # Words first; saying when only adds to a memory that shares a word with the question. (The loop over every
    # posting is the hot path of a recall: kept to one dictionary update each.)
    for term, postings in sorted(lists.items(), key=lambda item: item[0] == TIME_TERM):
        weight = idf[term] * (K1 + 1)
        if term == TIME_TERM:
            for doc, tf, length in postings:
                if doc in relevance:
                    relevance[doc] += weight * tf / (tf + base + slope * length)
        else:
            for doc, tf, length in postings:
                relevance[doc] = get(doc, 0.0) + weight * tf / (tf + base + slope * length)
    order = sorted(relevance, key=relevance.__getitem__, reverse=True)
    if not order:
        return []
    # Relevance 1.0 is the best match of this query — or half an ideal match when every match is weaker, so a
    # weak match stays weak. Relative to the best, the strongest matches keep their order instead of all
    # reaching a cap, and importance and recency reorder only memories about as relevant as each other.
    ceiling = max(relevance[order[0]], ideal * WEAK_MATCH)
    w_rel, w_imp, w_rec = WEIGHTS["relevance"], WEIGHTS["importance"], WEIGHTS["recency"]
    w_when = WEIGHTS["when"] if asked else 0.0
    found: list[tuple[float, float, str, int, Facts, float]] = []
    floor = -1.0  # the score to beat once `top` hits are in hand
    for start in range(0, len(order), BATCH):
        batch = order[start : start + BATCH]
        if len(found) >= top and w_rel * min(1.0, relevance[batch[0]] / ceiling) + w_imp + w_rec + w_when < floor:
            break
        for doc, fact in view.facts(batch, now).items():
            if (domain and fact.domain != domain) or (fact.hidden and not include_all):
                continue
            rel = min(1.0, relevance[doc] / ceiling)
            score = w_rel * rel + w_imp * fact.importance + w_rec * fact.recency
            when = in_days(fact.days, asked) if asked else 0.0
            score += w_when * when
            if score >= min_score and (len(found) < top or score >= floor):
                found.append((score, rel, fact.id, doc, fact, when))
        found.sort(key=lambda h: (-h[0], -h[1], h[2]))
        del found[top:]
        if len(found) >= top:
            floor = found[-1][0]
    memories = view.fetch([h[3] for h in found], now.date())
    hits = []
    for score, rel, _, doc, fact, when in found:
        parts = {"relevance": round(rel, 4), "importance": round(fact.importance, 4), "recency": round(fact.recency, 4)}
        if asked:
            parts["when"] = when
        memory = memories[doc]
        held = document_terms(memory, claimed=False)[0]
        # Within the memory every word counts, the agent's too: which of its turns answers is told by all of them.
        matched = [t for t in lists if held.get(t) or held.get(agent_term(t))]
        sources, turn, lead = order_sources(memory, {t: idf[t] for t in matched}, average, about_user)
        shown = ["(says when)" if t == TIME_TERM else t for t in matched]
        hits.append(Hit(memory, round(score, 4), parts, fact.importance, shown, sources, turn, lead))
    return newest_first(hits)


# --- the same thing said with other values: the newest first ----------------------------------------------------

_VALUE = re.compile(r"\d+(?:[.:,/-]\d+)*|(?<=[\w,;:] )[A-ZÀ-Ý][\w'’-]+")
_WEEKDAYS = [names.split()[0] for names in WEEKDAY_NAMES.values()]  # "Tues" is Tuesday, "Fri" Friday
SAME_MATCH = 0.5  # the share of their matched words two hits hold both, to be about the same thing
SAME_WORDS = 0.3  # how alike the rest of their words must be (Dice), values aside


def stated_at(memory: Memory) -> str:
    """When a memory's statement was last said: when its value last changed, else when it was made."""
    since = memory.extra.get("since")
    return str(since if isinstance(since, str) and since else memory.created or "")[:19]


def values_in(text: str) -> frozenset[str]:
    """The values a statement names, as recall compares them: its numbers and its names (capitalised words after the
    first)."""
    text = TITLE_STOP.sub(r"\1", text)  # "Dr. Okafor" is a name after a word, not after a full stop
    found = (v.lower().removesuffix("'s").removesuffix("’s") for v in _VALUE.findall(text))
    return frozenset(v for v in found if v != "i" and not v.startswith(("i'", "i’")))  # "I", "I'm": no name


def marks(memory: Memory) -> tuple[set[str], set[str], bool]:
    """What encoding kept of what a memory's words state (encoding.statement_marks): the attributes of whom, whom
    they speak of, and whether they state nothing at all; a hand-edited mark of another shape reads as none."""
    found = []
    for name in ("states", "about"):
        value = memory.raw.get(name)
        found.append({s for s in value if isinstance(s, str)} if isinstance(value, list) else set())
    return found[0], found[1], memory.raw.get("asks") is True


def _plain_words(text: str) -> set[str]:
    """A statement's terms without its values: no number, no word written with a capital."""
    names = {word.lower() for word in re.findall(r"\b[A-ZÀ-Ý][\w'’-]*", text)}
    return {term for term in terms(text) if term not in names and not any(map(str.isdigit, term))}


def said_alike(one: Hit, other: Hit) -> bool:
    """`other`, said later, is the same thing as `one` said with another value: both state the same attribute of the
    same holder; or, when neither states one that the store could read, the same speaker says them of no different
    people, they match mostly the same words of the question, are said in mostly the same other words, and a value
    or two of the same kind stands in place of others ("the reunion is on the 20th", "… on the 27th"). A question, a
    supposition or a quoted text says no other value of anything."""
    mine, my_holders, _ = marks(one.memory)
    theirs, their_holders, asking = marks(other.memory)
    if asking:
        return False
    if mine & theirs:
        return True
    if one.memory.raw.get("kind") == "commitment" or other.memory.raw.get("kind") == "commitment":
        return False
    speakers = label(one.memory.content), label(other.memory.content)
    if all(speakers) and speakers[0] != speakers[1]:
        return False  # what one person says is not what another says
    a = {t for t in one.matched if t != TIME_TERM and not t.startswith("_")}
    b = {t for t in other.matched if t != TIME_TERM and not t.startswith("_")}
    # Their words, without who said them or when (the day a memory was said is no value it states).
    said, saying = (without_said(without_label(hit.memory.content)) for hit in (one, other))
    if mine or theirs:
        # One states what the other speaks of in other words ("my dentist is Dr. Hale", "I switched dentists, I go
        # to Dr. Okafor now"): of the same one, both answering the question, with another value of the same kind in
        # place of the stated one's.
        said, saying = asserted(said), asserted(saying)
        spoken = any(speaks_of(t, saying) for t in mine) or any(speaks_of(t, said) for t in theirs)
        return (
            spoken
            and bool(a & b)
            and one_party(my_holders, their_holders)
            and _in_place(values_in(said), values_in(saying))
        )
    if not a or not b or len(a & b) < SAME_MATCH * len(a | b):
        return False
    if my_holders and their_holders and not my_holders & their_holders:
        return False  # "my manager, Rachel, …" and "my friend's manager, Tom, …"
    words, others = _plain_words(said), _plain_words(saying)
    if 2 * len(words & others) < SAME_WORDS * (len(words) + len(others)):
        return False  # not said in mostly the same words
    old, new = values_in(said), values_in(saying)
    if not (0 < len(old - new) <= 2 and 0 < len(new - old) <= 2):
        return False  # a value or two in place of another, not another story
    # Values of the kinds the other's are: the 20th for the 27th, May 27th for the 20th; no name for a day.
    kinds = _kinds(old - new), _kinds(new - old)
    return kinds[0] <= kinds[1] or kinds[1] <= kinds[0]


def _kinds(values: frozenset[str]) -> set[str]:
    """The kinds of these values: numbers ("27th", "16:40"), days and months ("Friday", "Tues", "May"), names."""
    return {
        "number"
        if any(map(str.isdigit, value))
        else "day"
        if value in WEEKDAY_OF or value in MONTH_OF or (len(value) >= 3 and any(d.startswith(value) for d in _WEEKDAYS))
        else "name"
        for value in values
    }


def _in_place(old: frozenset[str], new: frozenset[str]) -> bool:
    """Whether the newer of two statements names a value in place of one the older names, of the same kind (a
    number for a number, a day for a day, a name for a name); one that names all of the older's values again says
    them again."""
    return bool(_kinds(old - new) & _kinds(new - old))


def newest_first(hits: list[Hit]) -> list[Hit]:
    """The hits with each one that says the same thing as a hit above it with other values, and said it later,
    moved above that hit, which is marked as said earlier (`newer`): when the store cannot tell whether a newer
    statement replaces an older one, the agent reads both, the newer first."""
    out = list(hits)
    for position in range(1, len(out)):
        hit = out[position]
        when = stated_at(hit.memory)
        above = [i for i in range(position) if said_alike(out[i], hit) and stated_at(out[i].memory) < when]
        if not above:
            continue
        first = above[0]
        out.pop(position)
        out.insert(first, hit)
        for i in above:
            older = out[i + 1]
            if not older.newer:
                out[i + 1] = older._replace(newer=hit.memory.id)
    return out
