"""Paper ingestion assets (seed 000, stage 1); the inbox sensors and the backfill schedule are
in ``sensors/papers.py`` and ``sensors/backfill.py``.

paper_pdf -> paper_pages -> paper_chunks -> paper_embeddings, partitioned by ``papers`` (the
partition key is the paper id derived from the PDF's sha256). Each asset takes one or several
partitions per run (``BackfillPolicy.single_run``): a burst of PDFs is ingested in one run with
one model load, and every paper still gets its own materialization, metadata and lineage.
"""


import dataclasses
import json
import time
from typing import Any

import dagster as dg
from pydantic import Field

from repro_assets.assets._batch import for_each_paper
from repro_assets.assets._errors import coded_failure
from repro_assets.jobs import GROUP, paper_ingest_job, papers_job
from repro_assets.papers.chunk_store import chunks_key, citations_key
from repro_assets.papers.chunking import chunk_paper
from repro_assets.papers.indexing import index_paper
from repro_assets.papers.ingest import read_source, store_paper
from repro_assets.papers.models import PaperPages
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.pdf import PaperIngestError, validate_pdf
from repro_assets.papers.store import PaperNotFound, get_paper, load_pages, save_pages
from repro_assets.partitions import papers_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.vectorstore import VectorStoreResource

__all__ = ["GROUP", "INGEST_ASSETS", "paper_ingest_job", "papers_job"]


class PaperSourceConfig(dg.Config):
    """Where ``paper_pdf`` reads each PDF from.

    An empty source re-validates the already stored blob of the partition's paper.
    """

    source: str = Field(
        default="", description="Path, fsspec URL or http(s) URL of the PDF (one-paper runs)."
    )
    title: str = Field(default="", description="Title; defaults to the detected title.")
    sources: dict[str, str] = Field(
        default_factory=dict,
        description="Paper id -> source, for runs of several papers (the inbox sensor's bursts).",
    )


@dg.asset(
    partitions_def=papers_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name=GROUP,
    kinds={"pdf", "postgres"},
    description="The validated PDF in the blob store and its `papers` row (dedup by sha256).",
)
def paper_pdf(
    context: dg.AssetExecutionContext,
    config: PaperSourceConfig,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
) -> dg.MaterializeResult:
    db, blobs = database.get_db(), blob_store.get_store()
    single = len(context.partition_keys) == 1
    digests: dict[str, str] = {}

    def work(paper_id: str) -> dict[str, Any]:
        source = config.sources.get(paper_id) or (config.source if single else "")
        source_url: str | None
        started = time.perf_counter()
        try:
            if source:
                data = read_source(source)
                source_url = source
            else:
                paper = get_paper(db, paper_id)
                data = blobs.read_bytes(paper.pdf_storage_path)
                source_url = paper.source_url
            info = validate_pdf(data)
            if info.paper_id != paper_id:
                raise PaperIngestError(
                    "E_PARTITION_MISMATCH",
                    f"the PDF's id is {info.paper_id}, not the partition {paper_id}",
                )
            result = store_paper(db, blobs, data, title=(config.title if single else "") or None,
                                 source_url=source_url, info=info)
        except (PaperIngestError, PaperNotFound) as exc:
            raise coded_failure(exc, paper_id=paper_id, source=source) from exc
        context.log.info(
            "paper %s: %s pages, %s bytes, %s", paper_id, result.page_count, result.byte_size,
            "already stored" if result.already_exists else "stored",
        )
        digests[paper_id] = result.sha256
        return {
            "paper_id": paper_id,
            "title": result.title or "",
            "sha256": result.sha256,
            "bytes": result.byte_size,
            "pages": result.page_count,
            "already_exists": result.already_exists,
            "storage_path": dg.MetadataValue.path(blobs.url(result.storage_path)),
            "seconds": round(time.perf_counter() - started, 3),
        }

    for_each_paper(context, work)
    if single:  # a data version is per output, so only a one-paper run can carry the sha256
        return dg.MaterializeResult(data_version=dg.DataVersion(digests[context.partition_key]))
    return dg.MaterializeResult()


@dg.asset(
    partitions_def=papers_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name=GROUP,
    deps=[paper_pdf],
    kinds={"pymupdf", "postgres"},
    description="Text per page with block bounding boxes, title and section headings.",
)
def paper_pages(
    context: dg.AssetExecutionContext, database: DatabaseResource, blob_store: BlobStoreResource
) -> dg.MaterializeResult:
    db, blobs = database.get_db(), blob_store.get_store()

    def work(paper_id: str) -> dict[str, Any]:
        try:
            paper = get_paper(db, paper_id)
        except PaperNotFound as exc:
            raise coded_failure(exc, paper_id=paper_id) from exc
        started = time.perf_counter()
        try:
            pages = extract_pages(blobs.read_bytes(paper.pdf_storage_path), paper_id,
                                  paper.title)
        except PaperIngestError as exc:  # E_PDF_TOO_COMPLEX / E_PDF_TOO_MANY_PAGES (worker)
            raise coded_failure(exc, paper_id=paper_id) from exc
        seconds = time.perf_counter() - started
        save_pages(db, pages)
        empty = [p.page_no for p in pages.pages if not p.has_text_layer]
        if not pages.has_text_layer:
            context.log.warning("paper %s has no text layer (scanned?); later stages will fail",
                                paper_id)
        sections = [title for page in pages.pages for title in page.section_titles]
        return {
            "title": pages.title or "",
            "pages": len(pages.pages),
            "characters": sum(len(p.text) for p in pages.pages),
            "has_text_layer": pages.has_text_layer,
            "pages_without_text": json.dumps(empty),
            "sections": dg.MetadataValue.json(sections),
            "extract_seconds": round(seconds, 3),
            "pages_per_second": round(len(pages.pages) / seconds, 1) if seconds else 0.0,
            "preview": dg.MetadataValue.md(_pages_preview(pages)),
        }

    for_each_paper(context, work)
    return dg.MaterializeResult()


@dg.asset(
    partitions_def=papers_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name=GROUP,
    deps=[paper_pages],
    kinds={"json"},
    description="Token-bounded overlapping chunks keeping page numbers and sections.",
)
def paper_chunks(
    context: dg.AssetExecutionContext, database: DatabaseResource, blob_store: BlobStoreResource
) -> dg.MaterializeResult:
    db, blobs = database.get_db(), blob_store.get_store()

    def work(paper_id: str) -> dict[str, Any]:
        try:
            pages = load_pages(db, paper_id)
        except PaperNotFound as exc:
            raise coded_failure(exc, paper_id=paper_id) from exc
        started = time.perf_counter()
        chunked = chunk_paper(pages)
        chunks = chunked.chunks
        seconds = time.perf_counter() - started
        key = chunks_key(paper_id)
        blobs.write_text(key, json.dumps([chunk.model_dump() for chunk in chunks]))
        blobs.write_text(citations_key(paper_id),
                         json.dumps([dataclasses.asdict(c) for c in chunked.citations]))
        tokens = [chunk.token_count for chunk in chunks]
        rows = "\n".join(
            f"| {c.ordinal} | {c.page_start}-{c.page_end} | {c.section or ''} | {c.token_count} |"
            for c in chunks[:10]
        )
        return {
            "chunks": len(chunks),
            "tokens": sum(tokens),
            "max_chunk_tokens": max(tokens, default=0),
            "chunk_seconds": round(seconds, 4),
            # what is not prose is not embedded: the reference list as structured citations,
            # each running header or footer once
            "citations": len(chunked.citations),
            "reference_blocks_not_embedded": chunked.reference_blocks,
            "boilerplate_embedded_once": chunked.boilerplate_embedded_once,
            "boilerplate_copies_not_embedded": chunked.boilerplate_blocks,
            "stored_at": dg.MetadataValue.path(blobs.url(key)),
            "citations_stored_at": dg.MetadataValue.path(blobs.url(citations_key(paper_id))),
            "preview": dg.MetadataValue.md(
                "| # | pages | section | tokens |\n|---|---|---|---|\n" + rows
            ),
        }

    for_each_paper(context, work)
    return dg.MaterializeResult()


@dg.asset(
    partitions_def=papers_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name=GROUP,
    deps=[paper_chunks],
    kinds={"pgvector"},
    description="Chunks embedded and upserted into pgvector (sources/documents/sections/chunks).",
)
def paper_embeddings(
    context: dg.AssetExecutionContext,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
    vector_store: VectorStoreResource,
) -> dg.MaterializeResult:
    db, blobs = database.get_db(), blob_store.get_store()
    store = vector_store.get_store()  # one model load for every paper of the run

    def work(paper_id: str) -> dict[str, Any]:
        try:
            stats = index_paper(db, blobs, store, paper_id)
        except PaperNotFound as exc:
            raise coded_failure(exc, paper_id=paper_id) from exc
        embedded = stats.chunks_inserted
        context.log.info(
            "paper %s: %d chunks (%d embedded, %d unchanged, %d removed)", paper_id,
            stats.chunks_total, embedded, stats.chunks_unchanged, stats.chunks_removed,
        )
        return {
            "document_id": stats.document_id,
            "chunks": stats.chunks_total,
            "embedded": embedded,
            "unchanged": stats.chunks_unchanged,
            "removed": stats.chunks_removed,
            "embedding_model": store.embedder.model_name,
            "embedding_backend": store.embedder.backend,
            "embedding_dim": store.embedder.dimension,
            "embed_seconds": round(stats.embed_seconds, 3),
            "chunks_per_second": round(embedded / stats.embed_seconds, 1)
            if stats.embed_seconds else 0.0,
            "upsert_seconds": round(stats.write_seconds, 3),
        }

    for_each_paper(context, work)
    return dg.MaterializeResult()


def _pages_preview(pages: PaperPages) -> str:
    """Markdown: the title, the detected section headings and the first page's text."""
    first = pages.pages[0].text[:800] if pages.pages else ""
    sections = "\n".join(
        f"- p.{page.page_no}: {title}" for page in pages.pages for title in page.section_titles
    )
    return f"**{pages.title or 'untitled'}**\n\nSections:\n{sections or '- none detected'}\n\n" \
           f"```\n{first}\n```"


INGEST_ASSETS = [paper_pdf, paper_pages, paper_chunks, paper_embeddings]

defs = dg.Definitions(
    assets=INGEST_ASSETS,
    jobs=[papers_job, paper_ingest_job],
)
