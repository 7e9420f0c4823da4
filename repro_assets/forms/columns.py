"""Side-by-side blocks of a page read one column after the other.

A summary sheet often sets two parties next to each other under two short headings
("EMPLOYER" | "EMPLOYEE", "PETITIONER" | "BENEFICIARY"), one line of each per row. Plain
text extraction reads such a page row by row, so the two parties' lines interleave and no
label or heading stands next to its own value. This module finds that layout from the line
boxes alone (a row of two short headings, then rows whose lines all start at one of the two
heading columns and stay inside it) and returns the page's text with the left column's lines
first, then the right column's, the rest of the page in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from repro_assets.forms.text_cues import is_heading

ROW_POINTS = 3.0  # lines whose tops differ by less than this share a row
START_POINTS = 4.0  # a line starting this close to a column's left edge starts in it
GAP_POINTS = 12.0  # a left line must end this far before the right column starts
GAP_RATIO = 1.5  # a row further below the one above it than this many row pitches ends it
MIN_ROWS = 3  # the pair of columns must run at least this many rows under its headings
HEADING_WORDS = 4  # a column heading is a short line


@dataclass(frozen=True)
class TextLine:
    """One text line of a page with its box (PDF points, y down)."""

    x0: float
    y0: float
    x1: float
    text: str


def _rows(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    rows: list[list[TextLine]] = []
    for line in sorted(lines, key=lambda item: (item.y0, item.x0)):
        if rows and abs(rows[-1][0].y0 - line.y0) < ROW_POINTS:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [sorted(row, key=lambda item: item.x0) for row in rows]


def _heading_pair(row: list[TextLine], width: float) -> tuple[float, float] | None:
    if len(row) != 2:
        return None
    left, right = row
    if any(len(item.text.split()) > HEADING_WORDS or not is_heading(item.text) for item in row):
        return None  # "Patient Name: <name>" | "Physician: <name>" is a row of values
    if right.x0 < width * 0.35 or left.x1 > right.x0 - GAP_POINTS:
        return None
    return left.x0, right.x0


def _in_columns(row: list[TextLine], left: float, right: float) -> bool:
    starts_left = [item for item in row if abs(item.x0 - left) <= START_POINTS]
    starts_right = [item for item in row if abs(item.x0 - right) <= START_POINTS]
    if len(starts_left) + len(starts_right) != len(row) or len(starts_left) > 1 \
            or len(starts_right) > 1:
        return False
    return all(item.x1 <= right - GAP_POINTS for item in starts_left)


def column_order(lines: Sequence[TextLine], width: float) -> list[str] | None:
    """The page's lines with each two-column block read left column first, or None when the
    page has no such block.

    Args:
        lines: the page's text lines with their boxes.
        width: the page width.
    """
    rows = _rows(lines)
    out: list[str] = []
    found = False
    index = 0
    while index < len(rows):
        pair = _heading_pair(rows[index], width)
        end = index + 1
        if pair is not None:
            pitch = (rows[end][0].y0 - rows[index][0].y0) if end < len(rows) else 0.0
            while end < len(rows) and _in_columns(rows[end], *pair) \
                    and rows[end][0].y0 - rows[end - 1][0].y0 <= pitch * GAP_RATIO:
                end += 1
        if pair is None or end - index - 1 < MIN_ROWS:
            out += [item.text for item in rows[index]]
            index += 1
            continue
        block = rows[index:end]
        out += [row[0].text for row in block if abs(row[0].x0 - pair[0]) <= START_POINTS]
        out += [item.text for row in block for item in row
                if abs(item.x0 - pair[1]) <= START_POINTS]
        found = True
        index = end
    return out if found else None
