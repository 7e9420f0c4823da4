"""Read side of paper reproduction: stored values of every papers asset (``repro-assets show``
and the API), the markdown previews and the demo's summary lines. No Dagster."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from repro_assets import settings
from repro_assets.papers.claims import claims_markdown, load_rejected
from repro_assets.papers.claims import load_claims as load_paper_claims
from repro_assets.papers.notebook.report import ReproductionReport, leaderboard_rows, summary_line
from repro_assets.papers.notebook.store import (
    latest_reports,
    latest_run_id,
    load_notebook,
    load_report,
    report_keys,
    run_details,
)
from repro_assets.papers.plan_store import load_latest_plan
from repro_assets.papers.verdict import load_verdict
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.database import Database, get_database


def history_markdown(metrics: dict[str, Any]) -> str:
    """Markdown: losses and scores per epoch of a run's metrics (at most ~20 rows)."""
    history = metrics.get("history") or []
    keys = [k for k in ("train_loss", "test_loss", "train_score", "test_score")
            if any(row.get(k) is not None for row in history)]
    lines = ["| epoch | " + " | ".join(keys) + " |", "|---|" + "---|" * len(keys)]
    step = max(1, len(history) // 20)
    for row in history[::step]:
        cells = [f"{row[k]:.4f}" if row.get(k) is not None else "-" for k in keys]
        lines.append(f"| {row['epoch']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def show_verdict(partition: str | None) -> Any:
    """The stored verdict of a paper."""
    verdict = load_verdict(get_database(), _require(partition))
    return verdict.model_dump(mode="json") if verdict else None


def show_claims(partition: str | None) -> Any:
    """The stored claims of a paper and the candidates that were rejected."""
    paper_id = _require(partition)
    db = get_database()
    return {
        "claims": [c.model_dump(mode="json") for c in load_paper_claims(db, paper_id)],
        "rejected": [r.model_dump(mode="json") for r in load_rejected(db, paper_id)],
    }


def show_plan(partition: str | None) -> Any:
    """The latest reproduction plan of a paper."""
    result = load_latest_plan(get_database(), _require(partition))
    return json.loads(result.model_dump_json()) if result else None


def _require(partition: str | None) -> str:
    if not partition:
        raise ValueError("these assets are partitioned by paper: pass --partition PAPER_ID")
    return partition


def analysis_details(paper_id: str) -> list[str]:
    """Summary lines for the demo: the verdict, the claims table and the plan of a paper."""
    db = get_database()
    lines: list[str] = []
    verdict = load_verdict(db, paper_id)
    if verdict is not None:
        lines.append(f"verdict: reproducible={verdict.reproducible} ({verdict.method}); "
                     f"missing: {', '.join(verdict.missing_elements) or 'none'}")
    claims = load_paper_claims(db, paper_id)
    if claims:
        lines.append(f"claims ({len(claims)}):")
        lines += ["  " + line for line in claims_markdown(claims, limit=20).splitlines()]
    result = load_latest_plan(db, paper_id)
    if result is not None:
        plan = result.plan
        lines.append(
            f"plan {result.plan_id} ({result.method}): {plan.dataset.name} "
            f"[{result.data_resolution.status}] -> {plan.model.name} "
            f"({plan.model.architecture}/{plan.model.framework}), {plan.metrics.primary} goal "
            f"{plan.metrics.goal_value}, config {plan.config.model_dump(exclude_none=True)}, "
            f"hyperparameters {plan.model.hyperparameters}"
        )
        lines.append("plan json: " + plan.model_dump_json(exclude_none=True))
        lines += [f"plan warning: {w}" for w in result.warnings]
    return lines


def _db_blobs() -> tuple[Database, BlobStore]:
    return get_database(), BlobStore(settings.blob_root())


def show_notebook(partition: str | None) -> dict[str, Any]:
    """The latest generated notebook of a paper: row, parameters and the notebook JSON."""
    db, blobs = _db_blobs()
    stored = load_notebook(db, str(partition))
    return {
        "notebook_id": stored.notebook_id, "plan_id": stored.plan_id,
        "template": stored.template, "warnings": stored.warnings,
        "budget_minutes": stored.budget_minutes, "parameters": stored.parameters,
        "notebook_url": blobs.url(stored.notebook_key),
        "notebook": json.loads(blobs.read_text(stored.notebook_key)),
    }


def show_run(partition: str | None) -> dict[str, Any]:
    """The latest run of a paper with its metrics rows."""
    db, blobs = _db_blobs()
    run_id = latest_run_id(db, str(partition))
    if run_id is None:
        return {"paper_id": partition, "status": "missing"}
    details = run_details(db, run_id)
    details["plot_urls"] = {k: blobs.url(v) for k, v in (details.get("plots") or {}).items()}
    return details


def show_report(partition: str | None) -> dict[str, Any] | None:
    """The latest report of a paper."""
    db, _ = _db_blobs()
    report = load_report(db, str(partition))
    return json.loads(report.model_dump_json()) if report else None


def show_leaderboard(partition: str | None) -> list[dict[str, Any]]:
    """The leaderboard rows (computed from the latest reports)."""
    db, _ = _db_blobs()
    return leaderboard_rows(latest_reports(db))


def report_summary(paper_id: str) -> str:
    """One line for the demo table: claimed vs achieved and the verdict (or why none)."""
    db, _ = _db_blobs()
    report: ReproductionReport | None = load_report(db, paper_id)
    return summary_line(report) if report else "no reproduction report"


def reproduction_details(paper_id: str) -> list[str]:
    """Summary lines for the demo: claimed vs achieved per comparison, verdict, where to look."""
    db, blobs = _db_blobs()
    report = load_report(db, paper_id)
    if report is None:
        return ["reproduction: no report"]
    data = report.dataset
    lines = [
        f"reproduction: {report.verdict} - {summary_line(report)}",
        f"run: {report.template} on {data.get('dataset')} ({data.get('source')}"
        + (", SYNTHETIC" if data.get("synthetic") else "") + f"), {report.run_status}"
        + (f" in {report.run_seconds:.1f}s" if report.run_seconds else ""),
    ]
    for c in report.comparisons:
        achieved = f"{c.achieved:.4f}" if c.achieved is not None else "-"
        gap = f"{c.gap_points:+.1f} pts" if c.gap_points is not None else "-"
        lines.append(f"  {c.metric}: claimed {c.claimed} vs achieved {achieved} ({gap}) "
                     f"{c.verdict} [{c.citation or c.source}]")
    lines += [f"  reason: {r}" for r in report.reasons]
    md_key, _ = report_keys(paper_id)
    lines.append(f"report: {blobs.url(md_key)}")
    if report.kid_summary:
        lines.append(f"kid summary ({report.kid_method}): {report.kid_summary}")
    return lines


SHOWS: dict[str, Callable[[str | None], Any]] = {
    "reproducibility_verdict": show_verdict,
    "paper_claims": show_claims,
    "reproduction_plan": show_plan,
    "reproduction_notebook": show_notebook,
    "reproduction_run": show_run,
    "reproduction_report": show_report,
    "reproduction_leaderboard": show_leaderboard,
}
