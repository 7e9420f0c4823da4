"""Results tables from PDFs: captions, table blocks, grids and cell values.

:mod:`.layout` (words, lines, rules, plots), :mod:`.reader` (captions and blocks; PyMuPDF
``find_tables`` for ruled blocks), :mod:`.grid` (columns, headers, row labels), :mod:`.cells`
(numbers as printed), :mod:`.rows` (tables given as rows) and :mod:`.model`.
"""

from repro_assets.papers.tables.cells import (
    CellValue,
    is_numeric_cell,
    parse_cell_value,
    parse_cell_values,
)
from repro_assets.papers.tables.model import ParsedTable
from repro_assets.papers.tables.reader import extract_tables, page_tables
from repro_assets.papers.tables.rows import split_header, table_cells, table_from_rows


def _text_layout_tables(page, page_no: int) -> list[ParsedTable]:  # type: ignore[no-untyped-def]
    """The tables of a page read from the word layout only (no ``find_tables``)."""
    return [t for t in page_tables(page, page_no, ruled=False)]


__all__ = [
    "CellValue", "ParsedTable", "_text_layout_tables", "extract_tables", "is_numeric_cell",
    "page_tables", "parse_cell_value", "parse_cell_values", "split_header", "table_cells",
    "table_from_rows",
]
