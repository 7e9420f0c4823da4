"""References of ingested paper PDFs: metadata from the PDF, stored, formatted by citeproc.

Reproduces issue #16: a cited paper's reference was "Title. (n.d.). /path/to/file.pdf". The
PDFs are generated here in the layouts real papers use: an arXiv margin stamp with a byline of
name / affiliation / e-mail blocks, and a proceedings header with a DOI.
"""

from __future__ import annotations

import pymupdf
import pytest

from repro_assets.debate.evidence import hit_records, hit_reference
from repro_assets.papers.ingest import store_paper
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.embedder import EmbedderResource
from repro_assets.scholarly.paper_metadata import read_pdf_metadata, split_names
from repro_assets.storage.database import get_database
from repro_assets.storage.vectorstore import ChunkIn, DocumentIn, VectorStore

BODY = ("We study compact networks for digit recognition. Our method improves accuracy "
        "over the baseline by two points on the test split.")


def _pdf(lines: list[tuple[str, float]], stamp: str | None = None,
         metadata: dict[str, str] | None = None) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 90.0
    for text, size in lines:
        page.insert_text((72, y), text, fontsize=size, fontname="helv")
        y += size + 8
    if stamp:  # arXiv prints its stamp rotated in the left margin
        page.insert_text((30, 600), stamp, fontsize=20, rotate=90, fontname="helv")
    if metadata:
        doc.set_metadata(metadata)
    data = doc.tobytes()
    doc.close()
    return data


ARXIV_PAPER = [
    ("Compact Networks for Digit Recognition", 17), ("Ada Lovelace*", 11),
    ("Analytical Engine Institute", 10), ("Springfield Office", 10),
    ("ada@example.org", 9), ("Alan M. Turing", 11), ("University of Somewhere", 10),
    ("alan@example.org", 9), ("Abstract", 12), (BODY, 9),
]
PROCEEDINGS_PAPER = [
    ("Proceedings of the 9th Workshop on Small Models, pages 10-20", 8),
    ("https://doi.org/10.1234/wsm.2019.10", 8),
    ("Pruning Small Models Carefully", 16),
    ("Grace Hopper, Katherine Johnson and John von Neumann", 11),
    ("Navy Research Laboratory", 10), ("Abstract", 12), (BODY, 9),
]


def test_arxiv_stamp_title_and_name_blocks() -> None:
    meta = read_pdf_metadata(_pdf(ARXIV_PAPER, stamp="arXiv:2101.01234v2 [cs.LG] 3 Feb 2021"),
                             known_title="arXiv:2101.01234v2 [cs.LG] 3 Feb 2021")
    assert meta.title == "Compact Networks for Digit Recognition"
    assert meta.arxiv_id == "2101.01234" and meta.year == 2021
    # "Springfield Office" looks like a name but follows an affiliation: it is an address
    assert meta.authors == ["Ada Lovelace", "Alan M. Turing"]


def test_proceedings_header_doi_pages_and_one_line_byline() -> None:
    meta = read_pdf_metadata(_pdf(PROCEEDINGS_PAPER, metadata={
        "title": "Proceedings of the 9th Workshop on Small Models",
        "author": "Association for Small Models"}), known_title="Pruning Small Models Carefully")
    assert meta.title == "Pruning Small Models Carefully"  # the metadata names the volume
    assert meta.authors == ["Grace Hopper", "Katherine Johnson", "John von Neumann"]
    assert meta.doi == "10.1234/wsm.2019.10" and meta.pages == "10-20"
    assert meta.venue == "Proceedings of the 9th Workshop on Small Models" and meta.year is None


def test_affiliations_and_emails_are_not_names() -> None:
    assert split_names("Ian J. Goodfellow, Jean Pouget-Abadie\u2217, and Mehdi Mirza") == [
        "Ian J. Goodfellow", "Jean Pouget-Abadie", "Mehdi Mirza"]
    assert split_names("University of Somewhere") is None
    assert split_names("Google Research, Brain Team") is None
    assert split_names("ada@example.org") is None


@pytest.mark.parametrize("layout,expected", [
    (ARXIV_PAPER, "Lovelace, A., & Turing, A. M. (2021). *Compact Networks for Digit "
     "Recognition* (arXiv:2101.01234). arXiv. https://doi.org/10.48550/arXiv.2101.01234"),
    (PROCEEDINGS_PAPER, "Hopper, G., Johnson, K., & von Neumann, J. (n.d.). Pruning Small "
     "Models Carefully. *Proceedings of the 9th Workshop on Small Models*, 10\u201320. "
     "https://doi.org/10.1234/wsm.2019.10"),
])
def test_a_cited_paper_gets_a_real_reference_stored_with_its_document(
    fresh_database: str, tmp_path, layout: list[tuple[str, float]], expected: str,  # noqa: ANN001
) -> None:
    db = get_database(fresh_database)
    blobs = BlobStoreResource().get_store()
    data = _pdf(layout, stamp="arXiv:2101.01234v2 [cs.LG] 3 Feb 2021"
                if layout is ARXIV_PAPER else None)
    local_path = str(tmp_path / "compact.pdf")
    paper = store_paper(db, blobs, data, source_url=local_path)
    store = VectorStore(db, EmbedderResource().get_embedder())
    store.upsert_document(
        DocumentIn(source_kind="paper", external_id=paper.paper_id, title=layout[0][0],
                   paper_id=paper.paper_id, url=local_path),
        [ChunkIn(ordinal=0, content=BODY, token_count=30)])
    [hit] = store.search("compact networks digit recognition", k=1)
    before = hit_reference(hit, {})
    assert local_path in before or "n.d." in before  # what the issue saw

    records = hit_records(store, [hit], blobs=blobs)
    assert hit_reference(hit, records) == expected
    assert local_path not in expected
    # stored with the document: the next lookup reads it back without the PDF
    assert hit_reference(hit, hit_records(store, [hit])) == expected
