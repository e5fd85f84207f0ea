"""What a statement asserts, read from the shape of its sentences rather than from the words that open them: who it
is about (its holder: the user, the user's sister, Lea, the standup), which attribute of them (a name, an age, where
they live or work, when an event is, how many of something they have, any noun said of them: "my favourite colour"),
and which value. Pure.

A claim is read from a clause that states something, in the languages the skill reads:
- a possessive and a noun, a verb of being, a value: "my sister's name is Sara", "our cat is called Nala", "my
  manager is Priya now", "mon adresse est …", "mein Zahnarzt heißt …", "mi coche es un Seat", "meu chefe é o Rui",
  "我的医生是王医生" — the holder is the chain of nouns ("sister"), the attribute the last noun ("name"); a role's
  proper name is its name ("my manager is Priya" is the manager's name, as "my manager's name is Priya" is);
- the user or a named person and a verb of an attribute: living somewhere ("we moved to Porto", "j'habite à Lyon"),
  working somewhere, being called something ("Hi, I'm Dana", "je m'appelle Dana"), being of an age ("I just turned
  35"), driving a car;
- a count: "my 5th painting", "I now have four guitars";
- a thing and when it is: "the standup is at 10am", "the meeting is on Monday".

Nothing is read from a question, a hypothetical ("if I moved to Rome"), words in quotes or said by someone else ("he
said my…"), or a text the user asks to have written ("draft an email saying…"). A noun put beside a name ("my new
neighbour Luis") introduces someone: it names the role's holder but never replaces another one's name.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import lru_cache

from .daywords import MONTH_OF
from .text import ELIDED, SENTENCE_BREAK, TITLE_STOP, by_word, stem

NAME, AGE, COUNT, DAY, TIME = "_name", "_age", "_count", "_day", "_time"

# The words of a few attributes that facts change often, in the languages the skill reads: a fact is about the same
# thing whichever of them it uses ("we live in Lisbon", "we moved to Porto"; "I work at Acme", "my job at Acme").
# Each stands in a fact's topic as one term no typed word can be (an underscore splits words).
ATTRIBUTES = {
    "_home": """live lives lived living reside resides resided residing moved move moves moving relocated relocate
        relocating habite habites habitons habitez habitent habiter vis vit vivons vivez vivent vivre déménagé
        déménage déménager déménagent déménagé installés wohne wohnst wohnt wohnen wohnte lebe lebst lebt leben
        gezogen umgezogen vivo vives vive vivimos viven vivía mudamos mudé mudó mudado mudaron moro moras mora
        moramos moram vivemos vivem mudei mudou mudaram""",
    "_work": """work works worked working job employed employer travaille travailles travaillons travaillez
        travaillent travaillais boulot arbeite arbeitest arbeitet arbeiten arbeitete trabajo trabajas trabaja
        trabajamos trabajan trabajaba trabalho trabalhas trabalha trabalhamos trabalham trabalhava""",
    "_name": """name names named called appelle appelles appellent appelons appelez nom nomme heiße heißt heisse
        heisst heißen llamo llamas llama llaman llamamos nombre chamo chamas chama chamam chamamos nome""",
    "_phone": """phone cell mobile cellphone telephone téléphone portable handy telefon handynummer telefonnummer
        teléfono móvil celular telemóvel telefone""",
}
_ATTRIBUTE_OF = by_word(ATTRIBUTES)
_CJK_ATTRIBUTES = {
    "住": "_home",
    "电话": "_phone",
    "手机": "_phone",
    "搬": "_home",
    "工作": "_work",
    "上班": "_work",
    "叫": "_name",
    "名字": "_name",
}


def attribute(word: str) -> str | None:
    """The attribute a word speaks of (see ATTRIBUTES), or None."""
    found = _ATTRIBUTE_OF.get(word)
    if found is None and ELIDED.match(word):
        found = _ATTRIBUTE_OF.get(ELIDED.sub("", word))
    if found is None and not word.isascii():
        found = next((name for chars, name in _CJK_ATTRIBUTES.items() if chars in word), None)
    return found


@dataclass(frozen=True)
class Claim:
    """`holder` (a path: "user", "user>sister", "lea", "standup"), `attribute` ("_name", "_home", "colour"…),
    `value` (its words, lower case), whether it is said as a statement of the attribute (`stated`: "my neighbour is
    Luis") or only as a mention beside a name ("my new neighbour Luis"), and what words the value was said in."""

    holder: str
    attribute: str
    value: str
    stated: bool = True
    said: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return self.holder, self.attribute


# --- words -------------------------------------------------------------------------------------------------------

_FIRST_PERSON_POSSESSIVES = (
    "my our user's mon ma mes notre nos mein meine meinen meinem meiner meines unser unsere unseren "
    "unserem unserer mi mis nuestro nuestra nuestros nuestras meu minha meus minhas nosso nossa nossos nossas"
).split()
_POSSESSIVE = r"(?:the\s+user['’]s|" + "|".join(_FIRST_PERSON_POSSESSIVES) + r")"
_ARTICLES = frozenset(
    "a an the le la les l un une der die das den dem ein eine einen einem el los las una o os as um uma".split()
)
# Verbs of being, and of being called, in each language: what comes after them is the value.
_BE = (
    r"(?i:is\s+(?:now\s+)?called|are\s+called|is\s+named|are\s+named|was\s+called|goes\s+by|se\s+llama|se\s+llaman"
    r"|se\s+chama|chama-se|s['’]appelle|s['’]appellent|has\s+been|have\s+been|is|are|was|were|['’]s|became|becomes"
    r"|est|sont|était|c['’]est|ist|sind|war|heißt|heisst|heißen|es|son|era|fue|é|são|foi)"
)
_CALLED = re.compile(
    r"\b(?:called|named|heißt|heisst|heißen|llama|llaman|chama|appelle|appellent|goes\s+by)\b", re.IGNORECASE
)
_NOW = r"(?i:(?:now|actually|still|currently|really|officially|maintenant|désormais|jetzt|nun|ahora|agora|also)\s+)*"
# Words that end the value of a clause: a joining word, or a reason.
_VALUE_END = re.compile(
    r"[,;!?()]|[:.](?!\d)|\s(?:and|but|because|since|so|as|which|who|though|although|while|et|mais|car|parce|und|aber"
    r"|weil|denn|y|pero|porque|e|mas|porque|not|pas|nicht|no|não|instead|rather|now|anymore|these\s+days)\b",
    re.IGNORECASE,
)
# Roles people have one of at a time (a new value replaces the old); other roles ("neighbour", "friend") a person
# has many of, and a new name is another person.
_PLURAL_ROLES = frozenset(
    """neighbour neighbor neighbours neighbors friend friends colleague colleagues coworker coworkers co-worker
    classmate classmates cousin cousins client clients teammate teammates kid kids child children son sons daughter
    daughters brother brothers sister sisters uncle uncles aunt aunts niece nephew grandchild grandchildren pet pets
    cat cats dog dogs plant plants student students patient patients guest guests voisin voisine voisins ami amie
    amis collègue collègues nachbar nachbarin freund freundin kollege kollegin vecino vecina amigo amiga compañero
    compañera colega vizinho vizinha""".split()
)
_NUMBER_WORDS = {
    word: value
    for value, said in enumerate(
        [
            "zero zéro null cero",
            "one a an",
            "two deux zwei dos dois duas",
            "three trois drei tres três",
            "four quatre vier cuatro quatro",
            "five cinq fünf cinco",
            "six sechs seis",
            "seven sept sieben siete sete",
            "eight huit acht ocho oito",
            "nine neuf neun nueve nove",
            "ten dix zehn diez dez",
            "eleven onze elf once",
            "twelve douze zwölf doce doze",
        ]
    )
    for word in said.split()
}
_ORDINAL_WORDS = {
    word: value
    for value, word in enumerate(
        "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
    )
}
_DAYS = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday lundi mardi mercredi jeudi vendredi samedi dimanche
    montag dienstag mittwoch donnerstag freitag samstag sonntag lunes martes miércoles jueves viernes sábado domingo
    segunda terça quarta quinta sexta""".split()
)

# --- what is not asserted ----------------------------------------------------------------------------------------

_QUOTED = re.compile(r"[\"“”„«»「」『』].*?[\"“”„«»「」『』]|(?<!\w)'[^']{12,}'(?!\w)", re.DOTALL)
# Someone else's words: what follows "he said", "she told me that", "X wrote:"…
_REPORTED = re.compile(
    r"\b(?:said|says|told\s+(?:me|us|him|her)|wrote|asked|mentioned|dit|a\s+dit|raconte|sagte|sagt|meinte|schrieb"
    r"|erzählt|erzählte|dijo|dice|contó|comentó|disse|diz|falou|contou|comentou|escribió|escreveu)\b(?:\s+(?:that|que|dass|qu['’]))?[\s:,]",
    re.IGNORECASE,
)
# A clause that supposes, wishes or asks: nothing in it is asserted.
_UNREAL = re.compile(
    r"(?:^|\b)(?:if|what\s+if|suppose|supposing|imagine|assuming|whether|would|might|maybe|perhaps|thinking\s+of"
    r"|thinking\s+about|considering|planning\s+to|plan\s+to|want\s+to|wanna|hope\s+to|wish|s['’]il|peut-être"
    r"|pourrait|voudrais|wenn|falls|ob|vielleicht|würde|würden|könnte|quizás|quizá|tal\s+vez|sería|gustaría"
    r"|talvez|seria|gostaria|caso)\b|(?:^|[,;]\s*)(?:si|se)\s(?!(?:llama|llaman|llamaba|chama|chamam|chamava|mudó|mudou|casó|casou)\b)|如果|要是|假如|假设|也许|可能|或许|打算|想要",
    re.IGNORECASE,
)
# A message that asks for a text to be written, checked or translated: its words are the text's, not the user's.
_DRAFTING = re.compile(
    r"\b(?:draft|write|rewrite|proofread|proof-read|translate|rephrase|reword|edit|polish|correct\s+(?:this|the"
    r"|my)|check\s+(?:this|the|my)\s+(?:text|email|message|letter|post|draft)|compose|reply\s+to|respond\s+to"
    r"|écris|rédige|traduis|relis|corrige|schreib|übersetze|korrigiere|escribe|redacta|traduce|corrige|revisa"
    r"|escreva|escreve|traduza|revise|corrija|écrivez|rédigez|traduisez|schreibe|escr[ií]be(?:me|le|les|nos)"
    r"|red[aá]cta(?:me|le|les|nos)|escreve-me|escreva-me|traduz)\b|写|翻译|改写|校对|润色",
    re.IGNORECASE,
)
_QUESTION_START = re.compile(
    r"\A\s*(?:(?:and|so|but|actually|wait|hmm|oh|ok|okay|also)[,\s]+)*(?:is|are|was|were|do|does|did|can|could"
    r"|should|would|will|shall|have|has|had|what|what's|where|when|who|whom|why|how|which|est-ce|qu['’]est|quel"
    r"|quelle|où|quand|pourquoi|comment|ist|sind|hast|hat|wo|wann|wer|warum|wie|welche|¿|qué|dónde|cuándo|quién"
    r"|por\s+qué|cómo|cuál|onde|quando|quem|porque|como|qual)\b",
    re.IGNORECASE,
)


_OF_SOMEONE = (NAME, AGE, "_home", "_work")


def _of_the_thing(claim: Claim) -> Claim:
    """A thing's attribute is the thing's, however it was reached: "my gym locker code" and "the locker code" are
    one code (the holder is the thing's last noun, after the person it belongs to when a person is named: "my
    cousin's school reunion" is "cousin>reunion"); what is said of people keeps the whole path to them."""
    if claim.attribute in _OF_SOMEONE + (DAY, TIME) or claim.attribute.startswith(("_does", COUNT)):
        return claim  # a thing's day and time are matched by the words that name it (same_holder)
    if ">" not in claim.holder:
        return claim
    path = claim.holder.split(">")
    people = [noun for noun in path[:-1] if noun in _PEOPLE]
    holder = f"{people[-1]}>{path[-1]}" if people else path[-1]  # "my cousin's school reunion" is the cousin's
    return Claim(holder, claim.attribute, claim.value, claim.stated, claim.said)


# The store retells the user's words in the third person ("User lives in Porto", "…, so they are at 29 houseplants
# now"): read back as the user said them.
_FIRST_PERSON = {
    "user's": "my",
    "the user's": "my",
    "user has": "I have",
    "the user has": "I have",
    "user is": "I am",
    "the user is": "I am",
    "user was": "I was",
    "the user was": "I was",
    "user": "I",
    "the user": "I",
    "they are": "I am",
    "they were": "I was",
    "they have": "I have",
    "they": "I",
    "their": "my",
    "theirs": "mine",
    "them": "me",
    "themselves": "myself",
}
_RETOLD = re.compile(
    r"\b(?:the user['’]s|user['’]s|(?:the )?user (?:has|is|was)|the user|user|they are|they were|they have|they|their"
    r"|theirs|them|themselves)\b",
    re.IGNORECASE,
)


def asserts(clause: str) -> bool:
    """Whether a clause states something of its own: not a question, a supposition, a text being written, or an
    instruction to the agent ("Write chapter 4", "Don't tell me what the character is")."""
    stripped = clause.strip()
    if not stripped or stripped.endswith(("?", "？")) or _QUESTION_START.match(stripped):
        return False
    return not _UNREAL.search(stripped) and not _INSTRUCTION.match(stripped)


# A sentence that tells the agent what to do, by the verb it opens with: it states nothing of anyone.
_INSTRUCTION = re.compile(
    r"(?i:(?:please\s+|now\s+|so\s+|ok(?:ay)?,?\s+)?(?:(?:don['’]t|do\s+not|never)\s+)?(?:tell|choose|write|rewrite|give"
    r"|show|list|explain|describe|summari[sz]e|translate|continue|generate|create|pick|select|pretend|answer|ask"
    r"|suggest|recommend|provide|compose|draft|act\s+as|repeat|restate|stop|try\s+again|choose\s+again)\b)"
)


# --- reading -----------------------------------------------------------------------------------------------------


# Each text is read once a process: a memory's words are asked for again each time it is a candidate for a newer
# message, and with a bounded cache a long session's older memories were read again and again (its cost grew faster
# than the session). The cache holds one entry per distinct text the process read, no more than it read.
@lru_cache(maxsize=None)
def claims(text: str) -> tuple[Claim, ...]:
    """The claims a text makes (see the module's docstring); a memory's "(said …)" is for the caller to take off."""
    if _DRAFTING.search(text):
        return ()
    text = _QUOTED.sub(" ", text)
    found: list[Claim] = []
    for sentence in SENTENCE_BREAK.split(text):
        if "user" in sentence or "User" in sentence:
            sentence = _RETOLD.sub(
                lambda m: _FIRST_PERSON[" ".join(m.group(0).lower().replace("’", "'").split())], sentence
            )
        reported = _REPORTED.search(sentence)
        if reported:
            sentence = sentence[: reported.start()]
        if _possessive_in(sentence):
            found += _named(sentence) + _denied_then_said(sentence) + _changed_to(sentence) + _dislocated(sentence)
        found += _things_when(sentence)
        someone = None  # the person a clause of the sentence was about
        for clause in _CLAUSES.split(sentence):
            read = _read(clause.strip())
            if not read and someone and _SUBJECTLESS.match(clause.strip()):
                # "Mi prima Carla tiene 28 años, vive en Valencia": the person the sentence is about lives there
                read = [c for c in _read(f"{someone} {clause.strip()}") if c.holder == _person(someone)]
            if read and asserts(clause):
                found += read
            subject = re.match(_SOMEONE, clause.strip())
            if subject and read:
                someone = subject.group("who")
    seen: set = set()
    out = []
    for claim in map(_of_the_thing, found):
        if (claim.key, claim.value) not in seen:
            seen.add((claim.key, claim.value))
            out.append(claim)
    return tuple(out)


# A clause that opens with its verb, its subject said before it: "…, vive en Valencia", "…, works as a paramedic".
_SUBJECTLESS = re.compile(
    r"\A(?!(?i:i|we|you|he|she|it|they|je|j|tu|il|elle|nous|vous|ils|elles|ich|du|er|sie|es|wir|ihr|yo|él|ella|eu|ele"
    r"|ela|the|a|an|my|our|le|la|les|mon|ma|der|die|das|mein|meine|el|los|las|mi|o|os|as|meu|minha|and|but|so|et"
    r"|mais|und|aber|y|pero|e|mas)\b)[a-zà-ÿ][\w'’-]*\s"
)
# Where a clause ends: before a joining word that a new subject follows ("the gate code is 1290 and the alarm code
# is 12"), a semicolon, a colon before a space ("Update on that: the code is…"), or a comma.
_CLAUSES = re.compile(
    r"[;；：]|:(?=\s)|(?<=[,，])\s+(?!including\s)|(?<!\s)\s+(?i:and|but|while|whereas|plus|et|mais|und|aber|y|pero|e|mas)\s+(?=(?i:the|my|our|i|we|le"
    r"|la|mon|ma|mes|je|j['’]|mein|meine|ich|mi|mis|yo|meu|minha|eu|a|o|el)\b)"
)
# The user as a subject: "I", "we", "User", "the user", in each language.
_SELF = r"(?:i|we|user|the\s+user|je|j['’]|nous|on|ich|wir|yo|nosotros|eu|nós|a\s+gente|我|我们|我們)"
_NOUN = r"[\w'’-]+"
_SUBJECT_POSSESSIVE = re.compile(
    rf"(?:\A|(?<=\s))(?P<np>(?i:{_POSSESSIVE})\s+{_NOUN}(?:\s+{_NOUN}){{0,4}}?)(?:\s+(?P<name>[A-ZÀ-Ý][\w'’-]+))?"
    rf"\s+{_BE}\s+{_NOW}(?P<value>.+)"
)
# A possessive's noun put before the clause that says it, in French: "Ma banque, c'est la Société Générale".
_DISLOCATED = re.compile(
    rf"(?:\A|(?<=\s))(?i:{_POSSESSIVE})\s++{_NOUN}(?:\s++{_NOUN}){{0,4}}?(?P<comma>\s*+,)\s++(?i:c['’]est|ce\s+sont)\s"
)


def _dislocated(sentence: str) -> list[Claim]:
    """The claims of a noun put before the clause that says it, read as one clause ("ma banque c'est …")."""
    out: list[Claim] = []
    for match in _DISLOCATED.finditer(sentence):
        joined = sentence[match.start() : match.start("comma")] + sentence[match.end("comma") :]
        clause = _CLAUSES.split(joined, maxsplit=1)[0].strip()
        if asserts(clause):
            out += _about_what_is_theirs(clause)
    return out


_THING_ATTRIBUTE = re.compile(
    rf"\A(?i:the|le|la|l['’]|der|die|das|el|o|a)\s+(?P<np>[\w'’-]+(?:\s+[\w'’-]+){{1,2}}?)\s+{_BE}\s+{_NOW}"
    rf"(?P<value>[\w'’:/.-]+(?:\s+[\w'’:/.-]+){{0,3}})"
)
_SELF_NAME = re.compile(
    r"(?:\A|[,.!]\s*|\b(?i:hi|hello|hey|hiya|bonjour|salut|hallo|hola|olá|oi)[,!]?\s+)(?i:i['’]?m|i\s+is|i\s+am|this\s+is"
    r"|my\s+name\s+is|my\s+name['’]s|call\s+me|je\s+m['’]appelle|je\s+suis|moi\s+c['’]est|mon\s+nom\s+est"
    r"|ich\s+heiße|ich\s+heisse|ich\s+bin|mein\s+name\s+ist|me\s+llamo|soy|mi\s+nombre\s+es|me\s+chamo|chamo-me"
    r"|sou\s+(?:o|a)|eu\s+sou\s+(?:o|a)|meu\s+nome\s+é)\s+(?P<value>[A-ZÀ-Ý][\w'’-]+(?:\s+[A-ZÀ-Ý][\w'’-]+)?)"
    r"(?=\s*(?:[,.!;]|\Z|\s+(?i:and|et|und|y|e|here|from|de|aus|da)\b))",
)
# "我叫王芳", "我是王芳": not "我是学生" (a word of what one is: a student, a teacher, a programmer, a Chinese…).
_CJK_NAME = re.compile(
    r"我(?:的名字)?(?:叫|是)(?P<value>[\u4e00-\u9fff]{1,2}(?<![生师師员員人家者工长長手])[\u4e00-\u9fff]?(?<![生师師员員人家者工长長手])"
    r"|[A-Z][\w-]+)(?=[，,。.！!\s]|\Z)"
)
_AGE = re.compile(
    rf"(?i:(?:\A|\b){_SELF}\s*+(?:(?:['’]?m|am|are|is|was|just\s+turned|turned|will\s+turn|ai|j['’]ai|bin|tengo|tenho)"
    r"\s*+)?(?:now\s++|just\s++)?(?P<value>\d{1,3})\s*(?:years?\s+old|yo|ans|jahre(?:\s+alt)?|años|anos|岁|歲)?(?=\s*[,.!;]|\Z|\s+"
    r"(?:now|and|et|und|y|e)\b))"
)
_PLACE = (
    r"(?P<value>[\u4e00-\u9fff]{1,12}?(?=[了的啦呢吧工上，。,.!！\s]|\Z)"
    r"|[A-ZÀ-Ý][\w'’-]*(?:\s+(?:de\s+|do\s+|da\s+|am\s+|del\s+)?[A-ZÀ-Ý][\w'’-]*){0,3})"
)
_ADVERBS = (
    r"(?:(?:now|just|recently|finally|actually|currently|still|also|already|lately|jetzt|nun|maintenant|ahora|agora"
    r"|ya|já)\s++|现在|現在|已经|已經|刚刚|剛剛|目前|上个月|上個月|上周|上週|去年|今年|最近|前不久)*+"
)
# At most two of them: a pattern that may start at any word reads no longer run of them than that.
_FEW_ADVERBS = (
    r"(?:(?:now|just|recently|finally|actually|currently|still|also|already|lately|jetzt|nun|maintenant|ahora|agora"
    r"|ya|já)\s++){0,2}+"
)
_AUXILIARIES = (
    r"(?:(?:have|has|'ve|are|am|'m|avons|ai|a|sommes|suis|sind|bin|haben|habe|nos|me|se|hemos|he|nós|eu)\s++)*+"
)
_TO = (
    r"(?:(?:back\s+)?(?:in|to|into|at|near|à|a|au|aux|en|nach|para|em|no|na|pra|in\s+die|an\s+die)\s+"
    r"(?:(?:o|a|os|as|el|la|los|las|le|les|the)\s+)?)?"
)
# Where someone lives or works, with the user as its subject, said or (in Spanish and Portuguese) left out.
_HOME = re.compile(
    rf"(?i:(?:\A|\b){_SELF}\s*+{_ADVERBS}{_AUXILIARIES}{_ADVERBS}|\A{_ADVERBS}(?=(?:moved|relocated)\s)"
    rf"|(?:\A|\b){_FEW_ADVERBS}(?:me\s++|nos\s++)?(?:he\s++|hemos\s++)?(?=(?:vivo|vivimos|mudé|mudamos|mudado|moro|moramos"
    rf"|mudei|mudei-me|mudámos|mudámo-nos|mudamo-nos|vivemos)\s+(?:en|a|em|no|na|para|pra)\s))(?i:live|lives|living|moved"
    rf"|relocated|reside|resides|habite|habitons|vis|vit|vivons|déménagé|installés|installé|wohne|wohnen|lebe|leben|gezogen|umgezogen|vivo|vivimos|mudé|mudamos|mudado"
    rf"|mudei-me|mudámos|mudámo-nos|mudamo-nos"
    rf"|moro|moramos|mudei|mudou|vivemos|住在|搬到了|搬到|住)\s*+{_ADVERBS}{_TO}{_ADVERBS}{_PLACE}"
)
_WORK = re.compile(
    rf"(?i:(?:\A|\b){_SELF}\s*+{_ADVERBS}{_AUXILIARIES}{_ADVERBS}|\b(?=trabajo\s+(?:en|para)\s|trabalho\s+(?:na|no|em"
    rf"|para)\s))(?i:work|works|working|started\s++(?:working\s++)?|joined|travaille|bosse|arbeite|arbeiten|trabajo"
    rf"|trabalho)\s*+{_ADVERBS}"
    # in a role first: "as a nurse at St Mary's", "als Lehrerin an der Goetheschule", "comme infirmière chez…"
    rf"(?i:(?:as\s+(?:an?\s+)?|als\s+|comme\s+|como\s+)[\w'’-]+(?:\s+[\w'’-]+)?\s+(?=(?:at|for|in|with|chez|à|pour"
    rf"|bei|für|an\s+der|an\s+dem|am|im|en|para|na|no|em)\s))?"
    rf"(?i:(?:at|for|in|with|chez|à|pour|bei|für|an\s+der|an\s+dem|am|im|en|para|na|no|em)\s+)?{_ADVERBS}(?i:the\s+)?"
    rf"{_PLACE}"
)
# A move in German words, its verb last: "Wir sind letzten Monat nach Leipzig gezogen", "Ich bin nach Köln umgezogen".
_HOME_MOVED = re.compile(
    rf"(?i:\b(?:ich\s+bin|wir\s+sind)\s++(?:[\w'’-]+\s++){{0,3}}?(?:nach|in\s+die)\s++){_PLACE}\s++(?i:um)?gezogen\b"
)
# A name said before the role it fills: "Priya is my new manager", "Nala is our cat's name", "Tomasz est mon chef".
_NAME_FIRST = re.compile(
    rf"(?:\A|(?<=[,;:]\s))(?P<value>[A-ZÀ-Ý][\w'’-]*+(?:\s[A-ZÀ-Ý][\w'’-]*+)?)\s++(?i:is|are|'s|est|ist|es|é)\s++"
    rf"(?i:now\s+|actually\s+|jetzt\s+|maintenant\s+|ahora\s+|agora\s+)?(?P<np>(?i:{_POSSESSIVE})\s++"
    r"[^\W\d_][\w'’-]*+(?:\s++[^\W\d_][\w'’-]*+)?)"
)
# A new job: "I got a new job at Globex", "I started a new job at Acme", "I've joined Initech".
_NEW_JOB = re.compile(
    rf"(?i:(?:\A|\b){_SELF}(?:['’]ve|\s+have)?\s++{_ADVERBS}(?:got|started|landed|took|accepted|began)\s++(?:a\s++)?"
    rf"(?:new\s++)?(?:job|position|role)\s++(?:at|with|in)\s++)(?i:the\s+)?{_PLACE}"
)
# "Ich bin jetzt bei Bosch", "je suis chez Decathlon depuis lundi": being at an employer.
_WORK_AT = re.compile(rf"(?i:\b(?:ich|je)\s++(?:bin|suis)\s++{_ADVERBS}(?:bei|chez)\s++){_PLACE}")
# Where someone else lives or works: "My sister Ana lives in Lyon", "Ana moved to Nice", "Felix arbeitet bei Zeiss".
_SOMEONE = (
    rf"(?P<who>(?:\A|(?<=\s))(?i:{_POSSESSIVE})\s++(?!(?i:hemos|habéis|han|he|ha)\s)[^\W\d_][\w'’-]*+(?:['’]s\s++[a-zà-ÿ][\w'’-]*+)?"
    r"(?:\s++[A-ZÀ-Ý][\w'’-]*+)?"
    r"|\A(?:(?i:o|a|el|la|le|der|die)\s++)?[A-ZÀ-Ý][a-zà-ÿ]++)\s++"
)
_THEIR_HOME = re.compile(
    rf"{_SOMEONE}{_ADVERBS}(?i:se\s++)?(?i:(?:has|have|is|a|est|hat|ha|han|tem)\s++)?(?i:lives|moved|relocated|habite"
    rf"|vit|déménagé|wohnt|lebt|vive|mudó|mudou|mudado|mudaram|mora)\s*+{_ADVERBS}{_TO}{_ADVERBS}{_PLACE}"
)
_THEIR_HOME_MOVED = re.compile(
    rf"{_SOMEONE}(?i:ist|sind)\s++(?i:jetzt\s++)?(?i:nach|in\s+die)\s++{_PLACE}\s++(?i:um)?gezogen"
)
_THEIR_WORK = re.compile(
    rf"{_SOMEONE}{_ADVERBS}(?i:works|worked|travaille|arbeitet|trabaja|trabalha)\s*+{_ADVERBS}"
    rf"(?i:(?:at|for|in|with|chez|à|pour|bei|für|en|para|na|no|em)\s+)?{_ADVERBS}(?i:the\s+)?{_PLACE}"
)
# "The dog is called Balu", "Der Hund heißt Balu": in the owner's words, the one they have.
_THING_CALLED = re.compile(
    r"\A(?i:the|der|die|das|le|la|el|o|a)\s++(?P<noun>[^\W\d_][\w'’-]*+)\s++(?i:is\s+called|is\s+named|heißt|heisst"
    r"|s['’]appelle|se\s+llama|se\s+chama|chama-se)\s++(?P<value>[A-ZÀ-Ý][\w'’-]*+)"
)
# The numbers an age may be said in (not the articles that also say one).
_AGE_WORDS = "(?i:" + "|".join(sorted((w for w, n in _NUMBER_WORDS.items() if n > 1), key=len, reverse=True)) + ")"
_THEIR_AGE = re.compile(
    rf"{_SOMEONE}(?i:is|turned|just\s+turned|turns|a\s+eu|vient\s+d['’]avoir|a|hat|tiene|cumplió|ha\s+cumplido|cumple"
    rf"|tem|fez|completou|fait|wird|ist)\s++"
    r"(?:(?P<value>\d{1,3})\b(?!\s*(?:[:.,/-]\d|%|h\b|am\b|pm\b|€|\$|euros?|dollars?|kg|km|cm|m\b))"
    # or a number in words, with nothing after it but its years: "Our cat Miso is four", "Thor tem sete anos"
    rf"|(?P<word>{_AGE_WORDS})(?=\s+(?i:years?\s+old|ans|jahre|años|anos)\b|\s*[,.;!]|\s*\Z|\s+(?i:now|and|et|und|y|e)\b))"
)
_CJK_WORK = re.compile(
    r"我(?:现在|現在)?在(?P<value>[\u4e00-\u9fff\w]{2,12}?)(?:工作|上班)"
    rf"|我{_ADVERBS}(?:跳槽到|跳槽去|入职|入職|加入)了?(?P<joined>[\u4e00-\u9fff\w]{{2,12}}?)(?=[了，。,.!！\s]|\Z)"
)
_DRIVE = re.compile(
    rf"(?i:(?:\A|\b){_SELF}\s+{_ADVERBS}(?:drive|drives|driving)\s+(?:a|an|the)\s+(?:new\s+|used\s+)?)"
    rf"(?P<value>(?:[\w-]+\s+)?[A-Z][\w-]*(?:\s+[A-Z\d][\w-]*)?)",
)
_NUMBER = r"(?P<value>\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# One of something, said as such ("a single free night's stay", "just one trip"): a count of one.
_ONE = r"(?P<one>a\s+single|one\s+single|only\s+one|just\s+one)"
_COUNT_HAVE = re.compile(
    rf"(?:\A|\b){_SELF}\s*+(?:(?:now|currently|already|still)\s++)*+(?:have|has|own|owns|'ve\s+got|have\s+got)\s+"
    rf"(?:(?:now|already)\s+)?{_NUMBER}\s+(?P<noun>[a-z][\w-]+)",
    re.IGNORECASE,
)
# A running total said as where the user is: "I'm at 29 houseplants now", "we're up to 12 books".
_COUNT_AT = re.compile(
    rf"(?i:(?:\A|\b)(?:i['’]m|i\s+am|we['’]re|we\s+are)\s++{_ADVERBS}(?:at|up\s+to|on)\s++){_NUMBER}\s++"
    r"(?:[\w'’-]+\s++){0,2}?(?P<noun>[a-z][\w-]*s)\b"
)
# A running total of what the user did: "I've already finished 10 videos", "I've watched 15 Crash Course videos".
# What the verb did it with or for may stand between ("I've had my camera with me on five trips now", "I've saved
# enough points for two free stays", "I've taken it on a few adventures, including three trips"); a count of time
# spent ("three years", "twice a week") is none.
_NOT_A_NUMBER = rf"(?!{_NUMBER.replace('?P<value>', '?:')}\s|a\s+single\s)"
_COUNT_DONE = re.compile(
    rf"(?i:(?:\A|\b)(?:{_SELF}(?:['’]ve|\s+have|\s+had)?|having)\s++{_ADVERBS}(?:\w+ed|read|seen|done|made|written|run"
    rf"|won|sold|bought|had|taken|given|got|gotten|kept|met|built|drawn|grown|flown|driven|ridden|eaten|caught|taught"
    rf"|brought|spent|sent|lost|held|hosted|led)\s++{_ADVERBS}(?:{_NOT_A_NUMBER}[\w'’-]+,?\s++){{0,8}}?)"
    rf"(?:{_NUMBER}\s++(?:[\w'’-]+\s++){{0,3}}?(?P<noun>[a-z][\w-]*s)"
    rf"|{_ONE}\s++(?:[\w'’-]+\s++){{0,3}}?(?P<single>[a-z][\w-]*)"
    r"(?=\s+(?:at|in|on|for|to|with|from|of|this|last|so|now|already|yet)\b|\s*[,.!;]|\s*\Z))\b"
)
# Nouns of time and of how often: "for three years", "two times" count no thing the user has.
_NOT_COUNTED = frozenset(
    """times seconds minutes hours days nights weeks weekends months years decades ones others percent points this
    that these those""".split()
)
# A count in any of the languages: a number and the things it counts, said by the user as a total — with a verb of
# having or words of how far it has come ("J'ai lu 8 livres depuis janvier", "Ich habe bisher 34 Länder bereist",
# "Damit sind es jetzt 35 Länder", "Já visitei 22 estados", "Tenho 57 cactos", "我已经攒了37个盲盒") — or as the
# rank of the latest one ("mon 13e livre de l'année"; "room number 12" names a room). A number said with a word of
# adding ("4 more", "mais 4", "noch 2", "又两个") is what was added, not the total.
_HOW_FAR = re.compile(
    r"(?i:\b(?:so\s+far|now|in\s+total|a\s+total\s+of|altogether|already|up\s+to|to\s+date|since|déjà|depuis"
    r"|maintenant|au\s+total|en\s+tout|jusqu['’]ici|bisher|schon|jetzt|insgesamt|inzwischen|mittlerweile|ya|hasta"
    r"\s+ahora|en\s+total|ahora|llevo|já|até\s+agora|agora|no\s+total|ao\s+todo|estou\s+com)\b)"
    r"|已经|已經|一共|总共|總共|现在|現在"
)
# What makes a count of things done a running total: the perfect ("I've finished 10 videos", "having watched 15"),
# or words of how far it has come (_HOW_FAR, and "lately", "this year", "reached"); "on my last trip I packed 7
# shirts" counts what one trip held.
_RUNNING = re.compile(
    r"(?i:['’]ve|\bhave\b|\bhad\b|\bhaving\b|\blately\b|\bin\s+the\s+past\b|\bthis\s+(?:year|month|week)\b|\breached\b"
    rf"|\bhit\b)|{_HOW_FAR.pattern}"
)
_HAVING = re.compile(
    r"(?i:\b(?:i\s+have|i['’]ve\s+got|we\s+have|j['’]ai|nous\s+avons|ich\s+habe|wir\s+haben|tengo|tenemos|tenho"
    r"|temos)\s+(?=\d))|我有|我们有"
)
_IMPERSONAL_TOTAL = re.compile(
    r"(?i:\b(?:sind\s+es|es\s+sind|ça\s+fait|c['’]est|ya\s+son|son\s+ya|já\s+são|são)\b)|一共|总共"
)
_COUNTED = re.compile(
    r"(?<![\d.,:/-])(?P<n>\d{1,5})(?![\d.,:/-]\d)\s*+(?:个|個|本|只|次|家|件|张|張|位)?\s*+"
    r"(?P<noun>[^\W\d_]{3,}|[\u4e00-\u9fff]{2,4})"
)
_RANKED = re.compile(
    r"(?i:\b(?:my|our|mon|ma|mein|meine|meinen|mi|meu|minha)\s++(?P<n>\d{1,4})(?:st|nd|rd|th|e|ème|er|re|\.|º|ª|o|a)?"
    r"\s++(?P<noun>[^\W\d_]{3,}))"
)
_ADDING = re.compile(
    r"(?i:\b(?:more|another|extra|plus|encore|mais|más|noch|weitere|weiteren|otros|otras|outros|outras)\s*+$)|[又再多]\s*$"
)


def _counts(clause: str) -> list[Claim]:
    """A count the user says (see _COUNTED): the number and the things it counts."""
    out: list[Claim] = []
    self_said = _SELF_SAID.search(clause) is not None
    total = _HOW_FAR.search(clause) is not None or _HAVING.search(clause) is not None
    if total and (self_said or _IMPERSONAL_TOTAL.search(clause)):
        for match in _COUNTED.finditer(clause):
            noun = match.group("noun").lower()
            if _ADDING.search(clause[: match.start()]) or noun in _NOT_COUNTED or noun in MONTH_OF:
                continue
            if _HOW_FAR.fullmatch(noun) or noun in _NOT_HABIT_WORDS or _when(noun):
                continue  # "estou com 61 agora": the things counted are left unsaid
            noun = noun.rstrip("了的啦呢吧呀啊") if "\u4e00" <= noun[0] <= "\u9fff" else stem(noun)
            if not noun:
                continue
            out.append(Claim("user", f"{COUNT}:{noun}", str(int(match.group("n"))), True, match.group(0)))
    for match in _RANKED.finditer(clause):
        noun = match.group("noun").lower()
        if noun not in _NOT_COUNTED and noun not in ("birthday", "anniversary", "anniversaire", "geburtstag"):
            out.append(Claim("user", f"{COUNT}:{stem(noun)}", str(int(match.group("n"))), True))
    return out


# A value reached: "I just got my highest score in Ticket to Ride - 132 points!", "I hit my personal best of 5:10".
_REACHED = re.compile(
    rf"(?i:(?:\A|\b){_SELF}(?:['’]ve|\s+have)?\s++{_ADVERBS}(?:got|reached|hit|set|achieved|scored|beat|broke)\s++)"
    r"(?P<np>(?i:my|our)\s++[\w'’-]+(?:\s++[\w'’-]+)?)(?:\s++(?i:in|on|at|for)\s++(?:[\w'’-]+\s++){0,3}?[\w'’-]+)?"
    r"\s*+(?:[-–—:]|(?i:of|with)(?=\s))\s*+(?P<value>\d[\d.,:]*+(?:\s++[a-z]+)?)"
)
# "I just celebrated my 32nd birthday", "mon 40e anniversaire": an age.
_BIRTHDAY = re.compile(
    r"(?i:\b(?:my|our|mon|mein(?:en)?|mi|meu)\s++)(?P<value>\d{1,3})(?:st|nd|rd|th|e|ème|\.|º|°)?\s++"
    r"(?i:birthday|anniversaire|geburtstag|cumpleaños|aniversário)\b"
)
_COUNT_ORDINAL = re.compile(
    r"\b(?:my|our|the\s+user['’]s|user['’]s)\s+(?P<value>\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth"
    r"|seventh|eighth|ninth|tenth|eleventh|twelfth)\s+(?P<noun>[a-z][\w-]+)",
    re.IGNORECASE,
)
# What the user does as a habit ("I run every morning", "I go climbing on Sundays"), and stops doing ("I stopped
# running", "I quit smoking", "I don't eat meat anymore").
_HABIT = re.compile(
    rf"(?i:(?:\A|\b){_SELF}\s+{_ADVERBS}(?:(?:usually|always|often|regularly|normally)\s+)?)(?:go\s+(?P<going>[a-z]+ing)"
    r"|(?P<verb>[a-z]{2,}?)(?:e?s)?)\s+(?:\w+\s+){0,3}?(?i:every|each|daily|twice|three\s+times|on\s+(?:weekends|sundays"
    r"|saturdays|mondays|tuesdays|wednesdays|thursdays|fridays)|at\s+the\s+weekend|most\s+(?:days|mornings|evenings))\b"
)
_STOPPED = re.compile(
    rf"(?i:(?:\A|\b){_SELF}\s+{_ADVERBS}(?:(?:have|has)\s+|['’]ve\s+)?(?:stopped|quit|gave\s+up|given\s+up))\s+"
    r"(?P<verb>[a-z]+ing)\b"
    rf"|(?i:(?:\A|\b){_SELF}\s+(?:don['’]t|do\s+not|no\s+longer)\s+)(?P<other>[a-z]{{2,}})\b(?=(?:\s+\w+){{0,4}}?\s+"
    r"(?i:anymore|any\s+more)\b|)"
)
_NOT_HABITS = frozenset("have get go do be am is are was were think feel know want need like love hate".split())
# A habit said in any of the languages, by how often it happens ("Je vais au boulot à vélo tous les jours", "Ich
# trinke jeden Morgen zwei Tassen Kaffee", "Voy al gimnasio tres veces por semana", "我每天早上跑步"), and its end
# said by a verb of stopping, quitting, giving up or selling and what it ends ("J'ai arrêté le vélo", "Ich habe mit
# dem Kaffee aufgehört", "Me di de baja del gimnasio", "Vendi o carro", "我不跑步了"): the habit is each word it is
# said with, and the end is of the one it names.
_OFTEN = re.compile(
    r"(?i:\b(?:every|each)\s+(?:day|morning|evening|night|week|weekend|month)|\bdaily\b|\b(?:twice|\w+\s+times)\s+a\s+"
    r"(?:day|week|month)|\btous\s+les\s+(?:jours|matins|soirs|week-ends|\w+dis)|\bchaque\s+(?:jour|matin|soir|semaine)"
    r"|\bfois\s+par\s+(?:jour|semaine|mois)|\bjede[nrs]?\s+(?:tag|morgen|abend|woche|wochenende)|\btäglich\b"
    r"|\bmal\s+(?:pro|die|in\s+der)\s+woche|\btodos\s+los\s+(?:días|lunes|martes|fines)|\bcada\s+(?:día|mañana|noche"
    r"|semana|dia|manhã|semana)|\bveces\s+(?:por|a\s+la)\s+semana|\ba\s+diario\b|\btodo\s+(?:dia|santo\s+dia)"
    r"|\btodos\s+os\s+dias|\btoda\s+(?:manhã|noite|semana)|\bvezes\s+por\s+semana|\bdiariamente\b)"
    r"|每天|每周|每週|每个|每個|天天|经常|經常"
)
_SELF_SAID = re.compile(
    r"(?i:\b(?:i|we|je|j['’]|nous|on|ich|wir|yo|eu|nós)\b|\A\W*(?:(?:ahora|agora|también|também|ya|já)\s+)?"
    r"(?:me\s+|nos\s+)?[^\W\d_]+(?:o|oy|ou|ei|é)\b)|我"
)
_GAVE_UP = re.compile(
    r"(?i:(?:\A|\b(?:i|we)\s+)(?:['’]ve\s+|have\s+|just\s+|finally\s+|already\s+)*(?:quit|gave\s+up|sold|cancell?ed"
    r"|ditched)\s+(?:my\s+|the\s+|our\s+|on\s+)?(?P<en>[^\W\d_]{3,})"
    r"|\bj['’]ai\s+(?:\w+\s+)?(?:arrêté|abandonné|revendu|vendu|résilié|lâché|laissé\s+tomber)\s+(?:de\s+|d['’])?"
    r"(?:le\s+|la\s+|les\s+|l['’]|mon\s+|ma\s+|mes\s+)?(?P<fr>[^\W\d_]{3,})"
    r"|\b(?:ich|wir)\s+(?:habe|hab|haben)\s+(?:\w+\s+){0,3}?(?:mit\s+(?:dem|der|den)\s+|(?:den|die|das|mein|meine"
    r"|meinen)\s+)(?P<de>[^\W\d_]{3,})\s+(?:aufgehört|aufgegeben|verkauft|gekündigt)"
    r"|\b(?:dejé|he\s+dejado|abandoné|vendí|cancelé)\s+(?:de\s+)?(?:el\s+|la\s+|los\s+|las\s+|mi\s+|mis\s+)?"
    r"(?P<es>[^\W\d_]{3,})|\bme\s+di\s+de\s+baja\s+(?:del|de\s+la|de\s+los|de)\s+(?P<es2>[^\W\d_]{3,})"
    r"|\b(?:parei|deixei|larguei|vendi|cancelei|abandonei)\s+(?:de\s+)?(?:o\s+|a\s+|os\s+|as\s+|meu\s+|minha\s+|do\s+"
    r"|da\s+)?(?P<pt>[^\W\d_]{3,}))"
    r"|我(?:已经|已經)?(?:不(?P<zh>[\u4e00-\u9fff]{2})了|(?:戒|停|卖|賣|退)(?:掉)?了(?P<zh2>[\u4e00-\u9fff]{1,2}))"
)
_NOT_HABIT_WORDS = frozenset(
    """the and for with from every each day days morning evening night week weeks month times twice daily les des
    tous toutes chaque jour jours matin soir semaine fois par pour avec dans une der die das den dem und mit jeden
    jede jeder tag morgen abend woche mal pro los las del por con una todos cada día mañana semana veces dia dias
    todo todas manhã semana vezes com uma pelo pela pro para mais""".split()
)


def _habits(clause: str) -> list[Claim]:
    """A habit of the user's (see _OFTEN), one claim for each word it is said with; in Chinese, each pair of
    characters (its words are not spaced)."""
    if not _OFTEN.search(clause) or not _SELF_SAID.search(clause):
        return []
    if "我" in clause:
        han = re.sub(r"[^\u4e00-\u9fff]", " ", clause)
        found = {part[i : i + 2] for part in han.split() for i in range(len(part) - 1)}
    else:
        found = {
            stem(w) for w in re.findall(r"[^\W\d_]{3,}", clause.lower()) if w not in _NOT_HABIT_WORDS | _SELF_WORDS
        }
    return [Claim("user", f"_does:{word}", "yes", True, word) for word in sorted(found)]


def _given_up(clause: str) -> list[Claim]:
    """What the user says they stopped, quit, gave up or sold (see _GAVE_UP)."""
    out = []
    for match in _GAVE_UP.finditer(clause):
        word = next(w for w in match.groups() if w)
        word = word if re.match(r"[\u4e00-\u9fff]", word) else stem(word.lower())
        out.append(Claim("user", f"_does:{word}", "no", True, match.group(0)))
    return out


# A role beside a name: "my new neighbour Luis", "our cat Luna".
_APPOSITION = re.compile(
    rf"\b(?i:{_POSSESSIVE})\s+(?P<np>(?:(?:new|old|little|big|younger|older|elder|best|dear|petit|petite|nouveau|nouvelle"
    rf"|neuer|neue|nuevo|nueva|novo|nova)\s+)?[^\W\d_][\w'’-]+(?:['’]s\s+[a-z][\w'’-]+)*)(?:\s+|,\s+)"
    rf"(?P<value>[A-ZÀ-Ý][\w'’-]+)\b",
)


_SELF_WORDS = frozenset(
    "i we user je nous on ich wir yo nosotros eu nós gente having moi soy sou me call chamo llamo heiße heisse".split()
)
_SELF_VERBS = frozenset(
    "vivo vivimos mudé mudamos moro moramos mudei mudei-me mudámos mudámo-nos vivemos trabajo trabalho moved relocated"
    " mudamo-nos hemos".split()
)
_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def _words(text: str) -> set[str]:
    return set(_WORDS.findall(text.lower().replace("’", "'")))


def _possessive_in(text: str) -> bool:
    """Whether a text holds a possessive a claim's subject starts with: the patterns that need one are not run
    where none is (most messages)."""
    found = _words(text)
    return bool(found & _POSSESSIVE_WORDS) or "user's" in found


_POSSESSIVE_WORDS = frozenset(_FIRST_PERSON_POSSESSIVES)


def _read(clause: str) -> list[Claim]:
    """The claims of one clause. The patterns whose subject is the user run only where the clause names the user
    (or, in Spanish and Portuguese, says one of the verbs that need no subject), those whose subject is a
    possessive only where it holds one."""
    out: list[Claim] = []
    found = _words(clause)
    cjk = "我" in clause
    if cjk or found & (_SELF_WORDS | _SELF_VERBS) or any(w.startswith(("i'", "j'")) for w in found):
        out += _about_the_user(clause)
    if found & _POSSESSIVE_WORDS or "user's" in found:
        out += _about_what_is_theirs(clause)
    if cjk:
        out += _cjk_possessive(clause)
    out += _about_things(clause) + _habits(clause) + _given_up(clause) + _counts(clause)
    return out


def _about_the_user(clause: str) -> list[Claim]:
    out: list[Claim] = []
    for match in _SELF_NAME.finditer(clause):
        value = match.group("value")
        if value.split()[0].lower() not in _NOT_NAMES:
            out.append(Claim("user", NAME, value.lower(), True, value))
    for match in _CJK_NAME.finditer(clause):
        out.append(Claim("user", NAME, match.group("value").lower(), True, match.group("value")))
    for pattern, attr in (
        (_HOME, "_home"),
        (_HOME_MOVED, "_home"),
        (_WORK, "_work"),
        (_WORK_AT, "_work"),
        (_NEW_JOB, "_work"),
        (_CJK_WORK, "_work"),
    ):
        for match in pattern.finditer(clause):
            said = match.group("value") or match.groupdict().get("joined") or ""
            value = _value(said)
            if value and value.split()[0] not in _NOT_NAMES:
                out.append(Claim("user", attr, value, True, said))
    for match in _AGE.finditer(clause):
        out.append(Claim("user", AGE, match.group("value"), True, match.group("value")))
    for match in _DRIVE.finditer(clause):
        out.append(Claim("user>car", NAME, _value(match.group("value")), True, match.group("value")))
    done = [m for m in _COUNT_DONE.finditer(clause) if _RUNNING.search(m.group(0)) or _RUNNING.search(clause)]
    for match in (*_COUNT_HAVE.finditer(clause), *done, *_COUNT_AT.finditer(clause)):
        groups = match.groupdict()
        number = 1 if groups.get("one") else _number(match.group("value"))
        noun = (groups.get("single") or match.group("noun")).lower()
        if number is not None and noun not in _NOT_COUNTED:
            out.append(Claim("user", f"{COUNT}:{stem(noun)}", str(number), True))
    for match in _HABIT.finditer(clause):
        verb = (match.group("going") or match.group("verb") or "").lower()
        if verb and verb not in _NOT_HABITS:
            out.append(Claim("user", f"_does:{stem(verb)}", "yes", True, verb))
    for match in _STOPPED.finditer(clause):
        verb = (match.group("verb") or match.group("other") or "").lower()
        if verb and verb not in _NOT_HABITS:
            out.append(Claim("user", f"_does:{stem(verb)}", "no", True, verb))
    return out


# "我的车现在是特斯拉", "我的手机号换成了13800138000", "我妹妹叫小雨": a possessive and a verb of being, naming or
# becoming, in Chinese (no spaces: the noun is the characters between them).
_CJK_POSSESSIVE = re.compile(
    r"我(?:的|们的|們的)?(?P<np>[\u4e00-\u9fff]{1,6}?)(?:现在|現在|已经|已經|其实|其實)?(?P<verb>是|叫|换成了|換成了|换成|改成了"
    r"|改成|变成了|變成了|变成)(?P<value>[\u4e00-\u9fff\w-]{1,20}?)(?=[了，,。.！!；;\s]|\Z)"
)
_CJK_PEOPLE = re.compile(
    r"(?:老板|老闆|医生|醫生|经理|經理|老师|老師|妹妹|姐姐|哥哥|弟弟|妈妈|媽媽|爸爸|老公|老婆|男朋友|女朋友|同事|室友|邻居|鄰居|教练"
    r"|教練|儿子|兒子|女儿|女兒|猫|貓|狗)\Z"
)


def _cjk_possessive(clause: str) -> list[Claim]:
    out: list[Claim] = []
    for match in _CJK_POSSESSIVE.finditer(clause):
        np, value = match.group("np"), match.group("value")
        if not match.group(0).startswith(("我的", "我们的", "我們的")) and not _CJK_PEOPLE.search(np):
            continue  # "我是…", "我叫…" are the user's own (_CJK_NAME); "我妹妹叫…" names a person of theirs
        found = attribute(np)
        if found is not None and found != NAME:
            out.append(Claim("user", found, value.lower(), True, value))
        elif match.group("verb") == "叫" or _CJK_PEOPLE.search(np):
            out.append(Claim(f"user>{np}", NAME, value.lower(), True, value))
        else:
            out.append(Claim("user", np, value.lower(), True, value))  # "我的爱好是游泳": the hobby
    return out


# A value said as what it changed to: "my number changed to 555-0199", "mon numéro a changé : c'est le 06…", "o meu
# número mudou para 912…", "mi número cambió a 612…".
_CHANGED_TO = re.compile(
    rf"(?:\A|(?<=\s))(?P<np>(?i:{_POSSESSIVE})\s++{_NOUN}(?:\s++{_NOUN}){{0,3}}?)\s++(?i:(?:has|have|just)\s+)?"
    r"(?i:changed|switched|a\s+changé|changé|cambió|ha\s+cambiado|mudou|mudaram|hat\s+sich\s+geändert)\s*+"
    r"(?:(?P<to>(?i:to|para|pra|à|en|zu|auf)\s|[:,]\s*+(?i:it['’]s|c['’]est|es|é|ist|sie\s+ist|er\s+ist)\s)|(?i:a)\s)?\s*+"
    r"(?i:le\s|la\s|el\s|o\s|a\s|the\s)?\s*+(?P<value>\S.*)"
)


def _changed_to(sentence: str) -> list[Claim]:
    """A possessive subject's value said as what it changed to (_CHANGED_TO): read over the whole sentence, as "…a
    changé : c'est le 06…" spans two clauses; a value that is neither a number nor a name after a bare "a" is none
    ("my plans changed a lot")."""
    out: list[Claim] = []
    for match in _CHANGED_TO.finditer(sentence):
        value = match.group("value")
        if match.group("to") or value[:1].isdigit() or value[:1].isupper():
            out += _possessive(match.group("np"), value, match.group(0))
    return out


def _about_what_is_theirs(clause: str) -> list[Claim]:
    out: list[Claim] = []
    for match in _NAME_FIRST.finditer(clause):
        value = match.group("value")
        if value.split()[0].lower() not in _NOT_NAMES:
            out += _possessive(match.group("np"), value, match.group(0))
    for match in _BIRTHDAY.finditer(clause):
        out.append(Claim("user", AGE, match.group("value"), True, match.group("value")))
    for match in _REACHED.finditer(clause):
        out += _possessive(match.group("np"), match.group("value"), match.group(0))
    for match in _COUNT_ORDINAL.finditer(clause):
        number = _number(match.group("value"))
        if number is not None and match.group("noun").lower() not in ("birthday", "anniversary"):
            out.append(Claim("user", f"{COUNT}:{stem(match.group('noun').lower())}", str(number), True))
    for match in _SUBJECT_POSSESSIVE.finditer(clause):
        out += _possessive(match.group("np"), match.group("value"), clause[match.start() : match.end()])
        if _NOT_IN_SUBJECTS.intersection(w.lower() for w in match.group("np").split()):
            continue
        if match.group("name") and match.group("name").lower() not in _NOT_NAMES:
            name = match.group("name")
            out.append(Claim(_path(match.group("np")), NAME, name.lower(), False, name))
    return out


# A name given with the verb of naming before or after the role (German word order): "heißt meine Schwester Sara",
# "dass meine Schwester Sofia heißt".
_CALLED_AROUND = re.compile(
    rf"(?i:heißt|heisst|heißen)\s++(?P<np>(?i:{_POSSESSIVE})\s++[^\W\d_][\w'’-]*+)\s++(?P<value>[A-ZÀ-Ý][\w'’-]*+)"
    rf"|(?P<np2>(?i:{_POSSESSIVE})\s++[^\W\d_][\w'’-]*+)\s++(?P<value2>[A-ZÀ-Ý][\w'’-]*+)\s++(?i:heißt|heisst|heißen)\b"
)


def _named(sentence: str) -> list[Claim]:
    """The roles a sentence names someone in ("my new neighbour Luis", "my manager, Rachel, …"): mentions, which
    say whom it is about and never replace a name."""
    out = []
    for match in _CALLED_AROUND.finditer(sentence):
        np, value = match.group("np") or match.group("np2"), match.group("value") or match.group("value2")
        out.append(Claim(_path(np), NAME, value.lower(), True, value))
    for match in _APPOSITION.finditer(sentence):
        noun = match.group("np").split()[-1].lower()
        if noun in _NOT_ROLES or match.group("value").lower() in _NOT_NAMES:
            continue
        out.append(Claim(_path(match.group("np")), NAME, match.group("value").lower(), False, match.group("value")))
    return out


# A value denied, then the one that holds: "my sister's name isn't Claire, it's Clara", "mi cuñada no se llama
# Marisol, se llama Maribel", "unser Hund heißt nicht Bruno, sondern Balu", "le code n'est pas 4512 mais 4521".
_DENIED = re.compile(
    rf"(?:\A|(?<=\s))(?P<np>(?i:{_POSSESSIVE})\s++{_NOUN}(?:\s++{_NOUN}){{0,3}}?)\s++(?i:isn['’]t|is\s+not|wasn['’]t"
    r"|was\s+not|aren['’]t|are\s+not|ne\s+s['’]appelle\s+pas|n['’]est\s+pas|heißt\s+nicht|heisst\s+nicht|ist\s+nicht"
    r"|no\s+se\s+llama|no\s+es|não\s+se\s+chama|não\s+é|不是|不叫)\s*+(?P<old>[\w'’:/.-]+(?:\s[A-ZÀ-Ý][\w'’-]*)?)"
)
_AFFIRMED = re.compile(
    r"(?i:but\s+|mais\s+|aber\s+|sondern\s+|sino\s+|pero\s+|mas\s+(?:sim\s+)?|而是|是)?"
    r"(?i:it['’]s\s+|it\s+is\s+|she['’]s\s+|he['’]s\s+|she\s+is\s+|he\s+is\s+|they['’]re\s+|c['’]est\s+|il\s+est\s+"
    r"|elle\s+est\s+|er\s+ist\s+|sie\s+ist\s+|es\s+ist\s+|ele\s+é\s+|ela\s+é\s+|il\s+s['’]appelle\s+"
    r"|elle\s+s['’]appelle\s+|s['’]appelle\s+|er\s+heißt\s+|sie\s+heißt\s+|heißt\s+|es\s+|se\s+llama\s+|ist\s+|é\s+"
    r"|chama-se\s+|se\s+chama\s+|叫)?(?P<value>[\w'’:/.-]+(?:\s[A-ZÀ-Ý][\w'’-]*)?)"
)


def _denials(sentence: str) -> Iterator[tuple[re.Match, re.Match]]:
    """Each value denied of a possessive subject and then given (see _DENIED): (the denial, what is given)."""
    for match in _DENIED.finditer(sentence):
        rest = sentence[match.end() :]
        said = _AFFIRMED.match(rest, len(rest) - len(rest.lstrip(" ,;:—–-")))
        if said is not None and said.group("value").lower() != match.group("old").lower():
            yield match, said


def denied(text: str) -> set[str]:
    """The values a text denies and puts another in place of ("my sister's name isn't Claire, it's Clara" →
    {"claire"}): a correction of what was said before, whatever its opening words."""
    if not _possessive_in(text):
        return set()
    return {match.group("old").lower() for s in SENTENCE_BREAK.split(text) for match, _ in _denials(s)}


def _denied_then_said(sentence: str) -> list[Claim]:
    """A possessive subject's value denied and then given (see _DENIED): the value given, as said of the subject."""
    out: list[Claim] = []
    for match, said in _denials(sentence):
        value = said.group("value")
        called = _CALLED.search(
            sentence[match.start() : match.end() + said.end()]
        ) is not None or "name" in match.group("np")
        out += _possessive(match.group("np"), value, (" is called " if called else " is ") + value)
    return out


def _person(who: str) -> str:
    """Whom a subject names: a person by their name ("my sister Ana", "Ana" → "ana"), else by their role ("my
    sister", "Dad" → "user>dad")."""
    words = who.split()
    if len(words) == 1 and words[0].lower() in _ROLES | _PLURAL_ROLES:
        return _chain([words[0].lower()])
    names = [w for w in words[1:] if w[:1].isupper()] if len(words) > 1 else words
    return names[-1].lower().strip("'’") if names else _path(who)


def _about_things(clause: str) -> list[Claim]:
    out: list[Claim] = []
    for match in _THING_CALLED.finditer(clause):
        value = _value(match.group("value"))
        if value:
            out.append(Claim(_chain([match.group("noun").lower()]), NAME, value, True, match.group("value").strip()))
    for match in _THEIR_AGE.finditer(clause):
        if match.group("who").split()[0].lower() not in _NOT_NAMES:
            said = match.group("value") or match.group("word")
            out.append(Claim(_person(match.group("who")), AGE, str(_number(said)), True, said))
    for pattern, attr in ((_THEIR_HOME, "_home"), (_THEIR_HOME_MOVED, "_home"), (_THEIR_WORK, "_work")):
        for match in pattern.finditer(clause):
            value = _value(match.group("value"))
            who = match.group("who")
            if value and value.split()[0] not in _NOT_NAMES and who.split()[0].lower() not in _NOT_NAMES:
                out.append(Claim(_person(who), attr, value, True, match.group("value")))
    for match in _THING_ATTRIBUTE.finditer(clause):
        nouns = [w.lower() for w in match.group("np").split()]
        value = _value(match.group("value"))
        if nouns[0] in _FIRST_PERSON_POSSESSIVES:
            continue  # "a minha irmã": a possessive subject, read above
        timed = _AT.match(match.group("value").lstrip()) and _when(match.group("value"))
        end = _VALUE_END.search(match.group("value"))
        said = match.group("value")[: end.start()] if end else match.group("value")
        if value and _CALLED.search(match.group(0)):
            # "the dog is called Balu": in the owner's words, the one they have ("our dog")
            out.append(Claim(_chain(nouns), NAME, value, True, said))
        elif value and not timed and nouns[-1] not in _ROLES | _PLURAL_ROLES:
            out.append(Claim(">".join(stem(n) for n in nouns[:-1]), stem(nouns[-1]), value, True, said))
    return out


# Capitalised words after "I'm" that are no name ("I'm Italian", "I'm Fine"), and pronouns that start a sentence.
_NOT_NAMES = frozenset(
    """we they he she it you nous vous ils elles il elle wir sie er es ihr ellos ellas él ella ele ela eles elas
    i the a an so just not also still back here there home done sorry fine good ok okay tired happy sure glad
    ready busy new really very at in on from with going gonna actually currently now still english french german
    spanish portuguese chinese italian american british canadian vegan vegetarian retired married single pregnant
    allergic monday tuesday wednesday thursday friday saturday sunday january february march april may june july
    august september october november december user""".split()
)
# Nouns that are no role a name is given to ("my friend Lea" is a role, "my trip Monday" is not).
_NOT_ROLES = frozenset("trip day week flight meeting appointment birthday name favourite favorite".split())


# People and animals, whose proper name a verb of being gives ("my manager is Priya"), unlike things ("my car is a
# Kia" names the car's make, which is its value all the same).
_YEARS = re.compile(
    r"\A(?P<n>\d{1,3}|[a-z]+)\s*(?:years?\s+old|yo|ans|jahre(?:\s+alt)?|años|anos|岁|歲)\b", re.IGNORECASE
)


_NEGATING = frozenset("ne n' not pas nicht kein keine no não nao never jamais nie nunca".split())


def _possessive(np: str, said: str, whole: str) -> list[Claim]:
    """A possessive subject ("my sister's name", "our cat") and what follows its verb of being; None when it is
    denied ("mon chat ne s'appelle pas Félix")."""
    if (
        _NEGATING.intersection(w.lower() for w in re.findall(r"[\w']+", np))
        or said.split(" ", 1)[0].lower() in _NEGATING
    ):
        return []
    said = TITLE_STOP.sub(r"\1", said)
    value_words = _value(said)
    if not value_words:
        return []
    np = _without_tail(np)
    end = _VALUE_END.search(said)
    said = said[: end.start()] if end else said
    words = re.sub(r"['’]s\b", " 's", np).split()
    nouns = [w.lower() for w in words[1:] if w != "'s"]
    if _NOT_IN_SUBJECTS.intersection(nouns):
        return []
    if words and words[0].lower() == "the":  # "the user's …"
        nouns = nouns[1:]
    nouns = [n for n in nouns if n not in _ARTICLES and n not in _MODIFIERS]
    if not nouns:
        return []
    head = nouns[-1]
    called = bool(_CALLED.search(whole))
    # A name: its first or second word written with a capital ("l'US Créteil", "le docteur Roux", "a blue Ford")
    shown = [ELIDED.sub("", w) for w in re.findall(r"[\w'’-]+", said) if w.lower() not in _ARTICLES]
    proper = bool(shown) and not shown[0][:1].isdigit() and any(w[:1].isupper() for w in shown[:2])
    found = attribute(head)
    years = _YEARS.match(value_words)
    if head in ("name", "nom", "nombre", "nome", "名字") or found == NAME:
        return [Claim(_chain(nouns[:-1]), NAME, value_words, True, said)]
    if years and _number(years.group("n")) is not None:
        return [Claim(_chain(nouns), AGE, str(_number(years.group("n"))), True, said)]
    if head in ("age", "âge", "alter", "edad", "idade"):
        return [Claim(_chain(nouns[:-1]), AGE, value_words, True, said)]
    if _AT.match(said.lstrip()) and _when(said):
        return []  # "my dentist appointment is on Friday": a thing and when it is (_things_when)
    if called or proper:
        if head in _PLURAL_ROLES and not called:
            return []  # "my neighbour is Ana": one of several
        return [Claim(_chain(nouns), NAME, value_words, True, said)]
    if head in _PLURAL_ROLES or head in _ROLES:
        return []  # "my sister is nice": what someone is like is no value of an attribute
    if head not in _WORD_VALUED and not _VALUE_SHAPE.match(said.lstrip()):
        return []  # "my family is awesome", "my art is important to me": what a thing is like, not which it is
    return [Claim(_chain(nouns[:-1]), found or stem(head), value_words, True, said)]


# Attributes whose value may be a plain word ("my favourite colour is blue", "my blood type is o negative"); any
# other thing's value is a number, a name, or a thing named with an article ("my car is a Kia", "mi coche es un Seat").
_WORD_VALUED = frozenset(
    """colour color size type language sign code password pin email address nickname hobby sport drink food dish breed
    major subject grade level rank couleur taille langue surnom farbe größe sprache spitzname talla idioma apodo cor
    tamanho língua apelido""".split()
)
_VALUE_SHAPE = re.compile(r"[\d#+]|[A-ZÀ-Ý\u4e00-\u9fff]|(?i:an?|the|un|une|ein|eine|einen|una|um|uma|el|la|le|o)\s+\S")


_AT = re.compile(r"(?i)(?:on|at|for|to|le|à|am|um|el|a\s+las|no|na|às)\b")
# When a subject's words end: "my highest score so far is 124" says the highest score, "so far" when it holds.
_NP_TAILS = frozenset(
    "so far|to date|until now|till now|yet|ever|lately|currently|now|right now|these days|at the moment|this year"
    "|this month|this week|this season|bis jetzt|jusqu'ici|hasta ahora|até agora".split("|")
)


def _without_tail(np: str) -> str:
    """A subject without the words after it that say when it holds ("my highest score so far")."""
    words = np.split()
    while len(words) > 1:
        tail = next((n for n in (3, 2, 1) if " ".join(words[-n:]).lower().replace("’", "'") in _NP_TAILS), 0)
        if not tail or tail >= len(words):
            break
        del words[-tail:]
    return " ".join(words)


_MODIFIERS = frozenset(
    """new old little big younger older elder best dear current former favourite favorite now maintenant jetzt ahora
    agora actually nuevo nueva nouveau nouvel nouvelle novo nova neue neuer neues actual actuel actuelle
    atual""".split()
)
# Words that are no part of a subject's noun phrase: "our meeting moved to Thursday because Ana is away" has none.
_NOT_IN_SUBJECTS = frozenset(
    """to because since that which when if and but so as at in on for with from is was are were be been has have had
    will would said moved""".split()
)
_ROLES = frozenset(
    """manager boss dentist doctor lawyer wife husband partner girlfriend boyfriend fiance fiancee landlord landlady
    therapist accountant mother father mom dad mum mam teacher coach vet trainer mentor doctor gp surgeon cat dog
    grandma grandpa granny grandmother grandfather papa mama maman vater mutter mamá papá mãe pai hund chien perro
    cachorro gato chat katze
    médecin patron patronne chef mari femme copain copine avocat arzt zahnarzt chef chefin frau mann anwalt jefe
    jefa médico abogado esposo esposa marido mujer novio novia advogado chefe médico namorado namorada""".split()
)
# The nouns of people and pets, as a holder's path holds them (stemmed).
_PEOPLE = frozenset(stem(noun) for noun in _ROLES | _PLURAL_ROLES)


def _chain(nouns: list[str]) -> str:
    return ">".join(["user", *(stem(n) for n in nouns if n not in _MODIFIERS)])


def _path(np: str) -> str:
    nouns = [w.lower() for w in re.sub(r"['’]s\b", "", np).split() if w.lower() not in _ARTICLES]
    nouns = [n for n in nouns if n not in _FIRST_PERSON_POSSESSIVES and n != "user"]
    nouns = [n for n in nouns if n not in _MODIFIERS]
    return ">".join(["user"] + [stem(n) for n in nouns])


def _value(said: str) -> str:
    """The words of a value: up to the end of its clause, without articles."""
    said = TITLE_STOP.sub(r"\1", said)
    end = _VALUE_END.search(said)
    said = said[: end.start()] if end else said
    words = [w for w in re.findall(r"[\w'’:/-]+", said.lower()) if w not in _ARTICLES]
    return " ".join(words[:6])


def _day(word: str) -> str:
    """The day a word names ("Thursdays" → "thursday", "15th"), or ''."""
    word = word.lower()
    if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", word):
        return word
    single = word[:-1] if word.endswith("s") and word[:-1] in _DAYS else word
    return single if single in _DAYS else ""


def _number(word: str) -> int | None:
    word = word.lower()
    if word[:1].isdigit():
        return int(re.match(r"\d+", word).group(0))  # type: ignore[union-attr]
    return _NUMBER_WORDS.get(word, _ORDINAL_WORDS.get(word))


# --- a thing and when it is ----------------------------------------------------------------------------------------

# A thing is the subject of a clause that says when it is, whatever verb says so: "the standup is at 10am", "my
# Pilates class moved to Sundays", "Le yoga passe au jeudi", "La clase de salsa ahora es los lunes", "A fisioterapia
# passou para as quintas", "Der Chor probt donnerstags", "…verschoben, sie ist jetzt am 27. Juni" (a pronoun is the
# thing the sentence named before), "家长会改到下午两点了". The subject is the noun phrase that opens the clause with an
# article or a possessive; between it and the day or time stands one verb, with the words of time, place and being
# around it. A day is a weekday or a date, a time a clock time.
_PT_DAYS = frozenset("segunda terça quarta quinta sexta".split())
_MONTH = "|".join(sorted(MONTH_OF, key=len, reverse=True))
_DATE = re.compile(
    rf"(?i:(?<!\w)(?P<d>[0-3]?\d)(?:st|nd|rd|th|er|\.|º)?\s*+(?:de\s+|of\s+)?(?P<m>{_MONTH})\b"
    rf"|\b(?P<m2>{_MONTH})\s++(?:the\s+)?(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\b(?![:.,]?\d))"
    r"|(?P<cm>\d{1,2})月(?P<cd>\d{1,2})[日号號]"
)
_CLOCK = re.compile(
    r"(?i:\b\d{1,2}(?:[:h.]\d\d)\s*(?:am|pm|h|uhr)?\b|\b\d{1,2}\s*(?:am|pm|h|uhr)\b(?!\s*\d)"
    r"|\b(?:a\s+las|a\s+la|às|as|um|à|at)\s+(?:\d{1,2}(?:[:h.]\d\d)?(?:\s*(?:am|pm|h|uhr)\b)?|(?:una|dos|tres|cuatro"
    r"|cinco|seis|siete|ocho|nueve|diez|once|doce|uma|duas|três|quatro|sete|oito|nove|dez|onze|doze|noon|midnight)\b)"
    r"(?![:.]?\d|\s*(?:de|of)\s)"
    r"|\bhalb\s+(?:eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf)\b|\bnoon\b|\bmidi\b|\bmittag\b)"
    r"|(?:上午|下午|晚上|早上|中午|傍晚)?[一二三四五六七八九十两兩\d]{1,3}[点點](?:半|[一二三四五\d]{1,2}分?)?"
)
_AT_THE_HOUR = re.compile(r"\A(?:a\s+las|a\s+la|às|as|um|à|at)\s+")
_CJK_DAY = re.compile(r"(?:周|週|星期|礼拜|禮拜)[一二三四五六日天]")
# Words that stand between a subject and its day or time: of being, of time, place and aspect, articles.
_AROUND_THE_VERB = frozenset(
    """is are was were be been being has have had got gets will 's am on at to for from until till in into by this
    every the a an now actually still currently again instead est sont était été sera a ont c'est désormais
    maintenant encore toujours le la les l' au aux à pour dès partir de du des ce cette chaque ist sind war wird
    wurde worden hat haben jetzt nun ab ab jetzt noch immer am um im in der die das den dem auf bis es son era fue
    será ha han ahora ya todavía desde el los las a al para del cada é são foi será tem têm agora já ainda desde
    o os as às ao aos para pra pro na nas no nos em do da cada""".split()
)
_BEING = frozenset("is are was were est sont était c'est ist sind war es son era é são foi 's".split())
# Words a subject's nouns are joined by ("cours de yoga", "die Hochzeit meiner Cousine"), and words that refer
# back to the thing a sentence named ("…verschoben, sie ist jetzt am 27. Juni").
_JOINING = frozenset("of de du des d' del da do das dos von vom der meiner meines unserer unseres".split())
_BACK = frozenset("it it's its c' ce ça il elle er sie es él ella ele ela this that".split())
_DETERMINERS = _ARTICLES | _POSSESSIVE_WORDS | {"this", "that", "ce", "cette", "dieser", "diese", "este", "esta"}
# What may come before a subject at the start of a clause: a word that joins or turns the talk.
_OPENING = frozenset(
    """and so also oh btw but then anyway well ok okay et alors bon donc aussi mais und also aber übrigens außerdem
    y pues bueno también pero e então também mas entretanto""".split()
)
# Nouns of a kind of event: what names it is the word beside them ("my yoga class" and "Le yoga" are one thing; "my
# yoga class" and "my dance class" are two). A German compound ends with one ("Chorprobe", "Yogakurs").
_KINDS_OF_EVENT = frozenset(
    stem(word)
    for word in """class lesson course session appointment meeting practice rehearsal training workout cours séance
    leçon rendez-vous réunion répétition entraînement kurs stunde termin probe training sitzung treffen clase cita
    reunión ensayo sesión curso entrenamiento aula consulta reunião ensaio sessão treino""".split()
)
_TOKEN = re.compile(r"\w++(?:['’:.-]++\w++)*+|[^\w\s]")


def _when(said: str) -> list[tuple[str, str, str, int]]:
    """The day and the time `said` names, each as (attribute, value, words as written, where they start): a weekday
    ("on Thursdays", "às quintas", "周六"), a date ("27. Juni", "le 13 juin", "June 27", "the 20th", "6月13日"), a
    clock time ("18h", "16:40", "a las ocho", "下午两点")."""
    days = []
    for match in _DATE.finditer(said):
        month = MONTH_OF.get((match.group("m") or match.group("m2") or "").lower())
        if match.group("cm"):
            days.append((match, f"{int(match.group('cd'))} {int(match.group('cm'))}"))
        elif month and 1 <= int(match.group("d") or match.group("d2")) <= 31:
            days.append((match, f"{int(match.group('d') or match.group('d2'))} {month}"))
    taken = [(m.start(), m.end()) for m, _ in days]
    for match in re.finditer(r"[^\W\d_]+(?:-feira)?|\d{1,2}(?:st|nd|rd|th)\b", said):
        word = match.group(0).lower()
        day = _day(word.removesuffix("-feira"))
        if not day or any(a <= match.start() < b for a, b in taken):
            continue
        if day in _PT_DAYS and not word.endswith(("s", "-feira")):
            continue  # "a segunda vez" is the second time: a Portuguese weekday is said "às quintas", "quinta-feira"
        days.append((match, day))
    days += [(m, m.group(0)[-1].replace("天", "日")) for m in _CJK_DAY.finditer(said)]
    out = []
    if days:
        days.sort(key=lambda found: found[0].start())
        out.append((DAY, " ".join(value for _, value in days), days[0][0].group(0), days[0][0].start()))
    times = [m for m in _CLOCK.finditer(said) if not any(a <= m.start() < b for a, b in taken)]
    if times:
        value = " ".join(_AT_THE_HOUR.sub("", " ".join(t.group(0).lower().split())) for t in times)
        out.append((TIME, value, times[0].group(0), times[0].start()))
    return out


# Words that open or join clauses: a noun phrase holds none ("my meeting moved to Thursday because…").
_CLAUSE_WORDS = _NOT_IN_SUBJECTS | frozenset(
    "que qu' dass daß ob qui quand cuando quando porque parce weil como comme wie".split()
)


def _subject(tokens: list[str]) -> str | None:
    """The holder the noun phrase `tokens` names (an article or a possessive, then its words): the people it is of
    ("die Hochzeit meiner Cousine" → "cousine>hochzeit"; the user, by a possessive of theirs, when no one else), then
    its own words ("my yoga class" → "user>yoga>class"); None when it names no thing: a pronoun, a day, the user."""
    if len(tokens) < 2 or tokens[0].lower() not in _DETERMINERS or len(tokens) > 6:
        return None
    nouns = [t.lower().removesuffix("'s") for t in tokens[1:] if t.lower() not in _JOINING | _DETERMINERS | _MODIFIERS]
    if (
        not nouns
        or any(not n[:1].isalpha() for n in nouns)
        or set(nouns) & (_SELF_WORDS | _BACK | _BEING | _CLAUSE_WORDS)
    ):
        return None  # "A Carla falou que o churrasco…" opens with someone saying, not with a thing
    if _when(" ".join(nouns)):
        return None  # "le mardi" is a day, not a thing
    stems = [stem(n) for n in nouns]
    people = [n for n in stems if n in _PEOPLE] or (["user"] if tokens[0].lower() in _POSSESSIVE_WORDS else [])
    return ">".join(people + [n for n in stems if n not in _PEOPLE])


def _things_when(sentence: str) -> list[Claim]:
    """Each clause of a sentence that says when a thing is (see above)."""
    out: list[Claim] = []
    named: str | None = None  # the thing the sentence named last
    for clause in _CLAUSES.split(sentence):
        tokens = _tokens(clause)
        found = _when(clause)
        before = _tokens(clause[: min(start for *_, start in found)]) if found else []
        if found and re.search(r"[\u4e00-\u9fff]", clause):
            out += _cjk_things_when(clause)
        elif found and asserts(clause) and any(t.lower() not in _AROUND_THE_VERB - _BEING for t in before):
            # a clause with a verb (or one of being): ", a Thursday" only says again the day said before it
            holder = _subject_before(before, named)
            if holder:
                out += [Claim(holder, attr, value, True, said.strip()) for attr, value, said, _ in found]
        for i, token in enumerate(tokens):
            if token.lower() in _DETERMINERS:
                holder = _subject(tokens[i : i + 1 + _phrase_length(tokens[i + 1 :])])
                if holder:
                    named = holder
                    break
    return out


# In Chinese, the thing is the characters before a verb of being, of moving or of taking place, back to a "的" or
# the start of the clause ("周六的家长会是上午九点开", "家长会改到下午两点了").
_CJK_THING = re.compile(
    r"(?:\A|的|[，,。:：])(?P<np>(?:(?![的我你他她它们們])[\u4e00-\u9fff]){1,6}?)(?:现在|現在|已经|已經|也|又|就)?"
    r"(?:是|改到了?|改成了?|改在|改为|改為|换到|換到|挪到|推迟到|推遲到|提前到|定在|在)"
)


def _cjk_things_when(clause: str) -> list[Claim]:
    for match in _CJK_THING.finditer(clause):
        found = [w for w in _when(clause[match.end() :]) if w[3] <= 2]
        if found and asserts(clause):
            return [Claim(match.group("np"), attr, value, True, said.strip()) for attr, value, said, _ in found]
    return []


def _tokens(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text.replace("’", "'")) if t not in ("-", "–", "—")]


def _phrase_length(tokens: list[str]) -> int:
    """How many of `tokens` a noun phrase may hold after its article: its words up to one that stands around a
    verb, joined words included ("cours de yoga"), at most four ("the team standup moved", whose verb is among
    them: a holder is matched by the words it shares, same_holder)."""
    length = 0
    while length < len(tokens) and length < 4 and tokens[length][:1].isalpha():
        word = tokens[length].lower()
        if word in _JOINING and length + 1 < len(tokens):
            length += 1
        elif word in _AROUND_THE_VERB | _OPENING | _BACK | _DETERMINERS | _CLAUSE_WORDS | _OF_A_DAY:
            break
        length += 1
    return length


# Words that say which of a day it is: "last Friday", "le mardi prochain", "nächsten Montag" are days, not things.
_OF_A_DAY = frozenset(
    """last next coming past dernier dernière prochain prochaine letzten letzte nächsten nächste kommenden pasado
    pasada próximo próxima passado passada""".split()
)
_INDEFINITE = frozenset("a an un une ein eine einen einem uno una um uma some".split())


def _object_before(tokens: list[str]) -> str | None:
    """The thing a clause that opens with its verb moves to a day or a time: "Han cambiado la reunión de vecinos a
    las 20:30", "I moved the standup to 11" — a definite noun phrase right before the day or time, the clause's first,
    naming a thing (not only a person: "I met my sister on Monday" gives her no day; nor "a meeting", one of many;
    nor where one went: "I went to the beach on the 20th")."""
    for start in range(min(len(tokens) - 1, 3), 0, -1):
        word = tokens[start].lower()
        if (
            word not in _DETERMINERS
            or word in _INDEFINITE
            or start + 1 + _phrase_length(tokens[start + 1 :]) != len(tokens)
        ):
            continue
        if any(t.lower() in _DETERMINERS for t in tokens[:start]) or not tokens[0][:1].isalpha():
            return None
        if tokens[start - 1].lower() in _AROUND_THE_VERB:
            return None  # "I went to the beach on the 20th": where one went, not what was moved
        holder = _subject(tokens[start:])
        if holder and any(n not in _PEOPLE and n != "user" for n in holder.split(">")):
            return holder
        return None
    return None


def _subject_before(tokens: list[str], named: str | None) -> str | None:
    """The holder of a clause whose day or time starts after `tokens`: back from it over the words around the verb
    and the verb itself to the noun phrase that opens the clause; a pronoun, or no subject at all (Spanish and
    Portuguese leave it out), is the thing the sentence named before (`named`)."""
    end, being = len(tokens), False
    while end and tokens[end - 1].lower() in _AROUND_THE_VERB:
        being = being or tokens[end - 1].lower() in _BEING
        end -= 1
    moved = _object_before(tokens[:end])
    if moved:
        return moved
    if end and not being:
        end -= 1  # the verb ("passe", "moved", "probt")
        while end and tokens[end - 1].lower() in _AROUND_THE_VERB - _DETERMINERS:
            end -= 1
    begin = 0
    while begin < end and tokens[begin].lower() in _OPENING:
        begin += 1
    head = tokens[begin:end]
    if not head or (len(head) == 1 and head[0].lower() in _BACK):
        return named
    return _subject(head)


# --- how a newer claim meets an older one ------------------------------------------------------------------------


def differs(new: str, old: str) -> bool:
    """Two values of an attribute differ: neither holds all of the other's words ("a red Toyota" refines "a
    Toyota"; "Nala" is not "Luna")."""
    a, b = set(new.split()), set(old.split())
    return not (a <= b or b <= a)


def same_holder(one: Claim, other: Claim) -> bool:
    """Whether two claims of an attribute are of the same holder. A thing's day or time is the thing's however much
    of its name is said: "Le yoga" is "mon cours de yoga", "die Hochzeit" is "die Hochzeit meiner Cousine", "der
    Chor" is "die Chorprobe" (the words of one name are among the other's, the kind of event aside); "my yoga class"
    is not "my dance class", nor "my birthday" "my sister's birthday"."""
    if one.attribute != other.attribute:
        return False
    if one.holder == other.holder:
        return True
    if one.attribute not in (DAY, TIME):
        return False
    mine, theirs = one.holder.split(">"), other.holder.split(">")
    people = [n for n in mine if n in _PEOPLE or n == "user"], [n for n in theirs if n in _PEOPLE or n == "user"]
    if all(people) and people[0] != people[1]:
        return False
    a, b = _naming(mine), _naming(theirs)
    return bool(a and b) and (_among(a, b) or _among(b, a))


def _among(these: set[str], those: set[str]) -> bool:
    """Each of these words is one of those, or a German compound's part of one ("chor", "chorprobe")."""
    return all(
        any(x == y or (min(len(x), len(y)) >= 4 and (x.startswith(y) or y.startswith(x))) for y in those) for x in these
    )


def _naming(path: list[str]) -> set[str]:
    """The words that name a thing, without the kind of event it is (or that kind, when nothing else names it); a
    German compound without its kind ("chorprobe" → "chor")."""
    things = [n for n in path if n not in _PEOPLE and n != "user"]
    out = set()
    for noun in things:
        kind = next((k for k in _KINDS_OF_EVENT if noun.endswith(k) and len(noun) >= len(k) + 3), None)
        if noun not in _KINDS_OF_EVENT:
            out.add(noun[: -len(kind)] if kind else noun)
    return out or set(things)


def meeting(
    new: tuple[Claim, ...], old: tuple[Claim, ...], denied: Collection[str] = ()
) -> tuple[str, Claim, Claim] | None:
    """How the newer text's claims meet the older's: ("same", …) when they state the same value of an attribute of
    the same holder, ("changed", new claim, old claim) when the newer states another value of it, else None. Only
    a stated claim changes a value: a role beside a name ("my new neighbour Luis") never does; and a name the older
    text only gives beside a role ("my sister Claire") is changed only by a newer text that denies it (`denied`:
    "…isn't Claire, it's Clara", "…Nala, not Luna"), else it may be another person in that role."""
    same = None
    for claim in new:
        for before in old:
            if _gives_up(claim, before):
                return "changed", claim, before  # "Sold the Focus" after "I drive a Ford Focus"
            if not same_holder(claim, before):
                continue
            if not differs(claim.value, before.value):
                same = same or ("same", claim, before)
            elif claim.stated and (before.stated or before.value in denied):
                return "changed", claim, before
    return same


def given_up(found: tuple[Claim, ...]) -> list[str]:
    """The words of what claims say the user gives up ("sold the Focus": "focus"), and the user's attribute such a
    word names ("quit my job": "_work@user"), as topic terms: what to look for among older statements whose value,
    thing or attribute it may end (see _gives_up)."""
    words = [c.attribute.split(":", 1)[1] for c in found if c.attribute.startswith("_does:") and c.value == "no"]
    return words + [f"{attribute(w)}@user" for w in words if attribute(w)]


def _gives_up(claim: Claim, before: Claim) -> bool:
    """Whether the user gives up (see _given_up) what an older claim of theirs states: its value ("Sold the Focus"
    after "I drive a Ford Focus"), the thing it is of ("I sold my car" after "my car is a Kia"), or the word of its
    attribute ("I quit my job" after "I work at Acme")."""
    if claim.value != "no" or not claim.attribute.startswith("_does:") or not before.stated:
        return False
    if before.attribute.startswith("_does") or before.holder.split(">")[0] != "user":
        return False
    word = claim.attribute.split(":", 1)[1]
    things = before.holder.split(">")[1:]
    return (
        word in {stem(w) for w in _WORDS.findall(before.value)}
        or bool(things and things[-1] == word)
        or attribute(word) == before.attribute
    )


def other_holder(new: tuple[Claim, ...], old: tuple[Claim, ...]) -> bool:
    """Every attribute the newer text states is said in the older one of another holder only ("my brother's car"
    after "my car")."""
    stated = [claim for claim in new if claim.stated]
    if not stated:
        return False
    for claim in stated:
        same_attribute = [before for before in old if before.attribute == claim.attribute]
        if not same_attribute or any(same_holder(claim, before) for before in same_attribute):
            return False
    return True


def asserts_any(text: str) -> bool:
    """Whether any sentence of a text states something (not only questions and suppositions)."""
    return any(asserts(sentence) for sentence in SENTENCE_BREAK.split(text))


def corrected(content: str, new: tuple[Claim, ...], old: tuple[Claim, ...]) -> str | None:
    """`content` (what `old` was read from) with each value the newer claims change put right, its other details
    kept ("Our cat Luna is three" and "she is called Nala" → "Our cat Nala is three"); None when the newer text says
    of something the older does not, or an old value's words are not found in `content` exactly once."""
    changes = []
    for claim in new:
        before = [b for b in old if same_holder(claim, b)]
        if not before:
            if claim.stated:
                return None  # it says more than the memory: its own words replace the memory's
            continue
        changed = [b for b in before if differs(claim.value, b.value)]
        if not changed or not claim.stated:
            continue
        if claim.attribute.startswith("_does"):
            return None  # a habit given up is no value to put right: the words that give it up replace it
        said, replacement = changed[0].said.strip(" .,;!?"), claim.said.strip(" .,;!?")
        found = list(re.finditer(rf"(?<!\w){re.escape(said)}(?!\w)", content, re.IGNORECASE)) if said else []
        if len(found) != 1 or not replacement:
            return None
        changes.append((found[0].start(), found[0].end(), replacement))
    if not changes:
        return None
    changes.sort()
    if any(a[1] > b[0] for a, b in zip(changes, changes[1:], strict=False)):
        return None
    for start, end, replacement in reversed(changes):
        content = content[:start] + replacement + content[end:]
    return content


def holders(text: str) -> set[str]:
    """Whom a text says something of, stated or only named ("my manager, Rachel, …" is about "user>manager")."""
    return {claim.holder for claim in claims(text)}


def claim_terms(text: str, named: bool = False) -> set[str]:
    """The terms that say which attributes of whom a text states ("_name@user>sister"), as topic terms: two
    statements of the same attribute are about the same thing whatever their other words. `named`: with the names
    it only mentions ("my manager, Rachel, …" answers "who is my manager?")."""
    out = set()
    for claim in claims(text):
        if claim.attribute in (DAY, TIME):  # of whom, and each word that names the thing: see same_holder
            path = claim.holder.split(">")
            people = "".join(f"{n}>" for n in path if n in _PEOPLE)  # the user's own things are most things
            out |= {f"{claim.attribute}@{people}{word}" for word in _naming(path)}
        elif claim.stated or named:
            out.add(f"{claim.attribute}@{claim.holder}")
    return out


# Whose a noun is, said before it: a possessive of anyone.
_WHOSE = _POSSESSIVE_WORDS | frozenset(
    """your his her their its ton ta tes son sa ses votre vos leur leurs dein deine deinen deinem deiner sein seine
    seinen seinem seiner ihr ihre ihren ihrem ihrer tu tus su sus teu tua seu sua""".split()
)


def speaks_of(term: str, text: str) -> bool:
    """Whether a text speaks of the attribute a claim term names ("_name@user>dentist", see claim_terms) in words of
    its own rather than in a claim of it: the word of the thing or the role said of no one in particular ("I
    switched dentists", "Troquei o plano", "J'ai changé de banque", "Neue Nummer" of a "Handynummer"), or for where
    one lives or works and the like, a word of that attribute ("on vit à Brest"). A noun after a possessive says
    whose one it is ("I told my dentist…"): the text speaks to or of that one, not of which one it is. A day or
    time, an age or a count is spoken of with a value of its kind."""
    attr, _, holder = term.partition("@")
    if attr in (DAY, TIME) and not _when(text):
        return False  # a thing's day or time is spoken of with a day or a time
    if attr == AGE or attr.startswith(COUNT):
        if not re.search(r"\d", text):
            return False  # and an age or a count with a number
    path = [n for n in holder.split(">") if n != "user" and n not in _JOINING]
    tokens = [t.lower().replace("’", "'") for t in _tokens(text)]
    said = [stem(ELIDED.sub("", t)) for t in tokens]  # "l'opérateur" is "opérateur"
    if attr in ATTRIBUTES and not holder.startswith("user>"):  # the user's or a named one's home, work, name…
        words = ATTRIBUTES[attr].split()  # and a German compound's head: "Nummer" of "Handynummer"
        return all(p in said for p in path) and any(
            attribute(t) == attr or (len(t) >= 5 and any(w.endswith(t) for w in words)) for t in tokens
        )
    named = attr.split(":", 1)[1] if ":" in attr else "" if attr.startswith("_") else attr
    topics = {*path, *([named] if named else [])}
    for i, word in enumerate(said):
        if not any(
            word == t or (min(len(word), len(t)) >= 4 and (word.endswith(t) or t.endswith(word))) for t in topics
        ):
            continue  # the word, or a German compound's head: "Nummer", "Handynummer"
        before = tokens[i - 1] if i else ""
        if before not in _WHOSE and not before.endswith("'s") and not (i >= 2 and tokens[i - 2] in _WHOSE):
            return True
    return False


def one_party(these: Collection[str], those: Collection[str]) -> bool:
    """Whether two texts that name these and those holders (see holders) may speak of the same one: either names
    none, or a holder of one is a holder of the other or a thing of it ("user" and "user>banque": the user's bank),
    never someone of it ("user>dentist" and "user>dentist>receptionist")."""
    if not these or not those:
        return True
    for a in these:
        for b in those:
            short, long = sorted((a.split(">"), b.split(">")), key=len)
            if long[: len(short)] == short and not any(n in _PEOPLE for n in long[len(short) :]):
                return True
    return False


def another_named(new: tuple[Claim, ...], old: tuple[Claim, ...]) -> bool:
    """The newer text names someone in a role the older names another in, and states nothing of either ("my new
    neighbour Luis" after "my new neighbour Ana"): another person, not a new name."""
    mentioned = [claim for claim in new if not claim.stated]
    return (
        bool(mentioned)
        and not any(claim.stated for claim in new)
        and all(
            any(before.key == claim.key and differs(claim.value, before.value) for before in old) for claim in mentioned
        )
    )


# --- a request to keep something ----------------------------------------------------------------------------------

# A request is a frame that asks the agent (a polite question, "please", "I want you to…", in each language), a verb
# of keeping (remember, note, write down, save, keep in mind, don't forget…), and what it is to keep: "Could you
# please make a note that…", "Guárdate esto:", "麻烦帮我记一下，…". Any frame goes with any verb: the requests it
# reads are their products, not a list of phrasings.
_FRAME = (
    r"(?:(?:(?:could|can|would|will)\s++you\s++(?:please\s++|kindly\s++|also\s++)*|please\s++|pls\s++|kindly\s++"
    r"|i\s++(?:want|need|would\s++like|['’]d\s++like)\s++you\s++to\s++|make\s++sure\s++(?:you\s++|to\s++)?|be\s++sure\s++to\s++"
    r"|(?:tu\s++peux|peux-tu|pourrais-tu|pouvez-vous|pourriez-vous|merci\s++de|s['’]il\s++te\s++pla[iî]t,?)\s++"
    r"|(?:tu\s++pourrais|vous\s++pourriez|pourrais-tu|pourriez-vous)\s++"
    r"|(?:kannst\s++du|könntest\s++du|bitte,?)\s++(?:bitte\s++|mal\s++|dir\s++)*|¿?\s*+(?:puedes|podrías|podés|por\s++favor,?)\s++"
    r"|(?:pode|podes|poderia|poderias|você\s++pode|você\s++poderia|por\s++favor,?)\s++|麻烦(?:你)?|请你?|帮我|你(?:能|可以)(?:帮我)?"
    # asking as a need or a duty: "would you mind", "do me a favour and", "you should", "il faut que tu",
    # "du musst dir", "necesito que", "preciso que", "你要", "帮我把这个…"
    r"|would\s++you\s++mind\s++|do\s++me\s++a\s++fav(?:ou)?r\s++(?:and\s++)?|i\s++need\s++you\s++to\s++"
    r"|you\s++(?:should|must|need\s++to|have\s++to|might\s++want\s++to|['’]ll\s++want\s++to)\s++"
    r"|(?:it['’]s\s++|it\s++is\s++)?important\s++(?:that\s++)?you\s++"
    r"|(?:going\s++forward|from\s++now\s++on|in\s++(?:the\s++)?future|for\s++the\s++future|for\s++later),?\s++"
    r"|(?:il\s++faut\s++que\s++tu|tu\s++dois|j['’]ai\s++besoin\s++que\s++tu|je\s++veux\s++que\s++tu)\s++(?:te\s++|t['’])?"
    r"|(?:du\s++(?:musst|sollst|solltest))\s++(?:dir\s++)?(?:bitte\s++)?"
    r"|(?:necesito|quiero|preciso|quero)\s++que\s++(?:me\s++|te\s++)?"
    r"|(?:tienes\s++que|debes|deberías|tens\s++de|tens\s++que|tem\s++que|tem\s++de|deves|precisas\s++de)\s++(?:te\s++)?"
    r"|pense[sz]?\s++à\s++|你要|你得|你(?=记)|一定要|务必|千万|把(?:这个|这些|它|这件事))*)"
)
# Verbs that ask to keep whatever follows them, and verbs that do so only with an object marker ("save this:",
# "note that…"; "keep going" asks nothing to be kept).
_KEEP = (
    r"(?:remember(?:ing)?(?:\s+the\s+fact)?(?!\s+(?:when|how|what|where|who|why|if|whether|the\s+time)\b)"
    # a note named as one before a colon: "Make a mental note:", "Note pour plus tard :", "Notiz an mich:"
    r"|(?:make\s+a\s+|a\s+)?(?:mental\s+)?(?:note|memo|reminder|rappel|notiz|nota|lembrete|recordatorio)"
    r"(?:\s+(?:for\s+later|to\s+self|for\s+you|pour\s+plus\s+tard|pour\s+toi|pour\s+moi|an\s+mich|an\s+dich"
    r"|für\s+später|für\s+dich|para\s+ti|para\s+mí|para\s+mim|para\s+depois|para\s+más\s+tarde))?(?=\s*+[:：])"
    r"|(?:it['’]s\s+)?worth\s+(?:remembering|noting|knowing)|put\s+(?:this|that|it)\s+in(?:to)?\s+your\s+memory"
    r"|ten(?:lo|ed)?\s+presente|fica\s+(?:registado|registrado|anotado)|que\s+fique\s+(?:registado|registrado)"
    r"|(?:one\s+|a\s+|some)?things?\s+to\s+(?:remember|keep\s+in\s+mind|note)|(?:a\s+)?heads\s+up(?:\s+for\s+(?:the\s+future|later))?"
    r"|know(?=\s+(?:that|this)\b)|make\s+a\s+note(?:\s+of)?"
    r"|take\s+(?:a\s+)?note(?:\s+of)?|note\s+down|write\s+(?:this\s+|it\s+|that\s+)?down|jot\s+(?:this\s+|it\s+"
    r"|that\s+)?down|put\s+(?:this\s+|it\s+|that\s+)?down|memori[sz](?:e|ing)|bear\s+in\s+mind"
    r"|keep(?:ing)?\s+(?:this\s+|that\s+|it\s+)?in\s+mind"
    r"|add\s+(?:this\s+|it\s+|that\s+)?to\s+(?:your\s+)?(?:memory|notes)|file\s+(?:this|it|that)\s+away"
    r"|(?:don['’]t|do\s+not|never)\s+(?:ever\s+)?forget|don['’]t\s+let\s+me\s+forget|commit\s+(?:this\s+|it\s+)?to\s+memory"
    r"|make\s+sure\s+(?:you\s+)?remember|note\s+to\s+self|keep\s+track\s+of|hold\s+on\s+to\s+(?:this|that)"
    r"|mind\s+that|store\s+(?:this|that|it)\s+(?:away|somewhere)|put\s+(?:this|that|it)\s+(?:on\s+record|in\s+your\s+notes)"
    r"|retiens|rappelle-toi|souviens-toi|prends?\s+note|garde[rz]?\s+(?:en\s+(?:mémoire|tête)|à\s+l['’]esprit)"
    r"|mémorise[rz]?|n['’]oublie\s+(?:surtout\s+|jamais\s+)?pas|n['’]oubliez\s+pas|garde\s+(?:ça|cela)\s+en\s+tête|note\s+bien"
    r"|prends?\s+bonne\s+note|retenez|retenir|souvenir|souviennes|rappeler|rappelles|mémoriser|ne\s+pas\s+oublier"
    r"|merk\s+dir|merke\s+dir|merken|notier(?:e)?\s+dir(?:\s+(?:mal|bitte|das))*|schreib\s+(?:dir\s+)?(?:das\s+)?auf|aufschreiben"
    r"|behalte|behalten|(?:vergiss|vergesst)\s+(?:bitte\s+|das\s+|es\s+|bloß\s+|ja\s+|aber\s+)*nicht"
    r"|nicht\s+vergessen"
    r"|denk(?:e)?\s+(?:bitte\s+)?(?:daran|dran)"
    r"|speicher(?:e)?\s+dir|halte?\s+(?:bitte\s+)?fest|"
    r"recuerda|acuérdate|toma\s+nota|guárdate|memoriza|no\s+(?:te\s+)?olvides(?:\s+de)?|ten(?:lo)?\s+en\s+cuenta"
    r"|que\s+no\s+se\s+te\s+olvide|apúntate|apúntalo|anótalo|recordar(?:me)?|recuerdes|acordarte|acuerdes|apuntar|apuntes"
    r"|memorizar|no\s+olvidar|tener\s+en\s+cuenta|"
    r"lembra|lembre-se|lembra-te|memorize|não\s+(?:te\s+|se\s+)?esque[çc](?:a|as|e)?(?:\s+de)?|toma\s+nota|tome\s+nota"
    r"|fica\s+(?:a\s+)?sab(?:er|endo)|guarda\s+(?:isso|isto)\s+(?:aí|contigo)|lembrar(?:-te|-se)?|lembres|anotes"
    r"|não\s+esquecer|"
    r"记住|记一下|记下来?|记着|记得|记(?=一件事|个事|件事)|别忘了|不要忘记|存一下|存下来?|备注一下|记录一下|记录下来|写下来|留个底|记好|记牢)"
)
_KEEP_MARKED = (
    r"(?:note|save|store|keep|log|record|noter|note[rz]?|enregistre[rz]?|garde[rz]?|notier(?:e|en)?|speicher(?:e|n)?"
    r"|apunta[rs]?|anota[rs]?|anote|guarda[rs]?|guarde|registra[rs]?|registre|grava[rs]?|grave|salva[rs]?|salve"
    r"|备忘|备注)"
)
# What may stand between a verb of keeping and what to keep: particles, "this", "that", a colon ("Anota aí, por favor:",
# "Keep in mind that …", "Save this: …"). A verb that keeps only with one ("save", "note") must be followed by one.
_BETWEEN = (
    r"(?:\s|[,，]|aí\b|ai\b|lá\b|por\s+favor\b|please\b|bitte\b|s['’]il\s+te\s+plaît\b|stp\b|一下|this\b|that\b"
    r"|these\b|the\s+following\b|the\s+fact\b|it\b|for\s+me\b|for\s+later\b|for\s+the\s+future\b|ça\b|cela\b"
    r"|das\b|dies\b|esto\b|eso\b|isso\b|isto\b"
    r"|(?:(?:ganz|sehr|very|really|muy|très|muito)\s+)?(?:important|wichtig|importante|importantísimo|重要)\b)*+"
    r"[:：\-–—]?\s*+(?:(?:que|qu['’]|dass|de\s+que)\b\s*+)?"
)
_MARKED = (
    r"(?=\s*+(?:一下[:：，,]|[:：\-–—])|\s*+,?\s*+(?:aí|ai|lá|por\s+favor|please|bitte|this|that|these|it|the\s+fact|ça|cela|das|dies|esto|eso"
    r"|isso|isto|que|dass)\b)"
)
# Words a message opens with before it asks: "Oh, and…", "Au fait,", "Übrigens,", "Por cierto,", "Já agora,", "对了，".
_OPENERS = (
    r"(?:oh|ah|and|also|so|btw|by\s+the\s+way|hey|hi|ok|okay|one\s+more\s+thing|quick\s+one|actually|just|anyway"
    r"|et|alors|au\s+fait|d['’]ailleurs|ah\s+oui|tiens|une\s+dernière\s+chose|sinon|encore\s+une\s+chose|bon"
    r"|und|übrigens|ach(?:\s+ja)?|noch\s+was|eine\s+sache\s+noch|kurz\s+noch|also|na|ja"
    r"|y|por\s+cierto|oye|una\s+cosa\s+más|otra\s+cosa|bueno|vale|ah\s+y|pues"
    r"|e|já\s+agora|aliás|olha|ah\s+e|mais\s+uma\s+coisa|outra\s+coisa|então"
    r"|对了|另外|还有|哦对|顺便说一下|顺便|对|哦|嗯)"
)
_NOTE_REQUEST = re.compile(
    rf"(?i:\A\s*+¿?(?:{_OPENERS}[,:!，：]?\s*+)*+"
    rf"{_FRAME}(?:{_KEEP}|{_KEEP_MARKED}{_MARKED})(?![A-Za-zÀ-ÿ'’]){_BETWEEN})"
)
# A lead of any words that asks to keep what follows: a short opening before a colon ("Something worth holding
# onto:", "Petite info à conserver :", "Nur damit du es weißt und nicht vergisst:", "Deixa registrado:", "留个备忘：")
# or, when it speaks to the agent, before "that" ("I'd appreciate it if you kept in mind that…", "Quiero que quede
# registrado que…"), holding a word of keeping, remembering, noting or forgetting in any of its forms. The words are
# the stems of that meaning in each language, not phrasings: whatever frame, politeness or order surrounds them.
_KEEPING = re.compile(
    r"(?i:\b(?:remember(?:s|ed|ing)?|memor\w*|forget(?:s|ting)?|forgot(?:ten)?|note[sd]?|noting|jot|records?|recorded"
    r"|logs?|logged|stor(?:e|es|ed|ing)|sav(?:e|es|ed|ing)|keep(?:s|ing)?|kept|file[sd]?|hold(?:s|ing)?|sticks?|track"
    r"|mind|souvenir|souvien\w*|rappel\w*|reten\w*|retien\w*|oubli\w*|not(?:er|ez|é|ée)|enregistr\w*|conserv\w*"
    r"|gard(?:e|es|er|ez)|mémo\w*|merk\w*|notier\w*|verg[ie]ss\w*|speicher\w*|behalt\w*|behält|aufschreib\w*"
    r"|aufgeschrieben|festhalt\w*|hinterkopf|gedächtnis|notiz\w*|erinner\w*|recuerd\w*|record(?:ar|ad|es)|acuérd\w*"
    r"|acord(?:ar|arte|arse|ate)|olvid\w*|apunt\w*|anot\w*|guard(?:a|as|e|es|ar|ado|ada|asse|ásse\w*|ate|alo)"
    r"|registr(?:a|ado|ada|ar|e|o)|presente|lembr\w*|esque[cç]\w*|grav(?:a|e|ar|ado|ada)|salv(?:a|e|ar)|nota)\b"
    r"|记|忘|存|备忘|备注|留底)"
)
_TO_THE_AGENT = re.compile(
    r"(?i:\b(?:you|your|tu|te|toi|t['’]|ta|vous|du|dir|dich|dein|ti|usted|você|voce|vc|contigo)\b|\b(?:tenlo"
    r"|apúntate|guárdate|acuérdate|anótalo|memoriza|recuerda|lembra|grava|anota|guarda|deixa|merk|notier|behalt"
    r"|speicher)|\b(?:please|want|need|quiero|quero|queria|gostaria|necesito|preciso|veux|voudrais|möchte|bitte"
    r"|por\s+favor|s['’]il)\b|你|请|麻烦)"
)
_COLON_LEAD = re.compile(r"\A(?P<lead>[^:：\n\d\"“„«\[\]()]{2,90}?)\s*+(?::\s++|：\s*+)(?=\S)")
_YOUR = re.compile(r"(?i:\b(?:your|ta|ton|tes|votre|vos|dein|deinem|deinen|deiner|tu|tus|tua|teu|sua|seu)\b)|你")
_THAT = re.compile(r"(?i:\b(?:that|que|qu['’]|dass|daß)\b\s*+)")
LEAD_WORDS = 12  # the most words a lead of any words may have


def _any_lead(text: str) -> str | None:
    """A lead of any words (see _KEEPING) that `text` opens with, as written; None when it has none."""
    colon = _COLON_LEAD.match(text)
    ends = [(colon.end(), False)] if colon else []
    ends += [(m.end(), True) for m in _THAT.finditer(text, 0, 160)]
    for end, addressed in ends:
        lead = text[:end]
        if len(lead.split()) > LEAD_WORDS + 1 or re.search(r"[\d\"“„«:：]", lead[:-2]) or not _KEEPING.search(lead):
            continue
        if addressed and (len(text[end:].split()) < 2 or re.match(r"(?i:in|down|to|for|somewhere)\b", text[end:])):
            continue  # "…, please keep that in mind": "that" is what to keep, not what opens it
        if addressed and not _TO_THE_AGENT.search(lead):
            continue  # "I remember that we…" tells a memory of one's own, it asks nothing
        if not asserts_any(text[end:]):
            continue  # "Don't forget: what time is it?"
        return lead
    return None


# Words that mark what follows as worth keeping, wherever they stand: "…, for the record, I'm allergic to shellfish".
_FOR_THE_RECORD = re.compile(
    r"(?i:(?:\A|[,;.!]\s*|\s)(?:for\s+the\s+record|for\s+your\s+records?|for\s+future\s+reference|just\s+so\s+you\s+know"
    r"|fyi|pour\s+mémoire"
    r"|pour\s+info|zur\s+info|zur\s+kenntnis|para\s+que\s+conste|para\s+constar|para\s+registro|para\s+tu\s+información"
    r"|para\s+sua\s+informação)[,:]?\s)|备注[:：]|仅供参考[，,]"
)


# A request to keep what was just said, as the last clause of a sentence, its object a word that points back ("…,
# please remember that", "…, retiens-le bien", "…, merk dir das bitte", "…, no lo olvides", "…, grava isso",
# "…，记一下"): a frame, a verb of keeping in any form, and only what may stand around it.
_IT = r"(?:that|this|it|them|ça|cela|le|la|les|l['’]|das|es|dies|lo|los|isso|isto|disso|disto|这个|这些|它|一下|下)"
_KEEP_IT = re.compile(
    rf"\A(?i:(?:and\s++|so\s++|et\s++|und\s++|y\s++|e\s++)?{_FRAME}"
    rf"(?:(?:don['’]t|do\s+not|never|ne|no|não|nicht)\s++)?(?:te\s++)?(?:{_IT}\s++)?(?:{_KEEP}|{_KEEP_MARKED}|forget|oublie|vergiss|olvides|esqueças"
    r"|esqueças|esqueçam|retiens|note|garde|mémorise|recuérda|guárda|memoríza|anóta|apúnta|grava|anota|guarda|lembra"
    r"|记住|记下|记着|记好|记牢|记|别忘)"
    rf"(?:-?(?:le|la|les|lo|la|los|las|te|toi|t['’]))?(?:['’]s)?"
    rf"(?:\s*+(?:dir|te|me|mir|{_IT}|down|in\s+mind|pas|nicht|bien|quelque\s+part|bitte|please|por\s+favor|ok|okay"
    r"|for\s+me|s['’]il\s+te\s+pla[iî]t|stp|aí|ai|lá|de\s+(?:isso|isto))){0,4}"
    r"(?:啊|哦|吧|了|呀|哈)?)"
)
_LAST_CLAUSE = re.compile(r"[,;，；—–]|\s-\s")


def note_tail(text: str) -> str | None:
    """The words at the end of a sentence that ask to keep what it says ("…, retiens-le bien."), as written with
    what separates them; None when it ends with none (a sentence that is only the request keeps nothing)."""
    if text.rstrip().endswith(("?", "？")):
        return None  # "…, remember?" asks whether one remembers
    body = text.rstrip(" .!！。")
    breaks = list(_LAST_CLAUSE.finditer(body))
    if not breaks or not body[: breaks[-1].start()].strip():
        return None
    last = body[breaks[-1].end() :].strip()
    if not last or _KEEP_IT.fullmatch(last) is None:
        return None
    return text[breaks[-1].start() :]


# What a request may name instead of what to keep, when that comes next: "Can you remember something for me?",
# "Merk dir Folgendes:", "Anota esto:", "帮我记一件事".
_SOMETHING = re.compile(
    r"(?i:(?:something|a\s+thing|one\s+thing|this|the\s+following|quelque\s+chose|un\s+truc|ceci|ça|ce\s+qui\s+suit"
    r"|folgendes|etwas|was|das\s+hier|dies|algo|una\s+cosa|esto|lo\s+siguiente|uma\s+coisa|isto|isso|o\s+seguinte"
    r"|一件事|一个事|这个|以下|下面)(?:\s+(?:for\s+me|pour\s+moi|für\s+mich|por\s+mí|para\s+mim|please|bitte"
    r"|por\s+favor|s['’]il\s+te\s+pla[iî]t))?)?[\s?？.!:：。,，]*"
)
_YES = re.compile(
    r"(?i:(?:yes|yeah|yep|sure|oui|ja|sí|si|sim|是的|是|好的|好|对)\b[\s,!.，！]*(?:please\s+|bitte\s+)?)?"
)


def asks_to_keep_next(text: str) -> bool:
    """Whether a message asks to keep what comes next and holds nothing to keep itself ("Can you remember something
    for me?", "Merk dir Folgendes:", "帮我记一件事"): the owner's next message is the note."""
    if _DRAFTING.search(text):
        return False
    found = _NOTE_REQUEST.match(text)
    return found is not None and _SOMETHING.fullmatch(text[found.end() :]) is not None


def keeps_what_came_before(text: str) -> bool:
    """Whether a message is only a request to keep what was said before it ("Please remember that.", "Yes, save
    it", "Merk dir das!", "记住这个。"): the owner's previous message is the note."""
    body = text.strip().rstrip(" .!！。")
    body = body[_YES.match(body).end() :]  # type: ignore[union-attr]
    return bool(body) and _KEEP_IT.fullmatch(body) is not None


def asks_to_keep(text: str) -> bool:
    """Whether any sentence of a text asks to keep something (note_lead, note_tail)."""
    return any(note_lead(sentence) or note_tail(sentence) for sentence in SENTENCE_BREAK.split(text))


def note_lead(text: str) -> str | None:
    """The words that ask to keep what follows, when a text opens with them (a request, see _FRAME and _KEEP; or
    "for the record", anywhere in it), as written; None when it asks to keep nothing — and when what would be kept is
    a text being written or quoted ("proofread this: 'Remember that…'")."""
    if _DRAFTING.search(text):
        return None
    found = _NOTE_REQUEST.match(text)
    rest = text[found.end() :].lstrip() if found is not None else ""
    if found is not None and rest and rest[0] not in "\"“„«'?":  # a quoted text is not the user's note
        lead = _any_lead(text)  # "Garde ça dans un coin de ta tête :" is all lead, "Remember this for my trip:" not
        extra = lead[found.end() :] if lead is not None else ""
        if extra and _YOUR.search(extra) and not _possessive_in(extra) and not re.search(r"\b[A-ZÀ-Ý]", extra):
            return lead
        return found.group(0)
    if found is None:
        lead = _any_lead(text)
        if lead is not None and text[len(lead) :].lstrip()[:1] not in "\"“„«'":
            return lead
    marked = _FOR_THE_RECORD.search(text)
    if marked is not None and text[marked.end() :].strip():
        return text[: marked.end()]
    return None


def unquoted(text: str) -> str:
    """A text without what it quotes, and empty when it asks for a text to be written: the words that are the
    speaker's own."""
    return "" if _DRAFTING.search(text) else _QUOTED.sub(" ", text)


def asserted(text: str) -> str:
    """The sentences of a text that state something in the speaker's own words: no question, supposition, quote or
    text being written."""
    return " ".join(s for s in SENTENCE_BREAK.split(unquoted(text)) if asserts(s))


def states(text: str) -> bool:
    """Whether a text states an attribute of anyone: a greeting that gives a name ("Hi, I'm Dana") is no small
    talk."""
    return any(claim.stated for claim in claims(text))
