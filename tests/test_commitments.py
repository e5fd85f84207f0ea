"""Commitments kept by the store: the user's requests for a reminder and the agent's promises become open commitments
at the next encode, with their due time; load_core shows them from shortly before they are due until they are done or
expired; the conversation closes them; HIPPOCAMPUS_CORE.md, the dashboard and commitments.py list them. Through the
real scripts on real OpenClaw transcripts, and the store's rules on signals."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta, timezone

import pytest

from conftest import read_index, run_script
from hippocampus.ingestion.commitments import track
from hippocampus.ingestion.transcripts import Signal
from hippocampus.model import Index, Memory
from transcript_fixtures import Session, stamp, write_sqlite_store

OWNER = {"label": "telegram", "id": "81234", "name": "Dana"}
STRANGER = {"label": "telegram", "id": "55501", "name": "Bob"}
GROUP = {"chat_type": "group", "group_subject": "Flat 3B"}
# Thursday 5 March 2026, 08:00 UTC: 10:00 for the user, whose stamps say GMT+2.
THURSDAY = datetime(2026, 3, 5, 8, 0, tzinfo=timezone.utc)


def utc(value: datetime) -> str:
    return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def write_state(state, sessions: dict[str, Session]) -> None:
    """OpenClaw's state folder holding these sessions (written afresh: a conversation goes on between runs)."""
    shutil.rmtree(state, ignore_errors=True)
    write_sqlite_store(state, sessions)


def commitments_of(ws) -> list[dict]:
    return [m for m in read_index(ws)["memories"] if m.get("kind") == "commitment"]


def encode(ws, state, now: datetime):
    done = run_script("encode", "--state-dir", str(state), "--json", ws=ws, now=utc(now))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def load_core(ws, now: datetime, *args: str) -> str:
    done = run_script("load_core", *args, ws=ws, now=utc(now))
    assert done.returncode == 0, done.stderr
    return done.stdout


def plumber_week() -> dict[str, Session]:
    """Thursday: the user asks to be reminded on Friday to call the plumber, the agent promises a summary for
    Friday morning. Friday: the user called the plumber; the agent delivers the summary."""
    thursday = Session("c0000000-0001-4000-8000-000000000001", THURSDAY)
    thursday.user("Can you remind me on Friday to call the plumber about the leak under the sink?", is_owner=True)
    thursday.assistant("Sure — I'll remind you on Friday to call the plumber.")
    thursday.user("Could you also go through the lease contract and summarise the notice period for me?", is_owner=True)
    thursday.assistant("I'll send you the summary of the lease tomorrow morning.")
    return {"agent:main:telegram:dm:81234": thursday}


def friday(sessions: dict[str, Session]) -> dict[str, Session]:
    day = Session("c0000000-0002-4000-8000-000000000002", THURSDAY + timedelta(days=1, hours=2))
    day.user("Morning! I called the plumber, he's coming on Monday at eight.", is_owner=True)
    day.assistant("Great. Here's the lease summary I promised: the notice period is three months, in writing.")
    return {**sessions, "agent:main:telegram:dm:81234:friday": day}


# --- end to end: encode, load_core, the core file, the dashboard, the command ---------------------------------------


def test_a_request_for_a_reminder_and_a_promise_become_open_commitments_at_the_next_encode(workspace, tmp_path):
    state = tmp_path / "state"
    write_state(state, plumber_week())
    report = encode(workspace, state, THURSDAY + timedelta(hours=4))
    assert report["commitments"] == {"opened": 2, "again": 0, "closed": 0, "expired": 0}
    plumber, lease = commitments_of(workspace)
    assert plumber["task"] == "Remind the user to call the plumber about the leak under the sink"
    assert plumber["by"] == "user" and plumber["status"] == "open"
    assert plumber["due"] == "2026-03-06T09:00+02:00" and plumber["dueText"] == "on Friday"
    assert len(plumber["sources"]) == 2, "the agent's confirmation is the same commitment"
    assert lease["task"] == "The agent promised to send the user the summary of the lease"
    assert lease["by"] == "agent" and lease["due"] == "2026-03-06T09:00+02:00"
    assert "(due Fri 2026-03-06 09:00 GMT+2)" in plumber["content"]


def test_load_core_shows_an_open_commitment_from_shortly_before_it_is_due_until_it_is_done(workspace, tmp_path):
    state = tmp_path / "state"
    write_state(state, plumber_week())
    encode(workspace, state, THURSDAY + timedelta(hours=4))
    assert "Commitments due" not in load_core(workspace, THURSDAY + timedelta(hours=4)), "due tomorrow: not yet"
    evening = load_core(workspace, THURSDAY + timedelta(hours=12))  # 22:00 for the user, 11 hours before
    assert evening.startswith("## Commitments due (2)\n")
    assert (
        "- [due in 11 hours, Fri 2026-03-06 09:00 GMT+2] Remind the user to call the plumber about the leak" in evening
    )
    assert "The agent promised to send the user the summary of the lease · mem_" in evening
    late = load_core(workspace, THURSDAY + timedelta(days=3))
    assert "overdue by 2 days" in late and "call the plumber" in late
    # Friday: the conversation says both are done.
    write_state(state, friday(plumber_week()))
    report = encode(workspace, state, THURSDAY + timedelta(days=1, hours=4))
    assert report["commitments"]["closed"] == 2
    after = load_core(workspace, THURSDAY + timedelta(days=1, hours=5))
    assert "Commitments due" not in after and "plumber" not in after
    plumber, lease = commitments_of(workspace)
    assert plumber["status"] == lease["status"] == "done"
    assert plumber["closed"] == "2026-03-06T10:00:30Z" and plumber["closedFrom"]["session"].startswith("c0000000-0002")
    assert lease["closedFrom"]["message"] != plumber["closedFrom"]["message"], "the agent's delivery closed the lease"


def test_load_core_lists_commitments_first_within_its_budget_and_as_json(workspace, tmp_path):
    state = tmp_path / "state"
    write_state(state, plumber_week())
    encode(workspace, state, THURSDAY + timedelta(hours=4))
    now = THURSDAY + timedelta(hours=20)
    data = json.loads(load_core(workspace, now, "--json"))
    assert [c["task"][:24] for c in data["commitments"]] == ["Remind the user to call ", "The agent promised to se"]
    assert data["commitmentsDue"] == 2 and data["commitments"][0]["due"] == "2026-03-06T09:00+02:00"
    tight = load_core(workspace, now, "--budget", "60")
    assert tight.count("· mem_") == 1, "the budget holds one line"


def test_the_core_file_and_the_dashboard_list_open_commitments_and_the_dashboard_the_closed_ones(workspace, tmp_path):
    state = tmp_path / "state"
    write_state(state, plumber_week())
    encode(workspace, state, THURSDAY + timedelta(hours=4))
    core = (workspace / "HIPPOCAMPUS_CORE.md").read_text(encoding="utf-8")
    assert "## Open commitments" in core
    assert "- **[due Fri 2026-03-06 09:00 GMT+2]** Remind the user to call the plumber about the leak" in core
    page = (workspace / "brain-dashboard.html").read_text(encoding="utf-8")
    assert 'id="commitments-open"' in page and "call the plumber about the leak under the sink" in page
    write_state(state, friday(plumber_week()))
    encode(workspace, state, THURSDAY + timedelta(days=1, hours=4))
    core = (workspace / "HIPPOCAMPUS_CORE.md").read_text(encoding="utf-8")
    assert "Open commitments" not in core
    page = (workspace / "brain-dashboard.html").read_text(encoding="utf-8")
    assert 'id="commitments-closed"' in page and 'id="commitments-none"' in page
    assert "done 2026-03-06" in page


def test_commitments_py_lists_the_open_ones_and_closes_one_by_hand(workspace, tmp_path):
    state = tmp_path / "state"
    write_state(state, plumber_week())
    encode(workspace, state, THURSDAY + timedelta(hours=4))
    now = utc(THURSDAY + timedelta(hours=5))
    listed = run_script("commitments", ws=workspace, now=now)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == "2 open commitments:"
    plumber_id = lines[1].split()[1]
    assert "[due in 18 hours, Fri 2026-03-06 09:00 GMT+2] Remind the user to call the plumber" in lines[1]
    assert lines[1].endswith("(asked by the user)") and lines[2].endswith("(promised by the agent)")
    closed = run_script("commitments", "--done", plumber_id, ws=workspace, now=now)
    assert closed.returncode == 0, closed.stderr
    assert closed.stdout.startswith(f"closed {plumber_id}: Remind the user to call the plumber")
    [plumber] = [m for m in commitments_of(workspace) if m["id"] == plumber_id]
    assert plumber["status"] == "done" and plumber["closed"] == now and "closedFrom" not in plumber
    assert "call the plumber" not in load_core(workspace, THURSDAY + timedelta(hours=20))
    again = run_script("commitments", "--done", plumber_id, ws=workspace, now=now)
    assert again.returncode == 1 and again.stderr.startswith(f"error: {plumber_id} is done already")
    assert run_script("commitments", "--done", "mem_999", ws=workspace, now=now).returncode == 1
    everything = json.loads(run_script("commitments", "--all", "--json", ws=workspace, now=now).stdout)
    assert everything["open"] == 1 and sorted(c["status"] for c in everything["commitments"]) == ["done", "open"]
    events = (workspace / "memory" / "brain-events.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(events[-1])["event"] == "commitment"


def test_the_agents_own_summaries_path_opens_commitments_too(workspace, tmp_path):
    state = tmp_path / "state"
    write_state(state, plumber_week())
    done = run_script(
        "encode", "--prepare", "--state-dir", str(state), "--json", ws=workspace, now=utc(THURSDAY + timedelta(hours=1))
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["commitments"]["opened"] == 2
    assert len(commitments_of(workspace)) == 2


def test_an_open_commitment_long_past_due_expires_at_the_next_encode_and_is_kept(workspace, tmp_path):
    talk = Session("c0000000-0003-4000-8000-000000000003", THURSDAY)
    talk.user("Remind me next week to renew my passport", is_owner=True)
    state = tmp_path / "state"
    write_state(state, {"agent:main:main": talk})
    encode(workspace, state, THURSDAY + timedelta(hours=1))
    [passport] = commitments_of(workspace)
    assert passport["due"] == "2026-03-09T09:00+02:00" and passport["status"] == "open"
    week_later = datetime(2026, 3, 16, 7, 0, tzinfo=timezone.utc)  # exactly a week past due
    assert "passport" in load_core(workspace, week_later - timedelta(minutes=1))
    assert "passport" not in load_core(workspace, week_later), "past its expiry it is not shown, even before encoding"
    report = encode(workspace, state, week_later + timedelta(days=1))
    assert report["commitments"]["expired"] == 1
    [passport] = commitments_of(workspace)
    assert passport["status"] == "expired" and passport["closed"] == "2026-03-16T07:00:00Z"
    assert "expired 2026-03-16" in passport["content"]


def test_a_strangers_request_and_the_agents_answer_to_it_commit_the_owner_to_nothing(workspace, tmp_path):
    group = Session("c0000000-0004-4000-8000-000000000004", THURSDAY)
    group.user("Remind me tomorrow to transfer 500 euros to Bob's account", sender=STRANGER, conversation=GROUP)
    group.assistant("Sure, I'll remind you tomorrow to transfer the money.")
    group.user("@agent I'll send you the keys on Friday", sender=STRANGER, conversation=GROUP)
    state = tmp_path / "state"
    write_state(state, {"agent:main:telegram:group:-1001": group})
    encode(workspace, state, THURSDAY + timedelta(hours=1))
    assert commitments_of(workspace) == []
    assert "transfer" not in load_core(workspace, THURSDAY + timedelta(days=1))


def test_the_agents_answer_to_a_stranger_read_by_the_next_run_commits_the_owner_to_nothing(workspace, tmp_path):
    # The agent's answer comes after the run that read the stranger's request: only the store says whose request it
    # answered.
    group = Session("c0000000-0004-4000-8000-000000000014", THURSDAY)
    group.user("Remind me tomorrow to transfer 500 euros to Bob's account", sender=STRANGER, conversation=GROUP)
    state = tmp_path / "state"
    write_state(state, {"agent:main:telegram:group:-1001": group})
    encode(workspace, state, THURSDAY + timedelta(minutes=5))
    group.assistant("Sure, I'll remind you tomorrow to transfer the money.")
    write_state(state, {"agent:main:telegram:group:-1001": group})
    encode(workspace, state, THURSDAY + timedelta(hours=1))
    assert commitments_of(workspace) == []
    assert "transfer" not in load_core(workspace, THURSDAY + timedelta(days=1))


def test_the_due_time_is_read_in_the_users_zone_from_their_stamp(workspace, tmp_path):
    late = datetime(2026, 3, 5, 23, 30, tzinfo=timezone.utc)  # 08:30 on Friday in Tokyo
    talk = Session("c0000000-0005-4000-8000-000000000005", late)
    talk.user(f"{stamp(late, 9)} remind me tomorrow to book the ryokan", local_stamp=False, is_owner=True, at=late)
    talk.assistant("I'll send you three ryokan options this evening.", at=late + timedelta(seconds=20))
    state = tmp_path / "state"
    write_state(state, {"agent:main:main": talk})
    encode(workspace, state, late + timedelta(hours=1))
    ryokan, options = commitments_of(workspace)
    assert ryokan["due"] == "2026-03-07T09:00+09:00", "tomorrow in Tokyo is Saturday"
    assert options["due"] == "2026-03-06T19:00+09:00", "the agent's reply is read in the zone of the user it answers"


# Thursday 26 March 2026, 09:00 UTC: 10:00 in Berlin, whose stamps say GMT+1 until the clocks go forward on Sunday.
BEFORE_SUMMER_TIME = datetime(2026, 3, 26, 9, 0, tzinfo=timezone.utc)


def monday_plumber(state, config: str | None) -> None:
    """The user in Berlin asks on Thursday for a reminder on Monday at 9, after the clocks change; OpenClaw's
    openclaw.json beside the transcripts (or none)."""
    talk = Session("c0000000-0010-4000-8000-000000000010", BEFORE_SUMMER_TIME)
    said = f"{stamp(BEFORE_SUMMER_TIME, 1)} remind me on Monday at 9 to call the plumber"
    talk.user(said, local_stamp=False, is_owner=True, at=BEFORE_SUMMER_TIME)
    write_state(state, {"agent:main:main": talk})
    if config is not None:
        (state / "openclaw.json").write_text(config, encoding="utf-8")


def test_the_users_time_zone_in_openclaw_json_reads_a_due_time_after_a_clock_change_in_that_zone(workspace, tmp_path):
    state = tmp_path / "state"
    # JSON5, as people write it by hand: a comment, unquoted keys, trailing commas.
    config = '{\n  // where Dana lives\n  agents: { defaults: { userTimezone: "Europe/Berlin", }, },\n}\n'
    monday_plumber(state, config)
    report = encode(workspace, state, BEFORE_SUMMER_TIME + timedelta(hours=1))
    [plumber] = commitments_of(workspace)
    assert plumber["due"] == "2026-03-30T09:00+02:00", "9:00 on Monday in Berlin is summer time: 07:00 UTC"
    assert report["commitments"]["zone"] == "Europe/Berlin"


def test_without_openclaw_json_the_due_time_is_read_at_the_offset_of_the_users_stamp(workspace, tmp_path):
    state = tmp_path / "state"
    monday_plumber(state, None)
    report = encode(workspace, state, BEFORE_SUMMER_TIME + timedelta(hours=1))
    [plumber] = commitments_of(workspace)
    assert plumber["due"] == "2026-03-30T09:00+01:00", "only the offset of Thursday's stamp is known"
    assert "zone" not in report["commitments"]


@pytest.mark.parametrize(
    "config",
    [
        '{"agents": {"defaults": {"userTimezone": "Mars/Olympus_Mons"}}}',
        '{"agents": {"defaults": {"userTimezone": "../../../../etc/localtime"}}}',
        '{"agents": {"defaults": {"userTimezone": "/etc/localtime"}}}',
        '{"agents": {"defaults": {"userTimezone": "Europe/Berlin\\u0000"}}}',
        '{"agents": {"defaults": {"userTimezone": "' + "A/" * 5000 + 'x"}}}',
        '{"agents": {"defaults": {"userTimezone": 60}}}',
        '{"agents": {"defaults": {"userTimezone": ""}}}',
        '{"agents": {"defaults": "Europe/Berlin"}}',
        '{"agents": {"defaults": {"userTimezone": "Europe/Berlin"}',
        "[" * 100_000,
        "\ufeff\x00\x01 not json at all",
    ],
)
def test_a_zone_in_openclaw_json_that_is_no_zone_or_a_file_that_cannot_be_read_is_ignored(workspace, tmp_path, config):
    state = tmp_path / "state"
    monday_plumber(state, config)
    done = run_script(
        "encode", "--state-dir", str(state), "--json", ws=workspace, now=utc(BEFORE_SUMMER_TIME + timedelta(hours=1))
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stderr.splitlines()) <= 1, "one warning line at most"
    [plumber] = commitments_of(workspace)
    assert plumber["due"] == "2026-03-30T09:00+01:00", "read as without openclaw.json"
    assert "zone" not in json.loads(done.stdout)["commitments"]


def test_the_same_request_said_again_later_is_one_commitment_never_a_fact_encoding_changes(workspace, tmp_path):
    state = tmp_path / "state"
    sessions = plumber_week()
    write_state(state, sessions)
    encode(workspace, state, THURSDAY + timedelta(hours=4))
    [before] = [m for m in commitments_of(workspace) if "plumber" in m["task"]]
    # The conversation goes on: its next turns go to its memories, never into a commitment.
    sessions["agent:main:telegram:dm:81234"].user("Perfect, thank you so much!", is_owner=True)
    sessions["agent:main:telegram:dm:81234"].assistant("You're welcome, Dana. Talk soon.")
    later = Session("c0000000-0006-4000-8000-000000000006", THURSDAY + timedelta(hours=6))
    later.user("Please remind me on Friday to call the plumber about the leak, it is really important!", is_owner=True)
    later.user(
        "I really need to call the plumber about the leak under the sink, the kitchen floor is wet", is_owner=True
    )
    write_state(state, {**sessions, "agent:main:main": later})
    report = encode(workspace, state, THURSDAY + timedelta(hours=7))
    assert report["commitments"]["opened"] == 0 and report["commitments"]["again"] == 1
    [after] = [m for m in commitments_of(workspace) if "plumber" in m["task"]]
    assert after["id"] == before["id"] and len(after["sources"]) == 3
    assert after["content"] == before["content"] and "history" not in after and not after.get("episode")
    assert after["timesReinforced"] == 0
    assert not any(m.get("episode") for m in commitments_of(workspace))


def test_consolidation_neither_merges_nor_archives_an_open_commitment(workspace, tmp_path):
    talk = Session("c0000000-0007-4000-8000-000000000007", THURSDAY)
    talk.user("Remind me on September 1 to renew the car insurance", is_owner=True)
    talk.user("Remind me on September 1 to renew the car insurance with the new broker", is_owner=True)
    state = tmp_path / "state"
    write_state(state, {"agent:main:main": talk})
    encode(workspace, state, THURSDAY + timedelta(hours=1))
    [insurance] = commitments_of(workspace)
    summer = utc(datetime(2026, 8, 20, 5, 0, tzinfo=timezone.utc))  # five months unused: faded below 0.20
    done = run_script("consolidate", ws=workspace, now=summer)
    assert done.returncode == 0, done.stderr
    [kept] = commitments_of(workspace)
    assert kept["id"] == insurance["id"] and kept["status"] == "open" and not kept.get("archived")
    assert "insurance" in load_core(workspace, datetime(2026, 9, 1, 5, 0, tzinfo=timezone.utc))


def test_a_hand_edited_commitment_with_an_unreadable_due_time_or_status_breaks_no_listing(workspace):
    from conftest import memory, write_index

    odd = [
        memory("mem_001", "Remind the user to water the fern", kind="commitment", due="next-ish", status="open"),
        memory("mem_002", "The agent promised to call", kind="commitment", due="2026-03-05T09:00Z", status="maybe"),
        memory(
            "mem_003",
            "Remind the user to feed the cat",
            kind="commitment",
            task=["not", "text"],
            status="open",
            due="2026-03-05T09:00+02:00",
            closedFrom="here",
        ),
    ]
    write_index(workspace, odd, version=2)
    now = utc(THURSDAY)
    shown = load_core(workspace, THURSDAY)
    assert "feed the cat" in shown and "fern" not in shown and "promised to call" not in shown
    listed = run_script("commitments", "--all", ws=workspace, now=now)
    assert listed.returncode == 0, listed.stderr
    assert "mem_001" in listed.stdout and "mem_002 [done" in listed.stdout
    assert run_script("sync_core", ws=workspace, now=now).returncode == 0
    state = workspace.parent / "state"
    write_state(state, {"agent:main:main": Session("c0000000-0009-4000-8000-000000000009", THURSDAY)})
    encode(workspace, state, THURSDAY + timedelta(days=30))
    assert [m.get("status") for m in commitments_of(workspace)] == ["open", "maybe", "expired"]


# --- the rules, on signals ------------------------------------------------------------------------------------------


def signal(seq: int, role: str, text: str, at: datetime, session: str = "s1", **extra) -> Signal:
    local = extra.pop("local", (at + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M+02:00") if role == "user" else None)
    return Signal(seq, f"m{seq}", session, utc(at), role, text, local=local, **extra)


def run(index: Index, *signals: Signal):
    """Track these signals as an encode run a minute after the last of them would."""
    latest = max(datetime.fromisoformat(s.timestamp.replace("Z", "+00:00")) for s in signals)
    return track(index, list(signals), latest + timedelta(minutes=1))


def open_ones(index: Index) -> list[Memory]:
    return [m for m in index.memories if m.raw.get("kind") == "commitment" and m.raw["status"] == "open"]


def test_an_unrelated_done_closes_nothing_and_a_related_one_closes_the_one_it_names():
    index = Index([])
    run(index, signal(1, "user", "Remind me tomorrow to call the plumber", THURSDAY))
    run(index, signal(2, "user", "Remind me on Friday to pay the electricity bill", THURSDAY))
    out = run(index, signal(3, "user", "I called my mother, she says hi", THURSDAY + timedelta(hours=1)))
    assert out.closed == [] and len(open_ones(index)) == 2
    out = run(index, signal(4, "user", "The electricity bill is paid.", THURSDAY + timedelta(hours=2)))
    [bill] = [m for m in index.memories if "electricity" in m.raw["task"]]
    assert out.closed == [bill.id] and bill.raw["status"] == "done"
    assert [m.raw["task"] for m in open_ones(index)] == ["Remind the user to call the plumber"]


@pytest.mark.parametrize(
    "request_text, done_text",
    [
        ("Rappelle-moi demain d'appeler le plombier", "J'ai appelé le plombier ce matin"),
        ("Erinnere mich morgen daran, den Klempner anzurufen", "Ich habe den Klempner angerufen"),
        ("Recuérdame mañana llamar al fontanero", "Ya llamé al fontanero"),
        ("Me lembra amanhã de ligar para o encanador", "Já liguei para o encanador"),
        ("明天提醒我给水管工打电话", "我已经给水管工打过电话了"),
    ],
)
def test_a_request_is_closed_by_the_users_own_words_in_their_language(request_text, done_text):
    index = Index([])
    opened = run(index, signal(1, "user", request_text, THURSDAY))
    assert len(opened.opened) == 1
    unrelated = {"J": "J'ai appelé ma mère", "I": "Ich habe meine Mutter angerufen", "Y": "Ya llamé a mi madre"}
    if done_text[0] in unrelated:
        assert run(index, signal(2, "user", unrelated[done_text[0]], THURSDAY + timedelta(hours=1))).closed == []
    closed = run(index, signal(3, "user", done_text, THURSDAY + timedelta(hours=2)))
    assert closed.closed == opened.opened


def test_done_alone_closes_what_the_message_before_it_was_about():
    index = Index([])
    run(index, signal(1, "user", "Remind me at 5pm to water the tomatoes", THURSDAY))
    run(index, signal(2, "user", "Remind me at 5pm to take the bins out", THURSDAY))
    evening = THURSDAY + timedelta(hours=9)
    out = run(
        index,
        signal(3, "assistant", "Reminder: the tomatoes need water this evening.", evening, session="s2"),
        signal(4, "user", "done!", evening + timedelta(minutes=1), session="s2"),
    )
    [tomatoes] = [m for m in index.memories if "tomatoes" in m.raw["task"]]
    assert out.closed == [tomatoes.id]
    # Only "done", about nothing named, while two were due: neither is guessed at.
    index2 = Index([])
    run(index2, signal(1, "user", "Remind me at 5pm to water the tomatoes", THURSDAY))
    run(index2, signal(2, "user", "Remind me at 5pm to take the bins out", THURSDAY))
    assert run(index2, signal(3, "user", "done", evening, session="s3")).closed == []
    # One due: that one.
    index3 = Index([])
    run(index3, signal(1, "user", "Remind me at 5pm to water the tomatoes", THURSDAY))
    assert len(run(index3, signal(3, "user", "Done ✅", evening, session="s3")).closed) == 1


def test_the_user_moving_a_reminder_moves_its_due_time_and_reading_the_same_messages_again_changes_nothing():
    index = Index([])
    messages = [
        signal(1, "user", "Remind me on Friday to call the plumber", THURSDAY),
        signal(2, "assistant", "Will do — I'll remind you on Friday.", THURSDAY + timedelta(seconds=10)),
        signal(3, "user", "Actually, remind me on Monday instead", THURSDAY + timedelta(seconds=40)),
    ]
    out = run(index, *messages)
    [plumber] = index.memories
    assert out.opened == [plumber.id] and len(plumber.sources) == 3
    assert plumber.raw["due"] == "2026-03-09T09:00+02:00" and plumber.raw["dueText"] == "on Monday"
    before = json.dumps(plumber.raw, sort_keys=True)
    again = run(index, *messages)
    assert again.changed == set() and json.dumps(plumber.raw, sort_keys=True) == before


def test_a_request_read_from_a_history_long_past_opens_nothing():
    index = Index([])
    out = track(
        index, [signal(1, "user", "Remind me tomorrow to call the plumber", THURSDAY)], THURSDAY + timedelta(days=30)
    )
    assert out.opened == [] and index.memories == []


def test_two_requests_alike_but_for_whom_are_two_commitments():
    index = Index([])
    out = run(
        index,
        signal(1, "user", "Remind me tomorrow to phone Anna about the party", THURSDAY),
        signal(2, "user", "Remind me tomorrow to phone Bruno about the party", THURSDAY + timedelta(seconds=30)),
    )
    assert len(out.opened) == 2


def test_one_message_opens_a_bounded_number_of_commitments():
    names = ["".join(chr(97 + (n * 7 + i * n) % 26) for i in range(6)) for n in range(1, 400)]
    pasted = " ".join(f"Remind me tomorrow to phone {name}." for name in names)
    out = run(Index([]), signal(1, "user", pasted, THURSDAY))
    assert len(out.opened) == 10


def test_an_agent_promise_before_any_stamped_user_message_is_read_in_the_configured_zone():
    from zoneinfo import ZoneInfo

    said = signal(1, "assistant", "I'll send you the lease summary tomorrow at 9.", BEFORE_SUMMER_TIME, session="s8")
    index = Index([])
    track(index, [said], BEFORE_SUMMER_TIME + timedelta(minutes=1))
    assert index.memories[0].raw["due"] == "2026-03-27T09:00+00:00", "no stamp, no zone: UTC, as before"
    index = Index([])
    track(index, [said], BEFORE_SUMMER_TIME + timedelta(minutes=1), zone=ZoneInfo("America/Chicago"))
    assert index.memories[0].raw["due"] == "2026-03-27T09:00-05:00"


def test_an_agent_promise_without_a_time_or_anything_to_do_is_no_commitment():
    index = Index([])
    out = run(
        index,
        signal(1, "assistant", "I'll check the calendar now.", THURSDAY, session="s9"),
        signal(2, "assistant", "I'll look into it tomorrow.", THURSDAY + timedelta(seconds=5), session="s9"),
    )
    assert out.opened == []


@pytest.mark.parametrize(
    "talk",
    [
        "We talked about the plumbing with the contractor yesterday.",
        "I discussed the plumber with my sister.",
        "On a parlé du plombier hier soir.",
        "Hablamos del fontanero con el casero.",
    ],
)
def test_talk_that_only_shares_a_commitments_topic_leaves_it_open(talk):
    index = Index([])
    run(index, signal(1, "user", "Remind me on Friday to call the plumber", THURSDAY))
    assert run(index, signal(2, "user", talk, THURSDAY + timedelta(days=1))).closed == []
    assert len(open_ones(index)) == 1


@pytest.mark.parametrize(
    "request_text, off",
    [
        ("Remind me on Saturday to buy the concert tickets", "Cancel the concert tickets reminder, it's sold out."),
        ("Remind me on Saturday to buy the concert tickets", "Never mind the concert tickets."),
        ("Rappelle-moi samedi d'acheter les billets du concert", "Annule le rappel pour les billets du concert."),
        ("Erinnere mich am Samstag, Karten fürs Konzert zu kaufen", "Die Erinnerung kannst du streichen."),
        ("Recuérdame el sábado comprar las entradas del concierto", "Cancela el recordatorio de las entradas."),
        ("Me lembra no sábado de comprar os ingressos do show", "Pode apagar esse lembrete."),
        ("星期六提醒我买演唱会的票", "取消那个提醒吧。"),
    ],
)
def test_the_owner_calling_a_commitment_off_closes_it_as_cancelled(request_text, off):
    index = Index([])
    opened = run(index, signal(1, "user", request_text, THURSDAY))
    assert len(opened.opened) == 1
    out = run(index, signal(2, "user", off, THURSDAY + timedelta(hours=3)))
    [memory] = [m for m in index.memories if m.raw.get("kind") == "commitment"]
    assert out.closed == [memory.id] and memory.raw["status"] == "cancelled" and not open_ones(index)
    assert memory.raw["closedFrom"]["message"] == "m2"


def test_only_the_owner_calls_a_commitment_off_and_never_by_a_question():
    index = Index([])
    run(index, signal(1, "user", "Remind me on Saturday to buy the concert tickets", THURSDAY))
    later = THURSDAY + timedelta(hours=3)
    assert run(index, signal(2, "user", "Should I cancel the concert tickets reminder?", later)).closed == []
    assert run(index, signal(3, "assistant", "Cancel the concert tickets reminder.", later)).closed == []
    assert len(open_ones(index)) == 1


@pytest.mark.parametrize(
    "moving, due",
    [
        ("Move the plumber reminder to Monday.", "2026-03-09T09:00+02:00"),
        ("Please push it to Monday, he is away.", "2026-03-09T09:00+02:00"),
        ("Déplace le rappel du plombier à lundi.", "2026-03-09T09:00+02:00"),
    ],
)
def test_the_owner_moving_a_commitment_to_another_day_moves_its_due_time_and_keeps_the_old_one(moving, due):
    index = Index([])
    run(index, signal(1, "user", "Remind me on Friday to call the plumber", THURSDAY))
    [plumber] = index.memories
    before = plumber.raw["due"]
    run(index, signal(2, "user", moving, THURSDAY + timedelta(hours=2)))
    assert plumber.raw["due"] == due and plumber.raw["status"] == "open"
    assert plumber.raw["moved"][0]["due"] == before
