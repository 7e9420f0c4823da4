"""PDF validation for ingest (seed 000, stage 1): media type, size, encryption, pages."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pymupdf

MAX_PDF_BYTES = 15 * 1024 * 1024  # 15 MiB (15,728,640 bytes)
PDF_MAGIC = b"%PDF-"
#: The header may be preceded by junk as long as it lies within the file's first 1024 bytes
#: (ISO 32000 / Acrobat's rule; every reader opens qpdf's ``leading-junk.pdf``).
HEADER_WINDOW = 1024


class PaperIngestError(ValueError):
    """Ingest rejected the input; ``code`` is the seed's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


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


def validate_pdf(data: bytes, max_bytes: int = MAX_PDF_BYTES) -> PdfInfo:
    """Validate PDF bytes and return their facts.

    Raises:
        PaperIngestError: E_FILE_TOO_LARGE, E_UNSUPPORTED_MEDIA_TYPE, E_PDF_CORRUPT or
            E_PDF_ENCRYPTED.
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
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for broken files
        raise PaperIngestError("E_PDF_CORRUPT", f"PyMuPDF cannot open the PDF: {exc}") from exc
    try:
        if doc.needs_pass or doc.is_encrypted:
            raise PaperIngestError("E_PDF_ENCRYPTED", "the PDF is password-protected")
        if doc.page_count < 1:
            raise PaperIngestError("E_PDF_CORRUPT", "the PDF has no pages")
        try:
            doc.load_page(0).get_text("text")
        except Exception as exc:
            raise PaperIngestError("E_PDF_CORRUPT", f"the first page is unreadable: {exc}") from exc
        title = (doc.metadata or {}).get("title") or None
        sha = hashlib.sha256(data).hexdigest()
        return PdfInfo(
            sha256=sha,
            paper_id=paper_id_for(sha),
            byte_size=len(data),
            page_count=doc.page_count,
            metadata_title=title.strip() if title and title.strip() else None,
        )
    finally:
        doc.close()
