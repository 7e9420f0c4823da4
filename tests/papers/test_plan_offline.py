"""The deterministic planner on the sample papers: right dataset, model, goal and
hyperparameters, each justified by a quote that is on the cited page."""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import extract_claims
from repro_assets.papers.grounding import quote_on_page
from repro_assets.papers.plan_models import PlanError
from repro_assets.papers.planner import make_plan
from repro_assets.papers.samples import SAMPLE_PAPERS
from tests.papers.test_claims_samples import sample_pages

EXPECTED = {
    "linear_svm_breast_cancer": dict(
        dataset="breast_cancer", architecture="linear_svm", goal=0.965,
        config={"seed": 42}, hyper={"C": 1.0, "max_iter": 10000}, test_size=0.2),
    "compact_mlp_digits": dict(
        dataset="digits", architecture="mlp", goal=0.983,
        config={"seed": 42, "epochs": 20, "learning_rate": 0.001, "batch_size": 32,
                "optimizer": "adam", "weight_decay": 0.0001, "dropout": 0.0},
        hyper={"hidden_layer_sizes": [64]}, test_size=0.2),
    "gradient_boosting_uci": dict(
        dataset="iris", architecture="gradient_boosting", goal=0.967,
        config={"seed": 42, "learning_rate": 0.1},
        hyper={"n_estimators": 100, "max_depth": 3}, test_size=0.2),
}


@pytest.mark.parametrize("paper", SAMPLE_PAPERS, ids=lambda p: p.slug)
def test_offline_plan_for_each_sample(paper) -> None:
    pages, data = sample_pages(paper)
    claims = extract_claims(pages, data).claims
    result, findings = make_plan(pages, claims, llm=None, budget_minutes=10)
    want = EXPECTED[paper.slug]
    plan = result.plan
    assert (result.method, result.stage_path) == ("heuristic", "heuristic")
    assert plan.version == "1.1"
    assert plan.dataset.name == want["dataset"] and plan.dataset.source == "sklearn"
    assert plan.dataset.test_size == want["test_size"]
    assert plan.model.architecture == want["architecture"]
    assert plan.model.framework == "sklearn"
    assert plan.model.hyperparameters == want["hyper"]
    assert plan.metrics.primary == "accuracy" and plan.metrics.secondary == ["f1"]
    assert plan.metrics.goal_value == pytest.approx(want["goal"])
    for key, value in want["config"].items():
        assert getattr(plan.config, key) == value, key
    assert plan.policy.license == "BSD-3-Clause" and plan.policy.budget_minutes == 10
    assert result.data_resolution.status == "RESOLVED"
    texts = {p.page_no: p.text for p in pages.pages}
    # every justification that is not "Inferred" is a verbatim quote on its cited page
    for key in ("dataset", "model", "config", "metrics"):
        item = getattr(plan.justifications, key)
        assert item.citation != "Inferred", key
        page = int(item.citation.rsplit("page ", 1)[1].split(",")[0])
        assert quote_on_page(item.quote, texts[page]), (key, item)
    for finding in findings:
        assert quote_on_page(finding.quote, texts[finding.page]), finding
    assert not [w for w in result.warnings if "not found in the paper" in w]


def test_mlp_epochs_are_capped_with_a_warning() -> None:
    pages, data = sample_pages(SAMPLE_PAPERS[1])
    result, findings = make_plan(pages, extract_claims(pages, data).claims)
    assert {f.name: f.value for f in findings}["epochs"] == 50
    assert result.plan.config.epochs == 20
    assert "epochs 50 capped to 20 (CPU budget)" in result.warnings


def test_baseline_hyperparameters_do_not_leak_into_the_plan() -> None:
    # paper 1 gives gradient boosting a learning rate of 0.1; the SVM plan must not take it
    pages, data = sample_pages(SAMPLE_PAPERS[0])
    result, _ = make_plan(pages, extract_claims(pages, data).claims)
    assert result.plan.config.learning_rate is None
    assert "n_estimators" not in result.plan.model.hyperparameters


def test_budget_over_cap_fails_the_guardrail() -> None:
    pages, data = sample_pages(SAMPLE_PAPERS[2])
    with pytest.raises(PlanError) as info:
        make_plan(pages, extract_claims(pages, data).claims, budget_minutes=30)
    assert info.value.code == "E_PLAN_GUARDRAIL_FAILED"


def test_no_claims_means_not_ready() -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[2])
    with pytest.raises(PlanError) as info:
        make_plan(pages, [])
    assert info.value.code == "E_PLAN_NOT_READY"
