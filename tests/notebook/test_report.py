"""Report verdicts: within / outside tolerance, partial band, NOT_RUN reasons, markdown."""

from __future__ import annotations

from typing import Any

import pytest

from repro_assets.papers.notebook.report import (
    ClaimInput,
    ReportSettings,
    RunSummary,
    build_report,
    judge,
    leaderboard_markdown,
    leaderboard_rows,
    method_matches,
    render_markdown,
    summary_line,
)
from tests.notebook.plans import make_plan

SETTINGS = ReportSettings()


def _run(accuracy: float | None, f1: float | None = None, **data: Any) -> RunSummary:
    metrics = {k: v for k, v in (("accuracy", accuracy), ("f1", f1)) if v is not None}
    dataset = {"dataset": "breast_cancer", "source": "sklearn", "synthetic": False,
               "n_train": 455, "n_test": 114, "task": "classification", **data}
    return RunSummary(run_id="run_1", status="succeeded", template="sklearn_linear_svm",
                      metrics={"metrics": metrics, "dataset": dataset, "epochs_run": 3,
                               "primary_metric": "accuracy"}, seconds=4.2)


def _claims() -> list[ClaimInput]:
    def claim(method: str, metric: str, value: float, dataset: str = "breast_cancer") -> ClaimInput:
        return ClaimInput(dataset_name=dataset, metric_name=metric, metric_value=value,
                          method_snippet=method, source_citation="Table 1, page 2", page=2,
                          quoted_text=f"{method} {value * 100:.1f}")
    return [
        claim("Logistic regression (L2)", "accuracy", 0.982),
        claim("Linear SVM (ours)", "accuracy", 0.965),
        claim("Linear SVM (ours)", "f1", 0.962),
        claim("Linear SVM (ours)", "accuracy", 0.972, dataset="wine"),
        claim("Random forest", "accuracy", 0.956),
    ]


def _svm_plan(goal: float | None = 0.965):
    return make_plan(architecture="linear_svm", model_name="Linear SVM", goal=goal)


@pytest.mark.parametrize(
    ("claimed", "achieved", "verdict"),
    [
        (0.965, 0.965, "REPRODUCED"),
        (0.965, 0.9451, "REPRODUCED"),   # -1.99 points
        (0.965, 0.9849, "REPRODUCED"),   # +1.99 points
        (0.965, 0.940, "PARTIAL"),       # -2.5 points, inside the 5-point band
        (0.965, 0.990, "PARTIAL"),       # +2.5 points: better than claimed, setup differs
        (0.965, 0.900, "NOT_REPRODUCED"),
    ],
)
def test_judge_point_metrics(claimed: float, achieved: float, verdict: str) -> None:
    got, reasons, gaps = judge("accuracy", claimed, achieved, SETTINGS)
    assert got == verdict, reasons
    assert gaps["gap_points"] == pytest.approx((achieved - claimed) * 100, abs=1e-3)
    assert gaps["relative_gap"] == pytest.approx((achieved - claimed) / claimed, abs=1e-6)


def test_tolerance_is_configurable() -> None:
    assert judge("accuracy", 0.965, 0.94, ReportSettings(tolerance_points=3))[0] == "REPRODUCED"
    assert judge("accuracy", 0.965, 0.955, ReportSettings(tolerance_points=0.5))[0] == "PARTIAL"


def test_lower_is_better_and_relative_metrics() -> None:
    assert judge("mse", 10.0, 10.4, SETTINGS)[0] == "REPRODUCED"  # +4%
    assert judge("mse", 10.0, 11.0, SETTINGS)[0] == "PARTIAL"  # +10% worse
    assert judge("mse", 10.0, 13.0, SETTINGS)[0] == "NOT_REPRODUCED"
    assert judge("error_rate", 0.10, 0.05, SETTINGS)[0] == "PARTIAL"  # much better
    assert judge("error_rate", 0.10, 0.20, SETTINGS)[0] == "NOT_REPRODUCED"


def test_method_matching() -> None:
    assert method_matches("Linear SVM (ours)", "Linear SVM", "linear_svm")
    assert not method_matches("Logistic regression (L2)", "Linear SVM", "linear_svm")
    assert not method_matches("Random forest", "Linear SVM", "linear_svm")
    assert method_matches("MLP-64 (ours)", "MLP-64", "mlp")
    assert method_matches(None, "anything", "mlp")
    assert method_matches("Gradient boosting (ours)", "Gradient boosting", "gradient_boosting")


def test_report_reproduced_compares_goal_and_same_model_claims() -> None:
    report = build_report(paper_id="p1", plan=_svm_plan(), claims=_claims(),
                          run=_run(0.9649, 0.9722), plan_id="plan_1", title="SVM paper")
    assert report.verdict == "REPRODUCED"
    assert report.primary is not None and report.primary.source == "plan_goal"
    assert report.primary.citation == "Table 1, page 2"  # merged with the matching claim
    assert report.primary.gap_points == pytest.approx(-0.01, abs=0.01)
    metrics = [(c.metric, c.claimed) for c in report.comparisons]
    assert metrics == [("accuracy", 0.965), ("f1", 0.962)]  # LR, RF and Wine are context
    assert report.other_claims == 3
    assert report.comparisons[1].verdict == "REPRODUCED"
    assert {j.topic for j in report.justifications} >= {"dataset", "model", "config", "claim"}


def test_report_partial_when_a_secondary_claim_misses() -> None:
    report = build_report(paper_id="p1", plan=_svm_plan(), claims=_claims(),
                          run=_run(0.9649, 0.90))
    assert report.verdict == "PARTIAL"
    assert any("f1" in r and "NOT_REPRODUCED" in r for r in report.reasons)


def test_report_not_reproduced_outside_tolerance() -> None:
    report = build_report(paper_id="p1", plan=_svm_plan(), claims=_claims(),
                          run=_run(0.85, 0.84))
    assert report.verdict == "NOT_REPRODUCED"
    assert report.primary is not None and report.primary.gap_points == pytest.approx(-11.5)
    assert "short of the claim" in report.reasons[0]


def test_report_not_run_cases() -> None:
    plan, claims = _svm_plan(), _claims()
    failed = RunSummary(run_id="r", status="failed", error_code="E_BUDGET_EXCEEDED",
                        error_message="the notebook exceeded its budget of 600 s")
    report = build_report(paper_id="p", plan=plan, claims=claims, run=failed)
    assert report.verdict == "NOT_RUN"
    assert "E_BUDGET_EXCEEDED" in report.reasons[0]
    assert report.run_error and "E_BUDGET_EXCEEDED" in report.run_error

    missing = build_report(paper_id="p", plan=plan, claims=claims,
                           run=RunSummary(status="missing"))
    assert missing.verdict == "NOT_RUN" and "not been run" in missing.reasons[0]

    synthetic = build_report(paper_id="p", plan=plan, claims=claims,
                             run=_run(0.97, source="synthetic", synthetic=True,
                                      fallback_reason="sst2 unavailable"))
    assert synthetic.verdict == "NOT_RUN"
    assert synthetic.primary is not None and synthetic.primary.achieved == 0.97
    assert "synthetic" in synthetic.reasons[0]

    no_goal = build_report(paper_id="p", plan=_svm_plan(goal=None), claims=[],
                           run=_run(0.97))
    assert no_goal.verdict == "NOT_RUN" and "no claimed value" in no_goal.reasons[0]


def test_goal_from_claim_when_plan_has_none() -> None:
    report = build_report(paper_id="p", plan=_svm_plan(goal=None), claims=_claims(),
                          run=_run(0.9649))
    assert report.primary is not None and report.primary.source == "claim"
    assert report.primary.claimed == 0.965 and report.verdict == "REPRODUCED"


def test_markdown_embeds_plots_and_quotes() -> None:
    report = build_report(paper_id="p1", plan=_svm_plan(), claims=_claims(),
                          run=_run(0.9649, 0.9722), plots={"loss_curve": "k/loss_curve.png",
                                                           "accuracy_curve": "k/acc.png"})
    report.kid_summary = "We checked it."
    md = render_markdown(report, {"loss_curve": b"\x89PNG\r\n\x1a\nfake"})
    assert "**Verdict: REPRODUCED**" in md
    assert "![loss_curve](data:image/png;base64,iVBORw0KGgpmYWtl)" in md
    assert "`k/acc.png`" in md
    assert '> "We use the Breast Cancer Wisconsin dataset" (dataset; p.1)' in md
    assert "| plan goal | Linear SVM | breast_cancer | accuracy | 96.5% | 96.5% |" in md
    assert "We checked it." in md
    assert summary_line(report).startswith("accuracy claimed 96.5% vs achieved 96.5%")


def test_leaderboard_rows_one_per_paper_and_claim() -> None:
    good = build_report(paper_id="a", plan=_svm_plan(), claims=_claims(),
                        run=_run(0.9649, 0.9722), title="A")
    failed = build_report(paper_id="b", plan=_svm_plan(goal=None), claims=[],
                          run=RunSummary(status="missing"), title="B")
    rows = leaderboard_rows([good, failed])
    assert [(r["paper_id"], r["metric"], r["verdict"]) for r in rows] == [
        ("a", "accuracy", "REPRODUCED"), ("a", "f1", "REPRODUCED"), ("b", None, "NOT_RUN")]
    md = leaderboard_markdown(rows)
    assert md.count("\n") == 4 and "**NOT_RUN**" in md
