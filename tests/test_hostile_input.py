"""Hostile and broken input: transcript lines of every shape, SQLite stores of unexpected schemas, index files
truncated or edited by hand, queries and event values of any text, IDENTITY.md with hostile values, pending and
decision files from a confused LLM. Each gets a one-line error or a counted skip, never a traceback, and the stored
memories stay byte for byte as they were."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, memory, read_index, run_script, write_index
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reliability import memories_of

from hippocampus.ingestion import transcripts
from hippocampus.errors import HippocampusError
from hippocampus.timeutil import parse_instant
from hippocampus.store import cache_writer, indexfile, reading

EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def clean_failure(done: subprocess.CompletedProcess, codes=(1, 2)) -> str:
    """A failure a user can read: the expected exit code, one `error:` line, no traceback."""
    assert done.returncode in codes, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert (
        len(lines) == 1
        and lines[0].startswith(("error: ", "usage: "))
        or (
            done.returncode == 2 and lines[-1].startswith(f"{Path(lines[0].split()[1]).name}: error:")
            if lines and lines[0].startswith("usage:")
            else False
        )
    ), done.stderr
    return lines[-1]


def no_traceback(done: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert "Traceback" not in done.stderr, done.stderr
    return done


# --- transcripts ----------------------------------------------------------------------------------------------

SEPARATORS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\r"]


def test_ids_and_senders_holding_any_line_separator_still_become_memories(workspace, tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    for number, mark in enumerate(SEPARATORS):
        lines = [
            {"type": "session", "version": 3, "id": f"sess{mark}{number}", "timestamp": "2026-02-03T09:00:00Z"},
            {
                "type": "message",
                "id": f"m{mark}{number}",
                "parentId": None,
                "timestamp": "2026-02-03T09:01:00Z",
                "message": {
                    "role": "user",
                    "content": "Sender (untrusted metadata):\n```json\n"
                    + json.dumps({"label": "x", "name": f"Dana{mark}Q"})
                    + f"\n```\n\nRemember that the locker {number} code "
                    f"is {7000 + number}{mark} for the harbour shed",
                },
            },
        ]
        (folder / f"s{number}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    done = no_traceback(run_script("encode", "--sessions", str(folder), "--json", ws=workspace))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["new"] == len(SEPARATORS)
    contents = " ".join(m["content"] for m in memories_of(workspace))
    assert all(str(7000 + n) in contents for n in range(len(SEPARATORS)))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "id",
                    "parentId",
                    "timestamp",
                    "message",
                    "role",
                    "content",
                    "text",
                    "stopReason",
                    "seq",
                    "session",
                ]
            )
            | st.text(max_size=8),
            inner,
            max_size=5,
        )
    ),
    max_leaves=12,
)
message_shapes = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["message", "session", "compaction", "custom"]) | json_values,
        "id": st.text(max_size=10) | json_values,
        "timestamp": json_values | st.sampled_from(["2026-02-03T09:00:00Z"]),
        "message": st.fixed_dictionaries(
            {
                "role": st.sampled_from(["user", "assistant", "toolResult"]) | json_values,
                "content": json_values
                | st.lists(
                    st.fixed_dictionaries(
                        {"type": st.sampled_from(["text", "toolCall"]) | json_values, "text": json_values}
                    ),
                    max_size=3,
                ),
            }
        )
        | json_values,
    }
)
raw_lines = st.one_of(
    message_shapes.map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=60),
    st.integers(1, 60_000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 60_000).map(lambda n: '{"type": "message", "message": ' + "[" * n),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "replace")),
)


@EXAMPLES
@given(st.lists(raw_lines, max_size=8), st.booleans())
def test_transcript_lines_of_any_shape_are_messages_or_counted_skips(lines, ended):
    read = transcripts.parse_lines(list(enumerate(lines, 1)), "s1", "test", ended=ended)
    assert all(isinstance(m.text, str) and isinstance(m.id, str) for m in read.messages)
    assert read.malformed + read.incomplete <= len(lines) + len(read.messages)


HOSTILE_FILES = {
    "invalid-utf8.jsonl": b'{"type":"message","id":"aa01","timestamp":"2026-02-03T09:00:00Z","message":{"role":"user",'
    b'"content":"Remember that the shed \xff\xfe key is under the blue pot"}}\n\xff\xfe\x00\n',
    "nul.jsonl": b'\x00\x00\x00\n{"type":"message","id":"\x00","message":{"role":"user","content":"\\u0000 zero"}}\n',
    "deep.jsonl": b"[" * 100_000 + b"]" * 100_000 + b"\n" + b'{"type":"message","message":' + b"{" * 50_000 + b"\n",
    "huge.jsonl": json.dumps(
        {
            "type": "message",
            "id": "bb02",
            "timestamp": "2026-02-03T09:00:00Z",
            "message": {"role": "user", "content": "Remember that " + "very " * 100_000 + "big"},
        }
    ).encode()
    + b"\n",
    "types.jsonl": b"".join(
        json.dumps(x).encode() + b"\n"
        for x in [
            [],
            7,
            "text",
            None,
            {"type": 3},
            {"type": "message", "message": "user"},
            {"type": "message", "message": {"role": 5, "content": "x"}},
            {
                "type": "message",
                "id": ["x"],
                "parentId": {"a": 1},
                "timestamp": True,
                "message": {"role": "user", "content": {"text": "x"}},
            },
            {
                "type": "message",
                "id": "cc03",
                "timestamp": 1e308,
                "message": {
                    "role": "user",
                    "content": [{"type": "text", "text": 5}, "a bare string block", {"type": "text", "text": None}],
                },
            },
            {"type": "session", "id": 12, "timestamp": "not a time"},
        ]
    ),
    "good.jsonl": json.dumps(
        {
            "type": "message",
            "id": "dd04",
            "timestamp": "2026-02-03T09:00:00Z",
            "message": {"role": "user", "content": "Remember that the harbour gate code is 4471"},
        }
    ).encode()
    + b"\n",
}


def test_hostile_transcript_files_are_skipped_and_counted_and_good_lines_still_encoded(workspace, tmp_path):
    original = write_index(workspace, [memory("mem_001", "User prefers concise responses")], version=2)
    before = original.read_bytes()
    folder = tmp_path / "sessions"
    folder.mkdir()
    for name, data in HOSTILE_FILES.items():
        (folder / name).write_bytes(data)
    done = no_traceback(run_script("encode", "--sessions", str(folder), "--json", ws=workspace))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["preprocess"]["malformedLines"] >= 10
    stored = read_index(workspace)["memories"]
    assert stored[0] == json.loads(before)["memories"][0]
    assert any("4471" in m["content"] for m in stored)
    again = no_traceback(run_script("encode", "--sessions", str(folder), "--json", ws=workspace))
    assert json.loads(again.stdout)["new"] == 0


# --- SQLite stores of unexpected shapes -----------------------------------------------------------------------


def database(path: Path, *statements: str, rows: list[tuple] = ()) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    for row in rows:
        db.execute(f"INSERT INTO transcript_events VALUES ({', '.join('?' * len(row))})", row)
    db.commit()
    db.close()
    return path


GOOD_LINE = json.dumps(
    {
        "type": "message",
        "id": "ee05",
        "timestamp": "2026-02-03T09:00:00Z",
        "message": {"role": "user", "content": "Remember that the boat is moored at pier 12"},
    }
)
ODD_DATABASES = {
    "no-table": lambda p: database(p, "CREATE TABLE other (x)"),
    "no-session-column": lambda p: database(p, "CREATE TABLE transcript_events (a, b)", rows=[(1, GOOD_LINE)]),
    "odd-values": lambda p: database(
        p,
        "CREATE TABLE transcript_events (session_id, seq, event_json)",
        rows=[
            (None, 1, GOOD_LINE),
            ("s", "x", b"\xff\xfe"),
            ("s", 2, 12),
            ("s", 3, 4.5),
            ("s", None, None),
            ("s", 4, "[" * 100_000),
            (b"\x00", 5, GOOD_LINE),
            ("s", 6, GOOD_LINE),
        ],
    ),
    "a-view": lambda p: database(
        p, "CREATE TABLE t (session_id, seq, event_json)", "CREATE VIEW transcript_events AS SELECT * FROM t"
    ),
    "not-sqlite": lambda p: (p.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200), p)[1],
    "empty": lambda p: (p.write_bytes(b""), p)[1],
    "text": lambda p: (p.write_text("this is not a database\n"), p)[1],
}


@pytest.mark.parametrize("kind", sorted(ODD_DATABASES))
def test_a_database_of_any_shape_is_a_clear_warning_or_error_never_a_traceback(workspace, tmp_path, kind):
    (tmp_path / "agent").mkdir()
    path = ODD_DATABASES[kind](tmp_path / "agent" / "openclaw-agent.sqlite")
    original = write_index(workspace, [memory("mem_001", "User prefers concise responses")], version=2)
    before = original.read_bytes()
    alone = run_script("encode", "--sessions", str(path), ws=workspace)
    if alone.returncode:
        clean_failure(alone)
        assert original.read_bytes() == before
    good = tmp_path / "good.jsonl"
    good.write_text(
        json.dumps(
            {
                "type": "message",
                "id": "ff06",
                "timestamp": "2026-02-03T09:00:00Z",
                "message": {"role": "user", "content": "Remember that the kiln fires on Sunday"},
            }
        )
        + "\n"
    )
    beside = no_traceback(run_script("encode", "--sessions", str(path), str(good), ws=workspace))
    assert beside.returncode == 0, beside.stderr
    assert any("kiln" in m["content"] for m in read_index(workspace)["memories"])
    assert read_index(workspace)["memories"][0] == json.loads(before)["memories"][0]


# --- index files truncated or edited by hand --------------------------------------------------------------------

READERS_AND_WRITERS = [
    ("recall", "coffee"),
    ("load_core",),
    ("sync_core",),
    ("dashboard",),
    ("decay",),
    ("encode", "--no-preprocess"),
    ("log_event", "x"),
]


def stored_index(ws: Path) -> bytes:
    return (ws / "memory" / "index.json").read_bytes()


def sample_index(ws: Path) -> Path:
    return write_index(
        ws,
        [memory(f"mem_{n:03d}", f"User likes coffee number {n} with oat milk", 0.5 + n / 100) for n in range(1, 12)],
        version=2,
        lastUpdated="2026-02-01T00:00:00Z",
    )


@pytest.mark.parametrize("cut", [1, 17, 0.5, -3])
def test_a_truncated_index_is_one_line_of_error_from_every_script_and_stays_as_it_was(workspace, cut):
    text = sample_index(workspace).read_bytes()
    at = int(len(text) * cut) if isinstance(cut, float) else cut
    (workspace / "memory" / "index.json").write_bytes(text[:at])
    for name, *args in READERS_AND_WRITERS:
        done = run_script(name, *args, ws=workspace)
        if name == "log_event":
            assert done.returncode == 0, done.stderr  # the event log does not need the index
            continue
        assert "index.json" in clean_failure(done), name
        assert stored_index(workspace) == text[:at], name


WRONG_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
FIELDS = [
    "id",
    "domain",
    "category",
    "content",
    "importance",
    "created",
    "lastAccessed",
    "timesReinforced",
    "keywords",
    "sources",
    "decay",
    "history",
    "pinned",
    "archived",
    "supersededBy",
    "trust",
    "kind",
    "episode",
    "context",
    "reply",
    "detail",
]


@EXAMPLES
@given(
    st.lists(st.tuples(st.integers(0, 10), st.sampled_from(FIELDS), WRONG_VALUES), min_size=1, max_size=4),
    st.dictionaries(
        st.sampled_from(
            ["version", "decayLastRun", "encodedThrough", "highestId", "memories", "lastProcessedTimestamp"]
        ),
        WRONG_VALUES,
        max_size=2,
    ),
)
@example(edits=[(0, "timesReinforced", 9.223372036854776e18)], meta={})
@example(edits=[(1, "timesReinforced", 10**30)], meta={"highestId": 10**30})
@example(edits=[(2, "id", "mem_" + "9" * 40)], meta={})
def test_a_hand_edited_index_loads_or_is_refused_in_words(tmp_path_factory, edits, meta):
    from hippocampus.store import cache
    from hippocampus.published import selection
    from hippocampus.workspace import Workspace

    ws = tmp_path_factory.mktemp("edited")
    data = json.loads(sample_index(ws).read_text())
    for position, name, value in edits:
        data["memories"][position][name] = value
    data.update(meta)
    (ws / "memory" / "index.json").write_text(json.dumps(data))
    try:
        index = indexfile.load(Workspace(ws)).index
    except HippocampusError as exc:
        assert str(exc)
        return
    from datetime import datetime, timezone

    now = datetime(2026, 3, 1, tzinfo=timezone.utc)
    # Loaded: every memory is there, and the cache answers as a search over the loaded memories does.
    assert [m.id for m in index.memories] == [m["id"] for m in data["memories"]]
    chosen = selection.select_core(cache_writer.in_memory(index, now.date()), now)
    assert chosen.shown <= chosen.total
    view = reading.for_reading(Workspace(ws), now.date())
    assert cache.path_of(Workspace(ws)).exists()  # built on disk from the edited file
    from hippocampus import search

    cached = [(h.memory.id, h.score) for h in search.rank(view, "coffee oat", now)]
    plain = [(h.memory.id, h.score) for h in search.rank(cache_writer.in_memory(index, now.date()), "coffee oat", now)]
    assert cached == plain


def test_a_hand_edited_index_with_wrong_types_never_gives_a_traceback(workspace):
    cases = [
        {"memories": {"a": 1}},
        {"version": 99, "memories": []},
        {"memories": [{"id": "mem_001", "content": "x", "importance": "high"}]},
        {"memories": [{"id": "mem_001", "content": "x"}, {"id": "mem_001", "content": "y"}]},
        [12],
    ]
    for number, case in enumerate(cases):
        (workspace / "memory" / "index.json").write_text(json.dumps(case))
        before = stored_index(workspace)
        for name, *args in READERS_AND_WRITERS[:-1][number % 3 :: 3]:
            done = run_script(name, *args, ws=workspace)
            assert "index.json" in clean_failure(done), (name, case)
            assert stored_index(workspace) == before


def test_half_a_character_in_a_hand_edited_index_is_read_as_the_replacement_character_by_every_script(workspace):
    # Valid JSON that no UTF-8 text can hold: the escape of half a surrogate pair, as a tool that cut an emoji in two
    # writes it. Laid out over lines too, as a hand edit leaves it.
    text = (
        '{"version": 2, "memories": [\n'
        '{"id": "mem_001", "content": "User likes coffee \\ud83d with oat milk", "importance": 0.7,'
        ' "created": "2026-02-01", "episode": [{"text": "cut \\udc00 here", "role": "user"}]},\n'
        '{"id": "mem_002",\n "content": "User likes tea \\udc00\\ud83d\\ude00", "importance": 0.6,'
        ' "created": "2026-02-01"}\n'
        "]}\n"
    )
    (workspace / "memory" / "index.json").write_text(text)
    archived = '{"id": "mem_003", "content": "User sold the boat \\udc00", "importance": 0.1, "archived": true}\n'
    (workspace / "memory" / "archive.jsonl").write_text(archived)
    for name, *args in READERS_AND_WRITERS:
        done = run_script(name, *args, *(["--json"] if name == "recall" else []), ws=workspace)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (name, done.stderr)
        if name == "recall":
            assert [r["id"] for r in json.loads(done.stdout)["results"]] == ["mem_001"]
    memories = read_index(workspace)["memories"]
    assert [m["content"] for m in memories] == [
        "User likes coffee \ufffd with oat milk",
        "User likes tea \ufffd\U0001f600",  # a whole pair stays the character it makes
    ]
    assert memories[0]["episode"][0]["text"] == "cut \ufffd here"
    found = run_script("recall", "--json", "--archive", "boat", ws=workspace)
    assert [r["id"] for r in json.loads(found.stdout)["results"]] == ["mem_003"], found.stderr
    # And in a queue edited by hand (or written by a version that let it through).
    queued = (
        '{"seq": 1, "id": "m1", "session": "s1", "timestamp": "2026-02-20T10:00:00Z", "role": "user",'
        ' "text": "Remember that my kayak is red \\ud83d"}\n'
    )
    (workspace / "memory" / "signals.jsonl").write_text(queued)
    done = run_script("encode", "--no-preprocess", ws=workspace)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert any("kayak is red \ufffd" in m["content"] for m in read_index(workspace)["memories"])


# --- queries, event values, IDENTITY.md ------------------------------------------------------------------------


@EXAMPLES
@given(st.text(max_size=200))
def test_a_query_of_any_text_ranks_without_error(query):
    from datetime import datetime, timezone

    from hippocampus import search
    from hippocampus.model import Index, Memory

    corpus = [
        Memory(id=f"mem_{n}", content=text)
        for n, text in enumerate(
            ["User likes coffee", "Bob's birthday is on June 14", "私は朝は短い返事が好きです", "The Ω-project"]
        )
    ]
    now = datetime(2026, 3, 1, tzinfo=timezone.utc)
    hits = search.rank(cache_writer.in_memory(Index(memories=corpus), now.date()), query, now)
    assert all(0 <= h.score <= 1.0001 for h in hits)


def test_queries_of_any_text_are_data_for_recall(workspace):
    before = sample_index(workspace).read_bytes()
    for query in [
        "$(touch /tmp/pwned)",
        "'; DROP TABLE docs; --",
        "-- --top 0",
        "\u202e\u2028\U0001f600",
        "coffee " * 10_000,
        "\\",
        "%s%n",
        "*",
        '"coffee"',
    ]:
        done = no_traceback(run_script("recall", "--json", "--", query, ws=workspace))
        assert done.returncode == 0, (query[:30], done.stderr)
        assert json.loads(done.stdout)["query"] == query
    assert not Path("/tmp/pwned").exists()
    assert stored_index(workspace) == before or json.loads(stored_index(workspace)) == json.loads(before)


@EXAMPLES
@given(
    st.dictionaries(
        st.text(min_size=1, max_size=10).filter(lambda k: k not in ("ts", "event")), st.text(max_size=40), max_size=4
    ),
    st.text(min_size=1, max_size=20),
)
def test_event_values_of_any_text_make_one_valid_json_line(tmp_path_factory, fields, name):
    from datetime import datetime, timezone

    from hippocampus import events, redaction
    from hippocampus.workspace import Workspace

    ws = Workspace(tmp_path_factory.mktemp("events"))
    entry = events.log_event(ws, name, datetime(2026, 3, 1, tzinfo=timezone.utc), fields)
    data = ws.events.read_bytes()
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    line = json.loads(data.decode("utf-8"))
    assert line == entry and line["ts"] == "2026-03-01T00:00:00Z"
    assert line["event"] == redaction.redact(events._text(name))
    # Each field as redaction leaves it (a key "Key" makes its value a credential, as "Key: 0000A" would be).
    said = [redaction.redact_field(events._text(k), events._text(v)) for k, v in fields.items()]
    keys = [key for key, _ in said]
    for key, value in said:
        if keys.count(key) == 1 and key not in ("type", "ts", "event"):
            assert line[key] == value, key


def test_an_argument_that_is_not_utf8_is_logged_as_valid_json(workspace):
    import sys

    from conftest import ROOT, SCRIPTS

    command = [
        sys.executable.encode(),
        str(SCRIPTS / "log_event.py").encode(),
        b"odd",
        b"k=\xff\xfe",
        b"\xfe=v",
        b"--workspace",
        str(workspace).encode(),
    ]
    done = subprocess.run(command, capture_output=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    entry = json.loads((workspace / "memory" / "brain-events.jsonl").read_text(encoding="utf-8"))
    assert entry["event"] == "odd" and entry["k"] == "\ufffd\ufffd" and entry["\ufffd"] == "v"


@EXAMPLES
@given(
    st.text(max_size=300)
    | st.lists(
        st.tuples(st.sampled_from(["Name", "Avatar", "Emoji", "Vibe", "name"]), st.text(max_size=60)), max_size=5
    ).map(lambda pairs: "\n".join(f"- **{k}:** {v}" for k, v in pairs))
)
def test_identity_md_of_any_text_gives_an_identity(tmp_path_factory, text):
    from hippocampus.published.identity import read_identity, TEXT_LIMIT

    root = tmp_path_factory.mktemp("identity")
    (root / "IDENTITY.md").write_text(text, encoding="utf-8", errors="surrogatepass")
    identity = read_identity(root / "IDENTITY.md", root)
    for value in (identity.name, identity.emoji, identity.vibe):
        # Unset, or one line of at most TEXT_LIMIT characters that the file holds.
        assert value is None or (
            0 < len(value) <= TEXT_LIMIT
            and "\n" not in value
            and "\r" not in value
            and all(word.rstrip("…") in text for word in value.split())
        ), value
    assert identity.avatar is None  # no image file: nothing to embed


def test_a_hostile_identity_md_still_gives_an_escaped_dashboard(workspace):
    sample_index(workspace)
    (workspace / "avatar.png").write_bytes(b"<svg onload=alert(1)>")
    (workspace / "IDENTITY.md").write_bytes(
        b"- **Name:** </script><script>alert(1)</script>\n- **Avatar:** ../../etc/passwd\n"
        b"- **Avatar:** javascript:alert(1)\n- **Emoji:** \xff\xfe\x00\n" + b"- **Vibe:** " + b"x" * 300_000 + b"\n"
    )
    done = no_traceback(run_script("dashboard", ws=workspace))
    assert done.returncode == 0, done.stderr
    page = (workspace / "brain-dashboard.html").read_text(encoding="utf-8")
    assert "<script>alert(1)" not in page and "javascript:alert" not in page


# --- pending and decision files from a confused LLM --------------------------------------------------------------


@EXAMPLES
@given(
    json_values
    | st.lists(
        st.fixed_dictionaries(
            {
                "item": st.sampled_from(["sig-1", "sig-2"]) | json_values,
                "action": st.sampled_from(["create", "reinforce", "skip"]) | json_values,
                "content": json_values,
                "memory": st.sampled_from(["mem_001"]) | json_values,
                "domain": st.sampled_from(["user", "moon"]) | json_values,
                "category": json_values,
                "importance": json_values,
                "keywords": json_values,
            }
        ),
        max_size=4,
    )
)
def test_decisions_of_any_shape_are_valid_or_reported(raw):
    from hippocampus.ingestion import pending
    from hippocampus.model import Index, Memory

    index = Index(memories=[Memory(id="mem_001", content="User likes coffee")])
    items = [{"id": "sig-1", "signal": {}}, {"id": "sig-2", "trust": "untrusted"}]
    valid, invalid = pending.validate(raw if isinstance(raw, list) else [raw], items, index)
    assert all(isinstance(problem["error"], str) for problem in invalid)
    for decision in valid:
        assert decision.action in pending.ACTIONS


CONFUSED_DECISIONS = {
    "not-json.json": b"Sure! Here are my decisions: create the memory about coffee.",
    "empty.json": b"",
    "deep.json": b'{"decisions": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "not-utf8.json": b'{"decisions": ["\xff"]}',
    "object.json": b'{"decision": {"item": "sig-1"}}',
    "numbers.json": b"[1, 2, 3]",
    "huge.json": b'{"decisions": [' + b",".join([b'{"item": "sig-9", "action": "skip"}'] * 100_000) + b"]}",
    "types.json": json.dumps(
        {
            "decisions": [
                {
                    "item": "sig-1",
                    "action": "create",
                    "content": ["x"] * 3,
                    "domain": None,
                    "keywords": "k",
                    "importance": "1",
                },
                {"item": None, "action": "reinforce", "memory": 7},
            ]
        }
    ).encode(),
}


@pytest.mark.parametrize("name", sorted(CONFUSED_DECISIONS))
def test_a_confused_decisions_file_changes_no_memory_and_says_so_in_one_line(workspace, tmp_path, name):
    sample_index(workspace)
    before = stored_index(workspace)
    pending_file = workspace / "memory" / "pending-memories.json"
    pending_file.write_text(
        json.dumps({"version": 1, "items": [{"id": "sig-1", "added": "2026-03-01T11:00:00Z", "signal": {}}]})
    )
    pending_before = pending_file.read_bytes()
    path = tmp_path / name
    path.write_bytes(CONFUSED_DECISIONS[name])
    done = no_traceback(run_script("encode", "--apply", str(path), ws=workspace))
    assert done.returncode in (0, 1), done.stderr
    if done.returncode and done.stderr.strip():
        clean_failure(done)
    assert json.loads(stored_index(workspace))["memories"] == json.loads(before)["memories"]
    assert pending_file.read_bytes() == pending_before


@pytest.mark.parametrize(
    "text", ['{"items": [ half', "[" * 100_000, '{"items": {"id": 1}}', '{"items": [{"id": 3}]}', "\xff\xfe"]
)
def test_a_confused_pending_file_is_an_error_and_is_never_overwritten(workspace, tmp_path, text):
    sample_index(workspace)
    before = stored_index(workspace)
    pending_file = workspace / "memory" / "pending-memories.json"
    pending_file.write_text(text, encoding="utf-8", errors="surrogateescape")
    written = pending_file.read_bytes()
    session = tmp_path / "s.jsonl"
    session.write_text(GOOD_LINE + "\n")
    for args in (("--prepare",), ()):
        done = run_script("encode", "--sessions", str(session), *args, ws=workspace)
        assert "pending-memories.json" in clean_failure(done)
        assert pending_file.read_bytes() == written
    assert stored_index(workspace) == before


# --- the clock and dates at the ends of the calendar -------------------------------------------------------------

EVERY_SCRIPT = READERS_AND_WRITERS + [
    ("consolidate",),
    ("reflect",),
    ("preprocess", "--sessions", "."),
    ("encode", "--sessions", "."),
]


@pytest.mark.parametrize(
    "now",
    ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "0001-01-01", "9999-12-31T23:30:00-01:00", "1969-12-31T23:59:59Z"],
)
def test_a_now_outside_the_supported_years_is_one_line_of_error_from_every_script(workspace, now):
    text = sample_index(workspace).read_bytes()
    for name, *args in EVERY_SCRIPT:
        done = run_script(name, *args, ws=workspace, now=now, cwd=workspace)
        assert "--now" in clean_failure(done, codes=(2,)), name
        assert stored_index(workspace) == text, name
    done = subprocess.run(
        [sys.executable, str(ROOT / "install.py"), "--workspace", str(workspace), "--now", now, "--dry-run"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "--now" in clean_failure(done, codes=(2,))


def test_the_first_and_last_supported_years_work_in_every_script(workspace):
    sample_index(workspace)
    before = {m["id"]: m["importance"] for m in read_index(workspace)["memories"]}
    for now in ("1970-01-01T00:00:00Z", "8999-12-31T23:59:59Z"):
        for name, *args in EVERY_SCRIPT:
            done = no_traceback(run_script(name, *args, ws=workspace, now=now, cwd=workspace))
            assert done.returncode == 0, (now, name, done.stderr)
        if now.startswith("1970"):
            # Before the memories were made: nothing has faded yet (consolidation added a schema of them).
            after = {m["id"]: m for m in read_index(workspace)["memories"]}
            assert all(abs(after[i]["importance"] - value) < 1e-9 for i, value in before.items())
            assert [m["kind"] for i, m in after.items() if i not in before] == ["schema"]
    # Seven thousand years later every memory has faded into the archive but those recalled that day; none is lost.
    archived = {m["id"]: m for m in map(json.loads, (workspace / "memory" / "archive.jsonl").read_text().splitlines())}
    kept = {m["id"]: m for m in read_index(workspace)["memories"]}
    assert set(before) <= set(archived) | set(kept) and archived
    assert all(m["importance"] < 0.2 for m in archived.values())
    assert all(m["lastAccessed"].startswith("8999-12-31") for m in kept.values())


EDGE_TIMES = [
    "0001-01-01T00:00:00Z",
    "0001-01-01T00:30:00+01:00",
    "9999-12-31T23:59:59Z",
    "9999-12-31T23:00:00-05:00",
    253402300800000,
    -62135596800000,
]


def test_dates_at_the_ends_of_the_calendar_in_transcripts_and_the_index_never_give_a_traceback(workspace, tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    for number, when in enumerate(EDGE_TIMES):
        lines = [
            {"type": "session", "version": 3, "id": f"edge{number}", "timestamp": when},
            {
                "type": "message",
                "id": f"e{number}",
                "parentId": None,
                "timestamp": when,
                "message": {
                    "role": "user",
                    "timestamp": when,
                    "content": f"Remember that the harbour shed number {number} has the blue kayak",
                },
            },
        ]
        (folder / f"s{number}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    done = no_traceback(run_script("encode", "--sessions", str(folder), "--json", ws=workspace))
    assert done.returncode == 0, done.stderr
    stored = {m["content"]: m for m in read_index(workspace)["memories"]}
    # Messages dated after the run's clock wait for a later run; those of the year 1 are memories now.
    for number in (0, 5):
        assert stored[f"The harbour shed number {number} has the blue kayak"]["created"] == "0001-01-01T00:00:00Z"
    for memory_ in stored.values():
        assert parse_instant(memory_["created"]) is not None, memory_["created"]
    # And by hand: the first and last days of the calendar in every date a memory holds.
    data = read_index(workspace)
    for number, item in enumerate(data["memories"]):
        first = number % 2 == 0
        item["created"] = "0001-01-01" if first else "9999-12-31T23:59:59Z"
        item["lastAccessed"] = "9999-12-31T23:59:59Z" if first else "0001-01-01T00:00:00Z"
        item["decay"] = {"base": 0.9, "from": "9999-12-31" if first else "0001-01-01", "last": item["importance"]}
        item["sources"][0]["ts"] = item["created"]
        item["history"] = [{"ts": "0001-01-01T00:00:00Z", "content": "old"}]
    (workspace / "memory" / "index.json").write_text(json.dumps(data))
    for now in ("2026-03-01T12:00:00Z", "2026-03-09T05:13:00Z"):
        for name, *args in EVERY_SCRIPT + [("recall", "harbour", "--archive"), ("dashboard", "--limit", "1")]:
            done = no_traceback(run_script(name, *args, ws=workspace, now=now, cwd=workspace))
            assert done.returncode == 0, (name, done.stderr)
    assert {m["content"] for m in memories_of(workspace)} | archived_contents(workspace) >= set(stored)


def archived_contents(ws: Path) -> set[str]:
    path = ws / "memory" / "archive.jsonl"
    return {json.loads(line)["content"] for line in path.read_text().splitlines()} if path.exists() else set()
