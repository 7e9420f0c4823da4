"""Dataset registry: aliases, blocked datasets, licenses, offline scikit-learn loaders."""

from __future__ import annotations

import pytest
import sklearn.datasets

from repro_assets.papers.registry import (
    BLOCKED_DATASETS,
    DATASET_REGISTRY,
    find_blocked_mentions,
    find_dataset_mentions,
    is_blocked,
    license_compatible,
    lookup_dataset,
    resolve_alias,
)
from repro_assets.papers.tools import budget_estimator, dataset_resolver, license_checker


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("SST2 Dataset", "sst2"),
        ("SST-2", "sst2"),
        ("the SST-2 data set", "sst2"),
        ("Stanford Sentiment Treebank", "sst2"),
        ("Breast Cancer Wisconsin", "breast_cancer"),
        ("Breast Cancer Wisconsin (Diagnostic)", "breast_cancer"),
        ("Wisconsin Diagnostic Breast Cancer (WDBC)", "breast_cancer"),
        ("UCI ML hand-written digits", "digits"),
        ("Fisher's Iris", "iris"),
        ("Wine recognition dataset", "wine"),
        ("AG's News", "ag_news"),
        ("IMDb", "imdb"),
        ("MR", "mr"),
        ("Rotten Tomatoes", "mr"),
    ],
)
def test_aliases_resolve(name: str, canonical: str) -> None:
    assert resolve_alias(name) == canonical


@pytest.mark.parametrize("name", ["CoNLL-2003", "my private data", ""])
def test_unknown_names_do_not_resolve(name: str) -> None:
    assert resolve_alias(name) is None


@pytest.mark.parametrize("name", ["SST-5", "SST-1", "SST fine-grained"])
def test_fine_grained_sst_is_not_sst2(name: str) -> None:
    assert resolve_alias(name) == "sst5"


def test_blocked_datasets_are_the_seeds() -> None:
    assert {"imagenet", "imagenet1k", "imagenet2012", "imagenet21k", "openimages",
            "yfcc100m"} == BLOCKED_DATASETS
    for name in ("ImageNet", "ImageNet-1k", "ILSVRC 2012", "Open Images", "YFCC100M"):
        assert is_blocked(name), name
    assert not is_blocked("MNIST")
    assert find_blocked_mentions("pre-trained on ImageNet-1k and fine-tuned") == ["imagenet1k"]


def test_hf_entries_carry_hf_dataset_and_config() -> None:
    sst2 = DATASET_REGISTRY["sst2"]
    assert (sst2.source, sst2.hf_dataset, sst2.hf_config, sst2.test_split) == (
        "huggingface", "glue", "sst2", "validation")
    for entry in DATASET_REGISTRY.values():
        if entry.source == "huggingface":
            assert entry.hf_dataset, entry.name


@pytest.mark.parametrize("name", ["iris", "wine", "breast_cancer", "digits", "diabetes"])
def test_sklearn_builtins_load_offline(name: str, no_network: None) -> None:
    entry = DATASET_REGISTRY[name]
    assert entry.source == "sklearn" and entry.sklearn_loader
    X, y = getattr(sklearn.datasets, entry.sklearn_loader)(return_X_y=True)
    assert X.shape == (entry.n_samples, entry.n_features)
    if entry.n_classes:
        assert len(set(y)) == entry.n_classes


def test_mentions_in_text() -> None:
    text = ("We evaluate on the Breast Cancer Wisconsin dataset and on SST-2; the MR corpus "
            "and the Iris data are used for ablations. Our error is low.")
    assert [m[0] for m in find_dataset_mentions(text)] == ["breast_cancer", "sst2", "mr", "iris"]


def test_tools_follow_the_seed() -> None:
    assert dataset_resolver("SST2 Dataset")["available"] is True
    assert dataset_resolver("SST2 Dataset")["source"] == "huggingface"
    assert dataset_resolver("ImageNet")["blocked"] is True
    assert dataset_resolver("private clinic records") == {"available": False, "blocked": False}
    assert license_checker("sst2") == {"license": "MIT", "compatible": True}
    assert license_checker("mr")["compatible"] is False
    assert license_checker("unknown thing") == {"license": "Unknown", "compatible": False}
    est = budget_estimator(dataset_size=6400, model_type="sklearn", epochs=10, batch_size=64)
    assert est == {"estimated_minutes": 1.7, "within_budget": True}
    assert budget_estimator(67000, "cnn", 10, 64)["within_budget"] is False
    assert license_compatible("bsd-3-clause") and not license_compatible("CC-BY-NC-4.0")
    assert lookup_dataset("synthetic data").name == "synthetic_classification"
