"""Tables given as rows of cell strings (``find_tables`` output, tests), and cell iteration."""

from __future__ import annotations

from collections.abc import Sequence

from repro_assets.papers.tables.cells import (
    CellValue,
    column_decimals,
    is_numeric_cell,
    normalize_cell,
    parse_cell_values,
)
from repro_assets.papers.tables.model import ParsedTable


def split_header(rows: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    """Split leading rows without numbers (beyond the label column) off as the header."""
    n_header = 0
    for row in rows:
        if any(is_numeric_cell(c) for c in row[1:]):
            break
        n_header += 1
    header = [list(r) for r in rows[:n_header]]
    for row in header:  # forward-fill horizontal spans
        for col in range(2, len(row)):
            if not row[col].strip() and row[col - 1].strip():
                row[col] = row[col - 1]
    return header, [list(r) for r in rows[n_header:]]


def table_from_rows(
    rows: Sequence[Sequence[str | None]], page_no: int = 1, caption: str | None = None,
    number: str | None = None,
) -> ParsedTable:
    """Build a :class:`ParsedTable` from raw cell strings (e.g. a messy extraction)."""
    header, body = split_header([[(c or "").replace("\n", " ") if c and not _split_number(c)
                                  else (c or "") for c in row] for row in rows])
    width = max((len(r) for r in body), default=1)
    label_cols = next((c for c in range(width)
                       if any(is_numeric_cell(r[c]) for r in body if c < len(r))), 1) or 1
    return ParsedTable(page_no=page_no, number=number, caption=caption, header=header,
                       rows=body, method="given", label_cols=label_cols)


def _split_number(cell: str) -> bool:
    """A number split over lines by the text layer ('88 1\\n.') keeps its newline."""
    return "\n" in cell and bool(parse_cell_values(cell))


def table_cells(table: ParsedTable) -> list[tuple[str, str, CellValue, int]]:
    """Every numeric body cell as (row label, column label, value, column index)."""
    labels = table.column_labels()
    out = []
    for col in range(table.label_cols, len(labels)):
        decimals = column_decimals([r[col] for r in table.rows if col < len(r)])
        for index, row in enumerate(table.rows):
            if col >= len(row):
                continue
            for value in parse_cell_values(row[col], decimals):
                out.append((normalize_cell(table.row_label(index)), labels[col], value, col))
    return out
