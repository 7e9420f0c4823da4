"""Stages 1 and 2 without an LLM: the skeleton and the routes read by
:mod:`repro_assets.factory.reading`.

The reader understands a set of phrasing families: arrows and "then", colon routes, bullet
and numbered lists (one step per sentence, pronouns, "after that", "back to M1"), tables of
any delimiter (markdown/pipe/wiki tables, CSV/TSV/semicolon lines with or without a header,
fixed-width ERP reports, one column per step, route cells with hours in the header's unit),
durations (minutes, "1h30", setup + run, quantity × cycle time, a default stated once), due
times (``16``, ``16:00``, ``1600``, ``4pm``, ``noon``, "ship by", terms the text defines such
as "our EOD is 18:00" or a shift table, one plan weekday), a standard route with per-job
exceptions and references ("same route as J1", "follows the standard route but skips M3"),
machines referenced by their declared names, jobs before machines, machines named only in
routes, id ranges, named ids, out-of-service machines. It reports every sentence about jobs
it cannot fully read; the agent turns those into a hard fail (the certainty rule).
"""

from __future__ import annotations

from repro_assets.factory.models import CoarseStructure, RawFactoryConfig
from repro_assets.factory.reading import read_factory_text


def parse_coarse(factory_text: str) -> CoarseStructure:
    """Return the machines and jobs the text declares (stage 1, offline)."""
    return read_factory_text(factory_text).skeleton.model_copy(deep=True)


def parse_steps(factory_text: str, skeleton: CoarseStructure) -> RawFactoryConfig:
    """Return the skeleton's jobs with routes, durations and due times (stage 2, offline).

    Args:
        factory_text: the free-text description.
        skeleton: the stage-1 skeleton (the offline one from :func:`parse_coarse`).

    Returns:
        The raw configuration: the skeleton's machines, and for each skeleton job the jobs
        read (several with the same id when the text states conflicting routes; none with
        steps when it states no route).
    """
    raw = read_factory_text(factory_text).raw
    order = [job.id for job in skeleton.jobs]
    jobs = [job for job_id in order for job in raw.jobs if job.id == job_id]
    return RawFactoryConfig(
        machines=[m.model_copy() for m in skeleton.machines],
        jobs=[job.model_copy(deep=True) for job in jobs],
    )
