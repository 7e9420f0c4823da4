"""Sanitizer (seed examples), dataset resolution, schema validation and plan guardrails."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from repro_assets.papers.plan_models import PlanDocumentV11, PlanError
from repro_assets.papers.planner import finalize_plan
from repro_assets.papers.resolution import resolve_dataset
from repro_assets.papers.sanitizer import sanitize_plan

SEED_EXAMPLE: dict[str, Any] = {
    "dataset": {"name": "SST2 Dataset"},
    "config": {"epochs": "25"},
    "justifications": "See Table 2",
}


def full_plan(**changes: Any) -> dict[str, Any]:
    """The seed's complete Plan v1.1 example with some fields changed."""
    plan: dict[str, Any] = {
        "version": "1.1",
        "dataset": {"name": "sst2", "source": "huggingface", "hf_dataset": "glue",
                    "hf_config": "sst2", "split": "train", "test_split": "validation"},
        "model": {"name": "TextCNN", "architecture": "cnn", "framework": "pytorch"},
        "config": {"seed": 42, "batch_size": 64, "epochs": 10, "learning_rate": 0.001,
                   "optimizer": "adam", "weight_decay": 0.0, "dropout": 0.5},
        "metrics": {"primary": "accuracy", "secondary": ["f1", "precision", "recall"],
                    "goal_value": 0.881, "loss": "cross_entropy"},
        "justifications": {
            "dataset": {"quote": "We use the SST-2 dataset (Socher et al. 2013)",
                        "citation": "Section 4.1"},
            "model": {"quote": "We employ a CNN with filter sizes 3, 4, 5 and 100 feature maps "
                      "each", "citation": "Section 3.2, page 3"},
            "config": {"quote": "We use Adam optimizer with learning rate 0.001",
                       "citation": "Section 4.2"},
        },
        "policy": {"budget_minutes": 10, "license": "MIT", "cpu_only": True},
        "visualizations": {"plots": ["loss_curve", "accuracy_curve"],
                           "tables": ["confusion_matrix"]},
        "explain": {"accessible": True, "kid_mode": True},
    }
    for dotted, value in changes.items():
        target = plan
        *parents, leaf = dotted.split("__")
        for key in parents:
            target = target[key]
        target[leaf] = value
    return plan


def test_seed_sanitizer_example() -> None:
    clean, warnings, resolution = sanitize_plan(copy.deepcopy(SEED_EXAMPLE))
    assert clean["dataset"]["name"] == "sst2"
    assert clean["dataset"]["hf_dataset"] == "glue" and clean["dataset"]["hf_config"] == "sst2"
    assert clean["config"]["epochs"] == 20
    assert clean["justifications"]["dataset"] == {"quote": "See Table 2",
                                                  "citation": "Inferred"}
    assert clean["config"]["seed"] == 42
    assert resolution.status == "RESOLVED" and resolution.requested_name == "SST2 Dataset"
    assert any("capped to 20" in w for w in warnings)
    assert any("resolved to 'sst2'" in w for w in warnings)


def test_the_seeds_full_example_validates_unchanged() -> None:
    raw = full_plan()
    clean, warnings, _ = sanitize_plan(raw)
    plan = PlanDocumentV11.model_validate(clean)
    assert plan.model_dump(mode="json", exclude_none=True)["config"] == raw["config"]
    assert warnings == []


def test_coercion_pruning_and_normalisation() -> None:
    raw = full_plan(config__batch_size="64", config__learning_rate="1e-3",
                    policy__cpu_only="true", metrics__goal_value="88.1%",
                    metrics__primary="Acc.", model__framework="PyTorch",
                    model__architecture="Convolutional neural network")
    raw["config"]["momentum"] = 0.9
    raw["notes"] = "free text"
    clean, warnings, _ = sanitize_plan(raw)
    plan = PlanDocumentV11.model_validate(clean)
    assert plan.config.batch_size == 64 and plan.config.learning_rate == 0.001
    assert plan.policy.cpu_only is True
    assert plan.metrics.goal_value == pytest.approx(0.881)
    assert plan.metrics.primary == "accuracy"
    assert (plan.model.framework, plan.model.architecture) == ("pytorch", "cnn")
    assert "dropped unknown key config.momentum" in warnings
    assert "dropped unknown key notes" in warnings


def test_justification_shapes_are_fixed() -> None:
    raw = full_plan()
    raw["justifications"] = {"dataset": "We use SST-2",
                             "model": {"text": "A CNN", "source": "Sec 3"},
                             "config": [{"quote": "lr 0.001", "citation": "Sec 4"}]}
    clean, _, _ = sanitize_plan(raw)
    j = PlanDocumentV11.model_validate(clean).justifications
    assert (j.dataset.quote, j.dataset.citation) == ("We use SST-2", "Inferred")
    assert (j.model.quote, j.model.citation) == ("A CNN", "Sec 3")
    assert (j.config.quote, j.config.citation) == ("lr 0.001", "Sec 4")


def test_blocked_dataset_falls_back_to_synthetic_with_a_warning() -> None:
    raw = full_plan(dataset={"name": "ImageNet-1k"})
    result = finalize_plan(raw, "p1", None, "llm", "two_stage", 10)
    assert result.plan.dataset.name == "synthetic_classification"
    assert result.plan.dataset.source == "synthetic"
    assert result.data_resolution.status == "BLOCKED"
    assert result.data_resolution.requested_name == "ImageNet-1k"
    assert any("blocked" in w and "synthetic" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("name", "status"),
    [("SST-2", "RESOLVED"), ("ImageNet", "BLOCKED"), ("SQuAD v1.1", "COMPLEX"),
     ("SST-2 and MR", "COMPLEX"), ("Our hospital records", "UNKNOWN")],
)
def test_resolution_outcomes(name: str, status: str) -> None:
    assert resolve_dataset(name).status == status


def test_unknown_or_adapter_datasets_have_no_allowed_dataset() -> None:
    for name in ("Our hospital records", "SQuAD"):
        with pytest.raises(PlanError) as info:
            finalize_plan(full_plan(dataset={"name": name}), "p1", None, "llm", "two_stage", 10)
        assert info.value.code == "E_PLAN_NO_ALLOWED_DATASETS", name


def test_multi_dataset_request_uses_the_first_known_one() -> None:
    result = finalize_plan(full_plan(dataset={"name": "SST-2 and MR"}), "p1", None, "llm",
                           "two_stage", 10)
    assert result.plan.dataset.name == "sst2"
    assert result.data_resolution.status == "COMPLEX"


@pytest.mark.parametrize(
    ("changes", "guardrail"),
    [({"policy__budget_minutes": 45}, "runtime"),
     ({"dataset": {"name": "mr"}}, "license"),
     ({"metrics__primary": "vibes"}, "metrics")],
)
def test_plan_guardrails_fail_with_their_code(changes: dict[str, Any], guardrail: str) -> None:
    with pytest.raises(PlanError) as info:
        finalize_plan(full_plan(**changes), "p1", None, "llm", "two_stage", 10)
    assert info.value.code == "E_PLAN_GUARDRAIL_FAILED"
    assert info.value.details["guardrail"] == guardrail


def test_empty_justification_fails_the_guardrail() -> None:
    raw = full_plan()
    raw["justifications"]["model"] = {"quote": "A CNN", "citation": " "}
    with pytest.raises(PlanError) as info:
        finalize_plan(raw, "p1", None, "llm", "two_stage", 10)
    assert (info.value.code, info.value.details["guardrail"]) == (
        "E_PLAN_GUARDRAIL_FAILED", "justifications")


def test_schema_violations_are_422_schema_invalid() -> None:
    raw = full_plan(config__epochs="many", config__dropout=1.5)
    with pytest.raises(PlanError) as info:
        finalize_plan(raw, "p1", None, "llm", "two_stage", 10)
    assert info.value.code == "E_PLAN_SCHEMA_INVALID"
    locs = {tuple(e["loc"]) for e in info.value.details["errors"]}
    assert ("config", "epochs") in locs and ("config", "dropout") in locs
    raw = full_plan()
    del raw["metrics"]
    with pytest.raises(PlanError) as info:
        finalize_plan(raw, "p1", None, "llm", "two_stage", 10)
    assert info.value.code == "E_PLAN_SCHEMA_INVALID"


def test_plan_id_is_deterministic() -> None:
    a = finalize_plan(full_plan(), "p1", None, "llm", "two_stage", 10)
    b = finalize_plan(full_plan(), "p1", None, "llm", "two_stage", 10)
    c = finalize_plan(full_plan(config__epochs=5), "p1", None, "llm", "two_stage", 10)
    assert a.plan_id == b.plan_id != c.plan_id
