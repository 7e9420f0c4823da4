"""Chunk, embed and upsert scholarly records into the shared pgvector store.

Each record becomes one document (``source_kind`` = ``arxiv`` or ``crossref``, ``external_id``
= arXiv id or DOI) whose text (title + abstract) is cut into sentence-aligned chunks of at most
the embedding model's token budget; every chunk starts with the title so it retrieves well on
its own. The full record is kept in the document metadata (``metadata["record"]``) so APA
references can later be rebuilt from structured names. The store's content-hash dedup makes a
repeated ingest add nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from repro_assets import settings
from repro_assets.papers.chunking import chunk_pages, default_max_tokens, encoding
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.pdf import PaperIngestError, validate_pdf
from repro_assets.scholarly.arxiv import ArxivClient
from repro_assets.scholarly.crossref import CrossrefClient
from repro_assets.scholarly.models import ScholarlyError, ScholarlyRecord
from repro_assets.storage.vectorstore import ChunkIn, DocumentIn, VectorStore

log = logging.getLogger(__name__)

SECTION = "Abstract"
PDF_SUFFIX = "#pdf"
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")


class IngestCounts(BaseModel):
    """What ingesting a batch of records did to the store."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(description="arxiv, crossref or a label such as 'samples'.")
    fetched: int = Field(default=0, description="Records returned by the API (after filters).")
    documents: int = Field(default=0, description="Distinct documents upserted.")
    documents_new: int = Field(
        default=0, description="Documents that gained at least one new chunk (new or changed)."
    )
    chunks_inserted: int = Field(default=0, description="Chunks embedded and inserted.")
    chunks_unchanged: int = Field(default=0, description="Chunks already stored (deduplicated).")
    skipped: int = Field(default=0, description="Records without text, or repeated in the batch.")
    error_code: str | None = Field(default=None, description="Error code when the search failed.")
    error: str | None = Field(default=None, description="Error message when the search failed.")
    external_ids: list[str] = Field(
        default_factory=list, description="External ids of the upserted documents."
    )
    pdf_documents: int = Field(
        default=0, description="arXiv PDFs downloaded and ingested (ARXIV_DOWNLOAD_PDFS).")
    pdf_errors: list[str] = Field(
        default_factory=list, description="'<id>: <code>' of PDFs that could not be ingested.")

    def merge(self, other: IngestCounts) -> IngestCounts:
        """Sum two counts (keeps the first error)."""
        return IngestCounts(
            source=self.source,
            fetched=self.fetched + other.fetched,
            documents=self.documents + other.documents,
            documents_new=self.documents_new + other.documents_new,
            chunks_inserted=self.chunks_inserted + other.chunks_inserted,
            chunks_unchanged=self.chunks_unchanged + other.chunks_unchanged,
            skipped=self.skipped + other.skipped,
            error_code=self.error_code or other.error_code,
            error=self.error or other.error,
            external_ids=[*self.external_ids, *other.external_ids],
            pdf_documents=self.pdf_documents + other.pdf_documents,
            pdf_errors=[*self.pdf_errors, *other.pdf_errors],
        )


def split_sentences(text: str) -> list[str]:
    """Split plain text into sentences, keeping paragraph breaks as boundaries."""
    sentences: list[str] = []
    for paragraph in text.splitlines():
        paragraph = paragraph.strip()
        if paragraph:
            sentences.extend(s.strip() for s in _SENTENCE_RE.split(paragraph) if s.strip())
    return sentences


def record_to_document(record: ScholarlyRecord) -> DocumentIn:
    """The vector-store document of a record (full record kept in metadata)."""
    return DocumentIn(
        source_kind=record.source,
        external_id=record.external_id,
        title=record.title,
        url=record.url,
        authors=record.author_names,
        year=record.year,
        venue=record.venue,
        doi=record.doi,
        metadata={"record": record.model_dump(mode="json")},
    )


def record_chunks(
    record: ScholarlyRecord, model_name: str, max_tokens: int | None = None
) -> list[ChunkIn]:
    """Sentence-aligned chunks of title + abstract, each within ``max_tokens`` tokens.

    Every chunk starts with the title line. A sentence longer than the budget is cut into
    token windows. A record without an abstract yields one title-only chunk.
    """
    enc = encoding(model_name)
    budget = max_tokens or default_max_tokens(model_name)
    title = record.title.strip()
    title_tokens = len(enc.encode_ordinary(title)) + 1
    room = max(16, budget - title_tokens)
    sentences = split_sentences(record.abstract)
    if not sentences:
        return [ChunkIn(ordinal=0, content=title, token_count=title_tokens, section=SECTION)]
    pieces: list[tuple[str, int]] = []
    for sentence, ids in zip(sentences, enc.encode_ordinary_batch(sentences), strict=True):
        if len(ids) <= room:
            pieces.append((sentence, len(ids)))
        else:
            pieces.extend(enc.windows(sentence, room))
    chunks: list[ChunkIn] = []
    current: list[str] = []
    used = 0

    def flush() -> None:
        if current:
            chunks.append(
                ChunkIn(
                    ordinal=len(chunks),
                    content=f"{title}\n" + " ".join(current),
                    token_count=title_tokens + used,
                    section=SECTION,
                )
            )

    for text, tokens in pieces:
        if current and used + tokens > room:
            flush()
            current, used = [], 0
        current.append(text)
        used += tokens
    flush()
    return chunks


def pdf_downloads_enabled() -> bool:
    """``ARXIV_DOWNLOAD_PDFS`` (default off): also ingest the full text of arXiv PDFs."""
    return settings.current().debate.arxiv_download_pdfs


def _document_exists(store: VectorStore, source_kind: str, external_id: str) -> bool:
    with store.db.connection() as conn:
        row = conn.execute(
            "SELECT EXISTS (SELECT 1 FROM sources s JOIN documents d ON d.source_id = s.id"
            " JOIN chunks c ON c.document_id = d.id WHERE s.kind = %s AND s.external_id = %s)",
            (source_kind, external_id),
        ).fetchone()
    return bool(row and row[0])


def pdf_text_chunks(record: ScholarlyRecord, data: bytes, model_name: str) -> list[ChunkIn]:
    """Chunks of a PDF's full text through the paper ingest path (validate, extract, chunk).

    Raises:
        PaperIngestError: the PDF is invalid (E_PDF_CORRUPT, E_FILE_TOO_LARGE ...).
    """
    validate_pdf(data)
    pages = extract_pages(data, paper_id=f"{record.source}-{record.external_id}",
                          title_hint=record.title)
    return [
        ChunkIn(ordinal=chunk.ordinal, content=chunk.text, token_count=chunk.token_count,
                page_start=chunk.page_start, page_end=chunk.page_end,
                section=chunk.section or "Full text")
        for chunk in chunk_pages(pages, model_name=model_name)
    ]


def _ingest_pdf(store: VectorStore, record: ScholarlyRecord, fetch: Callable[[str], bytes],
                counts: IngestCounts) -> None:
    """Ingest a record's PDF as the document ``<external_id>#pdf`` (once; never re-fetched)."""
    external_id = record.external_id + PDF_SUFFIX
    if not record.pdf_url or _document_exists(store, record.source, external_id):
        return
    try:
        chunks = pdf_text_chunks(record, fetch(record.pdf_url), store.embedder.model_name)
    except PaperIngestError as exc:
        log.warning("PDF of %s not ingested: %s", record.key, exc)
        counts.pdf_errors.append(f"{record.external_id}: {exc.code}")
        return
    document = replace(record_to_document(record), external_id=external_id, url=record.pdf_url)
    stats = store.upsert_document(document, chunks)
    counts.pdf_documents += 1
    counts.chunks_inserted += stats.chunks_inserted
    counts.chunks_unchanged += stats.chunks_unchanged


def ingest_records(
    store: VectorStore,
    records: Iterable[ScholarlyRecord],
    source: str | None = None,
    fetch_pdf: Callable[[str], bytes] | None = None,
) -> IngestCounts:
    """Upsert records (deduplicated by ``source:external_id`` within the batch).

    Args:
        store: the shared vector store.
        records: parsed records.
        source: label of the counts (default: the records' source).
        fetch_pdf: when given, arXiv records' PDFs are downloaded with it (once per record)
            and their full text is ingested as a separate ``<id>#pdf`` document.
    """
    seen: set[str] = set()
    counts: IngestCounts | None = None
    model = store.embedder.model_name
    for record in records:
        counts = counts or IngestCounts(source=source or record.source)
        counts.fetched += 1
        if record.key in seen or not record.title.strip():
            counts.skipped += 1
            continue
        seen.add(record.key)
        stats = store.upsert_document(record_to_document(record), record_chunks(record, model))
        counts.documents += 1
        counts.documents_new += int(stats.chunks_inserted > 0)
        counts.chunks_inserted += stats.chunks_inserted
        counts.chunks_unchanged += stats.chunks_unchanged
        counts.external_ids.append(record.external_id)
        if fetch_pdf is not None and record.source == "arxiv":
            _ingest_pdf(store, record, fetch_pdf, counts)
    return counts or IngestCounts(source=source or "none")


def _search_and_ingest(
    store: VectorStore, label: str, search: Any, query: str, limit: int,
    fetch_pdf: Callable[[str], bytes] | None = None,
) -> IngestCounts:
    if limit <= 0:
        return IngestCounts(source=label)
    try:
        records: Sequence[ScholarlyRecord] = search(query, limit)
    except ScholarlyError as exc:
        log.warning("%s search failed (%s): %s", label, exc.code, exc)
        return IngestCounts(source=label, error_code=exc.code, error=str(exc))
    counts = ingest_records(store, records, source=label, fetch_pdf=fetch_pdf)
    counts.source = label
    return counts


def ingest_query(
    store: VectorStore,
    query: str,
    *,
    arxiv: ArxivClient | None,
    crossref: CrossrefClient | None,
    arxiv_results: int,
    crossref_results: int,
) -> dict[str, IngestCounts]:
    """Search arXiv and Crossref for ``query`` and ingest what they return.

    With ``ARXIV_DOWNLOAD_PDFS`` on, the arXiv results' PDFs are ingested too (once each).

    A failing source does not stop the other: its counts carry ``error_code``/``error``.

    Returns:
        ``{"arxiv": IngestCounts, "crossref": IngestCounts}``.
    """
    result = {"arxiv": IngestCounts(source="arxiv"), "crossref": IngestCounts(source="crossref")}
    if arxiv is not None:
        result["arxiv"] = _search_and_ingest(
            store, "arxiv", arxiv.search, query, arxiv_results,
            fetch_pdf=arxiv.fetch_pdf if pdf_downloads_enabled() else None,
        )
    if crossref is not None:
        result["crossref"] = _search_and_ingest(
            store, "crossref", crossref.search, query, crossref_results
        )
    return result


def ingest_url(
    store: VectorStore, url: str, *, arxiv: ArxivClient | None, crossref: CrossrefClient | None
) -> IngestCounts:
    """Ingest the work an arXiv or DOI URL points at (other URLs ingest nothing).

    Returns:
        Counts labelled ``arxiv`` or ``crossref``; ``error_code`` set when the lookup failed,
        ``E_URL_UNSUPPORTED`` when the URL names no arXiv id or DOI.
    """
    from repro_assets.scholarly.arxiv import arxiv_id_from_url
    from repro_assets.scholarly.crossref import doi_from_url

    arxiv_id, doi = arxiv_id_from_url(url), doi_from_url(url)
    try:
        if arxiv_id and arxiv is not None:
            return ingest_records(store, arxiv.fetch([arxiv_id]), source="arxiv")
        if doi and crossref is not None:
            record = crossref.work(doi)
            return ingest_records(store, [record] if record else [], source="crossref")
    except ScholarlyError as exc:
        return IngestCounts(source="arxiv" if arxiv_id else "crossref", error_code=exc.code,
                            error=str(exc))
    return IngestCounts(source="url", error_code="E_URL_UNSUPPORTED",
                        error=f"no arXiv id or DOI in {url}")


def load_records(store: VectorStore, document_ids: Sequence[int]) -> dict[int, ScholarlyRecord]:
    """The stored :class:`ScholarlyRecord` of each document id that has one."""
    if not document_ids:
        return {}
    with store.db.connection() as conn:
        rows = conn.execute(
            "SELECT id, metadata -> 'record' FROM documents WHERE id = ANY(%s)",
            (list(document_ids),),
        ).fetchall()
    records: dict[int, ScholarlyRecord] = {}
    for document_id, payload in rows:
        if payload:
            try:
                records[document_id] = ScholarlyRecord.model_validate(payload)
            except ValueError:
                log.warning("document %s has an unreadable stored record", document_id)
    return records
