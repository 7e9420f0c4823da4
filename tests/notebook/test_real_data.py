"""Real public data for real papers (issue #13 item 7), offline.

A TextCNN-style plan on SST-2 runs its notebook on a local parquet copy of the dataset that the
test writes (``<datasets dir>/sst2/{train,test}.parquet`` with SST-2's Hugging Face columns);
the report compares the claimed 88.1 with what was achieved. Without a local copy and with
downloads off, the notebook falls back to flagged synthetic data and the report says NOT_RUN
with the reason.
"""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from repro_assets.papers.notebook.executor import RunOptions, execute_notebook
from repro_assets.papers.notebook.generator import generate_notebook
from repro_assets.papers.notebook.report import (
    ClaimInput,
    RunSummary,
    build_report,
    render_markdown,
)
from repro_assets.papers.plan_models import PlanDocumentV11

POSITIVE = "good great moving clever fresh brilliant charming warm sharp funny".split()
NEGATIVE = "bad boring awful dull weak poor messy tedious bland clumsy".split()
FILLER = "the a this film movie story plot acting it was is and very with of".split()

CLAIM = ClaimInput(
    dataset_name="SST-2", metric_name="accuracy", metric_value=0.881, split="test",
    method_snippet="CNN-multichannel", source_citation="Section 4, page 4", page=4,
    quoted_text="Our CNN-multichannel model reaches 88.1% accuracy on SST-2.",
)


def textcnn_plan(goal: float = 0.881) -> PlanDocumentV11:
    """The plan a TextCNN-style paper gets: SST-2 from the registry, a CNN, the claim's goal."""
    return PlanDocumentV11.model_validate({
        "version": "1.1",
        "dataset": {"name": "sst2", "source": "huggingface", "hf_dataset": "glue",
                    "hf_config": "sst2", "split": "train", "test_split": "validation"},
        "model": {"name": "CNN-multichannel", "architecture": "cnn", "framework": "pytorch",
                  "hyperparameters": {"filter_sizes": [3, 4, 5], "num_filters": 16,
                                      "embedding_dim": 32, "max_len": 24}},
        "config": {"seed": 42, "epochs": 3, "batch_size": 50, "dropout": 0.5,
                   "optimizer": "adadelta"},
        "metrics": {"primary": "accuracy", "secondary": ["f1"], "goal_value": goal},
        "justifications": {
            "dataset": {"quote": "We evaluate on the binary sentiment benchmark SST-2.",
                        "citation": "Section 3, page 3"},
            "model": {"quote": "Convolutions of widths 3, 4 and 5 run over word vectors.",
                      "citation": "Section 2, page 2"},
            "config": {"quote": "Training uses dropout and mini-batches of 50 sentences.",
                       "citation": "Section 3, page 3"},
        },
        "policy": {"budget_minutes": 5, "license": "MIT"},
    })


def write_sst2_copy(root: Path, n_train: int = 400, n_test: int = 120) -> Path:
    """A small SST-2-shaped dataset (columns idx, sentence, label) as train/test parquet."""
    rng = random.Random(7)
    folder = root / "sst2"
    folder.mkdir(parents=True)
    for split, size in (("train", n_train), ("test", n_test)):
        rows = {"idx": [], "sentence": [], "label": []}
        for i in range(size):
            label = i % 2
            cues = POSITIVE if label else NEGATIVE
            words = rng.sample(FILLER, 6) + rng.sample(cues, 2)
            rng.shuffle(words)
            rows["idx"].append(i)
            rows["sentence"].append(" ".join(words))
            rows["label"].append(label)
        pq.write_table(pa.table(rows), folder / f"{split}.parquet")
    return root


def run(plan: PlanDocumentV11, out: Path, options: RunOptions) -> RunSummary:
    generated = generate_notebook(plan, paper_id="textcnn-style")
    result = execute_notebook(generated.notebook, generated.parameters, out,
                              budget_minutes=plan.policy.budget_minutes, options=options)
    return RunSummary(run_id="run_1", status="succeeded", metrics=result.metrics,
                      seconds=result.seconds, template=generated.template.name)


@pytest.mark.slow
def test_textcnn_plan_on_sst2_runs_on_a_local_parquet_copy(tmp_path: Path) -> None:
    datasets = write_sst2_copy(tmp_path / "datasets")
    summary = run(textcnn_plan(), tmp_path / "out",
                  RunOptions(datasets_dir=datasets, allow_download=False))
    data = summary.metrics["dataset"]
    assert (data["source"], data["synthetic"], data["fallback"]) == ("local", False, False)
    assert data["location"] == str((datasets / "sst2").resolve())
    assert (data["n_train"], data["n_test"], data["modality"]) == (400, 120, "text")
    assert summary.template == "pytorch_cnn" and summary.metrics["epochs_run"] == 3
    achieved = summary.metrics["metrics"]["accuracy"]
    assert 0.0 <= achieved <= 1.0

    report = build_report(paper_id="textcnn-style", plan=textcnn_plan(), claims=[CLAIM],
                          run=summary)
    primary = report.primary
    assert primary is not None and primary.claimed == pytest.approx(0.881)
    assert primary.achieved == pytest.approx(achieved)
    assert primary.gap_points == pytest.approx(round((achieved - 0.881) * 100, 3))
    assert report.verdict != "NOT_RUN" and primary.verdict != "NOT_RUN"
    assert primary.quote == CLAIM.quoted_text  # the claim it is compared with, cited
    markdown = render_markdown(report)
    assert "## Claimed vs achieved" in markdown and "88.1%" in markdown
    assert "SYNTHETIC" not in markdown and "from local" in markdown


@pytest.mark.slow
def test_without_a_local_copy_or_downloads_the_report_says_not_run(tmp_path: Path) -> None:
    empty = tmp_path / "datasets"
    empty.mkdir()
    summary = run(textcnn_plan(), tmp_path / "out",
                  RunOptions(datasets_dir=empty, allow_download=False, synthetic_samples=200))
    data = summary.metrics["dataset"]
    assert data["synthetic"] and data["fallback"]
    reason = data["fallback_reason"]
    assert f"no local copy at {empty.resolve() / 'sst2'}/{{train,test}}.parquet" in reason
    assert "downloads are disabled" in reason
    report = build_report(paper_id="textcnn-style", plan=textcnn_plan(), claims=[CLAIM],
                          run=summary)
    assert report.verdict == "NOT_RUN"
    assert any("synthetic data" in r and "no local copy" in r for r in report.reasons)
    assert "SYNTHETIC" in render_markdown(report)
