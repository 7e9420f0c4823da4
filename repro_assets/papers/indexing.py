"""Stage 1d: a paper's stored chunks go into the vector store and the paper is marked indexed."""

from __future__ import annotations

from repro_assets.papers.chunk_store import load_chunks
from repro_assets.papers.store import get_paper
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.database import Database
from repro_assets.storage.vectorstore import ChunkIn, DocumentIn, UpsertStats, VectorStore


def index_paper(db: Database, blobs: BlobStore, store: VectorStore, paper_id: str) -> UpsertStats:
    """Embed and upsert the stored chunks of ``paper_id`` (unchanged chunks are not embedded
    again) and set the paper's status to ``indexed``.

    Raises:
        PaperNotFound: when the paper is not stored.
    """
    paper = get_paper(db, paper_id)
    chunks = load_chunks(blobs, paper_id)
    stats = store.upsert_document(
        DocumentIn(
            source_kind="paper", external_id=paper_id, title=paper.title, paper_id=paper_id,
            url=paper.source_url, metadata={"pdf_sha256": paper.pdf_sha256},
        ),
        [
            ChunkIn(
                ordinal=c.ordinal, content=c.text, token_count=c.token_count,
                page_start=c.page_start, page_end=c.page_end, section=c.section,
            )
            for c in chunks
        ],
    )
    with db.connection() as conn:
        conn.execute(
            "UPDATE papers SET status = 'indexed', updated_at = now() WHERE id = %s",
            (paper_id,),
        )
    return stats
