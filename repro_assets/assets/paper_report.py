"""Papers stage 6 (seed 000): the reproduction report and the leaderboard.

reproduction_run -> reproduction_report (partitioned by ``papers``), and
``reproduction_leaderboard`` (unpartitioned), refreshed by an automation condition whenever a
report changes (the sensor that evaluates it is in ``sensors/papers.py``). The check
``achieved_within_tolerance`` warns (never blocks) when a report's verdict is not REPRODUCED.
"""

import json

import dagster as dg
from pydantic import Field

from repro_assets import settings
from repro_assets.assets._errors import notebook_failure
from repro_assets.jobs import GROUP, reproduction_leaderboard_job
from repro_assets.llm import pool_name
from repro_assets.papers.notebook.errors import NotebookError
from repro_assets.papers.notebook.explainer import explain_report
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
    latest_reports,
    load_claims,
    load_plan,
    load_run,
    paper_title,
    report_keys,
    save_report,
)
from repro_assets.partitions import papers_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.llm import LLMResource

CHECK_NAME = "achieved_within_tolerance"
LEADERBOARD_KEY = f"papers/{settings.env_name()}/reproduction/leaderboard.json"

#: Refresh the leaderboard when any report partition is updated (even if others are missing).
LEADERBOARD_CONDITION = dg.AutomationCondition.eager().without(
    ~dg.AutomationCondition.any_deps_missing()
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


@dg.asset(
    partitions_def=papers_partitions,
    group_name=GROUP,
    pool=pool_name(),
    deps=["reproduction_run", "paper_claims"],
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
        raise notebook_failure(exc, paper_id=paper_id) from exc
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
    assets=[reproduction_report, reproduction_leaderboard],
    jobs=[reproduction_leaderboard_job],
)
