"""The store believes what the user last said: corrections and changes replace a value (the old one kept, with the
time it held), a negation is not a repetition, a qualifier makes another fact, an explicit note in any common form
and language is a core memory, a long note is kept whole, and what came a day later is not a message's context."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from conftest import read_index, run_script
from hippocampus.search import values_in
from transcript_fixtures import Session

START = datetime(2026, 5, 4, 9, tzinfo=timezone.utc)


class Chat:
    """The owner's conversations, one session a day unless told otherwise, encoded as cron would after each."""

    def __init__(self, workspace, folder):
        self.ws = workspace
        self.folder = folder
        self.day = 0

    def say(self, *turns: str, session: Session | None = None, gap: timedelta | None = None) -> Session:
        """The user says each of `turns` (a turn starting "agent: " is the agent's), then encode runs."""
        if session is None:
            self.day += 1
            session = Session(f"{self.day:08x}-aaaa-4000-8000-000000000000", START + timedelta(days=self.day))
        if gap is not None:
            session.tick(gap.total_seconds())
        for turn in turns:
            if turn.startswith("agent: "):
                session.assistant(turn.removeprefix("agent: "))
            else:
                session.user(turn)
        session.write(self.folder)
        now = (session.clock + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
        done = run_script("encode", "--sessions", str(self.folder), ws=self.ws, now=now)
        assert done.returncode == 0, done.stderr
        self.now = now
        return session

    def core(self) -> str:
        done = run_script("load_core", ws=self.ws, now=self.now)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def memories(self) -> list[dict]:
        return read_index(self.ws)["memories"]

    def about(self, word: str) -> list[dict]:
        return [m for m in self.memories() if word.lower() in m["content"].lower()]


@pytest.fixture
def chat(workspace, tmp_path):
    return Chat(workspace, tmp_path / "sessions")


def current(memories: list[dict]) -> list[str]:
    return [m["content"] for m in memories if not m.get("supersededBy")]


# --- corrections and changes, in the phrasings people use ------------------------------------------------------

CORRECTIONS = [
    # (what was said first, what was said later, the value now, the value before)
    ("Remember that my sister's name is Sofia", "No, actually my sister's name is Sara, not Sofia.", "Sara", "Sofia"),
    ("Remember that our dog is called Max", "Actually, our dog is called Rex, not Max.", "Rex", "Max"),
    ("Our dog is called Max, remember that!", "Actually, our dog is called Rex, not Max.", "Rex", "Max"),
    ("Remember that I work at Acme as a designer", "Correction: I don't work at Acme anymore.", "anymore", None),
    ("Remember that we live in Lisbon", "We moved to Porto last month.", "Porto", "Lisbon"),
    ("Remember my phone number is 555-0100", "My phone number changed to 555-0199.", "555-0199", "555-0100"),
    ("Remember the standup is at 9am every day", "The standup is now at 10am every day.", "10am", "9am"),
    ("Remember I want your replies in English", "From now on I want your replies in French.", "French", "English"),
    ("Remember my gym day is Monday", "I mixed it up, my gym day is Thursday.", "Thursday", "Monday"),
    (
        "Remember the dentist appointment is on Tuesday",
        "The dentist appointment is not on Tuesday but on Wednesday.",
        "Wednesday",
        "Tuesday",
    ),
]


@pytest.mark.parametrize("first,later,now_value,old_value", CORRECTIONS, ids=[c[1][:30] for c in CORRECTIONS])
def test_a_correction_replaces_the_value_and_keeps_the_old_one_as_history(chat, first, later, now_value, old_value):
    chat.say(first)
    chat.say(later)
    core = chat.core()
    assert now_value.lower() in core.lower(), core
    if old_value is not None:
        assert not [line for line in core.splitlines() if old_value in line and now_value not in line], core
    [memory] = [m for m in chat.memories() if now_value.lower() in m["content"].lower() and not m.get("supersededBy")]
    assert memory["history"], memory
    before = memory["history"][-1]
    assert before["until"] and before["content"] and (old_value is None or old_value in before["content"])


@pytest.mark.parametrize(
    "first,later,old,now",
    [
        (
            "I drive a blue Ford Focus, it's ten years old.",
            "Sold the Focus last week, I cycle everywhere now.",
            "Ford",
            "cycle",
        ),
        ("My car is a Kia Picanto.", "I finally sold my car, the bus is fine.", "Kia", "bus"),
        ("Ma voiture est une Renault Clio.", "J'ai vendu la voiture, je prends le train maintenant.", "Clio", "train"),
        ("Mi coche es un Seat Ibiza.", "Vendí el coche el mes pasado.", "Ibiza", "Vendí"),
        ("I work at Acme as a designer.", "I quit my job last Friday, taking a break for a while.", "Acme", "quit"),
    ],
)
def test_what_the_user_gives_up_of_a_value_replaces_it_and_the_value_is_history(chat, first, later, old, now):
    chat.say(first)
    chat.say(later)
    [memory] = [m for m in chat.memories() if m.get("history")]
    assert now in memory["content"] and old not in memory["content"], memory
    assert old in memory["history"][-1]["content"], memory


@pytest.mark.parametrize("later", ["My brother sold his car last week.", "I sold my old bike on eBay."])
def test_what_someone_else_gives_up_or_another_thing_given_up_replaces_nothing(chat, later):
    chat.say("My car is a Kia Picanto.")
    chat.say(later)
    assert not [m for m in chat.memories() if m.get("history")], chat.memories()


def test_what_a_value_was_before_and_as_of_a_date_can_be_asked(chat):
    chat.say("Remember that my sister's name is Sofia")  # 2026-05-05
    chat.say("No, actually my sister's name is Sara, not Sofia.")  # 2026-05-06
    plain = run_script("recall", "sister's name", "--no-touch", ws=chat.ws, now=chat.now).stdout
    assert "Sara" in plain and "Sofia" not in plain, plain
    every = run_script("recall", "sister's name", "--all", "--no-touch", ws=chat.ws, now=chat.now).stdout
    assert "before: User's sister's name is Sofia (2026-05-05 – 2026-05-06)" in every, every
    by_old = run_script("recall", "Sofia", "--no-touch", ws=chat.ws, now=chat.now).stdout
    assert "Sara" in by_old.splitlines()[0] and "before:" in by_old and "Sofia" in by_old, by_old
    then = run_script("recall", "sister", "--as-of", "2026-05-05", "--json", "--no-touch", ws=chat.ws, now=chat.now)
    [result] = json.loads(then.stdout)["results"]
    assert "Sofia" in result["contentThen"] and "Sara" in result["content"], result
    # As printed, the answer of that day is what the store believed then: a value said later is not in it.
    text = run_script("recall", "sister's name", "--as-of", "2026-05-05", "--no-touch", ws=chat.ws, now=chat.now)
    assert "Sofia" in text.stdout and "Sara" not in text.stdout and "changed since" in text.stdout, text.stdout
    earlier = run_script("recall", "sister", "--as-of", "May 1 2026", "--no-touch", ws=chat.ws, now=chat.now)
    assert earlier.stdout.strip() == "no memory matches that", earlier.stdout  # nothing was known then
    bad = run_script("recall", "sister", "--as-of", "someday", ws=chat.ws, now=chat.now)
    assert bad.returncode != 0 and len(bad.stderr.strip().splitlines()) == 1 and "--as-of" in bad.stderr


def test_a_correction_right_after_a_statement_corrects_its_value(chat):
    session = chat.say("Remember that the team dinner is on the 15th at Casa Nova")
    chat.say("Sorry, I got that wrong, it's the 16th", session=session)
    core = chat.core()
    assert "16th" in core and "15th" not in core, core


NEGATED = [
    ("Remember that I can swim well", "I can't swim well, remember that.", "can't"),
    ("Remember that I eat meat", "I don't eat meat anymore, remember that.", "n't"),
    ("Remember that I don't drink coffee", "Actually I do drink coffee now, remember that.", "drink"),
]


@pytest.mark.parametrize("first,later,word", NEGATED, ids=[n[1][:20] for n in NEGATED])
def test_a_negated_restatement_updates_the_fact_and_never_reinforces_it(chat, first, later, word):
    chat.say(first)
    chat.say(later)
    memories = chat.memories()
    assert sum(m.get("timesReinforced", 0) for m in memories) == 0, memories
    [memory] = [m for m in memories if not m.get("supersededBy")]
    assert word in memory["content"] and memory["history"], memory


@pytest.mark.parametrize(
    "first,later",
    [
        ("Remember that my car is a red Toyota", "Remember that my wife's car is a red Toyota"),
        ("Remember that we go to Japan this year", "Remember that we go to Japan next year"),
    ],
)
def test_a_restatement_that_differs_in_a_word_that_matters_is_another_fact(chat, first, later):
    chat.say(first)
    chat.say(later)
    memories = chat.memories()
    assert len(memories) == 2 and all(m.get("timesReinforced", 0) == 0 for m in memories), memories


def test_the_same_fact_said_again_is_still_reinforced(chat):
    chat.say("Remember that I prefer oat milk flat whites")
    chat.say("Remember that I prefer oat milk flat whites, please")
    [memory] = chat.memories()
    assert memory["timesReinforced"] == 1


MULTILINGUAL_CORRECTIONS = [
    ("Rappelle-toi que ma sœur s'appelle Sofia", "Non, en fait ma sœur s'appelle Sara, pas Sofia."),
    ("Merk dir, dass meine Schwester Sofia heißt", "Nein, eigentlich heißt meine Schwester Sara, nicht Sofia."),
    ("Recuerda que mi hermana se llama Sofia", "No, en realidad mi hermana se llama Sara, no Sofia."),
    ("Lembre-se de que a minha irmã se chama Sofia", "Não, na verdade a minha irmã se chama Sara, não Sofia."),
    ("请记住我妹妹叫 Sofia", "不，其实我妹妹叫 Sara，不是 Sofia。"),
]


@pytest.mark.parametrize("first,later", MULTILINGUAL_CORRECTIONS, ids=["fr", "de", "es", "pt", "zh"])
def test_a_correction_in_french_german_spanish_portuguese_or_chinese_takes_effect(chat, first, later):
    chat.say(first)
    chat.say(later)
    core = chat.core()
    assert "Sara" in core and not [line for line in core.splitlines() if "Sofia" in line and "Sara" not in line]


# --- explicit notes in every common form and language ----------------------------------------------------------

EXPLICIT = [
    ("Remember: the spare key is under the blue flower pot", "spare key is under the blue flower pot"),
    ("Note: the wifi router is in the hallway cupboard", "wifi router is in the hallway cupboard"),
    ("Important: my daughter is allergic to penicillin", "allergic to penicillin"),
    ("Keep in mind that Lea's birthday is on March 3rd", "Lea's birthday is on March 3rd"),
    ("Don't forget the car insurance renews on July 1st", "car insurance renews on July 1st"),
    ("FYI the boiler service is booked for Friday", "boiler service is booked for Friday"),
    ("Rappelle-toi que le code de la consigne est au nom de Dana", "consigne est au nom de Dana"),
    ("Merk dir, dass der Zahnarzttermin am Dienstag um 10 Uhr ist", "Zahnarzttermin am Dienstag um 10 Uhr"),
    ("Recuerda que el cumpleaños de Ana es el 12 de mayo", "cumpleaños de Ana es el 12 de mayo"),
    ("Lembre-se de que o voo para Lisboa sai às 7h", "voo para Lisboa sai às 7h"),
    ("请记住我的护照号码尾号是4471", "护照号码尾号是4471"),
    ("Please memorise that our anniversary is on June 12", "anniversary is on June 12"),
    ("¿Puedes recordar que mi número de socio es 55321?", "número de socio es 55321"),
]


@pytest.mark.parametrize("said,kept", EXPLICIT, ids=[e[0][:14] for e in EXPLICIT])
def test_an_explicit_note_in_any_common_form_is_a_core_memory_without_its_lead(chat, said, kept):
    chat.say(said)
    [memory] = chat.memories()
    assert memory.get("kind") == "explicit" and memory["importance"] >= 0.9, memory
    assert kept in memory["content"], memory["content"]
    lead = said.split(kept)[0].strip(" :,")
    assert not memory["content"].lower().startswith(lead.lower()[:5]), memory["content"]
    asking = {word.strip(":,") for word in lead.lower().split()[:2] if len(word) > 3}  # "please memorise"
    assert not asking & set(memory["content"].lower().split()[:3]), memory["content"]
    assert kept in chat.core()


@pytest.mark.parametrize(
    "said,kept,asking",
    [
        ("Mon code de casier est 3381, retiens-le bien.", "3381", "retiens"),
        ("Mi taquilla es la 44, no lo olvides.", "44", "olvides"),
        ("我的储物柜号码是 58，记一下。", "58", "记一下"),
    ],
)
def test_a_request_to_keep_what_was_just_said_makes_it_a_core_note_without_the_request(chat, said, kept, asking):
    chat.say(said)
    [memory] = chat.memories()
    assert memory.get("kind") == "explicit" and kept in memory["content"], memory
    assert asking not in memory["content"] and kept in chat.core()


@pytest.mark.parametrize(
    "turns,kept",
    [
        (("Can you remember something for me?", "agent: Of course, what is it?", "My locker code is 3381."), "3381"),
        (("Merk dir Folgendes:", "agent: Klar.", "Mein Spind hat die Nummer 212."), "212"),
        (("The spare key is in the blue pot.", "agent: Good to know.", "Please remember that."), "blue pot"),
        (("我的车牌是京A12345。", "agent: 好的。", "记住这个。"), "京A12345"),
    ],
)
def test_a_request_to_keep_the_next_or_the_last_thing_said_makes_that_a_core_note(chat, turns, kept):
    chat.say(*turns)
    [note] = [m for m in chat.memories() if kept in m["content"]]
    assert note.get("kind") == "explicit" and note["importance"] >= 0.9, note
    assert kept in chat.core()
    assert not [m for m in chat.memories() if m.get("kind") == "explicit" and kept not in m["content"]]


def test_a_request_to_keep_what_came_after_an_instruction_makes_no_note_of_the_instruction(chat):
    chat.say("Write me a short poem about cats.", "agent: Soft paws at dawn, a purr upon the sill.", "Save it.")
    assert not [m for m in chat.memories() if m.get("kind") == "explicit"], chat.memories()


def test_a_request_to_keep_what_came_before_never_reaches_past_another_stretch_or_a_stranger(chat):
    chat.say("The boiler is in the attic.")
    session = chat.say("agent: Noted.")
    chat.say("Please remember that.", session=session, gap=timedelta(days=2))
    assert not [m for m in chat.memories() if m.get("kind") == "explicit"], chat.memories()


# --- long notes --------------------------------------------------------------------------------------------------


def test_a_long_note_is_kept_whole_and_recall_prints_the_part_that_matched(chat):
    items = [f"item {n}: {thing}" for n, thing in enumerate(["wool socks", "headlamp", "rain jacket"] * 60)]
    items.append("item 999: the blue carabiner from the garage")
    note = "Remember this packing list for the Dolomites trip: " + "; ".join(items) + "."
    assert len(note) > 2900
    chat.say(note)
    [memory] = chat.memories()
    assert "blue carabiner" in json.dumps(memory, ensure_ascii=False)  # the end is kept
    done = run_script("recall", "blue carabiner", "--no-touch", ws=chat.ws, now=chat.now)
    first, *rest = done.stdout.splitlines()
    assert done.returncode == 0 and "Dolomites" in first and "carabiner" not in first, done.stdout
    assert any("item 999: the blue carabiner from the garage" in line for line in rest), done.stdout
    found = json.loads(run_script("recall", "carabiner", "--json", "--no-touch", ws=chat.ws, now=chat.now).stdout)
    assert "blue carabiner" in found["results"][0]["matchedPart"]


def test_a_long_note_is_what_it_asserts_not_its_opening_words(chat):
    chat.say(
        "Remember this: I finally sorted out the move, so here is the whole picture, and it took me a while to get "
        "it all straight in my head with everything going on at work this month. The van comes early and my brother "
        "will help with the heavy boxes and the piano. The furniture we keep goes into storage: unit 318 at BoxCity "
        "on Harbour Road, and the access code for the storage unit is 4471."
    )
    [memory] = chat.memories()
    assert "4471" in memory["content"] and "318" in memory["content"], memory["content"]
    assert "whole picture" not in memory["content"], memory["content"]
    assert "4471" in chat.core()
    found = run_script("recall", "storage unit code", "--no-touch", ws=chat.ws, now=chat.now).stdout
    assert "4471" in found.split("\n2. ")[0], found


def test_a_note_beyond_the_bound_is_cut_with_a_note_saying_so(chat):
    note = "Remember this log: " + " ".join(f"line{n:05d}" for n in range(12_000))
    chat.say(note)
    [memory] = chat.memories()
    kept = json.dumps(memory, ensure_ascii=False)
    assert "line00000" in kept and "line11999" not in kept and "cut" in kept


# --- context by time ---------------------------------------------------------------------------------------------


def test_a_message_a_day_later_in_the_same_session_is_not_the_earlier_one_s_context(chat):
    session = chat.say("Remember that we booked the table at Casa Nova for Saturday at 8pm")
    chat.say("The plumber comes on Thursday morning to fix the boiler", session=session, gap=timedelta(hours=26))
    booking = chat.about("Casa Nova")[0]
    assert "plumber" not in json.dumps(booking, ensure_ascii=False), booking
    done = run_script("recall", "plumber", "--json", "--no-touch", ws=chat.ws, now=chat.now)
    results = json.loads(done.stdout)["results"]
    assert results and "Casa Nova" not in results[0]["content"], results


# --- the property --------------------------------------------------------------------------------------------------

FACTS = [
    ("my sister's name is", "Sofia", "Sara"),
    ("we live in", "Lisbon", "Porto"),
    ("my gym day is", "Monday", "Friday"),
]
FORMS = [
    "No, actually {fact} {new}, not {old}.",
    "Correction: {fact} {new}.",
    "Sorry, I got that wrong, {fact} {new}.",
    "{fact} not {old} but {new}.",
    "I mixed it up, {fact} {new}.",
    "{fact} now {new}.",
    "From now on {fact} {new}.",
]


@settings(max_examples=15, deadline=None)
@given(fact=st.sampled_from(FACTS), form=st.sampled_from(FORMS))
def test_a_fact_corrected_in_any_listed_form_never_leaves_its_old_value_in_load_core(tmp_path_factory, fact, form):
    root = tmp_path_factory.mktemp("truth")
    (root / "ws" / "memory").mkdir(parents=True)
    chat = Chat(root / "ws", root / "sessions")
    words, old, new = fact
    chat.say(f"Remember that {words} {old}")
    said = form.format(fact=words, old=old, new=new)
    chat.say(said[0].upper() + said[1:])
    core = chat.core()
    assert new in core and not [line for line in core.splitlines() if old in line and new not in line], (said, core)


@pytest.mark.parametrize(
    "turns",
    [
        ("Our dog is called Max.", "Actually, our dog is called Rex, not Max."),
        ("Remember: our dog is called Max.", "Actually, our dog is called Rex, not Max."),
        ("Remember that our dog's name is Max.", "Actually, our dog is called Rex, not Max."),
        ("Remember that our dog is called Max.", "Actually, our dog is called Rex, not Max.", "same session"),
    ],
)
def test_a_corrected_name_of_ours_leaves_no_old_value_in_load_core_however_the_first_was_said(chat, turns):
    if len(turns) == 3:
        chat.say(turns[0], "agent: Noted.", turns[1])
    else:
        chat.say(turns[0])
        chat.say(turns[1])
    core = chat.core()
    assert not [line for line in core.splitlines() if "Max" in line and "Rex" not in line], core


# --- when it cannot tell: both kept, the newer first ---------------------------------------------------------------


def test_when_it_cannot_tell_which_value_holds_recall_lists_the_newer_first_and_marks_the_older(chat):
    chat.say("Tom said the school reunion is on the 20th.")
    chat.say("Saw a post in the group saying the reunion is on the 27th.")
    found = run_script("recall", "when is the school reunion", "--no-touch", ws=chat.ws, now=chat.now).stdout
    first, second = found.split("\n2. ")
    assert "27th" in first and "20th" in second and "said earlier (2026-05-05)" in second, found
    as_json = json.loads(
        run_script("recall", "when is the school reunion", "--json", "--no-touch", ws=chat.ws, now=chat.now).stdout
    )
    newer, older = as_json["results"]
    assert older["saidEarlier"] == {"on": "2026-05-05", "newer": newer["id"]} and "saidEarlier" not in newer


@pytest.mark.parametrize(
    "first,later,query,now,before",
    [
        (
            "My dentist is Dr. Hale over on Station Road.",
            "I switched dentists, I go to Dr. Okafor in the high street now.",
            "who is my dentist",
            "Okafor",
            "Hale",
        ),
        (
            "Meu plano de saúde é a Unimed.",
            "Troquei o plano, agora é SulAmérica.",
            "qual é meu plano de saúde",
            "SulAmérica",
            "Unimed",
        ),
        (
            "Trabajo de camarero en un bar de Malasaña.",
            "Dejé el bar, ahora trabajo de repartidor para Glovo.",
            "en qué trabajo",
            "Glovo",
            "Malasaña",
        ),
    ],
)
def test_a_value_changed_in_other_words_than_it_was_stated_in_is_listed_first_the_older_said_earlier(
    chat, first, later, query, now, before
):
    chat.say(first)
    chat.say(later)
    found = run_script("recall", query, "--no-touch", ws=chat.ws, now=chat.now).stdout
    newer, older = found.split("\n2. ")[:2]
    assert now in newer and before in older and "said earlier" in older, found


def test_a_later_day_of_a_thing_is_not_put_before_what_else_was_said_of_it(chat):
    chat.say("We decided to use PostgreSQL instead of MongoDB for the Atlas database.")
    chat.say("The Atlas cut-over is on May 12.")
    found = run_script("recall", "what did we decide about the Atlas database", "--no-touch", ws=chat.ws, now=chat.now)
    assert "said earlier" not in found.stdout, found.stdout


def test_a_day_is_no_name_in_its_place(chat):
    chat.say(
        "Caroline: A lot's happened since we last chatted - I just joined a new LGBTQ activist group last Tues. I'm"
        " meeting so many cool people who are as passionate as I am about rights and community support."
    )
    chat.say(
        "Caroline: It's awesome to have our own platform to be ourselves and support others' rights. Our group,"
        " 'Connected LGBTQ Activists', is made of all kinds of people investing in positive changes."
    )
    found = run_script("recall", "When did Caroline join a new activist group?", "--no-touch", ws=chat.ws, now=chat.now)
    assert "said earlier" not in found.stdout, found.stdout


def test_the_word_i_is_no_name_a_statement_names():
    assert not values_in("Lately, I've been looking into counseling, but I'm not sure I'd like it. I said so.")


def test_two_things_said_on_other_days_are_not_put_in_each_others_place_by_the_dates_they_were_said(chat):
    chat.say(
        "Caroline: That photo is stunning! Glad you bonded over our love of nature. Last Friday I went to a council"
        " meeting for adoption. It made me even more determined to adopt."
    )
    chat.say(
        "Caroline: Woohoo Melanie! I passed the adoption agency interviews last Friday! I am so excited and thankful."
        " This is a big move towards my goal of having a family."
    )
    found = run_script(
        "recall", "When did Caroline go to the adoption meeting?", "--no-touch", ws=chat.ws, now=chat.now
    )
    assert "said earlier" not in found.stdout, found.stdout


@pytest.mark.parametrize(
    "later",
    [
        "I told my dentist about our trip to Paris with Tom.",  # the same dentist, spoken to
        "My dentist's receptionist, Mary Jones, called about the bill.",  # someone else's name
        "Dr. Hale, my dentist, says I should floss more.",  # the same value said again
    ],
)
def test_a_later_mention_of_the_thing_with_other_names_is_not_put_before_its_value(chat, later):
    chat.say("My dentist is Dr. Hale over on Station Road.")
    chat.say(later)
    found = run_script("recall", "who is my dentist", "--no-touch", ws=chat.ws, now=chat.now).stdout
    assert "said earlier" not in found, found


@pytest.mark.parametrize(
    "first,later,now,kept,before",
    [
        (
            "My sister Claire is a vet in Leeds, she'd know about the rabbit thing.",
            "Ha, autocorrect strikes again: my sister's name isn't Claire, it's Clara.",
            "Clara",
            "Leeds",
            "Claire",
        ),
        (
            "Mi cuñada Marisol viene a comer el domingo, es vegana.",
            "Perdona, me equivoqué: mi cuñada no se llama Marisol, se llama Maribel.",
            "Maribel",
            "vegana",
            "Marisol",
        ),
        (
            "Unser Hund heißt Bruno und ist ein Labrador-Mix.",
            "Korrektur: Der Hund heißt Balu, nicht Bruno. Bruno war der Hund meiner Eltern.",
            "Balu",
            "Labrador",
            "Bruno",
        ),
    ],
)
def test_a_name_denied_and_given_again_is_put_right_where_it_was_said_with_the_rest_kept(
    chat, first, later, now, kept, before
):
    chat.say(first)
    chat.say(later)
    [memory] = [m for m in chat.memories() if kept in m["content"]]
    assert now in memory["content"] and before not in memory["content"], memory
    assert before in memory["history"][-1]["content"]


def test_a_name_given_beside_a_role_is_not_replaced_by_another_name_for_that_role_unless_denied(chat):
    chat.say("My sister Claire is a vet in Leeds.")
    chat.say("My sister's name is Clara, she's the one in Bristol.")
    assert [m for m in chat.memories() if "Claire" in m["content"] and not m.get("history")], chat.memories()


def test_a_running_total_said_again_is_the_new_value_and_its_message_is_read_first(chat):
    chat.say(
        "Can you recommend some AWS courses? By the way, I've already finished 10 Crash Course videos in the past"
        " few weeks!"
    )
    chat.say(
        "Any resources on natural language processing? I've been on a learning streak lately, having watched 15"
        " Crash Course videos in the past few weeks."
    )
    [memory] = chat.about("Crash Course")
    assert "15" in memory["content"] and "10" in memory["history"][-1]["content"], memory
    found = run_script(
        "recall", "how many Crash Course videos have I watched", "--json", "--no-touch", ws=chat.ws, now=chat.now
    )
    first = json.loads(found.stdout)["turns"][0]["source"]
    assert first["ts"] == memory["since"], found.stdout  # the message that said 15, before the one that said 10


@pytest.mark.parametrize(
    "later",
    [
        "Is the reunion on the 27th? Someone in the group said so.",  # a question
        "If the reunion were on the 27th I could not come.",  # a supposition
        "My cousin's school reunion is on the 27th.",  # someone else's
    ],
)
def test_a_newer_question_supposition_or_other_persons_fact_neither_replaces_nor_is_put_before_a_value(chat, later):
    chat.say("My school reunion is on the 20th, at the old gym.")
    chat.say(later)
    [mine] = chat.about("20th")
    assert not mine.get("history"), mine  # not replaced
    found = run_script("recall", "when is my school reunion", "--no-touch", ws=chat.ws, now=chat.now).stdout
    assert "20th" in found and "said earlier" not in found, found


def test_what_two_people_say_or_two_stories_told_in_other_words_are_never_put_in_each_others_place(chat):
    chat.say("Caroline: I went to the beach on the 20th, the water was lovely.")
    chat.say("Melanie: I went to the beach on the 27th, the water was lovely.")
    chat.say("We decided to move the Atlas cut-over to May 12.")
    chat.say("We decided to use PostgreSQL instead of MongoDB for Atlas, the schema migration comes first.")
    for query in ("when did Caroline go to the beach", "what did we decide about Atlas"):
        found = run_script("recall", query, "--no-touch", ws=chat.ws, now=chat.now).stdout
        assert "said earlier" not in found, found
