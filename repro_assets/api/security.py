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
import os
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from repro_assets.api.errors import ApiError

API_KEY_HEADER = "X-API-Key"
DEFAULT_MAX_BODY_BYTES = 15 * 1024 * 1024
#: What a multipart body may carry on top of the file limit.
MULTIPART_ENVELOPE_BYTES = 64 * 1024


def configured_api_key() -> str | None:
    """``REPRO_API_KEY`` or None."""
    key = os.environ.get("REPRO_API_KEY", "").strip()
    return key or None


async def require_api_key(request: Request) -> None:
    """FastAPI dependency: check ``X-API-Key`` when a key is configured.

    Raises:
        ApiError: 401 ``unauthorized`` on a missing or wrong key.
    """
    expected = getattr(request.app.state, "api_key", None)
    if not expected:
        return
    given = request.headers.get(API_KEY_HEADER, "")
    if not hmac.compare_digest(given.encode(), expected.encode()):
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
