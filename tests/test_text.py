"""Words, stems and token estimates."""

from hypothesis import given, settings, strategies as st

from hippocampus.text import estimate_tokens, one_line, stem, terms, without_label, words


def test_related_word_forms_share_a_stem():
    assert stem("migration") == stem("migrate") == stem("migrating") == stem("migrated")
    assert stem("projects") == stem("project")
    assert stem("planned") == stem("plan")
    assert stem("likes") == stem("liked") == stem("like")


def test_different_words_keep_different_stems():
    assert stem("projector") != stem("project")
    assert stem("station") != stem("state")
    assert stem("speed") != stem("spe")


def test_words_split_at_word_boundaries_and_drop_punctuation():
    assert words('"; rm -rf ~; "') == ["rm", "rf"]
    assert words("</script>") == ["script"]
    assert words("Dana's oat-milk") == ["dana", "oat", "milk"]


def test_words_keep_cyrillic_and_split_cjk_into_pairs():
    assert words("Привет мир") == ["привет", "мир"]
    assert words("東京タワー") == ["東京", "京タ", "タワ", "ワー"]
    assert words("猫") == ["猫"]


def test_terms_leave_out_stop_words():
    assert terms("I prefer the oat milk") == ["prefer", "oat", "milk"]


def test_token_estimates_count_cjk_characters_one_each():
    assert estimate_tokens("abcdefgh") == 2
    assert estimate_tokens("東京タワー") == 5


def test_one_line_flattens_newlines_so_markdown_cannot_grow_headings():
    assert one_line("a\n## b\n- c") == "a ## b - c"
    assert one_line("x" * 50, limit=10) == "x" * 9 + "…"


def test_a_leading_speaker_label_can_be_set_aside():
    assert without_label("Caroline: I went to the support group") == "I went to the support group"
    assert without_label("Dr Okafor: take two a day") == "take two a day"
    assert without_label("the plan: two steps") == "the plan: two steps"
    assert without_label("at 10:30 we meet") == "at 10:30 we meet"


# --- the shortcuts taken for speed give what the plain rules give ------------------------------------------------

from hippocampus import text as text_module  # noqa: E402
from hippocampus import terms as terms_module  # noqa: E402
from hippocampus import smalltalk  # noqa: E402
from hippocampus.ingestion import encoding, scoring, summary  # noqa: E402

_PIECES = st.lists(
    st.sampled_from(
        [
            "I",
            "my",
            "Remember",
            "REMEMBER THIS",
            "don't forget",
            "keep it in mind",
            "btw",
            "By The Way",
            "FYI",
            "just so you know",
            "recap",
            "Summarize",
            "sum it up",
            "remind me what",
            "what did we",
            "What Have We",
            "please",
            "ok",
            "okay",
            ".",
            "!",
            "?",
            ",",
            " ",
            "  ",
            "\n",
            "\t",
            "。",
            "！",
            "é",
            "K",
            "ſ",
            "İ",
            "\u3000",
            "word",
            "the",
            "can you",
            "give me a",
            "summary",
            "rundown",
        ]
    ),
    max_size=12,
).map("".join)


@given(_PIECES | st.text(max_size=40))
@settings(max_examples=400, deadline=None)
def test_sentence_breaks_split_text_as_the_plain_rule_does(sample):
    import re

    assert text_module.SENTENCE_BREAK.split(sample) == re.split(r"(?<=[.!?。！？])\s+|\n+", sample)


@given(_PIECES | st.text(max_size=40))
@settings(max_examples=400, deadline=None)
def test_a_text_the_quick_test_rules_out_never_matches_the_rule_it_guards(sample):
    if not text_module.may_contain(sample, summary._TRAIL_WORDS):
        assert summary._TRAIL.sub("", sample) == sample
    if not text_module.may_contain(sample, smalltalk._RECAP_WORDS):
        assert smalltalk._RECAP.search(sample) is None


def test_may_contain_finds_words_in_any_letter_case_and_never_rules_out_other_scripts():
    assert text_module.may_contain("Please REMEMBER that", ("remember",))
    assert not text_module.may_contain("nothing to see here", ("remember",))
    assert text_module.may_contain("nothing to see here, café", ("remember",))  # beyond ASCII: the regex decides


@given(
    st.lists(
        st.sampled_from(
            [
                "Today",
                "TONIGHT",
                "tomorrow",
                "yesterday",
                "this",
                "next",
                "last",
                "morning",
                "afternoon",
                "Evening",
                "week",
                "weekend",
                "month",
                "year",
                "night",
                "Monday",
                "sunday",
                " ",
                ",",
                "the",
                "K",
                "é",
            ]
        ),
        max_size=8,
    ).map(" ".join)
)
@settings(max_examples=300, deadline=None)
def test_a_text_the_quick_test_rules_out_never_says_a_relative_time(sample):
    if not text_module.may_contain(sample, encoding._RELATIVE_WORDS):
        assert encoding._RELATIVE.search(sample) is None


@given(st.text(alphabet=" \t\nab.\u00a0\u3000", max_size=30))
@settings(max_examples=300, deadline=None)
def test_runs_of_spaces_are_found_as_the_plain_rule_finds_them(sample):
    import re

    from hippocampus.ingestion import transcripts

    assert transcripts._SPACES.sub(" ", sample) == re.sub(r"(?<=\S)[ \t]{2,}", " ", sample)


@given(
    st.lists(
        st.sampled_from(
            [
                "I",
                "i",
                "my",
                "My",
                "me",
                "ME",
                "myself",
                "mine",
                "I'm",
                "I’ve",
                "i'll",
                "I'd",
                "prefer",
                "went",
                "am",
                "the",
                "tea",
                "Kim",
                "İ",
                "it",
                ",",
                ".",
                "!",
                ")",
                "'",
                '"',
                "(",
                "\t",
                "\n",
            ]
        ),
        max_size=8,
    ).map(" ".join)
)
@settings(max_examples=400, deadline=None)
def test_a_sentence_the_quick_test_rules_out_is_never_rewritten(sample):
    if not summary._FIRST_PERSON.search(sample):
        assert summary.rewrite_sentence(sample) == sample


@given(
    st.lists(
        st.sampled_from(
            [
                "By The Way",
                "btw",
                "PLEASE",
                "pls",
                "again",
                "anyway",
                "Always",
                "usually",
                "often",
                "sometimes",
                "really",
                "also",
                "just",
                "still",
                "generally",
                "normally",
                "typically",
                "mostly",
                "actually",
                "definitely",
                "absolutely",
                "totally",
                "already",
                "strongly",
                "I",
                "take",
                "the",
                "train",
                "K",
                "ſ",
                ",",
                "(said 2026-01-02)",
                " (said 2026-1-2)",
            ]
        ),
        max_size=8,
    ).map(" ".join)
)
@settings(max_examples=300, deadline=None)
def test_a_text_the_quick_tests_rule_out_holds_no_aside_and_no_said_day(sample):
    if not text_module.may_contain(sample, terms_module._ASIDE_WORDS):
        assert terms_module._ASIDES.sub(" ", sample) == sample
    assert terms_module.without_said(sample) == terms_module.SAID.sub("", sample)


@given(
    st.lists(
        st.sampled_from(
            [
                "i",
                "feel",
                "love",
                "really",
                "prefer",
                "like",
                "do",
                "you",
                "remember",
                "this",
                "deadline",
                "tomorrow",
                "thanks",
                "for",
                "the",
                "help",
                "with",
                "decided",
                "we",
                "project",
                "my",
                "name",
                "is",
                "an",
                "a",
                "bit",
                "don't",
                "forget",
                "perfect",
            ]
        ),
        max_size=10,
    ).map(lambda words: " " + " ".join(words) + " ")
)
@settings(max_examples=400, deadline=None)
def test_rule_phrases_are_found_where_and_as_the_plain_rule_finds_them(flat):
    import re

    for pattern in [rule.pattern for rule in scoring.RULES] + [scoring._CONTEXT, scoring._GRATITUDE, scoring._FOR_WHAT]:
        plain = re.compile(r"(?<=\s)(?:" + pattern.pattern[len(r"\s(") : -len(r")(?=\s)")] + r")(?=\s)")
        found, expected = pattern.search(flat), plain.search(flat)
        assert (found.group(1), found.end()) == (expected.group(0), expected.end()) if expected else found is None


@given(
    st.lists(
        st.sampled_from(
            [
                "that",
                "matches",
                "my",
                "experience",
                "you're",
                "right",
                "good",
                "job",
                "morning",
                "see",
                "you",
                "later",
                "how",
                "are",
                "i",
                "agree",
                "me",
                "too",
                "keep",
                "it",
                "up",
                "fair",
                "enough",
                "the",
                "plan",
            ]
        ),
        max_size=10,
    ).map(lambda w: " " + " ".join(w) + " ")
)
@settings(max_examples=400, deadline=None)
def test_small_talk_phrases_leave_the_words_the_plain_rule_leaves(flat):
    import re

    plain = re.compile(r"(?<=\s)(?:" + smalltalk._SMALL_PHRASES.pattern[len(r"\s(?:") :])
    assert smalltalk._SMALL_PHRASES.sub(" ", flat).split() == plain.sub(" ", flat).split()


_WHEN_PIECES = [
    "yesterday",
    "Today",
    "last week",
    "NEXT summer",
    "3 days ago",
    "may 5",
    "5 May",
    "in May",
    "May",
    "7pm",
    "7:30 am",
    "19:05",
    "2024-05-01",
    "1999",
    "2031",
    "Monday",
    "SEPTEMBER",
    "lately",
    "ſunday",
    "٣ may",
    "١٢:٣٠",
    "Kelvin",
    "may",
    "a",
    "_may",
    "may_",
    "9",
    "-",
    " ",
    "\n",
    "é",
    "ıt",
    "İn may",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_WHEN_PIECES), st.text(max_size=6)), max_size=12))
def test_the_says_when_test_finds_exactly_what_the_pattern_without_its_look_ahead_finds(pieces):
    import re
    from hippocampus.terms import _SAYS_WHEN, says_when

    text = "".join(pieces)
    plain = re.compile(_SAYS_WHEN.pattern.removeprefix("(?=\\w)"), re.IGNORECASE)
    assert _SAYS_WHEN.pattern.startswith("(?=\\w)")
    assert bool(_SAYS_WHEN.search(text)) == bool(plain.search(text))
    assert says_when(text) == bool(plain.search(text))


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                ["'", "''", "'s", "s'", "_", "-", " ", "\n", "Don't", "O'Neil's", "rock'n'roll", "x2", "AB"]
            ),
            st.text(st.characters(max_codepoint=127), max_size=6),
        ),
        max_size=12,
    ).map("".join)
)
def test_words_of_ascii_text_are_what_the_word_pattern_finds(text):
    import re

    found = re.findall(r"[^\W_]+(?:'[^\W_]+)*", text.lower())
    assert words(text) == [w[:-2] if w.endswith("'s") else w for w in found]


def test_a_word_is_stemmed_the_same_however_many_other_words_came_before_it():
    before = stem("migrations")
    try:
        for number in range(text_module.STEMS_CACHED + 10):
            stem(f"w{number}")
        assert stem("migrations") == before == stem("migrate")
        assert stem("runnings") == stem("running") == "run"
        assert terms("the gardeners were planting") == terms("gardener planted")
    finally:
        text_module._STEMS.clear()


def test_a_german_dates_day_ends_no_sentence():
    said = "Die Hochzeit ist am 13. Juni in Hamburg. Danach fahren wir heim."
    assert text_module.SENTENCE_BREAK.split(said) == [
        "Die Hochzeit ist am 13. Juni in Hamburg.",
        "Danach fahren wir heim.",
    ]
