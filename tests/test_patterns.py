"""The package's regular expressions, checked without a clock: bench/patterns.py times every one of them on inputs
made to slow it (its growth with the input is a bench figure, not a test, since a busy machine slows any clock), and
here that it collects every kind of pattern the package compiles; and one 40 KB message built to slow them is
encoded, its secret redacted, in a process of its own."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

from conftest import read_index, run_script
from transcript_fixtures import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from patterns import package_patterns  # noqa: E402

PATTERNS = package_patterns()


def test_the_patterns_read_are_every_kind_the_package_compiles():
    names = set(PATTERNS)
    for expected in (
        "ingestion.summary._TRAIL",
        "ingestion.facts._CLAUSE_END",
        "ingestion.scoring.RULES 0",
        "redaction.OTHERS 0",
        "redaction.KEYS 2",
        "redaction gates",
        "published.identity._SVG_START",
        "claims._KEEP_IT",
    ):
        assert expected in names, sorted(names)
    for built in ("ingestion.duetime due", "ingestion.duetime days"):  # compiled on first use
        assert any(name.startswith(built) for name in names), sorted(names)
    written_inline = {p.pattern for name, p in PATTERNS.items() if " line " in name}
    assert {r"\bgroup\b|id:-\d", r"[^a-z0-9_-]+", r"[\w'’.:/-]+"} <= written_inline, written_inline


# Text pasted from a PDF or a CJK editor: a run of ideographic spaces (3 bytes each) after words that make the
# summary, the redaction of key lines and the "(said …)" note look at it.
ADVERSARIAL = "Remember the gate code is 12 btw (said on the -----END PRIVATE KEY----- line)" + "\u3000" * 13_300 + "x"


def test_a_40_kb_message_built_to_slow_the_patterns_is_encoded_with_its_secret_redacted(workspace, tmp_path):
    assert 39_000 < len(ADVERSARIAL.encode("utf-8")) < 41_000
    session = Session("adverse0-0000-4000-8000-000000000001", datetime(2026, 2, 20, 9, tzinfo=timezone.utc))
    session.user(ADVERSARIAL)
    session.assistant("Noted.")
    session.write(tmp_path / "sessions")
    done = run_script("encode", "--sessions", str(tmp_path / "sessions"), ws=workspace, spawn=True)
    assert done.returncode == 0, done.stderr
    (memory,) = read_index(workspace)["memories"]
    assert memory["content"].startswith("The gate code is 12 btw (said on the [REDACTED:private-key] line)")
