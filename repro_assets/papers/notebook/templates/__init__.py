"""Notebook templates per model family and the rule that picks one for a plan."""

from __future__ import annotations

import importlib.util
import re

from repro_assets.papers.notebook.templates.base import NotebookTemplate
from repro_assets.papers.notebook.templates.sklearn_models import (
    GRADIENT_BOOSTING,
    LINEAR_SVM,
    LOGISTIC_REGRESSION,
    MLP,
    RANDOM_FOREST,
    SKLEARN_TEMPLATES,
)
from repro_assets.papers.notebook.templates.torch_cnn import TORCH_CNN

#: Every template by name.
TEMPLATES: dict[str, NotebookTemplate] = {t.name: t for t in (*SKLEARN_TEMPLATES, TORCH_CNN)}

#: Spellings of architectures (normalised: lower case, ``_`` separators) -> canonical name.
ARCHITECTURE_ALIASES: dict[str, str] = {
    "logreg": "logistic_regression",
    "logistic": "logistic_regression",
    "lr": "logistic_regression",
    "linear": "logistic_regression",
    "svm": "linear_svm",
    "linear_svc": "linear_svm",
    "linearsvc": "linear_svm",
    "svc": "linear_svm",
    "support_vector_machine": "linear_svm",
    "rf": "random_forest",
    "forest": "random_forest",
    "random_forests": "random_forest",
    "gbdt": "gradient_boosting",
    "gbm": "gradient_boosting",
    "boosting": "gradient_boosting",
    "gradient_boosted_trees": "gradient_boosting",
    "xgboost": "gradient_boosting",
    "lightgbm": "gradient_boosting",
    "multilayer_perceptron": "mlp",
    "feedforward": "mlp",
    "fully_connected": "mlp",
    "dnn": "mlp",
    "neural_network": "mlp",
    "textcnn": "cnn",
    "text_cnn": "cnn",
    "convnet": "cnn",
    "convolutional": "cnn",
    "convolutional_neural_network": "cnn",
    "lstm": "rnn",
    "gru": "rnn",
    "bilstm": "rnn",
    "bert": "transformer",
}

_DIRECT: dict[str, NotebookTemplate] = {
    "logistic_regression": LOGISTIC_REGRESSION,
    "linear_svm": LINEAR_SVM,
    "random_forest": RANDOM_FOREST,
    "decision_tree": RANDOM_FOREST,
    "gradient_boosting": GRADIENT_BOOSTING,
    "mlp": MLP,
    "cnn": TORCH_CNN,
    "rnn": TORCH_CNN,
    "transformer": TORCH_CNN,
}


def normalize_architecture(name: str) -> str:
    """Canonical architecture for a free-form name ("Linear SVM" -> ``linear_svm``)."""
    key = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return ARCHITECTURE_ALIASES.get(key, key)


def module_available(module: str) -> bool:
    """True when ``module`` can be imported in this environment (the kernel's venv)."""
    return importlib.util.find_spec(module) is not None


def choose_template(architecture: str, model_name: str = "") -> tuple[NotebookTemplate, list[str]]:
    """Pick the template for a plan's model.

    The architecture decides; when it is unknown the model name is tried ("TextCNN"). Families
    without a template of their own get a documented substitute and a warning.

    Args:
        architecture: ``plan.model.architecture``.
        model_name: ``plan.model.name``.

    Returns:
        The template and the warnings to show with the notebook.
    """
    warnings: list[str] = []
    arch = normalize_architecture(architecture or "")
    if arch not in _DIRECT and model_name:
        by_name = normalize_architecture(model_name)
        if by_name in _DIRECT:
            arch = by_name
    template = _DIRECT.get(arch)
    if template is None:
        warnings.append(
            f"no template for architecture {architecture!r}; using a logistic regression baseline"
        )
        template = LOGISTIC_REGRESSION
    elif arch in ("rnn", "transformer"):
        warnings.append(
            f"CPU adaptation: the {arch} is replaced by a convolutional network (TextCNN for text)"
        )
    elif arch == "decision_tree":
        warnings.append("decision tree: random forest template with a single tree")
    missing = [module for module in template.requires if not module_available(module)]
    if missing:
        warnings.append(
            f"{', '.join(missing)} is not installed; using a logistic regression baseline "
            f"instead of the {template.title}"
        )
        template = LOGISTIC_REGRESSION
    return template, warnings


__all__ = [
    "ARCHITECTURE_ALIASES",
    "TEMPLATES",
    "NotebookTemplate",
    "choose_template",
    "module_available",
    "normalize_architecture",
]
