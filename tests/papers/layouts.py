"""Small results-table PDFs for the claims tests, one layout family each (reportlab).

Everything is drawn at fixed positions with the canvas API so a test controls the layout the
table reader sees: header rows, spanning headers, label columns, rules, captions above or
below, a plot beside a table, two text columns.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

import pymupdf
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

Row = Sequence[str]


@dataclass
class Table:
    """A table drawn at ``x`` (column left edges) from ``top`` downwards."""

    caption: str
    header: list[Row]
    rows: list[Row]
    x: list[float]
    top: float
    caption_above: bool = False
    rules: bool = True
    bold: set[tuple[int, int]] = field(default_factory=set)  # (row, col) printed bold
    spans: list[tuple[int, int, int, str]] = field(default_factory=list)  # (hdr, col0, col1, text)
    right: float | None = None


@dataclass
class Page:
    """A page: lines of prose (x, y, text), tables and optional plot boxes."""

    lines: list[tuple[float, float, str]] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    plots: list[tuple[float, float, float, float]] = field(default_factory=list)
    title: str | None = None


def prose(text: str, x: float, y: float, width: int = 95, leading: float = 12
          ) -> list[tuple[float, float, str]]:
    """Wrap ``text`` into lines of about ``width`` characters from (x, y) downwards."""
    return [(x, y - i * leading, line) for i, line in enumerate(wrap(text, width))]


def wrap(text: str, width: int) -> list[str]:
    """``text`` cut at spaces into lines of at most about ``width`` characters."""
    words, lines, current = text.split(), [], ""
    for word in words:
        if len(current) + len(word) + 1 > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    lines.append(current)
    return lines


# --- pages drawn line by line with PyMuPDF (y counted from the top of the page) -------------

#: One line of text: x, y from the top, the text.
Line = tuple[float, float, str]


def draw_lines(lines: Sequence[Line], size: float = 9.0) -> bytes:
    """One letter-size page with each text line drawn at (x, y from the top)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for x, y, text in lines:  # a font with arrows and Greek letters for the lines that need it
        font = "helv" if all(ord(ch) < 256 for ch in text) else "china-s"
        page.insert_text((x, y), text, fontsize=size, fontname=font)
    data = doc.tobytes()
    doc.close()
    return data


def grid(x: Sequence[float], top: float, rows: Sequence[Sequence[str]], pitch: float = 13.0
         ) -> list[Line]:
    """The cells of ``rows`` at the column edges ``x``, one row every ``pitch`` points."""
    return [(x[c], top + r * pitch, cell) for r, row in enumerate(rows)
            for c, cell in enumerate(row) if cell]


def prose_down(text: str, x: float, top: float, width: int = 92) -> list[Line]:
    """``text`` wrapped into lines from (x, top) downwards, 12 points apart."""
    return [(x, top + 12 * i, line) for i, line in enumerate(wrap(text, width))]


def _draw_table(c: canvas.Canvas, table: Table) -> None:
    pitch = 12.0
    y = table.top
    right = table.right or table.x[-1] + 60
    if table.caption_above:
        c.setFont("Helvetica", 9)
        c.drawString(table.x[0], y, table.caption)
        y -= 16
    if table.rules:
        c.line(table.x[0], y + 10, right, y + 10)
    for h, row in enumerate(table.header):
        c.setFont("Helvetica", 9)
        for col, text in enumerate(row):
            if text:
                c.drawString(table.x[col], y, text)
        for span_row, col0, col1, text in table.spans:
            if span_row == h:
                c.drawCentredString((table.x[col0] + table.x[col1] + 30) / 2, y, text)
        y -= pitch
    if table.rules and table.header:
        c.line(table.x[0], y + 9, right, y + 9)
    for r, row in enumerate(table.rows):
        for col, text in enumerate(row):
            if text:
                c.setFont("Helvetica-Bold" if (r, col) in table.bold else "Helvetica", 9)
                c.drawString(table.x[col], y, text)
        y -= pitch
    if table.rules:
        c.line(table.x[0], y + 9, right, y + 9)
    if not table.caption_above:
        c.setFont("Helvetica", 9)
        c.drawString(table.x[0], y - 8, table.caption)


def _draw_plot(c: canvas.Canvas, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    c.line(x0, y0, x0, y1)
    c.line(x0, y0, x1, y0)
    c.setFont("Helvetica", 7)
    for i, tick in enumerate(("0", "5", "10", "15", "20")):
        c.drawString(x0 - 14, y0 + i * (y1 - y0) / 4, tick)
    path = c.beginPath()
    path.moveTo(x0, y1)
    for k in range(1, 12):
        path.curveTo(x0 + (k - 0.6) * (x1 - x0) / 11, y1 - k * 3, x0 + (k - 0.3) * (x1 - x0) / 11,
                     y1 - k * 4, x0 + k * (x1 - x0) / 11, y1 - k * 5)
    c.drawPath(path)
    for k in range(8):
        c.circle(x0 + 8 + k * (x1 - x0) / 9, y0 + 10 + k * 4, 1.5, fill=1)


def render(pages: list[Page]) -> bytes:
    """The PDF bytes of ``pages`` (deterministic)."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER, invariant=1)
    for page in pages:
        if page.title:
            c.setFont("Helvetica-Bold", 16)
            c.drawString(72, 740, page.title)
        c.setFont("Helvetica", 9)
        for x, y, text in page.lines:
            c.drawString(x, y, text)
        for table in page.tables:
            _draw_table(c, table)
        for box in page.plots:
            _draw_plot(c, box)
        c.showPage()
    c.save()
    return buf.getvalue()
