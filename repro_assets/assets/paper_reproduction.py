"""Papers stages 5-6 (seed 000): notebook -> run -> report, and the reproduction leaderboard.

reproduction_plan -> reproduction_notebook -> reproduction_run -> reproduction_report,
partitioned by ``papers``; ``reproduction_leaderboard`` (unpartitioned) is refreshed by an
automation condition whenever a report changes. The check ``achieved_within_tolerance`` warns
(never blocks) when a report's verdict is not REPRODUCED.
"""


import json
import shutil
import time
from pathlib import Path
from typing import Any

import dagster as dg
import nbformat
from pydantic import Field

from repro_assets import settings
from repro_assets.assets._errors import coded_failure
from repro_assets.jobs import GROUP, reproduction_leaderboard_job
from repro_assets.llm import pool_name
from repro_assets.papers.notebook.errors import NotebookError
from repro_assets.papers.notebook.executor import (
    EXECUTED_FILE,
    METRICS_FILE,
    ExecutionResult,
    RunOptions,
    execute_notebook,
)
from repro_assets.papers.notebook.explainer import explain_report
from repro_assets.papers.notebook.generator import generate_notebook
from repro_assets.papers.notebook.report import (
    ReportSettings,
    build_report,
    comparisons_markdown,
    leaderboard_markdown,
    leaderboard_rows,
    render_markdown,
    summary_line,
)
from repro_assets.papers.notebook.store import (
    StoredNotebook,
    fail_run,
    finish_run,
    latest_reports,
    load_claims,
    load_notebook,
    load_plan,
    load_run,
    new_id,
    notebook_keys,
    paper_title,
    report_keys,
    run_prefix,
    save_notebook,
    save_report,
    start_run,
)
from repro_assets.partitions import papers_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.llm import LLMResource
from repro_assets.storage.blobstore import BlobStore

#: Dagster concurrency pool of notebook executions (CPU-bound; limit it in dagster.yaml).
NOTEBOOK_POOL = "notebook_kernel"
CHECK_NAME = "achieved_within_tolerance"
LEADERBOARD_KEY = f"papers/{settings.env_name()}/reproduction/leaderboard.json"

#: Refresh the leaderboard when any report partition is updated (even if others are missing).
LEADERBOARD_CONDITION = dg.AutomationCondition.eager().without(
    ~dg.AutomationCondition.any_deps_missing()
)


class ReproductionRunConfig(dg.Config):
    """Per-run settings of ``reproduction_run`` (the plan's values stay in the notebook)."""

    timeout_seconds: float | None = Field(
        default=None, description="Override the plan's policy.budget_minutes (seconds)."
    )
    max_train_samples: int | None = Field(
        default=None, description="Cap on training rows (quick runs)."
    )
    max_test_samples: int | None = Field(default=None, description="Cap on test rows.")
    num_threads: int = Field(
        default_factory=lambda: settings.env_int("REPRO_NOTEBOOK_THREADS", 1),
        description="CPU threads for BLAS/torch inside the notebook.",
    )
    allow_download: bool | None = Field(
        default=None,
        description="Allow Hugging Face downloads (default: unless HF_HUB_OFFLINE is set).",
    )
    datasets_dir: str | None = Field(
        default=None,
        description="Folder of local dataset copies, <name>/{train,test}.parquet (default: "
        "REPRO_DATASETS_DIR, else <data dir>/datasets).",
    )


class ReproductionReportConfig(dg.Config):
    """Tolerances of the verdict (defaults from REPRO_TOLERANCE_POINTS etc.)."""

    tolerance_points: float = Field(
        default_factory=lambda: settings.env_float("REPRO_TOLERANCE_POINTS", 2.0),
        description="REPRODUCED within +- this many points (accuracy, F1 ...).",
    )
    partial_points: float = Field(
        default_factory=lambda: settings.env_float("REPRO_PARTIAL_POINTS", 5.0),
        description="PARTIAL within this many points.",
    )
    relative_tolerance: float = Field(
        default=0.05, description="REPRODUCED within this relative gap (MSE, ...)."
    )
    relative_partial: float = Field(default=0.15, description="PARTIAL within this relative gap.")


def _failure(exc: NotebookError, **metadata: Any) -> dg.Failure:
    extra: dict[str, Any] = {}
    if exc.cell_index is not None:
        extra["cell_index"] = exc.cell_index
    if exc.ename:
        extra["error"] = f"{exc.ename}: {exc.evalue}"
    if exc.traceback:
        extra["traceback"] = dg.MetadataValue.md("```\n" + "\n".join(exc.traceback[-25:]) +
                                                 "\n```")
    return coded_failure(exc, **extra, **metadata)


# --------------------------------------------------------------------------- stage 5
@dg.asset(
    partitions_def=papers_partitions,
    group_name=GROUP,
    deps=["reproduction_plan"],
    kinds={"jupyter", "python"},
    description="A Jupyter notebook generated from the plan by a fixed template (nbformat); "
    "the plan's values are papermill parameters, never code.",
)
def reproduction_notebook(
    context: dg.AssetExecutionContext, database: DatabaseResource, blob_store: BlobStoreResource
) -> dg.MaterializeResult:
    paper_id = context.partition_key
    db, blobs = database.get_db(), blob_store.get_store()
    started = time.perf_counter()
    try:
        stored = load_plan(db, paper_id)
        generated = generate_notebook(stored.plan, paper_id=paper_id)
    except NotebookError as exc:
        raise _failure(exc, paper_id=paper_id) from exc
    seconds = time.perf_counter() - started
    notebook_id = new_id("nb")
    nb_key, params_key = notebook_keys(paper_id, notebook_id)
    blobs.write_text(nb_key, generated.to_json())
    blobs.write_text(params_key, generated.parameters_json())
    save_notebook(db, paper_id, StoredNotebook(
        notebook_id=notebook_id, plan_id=stored.plan_id, template=generated.template.name,
        notebook_key=nb_key, parameters_key=params_key, parameters=generated.parameters,
        warnings=generated.warnings, budget_minutes=stored.budget_minutes,
    ))
    for warning in generated.warnings:
        context.log.warning("paper %s: %s", paper_id, warning)
    shown = {k: v for k, v in generated.parameters.items() if k not in ("plan_json",
                                                                       "dataset_meta")}
    summary = generated.summary()
    return dg.MaterializeResult(
        metadata={
            "notebook_id": notebook_id,
            "plan_id": stored.plan_id,
            "template": summary["template"],
            "framework": summary["framework"],
            "cells": summary["cells"],
            "code_cells": summary["code_cells"],
            "kid_mode": summary["kid_mode"],
            "dataset": f"{generated.parameters['dataset_name']} "
                       f"({generated.parameters['dataset_source']})",
            "budget_minutes": stored.budget_minutes,
            "warnings": dg.MetadataValue.json(generated.warnings),
            "parameters": dg.MetadataValue.json(shown),
            "notebook": dg.MetadataValue.path(blobs.url(nb_key)),
            "parameters_file": dg.MetadataValue.path(blobs.url(params_key)),
            "generate_seconds": round(seconds, 4),
        }
    )


# --------------------------------------------------------------------------- stage 6
def _upload_run(blobs: BlobStore, workdir: Path, prefix: str) -> tuple[str | None, dict[str, str]]:
    executed_key = None
    plots: dict[str, str] = {}
    if (workdir / EXECUTED_FILE).is_file():
        executed_key = f"{prefix}/{EXECUTED_FILE}"
        blobs.write_bytes(executed_key, (workdir / EXECUTED_FILE).read_bytes())
    if (workdir / METRICS_FILE).is_file():
        blobs.write_bytes(f"{prefix}/{METRICS_FILE}", (workdir / METRICS_FILE).read_bytes())
    for png in sorted(workdir.glob("*.png")):
        key = f"{prefix}/{png.name}"
        blobs.write_bytes(key, png.read_bytes())
        plots[png.stem] = key
    return executed_key, plots


def _history_markdown(result: ExecutionResult) -> str:
    history = result.metrics.get("history") or []
    keys = [k for k in ("train_loss", "test_loss", "train_score", "test_score")
            if any(row.get(k) is not None for row in history)]
    lines = ["| epoch | " + " | ".join(keys) + " |", "|---|" + "---|" * len(keys)]
    step = max(1, len(history) // 20)
    for row in history[::step]:
        cells = [f"{row[k]:.4f}" if row.get(k) is not None else "-" for k in keys]
        lines.append(f"| {row['epoch']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


@dg.asset(
    partitions_def=papers_partitions,
    group_name=GROUP,
    deps=[reproduction_notebook],
    kinds={"papermill", "postgres"},
    pool=NOTEBOOK_POOL,
    description="papermill executes the notebook on a local python3 kernel (CPU only) within "
    "policy.budget_minutes; metrics JSON, executed notebook and plots are stored.",
)
def reproduction_run(
    context: dg.AssetExecutionContext,
    config: ReproductionRunConfig,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
) -> dg.MaterializeResult:
    paper_id = context.partition_key
    db, blobs = database.get_db(), blob_store.get_store()
    try:
        stored = load_notebook(db, paper_id)
    except NotebookError as exc:
        raise _failure(exc, paper_id=paper_id) from exc
    notebook = nbformat.reads(blobs.read_text(stored.notebook_key), as_version=4)
    parameters = json.loads(blobs.read_text(stored.parameters_key))
    run_id = new_id("run")
    prefix = run_prefix(paper_id, run_id)
    workdir = settings.data_dir() / "runs" / paper_id / run_id
    options = RunOptions(
        timeout_seconds=config.timeout_seconds, max_train_samples=config.max_train_samples,
        max_test_samples=config.max_test_samples, num_threads=config.num_threads,
        allow_download=config.allow_download,
        datasets_dir=Path(config.datasets_dir) if config.datasets_dir else None,
    )
    start_run(db, run_id=run_id, paper_id=paper_id, notebook=stored, output_prefix=prefix,
              dagster_run_id=context.run_id)
    context.log.info("paper %s: executing %s (budget %d min)", paper_id, stored.template,
                     stored.budget_minutes)
    started = time.perf_counter()
    try:
        result = execute_notebook(notebook, parameters, workdir,
                                  budget_minutes=stored.budget_minutes, options=options)
    except NotebookError as exc:
        seconds = time.perf_counter() - started
        executed_key, _ = _upload_run(blobs, workdir, prefix)
        fail_run(db, run_id=run_id, seconds=seconds, error=exc.as_dict(),
                 executed_key=executed_key)
        shutil.rmtree(workdir, ignore_errors=True)
        links = {"executed_notebook": dg.MetadataValue.path(blobs.url(executed_key))} \
            if executed_key else {}
        raise _failure(exc, paper_id=paper_id, run_id=run_id, **links) from exc
    executed_key, plots = _upload_run(blobs, workdir, prefix)
    finish_run(db, run_id=run_id, seconds=result.seconds, results=result.metrics,
               executed_key=executed_key, plots=plots)
    shutil.rmtree(workdir, ignore_errors=True)
    metrics = result.metrics
    data = metrics.get("dataset") or {}
    if data.get("synthetic"):
        context.log.warning("paper %s ran on SYNTHETIC data: %s", paper_id,
                            data.get("fallback_reason") or "planned")
    primary = metrics.get("primary_value")
    return dg.MaterializeResult(
        metadata={
            "run_id": run_id,
            "template": stored.template,
            "primary_metric": metrics.get("primary_metric"),
            "primary_value": float(primary) if primary is not None else None,
            "goal_value": metrics.get("goal_value"),
            "metrics": dg.MetadataValue.json(metrics.get("metrics") or {}),
            "data_source": data.get("source") or "-",
            "data_location": data.get("location") or "-",
            "synthetic_data": bool(data.get("synthetic")),
            "fallback_reason": data.get("fallback_reason") or "",
            "n_train": data.get("n_train"),
            "n_test": data.get("n_test"),
            "epochs_run": metrics.get("epochs_run"),
            "execute_seconds": round(result.seconds, 2),
            "notebook_seconds": (metrics.get("timings") or {}).get("total_seconds"),
            "budget_minutes": stored.budget_minutes,
            "history": dg.MetadataValue.md(_history_markdown(result)),
            "notes": dg.MetadataValue.json(metrics.get("notes") or []),
            "executed_notebook": dg.MetadataValue.path(blobs.url(executed_key or prefix)),
            **{f"plot_{name}": dg.MetadataValue.path(blobs.url(key))
               for name, key in plots.items()},
        }
    )


@dg.asset(
    partitions_def=papers_partitions,
    group_name=GROUP,
    pool=pool_name(),
    deps=[reproduction_run, "paper_claims"],
    kinds={"markdown", "postgres"},
    description="Claimed vs achieved with absolute/relative gaps, a verdict with reasons, the "
    "justifying quotes, the plots and a plain-language (kid) summary.",
    check_specs=[dg.AssetCheckSpec(
        CHECK_NAME, asset="reproduction_report",
        description="The achieved primary metric is within the tolerance of the claim (warns).",
    )],
)
def reproduction_report(
    context: dg.AssetExecutionContext,
    config: ReproductionReportConfig,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    paper_id = context.partition_key
    db, blobs = database.get_db(), blob_store.get_store()
    try:
        stored = load_plan(db, paper_id)
    except NotebookError as exc:
        raise _failure(exc, paper_id=paper_id) from exc
    run, plots = load_run(db, paper_id)
    report = build_report(
        paper_id=paper_id, plan=stored.plan, claims=load_claims(db, paper_id), run=run,
        settings=ReportSettings(
            tolerance_points=config.tolerance_points, partial_points=config.partial_points,
            relative_tolerance=config.relative_tolerance,
            relative_partial=config.relative_partial,
        ),
        plan_id=stored.plan_id, title=paper_title(db, paper_id), plots=plots,
    )
    kid = explain_report(report, llm.get_client())
    report.kid_summary, report.kid_method = kid.text, kid.method
    if kid.fallback_reason:
        context.log.warning("kid explainer fell back to the template: %s", kid.fallback_reason)
    images = {name: blobs.read_bytes(key) for name, key in plots.items() if blobs.exists(key)}
    markdown = render_markdown(report, images)
    md_key, json_key = report_keys(paper_id)
    blobs.write_text(md_key, markdown)
    blobs.write_text(json_key, report.model_dump_json(indent=1))
    report_id = save_report(db, report, md_key)
    primary = report.primary
    check = dg.AssetCheckResult(
        check_name=CHECK_NAME,
        asset_key="reproduction_report",
        passed=report.verdict == "REPRODUCED",
        severity=dg.AssetCheckSeverity.WARN,
        description=summary_line(report),
        metadata={
            "verdict": report.verdict,
            "gap_points": primary.gap_points if primary and primary.gap_points is not None
            else None,
            "tolerance_points": config.tolerance_points,
            "reasons": dg.MetadataValue.json(report.reasons),
        },
    )
    return dg.MaterializeResult(
        metadata={
            "verdict": report.verdict,
            "summary": summary_line(report),
            "claimed": primary.claimed if primary else None,
            "achieved": primary.achieved if primary else None,
            "gap_points": primary.gap_points if primary else None,
            "relative_gap": primary.relative_gap if primary else None,
            "reasons": dg.MetadataValue.json(report.reasons),
            "comparisons": dg.MetadataValue.md(comparisons_markdown(report)),
            "report": dg.MetadataValue.md(markdown),
            "kid_summary": report.kid_summary or "",
            "method": kid.method,
            "llm_usage": dg.MetadataValue.json(kid.usage),
            "run_id": report.run_id or "",
            "report_id": report_id,
            "report_file": dg.MetadataValue.path(blobs.url(md_key)),
        },
        check_results=[check],
    )


@dg.asset(
    group_name=GROUP,
    deps=[reproduction_report],
    kinds={"postgres"},
    automation_condition=LEADERBOARD_CONDITION,
    description="One row per paper and compared claim: claimed, achieved, gap, verdict "
    "(latest report of every paper); refreshed when any report changes.",
)
def reproduction_leaderboard(
    context: dg.AssetExecutionContext, database: DatabaseResource, blob_store: BlobStoreResource
) -> dg.MaterializeResult:
    reports = latest_reports(database.get_db())
    rows = leaderboard_rows(reports)
    blobs = blob_store.get_store()
    blobs.write_text(LEADERBOARD_KEY, json.dumps(rows, indent=1))
    verdicts: dict[str, int] = {}
    for report in reports:
        verdicts[report.verdict] = verdicts.get(report.verdict, 0) + 1
    context.log.info("leaderboard: %d papers, %d rows", len(reports), len(rows))
    return dg.MaterializeResult(
        metadata={
            "papers": len(reports),
            "rows": len(rows),
            "verdicts": dg.MetadataValue.json(verdicts),
            "leaderboard": dg.MetadataValue.md(leaderboard_markdown(rows)),
            "stored_at": dg.MetadataValue.path(blobs.url(LEADERBOARD_KEY)),
        }
    )


defs = dg.Definitions(
    assets=[reproduction_notebook, reproduction_run, reproduction_report,
            reproduction_leaderboard],
    jobs=[reproduction_leaderboard_job],
)
