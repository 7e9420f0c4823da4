"""Phrase grammar over tokens: steps, routes, durations, due times, asides.

The readers here consume tokens from a :class:`Cursor` and either return what they read (and
leave the cursor after it) or return None and leave the cursor where it was. A phrase that
starts right but cannot be finished (``due tomorrow``, four durations for three steps) raises
:class:`UnreadPhrase` with the reason, which the clause reader turns into an unread sentence.

Vocabulary is kept in explicit sets: a word outside them is never silently skipped in a
sentence about jobs. Words that change the meaning of a route (negations, ``or``, ``twice``,
``before``, ``usually`` ...) are in :data:`MEANING_WORDS` and are never taken for a verb.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeGuard

from repro_assets.factory.reading.definitions import TimeTerms, term_words
from repro_assets.factory.reading.lexicon import NUMBER_WORDS, Kind, Token, tokenize
from repro_assets.factory.reading.names import NameIndex, name_words
from repro_assets.factory.reading.statements import StepSpec
from repro_assets.factory.reading.times import read_time

JOB_WORDS = frozenset({"job", "jobs", "order", "orders"})
# what "every ..." may say instead of "every job" ("All boards follow ...")
GENERIC_JOB_NOUNS = frozenset({"parts", "boards", "products", "lots", "part", "board",
                               "product", "lot"})
MACHINE_WORDS = frozenset({"machine", "machines"})
ROUTE_VERBS = frozenset({
    "go", "goes", "going", "run", "runs", "running", "use", "uses", "using", "visit", "visits",
    "pass", "passes", "passing", "flow", "flows", "move", "moves", "travel", "travels",
    "proceed", "proceeds", "continue", "continues", "start", "starts", "begin", "begins",
    "finish", "finishes", "end", "ends", "need", "needs", "require", "requires", "take",
    "takes", "spend", "spends", "get", "gets", "is", "are", "be", "processed", "routed",
    "handled", "do", "does", "follow", "follows", "enter", "enters", "sent", "then",
    "come", "comes", "return", "returns", "moved", "loaded", "put", "placed", "transferred",
})
CONTINUATION_VERBS = frozenset({
    "move", "moves", "continue", "continues", "proceed", "proceeds", "finish", "finishes",
    "end", "ends", "comes", "come", "return", "returns",
})
STEP_ADVERBS = frozenset({"first", "directly", "straight", "next", "finally", "lastly",
                          "afterwards", "the", "machine"})
PREPOSITIONS = frozenset({"on", "at", "in", "through", "to", "via", "into", "onto", "along",
                          "across", "from"})
DURATION_PREPOSITIONS = frozenset({"on", "at", "in"})
FILLERS = frozenset({
    "the", "a", "an", "is", "are", "be", "being", "been", "will", "gets", "get", "always",
    "directly", "straight", "today", "currently", "now", "still", "here", "step", "steps", "stage",
    "machine", "machines", "job", "jobs", "order", "orders", "route", "routing", "its",
    "their", "only", "just", "both", "each", "all", "every", "then",
})
MEANING_WORDS = frozenset({
    "not", "no", "never", "none", "nothing", "without", "except", "unless", "if", "or",
    "either", "neither", "nor", "maybe", "perhaps", "possibly", "sometimes", "usually",
    "normally", "typically", "mostly", "often", "rarely", "seldom", "optionally", "optional",
    "twice", "thrice", "again", "repeat", "repeats", "repeated", "return", "returns", "back",
    "rework", "before", "after", "instead", "rather", "skip", "skips", "skipping", "bypass",
    "bypasses", "avoid", "avoids", "omit", "omits", "exclude", "excludes", "excluding",
    "alternate", "alternates", "alternately", "approximately", "approx", "about", "around",
    "roughly", "least", "most", "up", "between", "total", "combined", "overall", "parallel",
    "simultaneously", "same", "like", "similar", "similarly", "but", "however", "although",
    "though", "until", "till", "hold", "waiting", "wait", "waits", "delayed", "cancelled",
    "canceled", "postponed", "times", "per", "extra", "plus", "minus", "more", "less", "than",
    "ditto", "shared", "share", "shares", "split", "splits", "batch", "batches",
    "while", "during", "once", "when", "whenever", "also", "too", "additionally", "further",
    "first", "last", "beginning", "over", "under", "within", "almost", "nearly", "max",
    "maximum", "minimum",
})
DUE_KEYS = frozenset({"due", "deadline", "pickup", "pick-up", "latest"})  # "latest 13:00"
# a due key only inside a job's clause ("J23: M23 1h, delivery 16:00"): alone, "Steel delivery
# at 10:00" is an inbound delivery, no due, and stays prose
DELIVERY_KEYS = frozenset({"delivery"})
#: need-by keys that say the work is over: "finished until 14:00" (a German speaker's
#: "fertig bis") is "finished by 14:00"
FINISH_KEYS = frozenset({"done", "finished", "complete", "completed", "ready"})
DUE_KEYS_NEED_BY = frozenset({
    "ship", "ships", "shipped", "shipping", "done", "finished", "complete", "completed",
    "ready", "delivered", "needed", "required", "out", "leave", "leaves", "dispatched",
    "collected", "dispatch", "packed", "loaded", "collects", "collect",
})
DUE_AUX = frozenset({
    "is", "are", "must", "should", "will", "shall", "has", "have", "needs", "need", "to", "be",
    "being", "both", "all", "each", "gets", "get", "customer", "truck", "the", "it", "they",
    "wants", "want", "expects", "expect",  # "customer wants it by 16:00"
})
DUE_PREPOSITIONS = frozenset({"at", "by", "before", "is", "of", "time", "hour", "for", "date",
                              "until", "till"})
SEQUENCE_WORDS = frozenset({"sequence", "order", "turn", "series"})
EACH_WORDS = frozenset({"each", "apiece", "ea"})
STEP_WORDS = frozenset({"step", "steps", "operation", "operations", "stage", "stages", "op",
                        "ops"})
SKIP_VERBS = frozenset({"skips", "skip", "bypasses", "bypass", "omits", "omit", "misses"})
NEGATED_VISIT_VERBS = frozenset({
    "use", "visit", "need", "require", "go", "pass", "run", "touch", "enter", "uses", "visits",
    "needs", "requires", "goes", "passes", "runs", "touches", "enters",
})
NEGATIONS = frozenset({"not", "never"})
NEGATING_AUX = frozenset({"does", "do", "doesn't", "don't", "is", "isn't"})
INSTEAD = (("instead", "of"), ("rather", "than"), ("in", "place", "of"))
ALL_MACHINES = (
    ("them",), ("all", "machines"), ("all", "the", "machines"), ("all", "of", "them"),
    ("each", "of", "them"), ("every", "machine"), ("each", "machine"),
    ("all", "the", "machines", "in", "turn"),
)


class UnreadPhrase(Exception):
    """A phrase started but could not be read with certainty."""


@dataclass
class ParenGroup:
    """What a parenthesised aside says (the aside is one token after :func:`group_asides`).

    Attributes:
        kind: ``duration`` ("(2h)"), ``exclude`` ("(not M3)"), ``name`` ("(drill press)"),
            ``machines`` (ids only) or ``other``.
        hours: the duration of a ``duration`` aside.
        machines: machine ids in the aside.
        text: the text inside the parentheses.
    """

    kind: str
    text: str
    hours: float | None = None
    machines: tuple[str, ...] = ()


def is_paren(token: Token | None, kind: str | None = None) -> TypeGuard[Token]:
    """True when ``token`` is a grouped aside (of ``kind`` if given)."""
    return (
        token is not None
        and isinstance(token.value, ParenGroup)
        and (kind is None or token.value.kind == kind)
    )


_SETUP_WORDS = frozenset({"setup", "set-up", "changeover"})
_RUN_WORDS = frozenset({"run", "runtime", "running", "cycle", "processing"})


def read_setup_run(cursor: Cursor) -> float | None:
    """Read ``30 min setup + 90 min run`` / ``setup 0.5h, run 2h``: the sum, or None.

    A run time alone written word first (``run 2h``) is the step's time; a setup time alone
    is not (the run time is missing).
    """
    start = cursor.index
    found: dict[str, float] = {}
    for _ in range(2):
        word = None
        duration = cursor.kind(Kind.DURATION)
        if duration is not None:
            word = cursor.word(_SETUP_WORDS | _RUN_WORDS)
        else:
            word = cursor.word(_SETUP_WORDS | _RUN_WORDS)
            if word is not None:
                cursor.kind(Kind.COLON)
                duration = cursor.kind(Kind.DURATION)
        if word is None or duration is None:
            cursor.index = start
            return None
        kind = "setup" if word in _SETUP_WORDS else "run"
        if kind in found:
            cursor.index = start
            return None
        found[kind] = duration.value
        if len(found) == 1 and not (cursor.kind(Kind.AMP, Kind.COMMA)
                                    or cursor.word({"and", "plus"})):
            if kind == "run" and word is not None and cursor.index - start == 2 \
                    and cursor.tokens[start].kind is Kind.WORD:
                return found["run"]  # "M2 run 2h": a run time and no setup is the step's time
            cursor.index = start
            return None
    return found["setup"] + found["run"]


# words that qualify a number; in words without any number they qualify nothing
_APPROXIMATE = frozenset({"about", "around", "approximately", "approx", "roughly"})


# "ERP: Job-4410", "SAP no: SO-88A": a label, a colon and one identifier of letters and digits
_REFERENCE_RE = re.compile(r"(?P<label>[A-Za-z][A-Za-z .]{0,24}?)\s*:\s*"
                           r"(?P<ref>(?=[^\s]*[A-Za-z])(?=[^\s]*\d)[A-Za-z0-9][\w./#-]*)")


def _reference(inner: list[Token], text: str) -> bool:
    """Whether an aside is what another system calls the thing (``ERP: Job-4410``): a plain
    label (no word of meaning, no due word), a colon, one identifier that is neither an id of
    this text nor a time or a duration."""
    match = _REFERENCE_RE.fullmatch(text)
    if match is None:
        return False
    label = set(match.group("label").lower().replace(".", " ").split())
    return not label & (MEANING_WORDS | DUE_KEYS | DUE_KEYS_NEED_BY) and all(
        t.kind in (Kind.WORD, Kind.COLON, Kind.NUMBER, Kind.OTHER) for t in inner)


def _aside(inner: list[Token], text: str) -> ParenGroup:
    machines = tuple(m for t in inner if t.kind in (Kind.MACHINE, Kind.MACHINE_RANGE)
                     for m in t.value)
    if len(inner) == 1 and inner[0].kind is Kind.DURATION:
        return ParenGroup("duration", text, hours=inner[0].value)
    inner_cursor = Cursor(inner)
    total = read_setup_run(inner_cursor)
    if total is not None and inner_cursor.done:
        return ParenGroup("duration", text, hours=total)
    words = [t.value for t in inner if t.kind is Kind.WORD]
    if (
        machines
        and words
        and words[0] in {"not", "except", "excluding", "without", "skipping", "skips", "no"}
        and all(t.kind in (Kind.MACHINE, Kind.COMMA, Kind.AMP) or t.is_word(
            "not", "except", "excluding", "without", "skipping", "skips", "no", "and", "on",
            "through", "but") for t in inner)
    ):
        return ParenGroup("exclude", text, machines=machines)
    if machines and all(t.kind in (Kind.MACHINE, Kind.MACHINE_RANGE, Kind.COMMA)
                        or t.is_word("and") for t in inner):
        return ParenGroup("machines", text, machines=machines)
    if _reference(inner, text):
        return ParenGroup("name", text)  # "(ERP: Job-4410)": its number in another system
    multiplier = any(re.fullmatch(r"(?i)[x×]\d+|\d+[x×]", word) for word in words)
    numbered = (len(inner) > 1 and inner[-1].kind is Kind.NUMBER  # "(Press 2)": a name
                and inner[-1].text.isdigit() and len(inner[-1].text) <= 3
                and inner[-2].kind is Kind.WORD)
    if numbered:
        inner = inner[:-1]
    if inner and all(t.kind in (Kind.WORD, Kind.AMP, Kind.COMMA) or
                     (t.kind is Kind.OTHER and t.text in "-/'.") for t in inner) and not (
        set(words) & (MEANING_WORDS - _APPROXIMATE)  # "(ask Sam about stock)": no number
    ) and not multiplier:  # "(x2)" is a count, not a name
        return ParenGroup("name", text)
    return ParenGroup("other", text, machines=machines)


def group_asides(tokens: list[Token], clause: str) -> list[Token]:
    """Replace every ``( ... )`` by one token whose value is a :class:`ParenGroup`.

    Raises:
        UnreadPhrase: for nested or unbalanced parentheses.
    """
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.kind is Kind.RPAREN:
            raise UnreadPhrase("unbalanced parentheses")
        if token.kind is not Kind.LPAREN:
            out.append(token)
            index += 1
            continue
        end = index + 1
        while end < len(tokens) and tokens[end].kind is not Kind.RPAREN:
            if tokens[end].kind is Kind.LPAREN:
                raise UnreadPhrase("nested parentheses")
            end += 1
        if end >= len(tokens):
            raise UnreadPhrase("unbalanced parentheses")
        inner = tokens[index + 1:end]
        text = clause[token.end:tokens[end].start].strip()
        out.append(Token(Kind.OTHER, clause[token.start:tokens[end].end], token.start,
                         tokens[end].end, _aside(inner, text)))
        index = end + 1
    return out


class Cursor:
    """A position in a token list with small look-ahead helpers."""

    def __init__(self, tokens: list[Token], names: NameIndex | None = None) -> None:
        self.tokens = tokens
        self.index = 0
        self.names = names

    def peek(self, offset: int = 0) -> Token | None:
        """The token ``offset`` positions ahead, or None past the end."""
        position = self.index + offset
        return self.tokens[position] if 0 <= position < len(self.tokens) else None

    @property
    def done(self) -> bool:
        """True at the end of the clause."""
        return self.index >= len(self.tokens)

    def peek_word(self, *words: str, offset: int = 0) -> bool:
        """Whether the token ``offset`` positions ahead is one of ``words`` (not consumed)."""
        token = self.peek(offset)
        return token is not None and token.is_word(*words)

    def peek_kind(self, *kinds: Kind, offset: int = 0) -> bool:
        """Whether the token ``offset`` positions ahead has one of ``kinds`` (not consumed)."""
        token = self.peek(offset)
        return token is not None and token.kind in kinds

    def take(self) -> Token:
        """Consume and return the next token."""
        token = self.tokens[self.index]
        self.index += 1
        return token

    def kind(self, *kinds: Kind) -> Token | None:
        """Consume the next token if it has one of ``kinds``."""
        token = self.peek()
        if token is not None and token.kind in kinds:
            self.index += 1
            return token
        return None

    def word(self, words: Iterable[str]) -> str | None:
        """Consume the next token if it is one of ``words``; return the word."""
        token = self.peek()
        if token is not None and token.kind is Kind.WORD and token.value in set(words):
            self.index += 1
            return token.value
        return None

    def sequence(self, *words: str) -> bool:
        """Consume the exact word sequence ``words`` if it comes next."""
        for offset, expected in enumerate(words):
            token = self.peek(offset)
            if token is None or not token.is_word(expected):
                return False
        self.index += len(words)
        return True

    def any_sequence(self, options: Iterable[tuple[str, ...]]) -> tuple[str, ...] | None:
        """Consume the longest of ``options`` that comes next."""
        for option in sorted(options, key=len, reverse=True):
            if self.sequence(*option):
                return option
        return None

    def text_from(self, start: int) -> str:
        """The words consumed since ``start`` (for messages)."""
        return " ".join(t.text for t in self.tokens[start:self.index])


# --------------------------------------------------------------------------- steps and routes

NOT_NAMES = frozenset(
    ROUTE_VERBS | FILLERS | PREPOSITIONS | MEANING_WORDS | DUE_KEYS | DUE_KEYS_NEED_BY
    | JOB_WORDS | MACHINE_WORDS | STEP_WORDS | set(NUMBER_WORDS) | DUE_AUX | NEGATED_VISIT_VERBS
    | SKIP_VERBS | {"and", "then", "for", "each", "per", "there", "it", "they", "hours", "hour",
                   "minutes", "with", "by", "of", "this", "that", "week", "day", "shift"}
)


@dataclass
class Route:
    """A route fragment read from a clause."""

    steps: list[StepSpec]
    all_machines: bool = False
    names: list[tuple[str, str]] | None = None  # (machine id, name) from "(...)" asides
    duration_first: bool = False  # one step written "2 hours on M2"
    again: bool = False  # "M4 again for 1h": the step says it revisits its machine


def read_machine_ref(cursor: Cursor) -> tuple[str, bool] | None:
    """Read a machine id, or a machine's name the text declared (``the pick & place``,
    ``saw``); returns (id, True when read from a name) or None (cursor unchanged)."""
    token = cursor.peek()
    if token is not None and token.kind is Kind.MACHINE:
        cursor.take()
        return token.value[0], False
    names = cursor.names
    if names is None or not names.names:
        return None
    start = cursor.index
    cursor.word({"the", "our"})
    longest = names.longest_name()
    for count in range(2 * longest, 0, -1):  # "WC-SAW": one token may be a whole name
        ahead = cursor.tokens[cursor.index:cursor.index + count]
        if (len(ahead) < count
                or not all(t.kind in (Kind.WORD, Kind.AMP, Kind.NUMBER) for t in ahead)
                or ahead[0].kind is not Kind.WORD or ahead[-1].kind is Kind.AMP):
            continue  # "Press 2": a name may hold a number
        words = name_words(" ".join(t.text for t in ahead))
        if count == 1 and len(words) < 2:
            continue  # one plain word is matched below, against every machine's name words
        machine = names.full(words)
        if machine is not None:
            cursor.index += count
            return machine, True
    token = cursor.peek()
    if token is not None and token.kind is Kind.WORD:
        machine = names.word(token.value)
        if machine is not None:
            cursor.take()
            return machine, True
    cursor.index = start
    return None


def _same_machine(cursor: Cursor, words: list[str], machine: str) -> None:
    """Refuse a name written next to an id when it names another machine."""
    if cursor.names is not None and cursor.names.elsewhere(words, machine):
        raise UnreadPhrase(f"'{' '.join(words)}' names another machine than {machine}")


def read_named_id(cursor: Cursor) -> str | None:
    """Read ``the laser (M1)``: a name and its machine id in parentheses; the id."""
    start = cursor.index
    cursor.word({"the", "our", "a", "an"})
    count = 0
    while (token := cursor.peek(count)) is not None and token.kind is Kind.WORD and (
            token.value not in NOT_NAMES) and count < 4:
        count += 1
    words = [t.value for t in cursor.tokens[cursor.index:cursor.index + count]]
    aside = cursor.peek(count)
    if count and is_paren(aside, "machines") and len(aside.value.machines) == 1:
        _same_machine(cursor, words, aside.value.machines[0])
        cursor.index += count + 1
        return aside.value.machines[0]
    comma, machine, closing = cursor.peek(count), cursor.peek(count + 1), cursor.peek(count + 2)
    determined = cursor.index > 1 and cursor.tokens[cursor.index - 1].is_word(
        "the", "a", "an", "our") and cursor.tokens[cursor.index - 2].is_word(*PREPOSITIONS)
    if (count and determined and comma is not None and comma.kind is Kind.COMMA
            and machine is not None and machine.kind is Kind.MACHINE
            and (closing is None or closing.kind is Kind.COMMA)):
        _same_machine(cursor, words, machine.value[0])
        cursor.index += count + 3 if closing is not None else count + 2
        return machine.value[0]  # "the drill, M2, for an hour"
    cursor.index = start
    return None


def _is_process_verb(cursor: Cursor) -> bool:
    """True when the next word is a verb describing the work done at the following step.

    Any plain word counts when it is directly followed by ``on/at/in <machine>`` or by
    ``<duration> on/at/in <machine>``, and it is not a word that changes the meaning of a route,
    an adverb in -ly, a number word or a preposition.
    """
    token = cursor.peek()
    if token is None or token.kind is not Kind.WORD:
        return False
    word = token.value
    if (
        word in MEANING_WORDS or word in PREPOSITIONS or word in NUMBER_WORDS
        or word.endswith("ly") or len(word) < 3 or "'" in word or word in JOB_WORDS
        or word in {"it", "they", "there", "and", "then", "with", "for"}
    ):
        return False
    after = cursor.peek(1)
    if after is not None and after.kind is Kind.DURATION:
        after = cursor.peek(2)
        target = cursor.peek(3)
    else:
        target = cursor.peek(2)
    return (
        after is not None
        and after.kind is Kind.WORD
        and after.value in DURATION_PREPOSITIONS
        and target is not None
        and target.kind is Kind.MACHINE
    )


def _says_every_step(cursor: Cursor, offset: int) -> bool:
    """True when the words at ``offset`` make a duration one for every step ("each")."""
    token = cursor.peek(offset)
    if token is None or token.kind is not Kind.WORD:
        return False
    if token.value in EACH_WORDS or token.value == "per":
        return True
    following = cursor.peek(offset + 1)
    return token.value in {"on", "at", "for", "in"} and following is not None and (
        following.is_word("each", "every", "all"))


APPROXIMATELY = frozenset({"about", "around", "roughly", "approximately", "approx", "some"})


def drop_approximations(tokens: list[Token]) -> list[Token]:
    """Drop ``about`` in ``about an hour``: the nominal duration is the duration planned
    (``at least`` / ``up to`` stay and keep the sentence unread)."""
    return [token for index, token in enumerate(tokens)
            if not (token.is_word(*APPROXIMATELY) and index + 1 < len(tokens)
                    and tokens[index + 1].kind is Kind.DURATION)]


# what takes back the duration written just before it ("3h - no, 2h", "3h, sorry, 2h")
_RETRACTIONS = (("no",), ("sorry",), ("make", "that"), ("i", "mean"))
_DASHES = ("-", "\u2013", "\u2014")


def _retraction_end(tokens: list[Token], index: int) -> int | None:
    """The index of the duration that replaces the one at ``index`` (``3h - no, 2h``), or
    None: a dash or comma may stand before the retracting words (one or more: ``no, sorry,``)
    and a comma after them, and the new duration must end the step (the end, a comma, a
    dash, an arrow, ``then``)."""
    cursor = Cursor(tokens[index + 1:])
    cursor.kind(Kind.COMMA) or _symbol(cursor, "-", "–", "—")
    if cursor.any_sequence(_RETRACTIONS) is None:
        return None
    while True:  # "3h - no, sorry, 2h": retracting words may follow one another
        cursor.kind(Kind.COMMA)
        if cursor.any_sequence(_RETRACTIONS) is None:
            break
    if not cursor.peek_kind(Kind.DURATION):
        return None
    after = cursor.peek(1)
    if after is not None and not (after.kind in (Kind.COMMA, Kind.ARROW) or after.is_word("then")
                                  or (after.kind is Kind.OTHER and after.text in _DASHES)):
        return None
    return index + 1 + cursor.index


def drop_retracted(tokens: list[Token]) -> list[Token]:
    """Drop a duration taken back at once and the words that take it back (``M1 3h - no, 2h``
    is ``M1 2h``)."""
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        end = _retraction_end(tokens, index) if token.kind is Kind.DURATION else None
        if end is not None:
            index = end
            continue
        out.append(token)
        index += 1
    return out


def plain_connectives(tokens: list[Token]) -> list[Token]:
    """A learner's connectives as the words they stand for: ``during 2 hours`` is ``for 2
    hours`` (before a duration only), ``after to M2`` is ``then to M2`` (before ``to`` and a
    machine only; ``after M2`` stays an anchor)."""
    out = list(tokens)
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.is_word("during") and following is not None and following.kind is Kind.DURATION:
            out[index] = Token(Kind.WORD, "for", token.start, token.end, "for")
        elif (token.is_word("after") and following is not None and following.is_word("to")
              and index + 2 < len(tokens) and tokens[index + 2].kind is Kind.MACHINE):
            out[index] = Token(Kind.WORD, "then", token.start, token.end, "then")
    return out


_TIME_FIELDS = frozenset({"time", "duration", "hours", "hrs", "runtime", "dur"})
_MACHINE_FIELDS = frozenset({"machine", "station", "resource", "workcenter", "wc"})


def drop_field_labels(tokens: list[Token]) -> list[Token]:
    """Drop the field names of a key-value step (``machine: M1, time: 2h``): a time field
    right before its duration, and a machine field right before its id when the clause
    has such a time field too (``Machine: M1`` alone may declare the machine)."""
    def labelled(index: int, fields: frozenset[str], kind: Kind) -> bool:
        return (tokens[index].is_word(*fields) and index + 2 < len(tokens)
                and tokens[index + 1].kind is Kind.COLON and tokens[index + 2].kind is kind)

    timed = {i for i in range(len(tokens)) if labelled(i, _TIME_FIELDS, Kind.DURATION)}
    if not timed:
        return tokens
    dropped = timed | {i for i in range(len(tokens))
                       if labelled(i, _MACHINE_FIELDS, Kind.MACHINE)}
    return [token for index, token in enumerate(tokens)
            if index not in dropped and index - 1 not in dropped]


# words that make a note a condition or a schedule, not a description of the work
NOTE_STOP = frozenset({
    "fail", "fails", "failed", "failing", "failure", "reject", "rejects", "rejected", "scrap",
    "nok", "ng", "defect", "defects", "defective", "pass", "passes", "passed", "needed",
    "necessary", "required", "only", "when", "rework", "reworked", "qc", "inspection",
    "check", "checks", "retry", "retries", "loop", "loops", "hold", "spare", "backup",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "am", "pm",
    "tomorrow", "tonight", "today", "week", "weekend", "shift", "night", "morning",
    "afternoon", "evening", "rush", "priority", "late", "early", "overtime", "possible",
    # a status: the step is no work still to plan ("M1 2h (done)", "[x]")
    "done", "finished", "completed", "complete", "cancelled", "canceled", "shipped",
    "postponed", "paused", "skipped", "scrapped",
    # a doubt on the step ("(tbc)", "(to be confirmed)"; "(estimate)" is a duration as planned)
    "tentative", "tbc", "tbd", "provisional", "pending", "confirmed", "unconfirmed", "guess",
    "maybe", "perhaps",
})


def is_plain_note(text: str) -> bool:
    """True when a note on a step only describes the work ("polish the edges"): no word of
    condition, schedule or rework, and no word that changes a route's meaning."""
    if re.search(r"[\u2713\u2714\u2611\u2612\u2717\u2718]", text) or re.fullmatch(
            r"(?i)\s*(?:x|ok|okay)\s*", text):
        return False  # a check mark or a tick word: done, or not to do
    lowered = re.sub(r"\b(?:second|third|finishing|roughing)\s+pass\b", "stage", text.lower())
    words = set(re.findall(r"[a-z]+", lowered))  # "(second pass)" names the step's work
    return not words & (NOTE_STOP | MEANING_WORDS)


def _purpose_note(cursor: Cursor) -> None:
    """Consume ``for a last polish`` after a step: what is done there, no duration, no id."""
    start = cursor.index
    if not (cursor.word({"for"}) and cursor.word({"a", "an", "the", "its"})):
        cursor.index = start
        return
    count = 0
    while (token := cursor.peek()) is not None and token.kind is Kind.WORD and count < 3:
        if token.value in NOT_NAMES or not is_plain_note(token.text) or (
                cursor.names is not None and cursor.names.word(token.value)):
            cursor.index = start
            return
        cursor.take()
        count += 1
    following = cursor.peek()
    if not count or not (following is None or following.kind is Kind.COMMA):
        cursor.index = start


def _step_duration(cursor: Cursor) -> float | None:
    """The duration written right after a machine id (``2h``, ``for 2h``, ``: 2h``, ``30 min
    setup + 1h run``), unless it is a duration for every step (``for 1h each``), which the
    caller reads as such."""
    total = read_setup_run(cursor)
    if total is not None:
        return total
    start = cursor.index
    slash = cursor.peek()
    if slash is not None and slash.text == "/" and cursor.peek_kind(Kind.DURATION, offset=1):
        cursor.index += 2  # "M51/2h": a machine and its duration, not two machines
        return cursor.tokens[cursor.index - 1].value
    if not (cursor.kind(Kind.COLON) or _symbol(cursor, "-", "–", "—")
            or cursor.kind(Kind.COMMA)):  # "M2, 30 parts at 4 min/part"
        cursor.word({"for", "with"})
    batch = batch_hours(cursor)  # "M1 - 120 parts x 30 sec"
    if batch is not None:
        return batch
    cursor.index = start
    span = cursor.peek(1)
    if cursor.peek_word("for") and span is not None and (
            span.kind is Kind.CLOCK and span.value.meridiem is None and ":" in span.text
            and span.value.hour <= 12):
        cursor.index += 2  # "M1 for 2:00": hours and minutes of work, not a time of day
        return span.value.hour + span.value.minute / 60
    for offset, lead in ((0, None), (1, "for"), (1, ":"), (1, "in"), (1, "-")):
        token = cursor.peek(offset)
        if token is None or token.kind is not Kind.DURATION:
            continue
        if lead is not None:
            before = cursor.peek(0)
            if before is None or not (before.is_word(lead) or (
                    lead == ":" and before.kind is Kind.COLON) or (
                    lead == "-" and before.kind is Kind.OTHER and before.text in "-–—")):
                continue  # "M146 - 2h": a dash between a machine and its duration
        if _says_every_step(cursor, offset + 1):
            return None
        cursor.index += offset + 1
        return token.value
    return None


_WHOLE_JOB = (("the", "whole", "batch"), ("the", "batch"), ("the", "whole", "lot"),
              ("the", "whole", "order"), ("the", "whole", "job"))
_BACK = (("back", "to"), ("back", "on"), ("back", "at"), ("back", "into"), ("back", "in"))


_START_VERBS = frozenset({"start", "starts", "started", "starting", "begin", "begins"})


def _lead_in(cursor: Cursor, continuing: bool = False) -> None:
    """Consume verbs, adverbs and prepositions that introduce a step.

    After a step separator (``continuing``) the job may be named again as a pronoun or as
    "the whole batch" ("then it is packed on M6", "then the whole batch moves to M6"), and
    "back to M1" is a further step on M1 (a planned revisit).
    """
    first = True
    while not cursor.done:
        token = cursor.peek()
        assert token is not None
        if continuing and first and (cursor.word({"it", "they"})
                                     or cursor.any_sequence(_WHOLE_JOB) is not None):
            first = False
            continue
        first = False
        if continuing and cursor.any_sequence(_BACK) is not None:
            continue
        previous = cursor.tokens[cursor.index - 1] if cursor.index else None
        if previous is not None and previous.kind is Kind.WORD and (
                previous.value in ROUTE_VERBS and (token.is_word("only", "just") or (
                    token.is_word("over") and cursor.peek_word("to", offset=1)))
                or previous.value in _START_VERBS and token.is_word("out", "off", "with")):
            cursor.take()  # "needs only M8", "starts out at the kiln", "goes over to M7"
            continue
        if token.kind is Kind.WORD and (
            token.value in ROUTE_VERBS or token.value in STEP_ADVERBS
            or token.value in PREPOSITIONS
        ):
            cursor.take()
        elif _is_process_verb(cursor):
            cursor.take()
        else:
            return


QUANTITY_NOUNS = frozenset({"pieces", "piece", "pcs", "pc", "units", "unit", "parts", "items",
                            "lots"})  # "3 lots of 20 min each": lots run one after another
PER_PIECE = (("each",), ("apiece",), ("per", "piece"), ("per", "unit"), ("per", "part"),
             ("a", "piece"), ("per", "pc"))


def batch_hours(cursor: Cursor) -> float | None:
    """Read ``240 pieces, 15 seconds each`` / ``600 pcs @ 6 s/pc`` / ``120 parts x 30 sec``:
    the pieces run one after another, so the step takes quantity × cycle time (hours).

    Raises:
        UnreadPhrase: a quantity whose time per piece cannot be read.
    """
    start = cursor.index
    quantity = cursor.kind(Kind.NUMBER)
    if quantity is not None and quantity.value == int(quantity.value) and _bare_times_cycle(
            cursor):  # "600 x 6 s": a count times a time per piece in seconds or minutes
        cycle = cursor.kind(Kind.DURATION)
        assert cycle is not None
        return round(quantity.value * cycle.value * 3600, 6) / 3600
    count = _piece_count(quantity, cursor.peek())
    if (quantity is None or count is None
            or not (cursor.word(QUANTITY_NOUNS) or _counted_noun(cursor))):
        cursor.index = start
        return None
    cursor.kind(Kind.COMMA)
    times = cursor.word({"x"}) is not None or _symbol(cursor, "×", "*")
    rate = False
    if not times and cursor.word({"at", "of", "with"}) is None:
        rate = _symbol(cursor, "@")  # "40 pcs @ 3 min": the at-sign of a rate, per piece
    cycle = cursor.kind(Kind.DURATION)
    per_piece = cycle is not None and (
        cursor.any_sequence(PER_PIECE) is not None
        or (_symbol(cursor, "/") and cursor.word(QUANTITY_NOUNS | {"pc", "piece", "part"})))
    if cycle is None or not (per_piece or times or rate):
        raise UnreadPhrase(f"'{quantity.text} {cursor.tokens[start + 1].text}' without a time "
                           "per piece")
    return round(count * cycle.value * 3600, 6) / 3600


_THOUSANDS_RE = re.compile(r"\d{1,3}(?:\.\d{3})+")


def _piece_count(quantity: Token | None, following: Token | None) -> int | None:
    """The whole number of pieces a quantity token gives: ``240``, ``1,200``, or ``1.200``
    (groups of three digits apart by dots) right before a word for pieces (a count of pieces
    is whole, so the dots can only group thousands); None otherwise."""
    if quantity is None:
        return None
    if _THOUSANDS_RE.fullmatch(quantity.text) is None:
        return int(quantity.value) if quantity.value == int(quantity.value) else None
    if following is not None and following.is_word(*QUANTITY_NOUNS) and not following.is_word(
            "lots"):
        return int(re.sub(r"[.,]", "", quantity.text))
    return None


_CYCLE_UNIT_RE = re.compile(r"(?i)^\d+(?:\.\d+)?\s*(?:s|sec|secs|seconds?|min|mins|minutes?)$")


def _bare_times_cycle(cursor: Cursor) -> bool:
    """Whether a times sign and a duration in seconds or minutes follow a bare count (``600 x
    6 s``), the duration then being the next token; ``2 x 1h`` (twice, or two hours?) is
    not such a count."""
    start = cursor.index
    if cursor.word({"x"}) is not None or _symbol(cursor, "×", "*"):
        following = cursor.peek()
        if following is not None and following.kind is Kind.DURATION and _CYCLE_UNIT_RE.match(
                following.text.strip()):
            return True
    cursor.index = start
    return False


def _per_piece_end(tokens: list[Token], index: int) -> int | None:
    """The index after the per-piece marker that follows ``tokens[index]`` (``/pc``,
    ``per piece``, ``each``), or None."""
    cursor = Cursor(tokens)
    cursor.index = index
    if cursor.any_sequence(PER_PIECE) is not None or (
            _symbol(cursor, "/") and cursor.word(QUANTITY_NOUNS | {"pc", "piece", "part"})):
        return cursor.index
    return None


_POLITENESS = frozenset({"please", "pls", "plz", "kindly"})


def drop_politeness(tokens: list[Token]) -> list[Token]:
    """Drop ``please`` / ``pls``: a request's politeness says nothing about the route."""
    return [token for token in tokens if not token.is_word(*_POLITENESS)]


def unwrap_each_aside(tokens: list[Token]) -> list[Token]:
    """``M1 → M2 → M1 (1h each)``: a duration for every step in parentheses at the end of a
    route reads as ``, 1h each`` (the aside's tokens after a comma)."""
    out: list[Token] = []
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if is_paren(token) and (following is None or following.kind is Kind.COMMA):
            inner = tokenize(token.value.text)
            one_machine = sum(t.kind is Kind.MACHINE for t in tokens) == 1
            if (len(inner) in (2, 3) and inner[0].kind is Kind.DURATION
                    and inner[1].is_word(*EACH_WORDS)
                    and (len(inner) == 2 or inner[2].is_word(*STEP_WORDS)
                         # "J1 and J2 on M3 (1h each job)": one step, so per job is per step
                         or (one_machine and inner[2].is_word("job")))):
                if len(inner) == 3 and inner[2].is_word("job"):
                    inner = inner[:2]
                comma = Token(Kind.COMMA, ",", token.start, token.start, ",")
                out += [comma, *(Token(t.kind, t.text, token.start, token.end, t.value)
                                 for t in inner)]
                continue
        out.append(token)
    return out


_LOT_WORDS = frozenset({"lot", "batch", "run", "order", "quantity"})


def spread_quantity(tokens: list[Token]) -> list[Token]:
    """``J5: 600 pcs, M3 at 12 s/pc, then M4 at 6 s/pc`` (``J5, lot of 600 pieces: M3 ...``):
    one quantity for the job, then a
    cycle time per piece at every step: each step takes quantity × its cycle time. The
    tokens come back with each cycle time replaced by the step's duration and the quantity
    dropped; unchanged unless the quantity stands alone (a comma after it) and every
    duration after it is a time per piece."""
    found = [i for i in range(len(tokens) - 2)
             if tokens[i].kind is Kind.NUMBER and tokens[i].value == int(tokens[i].value)
             and tokens[i + 1].is_word(*QUANTITY_NOUNS)
             and tokens[i + 2].kind in (Kind.COMMA, Kind.COLON)]
    if len(found) != 1:
        return tokens
    first = found[0]
    quantity = tokens[first].value
    lead = first  # "lot of 30 pieces:": the words that name the quantity go with it
    if lead >= 2 and tokens[lead - 1].is_word("of") and tokens[lead - 2].is_word(*_LOT_WORDS):
        lead -= 2
    out = tokens[:lead]
    index = first + 3
    spread = 0
    while index < len(tokens):
        token = tokens[index]
        end = _per_piece_end(tokens, index + 1) if token.kind is Kind.DURATION else None
        if token.kind is Kind.DURATION and end is None:
            return tokens  # a duration that is no time per piece: not one quantity for all
        if end is None:
            out.append(token)
            index += 1
            continue
        if out and (out[-1].is_word("at") or out[-1].text == "@"):
            out.pop()
        hours = round(quantity * token.value * 3600, 6) / 3600
        out.append(Token(Kind.DURATION, token.text, token.start, tokens[end - 1].end, hours))
        spread += 1
        index = end
    return out if spread else tokens


def _counted_noun(cursor: Cursor) -> bool:
    """Consume the plural noun of a counted product (``1,200 caps × 3 s``) when a cycle time
    per piece follows at once (a multiplication sign, or ``at 3 s each``)."""
    token = cursor.peek()
    if token is None or token.kind is not Kind.WORD or not re.fullmatch(r"[a-z]{3,}s", token.text):
        return False
    following = cursor.peek(1)
    if following is None:
        return False
    if following.kind in (Kind.OTHER, Kind.AMP) and following.text in ("×", "*", "@") or (
            following.is_word("x")):
        cursor.take()
        return True
    after = Cursor(cursor.tokens[cursor.index + 2:], cursor.names)
    if following.is_word("at") and after.kind(Kind.DURATION) and (
            after.any_sequence(PER_PIECE) is not None):
        cursor.take()
        return True
    return False


def _symbol(cursor: Cursor, *symbols: str) -> bool:
    token = cursor.peek()
    if token is not None and token.kind in (Kind.OTHER, Kind.AMP) and token.text in symbols:
        cursor.take()
        return True
    return False


def _batch_around_machine(cursor: Cursor) -> Route | None:
    """Read ``240 pcs on M1 at 30 s each``: the machine between the quantity and its cycle
    time; None (cursor unchanged) when no machine follows the quantity.

    Raises:
        UnreadPhrase: a quantity whose time per piece cannot be read.
    """
    start = cursor.index
    quantity = cursor.kind(Kind.NUMBER)
    if quantity is None or cursor.word(QUANTITY_NOUNS) is None:
        cursor.index = start
        return None
    head = cursor.index
    cursor.word(PREPOSITIONS)
    machine = read_machine_ref(cursor)
    if machine is None:
        cursor.index = start
        return None
    rest = Cursor(cursor.tokens[start:head] + cursor.tokens[cursor.index:], cursor.names)
    hours = batch_hours(rest)
    if hours is None:
        cursor.index = start
        return None
    cursor.index += rest.index - (head - start)
    return Route([StepSpec(machine[0], hours)])


def _read_batch(cursor: Cursor) -> Route | None:
    """Read a quantity × cycle time step with its machine after it (``... on M1``) or
    between the quantity and the cycle time (``240 pcs on M1 at 30 s each``)."""
    around = _batch_around_machine(cursor)
    if around is not None:
        return around
    start = cursor.index
    hours = batch_hours(cursor)
    if hours is None:
        return None
    cursor.word(PREPOSITIONS)
    machine = read_machine_ref(cursor)
    if machine is None:
        cursor.index = start
        raise UnreadPhrase("a quantity and a cycle time without the machine")
    return Route([StepSpec(machine[0], hours)])


def read_step(cursor: Cursor, continuing: bool = False) -> Route | None:
    """Read one step (with its lead-in words), or None.

    Forms: ``M1``, ``M1 2h``, ``M1 (2h)``, ``M1 for 2h``, ``M1: 2h``, ``2h on M1``,
    ``on M1 for 2h``, ``them`` / ``all machines`` (every declared machine, in order).

    Raises:
        UnreadPhrase: a range of machines inside a route (``M1-M3`` could be "M1 to M3" or
            "M1, M2, M3").
    """
    start = cursor.index
    _lead_in(cursor, continuing)
    token = cursor.peek()
    if token is None:
        cursor.index = start
        return None
    batch = _read_batch(cursor)
    if batch is not None:
        return batch
    if token.kind is Kind.MACHINE_RANGE:
        raise UnreadPhrase(f"'{token.text}' in a route could mean two machines or a range")
    reference = read_machine_ref(cursor)
    if reference is None and (named := read_named_id(cursor)) is not None:
        reference = (named, False)
    if reference is not None:
        return _machine_step(cursor, reference, continuing)
    if token.kind is Kind.DURATION:
        return _duration_first_step(cursor, token, start, continuing)
    if cursor.any_sequence(ALL_MACHINES) is not None:
        return Route([], all_machines=True)
    cursor.index = start
    return None


def _step_names(cursor: Cursor, machine: str, by_name: bool,
                first: bool = False) -> list[tuple[str, str]]:
    """Read what may follow a step's machine before its duration: a name in parentheses
    after an id (``M1 (lathe)``, returned), or the id after a name (``the drill (M2)``,
    ``the drill, M2,``).

    Raises:
        UnreadPhrase: a condition in the parentheses, or a name followed by another id.
    """
    following = cursor.peek()
    if by_name and first and following is not None and following.is_word("first") and (
            (comma := cursor.peek(1)) is not None and comma.kind is Kind.COMMA) and (
            (after := cursor.peek(2)) is not None and after.kind is Kind.MACHINE):
        if after.value[0] != machine:
            raise UnreadPhrase(f"the name of {machine} is followed by another id")
        cursor.index += 3  # "the saw first, M1, for three hours": the first step
        cursor.kind(Kind.COMMA)
        return []
    if is_paren(following, "name") and not by_name:
        if not is_plain_note(following.value.text):
            raise UnreadPhrase(f"'{following.text}' after {machine} is a condition")
        return [(machine, cursor.take().value.text)]
    if by_name and is_paren(following, "machines"):
        if following.value.machines != (machine,):
            raise UnreadPhrase(f"the name of {machine} is followed by another id")
        cursor.take()
    elif by_name and following is not None and following.kind is Kind.COMMA and (
            (after := cursor.peek(1)) is not None and after.kind is Kind.MACHINE):
        if after.value[0] != machine:
            raise UnreadPhrase(f"the name of {machine} is followed by another id")
        cursor.index += 2  # "the drill, M2, for an hour"
        cursor.kind(Kind.COMMA)
    return []


def _machine_step(cursor: Cursor, reference: tuple[str, bool], continuing: bool) -> Route:
    """The step of a machine just read (by id or by name): its duration and notes after it."""
    machine, by_name = reference
    names = _step_names(cursor, machine, by_name, first=not continuing)
    again = continuing and cursor.word({"again"}) is not None  # "→ M4 again for 1h"
    hours: float | None
    if is_paren(cursor.peek(), "duration"):
        hours = cursor.take().value.hours
    else:
        hours = _step_duration(cursor)
    note = cursor.peek()
    if hours is not None and is_paren(note, "name") and is_plain_note(note.value.text):
        cursor.take()  # a note on the step: "M4 again 1h (polish the edges)"
    _purpose_note(cursor)
    if hours is not None:
        _rework_label(cursor)
    return Route([StepSpec(machine, hours)], names=names, again=again)


_REWORK_WORDS = frozenset({"rework", "re-work", "reworking"})
#: Words that make a rework step depend on an outcome ("if it fails", "when needed").
_CONDITION_WORDS = frozenset({"if", "when", "whenever", "unless", "fail", "fails", "failed",
                              "failing", "reject", "rejected", "rejects", "needed",
                              "necessary", "required", "only", "maybe", "possibly", "may",
                              "might", "could", "optional", "optionally"})


def _rework_label(cursor: Cursor) -> None:
    """Consume ``rework`` / ``(rework)`` after a timed step (``back to M5, 1h rework``):
    a planned rework step, when nothing in the clause makes it depend on an outcome (``if it
    fails``, ``when needed``): then the label stays and the clause is unread."""
    token = cursor.peek()
    if token is None:
        return
    label = (token.value if token.kind is Kind.WORD
             else token.value.text.strip().lower() if is_paren(token) else None)
    if label not in _REWORK_WORDS:
        return
    words = {t.value for t in cursor.tokens if t.kind is Kind.WORD}
    if not words & _CONDITION_WORDS:
        cursor.take()


def _duration_first_step(
    cursor: Cursor, token: Token, start: int, continuing: bool
) -> Route | None:
    """A step that gives its duration first (``2h saw``, ``2h on M1``); None with the cursor
    back at ``start`` otherwise."""
    following = cursor.peek(1)
    if following is not None and following.kind is Kind.WORD and cursor.names is not None:
        cursor.index += 1
        target = read_machine_ref(cursor)  # "2h saw, 1h drill"
        after = cursor.peek()
        if target is not None and target[1] and (after is None or after.kind in (
                Kind.COMMA, Kind.ARROW) or after.is_word("then", "and")):
            return Route([StepSpec(target[0], token.value)], duration_first=True)
        cursor.index = start
        _lead_in(cursor, continuing)
        following = cursor.peek(1)
    if following is not None and following.is_word(*DURATION_PREPOSITIONS):
        cursor.index += 2
        target = read_machine_ref(cursor)
        if target is not None:
            names = []
            aside = cursor.peek()
            if is_paren(aside, "name") and not target[1]:
                names.append((target[0], cursor.take().value.text))
            elif target[1] and is_paren(aside, "machines"):
                if aside.value.machines != (target[0],):
                    raise UnreadPhrase(f"the name of {target[0]} is followed by another id")
                cursor.take()
            return Route([StepSpec(target[0], token.value)], names=names,
                         duration_first=True)
    cursor.index = start
    return None


def _separator(cursor: Cursor) -> bool:
    """Consume a step separator (arrow, comma, ``then``, ``and``, ``followed by`` ...)."""
    start = cursor.index
    found = False
    while not cursor.done:
        token = cursor.peek()
        assert token is not None
        if token.kind in (Kind.ARROW, Kind.COMMA) or token.is_word("then", "and") or (
                token.kind is Kind.OTHER and token.text == ";"):  # "(M4: 3h; M5: 2h)"
            cursor.take()
            found = True
        elif cursor.sequence("followed", "by") or cursor.sequence("after", "that"):
            found = True
        else:
            break
    if not found:
        cursor.index = start
    return found


def _step_number(cursor: Cursor, number: int) -> bool:
    """Consume a step number in parentheses (``(2)``) when it is ``number``: numbered steps
    count 1, 2, 3 in the order written."""
    token = cursor.peek()
    if is_paren(token) and token.value.text.strip() == str(number):
        cursor.take()
        return True
    return False


def read_route(cursor: Cursor, continuing: bool = False) -> Route | None:
    """Read a route fragment: steps joined by separators. None when no step starts here.

    ``continuing``: the fragment continues a route given before ("After that it goes back to
    M1"), so its first step may be a revisit.
    """
    start = cursor.index
    numbered = _step_number(cursor, 1)
    first = read_step(cursor, continuing)
    if first is None:
        cursor.index = start
        return None
    lead_words = cursor.tokens[start:cursor.index]
    from_route = any(t.is_word("from", "via") for t in lead_words)
    said_first = any(t.is_word("first") for t in lead_words)
    route = Route(list(first.steps), first.all_machines, list(first.names or []),
                  first.duration_first)
    while True:
        before = cursor.index
        if from_route and cursor.word({"via"}):
            pass  # "from M1 via M2 to M3": a stop between the origin and the destination
        elif from_route and cursor.word({"to"}):  # "from M1 to M3"
            from_route = False
        elif numbered and _step_number(cursor, len(route.steps) + 1):
            pass  # "(1) M1 1h (2) M2 2h": the next number separates the steps
        elif _unseparated_step(cursor, route):
            pass  # "J4 M6 2h M7 1h": each step closed by its duration
        elif not _separator(cursor):
            break
        if _route_end(cursor):
            break  # "M6 (3h) -> M8 (2h) -> done"
        step = read_step(cursor, continuing=True)
        if step is None:
            cursor.index = before
            break
        if not from_route and any(t.is_word("via") for t in cursor.tokens[before:cursor.index]):
            # "to M3, via M2": the stop comes before the destination named first
            raise UnreadPhrase("'via' after the destination does not say the order of steps")
        if step.all_machines or route.all_machines:
            raise UnreadPhrase("'all machines' combined with other steps")
        visited = {spec.machine for spec in route.steps}
        if step.again and step.steps[0].machine not in visited:
            raise UnreadPhrase(f"'{step.steps[0].machine} again', but the route has not "
                               "visited it before")
        route.steps += step.steps
        route.duration_first = False
        route.names = (route.names or []) + list(step.names or [])
        if len(step.steps) == 1 and step.steps[0].machine in visited:
            cursor.word({"again"})  # "..., then M2 1h again": a second visit, said twice
    if said_first and len(route.steps) < 2:
        raise UnreadPhrase("'first' with a single step (first before what?)")
    return route


_END_WORDS_OF_ROUTE = frozenset({"done", "finished", "end", "complete", "completed"})


def _route_end(cursor: Cursor) -> bool:
    """Consume a word that closes a route after its last separator (``-> done``) when nothing
    but the end of the clause or a comma follows it."""
    token, after = cursor.peek(), cursor.peek(1)
    if token is not None and token.is_word(*_END_WORDS_OF_ROUTE) and (
            after is None or after.kind is Kind.COMMA):
        cursor.take()
        return True
    return False


def _unseparated_step(cursor: Cursor, route: Route) -> bool:
    """Whether a machine id and its duration follow a step that ended with its own duration,
    with no separator between them (``M6 2h M7 1h``)."""
    if not route.steps or route.steps[-1].hours is None:
        return False
    machine, duration = cursor.peek(), cursor.peek(1)
    return (machine is not None and machine.kind is Kind.MACHINE and duration is not None
            and (duration.kind is Kind.DURATION or is_paren(duration, "duration")))


def read_instead_of(cursor: Cursor) -> str | None:
    """Read ``instead of M2`` / ``rather than M2`` / ``in place of M2``; the replaced id."""
    start = cursor.index
    if cursor.any_sequence(INSTEAD) is None:
        return None
    after = cursor.peek()
    if after is not None and after.kind in (Kind.DURATION, Kind.NUMBER):
        cursor.index = start  # "3h on M2 instead of 2h": the duration it corrects
        return None
    token = cursor.kind(Kind.MACHINE)
    if token is None:
        cursor.index = start
        raise UnreadPhrase("'instead of' is not followed by a machine id")
    return token.value[0]


# --------------------------------------------------------------------------- durations


@dataclass
class Uniform:
    """One duration for every step: ``1h each``, ``one hour per step``, ``2h on each``."""

    hours: float
    per_step: bool


def read_uniform(cursor: Cursor) -> Uniform | None:
    """Read a duration that applies to every step, or None."""
    start = cursor.index
    if not cursor.word({"for", "with", "at", "taking", "takes", "take", "needing", "of"}):
        _symbol(cursor, "@")  # "M4>M5>M6 @ 1h ea"
    if cursor.word(EACH_WORDS) and (token := cursor.kind(Kind.DURATION)) is not None:
        return Uniform(token.value, per_step=False)
    token = cursor.kind(Kind.DURATION)
    if token is None:
        cursor.index = start
        return None
    if cursor.word(EACH_WORDS):
        per_step = cursor.word(STEP_WORDS) is not None
        cursor.word(MACHINE_WORDS)
        return Uniform(token.value, per_step=per_step)
    if cursor.word({"per", "a", "an"}):
        word = cursor.word(STEP_WORDS | MACHINE_WORDS | {"machine"})
        if word is None:
            raise UnreadPhrase(f"'{token.text} per ...' is not per step or per machine")
        return Uniform(token.value, per_step=word in STEP_WORDS)
    if cursor.word({"on", "at", "for", "in"}):
        if cursor.word({"each", "every", "all"}):
            cursor.sequence("of", "them")
            per_step = cursor.word(STEP_WORDS) is not None
            cursor.word(MACHINE_WORDS)
            return Uniform(token.value, per_step=per_step)
    cursor.index = start
    return None


UNIT_LABELS = {"hours": 1.0, "hrs": 1.0, "h": 1.0, "minutes": 60.0, "mins": 60.0,
               "min": 60.0}


def is_unit_label(cursor: Cursor) -> bool:
    """Whether ``Hours: 2, 1`` starts here (a unit word, a colon, a number)."""
    first, colon, number = cursor.peek(), cursor.peek(1), cursor.peek(2)
    return (first is not None and first.is_word(*UNIT_LABELS) and colon is not None
            and colon.kind is Kind.COLON and number is not None and number.kind is Kind.NUMBER)


def _unit_label_list(cursor: Cursor) -> list[float] | None:
    """Read ``Hours: 2, 1`` / ``Minutes: 90 and 30``: the steps' durations in hours, or None
    (cursor unchanged)."""
    if not is_unit_label(cursor):
        return None
    start = cursor.index
    divisor = UNIT_LABELS[cursor.take().value]
    cursor.take()
    values = [cursor.take().value / divisor]
    while True:
        before = cursor.index
        if not (cursor.kind(Kind.COMMA) or cursor.word({"and"}) or _symbol(cursor, "/")):
            break
        cursor.word({"and"})
        token = cursor.kind(Kind.NUMBER)
        if token is None:
            cursor.index = before
            break
        values.append(token.value / divisor)
    if not cursor.done and not cursor.peek_kind(Kind.COMMA):
        cursor.index = start
        return None
    return values


def _numbers_sharing_a_unit(cursor: Cursor) -> list[float] | None:
    """Read ``2 and 1 hours`` / ``2, 1 and 3 h``: bare numbers, then the last one with the
    unit they all share; the hours, or None (cursor unchanged)."""
    start = cursor.index
    numbers: list[float] = []
    while (number := cursor.kind(Kind.NUMBER)) is not None:
        numbers.append(number.value)
        if not (cursor.kind(Kind.COMMA) or cursor.word({"and"})):
            cursor.index = start
            return None
        cursor.word({"and"})
    last = cursor.kind(Kind.DURATION)
    written = re.match(r"\s*(\d+(?:\.\d+)?)\s*[a-z]", last.text, re.IGNORECASE) if last else None
    if last is None or not numbers or written is None or float(written.group(1)) == 0:
        cursor.index = start
        return None
    per_number = last.value / float(written.group(1))
    return [n * per_number for n in numbers] + [last.value]


def read_duration_list(cursor: Cursor) -> tuple[list[float], bool] | None:
    """Read ``taking 2h, 1h and 1h respectively`` or ``Hours: 2, 1`` (a unit label, then
    bare numbers); returns (hours, said respectively)."""
    start = cursor.index
    labelled = _unit_label_list(cursor)
    if labelled is not None:
        return labelled, True
    aside = cursor.peek()
    if is_paren(aside, "other"):  # "M1 > M2 > M3 (1h/1h/2h)": one duration per step
        inner = Cursor(tokenize(aside.value.text))
        listed = read_duration_list(inner)
        if listed is not None and inner.done and len(listed[0]) > 1:
            cursor.take()
            return listed
    cursor.word({"taking", "takes", "with", "needing", "needs", "for", "at", "of"})
    shared = _numbers_sharing_a_unit(cursor)
    if shared is not None:
        return shared, False
    first = cursor.kind(Kind.DURATION)
    if first is None:
        cursor.index = start
        return None
    values = [first.value]
    while True:
        before = cursor.index
        if (cursor.peek_kind(Kind.OTHER) and cursor.tokens[cursor.index].text == "/"
                or cursor.peek_kind(Kind.ARROW)) and cursor.peek_kind(Kind.DURATION, offset=1):
            cursor.take()  # "1h/1h/2h", "1h → 2h": one duration per step, in order
        elif not (cursor.kind(Kind.COMMA) or cursor.word({"and"})):
            break
        cursor.word({"and"})
        token = cursor.kind(Kind.DURATION)
        if token is None:
            cursor.index = before
            break
        values.append(token.value)
    respectively = cursor.word({"respectively"}) is not None or (
        cursor.sequence("in", "that", "order") or cursor.sequence("in", "order")
    )
    return values, respectively


def read_assignments(cursor: Cursor) -> list[tuple[str, float]] | None:
    """Read ``with 1h on M4`` (durations for steps already listed), or None."""
    start = cursor.index
    if not cursor.word({"with"}):
        return None
    found: list[tuple[str, float]] = []
    while True:
        duration = cursor.kind(Kind.DURATION)
        if duration is None or not cursor.word(DURATION_PREPOSITIONS | {"for"}):
            break
        machine = cursor.kind(Kind.MACHINE)
        if machine is None:
            break
        found.append((machine.value[0], duration.value))
        before = cursor.index
        if not (cursor.kind(Kind.COMMA) or cursor.word({"and"})):
            break
        cursor.word({"and"})
        if not cursor.peek_kind(Kind.DURATION):
            cursor.index = before
            break
    if not found:
        cursor.index = start
        return None
    return found


_STEP_NOUNS = frozenset({"step", "operation", "stage", "op"})
_LASTS = frozenset({"takes", "take", "is", "lasts", "needs", "runs", "will", "should"})


def read_step_assignment(cursor: Cursor) -> list[tuple[str, float]] | None:
    """Read ``but the paint step takes 2 hours`` / ``the step on M3 is 2h``: a duration for
    a step already listed, naming it by its machine; or None (cursor unchanged)."""
    start = cursor.index
    cursor.word({"but", "while", "although", "though", "only"})
    if not cursor.word({"the"}):
        cursor.index = start
        return None
    machine: tuple[str, bool] | None = None
    if cursor.word(_STEP_NOUNS):
        if cursor.word({"on", "at", "in"}):
            machine = read_machine_ref(cursor)
    else:
        machine = read_machine_ref(cursor)
        if machine is not None and not cursor.word(_STEP_NOUNS):
            machine = None
    if machine is None or not cursor.word(_LASTS):
        cursor.index = start
        return None
    cursor.word({"take", "be", "last", "need", "run"})
    cursor.word({"for"})
    duration = cursor.kind(Kind.DURATION)
    if duration is None:
        cursor.index = start
        return None
    return [(machine[0], duration.value)]


_STAY_VERBS = ROUTE_VERBS | {"stays", "stay", "spends", "spend", "remains", "sits"}


def read_there(cursor: Cursor) -> tuple[float, bool] | None:
    """Read ``takes 2 hours there`` / ``stays there for 2h`` / ``runs for 2 hours`` / ``where it
    spends two hours`` (the last machine named); (hours, True when the machine was referred
    to: "there", "where")."""
    start = cursor.index
    if cursor.word({"where", "which"}):
        cursor.word({"it", "they"})
        verbs = False
        while cursor.word(_STAY_VERBS):
            verbs = True
        cursor.word({"for"})
        duration = cursor.kind(Kind.DURATION)
        if verbs and duration is not None:
            return duration.value, True
        cursor.index = start
        return None
    while cursor.word(_STAY_VERBS):
        pass
    verbs = cursor.index > start
    cursor.word({"for"})
    duration = cursor.kind(Kind.DURATION)
    if duration is not None and cursor.word({"there"}):
        return duration.value, True
    following = cursor.peek()
    if verbs and duration is not None and (following is None or following.kind is Kind.COMMA
                                           or following.is_word("and")):
        return duration.value, False  # "... on M6 first and stays for 3 hours"
    cursor.index = start
    while cursor.word(_STAY_VERBS):
        pass
    if duration is None and cursor.word({"there"}) and cursor.word({"for"}):
        duration = cursor.kind(Kind.DURATION)
        if duration is not None:
            return duration.value, True
    cursor.index = start
    return None


def read_sequence_marker(cursor: Cursor) -> bool:
    """Consume ``in sequence`` / ``in order`` / ``in turn`` / ``sequentially``."""
    start = cursor.index
    if cursor.word({"sequentially", "consecutively"}):
        return True
    if cursor.sequence("one", "after", "another") or cursor.sequence(
            "one", "after", "the", "other"):
        return True
    if cursor.word({"in"}):
        cursor.word({"that", "this", "the"})
        if cursor.word(SEQUENCE_WORDS):
            cursor.word({"listed", "given"})
            return True
    cursor.index = start
    return False


# --------------------------------------------------------------------------- due times


def read_due(cursor: Cursor, terms: TimeTerms | None = None) -> float | None:
    """Read a due phrase (``due 14:00``, ``due by noon``, ``must ship by 4pm``, ``by 3pm``,
    ``needs to ship 10am`` (a clock right after the verb),
    ``due end of 2nd shift`` when the text defines its shifts); the hour.

    Raises:
        UnreadPhrase: a due keyword whose time cannot be read.
    """
    start = cursor.index
    while cursor.word(DUE_AUX):
        pass
    if cursor.sequence("at", "the", "latest"):  # "- at the latest 15:00"
        return _take_due_time(cursor)
    _go_out(cursor)
    if cursor.word({"by", "before"}):
        hour = _due_by(cursor, terms)
        if hour is None:
            cursor.index = start
        return hour
    return _keyed_due(cursor, start, terms)


def _take_due_time(cursor: Cursor) -> float:
    """Read the due time at the cursor and move past it.

    Raises:
        UnreadPhrase: no time of day is there.
    """
    reading = read_time(cursor.tokens, cursor.index)
    if reading.hour is None:
        raise UnreadPhrase(f"the due time cannot be read: {reading.problem}")
    cursor.index += reading.used
    return reading.hour


def _go_out(cursor: Cursor) -> None:
    """Consume ``go (out)`` when ``by`` / ``before`` follows (``has to go out by 4pm``)."""
    gone = cursor.index
    if cursor.word({"go", "goes"}):
        cursor.word({"out"})
        following = cursor.peek()
        if following is None or not following.is_word("by", "before"):
            cursor.index = gone


def _written_clock(token: Token) -> bool:
    """A token that is a 24-hour clock though not lexed as one: ``1600`` (four digits) and
    ``13:00h`` / ``16:00 hrs`` (a clock with the unit of hours after it); not ``16h``."""
    if token.kind is Kind.NUMBER:
        return len(token.text) == 4 and token.text.isdigit()
    return token.kind is Kind.DURATION and re.fullmatch(
        r"\d{1,2}:\d{2}\s*(?:hours?|hrs?|h)", token.text, re.IGNORECASE) is not None


def _due_by(cursor: Cursor, terms: TimeTerms | None) -> float | None:
    """The hour after ``by`` / ``before``: a clock time or a departure (``the 2pm truck``);
    None when neither follows."""
    start = cursor.index
    cursor.word({"the"})  # "before the 13:00h"
    following = cursor.peek()
    if following is not None and (following.kind is Kind.CLOCK or _written_clock(following)):
        hour = _take_due_time(cursor)
        _plan_day(cursor, terms)
        return hour
    cursor.index = start
    departure = _departure_clock(cursor)  # "..., before the 2pm truck"
    if departure is not None:
        return departure
    term = read_term(cursor, terms)  # "by COB" where the text says when COB is
    return term if term is not None else named_moment(cursor)


def _due_prepositions(cursor: Cursor) -> list[str]:
    """Consume the prepositions after a due keyword (``by``, ``at``, ``no later than``, a
    colon); ``no later than`` counts as ``by``."""
    prepositions = []
    while True:
        if cursor.sequence("no", "later", "than"):
            prepositions.append("by")
            continue
        word = cursor.word(DUE_PREPOSITIONS)
        if word is None and cursor.kind(Kind.COLON):
            word = ":"
        if word is None:
            return prepositions
        prepositions.append(word)


def _keyed_due(cursor: Cursor, start: int, terms: TimeTerms | None) -> float | None:
    """A due keyword (``due``, ``ship`` ...), its prepositions and the time; None with the
    cursor back at ``start`` when no due keyword is there."""
    key = cursor.word(DUE_KEYS | DUE_KEYS_NEED_BY | DELIVERY_KEYS)
    if key is None:
        cursor.index = start
        return None
    if key in {"collects", "collect"}:
        cursor.word({"it", "them"})  # "the truck collects it at 15:00"
    after_key = cursor.index
    if not (cursor.word({"for"}) and cursor.word(_DEPARTURES | {"shipping"})
            and cursor.peek_word("at", "by", "before")):
        cursor.index = after_key  # "ready for collection at 13:00": the time it leaves
    prepositions = _due_prepositions(cursor)
    if {"until", "till"} & set(prepositions) and key not in FINISH_KEYS | {"due"}:
        cursor.index = start  # "out until 14:00", "delivery until 14:00": a span, not a due
        return None
    cursor.word({"today"})  # "Ship date: today 17:00": the plan's day
    if key in DUE_KEYS_NEED_BY and not set(prepositions) & {"by", "before", "at", "date",
                                                            "time", "until", "till"} and not (
            not prepositions and (_clock_follows(cursor) or _term_follows(cursor))) and not (
            prepositions == ["for"] and _day_clock_follows(cursor)):
        cursor.index = start
        return None
    if key in {"packed", "loaded"} and not set(prepositions) & {"by", "before"}:
        cursor.index = start  # "loaded at 9:00" may be when the work starts
        return None
    _plan_day(cursor, terms)
    departure = _departure_clock(cursor)
    if departure is not None and set(prepositions) & {"by", "before", "for"}:
        return departure  # "done before the 2pm truck"
    following = cursor.peek(1)
    if (set(prepositions) & {"by", "before"} and cursor.peek_word("the") and following is not None
            and (following.kind is Kind.CLOCK or _written_clock(following))):
        cursor.take()  # "ready before the 13:00h"
    reading = read_time(cursor.tokens, cursor.index)
    if reading.hour is None:
        hour = read_term(cursor, terms)
        if hour is None:
            hour = named_moment(cursor)
        if hour is not None:
            return hour
        raise UnreadPhrase(f"the due time cannot be read: {reading.problem}")
    cursor.index += reading.used
    _plan_day(cursor, terms)
    if not cursor.word({"sharp", "latest"}):
        cursor.sequence("at", "the", "latest")
    return reading.hour


# words that put a moment on another day than the plan's
_OTHER_DAY = frozenset({
    "tomorrow", "tonight", "yesterday", "next", "overnight", "weekend", "week", "monday",
    "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "wed",
    "thu", "fri", "sat", "sun",
})


def named_moment(cursor: Cursor) -> float | None:
    """Read a moment of the day named in words with its clock time in parentheses
    (``lunch (12:00)``, ``the afternoon break (15:00)``): the hour, or None (cursor
    unchanged). Words of another day (``tomorrow (08:00)``) or of a condition are refused."""
    start = cursor.index
    count = 0
    while (token := cursor.peek()) is not None and token.kind is Kind.WORD and count < 4:
        if token.value in MEANING_WORDS or token.value in _OTHER_DAY:
            cursor.index = start
            return None
        cursor.take()
        count += 1
    aside = cursor.peek()
    if count and is_paren(aside):
        inner = tokenize(aside.value.text)
        if len(inner) == 1 and inner[0].kind is Kind.CLOCK:
            reading = read_time(inner, 0)
            if reading.hour is not None:
                cursor.take()
                return reading.hour
    cursor.index = start
    return None


_DEPARTURES = frozenset({"truck", "lorry", "van", "courier", "pickup", "pick-up", "collection",
                         "shipment", "delivery", "dispatch"})


def _departure_clock(cursor: Cursor) -> float | None:
    """Read ``the 2pm truck`` / ``the 16:00 courier``: the hour the goods leave; None (cursor
    unchanged) otherwise."""
    start = cursor.index
    if cursor.word({"the"}):
        clock = cursor.peek()
        if clock is not None and clock.kind is Kind.CLOCK:
            reading = read_time(cursor.tokens, cursor.index)
            after = cursor.index + reading.used
            if reading.hour is not None and after < len(cursor.tokens) and (
                    cursor.tokens[after].is_word(*_DEPARTURES)):
                cursor.index = after + 1
                return reading.hour
    cursor.index = start
    return None


def _day_clock_follows(cursor: Cursor) -> bool:
    """Whether a time of day that cannot be a span of work follows at once (``needed for
    2:30pm``, ``for 14:00``; ``for 2:00`` could be two hours of work)."""
    token = cursor.peek()
    return token is not None and token.kind is Kind.CLOCK and (
        token.value.meridiem is not None or token.value.hour >= 13)


def _term_follows(cursor: Cursor) -> bool:
    """Whether a time word with its own hour in parentheses follows at once (``needed EOD
    (17:00)``)."""
    start = cursor.index
    found = read_term(cursor, None) is not None
    cursor.index = start
    return found


def _clock_follows(cursor: Cursor) -> bool:
    """Whether a clock time (``10am``, ``14:00``) follows at once (``needs to ship 10am``);
    a bare number (``ship 10``) is no clock."""
    token = cursor.peek()
    return token is not None and token.kind is Kind.CLOCK


_END_WORDS = (("end", "of"), ("close", "of"), ("eod",), ("cob",), ("eob",))


def read_term(cursor: Cursor, terms: TimeTerms | None) -> float | None:
    """Read a time word the text defines (``EOD`` when it says "our EOD is 18:00",
    ``end of 1st shift`` under a shift table) or one that carries its hour (``end of shift
    (22:00)``); the hour, or None (cursor unchanged).
    """
    start = cursor.index
    if cursor.any_sequence(_END_WORDS) is not None:
        while (token := cursor.peek()) is not None and token.kind in (Kind.WORD, Kind.NUMBER) \
                and not token.is_word(*MEANING_WORDS) and cursor.index - start < 5:
            cursor.take()
        aside = cursor.peek()
        if is_paren(aside):
            inner = tokenize(aside.value.text)
            if len(inner) == 1 and inner[0].kind is Kind.CLOCK:
                reading = read_time(inner, 0)
                if reading.hour is not None:
                    cursor.take()
                    _plan_day(cursor, terms)
                    return reading.hour
        cursor.index = start
    if terms is None:
        return None
    for words in sorted(terms.terms, key=len, reverse=True):
        for count in range(1, 2 * len(words) + 1):
            ahead = cursor.tokens[cursor.index:cursor.index + count]
            if len(ahead) < count or not all(t.kind in (Kind.WORD, Kind.NUMBER, Kind.OTHER)
                                             for t in ahead):
                break
            glued = "".join(("" if i == 0 or ahead[i - 1].end == t.start else " ") + t.text
                            for i, t in enumerate(ahead))
            written = term_words(glued)
            if written == words:
                cursor.index += count
                _plan_day(cursor, terms)
                return terms.terms[words]
            if len(written) > len(words) or written[:-1] != words[:len(written) - 1]:
                break
    return None


def _plan_day(cursor: Cursor, terms: TimeTerms | None) -> None:
    """Consume the plan's own weekday (``Friday``, ``on Friday``) next to a due time."""
    if terms is None or terms.plan_day is None:
        return
    start = cursor.index
    cursor.word({"on", "this"})
    if cursor.word(terms.plan_day_forms) is None:
        cursor.index = start


NO_DUE_ADJECTIVES = frozenset({"hard", "fixed", "firm", "set", "real", "specific", "particular"})


NO_DUE_NOUNS = frozenset({"rush", "hurry"})
#: what a time or date is of in "no completion time", "no delivery date", "no ship date"
NO_DUE_KINDS = frozenset({"completion", "delivery", "finish", "ship", "shipping", "target"})


def read_no_due(cursor: Cursor) -> bool:
    """Read ``no due`` / ``no hard deadline`` / ``no due date`` / ``no rush`` / ``with no fixed
    completion time`` (the job has no due time)."""
    start = cursor.index
    while cursor.word({"it", "has", "have", "there", "is", "are", "with"}):
        pass
    if cursor.word({"no"}) is None:
        cursor.index = start
        return False
    while cursor.word(NO_DUE_ADJECTIVES):
        pass
    if cursor.word(NO_DUE_KINDS) is not None:  # "no fixed completion time"
        if cursor.word({"date", "time", "hour", "deadline"}) is None:
            cursor.index = start
            return False
        return True
    key = cursor.word(DUE_KEYS | NO_DUE_NOUNS)
    if key is None:
        cursor.index = start
        return False
    if key in DUE_KEYS:
        cursor.word({"date", "time", "hour"})
    return True


# --------------------------------------------------------------------------- exceptions


def read_skip(cursor: Cursor) -> tuple[str, ...] | None:
    """Read ``skips M2`` / ``does not visit M2 and M3`` / ``bypasses M2``; the skipped ids."""
    start = cursor.index
    if cursor.word({"without", "no"}) is not None:  # "the same but without the paint booth"
        machines = _skipped_machines(cursor)
        if not machines:
            cursor.index = start
            return None
        return machines
    if cursor.word(SKIP_VERBS) is None:
        negated = cursor.word(NEGATING_AUX) is not None and cursor.word(NEGATIONS) is not None
        if not negated:
            cursor.index = start
            if cursor.word({"doesn't", "don't", "isn't", "never"}) is None:
                return None
        needed = cursor.word({"need", "needs"})
        infinitive = cursor.word({"to"})
        cursor.word({"be"})
        verb = cursor.word(NEGATED_VISIT_VERBS | {"processed", "routed", "sent"})
        if verb is None and (needed is None or infinitive):  # "doesn't need M2" is a skip
            cursor.index = start
            return None
        cursor.word(PREPOSITIONS)
    machines = _skipped_machines(cursor)
    if not machines:
        cursor.index = start
        raise UnreadPhrase("a skip that names no machine")
    return machines


def _skipped_machines(cursor: Cursor) -> tuple[str, ...]:
    """The machines a skip names (``M2 and M3``, ``the paint booth``); empty when none."""
    cursor.word({"machine"})
    machines: list[str] = []
    while (reference := read_machine_ref(cursor)) is not None:
        machines.append(reference[0])
        if not (cursor.kind(Kind.COMMA) or cursor.word({"and"})):
            break
        cursor.word({"and"})
    return tuple(machines)


def read_follow_standard(cursor: Cursor) -> bool:
    """Read ``follow(s) the standard routing`` (also ``take the usual route``)."""
    start = cursor.index
    if cursor.word({"follow", "follows", "use", "uses", "take", "takes", "go", "goes",
                    "run", "runs"}) is None:
        return False
    cursor.word({"through", "along", "by", "via"})
    if (
        cursor.word({"the"})
        and cursor.word({"standard", "normal", "default", "usual", "common", "general"})
        and cursor.word({"route", "routing", "sequence", "path", "flow", "process"})
    ):
        return True
    cursor.index = start
    return False
