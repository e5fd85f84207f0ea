"""Find the memories that matter for a question: words weighted by rarity (BM25), blended with importance and recency.

Words match whole words in any script ("projector" is not "project"), with light stemming ("migration" finds
"migrate", "went" finds "go"). A memory also holds the turns of its conversation that are no memory of their own
(the agent's replies, questions, small talk): the one that matches best is shown under it, a stranger's as an
observation; --json lists each memory's sources in the order they match, and under `turns` every hit's sources in the
order to read them (a memory's turns that match well in its place, its other turns after those of the next two
memories; for a question about what the user said — "where did I park?" — the agent's replies and the other turns
that match weakly after those of every memory). Each hit shows its parts: relevance, importance, recency (--why
explains them). A recalled memory counts as accessed, so its decay restarts today (--no-touch leaves it as it was).
The query is only ever data.
Superseded memories are left out unless --all. Recall also finds what consolidation moved out of the index into
memory/archive.jsonl (marked as archived, never counted as accessed there); with --archive, an archived memory it
finds moves back into the index. A memory whose value changed
("my sister's name is Sara, not Sofia") is found by its earlier values too: --all shows each earlier value with the
time it held, and --as-of DATE answers as the store would have then (what it knew and believed on that day).

Examples:
  recall.py "coffee order"
  recall.py "what did we decide about the database" --top 3 --why
  recall.py "dentist" --json --no-touch
  recall.py "old flat" --archive
  recall.py "sister's name" --all
  recall.py "where do we live" --as-of 2025-06-01
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, time, timezone

from .. import cli, search
from ..errors import HippocampusError
from ..model import DOMAINS
from ..published.selection import framed, framed_turn
from ..store import reading, touches
from ..terms import stored_text
from ..text import PART_BREAK, estimate_tokens, one_line, terms

PART_LIMIT = 240  # characters of a long memory's matching part shown under it
HISTORY_SHOWN = 5  # earlier values shown under a memory with --all, newest first
AS_OF_WIDER = 4  # --as-of ranks this many times --top memories, then keeps those the store held on that day


def within_budget(hits: list, budget: int | None) -> list:
    """As many hits as fit in `budget` tokens, best first (the best one always, cut to fit if need be)."""
    if not budget:
        return hits
    kept: list = []
    spent = 0
    for hit in hits:
        cost = estimate_tokens(hit.memory.content) + 12
        part = matched_part(hit.memory, hit.matched)
        if part:
            cost += estimate_tokens(part) + 2
        if hit.turn is not None:
            cost += estimate_tokens(framed_turn(hit.turn)) + 4
        if spent + cost > budget:
            if not kept:
                kept.append(hit)
            break
        kept.append(hit)
        spent += cost
    return kept


def shown(memory) -> str:
    """A memory's words as recall shows them: a stranger's framed as an observation, never as an instruction."""
    return shown_text(memory, memory.content)


def shown_text(memory, text: str) -> str:
    """Words of a memory (its content, or a value it held before) as recall shows them."""
    text = " ".join(text.split())
    return framed(memory, text) if memory.untrusted else text


def matched_part(memory, matched: list[str]) -> str | None:
    """The sentence of what a long memory's summary left out that holds most of the query's words its shown words
    do not hold: a packing list found by "carabiner" shows where the carabiner is, a note on a holiday flat found
    by "owner of the flat" the sentence that names the owner."""
    wanted = {term for term in matched if not term.startswith("_")} - set(terms(memory.content))
    detail = stored_text(memory.raw.get("detail"))
    if not wanted or not detail:
        return None
    best, found = "", 0
    for part in PART_BREAK.split(detail):
        held = len(wanted & set(terms(part)))
        if held > found:
            best, found = part, held
    if not best:
        return None
    part = one_line(best, PART_LIMIT)
    return framed(memory, part) if memory.untrusted else part


def earlier(memory, matched: list[str], every: bool) -> list:
    """The values a memory held before its current one to show under it, newest first: all of them (`every`), or
    the one that holds the query's words when its current words do not."""
    changes = memory.changes[::-1]
    if every:
        return changes[:HISTORY_SHOWN]
    wanted = {term for term in matched if not term.startswith("_")}
    if not wanted or wanted & set(terms(memory.content)):
        return []
    found = next((c for c in changes if wanted & set(terms(c.content))), None)
    return [found] if found else []


def held(change) -> str:
    """When an earlier value held: "2025-03-02 – 2026-05-03", or "until 2026-05-03" when its start is unknown."""
    return f"{change.since[:10]} – {change.until[:10]}" if change.since else f"until {change.until[:10]}"


def as_of_moment(text: str, now: datetime) -> datetime:
    """The end of the day `text` names (any form dateutil reads: "2025-06-01", "1 June 2025"), or the time it gives,
    in UTC."""
    from dateutil import parser as dateparser  # only for --as-of

    try:
        parsed = dateparser.parse(text, default=datetime(now.year, 1, 1))
    except (ValueError, OverflowError) as exc:
        raise HippocampusError(f"--as-of: {text!r} is no date this can read (try YYYY-MM-DD)") from exc
    if ":" not in text:
        parsed = datetime.combine(parsed.date(), time.max, parsed.tzinfo)
    return parsed.replace(tzinfo=timezone.utc) if parsed.tzinfo is None else parsed.astimezone(timezone.utc)


def as_json(
    hit, archived: frozenset[str] | set[str] = frozenset(), every: bool = False, then: str | None = None
) -> dict:
    """A hit as --json gives it; `then`: what the memory said on the --as-of day, when that was another value."""
    m = hit.memory
    out = {
        "id": m.id,
        "content": shown(m),
        "domain": m.domain,
        "category": m.category,
        "importance": round(hit.importance, 4),
        "score": hit.score,
        "parts": hit.parts,
        "keywords": m.keywords,
        "sources": hit.sources,
    }
    if m.untrusted:
        out["trust"] = "untrusted"
    if m.dates:
        out["dates"] = [{"from": d.first.isoformat(), "to": d.last.isoformat(), "words": d.words} for d in m.dates]
    part = matched_part(m, hit.matched)
    if part:
        out["matchedPart"] = part
    before = earlier(m, hit.matched, every)
    if before:
        out["history"] = [{"content": shown_text(m, c.content), "from": c.since, "until": c.until} for c in before]
    if hit.turn is not None:
        out["turn"] = hit.turn
    if hit.newer:
        out["saidEarlier"] = {"on": search.stated_at(m)[:10], "newer": hit.newer}
    if m.id in archived:
        out["archived"] = True
    if m.superseded:
        out["superseded"] = True
    if then is not None and then != m.content:
        out["contentThen"] = shown_text(m, then)
    return out


def restore(ws, ids: list[str], now) -> None:
    """Recalled from the archive: back in the index, accessed now, and in the files published from it. A write of
    the store, so it waits for a running job (only `--archive` asks for it)."""
    from .. import writing
    from ..store import archive

    with writing.write(ws, now) as store:
        back = archive.restore(ws, store.index, ids, now)
        if back:
            store.changed(*back)
            store.after_save.append(lambda: archive.drop(ws, back, store.index))


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__)
    p.add_argument("query", nargs="+", help="what to look for (any text)")
    p.add_argument("--top", type=int, default=5, metavar="N", help="at most N memories (default 5)")
    p.add_argument("--min-score", type=float, default=0.0, metavar="X", help="leave out hits scoring below X (0-1)")
    p.add_argument("--domain", choices=DOMAINS, help="only memories of this domain")
    p.add_argument("--json", action="store_true", help="print JSON: {query, results: [...]}")
    p.add_argument("--why", action="store_true", help="explain each score")
    p.add_argument("--budget", type=int, metavar="TOKENS", help="keep the answer within about this many tokens")
    p.add_argument("--no-touch", action="store_true", help="do not count this recall as an access")
    p.add_argument(
        "--all", action="store_true", help="include superseded memories, and show the values a memory held before"
    )
    p.add_argument(
        "--as-of",
        metavar="DATE",
        help="answer as the store would have on DATE: what it held then, with the values it believed then",
    )
    p.add_argument(
        "--archive",
        action="store_true",
        help="archived memories found (in memory/archive.jsonl) move back into the index",
    )
    ctx = cli.context(p, argv)
    if ctx.args.top < 1:
        p.error("--top must be at least 1")
    ctx.require_workspace()
    query = " ".join(ctx.args.query)
    moment = as_of_moment(ctx.args.as_of, ctx.now) if ctx.args.as_of else None
    view = reading.for_reading(ctx.ws, ctx.now.date())
    try:
        hits = search.rank(
            view,
            query,
            ctx.now,
            top=ctx.args.top * AS_OF_WIDER if moment else ctx.args.top,
            min_score=ctx.args.min_score,
            domain=ctx.args.domain,
            include_all=ctx.args.all or moment is not None,
        )
    finally:
        view.close()
    then: dict[str, str] = {}
    if moment is not None:
        for hit in hits:
            said = hit.memory.content_on(moment)
            if said is not None:
                then[hit.memory.id] = said
        hits = [h for h in hits if h.memory.id in then][: ctx.args.top]
    hits = within_budget(hits, ctx.args.budget)
    archived = {h.memory.id for h in hits if h.memory.archived}
    if hits and not ctx.args.no_touch:
        try:
            if archived and ctx.args.archive:
                restore(ctx.ws, sorted(archived), ctx.now)
            touches.record(ctx.ws, [h.memory.id for h in hits if h.memory.id not in archived], ctx.now)
        except HippocampusError as exc:
            # The answer matters more than the bookkeeping: show what was found, say what could not be recorded.
            print(f"warning: this recall was not recorded as an access ({' '.join(str(exc).split())})", file=sys.stderr)
    if ctx.args.json:
        answer: dict = {"query": query}
        if moment is not None:
            answer["asOf"] = moment.isoformat()
        answer["results"] = [as_json(h, archived, ctx.args.all, then.get(h.memory.id)) for h in hits]
        order = search.reading_order(hits, search.about_the_user(query))
        answer["turns"] = [{"id": hits[place].memory.id, "source": s} for place, s in order]
        cli.emit(json.dumps(answer, ensure_ascii=False))
        return 0
    if not hits:
        cli.emit("no memory matches that")
        return 0
    for rank, hit in enumerate(hits, 1):
        m = hit.memory
        origin = (
            "  (from the archive" + (", back in the index now)" if ctx.args.archive and not ctx.args.no_touch else ")")
            if m.id in archived
            else ""
        )
        if m.id in then and then[m.id] != m.content:
            words = f"{shown_text(m, then[m.id])}  (as of {ctx.args.as_of}; changed since)"
        else:
            words = shown(m) + ("  (superseded)" if m.superseded else "")
        cli.emit(f"{rank}. [{hit.score:.2f}] ({m.domain}/{m.category}) {words}  · {m.id}{origin}")
        part = matched_part(m, hit.matched)
        if part:
            cli.emit(f"   … {part}")
        if moment is None:
            for change in earlier(m, hit.matched, ctx.args.all):
                cli.emit(f"   before: {shown_text(m, change.content)} ({held(change)})")
        if hit.newer:
            cli.emit(f"   said earlier ({search.stated_at(m)[:10]}); {hit.newer}, above, was said later")
        if hit.turn is not None:
            cli.emit(f"   turn {framed_turn(hit.turn)}")
        if ctx.args.why:
            parts = " · ".join(f"{name} {value:.2f}×{search.WEIGHTS[name]:.2f}" for name, value in hit.parts.items())
            cli.emit(f"   why: {parts}; matched: {', '.join(hit.matched)}")
    return 0
