import numpy as np
import pytest

from repro_assets.storage.database import get_database
from repro_assets.storage.embedder import get_embedder
from repro_assets.storage.vectorstore import ChunkIn, DocumentIn, VectorStore, VectorStoreError

TEXTS = [
    "Gradient boosting builds an additive model of shallow regression trees.",
    "The Wine dataset has 178 samples of three cultivars with 13 chemical features.",
    "We use the Adam optimizer with a learning rate of 0.001 and a batch size of 64.",
    "Photosynthesis converts light energy into chemical energy in plants.",
]


def _chunks(texts: list[str]) -> list[ChunkIn]:
    return [
        ChunkIn(ordinal=i, content=t, token_count=len(t.split()), page_start=1 + i // 2,
                page_end=1 + i // 2, section="Method" if i == 2 else None)
        for i, t in enumerate(texts)
    ]


@pytest.fixture()
def store(fresh_database: str) -> VectorStore:
    return VectorStore(get_database(fresh_database), get_embedder())


def _count(store: VectorStore, table: str) -> int:
    with store.db.connection() as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_upsert_is_idempotent_and_search_finds_the_right_chunk(store: VectorStore) -> None:
    doc = DocumentIn(source_kind="test", external_id="doc-1", title="Doc one")
    first = store.upsert_document(doc, _chunks(TEXTS))
    assert first.chunks_inserted == 4
    again = store.upsert_document(doc, _chunks(TEXTS))
    assert again.chunks_inserted == 0 and again.chunks_unchanged == 4
    assert _count(store, "chunks") == 4 and _count(store, "documents") == 1
    hits = store.search("which optimizer and learning rate were used?", k=2)
    assert hits[0].content == TEXTS[2]
    assert hits[0].section == "Method" and hits[0].page_start == 2
    assert hits[0].distance < hits[1].distance


def test_changed_document_replaces_stale_chunks(store: VectorStore) -> None:
    doc = DocumentIn(source_kind="test", external_id="doc-2", title="Doc two")
    store.upsert_document(doc, _chunks(TEXTS))
    stats = store.upsert_document(doc, _chunks(TEXTS[:2] + ["A new closing paragraph."]))
    assert stats.chunks_removed == 2 and stats.chunks_inserted == 1
    assert _count(store, "chunks") == 3


def test_filters_by_document_and_paper(store: VectorStore) -> None:
    a = store.upsert_document(DocumentIn("test", "a", "A"), _chunks(TEXTS[:2]))
    store.upsert_document(DocumentIn("test", "b", "B"), _chunks(TEXTS[2:]))
    hits = store.search("optimizer learning rate", k=5, filter_by_document=a.document_id)
    assert {h.document_id for h in hits} == {a.document_id}
    assert len(hits) == 2
    assert store.search("anything", k=5, paper_id="no-such-paper") == []
    kinds = store.search("anything", k=5, source_kinds=["other"])
    assert kinds == []


def test_hnsw_matches_exact_search_on_a_small_corpus(store: VectorStore) -> None:
    store.upsert_document(DocumentIn("test", "c", "C"), _chunks(TEXTS))
    vector = store.embedder.encode(["trees and boosting"], kind="query")[0]
    approx = [h.chunk_id for h in store.search_vector(vector, k=3)]
    exact = [h.chunk_id for h in store.search_vector(vector, k=3, exact=True)]
    assert approx == exact


def test_refuses_to_mix_embedding_models(store: VectorStore) -> None:
    store.upsert_document(DocumentIn("test", "d", "D"), _chunks(TEXTS[:1]))

    class OtherModel:
        model_name = "other-model"
        backend = "onnx"
        dimension = 8

        def encode(self, texts, kind="passage"):
            return np.ones((len(texts), 8), dtype=np.float32)

    other = VectorStore(store.db, OtherModel())  # type: ignore[arg-type]
    with pytest.raises(VectorStoreError) as info:
        other.upsert_document(DocumentIn("test", "e", "E"), _chunks(TEXTS[1:2]))
    assert info.value.code == "E_EMBEDDING_MODEL_MISMATCH"


def test_a_new_index_takes_its_hnsw_parameters_from_the_settings(
        store: VectorStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_HNSW_M", "12")
    monkeypatch.setenv("REPRO_HNSW_EF_CONSTRUCTION", "48")
    monkeypatch.setenv("REPRO_HNSW_EF_SEARCH", "150")
    store = VectorStore(store.db, store.embedder)
    store.upsert_document(DocumentIn("test", "p", "P"), _chunks(TEXTS[:2]))
    with store.db.connection() as conn:
        definition = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = "
                                  "'chunks_embedding_hnsw'").fetchone()[0]
    assert "m='12'" in definition.replace(" ", "")
    assert "ef_construction='48'" in definition.replace(" ", "")
    assert store.ef_search == 150
