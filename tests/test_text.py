"""Words, stems and token estimates."""

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
