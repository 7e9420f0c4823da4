"""Upload size and PDF header rules (issue #17, item 4; seed 000 stage 1).

* A PDF of exactly 15 MiB (15,728,640 bytes) is accepted; one byte more is 413
  ``E_FILE_TOO_LARGE``. The limit counts the file, not the multipart envelope around it.
* A PDF with junk before ``%PDF-`` within the first 1024 bytes is a PDF (the PDF spec only asks
  that the header appears there; every reader accepts qpdf's ``leading-junk.pdf``).
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from repro_assets.papers.pdf import MAX_PDF_BYTES, PaperIngestError, validate_pdf
from tests.pdfs import PAPER_PAGES, make_pdf
from tests.reliability.conftest import pdf_of_size, with_leading_junk

FIFTEEN_MIB = 15_728_640


def test_the_limit_is_fifteen_mib() -> None:
    assert MAX_PDF_BYTES == FIFTEEN_MIB


def test_generated_pdf_sizes_are_exact() -> None:
    data = pdf_of_size(FIFTEEN_MIB)
    assert len(data) == FIFTEEN_MIB
    assert validate_pdf(data).byte_size == FIFTEEN_MIB
    with pytest.raises(PaperIngestError) as info:
        validate_pdf(data + b"\n")
    assert info.value.code == "E_FILE_TOO_LARGE"


@pytest.mark.parametrize("junk", [1, 200, 1019])
def test_junk_before_the_header_within_1024_bytes_is_accepted(junk: int) -> None:
    pdf = make_pdf(PAPER_PAGES, title="Junk first")
    data = with_leading_junk(pdf, junk)
    assert data.index(b"%PDF-") == junk
    info = validate_pdf(data)
    assert info.page_count == 2 and info.byte_size == len(data)


def test_header_after_1024_bytes_is_not_a_pdf() -> None:
    data = with_leading_junk(make_pdf(PAPER_PAGES), 1100)
    with pytest.raises(PaperIngestError) as info:
        validate_pdf(data)
    assert info.value.code == "E_UNSUPPORTED_MEDIA_TYPE"


def _upload(client: TestClient, data: bytes, name: str = "paper.pdf"):  # noqa: ANN202
    return client.post("/api/v1/papers/ingest", files={"file": (name, data, "application/pdf")},
                       data={"title": "Size limit"})


def test_api_accepts_exactly_fifteen_mib(client: TestClient) -> None:
    answer = _upload(client, pdf_of_size(FIFTEEN_MIB, seed=1))
    assert answer.status_code == 200, answer.text
    assert answer.json()["pages"] == 2


def test_api_refuses_one_byte_more_with_413(client: TestClient) -> None:
    answer = _upload(client, pdf_of_size(FIFTEEN_MIB + 1, seed=2))
    assert answer.status_code == 413
    assert answer.json()["error"] == "E_FILE_TOO_LARGE"


def test_api_refuses_a_huge_body_before_reading_it(client: TestClient) -> None:
    answer = _upload(client, b"%PDF-1.7\n" + b"0" * (FIFTEEN_MIB + 200_000))
    assert answer.status_code == 413
    assert answer.json()["error"] == "E_FILE_TOO_LARGE"


def test_api_accepts_leading_junk(client: TestClient) -> None:
    data = with_leading_junk(make_pdf(PAPER_PAGES, title="Leading junk via the API"), 700)
    answer = _upload(client, data)
    assert answer.status_code == 200, answer.text
    assert answer.json()["pages"] == 2
