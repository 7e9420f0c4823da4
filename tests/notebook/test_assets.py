"""The Dagster assets on the embedded Postgres: notebook -> run -> report -> leaderboard."""

from __future__ import annotations

import json
from typing import Any

import dagster as dg
import pytest

from repro_assets.assets import paper_report as report_mod
from repro_assets.assets import paper_reproduction as mod
from repro_assets.papers import views as papers_views
from repro_assets.papers.claims import Claim, ClaimsResult, Evidence, save_claims
from repro_assets.papers.notebook.store import load_report, run_details
from repro_assets.papers.plan_models import DataResolution, PlanResult
from repro_assets.papers.plan_store import save_plan
from repro_assets.papers.planner import plan_id_for
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.registry import default_resources
from repro_assets.storage.database import get_database
from tests.notebook.plans import make_plan

PARTITIONED = [mod.reproduction_notebook, mod.reproduction_run, report_mod.reproduction_report]


def _seed_paper(paper_id: str, **plan_kwargs: Any) -> None:
    db = get_database()
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO papers (id, title, pdf_storage_path, pdf_sha256) VALUES (%s, %s, %s, %s)",
            (paper_id, f"Paper {paper_id}", f"papers/{paper_id}.pdf", paper_id * 4),
        )
    plan = make_plan(**plan_kwargs)
    save_plan(db, PlanResult(
        plan_id=plan_id_for(paper_id, plan), paper_id=paper_id, plan=plan,
        data_resolution=DataResolution(dataset_name=plan.dataset.name,
                                       requested_name=plan.dataset.name, status="RESOLVED"),
        method="heuristic", stage_path="heuristic",
    ))

    def claim(method: str, metric: str, value: float) -> Claim:
        quote = f"{method} {value * 100:.1f}"
        return Claim(dataset_name="breast_cancer", split="test", metric_name=metric,
                     metric_value=value, units="%", method_snippet=method,
                     source_citation="Table 1, page 2", confidence=0.9,
                     evidence=Evidence(page=2, quoted_text=quote), extraction_method="table")

    save_claims(db, ClaimsResult(
        paper_id=paper_id, rejected=[], method="heuristic", tables_found=1, merged_duplicates=0,
        claims=[claim("Logistic regression (L2)", "accuracy", 0.982),
                claim("Logistic regression (L2)", "f1", 0.981),
                claim("Linear SVM (ours)", "accuracy", 0.965)],
    ))


def _materialize(instance: dg.DagsterInstance, key: str, run_config: dict | None = None
                 ) -> dg.ExecuteInProcessResult:
    return dg.materialize(PARTITIONED, instance=instance, partition_key=key,
                          resources=default_resources(), run_config=run_config or {},
                          raise_on_error=False)


def _check_evaluations(result: dg.ExecuteInProcessResult) -> list[Any]:
    return [e.event_specific_data for e in result.all_events
            if e.event_type_value == "ASSET_CHECK_EVALUATION"]


def test_paper_goes_from_plan_to_report_and_leaderboard(fresh_database: str) -> None:
    _seed_paper("paper-lr", architecture="logistic_regression", model_name="Logistic regression",
                goal=0.982, kid_mode=True)
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["paper-lr"])
    result = _materialize(instance, "paper-lr")
    assert result.success

    mats = {m.asset_key.to_user_string(): m.metadata
            for m in result.get_asset_materialization_events()
            for m in [m.event_specific_data.materialization]}
    nb_meta, run_meta, report_meta = (mats["reproduction_notebook"], mats["reproduction_run"],
                                      mats["reproduction_report"])
    assert nb_meta["template"].value == "sklearn_logistic_regression"
    assert nb_meta["kid_mode"].value is True
    assert run_meta["primary_value"].value == pytest.approx(0.9825, abs=1e-3)
    assert run_meta["synthetic_data"].value is False
    assert report_meta["verdict"].value == "REPRODUCED"
    assert "data:image/png;base64," in report_meta["report"].value
    assert report_meta["method"].value == "heuristic"

    checks = _check_evaluations(result)
    assert len(checks) == 1 and checks[0].passed
    assert checks[0].severity == dg.AssetCheckSeverity.WARN

    db = get_database()
    report = load_report(db, "paper-lr")
    assert report is not None and report.run_id
    assert [c.metric for c in report.comparisons] == ["accuracy", "f1"]  # SVM row is context
    details = run_details(db, report.run_id)
    assert details["status"] == "succeeded"
    assert {m["name"] for m in details["metrics"]} >= {"accuracy", "f1", "precision", "recall"}
    assert [m["name"] for m in details["metrics"] if m["is_primary"]] == ["accuracy"]
    blobs = BlobStoreResource().get_store()
    assert set(details["plots"]) == {"loss_curve", "accuracy_curve", "confusion_matrix"}
    for key in (*details["plots"].values(), details["executed_key"]):
        assert blobs.exists(key)
    shown = papers_views.SHOWS["reproduction_run"]("paper-lr")
    assert shown["id"] == report.run_id
    assert papers_views.SHOWS["reproduction_notebook"]("paper-lr")["notebook"]["nbformat"] == 4
    assert papers_views.report_summary("paper-lr").endswith("REPRODUCED")
    details = papers_views.reproduction_details("paper-lr")
    assert details[0].startswith("reproduction: REPRODUCED - accuracy claimed 98.2%")
    assert any(line.strip().startswith("f1: claimed 0.981") for line in details)
    assert any(line.startswith("kid summary (heuristic)") for line in details)

    board = dg.materialize([report_mod.reproduction_leaderboard], instance=instance,
                           resources=default_resources())
    assert board.success
    rows = papers_views.SHOWS["reproduction_leaderboard"](None)
    assert [(r["paper_id"], r["metric"], r["verdict"]) for r in rows] == [
        ("paper-lr", "accuracy", "REPRODUCED"), ("paper-lr", "f1", "REPRODUCED")]
    stored = json.loads(blobs.read_text(report_mod.LEADERBOARD_KEY))
    assert stored == json.loads(json.dumps(rows))


def test_budget_failure_fails_the_run_and_the_report_says_not_run(fresh_database: str) -> None:
    _seed_paper("paper-slow", architecture="linear_svm", model_name="Linear SVM", goal=0.965)
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["paper-slow"])
    config = {"ops": {"reproduction_run": {"config": {"timeout_seconds": 0.05}}}}
    result = _materialize(instance, "paper-slow", config)
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    user = failure.step_failure_data.user_failure_data
    assert user.metadata["code"].value == "E_BUDGET_EXCEEDED"
    assert "E_BUDGET_EXCEEDED" in user.description

    db = get_database()
    with db.connection() as conn:
        status, code = conn.execute(
            "SELECT status, error_code FROM runs WHERE paper_id = %s", ("paper-slow",)
        ).fetchone()
    assert (status, code) == ("failed", "E_BUDGET_EXCEEDED")

    report_only = dg.materialize([report_mod.reproduction_report], instance=instance,
                                 partition_key="paper-slow", resources=default_resources())
    assert report_only.success
    report = load_report(db, "paper-slow")
    assert report is not None and report.verdict == "NOT_RUN"
    assert "E_BUDGET_EXCEEDED" in report.reasons[0]
    checks = _check_evaluations(report_only)
    assert len(checks) == 1 and not checks[0].passed
    assert checks[0].severity == dg.AssetCheckSeverity.WARN


def test_failing_cell_fails_the_run_with_the_cell_error(fresh_database: str) -> None:
    _seed_paper("paper-bad", hyperparameters={"C": -1.0})  # sklearn rejects a negative C
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["paper-bad"])
    result = dg.materialize([mod.reproduction_notebook, mod.reproduction_run], instance=instance,
                            partition_key="paper-bad", resources=default_resources(),
                            raise_on_error=False)
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    user = failure.step_failure_data.user_failure_data
    assert user.metadata["code"].value == "E_NOTEBOOK_CELL_FAILED"
    assert "InvalidParameterError" in user.description and "'C'" in user.description
    assert "InvalidParameterError" in user.metadata["traceback"].value
    with get_database().connection() as conn:
        row = conn.execute("SELECT status, error_code, error->>'ename', executed_key FROM runs "
                           "WHERE paper_id = 'paper-bad'").fetchone()
    assert row[:3] == ("failed", "E_NOTEBOOK_CELL_FAILED", "InvalidParameterError")
    blobs = BlobStoreResource().get_store()
    assert user.metadata["executed_notebook"].value == blobs.url(row[3])
    assert "InvalidParameterError" in blobs.read_text(row[3])  # the error is in the notebook


def test_missing_plan_fails_with_code(fresh_database: str) -> None:
    db = get_database()
    with db.connection() as conn:
        conn.execute("INSERT INTO papers (id, pdf_storage_path, pdf_sha256) VALUES (%s, %s, %s)",
                     ("paper-none", "x.pdf", "sha-none"))
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["paper-none"])
    result = dg.materialize([mod.reproduction_notebook], instance=instance,
                            partition_key="paper-none", resources=default_resources(),
                            raise_on_error=False)
    failure = next(e for e in result.all_events if e.is_step_failure)
    assert failure.step_failure_data.user_failure_data.metadata["code"].value == "E_PLAN_NOT_FOUND"


def test_report_check_is_declared() -> None:
    keys = {k.to_user_string() for k in report_mod.reproduction_report.check_keys}
    assert keys == {"reproduction_report:achieved_within_tolerance"}


def _requested(instance: dg.DagsterInstance, cursor: Any = None) -> tuple[set[str], Any]:
    defs = dg.Definitions(assets=[*PARTITIONED, report_mod.reproduction_leaderboard],
                          resources=default_resources())
    result = dg.evaluate_automation_conditions(defs=defs, instance=instance, cursor=cursor)
    keys = {r.key.to_user_string() for r in result.results if r.true_subset.size > 0}
    return keys, result.cursor


def test_leaderboard_refreshes_when_a_report_changes(fresh_database: str) -> None:
    _seed_paper("paper-auto", goal=0.982)
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["paper-auto"])
    requested, cursor = _requested(instance)
    assert requested == set()  # the first evaluation only records the state
    # a report (here NOT_RUN: no run yet) changes -> the leaderboard is requested
    assert dg.materialize([report_mod.reproduction_report], instance=instance,
                          partition_key="paper-auto", resources=default_resources()).success
    requested, cursor = _requested(instance, cursor)
    assert requested == {"reproduction_leaderboard"}
    assert dg.materialize([report_mod.reproduction_leaderboard], instance=instance,
                          resources=default_resources()).success
    requested, cursor = _requested(instance, cursor)
    assert requested == set()  # handled; nothing changed since
