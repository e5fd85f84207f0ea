"""The recall-quality benches' shared harness: a chat history in, memories through the real pipeline, questions
through recall, scored against the evidence turns, beside a plain BM25 over the same turns.

A data set becomes `Item`s: dated sessions of turns, and the questions asked of them. For each item and each way of
building its memory, the sessions are written as OpenClaw session files (one message per turn, message ids that map
back to turns) into a fresh temporary workspace, and the scripts run on the schedule the installer gives cron
(`cron_steps`); then every question goes through `recall.py --json --no-touch --top DEPTH` at the item's time, and the
memories' `sources` say which turns came back. Nothing is kept between runs: every figure comes from the product as
it is when the bench runs.

Scripts run through one adapter, `run_script`; the ablations' switches (ablations.py) reach the scripts through it.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import TypeVar

import ablations
from ablations import Patch, Switch

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from hippocampus.installation import cronjobs  # noqa: E402  the schedule the installer gives cron

KS = (1, 5, 10)
ANY_K = 5  # the field's session recall_any@k / recall_all@k, and "an evidence turn among the first five"
DEPTH = 20  # memories asked of recall: enough for five distinct sessions (a prefix of a longer ranking is the same)
TURN_GAP = timedelta(seconds=30)  # between the turns of a session
MODES = {"default": (), "all-turns": ("--min-importance", "0")}
T = TypeVar("T")


# --- the data ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    key: tuple[int, int]  # (session number, turn number): its message id says both (message_id)
    role: str  # "user" or "assistant"
    text: str  # as the transcript holds it


@dataclass(frozen=True)
class Session:
    number: int
    when: datetime  # aware
    turns: tuple[Turn, ...]
    name: str  # what session-level recall compares: the data set's own session id

    @property
    def end(self) -> datetime:
        return self.when + TURN_GAP * max(0, len(self.turns) - 1)


@dataclass(frozen=True)
class Question:
    text: str
    category: str
    evidence: frozenset[tuple[int, int]]  # turn keys
    sessions: frozenset[str]  # names of the sessions that hold the evidence


@dataclass
class Item:
    """One history and the questions asked of it (a LoCoMo conversation; a LongMemEval question and its haystack)."""

    name: str
    sessions: list[Session]  # in time order
    questions: list[Question]
    asked: datetime  # when the questions are asked, unless a job of the schedule runs later (cron_steps)

    def session_of(self) -> dict[int, str]:
        return {s.number: s.name for s in self.sessions}


def message_id(key: tuple[int, int]) -> str:
    session, turn = key
    return f"{session:03x}{turn:05x}"


def turn_of(message: str | None) -> tuple[int, int] | None:
    if not re.fullmatch(r"[0-9a-f]{8}", message or ""):
        return None
    assert message is not None
    return int(message[:3], 16), int(message[3:], 16)


def stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def write_session(path: Path, session: Session, prefix: str) -> None:
    """One OpenClaw session file (JSONL, version 3): the user's turns as its user messages, the rest as the
    assistant's."""
    header = {"type": "session", "version": 3, "id": f"{prefix}-{session.number}", "timestamp": stamp(session.when)}
    lines: list[dict] = [{**header, "cwd": "/bench"}]
    parent = None
    for position, turn in enumerate(session.turns):
        ts = session.when + TURN_GAP * position
        entry = message_id(turn.key)
        content = turn.text if turn.role == "user" else [{"type": "text", "text": turn.text}]
        lines.append(
            {
                "type": "message",
                "id": entry,
                "parentId": parent,
                "timestamp": stamp(ts),
                "message": {"role": turn.role, "content": content, "timestamp": int(ts.timestamp() * 1000)},
            }
        )
        parent = entry
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n", encoding="utf-8")


# --- the schedule -----------------------------------------------------------------------------------------------


def _field_matches(spec: str, value: int) -> bool:
    if spec == "*":
        return True
    if spec.startswith("*/"):
        return value % int(spec[2:]) == 0
    return value in {int(v) for v in spec.split(",")}


def next_fire(schedule: str, after: datetime) -> datetime:
    """The first time at or after `after` that a cron expression of a fixed minute fires (day of month and month must
    be `*`, as the installer's are)."""
    minute, hour, day, month, weekday = schedule.split()
    if not minute.isdigit() or day != "*" or month != "*":
        raise ValueError(f"the bench's cron reader does not know the schedule {schedule!r}")
    t = after.replace(minute=int(minute), second=0, microsecond=0)
    if t < after:
        t += timedelta(hours=1)
    for _ in range(24 * 8):
        if _field_matches(hour, t.hour) and _field_matches(weekday, (t.weekday() + 1) % 7):
            return t
        t += timedelta(hours=1)
    raise ValueError(f"{schedule!r} never fires")


@dataclass(frozen=True)
class Step:
    when: datetime
    script: str  # "encode", "decay" or "consolidate"
    sessions: tuple[Session, ...] = ()  # for encode: the sessions written just before it


def cron_steps(sessions: Sequence[Session], asked: datetime) -> tuple[list[Step], datetime]:
    """The jobs a user's cron runs over this history, in order, and when the questions are asked.

    Encoding at its first run after a session's last turn (every three hours); consolidation every Sunday from the
    first encoding on, after that day's decay; and the last decay before the questions. Decay's other daily runs are
    left out: its result depends only on the days passed, never on how many runs there were (decay.py's contract),
    and every reader computes today's importance afresh. Sessions that end too close to the questions for the cron to
    have reached them are encoded at the questions' time, as an encoding run on demand would; and the questions wait
    for the last session to end (a data set may date a session later than its question, on the same day)."""
    asked = max([asked, *(s.end for s in sessions)])
    encodes: dict[datetime, list[Session]] = defaultdict(list)
    for session in sessions:
        encodes[min(next_fire(cronjobs.ENCODING_SCHEDULE, session.end), asked)].append(session)
    steps = [Step(t, "encode", tuple(s)) for t, s in sorted(encodes.items())]
    if not steps:
        return [], asked
    first = steps[0].when
    decays = set()
    sunday = next_fire(cronjobs.CONSOLIDATION_SCHEDULE, first)
    while sunday <= asked:
        steps.append(Step(sunday, "consolidate"))
        decays.add(_day_fire(cronjobs.DECAY_SCHEDULE, sunday.date()))
        sunday = next_fire(cronjobs.CONSOLIDATION_SCHEDULE, sunday + timedelta(minutes=1))
    last = _day_fire(cronjobs.DECAY_SCHEDULE, asked.date())
    if last > asked:
        last = _day_fire(cronjobs.DECAY_SCHEDULE, asked.date() - timedelta(days=1))
    decays |= {last} if last >= first else set()
    steps += [Step(t, "decay") for t in decays if t <= asked]
    steps.sort(key=lambda s: (s.when, s.script != "decay"))  # a day's decay before what runs at the same minute
    return steps, asked


def _day_fire(schedule: str, day: date) -> datetime:
    """The time a daily schedule fires on `day` (UTC)."""
    return next_fire(schedule, datetime.combine(day, datetime.min.time(), tzinfo=timezone.utc))


# --- running the scripts ----------------------------------------------------------------------------------------


def run_script(script: str, argv: Sequence[str], patches: Sequence[Patch] = ()) -> str:
    """Run scripts/<script>.py with `argv`, `patches` applied first; what it printed.

    The one place that says how a script runs: as a process today. Once each script is callable as
    `hippocampus.commands.<script>.main(argv)`, this calls that in the bench's own process inside
    `ablations.patched(patches)`, its output captured (and parallel work then shares one process: threads can no
    longer patch apart)."""
    if patches:
        command = [sys.executable, str(BENCH / "patched.py"), ablations.encoded(patches), str(SCRIPTS / f"{script}.py")]
    else:
        command = [sys.executable, str(SCRIPTS / f"{script}.py")]
    done = subprocess.run([*command, *argv], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{script}.py failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return done.stdout


def at(ws: Path, when: datetime) -> list[str]:
    return ["--workspace", str(ws), "--now", when.strftime("%Y-%m-%dT%H:%M:%SZ")]


@dataclass(frozen=True)
class Variant:
    """One way of building and asking: a mode of the product, with some of its parts switched off."""

    mode: str = "default"
    off: tuple[Switch, ...] = ()

    @property
    def label(self) -> str:
        return f"`{self.mode}`" + "".join(f" − {s.name}" for s in self.off)

    @property
    def build(self) -> tuple[str, tuple[Switch, ...]]:
        """What its memory is built by: variants with the same build share one."""
        return self.mode, tuple(s for s in self.off if s.own_build)

    @property
    def patches(self) -> tuple[Patch, ...]:
        return tuple(p for s in self.off for p in s.patches)

    @property
    def stripped(self) -> tuple[str, ...]:
        return tuple(f for s in self.off for f in s.stripped)


def build_memory(item: Item, workdir: Path, variant: Variant, prefix: str) -> tuple[Path, datetime]:
    """Run the schedule over one item's history in a fresh workspace, as `variant` builds it; returns (workspace,
    when the questions are asked)."""
    ws = workdir / "workspace"
    (ws / "memory").mkdir(parents=True)
    transcripts = workdir / "sessions"
    transcripts.mkdir()
    mode, builders = variant.build
    patches = [p for s in builders for p in s.patches]
    skipped = {name for s in builders for name in s.skipped}
    steps, asked = cron_steps(item.sessions, item.asked)
    for step in steps:
        if step.script in skipped:
            continue
        for session in step.sessions:
            write_session(transcripts / f"session-{session.number:03d}.jsonl", session, prefix)
        extra = ["--sessions", str(transcripts), *MODES[mode]] if step.script == "encode" else []
        run_script(step.script, ["--cron", *extra, *at(ws, step.when)], patches)
    return ws, asked


def ask(ws: Path, asked: datetime, question: str, patches: Sequence[Patch] = ()) -> list[list[tuple[int, int]]]:
    """The turns recall found, in the order it gives them to read (its `turns`: each memory's turns that match well
    in its place, the others a little later), one list a turn; or, from a recall that gives no such order, the turns
    behind each recalled memory, best first, each memory's in the order recall lists them."""
    argv = ["--json", "--no-touch", "--top", str(DEPTH), *at(ws, asked), "--", question]
    out = json.loads(run_script("recall", argv, patches))
    if "turns" in out:
        return [[t] for t in (turn_of(e["source"].get("message")) for e in out["turns"]) if t]
    return [[t for t in (turn_of(s.get("message")) for s in r.get("sources", [])) if t] for r in out["results"]]


def archived(ws: Path) -> list[dict]:
    """The memories consolidation archived that recall still searches (those not merged into another)."""
    path = ws / "memory" / "archive.jsonl"
    if not path.exists():
        return []
    entries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [e for e in entries if not e.get("mergedInto")]


def stored_turns(memory: dict) -> set[tuple[int, int]]:
    """The turns a stored memory holds: its own sources and the turns attached to it (its `episode`)."""
    sources = list(memory.get("sources") or [])
    sources += [e.get("source") or {} for e in memory.get("episode") or [] if isinstance(e, dict)]
    return {t for t in (turn_of(s.get("message")) for s in sources if isinstance(s, dict)) if t}


# --- scoring ----------------------------------------------------------------------------------------------------


def first_turns(ranked: Sequence[Sequence[tuple[int, int]]], k: int) -> list[tuple[int, int]]:
    """The first k distinct turns in the order recall listed them."""
    out: list[tuple[int, int]] = []
    for memory in ranked:
        for turn in memory:
            if turn not in out:
                out.append(turn)
                if len(out) == k:
                    return out
    return out


def first_sessions(ranked: Sequence[Sequence[tuple[int, int]]], k: int, session_of: dict[int, str]) -> list[str]:
    """The first k distinct sessions in the order their turns were listed."""
    out: list[str] = []
    for memory in ranked:
        for turn in memory:
            name = session_of.get(turn[0], str(turn[0]))
            if name not in out:
                out.append(name)
                if len(out) == k:
                    return out
    return out


def scores(ranked: Sequence[Sequence[tuple[int, int]]], question: Question, session_of: dict[int, str]) -> dict:
    """Every figure of one question, each 0 to 1:
    turn@k     the share of evidence turns among the first k distinct turns;
    turn_any   whether an evidence turn is among the first ANY_K;
    session@k  the share of evidence sessions among the sessions of the first k turns;
    session_any / session_all   whether any / all evidence sessions are among the first ANY_K distinct sessions."""
    out: dict[str, float] = {}
    wanted = question.evidence
    for k in KS:
        turns = first_turns(ranked, k)
        out[f"turn@{k}"] = len(wanted & set(turns)) / len(wanted) if wanted else 0.0
        got = {session_of.get(t[0], str(t[0])) for t in turns}
        out[f"session@{k}"] = len(question.sessions & got) / len(question.sessions) if question.sessions else 0.0
    out["turn_any"] = float(bool(wanted & set(first_turns(ranked, ANY_K))))
    sessions = set(first_sessions(ranked, ANY_K, session_of))
    out["session_any"] = float(bool(question.sessions & sessions))
    out["session_all"] = float(bool(question.sessions) and question.sessions <= sessions)
    return out


# --- the plain BM25 baseline ------------------------------------------------------------------------------------


def plain_tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def plain_bm25(item: Item, depth: int = 200) -> list[list[list[tuple[int, int]]]]:
    """Okapi BM25 (k1 1.5, b 0.75) over single turns as the transcript holds them, words lower-cased, nothing
    stemmed or left out: each question's best `depth` turns, one a "memory"."""
    docs, keys = [], []
    for session in item.sessions:
        for turn in session.turns:
            docs.append(Counter(plain_tokens(turn.text)))
            keys.append(turn.key)
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / max(1, len(lengths))
    df = Counter(t for d in docs for t in d)
    out = []
    for question in item.questions:
        terms = set(plain_tokens(question.text))
        idf = {t: math.log(1 + (len(docs) - df[t] + 0.5) / (df[t] + 0.5)) for t in terms if df[t]}
        ranked = []
        for i, doc in enumerate(docs):
            score = 0.0
            for t in idf.keys() & doc.keys():
                score += idf[t] * doc[t] * 2.5 / (doc[t] + 1.5 * (0.25 + 0.75 * lengths[i] / average))
            if score > 0:
                ranked.append((-score, i))
        out.append([[keys[i]] for _, i in sorted(ranked)[:depth]])
    return out


# --- running a data set -----------------------------------------------------------------------------------------


class Tally:
    """Sums of each figure per category and overall."""

    def __init__(self) -> None:
        self.sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.counts: Counter[str] = Counter()

    def add(self, category: str, figures: dict) -> None:
        for group in (category, "overall"):
            self.counts[group] += 1
            for name, value in figures.items():
                self.sums[group][name] += value

    def percent(self, group: str) -> dict[str, float]:
        n = self.counts[group]
        return {name: 100 * value / n for name, value in self.sums[group].items()} if n else {}


@dataclass
class Result:
    """What one variant (or the baseline) scored on a data set, and what its memory held."""

    label: str
    tally: Tally = field(default_factory=Tally)
    evidence: int = 0
    kept: int = 0  # evidence turns held by a memory recall searches (in the index, or archived and not merged)
    memories: int = 0
    turns: int = 0
    index_bytes: int = 0
    seconds: float = 0.0  # building and asking, summed over items (work in parallel overlaps)

    def stats(self) -> dict[str, float]:
        return {
            "kept": 100 * self.kept / max(1, self.evidence),
            "per_turn": self.memories / max(1, self.turns),
            "bytes_per_turn": self.index_bytes / max(1, self.turns),
        }


def _run_build(item: Item, variants: list[Variant], prefix: str) -> tuple[list[list[dict]], dict]:
    """Build one item's memory once for `variants` (which share a build) and ask each its questions."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"hippocampus-{prefix}-") as tmp:
        ws, asked = build_memory(item, Path(tmp), variants[0], prefix)
        stored = json.loads((ws / "memory" / "index.json").read_text(encoding="utf-8"))["memories"]
        held = {t for m in stored + archived(ws) for t in stored_turns(m)}
        facts = {
            "memories": len(stored),
            "index_bytes": (ws / "memory" / "index.json").stat().st_size,
            "kept": sum(len(q.evidence & held) for q in item.questions),
        }
        session_of = item.session_of()
        figures = []
        for number, variant in enumerate(variants):
            here = ws
            if variant.stripped:
                here = Path(tmp) / f"workspace-{number}"
                shutil.copytree(ws, here)
                ablations.strip(here / "memory" / "index.json", variant.stripped)
            figures.append([scores(ask(here, asked, q.text, variant.patches), q, session_of) for q in item.questions])
    facts["seconds"] = time.perf_counter() - started
    return figures, facts


def each_built(
    items: Sequence[Item],
    use: Callable[[Item, Path, datetime], T],
    jobs: int,
    prefix: str,
    progress: Callable[[str], None],
) -> list[T]:
    """Build each item's memory as the product ships (mode `default`) in a fresh temporary workspace, `jobs` at a
    time, and hand it to `use(item, workspace, when the questions are asked)` before the workspace goes; what `use`
    returned, in the order of `items`."""

    def task(item: Item) -> T:
        with tempfile.TemporaryDirectory(prefix=f"hippocampus-{prefix}-") as tmp:
            ws, asked = build_memory(item, Path(tmp), Variant(), prefix)
            out = use(item, ws, asked)
        progress(f"done: {item.name}")
        return out

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(task, items))


@dataclass(frozen=True)
class Timing:
    wall: float  # seconds
    cpu: float  # seconds of CPU the scripts used (user and system), less disturbed by other work on the machine


def evaluate(
    items: Sequence[Item], variants: Sequence[Variant], jobs: int, prefix: str, progress: Callable[[str], None]
) -> tuple[Result, list[Result], Timing]:
    """Every variant over every item, `jobs` builds at a time, and the plain BM25 baseline; (baseline, results in
    the order of `variants`, time taken)."""
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    groups: dict[tuple, list[Variant]] = defaultdict(list)
    for variant in variants:
        groups[variant.build].append(variant)
    results = {v: Result(v.label) for v in variants}
    baseline = Result("plain BM25 over single turns")
    tasks = [(item, group) for item in items for group in groups.values()]

    def task(job: tuple[Item, list[Variant]]):
        item, group = job
        out = _run_build(item, group, prefix)
        progress(f"done: {item.name} ({', '.join(v.label for v in group)})")
        return out

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = list(pool.map(task, tasks))
    for (item, group), (figures, facts) in zip(tasks, done, strict=True):
        for variant, per_question in zip(group, figures, strict=True):
            result = results[variant]
            for question, figure in zip(item.questions, per_question, strict=True):
                result.tally.add(question.category, figure)
            result.evidence += sum(len(q.evidence) for q in item.questions)
            result.kept += facts["kept"]
            result.memories += facts["memories"]
            result.turns += sum(len(s.turns) for s in item.sessions)
            result.index_bytes += facts["index_bytes"]
            result.seconds += facts["seconds"] / len(group)
    for item in items:
        session_of = item.session_of()
        for question, ranked in zip(item.questions, plain_bm25(item), strict=True):
            baseline.tally.add(question.category, scores(ranked, question, session_of))
        baseline.evidence += sum(len(q.evidence) for q in item.questions)
        baseline.kept += sum(len(q.evidence) for q in item.questions)
        baseline.turns += sum(len(s.turns) for s in item.sessions)
        baseline.memories += sum(len(s.turns) for s in item.sessions)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return baseline, [results[v] for v in variants], Timing(time.perf_counter() - started, cpu)


# --- tables -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Columns:
    """How a data set's tables show it: its categories in order and its figures (name, column heading)."""

    categories: tuple[str, ...]
    figures: tuple[tuple[str, str], ...]


def category_table(title: str, result: Result, columns: Columns) -> str:
    head = " | ".join(h for _, h in columns.figures)
    lines = [f"\n## {title}\n", f"| category | questions | {head} |", "|---|---:|" + "---:|" * len(columns.figures)]
    for group in (*columns.categories, "overall"):
        if result.tally.counts[group]:
            p = result.tally.percent(group)
            cells = " | ".join(f"{p[name]:.1f} %" for name, _ in columns.figures)
            lines.append(f"| {group} | {result.tally.counts[group]} | {cells} |")
    return "\n".join(lines)


def overall_table(rows: Sequence[Result], columns: Columns) -> str:
    head = " | ".join(h for _, h in columns.figures)
    lines = [
        f"| | {head} | evidence turns kept | memories per turn |",
        "|---|" + "---:|" * (len(columns.figures) + 2),
    ]
    for row in rows:
        p, s = row.tally.percent("overall"), row.stats()
        cells = " | ".join(f"{p.get(name, 0):.1f} %" for name, _ in columns.figures)
        lines.append(f"| {row.label} | {cells} | {s['kept']:.1f} % | {s['per_turn']:.2f} |")
    return "\n".join(lines)


def by_category_table(rows: Sequence[Result], reference: Result, columns: Columns, figure: str, heading: str) -> str:
    """One figure per category and overall, a row per result, and how far each row's overall is from
    `reference`'s."""
    counts = reference.tally.counts
    shown = [c for c in columns.categories if counts[c]]
    lines = [
        f"| {heading} | " + " | ".join(f"{c} ({counts[c]})" for c in shown) + f" | overall ({counts['overall']}) | Δ |",
        "|---|" + "---:|" * (len(shown) + 2),
    ]
    base = reference.tally.percent("overall").get(figure, 0.0)
    for row in rows:
        p = {c: row.tally.percent(c).get(figure, 0.0) for c in (*shown, "overall")}
        delta = "" if row is reference else f"{p['overall'] - base:+.1f}"
        lines.append(f"| {row.label} | " + " | ".join(f"{p[c]:.1f} %" for c in (*shown, "overall")) + f" | {delta} |")
    return "\n".join(lines)


def stats_line(result: Result) -> str:
    s = result.stats()
    return (
        f"evidence turns held by a memory recall searches: {s['kept']:.1f} % · memories per turn: {s['per_turn']:.2f} "
        f"({result.memories} memories from {result.turns} turns) · index.json: {s['bytes_per_turn']:.0f} bytes per "
        f"turn · {result.seconds:.0f} s of building and asking (summed over parallel work)"
    )


def timing_line(timing: Timing, jobs: int) -> str:
    return f"wall time: {timing.wall:.0f} s, {jobs} at a time; CPU time of the scripts: {timing.cpu:.0f} s"


def progress_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def modes_parser(doc: str, data: Path, what: str) -> argparse.ArgumentParser:
    """The flags of a data set's own script: --data, --mode and --jobs (it adds how to take a subset)."""
    parser = argparse.ArgumentParser(description=" ".join(doc.split("\n\n")[0].split()))
    parser.add_argument("--data", type=Path, default=data, help=f"a {what} file")
    parser.add_argument("--mode", choices=["default", "all-turns", "both"], default="both")
    parser.add_argument("--jobs", type=int, default=2, help="histories built and asked in parallel")
    return parser


def report_modes(items: Sequence[Item], mode: str, jobs: int, data: str, columns: Columns) -> None:
    """Run `mode` (or both) and the baseline over `items` and print a data set's tables: each mode by category, the
    baseline by category, then all of them overall."""
    variants = [Variant(m) for m in (MODES if mode == "both" else [mode])]
    baseline, results, timing = evaluate(items, variants, jobs, data, progress_to_stderr)
    for result in results:
        print(category_table(f"hippocampus, mode {result.label}", result, columns))
        print("\n" + stats_line(result))
    print(category_table(f"reference: {baseline.label}, same data", baseline, columns))
    print("\n## overall\n")
    print(overall_table([baseline, *results], columns))
    print(f"\n{timing_line(timing, jobs)}")
