"""The provider interface (seed 3.1) and the HTTP error mapping every provider shares.

Every provider returns the standard result format: a list of dicts validated by
:class:`repro_assets.research.models.SourceResult` (url, title, snippet, source_name,
retrieved_at, full_content, quality_score, metadata). Errors are never swallowed: HTTP
statuses and transport failures become the typed errors of :mod:`repro_assets.research.errors`
that the obstacle handler dispatches on.
"""

from __future__ import annotations

import html
import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

import httpx

from repro_assets.research.errors import (
    AccessDeniedError,
    CaptchaError,
    PaywallError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
)
from repro_assets.research.models import SourceResult
from repro_assets.research.providers.outbound import check_outbound_url
from repro_assets.research.ratelimit import RateLimiter, RateLimiterRegistry

USER_AGENT = "repro-assets-research/0.1 (+https://github.com/; research agent; polite)"
DEFAULT_TIMEOUT = 30.0
CAPTCHA_MARKERS = ("captcha", "are you a robot", "cf-challenge", "verify you are human")
#: Used by a provider that no agent bound a shared limiter to (a provider used on its own).
PROCESS_LIMITER = RateLimiterRegistry()

ProviderKind = Literal["local", "academic", "web"]


class SearchProvider(ABC):
    """Abstract interface for search providers (seed 3.1).

    Attributes:
        kind: ``local`` (our corpus: allowed in every privacy mode), ``academic`` or ``web``.
    """

    kind: ProviderKind = "web"
    _limiter: RateLimiter | None = None
    _obstacles: list[tuple[str, BaseException]] | None = None

    def bind_limiter(self, limiter: RateLimiter) -> None:
        """Use ``limiter`` (shared by sessions and processes in production) for every request."""
        self._limiter = limiter

    @property
    def limiter(self) -> RateLimiter:
        """The bound limiter, else the process-wide in-memory one."""
        return self._limiter or PROCESS_LIMITER

    async def throttle(self) -> None:
        """Wait for this provider's next request slot; called once per HTTP request."""
        await self.limiter.acquire(self.name, self.requests_per_second)

    def report_obstacle(self, url: str, error: BaseException) -> None:
        """Keep an obstacle met inside a search that did not fail as a whole (never silent)."""
        if self._obstacles is None:
            self._obstacles = []
        self._obstacles.append((url, error))

    def drain_obstacles(self) -> list[tuple[str, BaseException]]:
        """Obstacles reported since the last call (the agent records them)."""
        out, self._obstacles = self._obstacles or [], []
        return out

    async def aclose(self) -> None:  # noqa: B027 - optional hook, most providers hold nothing
        """Release resources (a browser ...); the default holds none."""

    @property
    @abstractmethod
    def name(self) -> str:
        """Unique identifier for this provider."""

    @property
    @abstractmethod
    def requests_per_second(self) -> float:
        """Rate limit for this provider."""

    @abstractmethod
    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict[str, Any]]:
        """Execute search and return results in the standard format.

        Raises:
            RateLimitError, AccessDeniedError, ProviderTimeoutError, ProviderError.
        """

    @abstractmethod
    async def is_available(self) -> bool:
        """Check if provider is configured and accessible."""


class HttpProvider(SearchProvider):
    """A provider that talks HTTP through httpx (client injectable for tests)."""

    def __init__(self, client: httpx.AsyncClient | None = None) -> None:
        self._client = client

    @asynccontextmanager
    async def http(self) -> AsyncIterator[httpx.AsyncClient]:
        """Yield the injected client, or a short-lived one with our user agent."""
        if self._client is not None:
            yield self._client
            return
        async with httpx.AsyncClient(
            headers={"User-Agent": USER_AGENT}, follow_redirects=True
        ) as client:
            yield client

    async def request(
        self,
        method: str,
        url: str,
        *,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> httpx.Response:
        """Send one request (rate-limited) and map failures to typed errors.

        Every request waits for its own slot, so a provider that makes several requests per
        search (PubMed: esearch then efetch) counts each one against its limit.
        """
        check_outbound_url(url)
        await self.throttle()
        async with self.http() as client:
            try:
                response = await client.request(
                    method, url, timeout=timeout or DEFAULT_TIMEOUT, **kwargs
                )
            except httpx.TimeoutException as exc:
                raise ProviderTimeoutError(f"{self.name}: timed out after {timeout}s") from exc
            except httpx.TransportError as exc:
                raise ProviderError(
                    f"{self.name}: transport error {type(exc).__name__}: {exc}",
                    code="E_PROVIDER_NETWORK",
                ) from exc
        raise_for_obstacle(self.name, response)
        return response


def _retry_after(response: httpx.Response) -> float | None:
    raw = response.headers.get("retry-after")
    if raw is None:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        return None


def looks_like_captcha(text: str) -> bool:
    """True when a body looks like a CAPTCHA / bot challenge page."""
    lowered = text[:20_000].lower()
    return any(marker in lowered for marker in CAPTCHA_MARKERS)


def check_obstacle(
    source: str, url: str, status: int, body: str, retry_after: float | None = None
) -> None:
    """Raise the typed error for a page or API answer that is not a usable success.

    429 -> RateLimitError, 402 -> PaywallError, 401/403 -> AccessDeniedError (CaptchaError when
    the body is a challenge page), 408/504 -> ProviderTimeoutError, other 4xx/5xx ->
    ProviderError with code ``E_HTTP_<status>``; a 200 challenge page -> CaptchaError. Shared
    by the HTTP providers, the page fetcher and the browser crawler.
    """
    if status == 429:
        raise RateLimitError(f"{source}: HTTP 429 for {url}", retry_after=retry_after)
    if status == 402:
        raise PaywallError(f"{source}: HTTP 402 payment required for {url}")
    if status in (401, 403):
        if looks_like_captcha(body):
            raise CaptchaError(f"{source}: CAPTCHA challenge (HTTP {status}) for {url}")
        raise AccessDeniedError(f"{source}: HTTP {status} access denied for {url}")
    if status in (408, 504):
        raise ProviderTimeoutError(f"{source}: HTTP {status} gateway/request timeout for {url}")
    if status == 503 and looks_like_captcha(body):
        raise CaptchaError(f"{source}: CAPTCHA challenge (HTTP 503) for {url}")
    if status >= 400:
        raise ProviderError(
            f"{source}: HTTP {status} for {url}: {body[:200]}", code=f"E_HTTP_{status}"
        )
    if body and looks_like_captcha(body) and "<form" in body.lower():
        raise CaptchaError(f"{source}: CAPTCHA challenge page for {url}")


def raise_for_obstacle(source: str, response: httpx.Response) -> None:
    """:func:`check_obstacle` for an httpx response."""
    status = response.status_code
    url = str(response.request.url) if response.request else ""
    body = response.text if status >= 400 or "html" in response.headers.get("content-type", "") \
        else ""
    check_obstacle(source, url, status, body, _retry_after(response))


_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


def clean_text(text: str | None) -> str:
    """Strip markup and entities, collapse whitespace."""
    if not text:
        return ""
    return _SPACE.sub(" ", html.unescape(_TAG.sub(" ", text))).strip()


def make_result(
    *,
    url: str,
    title: str,
    snippet: str,
    source_name: str,
    full_content: str | None = None,
    quality_score: float = 0.5,
    metadata: dict[str, Any] | None = None,
    relevance: float | None = None,
) -> dict[str, Any]:
    """Build one result in the standard format (validated, JSON-able)."""
    return SourceResult(
        relevance=relevance,
        url=url,
        title=clean_text(title),
        snippet=clean_text(snippet),
        source_name=source_name,
        full_content=full_content,
        quality_score=max(0.0, min(1.0, quality_score)),
        metadata=metadata or {},
    ).model_dump(mode="json")
