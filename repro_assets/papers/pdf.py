"""PDF validation for ingest (seed 000, stage 1): media type, size, encryption, pages, budget.

PyMuPDF is imported only where a PDF is opened (in the limited worker): the process that
validates and stores PDFs never parses one, so it does not pay the PyMuPDF import.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from repro_assets import settings
from repro_assets.papers.errors import PaperIngestError

if TYPE_CHECKING:
    import pymupdf

MAX_PDF_BYTES = 15 * 1024 * 1024  # 15 MiB (15,728,640 bytes)
PDF_MAGIC = b"%PDF-"
#: The header may be preceded by junk as long as it lies within the file's first 1024 bytes
#: (ISO 32000 / Acrobat's rule; every reader opens qpdf's ``leading-junk.pdf``).
HEADER_WINDOW = 1024
#: Pages an ingested PDF may have by default (``REPRO_MAX_PAGES``).
DEFAULT_MAX_PAGES = 400
#: Decoded content-stream bytes a PDF may have by default (``REPRO_PDF_MAX_CONTENT_MB``).
DEFAULT_MAX_CONTENT_MB = 128
_MIB = 1024 * 1024
_INFLATE_STEP = 4 * _MIB


@dataclass(frozen=True)
class PdfInfo:
    """What validation learned about a PDF."""

    sha256: str
    paper_id: str
    byte_size: int
    page_count: int
    metadata_title: str | None


def paper_id_for(sha256: str) -> str:
    """Return the paper id (and partition key) for a PDF checksum: the first 16 hex digits."""
    return sha256[:16]


def max_pages() -> int:
    """The page cap of an ingested PDF (``REPRO_MAX_PAGES``, default :data:`DEFAULT_MAX_PAGES`)."""
    return max(1, settings.env_int("REPRO_MAX_PAGES", DEFAULT_MAX_PAGES))


def max_content_bytes() -> int:
    """The decoded content budget of a PDF (``REPRO_PDF_MAX_CONTENT_MB``, default 128 MiB)."""
    return max(1, settings.env_int("REPRO_PDF_MAX_CONTENT_MB", DEFAULT_MAX_CONTENT_MB)) * _MIB


def validate_pdf(data: bytes, max_bytes: int = MAX_PDF_BYTES) -> PdfInfo:
    """Validate PDF bytes and return their facts.

    The size and header are checked here; everything that parses the PDF runs in a limited
    worker process (:mod:`repro_assets.papers.sandbox`): the page cap, the decoded content
    budget, opening and reading the first page.

    Raises:
        PaperIngestError: E_FILE_TOO_LARGE, E_UNSUPPORTED_MEDIA_TYPE, E_PDF_CORRUPT,
            E_PDF_ENCRYPTED, E_PDF_TOO_MANY_PAGES or E_PDF_TOO_COMPLEX.
    """
    if len(data) > max_bytes:
        raise PaperIngestError(
            "E_FILE_TOO_LARGE", f"PDF is {len(data):,} bytes; the limit is {max_bytes:,} bytes"
        )
    if data.find(PDF_MAGIC, 0, HEADER_WINDOW) < 0:
        raise PaperIngestError(
            "E_UNSUPPORTED_MEDIA_TYPE",
            f"not a PDF: no %PDF- header in the first {HEADER_WINDOW} bytes",
        )
    from repro_assets.papers.sandbox import run_limited

    page_count, title = run_limited(inspect_pdf, data, max_pages(), max_content_bytes())
    sha = hashlib.sha256(data).hexdigest()
    return PdfInfo(sha256=sha, paper_id=paper_id_for(sha), byte_size=len(data),
                   page_count=page_count, metadata_title=title)


def inspect_pdf(data: bytes, page_cap: int, content_budget: int) -> tuple[int, str | None]:
    """Open the PDF and check it (runs in the limited worker; see :func:`validate_pdf`).

    Returns:
        ``(page count, metadata title or None)``.

    Raises:
        PaperIngestError: E_PDF_CORRUPT, E_PDF_ENCRYPTED, E_PDF_TOO_MANY_PAGES,
            E_PDF_TOO_COMPLEX.
    """
    import pymupdf

    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for broken files
        raise PaperIngestError("E_PDF_CORRUPT", f"PyMuPDF cannot open the PDF: {exc}") from exc
    try:
        if doc.needs_pass or doc.is_encrypted:
            raise PaperIngestError("E_PDF_ENCRYPTED", "the PDF is password-protected")
        if doc.page_count < 1:
            raise PaperIngestError("E_PDF_CORRUPT", "the PDF has no pages")
        check_page_cap(doc, page_cap)
        check_content_budget(doc, content_budget)
        try:
            doc.load_page(0).get_text("text")
        except Exception as exc:
            raise PaperIngestError("E_PDF_CORRUPT", f"the first page is unreadable: {exc}") from exc
        title = (doc.metadata or {}).get("title") or None
        return doc.page_count, (title.strip() if title and title.strip() else None)
    finally:
        doc.close()


def _content_xrefs(doc: pymupdf.Document) -> list[int]:
    """Stream xrefs whose decoded bytes MuPDF interprets as drawing operators: page contents
    and form XObjects (a content bomb can hide in either)."""
    xrefs: list[int] = []
    for page in doc:  # type: ignore[attr-defined]  # pymupdf's stubs miss __iter__
        xrefs.extend(page.get_contents())
    for xref in range(1, doc.xref_length()):
        try:
            subtype = doc.xref_get_key(xref, "Subtype")
        except Exception:  # a broken object: MuPDF skips it too
            continue
        if subtype == ("name", "/Form") and doc.xref_is_stream(xref):
            xrefs.append(xref)
    return list(dict.fromkeys(xrefs))


def _decoded_size(doc: pymupdf.Document, xref: int, budget: int) -> int:
    """Decoded length of a stream, inflating at most ``budget + 1`` bytes of it."""
    kind, value = doc.xref_get_key(xref, "Filter")
    if kind == "null":
        return len(doc.xref_stream_raw(xref) or b"")
    if value in ("/FlateDecode", "[/FlateDecode]"):
        inflater = zlib.decompressobj()
        raw = doc.xref_stream_raw(xref) or b""
        size = 0
        pending = raw
        while pending and size <= budget:
            try:
                size += len(inflater.decompress(pending, _INFLATE_STEP))
            except zlib.error:
                return size  # MuPDF stops at a broken stream too
            pending = inflater.unconsumed_tail
        return size
    return len(doc.xref_stream(xref) or b"")  # other filters: decoded under the worker's limits


def check_page_cap(doc: pymupdf.Document, page_cap: int) -> None:
    """Refuse a PDF of more than ``page_cap`` pages (``REPRO_MAX_PAGES``).

    Raises:
        PaperIngestError: E_PDF_TOO_MANY_PAGES.
    """
    if doc.page_count > page_cap:
            raise PaperIngestError(
                "E_PDF_TOO_MANY_PAGES",
                f"the PDF has {doc.page_count:,} pages; the limit is {page_cap:,} "
                "(REPRO_MAX_PAGES)")


def check_content_budget(doc: pymupdf.Document, budget: int) -> int:
    """Sum the decoded size of the content streams; refuse a PDF over ``budget`` bytes.

    Returns:
        The decoded bytes counted.

    Raises:
        PaperIngestError: E_PDF_TOO_COMPLEX.
    """
    total = 0
    for xref in _content_xrefs(doc):
        total += _decoded_size(doc, xref, budget - total)
        if total > budget:
            raise PaperIngestError(
                "E_PDF_TOO_COMPLEX",
                f"the PDF's content streams decode to more than {budget // _MIB:,} MiB "
                "(REPRO_PDF_MAX_CONTENT_MB)")
    return total
