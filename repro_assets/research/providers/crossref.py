"""Crossref provider: wraps :class:`repro_assets.scholarly.crossref.CrossrefClient`."""

from __future__ import annotations

from typing import Any

from repro_assets.research.providers.scholarly_common import ScholarlyClientProvider
from repro_assets.scholarly.crossref import CrossrefClient
from repro_assets.scholarly.models import ScholarlyRecord


class CrossrefProvider(ScholarlyClientProvider):
    """Crossref works (journal and proceedings articles)."""

    quality = 0.65

    @property
    def name(self) -> str:
        """Provider id."""
        return "crossref"

    @property
    def requests_per_second(self) -> float:
        """Polite pool: well under Crossref's published limit."""
        return 5.0

    def _open_client(self, timeout: float) -> CrossrefClient:
        return CrossrefClient(**self._client_kwargs(timeout))

    def _client_search(self, client: Any, query: str, max_results: int) -> list[ScholarlyRecord]:
        return client.search(query, rows=max_results)
