"""The local corpus provider over hybrid search: the exact-token chunk comes first, and every
result's relevance is still its cosine similarity (the relevance floors keep their meaning)."""

from __future__ import annotations

import asyncio

import pytest

from repro_assets.research.providers.local import LocalCorpusProvider
from repro_assets.storage.database import get_database
from repro_assets.storage.embedder import get_embedder
from repro_assets.storage.vectorstore import ChunkIn, DocumentIn, VectorStore

QUESTION = "Which learning rate did the Quillmere tagger use?"
RIGHT = "Quillmere was tuned once: step size 0.02, halved every ten epochs."
NEAR = "Which step size do sequence labellers adopt during optimisation?"
OTHERS = [
    "The corpus has 12,000 sentences split into train, validation and test sets.",
    "Results are averaged over five seeds; standard deviations are below 0.3.",
    "Our code and trained models are released under a permissive licence.",
]


@pytest.fixture()
def store(fresh_database: str) -> VectorStore:
    vectors = VectorStore(get_database(fresh_database), get_embedder())
    chunks = [ChunkIn(ordinal=i, content=t, token_count=len(t.split()))
              for i, t in enumerate([NEAR, RIGHT, *OTHERS])]
    vectors.upsert_document(DocumentIn("paper", "tagger", "A tagger"), chunks)
    return vectors


def test_hybrid_results_keep_cosine_relevance(store: VectorStore,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_SEARCH_MODE", "hybrid")
    results = asyncio.run(LocalCorpusProvider(store).search(QUESTION, max_results=3))
    assert results[0]["full_content"] == RIGHT
    cosine = {h.content: 1.0 - h.distance for h in store.search(QUESTION, k=5, mode="dense")}
    for result in results:
        assert result["relevance"] == pytest.approx(cosine[result["full_content"]], abs=1e-3)


def test_max_distance_still_drops_far_hits_in_hybrid_mode(
        store: VectorStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_SEARCH_MODE", "hybrid")
    right = next(h for h in store.search(QUESTION, k=5, mode="dense") if h.content == RIGHT)
    provider = LocalCorpusProvider(store, max_distance=right.distance - 1e-3)
    results = asyncio.run(provider.search(QUESTION, max_results=3))
    assert RIGHT not in [r["full_content"] for r in results]
