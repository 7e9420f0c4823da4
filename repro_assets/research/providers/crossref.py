"""Crossref provider: wraps :class:`repro_assets.scholarly.crossref.CrossrefClient`."""

from __future__ import annotations

import asyncio
from typing import Any

from repro_assets.research.providers.base import DEFAULT_TIMEOUT, SearchProvider
from repro_assets.research.providers.scholarly_common import map_scholarly_error, record_to_result
from repro_assets.scholarly.crossref import CrossrefClient


class CrossrefProvider(SearchProvider):
    """Crossref works (journal and proceedings articles)."""

    kind = "academic"

    def __init__(self, base_url: str | None = None) -> None:
        self._base_url = base_url

    @property
    def name(self) -> str:
        """Provider id."""
        return "crossref"

    @property
    def requests_per_second(self) -> float:
        """Polite pool: well under Crossref's published limit."""
        return 5.0

    def _search_sync(self, query: str, max_results: int, timeout: float) -> list[dict]:
        kwargs: dict[str, Any] = {"timeout_s": timeout, "attempts": 1, "backoff_s": 0.0}
        if self._base_url:
            kwargs["base_url"] = self._base_url
        try:
            with CrossrefClient(**kwargs) as client:
                records = client.search(query, rows=max_results)
        except Exception as exc:  # mapped to a typed error, never swallowed
            raise map_scholarly_error(self.name, exc) from exc
        return [record_to_result(r, self.name, 0.65) for r in records]

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Bibliographic search (the sync client runs in a worker thread)."""
        return await asyncio.to_thread(
            self._search_sync, query, max_results, timeout or DEFAULT_TIMEOUT
        )

    async def is_available(self) -> bool:
        """Public API, no key."""
        return True
