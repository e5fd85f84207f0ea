"""What one message commits to, or says is done, in the phrasings people use in English, French, German, Spanish,
Portuguese and Chinese: the user's requests to be reminded, the agent's promises with a time, the sentences that say
something is done — and the look-alikes that are none of them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import example, given, settings, strategies as st

from hippocampus.ingestion import promises as promises_module
from hippocampus.ingestion.promises import done_sentences, promises, requests
from hippocampus.text import may_contain

SAID = datetime(2026, 3, 5, 10, 0, tzinfo=timezone(timedelta(hours=2)))  # Thursday, 10:00 in the user's zone
FRIDAY = "2026-03-06T09:00+02:00"


def when(found) -> str | None:
    return found.due.at.isoformat(timespec="minutes") if found.due else None


@pytest.mark.parametrize(
    "text, task, due",
    [
        ("Can you remind me on Friday to call the plumber?", "Remind the user to call the plumber", FRIDAY),
        ("Remind me to call the plumber tomorrow", "Remind the user to call the plumber", FRIDAY),
        (
            "Please remind me at 5pm to take my medication",
            "Remind the user to take their medication",
            "2026-03-05T17:00+02:00",
        ),
        (
            "don't let me forget to send the invoice on Monday",
            "Remind the user to send the invoice",
            "2026-03-09T09:00+02:00",
        ),
        (
            "Could you remind me in two hours to check the oven?",
            "Remind the user to check the oven",
            "2026-03-05T12:00+02:00",
        ),
        ("remind me about the dentist next week", "Remind the user about the dentist", "2026-03-09T09:00+02:00"),
        ("Set a reminder for tomorrow at 9 to call mom", "Remind the user to call mom", FRIDAY),
        (
            "Remind me that I have a haircut on Saturday",
            "Remind the user that they have a haircut",
            "2026-03-07T09:00+02:00",
        ),
        ("remind me to buy milk", "Remind the user to buy milk", None),
        ("Remind me of the dentist tomorrow", "Remind the user about the dentist", FRIDAY),
        (
            "Can you help me set a reminder for my writing session on Sunday?",
            "Remind the user about their writing session",
            "2026-03-08T09:00+02:00",
        ),
        ("Hey Nova, ping me tomorrow about the invoice", "Remind the user about the invoice", FRIDAY),
        ("Rappelle-moi d'appeler le plombier vendredi", "Remind the user: appeler le plombier", FRIDAY),
        ("Tu peux me rappeler demain à 9h de payer le loyer ?", "Remind the user: payer le loyer", FRIDAY),
        (
            "N'oublie pas de me rappeler d'envoyer la facture lundi",
            "Remind the user: envoyer la facture",
            "2026-03-09T09:00+02:00",
        ),
        ("Erinnere mich morgen daran, den Klempner anzurufen", "Remind the user: den Klempner anzurufen", FRIDAY),
        ("Kannst du mich am Freitag an die Steuererklärung erinnern?", "Remind the user: die Steuererklärung", FRIDAY),
        (
            "Erinnere mich in zwei Stunden, die Wäsche aufzuhängen",
            "Remind the user: die Wäsche aufzuhängen",
            "2026-03-05T12:00+02:00",
        ),
        ("Recuérdame mañana llamar al fontanero", "Remind the user: llamar al fontanero", FRIDAY),
        ("¿Me puedes recordar el viernes que pague la luz?", "Remind the user: pague la luz", FRIDAY),
        (
            "No me dejes olvidar enviar la factura el lunes",
            "Remind the user: enviar la factura",
            "2026-03-09T09:00+02:00",
        ),
        ("Me lembra amanhã de ligar para o encanador", "Remind the user: ligar para o encanador", FRIDAY),
        ("Lembra-me de pagar a renda na sexta", "Remind the user: pagar a renda", FRIDAY),
        (
            "Pode me lembrar daqui a duas horas de tirar o bolo do forno?",
            "Remind the user: tirar o bolo do forno",
            "2026-03-05T12:00+02:00",
        ),
        ("明天提醒我给水管工打电话", "Remind the user: 给水管工打电话", FRIDAY),
        ("周五提醒我交房租", "Remind the user: 交房租", FRIDAY),
        ("两个小时后提醒我关烤箱", "Remind the user: 关烤箱", "2026-03-05T12:00+02:00"),
        ("别让我忘了明天交报告", "Remind the user: 交报告", FRIDAY),
    ],
)
def test_the_users_requests_to_be_reminded_are_read_with_what_and_when(text, task, due):
    [found] = requests(text, SAID)
    assert (found.by, found.task, when(found)) == ("user", task, due)


@pytest.mark.parametrize(
    "text",
    [
        "That reminds me, the plumber came yesterday",
        "Remind me what the wifi password is?",
        "remind me how the heating works",
        "You remind me of my grandmother",
        "I'll call the plumber tomorrow",  # the user's own plan: no request
        "Ich erinnere mich an den Urlaub in Rom",  # "I remember"
        "Eu me lembro dessa viagem",
        "Rappelle-moi comment on fait déjà ?",
        "Can you remind me of the score of the Super Bowl?",
        "Can you remind me when the workshop with Sarah is?",
        "By the way, can you remind me about the typical vaccination schedule for horses?",
        "I set a reminder on my Fitbit to go to bed by 10:30 pm every night.",
        "I'd like to make sure I don't forget to register for the next run.",
        "Maybe something that encourages viewers to set a reminder?",
        "So maybe I can set a reminder for 9:00 pm to start winding down.",
    ],
)
def test_what_only_looks_like_a_request_is_none(text):
    assert requests(text, SAID) == []


@pytest.mark.parametrize(
    "text, task, due",
    [
        ("I'll send you the summary tomorrow.", "The agent promised to send the user the summary", FRIDAY),
        ("I'll remind you on Friday to call the plumber.", "Remind the user to call the plumber", FRIDAY),
        (
            "Sure — I will follow up with the quotes next week.",
            "The agent promised to follow up with the quotes",
            "2026-03-09T09:00+02:00",
        ),
        (
            "Let me look into the train times tomorrow morning and get back to you.",
            "The agent promised to look into the train times and get back to the user",
            FRIDAY,
        ),
        ("Je t'enverrai le résumé demain.", "The agent promised: Je t'enverrai le résumé", FRIDAY),
        ("Je te rappellerai vendredi d'appeler le plombier.", "Remind the user: appeler le plombier", FRIDAY),
        (
            "Ich schicke dir morgen die Zusammenfassung.",
            "The agent promised: Ich schicke dir die Zusammenfassung",
            FRIDAY,
        ),
        (
            "Ich werde dich morgen daran erinnern, den Klempner anzurufen.",
            "Remind the user: den Klempner anzurufen",
            FRIDAY,
        ),
        ("Te enviaré el resumen mañana.", "The agent promised: Te enviaré el resumen", FRIDAY),
        ("Voy a revisar los horarios mañana.", "The agent promised: Voy a revisar los horarios", FRIDAY),
        ("Vou te enviar o resumo amanhã.", "The agent promised: Vou te enviar o resumo", FRIDAY),
        ("Amanhã te lembro de ligar para o encanador.", "Remind the user: ligar para o encanador", FRIDAY),
        ("我明天把总结发给你。", "The agent promised: 我把总结发给你", FRIDAY),
        ("我会在周五提醒你给水管工打电话。", "Remind the user: 给水管工打电话", FRIDAY),
    ],
)
def test_the_agents_promises_are_read_with_what_and_when(text, task, due):
    [found] = promises(text, SAID)
    assert (found.by, found.task, when(found)) == ("agent", task, due)


@pytest.mark.parametrize(
    "text",
    [
        "Sure, I'll remind you on Friday!",
        "Ich werde dich am Freitag daran erinnern.",
        "Te lo recordaré el viernes.",
        "好的，我会在周五提醒你。",
    ],
)
def test_a_promise_to_remind_that_names_nothing_confirms_the_request_before_it(text):
    [found] = promises(text, SAID)
    assert (found.what, found.task, when(found)) == ("", "", FRIDAY)


@pytest.mark.parametrize(
    "text",
    [
        "I'll keep that in mind.",
        "I'll check the file now.",  # no time: done at once
        "I will keep it safe.",
        "Shall I remind you tomorrow?",
        "If you want, I'll send it tomorrow.",
        "Let me know tomorrow how it went.",
        "I won't be able to send it tomorrow.",
        "Got it — dentist moved to Friday 16:30.",
        "Si tu veux, je t'enverrai le résumé demain.",
        "需要我明天提醒你吗？",
        'Try an affirmation like "I will finish the report by Friday." every morning.',
        "Here is a draft of the email:\n\nHi team, I'll send the figures tomorrow.",
        "> I'll call you tomorrow, he wrote.",
        "```\nprint('I will run tomorrow')\n```",
    ],
)
def test_what_only_looks_like_a_promise_is_none(text):
    assert promises(text, SAID) == []


@pytest.mark.parametrize(
    "text, role",
    [
        ("I called the plumber", "user"),
        ("Thanks, got the summary!", "user"),
        ("The invoice is paid.", "user"),
        ("I've booked the table for Saturday.", "user"),
        ("Here's the summary I promised: rent 1,200, notice three months.", "assistant"),
        ("J'ai appelé le plombier", "user"),
        ("Merci, j'ai bien reçu le résumé", "user"),
        ("Ich habe den Klempner angerufen", "user"),
        ("Danke, hab die Zusammenfassung bekommen", "user"),
        ("Ya llamé al fontanero", "user"),
        ("Gracias, recibí el resumen", "user"),
        ("Já liguei para o encanador", "user"),
        ("Obrigado, recebi o resumo", "user"),
        ("我已经给水管工打过电话了", "user"),
        ("收到总结了，谢谢", "user"),
    ],
)
def test_a_sentence_that_says_something_is_done_is_found(text, role):
    assert done_sentences(text, role, SAID) == [text]


@pytest.mark.parametrize(
    "text", ["done", "Done!", "all done 👍", "sent it", "C'est fait", "Erledigt!", "Hecho", "Feito!", "搞定了", "✅"]
)
def test_a_message_that_only_says_done_is_done_about_what_came_just_before(text):
    assert done_sentences(text, "user", SAID) == [""]


@pytest.mark.parametrize(
    "text",
    [
        "I haven't called the plumber yet",
        "I forgot to call the plumber",
        "Did you call the plumber?",
        "I need to call the plumber",
        "Got it, thanks!",
        "I wanted to call the plumber but he was out",
        "I'll call the plumber tomorrow.",
        "Here's the plan for tomorrow",  # the user handing something over
        "Je n'ai pas encore appelé le plombier",
        "Ich habe den Klempner noch nicht angerufen",
        "Todavía no he llamado al fontanero",
        "Ainda não liguei para o encanador",
        "我还没给水管工打电话",
    ],
)
def test_a_sentence_that_says_it_is_not_done_or_asks_or_plans_is_not_done(text):
    assert done_sentences(text, "user", SAID) == []


@pytest.mark.parametrize(
    "text",
    [
        "I've set a reminder for Friday to call the plumber.",
        "I put it in your calendar for Friday: call the plumber.",
        "I've added 'call the plumber' to your to-do list.",
    ],
)
def test_the_agent_noting_a_task_down_is_not_the_task_kept(text):
    assert done_sentences(text, "assistant", SAID) == []


def test_our_own_listing_read_back_from_a_transcript_commits_to_nothing_and_closes_nothing():
    listing = (
        "## Commitments due (1)\n"
        "- [due in 3 hours, Fri 2026-03-06 09:00 GMT+2] Remind the user to call the plumber · mem_043\n"
        "(close one that is kept: commitments.py --done ID; saying so in the conversation closes it too)"
    )
    assert promises(listing, SAID) == [] and requests(listing, SAID) == []
    assert done_sentences(listing, "assistant", SAID) == []


# The patterns of requests and promises, written plainly: each alternative with its own `\b`, a word read by its
# ending as a run of letters given back one at a time. The module's are written to be cheaper to try at every place.
_PLAIN = {
    "_REMIND_PROMISES": (
        r"\bI(?:['’]ll|\s+will|\s+shall|['’]m\s+going\s+to|\s+am\s+going\s+to)\s+(?:\w+\s+)?remind\s+you\b"
        r"|\bje\s+(?:vous|te)\s+(?:le\s+)?rappellerai\b|\bje\s+vais\s+(?:vous|te)\s+(?:le\s+)?rappeler\b"
        r"|\bich\s+(?:werde\s+)?(?:dich|sie|euch)\b(?:\s+\S+){0,6}?\s+erinnern\b|\bich\s+erinnere\s+(?:dich|sie|euch)\b"
        r"|\bte\s+(?:lo\s+)?recordar[ée]\b|\bvoy\s+a\s+recordarte\b|\bte\s+lo\s+recuerdo\b"
        r"|\bte\s+lembro\b|\bvou\s+te\s+lembrar\b|\bvou\s+lembr[aá][- ]?te\b|\bte\s+lembrarei\b|\blembrarei\s+voc[êe]\b"
        r"|(?:我会|我會|我)?(?:在\S{0,8})?提醒你"
    ),
    "_PROMISES": (
        r"\bI(?:['’]ll|\s+will|\s+shall|['’]m\s+going\s+to|\s+am\s+going\s+to|\s+promise\s+to|['’]ll\s+make\s+sure\s+to)\s+"
        r"|\blet\s+me\s+(?!know\b|see\b|think\b|explain\b|guess\b|be\b)"
        r"|\bje\s+vais\s+|\bj['’]vais\s+|\bje\s+(?:(?:te|vous|le|la|les|lui|leur|t['’]|l['’]|m['’]en)\s*)*(?!serai\b)\w+rai\b"
        r"|\bj['’](?!aurai\b)\w+rai\b|\bje\s+m['’]en\s+occupe\b"
        r"|\bich\s+werde\b|\bich\s+(?:schicke|sende|schreibe|melde|rufe|kümmere|gebe|prüfe|schaue|mache|bringe|kläre"
        r"|buche|besorge|hole)\b|\b(?:werde|schicke|sende|schreibe|melde|rufe|kümmere|gebe|prüfe|schaue|mache|bringe"
        r"|kläre|buche)\s+ich\b"
        r"|\bvoy\s+a\s+|(?<![\w'’])(?:(?:te|le|se|os|les)\s+)?(?:(?:lo|la|los|las)\s+)?(?<!\bai\s)(?<!\ba\s)(?<!\bas\s)"
        r"\w{2,}(?:aré|eré|iré)(?![\w'’])|\bme\s+encargo\b"
        r"|\bvou\s+|\b\w{2,}(?:arei|erei|irei)\b|\b(?:eu\s+)?te\s+(?:mando|envio|aviso|ligo|escrevo)\b"
        r"|我(?:会|會|将|將|来|來|明天|今晚|稍后|稍後|晚点|晚點|下午|明早)"
    ),
    "_REQUESTS[0]": (
        r"\bremind\s+me\b|\bdon['’]?t\s+let\s+me\s+forget\b|\bmake\s+sure\s+I\s+(?:don['’]?t\s+forget|remember)\b"
        r"|\b(?:set|add|create|make|put\s+in)\s+(?:me\s+)?a\s+reminder\b|\b(?:ping|nudge)\s+me\b"
    ),
    "_REQUESTS[1]": (
        r"\brappel(?:le|les|lez)[- ]?moi\b|\bme\s+rappeler\b|\bfai(?:s|tes)[- ]moi\s+penser\b"
        r"|\bne\s+me\s+laisse\s+pas\s+oublier\b"
    ),
    "_REQUESTS[2]": (
        r"(?<!\bich\s)\berinner(?:e|n)?\s+(?:sie\s+)?mich\b|\blass\s+mich\s+nicht\s+vergessen\b"
        r"|\bmich\b(?P<between>(?:\s+\S+){0,8}?)\s+erinnern\b"
    ),
    "_REQUESTS[3]": (
        r"\brecu[ée]rd(?:a|e)me\b|\bme\s+(?:puedes|podr[íi]as|puede|podr[íi]a)\s+recordar\b"
        r"|\b(?:puedes|podr[íi]as|puede|podr[íi]a)\s+recordarme\b|\bno\s+me\s+dejes\s+olvidar\b|\bav[íi]same\b"
    ),
    "_REQUESTS[4]": (
        r"\blembr[ae][- ]me\b|\bme\s+lembr(?:a|e|as|es)\b|\b(?:pode|podes|poderia|podia)s?\s+me\s+lembrar\b"
        r"|\b(?:pode|podes|poderia)s?\s+lembrar[- ]me\b|\bn[ãa]o\s+me\s+deix(?:e|es|a)\s+esquecer\b"
    ),
}
# Pieces of the words they look for, and letters that fold oddly ("İ", "ı", the Kelvin sign, "ſ").
_PIECES = (
    "I'll |I |will |je |j'|j’|te |le |lo |se |os |les |ai |a |as |vou |voy a |ich |dich |erinnern|remind you|let me "
    "|lui |m'en |serai|aurai|rai|ar|er|ir|aré|eré|iré|arei|erei|irei|ARÉ|Rai|é|É|e|i|a|r|x|1|_| |\n|'|’|.|İ|ı|\u212a|ſ"
    "|我会|提醒你|在|mando|remind me|don't |let |me |make sure |reminder|ping |rappelle-moi|erinnere|erinnern|mich "
    "|lass |sie |recuérdame|recordar|lembra-me|lembrar|pode |s|ME|Ich |dich"
    "|shall |going to |promise to |vais |occupe|encargo|escrevo |aviso |sure |forget|nudge me|penser|oublier|avisame"
    "|vergessen|olvidar|esquecer|recuerdo|te lo |RemInd|LET ME |Remember"
).split("|")


@settings(max_examples=1000)
@given(name=st.sampled_from(sorted(_PLAIN)), text=st.lists(st.sampled_from(_PIECES), max_size=16).map("".join))
@example(name="_PROMISES", text="je te le donnerai")
@example(name="_PROMISES", text="a compraré, te lo enviaré, ai terminaré")
@example(name="_PROMISES", text="eu mandarei, j'aurai, j'enverrai")
@example(name="_PROMISES", text="aré xaré xxaré, irei xirei xxirei, je rai je xrai, j'rai j'xrai")
@example(name="_REQUESTS[2]", text="ich erinnere mich, Ich\nerinnern mich, erinnere mich, mich bitte morgen erinnern")
def test_the_promise_patterns_find_what_their_plain_forms_find(name, text):
    base, _, index = name.partition("[")  # "_PROMISES", "_REQUESTS[2]"
    pattern = getattr(promises_module, base)
    if index:
        pattern = pattern[int(index.rstrip("]"))]
    plain = re.compile(_PLAIN[name], pattern.flags)
    for start in range(len(text) + 1):
        assert [(m.span(), m.groups()) for m in pattern.finditer(text, start)] == [
            (m.span(), m.groups()) for m in plain.finditer(text, start)
        ]


def _pattern(name):
    base, _, index = name.partition("[")  # "_PROMISES", "_REQUESTS[2]"
    pattern = getattr(promises_module, base)
    return pattern[int(index.rstrip("]"))] if index else pattern


def _words(name):
    return promises_module._REQUEST_WORDS if name.startswith("_REQUESTS") else promises_module._PROMISE_WORDS


# One text for each alternative of the patterns, in ASCII.
_EACH_ALTERNATIVE = {
    "_REMIND_PROMISES": (
        "I'll remind you|I am going to remind you|je te rappellerai|je vais vous rappeler"
        "|ich werde dich morgen erinnern|ich erinnere dich|te lo recordare|voy a recordarte|te lo recuerdo|te lembro"
        "|vou te lembrar|vou lembra-te"
        "|te lembrarei|lembrarei voce"
    ),
    "_PROMISES": (
        "I'll do|I will do|I shall do|I'm going to do|I am going to do|I promise to do|let me do|je vais faire"
        "|j'vais faire|je le ferai|j'enverrai|je m'en occupe|ich werde|ich schicke|schicke ich|voy a hacer|me encargo"
        "|vou fazer|mandarei|venderei|partirei|eu te mando|te envio|te aviso|te ligo|te escrevo"
    ),
    "_REQUESTS[0]": (
        "remind me|don't let me forget|make sure I don't forget|make sure I remember|set a reminder"
        "|put in me a reminder|ping me|nudge me"
    ),
    "_REQUESTS[1]": "rappelle-moi|me rappeler|fais-moi penser|ne me laisse pas oublier",
    "_REQUESTS[2]": "erinnere mich|lass mich nicht vergessen|mich morgen erinnern",
    "_REQUESTS[3]": "recuerdame|me puedes recordar|podrias recordarme|no me dejes olvidar|avisame",
    "_REQUESTS[4]": "lembra-me|me lembra|podes me lembrar|pode lembrar-me|nao me deixe esquecer",
}


@pytest.mark.parametrize("name, text", [(n, t) for n, texts in _EACH_ALTERNATIVE.items() for t in texts.split("|")])
def test_each_alternative_of_the_promise_patterns_holds_one_of_their_words(name, text):
    assert _pattern(name).search(text) and may_contain(text, _words(name))
    assert _pattern(name).search(text.upper()) and may_contain(text.upper(), _words(name))


@settings(max_examples=1000)
@given(name=st.sampled_from(sorted(_PLAIN)), text=st.lists(st.sampled_from(_PIECES), max_size=16).map("".join))
def test_a_text_the_promise_patterns_find_something_in_holds_one_of_their_words(name, text):
    if _pattern(name).search(text):
        assert may_contain(text, _words(name))


def test_a_request_that_names_its_time_between_the_verbs_keeps_the_task_that_follows():
    [found] = requests("Kannst du mich morgen erinnern, die Pakete zur Post zu bringen?", SAID)
    assert found.what == "die Pakete zur Post zu bringen" and found.due is not None


@pytest.mark.parametrize(
    "text, day",
    [
        ("Verschieb die Erinnerung für Herrn Vogel bitte auf Montag, er ist heute nicht im Büro.", 9),
        ("Muda o lembrete do IPVA pra sexta, só recebo na quinta.", 6),
        ("Move the dentist reminder to Monday, because on Friday I'm away.", 9),
    ],
)
def test_a_move_goes_to_the_time_its_own_clause_names_not_the_one_in_its_reason(text, day):
    [(_, due)] = promises_module.moved(text, SAID)
    assert due.at.day == day, due


@pytest.mark.parametrize(
    "text",
    [
        "Já devolvi os livros à biblioteca, podes riscar isso.",
        "Gave mom her pearl earrings back today, she was so relieved.",
    ],
)
def test_a_task_said_done_in_the_past_tense_is_a_report(text):
    assert done_sentences(text, "user", SAID) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "J'ai vu que Zalando fait des soldes en ce moment, c'est tentant.",
        "Ich habe gelesen, dass die Post streikt.",
        "I saw the plumber's van outside.",
    ],
)
def test_seeing_reading_or_hearing_of_a_task_is_no_report_that_it_is_done(text):
    assert done_sentences(text, "user", SAID) == []


def test_a_portuguese_weekday_after_to_is_a_day_and_an_ordinal_before_its_noun_is_none():
    from hippocampus.ingestion.duetime import read_due

    assert read_due("Muda o lembrete pra sexta", SAID).at.day == 6
    assert read_due("Foi para a segunda vez que tentei", SAID) is None


@pytest.mark.parametrize(
    "text",
    [
        "Can you push the bank call to Monday instead?",
        "Kannst du die Erinnerung für den Zahnarzt auf Montag verschieben?",
        "¿Puedes mover lo del taller al lunes?",
    ],
)
def test_a_request_asked_as_a_question_moves_a_commitment(text):
    [(sentence, due)] = promises_module.moved(text, SAID)
    assert due.at.weekday() == 0, due  # Monday


@pytest.mark.parametrize(
    "text", ["Could you cancel the plumber reminder?", "Olvídate de lo de las entradas, se agotaron."]
)
def test_a_request_to_call_off_however_asked_calls_off(text):
    assert promises_module.called_off(text)


def test_a_question_that_asks_nothing_to_be_done_moves_nothing():
    assert not promises_module.moved("Did the plumber move to Monday?", SAID)
    assert not promises_module.called_off("Did they cancel the concert?")


@pytest.mark.parametrize("text", ["Pediatra marcado!", "Tickets booked.", "Billets réservés !", "Steuer erledigt"])
def test_a_thing_and_what_was_done_to_it_says_it_is_done(text):
    assert done_sentences(text, "user", SAID), text


def test_a_notice_asked_for_is_a_reminder():
    [found] = requests("Me avisa na quinta para pagar o IPVA.", SAID)
    assert "IPVA" in found.task and found.due is not None


def test_done_said_in_its_own_clause_whatever_the_rest_asks():
    assert done_sentences("Já peguei o terno, pode tirar o lembrete.", "user", SAID)
    assert done_sentences("Cadeau pour Julie acheté, un joli foulard.", "user", SAID)


def test_a_request_not_to_let_something_be_forgotten_is_a_reminder():
    [found] = requests("No dejes que se me olvide el viernes pagar el alquiler.", SAID)
    assert "alquiler" in found.task and found.due is not None
