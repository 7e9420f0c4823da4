"""Outbound fetches refuse internal addresses (issue #17, item 2: SSRF).

Real HTTP servers on loopback (127.0.0.1 and 127.0.0.2) stand in for internal services; a
stub resolver stands in for DNS where a test needs a name that resolves to some address.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from fastapi.testclient import TestClient

from repro_assets import net
from repro_assets.papers.ingest import fetch_pdf, read_source
from repro_assets.papers.pdf import PaperIngestError
from tests.pdfs import PAPER_PAGES, make_pdf

PDF = make_pdf(PAPER_PAGES, title="Internal only")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    hits: list[str]

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet."""

    def do_GET(self) -> None:  # noqa: N802
        """/paper.pdf, /to?u=URL (302), /chain/N, /big (chunked), /declared (huge length)."""
        self.hits.append(self.path)
        if self.path == "/paper.pdf":
            self._send(200, PDF, "application/pdf")
        elif self.path.startswith("/to?u="):
            self.send_response(302)
            self.send_header("Location", self.path[len("/to?u="):])
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path.startswith("/chain/"):
            left = int(self.path.rsplit("/", 1)[1])
            self.send_response(302)
            self.send_header("Location", f"/chain/{left - 1}" if left else "/paper.pdf")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path == "/big":
            self.send_response(200)
            self.send_header("Content-Type", "application/pdf")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                chunk = b"%PDF-1.7\n" + b"0" * 65527
                for _ in range(64):  # 4 MiB unless the client stops reading
                    self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
        elif self.path.startswith("/page?img="):
            img = self.path[len("/page?img="):]
            page = (f"<html><head><title>Page</title></head><body><p>Flood forecasts need "
                    f"calibration.</p><img src='{img}'></body></html>").encode()
            self._send(200, page, "text/html")
        elif self.path == "/declared":
            self.send_response(200)
            self.send_header("Content-Type", "application/pdf")
            self.send_header("Content-Length", str(10 ** 9))
            self.end_headers()
        else:
            self._send(404, b"no", "text/plain")

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Site:
    """A loopback HTTP server on ``host`` (port 0) with a request log."""

    def __init__(self, host: str) -> None:
        self.hits: list[str] = []
        handler = type("Handler", (_Handler,), {"hits": self.hits})
        self.httpd = ThreadingHTTPServer((host, 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://{host}:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def site() -> Iterator[Site]:
    server = Site("127.0.0.1")
    yield server
    server.close()


@pytest.fixture()
def mirror() -> Iterator[Site]:
    """A second internal server, on 127.0.0.2 (allow-listed by the tests that use it)."""
    server = Site("127.0.0.2")
    yield server
    server.close()


@pytest.fixture(autouse=True)
def _closed_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPRO_ALLOW_PRIVATE_FETCH", raising=False)
    monkeypatch.delenv("REPRO_FETCH_ALLOWLIST", raising=False)


def _code(source: str, **kwargs: Any) -> str:
    with pytest.raises(PaperIngestError) as info:
        read_source(source, **kwargs)
    return info.value.code


# --------------------------------------------------------------------------- URL ingest
def test_url_ingest_refuses_loopback(site: Site) -> None:
    assert _code(site.url + "/paper.pdf") == "E_FETCH_BLOCKED"
    assert site.hits == []  # refused before connecting


@pytest.mark.parametrize("host", [
    "localhost", "127.0.0.1", "0.0.0.0", "[::1]", "[::ffff:127.0.0.1]", "2130706433",
    "169.254.169.254", "10.1.2.3", "172.16.0.1", "192.168.1.1", "100.64.0.1", "[fd00::1]",
    "[fe80::1]", "224.0.0.1",
])
def test_every_kind_of_internal_address_is_refused(host: str) -> None:
    assert _code(f"http://{host}/latest/meta-data/") == "E_FETCH_BLOCKED"


def test_case_and_chained_urls_do_not_bypass_the_guard(site: Site) -> None:
    assert _code(site.url.replace("http", "HTTP") + "/paper.pdf") == "E_FETCH_BLOCKED"
    assert _code(f"simplecache::{site.url}/paper.pdf") == "E_FETCH_BLOCKED"
    assert site.hits == []


def test_allowed_by_setting(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_ALLOW_PRIVATE_FETCH", "1")
    assert fetch_pdf(site.url + "/paper.pdf") == PDF


def test_allow_list_admits_one_network_and_redirects_are_rechecked(
    site: Site, mirror: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPRO_FETCH_ALLOWLIST", "127.0.0.2/32")
    assert fetch_pdf(mirror.url + "/paper.pdf") == PDF
    # the allowed mirror redirects to another internal address: the hop is refused
    assert _code(f"{mirror.url}/to?u={site.url}/paper.pdf") == "E_FETCH_BLOCKED"
    assert site.hits == []
    # a redirect within the allowed network is followed
    assert fetch_pdf(f"{mirror.url}/to?u={mirror.url}/paper.pdf") == PDF


def test_redirects_are_limited(mirror: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_FETCH_ALLOWLIST", "127.0.0.2")
    assert fetch_pdf(f"{mirror.url}/chain/{net.MAX_REDIRECTS - 1}") == PDF
    assert _code(f"{mirror.url}/chain/{net.MAX_REDIRECTS + 2}") == "E_FETCH_FAILED"


def test_size_is_capped_while_streaming(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_ALLOW_PRIVATE_FETCH", "true")
    assert _code(site.url + "/big", max_bytes=1024 * 1024) == "E_FILE_TOO_LARGE"
    assert _code(site.url + "/declared", max_bytes=1024 * 1024) == "E_FILE_TOO_LARGE"


# --------------------------------------------------------------------------- resolved addresses
@pytest.fixture()
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """A stub resolver: name -> addresses (literal addresses resolve to themselves)."""
    table: dict[str, list[str]] = {}
    real = net.resolve

    def resolve(host: str, port: int) -> list[Any]:
        if host in table:
            return [ipaddress.ip_address(a) for a in table[host]]
        return real(host, port)

    monkeypatch.setattr(net, "resolve", resolve)
    return table


def test_the_resolved_address_is_checked_not_the_name(dns: dict[str, list[str]]) -> None:
    dns["papers.example.org"] = ["10.0.0.7"]
    assert _code("https://papers.example.org/paper.pdf") == "E_FETCH_BLOCKED"
    dns["mixed.example.org"] = ["93.184.215.14", "127.0.0.1"]  # one bad record is enough
    assert _code("https://mixed.example.org/paper.pdf") == "E_FETCH_BLOCKED"
    dns["v6.example.org"] = ["64:ff9b::a00:1"]  # NAT64 of 10.0.0.1
    assert _code("https://v6.example.org/paper.pdf") == "E_FETCH_BLOCKED"


def test_the_connection_goes_to_the_checked_address(
    site: Site, dns: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No second lookup: what was checked is what is connected to (no DNS rebinding)."""
    port = site.url.rsplit(":", 1)[1]
    monkeypatch.setenv("REPRO_FETCH_ALLOWLIST", "127.0.0.1/32")
    dns["rebind.example.org"] = ["127.0.0.1"]
    assert fetch_pdf(f"http://rebind.example.org:{port}/paper.pdf") == PDF
    assert site.hits == ["/paper.pdf"]


def test_policy_from_env_rejects_garbage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_FETCH_ALLOWLIST", "minio, 10.20.0.0/16, bad host!")
    with pytest.raises(ValueError, match="bad host"):
        net.FetchPolicy.from_env()
    monkeypatch.setenv("REPRO_FETCH_ALLOWLIST", "MinIO., 10.20.0.0/16")
    policy = net.FetchPolicy.from_env()
    assert policy.host_allowed("minio") and policy.address_allowed(
        ipaddress.ip_address("10.20.3.4"))
    assert not policy.address_allowed(ipaddress.ip_address("10.21.0.1"))


# --------------------------------------------------------------------------- through the API
def test_api_url_ingest_refuses_internal_addresses(client: TestClient, site: Site) -> None:
    answer = client.post("/api/v1/papers/ingest", json={"url": site.url + "/paper.pdf"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "E_FETCH_BLOCKED"
    metadata = client.post("/api/v1/papers/ingest",
                           json={"url": "http://169.254.169.254/latest/meta-data/iam/"})
    assert metadata.status_code == 400 and metadata.json()["error"] == "E_FETCH_BLOCKED"
    assert site.hits == []


# --------------------------------------------------------------------------- research fetchers
def test_research_page_fetcher_refuses_internal_addresses(
    site: Site, mirror: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    from repro_assets.research.errors import OutboundURLRejected, RobotsDisallowedError
    from repro_assets.research.providers.fetcher import PageFetcher

    # robots.txt is refused first (so the page counts as disallowed): nothing reaches the site
    with pytest.raises((OutboundURLRejected, RobotsDisallowedError)):
        asyncio.run(PageFetcher().fetch(site.url + "/paper.pdf", timeout=5))
    assert site.hits == []
    monkeypatch.setenv("REPRO_FETCH_ALLOWLIST", "127.0.0.2")
    with pytest.raises(OutboundURLRejected):  # an allowed page redirecting inside
        asyncio.run(PageFetcher().fetch(f"{mirror.url}/to?u={site.url}/paper.pdf", timeout=5))
    assert site.hits == []


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="no Chromium")
def test_browser_crawler_refuses_a_page_s_requests_to_internal_addresses(
    site: Site, mirror: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    from repro_assets.research.providers.crawler import BrowserFetcher

    monkeypatch.setenv("REPRO_FETCH_ALLOWLIST", "127.0.0.2")

    async def load() -> dict[str, Any]:
        fetcher = BrowserFetcher()
        try:
            return await fetcher.fetch(f"{mirror.url}/page?img={site.url}/paper.pdf",
                                       timeout=20)
        finally:
            await fetcher.aclose()

    page = asyncio.run(load())
    assert "calibration" in page["text"]
    assert site.hits == []  # the page's image on 127.0.0.1 was never requested
