"""Stage 3: normalization and invariants (RawFactoryConfig -> FactoryConfig or a hard fail).

:func:`normalize_factory` repairs what can be repaired without guessing and drops what cannot:

* repairs: ids and names are stripped, an empty name becomes the id, whole-number floats become
  ints, a fractional duration is rounded up to whole hours (never shorter than stated), a
  fractional due hour is rounded down (never later than stated), exact duplicate entries are
  merged;
* drops: a step on an undeclared machine, a step with no duration or a duration <= 0;
* problems: a due hour outside 0-24.

:func:`validate_and_normalize` then refuses every drop (each one would silently change a
routing the text states), every job left without steps, and every invariant violation of
:class:`FactoryConfig`, raising :class:`StructureError` with the list of problems.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from repro_assets.factory.models import (
    CoarseMachine,
    FactoryConfig,
    Job,
    Machine,
    RawFactoryConfig,
    RawJob,
    Step,
    structure_problems,
)


class StructureError(ValueError):
    """The configuration violates an invariant after normalization."""

    def __init__(self, problems: list[str], *, dropped_steps: list[str], lost_jobs: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems
        self.dropped_steps = dropped_steps
        self.lost_jobs = lost_jobs


class Normalization(BaseModel):
    """The outcome of :func:`normalize_factory`."""

    model_config = ConfigDict(extra="forbid")

    machines: list[Machine] = Field(description="Machines after repairs (duplicates possible).")
    jobs: list[dict] = Field(description="Jobs after repairs as plain dicts (may lack steps).")
    repairs: list[str] = Field(description="Each repair made, in order.")
    dropped_steps: list[str] = Field(description="Each dropped step with its reason.")
    lost_jobs: list[str] = Field(description="Jobs left without any step.")
    problems: list[str] = Field(description="Values that could not be repaired.")


def _whole_hours(value: float) -> int:
    return max(1, math.ceil(value - 1e-9))


def _dedupe_machines(
    machines: list[CoarseMachine], repairs: list[str]
) -> list[CoarseMachine]:
    kept: list[CoarseMachine] = []
    seen: set[tuple[str, str]] = set()
    for machine in machines:
        item = CoarseMachine(id=machine.id.strip(), name=machine.name.strip() or machine.id.strip())
        if not machine.name.strip():
            repairs.append(f"machine {item.id}: empty name set to the id")
        if (item.id, item.name) in seen:
            repairs.append(f"machine {item.id}: exact duplicate entry merged")
            continue
        seen.add((item.id, item.name))
        kept.append(item)
    return kept


def _dedupe_jobs(jobs: list[RawJob], repairs: list[str]) -> list[RawJob]:
    kept: list[RawJob] = []
    seen: set[str] = set()
    for job in jobs:
        fingerprint = job.model_dump_json()
        if fingerprint in seen:
            repairs.append(f"job {job.id.strip()}: exact duplicate entry merged")
            continue
        seen.add(fingerprint)
        kept.append(job)
    return kept


def normalize_factory(raw: RawFactoryConfig) -> Normalization:
    """Repair durations, names and due times; drop invalid steps; report everything.

    Args:
        raw: the stage-2 output.

    Returns:
        A :class:`Normalization` listing the repairs, dropped steps, lost jobs and problems.
    """
    repairs: list[str] = []
    dropped: list[str] = []
    lost: list[str] = []
    problems: list[str] = []
    machines = _dedupe_machines(raw.machines, repairs)
    declared = {machine.id for machine in machines}
    jobs: list[dict] = []
    for job in _dedupe_jobs(raw.jobs, repairs):
        job_id = job.id.strip()
        name = job.name.strip() or job_id
        steps: list[dict] = []
        for index, step in enumerate(job.steps, start=1):
            machine_id = step.machine_id.strip()
            where = f"job {job_id} step {index} on {machine_id}"
            if machine_id not in declared:
                dropped.append(f"{where}: machine {machine_id} is not declared")
                continue
            duration = step.duration_hours
            if duration is None or not math.isfinite(duration):
                dropped.append(f"{where}: no duration stated")
                continue
            if duration <= 0:
                dropped.append(f"{where}: duration {duration:g}h is not positive")
                continue
            hours = _whole_hours(duration)
            if hours != duration:
                repairs.append(f"{where}: duration {duration:g}h rounded up to {hours}h")
            steps.append({"machine_id": machine_id, "duration_hours": hours})
        due: int | None = None
        if job.due_time_hour is not None:
            if not 0 <= job.due_time_hour <= 24:
                problems.append(f"job {job_id}: due hour {job.due_time_hour:g} is outside 0-24")
            else:
                due = math.floor(job.due_time_hour)
                if due != job.due_time_hour:
                    repairs.append(
                        f"job {job_id}: due hour {job.due_time_hour:g} rounded down to {due}")
        if not steps:
            lost.append(job_id)
        jobs.append({"id": job_id, "name": name, "steps": steps, "due_time_hour": due})
    return Normalization(
        machines=[Machine(id=m.id, name=m.name) for m in machines if m.id],
        jobs=jobs,
        repairs=repairs,
        dropped_steps=dropped,
        lost_jobs=lost,
        problems=problems,
    )


def validate_and_normalize(raw_factory: RawFactoryConfig) -> FactoryConfig:
    """Normalize ``raw_factory`` and return it as a :class:`FactoryConfig`, or raise.

    Args:
        raw_factory: the stage-2 output.

    Returns:
        The validated configuration.

    Raises:
        StructureError: a step was dropped (undeclared machine, missing or non-positive
            duration), a job lost all its steps, a due hour is out of range, or an invariant of
            :class:`FactoryConfig` fails (duplicate ids, no machines or no jobs).
    """
    result = normalize_factory(raw_factory)
    problems = [f"dropped {item}" for item in result.dropped_steps]
    problems += [f"job {job_id} has no valid step" for job_id in result.lost_jobs]
    problems += result.problems
    if not result.machines:
        problems.append("no machines")
    if not result.jobs:
        problems.append("no jobs")
    if not problems:
        try:
            config = FactoryConfig(
                machines=result.machines,
                jobs=[
                    Job(
                        id=job["id"],
                        name=job["name"],
                        steps=[Step(**step) for step in job["steps"]],
                        due_time_hour=job["due_time_hour"],
                    )
                    for job in result.jobs
                ],
            )
        except ValidationError:
            unchecked = FactoryConfig.model_construct(
                machines=result.machines,
                jobs=[
                    Job.model_construct(
                        id=job["id"],
                        name=job["name"],
                        steps=[Step.model_construct(**step) for step in job["steps"]],
                        due_time_hour=job["due_time_hour"],
                    )
                    for job in result.jobs
                ],
            )
            problems = structure_problems(unchecked) or ["configuration failed validation"]
        else:
            return config
    raise StructureError(problems, dropped_steps=result.dropped_steps, lost_jobs=result.lost_jobs)
