"""Running headers and footers: the same short line at the top or bottom edge of many pages.

A journal's running title, a venue line ("Under review as ..."), an author line on even pages,
a page number: each repeats on most pages, says nothing the first copy did not, and splits
paragraphs that run on over a page break. A block is boilerplate when

* it sits at a page's top or bottom edge (no text above, or none below, within a line), and
* it is short (at most two lines) and not a section heading, and
* the same text, with its numbers ignored, stands at an edge of at least
  :data:`MIN_PAGES` pages and of at least :data:`MIN_SHARE` of the paper's pages.

The first copy of a repeated line is kept (embedded once) unless it holds no words (a page
number, "- 3 -"); every other copy is dropped.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from repro_assets.papers.models import PageText, PaperPages, TextBlock

#: a line repeated on fewer pages than this is never boilerplate
MIN_PAGES = 3
#: ... nor one on a smaller share of the pages
MIN_SHARE = 0.3
#: how far (points) from the page's first or last text line a block may start or end
EDGE_POINTS = 6.0
_MAX_CHARS = 160


def _key(text: str) -> str:
    """The line with numbers ignored and whitespace collapsed, lower case."""
    return re.sub(r"\d+", "#", " ".join(text.split())).lower()


def _edge_blocks(page: PageText) -> list[int]:
    """Indexes of the short blocks at the page's top or bottom edge."""
    blocks = [b for b in page.blocks if b.text.strip()]
    if len(blocks) < 2:
        return []
    top = min(b.bbox[1] for b in blocks)
    bottom = max(b.bbox[3] for b in blocks)
    headings = set(page.section_titles)
    return [
        index for index, block in enumerate(page.blocks)
        if _short(block) and block.text.strip() not in headings
        and (block.bbox[1] - top <= EDGE_POINTS or bottom - block.bbox[3] <= EDGE_POINTS)
    ]


def _short(block: TextBlock) -> bool:
    text = block.text.strip()
    return bool(text) and len(text) <= _MAX_CHARS and text.count("\n") <= 1


@dataclass
class Boilerplate:
    """A paper's running headers and footers, as (page number, block index) places."""

    drop: set[tuple[int, int]] = field(default_factory=set)
    """Every copy left out of the chunks."""
    kept: set[tuple[int, int]] = field(default_factory=set)
    """The first copy of each repeated line that holds words: embedded once."""


def find_boilerplate(pages: PaperPages) -> Boilerplate:
    """The running headers and footers of ``pages``: the copies to drop, the ones to keep."""
    where: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for page in pages.pages:
        seen: set[str] = set()
        for index in _edge_blocks(page):
            key = _key(page.blocks[index].text)
            if key not in seen:
                seen.add(key)
                where[key].append((page.page_no, index))
    needed = max(MIN_PAGES, MIN_SHARE * len(pages.pages))
    found = Boilerplate()
    for key, places in where.items():
        if len(places) < needed:
            continue
        wordless = not re.search(r"[^\W\d_]{2,}", key)
        found.drop.update(places if wordless else places[1:])
        if not wordless:
            found.kept.add(places[0])
    return found
