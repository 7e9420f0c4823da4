"""The browser crawler reads no body past the fetcher's cap (issue #27), in the real Chromium.

Playwright's ``route.fetch`` reads a whole body into its driver's memory; the crawler's route
handler streams each response itself and stops past ``max_bytes``. A loopback server (127.0.0.2,
allow-listed) serves pages whose bodies are over the cap, with and without a declared length,
and one that never ends: the page fails with ``E_UNSUPPORTED_CONTENT`` and the server is not
read to the end; a page under the cap whose image is over it still renders.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from repro_assets.research.errors import ResearchError

pytest.importorskip("playwright.async_api")
pytestmark = [
    pytest.mark.reliability,
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"),
                       reason="no Chromium at /usr/bin/chromium (apt-get install chromium)"),
]

CAP = 64 * 1024
PAGE = b"<html><head><title>Small page</title></head><body><p>Tide tables of Wexmoor.</p>"


class _Handler(BaseHTTPRequestHandler):
    sent: dict[str, int]

    def log_message(self, *_args: Any) -> None:
        pass

    def _html(self, body: bytes, *, declare: bool = True) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        if declare:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        self._write(body)

    def _write(self, body: bytes) -> None:
        try:
            self.wfile.write(body)
        except OSError:
            pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        path = self.path
        if path == "/robots.txt":
            self.send_error(404)
        elif path == "/big-declared":
            self._html(PAGE + b"x" * (4 * CAP))
        elif path == "/big-undeclared":
            self._html(PAGE + b"x" * (4 * CAP), declare=False)
        elif path == "/endless":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Connection", "close")
            self.end_headers()
            sent = 0
            try:
                while sent < 2 * 1024 * 1024 * 1024:  # 2 GiB unless the reader stops
                    self.wfile.write(b"y" * 65536)
                    sent += 65536
            except OSError:
                pass
            finally:
                self.sent[path] = sent
        elif path == "/with-big-image":
            self._html(PAGE + b'<img src="/huge.png"></body></html>')
        elif path == "/huge.png":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(8 * CAP))
            self.end_headers()
            self._write(b"\x89PNG" + b"z" * (8 * CAP - 4))
        else:
            self.send_error(404)


class _Site:
    def __init__(self, host: str) -> None:
        self.sent: dict[str, int] = {}
        handler = type("Handler", (_Handler,), {"sent": self.sent})
        self.httpd = ThreadingHTTPServer((host, 0), handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://{host}:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def site(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Site]:
    monkeypatch.delenv("REPRO_ALLOW_PRIVATE_FETCH", raising=False)
    monkeypatch.setenv("REPRO_FETCH_ALLOWLIST", "127.0.0.2")
    server = _Site("127.0.0.2")
    yield server
    server.close()


def _load(url: str) -> dict[str, Any] | ResearchError:
    from repro_assets.research.providers.crawler import BrowserFetcher

    async def load() -> dict[str, Any] | ResearchError:
        fetcher = BrowserFetcher(max_bytes=CAP)
        try:
            return await fetcher.fetch(url, timeout=20)
        except ResearchError as exc:
            return exc
        finally:
            await fetcher.aclose()

    return asyncio.run(load())


@pytest.mark.parametrize("path", ["/big-declared", "/big-undeclared"])
def test_a_page_over_the_cap_is_refused_with_a_code(site: _Site, path: str) -> None:
    result = _load(site.url + path)
    assert isinstance(result, ResearchError), result
    assert result.code == "E_UNSUPPORTED_CONTENT"
    assert f"{CAP:,} bytes" in str(result)


def test_an_endless_body_is_not_read_to_the_end(site: _Site) -> None:
    result = _load(site.url + "/endless")
    assert isinstance(result, ResearchError), result
    assert result.code == "E_UNSUPPORTED_CONTENT"
    deadline = time.monotonic() + 10
    while "/endless" not in site.sent and time.monotonic() < deadline:
        time.sleep(0.05)
    assert site.sent.get("/endless", 0) < 256 * 1024 * 1024  # the reader hung up early


def test_a_page_under_the_cap_renders_without_its_oversized_image(site: _Site) -> None:
    result = _load(site.url + "/with-big-image")
    assert isinstance(result, dict), result
    assert "Tide tables of Wexmoor" in result["text"]
