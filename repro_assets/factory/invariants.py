"""The invariants the factory asset checks verify on stored results. Pure functions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from repro_assets.factory.coverage import coverage_of
from repro_assets.factory.ids import extract_explicit_ids
from repro_assets.factory.models import CoverageReport, FactoryConfig, structure_problems
from repro_assets.factory.simulation import Schedule, schedule_problems


def stored_config_problems(
    stored: dict[str, Any], text: str
) -> tuple[CoverageReport, list[str]]:
    """The id coverage of a stored configuration against its text, and its structure problems
    (a missing, extra or malformed id in the stored JSON counts)."""
    try:
        structure_problems(FactoryConfig.model_validate(stored))
        problems: list[str] = []
    except ValueError as exc:
        problems = [str(exc)]
    report = coverage_of(
        extract_explicit_ids(text),
        (machine["id"] for machine in stored.get("machines", [])),
        (job["id"] for job in stored.get("jobs", [])),
    )
    return report, problems


def stored_schedule_problems(
    factory: FactoryConfig, stored_schedules: Iterable[dict[str, Any]]
) -> list[str]:
    """Every infeasibility of the stored schedules, each prefixed with its dispatch rule."""
    problems: list[str] = []
    for stored in stored_schedules:
        schedule = Schedule.model_validate({k: v for k, v in stored.items() if k != "gantt_key"})
        problems += [f"{schedule.rule.value}: {p}" for p in schedule_problems(factory, schedule)]
    return problems
