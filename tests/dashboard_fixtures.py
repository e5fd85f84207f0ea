"""Workspaces for the dashboard tests: real files a user's workspace would hold (index, events, IDENTITY.md, avatar,
sibling skills' state files), written from fixed data so every count on the page is known in advance."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

HOSTILE = '</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"> "double" \'single\' &amp;'

TOPICS = [
    ("user", "preferences", "prefers oat milk in coffee and no sugar", ["coffee", "oat", "milk"]),
    ("user", "context", "dentist appointment moved to Thursday at 9", ["dentist", "appointment"]),
    ("user", "preferences", "likes concise answers with examples first", ["concise", "style"]),
    ("relationship", "feedback", "thanked me for the migration plan", ["thanks", "migration"]),
    ("relationship", "trust", "shared that the new job feels scary", ["job", "worry"]),
    ("self", "identity", "I explain trade-offs before recommending", ["tradeoffs", "advice"]),
    ("world", "projects", "the garden app ships its beta in April", ["garden", "beta", "april"]),
    ("world", "projects", "Postgres chosen over SQLite for the shop backend", ["postgres", "database"]),
    ("user", "context", "sister Mia visits Berlin next month", ["mia", "berlin", "family"]),
    ("world", "people", "Sam leads the design review on Fridays", ["sam", "design", "review"]),
]


def png_bytes(width: int = 8, height: int = 8, rgb=(124, 77, 255)) -> bytes:
    """A small valid PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * width
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def stored(
    number: int,
    content: str,
    importance: float,
    domain: str = "user",
    category: str = "general",
    day: str = "2026-03-01",
    created: str = "2026-02-01",
    reinforced: int = 0,
    keywords: list | None = None,
    **extra,
) -> dict:
    """A memory whose stored importance is already today's (decay ran on `day`, last access on `day`)."""
    out = {
        "id": f"mem_{number:03d}",
        "domain": domain,
        "category": category,
        "content": content,
        "importance": importance,
        "created": created,
        "lastAccessed": day,
        "timesReinforced": reinforced,
        "keywords": keywords or [],
    }
    out.update(extra)
    return out


def known_memories() -> list[dict]:
    """40 memories with known tiers: 10 core, 14 active, 9 background, 7 archive; 4 domains (user 16)."""
    memories = []
    plan = [(0.95, 10, "core"), (0.55, 14, "active"), (0.3, 9, "background"), (0.1, 7, "archive")]
    number = 0
    for base, count, _ in plan:
        for i in range(count):
            domain, category, text, keywords = TOPICS[number % len(TOPICS)]
            number += 1
            memories.append(
                stored(
                    number,
                    f"{text[0].upper()}{text[1:]} (note {number})",
                    round(base - i * 0.01, 3),
                    domain=domain,
                    category=category,
                    created=f"2026-0{1 + number % 2}-{10 + number % 18:02d}",
                    reinforced=number % 5,
                    keywords=keywords,
                    sources=[{"session": f"s{number}", "message": f"{number:08x}", "ts": "2026-02-20T10:00:00Z"}],
                )
            )
    return memories


def write_workspace(
    root: Path,
    memories: list[dict],
    name: str = "Nova",
    avatar: bool = True,
    siblings: bool = True,
    hostile: bool = False,
) -> Path:
    """A workspace holding an index (decay ran on 2026-03-01), events, IDENTITY.md and sibling state files."""
    memory = root / "memory"
    memory.mkdir(parents=True, exist_ok=True)
    (memory / "index.json").write_text(
        json.dumps({"version": 1, "decayLastRun": "2026-03-01", "memories": memories}, ensure_ascii=False),
        encoding="utf-8",
    )
    events = [
        {
            "ts": "2026-02-27T03:30:00Z",
            "type": "hippocampus",
            "event": "encoding",
            "new": 4,
            "reinforced": 2,
            "total": 36,
        },
        {
            "ts": "2026-02-28T03:30:00Z",
            "type": "hippocampus",
            "event": "encoding",
            "new": 3,
            "reinforced": 5,
            "total": 39,
        },
        {"ts": "2026-03-01T03:00:00Z", "type": "hippocampus", "event": "decay", "total": 40, "changed": 12},
        {"ts": "2026-03-01T08:00:00Z", "type": "amygdala", "event": "feeling", "note": HOSTILE if hostile else "warm"},
    ]
    lines = [json.dumps(e, ensure_ascii=False) for e in events]
    lines.insert(1, "{not json")
    (memory / "brain-events.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if name is not None:
        shown = f"{name} {HOSTILE}" if hostile else name
        avatar_line = "- **Avatar:** avatars/nova.png" if avatar else "- **Avatar:** *(workspace-relative path)*"
        (root / "IDENTITY.md").write_text(
            "# IDENTITY.md - Who Am I?\n\n"
            f"- **Name:** {shown}\n- **Creature:** owl familiar\n- **Vibe:** calm, curious\n"
            f"- **Emoji:** 🦉\n{avatar_line}\n",
            encoding="utf-8",
        )
        if avatar:
            (root / "avatars").mkdir(exist_ok=True)
            (root / "avatars" / "nova.png").write_bytes(png_bytes(48, 48))
    if siblings:
        trigger = HOSTILE if hostile else "the user shared good news about the job"
        (memory / "emotional-state.json").write_text(
            json.dumps(
                {
                    "lastUpdated": "2026-03-01T09:00:00Z",
                    "dimensions": {
                        "valence": 0.45,
                        "arousal": 0.35,
                        "connection": 0.8,
                        "curiosity": 0.7,
                        "energy": 0.6,
                        "trust": 0.75,
                        "anticipation": 0.5,
                    },
                    "recentEmotions": [
                        {
                            "label": "calm",
                            "intensity": 0.4,
                            "trigger": "a quiet morning",
                            "timestamp": "2026-02-28T08:00:00Z",
                        },
                        {"label": "joy", "intensity": 0.8, "trigger": trigger, "timestamp": "2026-03-01T09:00:00Z"},
                    ],
                }
            ),
            encoding="utf-8",
        )
        source = HOSTILE if hostile else "finished the migration plan together"
        (memory / "reward-state.json").write_text(
            json.dumps(
                {
                    "drive": 0.72,
                    "seeking": ["ship the garden beta", "learn the user's routines"],
                    "anticipating": ["design review on Friday"],
                    "recentRewards": [
                        {
                            "type": "accomplishment",
                            "source": source,
                            "intensity": 0.9,
                            "timestamp": "2026-03-01T10:00:00Z",
                        },
                        {"type": "connection", "source": "a thank-you", "intensity": 0.6},
                    ],
                }
            ),
            encoding="utf-8",
        )
    return root
