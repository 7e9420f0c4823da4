"""The title of page 1 is its largest horizontal text, never a rotated margin stamp."""

from __future__ import annotations

import pymupdf

from repro_assets.papers.pages import extract_pages

TITLE = "Sparse Attention for Long Documents"


def _stamped_pdf(stamp_size: float = 20) -> bytes:
    """Page 1 as a preprint server stamps it: an identifier rotated up the left margin, in a
    font larger than the title, beside the title, authors and abstract."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((36, 560), "preprint:2101.01234v2 [cs.CL] 5 Feb 2021",
                     fontsize=stamp_size, fontname="tiro", rotate=90)
    page.insert_text((90, 100), TITLE, fontsize=17, fontname="hebo")
    page.insert_text((90, 130), "Ada Lovelace   Alan Turing", fontsize=11, fontname="helv")
    y = 170
    for line in ["Abstract"] + ["We study attention over long inputs and its cost."] * 20:
        page.insert_text((90, y), line, fontsize=10, fontname="helv")
        y += 14
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def test_the_rotated_margin_stamp_is_not_the_title() -> None:
    pages = extract_pages(_stamped_pdf(), "p1")
    assert pages.title == TITLE


def test_the_stamp_text_stays_in_the_page_text() -> None:
    """Only the title detection skips the stamp; the page text keeps everything printed."""
    pages = extract_pages(_stamped_pdf(), "p1")
    assert "2101.01234v2" in pages.pages[0].text
    assert TITLE not in pages.pages[0].section_titles
