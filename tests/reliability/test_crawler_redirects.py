"""The browser crawler checks every redirect hop with the outbound gate (issue #27, item 9).

Playwright does not call the route handler for redirects, so a public page redirecting to a
metadata address would otherwise be read. The browser is replaced by a stand-in that reports
such a navigation (this machine may have no Chromium; the real browser's route gate is covered
by ``test_ssrf``'s browser test where Chromium exists).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from repro_assets.research.errors import OutboundURLRejected
from repro_assets.research.providers.crawler import BrowserFetcher

pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.reliability

PUBLIC = "http://93.184.216.34/page"
METADATA = "http://169.254.169.254/latest/meta-data/"


@dataclass
class FakeRequest:
    url: str
    redirected_from: FakeRequest | None = None


@dataclass
class FakeResponse:
    url: str
    request: FakeRequest
    status: int = 200

    async def all_headers(self) -> dict[str, str]:
        return {"content-type": "text/html"}


class FakePage:
    def __init__(self, response: FakeResponse) -> None:
        self.response = response
        self.url = response.url
        self.closed = False
        self.read = False

    async def goto(self, url: str, **_: Any) -> FakeResponse:
        return self.response

    async def wait_for_load_state(self, *_: Any, **__: Any) -> None:
        return None

    async def content(self) -> str:
        self.read = True
        return "<html><body>instance credentials</body></html>"

    async def title(self) -> str:
        return ""

    async def close(self) -> None:
        self.closed = True


class FakeContext:
    def __init__(self, page: FakePage) -> None:
        self.page = page

    async def new_page(self) -> FakePage:
        return self.page


def _fetch(response: FakeResponse, monkeypatch: pytest.MonkeyPatch) -> tuple[FakePage, Any]:
    page = FakePage(response)
    fetcher = BrowserFetcher()

    async def browser() -> FakeContext:
        return FakeContext(page)

    monkeypatch.setattr(fetcher, "_browser", browser)
    try:
        return page, asyncio.run(fetcher._retrieve(response.request.url, 5))
    except OutboundURLRejected as exc:
        return page, exc


def test_a_redirect_to_a_metadata_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPRO_ALLOW_PRIVATE_FETCH", raising=False)
    monkeypatch.delenv("REPRO_FETCH_ALLOWLIST", raising=False)
    hop = FakeRequest(METADATA, redirected_from=FakeRequest(PUBLIC))
    page, result = _fetch(FakeResponse(METADATA, hop), monkeypatch)
    assert isinstance(result, OutboundURLRejected)
    assert not page.read and page.closed


def test_an_ordinary_navigation_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPRO_ALLOW_PRIVATE_FETCH", raising=False)
    page, result = _fetch(FakeResponse(PUBLIC, FakeRequest(PUBLIC)), monkeypatch)
    assert isinstance(result, dict) and "instance credentials" in result["text"]
