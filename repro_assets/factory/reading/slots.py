"""Time slots: a day told as one slot per operation (a calendar or a Gantt export).

``06:00-08:00  J7 @ M3`` or ``J7  M3  start 07:00  end 09:30``: the job runs on the machine
from the first time to the second, so the step takes the time between them, and a job's steps
follow in the order of their start times. Such a line is rewritten as the operation it stands
for (``J7 op10 M3 120 min``) when it holds exactly one job id, one
machine id and one slot and nothing else (``@``, ``on``, ``at``, ``start``/``end``,
``from``/``to``). A slot that ends at or before it starts (past midnight) or a line with any
other word is left as written, for the reader to read or to report. The fixed start times are
not part of the configuration: the schedule is simulated from the routes.
"""

from __future__ import annotations

import re
from itertools import pairwise

from repro_assets.factory.ids import id_pattern

_JOB = id_pattern("J", "job")
_MACHINE = id_pattern("M", "machine")
_CLOCK = r"\d{1,2}[:.]\d{2}"
_RANGE = (rf"(?:(?:from\s+)?(?P<a>{_CLOCK})\s*(?:-|\u2013|to)\s*(?P<b>{_CLOCK})"
          rf"|start\s+(?P<sa>{_CLOCK})\s+end\s+(?P<sb>{_CLOCK}))")
_JOINER = r"(?:\s+(?:@|on|at)\s+|\s+|\s*@\s*)"
_SLOT_RES = (
    re.compile(rf"(?i)^\s*{_RANGE}\s+{_JOB}{_JOINER}{_MACHINE}\s*$"),
    re.compile(rf"(?i)^\s*{_JOB}{_JOINER}{_MACHINE}\s+{_RANGE}\s*$"),
)


def _minutes(clock: str) -> int | None:
    """The minute of the day of a clock time; None when it is no time (``07:75``)."""
    hour, minute = (int(part) for part in re.split(r"[:.]", clock))
    if minute >= 60 or hour > 24:
        return None
    return hour * 60 + minute


def _slot(line: str) -> tuple[str, str, int, int] | None:
    """The job, the machine, and the start and end minute of a slot line; None for any
    other line."""
    for pattern in _SLOT_RES:
        match = pattern.match(line)
        if match is None:
            continue
        start = _minutes(match.group("a") or match.group("sa"))
        end = _minutes(match.group("b") or match.group("sb"))
        if start is None or end is None or start >= end or end > 24 * 60:
            return None  # past midnight, or no time
        return match.group("job"), match.group("machine"), start, end
    return None


def slot_lines(lines: list[str]) -> None:
    """Rewrite (in place) every line that is one job's slot on one machine as that job's
    operation (``J7 op20 M3 60 min``, numbered by start time), when two lines or more of the
    text are such slots and no two slots of a job overlap."""
    slots = {index: slot for index, line in enumerate(lines) if (slot := _slot(line))}
    if len(slots) < 2:
        return
    by_job: dict[str, list[tuple[int, int, int]]] = {}
    for index, (job, _, start, end) in slots.items():
        by_job.setdefault(job, []).append((start, end, index))
    for job_slots in by_job.values():
        job_slots.sort()
        if any(later[0] < earlier[1] for earlier, later in pairwise(job_slots)):
            return  # one job on two machines at once: no route
    for job_slots in by_job.values():
        for position, (start, end, index) in enumerate(job_slots, start=1):
            job, machine = slots[index][0], slots[index][1]
            lines[index] = f"{job} op{position * 10} {machine} {end - start} min"
