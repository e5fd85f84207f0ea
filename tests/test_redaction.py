"""Secrets never stored: each provider's shape is redacted; ordinary text with numbers is left alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hippocampus.redaction import found, redact

SECRETS = [
    ("openai-key", "use sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789 for the bot", "sk-proj-AbCdEf"),
    ("openai-key", "old key sk-abcdefghijklmnopqrstuvwxyz123456 still works", "sk-abcdefghij"),
    ("anthropic-key", "ANTHROPIC key: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz_0123456789", "sk-ant-api03"),
    ("github-token", "token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 in CI", "ghp_AbCd"),
    ("github-token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_11"),
    ("slack-token", "bot xoxb-1234567890-0987654321-AbCdEfGhIjKl posted", "xoxb-1234"),
    ("aws-access-key", "AKIAIOSFODNN7EXAMPLE is the access key", "AKIAIOSFODNN7EXAMPLE"),
    ("google-api-key", "maps key AIzaSyA-1234567890abcdefghijklmnopqrstu here", "AIzaSyA-123"),
    ("stripe-key", "charge with sk_live_4eC39HqLyjWDarjtT1zdp7dc now", "sk_live_4eC"),
    ("jwt", "Cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
     "eyJhbGciOiJIUzI1NiJ9"),
    ("bearer-token", "curl -H 'Authorization: Bearer abc123def456ghi789jkl' https://api", "abc123def456"),
    ("private-key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE "
     "KEY-----", "b3BlbnNzaC1rZXkt"),
    ("private-key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7 (pasted half of it)", "MIIEowIBAAKCAQEA7"),
    ("credential", "db password=hunter2 on staging", "hunter2"),
    ("credential", '{"api_key": "a1b2c3d4e5f6g7h8"}', "a1b2c3d4e5f6g7h8"),
    ("credential", "token: 9f8e7d6c5b4a3210abc", "9f8e7d6c5b4a3210abc"),
    ("credential", "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"),
    ("password", "my wifi password is Blue-duck-42 by the way", "Blue-duck-42"),
    ("url-password", "postgres://bob:s3cretPass@db.internal:5432/app", "s3cretPass"),
]


@pytest.mark.parametrize("kind,text,secret", SECRETS)
def test_each_kind_of_secret_is_redacted(kind, text, secret):
    out = redact(text)
    assert secret not in out
    assert f"[REDACTED:{kind}]" in out
    assert kind in found(text)


@pytest.mark.parametrize("text", [
    "Call me on +1 415-555-0134 or 030 1234 5678 after 6",
    "The dentist moved my appointment to 2026-02-20 at 16:30",
    "Order #A1234-5567-8890 should arrive by 20/02/2026",
    "The locker code for unit 12 is 4417",
    "max_tokens=4096 and the tokens: 5120 used yesterday",
    "the password is in the drawer next to the printer",
    "Secret: the party is on Friday",
    "Flight LH 1234 from gate B22, seat 14C, booking ref XJ7KQ2",
    "The risk-assessment-2024-final-version document is ready",
    "Task-list item 42: ask-for-budget-approval-before-friday",
    "IBAN-like reference 1234 5678 9012 3456 for the invoice",
    "私の電話番号は090-1234-5678です。",
])
def test_ordinary_text_with_numbers_is_left_alone(text):
    assert redact(text) == text
    assert found(text) == []


def test_redacting_twice_changes_nothing_more():
    text = " ".join(t for _, t, _ in SECRETS)
    once = redact(text)
    assert redact(once) == once
    assert found(once) == []


@given(st.text(alphabet="0123456789 -:/.,#+()", max_size=80))
def test_text_made_of_digits_and_punctuation_is_never_redacted(text):
    assert redact(text) == text


@given(st.lists(st.sampled_from(["the", "code", "is", "4417", "unit", "12", "token", "password", "key", "at",
                                 "16:30", "sk", "order", "#5521", "bearer", "of", "news"]), max_size=12))
def test_plain_words_and_numbers_in_any_order_are_never_redacted(parts):
    text = " ".join(parts)
    assert redact(text) == text
