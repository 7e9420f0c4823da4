"""Hostile PDFs the reliability tests build themselves: a content-stream bomb, many pages."""

from __future__ import annotations

import zlib

import pymupdf

#: A string of 1 MiB of glyphs, shown with 0 % horizontal scaling (``0 Tz``): every glyph
#: lands on the same spot inside the page, and long runs deflate about 1000:1, so a stream of
#: a few hundred KB inflates to hundreds of MB of glyphs for the parser to place.
_SHOW = b"(" + b"A" * (1024 * 1024 - 10) + b") Tj\n"


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF file of numbered ``objects`` (1-based) with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def content_bomb(inflated_mb: int = 200, *, ordinary_first_page: bool = False) -> bytes:
    """A PDF whose FlateDecode content stream inflates to ``inflated_mb`` MB of text operators
    (about 1 KB of file per MB inflated). With ``ordinary_first_page`` the bomb is page 2 and
    page 1 is a short line of text (what a check of the first page alone lets through)."""
    deflater = zlib.compressobj(9)
    parts = [deflater.compress(b"BT /F1 9 Tf 0 Tz 100 700 Td\n")]
    parts.extend(deflater.compress(_SHOW) for _ in range(inflated_mb))
    parts.append(deflater.compress(b"ET\n"))
    parts.append(deflater.flush())
    stream = b"".join(parts)
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
            b" /Resources << /Font << /F1 5 0 R >> >> /Contents %d 0 R >>")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        page % 4,
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
        + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    if ordinary_first_page:
        text = b"BT /F1 12 Tf 72 700 Td (Visit summary) Tj ET"
        objects[1] = b"<< /Type /Pages /Kids [6 0 R 3 0 R] /Count 2 >>"
        objects += [page % 7,
                    b"<< /Length %d >>\nstream\n" % len(text) + text + b"\nendstream"]
    return _pdf(objects)


def many_pages(pages: int = 2000) -> bytes:
    """A small PDF of ``pages`` pages with a line of text each."""
    doc = pymupdf.open()
    for number in range(pages):
        doc.new_page().insert_text((72, 72), f"Page {number + 1} of a very long document.")
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data
