"""Persistence of stages 5-6: reads plans and claims (stage 4's tables), writes notebooks, runs,
metrics and reports (``sql/030_reproduction.sql``), and the blob keys of their files."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from repro_assets.papers.notebook.errors import (
    E_NOTEBOOK_NOT_FOUND,
    E_PLAN_NOT_FOUND,
    E_RUN_NOT_FOUND,
    NotebookError,
)
from repro_assets.papers.notebook.report import ClaimInput, ReproductionReport, RunSummary
from repro_assets.papers.plan_models import PlanDocumentV11
from repro_assets.settings import env_name
from repro_assets.storage.database import Database


def reproduction_prefix(paper_id: str) -> str:
    """Blob prefix of a paper's notebooks, runs and reports."""
    return f"papers/{env_name()}/reproduction/{paper_id}"


def notebook_keys(paper_id: str, notebook_id: str) -> tuple[str, str]:
    """Blob keys of a generated notebook and its parameters."""
    base = f"{reproduction_prefix(paper_id)}/notebooks/{notebook_id}"
    return f"{base}/notebook.ipynb", f"{base}/parameters.json"


def run_prefix(paper_id: str, run_id: str) -> str:
    """Blob prefix of one run's files (executed notebook, metrics.json, plots)."""
    return f"{reproduction_prefix(paper_id)}/runs/{run_id}"


def report_keys(paper_id: str) -> tuple[str, str]:
    """Blob keys of the latest report (markdown, JSON)."""
    base = reproduction_prefix(paper_id)
    return f"{base}/report.md", f"{base}/report.json"


def new_id(prefix: str) -> str:
    """A fresh id such as ``run_3f2a...``."""
    return f"{prefix}_{uuid.uuid4().hex[:16]}"


@dataclass
class StoredPlan:
    """The latest plan of a paper."""

    plan_id: str
    plan: PlanDocumentV11
    budget_minutes: int
    warnings: list[str]


@dataclass
class StoredNotebook:
    """The latest generated notebook of a paper."""

    notebook_id: str
    plan_id: str | None
    template: str
    notebook_key: str
    parameters_key: str
    parameters: dict[str, Any]
    warnings: list[str]
    budget_minutes: int


def load_plan(db: Database, paper_id: str) -> StoredPlan:
    """The paper's latest plan (:func:`repro_assets.papers.plan_store.load_latest_plan`).

    Raises:
        NotebookError: ``E_PLAN_NOT_FOUND``.
    """
    from repro_assets.papers.plan_store import load_latest_plan

    result = load_latest_plan(db, paper_id)
    if result is None:
        raise NotebookError(E_PLAN_NOT_FOUND, f"paper {paper_id} has no plan yet")
    return StoredPlan(result.plan_id, result.plan, result.plan.policy.budget_minutes,
                      list(result.warnings))


def load_claims(db: Database, paper_id: str) -> list[ClaimInput]:
    """The paper's grounded claims (stage 3's :func:`repro_assets.papers.claims.load_claims`)."""
    from repro_assets.papers.claims import load_claims as load_stored_claims

    return [
        ClaimInput(
            dataset_name=c.dataset_name, split=c.split, metric_name=c.metric_name,
            metric_value=c.metric_value, method_snippet=c.method_snippet,
            source_citation=c.source_citation, page=c.evidence.page,
            quoted_text=c.evidence.quoted_text, confidence=c.confidence,
        )
        for c in load_stored_claims(db, paper_id)
    ]


def paper_title(db: Database, paper_id: str) -> str | None:
    """The paper's title (None when unknown)."""
    with db.connection() as conn:
        row = conn.execute("SELECT title FROM papers WHERE id = %s", (paper_id,)).fetchone()
    return row[0] if row else None


def save_notebook(db: Database, paper_id: str, record: StoredNotebook) -> None:
    """Insert a generated notebook's row."""
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO notebooks (id, paper_id, plan_id, template, notebook_key, "
            "parameters_key, parameters, warnings, budget_minutes) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (record.notebook_id, paper_id, record.plan_id, record.template, record.notebook_key,
             record.parameters_key, Jsonb(record.parameters), Jsonb(record.warnings),
             record.budget_minutes),
        )


def load_notebook(db: Database, paper_id: str) -> StoredNotebook:
    """The paper's latest generated notebook.

    Raises:
        NotebookError: ``E_NOTEBOOK_NOT_FOUND``.
    """
    with db.connection() as conn:
        row = conn.execute(
            "SELECT id, plan_id, template, notebook_key, parameters_key, parameters, warnings, "
            "budget_minutes FROM notebooks WHERE paper_id = %s "
            "ORDER BY created_at DESC, id DESC LIMIT 1",
            (paper_id,),
        ).fetchone()
    if row is None:
        raise NotebookError(E_NOTEBOOK_NOT_FOUND, f"paper {paper_id} has no notebook yet")
    return StoredNotebook(row[0], row[1], row[2], row[3], row[4], dict(row[5]),
                          list(row[6] or []), int(row[7]))


def start_run(
    db: Database, *, run_id: str, paper_id: str, notebook: StoredNotebook, output_prefix: str,
    dagster_run_id: str | None,
) -> None:
    """Insert a ``running`` run row."""
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO runs (id, paper_id, plan_id, notebook_id, dagster_run_id, template, "
            "status, budget_minutes, output_prefix) "
            "VALUES (%s, %s, %s, %s, %s, %s, 'running', %s, %s)",
            (run_id, paper_id, notebook.plan_id, notebook.notebook_id, dagster_run_id,
             notebook.template, notebook.budget_minutes, output_prefix),
        )


def finish_run(
    db: Database, *, run_id: str, seconds: float, results: dict[str, Any],
    executed_key: str | None, plots: dict[str, str],
) -> None:
    """Mark a run succeeded and store its metrics (one ``metrics`` row per measured value)."""
    data = results.get("dataset") or {}
    primary = str(results.get("primary_metric") or "")
    goal = results.get("goal_value")
    with db.connection() as conn, conn.transaction():
        conn.execute(
            "UPDATE runs SET status = 'succeeded', seconds = %s, results = %s, "
            "executed_key = %s, plots = %s, data_source = %s, synthetic = %s, "
            "finished_at = now() WHERE id = %s",
            (seconds, Jsonb(results), executed_key, Jsonb(plots), data.get("source"),
             bool(data.get("synthetic")), run_id),
        )
        conn.execute("DELETE FROM metrics WHERE run_id = %s", (run_id,))
        for name, value in (results.get("metrics") or {}).items():
            if isinstance(value, int | float):
                conn.execute(
                    "INSERT INTO metrics (run_id, name, split, value, is_primary, goal_value) "
                    "VALUES (%s, %s, 'test', %s, %s, %s)",
                    (run_id, name, float(value), name == primary,
                     float(goal) if name == primary and goal is not None else None),
                )


def fail_run(
    db: Database, *, run_id: str, seconds: float, error: dict[str, Any],
    executed_key: str | None,
) -> None:
    """Mark a run failed with its error."""
    with db.connection() as conn:
        conn.execute(
            "UPDATE runs SET status = 'failed', seconds = %s, error_code = %s, "
            "error_message = %s, error = %s, executed_key = %s, finished_at = now() "
            "WHERE id = %s",
            (seconds, error.get("code"), error.get("message"), Jsonb(error), executed_key,
             run_id),
        )


def load_run(db: Database, paper_id: str) -> tuple[RunSummary, dict[str, str]]:
    """The paper's latest finished run and its plot keys.

    Returns:
        ``(summary, plots)``; a ``missing`` summary when the paper never ran.
    """
    with db.connection() as conn:
        row = conn.execute(
            "SELECT id, status, error_code, error_message, results, seconds, template, plots "
            "FROM runs WHERE paper_id = %s AND status <> 'running' "
            "ORDER BY started_at DESC, id DESC LIMIT 1",
            (paper_id,),
        ).fetchone()
    if row is None:
        return RunSummary(status="missing"), {}
    summary = RunSummary(
        run_id=row[0], status=row[1], error_code=row[2], error_message=row[3],
        metrics=dict(row[4] or {}), seconds=row[5], template=row[6],
    )
    return summary, dict(row[7] or {})


def run_details(db: Database, run_id: str) -> dict[str, Any]:
    """Everything stored about one run (for ``show``).

    Raises:
        NotebookError: ``E_RUN_NOT_FOUND``.
    """
    with db.connection() as conn:
        row = conn.execute(
            "SELECT id, paper_id, plan_id, notebook_id, dagster_run_id, template, status, "
            "budget_minutes, seconds, data_source, synthetic, output_prefix, executed_key, "
            "plots, results, error_code, error_message, error, started_at, finished_at "
            "FROM runs WHERE id = %s",
            (run_id,),
        ).fetchone()
        if row is None:
            raise NotebookError(E_RUN_NOT_FOUND, f"run {run_id} not found")
        metric_rows = conn.execute(
            "SELECT name, split, value, is_primary, goal_value FROM metrics WHERE run_id = %s "
            "ORDER BY is_primary DESC, name",
            (run_id,),
        ).fetchall()
    names = ("id", "paper_id", "plan_id", "notebook_id", "dagster_run_id", "template", "status",
             "budget_minutes", "seconds", "data_source", "synthetic", "output_prefix",
             "executed_key", "plots", "results", "error_code", "error_message", "error",
             "started_at", "finished_at")
    out = dict(zip(names, row, strict=True))
    out["started_at"] = out["started_at"].isoformat() if out["started_at"] else None
    out["finished_at"] = out["finished_at"].isoformat() if out["finished_at"] else None
    out["metrics"] = [
        {"name": m[0], "split": m[1], "value": m[2], "is_primary": m[3], "goal_value": m[4]}
        for m in metric_rows
    ]
    return out


def latest_run_id(db: Database, paper_id: str) -> str | None:
    """Id of the paper's latest run (any status)."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT id FROM runs WHERE paper_id = %s ORDER BY started_at DESC, id DESC LIMIT 1",
            (paper_id,),
        ).fetchone()
    return row[0] if row else None


def save_report(db: Database, report: ReproductionReport, markdown_key: str | None) -> int:
    """Insert a report row and return its id."""
    with db.connection() as conn:
        row = conn.execute(
            "INSERT INTO reproduction_reports (paper_id, run_id, plan_id, verdict, report, "
            "markdown_key) VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
            (report.paper_id, report.run_id, report.plan_id, report.verdict,
             Jsonb(json.loads(report.model_dump_json())), markdown_key),
        ).fetchone()
    if row is None:  # an INSERT ... RETURNING always returns its row
        raise RuntimeError("reproduction_reports insert returned no row")
    return int(row[0])


def load_report(db: Database, paper_id: str) -> ReproductionReport | None:
    """The paper's latest report, or None."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT report FROM reproduction_reports WHERE paper_id = %s "
            "ORDER BY created_at DESC, id DESC LIMIT 1",
            (paper_id,),
        ).fetchone()
    return ReproductionReport.model_validate(row[0]) if row else None


def latest_reports(db: Database) -> list[ReproductionReport]:
    """The latest report of every paper, ordered by paper title."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT DISTINCT ON (r.paper_id) r.report FROM reproduction_reports r "
            "ORDER BY r.paper_id, r.created_at DESC, r.id DESC"
        ).fetchall()
    reports = [ReproductionReport.model_validate(row[0]) for row in rows]
    return sorted(reports, key=lambda r: ((r.title or "").lower(), r.paper_id))
