"""Papers stage 5 (seed 000): reproduction_plan -> reproduction_notebook -> reproduction_run,
partitioned by ``papers`` (the report and the leaderboard: ``assets/paper_report.py``).
"""


import json
import shutil
import time
from pathlib import Path

import dagster as dg
import nbformat
from pydantic import Field

from repro_assets import settings
from repro_assets.assets._errors import notebook_failure
from repro_assets.jobs import GROUP
from repro_assets.papers.notebook.errors import NotebookError
from repro_assets.papers.notebook.executor import (
    EXECUTED_FILE,
    METRICS_FILE,
    RunOptions,
    execute_notebook,
)
from repro_assets.papers.notebook.generator import generate_notebook
from repro_assets.papers.notebook.store import (
    StoredNotebook,
    fail_run,
    finish_run,
    load_notebook,
    load_plan,
    new_id,
    notebook_keys,
    run_prefix,
    save_notebook,
    start_run,
)
from repro_assets.papers.views import history_markdown
from repro_assets.partitions import papers_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.storage.blobstore import BlobStore

#: Dagster concurrency pool of notebook executions (CPU-bound; limit it in dagster.yaml).
NOTEBOOK_POOL = "notebook_kernel"
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
        raise notebook_failure(exc, paper_id=paper_id) from exc
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
        raise notebook_failure(exc, paper_id=paper_id) from exc
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
        raise notebook_failure(exc, paper_id=paper_id, run_id=run_id, **links) from exc
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
            "history": dg.MetadataValue.md(history_markdown(result.metrics)),
            "notes": dg.MetadataValue.json(metrics.get("notes") or []),
            "executed_notebook": dg.MetadataValue.path(blobs.url(executed_key or prefix)),
            **{f"plot_{name}": dg.MetadataValue.path(blobs.url(key))
               for name, key in plots.items()},
        }
    )


defs = dg.Definitions(assets=[reproduction_notebook, reproduction_run])
