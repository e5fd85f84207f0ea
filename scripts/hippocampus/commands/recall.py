"""Find the memories that matter for a question: words weighted by rarity (BM25), blended with importance and recency.

Words match whole words in any script ("projector" is not "project"), with light stemming ("migration" finds
"migrate", "went" finds "go"). A memory also holds the turns of its conversation that are no memory of their own
(the agent's replies, questions, small talk): the one that matches best is shown under it, a stranger's as an
observation; --json lists each memory's sources in the order they match. Each hit shows its parts: relevance,
importance, recency (--why explains them). A recalled memory
counts as accessed, so its decay restarts today (--no-touch leaves it as it was). The query is only ever data.
Superseded memories are left out unless --all; --archive also searches memory/archive.jsonl (what consolidation
moved out of the index), and an archived memory it finds moves back into the index.

Examples:
  recall.py "coffee order"
  recall.py "what did we decide about the database" --top 3 --why
  recall.py "dentist" --json --no-touch
  recall.py "old flat" --archive
"""

from __future__ import annotations

import json
import sys

from .. import cli, search
from ..errors import HippocampusError
from ..model import DOMAINS, Index
from ..published.selection import framed, framed_turn
from ..store import reading, touches
from ..text import estimate_tokens


def within_budget(hits: list, budget: int | None) -> list:
    """As many hits as fit in `budget` tokens, best first (the best one always, cut to fit if need be)."""
    if not budget:
        return hits
    kept: list = []
    spent = 0
    for hit in hits:
        cost = estimate_tokens(hit.memory.content) + 12
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
    text = " ".join(memory.content.split())
    return framed(memory, text) if memory.untrusted else text


def as_json(hit, archived: frozenset[str] | set[str] = frozenset()) -> dict:
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
    if hit.turn is not None:
        out["turn"] = hit.turn
    if m.id in archived:
        out["archived"] = True
    return out


def with_archive(ws, hits: list, query: str, args, now) -> tuple[list, set[str]]:
    """The hits of the index and of the archive together, best first; and the ids that came from the archive."""
    from ..store import archive, cache_writer  # only with --archive

    shelf = cache_writer.in_memory(Index(memories=archive.searchable(ws, {h.memory.id for h in hits})), now.date())
    try:
        found = search.rank(
            shelf, query, now, top=args.top, min_score=args.min_score, domain=args.domain, include_all=True
        )
    finally:
        shelf.close()
    merged = sorted(hits + found, key=lambda h: (-h.score, h.memory.id))[: args.top]
    return merged, {h.memory.id for h in found} & {h.memory.id for h in merged}


def restore(ws, ids: list[str], now) -> None:
    """Recalled from the archive: back in the index, accessed now, and in the files published from it. A write of
    the store, so it waits for a running job (only `--archive` asks for it)."""
    from .. import writing
    from ..store import archive

    with writing.write(ws, now) as store:
        back = archive.restore(ws, store.index, ids, now)
        if back:
            store.changed(*back)
            store.after_save.append(lambda: archive.drop(ws, back))


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
    p.add_argument("--all", action="store_true", help="include superseded and archived memories")
    p.add_argument(
        "--archive",
        action="store_true",
        help="also search memory/archive.jsonl; archived memories found move back into the index",
    )
    ctx = cli.context(p, argv)
    if ctx.args.top < 1:
        p.error("--top must be at least 1")
    ctx.require_workspace()
    query = " ".join(ctx.args.query)
    view = reading.for_reading(ctx.ws, ctx.now.date())
    try:
        hits = search.rank(
            view,
            query,
            ctx.now,
            top=ctx.args.top,
            min_score=ctx.args.min_score,
            domain=ctx.args.domain,
            include_all=ctx.args.all,
        )
    finally:
        view.close()
    archived: set[str] = set()
    if ctx.args.archive:
        hits, archived = with_archive(ctx.ws, hits, query, ctx.args, ctx.now)
    hits = within_budget(hits, ctx.args.budget)
    archived &= {h.memory.id for h in hits}
    if hits and not ctx.args.no_touch:
        try:
            if archived:
                restore(ctx.ws, sorted(archived), ctx.now)
            touches.record(ctx.ws, [h.memory.id for h in hits if h.memory.id not in archived], ctx.now)
        except HippocampusError as exc:
            # The answer matters more than the bookkeeping: show what was found, say what could not be recorded.
            print(f"warning: this recall was not recorded as an access ({' '.join(str(exc).split())})", file=sys.stderr)
    if ctx.args.json:
        cli.emit(json.dumps({"query": query, "results": [as_json(h, archived) for h in hits]}, ensure_ascii=False))
        return 0
    if not hits:
        cli.emit("no memory matches that")
        return 0
    for rank, hit in enumerate(hits, 1):
        m = hit.memory
        origin = (
            "  (from the archive" + (")" if ctx.args.no_touch else ", back in the index now)")
            if m.id in archived
            else ""
        )
        cli.emit(f"{rank}. [{hit.score:.2f}] ({m.domain}/{m.category}) {shown(m)}  · {m.id}{origin}")
        if hit.turn is not None:
            cli.emit(f"   turn {framed_turn(hit.turn)}")
        if ctx.args.why:
            parts = " · ".join(f"{name} {value:.2f}×{search.WEIGHTS[name]:.2f}" for name, value in hit.parts.items())
            cli.emit(f"   why: {parts}; matched: {', '.join(hit.matched)}")
    return 0
