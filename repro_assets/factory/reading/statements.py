"""What the clause and table readers find: statements about machines, jobs, routes, due times.

Plain records, no logic. A statement keeps the sentence it came from (``quote``) so that the
assembly can cite it in a conflict, and the ``level`` of its subject: a statement about one job
beats one about listed jobs, which beats one about every job.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LEVEL_ALL, LEVEL_LISTED, LEVEL_ONE = 0, 1, 2


@dataclass
class StepSpec:
    """One step as written: the machine and the duration in hours if stated."""

    machine: str
    hours: float | None = None


@dataclass
class RouteStatement:
    """A route for some jobs (``jobs is None``: every job).

    Attributes:
        jobs: the jobs it is about, or None for a statement about every job.
        level: ``LEVEL_ONE``, ``LEVEL_LISTED`` or ``LEVEL_ALL``.
        steps: the steps in order.
        quote: the sentence it came from.
        all_machines: the route is "all the machines in sequence" (resolved at assembly).
        uniform: one duration stated for every step ("1h each", "one hour per step").
        uniform_per_step: the uniform duration is "per step", so it also applies to routes
            derived from this one (exceptions and replacements), not only to its machines.
        outer: the statement an ``except ...`` clause belongs to.
        excluded: machines an aside excludes ("(not M3)").
        respective: durations listed for the steps in order ("taking 2h, 1h and 1h
            respectively"), kept apart when the steps are "all the machines".
        override: one step written duration first ("J4 needs 2 hours on M2"): where the job
            has a broader route through that machine, it sets that step's duration; otherwise
            it is the job's route.
        override_only: such a step inside an ``except`` clause: it must set the duration of
            a step of the broader route (a machine that route does not visit is a conflict).
        corrects: one step that corrects the stated duration of the job's step on that
            machine ("J1 needs 3h on M1, not 2h": 2.0); that step must exist exactly once.
        except_jobs: jobs a statement about every job leaves out ("All orders except J2
            go ..."); they need a route of their own.
    """

    jobs: tuple[str, ...] | None
    level: int
    steps: list[StepSpec]
    quote: str
    all_machines: bool = False
    uniform: float | None = None
    uniform_per_step: bool = False
    outer: RouteStatement | None = None
    excluded: tuple[str, ...] = ()
    respective: list[float] | None = None
    override: bool = False
    override_only: bool = False
    corrects: float | None = None
    except_jobs: tuple[str, ...] = ()


@dataclass
class ModifyStatement:
    """A change to a job's broader route: skipped machines, one machine replaced or one
    step added at its start or end.

    Attributes:
        jobs: the jobs it is about.
        level: the level of its subject.
        quote: the sentence it came from.
        skip: machines the jobs skip.
        replace: ``(old, new)`` machine ids.
        hours: the duration stated for the new machine, if any.
        add: a step added to the broader route ("J3 also needs M3 for 1h at the end").
        add_first: the added step comes first ("at the start"), else last.
        add_anchor: ``("after" | "before", machine)``: the added step stands next to the one
            step of the route on that machine ("J3 also goes to M5 for 1h after M2").
    """

    jobs: tuple[str, ...]
    level: int
    quote: str
    skip: tuple[str, ...] = ()
    replace: tuple[str, str] | None = None
    hours: float | None = None
    add: StepSpec | None = None
    add_first: bool = False
    add_anchor: tuple[str, str] | None = None


@dataclass
class StandardStatement:
    """"J2 and J3 follow the standard routing": the jobs take the route stated for every job."""

    jobs: tuple[str, ...]
    level: int
    quote: str


@dataclass
class SameRouteStatement:
    """"J6 takes the route of J5": the jobs take the route of another job; ``agreeing``
    are further jobs whose route must be that same route ("J5 and J6 ... J7 is the same":
    J7 takes J5's route, which must be J6's too)."""

    jobs: tuple[str, ...]
    source: str
    quote: str
    agreeing: tuple[str, ...] = ()


@dataclass
class DueStatement:
    """A due time (hour of the day) for some jobs (``jobs is None``: every job); ``hour`` is
    None where the text says the jobs have no due time."""

    jobs: tuple[str, ...] | None
    level: int
    hour: float | None
    quote: str
    corrects: float | None = None  # "J1 due 5pm not 3pm": the due hour this one replaces


@dataclass
class ValueCorrection:
    """A later word that corrects one step's duration by the value it replaces, without
    naming the machine (``sorry J41 is 90 not 45``): the step of ``job`` written with ``old``.

    Attributes:
        job: the job.
        new: the corrected value.
        old: the value it replaces.
        unit_hours: the hours of one unit of both values when they carry one (``90 min not
            45 min``: 1/60); None for bare numbers, which take the unit of the step they match.
        quote: the sentence.
    """

    job: str
    new: float
    old: float
    unit_hours: float | None
    quote: str


@dataclass
class MachineMention:
    """Machines named in a sentence that is about machines only.

    Attributes:
        ids: the machine ids in order.
        names: id -> name where the sentence names it ("M1 (lathe)", "M1 is the cutter").
        inventory: the sentence lists the plant's machines ("Machines: ...", "We have ...",
            two or more ids, "M1 only").
        out_of_service: the machines the sentence says are down / under maintenance.
        quote: the sentence.
    """

    ids: list[str]
    names: dict[str, str]
    inventory: bool
    out_of_service: list[str]
    quote: str


@dataclass
class Unread:
    """A sentence (or table row) the reader could not fully account for, with the reason.

    Attributes:
        quote: the writer's words (a line pass's rewriting is undone before it is reported).
        reason: why it was not read.
        read_as: the rewritten form the reader saw, when it is not what the writer wrote.
    """

    quote: str
    reason: str
    read_as: str | None = None


@dataclass
class Reading:
    """Everything read from one description, in text order."""

    machines: list[MachineMention] = field(default_factory=list)
    machine_names: list[tuple[str, str]] = field(default_factory=list)  # named in routes
    route_machines: list[str] = field(default_factory=list)
    jobs: list[str] = field(default_factory=list)
    job_names: dict[str, str] = field(default_factory=dict)
    routes: list[RouteStatement] = field(default_factory=list)
    modifications: list[ModifyStatement] = field(default_factory=list)
    standards: list[StandardStatement] = field(default_factory=list)
    same_routes: list[SameRouteStatement] = field(default_factory=list)
    dues: list[DueStatement] = field(default_factory=list)
    aside_names: list[tuple[str, str]] = field(default_factory=list)  # "M1 (saw)" anywhere
    defaults: list[tuple[float, str]] = field(default_factory=list)  # (hours, sentence)
    machine_counts: list[tuple[int, str]] = field(default_factory=list)  # "four machines"
    job_counts: list[tuple[int, str]] = field(default_factory=list)  # "three jobs today"
    value_corrections: list[ValueCorrection] = field(default_factory=list)
    due_moves: list[tuple[float, str]] = field(default_factory=list)  # "Make that 6pm"
    unread: list[Unread] = field(default_factory=list)

    def mention_job(self, job_id: str) -> None:
        """Record a job id in order of first mention."""
        if job_id not in self.jobs:
            self.jobs.append(job_id)

    def mention_route_machine(self, machine_id: str) -> None:
        """Record a machine id used in a route, in order of first use."""
        if machine_id not in self.route_machines:
            self.route_machines.append(machine_id)
