"""Dataset registry (seed 000, stage 4): canonical names, aliases, sources, licenses, blocks.

scikit-learn's bundled datasets (iris, wine, breast_cancer, digits, diabetes) resolve offline;
Hugging Face datasets carry ``hf_dataset``/``hf_config``; ``synthetic_classification`` is the
fallback when a paper's dataset is blocked or unknown.

Name matching is deliberately exact after normalisation (lower case, punctuation removed,
filler words such as "dataset" or "the" dropped) so "SST2 Dataset", "SST-2" and "the SST-2
data set" all become ``sst2`` while "SST-5" does not.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class DatasetMetadata(BaseModel):
    """One registry entry."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="Canonical name (registry key).")
    display_name: str = Field(description="Human-readable name.")
    source: Literal["sklearn", "huggingface", "synthetic"] = Field(description="Data source.")
    aliases: tuple[str, ...] = Field(default=(), description="Other names papers use.")
    task: Literal[
        "classification", "text_classification", "image_classification", "regression",
        "question_answering",
    ] = Field(description="Task type.")
    modality: Literal["tabular", "image", "text"] = Field(description="Input modality.")
    sklearn_loader: str | None = Field(
        default=None, description="sklearn.datasets function, e.g. load_breast_cancer."
    )
    hf_dataset: str | None = Field(default=None, description="Hugging Face dataset id.")
    hf_config: str | None = Field(default=None, description="Hugging Face config name.")
    text_field: str | None = Field(default=None, description="Text column (text datasets).")
    image_field: str | None = Field(default=None, description="Image column (image datasets).")
    label_field: str | None = Field(default=None, description="Label column (HF datasets).")
    train_split: str = Field(default="train", description="Training split name.")
    test_split: str | None = Field(
        default=None, description="Evaluation split; None means hold out test_size of train."
    )
    split_available: tuple[str, ...] = Field(default=("train",), description="Splits shipped.")
    n_samples: int = Field(description="Number of samples (train + test).")
    n_features: int | None = Field(default=None, description="Features (tabular/image).")
    n_classes: int | None = Field(default=None, description="Classes (classification).")
    typical_size_mb: float = Field(description="Approximate download/memory size.")
    license: str = Field(description="License identifier, e.g. BSD-3-Clause, MIT, Unknown.")
    complex: bool = Field(
        default=False, description="Needs a custom adapter (not a plain classifier setup)."
    )
    description: str = Field(default="", description="One line about the data.")

    def summary(self) -> dict[str, object]:
        """JSON-able metadata for tools and plan metadata."""
        return self.model_dump(mode="json")


_SKLEARN_LICENSE = "BSD-3-Clause"

_ENTRIES: tuple[DatasetMetadata, ...] = (
    DatasetMetadata(
        name="breast_cancer",
        display_name="Breast Cancer Wisconsin (Diagnostic)",
        source="sklearn",
        aliases=(
            "Breast Cancer Wisconsin", "Breast Cancer Wisconsin (Diagnostic)",
            "Wisconsin Diagnostic Breast Cancer", "Wisconsin Breast Cancer", "WDBC",
            "Breast Cancer", "breast-cancer", "load_breast_cancer", "UCI Breast Cancer",
        ),
        task="classification", modality="tabular", sklearn_loader="load_breast_cancer",
        n_samples=569, n_features=30, n_classes=2, typical_size_mb=0.1,
        license=_SKLEARN_LICENSE,
        description="569 tumours, 30 real-valued features, malignant vs benign.",
    ),
    DatasetMetadata(
        name="digits",
        display_name="Optical Recognition of Handwritten Digits",
        source="sklearn",
        aliases=(
            "Digits", "UCI Digits", "Handwritten Digits", "Optical Digits",
            "Optical Recognition of Handwritten Digits", "UCI ML hand-written digits",
            "load_digits", "8x8 digits", "optdigits",
        ),
        task="classification", modality="image", sklearn_loader="load_digits",
        n_samples=1797, n_features=64, n_classes=10, typical_size_mb=0.5,
        license=_SKLEARN_LICENSE, description="1,797 8x8 grey-scale digit images, 10 classes.",
    ),
    DatasetMetadata(
        name="wine",
        display_name="Wine Recognition",
        source="sklearn",
        aliases=("Wine", "Wine Recognition", "UCI Wine", "load_wine", "Wine Classification"),
        task="classification", modality="tabular", sklearn_loader="load_wine",
        n_samples=178, n_features=13, n_classes=3, typical_size_mb=0.02,
        license=_SKLEARN_LICENSE, description="178 wines, 13 chemical features, 3 cultivars.",
    ),
    DatasetMetadata(
        name="iris",
        display_name="Iris",
        source="sklearn",
        aliases=("Iris", "Iris Flower", "Fisher's Iris", "Fisher Iris", "UCI Iris", "load_iris"),
        task="classification", modality="tabular", sklearn_loader="load_iris",
        n_samples=150, n_features=4, n_classes=3, typical_size_mb=0.01,
        license=_SKLEARN_LICENSE, description="150 flowers, 4 measurements, 3 species.",
    ),
    DatasetMetadata(
        name="diabetes",
        display_name="Diabetes (Efron et al.)",
        source="sklearn",
        aliases=("Diabetes", "load_diabetes", "Sklearn Diabetes"),
        task="regression", modality="tabular", sklearn_loader="load_diabetes",
        n_samples=442, n_features=10, n_classes=None, typical_size_mb=0.05,
        license=_SKLEARN_LICENSE, description="442 patients, 10 baseline variables, progression.",
    ),
    DatasetMetadata(
        name="sst2",
        display_name="Stanford Sentiment Treebank (binary)",
        source="huggingface",
        aliases=(
            "SST-2", "SST2", "SST 2", "Stanford Sentiment Treebank",
            "Stanford Sentiment Treebank 2", "GLUE SST-2", "SST-binary", "SST binary",
        ),
        task="text_classification", modality="text", hf_dataset="glue", hf_config="sst2",
        text_field="sentence", label_field="label", test_split="validation",
        split_available=("train", "validation", "test"), n_samples=70042, n_classes=2,
        typical_size_mb=7.4, license="MIT",
        description="Movie-review sentences, positive vs negative (GLUE test labels hidden).",
    ),
    DatasetMetadata(
        name="imdb",
        display_name="IMDb Large Movie Review",
        source="huggingface",
        aliases=("IMDB", "IMDb", "IMDb Reviews", "Large Movie Review", "IMDB Movie Reviews",
                 "aclImdb"),
        task="text_classification", modality="text", hf_dataset="stanfordnlp/imdb",
        text_field="text", label_field="label", test_split="test",
        split_available=("train", "test", "unsupervised"), n_samples=50000, n_classes=2,
        typical_size_mb=84.1, license="Apache-2.0",
        description="50k movie reviews, positive vs negative.",
    ),
    DatasetMetadata(
        name="ag_news",
        display_name="AG News",
        source="huggingface",
        aliases=("AG News", "AG's News", "AGNews", "AG News Corpus", "AG"),
        task="text_classification", modality="text", hf_dataset="fancyzhx/ag_news",
        text_field="text", label_field="label", test_split="test",
        split_available=("train", "test"), n_samples=127600, n_classes=4, typical_size_mb=31.3,
        license="Apache-2.0", description="News titles and descriptions, 4 topics.",
    ),
    DatasetMetadata(
        name="mr",
        display_name="Movie Review (Rotten Tomatoes, Pang & Lee 2005)",
        source="huggingface",
        aliases=("MR", "Movie Review", "Movie Reviews", "Rotten Tomatoes", "rotten_tomatoes",
                 "Sentence Polarity", "Pang and Lee"),
        task="text_classification", modality="text",
        hf_dataset="cornell-movie-review-data/rotten_tomatoes", text_field="text",
        label_field="label", test_split="test", split_available=("train", "validation", "test"),
        n_samples=10662, n_classes=2, typical_size_mb=0.5, license="Unknown",
        description="10,662 movie-review snippets, positive vs negative.",
    ),
    DatasetMetadata(
        name="trec",
        display_name="TREC Question Classification",
        source="huggingface",
        aliases=("TREC", "TREC-6", "TREC QC", "TREC Question Classification"),
        task="text_classification", modality="text", hf_dataset="CogComp/trec",
        text_field="text", label_field="coarse_label", test_split="test",
        split_available=("train", "test"), n_samples=5952, n_classes=6, typical_size_mb=0.4,
        license="Unknown", description="Questions labelled with 6 coarse answer types.",
    ),
    DatasetMetadata(
        name="yelp_polarity",
        display_name="Yelp Review Polarity",
        source="huggingface",
        aliases=("Yelp Polarity", "Yelp Review Polarity", "Yelp P.", "Yelp-2"),
        task="text_classification", modality="text", hf_dataset="fancyzhx/yelp_polarity",
        text_field="text", label_field="label", test_split="test",
        split_available=("train", "test"), n_samples=598000, n_classes=2,
        typical_size_mb=166.4, license="Unknown", description="Yelp reviews, 2 classes.",
    ),
    DatasetMetadata(
        name="mnist",
        display_name="MNIST",
        source="huggingface",
        aliases=("MNIST", "MNIST digits", "LeCun MNIST"),
        task="image_classification", modality="image", hf_dataset="ylecun/mnist",
        image_field="image", label_field="label", test_split="test",
        split_available=("train", "test"),
        n_samples=70000, n_features=784, n_classes=10, typical_size_mb=17.5, license="MIT",
        description="70k 28x28 handwritten digits.",
    ),
    DatasetMetadata(
        name="cifar10",
        display_name="CIFAR-10",
        source="huggingface",
        aliases=("CIFAR-10", "CIFAR10", "CIFAR 10"),
        task="image_classification", modality="image", hf_dataset="uoft-cs/cifar10",
        image_field="img", label_field="label", test_split="test",
        split_available=("train", "test"),
        n_samples=60000, n_features=3072, n_classes=10, typical_size_mb=144.0,
        license="Unknown", description="60k 32x32 colour images, 10 classes.",
    ),
    DatasetMetadata(
        name="sst5",
        display_name="Stanford Sentiment Treebank (fine-grained, 5 classes)",
        source="huggingface",
        aliases=("SST-5", "SST5", "SST-1", "SST1", "SST fine-grained", "SST-fine"),
        task="text_classification", modality="text", hf_dataset="SetFit/sst5",
        text_field="text", label_field="label", test_split="test",
        split_available=("train", "validation", "test"), n_samples=11855, n_classes=5,
        typical_size_mb=1.5, license="Unknown",
        description="Movie-review sentences with 5 sentiment labels.",
    ),
    DatasetMetadata(
        name="subj",
        display_name="Subjectivity (Pang & Lee 2004)",
        source="huggingface",
        aliases=("Subj", "SUBJ", "Subjectivity", "Subjectivity dataset"),
        task="text_classification", modality="text", hf_dataset="SetFit/subj",
        text_field="text", label_field="label", test_split="test",
        split_available=("train", "test"), n_samples=10000, n_classes=2, typical_size_mb=1.3,
        license="Unknown", description="Sentences labelled subjective or objective.",
    ),
    DatasetMetadata(
        name="dbpedia",
        display_name="DBpedia ontology classification (DBpedia-14)",
        source="huggingface",
        aliases=("DBpedia", "DBPedia", "DBpedia-14", "DBpedia 14", "dbpedia_14"),
        task="text_classification", modality="text", hf_dataset="fancyzhx/dbpedia_14",
        text_field="content", label_field="label", test_split="test",
        split_available=("train", "test"), n_samples=630000, n_classes=14,
        typical_size_mb=68.3, license="CC-BY-SA-3.0",
        description="Wikipedia abstracts, 14 ontology classes.",
    ),
    DatasetMetadata(
        name="amazon_polarity",
        display_name="Amazon Review Polarity",
        source="huggingface",
        aliases=("Amazon Polarity", "Amazon Review Polarity", "Amazon P.", "Amazon-2"),
        task="text_classification", modality="text", hf_dataset="fancyzhx/amazon_polarity",
        text_field="content", label_field="label", test_split="test",
        split_available=("train", "test"), n_samples=4000000, n_classes=2,
        typical_size_mb=688.0, license="Apache-2.0", description="Amazon reviews, 2 classes.",
    ),
    DatasetMetadata(
        name="newsgroups20",
        display_name="20 Newsgroups",
        source="huggingface",
        aliases=("20 Newsgroups", "20Newsgroups", "20NG", "20 NG", "Twenty Newsgroups"),
        task="text_classification", modality="text", hf_dataset="SetFit/20_newsgroups",
        text_field="text", label_field="label", test_split="test",
        split_available=("train", "test"), n_samples=18846, n_classes=20, typical_size_mb=14.0,
        license="Unknown", description="Newsgroup posts, 20 topics.",
    ),
    DatasetMetadata(
        name="fashion_mnist",
        display_name="Fashion-MNIST",
        source="huggingface",
        aliases=("Fashion-MNIST", "Fashion MNIST", "FashionMNIST", "F-MNIST"),
        task="image_classification", modality="image",
        hf_dataset="zalando-datasets/fashion_mnist", image_field="image", label_field="label",
        test_split="test", split_available=("train", "test"), n_samples=70000, n_features=784,
        n_classes=10, typical_size_mb=30.9, license="MIT",
        description="70k 28x28 grey-scale clothing images, 10 classes.",
    ),
    DatasetMetadata(
        name="cifar100",
        display_name="CIFAR-100",
        source="huggingface",
        aliases=("CIFAR-100", "CIFAR100", "CIFAR 100"),
        task="image_classification", modality="image", hf_dataset="uoft-cs/cifar100",
        image_field="img", label_field="fine_label", test_split="test",
        split_available=("train", "test"), n_samples=60000, n_features=3072, n_classes=100,
        typical_size_mb=141.0, license="Unknown",
        description="60k 32x32 colour images, 100 fine classes.",
    ),
    DatasetMetadata(
        name="squad",
        display_name="SQuAD v1.1",
        source="huggingface",
        aliases=("SQuAD", "SQuAD 1.1", "SQuAD v1.1", "Stanford Question Answering"),
        task="question_answering", modality="text", hf_dataset="rajpurkar/squad",
        test_split="validation", split_available=("train", "validation"), n_samples=98169,
        typical_size_mb=35.1, license="CC-BY-SA-4.0", complex=True,
        description="Extractive QA; needs a span-prediction adapter.",
    ),
    DatasetMetadata(
        name="synthetic_classification",
        display_name="Synthetic classification (make_classification)",
        source="synthetic",
        aliases=("Synthetic", "Synthetic Data", "make_classification", "Synthetic Dataset"),
        task="classification", modality="tabular", sklearn_loader="make_classification",
        n_samples=2000, n_features=20, n_classes=2, typical_size_mb=0.3, license="MIT",
        description="Generated data used as a fallback when the paper's data is unavailable.",
    ),
)

#: Canonical name -> metadata.
DATASET_REGISTRY: dict[str, DatasetMetadata] = {entry.name: entry for entry in _ENTRIES}

#: Datasets intentionally blocked (too large for a CPU budget), from the seed.
BLOCKED_DATASETS: frozenset[str] = frozenset(
    {"imagenet", "imagenet1k", "imagenet2012", "imagenet21k", "openimages", "yfcc100m"}
)

#: Other spellings of blocked datasets -> blocked canonical name.
BLOCKED_ALIASES: dict[str, str] = {
    "ilsvrc": "imagenet",
    "ilsvrc2012": "imagenet2012",
    "imagenetlsvrc": "imagenet",
    "imagenet1000": "imagenet1k",
    "imagenet22k": "imagenet21k",
    "openimagesv4": "openimages",
    "openimagesv6": "openimages",
    "openimagesv7": "openimages",
    "yfcc": "yfcc100m",
}

#: Dataset used when the requested one is blocked or unknown.
SYNTHETIC_FALLBACK = "synthetic_classification"

#: Licenses the license guardrail accepts (seed: MIT, Apache-2.0, BSD).
COMPATIBLE_LICENSES: frozenset[str] = frozenset(
    {"MIT", "Apache-2.0", "BSD", "BSD-2-Clause", "BSD-3-Clause", "CC0-1.0", "CC-BY-4.0"}
)

_FILLER = {
    "the", "dataset", "datasets", "data", "set", "sets", "corpus", "benchmark", "database",
    "collection", "task", "uci", "ml", "repository",
}
# "uci"/"ml" are filler only when something else remains ("UCI Iris" -> iris).


def normalize_name(name: str) -> str:
    """Normalise a dataset name for matching.

    Lower-cases, turns punctuation into spaces, drops possessive 's and filler words, and
    joins the remaining tokens: "The SST-2 Dataset" -> "sst2".
    """
    text = name.lower().replace("'s", " ").replace("’s", " ")
    tokens = [t for t in re.split(r"[^a-z0-9]+", text) if t]
    kept = [t for t in tokens if t not in _FILLER]
    return "".join(kept or tokens)


@lru_cache(maxsize=1)
def _alias_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for entry in _ENTRIES:
        for form in (entry.name, entry.display_name, *entry.aliases):
            key = normalize_name(form)
            if key and key not in index:
                index[key] = entry.name
    return index


def _candidates(name: str) -> list[str]:
    """Normalised keys to try: the whole name, without parentheses, and the acronym inside."""
    keys = [normalize_name(name)]
    without = re.sub(r"\([^)]*\)", " ", name)
    if without != name:
        keys.append(normalize_name(without))
        keys.extend(normalize_name(inner) for inner in re.findall(r"\(([^)]*)\)", name))
    return [key for key in keys if key]


def resolve_alias(name: str) -> str | None:
    """Return the canonical registry name for ``name`` (any alias spelling), or None."""
    index = _alias_index()
    for key in _candidates(name):
        if key in index:
            return index[key]
    return None


def lookup_dataset(name: str) -> DatasetMetadata | None:
    """Return the registry entry for ``name`` (canonical name or alias), or None."""
    canonical = resolve_alias(name)
    return DATASET_REGISTRY.get(canonical) if canonical else None


def dataset_key(name: str) -> str:
    """The key two spellings of one dataset share: the registry's canonical name when the
    dataset is known ("SST-2" -> ``sst2``), else the normalised name ("our Clinic data" ->
    ``ourclinic``)."""
    return resolve_alias(name) or normalize_name(name)


def same_dataset(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` name the same dataset (see :func:`dataset_key`)."""
    return bool(a.strip()) and bool(b.strip()) and dataset_key(a) == dataset_key(b)


def blocked_name(name: str) -> str | None:
    """Return the blocked canonical name if ``name`` refers to a blocked dataset."""
    for key in _candidates(name):
        if key in BLOCKED_DATASETS:
            return key
        if key in BLOCKED_ALIASES:
            return BLOCKED_ALIASES[key]
    return None


def is_blocked(name: str) -> bool:
    """True when ``name`` refers to a dataset in :data:`BLOCKED_DATASETS`."""
    return blocked_name(name) is not None


def license_compatible(license_id: str | None) -> bool:
    """True when a license is in :data:`COMPATIBLE_LICENSES` (case-insensitive)."""
    if not license_id:
        return False
    wanted = license_id.strip().lower()
    return any(wanted == known.lower() for known in COMPATIBLE_LICENSES)


def _surface_pattern(form: str) -> str:
    tokens = [re.escape(t) for t in re.split(r"[^A-Za-z0-9]+", form) if t]
    return r"[\s\-_'’]*".join(tokens)


@lru_cache(maxsize=1)
def _mention_regex() -> re.Pattern[str]:
    forms: dict[str, str] = {}
    for entry in _ENTRIES:
        for form in (entry.display_name, *entry.aliases):
            if len(normalize_name(form)) < 2 or form.lower() in {"ag", "mr", "data"}:
                continue
            forms[_surface_pattern(form)] = entry.name
    # Short acronyms need exact case to avoid matching ordinary words.
    alternatives = sorted(forms, key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9])(" + "|".join(alternatives) + r")(?![A-Za-z0-9])",
                      re.IGNORECASE)


_CASE_SENSITIVE_ACRONYMS = {"MR": "mr", "AG": "ag_news"}


def find_dataset_mentions(text: str) -> list[tuple[str, str, int]]:
    """Find registry datasets mentioned in ``text``.

    Returns:
        ``(canonical_name, matched_text, offset)`` tuples in order of appearance.
    """
    found: list[tuple[str, str, int]] = []
    for match in _mention_regex().finditer(text):
        canonical = resolve_alias(match.group(1))
        if canonical:
            found.append((canonical, match.group(1), match.start()))
    for acronym, canonical in _CASE_SENSITIVE_ACRONYMS.items():
        if canonical == "ag_news":
            continue
        for match in re.finditer(rf"(?<![A-Za-z0-9]){acronym}(?![A-Za-z0-9])", text):
            found.append((canonical, acronym, match.start()))
    return sorted(found, key=lambda item: item[2])


def find_blocked_mentions(text: str) -> list[str]:
    """Blocked datasets mentioned in ``text`` (canonical blocked names, unique, in order)."""
    out: list[str] = []
    for match in re.finditer(r"\b(ImageNet[\w\-]*|ILSVRC[\w\-]*|Open ?Images[\w\-]*|YFCC[\w\-]*)",
                             text, re.IGNORECASE):
        name = blocked_name(match.group(1))
        if name and name not in out:
            out.append(name)
    return out
