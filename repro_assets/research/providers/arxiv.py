"""arXiv provider: wraps :class:`repro_assets.scholarly.arxiv.ArxivClient` (no own parser)."""

from __future__ import annotations

from typing import Any

from repro_assets.research.providers.scholarly_common import ScholarlyClientProvider
from repro_assets.scholarly.arxiv import ArxivClient
from repro_assets.scholarly.models import ScholarlyRecord


class ArxivProvider(ScholarlyClientProvider):
    """arXiv preprints (relevance search). arXiv asks for one request every 3 seconds."""

    quality = 0.6

    @property
    def name(self) -> str:
        """Provider id."""
        return "arxiv"

    @property
    def requests_per_second(self) -> float:
        """One request per 3 seconds."""
        return 1 / 3

    def _open_client(self, timeout: float) -> ArxivClient:
        # the research layer's limiter spaces requests; the client's own is not needed here
        return ArxivClient(**self._client_kwargs(timeout), limiter=None)

    def _client_search(self, client: Any, query: str, max_results: int) -> list[ScholarlyRecord]:
        return client.search(query, max_results=max_results)
