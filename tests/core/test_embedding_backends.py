"""Embedding backends (issue #19): ONNX agrees with torch, never imports torch, exports once."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from repro_assets.embeddings.agreement import topk_agreement
from repro_assets.embeddings.base import EmbeddingError
from repro_assets.embeddings.export import ensure_exported, export_dir
from repro_assets.embeddings.onnx_backend import MODEL_FILE, read_meta
from repro_assets.storage.embedder import DEFAULT_MODEL, default_backend, get_embedder

SUBJECTS = [
    ("a convolutional network", "image classification", "top-1 accuracy"),
    ("a gradient boosted tree ensemble", "tabular churn prediction", "AUC"),
    ("a recurrent language model", "next-word prediction", "perplexity"),
    ("a graph neural network", "citation node classification", "macro F1"),
    ("a variational autoencoder", "molecule generation", "validity rate"),
    ("a sequence-to-sequence model", "machine translation", "BLEU"),
    ("a contrastive encoder", "self-supervised pretraining", "linear-probe accuracy"),
    ("a U-shaped segmentation network", "cell microscopy segmentation", "IoU"),
    ("a reinforcement learning agent", "robot arm control", "episode return"),
    ("a Bayesian regression model", "crop yield forecasting", "RMSE"),
    ("a speech recognizer", "call-centre transcription", "word error rate"),
    ("a recommender system", "movie ratings", "NDCG@10"),
]
TEMPLATES = [
    "We train {m} for {t} and report {k} on the held-out split.",
    "The baseline for {t} is weaker than {m}, which improves {k} by {v:.1f} points.",
    "Hyperparameters of {m} were tuned by cross-validation; {k} varies by {v:.1f} across seeds.",
    "Ablations show that removing regularization from {m} lowers {k} on {t}.",
    "Data for {t} were split by time so that {m} never sees the test period.",
    "Training {m} takes {v:.1f} hours on one GPU before {k} stops improving on {t}.",
]


def corpus() -> tuple[list[str], list[str]]:
    """Passages (single sentences and paragraphs) and queries, written here, many near ties."""
    rng = random.Random(7)
    sentences = [template.format(m=m, t=t, k=k, v=rng.uniform(0.5, 9.5))
                 for m, t, k in SUBJECTS for template in TEMPLATES]
    paragraphs = [" ".join(rng.sample(sentences, 4)) for _ in range(40)]
    queries = [f"how well does {m} do at {t}?" for m, t, _ in SUBJECTS]
    queries += [f"which model has the best {k}" for _, _, k in SUBJECTS]
    return sentences + paragraphs, queries


def test_onnx_gives_torchs_vectors_and_neighbours() -> None:
    passages, queries = corpus()
    torch_model = get_embedder(DEFAULT_MODEL, "torch")
    onnx_model = get_embedder(DEFAULT_MODEL, "onnx")
    reference, mine = torch_model.encode(passages), onnx_model.encode(passages)
    assert mine.shape == reference.shape and mine.dtype == np.float32
    assert np.min(np.sum(reference * mine, axis=1)) > 0.9999
    assert np.allclose(np.linalg.norm(mine, axis=1), 1.0, atol=1e-5)
    agreement = topk_agreement(
        torch_model.encode(queries, kind="query"), reference,
        onnx_model.encode(queries, kind="query"), mine, k=10,
    )
    assert agreement >= 0.99


def test_the_default_backend_meets_the_agreement_bar() -> None:
    passages, queries = corpus()
    default = get_embedder()
    assert default.backend == default_backend()
    torch_model = get_embedder(DEFAULT_MODEL, "torch")
    agreement = topk_agreement(
        torch_model.encode(queries, kind="query"), torch_model.encode(passages),
        default.encode(queries, kind="query"), default.encode(passages), k=10,
    )
    assert agreement >= 0.99


def test_truncation_at_the_models_input_length_like_sentence_transformers() -> None:
    words = " ".join(f"token{n} of a long methods section" for n in range(200))  # > 256 pieces
    torch_model = get_embedder(DEFAULT_MODEL, "torch")
    onnx_model = get_embedder(DEFAULT_MODEL, "onnx")
    [long_torch], [long_onnx] = torch_model.encode([words]), onnx_model.encode([words])
    assert float(long_torch @ long_onnx) > 0.9999
    # only the first 256 word pieces count: appending text changes nothing
    [longer] = onnx_model.encode([words + " and an appendix nobody reads"])
    assert float(longer @ long_onnx) > 0.99999


def test_int8_stays_close_to_torch() -> None:
    """int8 is opt-in: close vectors, but its neighbours differ (README gives the figure)."""
    passages, _ = corpus()
    reference = get_embedder(DEFAULT_MODEL, "torch").encode(passages)
    quantized = get_embedder(DEFAULT_MODEL, "onnx-int8").encode(passages)
    cosines = np.sum(reference * quantized, axis=1)
    assert cosines.min() > 0.95 and cosines.mean() > 0.98


HEAVY_MODULES = (
    "heavy = sorted(m for m in ('torch', 'transformers', 'sentence_transformers')"
    " if m in sys.modules)\n"
)


def _run_fresh(script: str) -> str:
    """Run ``script`` in a new interpreter (nothing imported yet); return its stdout."""
    done = subprocess.run([sys.executable, "-c", "import sys\n" + script],
                          env=dict(os.environ), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_the_onnx_path_never_imports_torch() -> None:
    ensure_exported(DEFAULT_MODEL, "onnx")
    assert _run_fresh(
        "from repro_assets.storage.embedder import get_embedder\n"
        "vectors = get_embedder(backend='onnx').encode(['a sentence'])\n"
        "assert vectors.shape == (1, 384)\n"
        + HEAVY_MODULES + "print(heavy)\n"
    ) == "[]"


def test_loading_the_code_location_loads_no_model() -> None:
    """Code servers, the daemon and the webserver import the definitions and never embed."""
    assert _run_fresh(
        "import repro_assets.definitions\n"
        "from repro_assets.storage import embedder\n"
        + HEAVY_MODULES + "print(heavy, len(embedder._MODELS))\n"
    ) == "[] 0"


def test_an_unknown_backend_is_a_coded_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_EMBEDDING_BACKEND", "tensorflow")
    with pytest.raises(EmbeddingError) as error:
        get_embedder()
    assert error.value.code == "E_EMBEDDING_BACKEND"


@pytest.mark.slow
def test_export_is_cached_and_rebuilt_when_stale(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("REPRO_MODEL_CACHE", str(tmp_path))
    folder = ensure_exported(DEFAULT_MODEL, "onnx")
    assert folder == export_dir(DEFAULT_MODEL, "onnx") and folder.is_relative_to(tmp_path)
    first = (folder / MODEL_FILE).stat().st_mtime_ns
    assert ensure_exported(DEFAULT_MODEL, "onnx") == folder
    assert (folder / MODEL_FILE).stat().st_mtime_ns == first  # cached, not exported again
    meta = read_meta(folder)
    assert meta["export_check_min_cosine"] >= 0.9999 and meta["max_seq_length"] == 256
    # an export of another model version is stale: rebuilt and published in place
    (folder / "meta.json").write_text('{"fingerprint": "older"}')
    assert ensure_exported(DEFAULT_MODEL, "onnx") == folder
    assert read_meta(folder)["fingerprint"] == meta["fingerprint"]
    assert not [p.name for p in folder.parent.iterdir() if p.name.startswith(".")]  # no temp


def test_embedding_device_reaches_the_torch_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from repro_assets.embeddings.torch_backend import TorchEmbedder

    monkeypatch.setenv("EMBEDDING_DEVICE", "cpu")
    model = TorchEmbedder(DEFAULT_MODEL)
    assert model.device == "cpu" and str(model.model.device) == "cpu"
    assert model.encode(["a sentence"]).shape == (1, model.dimension)


@pytest.mark.parametrize("device", ["toaster", "cuda:99"])
def test_an_unusable_embedding_device_is_a_coded_error(monkeypatch: pytest.MonkeyPatch,
                                                       device: str) -> None:
    from repro_assets.embeddings.torch_backend import TorchEmbedder

    monkeypatch.setenv("EMBEDDING_DEVICE", device)
    with pytest.raises(EmbeddingError) as error:
        TorchEmbedder(DEFAULT_MODEL)
    assert error.value.code == "E_EMBEDDING_DEVICE"
    assert device in str(error.value)


@pytest.mark.parametrize(("device", "backend"), [("", "onnx"), ("cpu", "onnx"),
                                                  ("cpu:0", "onnx"), ("cuda", "torch")])
def test_a_gpu_device_picks_the_torch_backend(monkeypatch: pytest.MonkeyPatch, device: str,
                                              backend: str) -> None:
    monkeypatch.setenv("EMBEDDING_DEVICE", device)
    assert default_backend() == backend
