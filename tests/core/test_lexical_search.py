"""Hybrid retrieval: the full-text leg, its fusion with the dense leg, and its migration."""

from __future__ import annotations

import pytest

from repro_assets.storage import lexical
from repro_assets.storage.database import apply_migrations, get_database
from repro_assets.storage.embedder import get_embedder
from repro_assets.storage.vectorstore import ChunkIn, DocumentIn, VectorStore

#: An invented benchmark name the question asks about; the right chunk names it, a chunk that
#: paraphrases the question does not.
QUESTION = "How many photographs does the Brovalkin benchmark contain?"
RIGHT = "Brovalkin totals 41,300 items; the licence permits research use only."
PARAPHRASE = "What number of pictures are in the image collection overall?"
FILLER = [
    "The optimizer was Adam with a learning rate of 0.0003 and weight decay 0.01.",
    "Training ran for 90 epochs on eight accelerators with a cosine schedule.",
    "We thank the reviewers for their comments on an earlier draft.",
    "Ablations remove the attention block and report the drop in accuracy.",
]


def _chunks(texts: list[str]) -> list[ChunkIn]:
    return [ChunkIn(ordinal=i, content=t, token_count=len(t.split()), page_start=1)
            for i, t in enumerate(texts)]


@pytest.fixture()
def store(fresh_database: str) -> VectorStore:
    return VectorStore(get_database(fresh_database), get_embedder())


def test_a_rare_exact_token_ranks_its_chunk_first_only_with_the_lexical_leg(
        store: VectorStore) -> None:
    store.upsert_document(DocumentIn("test", "one", "One"), _chunks([PARAPHRASE, RIGHT, *FILLER]))
    dense = store.search(QUESTION, k=3, mode="dense")
    hybrid = store.search(QUESTION, k=3, mode="hybrid")
    assert dense[0].content == PARAPHRASE  # the embedding prefers the paraphrase
    assert hybrid[0].content == RIGHT
    exact = {h.chunk_id: h.distance for h in store.search_vector(
        store.embedder.encode([QUESTION], kind="query")[0], k=10, exact=True)}
    for hit in hybrid:  # every hit keeps its cosine distance to the question
        assert hit.distance == pytest.approx(exact[hit.chunk_id], abs=1e-5)


def test_the_setting_selects_dense_only(store: VectorStore, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    store.upsert_document(DocumentIn("test", "one", "One"), _chunks([PARAPHRASE, RIGHT, *FILLER]))
    monkeypatch.setenv("REPRO_SEARCH_MODE", "dense")
    assert store.search(QUESTION, k=1)[0].content == PARAPHRASE
    monkeypatch.setenv("REPRO_SEARCH_MODE", "hybrid")
    assert store.search(QUESTION, k=1)[0].content == RIGHT


@pytest.mark.parametrize("mode", ["hybrid", "dense"])
def test_filters_hold_in_both_legs(store: VectorStore, mode: str) -> None:
    with store.db.connection() as conn:
        for paper in ("paper-a", "paper-b"):
            conn.execute("INSERT INTO papers (id, pdf_storage_path, pdf_sha256)"
                         " VALUES (%s, %s, %s)", (paper, f"{paper}.pdf", paper))
    a = store.upsert_document(DocumentIn("test", "a", "A", paper_id="paper-a"),
                              _chunks([PARAPHRASE, *FILLER[:2]]))
    store.upsert_document(DocumentIn("web", "b", "B", paper_id="paper-b"),
                          _chunks([RIGHT, *FILLER[2:]]))
    by_document = store.search(QUESTION, k=5, filter_by_document=a.document_id, mode=mode)
    assert by_document and {h.document_id for h in by_document} == {a.document_id}
    by_paper = store.search(QUESTION, k=5, paper_id="paper-a", mode=mode)
    assert by_paper and {h.paper_id for h in by_paper} == {"paper-a"}
    by_kind = store.search(QUESTION, k=5, source_kinds=["test"], mode=mode)
    assert by_kind and {h.source_kind for h in by_kind} == {"test"}
    assert store.search(QUESTION, k=5, source_kinds=["other"], mode=mode) == []


@pytest.mark.parametrize(("migration", "table", "column", "index"), [
    ("003_chunk_text_search.sql", "chunks", "content_tsv", "chunks_content_tsv_gin"),
])
def test_migration_is_idempotent_and_fills_an_existing_store(
        store: VectorStore, migration: str, table: str, column: str, index: str) -> None:
    with store.db.connection() as conn:  # a store from before the migration ...
        conn.execute(f"DROP INDEX {index}")
        conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        conn.execute("DELETE FROM schema_migrations WHERE name = %s", (migration,))
    store.upsert_document(DocumentIn("test", "one", "One"), _chunks([PARAPHRASE, RIGHT, *FILLER]))
    with store.db.connection() as conn:  # ... is migrated when opened, twice without harm
        assert apply_migrations(conn) == [migration]
        conn.execute("DELETE FROM schema_migrations WHERE name = %s", (migration,))
        conn.commit()
        assert apply_migrations(conn) == [migration]
        filled = conn.execute(
            f"SELECT count(*) FROM {table} WHERE {column} IS NOT NULL").fetchone()[0]
        indexed = conn.execute(
            "SELECT count(*) FROM pg_indexes WHERE indexname = %s", (index,)).fetchone()[0]
        rows = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    assert filled == rows > 0 and indexed == 1
    assert store.search(QUESTION, k=1, mode="hybrid")[0].content == RIGHT


def test_terms_too_common_to_rank_by_are_left_out(store: VectorStore) -> None:
    texts = [f"Accuracy of the model on split {i} is reported here." for i in range(8)]
    store.upsert_document(DocumentIn("test", "c", "C"), _chunks([*texts, RIGHT]))
    with store.db.connection() as conn:
        terms = lexical.query_terms(conn, "model accuracy on Brovalkin")
    assert [t.lexeme for t in terms] == ["brovalkin"]
    assert terms[0].chunks == 1 and terms[0].idf > 0


def test_fuse_ranks_by_reciprocal_rank_and_keeps_the_first_ranking_on_ties() -> None:
    assert lexical.fuse([[1, 2, 3], [2, 9]]) == [2, 1, 9, 3]
    assert lexical.fuse([[1], [2]]) == [1, 2]
    assert lexical.fuse([[], [5, 6]]) == [5, 6]
