"""API errors: ``raise ApiError(status, code, message)`` -> ``{"error": code, "message": ...}``.

Errors the framework raises itself (no route, wrong method, a body Starlette cannot parse,
request validation) are answered in the same shape, with a code per status
(:data:`HTTP_CODES`; validation errors: ``invalid_request`` plus the ``errors`` list), so a
client always gets a machine-readable code.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from repro_assets.errors import CodedError
from repro_assets.settings import SettingsError

log = logging.getLogger(__name__)

#: The code of a framework error by HTTP status (anything else: ``http_<status>``).
HTTP_CODES: dict[int, str] = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "E_FILE_TOO_LARGE",
    415: "E_UNSUPPORTED_MEDIA_TYPE",
    422: "invalid_request",
}


class ApiError(CodedError):
    """An error answered with the seed's error code.

    Args:
        status_code: HTTP status.
        code: machine-readable code (``no_input_docs``, ``E_FILE_TOO_LARGE`` ...).
        message: human-readable message.
        extra: additional JSON fields (e.g. ``run_id``).
        headers: response headers (e.g. ``Retry-After``).
    """

    def __init__(self, status_code: int, code: str, message: str,
                 extra: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message, code=code)
        self.status_code = status_code
        self.extra = dict(extra or {})
        self.headers = dict(headers or {})

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
    return JSONResponse(exc.body(), status_code=exc.status_code, headers=exc.headers or None)


async def _handle_http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    return JSONResponse({"error": code, "message": str(exc.detail)},
                        status_code=exc.status_code, headers=exc.headers)


async def _handle_validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = jsonable_encoder(exc.errors())
    where = "; ".join(".".join(str(p) for p in e.get("loc", ())) + ": " + str(e.get("msg", ""))
                      for e in errors[:5])
    return JSONResponse({"error": "invalid_request", "message": f"invalid request: {where}",
                         "errors": errors}, status_code=422)


#: Exception type names (anywhere in the cause chain) meaning the database is unreachable:
#: psycopg's and psycopg2's OperationalError (AdminShutdown, connection refused ...), a pool
#: timeout, SQLAlchemy's wrapper of them (Dagster's storage).
_DB_DOWN_TYPES = ("OperationalError", "PoolTimeout", "TooManyRequests", "InterfaceError")
_DB_MODULES = ("psycopg", "psycopg2", "psycopg_pool", "sqlalchemy")


def database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception it was raised from) says the database is unreachable."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        for cls in type(current).__mro__:
            if cls.__name__ in _DB_DOWN_TYPES and cls.__module__.split(".")[0] in _DB_MODULES:
                return True
        current = current.__cause__ or current.__context__
    return False


async def _handle_unexpected(request: Request, exc: Exception) -> JSONResponse:
    """Every exception no other handler took: coded JSON, never a plain-text 500.

    A database that cannot be reached is 503 ``E_DB_UNAVAILABLE`` (retry later); a server
    variable set to a value of the wrong type 500 ``E_BAD_SETTING`` naming the variable (not
    its value: the operator's to fix, nothing the client can change); anything else 500
    ``E_INTERNAL`` (RecursionError from a deeply nested body included). The exception is
    logged with its traceback; the answer names only its type.
    """
    if database_unavailable(exc):
        log.warning("database unavailable during %s %s: %s", request.method, request.url.path,
                    type(exc).__name__)
        return JSONResponse({"error": "E_DB_UNAVAILABLE",
                             "message": "the database is unavailable; retry shortly"},
                            status_code=503, headers={"Retry-After": "5"})
    if isinstance(exc, SettingsError):
        log.error("bad server setting during %s %s: %s", request.method, request.url.path,
                  exc.message)
        variable = exc.details.get("variable")
        return JSONResponse({"error": exc.code, "variable": variable,
                             "message": f"the server's environment variable {variable} has a "
                                        "value of the wrong type; an operator must fix it"},
                            status_code=500)
    log.error("unexpected %s during %s %s", type(exc).__name__, request.method,
              request.url.path, exc_info=exc)
    return JSONResponse({"error": "E_INTERNAL",
                         "message": f"internal error ({type(exc).__name__})"}, status_code=500)


def install(app: FastAPI) -> None:
    """Register the :class:`ApiError` handler, the coded framework-error handlers and the one
    handler of every other exception (:func:`_handle_unexpected`)."""
    app.add_exception_handler(ApiError, _handle)
    app.add_exception_handler(StarletteHTTPException, _handle_http)
    app.add_exception_handler(RequestValidationError, _handle_validation)
    app.add_exception_handler(Exception, _handle_unexpected)
