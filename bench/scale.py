#!/usr/bin/env python3
"""Speed and memory at scale: each script timed as a whole process on generated stores of 1k, 10k and 100k memories.

For every store size it prints the median wall time and the peak memory (max RSS) of each script over several
runs, and both as ratios to the floor: starting Python and parsing the index as generated (`python3 -c 'import json;
json.load(open(...))'`). Ratios travel between machines better than seconds; each run of a script is paired with a
floor run just before it, and its ratio is the median of the pairs' (other work on a shared machine slows both).
The generated index has no decay anchors; the first decay gives every memory one, and the file grows (40 to 46 MiB
at 100,000 memories, and parsing it takes about half again as long): the daily decay and the encode of 200 messages
are also paired with parsing index.json as it then stands, the file they read (in their note). A second's noise in a
floor run of a second moves a ratio by much: `--daily-runs` runs those two daily jobs more times than the others. The
scripts' bytecode is written first, as a user's machine holds it after the first run. Nothing here is asserted: it
prints.

`--episodes` gives the generated memories what encode.py now stores beside a statement: the turns of its
conversation attached to it (none to two, one on average), the message it answered (`context`) and the one that
followed (`reply`).

Usage: python3 bench/scale.py [--sizes 1000,10000,100000] [--runs 5] [--daily-runs N] [--keep DIR] [--episodes]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"


def cache_bytecode() -> None:
    """Write the bytecode of the scripts and their package, as a user's machine holds it after the first run: where
    PYTHONDONTWRITEBYTECODE is set, no run writes it, and every measured run would compile the sources again."""
    compileall.compile_dir(SCRIPTS, quiet=1)


NOW = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)

# A small English vocabulary, drawn with Zipf-like weights so that a few words are common and most are rare,
# as in real chat text; names, places and numbers make memories distinct.
VOCABULARY = """
project meeting deadline coffee tea morning evening weekend week month year plan trip flight hotel train car bike
doctor dentist appointment birthday gift dinner lunch breakfast recipe pasta bread soup salad garden plant flower
tree house flat rent kitchen bathroom room window door office desk laptop phone screen keyboard server database
backup deploy release bug test code review branch merge issue ticket customer client invoice budget price cost
payment bank account tax report slide deck talk conference workshop course exam lesson book novel story chapter
movie series episode podcast music song album concert guitar piano violin drum band friend sister brother mother
father daughter son partner wife husband cousin uncle aunt neighbour colleague manager team boss startup company
school university teacher student class homework sport football tennis running swimming yoga gym hike mountain
lake river beach sea island city village country language spanish french german japanese italian dog cat bird
horse fish pet vet walk park rain snow sun wind weather summer winter spring autumn holiday christmas easter
party wedding anniversary baby health sleep dream stress anxiety calm happy sad angry tired excited worried proud
grateful lonely love hate prefer like dislike always never usually sometimes remember forget decide choose want
need buy sell move change start finish build fix break learn teach write read cook clean paint draw travel visit
call message email letter note list idea question answer problem solution reason goal habit routine schedule
calendar reminder password subscription insurance contract lawyer car repair garage tyre fuel electric solar
""".split()
NAMES = "Ana Ben Chen Dana Eli Farah Goran Hana Ivo Jun Kai Lena Mara Nils Omar Pia Quinn Rosa Sami Tara".split()
PLACES = "Lisbon Berlin Osaka Porto Denver Lyon Quito Tartu Cork Kyoto Oslo Pune Bergen Malmo Sintra".split()
TEMPLATES = [
    "User prefers {w} {w} in the {w}",
    "{n} is the user's {w} and lives in {p}",
    "We decided to {w} the {w} {w} before {d}",
    "User's {w} appointment moved to {d} at {h}",
    "User feels {w} about the {w} {w} with {n}",
    "Working on the {w} {w} project for {n} in {p}",
    "The {w} code for {w} {k} is {k}",
    "User said {w} {w} {w} {w} {w} and {w} {w} {w} {w}",
    "I am {w} when the user {w} {w} {w}",
    "{n} recommended a {w} {w} near {p}, about {k} euros",
]

# How a message of a generated transcript begins.
OPENERS = [
    "I prefer",
    "Remember that",
    "We decided to",
    "I am worried about",
    "I'm working on",
    "Thanks for",
    "My sister",
    "Tomorrow the",
]


def long_tail(size: int, seed: int = 11) -> list[str]:
    """Made-up words standing for the long tail of a real vocabulary (names of things, jargon, rare words)."""
    rng = random.Random(seed)
    syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"] + ["ar", "en", "is", "on", "ul", "ex"]
    out = set()
    while len(out) < size:
        out.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    return sorted(out)


# Real chat text follows Zipf's law over tens of thousands of words. Function words (which the tokeniser drops)
# hold the head of that curve, so content words follow it from about rank 50 on (Zipf-Mandelbrot, q = 50):
# the common ones above, then a long tail.
WORDS = VOCABULARY + long_tail(20_000)
WEIGHTS = [1 / (rank + 50) for rank in range(len(WORDS))]


def zipf_words(rng: random.Random, size: int | None = None):
    """Words drawn with Zipf-like weights from the first `size` of WORDS (all of them by default)."""
    words, weights = WORDS[:size], WEIGHTS[:size]
    while True:
        yield from rng.choices(words, weights, k=512)


def generate_store(count: int, seed: int = 42, episodes: bool = False) -> dict:
    """A store of `count` memories: realistic lengths, domains, importances, dates over three years, sources (and
    with `episodes`, attached turns, `context` and `reply` as encode.py writes them)."""
    rng = random.Random(seed)
    words = zipf_words(rng)

    def chat(low: int, high: int) -> str:
        return " ".join(next(words) for _ in range(rng.randint(low, high))).capitalize() + "."

    start = date(2023, 11, 1)
    memories = []
    for i in range(1, count + 1):
        template = rng.choice(TEMPLATES)
        text = template
        while "{" in text:
            text = (
                text.replace("{w}", next(words), 1)
                .replace("{n}", rng.choice(NAMES), 1)
                .replace("{p}", rng.choice(PLACES), 1)
                .replace("{k}", str(rng.randint(2, 9999)), 1)
                .replace("{h}", f"{rng.randint(8, 19)}:{rng.choice(['00', '15', '30', '45'])}", 1)
                .replace("{d}", (start + timedelta(days=rng.randint(0, 1100))).strftime("%A %d %B"), 1)
            )
        if rng.random() < 0.3:
            text += ". " + " ".join(next(words) for _ in range(rng.randint(5, 25))).capitalize()
        created = start + timedelta(days=rng.randint(0, 1095))
        accessed = created + timedelta(days=rng.randint(0, max(0, (NOW.date() - created).days)))
        domain = rng.choices(["user", "relationship", "self", "world"], [5, 2, 1, 3])[0]
        session = f"{rng.getrandbits(128):032x}"
        said = f"{created.isoformat()}T{rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}:00Z"
        memory = {
            "id": f"mem_{i:03d}",
            "domain": domain,
            "category": rng.choice(["preferences", "context", "people", "projects", "feedback", "general"]),
            "content": text[:240],
            "importance": round(min(1.0, rng.betavariate(2, 3) + 0.15), 4),
            "created": created.isoformat(),
            "lastAccessed": accessed.isoformat(),
            "timesReinforced": rng.choice([0, 0, 0, 1, 1, 2, 3, 5]),
            "keywords": rng.sample(VOCABULARY, 3),
            "sources": [{"session": session, "message": f"{rng.getrandbits(32):08x}", "ts": said}],
        }
        if episodes:
            memory["context"] = chat(8, 40)
            memory["reply"] = chat(8, 40)
            turns = [
                {
                    "text": chat(6, 40),
                    "role": rng.choice(["assistant", "user"]),
                    "source": {"session": session, "message": f"{rng.getrandbits(32):08x}", "ts": said},
                }
                for _ in range(rng.choice([0, 1, 1, 2]))
            ]
            if turns:
                memory["episode"] = turns
        memories.append(memory)
    return {"version": 2, "decayLastRun": (NOW.date() - timedelta(days=1)).isoformat(), "memories": memories}


def write_store(count: int, path: Path, episodes: bool = False) -> None:
    store = generate_store(count, episodes=episodes)
    body = ",\n".join(json.dumps(m) for m in store.pop("memories"))
    path.write_text(json.dumps(store)[:-1] + ', "memories": [\n' + body + "\n]}\n")


def transcript(path: Path, messages: int, seed: int = 7, session: str = "bench-session") -> None:
    """An OpenClaw session file with `messages` user/assistant messages of ordinary chat."""
    rng = random.Random(seed)
    words = zipf_words(rng)
    lines = [{"type": "session", "version": 3, "id": session, "timestamp": "2026-11-01T08:00:00.000Z"}]
    parent = None
    for i in range(messages):
        role = "user" if i % 2 == 0 else "assistant"
        opener = rng.choice(OPENERS)
        text = f"{opener} " + " ".join(next(words) for _ in range(rng.randint(6, 30))) + f" {rng.randint(1, 999)}"
        ts = NOW - timedelta(minutes=messages - i)
        entry_id = f"{seed:02x}{i + 1:06x}"
        content = text if role == "user" else [{"type": "text", "text": text}]
        lines.append(
            {
                "type": "message",
                "id": entry_id,
                "parentId": parent,
                "timestamp": ts.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                "message": {"role": role, "content": content, "timestamp": int(ts.timestamp() * 1000)},
            }
        )
        parent = entry_id
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")


def measure(command: list[str], env: dict | None = None) -> tuple[float, float, float]:
    """(wall seconds, peak RSS MiB, CPU seconds) of one process, which must succeed."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0,):
        raise RuntimeError(f"{' '.join(command[:3])} exited {proc.returncode}: {proc.stderr.read().decode()[-300:]}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def median_of(
    runs: int, make_command, prepare=None, floor: list[str] | None = None, also: list[str] | None = None
) -> dict:
    """{wall, peak, ratio, cpu_ratio} over `runs` runs: the median wall time, the highest peak, and — with a `floor`
    command timed just before each run — the median of each run's wall time over its own floor's, and of its CPU
    time over the floor's. Paired so, a ratio holds when other work on a shared machine slows everything down for a
    while; CPU time is disturbed less by it than wall time. With `also`, a second floor timed before each run too:
    the median of the CPU ratios to it (`also_cpu_ratio`)."""
    walls, peaks, ratios, cpu_ratios, also_ratios = [], [], [], [], []
    for run in range(runs):
        if prepare:
            prepare(run)
        second = measure(also) if also else None
        below = measure(floor) if floor else None
        wall, peak, cpu = measure(make_command(run))
        walls.append(wall)
        peaks.append(peak)
        if below:
            ratios.append(wall / below[0])
            cpu_ratios.append(cpu / below[2])
        if second:
            also_ratios.append(cpu / second[2])
    return {
        "wall": statistics.median(walls),
        "peak": max(peaks),
        "ratio": statistics.median(ratios) if ratios else None,
        "cpu_ratio": statistics.median(cpu_ratios) if cpu_ratios else None,
        "also_cpu_ratio": statistics.median(also_ratios) if also_ratios else None,
    }


def script(name: str, ws: Path, *args: str, now: datetime = NOW) -> list[str]:
    return [
        sys.executable,
        str(SCRIPTS / f"{name}.py"),
        *args,
        "--workspace",
        str(ws),
        "--now",
        now.strftime("%Y-%m-%dT%H:%M:%SZ"),
    ]


QUERIES = [
    "coffee in the morning",
    "sister Lisbon",
    "dentist appointment",
    "database backup deploy",
    "what did we decide about the budget",
    "piano lessons",
    "worried about the exam",
    "hotel in Osaka",
]


def bench_size(count: int, runs: int, workdir: Path, episodes: bool = False, daily: int | None = None) -> list[dict]:
    daily = daily or runs  # runs of the daily decay and of the encode of 200 messages
    ws = workdir / f"ws-{count}"
    (ws / "memory").mkdir(parents=True)
    index_path = ws / "memory" / "index.json"
    # Generated in a child process: a child's peak memory (ru_maxrss) would otherwise start at this process's.
    subprocess.run(
        [sys.executable, __file__, "--write-store", str(count), str(index_path), *(["episodes"] if episodes else [])],
        check=True,
    )
    size_mib = index_path.stat().st_size / 2**20
    rows = []

    # The floor parses the index as generated, before any script rewrote it (kept aside: decay adds an anchor to
    # every memory, and the file grows).
    generated = shutil.copyfile(index_path, workdir / f"floor-{count}.json")
    parse = [sys.executable, "-c", f"import json; json.load(open({str(generated)!r}))"]
    floor = median_of(runs, lambda r: parse)
    rows.append({"what": "floor: python + json.load", **floor, "ratio": 1.0})

    stored: list[str] = []  # the second floor: json.load of index.json as the daily jobs find it (see below)

    def timed(what: str, make_command, times: int = runs, prepare=None, also: bool = False) -> None:
        rows.append(
            {"what": what, **median_of(times, make_command, prepare, floor=parse, also=stored if also else None)}
        )
        if also:
            rows[-1]["note"] = f"CPU × parsing index.json as it stands: {rows[-1]['also_cpu_ratio']:.2f}"

    # The first reader after a change it did not make itself (here: the generated file) builds the cache.
    timed("recall, first after a hand edit (builds cache)", lambda r: script("recall", ws, "coffee", "--no-touch"), 1)
    timed("recall", lambda r: script("recall", ws, QUERIES[r % len(QUERIES)]))
    timed("load_core", lambda r: script("load_core", ws))
    timed("sync_core", lambda r: script("sync_core", ws))
    # Each decay run is a new day, so every run does the full work. The first one after a file the scripts did not
    # write themselves (the generated one, as after a hand edit or the old skill's) loads and validates it whole.
    timed("decay, first after a hand edit (whole store)", lambda r: script("decay", ws, now=NOW + timedelta(days=1)), 1)
    # From here on index.json holds every memory's decay anchor, as a user's does after its first decay: the daily
    # jobs are also timed against parsing that file (printed in their note).
    anchored = shutil.copyfile(index_path, workdir / f"floor-anchored-{count}.json")
    stored.extend([sys.executable, "-c", f"import json; json.load(open({str(anchored)!r}))"])
    timed("decay", lambda r: script("decay", ws, now=NOW + timedelta(days=r + 2)), daily, also=True)

    if (SCRIPTS / "encode.py").exists():
        # As cron runs it: each run finds one new session of 200 messages in the same, growing workspace.
        sessions = workdir / f"sessions-{count}"
        sessions.mkdir()

        def new_session(run):
            transcript(sessions / f"bench-session-{run}.jsonl", 200, seed=run, session=f"bench-{count}-{run}")

        timed(
            "encode 200 new messages",
            lambda r: script(
                "encode", ws, "--sessions", str(sessions), now=NOW + timedelta(days=daily + 2, hours=r + 1)
            ),
            daily,
            prepare=new_session,
            also=True,
        )
        # The weekly consolidation: the first compares every memory (none was consolidated before); a week later,
        # only the memories of that week (one more session encoded first).
        later = NOW + timedelta(days=daily + 3)
        timed("consolidate, first (every memory new to it)", lambda r: script("consolidate", ws, now=later), 1)

        def one_more_session(run):
            new_session(daily + run)
            encode = script("encode", ws, "--sessions", str(sessions), now=later + timedelta(days=1, hours=run))
            subprocess.run(encode, check=True, capture_output=True)

        timed(
            "consolidate, a week later (200 new messages)",
            lambda r: script("consolidate", ws, now=later + timedelta(days=7 * (r + 1))),
            1,
            prepare=one_more_session,
        )
    else:
        rows.append({"what": "encode 200 new messages", "wall": None, "peak": None})

    if (SCRIPTS / "dashboard.py").exists():
        out = workdir / f"dash-{count}.html"
        timed("dashboard", lambda r: script("dashboard", ws, "--output", str(out)))
        rows[-1]["note"] = f"page {out.stat().st_size / 1024:.0f} KiB"

    load_core_out = subprocess.run(script("load_core", ws), capture_output=True, text=True).stdout
    core_file = (ws / "HIPPOCAMPUS_CORE.md").read_text()
    for row in rows:
        row["count"] = count
        row["index_mib"] = size_mib
        row["floor_wall"], row["floor_peak"] = floor["wall"], floor["peak"]
    derived = sum(p.stat().st_size for p in (ws / "memory" / ".cache").iterdir())
    derived += sum(
        p.stat().st_size for d in ("user", "self", "relationship", "world") for p in (ws / "memory" / d).glob("*.md")
    )
    derived += sum((ws / name).stat().st_size for name in ("HIPPOCAMPUS_CORE.md", "brain-dashboard.html"))
    stored = index_path.stat().st_size
    rows.append(
        {
            "count": count,
            "what": "disk",
            "note": f"index.json {stored / 2**20:.1f} MiB; derived files (search cache, mirrors, core file, dashboard) "
            f"{derived / 2**20:.1f} MiB = {derived / stored:.2f} × the index",
        }
    )
    rows.append(
        {
            "count": count,
            "what": "output sizes",
            "note": f"load_core {len(load_core_out)} chars "
            f"(~{len(load_core_out) // 4} tokens), HIPPOCAMPUS_CORE.md {len(core_file)} chars "
            f"(~{len(core_file) // 4} tokens)",
        }
    )
    return rows


def table(rows: list[dict]) -> str:
    lines = [
        "| memories | index | what | wall s | × floor | CPU × floor | peak MiB | × index size | note |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        if row.get("wall") is None and "floor_wall" in row:
            lines.append(f"| {row['count']:,} | | {row['what']} | n/a | | | | | script not present |")
            continue
        if "floor_wall" not in row:
            lines.append(f"| {row['count']:,} | | {row['what']} | | | | | | {row.get('note', '')} |")
            continue
        ratio = row["ratio"] if row.get("ratio") is not None else row["wall"] / row["floor_wall"]
        mem_ratio = row["peak"] / row["index_mib"] if row["index_mib"] else 0
        cpu = f"{row['cpu_ratio']:.2f}" if row.get("cpu_ratio") is not None else "1.00"
        lines.append(
            f"| {row['count']:,} | {row['index_mib']:.1f} MiB | {row['what']} | {row['wall']:.3f} | "
            f"{ratio:.2f} | {cpu} | {row['peak']:.0f} | {mem_ratio:.2f} | {row.get('note', '')} |"
        )
    return "\n".join(lines)


def main() -> int:
    if sys.argv[1:2] == ["--write-store"]:
        write_store(int(sys.argv[2]), Path(sys.argv[3]), episodes=sys.argv[4:5] == ["episodes"])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="store sizes, comma-separated")
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (median)")
    parser.add_argument("--daily-runs", type=int, help="runs of the daily decay and encode (default: --runs)")
    parser.add_argument("--keep", metavar="DIR", help="build the stores here and keep them")
    parser.add_argument("--episodes", action="store_true", help="memories with attached turns, context and reply")
    args = parser.parse_args()
    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="hippocampus-scale-"))
    workdir.mkdir(parents=True, exist_ok=True)
    cache_bytecode()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, {sys.platform}")
    rows = []
    try:
        for count in (int(s) for s in args.sizes.split(",")):
            rows += bench_size(count, args.runs, workdir, args.episodes, args.daily_runs)
            print(f"done: {count:,} memories", file=sys.stderr)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
