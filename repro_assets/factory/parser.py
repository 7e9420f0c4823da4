"""Offline (no LLM) deterministic parser for stages 1 and 2.

It understands a small set of common phrasings and nothing else; anything it does not
understand is left out, so the coverage check and the invariants of stage 3 turn a
misunderstanding into a hard fail instead of a guess.

Machines are declared by (stage 1):

* ``M1 (assembly)``: an id followed by a parenthesised name (not ``(not M3)``, not ``(2h)``);
* a sentence that says "machine(s)" and names no job: ``We run 4 machines: M1, M2, M3, M4.``;
* ``M1 only`` / ``only M1``; a sentence ``M1: assembly`` or ``M1 = assembly``.

Jobs are declared by being the subject of a sentence (``J1: ...``, ``J1 and J2 use ...``,
``Jobs J1-J4 ...``) or listed in a sentence that says "job(s)"/"order(s)" and names no machine.

Routings and times (stage 2), one sentence at a time, for the subject jobs:

* ``J1: M1 2h → M2 3h`` (also ``->``, ``=>``, ``then``, ``M1 for 2h``, ``M1 (2h)``);
* ``J1 does 2h on M1, 3h on M5``;
* ``J2 uses M1, M2, M4 (not M3)`` (``(not ...)`` asides are ignored);
* ``J1, J2, J3, J4 each pass through them in sequence`` (``them``/``all machines``: every
  declared machine in declaration order) and ``Jobs pass through M1, M2, M3 in sequence``
  (a sentence about "jobs" without ids applies to every job);
* durations after the route: ``taking 2h, 3h and 1h respectively`` (one per step) or
  ``1h on each`` / ``2h each`` (one for all steps); minutes are converted to hours;
* due times ``due by 17:00``, ``due at 5pm``, ``deadline 12:30``.

A statement about one job beats a statement about listed jobs, which beats a statement about
all jobs; two different statements at the same level are both emitted, so stage 3 reports a
duplicate instead of picking one. A step whose duration is not stated takes the duration the
same job's broader statement gave for that machine, if any; otherwise it stays unknown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repro_assets.factory.ids import ANY_ID_RE, JOB_ID_RE, MACHINE_ID_RE, expand_ranges
from repro_assets.factory.models import (
    CoarseJob,
    CoarseMachine,
    CoarseStructure,
    RawFactoryConfig,
    RawJob,
    RawStep,
)

_ARROWS_RE = re.compile(r"\s*(?:→|⟶|➔|->|=>|—>|-->)\s*")
_BULLET_RE = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?;])\s+|\n+")
_NOT_ASIDE_RE = re.compile(r"\(\s*(?:not|except|but not|excluding)\b[^()]*\)", re.IGNORECASE)
_MID = MACHINE_ID_RE.pattern
_JID = JOB_ID_RE.pattern
_NAME_DECL_RE = re.compile(rf"(?P<id>{_MID})\s*\((?P<name>[^()]*)\)")
_VALID_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9 &/'\-]*$")
_LINE_DECL_RE = re.compile(rf"^(?P<id>{_MID})\s*[:=]\s*(?P<name>[A-Za-z][A-Za-z0-9 &/'\-]*)$")
_ID_LIST = r"{id}(?:\s*(?:,|&|\band\b|\bor\b)\s*{id})*"
_ONLY_RE = re.compile(
    rf"(?:(?P<before>{_ID_LIST.format(id=_MID)})\s+only\b)"
    rf"|(?:\bonly\s+(?P<after>{_ID_LIST.format(id=_MID)}))",
    re.IGNORECASE,
)
_MACHINE_WORD_RE = re.compile(r"\bmachines?\b", re.IGNORECASE)
_JOB_WORD_RE = re.compile(r"\b(?:jobs?|orders?)\b", re.IGNORECASE)
_FILLER = r"(?i:(?:and|also|finally|next|all|every|each|of|the|our|jobs?|orders?)\s+)*"
_JOB_LIST = (
    rf"{_JID}(?:\s*(?:,|&|(?i:\band\b)|(?i:\bor\b)|-|–|—|\.\.|(?i:\bto\b)|(?i:\bthrough\b))"
    rf"\s*{_JID})*"
)
_SUBJECT_RE = re.compile(rf"^\s*(?P<filler>{_FILLER})(?P<list>{_JOB_LIST})?")
_GENERIC_SUBJECT_RE = re.compile(r"\b(?:jobs|every job|each job|all jobs)\b", re.IGNORECASE)
_ALL_MACHINES_RE = re.compile(
    r"\b(?:them|all (?:the |\d+ )?machines|every machine|each machine|each of them)\b",
    re.IGNORECASE,
)
_NUM = r"\d+(?:\.\d+)?"
_DURATION_RE = re.compile(
    rf"(?P<value>{_NUM})\s*(?:(?P<hours>h|hr|hrs|hour|hours)|(?P<minutes>min|mins|minutes))\b",
    re.IGNORECASE,
)
_PAREN_DURATION_RE = re.compile(rf"\(\s*({_NUM}\s*(?:h|hr|hrs|hours?|min|mins|minutes))\s*\)")
_DUE_RE = re.compile(
    r"\b(?:due|deadline)\s*(?:time\s*)?(?:is\s*)?(?:by|at|before|:|of)?\s*(?:hour\s*)?"
    r"(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ampm>am|pm)?",
    re.IGNORECASE,
)
_UNIFORM_RE = re.compile(
    r"\b(?:each|apiece|every (?:machine|step)|per (?:machine|step)|on all|at all)\b",
    re.IGNORECASE,
)
_PAIR_BEFORE_ID_RE = re.compile(r"^\s*(?:on|at|in|with|using)\s*$", re.IGNORECASE)
_PAIR_AFTER_ID_RE = re.compile(
    r"^[\s:=(]*(?:for|takes|taking|needs|needing|of)?\s*$", re.IGNORECASE
)

LEVEL_ALL, LEVEL_LISTED, LEVEL_ONE = 0, 1, 2


def sentences(text: str) -> list[str]:
    """Split ``text`` into sentences with arrows normalized to ``→`` and bullets removed."""
    text = _ARROWS_RE.sub(" → ", text)
    text = re.sub(r"\bthen\b", "→", text, flags=re.IGNORECASE)
    out = []
    for part in _SENTENCE_SPLIT_RE.split(text):
        part = _BULLET_RE.sub("", part).strip().lstrip("→ ").strip()
        if part:
            out.append(part)
    return out


def _ids_in(text: str, pattern: re.Pattern[str]) -> list[str]:
    """Ids of ``pattern`` in order of appearance, ranges expanded, first occurrence only."""
    found: list[tuple[int, str]] = [(m.start(), m.group(0)) for m in pattern.finditer(text)]
    for matched, ids in expand_ranges(text):
        if pattern.fullmatch(ids[0]):
            start = text.find(matched)
            found += [(start, item) for item in ids]
    found.sort(key=lambda item: item[0])
    ordered: list[str] = []
    for _, item in found:
        if item not in ordered:
            ordered.append(item)
    return ordered


def _subject(sentence: str) -> tuple[list[str], bool, str]:
    """Return ``(job ids, generic, remainder)`` of a sentence's subject."""
    match = _SUBJECT_RE.match(sentence)
    if match is None:
        return [], False, sentence
    listed = match.group("list")
    if listed:
        return _ids_in(listed, JOB_ID_RE), False, sentence[match.end():]
    filler = match.group("filler") or ""
    if _GENERIC_SUBJECT_RE.search(filler):
        return [], True, sentence[match.end():]
    return [], False, sentence


# --- stage 1 ---------------------------------------------------------------------------------


def parse_coarse(factory_text: str) -> CoarseStructure:
    """Return the machines and jobs the text declares in a recognized phrasing.

    Args:
        factory_text: the free-text factory description.

    Returns:
        Machines in order of first declaration (a machine declared with two different names
        appears twice) and jobs in order of first mention as a subject or in a job list.
    """
    names: dict[str, list[str]] = {}
    order: list[str] = []

    def declare(machine_id: str, name: str | None) -> None:
        if machine_id not in names:
            names[machine_id] = []
            order.append(machine_id)
        if name and name not in names[machine_id]:
            names[machine_id].append(name)

    jobs: list[str] = []
    for sentence in sentences(factory_text):
        clean = _NOT_ASIDE_RE.sub(" ", sentence)
        for match in _NAME_DECL_RE.finditer(clean):
            name = match.group("name").strip()
            if _VALID_NAME_RE.match(name) and not ANY_ID_RE.search(name):
                declare(match.group("id"), name.lower() if name.isupper() else name)
        line = _LINE_DECL_RE.match(clean.rstrip(". "))
        if line:
            declare(line.group("id"), line.group("name").strip())
        job_ids = _ids_in(clean, JOB_ID_RE)
        machine_ids = _ids_in(clean, MACHINE_ID_RE)
        if _MACHINE_WORD_RE.search(clean) and not job_ids:
            for machine_id in machine_ids:
                declare(machine_id, None)
        for match in _ONLY_RE.finditer(clean):
            for machine_id in _ids_in(match.group(0), MACHINE_ID_RE):
                declare(machine_id, None)
        subject, _, _ = _subject(clean)
        declared_jobs = list(subject)
        if _JOB_WORD_RE.search(clean) and not machine_ids:
            declared_jobs += job_ids
        for job_id in declared_jobs:
            if job_id not in jobs:
                jobs.append(job_id)
    machines = [
        CoarseMachine(id=machine_id, name=name)
        for machine_id in order
        for name in (names[machine_id] or [machine_id])
    ]
    return CoarseStructure(machines=machines, jobs=[CoarseJob(id=j, name=j) for j in jobs])


# --- stage 2 ---------------------------------------------------------------------------------


@dataclass
class _Definition:
    """What one sentence says about one job."""

    level: int
    steps: list[tuple[str, float | None]] | None = None
    due: float | None = None


@dataclass
class _JobFacts:
    routes: list[_Definition] = field(default_factory=list)
    dues: list[_Definition] = field(default_factory=list)


def _due_hour(remainder: str) -> tuple[float | None, str]:
    match = _DUE_RE.search(remainder)
    if match is None:
        return None, remainder
    hour = float(match.group("h"))
    ampm = (match.group("ampm") or "").lower()
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    if match.group("m"):
        hour += int(match.group("m")) / 60
    return hour, remainder[: match.start()] + " " + remainder[match.end():]


def _durations(text: str) -> list[tuple[int, int, float]]:
    out = []
    for match in _DURATION_RE.finditer(text):
        value = float(match.group("value"))
        if match.group("minutes"):
            value /= 60
        out.append((match.start(), match.end(), value))
    return out


def _route(remainder: str, declared: list[str]) -> list[tuple[str, float | None]] | None:
    """Parse the machine sequence and durations of a clause; None when it has no routing."""
    text = _PAREN_DURATION_RE.sub(r" \1 ", _NOT_ASIDE_RE.sub(" ", remainder))
    ids: list[tuple[int, int, str]] = []
    covered: list[tuple[int, int]] = []
    for matched, range_ids in expand_ranges(text):
        if range_ids[0].startswith("M"):
            start = text.find(matched)
            covered.append((start, start + len(matched)))
            ids += [(start, start + len(matched), item) for item in range_ids]
    for match in MACHINE_ID_RE.finditer(text):
        if not any(a <= match.start() < b for a, b in covered):
            ids.append((match.start(), match.end(), match.group(0)))
    ids.sort(key=lambda item: item[0])
    durations = _durations(text)
    if not ids:
        every = _ALL_MACHINES_RE.search(text)
        if every is None or not declared:
            return None
        ids = [(every.start(), every.end(), machine_id) for machine_id in declared]
    steps: list[tuple[str, float | None]] = [(item[2], None) for item in ids]
    if not durations:
        return steps
    last_id_end = max(item[1] for item in ids)
    if all(start >= last_id_end for start, _, _ in durations):
        if len(durations) == len(ids) and len(ids) > 1:
            return [(step[0], durations[n][2]) for n, step in enumerate(steps)]
        if len(durations) == 1 and (_UNIFORM_RE.search(text) or len(ids) == 1):
            return [(step[0], durations[0][2]) for step in steps]
    first_id_start = min(item[0] for item in ids)
    if (
        len(durations) == 1
        and durations[0][1] <= first_id_start
        and _UNIFORM_RE.search(text)
        and len(ids) > 1
    ):
        return [(step[0], durations[0][2]) for step in steps]
    values: list[float | None] = [None] * len(ids)
    restated: set[int] = set()  # "1h on M4" naming a step already listed earlier
    unpaired = 0
    for start, end, value in durations:
        after = next((n for n, item in enumerate(ids) if item[0] >= end), None)
        before = max((n for n, item in enumerate(ids) if item[1] <= start), default=None)
        if (
            after is not None
            and values[after] is None
            and _PAIR_BEFORE_ID_RE.match(text[end : ids[after][0]])
        ):
            earlier = next(
                (
                    n
                    for n in range(after)
                    if ids[n][2] == ids[after][2] and values[n] is None and n not in restated
                ),
                None,
            )
            if earlier is not None and before is not None and before >= earlier:
                values[earlier] = value
                restated.add(after)
            else:
                values[after] = value
        elif (
            before is not None
            and values[before] is None
            and _PAIR_AFTER_ID_RE.match(text[ids[before][1] : start])
        ):
            values[before] = value
        else:
            unpaired += 1
    if unpaired:  # a duration we cannot attach: refuse to attach any rather than guess
        return steps
    return [(step[0], values[n]) for n, step in enumerate(steps) if n not in restated]


def _inherit(
    steps: list[tuple[str, float | None]], broader: list[_Definition]
) -> list[tuple[str, float | None]]:
    known: dict[str, float] = {}
    for definition in sorted(broader, key=lambda d: -d.level):
        for machine_id, duration in definition.steps or []:
            if duration is not None:
                known.setdefault(machine_id, duration)
    return [(m, d if d is not None else known.get(m)) for m, d in steps]


def _distinct(definitions: list[_Definition], attr: str) -> list[_Definition]:
    top = max(d.level for d in definitions)
    out: list[_Definition] = []
    for definition in definitions:
        if definition.level == top and all(
            getattr(definition, attr) != getattr(o, attr) for o in out
        ):
            out.append(definition)
    return out


def parse_steps(factory_text: str, skeleton: CoarseStructure) -> RawFactoryConfig:
    """Attach routings, durations and due times to the skeleton's jobs.

    Args:
        factory_text: the free-text factory description.
        skeleton: the stage-1 machines and jobs.

    Returns:
        The raw configuration; a job the text gives no routing for has no steps, and a job
        with two conflicting statements at the same level appears twice.
    """
    declared = list(dict.fromkeys(machine.id for machine in skeleton.machines))
    job_ids = [job.id for job in skeleton.jobs]
    facts: dict[str, _JobFacts] = {job_id: _JobFacts() for job_id in job_ids}
    for sentence in sentences(factory_text):
        subject, generic, remainder = _subject(sentence)
        if generic:
            targets, level = job_ids, LEVEL_ALL
        elif subject:
            targets = [job_id for job_id in subject if job_id in facts]
            level = LEVEL_ONE if len(subject) == 1 else LEVEL_LISTED
        else:
            continue
        due, remainder = _due_hour(remainder)
        steps = _route(remainder, declared)
        for job_id in targets:
            if steps is not None:
                facts[job_id].routes.append(_Definition(level=level, steps=list(steps)))
            if due is not None:
                facts[job_id].dues.append(_Definition(level=level, due=due))
    jobs: list[RawJob] = []
    names = {job.id: job.name for job in skeleton.jobs}
    for job_id in job_ids:
        job_facts = facts[job_id]
        routes = _distinct(job_facts.routes, "steps") if job_facts.routes else []
        dues = _distinct(job_facts.dues, "due") if job_facts.dues else []
        variants = max(len(routes), len(dues), 1)
        for n in range(variants):
            route = routes[min(n, len(routes) - 1)] if routes else None
            due_def = dues[min(n, len(dues) - 1)] if dues else None
            steps = []
            if route is not None:
                broader = [d for d in job_facts.routes if d.level < route.level]
                steps = _inherit(route.steps or [], broader)
            jobs.append(
                RawJob(
                    id=job_id,
                    name=names[job_id],
                    steps=[RawStep(machine_id=m, duration_hours=d) for m, d in steps],
                    due_time_hour=due_def.due if due_def else None,
                )
            )
    return RawFactoryConfig(machines=list(skeleton.machines), jobs=jobs)
