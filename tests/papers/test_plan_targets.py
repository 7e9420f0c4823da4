"""The plan reproduces the claim the request names (issue #13 item 6), else the headline."""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import extract_claims
from repro_assets.papers.plan_models import ClaimTarget, PlanError
from repro_assets.papers.plan_targets import select_target, target_matches
from repro_assets.papers.planner import make_plan
from repro_assets.papers.samples import SAMPLE_PAPERS
from tests.papers.test_claims_samples import sample_pages


@pytest.fixture(scope="module")
def svm_paper():
    """Sample paper 0: claims on Breast Cancer (headline) and on Wine."""
    pages, data = sample_pages(SAMPLE_PAPERS[0])
    return pages, extract_claims(pages, data).claims


@pytest.mark.parametrize("target", [
    ClaimTarget(dataset_name="Wine", metric_name="accuracy", metric_value=0.972),
    ClaimTarget(dataset_name="UCI Wine", metric_name="Accuracy", metric_value=97.2),
    ClaimTarget(dataset_name="wine", metric_name="acc", split="test"),
])
def test_a_wine_request_plans_wine(svm_paper, target: ClaimTarget) -> None:
    pages, claims = svm_paper
    result, _ = make_plan(pages, claims, targets=[target])
    plan = result.plan
    assert plan.dataset.name == "wine"
    assert plan.metrics.primary == "accuracy"
    assert plan.metrics.goal_value == pytest.approx(0.972)
    # two methods print 97.2 on Wine; the paper's own (ours) is the one planned
    assert plan.model.architecture == "linear_svm"
    assert result.plan.justifications.metrics.quote.count("97.2") >= 1
    assert not [w for w in result.warnings if "requested claim" in w]


def test_without_a_request_the_headline_is_planned(svm_paper) -> None:
    pages, claims = svm_paper
    result, _ = make_plan(pages, claims)
    assert (result.plan.dataset.name, result.plan.metrics.goal_value) == ("breast_cancer", 0.965)


def test_unmatched_requests_are_reported_and_the_match_is_used(svm_paper) -> None:
    pages, claims = svm_paper
    result, _ = make_plan(pages, claims, targets=[
        ClaimTarget(dataset_name="ImageNet", metric_name="top-1", metric_value=0.8),
        ClaimTarget(dataset_name="Wine", metric_name="f1", metric_value=0.971),
    ])
    assert (result.plan.dataset.name, result.plan.metrics.primary) == ("wine", "f1")
    assert any("ImageNet/top-1=0.8" in w for w in result.warnings)


def test_a_request_matching_nothing_is_a_coded_error(svm_paper) -> None:
    pages, claims = svm_paper
    with pytest.raises(PlanError) as info:
        make_plan(pages, claims, targets=[ClaimTarget(dataset_name="Wine",
                                                      metric_name="accuracy",
                                                      metric_value=0.5)])
    assert info.value.code == "E_PLAN_CLAIM_NOT_FOUND"
    assert "Wine/accuracy=0.972" in info.value.details["grounded_claims"]


def test_matching_rules(svm_paper) -> None:
    pages, claims = svm_paper
    wine = next(c for c in claims if c.dataset_key == "wine" and c.metric_name == "accuracy"
                and "ours" in (c.method_snippet or ""))
    assert target_matches(ClaimTarget(dataset_name="Wine Recognition", metric_name="accuracy",
                                      metric_value=0.9721), wine)
    assert not target_matches(ClaimTarget(dataset_name="Wine", metric_name="f1"), wine)
    assert not target_matches(ClaimTarget(dataset_name="Wine", metric_name="accuracy",
                                          split="validation"), wine)
    assert not target_matches(ClaimTarget(dataset_name="Iris", metric_name="accuracy",
                                          metric_value=0.972), wine)
    selection = select_target(claims, pages, [ClaimTarget(dataset_name="Wine",
                                                          metric_name="accuracy")])
    assert selection.claim is wine and selection.requested and not selection.unmatched


def test_the_headline_target_needs_the_plan_confidence_threshold(svm_paper) -> None:
    from repro_assets.papers.plan_targets import PLAN_MIN_CONFIDENCE

    pages, claims = svm_paper
    headline = select_target(claims, pages).claim
    assert headline is not None and headline.confidence >= PLAN_MIN_CONFIDENCE
    weak = [c.model_copy(update={"confidence": PLAN_MIN_CONFIDENCE - 0.05})
            if c is headline else c for c in claims]
    chosen = select_target(weak, pages).claim
    assert chosen is not None and chosen.confidence >= PLAN_MIN_CONFIDENCE
    assert (chosen.dataset_name, chosen.metric_value) != (headline.dataset_name,
                                                          headline.metric_value)
    all_weak = [c.model_copy(update={"confidence": 0.6}) for c in claims]
    assert select_target(all_weak, pages).claim is None
    with pytest.raises(PlanError) as info:
        make_plan(pages, all_weak)
    assert info.value.code == "E_PLAN_CLAIM_NOT_FOUND" and "threshold" in str(info.value)
    # a request that names a weak claim still plans it
    result, _ = make_plan(pages, all_weak, targets=[ClaimTarget(
        dataset_name="Wine", metric_name="accuracy", metric_value=0.972)])
    assert result.plan.dataset.name == "wine"
