"""The ``plans`` table: every plan of a paper is kept; the latest is what stage 5 uses."""

from __future__ import annotations

import json

from repro_assets.papers.plan_models import DataResolution, PlanDocumentV11, PlanResult
from repro_assets.storage.database import Database


def save_plan(db: Database, result: PlanResult) -> None:
    """Insert (or refresh) a plan row."""
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO plans (id, paper_id, version, plan_json, budget_minutes, status, method,"
            " stage_path, warnings, data_resolution, llm_usage)"
            " VALUES (%s, %s, %s, %s, %s, 'planned', %s, %s, %s, %s, %s)"
            " ON CONFLICT (id) DO UPDATE SET warnings = EXCLUDED.warnings,"
            " data_resolution = EXCLUDED.data_resolution, llm_usage = EXCLUDED.llm_usage,"
            " method = EXCLUDED.method, stage_path = EXCLUDED.stage_path, created_at = now()",
            (result.plan_id, result.paper_id, result.plan_version,
             json.dumps(result.plan.model_dump(mode="json")), result.plan.policy.budget_minutes,
             result.method, result.stage_path, json.dumps(result.warnings),
             json.dumps(result.data_resolution.model_dump(mode="json")),
             json.dumps(result.llm_usage, default=str)),
        )


def load_latest_plan(db: Database, paper_id: str) -> PlanResult | None:
    """The most recent plan of a paper (what stage 5 materializes), or None."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT id, plan_json, warnings, data_resolution, method, stage_path, llm_usage"
            " FROM plans WHERE paper_id = %s ORDER BY created_at DESC, id LIMIT 1",
            (paper_id,),
        ).fetchone()
    if row is None:
        return None
    return PlanResult(
        plan_id=row[0], paper_id=paper_id, plan=PlanDocumentV11.model_validate(row[1]),
        warnings=row[2], data_resolution=DataResolution.model_validate(row[3]), method=row[4],
        stage_path=row[5], llm_usage=row[6],
    )
