"""Plan builders shared by the notebook tests."""

from __future__ import annotations

from typing import Any

from repro_assets.papers.plan_models import PlanDocumentV11


def make_plan(
    *,
    dataset: str = "breast_cancer",
    architecture: str = "logistic_regression",
    model_name: str = "Logistic regression",
    framework: str = "sklearn",
    hyperparameters: dict[str, Any] | None = None,
    epochs: int = 3,
    goal: float | None = 0.982,
    secondary: list[str] | None = None,
    kid_mode: bool = False,
    budget_minutes: int = 5,
    **config: Any,
) -> PlanDocumentV11:
    """A valid plan with small, fast defaults."""
    return PlanDocumentV11.model_validate({
        "version": "1.1",
        "dataset": {"name": dataset, "source": "sklearn"},
        "model": {"name": model_name, "architecture": architecture, "framework": framework,
                  "hyperparameters": hyperparameters or {}},
        "config": {"seed": 42, "epochs": epochs, **config},
        "metrics": {"primary": "accuracy", "secondary": secondary or ["f1"],
                    "goal_value": goal},
        "justifications": {
            "dataset": {"quote": "We use the Breast Cancer Wisconsin dataset", "citation": "p.1"},
            "model": {"quote": "L2-regularized logistic regression (C = 1.0)", "citation": "p.1"},
            "config": {"quote": "All experiments use random seed 42", "citation": "p.1"},
        },
        "policy": {"budget_minutes": budget_minutes, "license": "BSD-3-Clause"},
        "explain": {"accessible": True, "kid_mode": kid_mode},
    })
