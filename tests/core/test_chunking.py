from repro_assets.papers.chunking import chunk_pages, encoding
from repro_assets.papers.models import PageText, PaperPages, TextBlock


def _pages(blocks_per_page: list[list[str]], headings: dict[int, list[str]]) -> PaperPages:
    pages = []
    for number, blocks in enumerate(blocks_per_page, start=1):
        pages.append(
            PageText(
                page_no=number,
                text="\n".join(blocks),
                blocks=[TextBlock(text=b, bbox=(0, 0, 1, 1)) for b in blocks],
                section_titles=headings.get(number, []),
                has_text_layer=True,
            )
        )
    return PaperPages(paper_id="p", title="T", pages=pages)


def test_chunks_respect_the_limit_keep_pages_sections_and_exact_text() -> None:
    sentence = "The model is trained with stochastic gradient descent on the training split. "
    page1 = ["1 Introduction"] + [sentence * 3 for _ in range(6)]
    page2 = ["2 Method"] + [sentence * 4 for _ in range(6)]
    pages = _pages([page1, page2], {1: ["1 Introduction"], 2: ["2 Method"]})
    chunks = chunk_pages(pages, max_tokens=120, overlap_tokens=60)
    enc = encoding()
    assert len(chunks) > 4
    full = "\n".join(pages.pages[0].text.split("\n") + pages.pages[1].text.split("\n"))
    for chunk in chunks:
        assert chunk.token_count <= 120
        assert len(enc.encode_ordinary(chunk.text)) <= 120 + 10
        for line in chunk.text.split("\n"):
            assert line in full
    assert chunks[0].section == "1 Introduction" and chunks[0].page_start == 1
    assert chunks[-1].section == "2 Method" and chunks[-1].page_end == 2
    # overlap: a chunk starts with the previous chunk's last block when it fits
    assert chunks[1].text.split("\n")[0] in chunks[0].text


def test_oversized_block_is_cut_into_exact_windows() -> None:
    long_block = " ".join(f"word{i}" for i in range(400))
    chunks = chunk_pages(_pages([[long_block]], {}), max_tokens=100, overlap_tokens=0)
    assert len(chunks) >= 4
    assert all(c.token_count <= 100 for c in chunks)
    assert all(c.text in long_block for c in chunks)


def test_default_size_is_capped_by_the_model() -> None:
    from repro_assets.papers.chunking import default_max_tokens

    assert default_max_tokens() == 254  # all-MiniLM-L6-v2 reads 256 word pieces
