"""The papers workflow's ingest error (below ``pdf`` and ``sandbox``, which both raise it)."""

from __future__ import annotations

from repro_assets.errors import CodedError


class PaperIngestError(CodedError, ValueError):
    """Ingest rejected the input; ``code`` is the seed's error code (``str()``: code: message)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)
        self.args = (f"{code}: {message}",)
