"""The project's coded-error base class.

Every error that reaches a user (the CLI, the API, an asset's failure metadata) carries a
machine-readable ``code`` (``E_...`` or a seed's lower-case code), a human-readable message and
optional JSON-able details. Each area's error root derives from :class:`CodedError` (and, where
callers catch it so, from the built-in it always was: ``RuntimeError``, ``ValueError``,
``LookupError``), keeping its own name, code and constructor.
"""

from __future__ import annotations

from typing import Any


class CodedError(Exception):
    """An error with a project error code.

    Attributes:
        code: the error code; a subclass declares its default as a class attribute.
        message: the human-readable message (without the code).
        details: JSON-able details for the API and failure metadata ({} when none).
    """

    code: str = "E_INTERNAL"

    def __init__(self, message: str = "", *, code: str | None = None,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.details: dict[str, Any] = details if details is not None else {}

    def error_dict(self) -> dict[str, Any]:
        """``{"code", "message", "details"}``: the error as JSON-able data."""
        return {"code": str(self.code), "message": self.message, "details": self.details}
