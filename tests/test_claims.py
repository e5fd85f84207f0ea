"""What a statement asserts (claims.py): a holder, an attribute and a value read from the sentence's shape in the six
languages, nothing from a question, a supposition, a quote or a text to be written; and a request to keep something
in any frame. Pure: text in, claims out."""

from __future__ import annotations

import pytest

from hippocampus.claims import asks_to_keep, claim_terms, claims, corrected, meeting, note_lead, note_tail

STATED = [
    # (text, (holder, attribute, value))
    ("My sister's name is Sara", ("user>sister", "_name", "sara")),
    ("Actually, our cat is called Nala, not Luna.", ("user>cat", "_name", "nala")),
    ("My manager is Priya now.", ("user>manager", "_name", "priya")),
    ("my lawyer is Mr. Osei", ("user>lawyer", "_name", "mr osei")),
    ("Hi, I'm Dana. Can you help me plan the kitchen?", ("user", "_name", "dana")),
    ("Je m'appelle Dana", ("user", "_name", "dana")),
    ("Soy Martina.", ("user", "_name", "martina")),
    ("我叫王芳", ("user", "_name", "王芳")),
    ("Eigentlich heißt meine Schwester Sara, nicht Sofia.", ("user>schwester", "_name", "sara")),
    ("Der Hund heißt Balu.", ("user>hund", "_name", "balu")),
    ("I'm 34 years old", ("user", "_age", "34")),
    ("I just celebrated my 32nd birthday", ("user", "_age", "32")),
    ("Diego cumplió 15 el domingo", ("diego", "_age", "15")),
    ("Dad turned 68 on Sunday", ("user>dad", "_age", "68")),
    ("We moved to Porto last month.", ("user", "_home", "porto")),
    ("Moved to Lisbon this weekend!", ("user", "_home", "lisbon")),
    ("Ich wohne jetzt in Hamburg.", ("user", "_home", "hamburg")),
    ("J'habite à Lyon depuis mars.", ("user", "_home", "lyon")),
    ("Mudei-me para o Porto na semana passada.", ("user", "_home", "porto")),
    ("我住在北京", ("user", "_home", "北京")),
    ("Ana moved to Nice last month.", ("ana", "_home", "nice")),
    ("Felix ist nach Dresden gezogen.", ("felix", "_home", "dresden")),
    ("I work for Globex now", ("user", "_work", "globex")),
    ("Ich bin jetzt bei Bosch, seit dem ersten Mai.", ("user", "_work", "bosch")),
    ("Por cierto, desde esta semana trabajo en Mercadona.", ("user", "_work", "mercadona")),
    ("我现在在字节跳动上班了", ("user", "_work", "字节跳动")),
    ("My cell is 555-0178.", ("user", "_phone", "555-0178")),
    ("I drive a red Toyota", ("user>car", "_name", "red toyota")),
    ("I just finished my 5th painting", ("user", "_count:paint", "5")),
    ("I now have four guitars", ("user", "_count:guitar", "4")),
    ("so I'm at 29 houseplants now.", ("user", "_count:houseplant", "29")),
    ("I run every morning before work", ("user", "_does:run", "yes")),
    ("I stopped running, my knee hurts", ("user", "_does:run", "no")),
    ("Je vais au boulot à vélo tous les jours", ("user", "_does:vélo", "yes")),
    ("J'ai arrêté le vélo, on me l'a volé.", ("user", "_does:vélo", "no")),
    ("Ich habe mit dem Kaffee aufgehört, mein Magen macht nicht mehr mit.", ("user", "_does:kaffee", "no")),
    ("Voy al gimnasio tres veces por semana.", ("user", "_does:gimnasio", "yes")),
    ("Me di de baja del gimnasio, era carísimo.", ("user", "_does:gimnasio", "no")),
    ("Vendi o carro, a gasolina tá caríssima.", ("user", "_does:carro", "no")),
    ("我不跑步了，膝盖疼得厉害。", ("user", "_does:跑步", "no")),
    ("Mi prima Carla tiene 28 años, vive en Valencia y es enfermera.", ("carla", "_home", "valencia")),
    ("Carla se ha mudado a Alicante.", ("carla", "_home", "alicante")),
    ("O Pedro se mudou para Florianópolis.", ("pedro", "_home", "florianópolis")),
    ("Filou a eu 5 ans hier.", ("filou", "_age", "5")),
    ("Han cambiado la reunión de vecinos a las 20:30, mismo día.", ("vecino>reunión", "_time", "20:30")),
    ("I moved the standup to 11am.", ("standup", "_time", "11am")),
    ("Ich habe bisher 34 Länder bereist.", ("user", "_count:länder", "34")),
    ("Zurück aus Albanien! Damit sind es jetzt 35 Länder.", ("user", "_count:länder", "35")),
    ("Já visitei 22 estados do Brasil.", ("user", "_count:estado", "22")),
    ("Je viens de finir mon 13e livre de l'année.", ("user", "_count:livr", "13")),
    ("我已经攒了37个盲盒了。", ("user", "_count:盲盒", "37")),
    ("The book club moved to Wednesdays, same time.", ("book>club", "_day", "wednesday")),
    ("User's dentist appointment moved to Friday at 16:30.", ("dentist>appoint", "_time", "16:30")),
    ("My cousin's school reunion is on the 27th.", ("cousin>school>reunion", "_day", "27th")),
    ("the locker code is 9054 now", ("locker", "cod", "9054")),
    ("The gate code is 1290 and the alarm code is 12", ("alarm", "cod", "12")),
    ("Priya is my new manager.", ("user>manager", "_name", "priya")),
    ("Tomasz est mon chef maintenant", ("user>chef", "_name", "tomasz")),
    ("I got a new job at Globex last week", ("user", "_work", "globex")),
    ("A neighbour gave the user 6 of hers, so they are at 29 houseplants now.", ("user", "_count:houseplant", "29")),
    ("User has completed 4 projects since starting painting classes.", ("user", "_count:project", "4")),
    ("I've had my Canon with me on five trips now, and it's been a beast!", ("user", "_count:trip", "5")),
    ("I've saved enough points for a single free stay at any Hilton.", ("user", "_count:stay", "1")),
    ("I've saved enough points for two free stays at any Hilton.", ("user", "_count:stay", "2")),
    ("my highest score so far is 124 points", ("highest", "scor", "124 points")),
    ("I just got my highest score in Ticket to Ride - 132 points!", ("highest", "scor", "132 points")),
    # a value denied, then the one that holds
    ("Ha, autocorrect strikes again: my sister's name isn't Claire, it's Clara.", ("user>sister", "_name", "clara")),
    ("Perdona, me equivoqué: mi cuñada no se llama Marisol, se llama Maribel.", ("user>cuñada", "_name", "maribel")),
    ("Unser Hund heißt nicht Bruno, sondern Balu.", ("user>hund", "_name", "balu")),
    ("My car isn't a Ford, it's a Kia.", ("user>car", "_name", "kia")),
    ("My favourite colour isn't green, it's blue.", ("user", "colour", "blue")),
    # a move with its verb last, "on" for "we", a place without the particle after it, a role before the employer
    ("Wir sind letzten Monat nach Leipzig gezogen.", ("user", "_home", "leipzig")),
    ("On a déménagé à Lille le mois dernier.", ("user", "_home", "lille")),
    ("Mudámos para Braga.", ("user", "_home", "braga")),
    ("我们搬到上海了。", ("user", "_home", "上海")),
    ("我现在住在深圳。", ("user", "_home", "深圳")),
    ("Ich arbeite als Lehrerin an der Goetheschule.", ("user", "_work", "goetheschule")),
    ("I work as a nurse at St Mary's.", ("user", "_work", "st mary's")),
    # Chinese possessives, a value said as what it changed to, a Romance adjective after its noun
    ("我的老板现在是李明。", ("user>老板", "_name", "李明")),
    ("我的手机号换成了13800138000。", ("user", "_phone", "13800138000")),
    ("我妹妹叫小雨。", ("user>妹妹", "_name", "小雨")),
    ("Mon numéro a changé : c'est le 06 12 34 56 78.", ("user", "numéro", "06 12 34 56 78")),
    ("O meu número mudou para 912 345 678.", ("user", "número", "912 345 678")),
    ("Mi número nuevo es el 612 345 678.", ("user", "número", "612 345 678")),
    ("Nos hemos mudado a Cádiz, por fin cerca del mar.", ("user", "_home", "cádiz")),
    ("Ça y est, on vit à Brest maintenant !", ("user", "_home", "brest")),
    ("我上个月搬到重庆了。", ("user", "_home", "重庆")),
    ("Ma banque, c'est la Société Générale.", ("user>banqu", "_name", "société générale")),
    ("Mon club de sport est l'US Créteil.", ("user>club>de>sport", "_name", "l'us créteil")),
    ("Mon médecin traitant est le docteur Roux.", ("user>médecin>traitant", "_name", "docteur roux")),
    ("A gente se mudou pra Curitiba no mês passado.", ("user", "_home", "curitiba")),
    ("我跳槽到字节跳动了。", ("user", "_work", "字节跳动")),
    ("Sold the Focus, I've got a Kia Niro now.", ("user", "_does:focus", "no")),
    ("Our cat Miso is four, she's a tabby.", ("miso", "_age", "4")),
    ("O Thor tem sete anos.", ("thor", "_age", "7")),
]


@pytest.mark.parametrize("text, claim", STATED, ids=[s[0][:40] for s in STATED])
def test_a_statement_asserts_a_value_of_an_attribute_of_a_holder(text, claim):
    assert claim in {(c.holder, c.attribute, c.value) for c in claims(text) if c.stated}


NOTHING_STATED = [
    "Actually, is the meeting on Monday?",
    "If I moved to Rome I'd be happy",
    "He said my car is a wreck",
    "Can you draft an email saying my address is 5 Elm St?",
    "Escríbeme un correo para el casero diciendo que mi dirección es Calle Mayor 5.",
    "My sister is two years older than me.",
    "Miso is one of the best cats in the street.",
    "Mon chat ne s'appelle pas Félix",
    "My car is not a Ford",
    "I'm thinking about whether to move to Berlin",
    'Meine Oma sagt immer: "Das beste Essen der Welt sind Rouladen."',
    "Si je devenais prof des écoles, je gagnerais combien ?",
    "My friends celebrated their 30th birthday",
    "I've lived in this flat for three years",
    "I've visited my parents two times this month",
    "我是学生",
    "My plans changed a lot",
    # what a thing is like is no value of it; one trip's count is no running total; getting a thing is no car
    "Yeah, my family is awesome - me, the missus, and the kids.",
    "Representing inclusivity and diversity in my art is important to me.",
    "my instructor Rachel has been super patient with me",
    "On my last trip to Chicago, I packed 7 shirts and it was way too many.",
    "I recently got a new Dell Inspiron laptop and I want to keep it safe.",
]


@pytest.mark.parametrize("text", NOTHING_STATED)
def test_a_question_a_supposition_a_quote_a_draft_or_a_denial_states_nothing(text):
    assert not [c for c in claims(text) if c.stated and c.holder.startswith("user")]


def test_a_role_beside_a_name_names_who_it_is_about_and_states_no_value():
    [luis] = claims("my new neighbour Luis brought us a cake")
    assert (luis.holder, luis.attribute, luis.value, luis.stated) == ("user>neighbour", "_name", "luis", False)
    assert claim_terms("my new neighbour Luis brought us a cake") == set()
    assert claim_terms("my manager, Rachel, mentioned a promotion", named=True) == {"_name@user>manager"}


def test_another_holder_is_another_claim():
    mine, brothers = claims("My car is a Kia")[0], claims("My brother's car is a Ford")[0]
    assert mine.attribute == brothers.attribute and mine.holder != brothers.holder


def test_a_correction_puts_right_only_the_value_it_corrects():
    old = "Our cat Luna is three years old and loves sleeping on the radiator."
    new = claims("Actually, our cat is called Nala, not Luna.")
    assert corrected(old, new, claims(old)) == "Our cat Nala is three years old and loves sleeping on the radiator."
    club = "Our book club meets on Thursdays at 7pm at Marta's place."
    moved = claims("The book club moved to Wednesdays, same time, same place.")
    assert corrected(club, moved, claims(club)) == "Our book club meets on Wednesdays at 7pm at Marta's place."


NOTES = [
    ("Could you please make a note that my passport number ends in 4471", "my passport"),
    ("I want you to remember that I hate cilantro", "I hate"),
    ("Please jot this down: the plumber is Marco", "the plumber"),
    ("Sounds good, though for the record, I'm allergic to shellfish", "I'm allergic"),
    ("Tu pourrais noter que mon groupe sanguin est O négatif, s'il te plaît ?", "mon groupe"),
    ("Kannst du dir bitte merken, dass ich Laktose nicht vertrage?", "ich Laktose"),
    ("¿Podrías apuntar que mi número termina en 8823, por favor?", "mi número"),
    ("Guárdate esto: la contraseña del router es nueva.", "la contraseña"),
    ("Anota aí, por favor: o número do meu passaporte é FX482913.", "o número"),
    ("麻烦帮我记一下，我的血型是AB型。", "我的血型"),
    ("Note to self: the boiler code is in the drawer", "the boiler"),
    ("Vergiss bitte nicht, dass ich Donnerstag frei habe", "ich Donnerstag"),
    ("No te olvides de que soy alérgica a las nueces", "soy alérgica"),
    ("Não esquece que o meu voo é às 9", "o meu voo"),
    # asked as a need or a duty, with the verb in any form the frame takes
    ("Would you mind remembering that my gate code is 7731?", "my gate"),
    ("Do me a favour and remember that the boiler service is due in October.", "the boiler"),
    ("Could you store the fact that my bike lock combination is 0419?", "my bike"),
    ("Peux-tu retenir que mon code de porte est 4512 ?", "mon code"),
    ("Il faut que tu te souviennes que Marie arrive le 3 mai.", "Marie arrive"),
    ("Du musst dir merken, dass der Müll dienstags abgeholt wird.", "der Müll"),
    ("Necesito que recuerdes que mi hermana llega el viernes.", "mi hermana"),
    ("Preciso que anotes que a renda vence no dia 5.", "a renda"),
    ("你要记得我的护照号码是E1234567。", "我的护照"),
    ("请帮我把这个记下来：房租每月五号交。", "房租"),
    ("Just a heads up for the future: I can't eat gluten.", "I can't"),
]


@pytest.mark.parametrize("text, rest", NOTES, ids=[n[0][:30] for n in NOTES])
def test_a_request_to_keep_something_in_any_frame_is_a_note_and_its_lead_comes_off(text, rest):
    lead = note_lead(text)
    assert lead is not None and text[len(lead) :].startswith(rest)


@pytest.mark.parametrize(
    "text",
    [
        "Keep going with the plan",
        "Remember when we went to Rome?",
        'Can you proofread this for my team? "Remember that the office closes at 4pm"',
        "Could you tell me the time?",
    ],
)
def test_what_asks_nothing_to_be_kept_is_no_note(text):
    assert not asks_to_keep(text)


@pytest.mark.parametrize("text", ["The user’s sister’s name is Sofia", "User’s cell is 555-0142"])
def test_the_stores_retelling_is_read_whatever_its_apostrophe(text):
    assert [c for c in claims(text) if c.stated]


@pytest.mark.parametrize(
    "question, terms",
    [
        ("how old am I", ["_age@user"]),
        ("what is my sister's name", ["_name@user>sister"]),
        ("who is my manager", ["_name@user>manager"]),
        ("what is my phone number", ["_phone@user"]),
        ("where does my sister Ana live", ["_home@ana"]),
        ("cuántos años tiene Diego", ["_age@diego"]),
        ("我叫什么名字", ["_name@user"]),
        ("coffee order", []),
    ],
)
def test_a_question_asks_the_attribute_of_whom_a_statement_states_it(question, terms):
    from hippocampus.search import asked_attributes

    assert asked_attributes(question) == terms
    # The terms a question asks are the terms a statement of it is indexed by.
    said = {
        "_age@user": "I'm 34",
        "_name@user>sister": "My sister's name is Sara",
        "_phone@user": "My cell is 555-0178",
    }
    for term in terms:
        if term in said:
            assert term in claim_terms(said[term])


TAILS = [
    ("My locker number is 218, please remember that.", ", please remember that."),
    ("Mon code de casier est 3381, retiens-le bien.", ", retiens-le bien."),
    ("Mein Spind hat die Nummer 212, merk dir das bitte.", ", merk dir das bitte."),
    ("Die Alarmanlage hat den Code 5521 – bitte notieren!", "– bitte notieren!"),
    ("Mi taquilla es la 44, no lo olvides.", ", no lo olvides."),
    ("O meu cacifo é o 17, não te esqueças disso.", ", não te esqueças disso."),
    ("我的储物柜号码是 58，记一下。", "，记一下。"),
]


@pytest.mark.parametrize("text, tail", TAILS, ids=[t[0][:30] for t in TAILS])
def test_a_request_to_keep_what_was_just_said_ends_a_sentence_and_comes_off(text, tail):
    assert note_tail(text) == tail and asks_to_keep(text)


@pytest.mark.parametrize(
    "text", ["We saw that film together, remember?", "I went home, and then I slept.", "Remember this.", "Ok, noted."]
)
def test_what_asks_nothing_after_a_statement_has_no_tail(text):
    assert note_tail(text) is None


def test_a_subject_holds_no_verb_or_joining_word():
    found = {(c.holder, c.attribute, c.value) for c in claims("Our meeting moved to Thursday because Ana is away.")}
    assert found == {("user>meet", "_day", "thursday")}


# A thing and when it is, whatever verb says so and in which language: the older and the newer statement are of the
# same holder (same_holder), so the newer changes the day or the time it names and nothing else.
WHEN_CHANGED = [
    (
        "Mon cours de yoga, c'est le mardi à 18h au studio Lotus.",
        "Le yoga passe au jeudi à partir de cette semaine.",
        "_day",
        "jeudi",
    ),
    ("Mi clase de salsa es los miércoles a las ocho.", "La clase de salsa ahora es los lunes.", "_day", "lunes"),
    ("A minha fisioterapia é às terças, às 9h.", "A fisioterapia passou para as quintas.", "_day", "quinta"),
    (
        "Die Hochzeit meiner Cousine ist am 13. Juni in Hamburg.",
        "Übrigens wurde die Hochzeit verschoben, sie ist jetzt am 27. Juni.",
        "_day",
        "27 6",
    ),
    (
        "Mi vuelo a Bogotá sale el jueves a las 10:15.",
        "Me cambiaron el vuelo: ahora sale a las 16:40.",
        "_time",
        "16:40",
    ),
    ("Der Chor probt donnerstags um halb acht.", "Die Chorprobe ist ab jetzt am Dienstag.", "_day", "dienstag"),
    ("周六的家长会是上午九点开。", "家长会改到下午两点了，学校刚发的通知。", "_time", "下午两点"),
    ("My Pilates class is on Saturdays at 10 am.", "My Pilates class moved to Sundays.", "_day", "sunday"),
]


@pytest.mark.parametrize("old, new, attr, value", WHEN_CHANGED, ids=[c[1][:30] for c in WHEN_CHANGED])
def test_a_thing_said_at_another_day_or_time_changes_it_whatever_the_verb(old, new, attr, value):
    met = meeting(claims(new), claims(old))
    assert met is not None and met[0] == "changed" and (met[1].attribute, met[1].value) == (attr, value), met


@pytest.mark.parametrize(
    "old, new",
    [
        ("My yoga class is on Tuesdays.", "My dance class is on Thursdays."),
        ("My birthday is on May 3.", "My sister's birthday is on June 3."),
        ("The team standup is at 9:30.", "The team dinner is at 19:00."),
        ("My yoga class is on Tuesdays.", "I have a meeting on Thursday."),
        ("My yoga class is on Tuesdays.", "Is my yoga class on Thursday?"),
    ],
)
def test_another_thing_or_a_question_changes_no_day(old, new):
    met = meeting(claims(new), claims(old))
    assert met is None or met[0] != "changed", met


def test_a_text_is_read_once_a_process_however_many_were_read_since():
    # A long session compares each new message with memories made thousands of messages before: their words must not
    # be read again (its cost would grow faster than the session).
    first = "My locker code is 4512, the one by the pool."
    claims(first)
    for number in range(5000):
        claims(f"My gym number is {number} now.")
    before = claims.cache_info().misses
    claims(first)
    assert claims.cache_info().misses == before


def test_one_persons_day_and_anothers_are_not_the_same_thing_said_again():
    # recall lists the later of two memories it cannot tell apart first (search.said_alike reads these terms)
    mine = claim_terms("Mi cumpleaños es el 3 de agosto, siempre me pilla de vacaciones.")
    theirs = claim_terms("el cumpleaños de mi marido es el 28 de agosto, a ver qué le regalo")
    assert mine and theirs and not mine & theirs, (mine, theirs)


def test_the_words_of_a_day_are_no_part_of_the_thing_it_is_the_day_of():
    found = claims("I passed the adoption agency interviews last Friday!")
    assert not [c for c in found if "last" in c.holder.split(">")], found


def test_dropping_someone_off_gives_nothing_up():
    assert not [c for c in claims("I dropped the kids at school and went to work.") if c.value == "no"]


def test_what_was_added_or_a_number_that_names_is_no_total():
    assert not [c for c in claims("User likes coffee number 5 with oat milk") if c.attribute.startswith("_count")]
    assert not [c for c in claims("Ganhei mais 4 cactos da vizinha.") if c.attribute.startswith("_count")]
    assert not [c for c in claims("I ran 5 miles yesterday.") if c.attribute.startswith("_count")]


@pytest.mark.parametrize(
    "text", ["I went to the beach on the 20th.", "I met my sister on Monday.", "I have a meeting on Monday."]
)
def test_where_one_went_or_whom_one_met_has_no_day(text):
    assert not [c for c in claims(text) if c.attribute in ("_day", "_time")], claims(text)


def test_a_day_said_again_in_other_words_changes_nothing():
    # a weekday put beside a date is the same day, not a new one (LongMemEval 1e043500)
    old = claims("User just got a new pair of Adidas running shoes recently, on February 12th.")
    new = claims("I got the new pair of Adidas running shoes on February 12th, a Thursday.")
    met = meeting(new, old)
    assert met is None or met[0] != "changed", met
