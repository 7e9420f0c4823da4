"""Two-stage LLM planner (planner + tools, then schema fixer) through the wire-level fake."""

from __future__ import annotations

import json
from typing import Any

import pytest

from repro_assets.papers.claims import extract_claims
from repro_assets.papers.plan_models import ClaimTarget, PlanError
from repro_assets.papers.planner import make_plan
from repro_assets.papers.samples import SAMPLE_PAPERS
from repro_assets.papers.tools import planner_tools
from tests.fakes.llm_wire import OpenAIWireFake
from tests.papers.test_claims_llm import page_search
from tests.papers.test_claims_samples import sample_pages

PAPER = SAMPLE_PAPERS[1]  # compact MLP on digits

DRAFT_PLAN = {
    "dataset": {"name": "UCI handwritten Digits"},
    "model": {"name": "MLP-64", "architecture": "MLP", "framework": "scikit-learn"},
    "config": {"epochs": "50", "learning_rate": "0.001", "batch_size": "32", "seed": 42},
    "metrics": {"primary": "accuracy", "goal_value": 98.3},
    "justifications": "We train for 50 epochs with the Adam optimizer",
}


def fixer_output(**overrides: Any) -> dict[str, Any]:
    """A schema-fixer answer in the strict (list-of-hyperparameters) shape."""
    plan: dict[str, Any] = {
        "version": "1.1",
        "dataset": {"name": "Digits", "source": "sklearn", "hf_dataset": None,
                    "hf_config": None, "split": "train", "test_split": "test",
                    "test_size": 0.2},
        "model": {"name": "MLP-64", "architecture": "mlp", "framework": "sklearn",
                  "hyperparameters": [{"name": "hidden_layer_sizes", "value": [64]}]},
        "config": {"seed": 42, "batch_size": 32, "epochs": 50, "learning_rate": 0.001,
                   "optimizer": "adam", "weight_decay": 0.0001, "dropout": 0.0},
        "metrics": {"primary": "accuracy", "secondary": ["f1"], "goal_value": 0.983,
                    "loss": "cross_entropy"},
        "justifications": {
            "dataset": {"quote": "We study how small a neural network can be",
                        "citation": "Abstract, page 1"},
            "model": {"quote": "Our model is a multilayer perceptron (MLP) with one hidden "
                      "layer of 64 ReLU units", "citation": "Section 2, page 1"},
            "config": {"quote": "We train for 50 epochs with the Adam optimizer",
                       "citation": "Section 3, page 1"},
            "metrics": None,
        },
        "policy": {"budget_minutes": 10, "license": "MIT", "cpu_only": True},
        "visualizations": {"plots": ["loss_curve"], "tables": ["confusion_matrix"]},
        "explain": {"accessible": True, "kid_mode": False},
    }
    plan.update(overrides)
    return plan


@pytest.fixture(scope="module")
def paper() -> tuple[Any, list[Any]]:
    pages, data = sample_pages(PAPER)
    return pages, extract_claims(pages, data).claims


def _stage1(fake: OpenAIWireFake, draft: str = json.dumps(DRAFT_PLAN)) -> None:
    fake.reply_tool_calls([("search_paper", {"query": "training details epochs", "k": 3}),
                           ("dataset_resolver", {"name": "UCI handwritten Digits"})])
    fake.reply_tool_call("license_checker", {"dataset": "digits"})
    fake.reply_tool_call("budget_estimator", {"dataset_size": 1437, "model_type": "sklearn",
                                              "epochs": 20, "batch_size": 32})
    fake.reply_json({"reasoning": "Digits is bundled with scikit-learn; an MLP fits on CPU.",
                     "draft_plan_json": draft})


def test_two_stage_plan(paper) -> None:
    pages, claims = paper
    with OpenAIWireFake() as fake:
        _stage1(fake)
        fake.reply_json(fixer_output())
        client = fake.make_client()
        result, findings = make_plan(pages, claims, client, planner_tools(page_search(pages)))
    assert (result.method, result.stage_path) == ("llm", "two_stage")
    assert findings == []
    plan = result.plan
    assert plan.dataset.name == "digits"
    assert plan.model.hyperparameters == {"hidden_layer_sizes": [64]}
    assert plan.config.epochs == 20  # sanitizer cap
    assert plan.policy.license == "BSD-3-Clause"  # the registry wins over the model's claim
    assert any("license 'MIT' replaced" in w for w in result.warnings)
    assert result.llm_usage["calls"] == 5
    # Stage 1 ran the registry tools; their results reached Stage 2's prompt
    fixer_request = fake.requests[4].json
    assert fake.requests[0].json["model"] != "" and "tools" not in fixer_request
    stage2_user = json.loads(fixer_request["messages"][-1]["content"])
    tools_seen = {c["tool"]: c["result"] for c in stage2_user["stage1_tool_calls"]}
    assert tools_seen["dataset_resolver"]["canonical_name"] == "digits"
    assert tools_seen["license_checker"] == {"license": "BSD-3-Clause", "compatible": True}
    assert tools_seen["budget_estimator"]["within_budget"] is True
    assert "draft_plan_json" in stage2_user["stage1_output"]


def test_schema_fixer_failing_twice_falls_back_to_stage1(paper) -> None:
    pages, claims = paper
    with OpenAIWireFake() as fake:
        _stage1(fake)
        for _ in range(8):  # two attempts: the fixer and the JSONizer, each with one re-ask
            fake.reply_malformed('{"version": "1.1", "dataset": ')
        result, _ = make_plan(pages, claims, fake.make_client(),
                              planner_tools(page_search(pages)))
    assert result.stage_path == "stage1_fallback"
    assert "Stage 2 failed twice; parsed the Stage 1 draft directly" in result.warnings
    plan = result.plan
    assert (plan.dataset.name, plan.model.architecture, plan.model.framework) == (
        "digits", "mlp", "sklearn")
    assert plan.config.epochs == 20 and plan.config.learning_rate == 0.001
    assert plan.metrics.goal_value == pytest.approx(0.983)
    assert plan.justifications.dataset.citation == "Inferred"


def test_both_stages_failing_is_two_stage_failed(paper) -> None:
    pages, claims = paper
    with OpenAIWireFake() as fake:
        _stage1(fake, draft="I think an MLP on digits would work well.")
        for _ in range(8):
            fake.reply_malformed("not json at all")
        with pytest.raises(PlanError) as info:
            make_plan(pages, claims, fake.make_client(), planner_tools(page_search(pages)))
    assert info.value.code == "E_TWO_STAGE_FAILED"
    assert info.value.details["schema_fix_code"] == "E_SCHEMA_FIX_FAILED"


@pytest.mark.parametrize(
    ("overrides", "code"),
    [({"policy": {"budget_minutes": 60, "license": "MIT", "cpu_only": True}},
      "E_PLAN_GUARDRAIL_FAILED"),
     ({"dataset": {"name": "ImageNet", "source": "huggingface", "hf_dataset": None,
                   "hf_config": None, "split": "train", "test_split": "test",
                   "test_size": None},
       "metrics": {"primary": "top-5 vibes", "secondary": [], "goal_value": 0.7,
                   "loss": None}}, "E_PLAN_GUARDRAIL_FAILED"),
     ({"dataset": {"name": "our clinic's records", "source": "huggingface",
                   "hf_dataset": None, "hf_config": None, "split": "train",
                   "test_split": "test", "test_size": None}}, "E_PLAN_NO_ALLOWED_DATASETS")],
)
def test_llm_plan_guardrails(paper, overrides: dict[str, Any], code: str) -> None:
    pages, claims = paper
    with OpenAIWireFake() as fake:
        _stage1(fake)
        fake.reply_json(fixer_output(**overrides))
        with pytest.raises(PlanError) as info:
            make_plan(pages, claims, fake.make_client(), planner_tools(page_search(pages)))
    assert info.value.code == code


def test_stage1_provider_error_is_plan_openai_error(paper) -> None:
    pages, claims = paper
    with OpenAIWireFake() as fake:
        fake.reply_status(401, message="Incorrect API key provided")
        with pytest.raises(PlanError) as info:
            make_plan(pages, claims, fake.make_client(), planner_tools(None))
    assert info.value.code == "E_PLAN_OPENAI_ERROR"


def test_search_cap_is_enforced(paper) -> None:
    pages, claims = paper
    with OpenAIWireFake(strict=False) as fake:
        for n in range(11):
            fake.reply_tool_call("search_paper", {"query": f"q{n}", "k": 1})
        with pytest.raises(PlanError) as info:
            make_plan(pages, claims, fake.make_client(), planner_tools(page_search(pages)))
    assert info.value.code == "E_POLICY_CAP_EXCEEDED"


def test_stage1_prose_is_rescued_by_the_jsonizer(paper) -> None:
    """Seed: Stage 1 may answer in prose; the JSONizer (a cheaper model) turns it into the
    draft instead of the plan failing with E_PLAN_NO_OUTPUT."""
    pages, claims = paper
    prose = "Digits is bundled with scikit-learn; train an MLP-64 for 20 epochs with Adam."
    with OpenAIWireFake() as fake:
        fake.reply_text(prose)
        fake.reply_text(prose)  # the layer's one re-ask gets prose again
        fake.reply_json({"reasoning": prose, "draft_plan_json": json.dumps(DRAFT_PLAN)})
        fake.reply_json(fixer_output())
        result, _ = make_plan(pages, claims, fake.make_client(), planner_tools(None))
    assert (result.method, result.stage_path) == ("llm", "two_stage")
    jsonizer = fake.requests[2].json
    assert jsonizer["model"] == "gpt-4o-mini" and jsonizer["messages"][-1]["content"] == prose
    assert result.plan.dataset.name == "digits"


def test_schema_fixer_provider_failure_is_a_plan_openai_error(paper) -> None:
    """A provider failure in Stage 2 is the seed's E_PLAN_OPENAI_ERROR, not a note."""
    pages, claims = paper
    with OpenAIWireFake() as fake:
        _stage1(fake)
        for _ in range(6):  # two attempts of three tries each
            fake.reply_status(500, message="upstream overloaded")
        with pytest.raises(PlanError) as info:
            make_plan(pages, claims, fake.make_client(), planner_tools(page_search(pages)))
    assert info.value.code == "E_PLAN_OPENAI_ERROR"
    assert info.value.details["llm_code"] == "E_LLM_PROVIDER_ERROR"


def test_a_plan_about_another_dataset_fails_the_target_check(paper) -> None:
    pages, claims = paper  # the headline claim is on Digits
    iris = fixer_output(dataset={"name": "Iris", "source": "sklearn", "hf_dataset": None,
                                 "hf_config": None, "split": "train", "test_split": "test",
                                 "test_size": 0.2})
    with OpenAIWireFake() as fake:
        _stage1(fake)
        fake.reply_json(iris)
        with pytest.raises(PlanError) as info:
            make_plan(pages, claims, fake.make_client(), planner_tools(page_search(pages)))
    assert (info.value.code, info.value.details["guardrail"]) == (
        "E_PLAN_GUARDRAIL_FAILED", "target_claim")


def test_the_requested_claim_is_what_the_llm_plans(paper) -> None:
    pages, claims = paper
    target = ClaimTarget(dataset_name="Digits", metric_name="F1", metric_value=98.3)
    with OpenAIWireFake() as fake:
        _stage1(fake)
        fake.reply_json(fixer_output())  # the fixer kept accuracy as the primary metric
        result, _ = make_plan(pages, claims, fake.make_client(),
                              planner_tools(page_search(pages)), targets=[target])
    stage1_user = json.loads(fake.requests[0].json["messages"][-1]["content"])
    assert stage1_user["target_claim"]["metric_name"] == "f1"
    assert stage1_user["target_claim"]["metric_value"] == pytest.approx(0.983)
    assert all(c != stage1_user["target_claim"] for c in stage1_user["claims"])
    metrics = result.plan.metrics
    assert (metrics.primary, metrics.goal_value) == ("f1", pytest.approx(0.983))
    assert "accuracy" in metrics.secondary
    assert any("primary metric 'accuracy' replaced" in w for w in result.warnings)
