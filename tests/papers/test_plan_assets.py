"""The stage 2-4 assets materialized with the ingest assets on the embedded Postgres."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest

from repro_assets.assets.paper_analysis import ANALYSIS_ASSETS, _grounded_check
from repro_assets.assets.papers import INGEST_ASSETS
from repro_assets.papers.claims import load_claims
from repro_assets.papers.pdf import validate_pdf
from repro_assets.papers.samples import SAMPLE_PAPERS, render_pdf
from repro_assets.papers.views import SHOWS
from repro_assets.papers.views import analysis_details as demo_details
from repro_assets.resources.registry import default_resources
from repro_assets.storage.database import get_database

PAPER = SAMPLE_PAPERS[0]  # linear SVM on breast cancer (table on page 2)


def _run(instance: dg.DagsterInstance, key: str, source: str, assets: list,
         budget: int = 10) -> dg.ExecuteInProcessResult:
    ops: dict = {"reproduction_plan": {"config": {"budget_minutes": budget}}}
    if any(a.key.to_user_string() == "paper_pdf" for a in assets):
        ops["paper_pdf"] = {"config": {"source": source, "title": ""}}
    return dg.materialize(
        assets, instance=instance, partition_key=key, resources=default_resources(),
        run_config={"ops": ops}, raise_on_error=False,
    )


def _meta(result: dg.ExecuteInProcessResult) -> dict[str, dict]:
    return {e.asset_key.to_user_string(): e.materialization.metadata
            for e in result.get_asset_materialization_events()}


@pytest.fixture()
def paper_file(tmp_path: Path) -> Path:
    path = tmp_path / f"{PAPER.slug}.pdf"
    path.write_bytes(render_pdf(PAPER))
    return path


def test_verdict_claims_plan_materialize_offline(fresh_database: str, paper_file: Path,
                                                 no_network: None) -> None:
    instance = dg.DagsterInstance.ephemeral()
    key = validate_pdf(paper_file.read_bytes()).paper_id
    instance.add_dynamic_partitions("papers", [key])
    result = _run(instance, key, str(paper_file), [*INGEST_ASSETS, *ANALYSIS_ASSETS])
    assert result.success
    meta = _meta(result)
    assert meta["reproducibility_verdict"]["reproducible"].value is True
    assert meta["reproducibility_verdict"]["method"].value == "heuristic"
    n_claims = meta["paper_claims"]["claims"].value
    assert n_claims >= 16  # every cell of the results table, maybe sentences too
    assert meta["paper_claims"]["method"].value == "heuristic"
    assert "| 0.965 | Linear SVM (ours) |" in meta["paper_claims"]["claims_table"].value
    plan_meta = meta["reproduction_plan"]
    assert plan_meta["dataset"].value == "breast_cancer"
    assert plan_meta["plan"].value["model"]["architecture"] == "linear_svm"
    assert plan_meta["dataset_status"].value == "RESOLVED"
    assert plan_meta["method"].value == "heuristic"
    checks = result.get_asset_check_evaluations()
    assert [(c.check_name, c.passed) for c in checks] == [("claims_grounded", True)]

    # stored values, as `repro-assets show` returns them
    assert SHOWS["reproducibility_verdict"](key)["reproducible"] is True
    shown = SHOWS["paper_claims"](key)
    assert len(shown["claims"]) == n_claims and shown["claims"][0]["evidence"]["page"] == 2
    plan = SHOWS["reproduction_plan"](key)
    assert plan["plan"]["version"] == "1.1" and plan["paper_id"] == key

    details = demo_details(key)
    assert details[0] == "verdict: reproducible=True (heuristic); missing: none"
    assert details[1] == f"claims ({n_claims}):"
    assert any(line.startswith("plan plan_") and "breast_cancer [RESOLVED]" in line
               for line in details)
    assert plan_meta["llm_usage"].value["provider"] == "offline"

    # replace policy: re-extraction does not duplicate claims
    again = _run(instance, key, str(paper_file), ANALYSIS_ASSETS)
    assert again.success
    with get_database().connection() as conn:
        assert conn.execute("SELECT count(*) FROM claims WHERE paper_id = %s",
                            (key,)).fetchone()[0] == n_claims
        assert conn.execute("SELECT count(*) FROM plans WHERE paper_id = %s",
                            (key,)).fetchone()[0] == 1

    # the check fails for a stored claim whose value is not in its quote
    claims = load_claims(get_database(), key)
    tampered = [claims[0].model_copy(update={"metric_value": 0.999}), *claims[1:]]
    pages = {1: "", 2: ""}
    check = _grounded_check(tampered, pages, pages)
    assert check.passed is False and check.metadata["ungrounded"].value == n_claims

    # a budget over the cap fails the plan with the seed's code
    over = _run(instance, key, str(paper_file), ANALYSIS_ASSETS, budget=45)
    assert not over.success
    failure = next(e for e in over.all_events if e.is_step_failure)
    assert failure.step_failure_data.user_failure_data.metadata["code"].value == (
        "E_PLAN_GUARDRAIL_FAILED")
