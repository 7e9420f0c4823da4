"""Turning the domain's coded exceptions into Dagster failures (shared by workflow modules)."""

from typing import Any

import dagster as dg


def coded_failure(exc: Exception, **metadata: Any) -> dg.Failure:
    """A ``dg.Failure`` whose description and metadata carry the exception's error code.

    Domain exceptions expose ``code`` (the seed's codes: E_PDF_CORRUPT, E_PLAN_NOT_READY ...);
    anything else is reported as ``E_UNKNOWN``. The description starts with the code once.
    """
    code = getattr(exc, "code", None) or "E_UNKNOWN"
    message = str(exc)
    description = message if message.startswith(code) else f"{code}: {message}"
    return dg.Failure(description=description, metadata={"code": code, **metadata})
