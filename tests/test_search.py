"""Ranking: word boundaries, stemming, IDF, and the named parts of a score."""

from datetime import datetime, timezone

import pytest

from hippocampus import search
from hippocampus.model import Index, Memory
from hippocampus.search import WEIGHTS
from hippocampus.store import cache_writer

NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)


def rank(memories, query, now, meta, **kw):
    return search.rank(cache_writer.in_memory(Index(memories=memories, meta=meta), now.date()), query, now, **kw)


def mem(mid, content, importance=0.5, last="2026-03-01", **extra):
    extra = {k: v for k, v in extra.items() if v is not None}
    return Memory(id=mid, content=content, importance=importance, lastAccessed=last, created=last, extra=extra)


def test_projector_does_not_match_project():
    memories = [mem("mem_001", "The projector in room 4 is broken"), mem("mem_002", "Working on the garden project")]
    assert [h.memory.id for h in rank(memories, "project", NOW, {})] == ["mem_002"]


def test_migration_finds_a_memory_about_migrating():
    memories = [mem("mem_001", "We decided to migrate billing to Postgres"), mem("mem_002", "Lunch was good")]
    hits = rank(memories, "database migration", NOW, {})
    assert [h.memory.id for h in hits] == ["mem_001"]


def test_rare_words_outweigh_common_ones():
    memories = [mem(f"mem_{i:03d}", f"meeting notes number {i}") for i in range(20)]
    memories.append(mem("mem_100", "meeting with the dentist"))
    hits = rank(memories, "dentist meeting", NOW, {}, top=3)
    assert hits[0].memory.id == "mem_100"


def test_each_hit_carries_named_parts_that_add_up_to_its_score():
    hits = rank([mem("mem_001", "User prefers green tea", importance=0.9)], "tea", NOW, {})
    hit = hits[0]
    assert set(hit.parts) == {"relevance", "importance", "recency"}
    assert abs(hit.score - sum(WEIGHTS[k] * v for k, v in hit.parts.items())) < 0.001
    assert hit.parts["importance"] == 0.9 and hit.parts["recency"] == 1.0


def test_importance_and_recency_break_ties_between_equally_relevant_memories():
    memories = [
        mem("mem_001", "likes jazz", importance=0.3, last="2025-01-01"),
        mem("mem_002", "likes jazz", importance=0.9),
    ]
    assert [h.memory.id for h in rank(memories, "jazz", NOW, {})] == ["mem_002", "mem_001"]


def test_top_min_score_and_domain_filter_results():
    memories = [mem("mem_001", "tea time"), mem("mem_002", "tea party"), mem("mem_003", "tea leaves")]
    memories[2].domain = "world"
    assert len(rank(memories, "tea", NOW, {}, top=2)) == 2
    assert rank(memories, "tea", NOW, {}, min_score=0.99) == []
    assert [h.memory.id for h in rank(memories, "tea", NOW, {}, domain="world")] == ["mem_003"]


def test_superseded_and_archived_memories_are_left_out_unless_asked_for():
    memories = [
        mem("mem_001", "office in Berlin", supersededBy="mem_002"),
        mem("mem_002", "office in Lisbon"),
        mem("mem_003", "office party", archived=True),
    ]
    assert [h.memory.id for h in rank(memories, "office", NOW, {})] == ["mem_002"]
    assert len(rank(memories, "office", NOW, {}, include_all=True)) == 3


def test_a_hostile_query_is_just_words():
    memories = [mem("mem_001", "rm is a command"), mem("mem_002", "東京に行った")]
    assert [h.memory.id for h in rank(memories, '"; rm -rf ~; "', NOW, {})] == ["mem_001"]
    assert rank(memories, "</script><img onerror=alert(1)>", NOW, {}) == []
    assert [h.memory.id for h in rank(memories, "東京", NOW, {})] == ["mem_002"]
    assert rank(memories, "🎉🎉", NOW, {}) == []


def test_a_query_of_only_stop_words_matches_nothing_rather_than_everything():
    assert rank([mem("mem_001", "who is there")], "who is", NOW, {}) == []


def test_a_strong_match_outranks_a_weak_one_however_important_the_weak_one_is():
    memories = [
        mem("mem_001", "We talked about the weather", importance=0.95),
        mem("mem_002", "The pottery class on Sunday: we painted a blue bowl", importance=0.1, last="2025-06-01"),
    ]
    assert [h.memory.id for h in rank(memories, "what did we paint at the pottery class", NOW, {})][0] == "mem_002"


def test_the_best_match_has_relevance_one_and_a_weak_lone_match_stays_weak():
    memories = [mem("mem_001", "pottery class on Sunday"), mem("mem_002", "a class")]
    hits = rank(memories, "pottery class", NOW, {})
    assert hits[0].memory.id == "mem_001" and hits[0].parts["relevance"] == 1.0
    lone = rank([mem("mem_003", "the class was fun and long and loud and late")], "pottery class tomorrow", NOW, {})
    assert lone[0].parts["relevance"] < 0.5


def test_the_words_a_summary_left_out_still_find_the_memory():
    memories = [
        mem(
            "mem_001",
            "User went to the support group (said 2026-02-01)",
            detail="We also talked about the pottery class",
        ),
        mem("mem_002", "Lunch was good"),
    ]
    assert [h.memory.id for h in rank(memories, "pottery", NOW, {})] == ["mem_001"]


def test_a_reply_is_found_by_words_of_the_message_it_answered():
    memories = [
        mem("mem_001", "I used to have a dog back in Michigan with that name", context=["tilly", "named"]),
        mem("mem_002", "The dog park is closed"),
    ]
    hits = rank(memories, "why is the dog called Tilly", NOW, {})
    assert hits[0].memory.id == "mem_001" and "tilly" in hits[0].matched


def episode_memory():
    """A memory whose statement is about a passport and whose attached turns say where and when."""
    return mem(
        "mem_001",
        "User needs to renew their passport before the trip to Osaka",
        sources=None,
        episode=[
            {
                "text": "Do you want me to book an appointment?",
                "role": "assistant",
                "source": {"session": "s", "message": "m2", "ts": "2026-02-01T10:01:00Z"},
            },
            {
                "text": "Your passport appointment is at the Harbor Street office on October 9.",
                "role": "assistant",
                "source": {"session": "s", "message": "m4", "ts": "2026-02-01T10:03:00Z"},
            },
        ],
    )


def with_source(memory):
    memory.sources = [{"session": "s", "message": "m1", "ts": "2026-02-01T10:00:00Z"}]
    return memory


def test_a_memory_is_found_by_the_words_of_a_turn_attached_to_it():
    memories = [with_source(episode_memory()), mem("mem_002", "The office kitchen is on the second floor")]
    assert [h.memory.id for h in rank(memories, "Harbor Street", NOW, {})] == ["mem_001"]


def test_a_memory_lists_its_sources_in_the_order_they_match_the_query_and_names_the_matching_turn():
    [hit] = rank([with_source(episode_memory())], "where is the passport appointment office", NOW, {})
    # m4 holds three of the words; the short m2 (one) before the longer statement (one): matches weigh by length
    assert [s["message"] for s in hit.sources] == ["m4", "m2", "m1"]
    assert hit.turn["source"]["message"] == "m4" and hit.turn["role"] == "assistant"
    [hit] = rank([with_source(episode_memory())], "trip to Osaka", NOW, {})
    assert [s["message"] for s in hit.sources] == ["m1", "m2", "m4"]
    assert hit.turn is None  # the memory's own statement matches best: nothing more to show


def test_irregular_forms_find_the_word_they_are_a_form_of():
    memories = [
        mem("mem_001", "Caroline went to the LGBTQ support group with her children"),
        mem("mem_002", "Melanie painted a sunrise over the lake"),
    ]
    assert [h.memory.id for h in rank(memories, "did Caroline go to a support group", NOW, {})][0] == "mem_001"
    assert [h.memory.id for h in rank(memories, "how many kids... which child", NOW, {})] == ["mem_001"]


@pytest.mark.parametrize(
    "question",
    [
        "How many guitars do I own?",
        "how much did the guitars cost?",
        "Combien de guitars ?",
        "Wie viele guitars habe ich?",
        "¿Cuántas guitars tengo?",
        "Quantos guitars eu tenho?",
        "我有多少 guitars？",
    ],
)
def test_the_words_that_ask_how_many_are_the_form_of_the_question_not_what_it_is_about(question):
    memories = [
        mem("mem_001", "I have so many plans for the weekend and so much to do"),
        mem("mem_002", "I bought two guitars"),
        mem("mem_003", "Combien? Wie viele? Cuántas? Quantos? 多少?"),
    ]
    assert [h.memory.id for h in rank(memories, question, NOW, {})] == ["mem_002"]


def test_a_when_question_favours_the_memory_that_says_when():
    memories = [
        mem("mem_001", "Caroline went to the support group meeting at the support group center"),
        mem("mem_002", "Caroline went to the support group yesterday (said 2023-05-08)"),
    ]
    assert [h.memory.id for h in rank(memories, "When did Caroline go to the support group?", NOW, {})] == [
        "mem_002",
        "mem_001",
    ]
    asked_what = rank(memories, "What did Caroline say about the support group?", NOW, {})
    assert "(says when)" not in asked_what[0].matched
    hit = rank(memories, "When did Caroline go to the support group?", NOW, {})[0]
    assert "(says when)" in hit.matched


def test_a_query_word_that_only_says_when_matches_nothing_by_itself():
    memories = [mem("mem_001", "The dentist is on Friday at 16:30")]
    assert rank(memories, "When is the plumber coming?", NOW, {}) == []


def test_the_month_and_year_a_memory_was_made_lean_a_question_towards_it():
    memories = [
        mem("mem_001", "Melanie ran a charity race for mental health", last="2023-05-20"),
        mem("mem_002", "Melanie ran a charity race for mental health", last="2023-07-02"),
    ]
    assert [h.memory.id for h in rank(memories, "charity race in May 2023", NOW, {})][0] == "mem_001"
    assert [h.memory.id for h in rank(memories, "charity race in July 2023", NOW, {})][0] == "mem_002"


def test_the_answer_to_a_matching_question_comes_before_the_question():
    trip = mem(
        "mem_001",
        "User is planning the Kyoto trip for April",
        episode=[
            {
                "text": "Which ryokan did we book in Kyoto?",
                "role": "user",
                "source": {"session": "s", "message": "m2", "ts": "2026-02-01T10:01:00Z"},
            },
            {
                "text": "Hanami-an, near Yasaka shrine, for three nights.",
                "role": "assistant",
                "source": {"session": "s", "message": "m3", "ts": "2026-02-01T10:02:00Z"},
            },
        ],
    )
    [hit] = rank([with_source(trip)], "which ryokan did we book", NOW, {})
    assert [s["message"] for s in hit.sources] == ["m3", "m2", "m1"]
    assert hit.turn["source"]["message"] == "m3"


def test_the_answer_comes_after_a_question_whose_statement_matched_rather_than_what_it_asked():
    stay = mem(
        "mem_001",
        "I was in Japan for two weeks last spring. Can you recommend a budget hotel in Kyoto?",
        sources=[{"session": "s", "message": "m1", "ts": "2026-02-01T10:00:00Z"}],
        episode=[
            {
                "text": "Sure! Here are three good ones, each a short walk from a station.",
                "role": "assistant",
                "source": {"session": "s", "message": "m2", "ts": "2026-02-01T10:01:00Z"},
            }
        ],
    )
    [hit] = rank([stay], "how long was I in Japan", NOW, {})
    assert [s["message"] for s in hit.sources] == ["m1", "m2"], "what was said, then the answer to what was asked"
    [hit] = rank([stay], "budget hotel in Kyoto", NOW, {})
    assert [s["message"] for s in hit.sources] == ["m2", "m1"], "what was asked matched: its answer first"


def test_the_asked_part_of_a_message_is_its_last_sentences_that_ask():
    assert search.asked_part("I was in Japan. Any tips for Kyoto? Or Osaka?") == "Any tips for Kyoto? Or Osaka?"
    assert search.asked_part("Where is it?") == "Where is it?"
    assert search.asked_part("It is in Lisbon.") == ""


def test_a_small_talk_reply_to_a_matching_question_is_not_taken_for_its_answer():
    worry = mem(
        "mem_001",
        "User is worried about the interview at Northwind",
        episode=[
            {
                "text": "Shall we make a short plan: two mock questions a day?",
                "role": "assistant",
                "source": {"session": "s", "message": "m2", "ts": "2026-02-01T10:01:00Z"},
            },
            {
                "text": "Yes please, let's do that.",
                "role": "user",
                "source": {"session": "s", "message": "m3", "ts": "2026-02-01T10:02:00Z"},
            },
        ],
    )
    [hit] = rank([with_source(worry)], "mock questions plan", NOW, {})
    assert hit.turn["source"]["message"] == "m2" and hit.sources[0]["message"] == "m2"


def said(message, minute):
    return {"session": "s", "message": message, "ts": f"2026-02-01T10:{minute:02d}:00Z"}


def test_a_memorys_turns_that_do_not_match_are_read_after_the_matching_turns_of_the_next_two_memories():
    memories = [
        mem(
            "mem_001",
            "Kyoto ryokan Hanami-an is booked near Yasaka shrine for the Kyoto ryokan stay",
            sources=[said("m1", 0)],
            episode=[{"text": "Great, enjoy the trip!", "role": "assistant", "source": said("m2", 1)}],
        ),
        mem("mem_002", "The Kyoto ryokan has an onsen on the roof", sources=[said("m3", 2)]),
        mem("mem_003", "A ryokan in Kyoto serves kaiseki dinners in the room", sources=[said("m4", 3)]),
        mem("mem_004", "The ryokan asked for the arrival time", sources=[said("m5", 4)]),
    ]
    hits = rank(memories, "Kyoto ryokan", NOW, {})
    assert [h.memory.id for h in hits] == ["mem_001", "mem_002", "mem_003", "mem_004"]
    first = hits[0]
    assert [s["message"] for s in first.sources] == ["m1", "m2"] and first.lead == 1, "the reply matches nothing"
    order = [(place, s["message"]) for place, s in search.reading_order(hits)]
    assert order == [(0, "m1"), (1, "m3"), (2, "m4"), (0, "m2"), (3, "m5")]


def test_a_weak_match_waits_but_a_turn_that_matches_half_as_well_as_the_best_leads():
    memories = [
        mem(
            "mem_001",
            "User is planning the Kyoto trip for April",
            sources=[said("m1", 0)],
            episode=[
                {"text": "The ryokan in Kyoto is booked for April.", "role": "assistant", "source": said("m2", 1)},
                {"text": "April is cherry blossom season.", "role": "assistant", "source": said("m3", 2)},
            ],
        )
    ]
    [hit] = rank(memories, "Kyoto ryokan April", NOW, {})
    assert [s["message"] for s in hit.sources] == ["m2", "m1", "m3"] and hit.lead == 2
    assert [s["message"] for _, s in search.reading_order([hit])] == ["m2", "m1", "m3"]


def test_a_reply_that_only_echoes_the_words_the_statement_holds_is_context_unless_it_answers():
    stay = mem(
        "mem_001",
        "I was in Japan for two weeks in April, mostly in Kyoto",
        sources=[said("m1", 0)],
        episode=[
            {"text": "Japan in April has the cherry blossoms!", "role": "assistant", "source": said("m2", 1)},
        ],
    )
    [hit] = rank([stay], "Japan April Kyoto", NOW, {})
    assert [s["message"] for s in hit.sources] == ["m1", "m2"]
    assert hit.lead == 1, "the reply holds no word of the question the statement lacks: it only echoes it"
    [hit] = rank([stay], "Japan April Kyoto cherry", NOW, {})
    # Each holds three of the four words: the shorter reply first
    assert [s["message"] for s in hit.sources] == ["m2", "m1"] and hit.lead == 2, "the reply holds what was asked"
    trip = mem(
        "mem_002",
        "User asked which ryokan we booked in Kyoto: the Kyoto ryokan booking",
        sources=[said("m3", 0)],
        episode=[
            {"text": "Which ryokan did we book in Kyoto?", "role": "user", "source": said("m4", 1)},
            {"text": "Hanami-an, near Yasaka shrine, for three nights.", "role": "assistant", "source": said("m5", 2)},
        ],
    )
    [hit] = rank([trip], "which ryokan did we book in Kyoto", NOW, {})
    assert [s["message"] for s in hit.sources] == ["m3", "m5", "m4"] and hit.lead == 2, "the answer leads"


def test_a_long_reply_that_repeats_the_question_does_not_outrank_the_short_statement_that_answers_it():
    """A memory matches as well as its best piece for each word: the assistant's long reply that says "engaged" and
    "Mia" over and over lends nothing to the user's question it is attached to, beyond what one piece holds."""
    reply = (
        "Congratulations to Mia on getting engaged! Engagement gifts for Mia could be a photo frame, a cookbook or a "
        "weekend away. Since Mia got engaged recently, a card with a heartfelt message about Mia being engaged is "
        "lovely. Here are more ideas for someone newly engaged: a planner, a candle, a bottle of champagne. "
    ) * 2
    memories = [
        mem("mem_001", "Mia got engaged in March, at the lake"),
        mem(
            "mem_002",
            "User asked for gift ideas for Mia",
            episode=[{"text": reply, "role": "assistant", "source": {"session": "s", "message": "m2"}}],
        ),
        *(mem(f"mem_{i:03d}", f"Notes on the garden, week {i}") for i in range(3, 12)),
    ]
    hits = rank(memories, "when did Mia get engaged", NOW, {})
    assert [h.memory.id for h in hits[:2]] == ["mem_001", "mem_002"]


def kyoto_memories():
    """The user's own short word on the trip, and a memory whose statement says nothing of it but whose agent's reply
    (and the agent's message it answered) name every word of the question."""
    reply = "The trip from Kyoto to Osaka takes fifteen minutes by Shinkansen; many make the Kyoto Osaka trip twice."
    return [
        mem("mem_001", "User spent two weeks in Kyoto", sources=[said("m1", 0)]),
        mem(
            "mem_002",
            "User asked about trains",
            sources=[said("m2", 1)],
            context="How long is your Kyoto and Osaka trip?",
            episode=[{"text": reply, "role": "assistant", "source": said("m3", 2)}],
        ),
        *(mem(f"mem_{i:03d}", f"Notes on the garden, week {i}") for i in range(3, 12)),
    ]


def test_a_question_about_oneself_is_matched_against_the_users_words_not_the_agents():
    """The agent's reply attached to a memory, and the agent's message it answered, do not lift it for a question
    about what the user said: the memory whose own words answer comes first."""
    hits = rank(kyoto_memories(), "How long was my trip to Kyoto and Osaka?", NOW, {})
    assert [h.memory.id for h in hits] == ["mem_001"]


def test_the_agents_own_memory_is_the_agents_words_for_a_question_about_oneself():
    """A memory in the agent's domain ("self": what it said of itself) is found by a question about the user only
    through the user's turns attached to it."""
    agents = mem("mem_001", "I don't know which musical instruments you own, I'm a language model")
    agents.domain = "self"
    users = mem("mem_002", "User has had a Yamaha acoustic guitar for eight years")
    question = "Which musical instruments do I own?"
    assert [h.memory.id for h in rank([agents, users], question, NOW, {})] == []
    users.content = "User owns a Yamaha guitar and a Korg piano, two musical instruments"
    assert [h.memory.id for h in rank([agents, users], question, NOW, {})] == ["mem_002"]
    found = rank([agents, users], "Which musical instruments does the user own?", NOW, {})
    assert {h.memory.id for h in found} == {"mem_001", "mem_002"}, "a question not about oneself reads every word"


def test_a_question_about_the_agents_words_still_finds_them():
    hits = rank(kyoto_memories(), "What did you say about the trip from Kyoto to Osaka?", NOW, {})
    assert [h.memory.id for h in hits[:2]] == ["mem_002", "mem_001"]
    assert hits[0].turn is not None and hits[0].turn["source"]["message"] == "m3"


def test_a_question_about_oneself_or_asking_advice_is_told_apart_from_one_about_the_agent_or_someone_else():
    about_the_user = {
        "How long was I in Japan for?": True,
        "What did I say my sister's name was?": True,
        "Combien de temps suis-je resté au Japon ?": True,
        "Où j'ai garé la voiture ?": True,
        "Wie lange war ich in Japan?": True,
        "¿Cuánto tiempo estuve yo en Japón?": True,
        "Quanto tempo eu fiquei no Japão?": True,
        "我在日本待了多久？": True,
        "What was the hiking trail you recommended for my trip?": False,
        "Qu'est-ce que tu m'as conseillé ?": False,
        "Was hast du mir empfohlen?": False,
        "你上次推荐我去哪里？": False,
        "What did Caroline research?": False,
        "When did we go to the lake?": False,
        # Asking advice for oneself is answered from what the user said; asking what the agent said before is not.
        "I'm making a cocktail for a get-together and can't choose. Any suggestions?": True,
        "Can you suggest a hotel for my trip to Miami?": True,
        "I'm torn between buying a NAS now or waiting. What do you think?": True,
        "Which hotel did you recommend for my trip to Miami?": False,
        "Je pars à Lyon le mois prochain, tu me conseilles quoi ?": True,
        "Tu m'as conseillé quel hôtel à Lyon ?": False,
        "Ich fahre nächste Woche nach Wien. Kannst du mir ein Hotel empfehlen?": True,
        "Welches Hotel hast du mir in Wien empfohlen?": False,
        "Voy a Lisboa con mi hermana en mayo, ¿qué me recomiendas?": True,
        "¿Cuál era el hotel que tú me recomendaste en Lisboa?": False,
        # Spanish and Portuguese say "you" in the verb: "recomendaste", "dijiste", "disseste" speak to the agent.
        "¿Qué hotel me recomendaste en Lisboa?": False,
        "¿Qué me dijiste de mi pasaporte?": False,
        "O que me disseste sobre o meu passaporte?": False,
        "¿Qué me dijo mi hermana de mi pasaporte?": True,
        "Vou a Roma com a minha mãe em junho, você pode me recomendar um hotel?": True,
        "Que hotel você me recomendou em Roma?": False,
        "我下个月去东京，你能推荐一家酒店吗？": True,
        "你上次推荐的酒店叫什么？": False,
        "What tips did I give my brother?": True,
    }
    assert {q: search.about_the_user(q) for q in about_the_user} == about_the_user


def test_the_agents_reply_is_context_for_a_question_about_what_the_user_said():
    """A question about oneself is answered by what one said: the agent's long reply attached to it, though it
    repeats the question's words, comes after the user's own words of the next memories; a question to the agent
    lists that reply first."""
    japan = mem(
        "mem_001",
        "User was in Japan for two weeks, mostly in Kyoto",
        sources=[said("m1", 0)],
        episode=[
            {
                "text": "Two weeks in Japan is a great length! With two weeks in Japan you can see Kyoto, Osaka and "
                "Tokyo; many people spend their weeks in Japan between the three.",
                "role": "assistant",
                "source": said("m2", 1),
            }
        ],
    )
    others = [
        mem(f"mem_{i:03d}", f"User liked the weeks in Japan number {i}", sources=[said(f"n{i}", i)]) for i in (2, 3)
    ]
    hits = rank([japan, *others], "How many weeks was I in Japan?", NOW, {})
    [hit] = [h for h in hits if h.memory.id == "mem_001"]
    assert [s["message"] for s in hit.sources[: hit.lead]] == ["m1"]
    order = [s["message"] for _, s in search.reading_order(hits)]
    assert order.index("m2") > order.index("n2") and order.index("m2") > order.index("n3")
    hits = rank([japan, *others], "How many weeks in Japan did you suggest?", NOW, {})
    [hit] = [h for h in hits if h.memory.id == "mem_001"]
    assert "m2" in [s["message"] for s in hit.sources[: hit.lead]]


def test_for_a_question_about_oneself_the_context_turns_come_after_every_memorys_own_words():
    first = mem(
        "mem_001",
        "User parked the car on level 3 of the airport garage",
        sources=[said("m1", 0)],
        episode=[{"text": "Level 3 is close to the lifts.", "role": "assistant", "source": said("m2", 1)}],
    )
    others = [
        mem(f"mem_{i:03d}", f"User parked the bike at the station, spot {i}", sources=[said(f"n{i}", i)])
        for i in range(2, 6)
    ]
    hits = rank([first, *others], "Where did I park the car?", NOW, {})
    assert hits[0].memory.id == "mem_001"
    order = [s["message"] for _, s in search.reading_order(hits, search.about_the_user("Where did I park the car?"))]
    assert order[-1] == "m2" and len(order) == 6, "the reply after the user's words of every memory"
    order = [s["message"] for _, s in search.reading_order(hits)]
    assert order.index("m2") < len(order) - 1, "a question about someone else reads it after the next two memories"


def test_the_turn_shown_under_a_memory_is_the_best_match_even_when_it_is_context():
    """For a question about oneself the agent's reply does not lead, but when it names what was asked it is still the
    turn shown under the memory."""
    dinner = mem(
        "mem_001",
        "User wants to go to the French place on Friday",
        sources=[said("m1", 0)],
        episode=[
            {"text": "Booked: Chez Paul, French bistro, Friday 8pm.", "role": "assistant", "source": said("m2", 1)}
        ],
    )
    [hit] = rank([dinner], "Which French bistro did I book for Friday?", NOW, {})
    assert [s["message"] for s in hit.sources[: hit.lead]] == ["m1"]
    assert hit.turn is not None and hit.turn["source"]["message"] == "m2"


def test_a_question_that_names_no_day_does_not_load_the_reader_of_dates(workspace):
    # What a recall imports is what a person waits for: the reader of dates (its patterns in six languages) is loaded
    # only for a question that may name a day. A fresh process: this one has loaded everything already.
    import subprocess
    import sys

    from conftest import SCRIPTS, memory, write_index

    write_index(workspace, [memory("mem_001", "User drinks oat milk flat whites", created="2026-02-28")])
    probe = (
        "import sys, io, contextlib\n"
        f"sys.path.insert(0, {str(SCRIPTS)!r})\n"
        "from hippocampus.commands import recall\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    recall.main([sys.argv[1], '--workspace', {str(workspace)!r}, '--now', '2026-03-02T10:00:00Z'])\n"
        "print('oat milk' in out.getvalue(), 'hippocampus.ingestion.duetime' in sys.modules)\n"
    )
    for question, loaded in (("coffee with oat milk", False), ("what milk did I drink on Saturday", True)):
        found = subprocess.run([sys.executable, "-c", probe, question], capture_output=True, text=True, check=True)
        assert found.stdout.split() == ["True", str(loaded)], (question, found.stdout, found.stderr[-500:])
