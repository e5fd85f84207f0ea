"""What one message commits to, or says is done, read from its words with no model: the user's requests to be
reminded ("can you remind me on Friday to call the plumber?", "rappelle-moi de…", "erinnere mich morgen daran, …",
"recuérdame…", "me lembra amanhã de…", "明天提醒我…"), the agent's promises with a time ("I'll send you the summary
tomorrow", "je t'enverrai le résumé demain", "ich schicke dir morgen…", "te lo enviaré mañana", "vou te enviar…
amanhã", "我明天把总结发给你") and its promises to remind, and the sentences that say something is done ("I called the
plumber", "done", "thanks, got the summary", "c'est fait", "erledigt", "ya llamé", "já liguei", "搞定了"). Pure.

The agent's "I'll …" without a time is no commitment (it is most often what it does at once); a question or an
offer ("shall I remind you?", "if you like, I'll…") is none either; nor is a sentence that says it is not done.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import NamedTuple

from ..commitment import BY_AGENT, BY_USER
from ..text import may_contain, one_line
from .duetime import Due, read_due

TASK_LIMIT = 160  # characters of what is to be done, as a commitment keeps it
# Characters of one sentence read for a request, a promise or a report: nobody asks for a reminder in a longer one,
# and a hostile message of one endless sentence is read in bounded time.
SENTENCE_LIMIT = 600


class Promise(NamedTuple):
    """A commitment one message makes: who makes it, what is to be done (as said, the words of its time taken out;
    "" when the message only confirms one, "I'll remind you on Friday!"), the line a commitment keeps, and when it
    is due (None: no time said)."""

    by: str
    what: str
    task: str
    due: Due | None


# --- sentences --------------------------------------------------------------------------------------------------

_SENTENCES = re.compile(r"(?<=[.!?;])\s+(?=\S)|(?<=[。！？；])|\n+")
# Lines of our own listings (load_core's and the core file's commitments) read back from a transcript.
_OWN_LINE = re.compile(
    r"^\s*[-*] (?:mem_\d+ )?(?:\*\*)?\[(?:due|overdue|asked|done|expired)[^\]]*\]|^\s*\(close one that is kept: ",
    re.MULTILINE,
)


# Text that is not the speaker's own word now: code, quoted lines, and what follows a line that introduces a draft
# written for someone else ("Here's a draft of the email:", "Example affirmation:").
_CODE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_QUOTED_LINE = re.compile(r"^[ \t]*>.*$", re.MULTILINE)
_DRAFT_INTRO = re.compile(
    r"^(?=[^\n]*?\b(?:draft|template|example|sample|caption|post|tweet|script|affirmation|statement|e-?mail|letter|message"
    r"|announcement|brouillon|modèle|exemple|entwurf|vorlage|beispiel|borrador|plantilla|ejemplo|rascunho|modelo"
    r"|exemplo)\b)[^\n]*:[ \t]*$|^(?=[^\n]*?(?:草稿|模板|示例|例如))[^\n]*[:：][ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
# Inside quotation marks: the trigger is preceded, in its sentence, by an opening quote not closed before it.
_OPEN_QUOTE = re.compile(r"[\"“«„「『](?=[^\"”»“」』]*\Z)")


def own_words(text: str) -> str:
    """The part of a message that is its speaker's own word now: our own listing lines, code, quoted lines and
    drafts written for someone else left out."""
    if "```" in text:
        text = _CODE.sub("\n", text)
    if ">" in text:
        text = _QUOTED_LINE.sub("", text)
    draft = _DRAFT_INTRO.search(text) if ":" in text or "：" in text else None
    if draft is not None:
        text = text[: draft.start()]
    if "[" in text or "(close" in text:
        text = "\n".join(line for line in text.split("\n") if not _OWN_LINE.match(line))
    return text


def sentences(text: str) -> list[str]:
    """The sentences of a message's own words (`own_words`)."""
    return [s.strip()[:SENTENCE_LIMIT] for s in _SENTENCES.split(own_words(text)) if s and s.strip()]


def quoted(sentence: str, at: int) -> bool:
    """Whether position `at` of a sentence is inside quotation marks ("… I'll send it by Friday." as an example)."""
    before = sentence[:at]
    return before.count('"') % 2 == 1 or _OPEN_QUOTE.search(before.replace('"', "")) is not None


# --- the user asks to be reminded -------------------------------------------------------------------------------

# Each: the words that ask (the group `then`, when given, closes a request whose task comes between: "kannst du mich
# morgen an X erinnern"), and the words that turn it into a question about facts instead ("remind me what …").
_REQUESTS = [
    re.compile(
        r"\b(?:remind\s+me|don['’]?t\s+let\s+me\s+forget|make\s+sure\s+I\s+(?:don['’]?t\s+forget|remember)"
        r"|(?:set|add|create|make|put\s+in)\s+(?:me\s+)?a\s+reminder|(?:ping|nudge)\s+me)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:rappel(?:le|les|lez)[- ]?moi|me\s+rappeler|fai(?:s|tes)[- ]moi\s+penser"
        r"|ne\s+me\s+laisse\s+pas\s+oublier)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:erinner(?<!\bich\serinner)(?:e|n)?\s+(?:sie\s+)?mich\b|lass\s+mich\s+nicht\s+vergessen\b"
        r"|mich\b(?P<between>(?:\s+\S+){0,8}?)\s+erinnern\b)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:recu[ée]rd(?:a|e)me|me\s+(?:puedes|podr[íi]as|puede|podr[íi]a)\s+recordar"
        r"|(?:puedes|podr[íi]as|puede|podr[íi]a)\s+recordarme|no\s+me\s+dejes\s+olvidar"
        r"|no\s+dejes\s+que\s+(?:se\s+)?(?:me\s+)?olvide|av[íi]same)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:lembr[ae][- ]me|me\s+lembr(?:a|e|as|es)|me\s+avis(?:a|e|as|es)|avisa[- ]me"
        r"|(?:pode|podes|poderia|podia)s?\s+me\s+(?:lembrar|avisar)"
        r"|(?:pode|podes|poderia)s?\s+lembrar[- ]me|n[ãa]o\s+me\s+deix(?:e|es|a)\s+esquecer)\b",
        re.IGNORECASE,
    ),
    re.compile(r"提醒一?下?我|別讓我忘|别让我忘了?|不要让我忘了?|記得提醒我|记得提醒我|记得叫我|到时候叫我"),
]
# A piece of every match of `_REQUESTS` written in ASCII (a match with a letter beyond ASCII, "recuérdame", "提醒我",
# lies in a text `may_contain` always lets through): a message or a sentence with none of them asks for no reminder.
_REQUEST_WORDS = (
    "remind",
    "forget",
    "sure",
    "ping",
    "nudge",
    "rappel",
    "penser",
    "oublier",
    "erinner",
    "vergessen",
    "recu",
    "recordar",
    "olvid",
    "avisame",
    "lembr",
    "avis",
    "esquecer",
)
_ASKING_FACTS = re.compile(
    r"\A\W*(?:when\b(?!\s+(?:i|i['’]m|it['’]s\s+time)\b)|what\b|what['’]s\b|who\b|where\b|how\b|which\b"
    r"|why\b|whether\b|if\b"
    r"|comment\b|quel|qui\b|où\b|pourquoi\b|combien\b|ce\s+qu|wie\b|was\b|wer\b|wo\b|warum\b|welche|ob\b"
    r"|qu[ée]\s+es|c[óo]mo\b|qui[ée]n\b|d[óo]nde\b|cu[áa]l|cu[áa]nto|por\s*qu[ée]\b|o\s+que\b|como\b|quem\b|onde\b"
    r"|qual\b|quanto|什么|怎么|哪|谁|为什么)",
    re.IGNORECASE,
)
# What may come before English words that ask the agent for a reminder: nothing, or asking ("can you", "please",
# "help me"); never a subject ("that reminds me", "I set a reminder on my watch", "I'd like to make sure I…").
_ASKED = re.compile(
    r"(?:\A|[,;:.!?—–(-]|\b(?:please|pls|(?:can|could|would|will)\s+(?:you|u)"
    r"|help\s+me|i\s+need\s+you\s+to|i\s+want\s+you\s+to|i['’]d\s+like\s+you\s+to|just|and|so|also|then|oh"
    r"|hey|ok|okay|by\s+the\s+way|btw))\s*\Z",
    re.IGNORECASE,
)

# --- the agent promises -----------------------------------------------------------------------------------------

# (Each pattern here is tried at every place in a sentence: the alternatives that start a word share one `\b`, and a
# word read by its ending is taken whole and its ending looked at behind it, `\w{5,}+(?<=aré|eré|iré)`, rather than
# given back a letter at a time. Either form matches what the plain one does: tests/test_promises.py.)
_REMIND_PROMISES = re.compile(
    r"\b(?:I(?:['’]ll|\s+will|\s+shall|['’]m\s+going\s+to|\s+am\s+going\s+to)\s+(?:\w+\s+)?remind\s+you\b"
    r"|je\s+(?:vous|te)\s+(?:le\s+)?rappellerai\b|je\s+vais\s+(?:vous|te)\s+(?:le\s+)?rappeler\b"
    r"|ich\s+(?:werde\s+)?(?:dich|sie|euch)\b(?:\s+\S+){0,6}?\s+erinnern\b|ich\s+erinnere\s+(?:dich|sie|euch)\b"
    r"|te\s+(?:lo\s+)?recordar[ée]\b|voy\s+a\s+recordarte\b|te\s+lo\s+recuerdo\b"
    r"|te\s+lembro\b|vou\s+te\s+lembrar\b|vou\s+lembr[aá][- ]?te\b|te\s+lembrarei\b|lembrarei\s+voc[êe]\b)"
    r"|(?:我会|我會|我)?(?:在\S{0,8})?提醒你",
    re.IGNORECASE,
)
_PROMISES = re.compile(
    r"\b(?:I(?:['’]ll|\s+will|\s+shall|['’]m\s+going\s+to|\s+am\s+going\s+to|\s+promise\s+to|['’]ll\s+make\s+sure\s+to)\s+"
    r"|let\s+me\s+(?!know\b|see\b|think\b|explain\b|guess\b|be\b)"
    r"|je\s+vais\s+|j['’]vais\s+|je\s+(?:(?:te|vous|le|la|les|lui|leur|t['’]|l['’]|m['’]en)\s*)*(?!serai\b)\w{4,}+(?<=rai)"
    r"|j['’](?!aurai\b)\w{4,}+(?<=rai)|je\s+m['’]en\s+occupe\b"
    r"|ich\s+werde\b|ich\s+(?:schicke|sende|schreibe|melde|rufe|kümmere|gebe|prüfe|schaue|mache|bringe|kläre|buche"
    r"|besorge|hole)\b|(?:werde|schicke|sende|schreibe|melde|rufe|kümmere|gebe|prüfe|schaue|mache|bringe|kläre|buche)"
    r"\s+ich\b"
    r"|voy\s+a\s+|(?<![\w'’])(?:(?:te|le|se|os|les)\s+)?(?:(?:lo|la|los|las)\s+)?(?<!\bai\s)(?<!\ba\s)(?<!\bas\s)"
    r"\w{5,}+(?<=aré|eré|iré)(?![\w'’])|me\s+encargo\b"
    r"|vou\s+|\w{6,}+(?<=arei|erei|irei)|(?:eu\s+)?te\s+(?:mando|envio|aviso|ligo|escrevo)\b)"
    r"|我(?:会|會|将|將|来|來|明天|今晚|稍后|稍後|晚点|晚點|下午|明早)",
    re.IGNORECASE,
)
# A piece of every match of `_REMIND_PROMISES` and `_PROMISES` written in ASCII (a match with a letter beyond ASCII,
# "enviaré", "I’ll", "我会", lies in a text `may_contain` always lets through): a message or a sentence with none of
# them promises nothing.
_PROMISE_WORDS = (
    "remind",
    "rappel",
    "erinner",
    "recordar",
    "recuerdo",
    "lembr",
    "i'll",
    "will",
    "shall",
    "going",
    "promise",
    "let",
    "vais",
    "rai",
    "occupe",
    "ich",
    "voy",
    "encargo",
    "vou",
    "arei",
    "erei",
    "irei",
    "mando",
    "envio",
    "aviso",
    "ligo",
    "escrevo",
)
# Not promises to do something: what the agent will be, or keep in mind.
_NOT_PROMISES = re.compile(
    r"\A(?:be\s+(?:happy|glad|here|around|available|back\s+soon)|keep\s+(?:that|this|it|them)\s+in\s+mind|remember"
    r"|note\s+(?:that|it|this)|do\s+my\s+best|try\s+my\s+best)\b",
    re.IGNORECASE,
)
_OFFERS = re.compile(
    r"\bif\s+you\b|\bwant\s+me\s+to\b|\bshould\s+I\b|\bshall\s+I\b|\bwould\s+you\s+like\b|\bdo\s+you\s+want\b"
    r"|\bsi\s+tu\s+veux\b|\bsi\s+vous\s+voulez\b|\bwenn\s+du\s+willst\b|\bsoll\s+ich\b|\bsi\s+quieres\b"
    r"|\bquieres\s+que\b|\bse\s+quiser\b|\bquer\s+que\s+eu\b|如果你|要不要|需要我",
    re.IGNORECASE,
)
_NEGATED_PROMISE = re.compile(
    r"\bwon['’]?t\b|\bwill\s+not\b|\bcan['’]?t\b|\bcannot\b|\bje\s+ne\b|\bnicht\b|\bno\s+(?:voy|te|lo|puedo)\b"
    r"|\bn[ãa]o\s+(?:vou|posso)\b|我不|我没|我沒",
    re.IGNORECASE,
)

# --- cleaning what is to be done --------------------------------------------------------------------------------

_LEADING = re.compile(
    r"\A(?:[\s,:;–—\-，、]+|(?:d['’]|qu['’])|(?:please|pls|just|also|again|and|then|kindly|for|sure|ok|okay|of\s+course"
    r"|s['’]il\s+te\s+plaît|bitte|gerne|klar|por\s+favor|claro|vale|certo|bien\s+sûr|d['’]accord|daran,?|dass"
    r"|actually|instead|rather|plutôt|stattdessen|lieber|mejor|melhor"
    r"|to|that|about|of|de|du|des|que|à|a|zu|an|da|do|para|um)(?![\w'’])\s*|(?:好的|好|没问题|沒問題|一下|要|去|在|记得)\s*)+",
    re.IGNORECASE,
)
_TRAILING = re.compile(
    r"(?:[\s,:;–—\-?!.。！？]+|(?<![\w'’])(?:please|pls|thanks|thank\s+you|merci|danke|gracias|obrigad[oa]|for\s+me"
    r"|on|at|by|in|for|before|until|around|le|am|um|el|la|na|no|às|as|à|a|de|bitte|por\s+favor|s['’]il\s+te\s+plaît"
    r"|instead|actually|then|again|too|as\s+well|plutôt|stattdessen|lieber|en\s+su\s+lugar|em\s+vez\s+disso"
    r"|ok|okay|吗|嗎|好吗|好嗎|可以吗|好不好|呢)(?![\w'’]))+\Z",
    re.IGNORECASE,
)
# Where the task ends and the reason or the aside begins: ", it is really important", "because…", "parce que…".
_ASIDE = re.compile(
    r"(?:,\s*(?:it|that|this)(?:['’]s|\s+is|\s+was|\s+will)\b|,\s*(?:which|who)\b"
    r"|(?:,|(?<![\s,]))\s*\b(?:because|since|otherwise|parce\s+que|weil"
    r"|porque|por\s+que)\b|，?因为).*\Z",
    re.IGNORECASE | re.DOTALL,
)
_DANGLING = re.compile(r"(?<![\w'’])(?:on|at|by|in|for|before|until|around|le|am|um|el|na|no|às|à)\s+(?=[,.;]|\Z)")
_USER_WORDS = {
    "me": "them",
    "my": "their",
    "mine": "theirs",
    "myself": "themselves",
    "i": "they",
    "i'm": "they're",
    "i've": "they've",
    "i'll": "they'll",
    "i'd": "they'd",
}
_AGENT_WORDS = {
    "you": "the user",
    "your": "the user's",
    "yours": "the user's",
    "yourself": "themselves",
    "u": "the user",
    "me": "the agent",
    "my": "the agent's",
    "i": "the agent",
    "i'm": "the agent is",
    "i'll": "the agent will",
}
_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_GAP = re.compile(rf"(?<=[{_CJK}，。])\s+(?=[{_CJK}])|(?<=[{_CJK}])\s+(?=[{_CJK}，。])")
_ENGLISH = re.compile(r"\A[\x00-\x7f’–—…]*\Z")
_ENGLISH_PROMISE = re.compile(r"I(?:['’]|\s)|let\s", re.IGNORECASE)  # the English words of a promise


def _without(sentence: str, spans: tuple[tuple[int, int], ...], start: int = 0, end: int | None = None) -> str:
    """The sentence from `start` to `end` with the words of its due time taken out."""
    end = len(sentence) if end is None else end
    kept, position = [], start
    for s, e in sorted(spans):
        if e <= position or s >= end:
            continue
        kept.append(sentence[position : max(position, s)])
        position = max(position, e)
    kept.append(sentence[position:end])
    return _CJK_GAP.sub("", " ".join(one_line(" ".join(kept)).split()))


def _tidy(what: str) -> str:
    what = _ASIDE.sub("", what)
    for _ in range(3):
        what = _DANGLING.sub("", what)
        what = _LEADING.sub("", what)
        what = _TRAILING.sub("", what)
    return one_line(what, TASK_LIMIT).strip()


def _english(what: str, words: dict[str, str]) -> str:
    """An English task said by someone else: "call my mom" → "call their mom" (the user's words), "send you the
    summary" → "send the user the summary" (the agent's)."""
    out = _WORD.sub(lambda m: words.get(m.group(0).lower().replace("’", "'"), m.group(0)), what)
    return re.sub(r"\bthey am\b", "they are", out)


_CONNECTOR = re.compile(r"\A\W*(?:(?:please|also|just)\s+)*(?P<word>to|that|about|of|for)\b", re.IGNORECASE)
# "remind me to <verb>" and its forms in the other languages: a task, even when asked as a question.
_CONNECTOR_TO = re.compile(
    r"\A\W*(?:to\b|de\b|d['’]|daran|zu\b|que\b|a\b|[^\W\d_]+(?:er|ir|re|ar|en)\b|[\u4e00-\u9fff])", re.IGNORECASE
)


def requests(text: str, said: datetime) -> list[Promise]:
    """The user's requests to be reminded in a message of theirs."""
    if not may_contain(text, _REQUEST_WORDS):
        return []  # no sentence of it can ask
    found = []
    for sentence in sentences(text):
        if not may_contain(sentence, _REQUEST_WORDS):
            continue
        for pattern in _REQUESTS:
            match = pattern.search(sentence)
            if match is None:
                continue
            groups = match.groupdict()
            if pattern is _REQUESTS[0] and not _ASKED.search(sentence[: match.start()]):
                break  # "that reminds me", "I set a reminder on my watch": said of something, not asked
            due = read_due(sentence, said)
            spans = due.spans if due else ()
            what = ""
            if groups.get("between") is not None:
                what = _without(sentence, spans, match.start("between"), match.end("between"))
            if not _tidy(what):  # "…mich morgen erinnern, die Pakete zur Post zu bringen": the task comes after
                what = _without(sentence, spans, match.end())
            if _ASKING_FACTS.match(_LEADING.sub("", what)):
                break  # "remind me what the wifi password is": a question about a fact
            if due is None and (
                re.match(r"\A\W*of\b", what, re.IGNORECASE)
                or (sentence.rstrip().endswith(("?", "？")) and not _CONNECTOR_TO.match(what))
            ):
                break  # "can you remind me of the score?", "…about the vaccination schedule?": asking to be told
            raw, what = what, _tidy(what)
            english = pattern is _REQUESTS[0] and bool(_ENGLISH.match(sentence))
            found.append(Promise(BY_USER, what, _user_task(what, raw, english), due))
            break
    return found


def _user_task(what: str, raw: str, english: bool) -> str:
    """The line a request keeps: "Remind the user to call their mom" (asked in English, its own connector kept:
    "that …", "about …"), else "Remind the user: <what was asked, as said>"."""
    if not what:
        return ""
    if not english:
        return f"Remind the user: {what}"
    found = _CONNECTOR.match(raw)
    connector = found.group("word").lower() if found else "to"
    if connector == "for" and not re.match(r"\A\W*for\s+(?:\S+\s+){0,6}?to\b", raw, re.IGNORECASE):
        connector = "about"  # "set a reminder for my writing session"
    elif connector in ("of", "for"):
        connector = "about" if connector == "of" else "to"
    return f"Remind the user {connector} {_english(what, _USER_WORDS)}"


def promises(text: str, said: datetime) -> list[Promise]:
    """The agent's promises in a message of its own: to remind the user (with or without a time), or to do
    something at a time it names."""
    if not may_contain(text, _PROMISE_WORDS):
        return []  # no sentence of it can promise
    found = []
    for sentence in sentences(text):
        if not may_contain(sentence, _PROMISE_WORDS):
            continue
        remind = _REMIND_PROMISES.search(sentence)
        match = None if remind is not None else _PROMISES.search(sentence)
        if remind is None and match is None:
            continue  # most sentences: the time words are read only where something is promised
        trigger = remind or match
        assert trigger is not None
        if quoted(sentence, trigger.start()):
            continue  # words the agent quotes or writes for someone else
        if sentence.rstrip().endswith(("?", "？")) or _OFFERS.search(sentence) or _NEGATED_PROMISE.search(sentence):
            continue
        due = read_due(sentence, said)
        spans = due.spans if due else ()
        if remind is not None:
            what = _tidy(_without(sentence, spans, remind.end()))
            task = ""
            if what:
                task = (
                    f"Remind the user to {_english(what, _AGENT_WORDS)}"
                    if _ENGLISH.match(sentence) and _ENGLISH_PROMISE.match(remind.group(0))
                    else f"Remind the user: {what}"
                )
            found.append(Promise(BY_AGENT, what, task, due))
            continue
        if match is None or due is None:
            continue  # a promise without a time is most often what the agent does at once
        if _ENGLISH.match(sentence) and _ENGLISH_PROMISE.match(match.group(0)):
            what = _tidy(_without(sentence, spans, match.end()))
            if not what or _NOT_PROMISES.match(what):
                continue
            task = f"The agent promised to {_english(what, _AGENT_WORDS)}"
        else:
            what = _tidy(_without(sentence, spans))
            if not what:
                continue
            task = f"The agent promised: {what}"
        found.append(Promise(BY_AGENT, what, task, due))
    return found


# --- saying it is done ------------------------------------------------------------------------------------------

_BARE_DONE = re.compile(
    r"\A(?:(?:ok(?:ay)?|great|thanks|thank\s+you|yes|yep|yup|sí|si|oui|ja|sim|好的?|谢谢)[\s,!.]*)?"
    r"(?:(?:it['’]s\s+|that['’]s\s+|all\s+)?done(?:\s+and\s+done)?|did\s+it|finished|sorted|handled|completed"
    r"|taken\s+care\s+of|(?:just\s+|already\s+)?(?:sent|paid|booked|called|bought|fixed|ordered|emailed|mailed"
    r"|submitted|did|finished)\s+(?:it|them|him|her|that)|c['’]est\s+fait|fait|c['’]est\s+réglé|terminé|erledigt|fertig|gemacht|hecho|listo|ya\s+está"
    r"|feito|pronto|tá\s+feito|está\s+feito|concluído|搞定了?|做完了|完成了|办好了|弄好了|✅|✔️?|☑️?)"
    r"(?:[\s,!.]*(?:thanks|thank\s+you|merci|danke|gracias|obrigad[oa]|谢谢))?[\s!.。！✅👍🙂😊]*\Z",
    re.IGNORECASE,
)
_DONE = re.compile(
    # English: I/we + a past form (not the ones that say what was meant: "I wanted to…"), "is done", "got the X"
    r"\b(?:i|we)(?:['’]ve|\s+(?:have|just|already|finally|actually|now|also))*\s+"
    r"(?!(?:wanted|planned|tried|hoped|intended|decided|needed|meant|wished|promised|asked|agreed|offered|expected"
    r"|attempted|failed|used|supposed|scheduled|started|considered|thought|liked|loved|hated|preferred|worried"
    r"|forgot|forgotten|missed|remembered|noted|added|set)\b)"
    r"(?:\w{3,}ed|sent|paid|bought|made|did|done|wrote|took|told|gave|rang|spoke|met|found|brought|put|left|went"
    r"|spent|sold|read|fixed|got\s+(?!it\b)\w+|finished|booked)\b"
    r"|\b(?:is|was|are|were|['’]s|has\s+been|have\s+been)\s+(?:now\s+|already\s+|all\s+|finally\s+)?"
    r"(?:done|sent|paid|booked|fixed|sorted|handled|finished|completed|delivered|submitted|cancell?ed|renewed|signed"
    r"|posted|ordered|filed|returned|arranged|confirmed|taken\s+care\s+of|dealt\s+with|called|bought|cleaned"
    r"|repaired|settled)\b"
    r"|\b(?:got|received|(?:have|['’]ve)\s+(?:got|received))\s+(?!it\b)(?:the|your|my|his|her|their|it\s+\w)"
    r"|\A(?:here(?:['’]s|\s+is|\s+are)|as\s+promised|attached\s+is|please\s+find)\b"
    # English with the subject left out, at the start: "Booked the vet for Biscuit!", "Returned the books today."
    r"|\A\W*(?:(?:just|finally|already|ok|okay|so)[,\s]\s*)*(?:\w{3,}ed|sent|paid|bought|made|did|wrote|took|gave|rang|found"
    r"|brought|fixed|finished|booked)\s+(?:(?:mom|mum|dad|him|her|them|the\s+kids|my\s+\w+)\s+)?"
    r"(?:the|my|our|a|an|those|them|his|her|their)\b"
    # French: j'ai + participle, c'est fait, bien reçu, est fait/envoyé…
    r"|\bj['’]ai\s+(?:\S+\s+){0,3}?\w+(?:é|i|is|it|u|ert|ait)s?\b|\bje\s+l['’]ai\s+\w+|\bc['’]est\s+(?:fait|réglé)\b"
    r"|\bbien\s+reçu\b|\b(?:est|sont|a\s+été)\s+(?:fait|envoyé|payé|réglé|réservé|terminé)e?s?\b"
    # German: (ich) habe/hab … + participle, erledigt, ist erledigt…
    r"|\b(?:ich\s+)?hab(?:e)?\s+(?:\S+\s+){0,5}?(?:ge\w+(?:t|en)|\w+ge\w+(?:t|en)|erhalten|bekommen|erledigt|bezahlt"
    r"|verschickt|besorgt|bestellt)\b|\berledigt\b|\b(?:ist|sind|wurde|wurden)\s+(?:schon\s+|jetzt\s+|bereits\s+)?"
    r"(?:erledigt|bezahlt|verschickt|gebucht|gemacht|geschickt|fertig)\b"
    # Spanish: ya + preterite, he + participle, hecho/listo/recibí…
    r"|\bya\s+(?:lo\s+|la\s+|le\s+|los\s+|las\s+)?(?:\w{3,}(?:é|í|ó)|hice|puse|dije|traje|fui|tuve)\b"
    r"|\b(?:he|hemos)\s+(?:\w+\s+)?(?:\w+(?:ado|ido)|hecho|escrito|puesto|visto|dicho|vuelto)\b"
    r"|\b(?:recibí|llamé|pagué|envié|compré|terminé|hice|mandé|reservé)\b|\bya\s+est[áa]\b"
    # Portuguese: já + preterite, feito/pronto, recebi…
    r"|\bj[áa]\s+(?:\w+\s+)?\w{3,}(?:ei|iu|ou|i)\b|\bj[áa]\s+fiz\b"
    r"|\b(?:recebi|enviei|liguei|paguei|comprei|marquei|fiz|mandei|terminei|resolvi)\b"
    r"|\b(?:está|tá|foi|foram)\s+(?:feit|pag|enviad|resolvid|marcad|pront)[oa]s?\b"
    # A thing and what was done to it, alone in a short sentence: "Pediatra marcado!", "Tickets booked.", "Steuer
    # erledigt", "Billets réservés !"
    r"|\A\W*(?:[^\W\d_]+\s+){1,3}(?:[^\W\d_]{2,}(?:ado|ada|ados|adas|ido|ida|idos|idas)|[^\W\d_]{3,}(?:é|ée|és|ées)"
    r"|[^\W\d_]{3,}ed|ge[^\W\d_]{3,}(?:t|en)|erledigt)(?:\W*\Z|\s*[,;:–—-])"
    # Chinese
    r"|已经|已經|完成了|搞定|做完|弄好了|办好了|办完|收到|发了|發了|打过|打過|交了|付了|买了|買了",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[,;，；]\s*")
_NOT_DONE = re.compile(
    r"\bnot\b|n['’]t\b|\bnever\b|\byet\b|\bstill\s+(?:need|have\s+to|must|got\s+to)\b|\bforg[eo]t\b|\bmissed\b"
    r"|\bfailed\b|\bpas\b|\bjamais\b|\bplus\b|\bnicht\b|\bnie\b|\bkein|\bno\s+(?!,)\w|\btodav[íi]a\b|\ba[úu]n\b"
    r"|\bnunca\b|\bn[ãa]o\b|\bainda\b|没|沒|还没|還沒|未|忘",
    re.IGNORECASE,
)
# A sentence about a reminder, a calendar or a list is about the promise, never that it was kept ("I've set a
# reminder for Friday", "I put it in your calendar").
_ABOUT_REMINDERS = re.compile(
    r"remind|rappel|erinner|record|lembr|提醒|calendar|calendrier|kalender|calendario|agenda|to-?do|日历|日程",
    re.IGNORECASE,
)


# Verbs of talking, thinking or reading about something: a report that a topic came up, never that a task is done
# ("we talked about the plumbing" does not call the plumber).
_TALK = re.compile(
    r"\b(?:talked|discussed|chatted|spoke|mentioned|thought|wondered|asked|read|heard|learned|learnt|researched"
    r"|looked|argued|joked|complained|dreamt|dreamed|parlé|discuté|pensé|gesprochen|geredet|diskutiert|nachgedacht"
    r"|hablamos|hablé|hablado|conversamos|pensé|falamos|falei|conversamos|conversei|pensei"
    # seeing, reading or hearing of it: "j'ai vu que Zalando fait des soldes"
    r"|saw|seen|noticed|vu|lu|entendu|remarqué|gesehen|gelesen|gehört|bemerkt|vi|visto|leí|leído|oí|escuché|notei|li"
    r"|ouvi|reparei)\b|聊|谈|談|讨论|討論|看到|听说",
    re.IGNORECASE,
)


def done_sentences(text: str, role: str, said: datetime) -> list[str]:
    """The sentences of a message that say something is done ("I called the plumber", "got the summary"); a
    message that is only "done" (in any of the languages) gives [""] — done, about what was said just before.
    `said` is when (a sentence that promises or asks something for a later time is no report)."""
    flat = one_line(text)
    if _BARE_DONE.match(flat):
        return [""]
    out = []
    for sentence in sentences(text):
        found = _DONE.search(sentence)
        if found is None or _TALK.search(found.group(0)):
            continue
        # Its own clause says it: "Já peguei o terno, pode tirar o lembrete" is done, whatever the rest asks.
        clause = _CLAUSE.split(sentence[found.start() :], maxsplit=1)[0]
        if sentence.rstrip().endswith(("?", "？")) or _NOT_DONE.search(sentence) or _ABOUT_REMINDERS.search(clause):
            continue
        if promises(sentence, said) or requests(sentence, said):
            continue  # "I'll call the plumber tomorrow": a promise, not a report
        delivered = found.group(0).lower().startswith(("here", "as promised", "attached", "please find"))
        if delivered and role != "assistant":
            continue  # "here is…" from the user hands something over; from the agent it delivers what it promised
        out.append(sentence)
    return out


# --- the owner calling a commitment off or moving it ---------------------------------------------------------------

_CANCEL = re.compile(
    r"\b(?:cancel|cancell?ed|call\s+off|called\s+off|scrap|scratch|drop|(?<!n['’]t\s)(?<!not\s)forget\s+(?:about\s+)?"
    r"(?:it|that|the|this|my|calling|sending|paying|buying|booking|to)|never\s*mind|no\s+need\s+(?:to\s+remind|for\s+the"
    r"|anymore)|(?:don['’]t|do\s+not|no\s+longer)\s+(?:need\s+to\s+)?remind\s+me|stop\s+reminding|not\s+needed"
    r"\s+anymore|annule[rz]?|laisse\s+tomber|oublie\s+(?:ça|le|la|de)|plus\s+besoin|pas\s+besoin\s+de\s+me"
    r"|storniere|stornieren|lösch(?:e|en)|vergiss\s+(?:es|das|die|den)|nicht\s+mehr\s+nötig|erinnere\s+mich\s+nicht"
    r"|cancela[rs]?|cancele|olvídalo|olvida\s+(?:el|la|lo)|ya\s+no\s+hace\s+falta|no\s+hace\s+falta|no\s+me"
    r"\s+recuerdes|olvídate\s+de|olvidate\s+de|anula[rs]?|esquece|esqueça|não\s+precisa|não\s+é\s+preciso|não\s+me\s+lembre|delete|remove|erase"
    r"|supprime[rz]?|efface[rz]?|streich\w*|lösch\w*|borra[rs]?|bórralo|apaga[rs]?|apague)\b"
    r"|取消|不用提醒|不用了|算了|不需要提醒",
    re.IGNORECASE,
)
_MOVE = re.compile(
    r"\b(?:move|moved|push|pushed|postpone|postponed|reschedule|rescheduled|change\s+(?:it|that|the\s+\w+)\s+to"
    r"|make\s+it|shift|bring\s+(?:it\s+)?forward|instead|déplace[rz]?|décale[rz]?|reporte[rz]?|repousse[rz]?"
    r"|déplacer|décaler|reporter|repousser|plutôt|verschieb\w*|lieber|stattdessen|cambia[rs]?|cambiarlo|mueve"
    r"|muévelo|mover|moverlo|pospón|posponer|posponerlo|aplaza[rs]?|aplazarlo|mejor|muda|mude|mudar|adia[rs]?"
    r"|passa\s+(?:para|pra)|passar\s+(?:para|pra)|em\s+vez\s+disso)\b|改到|推迟|推遲|挪到|改成|换到|換到",
    re.IGNORECASE,
)
# A word that points at a commitment said before without naming its task: "move it to Monday", "cancel that".
_POINTING = re.compile(
    r"\b(?:it|that|this|the\s+reminder|reminder|ça|le\s+rappel|es|das|die\s+erinnerung|erinnerung|lo|la|eso"
    r"|el\s+recordatorio|recordatorio|isso|o\s+lembrete|lembrete)\b|那个|那個|这个|這個|提醒",
    re.IGNORECASE,
)


# A question that asks the agent to do something is a request: "Can you push the bank call to Thursday?", "Kannst
# du die Erinnerung auf Donnerstag verschieben?", "你能把提醒取消吗？".
_ASKING_TO_DO = re.compile(
    r"\A\W*(?:(?:so|and|also|oh|hey|ok(?:ay)?|actually)[,\s]+)*(?:(?:can|could|would|will)\s+you|would\s+you\s+mind"
    r"|tu\s+peux|peux-tu|pourrais-tu|pouvez-vous|pourriez-vous|kannst\s+du|könntest\s+du|können\s+sie|könnten\s+sie"
    r"|(?:me\s+)?(?:puedes|podrías|puede|podría)|(?:você\s+)?(?:pode|podes|poderia|podia)s?)\b|\A\W*(?:你能|你可以|能不能|可以|能)",
    re.IGNORECASE,
)


def _asks_only(sentence: str) -> bool:
    """A question that asks nothing to be done: "cancel it?" no, "can you cancel it?" yes (_ASKING_TO_DO)."""
    return sentence.rstrip().endswith(("?", "？")) and not _ASKING_TO_DO.match(sentence)


def called_off(text: str) -> list[str]:
    """The sentences of the owner's message that call a commitment off ("cancel the plumber reminder", "never mind
    the flowers"); never a question, unless it asks the agent to ("can you cancel…?")."""
    return [s for s in sentences(text) if _CANCEL.search(s) and not _asks_only(s)]


def moved(text: str, said: datetime) -> list[tuple[str, Due]]:
    """The sentences of the owner's message that move a commitment to another time, with that time ("move the
    dentist reminder to Monday", "make it 5pm instead")."""
    out = []
    for sentence in sentences(text):
        found = _MOVE.search(sentence)
        if not found or _asks_only(sentence):
            continue
        # The time it moves to is in the clause that moves it, not in a reason after it ("…auf Montag, er ist heute
        # nicht im Büro", "…pra sexta, só recebo na quinta").
        clause = _CLAUSE_END.split(sentence[found.start() :], maxsplit=1)[0]
        due = read_due(sentence[: found.start()] + clause, said) or read_due(sentence, said)
        if due is not None:
            out.append((sentence, due))
    return out


_CLAUSE_END = re.compile(
    r"[,;:]\s+(?!(?:at|um|à|a\s+las|às|to|auf|à|a|para|pra)\b)|(?<!\s)\s+(?:because|weil|parce\s+que|porque|car)\b"
)


def points(sentence: str) -> bool:
    """Whether a sentence points at a commitment without naming it ("move it", "cancel that reminder")."""
    return bool(_POINTING.search(sentence))
