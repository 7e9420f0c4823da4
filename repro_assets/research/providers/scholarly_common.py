"""Shared glue for the providers that wrap ``repro_assets.scholarly`` clients (arXiv, Crossref).

The scholarly clients are synchronous and do their own polite retries; here they run in a worker
thread with a single attempt (our tenacity policy in :mod:`repro_assets.research.retry` does the
retrying) and their :class:`ScholarlyError` is mapped to the research agent's typed errors.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from repro_assets.research.errors import (
    AccessDeniedError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
)
from repro_assets.research.providers.base import DEFAULT_TIMEOUT, SearchProvider, make_result
from repro_assets.scholarly.models import ScholarlyError, ScholarlyRecord


def map_scholarly_error(source: str, exc: Exception) -> Exception:
    """Translate a scholarly-client failure into the obstacle handler's typed errors."""
    if isinstance(exc, httpx.TimeoutException):
        return ProviderTimeoutError(f"{source}: timed out: {exc}")
    if isinstance(exc, httpx.TransportError):
        return ProviderError(f"{source}: transport error: {exc}", code="E_PROVIDER_NETWORK")
    if not isinstance(exc, ScholarlyError):
        return exc
    cause = exc.__cause__
    if isinstance(cause, httpx.TimeoutException) or (
        exc.code.endswith("_UNREACHABLE") and isinstance(cause, httpx.TimeoutException)
    ):
        return ProviderTimeoutError(f"{source}: {exc}")
    if exc.status == 429 or exc.code.endswith("_RATE_LIMITED"):
        return RateLimitError(f"{source}: {exc}")
    if exc.status in (401, 402, 403):
        return AccessDeniedError(f"{source}: {exc}")
    if exc.status in (408, 504):
        return ProviderTimeoutError(f"{source}: {exc}")
    return ProviderError(f"{source}: {exc}", code=exc.code)


def record_to_result(record: ScholarlyRecord, source_name: str, quality: float) -> dict:
    """A :class:`ScholarlyRecord` in the standard result format."""
    url = record.url or (f"https://doi.org/{record.doi}" if record.doi else record.key)
    return make_result(
        url=url,
        title=record.title,
        snippet=record.abstract,
        source_name=source_name,
        quality_score=quality,
        metadata={
            "external_id": record.external_id,
            "authors": record.author_names,
            "year": record.year,
            "venue": record.venue,
            "doi": record.doi,
            "pdf_url": record.pdf_url,
            "work_type": record.work_type,
        },
    )


class ScholarlyClientProvider(SearchProvider):
    """A provider over one of the debate workflow's scholarly clients (no parser of its own).

    Subclasses set ``quality`` and implement :meth:`_open_client` and :meth:`_client_search`;
    the synchronous client runs in a worker thread with a single attempt, because retries,
    rate limits and the breaker are applied around providers by the research layer.
    """

    kind = "academic"
    #: quality score given to every result of this source
    quality: float = 0.6

    def __init__(self, base_url: str | None = None) -> None:
        self._base_url = base_url

    def _client_kwargs(self, timeout: float) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"timeout_s": timeout, "attempts": 1, "backoff_s": 0.0}
        if self._base_url:
            kwargs["base_url"] = self._base_url
        return kwargs

    def _open_client(self, timeout: float) -> Any:
        """A context-manager client configured by :meth:`_client_kwargs`."""
        raise NotImplementedError

    def _client_search(self, client: Any, query: str, max_results: int) -> list[ScholarlyRecord]:
        """Run the client's search."""
        raise NotImplementedError

    def _search_sync(self, query: str, max_results: int, timeout: float) -> list[dict]:
        try:
            with self._open_client(timeout) as client:
                records = self._client_search(client, query, max_results)
        except Exception as exc:  # mapped to a typed error, never swallowed
            raise map_scholarly_error(self.name, exc) from exc
        return [record_to_result(r, self.name, self.quality) for r in records]

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Search (one HTTP request, rate-limited; the sync client runs in a worker thread)."""
        await self.throttle()
        return await asyncio.to_thread(
            self._search_sync, query, max_results, timeout or DEFAULT_TIMEOUT
        )

    async def is_available(self) -> bool:
        """Public APIs, no key."""
        return True
