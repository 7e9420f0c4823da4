"""Page fetcher for full content: robots.txt, a per-host rate limit, responses read by type.

Every fetch passes :func:`repro_assets.research.providers.outbound.check_outbound_url`, then
robots.txt (read once per origin with the standard library's ``RobotFileParser``: a 404 allows
everything, 401/403 disallow everything, other failures disallow the origin for this session, as
crawlers conventionally do; a disallowed URL raises :class:`RobotsDisallowedError`), then waits
for the host's rate limit (``host:<name>`` in the shared limiter, robots.txt requests included).

Responses are read by type, never by guessing from decoded text: HTML becomes visible text and
links; a PDF goes through the paper ingest path's PDF reading (validation, then page text);
plain text is decoded; anything else (images, archives, unknown binary) raises
:class:`UnsupportedContentError` with the reason, and is never decoded. Bodies are streamed and
capped at the paper ingest limit. :class:`repro_assets.research.providers.crawler.BrowserFetcher`
renders pages in Chromium instead of reading the HTTP body.
"""

from __future__ import annotations

import asyncio
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit
from urllib.robotparser import RobotFileParser

import httpx

from repro_assets import net
from repro_assets.papers.pdf import MAX_PDF_BYTES, PDF_MAGIC, PaperIngestError, validate_pdf
from repro_assets.research.errors import (
    OutboundURLRejected,
    ProviderError,
    ProviderTimeoutError,
    RobotsDisallowedError,
    UnsupportedContentError,
)
from repro_assets.research.providers.base import PROCESS_LIMITER, USER_AGENT, check_obstacle
from repro_assets.research.providers.outbound import check_outbound_url
from repro_assets.research.ratelimit import RateLimiter

SKIP_TAGS = {"script", "style", "noscript", "svg", "nav", "footer", "header", "form"}
BLOCK_TAGS = {"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "section",
              "article"}
TEXT_TYPES = ("text/plain", "text/markdown", "text/csv", "application/json", "application/xml",
              "text/xml")
HTML_TYPES = ("text/html", "application/xhtml+xml")
DEFAULT_HOST_RPS = 2.0


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.links: list[str] = []
        self.title = ""
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)
        if tag in SKIP_TAGS:
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif tag in BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP_TAGS and self._skip:
            self._skip -= 1
        elif tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._skip:
            self.parts.append(data)


def html_to_text(html_text: str) -> tuple[str, str]:
    """Return ``(title, visible text)`` of an HTML page."""
    title, text, _ = read_html(html_text, "")
    return title, text


def read_html(html_text: str, base_url: str) -> tuple[str, str, list[str]]:
    """``(title, visible text, absolute http(s) links)`` of an HTML page."""
    parser = _TextExtractor()
    parser.feed(html_text)
    lines = [" ".join(line.split()) for line in "".join(parser.parts).splitlines()]
    links: list[str] = []
    for href in parser.links:
        absolute = urljoin(base_url, href).split("#", 1)[0] if base_url else href
        if absolute.startswith(("http://", "https://")) and absolute not in links:
            links.append(absolute)
    return " ".join(parser.title.split()), "\n".join(line for line in lines if line), links


def media_kind(content_type: str, body: bytes) -> str:
    """``html``, ``pdf``, ``text`` or ``binary`` from the declared type, sniffing when absent."""
    declared = content_type.split(";", 1)[0].strip().lower()
    if declared in HTML_TYPES:
        return "html"
    if declared == "application/pdf" or body[:1024].lstrip().startswith(PDF_MAGIC):
        return "pdf"
    if declared in TEXT_TYPES or declared.startswith("text/"):
        return "text"
    if declared in ("", "application/octet-stream", "binary/octet-stream"):
        head = body[:2048]
        if b"\x00" not in head:
            try:
                sample = head.decode("utf-8")
            except UnicodeDecodeError:
                return "binary"
            return "html" if sample.lstrip().lower().startswith(("<!doctype html", "<html")) \
                else "binary"
    return "binary"


def _decode(body: bytes, content_type: str) -> str:
    charset = "utf-8"
    for part in content_type.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.lower() == "charset" and value:
            charset = value.strip("\"' ")
    try:
        return body.decode(charset, errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def pdf_text(url: str, body: bytes) -> tuple[str, str]:
    """``(title, text)`` of a PDF through the paper ingest path's reading.

    Raises:
        UnsupportedContentError: the PDF is too large, corrupt or encrypted (with its code).
    """
    from repro_assets.papers.pages import extract_pages

    try:
        info = validate_pdf(body)
        pages = extract_pages(body, info.paper_id)
    except PaperIngestError as exc:
        raise UnsupportedContentError(f"{url}: PDF not readable ({exc.code}: {exc.message})") \
            from exc
    return pages.title or info.metadata_title or "", "\n\n".join(p.text for p in pages.pages)


def read_body(url: str, status: int, content_type: str, body: bytes) -> dict[str, Any]:
    """A fetched body read by its type (see the module docstring).

    Returns:
        ``{"url", "title", "text", "status", "content_type", "links"}``.

    Raises:
        UnsupportedContentError: binary content, or an unreadable PDF.
    """
    kind = media_kind(content_type, body)
    links: list[str] = []
    if kind == "html":
        title, text, links = read_html(_decode(body, content_type), url)
        declared = "text/html"
    elif kind == "pdf":
        title, text = pdf_text(url, body)
        declared = "application/pdf"
    elif kind == "text":
        title, text = "", _decode(body, content_type)
        declared = content_type.split(";", 1)[0].strip().lower()
    else:
        raise UnsupportedContentError(
            f"{url}: {content_type or 'untyped'} content ({len(body):,} bytes) is neither a "
            "page nor a PDF; skipped, not decoded")
    return {"url": url, "title": title, "text": text, "status": status,
            "content_type": declared, "links": links}


async def _gate_request(request: httpx.Request) -> None:
    """Every request, redirects included, passes the outbound gate."""
    check_outbound_url(str(request.url))


class PageFetcher:
    """Fetch pages politely over HTTP.

    Args:
        client: an httpx client (tests inject one; respx intercepts either way).
        user_agent: sent with every request and matched against robots.txt.
        max_bytes: largest body read (the paper ingest limit by default).
    """

    name = "fetcher"

    def __init__(
        self,
        client: httpx.AsyncClient | None = None,
        user_agent: str = USER_AGENT,
        max_bytes: int = MAX_PDF_BYTES,
    ) -> None:
        self._client = client
        self.user_agent = user_agent
        self.max_bytes = max_bytes
        self._robots: dict[str, RobotFileParser | None] = {}
        self._limiter: RateLimiter = PROCESS_LIMITER
        self.host_rps = DEFAULT_HOST_RPS

    def bind_limiter(self, limiter: RateLimiter, host_rps: float = DEFAULT_HOST_RPS) -> None:
        """Use ``limiter`` (shared in production) at ``host_rps`` requests per second per host."""
        self._limiter = limiter
        self.host_rps = host_rps

    async def throttle(self, url: str) -> None:
        """Wait for the next request slot of ``url``'s host."""
        host = (urlsplit(url).hostname or "").lower()
        await self._limiter.acquire(f"host:{host}", self.host_rps)

    async def _download(self, url: str, timeout: float) -> tuple[int, str, bytes, str]:
        """``(status, content type, body, final url)``; the body is capped at ``max_bytes``."""
        headers = {"User-Agent": self.user_agent}
        client = self._client or httpx.AsyncClient(
            transport=net.AsyncGuardedTransport(), trust_env=False, follow_redirects=True,
            max_redirects=net.MAX_REDIRECTS, event_hooks={"request": [_gate_request]})
        try:  # one total deadline for connect, headers and body (httpx's is per read)
            async with asyncio.timeout(timeout), \
                    client.stream("GET", url, headers=headers, timeout=timeout) as response:
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > self.max_bytes:
                        raise UnsupportedContentError(
                            f"{url}: larger than {self.max_bytes:,} bytes; skipped")
                    chunks.append(chunk)
                return (response.status_code, response.headers.get("content-type", ""),
                        b"".join(chunks), str(response.url))
        except net.FetchBlocked as exc:  # an address (or a redirect hop) refused at connect
            raise OutboundURLRejected(str(exc)) from exc
        except net.FetchError as exc:
            raise ProviderError(f"{self.name}: {exc}", code="E_PROVIDER_NETWORK") from exc
        except (httpx.TimeoutException, TimeoutError) as exc:
            raise ProviderTimeoutError(f"{self.name}: timed out fetching {url}") from exc
        except httpx.TransportError as exc:
            raise ProviderError(f"{self.name}: {type(exc).__name__} for {url}",
                                code="E_PROVIDER_NETWORK") from exc
        finally:
            if self._client is None:
                await client.aclose()

    async def robots_for(self, url: str, timeout: float = 10.0) -> RobotFileParser | None:
        """The parsed robots.txt of ``url``'s origin (None = everything allowed)."""
        parts = urlsplit(url)
        origin = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
        if origin in self._robots:
            return self._robots[origin]
        parser: RobotFileParser | None = RobotFileParser(origin + "/robots.txt")
        try:
            await self.throttle(origin)
            status, ctype, body, _ = await self._download(origin + "/robots.txt", timeout)
            if status in (401, 403):
                parser.disallow_all = True  # type: ignore[union-attr]
            elif 400 <= status < 500:
                parser = None
            elif status >= 500:
                parser.disallow_all = True  # type: ignore[union-attr]
            else:
                parser.parse(_decode(body, ctype).splitlines())  # type: ignore[union-attr]
        except OutboundURLRejected:
            raise  # a refused address is reported as such, not as a robots.txt refusal
        except (ProviderError, ProviderTimeoutError):
            parser = RobotFileParser(origin + "/robots.txt")
            parser.disallow_all = True  # type: ignore[attr-defined]  # not in the stubs
        self._robots[origin] = parser
        return parser

    async def allowed(self, url: str) -> bool:
        """True when robots.txt lets our user agent fetch ``url``."""
        robots = await self.robots_for(url)
        return True if robots is None else robots.can_fetch(self.user_agent, url)

    async def fetch(self, url: str, *, timeout: float = 30.0) -> dict[str, Any]:
        """Fetch one page's text.

        Returns:
            ``{"url", "title", "text", "status", "content_type", "links"}``.

        Raises:
            OutboundURLRejected, RobotsDisallowedError, AccessDeniedError, PaywallError,
            CaptchaError, RateLimitError, ProviderTimeoutError, UnsupportedContentError,
            ProviderError.
        """
        check_outbound_url(url)
        if not await self.allowed(url):
            raise RobotsDisallowedError(f"robots.txt disallows {url} for {self.user_agent}")
        await self.throttle(url)
        return await self._retrieve(url, timeout)

    async def _retrieve(self, url: str, timeout: float) -> dict[str, Any]:
        status, content_type, body, final_url = await self._download(url, timeout)
        readable = status >= 400 or media_kind(content_type, body) == "html"
        check_obstacle(self.name, final_url, status,
                       _decode(body, content_type) if readable else "")
        return read_body(final_url, status, content_type, body)

    async def aclose(self) -> None:
        """Nothing to release (clients are per request unless injected)."""
