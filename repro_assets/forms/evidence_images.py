"""Evidence you can see: the box of a cited quote and a PNG crop of its page, highlighted.

People check evidence by looking, not by reading coordinates. For each cited quote the page is
searched for the quote's lines (the box is looked up only here, for quotes that are cited) and
a band of the page around it is rendered with the quote highlighted. Rendering draws on an
in-memory copy of the document; the input file is never modified.
"""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from repro_assets.forms.normalize import collapse_ws

DPI = 96
CONTEXT_PT = 36.0  # page context above and below the quote, in points
HIGHLIGHT = (1.0, 0.85, 0.0)
BORDER = (0.85, 0.1, 0.1)


@dataclass(frozen=True)
class QuoteImage:
    """The located box of a quote (None when not found) and the PNG of its page band."""

    bbox: list[float] | None
    png: bytes


def locate(page: pymupdf.Page, quote: str) -> pymupdf.Rect | None:
    """The union of the boxes of the quote's lines, each taken nearest to the previous one."""
    found: list[pymupdf.Rect] = []
    for line in quote.split("\n"):
        text = collapse_ws(line)
        if not text:
            continue
        hits = page.search_for(text)
        if not hits:
            continue
        if found:
            anchor = found[-1]
            hits.sort(key=lambda r: abs(r.y0 - anchor.y1) + abs(r.x0 - anchor.x0) / 10)
        found.append(hits[0])
    if not found:
        return None
    box = pymupdf.Rect(found[0])
    for rect in found[1:]:
        box |= rect
    return box


def render(doc: pymupdf.Document, page_number: int, quote: str) -> QuoteImage:
    """Locate ``quote`` on ``page_number`` (1-indexed) and render the highlighted band.

    A quote that cannot be located renders the whole page without a highlight.

    Raises:
        ValueError: when the page does not exist.
    """
    if not 1 <= page_number <= doc.page_count:
        raise ValueError(f"page {page_number} not in document ({doc.page_count} pages)")
    page = doc[page_number - 1]
    box = locate(page, quote)
    clip = page.rect
    if box is not None:
        marked = pymupdf.Rect(box.x0 - 2, box.y0 - 1.5, box.x1 + 2, box.y1 + 1.5)
        page.draw_rect(marked, color=BORDER, fill=HIGHLIGHT, fill_opacity=0.35, width=1.2,
                       overlay=True)
        clip = pymupdf.Rect(page.rect.x0, max(page.rect.y0, box.y0 - CONTEXT_PT),
                            page.rect.x1, min(page.rect.y1, box.y1 + CONTEXT_PT))
    pixmap = page.get_pixmap(clip=clip, dpi=DPI)
    bbox = [round(v, 2) for v in (box.x0, box.y0, box.x1, box.y1)] if box is not None else None
    return QuoteImage(bbox=bbox, png=pixmap.tobytes("png"))
