"""Commitments in the store: opened from the queued messages by the encode run, closed when the conversation says
they are done, expired when long past due, closed by hand. Pure: the index, the signals and the clock are passed
in; each function changes the index and says which memories it changed.

- A request of the owner's ("remind me on Friday to call the plumber") or a promise of the agent's, made to the
  owner, opens a commitment (`commitment.KIND`), due when the words say, read in the user's zone: the one OpenClaw
  is configured with (`userzone`), wall-clock times right across a clock change; else the UTC offset of OpenClaw's
  local-time stamp on their messages. A stranger's words — a group chat, an email the agent read — never do, nor does
  the agent's answer to them.
- The same thing asked or promised again while it is open is the same commitment: it gains the message as a
  source (and the user's new time, when they give one). A reply that only confirms ("Sure, I'll remind you on
  Friday!") joins the commitment its session made just before.
- A later message of the owner's or the agent's that says it is done — a done or past form and a word of what was
  to be done ("I called the plumber", "thanks, got the summary"), or only "done" about what was said just before —
  closes it, keeping when and which message.
- An open commitment a week past due expires (`commitment.EXPIRE_AFTER`). Nothing is deleted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone, tzinfo

from .. import commitment, retention
from ..commitment import CANCELLED, DONE, EXPIRED, OPEN
from ..model import Index, Memory
from ..text import ELIDED, STOP_WORDS, terms, words
from ..timeutil import iso, parse_instant
from .duetime import zone_of
from .encoding import neighbour_text, redacted_text, signal_time
from .promises import Promise, called_off, done_sentences, moved, points, promises, requests
from .transcripts import Signal

DOMAIN, CATEGORY = "relationship", "commitments"
SAME_PROMISE = 0.75  # topic overlap at which an open commitment is asked or promised again (tasks have few words)
DUE_ALIKE = timedelta(hours=12)  # ...or all the words of the shorter one, due this close ("…to call the plumber")
CONFIRMS_WITHIN = 4  # messages of a session after a commitment in which a bare "I'll remind you then" joins it
KEYWORDS_KEPT = 8
PER_MESSAGE = 10  # commitments one message opens at most (a pasted plan or document is no list of promises)

# Words that say nothing of which commitment is meant: the frame of a task, and the verbs any task may have ("I
# called my mother" does not close "call the plumber"). Matched as terms are (stemmed English, any script).
_FRAME = """remind reminder user user's agent agent's promised promise their they them theirs the
thank thanks merci danke gracias obrigado obrigada 谢谢 提醒 提醒你 给你 发给 我会 一下 明天 今天 电话 打电"""
_VERBS = """send sent call called get got do did done make made check checked take took buy bought pay paid book
booked write wrote email emailed tell told look follow back let know give gave bring brought put set fix fixed
finish finished sort handle ring rang receive received have had
envoyer envoyé envoie enverrai appeler appelé appelle faire fait payer payé acheter acheté rappeler rappelle reçu
vérifier vérifié vais
schicken schicke geschickt senden sende gesendet anrufen anzurufen angerufen rufe machen mache gemacht bezahlen
bezahlt kaufen gekauft erinnern erinnere bekommen erhalten erledigt habe hab
llamar llamé llamaré enviar envié enviaré hacer hecho hice pagar pagué comprar compré recordar recibí recibido
mandar mandé
ligar liguei enviar enviei fazer feito fiz pagar paguei comprar comprei lembrar recebi mandar mandei vou"""
_FOREIGN_STOPS = """le la les un une des de du je tu te il elle nous vous me moi toi à au aux en et ou pour avec sur
dans par ce cette ces mon ma mes ton ta tes son sa ses qui que bien
der die das den dem des ein eine einen einem einer ich du er sie es wir ihr mich dich mir dir uns euch und oder zu
zum zur mit für auf im an am von vom bei daran noch schon
el los las lo una unos unas yo tú mi mis tu tus su sus del al y para con por se ya
o os as um uma eu meu minha teu tua seu sua do da dos das no na nos nas em e com já"""


def _stems(text: str) -> frozenset[str]:
    return frozenset(terms(text)) | frozenset(words(text))


_GENERIC = _stems(_FRAME) | _stems(_VERBS)
_STOPS = frozenset(_FOREIGN_STOPS.split())


def topic(text: str) -> set[str]:
    """The words that say which commitment a text is about: its terms (stemmed English, two-character pieces of
    Chinese), less stop words of the languages read here and the frame and verbs any task has."""
    found = set()
    for word in words(text):
        word = ELIDED.sub("", word)
        if word in STOP_WORDS or word in _STOPS or len(word) < 2:
            continue
        found.update(terms(word) or [word])
    return {t for t in found if t not in _GENERIC and not t.isdigit()}


def _alike(a: str, b: str) -> bool:
    """The same word, or two forms of one ("plombier" / "plombiers", "Rechnung" / "Rechnungen")."""
    if a == b:
        return True
    shortest = min(len(a), len(b))
    need = max(5, shortest - 2)
    return shortest >= need and a[:need] == b[:need]


def shared(one: set[str], other: set[str]) -> int:
    """How many words of `one` have a form in `other`."""
    return sum(1 for a in one if any(_alike(a, b) for b in other))


def overlap(one: set[str], other: set[str]) -> float:
    """Dice overlap of two topics, forms of a word counted as the word."""
    total = len(one) + len(other)
    return (shared(one, other) + shared(other, one)) / total if total else 0.0


@dataclass
class Tracked:
    """What one run did to the commitments: the ids opened, asked or promised again, closed and expired."""

    opened: list[str] = field(default_factory=list)
    again: list[str] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)
    expired: list[str] = field(default_factory=list)

    @property
    def changed(self) -> set[str]:
        return set(self.opened) | set(self.again) | set(self.closed) | set(self.expired)

    def to_dict(self) -> dict:
        return {
            "opened": len(self.opened),
            "again": len(self.again),
            "closed": len(self.closed),
            "expired": len(self.expired),
        }


class _Book:
    """The store's commitments as one run reads and changes them."""

    def __init__(
        self,
        index: Index,
        now: datetime,
        zone: tzinfo | None = None,
        known: list[Memory] | None = None,
        among: Callable[[], Iterable[Memory]] | None = None,
    ):
        self.index, self.now, self.out = index, now, Tracked()
        self.among = among  # the memories that may hold the read sessions' messages (None: every memory)
        self.configured = zone  # the user's zone as OpenClaw is configured with it: before any stamp
        if known is None:  # peek: model.Memory
            known = [m for m in index.memories if commitment.is_commitment(m.peek().raw)]
        self.all = known
        self.open = [m for m in self.all if commitment.status_of(m.raw) == OPEN]
        self.held = {self._key(s) for m in self.all for s in [*m.sources, m.raw.get("closedFrom")] if type(s) is dict}
        self.zones: dict[str, tzinfo] = {}  # session -> the user's zone, from their latest stamped message
        self.zone: tzinfo | None = self._stored_zone()
        self.owner_asked: dict[str, bool] = {}  # session -> whether its latest user message was the owner's
        self.strangers: set[str] | None = None  # sessions where the store holds a stranger's words (read once)
        self.previous: dict[tuple[str, str], str] = {}  # (session, role) -> its latest message (redacted)
        self.count: dict[str, int] = {}  # session -> messages read
        self.made: dict[str, tuple[Memory, int]] = {}  # session -> its latest commitment, and at which message

    @staticmethod
    def _key(source: dict) -> tuple[str, str]:
        return str(source.get("session")), str(source.get("message"))

    def _stored_zone(self) -> tzinfo | None:
        """The zone of the newest commitment's due time: where the user was when last heard of."""
        newest = max(self.all, key=lambda m: str(m.created or ""), default=None)
        due = commitment.due_of(newest.raw) if newest is not None else None
        return due.tzinfo if due is not None else None

    def _stranger_session(self, session: str) -> bool:
        if self.strangers is None:
            self.strangers = set()
            for memory in map(Memory.peek, self.index.memories if self.among is None else self.among()):
                if memory.untrusted:
                    self.strangers.update(str(s.get("session")) for s in memory.sources if type(s) is dict)
                for turn in memory.episode:
                    if turn.get("trust") == "untrusted":
                        self.strangers.add(str(turn["source"].get("session")))
        return session in self.strangers

    def read(self, signal: Signal) -> None:
        session = signal.session
        number = self.count[session] = self.count.get(session, 0) + 1
        if signal.role not in ("user", "assistant"):
            return
        # What the other side said last: what "it" is in "I'll look into it tomorrow", or what "done" answers.
        before = self.previous.get((session, "assistant" if signal.role == "user" else "user"), "")
        text = redacted_text(signal)
        self.previous[(session, signal.role)] = text
        if signal.role == "user":
            owner = signal.trust != "untrusted"
            self.owner_asked[session] = owner
            if not owner:
                return  # a stranger's words never commit the owner, nor close what the owner asked
            stamped = zone_of(signal.local, signal.timestamp) if self.configured is None else None
            if stamped is not None:
                self.zones[session] = self.zone = stamped
        else:
            asked = self.owner_asked.get(session)
            if asked is False or (asked is None and self._stranger_session(session)):
                return  # the agent answering a stranger
        if self._key(signal.source) in self.held:
            return  # read by an earlier run already (the queue read again)
        zone = self.configured or self.zones.get(session) or self.zone or timezone.utc
        said = signal_time(signal, self.now).astimezone(zone)
        if self.open and signal.role == "user" and self._owner_changes(signal, text, said):
            return  # the owner called a commitment off or moved it: the message asks nothing new
        if self.open:  # nothing to close otherwise
            for sentence in done_sentences(text, signal.role, said):
                self._close(signal, sentence, before, said)
        found = requests(text, said) if signal.role == "user" else promises(text, said)
        for promise in found[:PER_MESSAGE]:
            self._open(signal, promise, before, said, number)

    # --- the owner's changes ---

    def _owner_changes(self, signal: Signal, text: str, said: datetime) -> bool:
        """Call off or move the commitments the owner's message says to; whether it did."""
        changed = False
        for sentence in called_off(text):
            chosen = self._meant(signal, sentence, said)
            if chosen is not None:
                chosen.raw["status"] = CANCELLED
                chosen.raw["closed"] = iso(said)
                chosen.raw["closedFrom"] = dict(signal.source)
                chosen.content = commitment.content_of(chosen.raw)
                self.open.remove(chosen)
                self.out.closed.append(chosen.id)
                changed = True
        for sentence, due in moved(text, said):
            chosen = self._meant(signal, sentence, said)
            if chosen is not None:
                chosen.raw.setdefault("moved", []).append(
                    {"due": chosen.raw.get("due"), "dueText": chosen.raw.get("dueText"), "ts": iso(said)}
                )
                chosen.raw["due"] = due.at.isoformat(timespec="minutes")
                chosen.raw["dueText"] = due.phrase
                chosen.sources.append(signal.source)
                chosen.content = commitment.content_of(chosen.raw)
                self.out.again.append(chosen.id)
                changed = True
        if changed:
            self.held.add(self._key(signal.source))
        return changed

    def _meant(self, signal: Signal, sentence: str, said: datetime) -> Memory | None:
        """The open commitment a sentence of the owner's is about: the one sharing the most words of its task, or,
        when it names none ("move it to Monday"), the one its session made last, else the only one open."""
        candidates = [m for m in self.open if m.raw.get("by") == commitment.BY_USER and self._made_before(m, said)]
        candidates = candidates or [m for m in self.open if self._made_before(m, said)]
        said_topic = topic(sentence)
        scored = [(shared(self._topic(m), said_topic), m) for m in candidates]
        best = max((n for n, _ in scored), default=0)
        if best:
            return min((m for n, m in scored if n == best), key=self._due_key)
        if not points(sentence):
            return None
        recent = self.made.get(signal.session)
        if recent is not None and recent[0] in candidates:
            return recent[0]
        return candidates[0] if len(candidates) == 1 else None

    # --- closing ---

    def _close(self, signal: Signal, sentence: str, before: str, said: datetime) -> None:
        candidates = [m for m in self.open if not self._made_by(m, signal) and self._made_before(m, said)]
        if not candidates:
            return
        said_topic = topic(sentence or before)
        scored = [(shared(self._topic(m), said_topic), m) for m in candidates]
        best = max((n for n, _ in scored), default=0)
        if best:
            chosen = min((m for n, m in scored if n == best), key=self._due_key)
        elif not sentence:
            # Only "done", and what was said just before names none: the one commitment due at the time, if one.
            due_now = [m for m in candidates if self._showing(m, said)]
            if len(due_now) != 1:
                return
            chosen = due_now[0]
        else:
            return
        chosen.raw["status"] = DONE
        chosen.raw["closed"] = iso(said)
        chosen.raw["closedFrom"] = dict(signal.source)
        chosen.content = commitment.content_of(chosen.raw)
        self.open.remove(chosen)
        self.held.add(self._key(signal.source))
        self.out.closed.append(chosen.id)

    def _made_by(self, memory: Memory, signal: Signal) -> bool:
        return any(type(s) is dict and self._key(s) == self._key(signal.source) for s in memory.sources)

    @staticmethod
    def _made_before(memory: Memory, said: datetime) -> bool:
        made = parse_instant(memory.created)
        return made is None or made <= said

    @staticmethod
    def _showing(memory: Memory, said: datetime) -> bool:
        due = commitment.due_of(memory.raw)
        return due is not None and commitment.showing(due, said)

    @staticmethod
    def _due_key(memory: Memory) -> tuple:
        due = commitment.due_of(memory.raw)
        return (due is None, due.timestamp() if due else 0.0, memory.id)

    @staticmethod
    def _topic(memory: Memory) -> set[str]:
        found = topic(commitment.task_of(memory.raw))
        return found or topic(str(memory.raw.get("context") or ""))

    # --- opening ---

    def _open(self, signal: Signal, promise: Promise, before: str, said: datetime, number: int) -> None:
        session = signal.session
        if not promise.what:
            # "Sure, I'll remind you on Friday!": the commitment its session made just before.
            recent = self.made.get(session)
            if recent is not None and number - recent[1] <= CONFIRMS_WITHIN and recent[0] in self.open:
                self._again(recent[0], signal, promise, number)
            return
        task_topic = topic(promise.task)
        context = neighbour_text(before) if before else ""
        if not task_topic and not topic(context):
            return  # "I'll look into it tomorrow" with nothing said before: nothing to be reminded of
        same = [(self._sameness(task_topic, promise, m), m) for m in self.open] if task_topic else []
        best = max(same, key=lambda pair: pair[0], default=(0.0, None))
        if best[1] is not None and best[0] >= SAME_PROMISE:
            self._again(best[1], signal, promise, number)
            return
        due = promise.due.at if promise.due is not None else said
        if commitment.expires(due) <= self.now:
            return  # read from a history long past: it would only expire at once (the message is kept as memory)
        extra: dict = {
            "kind": commitment.KIND,
            "by": promise.by,
            "task": promise.task,
            "due": due.isoformat(timespec="minutes"),
            "status": OPEN,
        }
        if promise.due is not None:
            extra["dueText"] = promise.due.phrase
        if context and not task_topic:
            extra["context"] = context  # what "it" was: the task names nothing
        memory = Memory(
            id=self.index.next_id(),
            content="",
            domain=DOMAIN,
            category=CATEGORY,
            importance=commitment.IMPORTANCE,
            created=iso(said),
            lastAccessed=iso(said),
            keywords=_keywords(promise.what),
            sources=[signal.source],
            extra=extra,
        )
        memory.content = commitment.content_of(memory.raw)
        retention.restart(memory, commitment.IMPORTANCE, said.date())
        self.index.memories.append(memory)
        self.all.append(memory)
        self.open.append(memory)
        self.held.add(self._key(signal.source))
        self.made[session] = (memory, number)
        self.out.opened.append(memory.id)

    def _sameness(self, task_topic: set[str], promise: Promise, memory: Memory) -> float:
        """How surely a promise is an open commitment again: its topic overlap — counted as enough when every word
        of the shorter topic is in the other and it is due at the same time, or names no time ("I'll remind you on
        Friday to call the plumber" after "…on Friday to call the plumber about the leak")."""
        other = self._topic(memory)
        found = overlap(task_topic, other)
        due = commitment.due_of(memory.raw)
        alike = promise.due is None or (due is not None and abs(promise.due.at - due) <= DUE_ALIKE)
        shorter, longer = sorted((task_topic, other), key=len)
        within = bool(shorter) and shared(shorter, longer) == len(shorter)
        return max(found, SAME_PROMISE) if alike and within else found

    def _again(self, memory: Memory, signal: Signal, promise: Promise, number: int) -> None:
        """The same commitment asked or promised again: one more source; the owner's new time, or a time where
        there was none, replaces the one it had."""
        memory.sources.append(signal.source)
        if promise.due is not None and (promise.by == commitment.BY_USER or not memory.raw.get("dueText")):
            memory.raw["due"] = promise.due.at.isoformat(timespec="minutes")
            memory.raw["dueText"] = promise.due.phrase
            memory.content = commitment.content_of(memory.raw)
        self.held.add(self._key(signal.source))
        self.made[signal.session] = (memory, number)
        if memory.id not in self.out.opened:
            self.out.again.append(memory.id)

    # --- expiring ---

    def expire(self) -> None:
        for memory in list(self.open):
            due = commitment.due_of(memory.raw)
            if due is None or commitment.expires(due) > self.now:
                continue
            memory.raw["status"] = EXPIRED
            memory.raw["closed"] = iso(commitment.expires(due))
            memory.content = commitment.content_of(memory.raw)
            self.open.remove(memory)
            self.out.expired.append(memory.id)


def _keywords(what: str) -> list[str]:
    kept: list[str] = []
    for word in words(what):
        word = ELIDED.sub("", word)
        if word not in STOP_WORDS and word not in _STOPS and len(word) > 1 and word not in kept:
            kept.append(word)
    return kept[:KEYWORDS_KEPT]


def track(
    index: Index,
    signals: Iterable[Signal],
    now: datetime,
    zone: tzinfo | None = None,
    known: list[Memory] | None = None,
    among: Callable[[], Iterable[Memory]] | None = None,
) -> Tracked:
    """Open, join and close commitments from these signals (in the order they were said), then expire those long
    past due; returns what changed. `zone`: the user's configured zone (None: read from their stamps). `known`: the
    store's commitments when the run has read them already (Candidates.commitments); None: read here. `among`: the
    memories that may hold messages of the signals' sessions, when the run can tell (a stranger's words among them
    make the agent's answers no commitment of the owner's); None: every memory is read for them when needed."""
    book = _Book(index, now, zone, known, among)
    for signal in signals:
        book.read(signal)
    book.expire()
    return book.out


class NotOpen(ValueError):
    """A commitment asked to be closed by hand that is no open commitment."""


def close_by_hand(index: Index, memory_id: str, now: datetime) -> Memory:
    """Close a commitment by hand (`commitments.py --done ID`): done, now."""
    memory = index.by_id().get(memory_id)
    if memory is None or not commitment.is_commitment(memory.raw):
        raise NotOpen(f"{memory_id} is no commitment (commitments.py --all lists them)")
    status = commitment.status_of(memory.raw)
    if status != OPEN:
        closed = str(memory.raw.get("closed") or "")[:10]
        raise NotOpen(f"{memory_id} is {status} already" + (f" (since {closed})" if closed else ""))
    memory.raw["status"] = DONE
    memory.raw["closed"] = iso(now)
    memory.raw.pop("closedFrom", None)
    memory.content = commitment.content_of(memory.raw)
    return memory
