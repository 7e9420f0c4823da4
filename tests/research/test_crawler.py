"""The Playwright crawler provider against a local site (issue #16 item 5), in real Chromium.

A local HTTP server serves a JavaScript-rendered page (its text exists only after the script
runs), a CAPTCHA page, a paywall (402), a slow page, and a robots.txt that disallows a folder.
Skipped only where Debian's Chromium is absent.
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from repro_assets.research.errors import (
    CaptchaError,
    PaywallError,
    ProviderTimeoutError,
    RobotsDisallowedError,
)
from repro_assets.research.providers.crawler import BrowserFetcher, CrawlerProvider
from repro_assets.research.providers.fetcher import PageFetcher
from repro_assets.research.ratelimit import RateLimiterRegistry
from tests.research.local_site import html, local_site

CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"),
]

RENDERED = "The Kappa river model improves flood forecasts by 20 percent in field trials."
JS_PAGE = f"""<!doctype html><html><head><title>Kappa</title></head><body>
<div id="app">Loading...</div>
<script>
  setTimeout(function () {{
    var p = document.createElement('p');
    p.textContent = {RENDERED!r};
    document.getElementById('app').replaceChildren(p);
    var a = document.createElement('a');
    a.href = '/second';
    a.textContent = 'more';
    document.body.appendChild(a);
  }}, 50);
</script></body></html>"""
SECOND = ("<html><head><title>Second</title></head><body><p>The second page says river "
          "forecasts need calibration against gauges.</p><a href='/private/x'>x</a></body>"
          "</html>")
CAPTCHA = ("<html><body><form action='/verify'><p>Please verify you are human</p>"
           "<div class='g-recaptcha'></div><button>I am not a robot</button></form>"
           "</body></html>")


@pytest.fixture(autouse=True)
def _loopback_allowed(monkeypatch):
    """The local site is on 127.0.0.1: allow private addresses (the outbound guard's setting)."""
    monkeypatch.setenv("REPRO_ALLOW_PRIVATE_FETCH", "1")


def _slow(query):
    time.sleep(4)
    return html("<p>late</p>")


ROUTES = {
    "/robots.txt": (200, "text/plain", b"User-agent: *\nDisallow: /private\n"),
    "/js": html(JS_PAGE),
    "/second": html(SECOND),
    "/captcha": html(CAPTCHA),
    "/paywall": html("<p>Subscribe to read</p>", status=402),
    "/slow": _slow,
    "/private/x": html("<p>secret</p>"),
}


def run(coro):
    return asyncio.run(coro)


def test_browser_renders_javascript_pages_the_http_fetcher_cannot():
    with local_site(dict(ROUTES)) as site:
        plain = run(PageFetcher().fetch(f"{site.url}/js"))
        assert RENDERED not in plain["text"]

        async def rendered():
            fetcher = BrowserFetcher()
            try:
                return await fetcher.fetch(f"{site.url}/js", timeout=20)
            finally:
                await fetcher.aclose()

        page = run(rendered())
    assert RENDERED in page["text"] and page["title"] == "Kappa"
    assert page["links"] == [f"{site.url}/second"]


def test_browser_reports_captcha_paywall_timeout_and_robots_as_obstacles():
    with local_site(dict(ROUTES)) as site:
        async def scenario():
            fetcher = BrowserFetcher()
            outcomes = {}
            try:
                for path, timeout in (("/captcha", 20), ("/paywall", 20), ("/slow", 1.5),
                                      ("/private/x", 20)):
                    try:
                        await fetcher.fetch(site.url + path, timeout=timeout)
                        outcomes[path] = None
                    except Exception as exc:  # the typed obstacle is what we check
                        outcomes[path] = type(exc)
            finally:
                await fetcher.aclose()
            return outcomes

        outcomes = run(scenario())
        assert not site.hits("/private/x")  # robots.txt: never requested
    assert outcomes == {"/captcha": CaptchaError, "/paywall": PaywallError,
                        "/slow": ProviderTimeoutError, "/private/x": RobotsDisallowedError}


def test_crawler_provider_follows_links_within_the_host_rate_limit():
    with local_site(dict(ROUTES)) as site:
        provider = CrawlerProvider(start_urls=[f"{site.url}/js"], max_pages=5, host_rps=2.0)
        provider.bind_limiter(RateLimiterRegistry())

        async def search():
            try:
                assert await provider.is_available()
                return await provider.search("river flood forecasts", 5)
            finally:
                await provider.aclose()

        results = run(search())
        pages = [t for t, p in site.log if p in ("/js", "/second")]
        assert not site.hits("/private/x")
    urls = [r["url"] for r in results]
    assert urls == [f"{site.url}/js", f"{site.url}/second"]
    assert RENDERED in results[0]["full_content"]
    assert all(r["source_name"] == "playwright" for r in results)
    # the per-host limit (2 rps) holds between page loads
    assert len(pages) == 2 and pages[1] - pages[0] >= 0.25  # half a slot: load jitter
    # the disallowed link was reported as an obstacle, not silently dropped
    assert [type(e) for _, e in provider.drain_obstacles()] == [RobotsDisallowedError]


def test_report_html_is_inert_in_chromium(tmp_path):
    from playwright.sync_api import sync_playwright

    from repro_assets.research.providers.crawler import BROWSER_ARGS
    from repro_assets.research.report import export, synthesize
    from tests.research.test_limits import xss_state

    report, _, _ = synthesize(xss_state(), None, False)
    written: dict[str, str] = {}
    export(report, lambda key, text: written.setdefault(key, text), "r")
    page_file = tmp_path / "report.html"
    page_file.write_text(written["r/report.html"])
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=BROWSER_ARGS,
            headless=True)
        try:
            page = context.new_page()
            page.goto(page_file.as_uri())
            page.wait_for_timeout(300)
            assert page.evaluate("() => window.__xss === undefined")
            assert "onerror" in page.inner_text("body")
        finally:
            context.close()
