"""Medication tables whose text layer gives one cell per line.

A real medication list is often a table (``#  Medication  Strength  Directions  Prescriber``)
and a PDF's text layer gives its cells one per line, row after row. Read as a list under the
``Medication`` label, every cell became an item (row numbers, doses, directions, prescribers).
Here the column headings around the label are read as the table's header, the cells after it
are cut into rows of that width, and the rows are kept only when their alignment can be
checked: the cells fill whole rows, a row-number column counts 1, 2, 3 and a strength column
holds a strength in every row. A table that cannot be checked (an empty cell shifts the rest)
gives no items: the caller rejects it rather than guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Column headings of a medication table other than the drug's name.
_OTHER_COLUMN = re.compile(
    r"^(?:#|no\.?|s\.?\s*no\.?|strength|dose|dosage|directions?|sig|frequency|how\s+often|"
    r"route|prescriber|prescribed\s+by|qty|quantity|refills?|start(?:\s+date)?|"
    r"stop(?:\s+date)?|indication|reason|instructions?|notes?|form|status)$", re.IGNORECASE)
_NUMBER_COLUMN = re.compile(r"^(?:#|no\.?|s\.?\s*no\.?)$", re.IGNORECASE)
_STRENGTH_COLUMN = re.compile(r"^(?:strength|dose|dosage)$", re.IGNORECASE)
_NAME_COLUMN = re.compile(r"\b(?:medications?|medicines?|drugs?|name)\b", re.IGNORECASE)
_ROW_NUMBER = re.compile(r"^(\d{1,2})[.)]?$")
_STRENGTH = re.compile(r"^\d+(?:[.,]\d+)?\s*(?:mg|mcg|µg|ug|g|ml|units?|iu|%|meq)\b",
                       re.IGNORECASE)
_HEADING_CELL = re.compile(r"^[#A-Za-z][A-Za-z .#/()'’-]{0,24}$")
MAX_ROWS = 30


@dataclass(frozen=True)
class CellTable:
    """A medication table read from its cells: the items and the lines it spans."""

    items: list[str]
    first: int
    last: int


def _heading_cell(line: str) -> bool:
    text = line.strip()
    return bool(_HEADING_CELL.match(text)) and ":" not in text and len(text.split()) <= 3


def _header(lines: list[str], index: int) -> tuple[int, int] | None:
    """(first, last) line of the column-heading run around ``lines[index]`` when it is a
    table header: three or more heading cells, one of them a column other than the name."""
    if not _heading_cell(lines[index]):
        return None
    first = index
    while first > 0 and _OTHER_COLUMN.match(lines[first - 1].strip()):
        first -= 1
    last = index
    while last + 1 < len(lines) and _OTHER_COLUMN.match(lines[last + 1].strip()):
        last += 1
    if last - first + 1 < 3 or first == last:
        return None
    return first, last


def _aligned(rows: list[list[str]], header: list[str]) -> bool:
    """True when a row-number column counts 1, 2, 3 and a strength column holds a strength
    in every row (at least one of the two checks; every one present must pass)."""
    numbers = [k for k, h in enumerate(header) if _NUMBER_COLUMN.match(h)]
    strengths = [k for k, h in enumerate(header) if _STRENGTH_COLUMN.match(h)]
    if not numbers and not strengths:
        return False
    for count, row in enumerate(rows, start=1):
        found = _ROW_NUMBER.match(row[numbers[0]]) if numbers else None
        if numbers and (not found or int(found.group(1)) != count):
            return False
        if strengths and not _STRENGTH.match(row[strengths[0]]):
            return False
    return True


def _end_of_cells(lines: list[str], start: int, width: int) -> int:
    """Index after the last data cell: a blank line or a labelled line ends the table."""
    end = start
    while end < len(lines) and end - start < width * MAX_ROWS:
        text = lines[end].strip()
        if not text or (":" in text and not _STRENGTH.match(text)):
            break
        end += 1
    return end


def read_cell_table(lines: list[str], index: int) -> CellTable | None:
    """The medication table whose header holds ``lines[index]`` (the list's label).

    Returns:
        None when the label heads no table; a table with no items when the cells after the
        header cannot be cut into rows whose alignment checks out.
    """
    span = _header(lines, index)
    if span is None:
        return None
    first, last = span
    header = [line.strip() for line in lines[first: last + 1]]
    width = len(header)
    end = _end_of_cells(lines, last + 1, width)
    cells = [line.strip() for line in lines[last + 1: end]]
    count = len(cells) // width
    rows = [cells[k * width: (k + 1) * width] for k in range(count)]
    names = [k for k, h in enumerate(header) if _NAME_COLUMN.search(h)]
    if not rows or len(cells) % width or not names or not _aligned(rows, header):
        return CellTable([], first, max(last, end - 1))
    strengths = [k for k, h in enumerate(header) if _STRENGTH_COLUMN.match(h)]
    items = [" ".join(filter(None, [row[names[0]], row[strengths[0]] if strengths else ""]))
             for row in rows]
    return CellTable(items, first, last + count * width)
