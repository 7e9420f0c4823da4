"""The vector store records the embedding backend and never mixes two (issue #19)."""

from __future__ import annotations

import pytest

from repro_assets.storage.database import apply_migrations, get_database
from repro_assets.storage.embedder import DEFAULT_MODEL, get_embedder
from repro_assets.storage.vectorstore import (
    ChunkIn,
    DocumentIn,
    VectorStore,
    VectorStoreError,
    open_store,
)

CHUNKS = [
    ChunkIn(ordinal=0, content="Gradient boosting reaches 0.91 AUC on churn.", token_count=12),
    ChunkIn(ordinal=1, content="The U-Net segments cells with 0.82 IoU.", token_count=11),
]


def _store(url: str, backend: str) -> VectorStore:
    return VectorStore(get_database(url), get_embedder(DEFAULT_MODEL, backend))


def _upsert(store: VectorStore, name: str = "doc") -> None:
    store.upsert_document(DocumentIn(source_kind="test", external_id=name, title=name), CHUNKS)


def _backends(url: str) -> tuple[str, set[str]]:
    with get_database(url).connection() as conn:
        meta = conn.execute("SELECT embedding_backend FROM vector_store_meta").fetchone()[0]
        rows = {r[0] for r in conn.execute("SELECT embedding_backend FROM chunks").fetchall()}
    return meta, rows


def test_a_store_refuses_embeddings_of_another_backend(fresh_database) -> None:
    _upsert(_store(fresh_database, "onnx"))
    assert _backends(fresh_database) == ("onnx", {"onnx"})
    other = _store(fresh_database, "torch")
    with pytest.raises(VectorStoreError) as error:
        _upsert(other, "second")
    assert error.value.code == "E_EMBEDDING_BACKEND_MISMATCH"
    assert "repro-assets reembed --backend torch" in str(error.value)
    with pytest.raises(VectorStoreError):
        other.search("cell segmentation", k=1)


def test_open_store_keeps_the_backend_the_store_was_built_with(
    fresh_database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REPRO_EMBEDDING_BACKEND", raising=False)
    _upsert(_store(fresh_database, "torch"))
    store = open_store(get_database(fresh_database))
    assert store.embedder.backend == "torch"
    [hit] = store.search("cell segmentation quality", k=1)
    assert "U-Net" in hit.content
    monkeypatch.setenv("REPRO_EMBEDDING_BACKEND", "onnx")  # explicit wins, and is refused
    with pytest.raises(VectorStoreError):
        _upsert(open_store(get_database(fresh_database)), "second")


def test_reembed_moves_the_whole_store_to_another_backend(fresh_database) -> None:
    _upsert(_store(fresh_database, "torch"), "a")
    _upsert(_store(fresh_database, "torch"), "b")  # same texts, another document: 4 chunks
    target = _store(fresh_database, "onnx")
    assert target.reembed(batch_size=3) == 4  # in committed batches
    assert _backends(fresh_database) == ("onnx", {"onnx"})
    assert target.reembed() == 0
    [hit] = target.search("churn prediction AUC", k=1)
    assert "boosting" in hit.content
    with pytest.raises(VectorStoreError):
        _upsert(_store(fresh_database, "torch"), "c")


def test_a_store_from_before_the_migration_counts_as_torch(fresh_database) -> None:
    """Upgrade path: the migration adds the columns; existing embeddings were torch's."""
    db = get_database(fresh_database)
    with db.connection() as conn:
        conn.execute("ALTER TABLE chunks DROP COLUMN embedding_backend")
        conn.execute("ALTER TABLE vector_store_meta DROP COLUMN embedding_backend")
        conn.execute("DELETE FROM schema_migrations WHERE name = '002_embedding_backend.sql'")
        conn.execute("INSERT INTO vector_store_meta (key, embedding_model, embedding_dim)"
                     " VALUES ('default', %s, 384)", (DEFAULT_MODEL,))
    with db.connection() as conn:
        assert apply_migrations(conn) == ["002_embedding_backend.sql"]
    assert open_store(db, backend=None).embedder.backend == "torch"
