"""Steps index_docs and extract_text: native PDF text only (no OCR).

A document whose pages all yield empty/whitespace text is ``no_text_layer``; a file that is
not a PDF or cannot be parsed is ``parse_error``. Unreadable documents are indexed but never
routed. Every function here parses an uploaded PDF: they run in the limited PDF worker
(:mod:`repro_assets.forms.reading`), never in the calling process.

index_docs probes for a text layer without laying text out: a page whose content stream shows
text (``Tj``/``TJ``/``'``/``"`` operators) has one; a page without (a scan, or text drawn
inside a form XObject) is extracted for real. Text operators that draw only whitespace are
caught by extract_text, which then marks the document ``no_text_layer`` in doc_index.json.

extract_text is one plain-text pass per page (what raw extraction costs). layout.json keeps
the text only (the seed lets it omit spans); the box of a quote is looked up on its page when
the quote is cited (:mod:`repro_assets.forms.evidence_images`), so no page pays for line boxes
nobody reads.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re

import pymupdf

from repro_assets.forms.columns import TextLine, column_order
from repro_assets.forms.input_fields import filled_fields
from repro_assets.forms.models import DocIndexItem, LayoutDoc, LayoutPageText

PDF_MIME = "application/pdf"
_TEXT_OPERATORS = re.compile(rb"(?:\)|>|\])\s*(?:Tj|TJ|'|\")")


def page_has_text(page: pymupdf.Page) -> bool:
    """True when the page shows text: a text operator in its content, else real extraction."""
    if _TEXT_OPERATORS.search(page.read_contents() or b""):
        return True
    return bool(page.get_text("text").strip())


def sniff_mime(filename: str, data: bytes) -> str:
    """MIME type from the magic bytes (PDF) or the file name."""
    if data[:1024].lstrip().startswith(b"%PDF-"):
        return PDF_MIME
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"


def _open(data: bytes) -> pymupdf.Document:
    return pymupdf.open(stream=data, filetype="pdf")


def index_pdf(doc_id: str, filename: str, data: bytes, sha256: str | None = None
              ) -> DocIndexItem:
    """Index one input PDF: hash, page count and text-layer probe (``doc_index.json``).

    ``sha256`` is the hash ingest recorded for these bytes (computed when not given). Runs in
    the limited PDF worker (:mod:`repro_assets.forms.reading`), which turns a failure into a
    coded refusal (out of memory: ``E_PDF_TOO_COMPLEX``).

    Raises:
        ValueError: when the PDF cannot be opened or its pages cannot be read.
    """
    sha = sha256 or hashlib.sha256(data).hexdigest()
    try:
        doc = _open(data)
    except Exception as exc:  # pymupdf raises several exception types for broken files
        raise ValueError(f"parse_error: {exc}") from exc
    with doc:
        pages = doc.page_count
        try:
            has_text = any(page_has_text(page) for page in doc.pages())
        except Exception as exc:
            raise ValueError(f"parse_error: cannot read its pages: {exc}") from exc
    return DocIndexItem(
        doc_id=doc_id, filename=filename, mime_type=PDF_MIME, pages=pages,
        has_text_layer=has_text, unreadable_reason=None if has_text else "no_text_layer",
        sha256=sha,
    )


def page_text(page: pymupdf.Page) -> str:
    """The page's plain text; a block of two side-by-side columns under two short headings
    is read one column after the other (:mod:`repro_assets.forms.columns`)."""
    text = page.get_text("text")
    if len(text) > 20000:  # a dense page: no summary sheet of side-by-side parties
        return text
    lines = [TextLine(line["bbox"][0], line["bbox"][1], line["bbox"][2],
                      "".join(span["text"] for span in line["spans"]))
             for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])
             if abs(line["dir"][1]) < 0.5]
    ordered = column_order(lines, page.rect.width)
    return text if ordered is None else "\n".join(ordered) + "\n"


def extract_layout(doc_id: str, data: bytes) -> LayoutDoc:
    """Native text per page (``layout.json``), one text pass per page (a second, of line
    boxes, on a page short enough to hold side-by-side parties).

    Raises:
        ValueError: when the PDF cannot be parsed.
    """
    try:
        doc = _open(data)
    except Exception as exc:
        raise ValueError(f"parse_error: {exc}") from exc
    with doc:
        form = doc.is_form_pdf
        pages = [LayoutPageText(page=number, full_text=page_text(page),
                                form_fields=filled_fields(page) if form else [])
                 for number, page in enumerate(doc.pages(), start=1)]
    return LayoutDoc(doc_id=doc_id, pages=pages)
