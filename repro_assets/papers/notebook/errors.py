"""Typed errors of the notebook stages (seed 000, stages 5-6), each with a project error code."""

from __future__ import annotations

from typing import Any

from repro_assets.errors import CodedError

#: Error codes raised by the notebook stages.
E_PARAMETER_INVALID = "E_PARAMETER_INVALID"
E_PARAMETER_INJECTION = "E_PARAMETER_INJECTION"
E_NOTEBOOK_INVALID = "E_NOTEBOOK_INVALID"
E_BUDGET_EXCEEDED = "E_BUDGET_EXCEEDED"
E_NOTEBOOK_CELL_FAILED = "E_NOTEBOOK_CELL_FAILED"
E_KERNEL_FAILED = "E_KERNEL_FAILED"
E_METRICS_MISSING = "E_METRICS_MISSING"
E_PLAN_NOT_FOUND = "E_PLAN_NOT_FOUND"
E_NOTEBOOK_NOT_FOUND = "E_NOTEBOOK_NOT_FOUND"
E_RUN_NOT_FOUND = "E_RUN_NOT_FOUND"


class NotebookError(CodedError, RuntimeError):
    """A notebook could not be generated or executed.

    Attributes:
        code: project error code (``E_BUDGET_EXCEEDED``, ``E_NOTEBOOK_CELL_FAILED`` ...).
        cell_index: index of the failing cell in the executed notebook, when known.
        ename: exception class raised in the cell.
        evalue: exception message raised in the cell.
        traceback: the cell's traceback lines (ANSI colours removed).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        cell_index: int | None = None,
        ename: str | None = None,
        evalue: str | None = None,
        traceback: list[str] | None = None,
    ) -> None:
        super().__init__(message, code=code)
        self.cell_index = cell_index
        self.ename = ename
        self.evalue = evalue
        self.traceback = traceback or []

    def as_dict(self) -> dict[str, Any]:
        """JSON-able description for storage and metadata."""
        return {
            "code": self.code,
            "message": str(self),
            "cell_index": self.cell_index,
            "ename": self.ename,
            "evalue": self.evalue,
            "traceback": self.traceback[-20:],
        }
