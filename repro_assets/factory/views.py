"""Read side of factory onboarding: markdown previews, stored values for ``repro-assets show``
and the API, and the one-line summaries of the demo. No Dagster."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from repro_assets import settings
from repro_assets.factory.models import FactoryConfig
from repro_assets.factory.simulation import Schedule
from repro_assets.factory.store import (
    FactoryNotFound,
    get_config_row,
    get_schedules,
    get_text_row,
    load_config,
)
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.database import get_database

#: ``(table, columns, output names)`` of each stored factory value, listed when no partition is
#: given. The one copy of the listing SQL (identifiers are constants, never user input).
_LISTINGS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "factory_text": ("factory_texts", "partition_key, file_name, byte_size",
                     ("partition", "file", "bytes")),
    "factory_config": ("factory_configs", "partition_key, status, error->>'code'",
                       ("partition", "status", "code")),
    "factory_schedule": ("factory_schedules", "partition_key, rule, makespan",
                         ("partition", "rule", "makespan")),
}


def config_table(config: FactoryConfig) -> str:
    """Markdown: the machines and one row per job (routing, due time)."""
    names = {machine.id: machine.name for machine in config.machines}
    lines = ["| job | routing | due |", "|---|---|---|"]
    for job in config.jobs:
        routing = " → ".join(f"{s.machine_id} {s.duration_hours}h" for s in job.steps)
        due = "" if job.due_time_hour is None else f"{job.due_time_hour:02d}:00"
        lines.append(f"| {job.id} | {routing} | {due} |")
    machines = ", ".join(f"{m} ({n})" for m, n in names.items())
    return f"Machines: {machines}\n\n" + "\n".join(lines)


def schedule_table(schedules: list[Schedule]) -> str:
    """Markdown: per job, its due time and its completion and lateness under each rule."""
    rules = [s.rule.value for s in schedules]
    header = "| job | due | " + " | ".join(f"{r} done | {r} lateness" for r in rules) + " |"
    lines = [header, "|---|---|" + "---|---|" * len(rules)]
    for n, job in enumerate(schedules[0].jobs):
        due = "" if job.due_time_hour is None else f"{job.due_time_hour:02d}:00"
        cells = []
        for schedule in schedules:
            outcome = schedule.jobs[n]
            late = "" if outcome.lateness is None else f"{outcome.lateness:+d}h"
            cells += [f"{outcome.completion_hour:02d}:00", late]
        lines.append(f"| {job.job_id} | {due} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def list_stored(asset: str) -> list[dict[str, Any]]:
    """Every partition's row of ``asset`` (``factory_text``, ``factory_config`` or
    ``factory_schedule``), in key order."""
    table, columns, names = _LISTINGS[asset]
    order = "1, 2" if asset == "factory_schedule" else "1"
    with get_database().connection() as conn:
        rows = conn.execute(f"SELECT {columns} FROM {table} ORDER BY {order}").fetchall()
    return [dict(zip(names, row, strict=True)) for row in rows]


def show_text(key: str | None) -> Any:
    """The stored text of ``key`` with its row, or every text's row."""
    if key is None:
        return list_stored("factory_text")
    row = get_text_row(get_database(), key)
    text = BlobStore(settings.blob_root()).read_text(row["blob_key"])
    return {**row, "text": text}


def show_config(key: str | None) -> Any:
    """The stored configuration (or failure) of ``key``, or every partition's status."""
    if key is None:
        return list_stored("factory_config")
    return get_config_row(get_database(), key)


def show_schedule(key: str | None) -> Any:
    """The stored schedules of ``key``, or every partition's makespans."""
    if key is None:
        return list_stored("factory_schedule")
    return get_schedules(get_database(), key)


SHOWS: dict[str, Callable[[str | None], Any]] = {
    "factory_text": show_text,
    "factory_config": show_config,
    "factory_schedule": show_schedule,
}


def success_summary(key: str) -> tuple[str, str]:
    """``(figures, gantt URL)`` of an onboarded factory: machines, jobs and makespans."""
    db = get_database()
    config = load_config(db, key)
    schedules = {s["rule"]: s for s in get_schedules(db, key)}
    makespans = ", ".join(f"{rule} {s['makespan']}h" for rule, s in sorted(schedules.items()))
    figures = (
        f"{len(config.machines)} machines, {len(config.jobs)} jobs, coverage 100%, "
        f"makespan {makespans}"
    )
    gantt = next(iter(schedules.values()))["gantt_key"]
    return figures, BlobStore(settings.blob_root()).url(gantt)


def failure_summary(key: str) -> str | None:
    """The stored failure of ``key`` in one line (code, missing ids, coverage ratios), or
    None when no configuration row was stored."""
    try:
        error = get_config_row(get_database(), key)["error"] or {}
    except FactoryNotFound:
        return None
    details = error.get("details", {})
    missing = details.get("missing_machines", []) + details.get("missing_jobs", [])
    ratios = [
        f"{kind} {value:.0%}"
        for kind, value in (
            ("machines", details.get("machine_coverage")),
            ("jobs", details.get("job_coverage")),
        )
        if value is not None
    ]
    figures = error.get("code", "failed")
    if missing:
        figures += f" missing {', '.join(missing)}"
    if ratios:
        figures += f" ({', '.join(ratios)})"
    return figures
