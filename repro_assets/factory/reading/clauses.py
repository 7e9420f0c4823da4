"""The clause reader: one clause of running text → statements, or an unread sentence.

A clause is classified first:

* **about jobs** when it names a job id, says job/order(s), starts with a pronoun
  (``It takes 2 hours there``) or sits under a job's list header: it is read strictly. Every
  token must be accounted for by the grammar (subject, route, durations, due time, exceptions)
  or be a neutral filler word; anything else makes the whole sentence *unread* with the words
  that could not be read. This is the certainty rule.
* **about machines only** (machine ids, no job, no duration, no time, no arrow): read
  leniently as a declaration: the ids, names (``M1 (lathe)``, ``M1 is the cutter``), whether
  it lists the plant's machines, and whether it says they are out of service.
* **route content without a subject** (``Due at 3pm.``, ``Then M3 for 1h.``): read strictly
  for the job of the same line or list item, or unread when there is none.
* anything else (``Press shop.``) does not describe jobs or machines and is skipped.

Context: a pronoun refers to the last subject of the paragraph; a subject-less due time or
duration refers to the last subject of the same line or list item; items under a header line
``J1:`` continue that job's route.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from repro_assets.factory.reading.definitions import TimeTerms, is_definition_only
from repro_assets.factory.reading.lexicon import NUMBER_WORDS, Kind, Token, tokenize
from repro_assets.factory.reading.names import NameIndex
from repro_assets.factory.reading.phrases import (
    CONTINUATION_VERBS,
    DUE_KEYS,
    DUE_KEYS_NEED_BY,
    FILLERS,
    GENERIC_JOB_NOUNS,
    INSTEAD,
    JOB_WORDS,
    MACHINE_WORDS,
    MEANING_WORDS,
    NOT_NAMES,
    PREPOSITIONS,
    ROUTE_VERBS,
    SKIP_VERBS,
    Cursor,
    Route,
    UnreadPhrase,
    drop_approximations,
    drop_field_labels,
    drop_politeness,
    drop_retracted,
    group_asides,
    is_paren,
    is_plain_note,
    is_unit_label,
    plain_connectives,
    read_assignments,
    read_due,
    read_duration_list,
    read_follow_standard,
    read_instead_of,
    read_no_due,
    read_route,
    read_sequence_marker,
    read_skip,
    read_step_assignment,
    read_term,
    read_there,
    read_uniform,
    spread_quantity,
    unwrap_each_aside,
)
from repro_assets.factory.reading.segments import STATUS_WORDS, Clause
from repro_assets.factory.reading.statements import (
    LEVEL_ALL,
    LEVEL_LISTED,
    LEVEL_ONE,
    DueStatement,
    MachineMention,
    ModifyStatement,
    Reading,
    RouteStatement,
    SameRouteStatement,
    StandardStatement,
    StepSpec,
    Unread,
    ValueCorrection,
)
from repro_assets.factory.reading.times import read_time

LEADS = (("and", "then"), ("then",), ("next",), ("afterwards",), ("afterward",), ("finally",),
         ("later", "on"), ("later",),
         ("lastly",), ("after", "that"), ("after", "this"), ("from", "there"))
GENERIC_DETERMINERS = frozenset({"every", "each", "all", "the", "our", "other", "remaining",
                                 "of", "rest", "these", "those"})
DISTRIBUTIVE = frozenset({"each", "both", "all", "together"})
INVENTORY_WORDS = frozenset({"have", "has", "operate", "operates", "own", "owns", "run",
                             "runs", "got", "include", "includes", "are", "there", "only"})
#: The words that put a machine out of service ("M3 is down", "out of action").
_OUT_OF_SERVICE = (
    r"(?:down|out of service|out for (?:repair|maintenance|service)|under "
    r"(?:maintenance|repair)|in (?:maintenance|repair)|being (?:repaired|serviced)|broken|"
    r"offline|unavailable|not available|out of order|decommissioned|retired|shut down|"
    r"not in use|out of (?:action|commission|use)|not (?:working|operational|running)|"
    r"inoperable|stopped)\b"
)
_OUT_OF_SERVICE_RE = re.compile(r"\b" + _OUT_OF_SERVICE, re.IGNORECASE)
_NAME_STOP = frozenset({"and", "or", "is", "are", "the", "a", "an", "which", "that", "with"})


@dataclass(frozen=True)
class Subject:
    """Who a clause is about: job ids (``jobs``) or every job (``jobs is None``)."""

    jobs: tuple[str, ...] | None
    level: int


def _subject_of(jobs: list[str]) -> Subject:
    unique = tuple(dict.fromkeys(jobs))
    return Subject(unique, LEVEL_ONE if len(unique) == 1 else LEVEL_LISTED)


@dataclass
class _Context:
    """What pronouns and subject-less clauses refer to."""

    paragraph: int = -1
    group: int = -1
    paragraph_subject: Subject | None = None
    group_subject: Subject | None = None
    header: str | None = None
    header_subject: Subject | None = None
    current: dict[tuple[str, ...] | None, RouteStatement] = field(default_factory=dict)
    item: bool = False  # the previous clause sat in a list item
    paragraph_jobs: list[str] = field(default_factory=list)  # subjects of the paragraph


class _Unreadable(Exception):
    """The clause cannot be read; carries the reason."""


def _job_list(cursor: Cursor) -> list[str] | None:
    """Read ``J1, J2 and J3`` / ``J1-J4`` / ``J1 through J3`` / ``J1/J2``; None when no job
    id comes."""
    start = cursor.index
    jobs: list[str] = []
    while (token := cursor.kind(Kind.JOB, Kind.JOB_RANGE)) is not None:
        jobs += token.value
        before = cursor.index
        if not (cursor.kind(Kind.COMMA, Kind.AMP) or cursor.word({"and"})
                or (cursor.peek_kind(Kind.OTHER) and cursor.tokens[cursor.index].text == "/"
                    and cursor.peek_kind(Kind.JOB, offset=1) and cursor.take())):
            break
        cursor.word({"and"})
        next_token = cursor.peek()
        if next_token is None or next_token.kind not in (Kind.JOB, Kind.JOB_RANGE):
            cursor.index = before
            break
    if not jobs:
        cursor.index = start
        return None
    return jobs


@dataclass(frozen=True)
class _Opening:
    """How a job clause opens: its subject, whether the clause names it, whether the clause
    continues a route given before, and whether it may start one (a list item under a
    job's header)."""

    subject: Subject
    explicit: bool
    continuation: bool
    may_start: bool


@dataclass
class _Body:
    """The body of a job clause being read: whom it is about, where it stands, and the
    route statement it has started (at most one route fragment per clause)."""

    cursor: Cursor
    clause: Clause
    subject: Subject
    pending: _Pending
    outer: RouteStatement | None
    continuation: bool
    may_start: bool
    statement: RouteStatement | None = None
    fragments: int = 0


#: Words that say a job's work is still ahead (``J1 still to do:``, ``J2 remaining:``).
_OPEN_WORK_WORDS = frozenset({"still", "to", "do", "todo", "remaining", "left", "outstanding",
                              "open", "pending"})


def _open_work_label(cursor: Cursor) -> None:
    """Consume ``still to do`` / ``remaining`` / ``left`` before a colon after a job id: the
    work that follows is what the job still needs."""
    index = 0
    while cursor.peek_word(*_OPEN_WORK_WORDS, offset=index):
        index += 1
    if 0 < index <= 4 and cursor.peek_kind(Kind.COLON, offset=index):
        cursor.index += index


def _after_subject(cursor: Cursor, subject: Subject, explicit: bool) -> None:
    """Consume what stands between a named subject and its route (``J1 steps:``, ``J8 is
    short:``, ``J1 →``) and a colon."""
    if explicit and cursor.peek_word(*_ROUTE_LABELS) and cursor.peek_kind(Kind.COLON, offset=1):
        cursor.index += 1  # "J7 steps: M4 3h, M6 1h" / "J7 route: M4 -> M6"
    if explicit and cursor.peek_word("is") and cursor.peek_word(*_EASY, offset=1) and (
            cursor.peek_kind(Kind.COLON, offset=2)):
        cursor.index += 2  # "J8 is short: four hours on M6"
    if explicit:
        _open_work_label(cursor)
    if not cursor.kind(Kind.COLON) and explicit and subject.jobs is not None:
        arrow = cursor.peek()
        if arrow is not None and arrow.kind is Kind.ARROW and _starts_route(
                Cursor(cursor.tokens[cursor.index + 1:], cursor.names)):
            cursor.take()  # "J7 → M4 (3h) → M6 (1h)"


def _body_separator(body: _Body) -> bool:
    """Consume a separator (comma, ``and``, dash), a period word, or ``only`` after a
    route."""
    cursor = body.cursor
    if cursor.kind(Kind.COMMA) or cursor.word({"and"}) or _dash(cursor):
        return True
    if cursor.any_sequence(PERIOD_WORDS) is not None:
        return True
    # "M5 for four hours, nothing else"
    return body.statement is not None and cursor.any_sequence(_ONLY) is not None


_OPERATION_RE = re.compile(r"(?i)^(?:op|opn|oper|operation)(?P<n>\d{1,4})?$")


def _drop_operation_labels(cursor: Cursor) -> None:
    """Drop the operation labels before the steps of the rest of a clause (``J1 op10 M1 2h,
    op20 M2 1h``): they only number the steps in the order written. Numbers that do not rise
    in that order would give another order than the text: the clause is unread."""
    kept: list[Token] = []
    last = 0
    tokens = cursor.tokens[cursor.index:]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        match = _OPERATION_RE.match(token.text) if token.kind is Kind.WORD else None
        if match is not None:
            number = match.group("n")
            after = index + 1
            if number is None and after < len(tokens) and tokens[after].kind is Kind.NUMBER \
                    and tokens[after].text.isdigit():
                number, after = tokens[after].text, after + 1
            if number is not None and _starts_route(Cursor(tokens[after:], cursor.names)):
                if int(number) <= last:
                    raise _Unreadable(f"operation {number} after operation {last}")
                last = int(number)
                index = after
                continue
        kept.append(token)
        index += 1
    cursor.tokens = cursor.tokens[:cursor.index] + kept


_ROUTE_NOUN_VERBS = frozenset({"take", "takes", "follow", "follows", "use", "uses", "run",
                               "runs", "share", "shares"})


def _body_route_noun(body: _Body) -> bool:
    """Consume ``take the route`` before a route (``J7 takes the route M3 3h > M4 2h``,
    ``J1 and J2 share the route: M1 > M2``: each job takes it; ``share`` only with two jobs
    or more)."""
    cursor = body.cursor
    if body.statement is not None:
        return False
    start = cursor.index
    verb = cursor.word(_ROUTE_NOUN_VERBS)
    cursor.word({"the"})
    shared = verb in {"share", "shares"}
    if verb is None or cursor.word({"route", "routing"}) is None or shared and (
            body.subject.jobs is None or len(body.subject.jobs) < 2):
        cursor.index = start
        return False
    cursor.kind(Kind.COLON)
    if not _starts_route(Cursor(cursor.tokens[cursor.index:], cursor.names)):
        cursor.index = start
        return False
    return True


def _replace_step(body: _Body, route: Route, replaced: str) -> None:
    """Record ``M5 instead of M4`` (with ``for 2h`` after it) as a change of the route."""
    cursor, subject = body.cursor, body.subject
    if subject.jobs is None or len(route.steps) != 1:
        raise _Unreadable("'instead of' needs one job-specific machine")
    hours = route.steps[0].hours
    if hours is None and cursor.peek_word("for") and cursor.peek_kind(Kind.DURATION, offset=1):
        cursor.take()
        hours = cursor.take().value
    elif hours is None and is_paren(cursor.peek(), "duration"):
        hours = cursor.take().value.hours  # "M7 instead of M5 (2h)": the new step's time
    body.pending.modify(subject, body.clause.sentence, replace=(
        replaced, route.steps[0].machine), hours=hours)
    body.pending.names += route.names or []


def _body_too(body: _Body) -> bool:
    """Read ``J5 too`` after one job's route: J5 takes the same route."""
    cursor, subject, pending = body.cursor, body.subject, body.pending
    if not (body.statement is not None and subject.jobs is not None
            and len(subject.jobs) == 1 and (others := _too(cursor)) is not None):
        return False
    # "J4: M6 3h, M7 2h, J5 too": J5 takes the same route
    if subject.jobs[0] in others:
        raise _Unreadable("'too' names the job the route is about")
    pending.same_routes.append(SameRouteStatement(tuple(others), subject.jobs[0],
                                                  body.clause.sentence))
    pending.jobs += others
    return True


class ClauseReader:
    """Reads clauses in order into a :class:`Reading`, keeping the context between them."""

    def __init__(self, reading: Reading, terms: TimeTerms | None = None,
                 names: NameIndex | None = None) -> None:
        self.reading = reading
        self.context = _Context()
        self.terms = terms
        self.names = names

    # ------------------------------------------------------------------ entry point
    def _text_wide(self, tokens: list[Token], clause: Clause) -> bool:
        """Read a clause that speaks about the whole text, not one job: a default duration
        (``Count one hour for every operation``) or a moved due (``Make that 6pm``); False
        for any other clause."""
        default = _default_duration(tokens)
        if default is not None:
            self.reading.defaults.append((default, clause.sentence))
            return True
        if not _moves_due(tokens):
            return False
        moved = _moved_due(tokens)
        if moved is None:  # "Make that 5pm if the van is late": never dropped as prose
            self._unread(clause, "a due moved with more than a plain reason", tokens)
        else:
            self.reading.due_moves.append((moved, clause.sentence))
        return True

    def read(self, clause: Clause) -> None:
        """Read one clause: statements go to the reading, or one :class:`Unread`."""
        self._enter(clause)
        led = _led_header_jobs(clause.text) if clause.first_in_sentence else None
        if led is not None and led.jobs is not None:  # "Plan for J1:" over its steps
            for job in led.jobs:
                self.reading.mention_job(job)
            return
        clause = _without_preamble(clause)
        try:
            tokens = drop_politeness(unwrap_each_aside(spread_quantity(drop_field_labels(
                drop_approximations(drop_retracted(plain_connectives(group_asides(
                    tokenize(clause.text), clause.text))))))))
        except UnreadPhrase as exc:
            self._unread(clause, str(exc), [])
            return
        self._note_names(tokens)
        tokens = self._after_last_machine(tokens)
        if self._text_wide(tokens, clause):
            return
        kind = self._classify(tokens, clause)
        for match in _JOB_COUNT_RE.finditer(clause.text):
            count = match.group("n").lower()
            number = int(count) if count.isdigit() else int(NUMBER_WORDS[count])
            self.reading.job_counts.append((number, clause.sentence))
        if kind in ("prose", "machines"):
            for match in _MACHINE_COUNT_RE.finditer(clause.text):
                count = match.group("n").lower()
                number = int(count) if count.isdigit() else int(NUMBER_WORDS[count])
                self.reading.machine_counts.append((number, clause.sentence))
        if kind == "prose":
            return
        if kind == "jobs" and clause.section is not None:
            self._unread(clause, f"it stands under '{clause.section}', which says it is no "
                         "work of this plan", tokens)
            return
        if kind in _REFUSED_KINDS:
            self._unread(clause, _REFUSED_KINDS[kind], tokens)
            return
        if any(s.jobs is None for s in self.reading.routes) and _only_between_machine_and_time(
                tokens):  # beside a route for every job: "weld only 1h" reads two ways
            self._unread(clause, "'only' between a machine and a duration: only that machine, "
                         "or only that long?", tokens)
            return
        if kind == "machines":
            self._read_machines(tokens, clause)
            return
        pending = _Pending(self.reading)
        try:
            self._read_job_clause(Cursor(tokens, self.names), clause, pending, outer=None)
        except (UnreadPhrase, _Unreadable) as exc:
            self._unread(clause, str(exc), tokens)
            return
        pending.commit(self.context)

    def _note_names(self, tokens: list[Token]) -> None:
        """Record the machine names a clause gives next to ids (``M1 (lathe)``, ``the laser
        (M1)``, ``moves to the router, M7, for ...``) for the second reading pass."""
        for index, token in enumerate(tokens[:-1]):
            if token.kind is Kind.MACHINE and is_paren(tokens[index + 1], "name"):
                self.reading.aside_names.append((token.value[0], tokens[index + 1].value.text))
            following = tokens[index + 1]
            if (token.kind in (Kind.WORD, Kind.NUMBER) and is_paren(following, "machines")
                    and len(following.value.machines) == 1):
                name = _name_before(tokens, index + 1)  # "goes on the laser (M1)"
                if name and not set(name.lower().split()) & NOT_NAMES:
                    self.reading.aside_names.append((following.value.machines[0], name))
            if (token.kind is Kind.WORD and following.kind is Kind.COMMA
                    and index + 2 < len(tokens) and tokens[index + 2].kind is Kind.MACHINE
                    and (index + 3 == len(tokens) or tokens[index + 3].kind is Kind.COMMA)):
                name = _name_before(tokens, index + 1)  # "moves to the router, M7, for ..."
                start = index + 1 - len(name.split()) if name else 0
                if (name and start > 1 and tokens[start - 1].is_word("the", "a", "an", "our")
                        and tokens[start - 2].is_word(*PREPOSITIONS)
                        and not set(name.lower().split()) & NOT_NAMES):
                    self.reading.aside_names.append((tokens[index + 2].value[0], name))

    def _after_last_machine(self, tokens: list[Token]) -> list[Token]:
        """``After M5 it goes to M7``: where M5 is the last machine of the route just read
        for the job ``it`` refers to, ``after M5`` is ``after that``; any other machine
        stays as written (and the clause is not read)."""
        if len(tokens) < 3 or not tokens[0].is_word("after") or \
                tokens[1].kind is not Kind.MACHINE:
            return tokens
        subject = self.context.paragraph_subject
        statement = self.context.current.get(subject.jobs) if subject is not None else None
        if statement is None or not statement.steps or \
                statement.steps[-1].machine != tokens[1].value[0]:
            return tokens
        that = Token(Kind.WORD, "that", tokens[1].start, tokens[1].end, "that")
        return [tokens[0], that, *tokens[2:]]

    def _enter(self, clause: Clause) -> None:
        context = self.context
        same_list = clause.item and clause.header is not None and clause.header == context.header
        next_item = clause.item and context.item  # "3. Next, J5 moves to M6" continues
        if clause.paragraph != context.paragraph:
            context.paragraph = clause.paragraph
            if not same_list:
                ended = context.header_subject if context.item and not clause.item else None
                # "J1:" over its numbered steps, then "It ships at 11am.": the list's one job
                context.paragraph_subject = ended if ended is not None and (
                    ended.jobs is not None and len(ended.jobs) == 1) else None
                context.paragraph_jobs = []
                if not next_item:
                    context.current = {}
        context.item = clause.item
        if clause.group != context.group:
            context.group = clause.group
            context.group_subject = None
        if clause.header != context.header:
            context.header = clause.header
            context.header_subject = self._header_subject(clause.header)
            if context.header_subject is not None:
                context.current = {}

    def _header_subject(self, header: str | None) -> Subject | None:
        if header is None:
            return None
        return _header_jobs(header) or _led_header_jobs(header)

    def _unread(self, clause: Clause, reason: str, tokens: list[Token]) -> None:
        self.reading.unread.append(Unread(quote=clause.sentence, reason=reason))
        for token in tokens:
            if token.kind in (Kind.JOB, Kind.JOB_RANGE):
                for job in token.value:
                    self.reading.mention_job(job)

    # ------------------------------------------------------------------ classification
    def _classify(self, tokens: list[Token], clause: Clause) -> str:
        kinds = {t.kind for t in tokens}
        words = {t.value for t in tokens if t.kind is Kind.WORD}
        paren_jobs = any(is_paren(t) and re.search(r"\bJ[0-9_]", t.value.text) for t in tokens)
        counted = {w.lower() for m in _JOB_COUNT_RE.finditer(clause.text)
                   for w in m.group(0).split()[1:]}
        job_words = words & JOB_WORDS
        introduces = clause.text.rstrip().endswith(":")  # "three jobs on M4 and M6:" + list
        if (job_words and job_words <= counted
                and (_MACHINE_COUNT_RE.search(clause.text) or introduces)
                and not words & (ROUTE_VERBS - {"is", "are", "be"}) and not words & MEANING_WORDS
                and not words & {"both", "each", "every", "all", "only", "just"}
                and not kinds & {Kind.DURATION, Kind.CLOCK, Kind.ARROW, Kind.JOB,
                                 Kind.JOB_RANGE}
                and len(list(_JOB_COUNT_RE.finditer(clause.text))) == 1 and not paren_jobs):
            job_words = set()  # "Two jobs today on our three machines M1, M2 and M3": a count
        if _ORDER_HEADING_RE.fullmatch(clause.sentence.strip()) or (
                _DOCUMENT_TITLE_RE.fullmatch(clause.sentence.strip())
                and not kinds & {Kind.MACHINE, Kind.MACHINE_RANGE, Kind.JOB, Kind.JOB_RANGE,
                                 Kind.DURATION, Kind.CLOCK, Kind.ARROW}
                and not {w.lower() for w in words} & (ROUTE_VERBS | MEANING_WORDS | SKIP_VERBS)
                and not (self.names is not None and any(self.names.word(w) for w in words))):
            return "prose"
        if clause.question:  # "can you send me the routes for J5 and J6?": a request
            return "question" if kinds & {Kind.MACHINE, Kind.MACHINE_RANGE, Kind.DURATION,
                                          Kind.CLOCK, Kind.ARROW} else "prose"
        if kinds & {Kind.JOB, Kind.JOB_RANGE} or job_words or paren_jobs:
            return "jobs"
        if is_definition_only(clause.text) and not kinds & {Kind.DURATION, Kind.ARROW}:
            return "prose" if not kinds & {Kind.MACHINE, Kind.MACHINE_RANGE} else "machines"
        cursor = Cursor(tokens)
        cursor.any_sequence(LEADS)
        first = cursor.peek()
        if (first is not None and first.is_word("it", "they")
                and self.context.paragraph_subject is not None):
            return "jobs"
        if clause.item and self.context.header_subject is not None:
            return "jobs"
        machines = kinds & {Kind.MACHINE, Kind.MACHINE_RANGE} or any(
            is_paren(t, "machines") for t in tokens)
        # three tokens are all it looks at (the rest of the clause per token was quadratic)
        unit_list = any(is_unit_label(Cursor(tokens[i:i + 3])) for i in range(len(tokens)))
        route_content = (
            kinds & {Kind.DURATION, Kind.CLOCK, Kind.ARROW}
            or unit_list
            or words & DUE_KEYS
            or any(is_paren(t, "duration") for t in tokens)
        )
        if (route_content and not machines and not clause.item
                and self.context.group_subject is None
                and not kinds & {Kind.DURATION, Kind.ARROW} and not words & _DUE_SIGNALS
                and not unit_list and not any(is_paren(t, "duration") for t in tokens)):
            return "prose"  # "Call me at 3pm if anything is unclear": a time, but no due time
        if (Kind.ARROW in kinds and not machines and not clause.item
                and self.context.group_subject is None
                and self.context.paragraph_subject is None
                and not kinds & {Kind.DURATION, Kind.CLOCK} and not words & _DUE_SIGNALS
                and not any(is_paren(t) for t in tokens)
                and not (self.names is not None and any(self.names.word(w) for w in words))):
            return "prose"  # "Handover night -> morning": an arrow between words, no machine
        if route_content:
            return "jobs"
        if machines and (words & _ORDER_CUES or _route_labelled(tokens)):
            return "jobs"  # "Flow: M1 first, then M2": an order of steps, not a list of machines
        if machines:
            return _refused_prose(words, kinds, clause.text) or "machines"
        if _vague_due(words, kinds):
            return "jobs"  # "Should ship by half past two.": a due time not read
        if _conditions_work(words):
            return "condition"  # "That last step is only needed if the gauge rejects it."
        return _refused_prose(words, kinds, clause.text) or "prose"

    # ------------------------------------------------------------------ jobs
    def _read_job_clause(
        self, cursor: Cursor, clause: Clause, pending: _Pending, outer: RouteStatement | None
    ) -> None:
        standard_label = _standard_label(cursor)
        route_label = cursor.peek_word(*_ROUTE_LABELS) and cursor.peek_kind(Kind.COLON, offset=1)
        if not standard_label:
            _label(cursor)
        self._skip_day(cursor)
        if cursor.done:
            return  # a header line such as "Jobs:" or "Today's orders:"
        continuation = cursor.any_sequence(LEADS) is not None
        if continuation:
            cursor.kind(Kind.COMMA)  # "Next, J5 moves to M6"
        opening = self._opening(cursor, clause, (standard_label, route_label), continuation)
        subject, continuation = opening.subject, opening.continuation
        if continuation and opening.explicit and cursor.peek_kind(Kind.COLON) and (
                self.context.current.get(subject.jobs) is None):
            continuation = False  # "Then J2: M2 1h": the next job, none of its route before
        _after_subject(cursor, subject, opening.explicit)
        if cursor.any_sequence(LEADS) is not None:
            continuation = True
        next_token = cursor.peek()
        if next_token is not None and next_token.is_word(*CONTINUATION_VERBS):
            continuation = True
        if opening.explicit:
            pending.subject(subject)
        if self._declaration(cursor, subject, pending):
            return
        self._body(cursor, clause, subject, pending, outer, continuation, opening.may_start)

    def _skip_day(self, cursor: Cursor) -> None:
        """Consume ``for Monday`` (and a comma) when the text names one day only, and
        ``today`` / ``for today`` before job ids (the plan's own day)."""
        start = cursor.index
        cursor.word({"for"})
        if cursor.word({"today"}) and cursor.peek_kind(Kind.JOB, Kind.JOB_RANGE):
            return
        cursor.index = start
        if cursor.any_sequence(_FROM_NOW_ON) is not None:
            cursor.kind(Kind.COMMA)  # "From now on J152 gets ...": a lasting change
            if cursor.peek_kind(Kind.JOB, Kind.JOB_RANGE):
                return
        cursor.index = start
        if self.terms is not None and self.terms.only_day_forms:
            start = cursor.index  # "for Monday J7 runs ...": the one day the text names
            if not (cursor.word({"for", "on"}) and cursor.word(self.terms.only_day_forms)):
                cursor.index = start
            cursor.kind(Kind.COMMA)

    def _opening(
        self, cursor: Cursor, clause: Clause, labels: tuple[bool, bool], continuation: bool
    ) -> _Opening:
        """Read whom a job clause is about: named jobs (or every job, after a standard-route
        label), a pronoun, or the subject the context gives; ``labels`` says whether the
        clause began with a standard-route label and with a route label (``Route:``).

        Raises:
            _Unreadable: no subject, or steps without one where a subject is needed.
        """
        standard_label, route_label = labels
        subject = Subject(None, LEVEL_ALL) if standard_label else _explicit_subject(cursor)
        if subject is not None and subject.jobs is None and cursor.word({"below"}):
            if self.reading.jobs:  # "J1 ... Everything below ...": J1 is not below
                raise _Unreadable("'below' after jobs named above it")
        if subject is not None:
            return _Opening(subject, True, continuation, False)
        subject = self._pronoun(cursor)
        if subject is not None:
            return _Opening(subject, False, continuation, False)
        if not clause.first_in_sentence and self.context.group_subject is not None:
            continuation = True  # "J4: M6 3h; M7 2h": the sentence's route goes on
        if route_label and not continuation:  # "J714 due 15:00. Route: M213 2h"
            subject = self.context.group_subject
            if subject is None or subject.jobs is None or len(subject.jobs) != 1 or (
                    self.context.current.get(subject.jobs) is not None):
                raise _Unreadable("a route label that does not follow one job on its line")
            return _Opening(subject, False, False, True)
        subject = self._implicit_subject(clause, continuation)
        if subject is None:
            raise _Unreadable("it does not say which job it is about")
        may_start = clause.item and self.context.header_subject is not None
        if not (continuation or may_start) and _starts_route(cursor):
            raise _Unreadable(
                "it gives steps without naming the job (start it with the job id)")
        return _Opening(subject, False, True, may_start)

    def _pronoun(self, cursor: Cursor) -> Subject | None:
        start = cursor.index
        if cursor.word({"it"}) or cursor.sequence("this", "job") or cursor.sequence(
                "that", "job") or cursor.sequence("the", "job"):
            subject = self.context.paragraph_subject
            if subject is None or subject.jobs is None or len(subject.jobs) != 1:
                cursor.index = start
                raise _Unreadable("'it' does not refer to exactly one job named before")
            return subject
        if (cursor.sequence("both", "of", "them") or cursor.sequence("both", "jobs")
                or cursor.word({"both"})):
            jobs = self.context.paragraph_jobs
            if len(jobs) != 2:
                cursor.index = start
                raise _Unreadable("'both' does not refer to two jobs named before")
            return _subject_of(list(jobs))
        if cursor.word({"they"}) or cursor.sequence("these", "jobs"):
            subject = self.context.paragraph_subject
            if subject is None:
                cursor.index = start
                raise _Unreadable("'they' does not refer to jobs named before")
            return subject
        return None

    def _implicit_subject(self, clause: Clause, continuation: bool) -> Subject | None:
        if clause.item and self.context.header_subject is not None:
            return self.context.header_subject
        if self.context.group_subject is None and continuation:
            return self.context.paragraph_subject  # "J1 runs M1 2h." / "Then M2 1h."
        jobs = set(self.context.paragraph_jobs)
        if (self.context.group_subject is None and len(jobs) == 1
                and _DUE_LINE_RE.match(clause.text)):
            return _subject_of(list(jobs))  # "J5: M1 2h" over "Ship date: 17:00", one job
        return self.context.group_subject

    def _declaration(self, cursor: Cursor, subject: Subject, pending: _Pending) -> bool:
        """``Jobs: J1, J2, J3`` / ``Jobs are J1 and J2`` / ``J1 and J2.``: jobs, no route."""
        start = cursor.index
        if cursor.done:
            return subject.jobs is not None
        if subject.jobs is None:
            cursor.word({"are", "include", "today"})
            cursor.kind(Kind.COLON)
            jobs = _job_list(cursor)
            if jobs is not None and cursor.done:
                pending.subject(_subject_of(jobs))
                return True
        cursor.index = start
        return False

    def _body(
        self,
        cursor: Cursor,
        clause: Clause,
        subject: Subject,
        pending: _Pending,
        outer: RouteStatement | None,
        continuation: bool,
        may_start: bool = False,
    ) -> None:
        _drop_operation_labels(cursor)
        body = _Body(cursor, clause, subject, pending, outer, continuation, may_start)
        readers = (
            _body_value_correction,
            self._body_change,
            self._body_standard,
            self._body_same_route,
            self._body_uniform,
            self._body_step_hours,
            _body_route_noun,
            self._body_route,
            self._body_durations,
            self._body_aside,
            _body_too,
        )
        while not cursor.done:
            if _body_separator(body) or self._body_due(body):
                continue
            if cursor.word({"except"}):
                self._except(cursor, clause, subject, pending, body.statement)
                return
            if any(read(body) for read in readers):
                continue
            if body.statement is not None and _next_job_route(cursor):
                # "J1 M1 3h > M2 1h, J2 M2 2h": after a comma a second job and its own route
                rest = Cursor(cursor.tokens[cursor.index:], cursor.names)
                self._read_job_clause(rest, clause, pending, outer=None)
                return
            raise _Unreadable(f"cannot read '{_rest(cursor, clause)}'")

    def _body_due(self, body: _Body) -> bool:
        """Read a due time (``due 14:00``, ``no due time``, ``J1 at 10:00 and J2 at 12:00``)."""
        cursor, subject, pending = body.cursor, body.subject, body.pending
        arrow = cursor.peek()
        if arrow is not None and arrow.kind is Kind.ARROW and body.statement is not None:
            # "M4 3h => ship 4pm": an arrow after the route leads to its due
            start = cursor.index
            cursor.take()
            if self._body_due(body):
                return True
            cursor.index = start
            return False
        if read_no_due(cursor):
            pending.dues.append(DueStatement(subject.jobs, subject.level, None,
                                             body.clause.sentence))
            return True
        hour = read_due(cursor, self.terms)
        if hour is None:
            hour = read_term(cursor, self.terms)
        if hour is None:
            return False
        old = _not_due(cursor)
        if old is not None and (subject.jobs is None or len(subject.jobs) != 1):
            raise _Unreadable("'not <time>' that corrects no single job's due")
        pending.dues.append(DueStatement(subject.jobs, subject.level, hour,
                                         body.clause.sentence, corrects=old))
        if old is not None:
            _reason(cursor)  # "J1 due 5pm not 3pm, customer moved it"
            return True
        for jobs, other in _gapped_dues(cursor, self.terms):
            other_subject = _subject_of(jobs)  # "J1 is due at 10:00 and J2 at 12:00"
            pending.subject(other_subject, context=False)
            pending.dues.append(DueStatement(other_subject.jobs, other_subject.level,
                                             other, body.clause.sentence))
        return True

    def _body_change(self, body: _Body) -> bool:
        """Read an added step or skipped machines (a change to a route given elsewhere)."""
        cursor, subject, pending = body.cursor, body.subject, body.pending
        if body.statement is None and body.fragments == 0 and (
                added := _read_addition(cursor)) is not None:
            pending.modify(subject, body.clause.sentence, add=added[0], add_first=added[1],
                           add_anchor=added[2])
            return True
        skipped = read_skip(cursor)
        if skipped is not None:
            pending.modify(subject, body.clause.sentence, skip=skipped)
            return True
        return False

    def _body_standard(self, body: _Body) -> bool:
        """Read that jobs follow the standard route, or ``normally ... but``."""
        cursor, subject, pending = body.cursor, body.subject, body.pending
        if (subject.jobs is not None and self.context.current.get(None) is not None
                and _follow_it(cursor)):
            # "J7, J8 use it as is" right after the route of every job
            pending.standards.append(StandardStatement(subject.jobs, subject.level,
                                                       body.clause.sentence))
            return True
        if read_follow_standard(cursor):
            if subject.jobs is None:
                if cursor.kind(Kind.COLON) and _starts_route(cursor):
                    return True  # "Every job takes the usual routing: M4 -> M6 ..."
                raise _Unreadable("'every job follows the standard route' names no route")
            pending.standards.append(StandardStatement(subject.jobs, subject.level,
                                                       body.clause.sentence))
            cursor.word({"but"})  # "J3 follows the standard route but skips M3"
            return True
        if body.statement is None and cursor.word({"normally", "usually", "typically"}):
            route = _read_usual_but(cursor)
            body.statement = pending.route(subject, route, body.clause.sentence, body.outer,
                                           body.continuation, self.context, body.may_start)
            body.fragments += 1
            return True
        return False

    def _body_same_route(self, body: _Body) -> bool:
        """Read that the jobs take the route of another job (named, or the one job of the
        sentence before)."""
        cursor, subject, pending = body.cursor, body.subject, body.pending
        source = _same_route_as(cursor)
        agreeing: tuple[str, ...] = ()
        if source is None and (before := self._same_route_as_before(cursor, subject)):
            source, agreeing = before[0], before[1:]
        if source is None:
            return False
        if subject.jobs is None or source in subject.jobs:
            raise _Unreadable("'same route as' needs other jobs named")
        pending.same_routes.append(SameRouteStatement(subject.jobs, source,
                                                      body.clause.sentence,
                                                      agreeing))
        pending.jobs.append(source)
        cursor.word({"but"})
        return True

    def _body_uniform(self, body: _Body) -> bool:
        """Read one duration for every step of the route (``2h each``)."""
        uniform = read_uniform(body.cursor)
        if uniform is None:
            return False
        target = body.statement or self._current(body.subject, body.pending)
        if target is None and self._uniform_default(body, uniform.hours):
            return True
        if target is None:
            raise _Unreadable("a duration for every step, but no route")
        if target.uniform is not None and target.uniform != uniform.hours:
            raise _Unreadable("two different durations for every step")
        target.uniform = uniform.hours
        target.uniform_per_step = uniform.per_step
        return True

    def _uniform_default(self, body: _Body, hours: float) -> bool:
        """Record ``Every job takes 1h per machine`` (``..., unless noted``) as the default
        duration of every step: a duration for every step of every job, and nothing else in
        the clause. False (nothing consumed) when the clause says more."""
        cursor = body.cursor
        if body.subject.jobs is not None or body.fragments or body.outer is not None:
            return False
        start = cursor.index
        while cursor.word(_DEFAULT_TAIL) or cursor.kind(Kind.COMMA):
            pass
        if not cursor.done:
            cursor.index = start
            return False
        self.reading.defaults.append((hours, body.clause.sentence))
        return True

    def _body_step_hours(self, body: _Body) -> bool:
        """Read durations of steps given before (``2h on M1``, ``stays there for 2h``), or
        ``first`` after a one-step route."""
        cursor, statement = body.cursor, body.statement
        assignments = read_assignments(cursor)
        if assignments is None and statement is not None:
            assignments = read_step_assignment(cursor)
        if assignments is not None:
            _assign(statement or self._current(body.subject, body.pending), assignments)
            return True
        there = read_there(cursor)
        if there is not None:
            target = statement or self._current(body.subject, body.pending)
            if not there[1] and (target is None or len(target.steps) != 1):
                raise _Unreadable("a duration without 'there' after a route of several "
                                  "steps (for the last step or for all of them?)")
            _assign_last(target, there[0])
            return True
        # "J5 is set up on M6 first"
        return (statement is not None and len(statement.steps) == 1
                and statement.steps[0].hours is None and cursor.word({"first"}) is not None)

    def _body_route(self, body: _Body) -> bool:
        """Read a route fragment: the clause's route, its continuation (``then ...``) or a
        machine that replaces a step (``M5 instead of M4``)."""
        cursor, statement = body.cursor, body.statement
        then = statement is not None and cursor.any_sequence(LEADS) is not None
        instead = statement is None and body.fragments == 0 and _instead_route(cursor)
        route = read_route(cursor, continuing=body.continuation or then)
        if (route is None and statement is None and body.fragments == 0
                and not body.continuation):
            route = _paren_route(cursor)  # "J81 (M51 2h, M52 1h) and J82 (M52 2h)"
        if instead and (route is None or len(route.steps) < 2):
            # "J2 instead goes to M5": which step M5 replaces is not said
            raise _Unreadable("'instead' with one machine does not say which step it "
                              "replaces")
        if route is None:
            return False
        if then and statement is not None:
            if route.all_machines or statement.all_machines:
                raise _Unreadable("'all machines' cannot be continued")
            statement.steps += route.steps  # "stays there for 2h, then moves to M2"
            body.pending.names += route.names or []
            body.pending.machines += [step.machine for step in route.steps]
            return True
        replaced = read_instead_of(cursor)
        if replaced is not None:
            _replace_step(body, route, replaced)
            return True
        self._start_route(body, route)
        return True

    def _start_route(self, body: _Body, route: Route) -> None:
        """Make ``route`` the clause's route statement (one per clause), with a correction
        (``3h on M1, not 2h``) when one follows."""
        body.fragments += 1
        if body.fragments > 1:
            raise _Unreadable("two separate routes in one sentence")
        subject = body.subject
        statement = body.pending.route(subject, route, body.clause.sentence, body.outer,
                                       body.continuation, self.context, body.may_start)
        body.statement = statement
        old = _not_hours(body.cursor)
        if old is not None:  # "J1 needs 3h on M1, not 2h": a correction
            if (len(statement.steps) != 1 or statement.steps[0].hours is None
                    or subject.jobs is None or len(subject.jobs) != 1
                    or body.outer is not None or body.continuation):
                raise _Unreadable("'not' or 'instead of' <duration> that corrects no single step")
            statement.corrects = old
            statement.override = False

    def _body_durations(self, body: _Body) -> bool:
        """Read a list of durations for the route's steps, or a sequence marker."""
        cursor = body.cursor
        durations = read_duration_list(cursor)
        if durations is None:
            return read_sequence_marker(cursor)
        target = body.statement or self._current(body.subject, body.pending)
        values, respectively = durations
        if (target is not None and len(values) == 1 and not respectively
                and len(target.steps) > 1 and target.steps[-1].hours is None
                and all(step.hours is not None for step in target.steps[:-1])):
            target.steps[-1].hours = values[0]  # the one duration the last step lacked
            return True
        _respective(target, *durations)
        return True

    def _body_aside(self, body: _Body) -> bool:
        """Read an aside (an excluded machine, a due time in parentheses) or a filler word."""
        cursor = body.cursor
        token = cursor.peek()
        assert token is not None
        if is_paren(token, "exclude"):
            cursor.take()
            _exclude(body.statement, token.value.machines)
            return True
        if is_paren(token, "other") and (hour := _due_aside(token, self.terms)) is not None:
            cursor.take()  # "M6 2h (due 11:30)"
            body.pending.dues.append(DueStatement(body.subject.jobs, body.subject.level, hour,
                                                  body.clause.sentence))
            return True
        excluded = _excluded_by_name(token, self.names)
        if excluded is not None:
            cursor.take()  # "M5 1h, M7 2h (no drilling)": the drill is not in the route
            _exclude(body.statement, (excluded,))
            return True
        if token.kind is Kind.WORD and token.value in FILLERS:
            cursor.take()
            return True
        return False

    def _same_route_as_before(self, cursor: Cursor, subject: Subject
                              ) -> tuple[str, ...] | None:
        """Read ``same route`` (or ``is the same``) without naming the other job: the jobs
        the sentence before is about (``J4: M6 3h, M7 2h.`` / ``J5 same route but 1h on
        M6``); the first gives the route, the others must have the same."""
        start = cursor.index
        verb = cursor.word({"takes", "take", "follows", "follow", "uses", "use", "has", "runs",
                            "is", "are"})
        cursor.word({"the"})
        noun = cursor.word({"same"}) and cursor.word(
            {"route", "routing", "path", "flow", "steps"})
        if noun is None and verb in {"is", "are"} and cursor.tokens[cursor.index - 1].is_word(
                "same") and cursor.peek_word("but") and cursor.peek_word(
                    "without", "not", "no", "doesn't", *SKIP_VERBS, offset=1):
            noun = "same"  # "J3 is the same but without M4": the route of the jobs before
        if noun is None and verb is None:
            cursor.index = start
            if start > 0 and cursor.tokens[start - 1].kind is Kind.COLON and cursor.word(
                    {"same"}):
                noun = "same"  # "J5: same, due 3pm": the route of the job before
        if noun:
            following = cursor.peek()
            before = self.context.paragraph_subject
            if (following is None or following.kind is Kind.COMMA or following.is_word("but"))\
                    and before is not None and before.jobs is not None \
                    and not set(before.jobs) & set(subject.jobs or ()):
                return before.jobs
        cursor.index = start
        return None

    def _current(self, subject: Subject, pending: _Pending) -> RouteStatement | None:
        return pending.current.get(subject.jobs) or self.context.current.get(subject.jobs)

    def _except(
        self,
        cursor: Cursor,
        clause: Clause,
        subject: Subject,
        pending: _Pending,
        statement: RouteStatement | None,
    ) -> None:
        """``except J2, which goes M1 -> M4`` / ``except that J2 skips M2``."""
        if subject.jobs is not None and subject.level == LEVEL_ONE:
            raise _Unreadable("an exception in a sentence about one job")
        said = pending.routes or pending.dues or pending.modifications or pending.standards
        following = cursor.peek()
        if statement is None and subject.jobs is None and not said and not (
                following is not None and following.is_word("that")):
            # "All orders except J2 go M1 -> M2": every job but those, which need their own
            cursor.word({"for"})
            left_out = _job_list(cursor)
            if left_out is None:
                raise _Unreadable(f"cannot read the exception '{_rest(cursor, clause)}'")
            pending.subject(_subject_of(left_out), context=False)
            cursor.kind(Kind.COMMA)
            before = len(pending.routes)
            self._body(cursor, clause, subject, pending, None, continuation=False)
            generic = [r for r in pending.routes[before:] if r.jobs is None]
            if not generic:
                raise _Unreadable("an exception before a route that does not follow")
            for route in generic:
                route.except_jobs = tuple(left_out)
            return
        if cursor.word({"that"}):
            self._read_job_clause(cursor, clause, pending, outer=statement)
            return
        cursor.word({"for"})
        jobs = _job_list(cursor)
        if jobs is None:
            raise _Unreadable(f"cannot read the exception '{_rest(cursor, clause)}'")
        inner = _subject_of(jobs)
        pending.subject(inner, context=False)
        cursor.kind(Kind.COMMA)
        cursor.word({"which", "who", "that", "where"})
        cursor.word({"it", "they"})
        if cursor.done:
            raise _Unreadable(f"the sentence does not say what {', '.join(jobs)} do instead")
        self._body(cursor, clause, inner, pending, statement, continuation=False)

    # ------------------------------------------------------------------ machines
    def _read_machines(self, tokens: list[Token], clause: Clause) -> None:
        if _limits_hours(tokens):  # "M2 is only available after lunch"
            self._unread(clause, "it limits when the machine works, which the configuration "
                         "cannot carry", tokens)
            return
        ids: list[str] = []
        names: dict[str, str] = {}
        labelled = (
            any(t.kind is Kind.COLON for t in tokens)
            and tokens[0].kind is Kind.WORD
            and tokens[0].value in MACHINE_WORDS
        )
        for index, token in enumerate(tokens):
            if token.kind is Kind.MACHINE_RANGE or is_paren(token, "machines"):
                ids += token.value if token.kind is Kind.MACHINE_RANGE else token.value.machines
                if is_paren(token) and len(token.value.machines) == 1:
                    name = _name_before(tokens, index)
                    if name:
                        names.setdefault(token.value.machines[0], name)
            elif is_paren(token, "other") and len(token.value.machines) == 1 and re.fullmatch(
                    r"(?i)(?:that's|that is|aka|i\.e\.|ie|=)\s*M\S+", token.value.text):
                machine = token.value.machines[0]  # "a band saw (that's M1)"
                ids.append(machine)
                name = _name_before(tokens, index)
                if name:
                    names.setdefault(machine, name)
            elif token.kind is Kind.MACHINE:
                machine = token.value[0]
                ids.append(machine)
                name = _machine_name(tokens, index, labelled) or _name_equals(tokens, index)
                if name:
                    names.setdefault(machine, name)
        words = {t.value for t in tokens if t.kind is Kind.WORD}
        if clause.item and clause.header:  # "- M1 (saw)" under "Machines:"
            words |= {t.value for t in tokenize(clause.header) if t.kind is Kind.WORD}
        unique = list(dict.fromkeys(ids))
        mention = MachineMention(
            ids=unique,
            names=names,
            inventory=bool(words & (MACHINE_WORDS | INVENTORY_WORDS)) or len(unique) >= 2,
            out_of_service=_out_of_service(tokens, clause.text),
            quote=clause.sentence,
        )
        self.reading.machines.append(mention)


# --------------------------------------------------------------------------- helpers

#: Words that bound a machine's working time (with a part of the day or a clock time).
_BOUND_WORDS = frozenset({"available", "availability", "only", "after", "before", "until",
                          "till", "from", "runs", "works", "open", "staffed", "manned"})
_DAY_PARTS = frozenset({"lunch", "noon", "midday", "morning", "afternoon", "evening", "night",
                        "shift", "break", "am", "pm"})


def _limits_hours(tokens: list[Token]) -> bool:
    """True when a sentence about machines bounds the hours one works (``M2 is only
    available after lunch``, ``M3 runs in the afternoon only``); ``down until 10:00`` and a
    machine out of service are read as such elsewhere."""
    words = {t.value for t in tokens if t.kind is Kind.WORD}
    timed = bool(words & _DAY_PARTS) or any(t.kind is Kind.CLOCK for t in tokens)
    return timed and bool(words & _BOUND_WORDS) and not _OUT_OF_SERVICE_RE.search(
        " ".join(t.text for t in tokens))


@dataclass
class _Pending:
    """Statements of one clause, committed only when the whole clause was read."""

    reading: Reading
    routes: list[RouteStatement] = field(default_factory=list)
    dues: list[DueStatement] = field(default_factory=list)
    modifications: list[ModifyStatement] = field(default_factory=list)
    standards: list[StandardStatement] = field(default_factory=list)
    same_routes: list[SameRouteStatement] = field(default_factory=list)
    names: list[tuple[str, str]] = field(default_factory=list)
    jobs: list[str] = field(default_factory=list)
    machines: list[str] = field(default_factory=list)
    current: dict[tuple[str, ...] | None, RouteStatement] = field(default_factory=dict)
    subjects: list[Subject] = field(default_factory=list)
    value_corrections: list[ValueCorrection] = field(default_factory=list)

    def subject(self, subject: Subject, *, context: bool = True) -> None:
        """Record the jobs a clause names (and its subject for later pronouns)."""
        self.jobs += list(subject.jobs or [])
        if context:
            self.subjects.append(subject)

    def modify(
        self,
        subject: Subject,
        quote: str,
        *,
        skip: tuple[str, ...] = (),
        replace: tuple[str, str] | None = None,
        hours: float | None = None,
        add: StepSpec | None = None,
        add_first: bool = False,
        add_anchor: tuple[str, str] | None = None,
    ) -> None:
        """Record a skip, a replacement or an added step for the subject's jobs."""
        if subject.jobs is None:
            raise _Unreadable("a change to the route of every job is not a route")
        self.modifications.append(ModifyStatement(subject.jobs, subject.level, quote,
                                                  skip=skip, replace=replace, hours=hours,
                                                  add=add, add_first=add_first,
                                                  add_anchor=add_anchor))
        self.machines += [*skip, *(replace or ()), *([add.machine] if add else [])]

    def route(
        self,
        subject: Subject,
        route: Route,
        quote: str,
        outer: RouteStatement | None,
        continuation: bool,
        context: _Context,
        may_start: bool = False,
    ) -> RouteStatement:
        """Start a route statement or extend the subject's current one.

        A continuation ("Then it moves to M3", "J2 then goes to M4") needs a route of that
        job read before in the same paragraph (or list): continuing the standard route is
        not something the reader guesses.
        """
        steps = list(route.steps)
        self.names += route.names or []
        self.machines += [step.machine for step in steps]
        existing = self.current.get(subject.jobs) or (
            context.current.get(subject.jobs) if continuation else None
        )
        if continuation and existing is not None:
            if route.all_machines or existing.all_machines:
                raise _Unreadable("'all machines' cannot be continued")
            existing.steps += steps
            return existing
        if continuation and not may_start:
            jobs = ", ".join(subject.jobs or ("every job",))
            raise _Unreadable(f"it continues a route of {jobs} that was not given before")
        statement = RouteStatement(
            jobs=subject.jobs,
            level=subject.level,
            steps=steps,
            quote=quote,
            all_machines=route.all_machines,
            outer=outer,
            override=(route.duration_first and len(steps) == 1 and subject.level == LEVEL_ONE),
            # "except J3, which needs 3h on M2": a duration for a step of the route the
            # exception belongs to, never a route of its own
            override_only=(route.duration_first and len(steps) == 1 and outer is not None),
        )
        self.routes.append(statement)
        self.current[subject.jobs] = statement
        return statement

    def commit(self, context: _Context) -> None:
        """Add everything to the reading and update the context."""
        reading = self.reading
        for job in self.jobs:
            reading.mention_job(job)
        reading.routes += self.routes
        reading.dues += self.dues
        reading.modifications += self.modifications
        reading.standards += self.standards
        reading.same_routes += self.same_routes
        reading.value_corrections += self.value_corrections
        for machine in self.machines:
            reading.mention_route_machine(machine)
        reading.machine_names += self.names
        context.current.update(self.current)
        if self.subjects:
            context.paragraph_subject = self.subjects[-1]
            context.group_subject = self.subjects[-1]
        for subject in self.subjects:
            for job in subject.jobs or ():
                if job not in context.paragraph_jobs:
                    context.paragraph_jobs.append(job)


_EASY = frozenset({"simple", "simpler", "easy", "easier", "short", "shorter", "quick",
                   "quicker", "straightforward"})
_ONLY = (("and", "nothing", "else"), ("nothing", "else"), ("and", "that's", "it"),
         ("thats", "it"), ("and", "thats", "it"),
         ("and", "that", "is", "it"), ("and", "it's", "done"), ("and", "it", "is", "done"),
         ("it's", "done"), ("and", "done"), ("that's", "it"), ("that", "is", "it"))
PERIOD_WORDS = (("this", "week"), ("this", "shift"), ("this", "morning"), ("tonight",),
                ("this", "afternoon"), ("as", "usual"), ("as", "always"))
_DASHES = frozenset({"-", "–", "—", "|"})  # "J4 → M6 (3h) → M7 (2h) | ship 4pm"


def _dash(cursor: Cursor) -> bool:
    """Consume a dash standing between parts of a clause ("M2 1h - by 14:00")."""
    token = cursor.peek()
    if token is not None and token.kind is Kind.OTHER and token.text in _DASHES:
        cursor.take()
        return True
    return False


_LABEL_VERBS = ROUTE_VERBS - {"is", "are", "be", "then"}


_STANDARD_WORDS = frozenset({"standard", "default", "normal", "usual", "common", "general"})
_ROUTE_NOUNS = frozenset({"route", "routing", "flow", "sequence", "path", "process"})


_ROUTE_LABELS = frozenset(_ROUTE_NOUNS | {"steps", "operations", "ops"})


def _standard_label(cursor: Cursor) -> bool:
    """Read a ``Standard route:`` label or ``the standard route is`` (the route that follows
    is every job's)."""
    start = cursor.index
    cursor.word({"the", "our"})
    if cursor.word(_STANDARD_WORDS) and cursor.word(_ROUTE_NOUNS) and (
            cursor.kind(Kind.COLON) or cursor.word({"is"})):
        if _starts_route(cursor):
            return True
    cursor.index = start
    return False


# words before a job that put it out of the plan: a status (not 'not', which may be about
# something else: "Not a full list here - J4 runs on M2"; not another day, which before the
# jobs is the plan's own: "For tomorrow: J1 ...")
_NOT_TO_PLAN = STATUS_WORDS - {"not"}


#: A word that announces a change to what was said before, as a label (``Correction:``, or
#: ``correction,`` / ``sorry`` before a job id).
_AMENDMENT_LEADS = ("correction", "update", "amendment", "edit", "change", "sorry", "oops")


#: Words that put machines in an order: a sentence of machines with one is a route.
_ORDER_CUES = frozenset({"then", "afterwards", "thereafter"})


def _route_labelled(tokens: list[Token]) -> bool:
    """Whether the tokens start with a route noun and a colon (``Flow:``, ``Route:``)."""
    return len(tokens) > 1 and tokens[0].is_word(*_ROUTE_NOUNS) and tokens[1].kind is Kind.COLON


def _label(cursor: Cursor) -> None:
    """Skip a leading label such as ``Jobs today:`` (words only, then a colon)."""
    if is_unit_label(cursor):
        return  # "Hours: 2, 1" gives the durations, it is no label
    if _route_labelled(cursor.tokens[cursor.index:]):
        cursor.index += 2  # "Flow: every job goes M1 first, then M2" ("flow" is no verb here)
        return
    if cursor.peek_word(*_AMENDMENT_LEADS):
        comma = 1 if cursor.peek_kind(Kind.COMMA, offset=1) else 0
        if cursor.peek_kind(Kind.JOB, offset=1 + comma):
            cursor.index += 1 + comma  # "correction, J1 is 3h on M2", "sorry J1 is 90 not 45"
            return
    index = 0
    while (token := cursor.peek(index)) is not None and token.kind in (Kind.WORD, Kind.NUMBER):
        if token.kind is Kind.WORD and (token.value in MEANING_WORDS or token.value in DUE_KEYS):
            return
        if token.kind is Kind.WORD and token.value in _LABEL_VERBS:
            return  # "All jobs follow the standard flow: M1 -> M2" is a sentence, not a label
        if token.kind is Kind.WORD and token.value in _NOT_TO_PLAN:
            return  # "Done: J1 M1 2h", "Next week: J1 ...": no label to skip
        if token.kind is Kind.WORD and token.value in DUE_KEYS_NEED_BY and cursor.peek_word(
                "date", "time", "by", "at", offset=index + 1):
            return  # "Ship date: 17:00" gives a due time, it is no label
        index += 1
    token = cursor.peek(index)
    if index and token is not None and token.kind is Kind.COLON:
        words = [t.value for t in cursor.tokens[cursor.index:cursor.index + index]]
        if len(words) > 2 and words[0] in _ROUTE_LABELS and words[1] in {"for", "of"}:
            words = words[2:]  # "Route for all jobs: M1 > M2 > M3"
        if words[0] in {"every", "each", "all"} and set(words) & (JOB_WORDS | GENERIC_JOB_NOUNS):
            after = Cursor(cursor.tokens[cursor.index + index + 1:], cursor.names)
            if _starts_route(after):
                return  # "All jobs: M1 -> M2 -> M3" says who the route is for
        cursor.index += index + 1


def _for_jobs_we_need(cursor: Cursor) -> Subject | None:
    """Read ``For J2 we need`` (the cursor stays before ``need``, the route verb); None
    elsewhere."""
    if cursor.word({"for"}):
        jobs = _job_list(cursor)
        if jobs is not None and cursor.word({"we", "you"}) and cursor.peek_word(
                "need", "use", "require"):
            return _subject_of(jobs)
    return None


_REQUEST_VERBS = frozenset({"add", "plan", "schedule", "include"})


def _request_lead(cursor: Cursor) -> Subject | None:
    """Read ``Please add J2 as well:`` / ``Also plan J2, J3:`` (a request that leads to the
    jobs' routes after a colon); None elsewhere."""
    cursor.word({"please", "pls", "kindly"})
    cursor.word({"also"})
    if cursor.word(_REQUEST_VERBS) is None:
        return None
    cursor.word({"also"})
    jobs = _job_list(cursor)
    if jobs is None:
        return None
    if cursor.word({"as"}) is not None and cursor.word({"well"}) is None:
        return None
    cursor.word({"too", "also"})
    return _subject_of(jobs) if cursor.peek_kind(Kind.COLON) else None


def _led_subject(cursor: Cursor) -> Subject | None:
    """Read jobs after a lead (``Please add J2 as well:``, ``For J2 we need``); None (the
    cursor where it was) elsewhere."""
    start = cursor.index
    for read in (_request_lead, _for_jobs_we_need):
        cursor.index = start
        subject = read(cursor)
        if subject is not None:
            return subject
    cursor.index = start
    return None


def _explicit_subject(cursor: Cursor) -> Subject | None:
    """Read a subject that names jobs or says "every job"."""
    start = cursor.index
    cursor.word({"the"})
    if cursor.word({"route", "routing"}) and cursor.word({"for", "of"}):
        jobs = _job_list(cursor)
        if jobs is not None:
            cursor.word({"is"})
            return _subject_of(jobs)
        if cursor.word({"every", "each", "all"}) and cursor.word(JOB_WORDS | GENERIC_JOB_NOUNS):
            cursor.word({"is"})
            return Subject(None, LEVEL_ALL)  # "Route for all jobs: M1 > M2 > M3"
    cursor.index = start
    subject = _led_subject(cursor)
    if subject is not None:
        return subject
    cursor.index = start
    if cursor.word({"everything"}) and not cursor.word({"else"}):
        return Subject(None, LEVEL_ALL)  # "Everything must be finished by 6am"
    cursor.index = start
    while cursor.word(GENERIC_DETERMINERS):
        pass
    job_word = cursor.word(JOB_WORDS)
    jobs = _job_list(cursor)
    if jobs is not None:
        if len(jobs) == 1 and (is_paren(cursor.peek(), "name") or _job_label(cursor)):
            cursor.take()  # "J1 (hub):" / "J1 (bracket 200x40):" names the job
        elif len(jobs) == 1:
            _equals_name(cursor)  # "J4 = pump housing: M6 2h"
        if cursor.kind(Kind.POSSESSIVE):
            if cursor.word({"route", "routing", "path", "sequence", "steps"}):
                cursor.word({"is", "are"})
            elif not cursor.peek_word(*DUE_KEYS):
                raise _Unreadable("cannot read the possessive after the job id")
        cursor.word(DISTRIBUTIVE)
        return _subject_of(jobs)
    determined = any(t.is_word("every", "each", "all") for t in cursor.tokens[start:cursor.index])
    if job_word is None and determined:
        job_word = cursor.word(GENERIC_JOB_NOUNS)
    if job_word is not None and (job_word.endswith("s") or determined):
        cursor.word(DISTRIBUTIVE)
        return Subject(None, LEVEL_ALL)
    cursor.index = start
    return None


_DEFAULT_LEAD = frozenset({
    "assume", "assuming", "default", "by", "is", "the", "plan", "count", "figure", "use",
    "standard", "we", "can", "please", "so", "duration", "durations", "time", "takes", "take",
    "lasts", "last", "are", "usually", "normally", "typically", "of", "as", "a", "rule",
})
_DEFAULT_TAIL = frozenset({
    "unless", "i", "we", "you", "say", "said", "state", "stated", "note", "noted", "specify",
    "specified", "given", "otherwise", "it", "is", "not", "listed", "written", "shown", "where",
    "when", "if", "no", "other", "duration", "time", "mentioned", "marked", "else",
})
_EVERY_STEP = (("every", "step"), ("each", "step"), ("all", "steps"), ("every", "operation"),
               ("each", "operation"), ("all", "operations"), ("per", "step"),
               ("per", "operation"), ("a", "step"), ("an", "operation"), ("per", "op"),
               ("for", "every", "step"), ("for", "each", "step"), ("on", "each", "step"),
               ("for", "every", "operation"), ("for", "each", "operation"), ("per", "stage"),
               ("each", "stage"), ("every", "stage"), ("all", "stages"), ("steps",),
               ("operations",))


def _default_duration(tokens: list[Token]) -> float | None:
    """The hours of a sentence that states one duration for every step and nothing else
    ("Count one hour for every operation", "Each step takes one hour")."""
    if any(t.kind not in (Kind.WORD, Kind.DURATION, Kind.COMMA, Kind.COLON) for t in tokens):
        return None
    durations = [i for i, t in enumerate(tokens) if t.kind is Kind.DURATION]
    if len(durations) != 1:
        return None
    colons = [i for i, t in enumerate(tokens) if t.kind is Kind.COLON]
    if colons and (len(colons) > 1 or colons[0] != durations[0] - 1):
        return None  # only a label's colon: "Default time per operation: 1 hour"
    cursor = Cursor(tokens)
    every = False
    if tokens[0].is_word("unless"):  # "Unless noted, every step is two hours"
        cursor.take()
        while cursor.word(_DEFAULT_TAIL):
            pass
        if not cursor.kind(Kind.COMMA):
            return None
    while cursor.index < durations[0]:
        if cursor.any_sequence(_EVERY_STEP) is not None:
            every = True
        elif not (cursor.word(_DEFAULT_LEAD) or cursor.kind(Kind.COMMA)
                  or cursor.kind(Kind.COLON)):
            return None
    hours = cursor.take().value
    if cursor.any_sequence(_EVERY_STEP) is not None:
        every = True
    elif every and cursor.word({"each", "apiece"}):
        pass  # "Steps take an hour each unless stated"
    while not cursor.done:
        if not (cursor.word(_DEFAULT_TAIL) or cursor.kind(Kind.COMMA)):
            return None
    return hours if every else None


_THIS_TIME = (("this", "week"), ("today",), ("this", "time"), ("now",), ("for", "now"),
              ("this", "shift"), ("tomorrow",))


def _read_usual_but(cursor: Cursor) -> Route:
    """After ``normally``: ``runs M5 -> M6 but today it goes M5 -> M7 instead``; the
    route that holds now (the usual one is only context).

    Raises:
        _Unreadable: anything but that shape (a usual route and nothing else is no route).
    """
    usual = read_route(cursor)
    cursor.kind(Kind.COMMA)  # "normally runs M6 → M8, but for now it runs M6 → M9 instead"
    if usual is None or not cursor.word({"but"}):
        raise _Unreadable("'normally' without the route that holds instead")
    now = cursor.any_sequence(_THIS_TIME) is not None
    cursor.kind(Kind.COMMA)
    cursor.word({"it", "they"})
    route = read_route(cursor)
    if route is None:
        raise _Unreadable("'normally ... but' without the route that holds instead")
    instead = cursor.word({"instead"}) is not None
    if not (now or instead):
        raise _Unreadable("'normally ... but ...' does not say which route holds now")
    return route


# a line that starts with a word that only names a due time (not "ready at", which may be
# when material is ready): under the one job of its paragraph, that job's due time
_DUE_LINE_RE = re.compile(r"(?i)^(?:due|deadline|ship(?:s|ping)?\s+(?:date|time|by))\b")
_DUE_SIGNALS = frozenset(DUE_KEYS | DUE_KEYS_NEED_BY | {
    "by", "before", "until", "till", "latest", "eod", "cob", "eob", "everything", "all",
    "each", "every", "it", "they", "them", "both", "must", "should", "then", "next", "after",
    "shift", "out", "go", "goes", "leave", "leaves", "pickup", "truck", "end", "close"})
_MACHINE_COUNT_RE = re.compile(
    r"(?i)\b(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
    r"(?:machines|work ?centers|work ?centres|stations)\b")
# "Sales order 4410", "Order 3390 - two jobs:", "PO #88 (Kestrel Ltd)": a heading over the
# order's job lines that says nothing about routes or times
_ORDER_HEADING_RE = re.compile(
    r"(?i)(?:sales\s+|purchase\s+|customer\s+)?(?:order|po|so)\s*(?:no\.?|nr\.?|#)?\s*\d+"
    r"(?:\s*\([^()]*\))?(?:\s*[-\u2013:,]\s*(?:\d+|one|two|three|four|five|six|seven|eight|"
    r"nine|ten)\s+(?:jobs|lines|items))?\s*:?"
)
_CONDITION_LEADS = frozenset({"if", "unless", "only", "whenever", "otherwise"})
#: Words of a sentence without ids that still speak of the work's steps.
_WORK_WORDS = frozenset({"step", "steps", "operation", "operations", "route", "routing",
                         "rework", "re-work", "redo", "again", "skip", "skipped", "repeat",
                         "repeated", "back", "fail", "fails", "failed", "reject", "rejects",
                         "rejected", "pass", "passes", "scrap", "scrapped", "defective"})


def _conditions_work(words: set[str]) -> bool:
    """A sentence without ids that makes steps depend on something (``Skip the last step if
    the parts pass.``, ``Only if the parts fail.`` after a rework step): a planner cannot
    schedule it as certain, so it is never skipped as prose."""
    lowered = {word.lower() for word in words}
    return bool(lowered & _CONDITION_LEADS) and bool(lowered & _WORK_WORDS)


#: A title line naming a document of jobs (``Work order export``, ``Open jobs list``,
#: ``Dispatch report - line 4``): words only, the last a kind of document; it says nothing
#: about any job.
_DOCUMENT_TITLE_RE = re.compile(
    r"(?i)(?:[a-z]+\s+){0,3}(?:export|extract|list|report|dump|printout|overview|summary)"
    r"(?:\s*[-\u2013:]\s*[a-z]+(?:\s+[a-z0-9]+){0,2})?\s*:?"
)
_JOB_COUNT_RE = re.compile(
    r"(?i)\b(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
    r"(?:jobs|orders|work orders)\b")
_PREAMBLE_RE = re.compile(r"^(?P<pre>[^|]+?)\s+[-–—]\s+(?P<rest>J(?:[0-9]|_[A-Z0-9]).*)$")
_GREETING_RE = re.compile(r"(?i)^(?:hi|hello|hey|dear|morning|good morning)(?: [a-z]+)?,\s+"
                          r"(?P<rest>\S.*)$")


# words of a time of day written without a clock ("half past two", "by lunchtime")
_TIME_WORDS = frozenset({
    "half", "quarter", "past", "o'clock", "oclock", "noon", "midday", "midnight", "morning",
    "afternoon", "evening", "lunch", "lunchtime", "eod", "cob", "eob", "tonight", "tomorrow",
}) | frozenset(NUMBER_WORDS)


def _vague_due(words: set[str], kinds: set[Kind]) -> bool:
    """Whether a sentence without ids says when something is due in words the due grammar
    does not read (``Should ship by half past two``): a due word, ``by``/``before``,
    and a time of day in words or numbers. Such a sentence is reported, never skipped as
    prose (``Material is ready by Monday`` names no time of day: prose)."""
    return bool(words & (DUE_KEYS | DUE_KEYS_NEED_BY) and words & {"by", "before", "at"}
                and (words & _TIME_WORDS or Kind.NUMBER in kinds))


def _header_jobs(header: str) -> Subject | None:
    """The jobs a heading line names (``J1:``, ``J1 (hub):``, ``J1 route:``), or None."""
    text = header.rstrip(":")
    try:
        cursor = Cursor(group_asides(tokenize(text), text))
    except UnreadPhrase:
        return None
    _label(cursor)
    try:
        subject = _explicit_subject(cursor)
    except _Unreadable:
        return None  # the header line itself is read (and reported) as a clause
    if subject is None or subject.jobs is None:
        return None
    return subject if all(t.kind is Kind.COLON or t.is_word("route", "routing", "steps")
                          or is_paren(t, "name")  # "J1 (hub):"
                          for t in cursor.tokens[cursor.index:]) else None


_HEADER_LEADS = (("the", "plan", "for"), ("plan", "for"), ("steps", "for"), ("route", "for"),
                 ("routing", "for"), ("operations", "for"), ("for",))
_HEADER_TAIL = frozenset({"please", "pls", "plan", "schedule"})


def _led_header_jobs(header: str) -> Subject | None:
    """The jobs of a heading that leads to them (``Plan for J1:``, ``for J1 please plan:``,
    after a greeting): words only around the job ids and a colon at the end; None
    elsewhere."""
    text = header.strip()
    greeting = _GREETING_RE.match(text)
    if greeting is not None:
        text = greeting.group("rest")
    if not text.endswith(":"):
        return None
    try:
        cursor = Cursor(tokenize(text[:-1]))
    except UnreadPhrase:
        return None
    if cursor.any_sequence(_HEADER_LEADS) is None:
        return None
    try:
        subject = _explicit_subject(cursor)
    except _Unreadable:
        return None
    if subject is None or subject.jobs is None:
        return None
    while cursor.word(_HEADER_TAIL) is not None:
        pass
    return subject if cursor.done else None


#: Words that name a unit of time: a sentence of them and no number gives the unit of numbers
#: written elsewhere.
_UNIT_WORDS = frozenset({"minutes", "minute", "mins", "min", "seconds", "secs", "hours", "hrs",
                         "hour"})
#: Words that strike out, hold or skip work.
_STRUCK_WORDS = frozenset({"cancelled", "canceled", "postponed", "hold", "delayed", "withdrawn",
                           "void", "scrapped"})
_NEGATIONS = frozenset({"no", "not", "nothing", "none", "never"})
#: The reason each kind of clause the reader refuses is not read.
_REFUSED_KINDS = {
    "condition": "a condition on the work, which the configuration cannot carry",
    "question": "a question, not a statement",  # "J1 ships by 2pm?": asked, not stated
    # "All times in minutes": which numbers, and said where?
    "unit": "it gives a unit for numbers written elsewhere, which the reader cannot tie to them",
    # "cancelled" over a list, "skip M2 this week"
    "struck": "it says work is struck out, held or skipped, and not which step of which job",
}


def _refused_prose(words: set[str], kinds: set[Kind], text: str) -> str | None:
    """The refused kind of a clause that would otherwise be dropped as prose or read as a list
    of machines: it strikes out, holds or skips work (``skip M2 this week``, ``cancelled`` over
    a list), or, holding no number, gives a unit for numbers written elsewhere
    (``All times in minutes``, unless a table's caption took it); None when it does neither."""
    lowered = {word.lower() for word in words}
    if lowered & (_STRUCK_WORDS | SKIP_VERBS) and not lowered & _NEGATIONS and not (
            text.rstrip().endswith(":")):  # a heading ("Cancelled:") puts its lines out
        return "struck"  # "Cancelled: nothing this week" strikes nothing out
    if lowered & _UNIT_WORDS and not kinds & {Kind.NUMBER, Kind.DURATION, Kind.CLOCK}:
        return "unit"  # also after a list of machines: "Machines: M1, M2 all times in minutes"
    return None


def _only_between_machine_and_time(tokens: list[Token]) -> bool:
    """Whether ``only`` / ``just`` stands between a machine (its id or a word naming it) and
    a duration (``weld only 1h``): after a route for every job, the job may visit that
    machine alone, or the step may be shorter than usual; ``needs only M3``, ``takes only
    1h`` are plain."""
    for index in range(1, len(tokens) - 1):
        before, after = tokens[index - 1], tokens[index + 1]
        if tokens[index].is_word("only", "just") and after.kind is Kind.DURATION and (
                before.kind is Kind.MACHINE or (before.kind is Kind.WORD and before.value not in
                                                ROUTE_VERBS | {"for", "it", "they", "but"})):
            return True
    return False


def _without_preamble(clause: Clause) -> Clause:
    """Drop a remark before a dash that starts a sentence about a job ("Quick one before lunch
    - J1 starts on M4"): the remark names no id, no duration and no time, so as a
    sentence of its own it would say nothing about jobs or machines either."""
    greeting = _GREETING_RE.match(clause.text)  # "Hi, for Monday J7 runs ..."
    if greeting is not None and re.search(r"\bJ(?:[0-9]|_[A-Z0-9])", greeting.group("rest")):
        clause = dataclasses.replace(clause, text=greeting.group("rest"))
    match = _PREAMBLE_RE.match(clause.text)
    if match is None:
        return clause
    before = tokenize(match.group("pre"))
    if not all(t.kind in (Kind.WORD, Kind.COMMA) for t in before) or any(
            t.value in JOB_WORDS or t.value in DUE_KEYS or t.value in _NOT_TO_PLAN
            for t in before if t.kind is Kind.WORD):
        return clause  # "On hold - J1: M1 2h" is no remark before the job
    return dataclasses.replace(clause, text=match.group("rest"))


def _gapped_dues(cursor: Cursor, terms: TimeTerms | None) -> list[tuple[list[str], float]]:
    """Due times that repeat the verb of the one just read for other jobs
    (``... and J2 at 12:00``, ``, J3 by noon``)."""
    found = []
    while True:
        start = cursor.index
        if not (cursor.kind(Kind.COMMA) or cursor.word({"and"})):
            break
        cursor.word({"and"})
        jobs = _job_list(cursor)
        if jobs is None or cursor.word({"at", "by", "before"}) is None:
            cursor.index = start
            break
        reading = read_time(cursor.tokens, cursor.index)
        if reading.hour is None:
            hour = read_term(cursor, terms)
            if hour is None:
                raise _Unreadable(f"the due time of {', '.join(jobs)} cannot be read")
        else:
            cursor.index += reading.used
            hour = reading.hour
        found.append((jobs, hour))
    return found


def _due_aside(token: Token, terms: TimeTerms | None) -> float | None:
    """The hour of an aside that is only a due phrase ("(due 15:00)"), or None."""
    cursor = Cursor(tokenize(token.value.text))
    try:
        hour = read_due(cursor, terms)
    except UnreadPhrase:
        return None
    return hour if hour is not None and cursor.done else None


def _excluded_by_name(token: Token, names: NameIndex | None) -> str | None:
    """The machine an aside such as ``(no drilling)`` / ``(without the kiln)`` rules out."""
    if names is None or not is_paren(token, "other") or token.value.machines:
        return None
    words = [t for t in tokenize(token.value.text) if t.kind is Kind.WORD]
    if len(words) < 2 or len(words) > 3 or words[0].value not in {"no", "without", "skipping"}:
        return None
    rest = [w for w in words[1:] if w.value != "the"]
    if len(rest) != 1 or len(words) != len(tokenize(token.value.text)):
        return None
    return names.word(rest[0].value)


_ADDING = frozenset({"also", "additionally"})
# what an added step may be called ("an extra deburr pass")
_STEP_NOUNS = frozenset({"pass", "run", "step", "operation", "op", "cycle"})
# a lasting change said before the job it changes
_FROM_NOW_ON = (("from", "now", "on"), ("until", "further", "notice"), ("going", "forward"),
                ("from", "today", "on"))
_ADD_VERBS = frozenset({"needs", "need", "goes", "go", "visits", "visit", "runs", "run",
                        "gets", "get", "has", "requires", "require", "takes", "take"})
_AT_END = (("at", "the", "end"), ("as", "a", "last", "step"), ("as", "the", "last", "step"),
           ("as", "a", "final", "step"), ("as", "the", "final", "step"), ("last",))
_AT_START = (("at", "the", "start"), ("at", "the", "beginning"), ("as", "a", "first", "step"),
             ("as", "the", "first", "step"), ("first",))


def _extra_step(cursor: Cursor) -> bool:
    """Consume ``gets an extra deburr pass on`` (a verb, ``extra``/``additional``, at most
    three plain words for the work, ``on``/``at``) when a machine follows; False (cursor
    unchanged) otherwise."""
    start = cursor.index
    cursor.word(_ADD_VERBS)  # the verb may have been read with the subject ("J1 gets an")
    cursor.word({"a", "an", "one"})
    verb = any(t.is_word(*_ADD_VERBS) for t in cursor.tokens[:cursor.index])
    if verb:
        if cursor.word({"extra", "additional"}) is not None:
            count = 0
            while (token := cursor.peek()) is not None and token.kind is Kind.WORD and (
                    count < 3 and token.value not in {"on", "at"}
                    and (token.value in _STEP_NOUNS or is_plain_note(token.text))):
                cursor.take()
                count += 1
            if cursor.word({"on", "at"}) and cursor.peek_kind(Kind.MACHINE):
                return True
    cursor.index = start
    return False


def _read_anchor(cursor: Cursor) -> tuple[str, str] | None:
    """Read ``after M4`` / ``right before M4`` (where an added step stands in the route):
    ``("after" | "before", machine)``, or None."""
    start = cursor.index
    cursor.word({"right", "directly", "just", "straight"})
    side = cursor.word({"after", "before"})
    machine = cursor.kind(Kind.MACHINE) if side is not None else None
    if side is None or machine is None:
        cursor.index = start
        return None
    return side, machine.value[0]


def _read_addition(cursor: Cursor) -> tuple[StepSpec, bool, tuple[str, str] | None] | None:
    """Read ``also needs M3 for 1h at the end`` (one step added to the job's broader route,
    at its end or its start, or ``after M2`` / ``before M2``, a machine of that route); the
    step, whether it comes first and the machine it stands after or before, or None.

    Raises:
        _Unreadable: an added step without the place it takes in the route.
    """
    start = cursor.index
    if cursor.word(_ADDING) is not None:
        cursor.word(_ADD_VERBS)
    elif not _extra_step(cursor):
        return None
    first = cursor.any_sequence(_AT_START) is not None
    last = not first and cursor.any_sequence(_AT_END) is not None
    route = read_route(cursor)
    if route is None:
        cursor.index = start
        return None
    anchor = None
    if not (first or last):
        first = cursor.any_sequence(_AT_START) is not None
        last = not first and cursor.any_sequence(_AT_END) is not None
        anchor = None if first or last else _read_anchor(cursor)
    said = cursor.text_from(start)
    if len(route.steps) != 1 or route.all_machines:
        raise _Unreadable(f"'{said}' adds more than one step")
    if not (first or last or anchor):
        raise _Unreadable(f"'{said}' adds a step without saying where in the route")
    return route.steps[0], first, anchor


def _same_route_as(cursor: Cursor) -> str | None:
    """Read ``(the) same route as J1`` / ``same routing as J1``; the other job's id."""
    start = cursor.index
    cursor.word({"the", "takes", "take", "follows", "follow", "uses", "use", "has", "runs"})
    cursor.word({"the"})
    if cursor.word({"same"}):
        cursor.word({"route", "routing", "path", "flow", "steps"})
        if cursor.word({"as", "like"}) and (job := cursor.kind(Kind.JOB)) is not None:
            return job.value[0]
    cursor.index = start
    return None


def _next_job_route(cursor: Cursor) -> bool:
    """Whether one job id follows a comma here and its route starts right after it (``, J2
    M2 2h`` / ``, J2: M2 2h``)."""
    token, before = cursor.peek(), cursor.tokens[cursor.index - 1] if cursor.index else None
    if token is None or token.kind is not Kind.JOB or len(token.value) != 1:
        return False
    if before is None or not (before.kind is Kind.COMMA or before.is_word("and")):
        return False
    after = Cursor(cursor.tokens[cursor.index + 1:], cursor.names)
    after.kind(Kind.COLON)
    following = after.peek()
    if following is not None and is_paren(following, "other"):
        start = after.index
        found = _paren_route(after) is not None  # "and J2 (M2 2h)"
        after.index = start
        return found
    return following is not None and (
        following.kind is Kind.MACHINE or following.is_word(*_LABEL_VERBS)
    ) and _starts_route(after)  # ", J2 M2 2h" / "and J2 runs M2 3h"


_AS_IS = (("as", "is"), ("as", "it", "is"), ("unchanged",), ("as", "written"),
          ("as", "given"))


def _follow_it(cursor: Cursor) -> bool:
    """Consume ``use it as is`` / ``follow it`` / ``take that route unchanged``: the route
    just given for every job, followed by the subject's jobs (nothing else in the clause)."""
    start = cursor.index
    if cursor.word({"follow", "follows", "use", "uses", "take", "takes"}) and (
            cursor.word({"it"}) or (cursor.word({"that", "this"})
                                    and cursor.word({"route", "routing", "sequence", "flow"}))):
        cursor.any_sequence(_AS_IS)
        if cursor.done:
            return True
    cursor.index = start
    return False


_MAKE_THAT = (("make", "that"), ("make", "it"))


def _moves_due(tokens: list[Token]) -> bool:
    """Whether the clause starts ``Make that <time of day>``."""
    cursor = Cursor(tokens)
    return cursor.any_sequence(_MAKE_THAT) is not None and cursor.peek_kind(Kind.CLOCK)


def _moved_due(tokens: list[Token]) -> float | None:
    """The hour of a clause that only moves the text's due (``Make that 6pm``, ``Make it
    18:00, the truck comes later``); None for any other clause."""
    cursor = Cursor(tokens)
    if cursor.any_sequence(_MAKE_THAT) is None or not cursor.peek_kind(Kind.CLOCK):
        return None
    reading = read_time(tokens, cursor.index)
    if reading.hour is None:
        return None
    cursor.index += reading.used
    _reason(cursor)
    return reading.hour if cursor.done else None


def _correction_value(cursor: Cursor) -> tuple[float, float | None] | None:
    """A value of a correction: a bare number (no unit) or a duration (in hours, unit 1)."""
    token = cursor.peek()
    if token is None or token.kind not in (Kind.NUMBER, Kind.DURATION):
        return None
    cursor.take()
    if token.kind is Kind.NUMBER:
        return float(token.value), None
    return float(token.value), 1.0


def _body_value_correction(body: _Body) -> bool:
    """Read ``J41 is 90 not 45`` (``takes 90 min, not 45 min``) as the whole clause after one
    job: the step written with the old value takes the new one."""
    cursor, subject = body.cursor, body.subject
    if body.statement is not None or body.fragments or subject.jobs is None or len(
            subject.jobs) != 1 or body.outer is not None or body.continuation:
        return False
    start = cursor.index
    cursor.word({"is", "takes", "needs", "should"})
    cursor.word({"be", "take"})
    new = _correction_value(cursor)
    cursor.kind(Kind.COMMA)
    old = _correction_value(cursor) if new is not None and cursor.word({"not"}) else None
    if new is None or old is None or not cursor.done or new[1] != old[1]:
        cursor.index = start
        return False
    body.pending.value_corrections.append(ValueCorrection(
        subject.jobs[0], new[0], old[0], new[1], body.clause.sentence))
    body.fragments += 1
    return True


def _not_due(cursor: Cursor) -> float | None:
    """Read ``not 3pm`` / ``, not 15:00`` right after a due (the due it replaces); None (cursor
    unchanged) elsewhere."""
    start = cursor.index
    cursor.kind(Kind.COMMA)
    token = cursor.peek(1)
    if cursor.peek_word("not") and token is not None and token.kind is Kind.CLOCK:
        reading = read_time(cursor.tokens, cursor.index + 1)
        if reading.hour is not None:
            cursor.index += 1 + reading.used
            return reading.hour
    cursor.index = start
    return None


def _reason(cursor: Cursor) -> None:
    """Consume the reason that closes a correction (``, customer moved it``): a comma, then up
    to six plain words to the end of the clause; the cursor stays where it was otherwise."""
    start = cursor.index
    if cursor.kind(Kind.COMMA) is None:
        return
    words = cursor.tokens[cursor.index:]
    if 0 < len(words) <= 6 and all(t.kind is Kind.WORD for t in words) and is_plain_note(
            " ".join(t.text for t in words)):
        cursor.index = len(cursor.tokens)
        return
    cursor.index = start


def _not_hours(cursor: Cursor) -> float | None:
    """Read ``, not 2h`` / ``, not 3`` / ``instead of 2h`` closing a clause (the value it
    corrects); the hours of a bare number are those of the step's own unit."""
    start = cursor.index
    cursor.kind(Kind.COMMA)
    if cursor.word({"not"}) or cursor.any_sequence(INSTEAD) is not None:
        token = cursor.take() if not cursor.done else None
        if token is not None and token.kind in (Kind.DURATION, Kind.NUMBER) and cursor.done:
            return float(token.value)
    cursor.index = start
    return None


def _paren_route(cursor: Cursor) -> Route | None:
    """Read a whole route in parentheses right after its job (``J81 (M51 2h, M52 1h)``);
    None (cursor unchanged) unless the aside is one route and nothing else."""
    token = cursor.peek()
    if not is_paren(token, "other") or not token.value.machines:
        return None
    text = token.value.text
    try:
        inner = Cursor(group_asides(tokenize(text), text), cursor.names)
        route = read_route(inner)
    except UnreadPhrase:
        return None
    if route is None or not inner.done or route.all_machines:
        return None
    cursor.take()
    return route


def _equals_name(cursor: Cursor) -> None:
    """Consume ``= pump housing`` between a job id and its colon: plain words naming the
    job (nothing that changes a route's meaning)."""
    start = cursor.index
    token = cursor.peek()
    if token is None or token.kind is not Kind.OTHER or token.text != "=":
        return
    cursor.take()
    words = []
    while (token := cursor.peek()) is not None and token.kind is Kind.WORD:
        words.append(cursor.take().value)
    following = cursor.peek()
    if not words or following is None or following.kind is not Kind.COLON or not (
            is_plain_note(" ".join(words))):
        cursor.index = start


def _too(cursor: Cursor) -> list[str] | None:
    """Read ``J2 too`` / ``J2 and J3 as well`` closing a clause; the job ids."""
    start = cursor.index
    jobs = _job_list(cursor)
    if jobs is not None and (cursor.word({"too", "also"}) or cursor.sequence("as", "well")):
        if cursor.done:
            return jobs
    cursor.index = start
    return None


def _job_label(cursor: Cursor) -> bool:
    """Whether the aside after a job id, right before a colon, is the job's name with
    numbers in it (``J1 (bracket 200x40):``): words and digits only, a word of three letters
    or more, and no id, duration, clock or word that changes a route's meaning."""
    token, following = cursor.peek(), cursor.peek(1)
    if not is_paren(token, "other") or following is None or following.kind is not Kind.COLON:
        return False
    text = token.value.text
    if token.value.machines or re.search(r"\bJ[0-9_]", text):
        return False
    if not re.fullmatch(r"[A-Za-z0-9 .,/\-x×#]+", text):
        return False
    words = set(re.findall(r"[a-z]+", text.lower()))
    if not any(len(word) >= 3 for word in words) or not is_plain_note(text):
        return False
    return all(t.kind in (Kind.WORD, Kind.OTHER, Kind.COMMA) for t in tokenize(text))


def _instead_route(cursor: Cursor) -> bool:
    """Consume ``instead`` before a job's own route ("J2 instead goes M1, M5, M3")."""
    token = cursor.peek()
    if token is None or not token.is_word("instead"):
        return False
    cursor.take()
    if _starts_route(cursor):
        return True
    cursor.index -= 1
    return False


def _starts_route(cursor: Cursor) -> bool:
    start = cursor.index
    try:
        return read_route(cursor) is not None
    except UnreadPhrase:
        return True
    finally:
        cursor.index = start


def _name_before(tokens: list[Token], index: int) -> str | None:
    """The name written right before an id in parentheses ("the big press (M1)")."""
    words: list[str] = []
    position = index - 1
    number = tokens[position] if position >= 1 else None
    if (number is not None and number.kind is Kind.NUMBER and number.text.isdigit()
            and len(number.text) <= 3 and tokens[position - 1].kind is Kind.WORD):
        words.append(number.text)  # "Cell 3 (M17)": a name that ends in a number
        position -= 1
    while position >= 0 and tokens[position].kind in (Kind.WORD, Kind.AMP):
        token = tokens[position]
        if token.kind is Kind.WORD and (token.value in _NAME_STOP or token.value in {
                "our", "we", "have", "got", "has", "machines", "machine"}):
            break
        words.insert(0, token.text)
        position -= 1
    if not words or len(words) > 4 or {w.lower() for w in words} & MEANING_WORDS:
        return None
    return " ".join(words)


def _machine_name(tokens: list[Token], index: int, labelled: bool) -> str | None:
    """The name given right after a machine id in a machine-only sentence, if any."""
    after = tokens[index + 1:]
    if after and is_paren(after[0], "name"):
        return after[0].value.text
    position = 0
    separator = False
    if after and (after[0].kind in (Kind.COMMA, Kind.COLON) or (after[0].kind is Kind.OTHER
                                                                 and after[0].text == "=")):
        separator = after[0].text in "=:"  # "M1 = bandsaw", "- M2: ultrasonic welder"
        position = 1
    if position < len(after) and after[position].is_word("is"):
        position += 1
    elif position == 1 and position < len(after) and after[position].is_word("that's"):
        position += 1  # "M1, that's the saw": a speaker names the machine
    article = position < len(after) and after[position].is_word("the", "a", "an", "our")
    if not article and not (labelled and position == 0) and not separator:
        return None
    if article:
        position += 1
    words: list[str] = []
    rest = after[position:]
    for offset, token in enumerate(rest):
        if (token.kind is Kind.NUMBER and words and token.text.isdigit() and len(token.text) <= 3
                and (offset + 1 == len(rest) or rest[offset + 1].kind is Kind.COMMA
                     or rest[offset + 1].is_word("and"))):
            words.append(token.text)  # "M2 = Press 2, ...": a name that ends in a number
            break
        if token.kind is not Kind.WORD or token.value in _NAME_STOP:
            break
        words.append(token.text)
    if not words or len(words) > 4 or set(w.lower() for w in words) & MEANING_WORDS:
        return None
    if _OUT_OF_SERVICE_RE.search(" ".join(words)):
        return None
    return " ".join(words)


def _name_equals(tokens: list[Token], index: int) -> str | None:
    """The name written before ``=`` and a machine id (``laser = M1``, ``press brake = M2``):
    plain words from the start of the list item (the sentence, a colon or a comma) on."""
    if index < 2 or not (tokens[index - 1].kind is Kind.OTHER and tokens[index - 1].text == "="):
        return None
    if index + 1 < len(tokens) and tokens[index + 1].kind not in (Kind.COMMA,):
        return None
    words: list[str] = []
    position = index - 2
    while position >= 0 and tokens[position].kind is Kind.WORD:
        words.insert(0, tokens[position].text)
        position -= 1
    if position >= 0 and tokens[position].kind not in (Kind.COMMA, Kind.COLON):
        return None
    if not words or len(words) > 4 or {w.lower() for w in words} & (MEANING_WORDS | _NAME_STOP):
        return None
    if _OUT_OF_SERVICE_RE.search(" ".join(words)):
        return None
    return " ".join(words)


# only an explicit "not today": "down tomorrow" may be the plan's own day (a plan for tomorrow)
_ANOTHER_DAY_RE = re.compile(r"(?i)\bnot\s+today\b")
_TODAY_RE = re.compile(r"(?i)\b(?:today|tonight|now|this\s+(?:morning|afternoon|evening|shift)"
                       r"|until|till|still)\b")


# a downtime told in the past tense beside words that the machine works again
_WAS_DOWN_RE = re.compile(r"\b(?:was|were|had been)\s+" + _OUT_OF_SERVICE, re.IGNORECASE)
_RESTORED_RE = re.compile(r"(?i)\b(?:running again|working again|back up|back in (?:service|"
                          r"use|action)|up again)\b")


def _out_of_service(tokens: list[Token], text: str) -> list[str]:
    """The machines a machine sentence says are down: inside the aside that says so (or the
    machine right before it), or the ids right before the phrase ("M3 and M4 are down").
    A sentence that puts the downtime on another day, "not today", and says nothing else of
    today ("M3 goes down on Thursday, not today") names none."""
    if _ANOTHER_DAY_RE.search(text) and not _TODAY_RE.search(
            re.sub(r"(?i)\bnot\s+today\b", "", text)):
        return []
    if _WAS_DOWN_RE.search(text) and _RESTORED_RE.search(text) and not re.search(
            r"(?i)\b(?:is|are)\b", text):
        return []  # "M3 was down yesterday, fixed overnight and running again"
    found: list[str] = []
    for index, token in enumerate(tokens):
        if is_paren(token) and _OUT_OF_SERVICE_RE.search(token.value.text):
            if token.value.machines:
                found += token.value.machines
            elif index and tokens[index - 1].kind is Kind.MACHINE:
                found.append(tokens[index - 1].value[0])
            elif index + 2 < len(tokens) and tokens[index + 1].text == "=" and (
                    tokens[index + 2].kind is Kind.MACHINE):
                found.append(tokens[index + 2].value[0])  # "old drill (down) = M2"
    for match in _OUT_OF_SERVICE_RE.finditer(text):
        before = [t for t in tokens if t.end <= match.start() and not is_paren(t)]
        last = max((i for i, t in enumerate(before) if t.kind is Kind.MACHINE), default=None)
        if last is None or any(is_paren(t) and t.start <= match.start() < t.end
                               for t in tokens):
            continue
        index = last
        while index >= 0 and (before[index].kind in (Kind.MACHINE, Kind.COMMA, Kind.AMP)
                              or before[index].is_word("and")):
            if before[index].kind is Kind.MACHINE:
                found.append(before[index].value[0])
            index -= 1
    return list(dict.fromkeys(found))


def _assign(statement: RouteStatement | None, assignments: list[tuple[str, float]]) -> None:
    if statement is None:
        raise _Unreadable("durations for steps of a route that was not given")
    for machine, hours in assignments:
        matches = [step for step in statement.steps if step.machine == machine]
        if len(matches) != 1:
            raise _Unreadable(f"'{hours:g}h on {machine}' does not match one step of the route")
        step = matches[0]
        if step.hours is not None and step.hours != hours:
            raise _Unreadable(f"two durations for the step on {machine}")
        step.hours = hours


def _assign_last(statement: RouteStatement | None, hours: float) -> None:
    if statement is None or not statement.steps:
        raise _Unreadable("'there' does not refer to a step named before")
    step = statement.steps[-1]
    if step.hours is not None and step.hours != hours:
        raise _Unreadable(f"two durations for the step on {step.machine}")
    step.hours = hours


def _respective(statement: RouteStatement | None, values: list[float],
                respectively: bool) -> None:
    if statement is None:
        raise _Unreadable("durations without a route")
    if statement.all_machines:
        if len(values) == 1 and not respectively:
            raise _Unreadable("one duration for all machines without 'each'")
        statement.respective = values
        return
    open_steps = [step for step in statement.steps if step.hours is None]
    if len(values) != len(statement.steps) or len(open_steps) != len(statement.steps):
        raise _Unreadable(
            f"{len(values)} duration(s) for a route of {len(statement.steps)} step(s)")
    for step, hours in zip(statement.steps, values, strict=True):
        step.hours = hours


def _exclude(statement: RouteStatement | None, machines: tuple[str, ...]) -> None:
    if statement is None:
        raise _Unreadable("'(not ...)' without a route")
    listed = {step.machine for step in statement.steps}
    clash = [m for m in machines if m in listed]
    if clash:
        raise _Unreadable(f"the route lists {', '.join(clash)} and also excludes it")
    statement.excluded = tuple(machines)


def _rest(cursor: Cursor, clause: Clause) -> str:
    token = cursor.peek()
    if token is None:
        return clause.text
    return clause.text[token.start:].strip()
