"""The parsed-table model shared by the PDF readers and the claims layer."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class ParsedTable(BaseModel):
    """A table found on a page: header rows, body rows (cell strings) and its caption.

    ``header`` and ``rows`` are aligned to the same columns; the first ``label_cols`` columns
    name the row (method, model, dataset...), the others hold values. ``groups`` gives, per
    body row, the group title in force ("Our NMT systems"); ``title`` is a sub-table title or
    sub-caption ("(b) Faster R-CNN, R50-C4", "COCO keypoint detection").
    """

    model_config = ConfigDict(extra="forbid")

    page_no: int = Field(description="1-based page number.")
    number: str | None = Field(default=None, description="Table number from the caption.")
    kind: Literal["table", "figure"] = Field(
        default="table", description="'figure' for a results table captioned 'Figure N'."
    )
    caption: str | None = Field(default=None, description="Caption text, if found.")
    header: list[list[str]] = Field(description="Header rows (spans filled).")
    rows: list[list[str]] = Field(description="Body rows; the first label_cols cells name it.")
    method: Literal["find_tables", "text_layout", "given"] = Field(
        description="How the table was found."
    )
    label_cols: int = Field(default=1, description="Leading columns that name the row.")
    groups: list[str] = Field(default_factory=list, description="Group title per body row.")
    title: str | None = Field(default=None, description="Sub-table title or sub-caption.")
    bold: list[list[bool]] = Field(
        default_factory=list, description="Per body cell: printed in bold."
    )

    @property
    def label(self) -> str:
        """'Table 2' / 'Figure 3' (or 'Results table' without a number)."""
        if not self.number:
            return "Results table"
        return f"{'Figure' if self.kind == 'figure' else 'Table'} {self.number}"

    def column_labels(self) -> list[str]:
        """One label per column: header rows joined top to bottom."""
        width = max((len(r) for r in [*self.header, *self.rows]), default=0)
        return [self.column_label(col) for col in range(width)]

    def column_label(self, col: int) -> str:
        """The label of one column (``column_labels()[col]``, without joining every column:
        per cell, that was quadratic in a wide table's columns)."""
        return _join(self.column_header(col))

    def column_header(self, col: int) -> list[str]:
        """The header texts of a column, top to bottom (duplicates of a span removed)."""
        parts = [row[col].strip() for row in self.header if col < len(row) and row[col].strip()]
        return list(dict.fromkeys(parts))

    def row_label(self, index: int) -> str:
        """The label of a body row: its label cells joined."""
        row = self.rows[index]
        parts = [c.strip() for c in row[: self.label_cols] if c.strip()]
        return _join(list(dict.fromkeys(parts)))

    def label_headers(self) -> list[str]:
        """Headers of the label columns ('Method', 'Dataset', ...)."""
        return [_join(self.column_header(c)) for c in range(self.label_cols)]


def _join(parts: list[str]) -> str:
    label = " ".join(parts)
    return re.sub(r"\s+([.,;:%)])", r"\1", re.sub(r"\s+", " ", label)).strip()
