"""Shared glue for the providers that wrap ``repro_assets.scholarly`` clients (arXiv, Crossref).

The scholarly clients are synchronous and do their own polite retries; here they run in a worker
thread with a single attempt (our tenacity policy in :mod:`repro_assets.research.retry` does the
retrying) and their :class:`ScholarlyError` is mapped to the research agent's typed errors.
"""

from __future__ import annotations

import httpx

from repro_assets.research.errors import (
    AccessDeniedError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
)
from repro_assets.research.providers.base import make_result
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
