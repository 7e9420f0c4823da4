import httpx
import pytest
import respx

from repro_assets.papers.ingest import fetch_pdf, read_source
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.pdf import MAX_PDF_BYTES, PaperIngestError, validate_pdf
from tests.pdfs import PAPER_PAGES, make_corrupt_pdf, make_encrypted_pdf, make_pdf


def _code(data: bytes) -> str:
    with pytest.raises(PaperIngestError) as info:
        validate_pdf(data)
    return info.value.code


def test_good_pdf_validates_with_stable_id() -> None:
    data = make_pdf(PAPER_PAGES, title="SVMs on Wine")
    info = validate_pdf(data)
    assert info.page_count == 2 and info.metadata_title == "SVMs on Wine"
    assert info.paper_id == info.sha256[:16]
    assert validate_pdf(data).paper_id == info.paper_id


def test_every_bad_input_has_its_code() -> None:
    assert _code(b"") == "E_UNSUPPORTED_MEDIA_TYPE"
    assert _code(b"Hello, I am a text file") == "E_UNSUPPORTED_MEDIA_TYPE"
    assert _code(b"\x89PNG\r\n\x1a\n" + b"0" * 100) == "E_UNSUPPORTED_MEDIA_TYPE"
    assert _code(make_corrupt_pdf()) == "E_PDF_CORRUPT"
    assert _code(make_encrypted_pdf()) == "E_PDF_ENCRYPTED"
    assert _code(b"%PDF-1.7\n" + b"0" * MAX_PDF_BYTES) == "E_FILE_TOO_LARGE"


def test_pages_blocks_title_and_sections() -> None:
    pages = extract_pages(make_pdf(PAPER_PAGES, title="SVMs on Wine"), "p1")
    assert pages.title == "SVMs on Wine"
    assert [p.page_no for p in pages.pages] == [1, 2]
    assert "97.2% accuracy" in pages.pages[1].text
    assert pages.pages[1].section_titles == ["2 Method", "3 Results"]
    assert "Abstract" in pages.pages[0].section_titles
    block = pages.pages[1].blocks[0]
    assert block.bbox[2] > block.bbox[0] and block.bbox[3] > block.bbox[1]
    assert pages.has_text_layer


def test_page_without_text_layer_is_flagged() -> None:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect(pymupdf.Rect(50, 50, 200, 200), color=(0, 0, 0), fill=(0.5, 0.5, 0.5))
    data = doc.tobytes()
    pages = extract_pages(data, "scan")
    assert not pages.has_text_layer and not pages.pages[0].has_text_layer


@respx.mock
def test_url_fetch_success_and_failures() -> None:
    data = make_pdf(PAPER_PAGES)
    respx.get("https://example.org/ok.pdf").mock(return_value=httpx.Response(200, content=data))
    respx.get("https://example.org/missing.pdf").mock(return_value=httpx.Response(404))
    respx.get("https://example.org/slow.pdf").mock(side_effect=httpx.ConnectTimeout("slow"))
    respx.get("https://example.org/huge.pdf").mock(
        return_value=httpx.Response(200, content=b"%PDF-" + b"0" * 2048)
    )
    assert fetch_pdf("https://example.org/ok.pdf") == data
    for url, code in [
        ("https://example.org/missing.pdf", "E_FETCH_FAILED"),
        ("https://example.org/slow.pdf", "E_FETCH_FAILED"),
    ]:
        with pytest.raises(PaperIngestError) as info:
            fetch_pdf(url)
        assert info.value.code == code
    with pytest.raises(PaperIngestError) as info:
        fetch_pdf("https://example.org/huge.pdf", max_bytes=1024)
    assert info.value.code == "E_FILE_TOO_LARGE"


def test_read_source_missing_file(tmp_path) -> None:
    with pytest.raises(PaperIngestError) as info:
        read_source(str(tmp_path / "nope.pdf"))
    assert info.value.code == "E_FETCH_FAILED"
