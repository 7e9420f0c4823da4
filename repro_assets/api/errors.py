"""API errors: ``raise ApiError(status, code, message)`` -> ``{"error": code, "message": ...}``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse


class ApiError(Exception):
    """An error answered with the seed's error code.

    Args:
        status_code: HTTP status.
        code: machine-readable code (``no_input_docs``, ``E_FILE_TOO_LARGE`` ...).
        message: human-readable message.
        extra: additional JSON fields (e.g. ``run_id``).
    """

    def __init__(self, status_code: int, code: str, message: str,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.code = code
        self.message = message
        self.extra = dict(extra or {})

    def body(self) -> dict[str, Any]:
        """The JSON body."""
        return {"error": self.code, "message": self.message, **self.extra}


def error_response(status_code: int, code: str, message: str,
                   extra: dict[str, Any] | None = None) -> JSONResponse:
    """A JSON error response in the API's error shape."""
    return JSONResponse(ApiError(status_code, code, message, extra).body(),
                        status_code=status_code)


async def _handle(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.body(), status_code=exc.status_code)


def install(app: FastAPI) -> None:
    """Register the :class:`ApiError` handler."""
    app.add_exception_handler(ApiError, _handle)
