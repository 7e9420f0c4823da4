"""Papers demo: the sample PDFs go through the inbox sensor, one burst ingest run, then the
whole papers job per paper, and the leaderboard."""

from __future__ import annotations

import shutil
from typing import Any

import dagster as dg

from repro_assets import settings
from repro_assets.demos.base import DemoContext, DemoRow
from repro_assets.papers.views import analysis_details, report_summary, reproduction_details
from repro_assets.partitions import papers_partitions
from repro_assets.runs import failure_message, materialized_count
from repro_assets.sensors.papers import INBOX, burst_files, paper_inbox_sensor
from repro_assets.storage.dropfolder import DropFolder

# Metadata keys shown in the demo summary, per asset (missing ones are skipped).
_DEMO_FIGURES = {
    "paper_pages": ("pages",),
    "paper_chunks": ("chunks",),
    "reproducibility_verdict": ("reproducible",),
    "paper_claims": ("claims",),
    "reproduction_plan": ("dataset", "model"),
}


def demo(ctx: DemoContext) -> list[DemoRow]:
    """Copy the sample PDFs into the inbox, let the sensor pick them up, run the papers job.

    As with the daemon, the samples dropped together are ingested in one burst run; then each
    paper goes through the whole papers job (its ingest steps find everything already stored).
    """
    samples = sorted((settings.samples_dir() / "papers").glob("*.pdf"))
    if not samples:
        return [DemoRow("papers", "-", 0, False, "no sample PDFs in data/samples/papers", "-")]
    folder = DropFolder(settings.inbox_root())
    folder.ensure(INBOX)
    inbox_dir = folder.local_dir(INBOX)
    for pdf in samples:
        shutil.copyfile(pdf, f"{inbox_dir}/{pdf.name}")
    resources = ctx.defs.resources or {}
    sensor_ctx = dg.build_sensor_context(instance=ctx.instance,
                                         resources={"inbox": resources["inbox"]})
    result = paper_inbox_sensor(sensor_ctx)
    if not isinstance(result, dg.SensorResult):
        raise TypeError(f"the inbox sensor returned {type(result).__name__}, not a SensorResult")
    for added in result.dynamic_partitions_requests or []:
        ctx.add_partitions(papers_partitions, list(added.partition_keys))
    rows = []
    todo: list[tuple[str, str, dict[str, Any]]] = []  # paper id, file name, run config
    for request in result.run_requests or []:
        files = burst_files(request)
        if not files:
            todo.append((str(request.partition_key), request.tags.get("repro/inbox_file", ""),
                         dict(request.run_config)))
            continue
        burst = ctx.run_job(str(request.job_name), None, request.run_config, tags=request.tags)
        if not burst.success:
            rows.append(DemoRow("papers", "(burst ingest)", materialized_count(burst), False,
                                failure_message(burst), "the Dagster UI, Runs"))
        todo += [(key, name, {}) for key, name in files.items()]
    for key, name, run_config in todo:
        run = ctx.run_job("papers_job", key, run_config, tags={"repro/inbox_file": name})
        figures = []
        for event in run.get_asset_materialization_events():
            meta = event.materialization.metadata
            asset = event.asset_key.to_user_string() if event.asset_key else ""
            for figure in _DEMO_FIGURES.get(asset, ()):
                if figure in meta:
                    figures.append(f"{figure}={getattr(meta[figure], 'value', meta[figure])}")
        if run.success:
            figures.insert(0, report_summary(key))
        rows.append(
            DemoRow(
                workflow="papers",
                partition=key,
                assets=materialized_count(run),
                ok=run.success,
                figures=", ".join(figures) if run.success else failure_message(run),
                where=f"repro-assets show reproduction_report --partition {key}",
                details=[f"file: {name}",
                         *analysis_details(key),
                         *reproduction_details(key)],
            )
        )
    board = ctx.run_job("reproduction_leaderboard_job")
    rows.append(
        DemoRow(
            workflow="papers", partition="(leaderboard)", assets=materialized_count(board),
            ok=board.success,
            figures="one row per paper and claim" if board.success else failure_message(board),
            where="repro-assets show reproduction_leaderboard",
        )
    )
    return rows
