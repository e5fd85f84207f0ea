"""Signals → memories: concise content, the same-fact test, reinforcement, updates with history, trust, sources."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from hippocampus.ingestion import encoding
from hippocampus.ingestion.candidates import READ, Candidates
from hippocampus.ingestion.facts import Said, asserted, replaced_values, values_of
from hippocampus.ingestion.summary import concise, keywords_of, rewrite_sentence, summarise
from hippocampus.model import Index, Memory, UNTRUSTED_CEILING
from hippocampus.ingestion.transcripts import Signal
from hippocampus.terms import topic_terms

NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)


def signal(seq: int, text: str, day: int = 1, role: str = "user", session: str | None = None, **extra) -> Signal:
    return Signal(
        seq=seq,
        id=f"m{seq:04d}",
        session=session or f"s{seq}",
        role=role,
        text=text,
        timestamp=f"2026-02-{day:02d}T10:00:00Z",
        **extra,
    )


def encode(texts: list[str], index: Index | None = None, **kw) -> tuple[Index, encoding.Outcome]:
    index = index or Index(memories=[], meta={})
    signals = [signal(i + 1, t, day=i + 1) for i, t in enumerate(texts)]
    return index, encoding.encode(index, signals, NOW, **kw)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("I prefer oat milk flat whites", "User prefers oat milk flat whites"),
        ("I always take the 8:10 train to Leipzig", "User always takes the 8:10 train to Leipzig"),
        ("I don't like cilantro in my food", "User doesn't like cilantro in their food"),
        ("I'm allergic to peanuts", "User is allergic to peanuts"),
        ("My sister Maria lives in Porto", "User's sister Maria lives in Porto"),
        ("I went to Porto with Maria", "User went to Porto with Maria"),
        ("I'd rather fly than take the night train", "User would rather fly than take the night train"),
        ("I zorb the frobnicator daily", "User zorbs the frobnicator daily"),  # after "I" comes a verb
        ("I think I should call Maria", "User thinks they should call Maria"),  # the user once, then "they"
        (
            "My sister's wedding is in Lisbon on June 14th and I am bringing the rings",
            "User's sister's wedding is in Lisbon on June 14th and they are bringing the rings",
        ),
        ("Yesterday I woke up at 5 and my back hurt", "Yesterday the user woke up at 5 and their back hurt"),
        ("Tom gave me his old bike and I was happy", "Tom gave the user his old bike and they were happy"),
        ("I'd booked the table already", "User had booked the table already"),
        ("I, for one, disagree", "I, for one, disagree"),  # no verb after "I": left as said
    ],
)
def test_first_person_becomes_the_user_only_where_it_is_reliable(text, expected):
    assert rewrite_sentence(text) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        (
            "I prefer oat milk flat whites in the morning, please keep that in mind",
            "User prefers oat milk flat whites in the morning",
        ),
        (
            "I prefer oat milk flat whites, by the way. Never regular milk.",
            "User prefers oat milk flat whites. Never regular milk.",
        ),
        (
            "Don't forget: the dentist moved my appointment to Friday 16:30. It's important.",
            "The dentist moved the user's appointment to Friday 16:30.",
        ),
        (
            "Remember that my sister's wedding is in Lisbon on June 14th and I am bringing the rings",
            "User's sister's wedding is in Lisbon on June 14th and they are bringing the rings",
        ),
        (
            "Thanks Nova, the migration checklist you wrote was really helpful. Great job!",
            "Thanks Nova, the migration checklist you wrote was really helpful.",
        ),
        ("Haha ok. My gym locker, by the way, is number 12.", "User's gym locker, is number 12."),
    ],
)
def test_a_summary_speaks_of_the_user_in_the_third_person_without_filler_or_small_talk(text, expected):
    assert concise(text) == expected


def test_what_a_summary_leaves_out_as_small_talk_stays_searchable_as_its_detail():
    content, detail = summarise("Haha thanks! Remember that the gate code for the garden is 2291.")
    assert content == "The gate code for the garden is 2291." and detail == "Haha thanks!"


def test_a_speaker_s_labelled_words_stay_theirs_and_keep_the_label():
    assert (
        concise("Caroline: The support group has made me feel accepted.", first_person=True)
        == "Caroline: The support group has made me feel accepted."
    )
    assert (
        concise("Caroline: Hey Mel! Remember that I went to the LGBTQ support group.")
        == "Caroline: I went to the LGBTQ support group."
    )


def test_a_memory_drops_greetings_and_the_remember_phrase_and_keeps_numbers_and_names():
    text = "Morning! Remember that the dentist moved my appointment to Friday 16:30."
    assert concise(text) == "The dentist moved the user's appointment to Friday 16:30."


def test_a_long_message_is_cut_to_about_200_characters_keeping_the_sentence_that_matters():
    text = (
        "So yesterday was long. " * 6
        + "I prefer oat milk flat whites from the place on Kastanienallee 12. "
        + "Anyway the weather was grey and the tram was late again as usual. " * 3
    )
    out = concise(text, matched=("i prefer",))
    assert len(out) <= 200
    assert "User prefers oat milk flat whites from the place on Kastanienallee 12." in out


def test_keywords_put_names_and_numbers_first():
    words = keywords_of("User's sister Maria moved to Porto on 2026-03-14")
    assert words[:3] == ["maria", "porto", "2026-03-14"]


def test_values_are_numbers_dates_names_and_day_names():
    assert values_of("The dentist moved the user's appointment to Friday 16:30 with Dr Okafor") == {
        "16:30",
        "friday",
        "dr",
        "okafor",
    }


def test_oat_milk_said_in_three_sessions_is_one_memory_reinforced_twice():
    index, outcome = encode(["I prefer oat milk flat whites"] * 3)
    assert len(index.memories) == 1
    memory = index.memories[0]
    assert memory.timesReinforced == 2
    assert len(memory.sources) == 3
    assert (len(outcome.new), len(outcome.reinforced)) == (1, 2)
    assert memory.importance > 0.8


def test_two_lockers_with_alike_words_are_two_memories():
    index, outcome = encode(
        ["Remember that the locker code for unit 12 is 4417", "Remember that the locker code for unit 19 is 8803"]
    )
    assert [m.content for m in index.memories] == [
        "The locker code for unit 12 is 4417",
        "The locker code for unit 19 is 8803",
    ]
    assert outcome.reinforced == []


def test_a_changed_value_updates_the_memory_and_keeps_the_old_one_in_history():
    index, outcome = encode(["Remember my locker code is 4417", "my locker code is now 5521"])
    assert len(index.memories) == 1
    memory = index.memories[0]
    assert "5521" in memory.content and "4417" not in memory.content
    # When the old value was said and until when it held (`ts`, as earlier versions wrote it, is when it changed).
    assert memory.history == [
        {
            "ts": "2026-02-02T10:00:00Z",
            "content": "User's locker code is 4417",
            "from": "2026-02-01T10:00:00Z",
            "until": "2026-02-02T10:00:00Z",
        }
    ]
    assert "4417" not in memory.keywords
    assert outcome.updated == [memory.id]


def test_a_changed_value_of_another_unit_is_not_an_update():
    index, _ = encode(
        ["Remember that the locker code for unit 12 is 4417", "the locker code for unit 19 is now 8803, remember that"]
    )
    assert len(index.memories) == 2
    assert index.memories[0].history == []


def test_the_same_value_again_without_a_change_word_is_a_reinforcement():
    index, outcome = encode(["Remember my locker code is 4417", "remember: my locker code is 4417"])
    assert len(index.memories) == 1 and outcome.reinforced == [index.memories[0].id]


def test_a_new_name_in_the_same_words_is_a_new_memory():
    index, _ = encode(
        [
            "I'm meeting my friend Sarah for climbing every Thursday evening",
            "I'm meeting my friend Tom for climbing every Thursday evening",
        ]
    )
    assert len(index.memories) == 2


def test_remember_this_items_are_explicit_and_keep_it_when_reinforced():
    index, _ = encode(
        ["I prefer aisle seats on trains to Hamburg", "Remember that I prefer aisle seats on trains to Hamburg"]
    )
    assert len(index.memories) == 1
    assert index.memories[0].extra.get("kind") == "explicit"
    assert index.memories[0].importance >= 0.92


def test_every_memory_records_its_sources():
    index, _ = encode(["I prefer oat milk flat whites", "We decided to move the standup to 9:30 every Monday"])
    for memory in index.memories:
        assert memory.sources and all(set(s) == {"session", "message", "ts"} for s in memory.sources)


def test_a_message_already_a_source_is_never_encoded_again():
    index, _ = encode(["I prefer oat milk flat whites"])
    again = encoding.encode(index, [signal(1, "I prefer oat milk flat whites", day=1)], NOW)
    assert again.duplicates == 1 and index.memories[0].timesReinforced == 0


def test_secrets_never_reach_a_memory():
    index, _ = encode(["Remember that the deploy key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789 for prod"])
    assert "sk-proj" not in index.memories[0].content
    assert "[REDACTED:openai-key]" in index.memories[0].content
    assert not any("sk-proj" in k for k in index.memories[0].keywords)


def test_untrusted_words_are_kept_as_an_observation_never_merged_with_the_owner_s():
    index = Index(memories=[], meta={})
    encoding.encode(index, [signal(1, "I prefer oat milk flat whites", day=1)], NOW)
    outcome = encoding.encode(
        index, [signal(2, "I prefer oat milk flat whites", day=2, sender="Bob", trust="untrusted")], NOW
    )
    assert len(index.memories) == 2 and outcome.new
    stranger = index.memories[1]
    assert stranger.untrusted and stranger.content == "Bob said: I prefer oat milk flat whites"
    assert stranger.importance <= UNTRUSTED_CEILING
    assert stranger.domain == "world"
    assert index.memories[0].timesReinforced == 0


def test_relative_days_carry_the_day_they_were_said():
    index, _ = encode(["I am worried about the deadline tomorrow for the grant proposal"])
    assert index.memories[0].content.endswith("(said 2026-02-01)")


def test_the_local_time_hint_gives_the_day_it_was_said():
    index = Index(memories=[], meta={})
    encoding.encode(
        index, [signal(1, "Remember the visa interview is tomorrow at 9", day=1, local="2026-02-02T00:30+09:00")], NOW
    )
    assert index.memories[0].content.endswith("(said 2026-02-02)")


def test_noise_and_small_talk_alone_are_skipped_and_a_message_below_the_threshold_is_kept_in_the_background():
    index, outcome = encode(["ok", "HEARTBEAT_OK", "The espresso machine at work is broken"], min_importance=0.55)
    assert outcome.skipped == 2
    [kept] = index.memories
    assert kept.content == "The espresso machine at work is broken"
    assert kept.importance == encoding.EPISODE_HEAD


def test_the_agent_s_identity_becomes_a_self_memory():
    index = Index(memories=[], meta={})
    encoding.encode(
        index,
        [signal(1, "I am Nova, your assistant; I believe short answers work best for you.", role="assistant")],
        NOW,
    )
    assert (index.memories[0].domain, index.memories[0].category) == ("self", "identity")


def test_ids_continue_after_the_highest_ever_given():
    index = Index(memories=[Memory(id="mem_041", content="User prefers tea")], meta={})
    encode(["I prefer oat milk flat whites with cinnamon"], index=index)
    assert index.memories[-1].id == "mem_042"


class CountingCandidates(Candidates):
    """Counts the memories whose similarity is computed, to show lookup never walks the whole store."""

    compared = 0

    def similarity(self, topic, other, weights=None, topic_total=None):
        CountingCandidates.compared += 1
        return super().similarity(topic, other, weights, topic_total)


def test_candidate_lookup_compares_only_memories_that_share_a_rare_term():
    memories = [
        Memory(id=f"mem_{i:05d}", content=f"Meeting notes {i} about quarterly budget review number {i}")
        for i in range(3000)
    ]
    memories.append(Memory(id="mem_99999", content="User prefers oat milk flat whites"))
    lookup = CountingCandidates(memories)
    CountingCandidates.compared = 0
    found = lookup.lookup(topic_terms("User prefers oat milk flat whites"), untrusted=False)
    assert found[0][0].id == "mem_99999"
    assert CountingCandidates.compared < 10


class ReadingCandidates(Candidates):
    """Notes how many holders of its terms each lookup reads."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reads: list[int] = []

    def lookup(self, *args, **kwargs):
        before = self.holders_read
        found = super().lookup(*args, **kwargs)
        self.reads.append(self.holders_read - before)
        return found


def one_session(count: int) -> list[Signal]:
    """One session of `count` messages two minutes apart, about the same few dozen things: every word of a message
    has many holders among the memories before it, more as the session goes on."""
    things = """garden bread bike coffee piano river budget laptop invoice yoga train soup kitchen guitar rent tennis
        dentist concert passport ticket flower lesson museum harbour camera jacket novel pottery market ferry lantern
        violin orchard bakery canvas helmet tractor compass""".split()
    rng = random.Random(7)
    start = datetime(2026, 1, 5, 8, tzinfo=timezone.utc)
    out = []
    for n in range(count):
        said = rng.sample(things, 8)
        user = n % 2 == 0
        out.append(
            Signal(
                seq=n + 1,
                id=f"m{n:05d}",
                session="agent:main:main",
                timestamp=(start + timedelta(minutes=2 * n)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                role="user" if user else "assistant",
                text=f"Remember the {' '.join(said)}" if user else f"Noted, the {said[0]} and the {said[1]}.",
            )
        )
    return out


def test_what_a_lookup_reads_does_not_grow_with_its_session():
    # OpenClaw's main session lives for weeks: a message's same-fact lookup reads the holders of its rarest terms,
    # READ at most, not every memory of the session sharing a common word (counted, not timed).
    index = Index(memories=[], meta={})
    lookup = ReadingCandidates(index.memories)
    outcome = encoding.encode(index, one_session(4000), NOW, lookup=lookup)
    assert len(outcome.new) > 1500 and len(lookup.reads) == 2000  # a lookup for each of the user's messages
    assert max(lookup.reads) <= READ
    # the lookups of messages 3,700 to 4,000 read no more than those of messages 2,200 to 2,500
    assert sum(lookup.reads[1850:2000]) <= 1.1 * sum(lookup.reads[1100:1250])


def test_signals_of_one_batch_reinforce_each_other():
    index = Index(memories=[], meta={})
    outcome = encoding.encode(
        index,
        [
            signal(1, "I prefer oat milk flat whites", day=3),
            signal(2, "I prefer oat milk flat whites", day=3, session="other"),
        ],
        NOW,
    )
    assert len(index.memories) == 1 and len(outcome.reinforced) == 1


def test_at_min_importance_zero_every_message_but_noise_becomes_a_memory():
    index = Index(memories=[], meta={})
    signals = [
        signal(1, "ok sounds good"),
        signal(2, "Got it, dentist on Friday at 16:30.", role="assistant"),
        signal(3, "Can you remind me what we decided about the database?"),
        signal(4, "HEARTBEAT_OK"),
        signal(5, "NO_REPLY", role="assistant"),
    ]
    outcome = encoding.encode(index, signals, NOW, min_importance=0)
    assert [m.sources[0]["message"] for m in index.memories] == ["m0001", "m0002", "m0003"]
    assert outcome.skipped == 2
    assert (index.memories[1].domain, index.memories[1].category) == ("self", "replies")


def test_at_the_default_threshold_short_messages_replies_and_questions_are_no_memories_of_their_own():
    index = Index(memories=[], meta={})
    signals = [
        signal(1, "The dentist moved my appointment to Friday 16:30", session="s"),
        signal(2, "Got it, dentist on Friday at 16:30.", role="assistant", session="s"),
        signal(3, "ok sounds good", session="s"),
        signal(4, "Which dentist was that again?", session="s"),
    ]
    outcome = encoding.encode(index, signals, NOW)
    [memory] = index.memories
    assert memory.content == "The dentist moved the user's appointment to Friday 16:30 (said 2026-02-01)"
    assert [t["source"]["message"] for t in memory.episode] == ["m0002", "m0003", "m0004"]
    assert outcome.skipped == 0 and len(outcome.attached) == 3


# --- episodes: what the threshold leaves out stays recallable -------------------------------------------------


def test_the_agent_s_reply_is_attached_to_the_memory_of_its_session_with_its_own_source():
    index = Index(memories=[], meta={})
    signals = [
        signal(1, "I need to renew my passport before the trip to Osaka", session="s"),
        signal(
            2, "Your passport appointment is at the Harbor Street office on October 9.", role="assistant", session="s"
        ),
    ]
    encoding.encode(index, signals, NOW)
    [memory] = index.memories
    assert "passport" in memory.content and "Harbor" not in memory.content  # the memory is the user's statement
    [turn] = memory.episode
    assert turn == {
        "text": "Your passport appointment is at the Harbor Street office on October 9.",
        "role": "assistant",
        "source": {"session": "s", "message": "m0002", "ts": "2026-02-01T10:00:00Z"},
    }
    assert ("s", "m0002") in Candidates(index.memories).held
    again = encoding.encode(index, [signals[1]], NOW)
    assert again.duplicates == 1 and len(memory.episode) == 1


def test_turns_before_a_session_s_first_memory_are_attached_to_it():
    index = Index(memories=[], meta={})
    encoding.encode(
        index,
        [
            signal(1, "Hey! How was the weekend?", role="assistant", session="s"),
            signal(2, "Great, I finally climbed the north face of the Zugspitze", session="s"),
        ],
        NOW,
    )
    [memory] = index.memories
    assert [t["source"]["message"] for t in memory.episode] == ["m0001"]


def test_a_question_goes_with_the_memory_of_its_answer_and_a_reply_with_what_it_replies_to():
    index = Index(memories=[], meta={})
    encoding.encode(
        index,
        [
            signal(1, "On weekends I'm building a small budgeting app in Rust, called Penny", session="s"),
            signal(2, "Penny sounds fun. Which part are you working on first?", role="assistant", session="s"),
            signal(3, "The import of bank statements from two banks, with rules I can edit by hand", session="s"),
            signal(4, "A rule file plus a CSV importer per bank is a good start.", role="assistant", session="s"),
            signal(5, "Anything else I should plan for?", session="s"),
        ],
        NOW,
    )
    penny, statements = index.memories
    assert penny.episode == []
    assert [t["source"]["message"] for t in statements.episode] == ["m0002", "m0004", "m0005"]


def test_a_question_answered_by_the_agent_at_the_end_of_a_run_is_held_by_the_answer_in_the_background():
    index = Index(memories=[], meta={})
    encoding.encode(
        index,
        [
            signal(1, "Thanks Nova, the migration checklist you wrote was really helpful.", session="s"),
            signal(2, "Can you remind me what we decided about the database?", session="s"),
            signal(3, "We chose PostgreSQL over MongoDB for Atlas, in two steps.", role="assistant", session="s"),
        ],
        NOW,
    )
    thanks, answer = index.memories
    assert thanks.episode == [] and answer.content.startswith("We chose PostgreSQL over MongoDB")
    assert answer.importance == encoding.EPISODE_HEAD and [t["source"]["message"] for t in answer.episode] == ["m0002"]
    # A question no one has answered yet goes with the session's memory so far.
    encoding.encode(index, [signal(4, "And which hosting did we pick?", session="s")], NOW)
    assert [t["source"]["message"] for t in answer.episode] == ["m0002", "m0004"]


def test_the_agent_s_answer_to_a_question_holds_the_question_and_what_follows_starts_afresh():
    index = Index(memories=[], meta={})
    encoding.encode(
        index,
        [
            signal(1, "I'm renewing my passport before the Osaka trip in May", session="s"),
            signal(2, "When is my passport appointment?", session="s"),
            signal(3, "It is at the Harbor Street office on October 9 at 10:30.", role="assistant", session="s"),
            signal(4, "great, thanks", session="s"),
            signal(5, "I also need to book the flight to Osaka with Lea", session="s"),
        ],
        NOW,
    )
    passport, answer, flight = index.memories
    assert passport.episode == [] and flight.episode == []
    assert answer.content.startswith("It is at the Harbor Street office") and answer.importance == encoding.EPISODE_HEAD
    assert [t["source"]["message"] for t in answer.episode] == ["m0002", "m0004"]


def test_a_session_without_a_memory_of_its_own_keeps_its_most_informative_turn_in_the_background():
    index = Index(memories=[], meta={})
    outcome = encoding.encode(
        index,
        [
            signal(1, "When is my passport appointment?", session="s"),
            signal(2, "It is at the Harbor Street office on October 9 at 10:30.", role="assistant", session="s"),
            signal(3, "thanks!", session="s"),
        ],
        NOW,
    )
    [head] = index.memories
    assert head.content.startswith("It is at the Harbor Street office on October 9")
    assert head.importance == encoding.EPISODE_HEAD and outcome.new == [head.id]
    assert [t["source"]["message"] for t in head.episode] == ["m0001", "m0003"]


def test_a_session_of_small_talk_alone_makes_no_memory():
    index = Index(memories=[], meta={})
    outcome = encoding.encode(
        index,
        [
            signal(1, "Morning!", session="s"),
            signal(2, "Good morning, Maya! 🙂", role="assistant", session="s"),
            signal(3, "haha thanks", session="s"),
        ],
        NOW,
    )
    assert index.memories == [] and outcome.skipped == 3


def test_a_later_run_attaches_to_the_memory_an_earlier_run_made_for_the_session():
    index = Index(memories=[], meta={})
    encoding.encode(
        index,
        [
            signal(1, "I'm planning a trip to Kyoto in April", session="s"),
            signal(2, "I'm booking the ryokan in Gion for three nights", session="s"),
        ],
        NOW,
    )
    outcome = encoding.encode(
        index, [signal(3, "The ryokan is called Hanami-an, near Yasaka shrine.", role="assistant", session="s")], NOW
    )
    first, second = index.memories
    assert first.episode == [] and [t["source"]["message"] for t in second.episode] == ["m0003"]
    assert outcome.attached == [second.id]


def test_a_stranger_s_attached_turn_stays_marked_as_a_stranger_s_words():
    index = Index(memories=[], meta={})
    encoding.encode(
        index,
        [
            signal(1, "I'm organising the climbing trip for Saturday", session="g"),
            signal(2, "ok cool", session="g", sender="Bob", trust="untrusted"),
        ],
        NOW,
    )
    [memory] = index.memories
    [turn] = memory.episode
    assert turn["trust"] == "untrusted" and turn["text"] == "Bob said: ok cool"


def test_an_attached_turn_is_redacted_like_everything_else():
    index = Index(memories=[], meta={})
    encoding.encode(
        index,
        [
            signal(1, "I'm setting up the deploy pipeline for Atlas today", session="s"),
            signal(2, "Use the key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789 for it.", role="assistant", session="s"),
        ],
        NOW,
    )
    [turn] = index.memories[0].episode
    assert "sk-proj" not in turn["text"] and "[REDACTED:openai-key]" in turn["text"]


def test_a_session_s_latest_memory_is_found_through_every_message_a_memory_of_the_run_took_in():
    # Made in session a, then said again in session b (a reinforcement) and answered there (an attached turn): a
    # later run with the same lookup finds it as session b's memory, as the whole index says.
    index = Index(memories=[], meta={})
    lookup = Candidates(index.memories)
    encoding.encode(
        index,
        [
            signal(1, "I prefer oat milk flat whites in the morning", day=1, session="a"),
            signal(2, "I prefer oat milk flat whites in the morning", day=2, session="b"),
            signal(3, "Noted: oat milk flat whites every morning.", day=3, role="assistant", session="c"),
            signal(4, "I prefer oat milk flat whites in the morning", day=3, session="c"),
        ],
        NOW,
        lookup=lookup,
    )
    [memory] = index.memories
    encoding.encode(
        index,
        [signal(5, "Sounds good, oat milk it is.", day=2, role="assistant", session="b")],
        NOW,
        lookup=lookup,
    )
    assert [t["source"]["message"] for t in memory.episode] == ["m0003", "m0005"]
    for session in ("a", "b", "c", "d"):
        held = [
            (max(s["ts"] for s in m.every_source() if s["session"] == session), len(m.id), m.id)
            for m in index.memories
            if any(s["session"] == session for s in m.every_source())
        ]
        found = lookup.latest_in_session(session)
        assert (found and found.id) == (max(held)[2] if held else None), session


def test_an_episode_holds_at_most_its_limit_of_turns_and_the_next_one_starts_a_memory():
    index = Index(memories=[], meta={})
    replies = [
        signal(i, f"Reply number {i} about the Atlas migration step {i}", role="assistant", session="s")
        for i in range(2, encoding.EPISODE_TURNS + 4)
    ]
    encoding.encode(index, [signal(1, "I'm working on the Atlas migration this month", session="s"), *replies], NOW)
    first, second = index.memories
    assert len(first.episode) == encoding.EPISODE_TURNS
    assert second.importance == encoding.EPISODE_HEAD
    assert len(first.episode) + 1 + len(second.episode) == len(replies)


def test_small_talk_said_again_and_again_never_grows_out_of_the_background():
    index = Index(memories=[], meta={})
    encoding.encode(index, [signal(i, "Thanks!!", day=1 + i % 20) for i in range(1, 40)], NOW, min_importance=0)
    [memory] = index.memories
    assert memory.timesReinforced == 38 and memory.importance <= encoding.SMALL_TALK_CEILING


def test_turns_of_two_speakers_with_a_name_label_are_kept_apart():
    index = Index(memories=[], meta={})
    signals = [signal(1, "Nate: Bye!"), signal(2, "Joanna: Bye Nate!", role="assistant")]
    encoding.encode(index, signals, NOW, min_importance=0)
    assert len(index.memories) == 2


def test_what_a_long_message_s_summary_leaves_out_is_kept_as_its_detail():
    tail = "We also talked about the pottery class on Sunday and the blue bowl my kids painted there."
    text = "I went to the LGBTQ support group yesterday and it was powerful. " * 3 + tail
    index, _ = encode([text])
    memory = index.memories[0]
    assert len(memory.content) <= encoding.CONTENT_LIMIT and "pottery" not in memory.content
    assert "pottery class on Sunday" in memory.extra["detail"]
    assert memory.content.endswith("(said 2026-02-01)")


def test_a_short_message_has_no_detail():
    index, _ = encode(["I prefer oat milk flat whites"])
    assert "detail" not in index.memories[0].extra


def test_a_memory_keeps_words_of_the_message_it_answered_as_context():
    index = Index(memories=[], meta={})
    signals = [
        signal(1, "Why did you name the stuffed dog Tilly?", role="assistant", session="s"),
        signal(2, "I used to have a dog back in Michigan with that name, but I got allergic.", session="s"),
        signal(3, "I'm building a treehouse with Tom this summer", session="other"),
    ]
    encoding.encode(index, signals, NOW)
    answer, other = index.memories
    assert answer.extra["context"] == "Why did you name the stuffed dog Tilly?"
    assert "context" not in other.extra  # the first message of its session answers nothing


def test_the_message_a_memory_answered_is_kept_up_to_forty_words_and_the_one_after_it_as_its_reply():
    index = Index(memories=[], meta={})
    question = "So tell me " + " ".join(f"word{i}" for i in range(60)) + "?"
    encoding.encode(
        index,
        [
            signal(1, question, role="assistant", session="s"),
            signal(2, "I grew up in Michigan with a dog called Tilly", session="s"),
            signal(3, "I'm moving to Denver for a job at the planetarium", session="s"),
        ],
        NOW,
    )
    first, second = index.memories
    assert first.extra["context"].split(" ")[:3] == ["So", "tell", "me"]
    assert len(first.extra["context"].split(" ")) == encoding.CONTEXT_WORDS + 1  # and a closing "…"
    assert first.extra["reply"] == "I'm moving to Denver for a job at the planetarium"
    assert "reply" not in second.extra


def test_the_same_preference_in_other_words_and_asides_reinforces_one_memory():
    index, outcome = encode(
        [
            "I prefer oat milk flat whites, by the way. Never regular milk.",
            "Flat white with oat milk again please. I prefer it over cappuccino.",
        ]
    )
    assert len(index.memories) == 1 and len(outcome.reinforced) == 1


def test_a_long_remember_this_keeps_the_sentence_that_asked_to_be_remembered():
    steps = " ".join(
        f"Step {i}: fold the dough gently, rest it thirty minutes, keep the kitchen warm." for i in range(9)
    )
    text = f"Remember this: my grandmother Edna's sourdough recipe is the one to keep. {steps}"
    content, detail = summarise(text, ("remember this",))
    assert content.startswith("User's grandmother Edna's sourdough recipe is the one to keep."), content
    assert "Step 8" in detail


# --- a value said of another subject is another fact ---------------------------------------------------------


def test_a_number_of_the_memory_said_of_another_thing_changes_that_thing_only_and_is_no_reinforcement():
    index, outcome = encode(["Remember the gate code is 1290 and the alarm code is 12", "Remember the gate code is 12"])
    # The gate code is now 12; the alarm code, which was 12 already, stays as it was said.
    assert [m.content for m in index.memories] == ["The gate code is 12 and the alarm code is 12"]
    assert outcome.reinforced == [] and outcome.updated == ["mem_001"]
    assert index.memories[0].history[-1]["content"] == "The gate code is 1290 and the alarm code is 12"


def _family_store() -> Index:
    # Tom and his son come up often, so those words weigh little and "Bob is 12" reads as the same topic.
    hobbies = "football swimming chess piano drawing reading maths science history music".split()
    return Index(
        memories=[
            Memory(id=f"mem_{i:03d}", content=f"User's son Tom had a great {hobby} lesson today")
            for i, hobby in enumerate(hobbies)
        ],
        meta={},
    )


def test_an_age_said_of_the_other_person_changes_that_person_s_age_only_and_is_no_reinforcement():
    index = _family_store()
    outcome = encoding.encode(
        index,
        [
            signal(1, "Remember that Bob is 40 and his son Tom is 12", day=1),
            signal(2, "Remember that Bob is 12", day=2),
        ],
        NOW,
    )
    # Bob's age is what was said last; Tom's, which was 12 already, stays as it was said.
    assert [m.content for m in index.memories[10:]] == ["Bob is 12 and his son Tom is 12"]
    assert outcome.reinforced == [] and outcome.updated == [index.memories[10].id]


def test_an_age_said_of_another_person_is_a_new_memory_not_a_change():
    index = _family_store()
    outcome = encoding.encode(
        index,
        [
            signal(1, "Remember that Bob is 40 and his son Tom is 12", day=1),
            signal(2, "Remember that Lea is 12", day=2),
        ],
        NOW,
    )
    assert [m.content for m in index.memories[10:]] == ["Bob is 40 and his son Tom is 12", "Lea is 12"]
    assert outcome.reinforced == [] and outcome.updated == []


def test_the_same_values_swapped_between_two_things_change_both_and_are_no_reinforcement():
    index, outcome = encode(
        [
            "Remember the gate code is 1290 and the alarm code is 12",
            "Remember the gate code is 12 and the alarm code is 1290",
        ]
    )
    assert [m.content for m in index.memories] == ["The gate code is 12 and the alarm code is 1290"]
    assert outcome.reinforced == [] and outcome.updated == ["mem_001"]


def test_a_value_said_again_of_the_same_thing_with_less_around_it_still_reinforces():
    index, outcome = encode(
        ["Remember the gate code is 1290 and the alarm code is 12", "Remember the alarm code is 12"]
    )
    assert len(index.memories) == 1 and outcome.reinforced == [index.memories[0].id]


def test_a_value_of_the_memory_now_said_of_another_thing_updates_it_and_keeps_the_old_words():
    index, outcome = encode(
        ["Remember the gate code is 1290 and the alarm code is 12", "Remember the gate code is now 12"]
    )
    assert len(index.memories) == 1 and outcome.updated == [index.memories[0].id]
    memory = index.memories[0]
    assert memory.content == "The gate code is 12 and the alarm code is 12"  # the alarm code was not changed
    assert memory.history[-1]["content"] == "The gate code is 1290 and the alarm code is 12"


def test_a_short_message_with_another_value_of_a_remembered_thing_updates_it_and_is_not_skipped():
    index, outcome = encode(["Remember my locker code is 4417", "my locker code is 9999"])
    # No word of change is needed: the same holder's attribute with another value is what holds now.
    assert [m.content for m in index.memories] == ["User's locker code is 9999"]
    assert outcome.skipped == 0 and outcome.updated == ["mem_001"]
    assert index.memories[0].history[-1]["content"] == "User's locker code is 4417"


def test_memories_held_as_text_between_signals_encode_the_same_as_memories_held_parsed(monkeypatch):
    said = [
        ("I prefer oat milk flat whites", "user", "a"),
        ("Noted: oat milk flat whites.", "assistant", "a"),
        ("My sister Maria lives in Porto", "user", "a"),
        ("what about the weather there?", "user", "a"),
        ("Sunny most of June.", "assistant", "a"),
        ("We decided to ship the Atlas release on Fridays only", "user", "b"),
        ("ok", "user", "b"),
        ("My locker code is 4410", "user", "b"),
        ("my locker code is now 5521", "user", "c"),
        ("I prefer oat milk flat whites", "user", "c"),
        ("Remember that the dentist is on Friday at 16:30", "user", "c"),
        ("I'll remind you on Thursday evening.", "assistant", "c"),
        ("Actually my sister Maria moved to Lisbon last week", "user", "d"),
        ("Got it, Lisbon now.", "assistant", "d"),
    ] * 3

    def run(every: int) -> tuple[list[dict], list]:
        monkeypatch.setattr(encoding, "SETTLE_EVERY", every)
        index = Index(memories=[], meta={})
        signals = [signal(n + 1, text, day=1 + n // 5, role=role, session=s) for n, (text, role, s) in enumerate(said)]
        outcome = encoding.encode(index, signals, NOW, min_importance=0.3)
        held_as_text = sum(m._raw is None for m in index.memories)
        return [m.stored() for m in index.memories], [outcome.new, outcome.reinforced, outcome.attached, held_as_text]

    settled, parsed = run(2), run(10_000)
    assert settled[0] == parsed[0] and settled[1][:3] == parsed[1][:3]
    assert settled[1][3] > 0 and parsed[1][3] == 0  # the memories were held as text, and read again as they were


def test_a_value_named_as_replaced_is_read_in_any_letter_case_and_before_a_said_note():
    assert asserted("No, actually we use Postgres, not MySQL (said 2026-01-02)") == Said(
        "We use Postgres, not MySQL (said 2026-01-02)", True, frozenset({"mysql"})
    )
    assert asserted("We moved to Porto, not Lisbon") == Said("We moved to Porto", True, frozenset({"lisbon"}))
    # Case-insensitive matching knows more than ASCII: a dotless ı is an "i", a long ſ an "s".
    assert replaced_values("We use Postgres ınstead of MySQL") == {"mysql"}
    assert replaced_values("We ſwitched from Berlin to Paris") == {"berlin"}
    assert replaced_values("Nicht am Montag, sondern am Dienstag") == {"montag"}
    assert replaced_values("Notre équipe utilise Postgres") == set()


def test_a_trailing_reminder_is_left_out_in_any_letter_case():
    # Case-insensitive matching knows more than ASCII: the Kelvin sign is a "K".
    assert summarise("I like green tea, \u212aeep that in mind") == ("User likes green tea", "")
    assert summarise("My locker code is 4417, by the way.") == ("User's locker code is 4417.", "")


@pytest.mark.parametrize(
    "said",
    [
        "¿Qué me recomiendas para no dormirme en el metro?",
        "Me llamo Rocío y tengo 31 años.",
        "Tu peux me conseiller un bon podcast pour le trajet ?",
        "Você pode me ajudar com o meu currículo?",
    ],
)
def test_a_message_in_another_language_is_kept_in_its_words_with_no_english_pronoun(said):
    kept = concise(said)
    assert kept == said and not {"user", "the", "they", "their"} & set(kept.lower().split())


def test_a_title_does_not_end_the_sentence_a_memory_keeps():
    assert concise("My lawyer is Mr. Osei, he is very good.") == "User's lawyer is Mr. Osei, he is very good."


def test_a_memory_that_asks_and_states_a_value_is_marked_as_stating_it():
    # The question around it does not make the value it states a question (search.newest_first reads the marks).
    both = encoding.statement_marks(
        "User is planning a trip to Europe. Can you help the user find hotels in Paris? User has saved enough points"
        " for two free stays at any Hilton, so they might use them in Las Vegas."
    )
    assert both.get("states") == ["_count:stay@user"] and "asks" not in both
    assert encoding.statement_marks("Can you help the user find hotels in Paris?") == {"asks": True}


def test_new_in_a_title_is_no_word_of_change():
    from hippocampus.ingestion.facts import Fact, relation

    older, newer = Fact("Write Chapter 3: Rising to the Challenge"), Fact("Write Chapter 4: New Friends and Foes")
    assert not newer.changes and relation(newer, older, 0.8) is None


def test_an_instruction_to_the_agent_is_no_value_to_change_nor_changes_one():
    from hippocampus.ingestion.facts import Fact, relation

    told = Fact("Don't tell the user what the character is! Choose again")
    later = Fact("Problem, the user doesn't know the characters from there. Tell the user what you chose")
    assert relation(later, told, 0.8) is None
    assert relation(Fact("Write chapter 4 about the storm"), Fact("Write chapter 3 about the storm"), 0.9) is None
