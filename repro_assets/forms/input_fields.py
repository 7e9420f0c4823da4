"""Values typed into the AcroForm fields of an INPUT document, with their printed labels.

A filled form (an IRS W-9, an intake form filled on screen) keeps its values in widgets. The
page text includes them (PyMuPDF prints widget appearances), but away from their labels: after
the page's own text. This module pairs each filled text widget with the label printed next to
it: the widget's tooltip when it has one, else the nearest text line above the widget's box
(overlapping it horizontally), else the nearest line to its left on the same row.
"""

from __future__ import annotations

import pymupdf

from repro_assets.forms.models import FilledField

ABOVE_POINTS = 22.0  # how far above a widget its label may stand
LEFT_POINTS = 90.0  # how far left of a widget its label may end


Line = tuple[pymupdf.Rect, str, list[tuple[float, float, float, float, str]]]


def page_lines(page: pymupdf.Page, skip: list[pymupdf.Rect]) -> list[Line]:
    """The page's text lines (box, text, words) without the words drawn inside ``skip``
    boxes."""
    grouped: dict[tuple[int, int], list[tuple[float, float, float, float, str]]] = {}
    vertical = [pymupdf.Rect(line["bbox"]) for block in page.get_text("dict")["blocks"]
                for line in block.get("lines", []) if abs(line["dir"][1]) > 0.5]
    for x0, y0, x1, y1, word, block, line, _ in page.get_text("words"):
        centre = pymupdf.Point((x0 + x1) / 2, (y0 + y1) / 2)
        if any(centre in rect for rect in skip):
            continue
        if any(centre in rect for rect in vertical):  # rotated margin text ("See ...")
            continue
        grouped.setdefault((block, line), []).append((x0, y0, x1, y1, word))
    out = []
    for words in grouped.values():
        words.sort()
        box = pymupdf.Rect(min(w[0] for w in words), min(w[1] for w in words),
                           max(w[2] for w in words), max(w[3] for w in words))
        out.append((box, " ".join(w[4] for w in words), words))
    return out


def row_left(rect: pymupdf.Rect, lines: list[Line]) -> str:
    """The words printed left of a widget in its row band, in reading order (a row may name
    several fields: "Physician: ____ Telephone: ____")."""
    middle = (rect.y0 + rect.y1) / 2
    row = sorted((w for box, _, words in lines if box.y0 <= middle <= box.y1
                  for w in words if w[2] <= rect.x0 + 2
                  and w[1] >= rect.y0 - 6 and w[3] <= rect.y1 + 6), key=lambda w: w[0])
    return " ".join(w[4] for w in row)


def row_label(rect: pymupdf.Rect, lines: list[Line]) -> str | None:
    """The words printed right before a widget in its row (within ``LEFT_POINTS``)."""
    middle = (rect.y0 + rect.y1) / 2
    row = sorted((w for box, _, words in lines if box.y0 <= middle <= box.y1
                  for w in words if rect.x0 - LEFT_POINTS <= w[2] <= rect.x0 + 2
                  and w[1] >= rect.y0 - 6 and w[3] <= rect.y1 + 6), key=lambda w: w[0])
    return " ".join(w[4] for w in row) or None


def label_near(rect: pymupdf.Rect, lines: list[Line]) -> str | None:
    """The label printed for a widget box: the words right before it in its row (within
    ``LEFT_POINTS``), else the nearest line just above it (overlapping it horizontally)."""
    left = row_label(rect, lines)
    if left:
        return left
    above = [(box, text) for box, text, _ in lines
             if rect.y0 - ABOVE_POINTS <= box.y1 <= rect.y0 + 2
             and box.x0 < rect.x1 and box.x1 > rect.x0]
    if above:
        return max(above, key=lambda item: (item[0].y1, -item[0].x0))[1]
    return None


def filled_fields(page: pymupdf.Page) -> list[FilledField]:
    """Every text widget of ``page`` with a value, with its printed label (None if none)."""
    widgets = [w for w in page.widgets() or []
               if w.field_type == pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT and str(w.field_value or "")
               .strip()]
    if not widgets:
        return []
    lines = page_lines(page, [pymupdf.Rect(w.rect) for w in page.widgets() or []])
    out = []
    for widget in widgets:
        rect = pymupdf.Rect(widget.rect)
        label = (widget.field_label or "").strip() or label_near(rect, lines)
        out.append(FilledField(name=widget.field_name or "", label=label,
                               value=str(widget.field_value).strip(),
                               bbox=[round(v, 2) for v in (rect.x0, rect.y0, rect.x1, rect.y1)]))
    return out
