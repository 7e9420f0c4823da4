"""Turn queries and grounded retrieval: the whole corpus, by cosine distance, numbered [n]."""

from __future__ import annotations

import re

from repro_assets.debate.markers import body_without_references, strip_code
from repro_assets.debate.models import EvidenceChunk, Markers
from repro_assets.debate.relevance import best_sentences
from repro_assets.scholarly.apa import format_reference, reference_from_fields
from repro_assets.scholarly.arxiv import ArxivClient
from repro_assets.scholarly.crossref import CrossrefClient
from repro_assets.scholarly.ingest import load_records
from repro_assets.scholarly.models import ScholarlyRecord
from repro_assets.scholarly.paper_records import paper_record
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.vectorstore import SearchHit, VectorStore

MAX_QUERY_CHARS = 400
_MARKER_LINE_RE = re.compile(
    r"^\s*[*_]*(agreement|viability|validation|answer|verification reason|conclusion)\b.*$",
    re.IGNORECASE | re.MULTILINE,
)
_CITE_RE = re.compile(r"\[[\d,;\s\-\u2013]+\]")


def _first_sentences(text: str, limit: int) -> str:
    text = strip_code(body_without_references(text))
    text = _MARKER_LINE_RE.sub(" ", text)
    text = _CITE_RE.sub(" ", text)
    text = re.sub(r"[#*_>`]+", " ", text)
    return " ".join(text.split())[:limit]


def build_turn_query(question: str, previous_response: str | None,
                     previous_markers: Markers | None) -> str:
    """The turn query: the question, plus the previous response's conclusion (or its opening).

    Seed 002 section 3 step 3: "Build turn query from original question + previous scientist
    response (if available)".
    """
    query = " ".join(question.split())
    if previous_response:
        extra = (previous_markers.conclusion if previous_markers else None) or _first_sentences(
            previous_response, 200)
        extra = _CITE_RE.sub(" ", extra)
        query = f"{query} {' '.join(extra.split())}"
    return query[:MAX_QUERY_CHARS].strip()


def hit_reference(hit: SearchHit, records: dict[int, ScholarlyRecord]) -> str:
    """APA 7 reference of a hit's document (structured record when stored, else flat fields)."""
    record = records.get(hit.document_id)
    if record is not None:
        return format_reference(record)
    return reference_from_fields(
        title=hit.document_title, authors=hit.authors, year=hit.year, venue=hit.venue,
        doi=hit.doi, url=hit.url, source_kind=hit.source_kind, external_id=hit.external_id,
    )


def hit_records(
    store: VectorStore, hits: list[SearchHit], *, blobs: BlobStore | None = None,
    arxiv: ArxivClient | None = None, crossref: CrossrefClient | None = None,
) -> dict[int, ScholarlyRecord]:
    """The stored reference record of each hit's document.

    With ``blobs``, a paper document without one gets it now from its PDF (and the arXiv or
    Crossref API when a client is given), see :func:`repro_assets.scholarly.paper_records.
    paper_record`.
    """
    records = load_records(store, sorted({hit.document_id for hit in hits}))
    if blobs is None:
        return records
    for hit in hits:
        if hit.source_kind == "paper" and hit.paper_id and hit.document_id not in records:
            record = paper_record(store.db, blobs, document_id=hit.document_id,
                                  paper_id=hit.paper_id, title=hit.document_title,
                                  url=hit.url, arxiv=arxiv, crossref=crossref)
            if record is not None:
                records[hit.document_id] = record
    return records


def retrieve_evidence(
    store: VectorStore, query: str, k: int, question: str | None = None, *,
    blobs: BlobStore | None = None, arxiv: ArxivClient | None = None,
    crossref: CrossrefClient | None = None,
) -> list[EvidenceChunk]:
    """Top-``k`` chunks of the whole corpus nearest to ``query`` (not limited to new sources).

    With ``question``, each chunk also gets its whole sentence closest to the question
    (``quote``) and that sentence's similarity (``relevance``), see
    :mod:`repro_assets.debate.relevance`. References come from :func:`hit_records`.
    """
    hits = store.search(query, k=k)
    records = hit_records(store, hits, blobs=blobs, arxiv=arxiv, crossref=crossref)
    matches = (best_sentences(store.embedder, question,
                              [(hit.content, hit.document_title) for hit in hits])
               if question else [None] * len(hits))
    return [
        EvidenceChunk(
            index=i,
            chunk_id=hit.chunk_id,
            document_id=hit.document_id,
            content=hit.content,
            distance=round(hit.distance, 6),
            # the reference record's title (an ingest may have taken a margin stamp for it)
            document_title=(records[hit.document_id].title if hit.document_id in records
                            else hit.document_title),
            section=hit.section,
            source_kind=hit.source_kind,
            external_id=hit.external_id,
            url=hit.url,
            doi=hit.doi,
            year=hit.year,
            authors=hit.authors,
            venue=hit.venue,
            reference=hit_reference(hit, records),
            quote=match.sentence if match else None,
            relevance=match.similarity if match else None,
        )
        for i, (hit, match) in enumerate(zip(hits, matches, strict=True), start=1)
    ]


def references_for(evidence: list[EvidenceChunk], cited: list[int]) -> list[str]:
    """APA references of the cited chunks' documents, each once, in first-citation order."""
    by_index = {chunk.index: chunk for chunk in evidence}
    seen: set[int] = set()
    references: list[str] = []
    for n in cited:
        chunk = by_index.get(n)
        if chunk is not None and chunk.document_id not in seen:
            seen.add(chunk.document_id)
            references.append(chunk.reference)
    return references
