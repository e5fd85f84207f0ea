"""Secrets out of text before anything is stored: provider keys and tokens, private keys, credential assignments.

Each pattern is anchored on a shape only secrets have (a provider prefix, a key block, a `password=` name), so
ordinary text with numbers — phone numbers, dates, order numbers, locker codes — passes untouched. Redacting is
idempotent: a redacted text has nothing left to redact. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MARK = "[REDACTED:{}]"

# A token must not be glued to a longer word on its left ("desk-", "risk-" are not OpenAI keys).
_LEFT = r"(?<![A-Za-z0-9_\-])"


@dataclass(frozen=True)
class Pattern:
    name: str
    regex: re.Pattern
    group: int = 0  # the group that is the secret; 0 = the whole match


PATTERNS: tuple[Pattern, ...] = (
    Pattern("private-key", re.compile(
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        re.DOTALL)),
    Pattern("anthropic-key", re.compile(_LEFT + r"sk-ant-[A-Za-z0-9_\-]{20,}")),
    Pattern("openai-key", re.compile(_LEFT + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}")),
    Pattern("stripe-key", re.compile(_LEFT + r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    Pattern("stripe-webhook-secret", re.compile(_LEFT + r"whsec_[A-Za-z0-9]{20,}")),
    Pattern("github-token", re.compile(_LEFT + r"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})")),
    Pattern("slack-token", re.compile(_LEFT + r"(?:xox[abposre]|xapp)-[A-Za-z0-9\-]{10,}")),
    Pattern("aws-access-key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    Pattern("google-api-key", re.compile(_LEFT + r"AIza[0-9A-Za-z_\-]{35}")),
    Pattern("jwt", re.compile(_LEFT + r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
    Pattern("bearer-token", re.compile(r"\b[Bb]earer\s+([A-Za-z0-9._~+/\-]{16,}=*)")),
    Pattern("url-password", re.compile(r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:([^\s@/]+)@")),
    # `password=…`, `secret: …`: any value with a digit, capital or symbol, or a long one ("secret: the party" stays).
    Pattern("credential", re.compile(
        r"(?i:\b[A-Za-z0-9_]*(?:password|passwd|pwd|passphrase|secret)[A-Za-z0-9_]*)[\"']?\s*[:=]\s*[\"']?"
        r"((?=[^\s\"',;]*[0-9A-Z!@#$%^&*_+=~/.\-])[^\s\"',;]{3,}|[^\s\"',;]{8,})")),
    # `token: …`, `"api_key": "…"`: letters and digits mixed ("max_tokens=4096" stays).
    Pattern("credential", re.compile(
        r"(?i:\b[A-Za-z0-9_]*(?:token|api[_\-]?key|apikey|access[_\-]?key|auth[_\-]?key|private[_\-]?key"
        r"|client[_\-]?secret)[A-Za-z0-9_]*)[\"']?\s*[:=]\s*[\"']?"
        r"((?=[^\s\"',;]*[A-Za-z])(?=[^\s\"',;]*[0-9])[^\s\"',;]{8,}|[^\s\"',;]{20,})")),
    # "my password is Tr0ub4dor&3": a value with a digit or symbol, so "the password is in the drawer" stays.
    Pattern("password", re.compile(
        r"(?i)\b(?:password|passphrase|passwd)\s+(?:is|was|=)\s+[\"']?"
        r"((?=[^\s\"']*[0-9!@#$%^&*_+=~])[^\s\"',;]{6,})")),
)


# Every pattern above needs one of these; text without any is returned at once (most text, at a fraction of the cost).
_TRIGGER = re.compile(r"sk-|[spr]k_|whsec_|gh[pousr]_|github_pat_|xox|xapp-|AKIA|ASIA|ABIA|ACCA|AIza|eyJ|bearer|://"
                      r"|pass|pwd|secret|token|key", re.IGNORECASE)


def redact(text: str) -> str:
    """The text with every secret replaced by `[REDACTED:<kind>]`."""
    if not _TRIGGER.search(text):
        return text
    for pattern in PATTERNS:
        text = pattern.regex.sub(lambda m, p=pattern: _replace(m, p), text)
    return text


def _replace(match: re.Match, pattern: Pattern) -> str:
    if not pattern.group and not match.groups():
        return MARK.format(pattern.name)
    secret = match.group(1)
    if secret.startswith("[REDACTED"):
        return match.group(0)
    start, end = match.span(1)
    whole = match.group(0)
    offset = match.start(0)
    return whole[: start - offset] + MARK.format(pattern.name) + whole[end - offset:]


def found(text: str) -> list[str]:
    """The kinds of secret in a text (for reports and tests); empty when there is none."""
    kinds = []
    for pattern in PATTERNS:
        for match in pattern.regex.finditer(text):
            value = match.group(1) if match.groups() else match.group(0)
            if not value.startswith("[REDACTED"):
                kinds.append(pattern.name)
                break
    return kinds
