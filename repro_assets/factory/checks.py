"""Structure checks of stage 3 that look beyond one configuration. Pure functions.

* :func:`skeleton_problems`: the stage-2 output against the stage-1 skeleton (the LLM path can
  drop a job, add one, or route a job through a machine stage 1 never had);
* :func:`route_only_machines`: machine ids the text uses only in routes although it lists its
  machines elsewhere (``Machines: M1, M2, M3. J1: M1 2h -> M22 1h``): a typo or an
  undeclared machine, a structure problem whichever path parsed the text;
* :func:`disagreements`: an LLM configuration against the offline reading of the same text,
  when that reading is certain (every sentence read, valid structure);
* :func:`warnings_for`: what a successful onboarding should still tell the user.
"""

from __future__ import annotations

from typing import Any

from repro_assets.factory.models import (
    CoarseStructure,
    FactoryConfig,
    PreparsedIds,
    RawFactoryConfig,
)
from repro_assets.factory.normalize import StructureError, validate_and_normalize
from repro_assets.factory.reading import Declarations, read_factory_text


def skeleton_problems(
    skeleton: CoarseStructure, raw: RawFactoryConfig
) -> tuple[list[str], dict[str, Any]]:
    """Differences between the stage-1 skeleton and the stage-2 output.

    Returns:
        The problems (empty when stage 2 kept the skeleton) and their details: jobs missing
        in stage 2, jobs stage 2 added, machines it added or removed, and steps on machines
        outside the skeleton.
    """
    skeleton_machines = list(dict.fromkeys(m.id.strip() for m in skeleton.machines))
    skeleton_jobs = list(dict.fromkeys(j.id.strip() for j in skeleton.jobs))
    raw_machines = list(dict.fromkeys(m.id.strip() for m in raw.machines))
    raw_jobs = list(dict.fromkeys(j.id.strip() for j in raw.jobs))
    missing_jobs = [j for j in skeleton_jobs if j not in raw_jobs]
    added_jobs = [j for j in raw_jobs if j not in skeleton_jobs]
    added_machines = [m for m in raw_machines if m not in skeleton_machines]
    removed_machines = [m for m in skeleton_machines if m not in raw_machines]
    foreign = [
        f"job {job.id.strip()} step {n} runs on {step.machine_id.strip()}"
        for job in raw.jobs
        for n, step in enumerate(job.steps, start=1)
        if step.machine_id.strip() not in skeleton_machines
    ]
    problems = [f"stage-1 job {j} is missing in stage 2" for j in missing_jobs]
    problems += [f"stage 2 added job {j}, which stage 1 did not find" for j in added_jobs]
    problems += [f"stage 2 added machine {m}, which stage 1 did not find"
                 for m in added_machines]
    problems += [f"stage 2 dropped machine {m} of stage 1" for m in removed_machines]
    problems += [f"{item}, which is not a machine of stage 1" for item in foreign]
    details = {
        "missing_in_stage2": missing_jobs,
        "added_jobs": added_jobs,
        "added_machines": added_machines,
        "removed_machines": removed_machines,
        "steps_outside_skeleton": foreign,
    }
    return problems, details


def route_only_machines(ids: PreparsedIds, declarations: Declarations) -> list[str]:
    """Machine ids of the text that are never declared although the text lists its machines.

    Args:
        ids: the stage-0 ids.
        declarations: where the text declares machines (from the offline reader).

    Returns:
        Sorted machine ids; empty when the text never lists its machines (then machines named
        only in routes are machines).
    """
    if not declarations.inventory:
        return []
    declared = set(declarations.declared)
    return sorted(m for m in ids.machine_ids if m not in declared)


def _signature(config: FactoryConfig) -> dict[str, Any]:
    return {
        "machines": sorted({m.id for m in config.machines}),
        "jobs": {
            job.id: ([(s.machine_id, s.duration_hours) for s in job.steps], job.due_time_hour)
            for job in config.jobs
        },
    }


def disagreements(config: FactoryConfig, factory_text: str) -> list[str] | None:
    """Where ``config`` differs from the offline reading of ``factory_text``.

    Returns:
        None when the offline reading is not certain (a sentence it could not read, or an
        invalid structure): there is nothing reliable to compare with. Otherwise the list of
        differences (machines, jobs, routes with durations, due times); empty when they agree.
    """
    reading = read_factory_text(factory_text)
    if reading.unread:
        return None
    try:
        offline = validate_and_normalize(reading.raw)
    except StructureError:
        return None
    mine, theirs = _signature(config), _signature(offline)
    found: list[str] = []
    if mine["machines"] != theirs["machines"]:
        found.append(f"machines {mine['machines']} but the text reads {theirs['machines']}")
    for job in sorted(set(mine["jobs"]) | set(theirs["jobs"])):
        if job not in mine["jobs"] or job not in theirs["jobs"]:
            found.append(f"job {job} is in only one reading")
            continue
        (steps, due), (text_steps, text_due) = mine["jobs"][job], theirs["jobs"][job]
        if steps != text_steps:
            found.append(f"job {job}: route {_route(steps)} but the text reads "
                         f"{_route(text_steps)}")
        if due != text_due:
            found.append(f"job {job}: due {due} but the text reads {text_due}")
    return found


def warnings_for(config: FactoryConfig, factory_text: str, *, llm: bool) -> list[str]:
    """Warnings of a successful onboarding: machines without steps (out of service or not),
    and, on the LLM path, every sentence the offline reader could not check.
    """
    reading = read_factory_text(factory_text)
    used = {step.machine_id for job in config.jobs for step in job.steps}
    out: list[str] = []
    for machine in dict.fromkeys(m.id for m in config.machines):
        if machine in used:
            continue
        if machine in reading.declarations.out_of_service:
            out.append(f"machine {machine} is out of service: kept, with no steps")
        else:
            out.append(f"machine {machine} has no steps")
    if llm:
        out += [f"not checked by the offline reader: '{u.quote}' ({u.reason}"
                + (f"; read as: '{u.read_as}')" if u.read_as else ")")
                for u in reading.unread]
    return out


def _route(steps: list[tuple[str, int]]) -> str:
    return " -> ".join(f"{m} {h}h" for m, h in steps) or "(none)"
