"""The browser crawler never requests a redirect hop the outbound gate refuses (issue #27,
item 9), in the real system Chromium.

Playwright does not call the route handler for redirects the browser follows itself, so the
crawler makes each request in its handler without following redirects and lets the browser
follow a 3xx only when its target passes the gate. Two loopback servers stand in for a public
site (127.0.0.2, allow-listed with ``REPRO_FETCH_ALLOWLIST``) and an internal service
(127.0.0.1, refused): the internal one must receive no request at all.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any

import pytest

from repro_assets.research.errors import OutboundURLRejected
from tests.reliability.test_ssrf import Site

pytest.importorskip("playwright.async_api")
pytestmark = [
    pytest.mark.reliability,
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"),
                       reason="no Chromium at /usr/bin/chromium (apt-get install chromium)"),
]


@pytest.fixture()
def internal() -> Iterator[Site]:
    """The refused server (127.0.0.1)."""
    server = Site("127.0.0.1")
    yield server
    server.close()


@pytest.fixture()
def public(monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    """The allowed server (127.0.0.2, allow-listed; every other private address refused)."""
    monkeypatch.delenv("REPRO_ALLOW_PRIVATE_FETCH", raising=False)
    monkeypatch.setenv("REPRO_FETCH_ALLOWLIST", "127.0.0.2")
    server = Site("127.0.0.2")
    yield server
    server.close()


def _load(url: str) -> dict[str, Any] | OutboundURLRejected:
    from repro_assets.research.providers.crawler import BrowserFetcher

    async def load() -> dict[str, Any] | OutboundURLRejected:
        fetcher = BrowserFetcher()
        try:
            return await fetcher.fetch(url, timeout=20)
        except OutboundURLRejected as exc:
            return exc
        finally:
            await fetcher.aclose()

    return asyncio.run(load())


def test_a_redirect_to_a_refused_address_is_never_requested(
    public: Site, internal: Site
) -> None:
    result = _load(f"{public.url}/to?u={internal.url}/page?img=x")
    assert isinstance(result, OutboundURLRejected), result
    assert result.code == "E_URL_REJECTED"
    assert internal.hits == []  # the browser never sent the hop
    assert any(hit.startswith("/to?u=") for hit in public.hits)


def test_a_redirect_chain_ending_at_a_refused_address_is_never_requested(
    public: Site, internal: Site
) -> None:
    first = f"/to?u={public.url}/to?u={internal.url}/paper.pdf"
    result = _load(public.url + first)
    assert isinstance(result, OutboundURLRejected), result
    assert internal.hits == []
    assert len([hit for hit in public.hits if hit.startswith("/to?u=")]) == 2  # both hops


def test_an_allowed_redirect_is_followed_and_read(public: Site, internal: Site) -> None:
    result = _load(f"{public.url}/to?u={public.url}/page?img={public.url}/none.png")
    assert isinstance(result, dict), result
    assert "calibration" in result["text"]
    assert result["url"].startswith(f"{public.url}/page?img=")
    assert internal.hits == []


def test_a_page_s_image_redirecting_to_a_refused_address_is_never_requested(
    public: Site, internal: Site
) -> None:
    image = f"{public.url}/to?u={internal.url}/paper.pdf"
    result = _load(f"{public.url}/page?img={image}")
    assert isinstance(result, dict), result
    assert "calibration" in result["text"]
    assert "/to?u=" + f"{internal.url}/paper.pdf" in public.hits  # the image was requested
    assert internal.hits == []  # but not where it redirects
