"""The plan sanitizer (seed 000, stage 4 step 6): messy LLM/heuristic output -> clean Plan v1.1.

Steps, in the seed's order: type coercion, key pruning, dataset resolution (aliases to
canonical names; blocked datasets replaced by the synthetic fallback with a warning), epochs
cap (20), justifications fixup (``{quote, citation}``), defaults injection. Every change that
alters meaning is reported as a warning.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from typing import Any, get_args, get_origin

from pydantic import BaseModel

from repro_assets.papers.plan_models import (
    ARCHITECTURES,
    PLAN_VERSION,
    DataResolution,
    PlanDocumentV11,
)
from repro_assets.papers.registry import (
    BLOCKED_DATASETS,
    DATASET_REGISTRY,
    SYNTHETIC_FALLBACK,
    DatasetMetadata,
)
from repro_assets.papers.resolution import resolve_dataset

MAX_EPOCHS = 20
INFERRED = "Inferred"

ARCH_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("logistic_regression", r"logistic[\s_-]+regression|\blogreg\b|\blogit\b"),
        ("linear_svm", r"linear[\s_-]+svms?\b|linear[\s_-]+support[\s_-]+vector|"
                       r"support[\s_-]+vector[\s_-]+machines?|\bsvms?\b|\bsvc\b"),
        ("random_forest", r"random[\s_-]+forests?"),
        ("gradient_boosting", r"gradient[\s_-]+boost(?:ing|ed)?|\bgbdt\b|\bgbm\b|xgboost|"
                              r"lightgbm|catboost"),
        ("mlp", r"multi[\s-]?layer[\s_-]+perceptrons?|\bmlps?\b|feed[\s-]?forward[\s_-]+"
                r"(?:neural[\s_-]+)?network|fully[\s-]connected[\s_-]+network"),
        ("cnn", r"convolutional|\bcnns?\b|textcnn|resnet|\bvgg"),
        ("rnn", r"\blstms?\b|\bgrus?\b|recurrent|\brnns?\b"),
        ("transformer", r"transformer|\bbert\b|roberta|\bgpt"),
        ("knn", r"nearest[\s_-]+neighbou?rs?|\bk-?nn\b"),
        ("naive_bayes", r"naive[\s_-]+bayes"),
        ("decision_tree", r"decision[\s_-]+trees?"),
    )
)
NEURAL = {"cnn", "rnn", "transformer"}


def resolve_architecture(text: str | None) -> str | None:
    """Canonical architecture named in ``text`` (first family mentioned), or None."""
    if not text:
        return None
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    if key in ARCHITECTURES:
        return key
    hits = [(m.start(), name) for name, rx in ARCH_PATTERNS if (m := rx.search(text))]
    return min(hits)[1] if hits else None


def architectures_in(text: str) -> set[str]:
    """Every architecture family mentioned in ``text``."""
    return {name for name, rx in ARCH_PATTERNS if rx.search(text)}


# ---------------------------------------------------------------------------------------------
# 1. type coercion and 2. key pruning, driven by the pydantic schema
# ---------------------------------------------------------------------------------------------

_BOOL = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def _coerce_scalar(value: Any, annotation: Any) -> Any:
    """Coerce a JSON scalar towards ``annotation`` (int/float/bool/str, optional)."""
    kinds = set(get_args(annotation)) or {annotation}
    if isinstance(value, str):
        text = value.strip()
        if bool in kinds and text.lower() in _BOOL:
            return _BOOL[text.lower()]
        if int in kinds and re.fullmatch(r"[-+]?\d+", text):
            return int(text)
        if float in kinds:
            match = re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*(%)?", text, re.I)
            if match:
                number = float(text.rstrip("% "))
                return round(number / 100, 6) if match.group(3) else number
        if int in kinds and re.fullmatch(r"[-+]?\d+\.0*", text):
            return int(float(text))
        if type(None) in kinds and text.lower() in {"", "null", "none", "n/a"}:
            return None
    if isinstance(value, float) and int in kinds and float not in kinds and value.is_integer():
        return int(value)
    return value


def _model_of(annotation: Any) -> type[BaseModel] | None:
    for arg in (annotation, *get_args(annotation)):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


def coerce_and_prune(
    data: Any, model: type[BaseModel], path: str, warnings: list[str]
) -> Any:
    """Coerce scalar types and drop keys the model does not define (recursively)."""
    if not isinstance(data, Mapping):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        field = model.model_fields.get(key)
        if field is None:
            warnings.append(f"dropped unknown key {path}{key}")
            continue
        annotation = field.annotation
        sub = _model_of(annotation)
        if sub is not None and isinstance(value, Mapping):
            out[key] = coerce_and_prune(value, sub, f"{path}{key}.", warnings)
        elif get_origin(annotation) is list or list in {get_origin(a) for a in get_args(
                annotation)}:
            out[key] = [value] if isinstance(value, str) else value
        elif get_origin(annotation) is dict or isinstance(value, Mapping):
            out[key] = value
        else:
            out[key] = _coerce_scalar(value, annotation)
    return out


# ---------------------------------------------------------------------------------------------
# 3.-6.
# ---------------------------------------------------------------------------------------------


def _fix_justifications(raw: Any, warnings: list[str]) -> dict[str, Any]:
    if isinstance(raw, str):
        warnings.append("justifications was a plain string; used as the dataset justification")
        return {"dataset": {"quote": raw, "citation": INFERRED}}
    if not isinstance(raw, Mapping):
        return {}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str):
            out[key] = {"quote": value, "citation": INFERRED}
        elif isinstance(value, Mapping):
            quote = value.get("quote") or value.get("text") or value.get("evidence") or ""
            citation = value.get("citation") or value.get("source") or value.get(
                "location") or INFERRED
            out[key] = {"quote": str(quote), "citation": str(citation)}
        elif isinstance(value, list) and value:
            first = value[0]
            out[key] = _fix_justifications({key: first}, warnings)[key]
    return out


def _apply_registry(dataset: dict[str, Any], entry: DatasetMetadata) -> None:
    dataset["name"] = entry.name
    dataset["source"] = entry.source
    dataset["hf_dataset"] = entry.hf_dataset
    dataset["hf_config"] = entry.hf_config
    dataset.setdefault("split", entry.train_split)
    if entry.test_split:
        dataset["test_split"] = entry.test_split
    elif not dataset.get("test_size"):
        dataset["test_size"] = 0.2


def sanitize_plan(
    raw_plan: Mapping[str, Any] | str,
    registry: Mapping[str, DatasetMetadata] = DATASET_REGISTRY,
    policy: Mapping[str, Any] | None = None,
    allow_synthetic_fallback: bool = True,
) -> tuple[dict[str, Any], list[str], DataResolution]:
    """Clean a raw plan (dict or JSON text) so it can validate as :class:`PlanDocumentV11`.

    Args:
        raw_plan: the plan as produced by the planner (may be messy).
        registry: the dataset registry.
        policy: defaults for ``policy`` (e.g. ``{"budget_minutes": 10}``).
        allow_synthetic_fallback: replace blocked datasets by synthetic data (seed behaviour).

    Returns:
        (clean plan dict, warnings, dataset resolution of the *requested* name).
    """
    warnings: list[str] = []
    loaded = json.loads(raw_plan) if isinstance(raw_plan, str) else raw_plan
    plan = copy.deepcopy(dict(loaded))
    raw_justifications = plan.pop("justifications", None)
    plan = coerce_and_prune(plan, PlanDocumentV11, "", warnings)

    # version
    if str(plan.get("version", PLAN_VERSION)) != PLAN_VERSION:
        warnings.append(f"version {plan.get('version')!r} set to {PLAN_VERSION}")
    plan["version"] = PLAN_VERSION

    resolution = _sanitize_dataset(plan, registry, allow_synthetic_fallback, warnings)
    plan["model"] = _sanitize_model(dict(plan.get("model") or {}), warnings)
    plan["config"] = _sanitize_config(dict(plan.get("config") or {}), warnings)
    plan["metrics"] = _sanitize_metrics(dict(plan.get("metrics") or {}), warnings)

    # 5. justifications
    justifications = _fix_justifications(raw_justifications, warnings)
    for key in ("dataset", "model", "config"):
        if key not in justifications or not justifications[key].get("quote", "").strip():
            justifications[key] = {
                "quote": "Not stated in the paper; a default was used.", "citation": INFERRED,
            }
    plan["justifications"] = justifications
    plan["policy"] = _sanitize_policy(plan, registry, policy, warnings)
    plan.setdefault("visualizations", {"plots": ["loss_curve", "accuracy_curve"],
                                       "tables": ["confusion_matrix"]})
    plan.setdefault("explain", {"accessible": True, "kid_mode": True})
    return plan, warnings, resolution


def _sanitize_dataset(plan: dict[str, Any], registry: Mapping[str, DatasetMetadata],
                      allow_synthetic_fallback: bool, warnings: list[str]) -> DataResolution:
    """3. Resolve ``plan["dataset"]`` against the registry (in place); the resolution."""
    dataset = plan.get("dataset")
    if isinstance(dataset, str):
        dataset = {"name": dataset}
    dataset = dict(dataset or {})
    requested = str(dataset.get("name") or "")
    resolution = resolve_dataset(requested, registry, BLOCKED_DATASETS)
    if resolution.status == "RESOLVED" or (resolution.status == "COMPLEX"
                                           and resolution.dataset_name in registry
                                           and not registry[resolution.dataset_name].complex):
        entry = registry[resolution.dataset_name]
        if requested != entry.name:
            warnings.append(f"dataset {requested!r} resolved to {entry.name!r}")
        if resolution.status == "COMPLEX":
            warnings.append(f"several datasets requested ({requested!r}); using {entry.name}")
        _apply_registry(dataset, entry)
    elif resolution.status == "BLOCKED" and allow_synthetic_fallback:
        fallback = registry[SYNTHETIC_FALLBACK]
        warnings.append(f"Dataset {requested!r} blocked (too large), using synthetic fallback")
        dataset = {"name": fallback.name}
        _apply_registry(dataset, fallback)
    plan["dataset"] = dataset
    return resolution


def _sanitize_model(model: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """The model section with its architecture and framework normalised."""
    arch = resolve_architecture(str(model.get("architecture") or "")) or resolve_architecture(
        str(model.get("name") or ""))
    if arch and arch != model.get("architecture"):
        if model.get("architecture"):
            warnings.append(f"architecture {model.get('architecture')!r} normalised to {arch!r}")
        model["architecture"] = arch
    framework = str(model.get("framework") or "").lower().replace("-", "")
    if framework in {"scikitlearn", "sklearn", "sk"}:
        model["framework"] = "sklearn"
    elif framework in {"torch", "pytorch"}:
        model["framework"] = "pytorch"
    elif model.get("architecture"):
        model["framework"] = "pytorch" if model["architecture"] in NEURAL else "sklearn"
        if framework:
            warnings.append(f"framework {framework!r} replaced by {model['framework']!r}")
    return model


def _sanitize_config(config: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """4. The training config with its caps and defaults."""
    epochs = config.get("epochs")
    if isinstance(epochs, int) and epochs > MAX_EPOCHS:
        warnings.append(f"epochs {epochs} capped to {MAX_EPOCHS} (CPU budget)")
        config["epochs"] = MAX_EPOCHS
    if config.get("seed") is None:
        config["seed"] = 42
    if config.get("optimizer"):
        config["optimizer"] = str(config["optimizer"]).lower()
    return config


def _sanitize_metrics(metrics: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """The metrics with canonical names; a percentage goal read as a fraction."""
    from repro_assets.papers.claims import PERCENT_METRICS, resolve_metric

    if metrics.get("primary"):
        primary = resolve_metric(str(metrics["primary"])) or str(metrics["primary"]).lower()
        metrics["primary"] = primary
        secondary = [resolve_metric(str(m)) or str(m).lower()
                     for m in metrics.get("secondary") or []]
        metrics["secondary"] = [m for m in dict.fromkeys(secondary) if m != primary]
        goal = metrics.get("goal_value")
        if isinstance(goal, int | float) and primary in PERCENT_METRICS and 1 < goal <= 100:
            warnings.append(f"goal_value {goal} read as a percentage -> {goal / 100:g}")
            metrics["goal_value"] = round(goal / 100, 6)
    return metrics


def _sanitize_policy(plan: dict[str, Any], registry: Mapping[str, DatasetMetadata],
                     policy: Mapping[str, Any] | None, warnings: list[str]) -> dict[str, Any]:
    """6. Policy defaults; the license from the registry."""
    policy_out = {"budget_minutes": 10, "cpu_only": True, **dict(policy or {}),
                  **dict(plan.get("policy") or {})}
    name = plan["dataset"].get("name")
    if name in registry:
        license_id = registry[name].license
        if policy_out.get("license") not in (None, license_id):
            warnings.append(
                f"license {policy_out.get('license')!r} replaced by the registry's {license_id!r}")
        policy_out["license"] = license_id
    return policy_out
