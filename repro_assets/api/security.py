"""API security basics: optional API-key header and a streaming request-body limit.

* ``REPRO_API_KEY`` set -> every route that depends on :func:`require_api_key` needs the
  header ``X-API-Key: <key>`` (compared in constant time); unset -> open (local use).
* :class:`BodySizeLimitMiddleware` rejects bodies over the limit with 413 ``E_FILE_TOO_LARGE``
  from ``Content-Length`` before reading, and while streaming for chunked bodies, so no
  oversized upload is ever buffered. The limit is the largest *file* a request may carry: the
  body may exceed it by the multipart envelope (:data:`MULTIPART_ENVELOPE_BYTES`: boundaries,
  part headers, small form fields), and the upload handlers check the file's own size exactly,
  so a 15 MiB PDF is accepted and one byte more is refused.
"""

from __future__ import annotations

import hmac
import json
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from repro_assets import settings
from repro_assets.api.errors import ApiError

API_KEY_HEADER = "X-API-Key"
DEFAULT_MAX_BODY_BYTES = 15 * 1024 * 1024
#: What a multipart body may carry on top of the file limit.
MULTIPART_ENVELOPE_BYTES = 64 * 1024


def configured_api_key() -> str | None:
    """``REPRO_API_KEY`` or None."""
    key = settings.current().api.key
    return key or None


def key_matches(given: str, expected: str) -> bool:
    """Whether ``given`` is the configured key (constant-time, so timing reveals nothing)."""
    return hmac.compare_digest(given.encode(), expected.encode())


async def require_api_key(request: Request) -> None:
    """FastAPI dependency: check ``X-API-Key`` when a key is configured.

    Raises:
        ApiError: 401 ``unauthorized`` on a missing or wrong key.
    """
    expected = getattr(request.app.state, "api_key", None)
    if not expected:
        return
    given = request.headers.get(API_KEY_HEADER, "")
    if not key_matches(given, expected):
        raise ApiError(401, "unauthorized", f"missing or invalid {API_KEY_HEADER} header")


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when the streamed body passes the limit (413)."""

    def __init__(self, max_bytes: int) -> None:
        mib = max_bytes / (1024 * 1024)
        super().__init__(status_code=413, detail=f"request body exceeds {mib:.0f} MiB")


async def body_too_large_handler(request: Request, exc: Exception) -> JSONResponse:
    """Render :class:`BodyTooLarge` in the API's error shape."""
    detail = getattr(exc, "detail", "request body too large")
    return JSONResponse({"error": "E_FILE_TOO_LARGE", "message": detail}, status_code=413,
                        headers={"connection": "close"})


class BodySizeLimitMiddleware:
    """Pure ASGI middleware limiting request bodies to ``max_bytes`` plus an envelope.

    Args:
        app: the wrapped app.
        max_bytes: the largest file (or document) one request may carry.
        envelope_bytes: what the body may carry on top (multipart boundaries and headers).
    """

    def __init__(self, app: ASGIApp, max_bytes: int = DEFAULT_MAX_BODY_BYTES,
                 envelope_bytes: int = MULTIPART_ENVELOPE_BYTES) -> None:
        self.app = app
        self.file_limit = max_bytes
        self.max_bytes = max_bytes + envelope_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._reject(send)
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(self.file_limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._reject(send)

    async def _reject(self, send: Send) -> None:
        mib = self.file_limit / (1024 * 1024)
        body: dict[str, Any] = {"error": "E_FILE_TOO_LARGE",
                                "message": f"request body exceeds {mib:.0f} MiB"}
        payload = json.dumps(body).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": payload})


# --------------------------------------------------------------------------- cross-site guard
#: Host names a local API answers to by default: loopback names, and Starlette's TestClient
#: host (a single-label name no public DNS answers, so no page can rebind to it).
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "testserver"})
CROSS_SITE_CODE = "E_CROSS_SITE_REFUSED"


def _host_of(value: str) -> str:
    """The host name of a ``Host`` header value or an origin URL (lower case, no port)."""
    value = value.strip().lower()
    if "://" in value:
        value = value.split("://", 1)[1]
    value = value.split("/", 1)[0]
    if value.startswith("["):  # [::1]:8000
        return value[1:].split("]", 1)[0]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def allowed_hosts_from_env(cors_origins: list[str] | None = None) -> frozenset[str]:
    """Loopback names, ``REPRO_API_ALLOWED_HOSTS`` (comma-separated) and the CORS origins'
    hosts."""
    extra = {_host_of(h) for h in settings.split_list(settings.current().api.allowed_hosts)}
    extra |= {_host_of(o) for o in cors_origins or [] if o.strip()}
    return LOOPBACK_HOSTS | frozenset(extra)


def host_allowed(host: str, allowed: frozenset[str]) -> bool:
    """Whether ``host`` (no port) is allowed: listed, or a ``*.localhost`` name."""
    return host in allowed or host.endswith(".localhost") or "*" in allowed


class SiteGuardMiddleware:
    """Refuse cross-site requests to an API without a key (pure ASGI, HTTP and WebSocket).

    Without ``REPRO_API_KEY`` any web page the user visits could otherwise call the local API
    (a form POST, a fetch, a WebSocket) or read it after rebinding its DNS name to 127.0.0.1.
    So, when no key is configured:

    * the ``Host`` header must name an allowed host (:func:`allowed_hosts_from_env`; DNS
      rebinding sends the attacker's name);
    * an ``Origin`` header, when sent (browsers send it on every cross-origin request, every
      POST and every WebSocket), must name an allowed host or be a configured CORS origin;
    * ``Sec-Fetch-Site: cross-site`` without an ``Origin`` (an image, a link) is refused
      unless its ``Referer`` names an allowed host (the Dagster UI showing an API image).

    A refused HTTP request is answered 403 ``E_CROSS_SITE_REFUSED``; a WebSocket is closed
    (1008) before it is accepted. With a key, the key is the check (a page cannot know it).
    Independently, an ``api_key`` query parameter is removed from every request before any
    handler or access log sees it: keys travel in headers (or a WebSocket's first message).
    """

    def __init__(self, app: ASGIApp, allowed_hosts: frozenset[str],
                 cors_origins: list[str] | None = None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.cors_origins = {o.strip().rstrip("/").lower() for o in cors_origins or []}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        _scrub_api_key(scope)
        state = getattr(scope.get("app"), "state", None)
        reason = None
        if not getattr(state, "api_key", None):
            reason = self.refusal(dict(scope.get("headers") or []))
        if reason is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})
        else:
            payload = json.dumps({"error": CROSS_SITE_CODE, "message": reason}).encode()
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(payload)).encode())]})
            await send({"type": "http.response.body", "body": payload})

    def refusal(self, headers: dict[bytes, bytes]) -> str | None:
        """Why a request with these headers is refused (None: allowed)."""
        host = _host_of(headers.get(b"host", b"").decode("latin-1"))
        if not host_allowed(host, self.allowed_hosts):
            return (f"host {host or '(none)'!r} is not an allowed name of this API "
                    "(REPRO_API_ALLOWED_HOSTS, or set REPRO_API_KEY)")
        origin = headers.get(b"origin", b"").decode("latin-1").strip()
        if origin and origin.rstrip("/").lower() not in self.cors_origins and (
                origin == "null" or not host_allowed(_host_of(origin), self.allowed_hosts)):
            return (f"cross-site request from {origin[:100]!r} refused (list the origin in "
                    "REPRO_API_CORS_ORIGINS, or set REPRO_API_KEY)")
        if headers.get(b"sec-fetch-site", b"").decode("latin-1").lower() == "cross-site" \
                and not origin:
            # an image or link from another local site (the Dagster UI on localhost:3000)
            # names its page in Referer; a page elsewhere, or one hiding its address, is refused
            referer = headers.get(b"referer", b"").decode("latin-1")
            if not referer or not host_allowed(_host_of(referer), self.allowed_hosts):
                return "cross-site request refused (set REPRO_API_KEY to allow it)"
        return None


def _scrub_api_key(scope: Scope) -> None:
    """Remove ``api_key`` from the query string in place (uvicorn logs the scope's)."""
    query = scope.get("query_string") or b""
    if b"api_key" not in query.lower():
        return
    kept = [part for part in query.split(b"&")
            if part.split(b"=", 1)[0].lower() != b"api_key"]
    scope["query_string"] = b"&".join(kept)


# --------------------------------------------------------------------------- response headers
#: Content-Security-Policy of the HTML the API serves (the page, and /docs whose Swagger UI
#: loads from jsDelivr): its own scripts, no framing, no plugins, requests to itself only.
HTML_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; "
            "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"same-origin")]


class SecurityHeadersMiddleware:
    """Add ``nosniff``, ``X-Frame-Options: DENY`` and a referrer policy to every answer, and
    :data:`HTML_CSP` to HTML ones (pure ASGI: streaming answers are not buffered)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {name.lower() for name, _ in headers}
                headers += [h for h in SECURITY_HEADERS if h[0] not in present]
                content_type = dict(headers).get(b"content-type", b"")
                if content_type.startswith(b"text/html") \
                        and b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", HTML_CSP.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
