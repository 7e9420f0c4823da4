"""Page fetcher for full content: httpx with robots.txt respect; Playwright optional.

robots.txt is read once per origin with the standard library's ``RobotFileParser``: a 404
allows everything, 401/403 disallow everything, other failures (5xx, network) disallow the
origin for this session, as crawlers conventionally do. A disallowed URL raises
:class:`RobotsDisallowedError` (an access failure the obstacle handler records).
Playwright (with Debian's Chromium, ``REPRO_CHROMIUM_PATH`` default ``/usr/bin/chromium``) is
used only when ``use_browser=True`` and the ``playwright`` package is installed.
"""

from __future__ import annotations

import os
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from urllib.robotparser import RobotFileParser

import httpx

from repro_assets.research.errors import ProviderError, ProviderTimeoutError, RobotsDisallowedError
from repro_assets.research.providers.base import USER_AGENT, raise_for_obstacle

SKIP_TAGS = {"script", "style", "noscript", "svg", "nav", "footer", "header", "form"}
BLOCK_TAGS = {"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "section",
              "article"}


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
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
    parser = _TextExtractor()
    parser.feed(html_text)
    lines = [" ".join(line.split()) for line in "".join(parser.parts).splitlines()]
    return " ".join(parser.title.split()), "\n".join(line for line in lines if line)


class PageFetcher:
    """Fetch pages politely.

    Args:
        client: an httpx client (tests inject one; respx intercepts either way).
        user_agent: sent with every request and matched against robots.txt.
        use_browser: render with Playwright + Chromium instead of plain HTTP.
    """

    name = "fetcher"

    def __init__(
        self,
        client: httpx.AsyncClient | None = None,
        user_agent: str = USER_AGENT,
        use_browser: bool = False,
    ) -> None:
        self._client = client
        self.user_agent = user_agent
        self.use_browser = use_browser
        self._robots: dict[str, RobotFileParser | None] = {}

    async def _get(self, url: str, timeout: float) -> httpx.Response:
        headers = {"User-Agent": self.user_agent}
        try:
            if self._client is not None:
                return await self._client.get(url, headers=headers, timeout=timeout)
            async with httpx.AsyncClient(follow_redirects=True) as client:
                return await client.get(url, headers=headers, timeout=timeout)
        except httpx.TimeoutException as exc:
            raise ProviderTimeoutError(f"fetcher: timed out fetching {url}") from exc
        except httpx.TransportError as exc:
            raise ProviderError(f"fetcher: {type(exc).__name__} for {url}",
                                code="E_PROVIDER_NETWORK") from exc

    async def robots_for(self, url: str, timeout: float = 10.0) -> RobotFileParser | None:
        """The parsed robots.txt of ``url``'s origin (None = everything allowed)."""
        parts = urlsplit(url)
        origin = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
        if origin in self._robots:
            return self._robots[origin]
        parser: RobotFileParser | None = RobotFileParser(origin + "/robots.txt")
        try:
            response = await self._get(origin + "/robots.txt", timeout)
            if response.status_code in (401, 403):
                parser.disallow_all = True  # type: ignore[union-attr]
            elif 400 <= response.status_code < 500:
                parser = None
            elif response.status_code >= 500:
                parser.disallow_all = True  # type: ignore[union-attr]
            else:
                parser.parse(response.text.splitlines())  # type: ignore[union-attr]
        except (ProviderError, ProviderTimeoutError):
            parser = RobotFileParser(origin + "/robots.txt")
            parser.disallow_all = True
        self._robots[origin] = parser
        return parser

    async def allowed(self, url: str) -> bool:
        """True when robots.txt lets our user agent fetch ``url``."""
        robots = await self.robots_for(url)
        return True if robots is None else robots.can_fetch(self.user_agent, url)

    async def fetch(self, url: str, *, timeout: float = 30.0) -> dict[str, Any]:
        """Fetch one page's text.

        Returns:
            ``{"url", "title", "text", "status"}``.

        Raises:
            RobotsDisallowedError, AccessDeniedError, PaywallError, CaptchaError,
            RateLimitError, ProviderTimeoutError, ProviderError.
        """
        if not await self.allowed(url):
            raise RobotsDisallowedError(f"robots.txt disallows {url} for {self.user_agent}")
        if self.use_browser:
            return await self._fetch_browser(url, timeout)
        response = await self._get(url, timeout)
        raise_for_obstacle(self.name, response)
        content_type = response.headers.get("content-type", "")
        if "html" in content_type or response.text.lstrip().startswith("<"):
            title, text = html_to_text(response.text)
        else:
            title, text = "", response.text
        return {"url": str(response.url), "title": title, "text": text,
                "status": response.status_code}

    async def _fetch_browser(self, url: str, timeout: float) -> dict[str, Any]:
        try:
            from playwright.async_api import async_playwright
        except ImportError as exc:
            raise ProviderError(
                "use_browser=True needs the optional 'playwright' package",
                code="E_BROWSER_UNAVAILABLE",
            ) from exc
        executable = os.environ.get("REPRO_CHROMIUM_PATH", "/usr/bin/chromium")
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=executable, headless=True)
            try:
                page = await browser.new_page(user_agent=self.user_agent)
                response = await page.goto(url, timeout=timeout * 1000)
                html_text = await page.content()
            finally:
                await browser.close()
        status = response.status if response else 0
        title, text = html_to_text(html_text)
        return {"url": url, "title": title, "text": text, "status": status}
