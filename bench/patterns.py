#!/usr/bin/env python3
"""Every regular expression of the package runs in time linear in its input: the pattern check, timed, so a bench.
Each compiled pattern — module-level ones, those kept in tuples, dictionaries and rules, those written inline in a
function and those built on first use — is run on inputs made to slow it: runs of every kind of character its parts
take (Unicode spaces and separators among them), runs of every pair of kinds its repeated parts take ("a.a.a."), a
text it matches repeated piece by piece ("<file<file<file"), and such a piece followed by a long run. Each input is
timed at two sizes: a linear pattern takes about GROWTH times as long on GROWTH times the input, a quadratic one
GROWTH² times. Times are compared with each other, never with a fixed figure.

Prints each pattern that takes more than LIMIT times as long on GROWTH times the input, with the inputs that showed
it, then how many patterns were run and how many grew faster than their input; exits 1 when any did. The tests
(tests/test_patterns.py) check without a clock that every kind of pattern is collected here.

Usage: python3 bench/patterns.py [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import pkgutil
import re
import signal
import string
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import hippocampus  # noqa: E402
from hippocampus import redaction  # noqa: E402
from hippocampus.ingestion import duetime  # noqa: E402

_parser = importlib.import_module("re._parser")
_compiler = importlib.import_module("re._compiler")
_constants = importlib.import_module("re._constants")

SIZE = 500  # characters of the smaller input; bounded repeats of the package ({0,200}, {3,100}) stay below it
GROWTH = 8
LIMIT = 24  # the most times as long a pattern may take on GROWTH times the input: linear is 8, quadratic 64
CHECKS = 5  # measurements of each size when one input looked slow, the fastest of each compared
HANG = 5.0  # seconds on the smaller input after which a pattern is taken to hang (it takes microseconds)

# Characters inputs are made of, the commonest first (each kind of character is represented by its first one here).
POOL = "".join(
    dict.fromkeys(
        "aA0_ \t\n\r.,-:;/@=\u3000\u00a0\u2003\u2009\u200b\u2028\u0085éß中한٣’“—–…"
        + string.ascii_letters
        + string.digits
        + string.punctuation
    )
)
_ONE_CHARACTER = (_constants.LITERAL, _constants.NOT_LITERAL, _constants.ANY, _constants.IN)
_REPEATS = (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT)
_CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"}


# --- every pattern of the package -----------------------------------------------------------------------------------


def _compiled(value) -> re.Pattern | None:
    if isinstance(value, re.Pattern):
        return value
    if isinstance(value, redaction._Lazy):  # compiled on first use
        return re.compile(*value._source)
    return None


def _held(value, seen: set[int]):
    """The patterns a value holds: itself, or those in its items, values or fields."""
    if id(value) in seen:
        return
    seen.add(id(value))
    pattern = _compiled(value)
    if pattern is not None:
        yield pattern
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _held(item, seen)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _held(item, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _held(getattr(value, field.name), seen)


def _flags(node: ast.expr) -> int:
    """The value of `re.IGNORECASE | re.DOTALL`-like flags written in a call."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return int(getattr(re, node.attr))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flags(node.left) | _flags(node.right)
    return 0


def _inline(path: Path, module: str):
    """(name, pattern) of each `re.<call>("literal", …)` in a module's source, inside functions too; one assigned to
    a module-level name is named after it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assigned = {
        id(node.value): node.targets[0].id
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in _CALLS
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            continue
        flags = 0
        for argument in [*node.args[1:], *(k.value for k in node.keywords if k.arg == "flags")]:
            flags |= _flags(argument)
        name = f"{module}.{assigned[id(node)]}" if id(node) in assigned else f"{module} line {node.lineno}"
        yield name, re.compile(node.args[0].value, flags)


def package_patterns() -> dict[str, re.Pattern]:
    """Every compiled pattern of the package, by a name saying where it is."""
    found: dict[tuple, tuple[str, re.Pattern]] = {}

    def add(name: str, pattern: re.Pattern) -> None:
        found.setdefault((type(pattern.pattern), pattern.pattern, pattern.flags), (name, pattern))

    modules = [
        importlib.import_module(info.name) for info in pkgutil.walk_packages(hippocampus.__path__, "hippocampus.")
    ]
    for module in modules:  # first those written in the source, named where they are written
        for name, pattern in _inline(Path(module.__file__), module.__name__.removeprefix("hippocampus.")):
            add(name, pattern)
    for module in modules:  # then those a module builds: in tuples, dictionaries and rules, from parts
        for name, value in vars(module).items():
            whole = isinstance(value, (re.Pattern, redaction._Lazy))
            for number, pattern in enumerate(_held(value, set())):
                add(f"{module.__name__.removeprefix('hippocampus.')}.{name}" + ("" if whole else f" {number}"), pattern)
    # Built on first use: the gates of redaction (one regex of many words, and single characters).
    trie, _, letters, _ = redaction._gates()
    add("redaction gates", trie)
    for number, (pattern, _) in enumerate(letters):
        add(f"redaction gate {number}", pattern)
    # Built on first use: the patterns of due times and of the days a text refers to.
    for number, (pattern, _) in enumerate(duetime._patterns()):
        add(f"ingestion.duetime due {number}", pattern)
    for number, (pattern, _) in enumerate(duetime._period_patterns()):
        add(f"ingestion.duetime days {number}", pattern)
    return {name: pattern for name, pattern in found.values()}


class Adversary:
    """Inputs built from one pattern's parsed form (Python's own parser of regular expressions)."""

    def __init__(self, pattern: re.Pattern):
        self.is_bytes = isinstance(pattern.pattern, bytes)
        self.tree = _parser.parse(pattern.pattern, pattern.flags)
        self.pool = "".join(c for c in POOL if ord(c) < 128) if self.is_bytes else POOL
        self.parts: list[tuple[re.Pattern, bool]] = []  # each one-character part, and whether a quantifier takes it
        self.bound = 1  # the most times a part repeated a bounded number of times may repeat (`{0,400}`: 400)
        self._parts(self.tree, pattern.flags, False)

    def encoded(self, text: str):
        return text.encode("latin-1") if self.is_bytes else text

    def _one(self, op, argument, flags: int) -> re.Pattern:
        return _compiler.compile(_parser.SubPattern(self.tree.state, [(op, argument)]), flags)

    def _parts(self, items, flags: int, repeated: bool) -> None:
        for op, argument in items:
            if op in _ONE_CHARACTER:
                self.parts.append((self._one(op, argument, flags), repeated))
            elif op in _REPEATS:
                if argument[1] is not _constants.MAXREPEAT:
                    self.bound = max(self.bound, argument[1])
                # A character a quantifier takes itself (`[ \t]*`); a repeated sequence is one of the pieces.
                self._parts(argument[2], flags, argument[1] > 1 and len(argument[2]) == 1)
            elif op is _constants.SUBPATTERN:
                self._parts(argument[3], flags | argument[1], repeated)
            elif op is _constants.ATOMIC_GROUP:
                self._parts(argument, flags, repeated)
            elif op is _constants.BRANCH:
                for branch in argument[1]:
                    self._parts(branch, flags, repeated)
            elif op in (_constants.ASSERT, _constants.ASSERT_NOT):
                self._parts(argument[1], flags, repeated)
            elif op is _constants.GROUPREF_EXISTS:
                for branch in argument[1:]:
                    if branch:
                        self._parts(branch, flags, repeated)

    def kinds(self, repeated_only: bool) -> list[str]:
        """One character of each kind: characters every part (or every repeated part) takes or refuses alike, and
        alike word or not, space or not."""
        parts = [part for part, repeated in self.parts if repeated or not repeated_only]
        kinds: dict[tuple, str] = {}
        for char in self.pool:
            read = self.encoded(char)
            key = (*(part.match(read) is not None for part in parts), char.isalnum() or char == "_", char.isspace())
            kinds.setdefault(key, char)
        return list(kinds.values())

    def pieces(self) -> set[str]:
        """Texts the pattern (nearly) matches, one for each alternative of each branch (of a list of plain words,
        the first word only), and each one's beginnings up to where a quantifier starts."""
        branches: list = []
        self._branches(self.tree, branches)
        choices: list[dict[int, int]] = [{}]
        for branch in branches:
            plain = [self._plain(alternative) for alternative in branch[1]]
            first_plain = plain.index(True) if True in plain else None
            choices += [{id(branch): n} for n in range(1, len(plain)) if not plain[n] or n == first_plain]
        out: set[str] = set()
        for choice in choices:
            text: list[str] = []
            cuts: set[int] = set()
            self._sample(self.tree, self.tree.state.flags, choice, text, {}, cuts)
            whole = "".join(text)
            out |= {whole} | {whole[:cut] for cut in cuts if cut}
        return out

    def _branches(self, items, out: list) -> None:
        for op, argument in items:
            if op in _REPEATS:
                self._branches(argument[2], out)
            elif op is _constants.SUBPATTERN:
                self._branches(argument[3], out)
            elif op is _constants.ATOMIC_GROUP:
                self._branches(argument, out)
            elif op is _constants.BRANCH:
                out.append(argument)
                for branch in argument[1]:
                    self._branches(branch, out)

    def _plain(self, items) -> bool:
        """A sequence of single characters, with nothing repeated more than once: a word of a list."""
        for op, argument in items:
            if op in _REPEATS and (argument[1] > 1 or not self._plain(argument[2])):
                return False
            if op is _constants.SUBPATTERN and not self._plain(argument[3]):
                return False
            if op is _constants.BRANCH and not all(self._plain(b) for b in argument[1]):
                return False
            if op in (_constants.ATOMIC_GROUP, _constants.GROUPREF, _constants.GROUPREF_EXISTS):
                return False
        return True

    def _sample(self, items, flags: int, choice: dict, text: list[str], groups: dict, cuts: set[int]) -> None:
        for op, argument in items:
            if op is _constants.LITERAL:
                text.append(chr(argument))
            elif op in _ONE_CHARACTER:
                part = self._one(op, argument, flags)
                text.append(next((c for c in self.pool if part.match(self.encoded(c))), "a"))
            elif op in _REPEATS:
                cuts.add(len(text))
                for _ in range(min(max(argument[0], 1), 64)):
                    self._sample(argument[2], flags, choice, text, groups, cuts)
            elif op is _constants.SUBPATTERN:
                start = len(text)
                self._sample(argument[3], flags | argument[1], choice, text, groups, cuts)
                if argument[0]:
                    groups[argument[0]] = "".join(text[start:])
            elif op is _constants.ATOMIC_GROUP:
                self._sample(argument, flags, choice, text, groups, cuts)
            elif op is _constants.BRANCH:
                self._sample(argument[1][choice.get(id(argument), 0)], flags, choice, text, groups, cuts)
            elif op is _constants.GROUPREF:
                text.append(groups.get(argument, ""))
            elif op is _constants.GROUPREF_EXISTS:
                self._sample(argument[1], flags, choice, text, groups, cuts)

    def inputs(self) -> list[tuple[str, Callable[[int], str | bytes], int]]:
        """(what the input is, the input of a given number of characters, the characters a part repeated a bounded
        number of times reads at most in it: its bound times the length of what is repeated)."""
        kinds, repeated = self.kinds(False), self.kinds(True)
        pieces = self.pieces()
        runs = (set(kinds) | {a + b for a in repeated for b in repeated} | pieces) - {""}  # a piece may match nothing
        made: list[tuple[str, Callable[[int], str | bytes], int]] = []
        for unit in sorted(runs):
            made.append((f"{unit!r} repeated", partial(self._run, unit), self.bound * len(unit)))
        for piece in sorted(pieces):
            for char in repeated:
                made.append((f"{piece!r} then {char!r} repeated", partial(self._after, piece, char), self.bound))
        return made

    def _run(self, unit: str, size: int) -> str | bytes:
        return self.encoded((unit * (size // len(unit) + 1))[:size])

    def _after(self, piece: str, char: str, size: int) -> str | bytes:
        return self.encoded(piece + char * size)


# --- timing ---------------------------------------------------------------------------------------------------------


class TooLong(Exception):
    pass


def _stop(*_):
    raise TooLong


def seconds(pattern: re.Pattern, text, most: float) -> float:
    """How long finding every match in the text takes (what `sub`, `split` and `finditer` do); TooLong after `most`
    seconds (Python's regex engine stops for a signal)."""
    previous = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, most)
    try:
        start = time.perf_counter()
        for _ in pattern.finditer(text):
            pass
        return time.perf_counter() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def growth(pattern: re.Pattern, make: Callable[[int], str | bytes], size: int, times: int) -> float:
    """How many times as long an input of GROWTH × size characters takes as one of `size`, the fastest of `times`
    runs of each. A larger input is stopped once it has taken twice LIMIT times as long: that is answer enough."""
    small, large = make(size), make(GROWTH * size)
    fastest_small = fastest_large = float("inf")
    for _ in range(times):
        try:
            fastest_small = min(fastest_small, seconds(pattern, small, HANG))
        except TooLong:
            return float("inf")
        enough = 2 * LIMIT * fastest_small + 0.01
        try:
            fastest_large = min(fastest_large, seconds(pattern, large, enough))
        except TooLong:
            fastest_large = min(fastest_large, enough)
    return fastest_large / max(fastest_small, 1e-7)


def grows_faster_than_its_input(pattern: re.Pattern, make: Callable[[int], str | bytes], reach: int) -> float | None:
    """How many times as long GROWTH times the input takes, when that is over LIMIT (else None): once; again, several
    times (a busy moment passes); and, when a part repeated a bounded number of times (`{0,400}` lines of a key) can
    read `reach` characters, on inputs twice that large: from there on, that part takes time proportional to the
    input."""
    steps = [(SIZE, 1), (SIZE, CHECKS)]
    if 2 * reach > SIZE:
        steps += [(2 * reach, 1), (2 * reach, 2)]
    for size, times in steps:
        ratio = growth(pattern, make, size, times)
        if ratio <= LIMIT:
            return None
    return ratio


def slow_inputs(pattern: re.Pattern) -> list[tuple[float, str]]:
    """The inputs (at most three: enough to show what is slow) on which `pattern` grows faster than its input."""
    slow = []
    for what, make, reach in Adversary(pattern).inputs():
        if ratio := grows_faster_than_its_input(pattern, make, reach):
            slow.append((ratio, what[:120]))
            if len(slow) == 3:
                break
    return slow


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--only", default="", help="only the patterns whose name holds this")
    args = parser.parse_args()
    patterns = {name: p for name, p in sorted(package_patterns().items()) if args.only in name}
    slow = 0
    for name, pattern in patterns.items():
        found = slow_inputs(pattern)
        if found:
            slow += 1
            shown = "; ".join(f"{ratio:.0f}× on {what}" for ratio, what in found)
            print(f"{name} ({pattern.pattern[:200]!r}): {shown}")
    print(f"{len(patterns)} patterns run; {slow} take more than {LIMIT} × as long on {GROWTH} × the input")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
