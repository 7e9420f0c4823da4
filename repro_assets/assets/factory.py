"""Factory onboarding (seed 001): factory_text → factory_config → factory_schedule.

Partitioned by ``factories`` (one partition per factory text: ``<stem>-<sha256[:10]>``). The
drop-folder sensor (``sensors/factory.py``) watches ``<inbox>/factories/*.txt``.
``factory_config`` fails the partition with the ExtractionError's code, coverage ratios and
missing ids when onboarding hard-fails; ``factory_schedule`` simulates the factory under EDD
and SPT dispatch.
"""


import base64
import warnings
from typing import Any

import dagster as dg
from pydantic import Field

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.ids import extract_explicit_ids
from repro_assets.factory.intake import FactoryIntakeError, accepted_text, read_source
from repro_assets.factory.invariants import stored_config_problems, stored_schedule_problems
from repro_assets.factory.models import ExtractionError
from repro_assets.factory.provided import METHOD as PROVIDED
from repro_assets.factory.provided import provided_config
from repro_assets.factory.simulation import (
    DispatchRule,
    gantt_png,
    simulate,
)
from repro_assets.factory.store import (
    FactoryNotFound,
    gantt_blob_key,
    get_config_row,
    get_schedules,
    get_text_row,
    load_config,
    save_config,
    save_failure,
    save_schedules,
    save_text,
    sha256_hex,
    text_blob_key,
)
from repro_assets.factory.views import config_table, schedule_table
from repro_assets.jobs import FACTORY_GROUP as GROUP
from repro_assets.jobs import factory_job
from repro_assets.llm import pool_name
from repro_assets.partitions import factories_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.resources.llm import LLMResource


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
    try:
        name, data = read_source(key, source_path=config.source_path,
                                 inbox_path=config.inbox_path, blobs=blobs, folder=folder,
                                 db=database.get_db())
        text = accepted_text(name, data, key)
    except FactoryIntakeError as exc:
        raise _failure(exc.code, str(exc)) from exc
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
            "preview": dg.MetadataValue.md(config_table(result.config)),
        },
        data_version=dg.DataVersion(sha256_hex(result.config.model_dump_json().encode())),
    )


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
    metadata["jobs"] = dg.MetadataValue.md(schedule_table(schedules))
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
    report, problems = stored_config_problems(row["config"], text)
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
    problems = stored_schedule_problems(load_config(db, key), get_schedules(db, key))
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


defs = dg.Definitions(
    assets=[factory_text, factory_config, factory_schedule],
    asset_checks=[factory_config_coverage, factory_schedule_feasible],
    jobs=[factory_job],
)

