"""Stage 4 (measure only): compare detected ids with parsed ids. Pure, no logging, no decisions."""

from __future__ import annotations

from collections.abc import Iterable

from repro_assets.factory.models import CoverageReport, FactoryConfig, PreparsedIds


def _ratio(detected: set[str], parsed: set[str]) -> float | None:
    if not detected:
        return None
    return len(parsed & detected) / len(detected)


def coverage_of(
    ids: PreparsedIds, machine_ids: Iterable[str], job_ids: Iterable[str]
) -> CoverageReport:
    """Return the coverage of ``ids`` by the given parsed machine and job ids.

    Args:
        ids: the stage-0 ids.
        machine_ids: parsed machine ids (duplicates are ignored).
        job_ids: parsed job ids.

    Returns:
        Ratios ``|parsed ∩ detected| / |detected|`` (None when nothing was detected), missing
        and extra ids, each sorted.
    """
    detected_m, detected_j = set(ids.machine_ids), set(ids.job_ids)
    parsed_m, parsed_j = set(machine_ids), set(job_ids)
    return CoverageReport(
        machine_coverage=_ratio(detected_m, parsed_m),
        job_coverage=_ratio(detected_j, parsed_j),
        missing_machines=sorted(detected_m - parsed_m),
        missing_jobs=sorted(detected_j - parsed_j),
        extra_machines=sorted(parsed_m - detected_m),
        extra_jobs=sorted(parsed_j - detected_j),
    )


def assess_coverage(ids: PreparsedIds, factory: FactoryConfig) -> CoverageReport:
    """Return the coverage of the detected ids by a parsed :class:`FactoryConfig`.

    Args:
        ids: the stage-0 ids.
        factory: the stage-3 configuration.

    Returns:
        The :class:`CoverageReport`; the caller decides what to do with it.
    """
    return coverage_of(
        ids, (machine.id for machine in factory.machines), (job.id for job in factory.jobs)
    )
