"""The phrasing corpus (tests/phrasings.py): every case of both parts is played as cron would and its checks must
hold, except the cases listed in tests/data/phrasings/known_failures.txt (what fails now: a case that starts to pass
shows as passing unexpectedly, and is taken off the list). bench/phrasings.py prints the pass rates."""

from __future__ import annotations

import pytest

import phrasings

KNOWN = phrasings.CORPUS / "known_failures.txt"
KNOWN_FAILURES = (
    frozenset(
        line.split("#")[0].strip()
        for line in KNOWN.read_text(encoding="utf-8").splitlines()
        if line.split("#")[0].strip()
    )
    if KNOWN.exists()
    else frozenset()
)
CASES = [case for part in phrasings.PARTS for case in phrasings.load(part)]


def test_the_corpus_is_large_and_covers_every_class_and_language():
    assert len(CASES) >= 300
    assert {case.kind for case in CASES} == phrasings.CLASSES
    assert {case.lang for case in CASES} == phrasings.LANGUAGES
    assert sum(case.source != "pen" for case in CASES) >= 40  # words from real chats, not only our own
    assert not KNOWN_FAILURES - {case.id for case in CASES}, "known failures name cases that do not exist"


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=pytest.mark.xfail(reason="known to fail now", strict=False))
        if case.id in KNOWN_FAILURES
        else case
        for case in CASES
    ],
    ids=[case.id for case in CASES],
)
def test_what_the_user_said_is_what_the_memory_shows(case, tmp_path):
    failures = phrasings.run(case, tmp_path)
    assert not failures, "\n".join(failures)
