"""Local-corpus provider over the shared pgvector store.

Always available and the only provider allowed in ``local_only`` privacy mode: nothing leaves
the machine. Each hit is one chunk; its URL is the document URL (or a ``corpus://`` URI) with a
``#chunk=<id>`` fragment so citations point at the exact passage.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from repro_assets.research.errors import ProviderError
from repro_assets.research.providers.base import SearchProvider, make_result
from repro_assets.storage.vectorstore import SearchHit, VectorStore

#: Prior quality of a corpus document (the same for every hit: how close a chunk is to the
#: query is its relevance, not evidence that what it says is true).
LOCAL_QUALITY = 0.6


def _document_url(hit: SearchHit) -> str:
    """The citable URL of a hit's document: its URL, its DOI, else a ``corpus://`` id.

    A filesystem path is never a citation: a document stored from a local file is cited by its
    DOI or its corpus id.
    """
    url = hit.url or ""
    if url.startswith(("http://", "https://")):
        return url
    if hit.doi:
        return f"https://doi.org/{hit.doi}"
    return f"corpus://{hit.source_kind}/{hit.external_id}"


def hit_to_result(hit: SearchHit, source_name: str = "local") -> dict:
    """A vector-store hit in the standard result format."""
    base = _document_url(hit)
    similarity = max(0.0, 1.0 - hit.distance)
    return make_result(
        url=f"{base}#chunk={hit.chunk_id}",
        title=hit.document_title or hit.external_id,
        snippet=hit.content[:600],
        source_name=source_name,
        full_content=hit.content,
        quality_score=LOCAL_QUALITY,
        relevance=round(similarity, 4),
        metadata={
            "source_kind": hit.source_kind,
            "external_id": hit.external_id,
            "document_id": hit.document_id,
            "chunk_id": hit.chunk_id,
            "section": hit.section,
            "pages": [hit.page_start, hit.page_end],
            "authors": hit.authors,
            "year": hit.year,
            "venue": hit.venue,
            "doi": hit.doi,
            "distance": round(hit.distance, 4),
            "document_url": base,
        },
    )


class LocalCorpusProvider(SearchProvider):
    """Semantic search over our own corpus (papers, arXiv, Crossref, web pages ingested).

    Args:
        store: a vector store, or a zero-argument factory returning one (lazy model load).
        max_distance: hits farther than this cosine distance are not returned (1.0: only
            hits with no similarity at all). The agent applies the calibrated relevance
            floor, so off-topic hits are counted and reported, never read.
    """

    kind = "local"

    def __init__(
        self, store: VectorStore | Callable[[], VectorStore], max_distance: float = 1.0
    ) -> None:
        self._store = store
        self.max_distance = max_distance

    def _get_store(self) -> VectorStore:
        if callable(self._store) and not isinstance(self._store, VectorStore):
            self._store = self._store()
        return self._store  # type: ignore[return-value]

    @property
    def name(self) -> str:
        """Provider id."""
        return "local"

    @property
    def requests_per_second(self) -> float:
        """Local database: no external limit."""
        return 50.0

    def _search_sync(self, query: str, max_results: int, kinds: list[str] | None) -> list[dict]:
        try:
            hits = self._get_store().search(query, k=max_results, source_kinds=kinds)
        except Exception as exc:
            raise ProviderError(
                f"local corpus search failed: {type(exc).__name__}: {exc}",
                code=getattr(exc, "code", "E_LOCAL_SEARCH"),
            ) from exc
        return [hit_to_result(h, self.name) for h in hits if h.distance <= self.max_distance]


    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Nearest chunks by cosine distance (``filters={"source_kinds": [...]}`` optional)."""
        kinds = list(filters["source_kinds"]) if filters and filters.get("source_kinds") else None
        await self.throttle()
        return await asyncio.to_thread(self._search_sync, query, max_results, kinds)

    async def is_available(self) -> bool:
        """Always available."""
        return True
