"""Stage 5, materialize: a Plan JSON v1.1 becomes a Jupyter notebook (nbformat), no LLM involved.

"LLMs create structured JSON plans. Python generators create code." (seed 000). The notebook's
code cells are the constants of one template (:mod:`.templates`); the plan only chooses the
template and which optional cells exist. Every plan *value* becomes a papermill parameter
(:func:`plan_parameters`): JSON types only, written by papermill as Python literals into the
injected cell after the cell tagged ``parameters``. :func:`verify_injected_parameters` checks
that the injected cell is nothing but literal assignments of exactly those values, so no text
from a PDF or an LLM can become code.
"""

from __future__ import annotations

import ast
import json
import math
from dataclasses import dataclass, field
from typing import Any

import nbformat
from nbformat import NotebookNode

from repro_assets.papers.notebook.errors import (
    E_NOTEBOOK_INVALID,
    E_PARAMETER_INJECTION,
    E_PARAMETER_INVALID,
    NotebookError,
)
from repro_assets.papers.notebook.templates import NotebookTemplate, choose_template
from repro_assets.papers.notebook.templates import common as cells
from repro_assets.papers.plan_models import PlanDocumentV11
from repro_assets.papers.registry import (
    DATASET_REGISTRY,
    SYNTHETIC_FALLBACK,
    is_blocked,
    lookup_dataset,
)

GENERATOR_VERSION = "1.0"
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}

#: Parameters the executor sets per run (not from the plan).
RUNTIME_PARAMETERS = (
    "output_dir",
    "max_train_samples",
    "max_test_samples",
    "synthetic_samples",
    "allow_download",
    "datasets_dir",
    "num_threads",
)


@dataclass
class GeneratedNotebook:
    """A generated notebook and the parameters that carry the plan into it.

    Attributes:
        notebook: the nbformat v4 notebook (template cells, neutral parameter defaults).
        parameters: plan-derived papermill parameters (JSON types).
        template: the template used.
        warnings: substitutions and fallbacks decided while generating.
    """

    notebook: NotebookNode
    parameters: dict[str, Any]
    template: NotebookTemplate
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        """The notebook as ``.ipynb`` JSON text."""
        return nbformat.writes(self.notebook)

    def parameters_json(self) -> str:
        """The parameters as JSON text (stored next to the notebook)."""
        return json.dumps(self.parameters, indent=1, sort_keys=True)

    def summary(self) -> dict[str, Any]:
        """JSON-able description for metadata and storage."""
        return {
            "template": self.template.name,
            "template_title": self.template.title,
            "framework": self.template.framework,
            "generator_version": GENERATOR_VERSION,
            "cells": len(self.notebook.cells),
            "code_cells": sum(1 for c in self.notebook.cells if c.cell_type == "code"),
            "kid_mode": bool(self.parameters.get("kid_mode")),
            "warnings": list(self.warnings),
        }


def json_safe(parameters: dict[str, Any]) -> dict[str, Any]:
    """Return ``parameters`` as plain JSON types, rejecting NaN/inf and non-JSON objects.

    Raises:
        NotebookError: ``E_PARAMETER_INVALID``.
    """
    unknown = sorted(set(parameters) - set(cells.PARAMETER_DEFAULTS))
    if unknown:
        raise NotebookError(E_PARAMETER_INVALID, f"unknown notebook parameters: {unknown}")
    try:
        return json.loads(json.dumps(parameters, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise NotebookError(E_PARAMETER_INVALID, f"parameters are not plain JSON: {exc}") from exc


def _dataset_parameters(plan: PlanDocumentV11, warnings: list[str]) -> dict[str, Any]:
    requested = plan.dataset.name
    entry = lookup_dataset(requested)
    if entry is None or is_blocked(requested) or entry.complex:
        reason = (
            "is blocked (too large for a CPU budget)" if is_blocked(requested)
            else "needs a custom adapter" if entry is not None
            else "is not in the dataset registry"
        )
        warnings.append(f"dataset {requested!r} {reason}; the notebook uses synthetic data")
        fallback = DATASET_REGISTRY[SYNTHETIC_FALLBACK]
        meta = fallback.summary()
        return {
            "dataset_name": requested,
            "dataset_source": "synthetic",
            "dataset_meta": {**meta, "fallback_for": requested},
            "train_split": "train",
            "test_split": None,
            "test_size": plan.dataset.test_size or 0.2,
        }
    if plan.dataset.source != entry.source:
        warnings.append(
            f"plan says source {plan.dataset.source!r} for {entry.name}; the registry's "
            f"{entry.source!r} is used"
        )
    test_split = entry.test_split
    if entry.source == "huggingface" and plan.dataset.test_split not in (None, entry.test_split):
        warnings.append(
            f"test split {plan.dataset.test_split!r} replaced by the registry's "
            f"{entry.test_split!r} (labelled split)"
        )
    return {
        "dataset_name": entry.name,
        "dataset_source": entry.source,
        "dataset_meta": entry.summary(),
        "train_split": entry.train_split,
        "test_split": test_split,
        "test_size": plan.dataset.test_size or 0.2,
    }


def plan_parameters(
    plan: PlanDocumentV11, template: NotebookTemplate, *, paper_id: str = ""
) -> tuple[dict[str, Any], list[str]]:
    """Map a plan onto the notebook's papermill parameters.

    Args:
        plan: the validated plan.
        template: the chosen template.
        paper_id: the paper (for the record in ``metrics.json``).

    Returns:
        ``(parameters, warnings)``; parameters hold JSON types only.
    """
    warnings: list[str] = []
    params: dict[str, Any] = {
        "paper_id": paper_id,
        "plan_json": plan.model_dump_json(),
        "template": template.name,
        "template_title": template.title,
        "model_in_words": template.kid_words,
        "preprocess": template.preprocess,
        **_dataset_parameters(plan, warnings),
        "model_name": plan.model.name,
        "architecture": plan.model.architecture,
        "hyperparameters": dict(plan.model.hyperparameters),
        "seed": plan.config.seed,
        "epochs": plan.config.epochs,
        "batch_size": plan.config.batch_size,
        "learning_rate": plan.config.learning_rate,
        "optimizer": plan.config.optimizer,
        "weight_decay": plan.config.weight_decay,
        "dropout": plan.config.dropout,
        "primary_metric": plan.metrics.primary.lower(),
        "secondary_metrics": [m.lower() for m in plan.metrics.secondary],
        "goal_value": plan.metrics.goal_value,
        "plots": list(plan.visualizations.plots),
        "tables": list(plan.visualizations.tables),
        "kid_mode": plan.explain.kid_mode,
    }
    for key, value in list(params.items()):
        if isinstance(value, float) and not math.isfinite(value):
            warnings.append(f"plan value {key} is not finite; using the template default")
            params[key] = cells.PARAMETER_DEFAULTS[key]
    return json_safe(params), warnings


def _code(source: str, tags: list[str] | None = None) -> NotebookNode:
    cell = nbformat.v4.new_code_cell(source=source)
    if tags:
        cell.metadata["tags"] = tags
    return cell


def _md(source: str) -> NotebookNode:
    return nbformat.v4.new_markdown_cell(source=source)


def parameters_cell_source() -> str:
    """Source of the cell tagged ``parameters``: the neutral defaults (no plan values)."""
    lines = ["# Parameters (papermill injects the plan's values in the next cell)"]
    lines += [f"{name} = {value!r}" for name, value in cells.PARAMETER_DEFAULTS.items()]
    return "\n".join(lines)


def build_notebook(template: NotebookTemplate, *, kid_mode: bool) -> NotebookNode:
    """Assemble the template's notebook (cells are constants; see module docstring).

    Raises:
        NotebookError: ``E_NOTEBOOK_INVALID`` when the result fails nbformat validation.
    """
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["repro_assets"] = {
        "template": template.name,
        "generator_version": GENERATOR_VERSION,
        "kid_mode": kid_mode,
    }
    nb.cells = [
        _md(cells.INTRO_MARKDOWN),
        _code(parameters_cell_source(), tags=["parameters"]),
        _md(cells.SETUP_MARKDOWN),
        _code(cells.SETUP_CODE),
        _md(cells.DATA_MARKDOWN),
        _code(cells.DATA_CODE),
    ]
    if template.preprocess != "none":
        nb.cells += [_md(cells.FEATURES_MARKDOWN), _code(cells.FEATURES_CODE)]
    nb.cells += [
        _md(template.model_markdown),
        _code(cells.CURVES_CODE),
        _code(template.model_code),
        _md(cells.TRAIN_MARKDOWN),
        _code(template.train_code),
        _md(cells.EVAL_MARKDOWN),
        _code(cells.EVAL_CODE),
        _md(cells.PLOTS_MARKDOWN),
        _code(cells.PLOTS_CODE),
        _md(cells.RESULTS_MARKDOWN),
        _code(cells.RESULTS_CODE),
    ]
    if kid_mode:
        nb.cells += [_md(cells.KID_MARKDOWN), _code(cells.KID_CODE)]
    try:
        nbformat.validate(nb)
    except nbformat.ValidationError as exc:
        raise NotebookError(E_NOTEBOOK_INVALID, f"generated notebook is invalid: {exc}") from exc
    return nb


def generate_notebook(plan: PlanDocumentV11, *, paper_id: str = "") -> GeneratedNotebook:
    """Generate the reproduction notebook for ``plan``.

    Args:
        plan: a validated Plan JSON v1.1.
        paper_id: the paper's id (recorded in parameters and results).

    Returns:
        The notebook, its parameters and the warnings.
    """
    template, warnings = choose_template(plan.model.architecture, plan.model.name)
    params, more = plan_parameters(plan, template, paper_id=paper_id)
    notebook = build_notebook(template, kid_mode=plan.explain.kid_mode)
    return GeneratedNotebook(notebook, params, template, warnings + more)


def verify_injected_parameters(nb: NotebookNode, parameters: dict[str, Any]) -> None:
    """Check papermill's injected cell: literal assignments of exactly ``parameters``.

    Raises:
        NotebookError: ``E_PARAMETER_INJECTION`` when the cell holds anything else (a call, an
            import, an expression, a name that is not a parameter, a value that differs).
    """
    injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    if len(injected) != 1:
        raise NotebookError(E_PARAMETER_INJECTION, f"{len(injected)} injected-parameters cells")
    source = injected[0].source
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise NotebookError(E_PARAMETER_INJECTION, f"injected cell does not parse: {exc}") from exc
    seen: dict[str, Any] = {}
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            raise NotebookError(
                E_PARAMETER_INJECTION, f"injected cell holds a statement that is not an "
                f"assignment: {ast.dump(node)[:120]}"
            )
        name = node.targets[0].id
        try:
            value = ast.literal_eval(node.value)
        except ValueError as exc:
            raise NotebookError(
                E_PARAMETER_INJECTION, f"parameter {name} is not a literal value"
            ) from exc
        seen[name] = value
    if seen.keys() != parameters.keys():
        raise NotebookError(
            E_PARAMETER_INJECTION,
            f"injected names differ: {sorted(set(seen) ^ set(parameters))}",
        )
    for name, value in parameters.items():
        if seen[name] != value:
            raise NotebookError(E_PARAMETER_INJECTION, f"parameter {name} changed in injection")
