"""Turning the domain's coded exceptions into Dagster failures (shared by workflow modules)."""

from typing import Any

import dagster as dg

from repro_assets.papers.notebook.errors import NotebookError


def coded_failure(exc: Exception, **metadata: Any) -> dg.Failure:
    """A ``dg.Failure`` whose description and metadata carry the exception's error code.

    Domain exceptions expose ``code`` (the seed's codes: E_PDF_CORRUPT, E_PLAN_NOT_READY ...);
    anything else is reported as ``E_UNKNOWN``. The description starts with the code once.
    """
    code = getattr(exc, "code", None) or "E_UNKNOWN"
    message = str(exc)
    description = message if message.startswith(code) else f"{code}: {message}"
    return dg.Failure(description=description, metadata={"code": code, **metadata})


def notebook_failure(exc: NotebookError, **metadata: Any) -> dg.Failure:
    """A coded failure of a notebook stage, with the failing cell, its error and traceback."""
    extra: dict[str, Any] = {}
    if exc.cell_index is not None:
        extra["cell_index"] = exc.cell_index
    if exc.ename:
        extra["error"] = f"{exc.ename}: {exc.evalue}"
    if exc.traceback:
        extra["traceback"] = dg.MetadataValue.md("```\n" + "\n".join(exc.traceback[-25:]) +
                                                 "\n```")
    return coded_failure(exc, **extra, **metadata)
