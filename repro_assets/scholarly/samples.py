"""Seed the vector store with the recorded arXiv/Crossref payloads in ``data/samples/scholarly``.

The files are real API response bodies (see the README next to them); they are parsed with the
live clients' parsers (:func:`repro_assets.scholarly.arxiv.parse_feed`,
:func:`repro_assets.scholarly.crossref.parse_works`) and upserted like live results, so the
offline debate and the research agent's local corpus see exactly what a live run would store.
"""

from __future__ import annotations

import json
from pathlib import Path

from repro_assets import settings
from repro_assets.scholarly.arxiv import parse_feed
from repro_assets.scholarly.crossref import parse_works
from repro_assets.scholarly.ingest import IngestCounts, ingest_records
from repro_assets.scholarly.models import ScholarlyError, ScholarlyRecord
from repro_assets.storage.vectorstore import VectorStore

SUBDIR = "scholarly"
#: A question the sample corpus can support from both sources.
SAMPLE_QUESTION = (
    "How should deep learning models used for ecological forecasting and conservation "
    "decisions be tested before managers rely on them?"
)


def sample_folder() -> Path:
    """``<samples_dir>/scholarly``, or the project checkout's copy when that is missing."""
    folder = settings.samples_dir() / SUBDIR
    if folder.is_dir():
        return folder
    return settings.project_home() / "data" / "samples" / SUBDIR


def load_sample_records(folder: Path | None = None) -> dict[str, list[ScholarlyRecord]]:
    """Parse every recorded payload under ``folder`` into records, per source.

    Raises:
        ScholarlyError: ``E_SAMPLES_MISSING`` when the folder has no payloads.
    """
    folder = folder or sample_folder()
    arxiv_files = sorted((folder / "arxiv").glob("*.xml"))
    crossref_files = sorted((folder / "crossref").glob("*.json"))
    if not arxiv_files and not crossref_files:
        raise ScholarlyError(f"no recorded scholarly payloads under {folder}", "E_SAMPLES_MISSING")
    records: dict[str, list[ScholarlyRecord]] = {"arxiv": [], "crossref": []}
    for path in arxiv_files:
        records["arxiv"].extend(parse_feed(path.read_bytes()))
    for path in crossref_files:
        records["crossref"].extend(parse_works(json.loads(path.read_text(encoding="utf-8"))))
    return records


def seed_sample_corpus(store: VectorStore, folder: Path | None = None) -> dict[str, IngestCounts]:
    """Upsert the sample records; idempotent (a second call inserts no chunks).

    Returns:
        ``{"arxiv": IngestCounts, "crossref": IngestCounts}``.
    """
    records = load_sample_records(folder)
    return {
        source: ingest_records(store, items, source=source) for source, items in records.items()
    }


def scholarly_document_counts(store: VectorStore) -> dict[str, int]:
    """Documents of the vector store per scholarly source kind (``arxiv``, ``crossref``); a kind
    with no document is absent."""
    with store.db.connection() as conn:
        rows = conn.execute(
            "SELECT s.kind, count(DISTINCT d.id) FROM documents d JOIN sources s"
            " ON s.id = d.source_id WHERE s.kind IN ('arxiv', 'crossref') GROUP BY s.kind"
        ).fetchall()
    return {kind: int(count) for kind, count in rows}
