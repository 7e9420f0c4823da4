"""A page with no text (a blank page, a full-page figure with no text layer) inside a paper:
the claims of the other pages are still read, and the reader does not fail on it."""

from __future__ import annotations

from repro_assets.papers.claims import extract_claims
from repro_assets.papers.claims.text import iter_sentences
from repro_assets.papers.pages import extract_pages
from tests.papers.layouts import Page, prose, render


def _paper(blank_at: int) -> bytes:
    result = Page(title="Sparse Lattice Models",
                  lines=prose("Our lattice model reaches 91.4% accuracy on the QuollSet "
                              "benchmark, the best result reported so far.", 72, 700))
    intro = Page(lines=prose("We study lattice models for image labelling.", 72, 700))
    pages = [intro, result]
    pages.insert(blank_at, Page())
    return render(pages)


def test_a_blank_page_yields_no_sentences_and_the_others_are_read() -> None:
    for blank_at in (0, 1, 2):
        pages = extract_pages(_paper(blank_at), "blank")
        sentences = [s for _, _, s in iter_sentences(pages)]
        assert any("91.4%" in s for s in sentences), blank_at


def test_claims_of_a_paper_with_a_blank_page() -> None:
    for blank_at in (1, 2):
        pdf = _paper(blank_at)
        claims = extract_claims(extract_pages(pdf, "blank"), pdf).claims
        assert [c.printed_value for c in claims] == ["91.4"], blank_at
        assert "QuollSet" in (claims[0].dataset_name or ""), blank_at
