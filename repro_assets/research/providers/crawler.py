"""The Playwright crawler: pages rendered in Chromium (seed 004's "Playwright" provider).

:class:`BrowserFetcher` is a :class:`PageFetcher` that renders each page in headless Chromium
(Debian's ``/usr/bin/chromium``, ``REPRO_CHROMIUM_PATH`` to override; Playwright drives it, no
browser download) so text that JavaScript writes is read. It keeps everything the HTTP fetcher
does: the outbound gate (also applied to every request the page makes), robots.txt, the per-host
rate limit, and the obstacle mapping (402 paywall, 401/403 denial, CAPTCHA pages, 429, load
timeouts). A response the browser would download instead of render (a PDF, a binary) is read by
type through the HTTP path.

Redirects: Playwright does not call a route handler for the hops of a redirect the browser
follows itself (nor for a 3xx the handler fulfills), so the browser never follows one: the
handler makes every request itself (``route.fetch(max_redirects=0)``) and checks a 3xx's
``Location`` with the gate before anything requests it. A page's own navigation is then
stopped and :meth:`BrowserFetcher._retrieve` navigates to the checked target (the page keeps
its real URL); a sub-resource's hops are followed in the handler, each checked first. A hop to
a refused address is therefore never requested; the page fails with ``E_URL_REJECTED``.

Body size: the handler makes each request with the project's guarded HTTP client (the outbound
gate again at connect), not Playwright's ``route.fetch`` (whose driver reads a whole body,
however large, into memory). It streams the body and stops past the fetcher's ``max_bytes``
(the HTTP fetcher's cap, the paper ingest limit by default: a declared ``Content-Length`` over
it is refused before a byte is read) within one total deadline for connect, headers and body.
An oversized page fails with ``E_UNSUPPORTED_CONTENT`` ("larger than ... bytes"), as on the
HTTP path; an oversized sub-resource is aborted and the page renders without it.

:class:`CrawlerProvider` (``playwright``) is a search provider over start URLs
(``REPRO_CRAWL_START_URLS``, comma-separated, or the constructor): it renders the start pages
and follows same-host links breadth-first up to ``max_pages``, and returns every page read; the
agent's relevance floor decides which pages matter for the question. A page it cannot read is
reported as an obstacle (recorded by the agent), not dropped silently.

Playwright is an optional runtime dependency: ``pip install 'repro_assets[crawler]'``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from repro_assets import net, settings
from repro_assets.papers.pdf import MAX_PDF_BYTES
from repro_assets.research.errors import (
    OutboundURLRejected,
    ProviderError,
    ProviderTimeoutError,
    ResearchError,
    UnsupportedContentError,
)
from repro_assets.research.providers.base import SearchProvider, check_obstacle, make_result
from repro_assets.research.providers.fetcher import DEFAULT_HOST_RPS, PageFetcher, read_html
from repro_assets.research.providers.outbound import check_outbound_address

log = logging.getLogger(__name__)

#: This machine's closed network refuses Chromium's background connections; a fresh profile
#: keeps runs independent.
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"]
SETTLE_MS = 3000  # longest wait for the network to go idle after load (scripts rendering)
REQUEST_TIMEOUT_MS = 30_000  # one request made by the route handler (the page has its own)
#: What Chromium reports for a request the route handler aborted.
BLOCKED = "ERR_BLOCKED_BY_CLIENT"
#: Request headers the handler does not pass on (the client sets its own; the body it reads
#: is decoded, so it asks only for encodings it can decode).
_REQUEST_HEADERS_DROPPED = {"host", "content-length", "connection", "keep-alive",
                            "transfer-encoding", "accept-encoding", "upgrade", "te",
                            "proxy-connection"}
#: Response headers that describe the bytes on the wire, not the (decoded) body handed over.
_RESPONSE_HEADERS_DROPPED = {"content-encoding", "content-length", "transfer-encoding",
                             "connection", "keep-alive"}


def chromium_path() -> str:
    """The Chromium executable (``REPRO_CHROMIUM_PATH`` or Debian's ``/usr/bin/chromium``)."""
    return settings.current().research.chromium_path


def browser_available() -> bool:
    """True when Playwright is installed and the Chromium executable exists."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return False
    return os.path.exists(chromium_path())


class BrowserFetcher(PageFetcher):
    """Render pages in headless Chromium (one browser per fetcher, opened on first use)."""

    name = "browser"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._playwright: Any = None
        self._context: Any = None
        self._profile: str | None = None
        self._lock = asyncio.Lock()
        #: page -> the checked target its last navigation was redirected to (see _gate)
        self._redirects: dict[Any, str] = {}
        #: page -> why its navigation's body was refused (over ``max_bytes``)
        self._oversized: dict[Any, str] = {}

    async def _browser(self) -> Any:
        async with self._lock:
            if self._context is not None:
                return self._context
            try:
                from playwright.async_api import async_playwright
            except ImportError as exc:
                raise ProviderError(
                    "the browser crawler needs the optional 'playwright' package "
                    "(pip install 'repro_assets[crawler]')", code="E_BROWSER_UNAVAILABLE",
                ) from exc
            if not os.path.exists(chromium_path()):
                raise ProviderError(f"no Chromium at {chromium_path()} (apt-get install "
                                    "chromium)", code="E_BROWSER_UNAVAILABLE")
            self._profile = tempfile.mkdtemp(prefix="repro-chromium-")
            self._playwright = await async_playwright().start()
            self._context = await self._playwright.chromium.launch_persistent_context(
                self._profile, executable_path=chromium_path(), args=BROWSER_ARGS,
                headless=True, user_agent=self.user_agent, accept_downloads=False,
            )
            await self._context.route("**/*", self._gate)
            return self._context

    async def _gate(self, route: Any) -> None:
        """Every request a page makes, and every redirect hop, passes the outbound gate
        before it is made (see the module docstring: the browser never follows a redirect).
        """
        request = route.request
        url = request.url
        try:
            await check_outbound_address(url)
        except OutboundURLRejected as exc:
            log.warning("browser request refused: %s", exc)
            await route.abort("blockedbyclient")
            return
        page = _main_frame_page(request)
        method = None  # the request's own until a 301/302/303 turns it into a GET
        for _ in range(net.MAX_REDIRECTS + 1):
            try:
                response = await _fetch_once(route, url, method, self.max_bytes)
            except _BodyTooLarge as exc:
                log.warning("browser request refused: %s", exc)
                if page is not None:
                    self._oversized[page] = str(exc)
                await route.abort("failed")
                return
            if response is None:
                await route.abort("failed")
                return
            location = response.headers.get("location")
            if not (300 <= response.status < 400 and location):
                await route.fulfill(status=response.status, headers=response.headers,
                                    body=response.body)
                return
            target = urljoin(url, location)
            try:
                await check_outbound_address(target)
            except OutboundURLRejected as exc:
                log.warning("browser redirect refused: %s -> %s", url, exc)
                await route.abort("blockedbyclient")
                return
            if page is not None:  # the page's navigation: _retrieve goes to the target
                self._redirects[page] = target
                await route.abort("aborted")
                return
            url = target
            if response.status in (301, 302, 303):
                method = "GET"
        log.warning("browser request refused: more than %d redirects from %s",
                    net.MAX_REDIRECTS, request.url)
        await route.abort("failed")

    async def _retrieve(self, url: str, timeout: float) -> dict[str, Any]:
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        context = await self._browser()
        page = await context.new_page()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            target = url
            for _ in range(net.MAX_REDIRECTS + 1):
                self._redirects.pop(page, None)
                self._oversized.pop(page, None)
                left = max(deadline - loop.time(), 0.001)
                try:
                    response = await page.goto(target, timeout=left * 1000, wait_until="load")
                except PlaywrightTimeout as exc:
                    raise ProviderTimeoutError(
                        f"{self.name}: {url} did not load in {timeout}s") from exc
                except PlaywrightError as exc:
                    too_large = self._oversized.pop(page, None)
                    if too_large is not None:  # its body is over the cap: never read whole
                        raise UnsupportedContentError(
                            f"{self.name}: {too_large}; skipped") from exc
                    hop = self._redirects.pop(page, None)
                    if hop is not None:  # a redirect the gate allowed: go there
                        target = hop
                        continue
                    if "Download is starting" in str(exc):  # not a page: read it by type
                        return await super()._retrieve(url, timeout)
                    if BLOCKED in str(exc):  # the gate refused the page or a redirect hop
                        raise OutboundURLRejected(
                            f"{self.name}: {url}: the page or a hop of its redirects is at an "
                            "address that is not allowed") from exc
                    raise ProviderError(f"{self.name}: {url}: {exc}", code="E_BROWSER") \
                        from exc
                break
            else:
                raise ProviderError(f"{self.name}: {url}: more than {net.MAX_REDIRECTS} "
                                    "redirects", code="E_BROWSER")
            if response is None:
                raise ProviderError(f"{self.name}: no response for {url}", code="E_BROWSER")
            await self._check_redirects(response)
            content_type = (await response.all_headers()).get("content-type", "")
            if "html" not in content_type.lower():
                return await super()._retrieve(url, timeout)
            try:
                await page.wait_for_load_state("networkidle",
                                               timeout=min(SETTLE_MS, timeout * 1000))
            except PlaywrightTimeout:
                log.debug("%s: network not idle after load; reading what rendered", url)
            rendered = await page.content()
            check_obstacle(self.name, page.url, response.status, rendered)
            title, text, links = read_html(rendered, page.url)
            return {"url": page.url, "title": title or await page.title(), "text": text,
                    "status": response.status, "content_type": "text/html", "links": links}
        finally:
            self._redirects.pop(page, None)
            self._oversized.pop(page, None)
            await page.close()

    @staticmethod
    async def _check_redirects(response: Any) -> None:
        """Every hop of the navigation passes the outbound gate, checked again after the fact
        (each hop was already checked by :meth:`_gate` before it was requested): nothing a
        refused address returned is read.

        Raises:
            OutboundURLRejected: a hop or the final URL is refused.
        """
        await check_outbound_address(response.url)
        hop = response.request.redirected_from
        while hop is not None:
            await check_outbound_address(hop.url)
            hop = hop.redirected_from

    async def aclose(self) -> None:
        """Close the browser and remove its profile."""
        if self._context is not None:
            await self._context.close()
            self._context = None
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None
        if self._profile is not None:
            shutil.rmtree(self._profile, ignore_errors=True)
            self._profile = None


def _main_frame_page(request: Any) -> Any | None:
    """The page whose own (main-frame) navigation ``request`` is, else None."""
    from playwright.async_api import Error as PlaywrightError

    if not request.is_navigation_request():
        return None
    try:
        frame = request.frame
    except PlaywrightError:  # a service worker's request has no frame
        return None
    return frame.page if frame.parent_frame is None else None


class _BodyTooLarge(Exception):
    """A response body over the fetcher's ``max_bytes`` (the request was stopped)."""


@dataclass(frozen=True)
class _Fetched:
    """One response the route handler read: status, headers (decoded body) and body."""

    status: int
    headers: dict[str, str]
    body: bytes


def _response_headers(response: httpx.Response) -> dict[str, str]:
    """The response's headers for ``route.fulfill`` (repeated ones joined by newlines, as
    Playwright expects for ``set-cookie``)."""
    out: dict[str, str] = {}
    for name, value in response.headers.multi_items():
        key = name.lower()
        if key in _RESPONSE_HEADERS_DROPPED:
            continue
        out[key] = f"{out[key]}\n{value}" if key in out else value
    return out


async def _read_capped(response: httpx.Response, url: str, max_bytes: int) -> bytes:
    """The (decoded) body, read until it passes ``max_bytes``.

    Raises:
        _BodyTooLarge: the declared length or the bytes read pass ``max_bytes``.
    """
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise _BodyTooLarge(f"{url}: declares {int(declared):,} bytes, more than "
                            f"{max_bytes:,} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise _BodyTooLarge(f"{url}: larger than {max_bytes:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _fetch_once(route: Any, url: str, method: str | None = None,
                      max_bytes: int = MAX_PDF_BYTES) -> _Fetched | None:
    """``url`` requested for ``route`` without following redirects (None when it failed).

    The request is made with the guarded HTTP client (the outbound gate at connect) and its
    body streamed up to ``max_bytes``, within one total deadline (:data:`REQUEST_TIMEOUT_MS`).

    Raises:
        _BodyTooLarge: the body is over ``max_bytes`` (nothing of it is handed to the page).
    """
    request = route.request
    headers = {name: value for name, value in (await request.all_headers()).items()
               if name.lower() not in _REQUEST_HEADERS_DROPPED and not name.startswith(":")}
    verb = method or request.method
    content = None if method == "GET" else request.post_data_buffer
    seconds = REQUEST_TIMEOUT_MS / 1000
    try:
        async with asyncio.timeout(seconds), httpx.AsyncClient(
                transport=net.AsyncGuardedTransport(), trust_env=False,
                follow_redirects=False, timeout=seconds) as client, \
                client.stream(verb, url, headers=headers, content=content) as response:
            body = await _read_capped(response, url, max_bytes)
            return _Fetched(response.status_code, _response_headers(response), body)
    except (httpx.HTTPError, net.FetchError, TimeoutError, OSError) as exc:
        log.debug("browser request failed: %s: %s", url, exc)  # refused, reset, timed out
        return None


class CrawlerProvider(SearchProvider):
    """Crawl start URLs in Chromium and return the pages read (see the module docstring).

    Args:
        start_urls: where to start (default: ``REPRO_CRAWL_START_URLS``).
        max_pages: pages rendered per search at most.
        host_rps: page loads per second per host (shared limiter).
        fetcher: the browser fetcher (one is created when omitted).
    """

    kind = "web"

    def __init__(
        self,
        start_urls: list[str] | None = None,
        max_pages: int = 10,
        host_rps: float = DEFAULT_HOST_RPS,
        fetcher: BrowserFetcher | None = None,
    ) -> None:
        if start_urls is None:
            start_urls = settings.split_list(settings.current().research.crawl_start_urls)
        self.start_urls = start_urls
        self.max_pages = max_pages
        self.host_rps = host_rps
        self.fetcher = fetcher or BrowserFetcher()
        self.fetcher.bind_limiter(self.limiter, host_rps)

    def bind_limiter(self, limiter: Any) -> None:
        """Share ``limiter`` with the browser fetcher (the per-host limit)."""
        super().bind_limiter(limiter)
        self.fetcher.bind_limiter(limiter, self.host_rps)

    @property
    def name(self) -> str:
        """Provider id."""
        return "playwright"

    @property
    def requests_per_second(self) -> float:
        """Page loads per host per second."""
        return self.host_rps

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Render the start pages and same-host links, breadth first.

        Raises:
            The first page's obstacle when no page at all could be read.
        """
        queue = list(dict.fromkeys(self.start_urls))
        hosts = {urlsplit(u).hostname for u in queue}
        seen = set(queue)
        results: list[dict] = []
        first_error: BaseException | None = None
        budget = min(self.max_pages, max(max_results, 1))
        while queue and len(results) < budget:
            url = queue.pop(0)
            try:
                page = await self.fetcher.fetch(url, timeout=timeout or 30.0)
            except ResearchError as exc:
                first_error = first_error or exc
                self.report_obstacle(url, exc)
                continue
            if page["text"].strip():
                results.append(make_result(
                    url=page["url"], title=page["title"] or page["url"],
                    snippet=page["text"][:600], full_content=page["text"][:20_000],
                    source_name=self.name, quality_score=0.4,
                    metadata={"host": urlsplit(page["url"]).hostname, "crawled": True},
                ))
            for link in page.get("links", []):
                if link not in seen and urlsplit(link).hostname in hosts:
                    seen.add(link)
                    queue.append(link)
        if not results and first_error is not None:
            self.drain_obstacles()
            raise first_error
        return results

    async def is_available(self) -> bool:
        """Start URLs configured, Playwright installed and Chromium present."""
        return bool(self.start_urls) and browser_available()

    async def aclose(self) -> None:
        """Close the browser."""
        await self.fetcher.aclose()
