"""Benchmark stages 5-6: seconds to generate and to execute each template on its sample dataset,
and the papermill/kernel overhead against the same code run as a plain Python script.

Run: ``.venv/bin/python benchmarks/notebook.py [--repeat N] [--only NAME ...] [--json PATH]``

For every template the same parameterized notebook is (1) executed by papermill on the local
``python3`` kernel and (2) flattened into a ``.py`` file (its code cells, in order, including
the injected parameters) and run with ``python script.py`` in a fresh interpreter. Overhead is
(1) - (2): kernel start, ZMQ messaging, papermill bookkeeping and notebook writing; both sides
pay the interpreter start and the imports. The goal is an overhead under 3 s per notebook.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat
from papermill.iorw import load_notebook_node
from papermill.parameterize import parameterize_notebook

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from repro_assets.papers.notebook.executor import (  # noqa: E402
    RunOptions,
    execute_notebook,
    runtime_parameters,
)
from repro_assets.papers.notebook.generator import generate_notebook, json_safe  # noqa: E402
from repro_assets.papers.plan_models import PlanDocumentV11  # noqa: E402

JUST = {k: {"quote": "benchmark", "citation": "Inferred"} for k in ("dataset", "model", "config")}

#: template -> (sample dataset, model section, config section): the sample papers' settings.
CASES: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "sklearn_logistic_regression": (
        "breast_cancer", {"name": "Logistic regression", "architecture": "logistic_regression",
                          "hyperparameters": {"C": 1.0}}, {"epochs": 10}),
    "sklearn_linear_svm": (
        "breast_cancer", {"name": "Linear SVM", "architecture": "linear_svm",
                          "hyperparameters": {"C": 1.0, "max_iter": 10000}}, {"epochs": 10}),
    "sklearn_random_forest": (
        "wine", {"name": "Random forest", "architecture": "random_forest",
                 "hyperparameters": {"n_estimators": 200}}, {"epochs": 10}),
    "sklearn_gradient_boosting": (
        "iris", {"name": "Gradient boosting", "architecture": "gradient_boosting",
                 "hyperparameters": {"n_estimators": 100, "max_depth": 3}},
        {"epochs": 10, "learning_rate": 0.1}),
    "sklearn_mlp": (
        "digits", {"name": "MLP-64", "architecture": "mlp",
                   "hyperparameters": {"hidden_layer_sizes": [64]}},
        {"epochs": 50, "learning_rate": 0.001, "batch_size": 32, "weight_decay": 0.0001}),
    "pytorch_cnn": (
        "digits", {"name": "ConvNet", "architecture": "cnn", "framework": "pytorch"},
        {"epochs": 5, "learning_rate": 0.001, "batch_size": 64}),
    "pytorch_cnn (TextCNN, synthetic text)": (
        "sst2", {"name": "TextCNN", "architecture": "cnn", "framework": "pytorch",
                 "hyperparameters": {"filter_sizes": [3, 4, 5], "num_filters": 100}},
        {"epochs": 3, "learning_rate": 0.001, "batch_size": 64, "dropout": 0.5}),
}


def make_plan(dataset: str, model: dict[str, Any], config: dict[str, Any]) -> PlanDocumentV11:
    """A plan for one benchmark case."""
    return PlanDocumentV11.model_validate({
        "dataset": {"name": dataset}, "model": model, "config": {"seed": 42, **config},
        "metrics": {"primary": "accuracy", "secondary": ["f1"]}, "justifications": JUST,
        "policy": {"budget_minutes": 10},
    })


def flatten(notebook: nbformat.NotebookNode, params: dict[str, Any], workdir: Path) -> Path:
    """Write the parameterized notebook's code cells as one script; return its path."""
    source = workdir / "source.ipynb"
    nbformat.write(notebook, str(source))
    nb = parameterize_notebook(load_notebook_node(str(source)), params,
                               kernel_name="python3", language="python")
    code = "\n\n".join(c.source for c in nb.cells if c.cell_type == "code")
    script = workdir / "script.py"
    script.write_text(code, encoding="utf-8")
    return script


def bench_case(name: str, repeat: int) -> dict[str, Any]:
    """Time one template: generate, papermill execute, plain script."""
    dataset, model, config = CASES[name]
    plan = make_plan(dataset, model, config)
    gen_times, exec_times, script_times, accuracy = [], [], [], None
    for _ in range(repeat):
        started = time.perf_counter()
        generated = generate_notebook(plan, paper_id="bench")
        gen_times.append(time.perf_counter() - started)
        with tempfile.TemporaryDirectory(prefix="nb-bench-") as tmp:
            out = Path(tmp) / "papermill"
            options = RunOptions(allow_download=False)
            started = time.perf_counter()
            result = execute_notebook(generated.notebook, generated.parameters, out,
                                      budget_minutes=10, options=options)
            exec_times.append(time.perf_counter() - started)
            accuracy = result.metrics["primary_value"]
            synthetic = result.metrics["dataset"]["synthetic"]
            script_dir = Path(tmp) / "script"
            script_dir.mkdir()
            params = json_safe({**generated.parameters,
                                **runtime_parameters(script_dir, options)})
            script = flatten(generated.notebook, params, script_dir)
            started = time.perf_counter()
            subprocess.run([sys.executable, str(script)], check=True, cwd=script_dir,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            script_times.append(time.perf_counter() - started)
            script_accuracy = json.loads((script_dir / "metrics.json").read_text())[
                "primary_value"]
    med = statistics.median
    return {
        "template": name, "dataset": dataset, "synthetic": synthetic,
        "accuracy": round(accuracy, 4), "script_accuracy": round(script_accuracy, 4),
        "generate_s": round(med(gen_times), 4), "papermill_s": round(med(exec_times), 2),
        "script_s": round(med(script_times), 2),
        "overhead_s": round(med(exec_times) - med(script_times), 2),
    }


def main() -> None:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per template (median)")
    parser.add_argument("--only", nargs="*", default=None, help="template names to run")
    parser.add_argument("--json", type=Path, default=None, help="also write results here")
    args = parser.parse_args()
    names = [n for n in CASES if not args.only or n in args.only]
    rows = []
    header = (f"{'template':40} {'dataset':14} {'acc':>6} {'gen s':>7} {'papermill s':>11} "
              f"{'script s':>9} {'overhead s':>10}")
    print(header)
    print("-" * len(header))
    for name in names:
        row = bench_case(name, args.repeat)
        rows.append(row)
        flag = "*" if row["synthetic"] else ""
        print(f"{name:40} {row['dataset'] + flag:14} {row['accuracy']:6.3f} "
              f"{row['generate_s']:7.3f} {row['papermill_s']:11.2f} {row['script_s']:9.2f} "
              f"{row['overhead_s']:10.2f}", flush=True)
    overheads = [r["overhead_s"] for r in rows]
    print("-" * len(header))
    print(f"overhead per notebook: median {statistics.median(overheads):.2f} s, "
          f"max {max(overheads):.2f} s (goal < 3 s); * = synthetic fallback data")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
