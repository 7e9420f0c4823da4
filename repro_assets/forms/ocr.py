"""OCR of scanned pages (no text layer) with Tesseract through PyMuPDF.

PyMuPDF carries the Tesseract engine; it needs the language data (``eng.traineddata``), which
Debian's ``tesseract-ocr-eng`` package installs (``.ci/run`` installs ``tesseract-ocr``). The
data folder is ``TESSDATA_PREFIX`` when set, else the first Debian ``tessdata`` folder with
English data. Without it, scanned documents stay ``no_text_layer`` as before.

OCR'd pages keep their line boxes (``spans``) so evidence quoted from them carries a box, and
are marked ``ocr`` so their values are scored lower and never auto-filled unless a second
document agrees (see :mod:`repro_assets.forms.scoring`).
"""

from __future__ import annotations

import glob
import logging
import os
from functools import lru_cache

import pymupdf

from repro_assets import settings
from repro_assets.forms.models import LayoutDoc, LayoutPageText, LayoutSpan

log = logging.getLogger(__name__)

LANGUAGE = "eng"
DPI = 200
MAX_PAGES = 20  # OCR costs ~0.5 s a page: a long scan is read up to here


@lru_cache(maxsize=1)
def tessdata() -> str | None:
    """The Tesseract language-data folder with English data, or None when not installed."""
    candidates = [settings.current().third_party.tessdata_prefix]
    candidates += sorted(glob.glob("/usr/share/tesseract-ocr/*/tessdata"), reverse=True)
    candidates += ["/usr/share/tessdata", "/usr/local/share/tessdata"]
    for folder in candidates:
        if folder and os.path.isfile(os.path.join(folder, f"{LANGUAGE}.traineddata")):
            return folder
    return None


def _page(number: int, page: pymupdf.Page, data_dir: str) -> LayoutPageText:
    textpage = page.get_textpage_ocr(language=LANGUAGE, dpi=DPI, full=True, tessdata=data_dir)
    lines: dict[tuple[int, int], list[tuple[float, float, float, float, str]]] = {}
    for x0, y0, x1, y1, word, block, line, _ in textpage.extractWORDS():
        lines.setdefault((block, line), []).append((x0, y0, x1, y1, word))
    spans = []
    for words in lines.values():
        spans.append(LayoutSpan(
            text=" ".join(w[4] for w in words),
            bbox=[round(min(w[0] for w in words), 2), round(min(w[1] for w in words), 2),
                  round(max(w[2] for w in words), 2), round(max(w[3] for w in words), 2)]))
    return LayoutPageText(page=number, full_text=textpage.extractText(), spans=spans, ocr=True)


def ocr_layout(doc_id: str, data: bytes) -> LayoutDoc | None:
    """The OCR text of a scanned PDF, or None when OCR is unavailable or reads nothing."""
    data_dir = tessdata()
    if data_dir is None:
        return None
    try:
        with pymupdf.open(stream=data, filetype="pdf") as doc:
            pages = [_page(n, page, data_dir)
                     for n, page in enumerate(doc, start=1) if n <= MAX_PAGES]
    except Exception as exc:  # an engine failure leaves the document unreadable, as before
        log.warning("OCR of %s failed: %s", doc_id, exc)
        return None
    if not any(p.full_text.strip() for p in pages):
        return None
    return LayoutDoc(doc_id=doc_id, pages=pages)


def span_box(page: LayoutPageText, quote: str) -> list[float] | None:
    """The box around the OCR lines a quote is made of (None when none matches)."""
    wanted = " ".join(quote.split())
    boxes = [s.bbox for s in page.spans if s.bbox and s.text.strip()
             and " ".join(s.text.split()) in wanted]
    if not boxes:
        return None
    return [min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes)]
