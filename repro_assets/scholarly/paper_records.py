"""Reference records of ingested paper PDFs, derived once and stored with the document.

A paper ingested from a PDF is stored with its title and the path it came from; that is no
reference. The first time a paper document is cited, :func:`paper_record` reads the stored PDF
(:mod:`repro_assets.scholarly.paper_metadata`), asks the arXiv or Crossref API for the work when
the PDF names an arXiv id or a DOI and a client is given (live search), and stores the result in
``documents.metadata["record"]``, where every later reference is built from.
"""

from __future__ import annotations

import json
import logging

from repro_assets.papers.sandbox import run_limited
from repro_assets.papers.store import PaperNotFound, get_paper
from repro_assets.scholarly.arxiv import ArxivClient
from repro_assets.scholarly.crossref import CrossrefClient
from repro_assets.scholarly.models import Author, ScholarlyError, ScholarlyRecord
from repro_assets.scholarly.paper_metadata import PaperMetadata, read_pdf_metadata
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.database import Database

log = logging.getLogger(__name__)


def record_from_metadata(meta: PaperMetadata, paper_id: str, fallback_title: str | None,
                         url: str | None = None) -> ScholarlyRecord:
    """A record from what the PDF says: an arXiv preprint when it carries an arXiv id, a
    proceedings paper when it names its venue, else a generic document."""
    authors = [Author.from_full_name(name) for name in meta.authors]
    title = meta.title or fallback_title or paper_id
    web = url if url and url.lower().startswith(("http://", "https://")) else None
    if meta.arxiv_id:
        return ScholarlyRecord(source="arxiv", external_id=meta.arxiv_id, title=title,
                               authors=authors, year=meta.year, doi=meta.doi,
                               url=f"https://arxiv.org/abs/{meta.arxiv_id}",
                               work_type="preprint", venue=meta.venue)
    return ScholarlyRecord(
        source="paper", external_id=paper_id, title=title, authors=authors, year=meta.year,
        venue=meta.venue, pages=meta.pages, doi=meta.doi, url=web,
        work_type="proceedings-article" if meta.venue else "document",
    )


def _from_api(meta: PaperMetadata, arxiv: ArxivClient | None,
              crossref: CrossrefClient | None) -> ScholarlyRecord | None:
    try:
        if meta.arxiv_id and arxiv is not None:
            found = arxiv.fetch([meta.arxiv_id])
            return found[0] if found else None
        if meta.doi and crossref is not None:
            return crossref.work(meta.doi)
    except ScholarlyError as exc:
        log.warning("metadata lookup for %s failed (%s); using the PDF's own",
                    meta.arxiv_id or meta.doi, exc.code)
    return None


def paper_record(
    db: Database,
    blobs: BlobStore,
    *,
    document_id: int,
    paper_id: str,
    title: str | None,
    url: str | None,
    arxiv: ArxivClient | None = None,
    crossref: CrossrefClient | None = None,
) -> ScholarlyRecord | None:
    """Derive, store and return the reference record of a paper document.

    Returns None when the paper or its PDF is gone (the caller falls back to flat fields).
    """
    try:
        paper = get_paper(db, paper_id)
        data = blobs.read_bytes(paper.pdf_storage_path)
    except (PaperNotFound, FileNotFoundError, OSError) as exc:
        log.warning("no stored PDF for paper %s: %s", paper_id, exc)
        return None
    # the stored PDF is parsed in the limited worker, like every parse of uploaded bytes
    meta = run_limited(read_pdf_metadata, data, title)
    record = _from_api(meta, arxiv, crossref) or record_from_metadata(meta, paper_id, title, url)
    with db.connection() as conn, conn.transaction():
        conn.execute(
            "UPDATE documents SET metadata = metadata || jsonb_build_object('record', %s::jsonb)"
            " WHERE id = %s",
            (json.dumps(record.model_dump(mode="json")), document_id),
        )
    return record
