"""The claims of a stored paper, for the answer check (:mod:`repro_assets.research.claim_answer`).

A paper taken through the whole papers job has its claims in the ``claims`` table; a paper only
ingested (pages, chunks, embeddings) has none stored, and its claims are read here with the
papers workflow's offline reader (tables from the PDF layout, result sentences). Claims are kept
per process, per database and paper (a paper's PDF does not change under its id).
"""

from __future__ import annotations

import logging
import threading

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.claims.storage import load_claims
from repro_assets.papers.store import get_paper, load_pages

log = logging.getLogger(__name__)

_cache: dict[tuple[str, str], tuple[Claim, ...]] = {}
_lock = threading.Lock()


def paper_claims(db: object, paper_id: str) -> tuple[Claim, ...]:
    """The claims of ``paper_id`` (stored ones, else read offline; empty when unreadable)."""
    key = (str(getattr(db, "url", id(db))), paper_id)
    with _lock:
        if key in _cache:
            return _cache[key]
    try:
        claims = tuple(load_claims(db, paper_id))  # type: ignore[arg-type]
        if not claims:
            claims = tuple(_read_offline(db, paper_id))
    except Exception as exc:  # a paper whose claims cannot be read answers from its text only
        log.warning("claims of paper %s could not be read: %s", paper_id, exc)
        claims = ()
    with _lock:
        _cache[key] = claims
    return claims


def _read_offline(db: object, paper_id: str) -> list[Claim]:
    from repro_assets import settings
    from repro_assets.storage.blobstore import BlobStore

    record = get_paper(db, paper_id)  # type: ignore[arg-type]
    pages = load_pages(db, paper_id)  # type: ignore[arg-type]
    data = BlobStore(settings.blob_root()).read_bytes(record.pdf_storage_path)
    return heuristic_claims(pages, data)
