"""Weekly self-reflection: prompts from this week's memories, and the agent's answers stored as memories.

Without --apply (or with --week, the same): prints the memories of the last seven days — what you learned about the
user, what passed between you, what you said about yourself — three questions, and the exact answer file format.
The agent answers in its weekly turn by writing that file (memory/reflections/<YYYY-Www>.json), then runs:

  reflect.py --apply FILE

Each answer is validated field by field (like encode.py --apply): `domain` relationship or self, `content` (at most
300 characters), optional `category`, `importance` (0-1, default 0.75), `keywords`, `about` (ids of memories it draws
on). Valid answers become `relationship` / `self` memories (kind `reflection`) whose source names the reflection; an
answer that says what a memory already says reinforces it. Invalid entries are listed (exit 1) and the rest
applied. Applying the same file again changes nothing. Nothing is changed without --apply.
"""

from __future__ import annotations


import json
import shlex
from pathlib import Path

from .. import cli, writing
from ..sleep import reflection
from ..store import indexfile

SCRIPT = str(Path(__file__).resolve().parents[2] / "reflect.py")  # the script the agent runs to apply answers


def apply(ctx, path: str) -> int:
    name, raw = reflection.load_answers(Path(path))
    with writing.write(ctx.ws, ctx.now, wait=ctx.wait) as store:
        answers, invalid = reflection.validate(raw, store.index)
        result = reflection.apply(store.index, name, answers, ctx.now)
        if result.changed:
            store.changed(*result.changed)
            store.event = (
                "reflection",
                dict(
                    week=name,
                    new=len(result.new),
                    reinforced=len(result.reinforced) + len(result.updated),
                    invalid=len(invalid),
                    total=len(store.index.memories),
                ),
            )
    if ctx.args.json:
        cli.emit(json.dumps({"reflection": name, **reflection.as_dict(result), "invalid": invalid}, ensure_ascii=False))
    elif not ctx.quiet or invalid:
        cli.emit(
            f"reflection {name}: {len(result.new)} new, {len(result.reinforced) + len(result.updated)} "
            f"reinforced, {result.duplicates} already applied" + (f"; {len(invalid)} invalid" if invalid else "")
        )
        for problem in invalid:
            cli.emit(f"  invalid answer #{problem['index']}: {problem['error']}")
    return 1 if invalid else 0


def main(argv: list[str] | None = None) -> int:
    p = cli.parser(__doc__, __name__, cron=True)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--week", action="store_true", help="print the prompts for the last seven days (the default)")
    mode.add_argument("--apply", metavar="FILE", help="store the answers written to FILE")
    p.add_argument("--json", action="store_true", help="print JSON")
    ctx = cli.context(p, argv)
    ctx.require_workspace()
    if ctx.args.apply:
        return apply(ctx, ctx.args.apply)
    week = reflection.week_memories(indexfile.load(ctx.ws).index, ctx.now)
    command = f"python3 {shlex.quote(SCRIPT)} --workspace {shlex.quote(str(ctx.ws.root))} --apply"
    answer_file = str(ctx.ws.memory / "reflections" / f"{week.name}.json")
    if ctx.args.json:
        cli.emit(
            json.dumps(
                {
                    "reflection": week.name,
                    "since": week.since.isoformat(),
                    "until": week.until.isoformat(),
                    "memories": {
                        key: [
                            {
                                "id": m.id,
                                "domain": m.domain,
                                "content": m.content,
                                "importance": m.importance,
                                "this week": how,
                            }
                            for m, how in items
                        ]
                        for key, items in week.sections.items()
                    },
                    "questions": [{"domain": d, "question": q} for d, q in reflection.QUESTIONS],
                    "example": reflection.example(week),
                    "answerFile": answer_file,
                    "apply": command,
                },
                ensure_ascii=False,
            )
        )
    else:
        cli.emit(reflection.prompt(week, command, shlex.quote(answer_file)).rstrip("\n"))
    return 0
