"""Results tables from PDFs: PyMuPDF ``find_tables()`` plus a text-layout fallback.

Real PDFs are messy. ``find_tables()`` often returns cells whose numbers are split over lines
(``"982\\n."`` for 98.2, ``"88 1\\n."`` for 88.1) and drops spaces in labels; booktabs tables
without vertical rules are frequently not found at all. So:

1. ``find_tables()`` gives the table structure (cell boxes); each cell's text is re-read with a
   clip on its box, which restores reading order in most cases.
2. Pages that print a "Table N" caption but where ``find_tables()`` found nothing numeric are
   parsed from word positions: words are grouped into lines by their baseline, lines with two
   or more numbers form the body, the line above is the header, and cells are assigned to
   columns by their horizontal centre.
3. Every numeric cell goes through :func:`parse_cell_value`, which repairs split numbers and
   ignores standard deviations, footnote marks and dashes for missing cells.
"""

from __future__ import annotations

import itertools
import logging
import re
import statistics
import unicodedata
from dataclasses import dataclass
from typing import Literal

import pymupdf
from pydantic import BaseModel, ConfigDict, Field

log = logging.getLogger(__name__)

_MISSING = {"", "-", "--", "–", "—", "n/a", "na", "n.a.", "×", "x", "?", "/"}
_CAPTION_RE = re.compile(r"^\s*(Table|Tab\.)\s*(\d+|[IVX]+)\s*[:.]", re.IGNORECASE)


class ParsedTable(BaseModel):
    """A table found on a page: header rows, body rows (cell strings) and its caption."""

    model_config = ConfigDict(extra="forbid")

    page_no: int = Field(description="1-based page number.")
    number: str | None = Field(default=None, description="Table number from the caption.")
    caption: str | None = Field(default=None, description="Caption text, if found.")
    header: list[list[str]] = Field(description="Header rows (spans forward-filled).")
    rows: list[list[str]] = Field(description="Body rows; first cell is the row label.")
    method: Literal["find_tables", "text_layout", "given"] = Field(
        description="How the table was found."
    )

    def column_labels(self) -> list[str]:
        """One label per column: header rows joined top to bottom."""
        width = max((len(r) for r in [*self.header, *self.rows]), default=0)
        labels = []
        for col in range(width):
            parts = [row[col] for row in self.header if col < len(row) and row[col].strip()]
            label = " ".join(dict.fromkeys(p.strip() for p in parts))
            labels.append(re.sub(r"\s+([.,;:%)])", r"\1", re.sub(r"\s+", " ", label)))
        return labels


@dataclass(frozen=True)
class CellValue:
    """A parsed numeric cell: the value as printed (e.g. 98.2) and its printed text."""

    number: float
    printed: str
    repaired: bool


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "")
    return re.sub(r"[ \t]+", " ", text).strip()


def parse_cell_value(cell: str | None, decimals_hint: int = 1) -> CellValue | None:
    """Parse a table cell into its main number.

    Handles ``"96.5"``, ``"96.5%"``, ``"96.7 ± 3.7"``, ``"0.881*"``, ``"(88.1)"`` and messy
    text layers: ``"88 1\\n."`` -> 88.1, ``"982\\n."`` -> 98.2 (decimal places taken from
    ``decimals_hint``), ``"967±37\\n. ."`` -> 96.7. Dashes and empty cells give None.
    """
    if cell is None:
        return None
    text = unicodedata.normalize("NFKC", cell).replace("\u2212", "-").strip()
    if text.lower() in _MISSING:
        return None
    lines = text.split("\n")
    stray_dot = any(re.fullmatch(r"[.\s]+", line) for line in lines if line)
    content = " ".join(line for line in lines if not re.fullmatch(r"[.\s]*", line))
    main = re.split(r"±|\+/-|\+-|\(", content, maxsplit=1)[0]
    if not main.strip() and "(" in content:
        main = content.strip("() ")
    main = main.strip().rstrip("*†‡§¶%").strip()
    if stray_dot and "." not in main:
        main += "\n."
    clean = re.fullmatch(r"-?\d+(?:\.\d+)?|-?\.\d+", main.replace(" ", "")) if (
        "\n" not in main and not re.search(r"\d\s+\d", main)
    ) else None
    if clean:
        printed = clean.group(0)
        return CellValue(float(printed), printed, repaired=False)
    # Messy: digits split by whitespace/newlines with a stray decimal point.
    groups = re.findall(r"\d+", main)
    if not groups or re.search(r"[A-Za-z]", main):
        return None
    has_dot = "." in main
    if len(groups) == 2:
        printed = f"{groups[0]}.{groups[1]}"
    elif len(groups) == 1 and has_dot and len(groups[0]) > decimals_hint:
        digits = groups[0]
        printed = f"{digits[:-decimals_hint]}.{digits[-decimals_hint:]}"
    elif len(groups) == 1:
        printed = groups[0]
    else:
        return None
    return CellValue(float(printed), printed, repaired=True)


def _column_decimals(rows: list[list[str]], col: int) -> int:
    """Most common number of decimals among cleanly printed cells of a column (default 1)."""
    counts = []
    for row in rows:
        if col < len(row):
            value = parse_cell_value(row[col])
            if value and not value.repaired and "." in value.printed:
                counts.append(len(value.printed.split(".")[1]))
    return statistics.mode(counts) if counts else 1


def is_numeric_cell(cell: str | None) -> bool:
    """True when the cell parses as a number."""
    return parse_cell_value(cell) is not None


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


def table_cells(table: ParsedTable) -> list[tuple[str, str, CellValue, int]]:
    """Every numeric body cell as (row label, column label, value, column index)."""
    labels = table.column_labels()
    out = []
    for col in range(1, len(labels)):
        decimals = _column_decimals(table.rows, col)
        for row in table.rows:
            if col >= len(row):
                continue
            value = parse_cell_value(row[col], decimals)
            if value is not None:
                out.append((_clean(row[0]), labels[col], value, col))
    return out


def _captions(page: pymupdf.Page) -> list[tuple[str, str, pymupdf.Rect]]:
    out = []
    for block in page.get_text("blocks"):
        text = _clean(str(block[4]).replace("\n", " "))
        match = _CAPTION_RE.match(text)
        if match:
            out.append((match.group(2), text, pymupdf.Rect(block[:4])))
    return out


def _nearest_caption(
    captions: list[tuple[str, str, pymupdf.Rect]], bbox: pymupdf.Rect
) -> tuple[str | None, str | None]:
    captions = [c for c in captions if c[2].x1 > bbox.x0 and c[2].x0 < bbox.x1]
    if not captions:
        return None, None

    def distance(rect: pymupdf.Rect) -> float:
        if rect.y0 >= bbox.y1:
            return rect.y0 - bbox.y1
        if rect.y1 <= bbox.y0:
            return (bbox.y0 - rect.y1) * 1.5  # captions below tables are more common
        return 0.0
    number, text, rect = min(captions, key=lambda c: distance(c[2]))
    return (number, text) if distance(rect) < 120 else (None, None)


def _find_tables_on_page(page: pymupdf.Page, page_no: int) -> list[ParsedTable]:
    tables: list[ParsedTable] = []
    try:
        found = page.find_tables()
    except Exception as exc:  # PyMuPDF raises on some malformed pages
        log.warning("find_tables failed on page %s: %s", page_no, exc)
        return tables
    captions = _captions(page)
    for table in found.tables:
        grid: list[list[str]] = []
        for row in table.rows:
            cells = []
            for cell in row.cells:
                cells.append(_clean(page.get_text("text", clip=cell, sort=True)) if cell else "")
            grid.append([c.replace("\n", " ") for c in cells])
        if len(grid) < 2:
            continue
        header, body = split_header(grid)
        if not body or not any(is_numeric_cell(c) for r in body for c in r[1:]):
            continue
        number, caption = _nearest_caption(captions, pymupdf.Rect(table.bbox))
        tables.append(ParsedTable(page_no=page_no, number=number, caption=caption,
                                  header=header, rows=body, method="find_tables"))
    return tables


_NUM_TOKEN = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)[%*†‡]*$|^[–—-]$|^±$|^\.$")


def _word_lines(words: list[tuple], tolerance: float = 3.0) -> list[list[tuple]]:
    lines: list[list[tuple]] = []
    for word in sorted(words, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        mid = (word[1] + word[3]) / 2
        if lines and abs(((lines[-1][0][1] + lines[-1][0][3]) / 2) - mid) <= tolerance:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w[0]) for line in lines]


def _line_cells(line: list[tuple], gap: float) -> list[tuple[float, float, str]]:
    """Split a line's words into cells at horizontal gaps wider than ``gap`` points."""
    cells: list[list[tuple]] = []
    for word in line:
        if cells and word[0] - cells[-1][-1][2] <= gap:
            cells[-1].append(word)
        else:
            cells.append([word])
    return [(c[0][0], c[-1][2], " ".join(w[4] for w in c)) for c in cells]


def _is_numeric_line(line: list[tuple]) -> bool:
    tokens = [str(w[4]).replace("\n", "") for w in line]
    numbers = [t for t in tokens if re.fullmatch(r"[-+]?(\d+(\.\d*)?|\.\d+)[%*†‡]*", t)]
    dashes = [t for t in tokens if t in {"-", "–", "—"}]
    cells = len(numbers) + len(dashes)
    return len(numbers) >= 1 and cells >= 2 and cells >= 0.25 * len(tokens)


def _attach_stray_lines(lines: list[list[tuple]]) -> list[list[tuple]]:
    """Merge lines made only of '.'/digit fragments into the line above (split numbers)."""
    out: list[list[tuple]] = []
    for line in lines:
        if out and all(re.fullmatch(r"[.\d]{1,2}", w[4]) for w in line) and any(
            w[4] == "." for w in line
        ):
            merged = list(out[-1])
            for frag in line:
                # glue the fragment onto the word that horizontally covers it
                best = min(range(len(merged)), key=lambda i: abs(
                    (merged[i][0] + merged[i][2]) / 2 - (frag[0] + frag[2]) / 2))
                w = merged[best]
                merged[best] = (w[0], w[1], max(w[2], frag[2]), w[3], w[4] + "\n" + frag[4])
            out[-1] = merged
        else:
            out.append(line)
    return out


def _crosses(line: list[tuple], mid: float) -> bool:
    """True when the line's text runs continuously across ``mid`` (no column gutter)."""
    if any(w[0] < mid < w[2] for w in line):
        return True
    return any(a[2] <= mid <= b[0] and b[0] - a[2] < 12 for a, b in itertools.pairwise(line))


def _is_multi_column(lines: list[list[tuple]], width: float) -> bool:
    """True when most prose lines stop at a gutter in the middle of the page."""
    prose = [line for line in lines if len(line) >= 4 and not _is_numeric_line(line)]
    if len(prose) < 3:
        return False
    crossing = sum(1 for line in prose if _crosses(line, width / 2))
    return crossing < 0.3 * len(prose)


def _text_layout_tables(page: pymupdf.Page, page_no: int) -> list[ParsedTable]:
    """Parse tables from word positions around each 'Table N' caption.

    On multi-column pages a caption narrower than the page marks a column: only the words of
    that column are used, so prose in the other column never merges into table rows.
    """
    captions = _captions(page)
    if not captions:
        return []
    words = [w for w in page.get_text("words") if str(w[4]).strip()]
    width = page.rect.width
    multi_column = _is_multi_column(_word_lines(words), width)
    regions: list[tuple[float, float]] = []
    for _, _, rect in captions:
        if multi_column and rect.width < 0.55 * width:
            left = rect.x0 < width / 2
            region = (0.0, width / 2) if left else (width / 2, width)
        else:
            region = (0.0, width)
        if region not in regions:
            regions.append(region)
    out: list[ParsedTable] = []
    for x0, x1 in regions:
        region_words = [w for w in words if x0 <= (w[0] + w[2]) / 2 <= x1]
        for table in _tables_from_words(region_words, captions, page_no):
            if all((t.number, t.rows) != (table.number, table.rows) for t in out):
                out.append(table)
    return out


def _tables_from_words(
    words: list[tuple], captions: list[tuple[str, str, pymupdf.Rect]], page_no: int
) -> list[ParsedTable]:
    """Numeric line runs of ``words`` with a nearby caption become tables."""
    lines = _attach_stray_lines(_word_lines(words))
    tables: list[ParsedTable] = []
    i = 0
    while i < len(lines):
        if not _is_numeric_line(lines[i]):
            i += 1
            continue
        start = i
        while i < len(lines) and _is_numeric_line(lines[i]):
            i += 1
        body_lines = lines[start:i]
        header_line = lines[start - 1] if start > 0 and not _is_numeric_line(
            lines[start - 1]) else []
        if len(body_lines) < 2:
            continue
        sizes = [w[3] - w[1] for line in body_lines for w in line]
        gap = max(4.0, 0.6 * statistics.median(sizes))
        body_cells = [_line_cells(line, gap) for line in body_lines]
        template = max(body_cells, key=len)
        centers = [(c[0] + c[1]) / 2 for c in template]

        def place(cells: list[tuple[float, float, str]], centers: list[float] = centers,
                  label_edge: float = template[1][0] if len(template) > 1 else 0.0
                  ) -> list[str]:
            row = [""] * len(centers)
            for x0, x1, text in cells:
                if x1 <= label_edge + 1 and not _NUM_TOKEN.match(text):
                    col = 0
                else:
                    col = min(range(len(centers)), key=lambda k: abs(centers[k] - (x0 + x1) / 2))
                row[col] = (row[col] + " " + text).strip()
            return row

        rows = [place(cells) for cells in body_cells]
        header = [place(_line_cells(header_line, gap))] if header_line else []
        bbox = pymupdf.Rect(
            min(w[0] for line in body_lines for w in line),
            min(w[1] for w in (header_line or body_lines[0])),
            max(w[2] for line in body_lines for w in line),
            max(w[3] for w in body_lines[-1]),
        )
        number, caption = _nearest_caption(captions, bbox)
        if caption is None:
            continue
        tables.append(ParsedTable(page_no=page_no, number=number, caption=caption,
                                  header=header, rows=rows, method="text_layout"))
    return tables


def extract_tables(pdf_bytes: bytes) -> list[ParsedTable]:
    """All numeric results tables of a PDF, in page order."""
    out: list[ParsedTable] = []
    with pymupdf.open(stream=pdf_bytes, filetype="pdf") as doc:
        for index, page in enumerate(doc):
            page_no = index + 1
            found = _find_tables_on_page(page, page_no)
            if not found:
                found = _text_layout_tables(page, page_no)
            out.extend(found)
    return out


def table_from_rows(
    rows: list[list[str]], page_no: int = 1, caption: str | None = None,
    number: str | None = None,
) -> ParsedTable:
    """Build a :class:`ParsedTable` from raw cell strings (e.g. a messy extraction)."""
    header, body = split_header([[c or "" for c in row] for row in rows])
    return ParsedTable(page_no=page_no, number=number, caption=caption, header=header,
                       rows=body, method="given")
