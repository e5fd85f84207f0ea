"""Importance by SPEC §5, matched as whole words; the old skill's substring traps are regression tests."""

from __future__ import annotations

import pytest

from hippocampus.ingestion.scoring import score, QUESTION, SMALL_TALK

TABLE = [
    # (text, role, value, rule, domain/category)
    ("Remember that the dentist moved my appointment to Friday 16:30.", "user", 0.92, "explicit", "user/context"),
    ("Don't forget: Maria's birthday party is on the 14th at her place", "user", 0.92, "explicit", "user/context"),
    ("I am worried about the deadline tomorrow for the grant proposal", "user", 0.90, "deadline", "user/context"),
    ("The visa interview is important, it's tomorrow morning at 9", "user", 0.90, "deadline", "user/context"),
    ("I feel really tired of all these meetings lately", "user", 0.85, "emotional", "user/context"),
    ("I'm scared of flying, especially long-haul", "user", 0.85, "emotional", "user/emotions"),
    ("I hate waking up early on Mondays", "user", 0.85, "loves", "user/preferences"),
    ("Thanks, the checklist you wrote was really helpful!!", "user", 0.82, "feedback", "relationship/feedback"),
    ("I prefer oat milk flat whites", "user", 0.80, "preference", "user/preferences"),
    ("I never drink coffee after 3pm", "user", 0.80, "preference", "user/preferences"),
    ("We decided to use Postgres instead of MySQL for the app", "user", 0.75, "decision", "world/decisions"),
    ("I'm working on the migration project for the billing service", "user", 0.65, "project", "world/projects"),
    (
        "The weather in Lisbon was mild and sunny all week, with a cool breeze by the river every evening and "
        "surprisingly few tourists around the old town, which made the long walks up to the castle a pleasure "
        "for all of us.",
        "user",
        0.70,
        "long",
        "user/facts",
    ),
    ("The new espresso machine at the office makes decent cortados", "user", 0.55, "general", "user/facts"),
    ("The espresso machine at work is broken", "user", 0.50, "general", "user/facts"),
    ("ok sounds good", "user", 0.1, "smalltalk", "user/smalltalk"),
    ("the projector in room 4", "user", 0.0, "short", "user/facts"),
    ("HEARTBEAT_OK", "assistant", 0.0, "noise", "user/noise"),
    ("NO_REPLY", "user", 0.0, "noise", "user/noise"),
    (
        "I am Nova, your assistant; I believe short answers work best for you.",
        "assistant",
        0.70,
        "identity",
        "self/identity",
    ),
    (
        "Got it — dentist moved to Friday 16:30, calendar updated as well.",
        "assistant",
        0.0,
        "assistant",
        "self/replies",
    ),
    ("What time does the pharmacy on Elm Street close?", "user", 0.2, "question", "user/questions"),
]


@pytest.mark.parametrize("text,role,value,rule,shelf", TABLE)
def test_the_scoring_table_gives_the_documented_value_rule_and_shelf(text, role, value, rule, shelf):
    result = score(text, role)
    assert (result.value, result.rule, f"{result.domain}/{result.category}") == (value, rule, shelf)


def test_projector_is_not_project():
    result = score("The projector in room 4 is broken again, can someone fix it")
    assert result.rule != "project" and result.value == 0.55


def test_hi_never_mind_is_not_i_never():
    result = score("hi never mind, that was the wrong chat window sorry about it")
    assert result.rule != "preference" and result.value == 0.55


def test_an_emotional_word_does_not_shadow_a_deadline():
    # The old skill took the first matching rule: "worried" (0.85) hid the deadline rule (0.90).
    result = score("I'm worried: the deadline-critical release is tomorrow and nothing is tested")
    assert (result.value, result.rule) == (0.90, "deadline")


@pytest.mark.parametrize(
    "text",
    [
        "Thanksgiving dinner is at Ana's place this year, bring pie",  # "thanks"
        "The taskbar on my laptop keeps disappearing after updates",  # "task"
        "I likely need to leave early on Friday for the train",  # "i like"
        "It was an unimportant detail of the tomorrow-land exhibit",  # "important"
        "Do you remember that restaurant we went to in Porto last year?",  # a question, not "remember that"
    ],
)
def test_words_inside_other_words_do_not_match(text):
    result = score(text)
    assert result.rule in ("general", "long", "short", "question"), (text, result)


@pytest.mark.parametrize(
    "text",
    [
        "What time does the pharmacy on Elm Street close?",
        "What kind of assistant do you think you are?",
        "Hey Mel! How was your weekend?",
        "Caroline: What did you do last weekend?",
        "Did we decide on the venue? And is it important?",
    ],
)
def test_a_message_that_only_asks_is_not_a_fact(text):
    result = score(text)
    assert (result.value, result.rule) == (QUESTION, "question"), (text, result)
    assert result.value < 0.5  # below the default threshold: kept only by a run that keeps every message


@pytest.mark.parametrize(
    "text,rule",
    [
        ("Can you remember that my flight is at 9?", "explicit"),  # asks to remember: a fact all the same
        ("I feel lost, what should I do?", "emotional"),  # says something before it asks
        ("We decided on PostgreSQL.", "decision"),
    ],
)
def test_a_message_that_says_something_is_scored_by_what_it_says_even_with_a_question(text, rule):
    assert score(text).rule == rule


def test_a_statement_the_user_asks_to_note_down_is_an_explicit_note_on_the_shelf_of_what_it_says():
    found = score("We decided on PostgreSQL. Can you note it down?")
    assert (found.rule, found.domain, found.category) == ("explicit", "world", "decisions")


def test_the_agent_s_replies_count_only_when_it_says_who_it_is():
    assert score("I prefer to double-check the calendar before I answer", "assistant").value == 0.0
    assert score("My name is Nova and I am your assistant", "assistant").rule == "identity"


def test_cjk_text_counts_by_its_meaning_not_its_character_count():
    assert score("来週の金曜日に東京で山田さんと会議があります。").value > 0


def test_thanks_only_count_from_the_user():
    assert score("Thanks for waiting, here is the summary of the meeting notes", "assistant").value == 0.0


@pytest.mark.parametrize(
    "text",
    [
        "Thanks",
        "Thanks!! 🙏",
        "Perfect, thanks.",
        "That matches my experience, thank you.",
        "Thanks, that was really helpful!!",
        "Great job, you're the best!",
        "haha ok",
        "lol that's so true",
        "ok sounds good",
        "Yes please, let's do that.",
        "Hey Mel! Good to see you! How have you been?",
        "Caroline: Hey Mel! Good to see you! How have you been?",
        "Good night, talk tomorrow!",
        "Can you remind me what we decided about the database?",
        "Can you give me a recap of what we discussed today? I feel like I lost track.",
    ],
)
def test_thanks_acknowledgements_laughter_greetings_and_recap_requests_are_small_talk(text):
    result = score(text)
    assert (result.value, result.rule, result.category) == (SMALL_TALK, "smalltalk", "smalltalk"), (text, result)
    assert result.value < 0.5  # never a memory of its own at the default threshold, never core


def test_the_agent_s_small_talk_is_small_talk_too():
    assert score("Glad it helped! 🎉", "assistant").rule == "smalltalk"
    assert score("You're welcome, Maya!", "assistant").rule == "smalltalk"


@pytest.mark.parametrize(
    "text,rule",
    [
        ("Thanks Nova, the migration checklist you wrote was really helpful. Great job!", "feedback"),
        ("Thank you so much for booking the restaurant", "feedback"),
        ("Quiet Sunday. Thanks for this month, you have been a great help with Atlas and Penny.", "feedback"),
        ("Thanks, I'll book the Thai place for Saturday myself", "general"),  # thanks, then a plan: not feedback
        ("Perfect, thanks. I totally forgot about the passport thing", "general"),
    ],
)
def test_gratitude_is_feedback_only_when_it_says_what_for(text, rule):
    assert score(text).rule == rule


def test_a_message_is_scored_by_what_it_says_once_its_small_talk_is_set_aside():
    result = score("Haha thanks! Remember that the gate code for the garden is 2291.")
    assert result.rule == "explicit"
    assert score("Give me a recap of the Atlas plan, the cut-over is May 12.").rule != "smalltalk"
