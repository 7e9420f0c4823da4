"""Factory onboarding (seed 001): factory_text → factory_config → factory_schedule.

Partitioned by ``factories`` (one partition per factory text: ``<stem>-<sha256[:10]>``). A
sensor watches the drop folder ``<inbox>/factories/*.txt``. ``factory_config`` fails the
partition with the ExtractionError's code, coverage ratios and missing ids when onboarding
hard-fails; ``factory_schedule`` simulates the factory under EDD and SPT dispatch.
"""


import base64
import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import dagster as dg
import fsspec
from pydantic import Field

from repro_assets import settings
from repro_assets.demo import DemoContext, DemoRow, failure_message, materialized_count
from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.coverage import coverage_of
from repro_assets.factory.ids import extract_explicit_ids
from repro_assets.factory.models import ExtractionError, FactoryConfig, structure_problems
from repro_assets.factory.provided import METHOD as PROVIDED
from repro_assets.factory.provided import provided_config
from repro_assets.factory.simulation import (
    DispatchRule,
    Schedule,
    gantt_png,
    schedule_problems,
    simulate,
)
from repro_assets.factory.store import (
    FactoryNotFound,
    gantt_blob_key,
    get_config_row,
    get_schedules,
    get_text_row,
    load_config,
    partition_key_for,
    save_config,
    save_failure,
    save_schedules,
    save_text,
    sha256_hex,
    text_blob_key,
)
from repro_assets.llm import pool_name
from repro_assets.partitions import factories_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.resources.llm import LLMResource
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.database import get_database
from repro_assets.storage.dropfolder import DropFolder

DEMO_ORDER = 20
GROUP = "factory"
INBOX = "factories"
INBOX_PATTERN = "*.txt"
MAX_TEXT_BYTES = 200_000
CURSOR_KEEP = 2000
EXPECTED_FILE = "expected.json"


class FactoryTextConfig(dg.Config):
    """Where ``factory_text`` reads the text from.

    With both fields empty it re-reads the stored text, or finds the file in the drop folder.
    """

    source_path: str = Field(default="", description="Local path or fsspec URL of the text.")
    inbox_path: str = Field(
        default="", description="Path of the file inside the drop folder (set by the sensor)."
    )


class FactoryScheduleConfig(dg.Config):
    """Simulation settings."""

    start_hour: int = Field(
        default=0, ge=0, le=24, description="Hour of the day at which the jobs are released."
    )


def _failure(code: str, description: str, **metadata: Any) -> dg.Failure:
    return dg.Failure(description=description, metadata={"code": code, **metadata})


def _find_in_inbox(folder: DropFolder, partition_key: str) -> tuple[str, bytes] | None:
    for entry in folder.list(INBOX, INBOX_PATTERN):
        data = folder.read_bytes(entry.path)
        if partition_key_for(entry.name, data) == partition_key:
            return entry.name, data
    return None


def _read_source(
    config: FactoryTextConfig, partition_key: str, blobs: BlobStore, folder: DropFolder,
    database: DatabaseResource,
) -> tuple[str, bytes]:
    if config.inbox_path:
        return Path(config.inbox_path).name, folder.read_bytes(config.inbox_path)
    if config.source_path:
        fs, path = fsspec.core.url_to_fs(config.source_path)
        if not fs.exists(path):
            raise _failure("E_SOURCE_NOT_FOUND", f"no file at {config.source_path}")
        return Path(path).name, fs.cat_file(path)
    try:
        row = get_text_row(database.get_db(), partition_key)
        return row["file_name"], blobs.read_bytes(row["blob_key"])
    except FactoryNotFound:
        pass
    found = _find_in_inbox(folder, partition_key)
    if found is None:
        raise _failure(
            "E_SOURCE_NOT_FOUND",
            f"no stored text and no file in the drop folder matches partition {partition_key}",
        )
    return found


@dg.asset(
    partitions_def=factories_partitions,
    group_name=GROUP,
    kinds={"text", "postgres"},
    description="The factory description text, stored in the blob store (`factory_texts` row).",
)
def factory_text(
    context: dg.AssetExecutionContext,
    config: FactoryTextConfig,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
    inbox: DropFolderResource,
) -> dg.MaterializeResult:
    key = context.partition_key
    blobs, folder = blob_store.get_store(), inbox.get_folder()
    name, data = _read_source(config, key, blobs, folder, database)
    if partition_key_for(name, data) != key:
        raise _failure(
            "E_PARTITION_MISMATCH",
            f"{name} has partition key {partition_key_for(name, data)}, not {key}",
        )
    if len(data) > MAX_TEXT_BYTES:
        raise _failure("E_FILE_TOO_LARGE", f"{name} is {len(data)} bytes (max {MAX_TEXT_BYTES})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _failure("E_NOT_UTF8", f"{name} is not UTF-8 text: {exc}") from exc
    blob_key = text_blob_key(key)
    blobs.write_bytes(blob_key, data)
    save_text(database.get_db(), key, name, data, blob_key)
    ids = extract_explicit_ids(text)
    return dg.MaterializeResult(
        metadata={
            "file": name,
            "sha256": sha256_hex(data),
            "bytes": len(data),
            "characters": len(text),
            "detected_machines": dg.MetadataValue.json(sorted(ids.machine_ids)),
            "detected_jobs": dg.MetadataValue.json(sorted(ids.job_ids)),
            "stored_at": dg.MetadataValue.path(blobs.url(blob_key)),
            "preview": dg.MetadataValue.md(f"```\n{text[:1500]}\n```"),
        },
        data_version=dg.DataVersion(sha256_hex(data)),
    )


def _config_table(config: FactoryConfig) -> str:
    names = {machine.id: machine.name for machine in config.machines}
    lines = ["| job | routing | due |", "|---|---|---|"]
    for job in config.jobs:
        routing = " → ".join(f"{s.machine_id} {s.duration_hours}h" for s in job.steps)
        due = "" if job.due_time_hour is None else f"{job.due_time_hour:02d}:00"
        lines.append(f"| {job.id} | {routing} | {due} |")
    machines = ", ".join(f"{m} ({n})" for m, n in names.items())
    return f"Machines: {machines}\n\n" + "\n".join(lines)


@dg.asset(
    partitions_def=factories_partitions,
    group_name=GROUP,
    pool=pool_name(),
    deps=[factory_text],
    kinds={"llm", "postgres"},
    description=(
        "The FactoryConfig extracted in five stages with 100% id coverage (or a FactoryConfig "
        "JSON document validated as is), or a failed partition carrying the ExtractionError "
        "code, coverage ratios and missing ids."
    ),
)
def factory_config(
    context: dg.AssetExecutionContext,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    key = context.partition_key
    db = database.get_db()
    try:
        row = get_text_row(db, key)
    except FactoryNotFound as exc:
        raise _failure(exc.code, str(exc)) from exc
    text = blob_store.get_store().read_text(row["blob_key"])
    client = llm.get_client()
    agent = OnboardingAgent(client, logger=context.log)
    method = agent.method
    try:
        result = provided_config(text)
        if result is None:
            result = agent.run_detailed(text)
        else:
            method = PROVIDED
    except ExtractionError as exc:
        method = exc.details.get("method", method)
        save_failure(db, key, row["sha256"], method, exc)
        details = exc.details
        metadata: dict[str, Any] = {
            "code": exc.code.value,
            "stage": exc.stage,
            "method": method,
            "machine_coverage": details.get("machine_coverage"),
            "job_coverage": details.get("job_coverage"),
            "missing_machines": dg.MetadataValue.json(details.get("missing_machines", [])),
            "missing_jobs": dg.MetadataValue.json(details.get("missing_jobs", [])),
            "details": dg.MetadataValue.json(details),
        }
        raise dg.Failure(description=str(exc), metadata=metadata) from exc
    save_config(db, key, row["sha256"], result)
    coverage = result.coverage
    return dg.MaterializeResult(
        metadata={
            "method": result.method,
            "machines": len(result.config.machines),
            "jobs": len(result.config.jobs),
            "steps": sum(len(job.steps) for job in result.config.jobs),
            "machine_coverage": coverage.machine_coverage,
            "job_coverage": coverage.job_coverage,
            "repairs": dg.MetadataValue.json(result.repairs),
            "warnings": dg.MetadataValue.json(result.warnings),
            "llm_usage": dg.MetadataValue.json(client.usage_summary()),
            "config": dg.MetadataValue.json(result.config.model_dump(mode="json")),
            "preview": dg.MetadataValue.md(_config_table(result.config)),
        },
        data_version=dg.DataVersion(sha256_hex(result.config.model_dump_json().encode())),
    )


def _schedule_table(schedules: list[Schedule]) -> str:
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


@dg.asset(
    partitions_def=factories_partitions,
    group_name=GROUP,
    deps=[factory_config],
    kinds={"matplotlib", "postgres"},
    description="Job-shop simulation (EDD and SPT dispatch): makespan, lateness, utilisation, "
    "Gantt chart.",
)
def factory_schedule(
    context: dg.AssetExecutionContext,
    config: FactoryScheduleConfig,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
) -> dg.MaterializeResult:
    key = context.partition_key
    db, blobs = database.get_db(), blob_store.get_store()
    try:
        factory = load_config(db, key)
    except FactoryNotFound as exc:
        raise _failure(exc.code, str(exc)) from exc
    schedules = [simulate(factory, rule, config.start_hour) for rule in DispatchRule]
    png = gantt_png(factory, schedules, title=f"factory {key}")
    gantt_key = gantt_blob_key(key)
    blobs.write_bytes(gantt_key, png)
    save_schedules(db, key, schedules, gantt_key)
    data_uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    by_rule = {s.rule.value: s for s in schedules}
    metadata: dict[str, Any] = {}
    for rule, schedule in by_rule.items():
        low = rule.lower()
        metadata[f"makespan_{low}"] = schedule.makespan
        metadata[f"max_lateness_{low}"] = schedule.max_lateness
        metadata[f"total_tardiness_{low}"] = schedule.total_tardiness
        metadata[f"late_jobs_{low}"] = dg.MetadataValue.json(schedule.late_jobs)
        metadata[f"utilisation_{low}"] = dg.MetadataValue.json(schedule.utilisation)
    metadata["jobs"] = dg.MetadataValue.md(_schedule_table(schedules))
    metadata["gantt_path"] = dg.MetadataValue.path(blobs.url(gantt_key))
    metadata["gantt"] = dg.MetadataValue.md(f"![Gantt chart]({data_uri})")
    context.log.info(
        "factory %s: makespan %s", key, ", ".join(f"{r}={s.makespan}h" for r, s in by_rule.items())
    )
    return dg.MaterializeResult(metadata=metadata)


def _factory_config_coverage(
    context: dg.AssetCheckExecutionContext,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
) -> dg.AssetCheckResult:
    key = context.partition_key
    db = database.get_db()
    row = get_config_row(db, key)
    text = blob_store.get_store().read_text(get_text_row(db, key)["blob_key"])
    if row["status"] != "ok":
        return dg.AssetCheckResult(
            passed=False, metadata={"code": row["error"]["code"], "partition": key}
        )
    stored = row["config"]
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
    return dg.AssetCheckResult(
        passed=report.complete and not problems,
        metadata={
            "partition": key,
            "machine_coverage": report.machine_coverage,
            "job_coverage": report.job_coverage,
            "missing": dg.MetadataValue.json(report.missing_machines + report.missing_jobs),
            "extra": dg.MetadataValue.json(report.extra_machines + report.extra_jobs),
            "problems": dg.MetadataValue.json(problems),
        },
    )


def _factory_schedule_feasible(
    context: dg.AssetCheckExecutionContext, database: DatabaseResource
) -> dg.AssetCheckResult:
    key = context.partition_key
    db = database.get_db()
    factory = load_config(db, key)
    problems: list[str] = []
    for stored in get_schedules(db, key):
        schedule = Schedule.model_validate({k: v for k, v in stored.items() if k != "gantt_key"})
        problems += [f"{schedule.rule.value}: {p}" for p in schedule_problems(factory, schedule)]
    return dg.AssetCheckResult(
        passed=not problems, metadata={"problems": dg.MetadataValue.json(problems)}
    )


with warnings.catch_warnings():  # partitioned asset checks are a preview feature in 1.13
    warnings.simplefilter("ignore", dg.PreviewWarning)
    factory_config_coverage = dg.asset_check(
        asset=factory_config,
        name="factory_config_coverage",
        blocking=True,
        partitions_def=factories_partitions,
        description="100% id coverage (no missing, no extra ids) and every structural invariant.",
    )(_factory_config_coverage)
    factory_schedule_feasible = dg.asset_check(
        asset=factory_schedule,
        name="factory_schedule_feasible",
        partitions_def=factories_partitions,
        description="Every step scheduled once, in routing order, one job per machine at a time.",
    )(_factory_schedule_feasible)


factory_job = dg.define_asset_job(
    "factory_job",
    selection=dg.AssetSelection.groups(GROUP),
    partitions_def=factories_partitions,
    description="Onboard one factory text: text → config (100% coverage) → schedule.",
)


def _load_cursor(cursor: str | None) -> list[str]:
    if not cursor:
        return []
    try:
        value = json.loads(cursor)
    except json.JSONDecodeError:
        return []
    return [str(item) for item in value.get("seen", [])] if isinstance(value, dict) else []


@dg.sensor(
    job=factory_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,  # like the other drop folders (README)
    description="Onboards every new `factories/*.txt` in the drop folder (one partition each).",
)
def factory_drop_sensor(
    context: dg.SensorEvaluationContext, inbox: DropFolderResource
) -> dg.SensorResult:
    folder = inbox.get_folder()
    folder.ensure(INBOX)
    seen = _load_cursor(context.cursor)
    known = set(seen)
    requests: list[dg.RunRequest] = []
    new_keys: list[str] = []
    for entry in folder.list(INBOX, INBOX_PATTERN):
        try:
            data = folder.read_bytes(entry.path)
            if not data.strip():
                raise ValueError("E_EMPTY_FILE", "the file is empty")
            if len(data) > MAX_TEXT_BYTES:
                raise ValueError("E_FILE_TOO_LARGE", f"{len(data)} bytes (max {MAX_TEXT_BYTES})")
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError("E_NOT_UTF8", f"not UTF-8 text: {exc}") from exc
        except ValueError as exc:
            code, message = exc.args if len(exc.args) == 2 else ("E_BAD_FILE", str(exc))
            context.log.warning("rejecting %s: %s %s", entry.name, code, message)
            folder.reject(INBOX, entry, code, message)
            continue
        except OSError as exc:  # vanished or unreadable: report, try again next tick
            context.log.warning("could not read %s: %s", entry.name, exc)
            continue
        key = partition_key_for(entry.name, data)
        if key in known:
            continue
        known.add(key)
        seen.append(key)
        new_keys.append(key)
        requests.append(
            dg.RunRequest(
                partition_key=key,
                run_key=key,
                run_config={"ops": {"factory_text": {"config": {"inbox_path": entry.path}}}},
            )
        )
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=(
            [factories_partitions.build_add_request(new_keys)] if new_keys else []
        ),
        cursor=json.dumps({"seen": seen[-CURSOR_KEEP:]}),
    )


defs = dg.Definitions(
    assets=[factory_text, factory_config, factory_schedule],
    asset_checks=[factory_config_coverage, factory_schedule_feasible],
    sensors=[factory_drop_sensor],
    jobs=[factory_job],
)


# --- demo and `repro-assets show` --------------------------------------------------------------


def sample_files() -> list[Path]:
    """The shipped factory texts (``data/samples/factories/*.txt``)."""
    return sorted((settings.samples_dir() / "factories").glob("*.txt"))


def expected_outcomes() -> dict[str, str]:
    """File name → expected outcome (``ok`` or an error code) from ``expected.json``."""
    path = settings.samples_dir() / "factories" / EXPECTED_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _success_figures(key: str) -> tuple[str, str]:
    db = get_database()
    config = load_config(db, key)
    schedules = {s["rule"]: s for s in get_schedules(db, key)}
    makespans = ", ".join(f"{rule} {s['makespan']}h" for rule, s in sorted(schedules.items()))
    figures = (
        f"{len(config.machines)} machines, {len(config.jobs)} jobs, coverage 100%, "
        f"makespan {makespans}"
    )
    gantt = next(iter(schedules.values()))["gantt_key"]
    return figures, BlobStoreResource().get_store().url(gantt)


def _failure_figures(key: str, result: dg.ExecuteInProcessResult) -> tuple[str, str]:
    try:
        error = get_config_row(get_database(), key)["error"] or {}
    except FactoryNotFound:
        return failure_message(result), "-"
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
    return figures, f"repro-assets show factory_config --partition {key}"


def demo(ctx: DemoContext) -> list[DemoRow]:
    """Onboard every sample factory text and report makespans or the expected failure."""
    expected = expected_outcomes()
    rows: list[DemoRow] = []
    for path in sample_files():
        data = path.read_bytes()
        key = partition_key_for(path.name, data)
        ctx.add_partitions(factories_partitions.name, [key])
        result = ctx.run_job(
            factory_job.name,
            key,
            run_config={"ops": {"factory_text": {"config": {"source_path": str(path)}}}},
        )
        want = expected.get(path.name, "ok")
        if result.success:
            figures, where = _success_figures(key)
            ok, expected_failure = want == "ok", False
            if not ok:
                figures = f"expected {want} but onboarded: {figures}"
        else:
            figures, where = _failure_figures(key, result)
            ok = False
            expected_failure = want != "ok" and figures.split(" ", 1)[0] == want
        rows.append(
            DemoRow(
                workflow=GROUP,
                partition=key,
                assets=materialized_count(result),
                ok=ok,
                figures=figures,
                where=where,
                expected_failure=expected_failure,
            )
        )
    return rows


def _show_text(key: str | None) -> Any:
    db = get_database()
    if key is None:
        with db.connection() as conn:
            rows = conn.execute(
                "SELECT partition_key, file_name, byte_size FROM factory_texts ORDER BY 1"
            ).fetchall()
        return [{"partition": k, "file": f, "bytes": b} for k, f, b in rows]
    row = get_text_row(db, key)
    text = BlobStoreResource().get_store().read_text(row["blob_key"])
    return {**row, "text": text}


def _show_config(key: str | None) -> Any:
    db = get_database()
    if key is None:
        with db.connection() as conn:
            rows = conn.execute(
                "SELECT partition_key, status, error->>'code' FROM factory_configs ORDER BY 1"
            ).fetchall()
        return [{"partition": k, "status": s, "code": c} for k, s, c in rows]
    return get_config_row(db, key)


def _show_schedule(key: str | None) -> Any:
    db = get_database()
    if key is None:
        with db.connection() as conn:
            rows = conn.execute(
                "SELECT partition_key, rule, makespan FROM factory_schedules ORDER BY 1, 2"
            ).fetchall()
        return [{"partition": k, "rule": r, "makespan": m} for k, r, m in rows]
    return get_schedules(db, key)


SHOWS: dict[str, Callable[[str | None], Any]] = {
    "factory_text": _show_text,
    "factory_config": _show_config,
    "factory_schedule": _show_schedule,
}
