"""Secrets out of text before anything is stored: provider tokens, private keys, credentials in code and in words,
card numbers, PINs and wallet seed phrases. Pure.

The line drawn: a credential that opens an account, money or a machine — a password, a token or key, a card number,
a bank-card or phone PIN, a seed phrase — is a secret even when the user asks to remember it. An everyday code the
user asks the agent to keep (a gym locker, a gate, a bike lock, a door) is a memory, and so are phone numbers, dates,
order numbers, prices, versions, ISBNs and bare hex hashes (the README lists both sides).

Each pattern is anchored on a shape only secrets have — a provider's prefix, a key block, a credential named in code
(`DB_PASS=…`) or in words ("my password is …", "mein Passwort ist …"), a Luhn-valid number with a card issuer's
prefix, a run of 12 or more lowercase words after "seed phrase" — and runs only on text that holds one of its trigger
words, so most text costs one scan. A secret becomes `[REDACTED:<kind>]` and the rest of the text is kept. Redacting
is idempotent. `Conversations` carries a private key whose body comes in the messages after its BEGIN line.
"""

from __future__ import annotations

import re
from functools import partial
from dataclasses import dataclass
from typing import Callable, cast

MARK = "[REDACTED:{}]"
# Raise it when a kind is added or widened: stored memories are then redacted again as they are read (see
# `redact_memory`), and the search cache, which holds their words, is rebuilt.
RULES = 3

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


_LEFT = r"(?<![A-Za-z0-9_\-])"  # not glued to a longer word on its left ("desk-", "risk-" are not OpenAI keys)
_RIGHT = r"(?![A-Za-z0-9_\-])"


@dataclass(frozen=True)
class Pattern:
    name: str
    regex: re.Pattern
    triggers: tuple[str, ...]  # lower-case words: the pattern runs only on text holding one of them (or its shape)
    # (start, end) of the secret in the match, or None to leave the match as it is; default: the first group that
    # took part, else the whole match.
    span: Callable[[re.Match], tuple[int, int] | None] | None = None
    shape: re.Pattern | None = None  # for secrets no word announces: a cheap regex the text must match instead


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
                end -= len(text) - len(stripped)
                text = stripped
            if not text or text.startswith("[REDACTED"):
                return None
            return text, (start, end)
    return None


# --- provider tokens: the prefixes and shapes secret scanners publish ------------------------------------------


def _token(name: str, body: str, *triggers: str) -> Pattern:
    return Pattern(name, _compile(_LEFT + f"(?:{body})" + _RIGHT), triggers)


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
    _token("anthropic-key", r"sk-ant-[A-Za-z0-9_\-]{20,}", "sk-ant-"),
    _token("openai-key", r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}", "sk-"),
    _token("stripe-key", r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}", "k_live_", "k_test_"),
    _token("stripe-webhook-secret", r"whsec_[A-Za-z0-9]{20,}", "whsec_"),
    _token(
        "github-token",
        r"gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}",
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "github_pat_",
    ),
    _token(
        "gitlab-token",
        "(?:" + "|".join(_GITLAB) + r")-[A-Za-z0-9_\-]{20,}|GR1348941[A-Za-z0-9_\-]{20,}",
        *(p + "-" for p in _GITLAB),
        "gr1348941",
    ),
    _token("slack-token", r"(?:xox[abposre]|xapp)-[A-Za-z0-9\-]{10,}", "xox", "xapp-"),
    _token(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{20,}",
        "hooks.slack.com",
    ),
    _token(
        "discord-webhook",
        r"https://(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{20,}",
        "/api/webhooks/",
    ),
    _token("telegram-bot-token", r"\d{5,16}:A[A-Za-z0-9_\-]{34}", ":a"),
    _token("huggingface-token", r"(?:hf_|api_org_)[A-Za-z]{34}", "hf_", "api_org_"),
    _token("npm-token", r"npm_[A-Za-z0-9]{36}", "npm_"),
    _token("pypi-token", r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}", "pypi-ageichlwas5vcmc"),
    _token("sendgrid-key", r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}", "sg."),
    Pattern("twilio-key", _compile(_LEFT + r"SK[0-9a-fA-F]{32}" + _RIGHT), (), shape=_compile(r"SK[0-9a-fA-F]{32}")),
    _token("mailgun-key", r"key-[0-9a-zA-Z]{32}", "key-"),
    _token("digitalocean-token", r"do[opr]_v1_[a-f0-9]{64}", "_v1_"),
    _token("shopify-token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", "shpat_", "shpca_", "shppa_", "shpss_"),
    _token("age-secret-key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", "age-secret-key-1"),
    _token("aws-access-key", r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}", "akia", "asia", "abia", "acca"),
    _token("google-api-key", r"AIza[0-9A-Za-z_\-]{35}", "aiza"),
    _token("google-oauth-secret", r"GOCSPX-[A-Za-z0-9_\-]{28}|ya29\.[A-Za-z0-9_\-]{20,}", "gocspx-", "ya29."),
    _token("azure-client-secret", r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}", "q~"),
    _token("groq-key", r"gsk_[A-Za-z0-9]{52}", "gsk_"),
    _token("xai-key", r"xai-[A-Za-z0-9]{80}", "xai-"),
    _token("replicate-token", r"r8_[A-Za-z0-9]{37}", "r8_"),
    _token("perplexity-key", r"pplx-[A-Za-z0-9]{48}", "pplx-"),
    _token("notion-token", r"secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46}", "secret_", "ntn_"),
    _token("linear-key", r"lin_api_[A-Za-z0-9]{40}", "lin_api_"),
    _token("supabase-token", r"sbp_[a-f0-9]{40}", "sbp_"),
    _token("databricks-token", r"dapi[a-f0-9]{32}(?:-\d)?", "dapi"),
    _token("vault-token", r"hv[sb]\.[A-Za-z0-9_\-]{24,}", "hvs.", "hvb."),
    _token("tailscale-key", r"tskey-[a-z]+-[A-Za-z0-9_\-]{10,}", "tskey-"),
    _token("grafana-token", r"glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[a-fA-F0-9]{8}", "glc_", "glsa_"),
    _token("newrelic-key", r"NRAK-[A-Z0-9]{27}", "nrak-"),
    _token("sentry-token", r"sntry[us]_[A-Za-z0-9+/=_\-]{40,}", "sntrys_", "sntryu_"),
    _token("postman-key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", "pmak-"),
    _token("doppler-token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}", "dp."),
    _token("atlassian-token", r"ATATT3[A-Za-z0-9_\-=]{50,}", "atatt3"),
    _token("square-token", r"sq0atp-[A-Za-z0-9_\-]{22}|sq0csp-[A-Za-z0-9_\-]{43}", "sq0atp-", "sq0csp-"),
    _token("mapbox-key", r"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}", "sk.eyj"),
    _token("onepassword-token", r"ops_eyJ[A-Za-z0-9+/=_\-]{50,}", "ops_eyj"),
    _token("flyio-token", r"fo1_[A-Za-z0-9_\-]{43}", "fo1_"),
    _token("netlify-token", r"nfp_[A-Za-z0-9]{36}", "nfp_"),
    _token("jwt", r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", "eyj"),
    Pattern(
        "discord-token",
        _compile(_LEFT + r"[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}" + _RIGHT),
        (),
        shape=_compile(r"\.[\w\-]{6}\.[\w\-]{27}"),
    ),
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
_KEY_TRIGGERS = ("-----begin", "-----end")
KEYS: tuple[Pattern, ...] = (
    # Up to its END line, if it comes before another BEGIN line (each block is looked through once).
    Pattern("private-key", _compile(f"{_BEGIN}(?:(?!-----BEGIN )[\\s\\S])*?{_END}"), _KEY_TRIGGERS),
    Pattern("private-key", _compile(f"{_BEGIN}{_BODY}"), _KEY_TRIGGERS),
    Pattern(
        "private-key",
        _compile(f"(?<![A-Za-z0-9+/])(?:[A-Za-z0-9+/]{{16,}}={{0,2}}{_BODY})?{_SEP}?{_END}"),
        _KEY_TRIGGERS,
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
    "secret",
    "token",
    "key",
    "sig",
    "credential",
    "pin",
    *_OTHER_NAMES,
)
_ENDS = ("=", ":", " =", " :", '"', "'", "_")
_NAME_TRIGGERS = tuple(f"{stem}{end}" for stem in ("pass", "key", "pin", "sig", "signature") for end in _ENDS) + (
    "_pass",
    "-pass",
    "_key",
    "-key",
    "_pin",
    "password",
    "passwd",
    "passphrase",
    "passcode",
    "passwort",
    "passord",
    "pw",
    "secret",
    "token",
    "credential",
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
_NAME_VALUE = _compile(
    # Only a word followed by `:` or `=` is looked at more closely (a cheap test first).
    r"(?<![\w.\-])(?=[\w.\-]{1,90}[\"']?[ \t]*[:=])(?:--?)?(?:(?<=[?&])(?P<url>))?"
    r"(?P<name>(?i:[\w.\-]{0,40}?(?:" + "|".join(_NAME_STEMS) + r")[\w.\-]{0,40}?))"
    r"[\"']?[ \t]*(?::|=(?!=))[ \t]*"
    # In a URL's query the value ends at `&` or `#`; elsewhere at a space, at ", ", or at `;` before the next
    # `name=` (a connection string), and a password may hold any of `&;,#`.
    rf"(?:{_QUOTED}|(?P<v>(?(url)[^\s\"'<>&#]+|(?:[^\s\"'<>,;]|,(?!\s|$)|;(?![\w.\-]+=))+)))"
)
_FLAG = _compile(
    r"(?<![\w\-])--(?P<name>password|passwd|pass|token|api-key|apikey|secret|client-secret"
    rf"|auth-token|access-token)[ \t]+(?:{_QUOTED}|(?P<v>[^\s\"']+))"
)


def _named(match: re.Match) -> tuple[int, int] | None:
    kind = _name_kind(match.group("name"))
    value = _value(match)
    if kind is None or value is None or not _CHECKS[kind](value[0]):
        return None
    if kind == "pin" and _everyday(match):
        return None
    return value[1]


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
    rf"(?:[ \t]*[:：—–][ \t]*|[ \t]+-[ \t]+|(?:[ \t]+{_VERB}|['’]s){_ADVERB}(?:[ \t]*:)?[ \t]+"
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
        rf"(?<!\S)(?P<v>[^\s\"'“”]{{3,100}})[ \t]+(?i:(?:is|was|ist|est|es|è|é)[ \t]+{_OWNER}"
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


# "cle w": "cle wifi" and "cle wpa" need no more ("uncle", "article" and "vehicle" start nothing).
_PASSWORD_TRIGGERS = (
    "password",
    "passwd",
    "passphrase",
    "passwort",
    "passord",
    "pw",
    "p/w",
    "kennwort",
    "wachtwoord",
    "de passe",
    "mdp",
    "contrase",
    "senha",
    "palavra",
    "parola d",
    "lösenord",
    "losenord",
    "adgangskode",
    "hasło",
    "haslo",
    "heslo",
    "salasana",
    "пароль",
    "şifre",
    "sifre",
    "wifi",
    "wi-fi",
    "wlan",
    "network key",
    "clé",
    "cle w",
    "clave",
    "パスワード",
    "密码",
    "密碼",
    "비밀번호",
)
_PIN_TRIGGERS = (
    "pin ",
    "pin:",
    "pin=",
    "pin-",
    "pin.",
    "pin,",
    "pin)",
    "pin\n",
    "pin\t",
    "pin'",
    'pin"',
    "pin_",
    "pins ",
    "pincode",
    "puk",
    "cvv",
    "cvc",
    "geheimzahl",
    "card code",
    "card security code",
    "card verification code",
    "security code",
    "bank code",
    "bank-code",
    "bankcode",
    "atm code",
    "debit code",
    "ec code",
    "ec-code",
    "sim code",
    "sim-code",
    "handy code",
    "handy-code",
    "handycode",
    "pass code",
    "passcode",
)
_KEY_TRIGGERS_SAID = tuple(
    f"{what}{sep}key"
    for what in (
        "api",
        "access",
        "secret",
        "private",
        "auth",
        "app",
        "bot",
        "deploy",
        "license",
        "licence",
        "master",
        "encryption",
        "signing",
    )
    for sep in (" ", "-", "")
) + ("personal access", "token", "client secret", "client-secret")


def _said_patterns(kind: str, label: str, nouns: str, triggers: tuple[str, ...]) -> tuple[Pattern, ...]:
    # A PIN needs no verb: "SIM PIN 1234", "Geheimzahl 4821".
    connect = rf"(?:{_CONNECT}|[ \t]+(?=\d))" if kind == "pin" else _CONNECT
    return tuple(Pattern(label, regex, triggers, _said_check(kind)) for regex in _said(nouns, connect))


# --- the rest: URLs, headers, card numbers, seed phrases ----------------------------------------------------------


def _url_password(match: re.Match) -> tuple[int, int] | None:
    value = match.group(1)
    if re.match(r"\d{1,5}(?:/|$)", value) or "://" in value or value.startswith("[REDACTED"):
        return None  # host:port/path, not user:password
    return match.span(1)


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
    groups = re.split(r"[ \-]", number)
    if len(groups) > 1 and (len(set(re.findall(r"[ \-]", number))) != 1 or len(groups[0]) != 4):
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
    r"|wiederherstellungs\w*|herstel(?:zin|woorden)|seedphrase)"
)
_WORD = r"[a-zß-öø-ÿ]{3,8}"
# A seed is written one way throughout — the same spaces, commas or line breaks between its words, or a numbered
# list — so a run of words stops where the way changes ("… reminder, and then …"), before the next sentence.
_SEED = _compile(
    rf"(?i:{_SEED_CONTEXT})[\s\S]{{0,60}}?(?<![a-zß-öø-ÿ])(?P<v>{_WORD}"
    rf"(?:(?P<s>[ \t]*[,;][ \t]*\n?|\s+){_WORD}(?:(?P=s){_WORD}){{10,24}}"
    rf"|(?P<a>\s+)\d{{1,2}}(?P<p>[.):]?)(?P<b>\s+){_WORD}(?:(?P=a)\d{{1,2}}(?P=p)(?P=b){_WORD}){{10,24}}))"
    r"(?![a-zß-öø-ÿ])"
)
_SEED_WORD = _compile(r"[a-zß-öø-ÿ]+")
_SEED_LENGTHS = (25, 24, 21, 18, 15, 12)  # BIP-39's word counts, and Monero's 25


def _seed(match: re.Match) -> tuple[int, int]:
    """As many words as a seed has: a word said after it ("…, thanks") stays."""
    words = list(_SEED_WORD.finditer(match.string, *match.span("v")))
    length = next(n for n in _SEED_LENGTHS if n <= len(words))
    return match.start("v"), words[length - 1].end()


OTHERS: tuple[Pattern, ...] = (
    Pattern(
        "url-password",
        _compile(r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:([^\s@]+)@(?=[\w\[])", re.IGNORECASE),
        ("://",),
        _url_password,
    ),
    Pattern(
        "auth-header",
        _compile(
            r"(?i:\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:basic|token|digest|apikey|sso-key)[ \t]+)"
            r"([A-Za-z0-9._~+/=:\-]{8,})"
        ),
        ("authorization",),
    ),
    Pattern("bearer-token", _compile(r"\b[Bb]earer\s+([A-Za-z0-9._~+/\-]{16,}=*)"), ("bearer",)),
    Pattern(
        "card-number",
        _compile(r"(?<![\w+.,/\-])([2-6]\d{3}(?:[ \-]?\d){9,15})(?![\w/\-]|[.,]\d)"),
        (),
        _card,
        shape=_compile(r"\d{4}[ \-]?\d{4}[ \-]?\d\d"),
    ),
    Pattern(
        "seed-phrase",
        _SEED,
        # What each way of naming a seed (_SEED_CONTEXT) must hold: a word said often on its own ("backup",
        # "recovery", "wallet") only with what follows it there.
        (
            "seed",
            "mnemonic",
            *(f"{word}{sep}{what}" for word in ("recovery", "backup") for sep in " -" for what in _SEED_NAMES),
            "secret phrase",
            "wallet words",
            "wallet phrase",
            "phrase de",
            "phrase secr",
            "phrase mn",
            "frase ",
            "palabras semilla",
            "wiederherstellung",
            "herstel",
        ),
        _seed,
    ),
)

CREDENTIALS: tuple[Pattern, ...] = (
    Pattern("credential", _NAME_VALUE, _NAME_TRIGGERS, _named),
    Pattern(
        "credential",
        _FLAG,
        ("--pass", "--token", "--api", "--secret", "--client-secret", "--auth", "--access-token"),
        _named,
    ),
    *_said_patterns("password", "password", _PASSWORD_NOUNS, _PASSWORD_TRIGGERS),
    *_said_patterns("pin", "pin", _PIN_NOUNS, _PIN_TRIGGERS),
    *_said_patterns("key", "credential", _KEY_NOUNS, _KEY_TRIGGERS_SAID),
)

PATTERNS: tuple[Pattern, ...] = KEYS + TOKENS + OTHERS + CREDENTIALS


# --- the pre-check: which patterns can match at all, from the words the text holds ----------------------------------


def _trie(words: list[str]) -> str:
    """One regex for many words, sharing their beginnings ("p(?:in(?: |:)|ass…)"): a text is scanned once, and
    a position whose letter starts no word is passed over at once."""
    root: dict = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: dict) -> str:
        branches = [re.escape(char) + build(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 and "" not in node else "(?:" + "|".join(branches) + ")"
        return body + ("?" if "" in node else "")

    return build(root)


def _triggers(patterns: tuple[Pattern, ...]) -> tuple[re.Pattern, dict[str, int], tuple]:
    """The regex that finds trigger words, what each found word starts (a bit mask over PATTERNS), and the shapes
    with their masks. The scan looks at every place, words overlapping ("--password" holds "--pass" and
    "password"), and takes the longest word at each, so a found word also starts the patterns of those inside it."""
    masks: dict[str, int] = {}
    for number, pattern in enumerate(patterns):
        for word in pattern.triggers:
            masks[word] = masks.get(word, 0) | 1 << number
    found = dict(masks)
    for word in masks:
        for inner, bits in masks.items():
            if inner in word:
                found[word] |= bits
    shapes = tuple((p.shape, 1 << n) for n, p in enumerate(patterns) if p.shape is not None)
    return _compile(_trie(sorted(masks))), found, shapes


_TRIGGER, _MASKS, _SHAPES = _triggers(PATTERNS)


# Letters a case-insensitive pattern takes for an ASCII one that `lower` leaves apart: the long s, the dotless i, and
# the dot that lowering the dotted capital İ puts after its i. (The Kelvin sign lowers to a k.)
_AS_ASCII = str.maketrans({"ſ": "s", "ı": "i", "\u0307": None})


def _runs(text: str) -> int:
    """The patterns (a bit mask over PATTERNS) whose trigger words or shapes the text holds; 0 for most text."""
    mask = 0
    lowered = text.lower() + " "  # the space: a word at the very end is followed, too
    texts = [lowered]
    if not text.isascii():
        folded = lowered.translate(_AS_ASCII)
        if folded != lowered:
            texts.append(folded)  # and the text as it was: some trigger words are written with those letters
    for lowered in texts:
        # Found one by one, each search starting a character after the last word found began (words overlap); a
        # regex that starts with the word's first letter lets the engine pass over the other characters quickly.
        found = _TRIGGER.search(lowered)
        while found is not None:
            mask |= _MASKS[found.group()]
            found = _TRIGGER.search(lowered, found.start() + 1)
    for shape, bits in _SHAPES:
        if shape.search(text):
            mask |= bits
    return mask


def _apply(text: str, kinds: list[str] | None = None, removed: dict[str, str] | None = None) -> str:
    """The text redacted; the kinds found are added to `kinds`, each secret taken out to `removed` (with its kind)."""
    mask = _runs(text)
    number = 0
    while mask:
        if mask & 1:
            pattern = PATTERNS[number]
            redacted = pattern.regex.sub(partial(_replace, pattern=pattern, removed=removed), text)
            if redacted != text:
                text = redacted
                if kinds is not None and pattern.name not in kinds:
                    kinds.append(pattern.name)
        mask >>= 1
        number += 1
    return text


def _replace(match: re.Match, pattern: Pattern, removed: dict[str, str] | None = None) -> str:
    span = (pattern.span or _first_group)(match)
    if span is None:
        return match.group(0)
    if removed is not None:
        removed[match.string[span[0] : span[1]]] = pattern.name
    offset = match.start()
    whole = match.group(0)
    return whole[: span[0] - offset] + MARK.format(pattern.name) + whole[span[1] - offset :]


def redact(text: str) -> str:
    """The text with every secret replaced by `[REDACTED:<kind>]`."""
    return _apply(text)


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
_NOT_A_WORD = _compile(r"(?=.*[^\W\d_])(?=.*\d).*[!@#$%^&*+=~?|\\<>{}\[\]]")


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
