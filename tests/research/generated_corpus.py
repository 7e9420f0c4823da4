"""A small near-topic corpus the tests write themselves (issue #26's salmon family).

Three made-up papers: fish-count forecasting with recurrent networks (the near-topic one), a
digit-recognition perceptron and a text classifier with a results table. None states which
architecture will best forecast anything in a future year.

Also the fixtures the research and debate tests share over it (their ``conftest.py`` import
them): ``generated_store`` and ``scripted_llm``, a scripted OpenAI-compatible server the
configured LLM provider points at.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

from repro_assets.storage.database import get_database
from repro_assets.storage.embedder import get_embedder
from repro_assets.storage.vectorstore import ChunkIn, DocumentIn, VectorStore
from tests.fakes.openai_server import OpenAIServer

TABLE_QUESTION = "What accuracy does TextConv-tuned reach on the Egret review set?"

PAPERS: list[tuple[str, list[str]]] = [
    ("Recurrent networks for seasonal river fish forecasting", [
        "Abstract. We forecast seasonal returns of river fish with deep recurrent networks "
        "trained on water temperature, flow and ocean condition records.",
        "An LSTM reached a mean absolute error of 12.4 thousand fish on the 2015 hold-out "
        "season, better than the persistence baseline and a gradient-boosted model.",
        "Forecasts of fish returns inform harvest decisions each spring; ecological "
        "forecasting models should be tested against the decisions they support.",
    ]),
    ("A multilayer perceptron for handwritten digit recognition", [
        "Abstract. A two-layer perceptron recognises handwritten digits of the Pica set.",
        "The perceptron reaches an accuracy of 97.1% on the Pica digits test split after "
        "30 epochs of training with a batch size of 128.",
    ]),
    ("Convolutional text classifiers with frozen word vectors", [
        "Abstract. We study convolutional classifiers for short texts with frozen vectors.",
        "Table 2: Accuracy (%) on the Heron and Egret review sets.\nModel\nHeron\nEgret\n"
        "TextConv-static\n81.5\n88.2\nTextConv-tuned\n83.0\n89.6",
        "Fine-tuning the vectors helps on both review sets, as Table 2 shows.",
    ]),
]


def seed(store: VectorStore) -> None:
    """Upsert the generated papers (idempotent)."""
    for i, (title, chunks) in enumerate(PAPERS):
        doc = DocumentIn(source_kind="paper", external_id=f"generated-{i}", title=title,
                         year=2021)
        store.upsert_document(doc, [ChunkIn(ordinal=j, content=f"{title}\n{text}",
                                            token_count=len(text.split()))
                                    for j, text in enumerate(chunks)])


def salmon_question() -> str:
    """The issue's question with a year that is always in the future."""
    year = dt.date.today().year + 4
    return f"Which deep learning architecture best predicts Alaskan salmon returns in {year}?"


@pytest.fixture()
def generated_store(fresh_database: str) -> VectorStore:
    """A fresh database holding the generated papers."""
    store = VectorStore(get_database(fresh_database), get_embedder())
    seed(store)
    return store


@pytest.fixture()
def scripted_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[OpenAIServer]:
    """A scripted OpenAI-compatible server, set as the configured LLM provider."""
    with OpenAIServer(models=["local-model"]) as scripted:
        for name, value in scripted.env(REPRO_LLM_MODEL="local-model").items():
            monkeypatch.setenv(name, value)
        yield scripted
