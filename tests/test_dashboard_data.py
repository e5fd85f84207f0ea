"""The values the dashboard template receives: counts, histogram, fade projection, growth, activity, the bounded
memory list and the sibling panels."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from conftest import memory
from dashboard_fixtures import known_memories, stored

from hippocampus.published import dashboard_data as dd
from hippocampus.model import Index
from hippocampus.store import cache, cache_writer

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def index_of(memories: list[dict], **meta) -> cache.Cache:
    return cache_writer.in_memory(
        Index.from_dict({"version": 1, "decayLastRun": "2026-03-01", **meta, "memories": memories}, "test"),
        NOW.date(),
    )


def build(memories: list[dict], **kwargs) -> dict:
    return dd.build(index_of(memories), NOW, **kwargs)


def test_memories_are_counted_by_tier_and_by_domain():
    data = build(known_memories())
    assert data["total"] == 40
    assert data["tierCounts"] == {"core": 10, "active": 14, "background": 9, "archive": 7}
    by_domain = {d["domain"]: d["count"] for d in data["domains"]}
    assert by_domain == {"user": 16, "self": 4, "relationship": 8, "world": 12}
    user = next(d for d in data["domains"] if d["domain"] == "user")
    assert sum(user["tiers"].values()) == 16
    assert user["tiers"]["core"] == 4


def test_tiers_use_todays_importance_not_the_stored_one():
    # Stored 0.75, last used 30 days before today and never decayed since: 0.75 × 0.99^30 ≈ 0.555 today.
    old = memory("mem_001", "faded", 0.75, lastAccessed="2026-01-30", created="2026-01-30")
    data = dd.build(index_of([old], decayLastRun=None), NOW)
    assert data["tierCounts"]["core"] == 0
    assert data["tierCounts"]["active"] == 1
    assert data["memories"][0]["importance"] == round(0.75 * 0.99**30, 3)


def test_an_unknown_domain_is_listed_after_the_four_known_ones():
    data = build([stored(1, "x", 0.5, domain="hobbies")])
    assert [d["domain"] for d in data["domains"]] == ["user", "self", "relationship", "world", "hobbies"]


def test_thousands_of_odd_domains_are_summed_up_in_one_row():
    data = build(
        [stored(i, "x", 0.5, domain=f"d{i:04d}") for i in range(1, 1001)] + [stored(1001, "y", 0.5, domain="d0001")]
    )
    rows = data["domains"]
    assert len(rows) == 4 + dd.OTHER_DOMAINS + 1
    assert rows[4]["domain"] == "d0001" and rows[4]["count"] == 2
    assert rows[-1] == {
        "domain": "",
        "title": "994 other domains",
        "count": 994,
        "tiers": {"core": 0, "active": 994, "background": 0, "archive": 0},
    }
    assert sum(r["count"] for r in rows) == 1001


def test_the_histogram_puts_each_importance_in_its_bin_with_thresholds_on_bin_edges():
    values = [0.0, 0.199, 0.2, 0.4, 0.6999, 0.7, 1.0]
    data = build([stored(i + 1, "x", v) for i, v in enumerate(values)])
    bins = data["histogram"]
    assert len(bins) == 20 and sum(b["count"] for b in bins) == len(values)
    filled = {round(b["low"], 2): b["count"] for b in bins if b["count"]}
    assert filled == {0.0: 1, 0.15: 1, 0.2: 1, 0.4: 1, 0.65: 1, 0.7: 1, 0.95: 1}
    assert [b["tier"] for b in bins if b["low"] in (0.15, 0.2, 0.65, 0.7)] == [
        "archive",
        "background",
        "active",
        "core",
    ]


def test_the_fade_projection_follows_099_per_day_and_keeps_pinned_memories():
    # 0.8 × 0.99^13 = 0.702 (still core), × 0.99^14 = 0.695 (not); a pinned memory never fades.
    data = build([stored(1, "fading", 0.8), stored(2, "kept", 0.9, pinned=True), stored(3, "active", 0.5)])
    projection = data["projection"]
    assert projection["core"][0] == 2
    assert projection["core"][13] == 2
    assert projection["core"][14] == 1
    assert projection["core"][90] == 1
    assert [m["core"] for m in projection["marks"]] == [2, 2, 1, 1, 1]
    assert [m["day"] for m in projection["marks"]] == [0, 7, 30, 60, 90]
    # ≥ 0.4: 0.5 × 0.99^22 = 0.4008, × 0.99^23 = 0.3968
    assert projection["active"][22] == 3 and projection["active"][23] == 2


def test_the_projection_is_exact_at_the_threshold_itself():
    for value in (0.7, 0.7 / 0.99**5, 0.99, 1.0):
        data = build([stored(1, "x", round(value, 6))])
        curve = data["projection"]["core"]
        last = max(d for d in range(91) if curve[d])
        assert round(value, 6) * 0.99**last >= 0.7
        assert last == 90 or round(value, 6) * 0.99 ** (last + 1) < 0.7


def test_the_page_carries_a_bounded_list_of_the_most_important_memories():
    memories = [stored(i, f"memory {i}", round(0.01 + i / 1000, 4)) for i in range(1, 301)]
    data = build(memories, limit=25)
    assert data["total"] == 300
    assert data["listed"] == 25 and len(data["memories"]) == 25
    assert [m["id"] for m in data["memories"]][:3] == ["mem_300", "mem_299", "mem_298"]
    assert len(data["top"]) == 10
    assert build(memories)["listed"] == 300


def test_each_listed_memory_has_its_importance_keywords_reinforcements_access_and_sources():
    long = stored(
        1,
        "word " * 1000,
        0.9,
        reinforced=4,
        keywords=[f"k{i}" for i in range(30)],
        sources=[{"session": f"s{i}", "message": "m", "ts": "2026-02-01T00:00:00Z"} for i in range(5)],
        lastAccessed="2026-02-25T08:00:00Z",
    )
    row = build([long])["memories"][0]
    assert len(row["content"]) <= dd.CONTENT_LIMIT and row["content"].endswith("…")
    assert row["keywords"] == [f"k{i}" for i in range(12)]
    assert row["reinforced"] == 4
    assert row["lastAccessed"] == "2026-02-25" and row["idleDays"] == 4
    assert row["sourceCount"] == 5 and len(row["sources"]) == 3
    assert row["sources"][0] == {"session": "s0", "message": "m", "ts": "2026-02-01T00:00:00Z"}
    assert row["tier"] == "core" and row["domain"] == "user"


def test_the_search_list_leaves_out_only_empty_optional_fields():
    used_today = stored(1, "fresh", 0.9, pinned=True)
    bare = stored(2, "bare", 0.5, created=None, lastAccessed=None)
    del bare["created"], bare["lastAccessed"]
    rows = {r["id"]: r for r in build([used_today, bare])["memories"]}
    assert rows["mem_001"]["idleDays"] == 0 and rows["mem_001"]["pinned"] is True
    assert rows["mem_001"]["sourceCount"] == 0 and "sources" not in rows["mem_001"]
    assert "untrusted" not in rows["mem_001"] and "keywords" not in rows["mem_001"]
    assert "lastAccessed" not in rows["mem_002"] and "created" not in rows["mem_002"]
    assert "idleDays" not in rows["mem_002"]


def test_growth_counts_memories_by_week_for_a_young_store_and_by_month_for_an_old_one():
    young = build(
        [
            stored(i, "x", 0.5, created=day)
            for i, day in enumerate(["2026-02-02", "2026-02-03", "2026-02-17", "2026-03-01"], 1)
        ]
    )["growth"]
    assert young["unit"] == "week"
    assert [(p["period"], p["added"], p["total"]) for p in young["points"]] == [
        ("2026-02-02", 2, 2),
        ("2026-02-09", 0, 2),
        ("2026-02-16", 1, 3),
        ("2026-02-23", 1, 4),
    ]
    old = build(
        [
            stored(1, "x", 0.5, created="2025-06-10"),
            stored(2, "y", 0.5, created="2026-02-01"),
            stored(3, "z", 0.5, created="not a date"),
        ]
    )["growth"]
    assert old["unit"] == "month" and old["undated"] == 1
    assert old["points"][0] == {"period": "2025-06", "added": 1, "total": 2}
    assert old["points"][-1] == {"period": "2026-03", "added": 0, "total": 3}
    assert len(old["points"]) == 10


def test_growth_stays_bounded_for_absurd_dates():
    data = build([stored(1, "x", 0.5, created="0001-01-01"), stored(2, "y", 0.5, created="9999-12-31")])
    assert len(data["growth"]["points"]) == dd.GROWTH_POINTS


def test_activity_sums_encoding_and_decay_runs_of_the_last_30_days():
    events = [
        {"ts": "2026-02-28T03:30:00Z", "type": "hippocampus", "event": "encoding", "new": 3, "reinforced": 2},
        {"ts": "2026-03-01T03:30:00Z", "type": "hippocampus", "event": "encoding", "new": 1, "reinforced": "x"},
        {"ts": "2026-03-01T03:00:00Z", "type": "hippocampus", "event": "decay", "changed": 7},
        {"ts": "2025-12-01T03:30:00Z", "type": "hippocampus", "event": "encoding", "new": 50},
        {"ts": "2026-03-01T09:00:00Z", "type": "amygdala", "event": "feeling", "label": "joy"},
        {"type": "vta", "event": "reward"},
    ]
    activity = build([], events=events, skipped_events=2)["activity"]
    assert len(activity["days"]) == 30 and activity["days"][-1]["day"] == "2026-03-01"
    assert activity["totals"] == {"new": 4, "reinforced": 2, "encodings": 2, "decays": 1}
    assert activity["lastEncoding"] == "2026-03-01T03:30:00Z" and activity["lastDecay"] == "2026-03-01T03:00:00Z"
    assert activity["byType"] == {"amygdala": 1, "hippocampus": 4, "vta": 1}
    assert activity["skipped"] == 2 and activity["count"] == 6
    assert [e["event"] for e in activity["recent"][:2]] == ["feeling", "encoding"]
    assert activity["recent"][0]["summary"] == "label joy"


def test_an_empty_store_gives_zeros_everywhere():
    data = build([])
    assert data["total"] == 0 and data["listed"] == 0 and data["memories"] == [] and data["top"] == []
    assert set(data["tierCounts"].values()) == {0}
    assert data["projection"]["core"] == [0] * 91
    assert data["growth"]["points"] == []
    assert data["title"] == "Brain dashboard"


def test_the_title_uses_the_agents_name():
    assert build([], agent={"name": "Nova"})["title"] == "Nova's brain"


def test_a_valid_emotional_state_fills_the_amygdala_panel_with_values_clamped_to_their_range():
    state = dd.StateFile(
        value={
            "dimensions": {"valence": -3, "arousal": 0.4, "trust": 1.5, "curiosity": "high", "mood": 0.5},
            "recentEmotions": [
                {"label": "calm", "intensity": 0.3, "trigger": "tea", "timestamp": "2026-02-28T08:00:00Z"},
                {"label": "joy", "intensity": 9, "trigger": "good news"},
                "not an emotion",
                {"intensity": 0.5},
            ],
        },
        missing=False,
    )
    panel = dd.amygdala_panel(state)
    assert panel["present"] is True
    values = {d["name"]: d["value"] for d in panel["dimensions"]}
    assert values == {"valence": -1.0, "arousal": 0.4, "trust": 1.0}
    assert [e["label"] for e in panel["emotions"]] == ["joy", "calm"]
    assert panel["emotions"][0]["intensity"] == 1.0
    assert panel["emotions"][1]["when"] == "2026-02-28T08:00:00Z"
    assert "3 malformed" in panel["note"]


def test_a_missing_sibling_file_gives_a_hint_on_how_to_add_the_skill():
    amygdala = dd.amygdala_panel(dd.StateFile())
    vta = dd.vta_panel(dd.StateFile())
    assert amygdala == {"present": False, "note": dd.AMYGDALA_HINT}
    assert vta == {"present": False, "note": dd.VTA_HINT}
    assert "emotional-state.json" in dd.AMYGDALA_HINT and "reward-state.json" in dd.VTA_HINT


def test_hostile_or_malformed_sibling_files_are_ignored_with_a_note():
    for value in (
        [1, 2],
        "text",
        42,
        None,
        {"dimensions": "all good", "recentEmotions": {"a": 1}},
        {"dimensions": {"valence": float("nan")}},
        {},
    ):
        panel = dd.amygdala_panel(dd.StateFile(value=value, missing=False))
        assert panel["present"] is False and "emotional-state.json" in panel["note"], value
        panel = dd.vta_panel(dd.StateFile(value=value, missing=False))
        assert panel["present"] is False and "reward-state.json" in panel["note"], value
    broken = dd.amygdala_panel(dd.StateFile(missing=False, problem="it is not valid JSON (line 1)"))
    assert "not valid JSON" in broken["note"]


def test_the_vta_panel_keeps_valid_goals_and_rewards_and_bounds_their_text():
    state = dd.StateFile(
        value={
            "drive": 0.7,
            "seeking": ["ship it", {"label": "learn"}, 5, "x" * 500],
            "anticipating": "not a list",
            "recentRewards": [
                {"type": "accomplishment", "source": "done", "intensity": 0.9},
                {"intensity": 1},
                {"type": "connection", "source": None},
            ],
        },
        missing=False,
    )
    panel = dd.vta_panel(state)
    assert panel["present"] and panel["drive"] == 0.7
    assert panel["seeking"][:2] == ["ship it", "learn"] and len(panel["seeking"][2]) == dd.SIBLING_TEXT
    assert panel["anticipating"] == []
    assert [(r["type"], r["source"]) for r in panel["rewards"]] == [("connection", None), ("accomplishment", "done")]
    assert "3 malformed" in panel["note"]


def test_a_secret_in_a_sibling_skill_s_state_is_redacted_before_it_reaches_the_page():
    # Sibling skills write their state files themselves, from the same chats: the page is a boundary like any other.
    secret = "hunter2-Xq9vLp"
    emotions = dd.amygdala_panel(
        dd.StateFile(
            value={
                "dimensions": {"valence": 0.2},
                "recentEmotions": [{"label": "relief", "trigger": f"my password is {secret}", "intensity": 0.5}],
            },
            missing=False,
        )
    )
    rewards = dd.vta_panel(
        dd.StateFile(
            value={
                "drive": 0.5,
                "seeking": [f"my password is {secret}"],
                "recentRewards": [{"type": "accomplishment", "source": f"my password is {secret}"}],
            },
            missing=False,
        )
    )
    shown = json.dumps([emotions, rewards], ensure_ascii=False)
    assert emotions["present"] and rewards["present"]
    assert secret not in shown and "REDACTED" in shown, shown
