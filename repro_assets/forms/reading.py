"""Every parse of an uploaded forms document runs in the limited PDF worker (issue #27).

The forms pipeline reads files users upload: input documents (text-layer probe, text, OCR of
scans, evidence crops) and target forms (widgets, filling). A small PDF can explode when parsed
(a FlateDecode content stream inflating to hundreds of MB), so none of that happens in the
calling process (the API's, a run's, the CLI's): each parse is one task of the worker of
:mod:`repro_assets.papers.sandbox` (``RLIMIT_AS``, ``RLIMIT_CPU``, a wall deadline), after the
same page cap (``REPRO_MAX_PAGES``) and decoded-content budget (``REPRO_PDF_MAX_CONTENT_MB``)
paper ingest applies. Inputs are bytes, outputs plain models and dataclasses.

Two entries, one per kind of work:

* :func:`read_document`: what a step needs from one document, in one task;
* :func:`fill_target`: a filled copy of a target form.

A document the worker refuses raises :class:`DocumentRefused` with the worker's code
(``E_PDF_TOO_COMPLEX``, ``E_PDF_TOO_MANY_PAGES``, ``E_PDF_CORRUPT``); the pipeline records it
and goes on without the document.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pymupdf

from repro_assets.forms import evidence_images
from repro_assets.forms.acroform import FormWidget, read_widgets
from repro_assets.forms.evidence_images import QuoteImage
from repro_assets.forms.extract import extract_layout, index_pdf
from repro_assets.forms.fill import write_filled
from repro_assets.forms.models import DocIndexItem, LayoutDoc
from repro_assets.forms.ocr import ocr_layout
from repro_assets.forms.runfolder import FormsError
from repro_assets.papers.pdf import (
    PaperIngestError,
    check_content_budget,
    check_page_cap,
    max_content_bytes,
    max_pages,
)
from repro_assets.papers.sandbox import run_limited

CORRUPT = "E_PDF_CORRUPT"
TOO_COMPLEX = "E_PDF_TOO_COMPLEX"
#: MuPDF's own refusal of a stream that inflates out of proportion (its bomb guard).
_BOMB = re.compile(r"compression bomb", re.IGNORECASE)


class DocumentRefused(FormsError):
    """The limited worker refused a document (its ``code``: E_PDF_TOO_COMPLEX ...)."""

    code = CORRUPT


@dataclass(frozen=True)
class Ask:
    """What to read from one document (picklable: it crosses into the worker).

    Attributes:
        doc_id: the document's id in the run (index and text).
        filename: its original name (index).
        sha256: its hash (index).
        index: probe the text layer (a ``doc_index.json`` entry).
        text: read its text: the text layer (``native``), else OCR when the text is empty.
        native: False when the index found no text layer (OCR only).
        widgets: read its AcroForm widgets.
        quotes: ``(page, quote)`` pairs to locate and render as evidence crops.
    """

    doc_id: str = ""
    filename: str = ""
    sha256: str | None = None
    index: bool = False
    text: bool = False
    native: bool = True
    widgets: bool = False
    quotes: tuple[tuple[int, str], ...] = ()


@dataclass
class DocumentReading:
    """What the worker read (only the parts asked for are set).

    Attributes:
        index: the ``doc_index.json`` entry.
        layout: the text per page (text layer or OCR); None when none was read.
        ocr: True when ``layout`` came from OCR.
        widgets: the target's widgets in page order.
        crops: one evidence crop per asked quote (None where the quote's page was missing).
    """

    index: DocIndexItem | None = None
    layout: LayoutDoc | None = None
    ocr: bool = False
    widgets: list[FormWidget] = field(default_factory=list)
    crops: list[QuoteImage | None] = field(default_factory=list)


def _refused(exc: PaperIngestError) -> DocumentRefused:
    return DocumentRefused(exc.message, code=exc.code)


def read_document(data: bytes, ask: Ask) -> DocumentReading:
    """Read what ``ask`` asks from one PDF, in the limited worker.

    Raises:
        DocumentRefused: the worker's coded refusal (too many pages, content over budget,
            out of memory, CPU or time, not a PDF it can open).
    """
    try:
        return run_limited(read_here, data, ask, max_pages(), max_content_bytes(),
                           code_on_error=CORRUPT)
    except PaperIngestError as exc:
        raise _refused(exc) from exc


def target_widgets(data: bytes) -> list[FormWidget]:
    """A target form's widgets in page order, read in the limited worker.

    Raises:
        DocumentRefused: the worker's coded refusal (a broken or hostile target).
    """
    return read_document(data, Ask(widgets=True)).widgets


def fill_target(data: bytes, values: Mapping[str, str]) -> tuple[bytes, list[str]]:
    """A filled copy of the target form (widget name -> value), made in the limited worker.

    Returns:
        The filled PDF and the names of widgets that could not be written.

    Raises:
        DocumentRefused: the worker's coded refusal (as :func:`read_document`).
    """
    try:
        return run_limited(fill_here, data, dict(values), max_pages(), max_content_bytes(),
                           code_on_error=CORRUPT)
    except PaperIngestError as exc:
        raise _refused(exc) from exc


# ---------------------------------------------------------------------------- in the worker
def check_document(data: bytes, page_cap: int, content_budget: int) -> None:
    """Open the PDF and apply paper ingest's page cap and decoded-content budget.

    Raises:
        PaperIngestError: E_PDF_CORRUPT, E_PDF_TOO_MANY_PAGES or E_PDF_TOO_COMPLEX.
    """
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for broken files
        raise PaperIngestError(CORRUPT, f"PyMuPDF cannot open the PDF: {exc}") from exc
    with doc:
        check_page_cap(doc, page_cap)
        check_content_budget(doc, content_budget)


def _parse_failure(exc: Exception) -> PaperIngestError:
    """The coded error of a failed parse: MuPDF's bomb guard is a too-complex PDF, anything
    else a corrupt one (the sandbox turns an allocation failure into too-complex as well)."""
    code = TOO_COMPLEX if _BOMB.search(str(exc)) else CORRUPT
    return PaperIngestError(code, str(exc))


def _text(data: bytes, ask: Ask) -> tuple[LayoutDoc | None, bool]:
    layout: LayoutDoc | None = None
    if ask.native:
        try:
            layout = extract_layout(ask.doc_id, data)
        except ValueError as exc:
            raise _parse_failure(exc) from exc
        if any(page.full_text.strip() for page in layout.pages):
            return layout, False
    scanned = ocr_layout(ask.doc_id, data)  # a scan (or whitespace text): OCR when installed
    return scanned, scanned is not None


def _crops(data: bytes, quotes: Sequence[tuple[int, str]]) -> list[QuoteImage | None]:
    out: list[QuoteImage | None] = []
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for page, quote in quotes:
            try:
                out.append(evidence_images.render(doc, page, quote))
            except ValueError:  # the cited page is not in the document
                out.append(None)
    return out


def read_here(data: bytes, ask: Ask, page_cap: int, content_budget: int) -> DocumentReading:
    """:func:`read_document`'s task (runs in the worker)."""
    check_document(data, page_cap, content_budget)
    out = DocumentReading()
    if ask.index:
        try:
            out.index = index_pdf(ask.doc_id, ask.filename, data, ask.sha256)
        except ValueError as exc:  # a memory failure becomes E_PDF_TOO_COMPLEX in the sandbox
            raise _parse_failure(exc) from exc
    if ask.text:
        out.layout, out.ocr = _text(data, ask)
    if ask.widgets:
        try:
            out.widgets = read_widgets(data)
        except ValueError as exc:
            raise _parse_failure(exc) from exc
    if ask.quotes:
        out.crops = _crops(data, ask.quotes)
    return out


def fill_here(data: bytes, values: dict[str, str], page_cap: int, content_budget: int
              ) -> tuple[bytes, list[str]]:
    """:func:`fill_target`'s task (runs in the worker)."""
    check_document(data, page_cap, content_budget)
    try:
        return write_filled(data, values)
    except ValueError as exc:
        raise _parse_failure(exc) from exc
