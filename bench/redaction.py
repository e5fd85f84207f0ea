#!/usr/bin/env python3
"""Speed of redaction, which runs on every message preprocess reads: ordinary chat messages (almost none hold a
secret) and messages that do, each timed against parsing their transcript lines (`json.loads`).

For each set it prints the median time over several runs, per message and as a ratio to the parse, how many
messages held a gate string of two characters or more (their patterns ran on them) and how many were changed.
`--against REV` times the redaction module of a git revision on the same messages too (before and after a change).
Nothing is asserted.

Usage: python3 bench/redaction.py [--messages 20000] [--runs 5] [--against REV]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from hippocampus import redaction  # noqa: E402

WORDS = """
morning evening weekend coffee tea lunch dinner meeting project deadline flight hotel train ticket doctor dentist
appointment birthday gift recipe garden plant house flat kitchen office laptop phone screen keyboard server backup
deploy release bug test review branch merge invoice budget price payment account report slides talk workshop exam
lesson book movie podcast music concert guitar friend sister brother mother father daughter son partner colleague
manager team school teacher football tennis running swimming yoga gym hike mountain lake river beach city village
dog cat bird vet walk park rain snow sun summer winter holiday party wedding baby sleep stress calm happy tired
excited worried proud grateful remember forget decide choose buy sell move change start finish build fix learn
write read cook clean paint travel visit call message email letter note list idea question answer problem reason
goal habit routine schedule calendar reminder insurance contract repair garage shopping pinned passed phrase token
""".split()
NAMES = "Ana Ben Chen Dana Eli Farah Goran Hana Ivo Jun Kai Lena Mara Nils Omar Pia Quinn Rosa Sami Tara".split()
TEMPLATES = [
    "Can we move the {w} to {day} at {time}?",
    "{n} said the {w} {w} is ready, see {url}",
    "I think the {w} was {w}, honestly. Let's {w} the {w} tomorrow.",
    "Remember that {n}'s {w} is on {date}",
    "The {w} code for unit {num} is {num}",
    "Order #{num}-{num} should arrive by {date}, tracking {num}{num}{num}",
    "ok",
    "Thanks! 🙏",
    "Fixed in {hash}, tests pass on 3.{num}",
    "I prefer {w} over {w} for the {w}, especially in {w}",
    "Call me on +49 170 {num}{num} after {time}",
    "Price was €{num}.99 for {num} {w}s, {w} included",
    "We decided to {w} the {w} before {day}; {n} will {w} the {w}",
    "```\n$ git log --oneline | head -3\n{hash7} {w} {w}\n{hash7} {w} the {w}\n```",
    "That {w} {w} {w} {w} {w} {w} {w} {w} {w} {w}, and then {w} {w} {w} {w}.",
]
SECRET_TEMPLATES = [
    "my password is: {w}{num}!",
    "the wifi password for the {w} is {w}-{w}-{num}",
    "DB_PASS={w}{num}x\nDB_HOST=localhost",
    "token ghp_{alnum36} for CI",
    "bot token {num}{num}{num}:AA{alnum33}",
    "my bank card PIN is {pin}",
    "card 4111 1111 1111 1111 exp 12/27",
    "Mein Passwort ist {w}{num}",
    "postgres://dana:{w}/{num}@db.example.com/app",
    "my seed phrase: {seed}",
]


def _fill(template: str, rng: random.Random) -> str:
    alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    values = {
        "w": lambda: rng.choice(WORDS),
        "n": lambda: rng.choice(NAMES),
        "num": lambda: str(rng.randint(1, 9999)),
        "pin": lambda: str(rng.randint(1000, 999999)),
        "day": lambda: rng.choice(["Monday", "Friday", "the 14th"]),
        "time": lambda: f"{rng.randint(7, 21)}:30",
        "date": lambda: f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "url": lambda: f"https://example.com/{rng.choice(WORDS)}/{rng.randint(1, 999)}",
        "hash": lambda: "".join(rng.choice("0123456789abcdef") for _ in range(40)),
        "hash7": lambda: "".join(rng.choice("0123456789abcdef") for _ in range(7)),
        "alnum36": lambda: "".join(rng.choice(alnum) for _ in range(36)),
        "alnum33": lambda: "".join(rng.choice(alnum) for _ in range(33)),
        "seed": lambda: " ".join(rng.choice([w for w in WORDS if 3 <= len(w) <= 8]) for _ in range(12)),
    }
    out, rest = [], template
    while "{" in rest:
        before, _, after = rest.partition("{")
        name, _, rest = after.partition("}")
        out += [before, values[name]()]
    return "".join(out) + rest


def messages(count: int, templates: list[str], seed: int) -> list[str]:
    rng = random.Random(seed)
    return [_fill(rng.choice(templates), rng) for _ in range(count)]


def transcript_lines(texts: list[str]) -> list[str]:
    """Each message as OpenClaw writes it in a session file (the parse this is compared with)."""
    return [
        json.dumps(
            {
                "type": "message",
                "id": f"{i:08x}",
                "parentId": f"{i - 1:08x}",
                "timestamp": "2026-03-01T12:00:00.000Z",
                "message": {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1772366400000},
            }
        )
        for i, text in enumerate(texts)
    ]


def timed(jobs: list[tuple], runs: int) -> list[float]:
    """The median time of each (function, items) job over `runs` rounds; each round runs every job once, in turn,
    so that a busy moment of a shared machine falls on all of them alike."""
    times: list[list[float]] = [[] for _ in jobs]
    for _ in range(runs):
        for spent, (function, items) in zip(times, jobs, strict=True):
            start = time.perf_counter()
            for item in items:
                function(item)
            spent.append(time.perf_counter() - start)
    return [statistics.median(spent) for spent in times]


def module_at(revision: str):
    """The redaction module as it was at a git revision."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{revision}:scripts/hippocampus/redaction.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "redaction_then.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("redaction_then", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["redaction_then"] = module
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", metavar="REV", help="also time the redaction module of this git revision")
    args = parser.parse_args()
    versions = [("now", redaction.redact)]
    if args.against:
        versions.append((args.against, module_at(args.against).redact))
    conversations = redaction.Conversations()
    versions.append(("now, by conversation", lambda text: conversations.redact("s", text)))
    print(f"{args.messages} messages a set, median of {args.runs} rounds (each times every line below once)")
    for label, templates, seed in (("ordinary", TEMPLATES, 1), ("with a secret", SECRET_TEMPLATES, 2)):
        texts = messages(args.messages, templates, seed)
        lines = transcript_lines(texts)
        for _, function in versions:
            function(texts[0])  # patterns are compiled on first use: not in the figures
        parse, *spents = timed([(json.loads, lines), *((function, texts) for _, function in versions)], args.runs)
        _, found, letters, always = redaction._gates()
        worded = 0
        for bits in found.values():
            worded |= bits
        past = sum(1 for t in texts if redaction._runs(t) & worded)
        changed = sum(1 for t in texts if redaction.redact(t) != t)
        print(
            f"\n{label}: {sum(map(len, texts)) / len(texts):.0f} characters a message; {past} held a gate string "
            f"of two characters or more ({len(letters)} patterns are gated by single characters, "
            f"{bin(always).count('1')} by none), {changed} changed"
        )
        print(f"  {'parse the transcript lines':34} {parse:7.3f} s  {parse / len(texts) * 1e6:6.1f} µs/message")
        for (name, _), spent in zip(versions, spents, strict=True):
            print(
                f"  {'redact (' + name + ')':34} {spent:7.3f} s  {spent / len(texts) * 1e6:6.1f} µs/message  "
                f"{spent / parse:5.2f} × parse"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
