"""arXiv provider: wraps :class:`repro_assets.scholarly.arxiv.ArxivClient` (no own parser)."""

from __future__ import annotations

import asyncio
from typing import Any

from repro_assets.research.providers.base import DEFAULT_TIMEOUT, SearchProvider
from repro_assets.research.providers.scholarly_common import map_scholarly_error, record_to_result
from repro_assets.scholarly.arxiv import ArxivClient


class ArxivProvider(SearchProvider):
    """arXiv preprints. arXiv asks for one request every 3 seconds."""

    kind = "academic"

    def __init__(self, base_url: str | None = None) -> None:
        self._base_url = base_url

    @property
    def name(self) -> str:
        """Provider id."""
        return "arxiv"

    @property
    def requests_per_second(self) -> float:
        """One request per 3 seconds."""
        return 1 / 3

    def _search_sync(self, query: str, max_results: int, timeout: float) -> list[dict]:
        kwargs: dict[str, Any] = {"timeout_s": timeout, "attempts": 1, "backoff_s": 0.0,
                                  "limiter": None}
        if self._base_url:
            kwargs["base_url"] = self._base_url
        try:
            with ArxivClient(**kwargs) as client:
                records = client.search(query, max_results=max_results)
        except Exception as exc:  # mapped to a typed error, never swallowed
            raise map_scholarly_error(self.name, exc) from exc
        return [record_to_result(r, self.name, 0.6) for r in records]

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Relevance search (the sync client runs in a worker thread)."""
        return await asyncio.to_thread(
            self._search_sync, query, max_results, timeout or DEFAULT_TIMEOUT
        )

    async def is_available(self) -> bool:
        """Public API, no key."""
        return True
