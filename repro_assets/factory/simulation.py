"""Job-shop schedule simulation of a :class:`FactoryConfig` (our ``/api/simulate``).

A non-delay dispatching simulation: time advances from event to event (a machine becomes
free or a job finishes a step); whenever a machine is idle, it starts the waiting job chosen
by the dispatch rule among the jobs whose next step is on it and whose previous step is done.
Each machine processes one job at a time, steps run in routing order, nothing is preempted.

Rules:

* ``EDD`` (earliest due date): smallest due hour first; jobs without a due hour last.
* ``SPT`` (shortest processing time): shortest duration of the waiting step first.

Ties go to the job listed first in the configuration; machines are served in declaration
order, so the result is deterministic.
"""

from __future__ import annotations

import math
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.factory.models import FactoryConfig


class DispatchRule(StrEnum):
    """Dispatch rules of the simulation."""

    EDD = "EDD"
    SPT = "SPT"


class Operation(BaseModel):
    """One scheduled step."""

    model_config = ConfigDict(extra="forbid")

    job_id: str = Field(description="Job id.")
    step_index: int = Field(description="0-based index of the step in the job's routing.")
    machine_id: str = Field(description="Machine id.")
    start: int = Field(description="Start, hours after the schedule start.")
    end: int = Field(description="End, hours after the schedule start.")


class JobOutcome(BaseModel):
    """Completion and lateness of one job."""

    model_config = ConfigDict(extra="forbid")

    job_id: str = Field(description="Job id.")
    completion: int = Field(description="Completion, hours after the schedule start.")
    completion_hour: int = Field(description="Completion as an hour of the day.")
    due_time_hour: int | None = Field(description="Due hour of the day, if any.")
    lateness: int | None = Field(description="completion_hour - due (negative = early).")
    tardiness: int | None = Field(description="max(0, lateness).")


class Schedule(BaseModel):
    """The simulated schedule and its figures."""

    model_config = ConfigDict(extra="forbid")

    rule: DispatchRule = Field(description="Dispatch rule used.")
    start_hour: int = Field(description="Hour of the day at which the schedule starts.")
    makespan: int = Field(description="Hours from start until the last step ends.")
    operations: list[Operation] = Field(description="Every scheduled step, by start time.")
    jobs: list[JobOutcome] = Field(description="Per-job completion and lateness.")
    utilisation: dict[str, float] = Field(description="Busy hours / makespan per machine.")
    max_lateness: int | None = Field(description="Largest lateness over jobs with a due hour.")
    total_tardiness: int = Field(description="Sum of tardiness over jobs with a due hour.")
    late_jobs: list[str] = Field(description="Jobs finishing after their due hour.")


def _priority(rule: DispatchRule, due: int | None, duration: int, order: int) -> tuple:
    if rule is DispatchRule.EDD:
        return (math.inf if due is None else due, order)
    return (duration, order)


def simulate(
    config: FactoryConfig, rule: DispatchRule | str = DispatchRule.EDD, start_hour: int = 0
) -> Schedule:
    """Simulate ``config`` under a dispatch rule.

    Args:
        config: a validated factory.
        rule: ``EDD`` or ``SPT``.
        start_hour: hour of the day at which all jobs are released (due hours are hours of the
            day, so lateness is ``start_hour + completion - due``).

    Returns:
        The :class:`Schedule`.
    """
    rule = DispatchRule(rule)
    next_step = {job.id: 0 for job in config.jobs}
    job_ready = {job.id: 0 for job in config.jobs}
    machine_free = {machine.id: 0 for machine in config.machines}
    operations: list[Operation] = []
    remaining = sum(len(job.steps) for job in config.jobs)
    now = 0
    while remaining:
        for machine in config.machines:
            if machine_free[machine.id] > now:
                continue
            waiting = [
                (order, job)
                for order, job in enumerate(config.jobs)
                if next_step[job.id] < len(job.steps)
                and job.steps[next_step[job.id]].machine_id == machine.id
                and job_ready[job.id] <= now
            ]
            if not waiting:
                continue
            order, job = min(
                waiting,
                key=lambda item: _priority(
                    rule,
                    item[1].due_time_hour,
                    item[1].steps[next_step[item[1].id]].duration_hours,
                    item[0],
                ),
            )
            index = next_step[job.id]
            end = now + job.steps[index].duration_hours
            operations.append(
                Operation(
                    job_id=job.id, step_index=index, machine_id=machine.id, start=now, end=end
                )
            )
            machine_free[machine.id] = end
            job_ready[job.id] = end
            next_step[job.id] = index + 1
            remaining -= 1
        if not remaining:
            break
        future = [t for t in (*machine_free.values(), *job_ready.values()) if t > now]
        now = min(future)
    makespan = max((op.end for op in operations), default=0)
    outcomes = []
    for job in config.jobs:
        completion = job_ready[job.id]
        clock = start_hour + completion
        lateness = None if job.due_time_hour is None else clock - job.due_time_hour
        outcomes.append(
            JobOutcome(
                job_id=job.id,
                completion=completion,
                completion_hour=clock,
                due_time_hour=job.due_time_hour,
                lateness=lateness,
                tardiness=None if lateness is None else max(0, lateness),
            )
        )
    busy = {machine.id: 0 for machine in config.machines}
    for op in operations:
        busy[op.machine_id] += op.end - op.start
    latenesses = [o.lateness for o in outcomes if o.lateness is not None]
    return Schedule(
        rule=rule,
        start_hour=start_hour,
        makespan=makespan,
        operations=sorted(operations, key=lambda op: (op.start, op.machine_id)),
        jobs=outcomes,
        utilisation={m: (round(b / makespan, 4) if makespan else 0.0) for m, b in busy.items()},
        max_lateness=max(latenesses) if latenesses else None,
        total_tardiness=sum(max(0, x) for x in latenesses),
        late_jobs=[o.job_id for o in outcomes if o.lateness is not None and o.lateness > 0],
    )


def gantt_png(config: FactoryConfig, schedules: list[Schedule], title: str = "") -> bytes:
    """Render one Gantt chart per schedule (machines as rows, jobs as coloured bars) as PNG.

    Args:
        config: the factory (machine order and names).
        schedules: the schedules to draw, one subplot each.
        title: figure title.

    Returns:
        PNG bytes.
    """
    import io

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    machines = [machine.id for machine in config.machines]
    colours = matplotlib.colormaps["tab20"]
    job_colour = {job.id: colours(n % 20) for n, job in enumerate(config.jobs)}
    figure = Figure(figsize=(10, 1.2 + 0.55 * len(machines) * len(schedules)), dpi=100)
    axes = figure.subplots(len(schedules), 1, squeeze=False)[:, 0]
    for ax, schedule in zip(axes, schedules, strict=True):
        for op in schedule.operations:
            row = machines.index(op.machine_id)
            ax.barh(
                row,
                op.end - op.start,
                left=op.start,
                color=job_colour[op.job_id],
                edgecolor="black",
                linewidth=0.6,
            )
            ax.text(
                (op.start + op.end) / 2, row, op.job_id, ha="center", va="center", fontsize=8
            )
        ax.set_yticks(range(len(machines)), labels=machines)
        ax.invert_yaxis()
        ax.set_xlim(0, max(schedule.makespan, 1))
        ax.set_xlabel(f"hours after {schedule.start_hour:02d}:00")
        late = f", late: {', '.join(schedule.late_jobs)}" if schedule.late_jobs else ""
        ax.set_title(f"{schedule.rule.value}: makespan {schedule.makespan}h{late}", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    if title:
        figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def schedule_problems(config: FactoryConfig, schedule: Schedule) -> list[str]:
    """Return the feasibility violations of ``schedule`` for ``config`` (empty when feasible).

    Checks that every step is scheduled exactly once with its duration, on its machine, after
    the job's previous step, that no machine runs two operations at once, and that the makespan
    is the last end.
    """
    problems: list[str] = []
    by_job: dict[str, list[Operation]] = {}
    for op in schedule.operations:
        by_job.setdefault(op.job_id, []).append(op)
    for job in config.jobs:
        ops = sorted(by_job.get(job.id, []), key=lambda op: op.step_index)
        if [op.step_index for op in ops] != list(range(len(job.steps))):
            problems.append(f"job {job.id}: steps scheduled {[op.step_index for op in ops]}")
            continue
        previous_end = 0
        for op, step in zip(ops, job.steps, strict=True):
            if op.machine_id != step.machine_id or op.end - op.start != step.duration_hours:
                problems.append(f"job {job.id} step {op.step_index}: wrong machine or duration")
            if op.start < previous_end:
                problems.append(f"job {job.id} step {op.step_index}: starts before previous ends")
            previous_end = op.end
    by_machine: dict[str, list[Operation]] = {}
    for op in schedule.operations:
        by_machine.setdefault(op.machine_id, []).append(op)
    for machine_id, ops in by_machine.items():
        ops.sort(key=lambda op: op.start)
        for first, second in zip(ops, ops[1:], strict=False):
            if second.start < first.end:
                problems.append(
                    f"machine {machine_id}: {first.job_id} and {second.job_id} overlap"
                )
    if schedule.makespan != max((op.end for op in schedule.operations), default=0):
        problems.append("makespan is not the last end")
    return problems
