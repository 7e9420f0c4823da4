"""Stage 5 without a kernel: template choice, valid notebooks, parameters, injection checks."""

from __future__ import annotations

import ast
import json
import math

import nbformat
import pytest
from papermill.parameterize import parameterize_notebook

from repro_assets.papers.notebook.errors import NotebookError
from repro_assets.papers.notebook.generator import (
    RUNTIME_PARAMETERS,
    generate_notebook,
    json_safe,
    verify_injected_parameters,
)
from repro_assets.papers.notebook.templates import TEMPLATES, choose_template
from repro_assets.papers.notebook.templates.common import PARAMETER_DEFAULTS
from tests.notebook.plans import make_plan

EVIL = "x'); import os; os.system('touch /tmp/pwned')#"


@pytest.mark.parametrize(
    ("architecture", "expected"),
    [
        ("logistic_regression", "sklearn_logistic_regression"),
        ("Linear SVM", "sklearn_linear_svm"),
        ("random_forest", "sklearn_random_forest"),
        ("GBDT", "sklearn_gradient_boosting"),
        ("mlp", "sklearn_mlp"),
        ("cnn", "pytorch_cnn"),
    ],
)
def test_choose_template_by_architecture(architecture: str, expected: str) -> None:
    template, warnings = choose_template(architecture)
    assert template.name == expected
    assert warnings == []


def test_choose_template_substitutes_with_warnings() -> None:
    template, warnings = choose_template("lstm")
    assert template.name == "pytorch_cnn" and "CPU adaptation" in warnings[0]
    template, warnings = choose_template("knn")
    assert template.name == "sklearn_logistic_regression" and "no template" in warnings[0]
    template, _ = choose_template("unknown", model_name="TextCNN")
    assert template.name == "pytorch_cnn"


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_every_template_builds_a_valid_notebook(name: str) -> None:
    template = TEMPLATES[name]
    arch = template.architectures[0]
    plan = make_plan(architecture=arch, model_name="Marker-Model-7f3", kid_mode=True)
    generated = generate_notebook(plan, paper_id="paper-1")
    nb = nbformat.reads(generated.to_json(), as_version=4)
    nbformat.validate(nb)
    assert generated.template.name == name
    assert nb.metadata["kernelspec"]["name"] == "python3"
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1
    # Every code cell parses, and no plan value is pasted into any cell.
    for cell in nb.cells:
        if cell.cell_type == "code":
            ast.parse(cell.source)
        assert "Marker-Model-7f3" not in cell.source
        assert "random seed 42" not in cell.source
    assert generated.parameters["model_name"] == "Marker-Model-7f3"
    assert any("Explained for a curious kid" in c.source for c in nb.cells)


def test_kid_cell_only_with_kid_mode() -> None:
    plain = generate_notebook(make_plan(kid_mode=False))
    assert not any("curious kid" in c.source for c in plain.notebook.cells)


def test_parameters_cover_the_plan_and_nothing_runtime() -> None:
    plan = make_plan(architecture="mlp", hyperparameters={"hidden_layer_sizes": [64]},
                     learning_rate=0.001, batch_size=32, weight_decay=0.0001, epochs=50)
    params = generate_notebook(plan, paper_id="p").parameters
    assert set(params) | set(RUNTIME_PARAMETERS) == set(PARAMETER_DEFAULTS)
    assert params["hyperparameters"] == {"hidden_layer_sizes": [64]}
    assert (params["learning_rate"], params["batch_size"], params["epochs"]) == (0.001, 32, 50)
    assert params["dataset_meta"]["sklearn_loader"] == "load_breast_cancer"
    assert json.loads(params["plan_json"])["model"]["architecture"] == "mlp"


def test_blocked_and_unknown_datasets_become_flagged_synthetic() -> None:
    blocked = generate_notebook(make_plan(dataset="ImageNet"))
    assert blocked.parameters["dataset_source"] == "synthetic"
    assert blocked.parameters["dataset_meta"]["fallback_for"] == "ImageNet"
    assert any("blocked" in w for w in blocked.warnings)
    unknown = generate_notebook(make_plan(dataset="Our private hospital records"))
    assert unknown.parameters["dataset_source"] == "synthetic"
    assert any("not in the dataset registry" in w for w in unknown.warnings)


def test_huggingface_dataset_uses_registry_ids_and_labelled_split() -> None:
    generated = generate_notebook(make_plan(dataset="SST-2", architecture="cnn"))
    params = generated.parameters
    assert params["dataset_name"] == "sst2"
    assert params["dataset_meta"]["hf_dataset"] == "glue"
    assert params["test_split"] == "validation"


def test_json_safe_rejects_nan_and_unknown_names() -> None:
    with pytest.raises(NotebookError) as err:
        json_safe({"learning_rate": math.nan})
    assert err.value.code == "E_PARAMETER_INVALID"
    with pytest.raises(NotebookError):
        json_safe({"__import__('os')": 1})


def test_hostile_strings_stay_literal_after_papermill_injection() -> None:
    hostile = [EVIL, 'a"""; import os #', "back\\slash\" quote", "line\nbreak", "{x}",
               "é ünïcode \u2028 sep"]
    plan = make_plan(model_name=EVIL, hyperparameters={"C": 1.0, EVIL: hostile[1]},
                     optimizer=hostile[2])
    generated = generate_notebook(plan, paper_id=hostile[3])
    params = dict(generated.parameters)
    params["template_title"] = hostile[4]
    params["secondary_metrics"] = hostile
    nb = nbformat.from_dict(json.loads(generated.to_json()))
    for cell in nb.cells:
        cell.metadata.setdefault("tags", [])
    nb.metadata["papermill"] = {}
    injected = parameterize_notebook(nb, params, kernel_name="python3", language="python")
    verify_injected_parameters(injected, params)  # literal assignments of exactly these values
    cell = next(c for c in injected.cells if "injected-parameters" in c.metadata["tags"])
    for node in ast.parse(cell.source).body:
        assert isinstance(node, ast.Assign)
        ast.literal_eval(node.value)


def test_tampered_injected_cell_is_refused() -> None:
    generated = generate_notebook(make_plan())
    nb = nbformat.from_dict(json.loads(generated.to_json()))
    for cell in nb.cells:
        cell.metadata.setdefault("tags", [])
    nb.metadata["papermill"] = {}
    injected = parameterize_notebook(nb, generated.parameters, kernel_name="python3",
                                     language="python")
    cell = next(c for c in injected.cells if "injected-parameters" in c.metadata["tags"])
    original = cell.source
    for bad in (original + "\nimport os", original + "\nseed = __import__('os').getpid()",
                original.replace("seed = 42", "seed = 43")):
        cell.source = bad
        with pytest.raises(NotebookError) as err:
            verify_injected_parameters(injected, generated.parameters)
        assert err.value.code == "E_PARAMETER_INJECTION"
