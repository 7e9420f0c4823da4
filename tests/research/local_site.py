"""A real HTTP server on loopback for the research tests: scripted routes, logged requests.

Each route maps a path to ``(status, content_type, body)`` or to a callable returning that
(called with the parsed query string). Every request is logged with ``time.monotonic()`` at
arrival, so tests can assert on the spacing between requests (a rate property).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

Reply = tuple[int, str, bytes]
Route = Reply | Callable[[dict[str, list[str]]], Reply]


@dataclass
class Site:
    """The running server: its base URL, routes and the request log."""

    url: str
    routes: dict[str, Route]
    log: list[tuple[float, str]] = field(default_factory=list)

    def hits(self, path: str) -> list[float]:
        """Arrival times of requests to ``path``."""
        return [t for t, p in self.log if p == path]


@contextmanager
def local_site(routes: dict[str, Route]) -> Iterator[Site]:
    """Serve ``routes`` on 127.0.0.1 (random port) until the block ends."""
    lock = threading.Lock()
    site = Site(url="", routes=routes)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            parts = urlsplit(self.path)
            with lock:
                site.log.append((time.monotonic(), parts.path))
            route = site.routes.get(parts.path)
            if route is None:
                status, ctype, body = 404, "text/plain", b"not found"
            elif callable(route):
                status, ctype, body = route(parse_qs(parts.query))
            else:
                status, ctype, body = route
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    site.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def html(body: str, status: int = 200) -> Reply:
    """An HTML reply."""
    return status, "text/html; charset=utf-8", body.encode("utf-8")
