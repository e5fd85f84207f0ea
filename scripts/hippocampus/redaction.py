"""Secrets out of text before anything is stored: provider tokens, private keys, credentials in code, config and
words, card numbers, PINs and wallet seed phrases. Pure.

The line drawn: a credential that opens an account, money or a machine — a password, a token or key, a card number,
a bank-card or phone PIN, a seed phrase — is a secret even when the user asks to remember it. An everyday code the
user asks the agent to keep (a gym locker, a gate, a bike lock, a door) is a memory, and so are phone numbers, dates,
order numbers, prices, versions, ISBNs and bare hex hashes (the README lists both sides).

Each pattern is anchored on a shape only secrets have — a provider's prefix, a key block, a credential named in code
(`DB_PASS=…`, `--db-password …`, `<add key="Password" value="…"/>`) or in words ("my password is …", "mein Passwort
ist …"), a Luhn-valid number with a card issuer's prefix, a run of 12 or more words after "seed phrase". Patterns read
the text as a reader sees it (`view`: compatibility forms, invisible characters, lookalike letters, other spaces and
digits), and a secret becomes `[REDACTED:<kind>]` in the text as written; the rest of the text is kept. Redacting is
idempotent. A pattern runs only on text holding its gate — strings read from the pattern itself that every match of it
holds — so most text costs one scan. `Conversations` carries a private key whose body comes in the messages after
its BEGIN line.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from functools import lru_cache
from typing import Callable, NamedTuple, cast

from .text import alternatives

MARK = "[REDACTED:{}]"
# Raise it when a kind is added or widened: stored memories are then redacted again as they are read (see
# `redact_memory`), and the search cache, which holds their words, is rebuilt.
RULES = 5

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub")


class _Lazy:
    """A regular expression compiled the first time it is used. Most runs of recall and load_core redact nothing,
    and compiling every pattern of this module took a tenth of their time. Once compiled, the pattern's methods
    are the object's own attributes: a use then costs what it costs on the compiled pattern."""

    __slots__ = ("_source", "_compiled", *_METHODS)

    def __init__(self, pattern: str, flags: int = 0):
        self._source = (pattern, flags)
        self._compiled: re.Pattern | None = None

    def __getattr__(self, name: str):  # only for what is not an attribute yet: every method before the first use
        if name.startswith("_"):
            raise AttributeError(name)  # its own fields unset (a copy being made), or a protocol the pattern lacks
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(*self._source)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def _compile(pattern: str, flags: int = 0) -> re.Pattern:
    return cast(re.Pattern, _Lazy(pattern, flags))


_GLUED = r"[A-Za-z0-9_\-]"  # what a token is not glued to, on either side ("desk-", "risk-" are not OpenAI keys)
_LEFT = f"(?<!{_GLUED})"
_RIGHT = f"(?!{_GLUED})"


class Pattern(NamedTuple):
    name: str
    regex: re.Pattern
    # (start, end) of the secret in the match, or None to leave the match as it is; default: the first group that
    # took part, else the whole match.
    span: Callable[[re.Match], tuple[int, int] | None] | None = None


def _first_group(match: re.Match) -> tuple[int, int] | None:
    for number in range(1, (match.re.groups or 0) + 1):
        if match.group(number) is not None:
            return None if match.group(number).startswith("[REDACTED") else match.span(number)
    return match.span()


def _value(match: re.Match) -> tuple[str, tuple[int, int]] | None:
    """The value a credential pattern captured (the first `v…` group that took part), trailing punctuation off."""
    for name, text in match.groupdict().items():
        if name.startswith("v") and text is not None:
            start, end = match.span(name)
            if not name.startswith("vq"):  # a quoted value is taken as it is
                stripped = text.rstrip(".,;:)]}>»")
                if stripped.count("[") > stripped.count("]"):  # the value holds a mark: its bracket stays
                    stripped = text[: len(stripped) + 1]
                end -= len(text) - len(stripped)
                text = stripped
            if not text or text.startswith("[REDACTED"):
                return None
            return text, (start, end)
    return None


# --- provider tokens: the prefixes and shapes secret scanners publish ------------------------------------------


def _token(name: str, body: str, first: str = "") -> Pattern:
    """A token glued to no longer word. `first`: the set its first character is in, written before the test of its
    left edge (which then looks back past it), so that the engine skips straight to such a character: for a token
    whose gate is in most texts."""
    left = f"{first}(?<!{_GLUED}.)" if first else _LEFT
    return Pattern(name, _compile(left + f"(?:{body})" + _RIGHT))


_GITLAB = (
    "glpat",
    "gldt",
    "glrt",
    "glrtr",
    "glptt",
    "glcbt",
    "glimt",
    "glagent",
    "gloas",
    "glsoat",
    "glffct",
    "glft",
    "glcsoat",
    "glwt",
)
TOKENS: tuple[Pattern, ...] = (
    _token("anthropic-key", r"sk-ant-[A-Za-z0-9_\-]{20,}"),
    _token("openai-key", r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
    _token("stripe-key", r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    _token("stripe-webhook-secret", r"whsec_[A-Za-z0-9]{20,}"),
    _token("github-token", r"gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}"),
    _token("gitlab-token", "(?:" + "|".join(_GITLAB) + r")-[A-Za-z0-9_\-]{20,}|GR1348941[A-Za-z0-9_\-]{20,}"),
    _token("slack-token", r"(?:xox[abposre]|xapp)-[A-Za-z0-9\-]{10,}"),
    _token("slack-webhook", r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{20,}"),
    _token("discord-webhook", r"https://(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{20,}"),
    _token("telegram-bot-token", r"\d{5,16}:A[A-Za-z0-9_\-]{34}"),
    _token("huggingface-token", r"(?:hf_|api_org_)[A-Za-z]{34}"),
    _token("npm-token", r"npm_[A-Za-z0-9]{36}"),
    _token("pypi-token", r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}"),
    _token("sendgrid-key", r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}"),
    _token("twilio-key", r"SK[0-9a-fA-F]{32}"),
    _token("mailgun-key", r"key-[0-9a-zA-Z]{32}"),
    _token("digitalocean-token", r"do[opr]_v1_[a-f0-9]{64}"),
    _token("shopify-token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    _token("age-secret-key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    _token("aws-access-key", r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}"),
    _token("google-api-key", r"AIza[0-9A-Za-z_\-]{35}"),
    _token("google-oauth-secret", r"GOCSPX-[A-Za-z0-9_\-]{28}|ya29\.[A-Za-z0-9_\-]{20,}"),
    _token("azure-client-secret", r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}"),
    _token("groq-key", r"gsk_[A-Za-z0-9]{52}"),
    _token("xai-key", r"xai-[A-Za-z0-9]{80}"),
    _token("replicate-token", r"r8_[A-Za-z0-9]{37}"),
    _token("perplexity-key", r"pplx-[A-Za-z0-9]{48}"),
    _token("notion-token", r"secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46}"),
    _token("linear-key", r"lin_api_[A-Za-z0-9]{40}"),
    _token("supabase-token", r"sbp_[a-f0-9]{40}"),
    _token("databricks-token", r"dapi[a-f0-9]{32}(?:-\d)?"),
    _token("vault-token", r"hv[sb]\.[A-Za-z0-9_\-]{24,}"),
    _token("tailscale-key", r"tskey-[a-z]+-[A-Za-z0-9_\-]{10,}"),
    _token("grafana-token", r"glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[a-fA-F0-9]{8}"),
    _token("newrelic-key", r"NRAK-[A-Z0-9]{27}"),
    _token("sentry-token", r"sntry[us]_[A-Za-z0-9+/=_\-]{40,}"),
    _token("postman-key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    _token("doppler-token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
    _token("atlassian-token", r"ATATT3[A-Za-z0-9_\-=]{50,}"),
    _token("square-token", r"sq0atp-[A-Za-z0-9_\-]{22}|sq0csp-[A-Za-z0-9_\-]{43}"),
    _token("mapbox-key", r"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}"),
    _token("onepassword-token", r"ops_eyJ[A-Za-z0-9+/=_\-]{50,}"),
    _token("flyio-token", r"fo1_[A-Za-z0-9_\-]{43}"),
    _token("netlify-token", r"nfp_[A-Za-z0-9]{36}"),
    _token("jwt", r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    _token("discord-token", r"[A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}", first="[MNO]"),
)


# --- private keys: a whole block, a block cut short (its body may come in the next messages), a body's tail -------

_BEGIN = r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
_END = r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
_SEP = r"(?:[ \t]*(?:\r?\n|\\r\\n|\\n)[ \t]*|[ \t]+)"  # lines, or `\n` escapes in a pasted JSON string
# One line of a key's body: base64 (a short one only when the line ends there), or a PEM header line.
_CHUNK = (
    r"(?:[A-Za-z0-9+/]{16,}+={0,2}+|[A-Za-z0-9+/]{1,15}+={0,2}+(?=[ \t]*(?:\r?\n|\\n|\Z|-----))"
    r"|(?:Proc-Type|DEK-Info|Comment): [^\n\\]*)"
)
# Taken whole or not at all, and bounded (an 8192-bit key has about 100 lines): no pathological retries.
_BODY = f"(?>(?:{_SEP}{_CHUNK}){{0,400}})"
KEYS: tuple[Pattern, ...] = (
    # Up to its END line, if it comes before another BEGIN line (each block is looked through once).
    Pattern("private-key", _compile(f"{_BEGIN}(?:(?!-----BEGIN )[\\s\\S])*?{_END}")),
    Pattern("private-key", _compile(f"{_BEGIN}{_BODY}")),
    # The separator before a lone END line is taken from the first space of its run (tried from each space, it would
    # read the rest of the run each time).
    Pattern(
        "private-key",
        _compile(f"(?<![A-Za-z0-9+/])(?:[A-Za-z0-9+/]{{16,}}={{0,2}}{_BODY})?(?:(?<![ \\t]){_SEP})?{_END}"),
    ),
)
_OPENS = _compile(f"({_BEGIN})|{_END}")
_CONTINUES = _compile(
    f"\\A\\s*(?:[A-Za-z0-9+/]{{16,}}={{0,2}}|(?:Proc-Type|DEK-Info): [^\n]*){_BODY}(?:{_SEP}?{_END})?|\\A\\s*{_END}"
)


# --- credentials in code: `DB_PASS=…`, `"api_key": "…"`, `password: …`, `AccountKey=…;` -----------------------

# Words that say what a value is; a name is split into its words (db_pass, dbPassword, PGPASSWORD, x-api-key).
_PASSWORD_WORDS = frozenset(
    "password passwd pass pwd pw passphrase passwort kennwort wachtwoord senha contrasena contraseña mdp motdepasse "
    "requirepass masterauth rootpw psk "
    "heslo haslo hasło losenord lösenord salasana passord adgangskode sifre şifre пароль".split()
)
_PASSWORD_ENDINGS = ("password", "passwd", "passwort", "kennwort", "passphrase", "wachtwoord")
_PIN_WORDS = frozenset("pin pincode puk cvv cvc cvv2 cvc2 passcode".split())
_SECRET_WORDS = frozenset("secret secrets credential credentials".split())
_KEY_WORDS = frozenset(
    "token key apikey accesskey secretkey privatekey authkey accountkey sig signature dsn bearer".split()
)
# A name ending in one of these is about a credential, not one: password_length=12, token_url=…, key_path=…
_NOT_VALUES = frozenset(
    "id ids name names user username login email length len min max count file path dir url uri endpoint type "
    "prefix suffix enabled enable disabled required optional hint policy expiry expires expiration timeout ttl field "
    "label format size version mode header env var column rotation reset changed strength manager rule rules regex "
    "pattern position location placeholder store vault provider helper command cmd prompt".split()
)
_CAMEL = _compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
# What a credential's name holds (in the pattern below), and the words that start that pattern: the same, narrowed
# to names, so "passed", "keyboard" and "shopping" do not start it.
# Credential names in other languages and of cards and services, shared by both lists below.
_OTHER_NAMES = (
    "puk",
    "cvv",
    "cvc",
    "dsn",
    "bearer",
    "kennwort",
    "wachtwoord",
    "senha",
    "contrase",
    "mdp",
    "heslo",
    "hasło",
    "haslo",
    "lösenord",
    "losenord",
    "salasana",
    "adgangskode",
    "şifre",
    "sifre",
    "пароль",
)
_NAME_STEMS = (
    "pass",
    "pw",
    "psk",
    "masterauth",
    "secret",
    "token",
    "key",
    "sig",
    "credential",
    "pin",
    *_OTHER_NAMES,
)


def _name_kind(name: str) -> str | None:
    """password / pin / secret / key: what a value named so is; None when the name is not a credential's."""
    words = [
        w.lower()
        for chunk in re.split(r"[\W\d_]+", name)
        if chunk
        for w in (_CAMEL.findall(chunk) if chunk.isascii() else [chunk])
    ]
    if not words or words[-1] in _NOT_VALUES:
        return None
    if any(w in _PASSWORD_WORDS or w.endswith(_PASSWORD_ENDINGS) for w in words):
        return "password"
    if any(w in _PIN_WORDS for w in words):
        return "pin"
    if any(w in _SECRET_WORDS or w.endswith("secret") for w in words):
        return "secret"
    if any(w in _KEY_WORDS or w.endswith(("apikey", "accesskey", "secretkey", "privatekey")) for w in words):
        return "key"
    return None


# Not a value at all: a placeholder, a reference to one elsewhere, a word that says something about the credential.
_PLACEHOLDER = _compile(r"[$%<{]|\*+$|x+$|\.\.\.|…", re.IGNORECASE)
STOP_WORDS = frozenset(
    """
a an the my your his her our their its this that these those it one same different still not no now also too very so
just only again yet here there where what which who whose how why when something nothing anything everything none
null nil true false yes ok okay required optional needed missing empty blank unknown known correct wrong incorrect
invalid valid expired written stored saved set reset changed being going weak strong long short secure safe hidden
hard easy simple fine good bad below above attached shared somewhere inside under taped printed sent protected
encrypted forgotten lost and or but for of to in on at by with from into same is was are be been
der die das ein eine mein meine dein deine sein seine unser im in auf unter falsch richtig abgelaufen noch nicht auch
zu sehr gleich anders hier dort oben unten geändert gespeichert
le la les un une mon ma mes ton ta son sa dans sur sous faux fausse correct correcte expiré pas aussi trop très même
ici là
el los las una mi tu su en incorrecta correcta también muy igual aquí allí
il lo gli nel nella sul sulla sbagliata giusta non anche troppo qui lì
o os um uma minha meu na no em errada certa não também aqui
het een mijn jouw op fout juist niet ook te hier daar
""".split()
)


def _loose(value: str) -> bool:
    """A password said or written: anything but a stop word or a placeholder, three characters or more."""
    return len(value) >= 3 and value.lower() not in STOP_WORDS and not _PLACEHOLDER.match(value)


def _secret(value: str) -> bool:
    """A `secret: …` value: with a digit, capital or symbol, or long ("secret: the party" stays)."""
    return _loose(value) and (len(value) >= 8 or re.search(r"[0-9A-Z!@#$%^&*_+=~/.\-]", value) is not None)


def _key(value: str) -> bool:
    """A token or key: letters and digits mixed, or long ("max_tokens=4096", "sort_key=name" stay)."""
    if _PLACEHOLDER.match(value) or value.lower() in STOP_WORDS:
        return False
    mixed = re.search(r"[A-Za-z]", value) and re.search(r"\d", value)
    return bool((mixed and len(value) >= 8) or len(value) >= 20)


def _pin(value: str) -> bool:
    return value.isdigit() and 3 <= len(value) <= 12


_CHECKS = {"password": _loose, "pin": _pin, "secret": _secret, "key": _key}

# Everyday codes the user keeps on purpose: a PIN or passcode of one of these is a memory, not a secret.
_EVERYDAY = _compile(
    r"\b(?:door|gate|locker|bike|bicycle|padlock|garage|building|alarm|intercom|keypad|mailbox|letterbox|storage"
    r"|gym|suitcase|luggage|lockbox|key safe|shed|t[üu]r|haust[üu]r|tor|garagentor|schlie(?:ß|ss)fach|spind"
    r"|fahrrad|fahrradschloss|briefkasten|tresor|porte|portail|casier|v[ée]lo|cadenas|digicode|puerta|port[óo]n"
    r"|portal|taquilla|bici|bicicleta|candado|buz[óo]n|porta|portone|cancello|armadietto|lucchetto|port[ãa]o"
    r"|arm[áa]rio|cadeado|deur|poort|hek|kluisje|fiets|fietsslot)(?:s|es)?\b",
    re.IGNORECASE,
)


def _everyday(match: re.Match) -> bool:
    """Does the sentence around a PIN name an everyday lock (the words just before it, or the match itself)?"""
    text = match.string
    before = re.split(r"[.!?\n]\s", text[max(0, match.start() - 40) : match.start()])[-1]
    return _EVERYDAY.search(before + " " + match.group(0)) is not None


_QUOTED = r"\"(?P<vq1>[^\"\n]{1,200})\"|'(?P<vq2>[^'\n]{1,200})'"
# A value alone on the line after its name ("Password:⏎hunter2"), or quoted there.
_NEXT_LINE = r"[ \t]*\n[ \t]*(?=[^\s\"']+[ \t]*(?:\n|\Z)|[\"'“‘«`])"
_NAME_VALUE = _compile(
    # Only a word followed by `:` or `=` is looked at more closely (a cheap test first; the word is read once: no
    # shorter part of it is followed by a sign).
    r"(?<![\w.\-])(?=[\w.\-]{1,90}+[\"']?[ \t]*[:=])(?:--?)?(?:(?<=[?&])(?P<url>))?"
    r"(?P<name>(?i:[\w.\-]{0,40}?(?:" + "|".join(_NAME_STEMS) + r")[\w.\-]{0,40}?))"
    rf"[\"']?[ \t]*(?::|=(?!=))(?:{_NEXT_LINE}|[ \t]*)"
    # In a URL's query the value ends at `&` or `#`; elsewhere at a space, at ", ", or at `;` before the next
    # `name=` (a connection string), and a password may hold any of `&;,#`.
    rf"(?:{_QUOTED}|(?P<v>(?(url)[^\s\"'<>&#]+|(?:[^\s\"'<>,;]|,(?!\s|$)|;(?![\w.\-]+=))+)))"
)
# `--db-password X`: a command-line option named as a credential, its value after a space (not another option).
_FLAG = _compile(rf"(?<![\w\-])--(?P<name>[A-Za-z][\w\-]{{0,40}})[ \t]+(?!-)(?:{_QUOTED}|(?P<v>[^\s\"']+))")
# `<add key="Password" value="…"/>` (.NET and other XML settings) and `<password>…</password>`.
_XML_SETTING = _compile(
    r"(?i:\b(?:key|name)[ \t]*=[ \t]*)(?P<qa>[\"'])(?P<name>[^\"'\n<>]{1,60})(?P=qa)[ \t]+(?i:value)[ \t]*=[ \t]*"
    r"(?P<qb>[\"'])(?P<vq1>[^\"'\n]{1,200})(?P=qb)"
)
_XML_ELEMENT = _compile(r"<(?P<name>[A-Za-z][\w.:\-]{0,60})>(?P<vq1>[^<>\n]{1,200})</(?P=name)>")
# A line of a config file that is a name and a value only: `ENV DB_PASSWORD …`, `requirepass …`, `auth_pass …`.
_DIRECTIVE = _compile(
    r"^[ \t]*(?P<export>(?i:env|export|set|setenv|arg)[ \t]+)?(?P<name>[A-Za-z_][\w.\-]{1,60})[ \t]+"
    r"(?P<v>[^\s\"'=:]{3,200})[ \t]*$",
    re.MULTILINE,
)
# A user and a password given to a command: `curl -u dana:…`, `wget --user …`, `http -a dana:…`, `mysql -p…`,
# and a .netrc entry.
_COMMAND_USER = _compile(
    r"\b(?:curl|wget|http|https|xh)\b[^\n]{0,200}?[ \t](?:-u|--user|-a|--auth)(?:[ \t]+|=)(?P<q>[\"']?)"
    r"[^\s:\"']{1,100}:(?P<v>[^\s\"']{1,200})(?P=q)"
    r"|\bmysql(?:dump|admin|import|show|check)?\b[^\n]{0,200}?[ \t]-p(?P<vp>[^\s\"'-][^\s\"']*)"
    r"|(?i:\bmachine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+password[ \t]+)(?P<vn>\S+)"
)


def _named(match: re.Match) -> tuple[int, int] | None:
    kind = _name_kind(match.group("name"))
    value = _value(match)
    if kind is None or value is None or not _CHECKS[kind](value[0]):
        return None
    if kind == "pin" and _everyday(match):
        return None
    return value[1]


_DIRECTIVES = frozenset("requirepass masterauth rootpw psk".split())  # config keywords that are one word
_DIGIT_OR_SIGN = re.compile(r"[\d!@#$%^&*_+=~/.\-]")  # what makes a word look like a secret rather than a word


def _directive(match: re.Match) -> tuple[int, int] | None:
    """A config line's value: named as in code (`DB_PASSWORD`, `smtp.pass`, `authToken`, after `ENV` or `export`)
    or by a config keyword, and looking like a secret (a digit or a sign, or long). "Password Manager", "token
    expired" and "password 4417" are headings and notes."""
    name, value = match.group("name"), _value(match)
    if value is None or not (_DIGIT_OR_SIGN.search(value[0]) or len(value[0]) >= 12):
        return None
    code = match.group("export") or re.search(r"[_.\-]|[a-z][A-Z]", name) or name.lower() in _DIRECTIVES
    return _named(match) if code else None


def _user_password(match: re.Match) -> tuple[int, int] | None:
    value = _value(match)
    return value[1] if value is not None and _loose(value[0]) and not value[0].isdigit() else None


# --- credentials in words, in several languages -------------------------------------------------------------------

_QUALIFIER = (
    r"(?:[ \t]+(?:for|of|to|on|at|in|from|f[üu]r|f[üu]rs|zum|zur|vom|von|des|der|meiner|meines|de|du"
    r"|del|della|dello|dei|do|da|dos|das|van|voor|f[öo]r|til|для|от|dla|od)\b[^\n.!?:=]{0,40}?)?"
)
_VERB = (
    r"(?:is|was|are|will be|would be|ist|lautet|war|hei(?:ß|ss)t|est|c'est|était|es|era|sería|è|e'|é|e"
    r"|är|er|jest|je|luidt|=>|->|→)"
)
_ADVERB = r"(?:[ \t]+(?:now|still|just|jetzt|noch|maintenant|toujours|ahora|todavía|ora|ancora|agora|ainda|nu|nog))?"
_CONNECT = (
    rf"(?:[ \t]*[:：—–=](?:{_NEXT_LINE}|[ \t]*)|[ \t]+-[ \t]+|(?:[ \t]+{_VERB}|['’]s){_ADVERB}(?:[ \t]*:)?"
    rf"(?:{_NEXT_LINE}|[ \t]+)"
    r"|[ \t]+(?:set|changed|reset|updated) to[ \t]+|[ \t]*(?:は|是|는|은|이)[ \t]*)"
)
_SAID_VALUE = (
    rf"(?:{_QUOTED}|“(?P<vq3>[^”\n]{{1,200}})”|‘(?P<vq4>[^’\n]{{1,200}})’"
    r"|«[ \t]?(?P<vq5>[^»\n]{1,200}?)[ \t]?»|`(?P<vq6>[^`\n]{1,200})`|(?P<v>[^\s\"'“”‘’«»`<>]{1,200}))"
)
_PASSWORD_NOUNS = (
    r"\b(?:\w*(?:passwort|kennwort|wachtwoord)|pass(?:word|wd|phrase)s?|p/?w|pwd|mot de passe|mdp"
    r"|contrase[ñn]as?|senhas?|palavras?[- ]passe|parola d'ordine|l[öo]senord(?:et)?|adgangskoden?|passord(?:et)?"
    r"|has[łl]o|heslo|salasana|пароль|[şs]ifre(?:m|si|niz)?|wi-?fi[- ](?:key|code)|network key"
    r"|wlan[- ]?schl[üu]ssel|cl[ée] (?:wi-?fi|wpa)|clave(?: del)? wi-?fi)\b"
    r"|パスワード|密码|密碼|비밀번호"
)
_PIN_NOUNS = (
    r"(?<![^\W\d_])(?:pin(?:[ -]?(?:code|nummer|number|nr\.?|no\.?))?|pincode|code pin|c[óo]digo pin"
    r"|codice pin|geheimzahl|puk|cvv2?|cvc2?|card (?:security |verification )?code|security code"
    r"|(?:bank|atm|debit|ec|sim|handy)[- ]?code|pass ?code)(?![^\W\d_])"
)
_KEY_NOUNS = (
    r"\b(?:(?:api|access|secret|private|auth|app|bot|deploy|license|licence|master|encryption|signing"
    r"|personal access)[ -]?(?:key|token)|tokens?|client[ -]secret)\b"
)
_OWNER = (
    r"(?:my|the|our|your|his|her|their|mein|meine|unser|unsere|das|mon|ma|notre|le|la|mi|el|nuestra|il|la mia"
    r"|il mio|a minha|o meu|minha|meu|mijn|ons|het|de)"
)


def _said(nouns: str, connect: str) -> tuple[re.Pattern, re.Pattern]:
    """ "<noun> [for the wifi] is <value>" and "<value> is my <noun>", for one family of nouns."""
    first = _compile(rf"(?i:(?P<noun>{nouns}){_QUALIFIER}(?P<connect>{connect})){_SAID_VALUE}")
    after = _compile(
        rf"(?<!\S)(?P<v>[^\s\"'“”]{{3,100}}+)[ \t]+(?i:(?:is|was|ist|est|es|è|é)[ \t]+{_OWNER}"
        rf"[ \t]+(?:[\w\-]+[ \t]+){{0,2}}?(?:{nouns}))"
        r"(?=[ \t]*(?:[.,;:!?)]|$|\n|[ \t]+(?:for|to|of|on|at|now|too|again|btw)\b))",
        re.MULTILINE,
    )
    return first, after


def _said_check(kind: str):
    def span(match: re.Match) -> tuple[int, int] | None:
        value = _value(match)
        if value is None:
            return None
        if kind == "pin":
            noun = (match.groupdict().get("noun") or match.group(0)).lower()
            if noun.endswith("code") and not (match.groupdict().get("connect") or ":").strip():
                return None  # "bank code 12345" is a routing number; "PIN 1234" needs no verb, a code does
            ok = _pin(value[0]) or ("pass" in noun and _loose(value[0]))
            return value[1] if ok and not _everyday(match) else None
        return value[1] if _CHECKS[kind](value[0]) else None

    return span


# "log in with password hunter2": a password named without a verb or a colon, taken when it looks like one — letters
# with a digit or a sign — so "password manager", "password reset" and "password in 2023" stay, and so do
# command-line options ("--no-password --verbose").
_BARE_PASSWORD = _compile(rf"(?<!-)(?i:(?P<noun>{_PASSWORD_NOUNS}){_QUALIFIER}[ \t]+)(?!-){_SAID_VALUE}")


def _bare_password(match: re.Match) -> tuple[int, int] | None:
    value = _value(match)
    if value is None or not _loose(value[0]):
        return None
    text = value[0]
    mixed = re.search(r"[^\W\d_]", text) and _DIGIT_OR_SIGN.search(text)
    return value[1] if mixed else None


def _said_patterns(kind: str, label: str, nouns: str) -> tuple[Pattern, ...]:
    # A PIN needs no verb: "SIM PIN 1234", "Geheimzahl 4821".
    connect = rf"(?:{_CONNECT}|[ \t]+(?=\d))" if kind == "pin" else _CONNECT
    return tuple(Pattern(label, regex, _said_check(kind)) for regex in _said(nouns, connect))


# --- the rest: URLs, headers, card numbers, seed phrases ----------------------------------------------------------


def _url_password(match: re.Match) -> tuple[int, int] | None:
    value = match.group("v")
    if re.match(r"\d{1,5}(?:/|$)", value) or value.startswith("[REDACTED"):
        return None  # host:port/path, not user:password
    return match.span("v")


def _luhn(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        number = int(char)
        if position % 2:
            number = number * 2 - 9 if number > 4 else number * 2
        total += number
    return total % 10 == 0


def _issuer(digits: str) -> bool:
    """A card issuer's prefix: Visa, Mastercard, Amex, Diners, JCB, Discover, UnionPay, Maestro, Mir."""
    two, three, four = int(digits[:2]), int(digits[:3]), int(digits[:4])
    return (
        digits[0] in "46"
        or 50 <= two <= 58
        or 2200 <= four <= 2204
        or 2221 <= four <= 2720
        or two in (34, 36, 37, 38, 39)
        or 300 <= three <= 305
        or 3528 <= four <= 3589
    )


def _card(match: re.Match) -> tuple[int, int] | None:
    number = match.group(1)
    groups = re.split(r"[ \-.]", number)
    if len(groups) > 1 and (len(set(re.findall(r"[ \-.]", number))) != 1 or len(groups[0]) != 4):
        return None  # written in groups (4-4-4-4, 4-6-5), with one kind of separator throughout
    # The longest run of whole groups that is a card number (a number may follow it: "… 1111 12/27").
    for count in range(len(groups), 0, -1):
        part = groups[:count]
        digits = "".join(part)
        if all(3 <= len(g) <= 6 for g in part[1:]) and 13 <= len(digits) <= 19 and _issuer(digits) and _luhn(digits):
            start = match.start(1)
            return start, start + len(digits) + count - 1
    return None


_SEED_NAMES = ("phrase", "words", "seed")  # what "recovery" or "backup" names a seed with
_SEED_CONTEXT = (
    r"\b(?:seed(?:[ -]?(?:phrase|words?))?|mnemonic(?:[ -]?(?:phrase|words?))?|(?:secret )?recovery[ -]"
    rf"(?:{'|'.join(_SEED_NAMES)})|backup[ -](?:{'|'.join(_SEED_NAMES)})|secret phrase|wallet (?:words|phrase)"
    r"|phrase (?:de (?:r[ée]cup[ée]ration|passe)|secr[èe]te|mn[ée]monique)|frase (?:semilla"
    r"|de recuperaci[óo]n|di recupero|de recupera[çc][ãa]o|secreta|mnem[óo]nica)|palabras semilla"
    r"|wiederherstellungs\w{0,12}|herstel(?:zin|woorden)|seedphrase)"  # -phrase, -wörter, -schlüssel
)
_WORD = r"(?i:[a-zß-öø-ÿ]{3,8})"  # in any case: a phone keyboard capitalises a word alone on its line
# A seed is written one way throughout — the same spaces, commas or line breaks between its words, or a numbered
# list — so a run of words stops where the way changes ("… reminder, and then …"), before the next sentence.
_SEED = _compile(
    rf"(?i:{_SEED_CONTEXT})[\s\S]{{0,60}}?(?<![a-zß-öø-ÿA-ZÀ-ÖØ-Þ])(?P<v>{_WORD}"
    rf"(?:(?P<s>[ \t]*[,;][ \t]*\n?|\s+){_WORD}(?:(?P=s){_WORD}){{10,24}}"
    rf"|(?P<a>\s+)\d{{1,2}}(?P<p>[.):]?)(?P<b>\s*){_WORD}(?:(?P=a)\d{{1,2}}(?P=p)(?P=b){_WORD}){{10,24}}))"
    r"(?![a-zß-öø-ÿA-ZÀ-ÖØ-Þ])"
)
_SEED_WORD = _compile(r"(?i:[a-zß-öø-ÿ]+)")
_SEED_LENGTHS = (25, 24, 21, 18, 15, 12)  # BIP-39's word counts, and Monero's 25


def _seed(match: re.Match) -> tuple[int, int]:
    """As many words as a seed has: a word said after it ("…, thanks") stays."""
    words = list(_SEED_WORD.finditer(match.string, *match.span("v")))
    length = next(n for n in _SEED_LENGTHS if n <= len(words))
    return match.start("v"), words[length - 1].end()


OTHERS: tuple[Pattern, ...] = (
    Pattern(
        "url-password",
        # The user may be empty (`redis://:…@host`) and the password may hold an `@`: it runs to the last `@` before
        # the host. A scheme is short, and a password stops before another `://`: read to the end from every scheme
        # or user of a long word ("a.a.a.…://"), they would take time quadratic in its length.
        _compile(
            r"\b[a-z][a-z0-9+.\-]{0,40}://[^\s:/@]*:(?P<v>(?:(?!://)[^\s@])+(?:@[^\s@/]*)*)@"
            r"(?=[\w\[][^\s@/]*(?:[/:?#\s]|\Z))",
            re.IGNORECASE,
        ),
        _url_password,
    ),
    Pattern(
        "auth-header",
        _compile(
            r"(?i:\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:basic|token|digest|apikey|sso-key)[ \t]+)"
            r"([A-Za-z0-9._~+/=:\-]{8,})"
        ),
    ),
    Pattern("bearer-token", _compile(r"\b[Bb]earer\s+([A-Za-z0-9._~+/\-]{16,}=*)")),
    Pattern(
        "card-number",
        # Its left edge is tested after its first digit (looking back past it): the engine skips straight to a digit.
        _compile(r"([2-6](?<![\w+.,/\-].)\d{3}(?:[ \-.]?\d){9,15})(?![\w/\-]|[.,]\d)"),
        _card,
    ),
    Pattern("seed-phrase", _SEED, _seed),
)

CREDENTIALS: tuple[Pattern, ...] = (
    Pattern("credential", _NAME_VALUE, _named),
    Pattern("credential", _FLAG, _named),
    Pattern("credential", _XML_SETTING, _named),
    Pattern("credential", _XML_ELEMENT, _named),
    Pattern("credential", _COMMAND_USER, _user_password),
    *_said_patterns("password", "password", _PASSWORD_NOUNS),
    Pattern("password", _BARE_PASSWORD, _bare_password),
    *_said_patterns("pin", "pin", _PIN_NOUNS),
    *_said_patterns("key", "credential", _KEY_NOUNS),
    Pattern("credential", _DIRECTIVE, _directive),
)

PATTERNS: tuple[Pattern, ...] = KEYS + TOKENS + OTHERS + CREDENTIALS


# --- the text the patterns read: what a reader sees, whatever code points spell it ----------------------------------

# Characters that show nothing: zero-width spaces and joiners, the soft hyphen, direction marks, variation selectors.
_INVISIBLE = frozenset(
    [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x3164, 0xFFA0, *range(0xFE00, 0xFE10)]
)
_LINE_BREAKS = {"\u0085": "\n", "\u2028": "\n", "\u2029": "\n"}
# The dotless and dotted i: a case-insensitive pattern takes them for an i, case folding does not.
_AS_I = str.maketrans({"ı": "i", "İ": "I"})
# Letters of other scripts that look like Latin ones: in a word that holds Latin letters and these only, they are
# read as Latin.
_LOOKALIKES = str.maketrans(
    "аеорсухіјѕԁԛԝһӏАВЕКМНОРСТХУІЈЅԌαοιυνκρτχΑΒΕΖΗΙΚΜΝΟΡΤΥΧɑɡ",
    "aeopcyxijsdqwhlABEKMHOPCTXYIJSGaoiuvkptxABEZHIKMNOPTYXag",
)
_LOOKALIKE_LETTERS = frozenset(chr(code) for code in _LOOKALIKES)
_WORD_RUN = _compile(r"\w+")


def _char_view(char: str) -> str:
    """What one character reads as: NFKC (full-width and styled letters and digits, no-break and other spaces),
    nothing for an invisible one, a line break for a line separator, an ASCII digit for any decimal digit."""
    if char in _LINE_BREAKS:
        return _LINE_BREAKS[char]
    if ord(char) in _INVISIBLE or unicodedata.category(char) == "Cf":
        return ""
    if char.isdecimal():
        return str(unicodedata.decimal(char))
    if unicodedata.category(char) == "Zs":
        return " "
    return unicodedata.normalize("NFKC", char).translate(_AS_I)


_char_view_cached = lru_cache(maxsize=4096)(_char_view)
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _read_char(char: re.Match) -> str:
    return _char_view_cached(char.group())


def _latin_word(word: re.Match) -> str:
    """A word of Latin letters and lookalikes of them, in Latin letters; any other word as it is (a Russian word
    stays Russian)."""
    text = word.group()
    letters = [c for c in text if c.isalpha()]
    if any(c.isascii() for c in letters) and all(c.isascii() or c in _LOOKALIKE_LETTERS for c in letters):
        return text.translate(_LOOKALIKES)
    return text


def view(text: str) -> str:
    """The text as the patterns read it: Unicode compatibility forms (NFKC), invisible characters dropped, lookalike
    letters in Latin words read as Latin, digits of any script as ASCII — a secret is found however its characters
    were typed."""
    if text.isascii():
        return text
    read = _NON_ASCII.sub(_read_char, text)
    if not _LOOKALIKE_LETTERS.isdisjoint(read):
        read = _WORD_RUN.sub(_latin_word, read)  # one letter for one
    return read


def _origins(text: str) -> list[int]:
    """For each character of `view(text)`, where it comes from in `text` (one more entry: the end)."""
    origin: list[int] = []
    for position, char in enumerate(text):
        origin.extend([position] * (1 if char.isascii() else len(_char_view_cached(char))))
    return origin + [len(text)]


# --- which patterns can match: each pattern's gate, read from the pattern itself ------------------------------------

_MOST = 256  # strings an exact set holds at most (beyond it, a shorter part of the pattern gives the gate)
Strings = frozenset[str] | None  # None: not known (any string)


def _needs(items) -> tuple[Strings, Strings]:
    """(every string a parsed regular expression matches, when there are few; strings one of which each of its
    matches holds, when known). Anything not understood is "not known": a gate is never stricter than its pattern.

    In a sequence, each item is needed: the best of the items' needs, and of the runs of items whose strings are
    known (joined), is the sequence's."""
    exact: Strings = frozenset([""])
    run: frozenset[str] = frozenset([""])
    best: Strings = None

    def score(strings: frozenset[str]) -> tuple[int, int, int]:  # words, and longer ones, are rarer in text
        return min(sum(c.isalnum() for c in s) for s in strings), min(map(len, strings)), sum(map(len, strings))

    def consider(strings: Strings) -> None:
        nonlocal best
        if strings and "" not in strings and (best is None or score(strings) > score(best)):
            best = strings

    for op, argument in items:
        whole, part = _item_needs(op, argument)
        consider(part)
        if whole is None:
            consider(run)
            run, exact = frozenset([""]), None
            continue
        if len(run) * len(whole) > _MOST:
            consider(run)
            run = frozenset([""])
        run = _joined(run, whole)
        exact = _joined(exact, whole) if exact is not None and len(exact) * len(whole) <= _MOST else None
    consider(run)
    return exact, best


def _joined(first: frozenset[str], second: frozenset[str]) -> frozenset[str]:
    return frozenset(a + b for a in first for b in second)


def _item_needs(op, argument) -> tuple[Strings, Strings]:
    """`_needs` of one item of a parsed regular expression."""
    name = str(op)
    if name == "LITERAL":
        return frozenset([chr(argument)]), None
    if name in ("AT", "ASSERT", "ASSERT_NOT"):  # zero width; what an assertion looks at is not needed here
        return frozenset([""]), None
    if name == "IN":
        chars: set[str] = set()
        for kind, value in argument:
            if str(kind) == "LITERAL":
                chars.add(chr(value))
            elif str(kind) == "RANGE" and value[1] - value[0] < 16:
                chars.update(chr(c) for c in range(value[0], value[1] + 1))
            else:  # a negated set, a category (\d, \w), a wide range
                return None, None
        return frozenset(chars), None
    if name == "SUBPATTERN":
        return _needs(argument[-1])
    if name == "ATOMIC_GROUP":
        return _needs(argument)
    if name == "BRANCH":
        exact: set[str] | None = set()
        needed: set[str] | None = set()
        for branch in argument[1]:
            whole, part = _needs(branch)
            part = part or (whole if whole and "" not in whole else None)
            exact = exact | whole if exact is not None and whole is not None else None
            needed = needed | part if needed is not None and part is not None else None
        return (frozenset(exact) if exact is not None and len(exact) <= _MOST else None), (
            frozenset(needed) if needed else None
        )
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, high, inner = argument
        whole, part = _needs(inner)
        if low == 0:
            return (whole | {""} if whole is not None and high == 1 else None), None
        return (whole if low == high == 1 else None), part or (whole if whole and "" not in whole else None)
    return None, None  # any other item (a back reference, any character, …): not known


def _regex_parser():
    """Python's own parser of regular expressions (`re._parser`; `sre_parse` before 3.11)."""
    try:
        return importlib.import_module("re._parser")
    except ImportError:
        return importlib.import_module("sre_parse")


def gate(pattern: Pattern) -> frozenset[str] | None:
    """The strings each match of the pattern holds one of (read from the pattern: its literal text that no match can
    do without); None when none can be known."""
    regex = pattern.regex
    # The source of a pattern not compiled yet is read as it is: reading a gate compiles nothing.
    source, flags = regex._source if isinstance(regex, _Lazy) else (regex.pattern, regex.flags)
    try:
        _, needed = _needs(_regex_parser().parse(source, flags))
    except Exception:  # a form of regex this reading does not know: the pattern always runs
        return None
    if not needed:
        return None
    # A part of a string is found wherever the string is: spaces at either end are left off (a text is mostly
    # spaces), and a string holding another of the set is left out for that one.
    needed = frozenset(s.strip() or s for s in needed)
    return frozenset(s for s in needed if not any(o != s and o in s for o in needed))


@lru_cache(maxsize=1)
def _gates() -> tuple[re.Pattern, dict[str, int], tuple[tuple[re.Pattern, int], ...], int]:
    """(one regex finding every gate string of two characters or more in a folded text; what each string it finds
    lets run (a bit mask over PATTERNS: the patterns of every gate string it starts with); the gates of single
    characters (a space, a digit: in most texts, so looked for one by one) with their patterns; the patterns without
    a gate). Built on first use: recall and load_core import this module and most of their runs redact nothing."""
    masks: dict[str, int] = {}
    letters: list[tuple[re.Pattern, int]] = []
    always = 0
    for number, pattern in enumerate(PATTERNS):
        strings = gate(pattern)
        if not strings:
            always |= 1 << number
        elif min(map(len, strings)) < 2:
            chars = sorted({c for s in strings for c in s[:1].casefold()})
            letters.append((re.compile("|".join(map(re.escape, chars))), 1 << number))
        else:
            for string in strings:
                masks[string.casefold()] = masks.get(string.casefold(), 0) | 1 << number
    found = {word: _or(bits for start, bits in masks.items() if word.startswith(start)) for word in masks}
    return re.compile(alternatives(masks) or "(?!)"), found, tuple(letters), always


def _or(masks) -> int:
    total = 0
    for mask in masks:
        total |= mask
    return total


def _runs(text: str) -> int:
    """The patterns (a bit mask over PATTERNS) that may match the text as read (`view`): see `_mask`."""
    return _mask(view(text))


def _mask(read: str) -> int:
    """The patterns (a bit mask over PATTERNS) that may match a text as read: those whose gate string is in it, and
    those that always run.

    Gate strings are looked for in the text case-folded. A letter a case-insensitive pattern takes for a gate's letter
    case-folds as that letter does, in a text as read (tests check every code point), and folding is letter by
    letter: so a text a pattern matches holds one of its gate strings, folded. Every place a gate string starts is
    visited, and the longest one there lets run the patterns of all those it starts with."""
    trie, found, letters, mask = _gates()
    folded = read.casefold()
    for chars, bit in letters:
        if chars.search(folded):
            mask |= bit
    hit = trie.search(folded)
    while hit is not None:
        mask |= found[hit.group()]
        hit = trie.search(folded, hit.start() + 1)
    return mask


def _apply(
    text: str, kinds: list[str] | None = None, removed: dict[str, str] | None = None, every: bool = False
) -> str:
    """The text redacted; the kinds found are added to `kinds`, each secret taken out to `removed` (with its kind).
    Each pattern runs on the text as read (`view`), in order; what it finds is replaced in the text as written.
    `every`: run every pattern, gates or not (what the gates must give too)."""
    read = view(text)
    mask = (1 << len(PATTERNS)) - 1 if every else _mask(read)
    number = -1
    while mask >> (number + 1):
        rest = mask >> (number + 1)
        number += (rest & -rest).bit_length()  # the next pattern let run
        pattern = PATTERNS[number]
        if pattern.regex.search(read) is None:  # most often: one call, no match
            continue
        spans = [span for match in pattern.regex.finditer(read) if (span := (pattern.span or _first_group)(match))]
        if not spans:
            continue
        origin = None if read is text else _origins(text)
        for start, end in reversed(spans):
            if origin is not None:
                start, end = origin[start], origin[end - 1] + 1
            if removed is not None:
                removed[text[start:end]] = pattern.name
            text = text[:start] + MARK.format(pattern.name) + text[end:]
        if kinds is not None and pattern.name not in kinds:
            kinds.append(pattern.name)
        read = view(text)
        mask |= _mask(read)  # a mark put in the text is read by the patterns after it, as it would be without gates
    return text


def redact(text: str) -> str:
    """The text with every secret replaced by `[REDACTED:<kind>]`."""
    return _apply(text)


def redact_field(name: str, value):
    """A named value of a record (a field of an event) redacted: the name on its own, the value as said after its
    name (`password=…` is a password's). A number that holds a secret (a card's digits) becomes its redacted text;
    any other value than text or a number is kept as it is."""
    name = redact(name)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return name, value
    said = f"{name}={value}"
    out = redact(said)
    if out == said:
        return name, value
    if out.startswith(f"{name}="):
        return name, out[len(name) + 1 :]
    return name, MARK.format(found(said)[0])  # a secret running across the name and its value: the value goes


def found(text: str) -> list[str]:
    """The kinds of secret in a text (for reports and tests); empty when there is none."""
    kinds: list[str] = []
    _apply(text, kinds)
    return kinds


# --- a conversation's messages in order -----------------------------------------------------------------------------


class Conversations:
    """Redacts the messages of many conversations, each given in its own order: a private key whose BEGIN line came
    in one message and whose body follows in the next ones (a paste split by the chat) is redacted there too.

    A conversation waits for the rest of a cut-off key for `WAIT` messages; a message that goes on with base64 lines
    (up to the END line) is the key's, anything else is left to the ordinary rules."""

    WAIT = 3

    def __init__(self) -> None:
        self._waiting: dict[str, int] = {}  # conversation -> messages left to wait for the rest of a key

    def redact(self, conversation: str, text: str) -> str:
        """The message with every secret redacted; call it for each message of a conversation, in order."""
        left = self._waiting.pop(conversation, 0)
        if left:
            body = _CONTINUES.match(text)
            if body and body.group(0).strip():
                rest = text[body.end() :]
                text = MARK.format("private-key") + rest
                # The key is over at its END line, or when the message goes on with something else.
                left = 0 if _OPENS.search(body.group(0)) or rest.strip() else self.WAIT
            else:
                left -= 1
        opened = list(_OPENS.finditer(text)) if "-----" in text else []
        last = opened[-1] if opened else None
        if last is not None and last.group(1):  # a BEGIN line with no END after it
            left = self.WAIT
        if left > 0:
            self._waiting[conversation] = left
        return redact(text)


# --- stored memories ---------------------------------------------------------------------------------------------

# A keyword is a word: one with a letter, a digit and a sign no word has is a value ("hunter2secret!").
_NOT_A_WORD = _compile(r"\A(?=.*[^\W\d_])(?=.*\d).*[!@#$%^&*+=~?|\\<>{}\[\]]")


def redact_memory(raw: dict) -> bool:
    """Redact a memory's words in place — content, detail, earlier contents in history, and keywords and context
    words (one cut from a secret goes with it, and one that is a value rather than a word) — for what an agent wrote
    and for stores written before a kind of secret was known. True when something changed; nothing else of the
    memory is touched."""
    history = (
        [h for h in raw.get("history") or () if isinstance(h, dict) and isinstance(h.get("content"), str)]
        if isinstance(raw.get("history"), list)
        else []
    )
    texts = [(raw, name) for name in ("content", "detail") if isinstance(raw.get(name), str)]
    texts += [(entry, "content") for entry in history]
    words = [
        (raw[name], i)
        for name in ("keywords", "context")
        if isinstance(raw.get(name), list)
        for i, word in enumerate(raw[name])
        if isinstance(word, str)
    ]
    if not _runs("\n".join([holder[name] for holder, name in texts] + [w[i] for w, i in words])) and not any(
        _NOT_A_WORD.match(w[i]) for w, i in words
    ):
        return False
    removed: dict[str, str] = {}
    changed = False
    for holder, name in texts:
        new = _apply(holder[name], removed=removed)
        if new != holder[name]:
            holder[name], changed = new, True
    for listed, i in words:
        word = listed[i]
        new = _apply(word, removed=removed)
        if new == word and (len(word) >= 4 or word.isdigit() and len(word) >= 3):
            kind = next((k for secret, k in removed.items() if word.lower() in secret.lower()), None)
            kind = kind or ("credential" if _NOT_A_WORD.match(word) else None)
            new = MARK.format(kind) if kind else word
        if new != word:
            listed[i], changed = new, True
    return changed
