"""Assembly: statements → the stage-1 skeleton and the stage-2 raw configuration.

Machines: the ids of machine-only sentences and of named machines (``M3 (oven)``), in order of
declaration. When the text lists its machines somewhere (an *inventory*: "Machines: ...",
"We have ...", two or more ids in one sentence, "M1 only"), only declared machines are
machines; otherwise machines named only in routes are machines too, in order of first use.
A machine with two different names appears twice (stage 3 reports the duplicate). Machines
said to be out of service are kept, without steps; a route through one is a conflict.

Routes, per job: the most specific statement wins (one job > listed jobs > every job). A skip
or replacement changes the job's broader route, so the job must not also have a route of its
own at that level. Two different statements at the same level both go out as separate jobs
with the same id: stage 3 then reports a duplicate job instead of the reader picking one.

Durations of a step, first found: stated on the step; a duration for every step of the same
statement ("1h each"); a "per step" duration of the sentence an exception sits in; the
duration the job's broader statements give that machine. Otherwise it stays unknown and
stage 3 refuses the step. Due times follow the same levels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repro_assets.factory.models import (
    CoarseJob,
    CoarseMachine,
    CoarseStructure,
    RawFactoryConfig,
    RawJob,
    RawStep,
)
from repro_assets.factory.reading.names import name_words
from repro_assets.factory.reading.statements import (
    LEVEL_LISTED,
    LEVEL_ONE,
    DueStatement,
    ModifyStatement,
    Reading,
    RouteStatement,
    StepSpec,
    Unread,
    ValueCorrection,
)

Steps = tuple[tuple[str, float | None], ...]
Candidate = tuple[int, Steps, list[RouteStatement], bool]


@dataclass(frozen=True)
class Declarations:
    """Where the text declares its machines.

    Attributes:
        inventory: the text lists its machines somewhere.
        declared: machine ids declared in machine sentences or named, in order.
        out_of_service: machines said to be down / under maintenance.
        inventory_quotes: the sentences that list machines.
    """

    inventory: bool
    declared: tuple[str, ...]
    out_of_service: tuple[str, ...]
    inventory_quotes: tuple[str, ...]


@dataclass(frozen=True)
class Assembly:
    """The result of assembling a reading."""

    skeleton: CoarseStructure
    raw: RawFactoryConfig
    unread: tuple[Unread, ...]
    declarations: Declarations


def _corrected_by_value(found: list[Steps], correction: ValueCorrection) -> Steps:
    """The one route of the job with the step written ``correction.old`` set to the new
    value: in hours or minutes for a bare number (the one unit in which exactly one step
    has that value), in the values' own unit otherwise.

    Raises:
        _Conflict: no single route, or not exactly one step with that value.
    """
    if len(found) != 1:
        raise _Conflict(f"it corrects a route of {correction.job} the text does not give once",
                        correction.quote)
    steps = list(found[0])
    units = [correction.unit_hours] if correction.unit_hours is not None else [1.0, 1 / 60]
    matches = [(index, unit) for unit in units for index, (_, hours) in enumerate(steps)
               if hours is not None and abs(hours - correction.old * unit) < 1e-9]
    if len(matches) != 1:
        raise _Conflict(f"{correction.job} has no single step of {correction.old:g} to correct",
                        correction.quote)
    index, unit = matches[0]
    steps[index] = (steps[index][0], correction.new * unit)
    return tuple(steps)


class _Conflict(Exception):
    """Two readable statements that cannot both hold (or one that cannot be applied)."""

    def __init__(self, reason: str, quote: str) -> None:
        super().__init__(reason)
        self.quote = quote


def _declarations(reading: Reading) -> tuple[Declarations, dict[str, list[str]]]:
    names: dict[str, list[str]] = {}
    order: list[str] = []

    def declare(machine: str, name: str | None) -> None:
        if machine not in names:
            names[machine] = []
            order.append(machine)
        if name:
            clean = name.strip()
            clean = clean.lower() if clean.isupper() else clean
            if not clean or clean in names[machine]:
                return
            words = set(name_words(clean))
            for index, known in enumerate(names[machine]):
                known_words = set(name_words(known))
                if words <= known_words:
                    return  # "punch" after "Trumpf punch": the same name, shorter
                if known_words <= words:
                    names[machine][index] = clean
                    return
            names[machine].append(clean)

    for mention in reading.machines:
        for machine in mention.ids:
            declare(machine, mention.names.get(machine))
    quotes = tuple(mention.quote for mention in reading.machines if mention.inventory)
    for machine, name in reading.machine_names:
        # a name given inside a route ("M3 (tapping) 1h") declares the machine only when the
        # text lists no machines: beside a list, a machine outside it is the writer's call
        if not quotes or machine in names:
            declare(machine, name)
    out_of_service = tuple(dict.fromkeys(
        m for mention in reading.machines for m in mention.out_of_service))
    declarations = Declarations(
        inventory=bool(quotes), declared=tuple(order), out_of_service=out_of_service,
        inventory_quotes=quotes,
    )
    return declarations, names


def _own_hours(statement: RouteStatement, steps: Steps) -> dict[str, float]:
    """Durations a statement gives its machines (a machine listed twice with two durations
    gives none)."""
    found: dict[str, set[float]] = {}
    for machine, hours in steps:
        if hours is not None:
            found.setdefault(machine, set()).add(hours)
    return {m: next(iter(h)) for m, h in found.items() if len(h) == 1}


class _Assembler:
    def __init__(self, reading: Reading, declarations: Declarations,
                 machines: list[str]) -> None:
        self.reading = reading
        self.declarations = declarations
        self.machines = machines
        self.generic = [s for s in reading.routes if s.jobs is None]
        self.used: set[int] = set()  # id() of statements that shaped some job's route
        self.resolving: set[str] = set()  # jobs whose route is being copied
        self.moved: dict[int, float] = {}  # the due a "Make that 6pm" moves, and where to

    def applicable(self, job: str) -> list[RouteStatement]:
        return [s for s in self.reading.routes
                if (s.jobs is None and job not in s.except_jobs) or (s.jobs and job in s.jobs)]

    def written_steps(self, statement: RouteStatement) -> Steps:
        if statement.all_machines:
            if not self.declarations.inventory:
                raise _Conflict("it says all machines, but the text does not list them",
                                statement.quote)
            if self.declarations.out_of_service:
                raise _Conflict(
                    f"it says all machines, but {', '.join(self.declarations.out_of_service)} "
                    "is out of service", statement.quote)
            steps = [StepSpec(m) for m in self.declarations.declared]
        else:
            steps = [StepSpec(s.machine, s.hours) for s in statement.steps]
        if statement.respective is not None:
            if len(statement.respective) != len(steps):
                raise _Conflict(f"{len(statement.respective)} durations for {len(steps)} "
                                "machines", statement.quote)
            steps = [StepSpec(s.machine, h) for s, h in zip(steps, statement.respective,
                                                            strict=True)]
        return tuple((s.machine, s.hours) for s in steps)

    def resolve(self, statement: RouteStatement, job: str) -> Steps:
        """The statement's steps for ``job`` with every duration it can inherit."""
        steps = self.written_steps(statement)
        broader = sorted(
            (s for s in self.applicable(job) if s.level < statement.level),
            key=lambda s: -s.level,
        )
        out = []
        for machine, hours in steps:
            if hours is None and statement.uniform is not None:
                hours = statement.uniform
            if (hours is None and statement.outer is not None
                    and statement.outer.uniform_per_step):
                hours = statement.outer.uniform
            if hours is None:
                hours = self.inherited(machine, broader, job)
            if hours is None:
                hours = self.default_hours()
            out.append((machine, hours))
        return tuple(out)

    def default_hours(self) -> float | None:
        """The duration the text states once for every step ("Count one hour for every operation",
        "M1 -> M2 -> M3, one hour per step" for every job); None when it states none or two."""
        stated = {hours for hours, _ in self.reading.defaults}
        stated |= {s.uniform for s in self.generic
                   if s.uniform is not None and s.uniform_per_step}
        if len(stated) != 1:
            return None
        return next(iter(stated))

    def inherited(self, machine: str, broader: list[RouteStatement], job: str) -> float | None:
        for statement in broader:
            steps = self.written_steps(statement)
            if statement.uniform is not None and any(m == machine for m, _ in steps):
                own = {m: h if h is not None else statement.uniform for m, h in steps}
                self.used.add(id(statement))
                return own[machine]
            hours = _own_hours(statement, steps).get(machine)
            if hours is not None:
                self.used.add(id(statement))
                return hours
        return None

    def candidates(self, job: str) -> list[Candidate]:
        """Every route stated for ``job``: (level, steps, the statements behind it, whether it
        is another route referred to: "follows the standard route", "same route as J1")."""
        found = [(s.level, self.resolve(s, job), [s], False) for s in self.applicable(job)
                 if not self.is_override(s, job) and s.corrects is None]
        for statement in self.applicable(job):
            if statement.override_only and not self.is_override(statement, job):
                raise _Conflict(f"a duration on {statement.steps[0].machine}, a machine the "
                                f"route {job} is an exception to does not visit",
                                statement.quote)
        for same in self.reading.same_routes:
            if job not in same.jobs:
                continue
            if same.source in self.resolving:
                raise _Conflict("the routes refer to each other", same.quote)
            self.resolving.add(same.source)
            try:
                routes = self.routes(same.source)
            finally:
                self.resolving.discard(same.source)
            if len(routes) != 1:
                raise _Conflict(f"{same.source} has no single route to copy", same.quote)
            for other in same.agreeing:
                if other in self.resolving:
                    raise _Conflict("the routes refer to each other", same.quote)
                self.resolving.add(other)
                try:
                    other_routes = self.routes(other)
                finally:
                    self.resolving.discard(other)
                if other_routes != routes:
                    raise _Conflict(f"'the same' may mean the route of {same.source} or of "
                                    f"{other}, which differ", same.quote)
            level = LEVEL_ONE if len(same.jobs) == 1 else LEVEL_LISTED
            found.append((level, routes[0], [], True))
        for standard in self.reading.standards:
            if job not in standard.jobs:
                continue
            if not self.generic:
                raise _Conflict("it refers to a standard route the text does not give",
                                standard.quote)
            found += [(standard.level, self.resolve(s, job), [s], True) for s in self.generic]
        return found

    def is_override(self, statement: RouteStatement, job: str) -> bool:
        """True when a one-step "2h on M2" statement changes the duration of a step of a
        broader route of ``job`` through that machine instead of being its route."""
        if not statement.override:
            return False
        machine = statement.steps[0].machine
        broader = [s for s in self.applicable(job) if s.level < statement.level]
        if any(job in standard.jobs for standard in self.reading.standards):
            broader += self.generic
        if any(job in same.jobs for same in self.reading.same_routes):
            return True
        return any(any(m == machine for m, _ in self.written_steps(s)) for s in broader)

    def overrides(self, job: str) -> list[ModifyStatement]:
        """The duration changes of ``job`` as replacements of a machine by itself."""
        found = []
        for statement in self.applicable(job):
            if self.is_override(statement, job):
                self.used.add(id(statement))
                step = statement.steps[0]
                found.append(ModifyStatement((job,), statement.level, statement.quote,
                                             replace=(step.machine, step.machine),
                                             hours=step.hours))
        return found

    def routes(self, job: str) -> list[Steps]:
        """The route(s) of ``job``: one, or several when statements conflict; corrections
        ("J1 needs 3h on M1, not 2h") applied."""
        found = self.uncorrected_routes(job)
        for statement in self.applicable(job):
            if statement.corrects is None:
                continue
            self.used.add(id(statement))
            step = statement.steps[0]
            if len(found) != 1:
                raise _Conflict(f"it corrects a route of {job} the text does not give once",
                                statement.quote)
            steps = list(found[0])
            positions = [i for i, (m, h) in enumerate(steps)
                         if m == step.machine and h == statement.corrects]
            if len(positions) != 1:
                raise _Conflict(f"{job} has no single step of {statement.corrects:g}h on "
                                f"{step.machine} to correct", statement.quote)
            steps[positions[0]] = (step.machine, step.hours)
            found = [tuple(steps)]
        for correction in self.reading.value_corrections:
            if correction.job != job:
                continue
            if correction.unit_hours is None and any(
                    d.hour == correction.old for d in self.reading.dues
                    if d.jobs is None or job in d.jobs):
                raise _Conflict(f"'{correction.old:g}' is a step of {job} or its due",
                                correction.quote)  # "J1 is 16 not 15" beside "due 15"
            found = [_corrected_by_value(found, correction)]
        return found

    def uncorrected_routes(self, job: str) -> list[Steps]:
        """The route(s) of ``job`` before corrections."""
        candidates = self.candidates(job)
        modifications = [m for m in self.reading.modifications if job in m.jobs]
        modifications += self.overrides(job)
        if modifications:
            return [self.modified(job, candidates, modifications)]
        if not candidates:
            return []
        top = max(level for level, _, _, _ in candidates)
        chosen = [(steps, sources) for level, steps, sources, _ in candidates if level == top]
        for _, sources in chosen:
            self.used.update(id(s) for s in sources)
        return list(dict.fromkeys(steps for steps, _ in chosen))

    def modified(self, job: str, candidates: list[Candidate],
                 modifications: list[ModifyStatement]) -> Steps:
        level = min(m.level for m in modifications)
        additions_only = all(m.add is not None and not m.skip and m.replace is None
                             for m in modifications)
        base, base_statements = self.base_route(job, candidates, level, modifications[0].quote,
                                                additions_only)
        steps = list(base)
        for change in modifications:
            self.apply_change(job, steps, change, base_statements)
        if not steps:
            raise _Conflict(f"{job} skips every machine of its route",
                            modifications[0].quote)
        return tuple(steps)

    def base_route(self, job: str, candidates: list[Candidate], level: int,
                   quote: str, additions_only: bool = False
                   ) -> tuple[Steps, list[RouteStatement]]:
        """The one broader route (below ``level``, or a reference) that changes of ``level``
        apply to, and its statements (marked used)."""
        own = [(steps, sources) for lvl, steps, sources, reference in candidates
               if lvl >= level and not reference]
        if own and additions_only and len({steps for steps, _ in own}) == 1:
            # "J4: M4 3h, M5 1h" then "J4 also needs M6 (1h) after M4": a step added to it
            for _, sources in own:
                self.used.update(id(s) for s in sources)
            return own[0][0], [s for _, sources in own for s in sources]
        if own:
            raise _Conflict(f"{job} has a route of its own and also a change to a broader "
                            "route", quote)
        base_candidates = [(lvl, steps, src) for lvl, steps, src, reference in candidates
                           if lvl < level or reference]
        if not base_candidates:
            raise _Conflict(f"it changes a route the text does not give for {job}", quote)
        top = max(lvl for lvl, _, _ in base_candidates)
        bases = list(dict.fromkeys(s for lvl, s, _ in base_candidates if lvl == top))
        base_statements: list[RouteStatement] = []
        for lvl, _, sources in base_candidates:
            if lvl == top:
                self.used.update(id(s) for s in sources)
                base_statements += sources
        if len(bases) > 1:
            raise _Conflict(f"{job} has two different routes to change", quote)
        return bases[0], base_statements

    def apply_change(self, job: str, steps: list[tuple[str, float | None]],
                     change: ModifyStatement, base_statements: list[RouteStatement]) -> None:
        """Apply one change (skips, a replacement, an added step) to ``steps`` in place."""
        for machine in change.skip:
            del steps[self.single_visit(job, steps, machine, change.quote)]
        if change.replace is not None:
            old, new = change.replace
            position = self.single_visit(job, steps, old, change.quote)
            hours = change.hours
            if hours is None:
                hours = self.replacement_hours(job, new, base_statements, steps)
            steps[position] = (new, hours)
        if change.add is not None:
            machine = change.add.machine
            if any(m == machine for m, _ in steps):
                raise _Conflict(f"{job}'s route already visits {machine}", change.quote)
            hours = change.add.hours if change.add.hours is not None else (
                self.default_hours())
            position = 0 if change.add_first else len(steps)
            if change.add_anchor is not None:
                side, anchor = change.add_anchor
                position = self.single_visit(job, steps, anchor, change.quote) + (
                    1 if side == "after" else 0)
            steps.insert(position, (machine, hours))

    @staticmethod
    def single_visit(job: str, steps: list[tuple[str, float | None]], machine: str,
                     quote: str) -> int:
        """The position of the one step of ``steps`` on ``machine``."""
        positions = [i for i, (m, _) in enumerate(steps) if m == machine]
        if len(positions) != 1:
            raise _Conflict(f"{job}'s route visits {machine} {len(positions)} times", quote)
        return positions[0]

    def replacement_hours(self, job: str, machine: str, base_statements: list[RouteStatement],
                          steps: list[tuple[str, float | None]]) -> float | None:
        """The hours of a machine that replaces a step without its own duration.

        The route's one duration for every step ("2h each"), else the machine's own duration
        stated elsewhere, else the one duration every step of the route has (``M4 2h, M5 2h``:
        which step is replaced does not matter), else the text's default; None when the steps
        differ and nothing else says it, or when the steps' one duration and the default
        disagree."""
        per_step = [s.uniform for s in base_statements if s.uniform is not None]
        hours = per_step[0] if per_step else self.inherited(
            machine, sorted(self.applicable(job), key=lambda s: -s.level), job)
        if hours is not None:
            return hours
        default = self.default_hours()
        alike = {stated for _, stated in steps}
        if len(alike) == 1 and None not in alike:
            (hours,) = alike
            return hours if default is None or default == hours else None
        return default

    def dues(self, job: str) -> list[float | None]:
        applicable: list[DueStatement] = [
            d for d in self.reading.dues if d.jobs is None or job in d.jobs
        ]
        if not applicable:
            return []
        moved = self.moved
        top = max(d.level for d in applicable)
        chosen = [d for d in applicable if d.level == top]
        self.used.update(id(d) for d in chosen)
        for correction in [d for d in chosen if d.corrects is not None]:
            # "J1 due 5pm not 3pm": the due it names must be one the text gives the job
            replaced = [d for d in chosen if d.corrects is None and d.hour == correction.corrects]
            if not replaced:
                raise _Conflict(f"{job} has no due at {correction.corrects:g}:00 to correct",
                                correction.quote)
            chosen = [d for d in chosen if d not in replaced]
        return list(dict.fromkeys(moved.get(id(d), d.hour) for d in chosen))

    def moved_due(self) -> dict[int, float]:
        """The due statement a ``Make that 6pm`` moves, by id, with its new hour: the text's
        one due with an hour, and one such sentence.

        Raises:
            _Conflict: the sentence cannot say which due it moves.
        """
        moves = self.reading.due_moves
        if not moves:
            return {}
        timed = [d for d in self.reading.dues if d.hour is not None]
        if len(moves) != 1 or len(timed) != 1:
            raise _Conflict("it does not say which due it moves", moves[0][1])
        return {id(timed[0]): moves[0][0]}


def _two_readings(reading: Reading, job: str, routes: int, dues: int) -> list[Unread]:
    """Say which sentences give ``job`` two different routes or due times, where stage 3
    would only see two jobs with one id (the job is still put out twice: its coverage stays
    as the text gives it)."""
    found: list[Unread] = []
    for count, what, statements in ((routes, "routes", reading.routes),
                                    (dues, "due times", reading.dues)):
        if count < 2:
            continue
        quotes = list(dict.fromkeys(s.quote for s in statements if s.jobs and job in s.jobs))
        if not quotes:
            continue
        if len(quotes) == 1:
            reason = f"this one sentence gives {job} {count} different {what}"
            if what == "routes" and re.search(r"(?i)\b(?:same|like|as)\b", quotes[0]):
                reason += (": a copy of another job's route and steps of its own (a change to "
                           "the copy says what it replaces: 'instead of 2h', 'skip M2')")
        else:
            said = "; ".join(f"'{quote}'" for quote in quotes)
            reason = f"{job} is given {count} different {what} ({said}); nothing says which holds"
        found.append(Unread(quote=quotes[-1], reason=reason))
    return found


def assemble(reading: Reading) -> Assembly:
    """Build the skeleton and the raw configuration from what was read.

    Args:
        reading: the statements of one description.

    Returns:
        The :class:`Assembly`; conflicts between statements are added to its unread list.
    """
    declarations, names = _declarations(reading)
    machines = list(declarations.declared)
    if not declarations.inventory:
        machines += [m for m in reading.route_machines if m not in machines]
    unread = list(reading.unread)
    working = [m for m in machines if m not in declarations.out_of_service]
    for count, quote in reading.machine_counts:
        if count not in (len(machines), len(working)):  # "3 machines" + one out for repair
            unread.append(Unread(quote=quote, reason=f"it says {count} machines but the text "
                                 f"names {len(machines)} ({', '.join(machines) or 'none'})"))
    for count, quote in reading.job_counts:
        if count != len(reading.jobs):
            unread.append(Unread(quote=quote, reason=f"it says {count} jobs but the text names "
                                 f"{len(reading.jobs)} ({', '.join(reading.jobs) or 'none'})"))
    assembler = _Assembler(reading, declarations, machines)
    try:
        assembler.moved = assembler.moved_due()
    except _Conflict as exc:
        unread.append(Unread(quote=exc.quote, reason=str(exc)))
    raw_jobs: list[RawJob] = []
    for job in reading.jobs:
        try:
            routes = assembler.routes(job)
        except _Conflict as exc:
            unread.append(Unread(quote=exc.quote, reason=str(exc)))
            routes = []
        try:
            dues = assembler.dues(job)
        except _Conflict as exc:
            unread.append(Unread(quote=exc.quote, reason=str(exc)))
            dues = []
        for steps in routes:
            down = [m for m, _ in steps if m in declarations.out_of_service]
            if down:
                quote = next(mention.quote for mention in reading.machines
                             if down[0] in mention.out_of_service)
                unread.append(Unread(quote=quote, reason=f"{job} is routed through "
                                     f"{', '.join(down)}, which the text says is out of "
                                     "service"))
        unread.extend(_two_readings(reading, job, len(routes), len(dues)))
        name = reading.job_names.get(job, job)
        for variant in range(max(len(routes), len(dues), 1)):
            steps = routes[min(variant, len(routes) - 1)] if routes else ()
            due = dues[min(variant, len(dues) - 1)] if dues else None
            raw_jobs.append(RawJob(
                id=job, name=name,
                steps=[RawStep(machine_id=m, duration_hours=h) for m, h in steps],
                due_time_hour=due,
            ))
    statements: list[RouteStatement | DueStatement] = [*reading.routes, *reading.dues]
    for statement in statements:
        if id(statement) not in assembler.used and reading.jobs:
            what = "route" if isinstance(statement, RouteStatement) else "due time"
            unread.append(Unread(quote=statement.quote, reason=f"this {what} applies to no "
                                 "job: every job it covers has a more specific one"))
    coarse_machines = [
        CoarseMachine(id=m, name=name)
        for m in machines for name in (names.get(m) or [m])
    ]
    skeleton = CoarseStructure(
        machines=coarse_machines,
        jobs=[CoarseJob(id=j, name=reading.job_names.get(j, j)) for j in reading.jobs],
    )
    raw = RawFactoryConfig(machines=list(coarse_machines), jobs=raw_jobs)
    unique = tuple({(u.quote, u.reason): u for u in unread}.values())
    return Assembly(skeleton, raw, unique, declarations)
