"""Reliability fixtures: the API session fixtures (shared with ``tests/api``) and PDF makers."""

from __future__ import annotations

import random

import pymupdf

from tests.api.conftest import (  # noqa: F401 - re-exported fixtures
    LiveServer,
    api_database,
    app,
    client,
    instance,
    services,
)
from tests.pdfs import PAPER_PAGES, make_pdf


def pdf_of_size(size: int, seed: int = 0) -> bytes:
    """A valid two-page PDF of exactly ``size`` bytes (a stored, uncompressed attachment pads it).

    No repair is needed to open it: only a few bytes of whitespace follow ``%%EOF``.
    """
    base = make_pdf(PAPER_PAGES, title=f"Padded paper {seed}")

    def build(padding: int) -> bytes:
        doc = pymupdf.open(stream=base, filetype="pdf")
        doc.embfile_add("padding.bin", random.Random(seed).randbytes(padding))
        data = doc.tobytes(garbage=0, deflate=False)
        doc.close()
        return data

    overhead = len(build(1000)) - 1000
    data = build(size - overhead - 16)
    assert len(data) <= size, (len(data), size)
    return data + b"\n" * (size - len(data))


def with_leading_junk(pdf: bytes, junk_bytes: int) -> bytes:
    """``pdf`` preceded by ``junk_bytes`` of binary junk (no ``%PDF-`` in it)."""
    junk = (b"MIME-Version: 1.0\r\nX-Junk: \x00\x01\x02\xff" * (junk_bytes // 30 + 1))
    return junk[:junk_bytes] + pdf
