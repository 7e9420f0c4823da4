"""Page text extraction with PyMuPDF: blocks with bounding boxes, title and section headings."""

from __future__ import annotations

import re
import statistics

from repro_assets.papers.models import PageText, PaperPages, TextBlock
from repro_assets.papers.pdf import check_page_cap, max_pages

_BOLD_FLAG = 16
_NUMBERED_HEADING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+[A-Z][^\n]{1,70}$")
_NAMED_HEADINGS = {
    "abstract", "introduction", "related work", "background", "method", "methods",
    "methodology", "approach", "model", "experiments", "experimental setup", "setup",
    "results", "evaluation", "discussion", "conclusion", "conclusions", "references",
    "acknowledgments", "acknowledgements", "appendix", "limitations", "datasets", "data",
}


def _line_style(spans: list[dict]) -> tuple[float, bool]:
    visible = [span for span in spans if span.get("text", "").strip()]
    if not visible:
        return 0.0, False
    size = max(float(span.get("size", 0.0)) for span in visible)
    first = visible[0]
    bold = bool(int(first.get("flags", 0)) & _BOLD_FLAG) or "bold" in str(
        first.get("font", "")
    ).lower()
    return round(size, 1), bold


def _line_text(spans: list[dict]) -> str:
    """A line's text without NUL characters (some fonts map glyphs to U+0000; Postgres text
    and jsonb cannot store it)."""
    return "".join(span.get("text", "") for span in spans).replace("\x00", "")


def _is_upright(line: dict) -> bool:
    """Whether a line runs left to right (not a stamp rotated up a margin, not a rotated
    label)."""
    dx, dy = line.get("dir", (1.0, 0.0))
    return dx > 0.99 and abs(dy) < 0.01


def _blocks_from_dict(block: dict, upright_only: bool = False) -> list[TextBlock]:
    """Split a PyMuPDF block into runs of lines with the same style.

    PyMuPDF often merges a heading with the paragraph under it; splitting on a change of font
    size or weight gives headings their own block.

    Args:
        block: a block of ``page.get_text("dict")``.
        upright_only: skip lines that do not run left to right.
    """
    runs: list[tuple[tuple[float, bool], list[dict]]] = []
    for line in block.get("lines", []):
        if upright_only and not _is_upright(line):
            continue
        spans = line.get("spans", [])
        text = _line_text(spans)
        if not text.strip():
            continue
        style = _line_style(spans)
        if runs and runs[-1][0] == style:
            runs[-1][1].append(line)
        else:
            runs.append((style, [line]))
    blocks = []
    for (size, bold), lines in runs:
        x0 = min(float(line["bbox"][0]) for line in lines)
        y0 = min(float(line["bbox"][1]) for line in lines)
        x1 = max(float(line["bbox"][2]) for line in lines)
        y1 = max(float(line["bbox"][3]) for line in lines)
        text = "\n".join(_line_text(line["spans"]) for line in lines)
        blocks.append(
            TextBlock(
                text=text, bbox=(round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2)),
                font_size=size, bold=bold,
            )
        )
    return blocks


def _is_heading(block: TextBlock, body_size: float) -> bool:
    text = block.text.strip()
    if "\n" in text or len(text) > 80 or len(text) < 3:
        return False
    stripped = re.sub(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+", "", text).strip().lower()
    if stripped.rstrip(":") in _NAMED_HEADINGS and (block.bold or block.font_size > body_size):
        return True
    if _NUMBERED_HEADING.match(text) and (block.bold or block.font_size > body_size + 0.5):
        return True
    return block.bold and block.font_size >= body_size + 1.5 and not text.endswith(".")


def extract_pages(data: bytes, paper_id: str, title_hint: str | None = None) -> PaperPages:
    """Extract every page's text and blocks, and detect the title and section headings.

    The PDF is parsed in a limited worker process (:mod:`repro_assets.papers.sandbox`): past
    its memory, CPU or time budget the call fails with ``E_PDF_TOO_COMPLEX``.

    Args:
        data: PDF bytes (already validated).
        paper_id: the paper id.
        title_hint: a title given by the user; wins over detection.

    Raises:
        PaperIngestError: E_PDF_TOO_COMPLEX, E_PDF_TOO_MANY_PAGES or E_PDF_CORRUPT.
    """
    from repro_assets.papers.sandbox import run_limited

    return run_limited(extract_pages_here, data, paper_id, title_hint, max_pages())


def raw_page_texts(data: bytes) -> dict[int, str]:
    """Each page's plain PyMuPDF text by page number, read in the limited worker process."""
    from repro_assets.papers.sandbox import run_limited

    return run_limited(raw_page_texts_here, data)


def raw_page_texts_here(data: bytes) -> dict[int, str]:
    """:func:`raw_page_texts` in this process (the worker's body)."""
    import pymupdf  # here, not above: a process that only calls the worker never loads it

    with pymupdf.open(stream=data, filetype="pdf") as doc:
        return {n + 1: page.get_text() for n, page in enumerate(doc)}


def extract_pages_here(data: bytes, paper_id: str, title_hint: str | None = None,
                       page_cap: int | None = None) -> PaperPages:
    """:func:`extract_pages` in this process (the worker's body; trusted input only).

    Raises:
        PaperIngestError: E_PDF_TOO_MANY_PAGES past ``page_cap``.
    """
    import pymupdf

    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        if page_cap is not None:
            check_page_cap(doc, page_cap)
        raw_pages: list[list[TextBlock]] = []
        title_blocks: list[TextBlock] = []
        for page in doc:  # type: ignore[attr-defined]  # pymupdf's stubs miss __iter__
            info = page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT)
            blocks = [b for block in info["blocks"] for b in _blocks_from_dict(block)]
            raw_pages.append(blocks)
            if page.number == 0:  # the title is printed upright (margin stamps are rotated)
                title_blocks = [b for block in info["blocks"]
                                for b in _blocks_from_dict(block, upright_only=True)]
        sizes = [b.font_size for blocks in raw_pages for b in blocks if b.font_size > 0]
        body_size = statistics.median(sizes) if sizes else 10.0
        title = title_hint or _detect_title(title_blocks, body_size)
        if not title:
            meta_title = (doc.metadata or {}).get("title")
            title = meta_title.strip() if meta_title and meta_title.strip() else None
        pages = []
        for number, blocks in enumerate(raw_pages, start=1):
            text = "\n".join(block.text for block in blocks)
            headings = [
                block.text.strip() for block in blocks
                if _is_heading(block, body_size)
                and not (title and " ".join(block.text.split()) in title)
            ]
            pages.append(
                PageText(
                    page_no=number, text=text, blocks=blocks, section_titles=headings,
                    has_text_layer=bool(text.strip()),
                )
            )
        return PaperPages(paper_id=paper_id, title=title, pages=pages)
    finally:
        doc.close()


def _detect_title(blocks: list[TextBlock], body_size: float) -> str | None:
    candidates = [
        b for b in blocks
        if b.bbox[1] < 300 and b.font_size >= body_size + 2 and 3 <= len(b.text) <= 250
    ]
    if not candidates:
        return None
    best = max(candidates, key=lambda b: (b.font_size, -b.bbox[1]))
    parts = [best]
    # a title that wraps is split into blocks of the same style stacked right below each other
    for block in blocks[blocks.index(best) + 1:]:
        last = parts[-1]
        same_style = block.font_size == best.font_size and block.bold == best.bold
        if not same_style or block.bbox[1] - last.bbox[3] > best.font_size:
            break
        parts.append(block)
    return " ".join(" ".join(part.text.split()) for part in parts)
