"""Results tables of a PDF: captions, the table block of each caption, then its grid.

1. Captions: lines starting "Table N:" / "Figure N." (also "Tab."/"Fig."; appendix and
   supplementary numbers "A2", "S3", "B.1"), or a label "Table N" alone on its line with the
   caption text centred on the lines below it (journal style). On a two-column page a
   caption narrower than half the page belongs to its column; only that column's words are
   used, so prose of the other column never merges into table rows.
2. The block of a caption: the run of table lines next to it (above or below, whichever
   side has table rows closer), up to prose, another caption or a large gap. Words in plots
   (curves, markers, images) are ignored. A block holds one or more segments (sub-tables
   with their own header, "(a) ..." sub-captions).
3. Each segment becomes a grid (:mod:`.grid`). A block with ruled cells (vertical rules) is
   read with PyMuPDF ``find_tables`` restricted to the block, cell text taken from the words
   inside each cell box.
"""

from __future__ import annotations

import logging
import re
import statistics
from dataclasses import dataclass
from typing import Any

import pymupdf

from repro_assets.papers.tables.cells import is_numeric_cell, parse_cell_values
from repro_assets.papers.tables.grid import build_table, is_subcaption, is_value_line, is_wordy
from repro_assets.papers.tables.layout import (
    Line,
    Rule,
    Word,
    attach_stray_dots,
    attach_stray_signs,
    group_lines,
    in_graphics,
    is_multi_column,
    page_graphics,
    page_words,
    split_cells,
)
from repro_assets.papers.tables.model import ParsedTable

log = logging.getLogger(__name__)

_CAPTION_START = re.compile(r"^(Table|TABLE|Tab\.|Figure|FIGURE|Fig\.)$")
#: A table number: 3, IV, or an appendix/supplementary number (A2, S3, B.1).
_NUMBER = r"(?:[A-Z]\.?\d+|\d+|[IVX]+)"
_CAPTION_NUMBER = re.compile(rf"^({_NUMBER})([:.]|$)")
_CAPTION_TEXT = re.compile(
    rf"^\s*(Table|TABLE|Tab\.|Figure|FIGURE|Fig\.)\s*({_NUMBER})\s*[:.]")
_LABEL_ALONE = re.compile(rf"^(Table|TABLE)\s+({_NUMBER})\.?$")


@dataclass
class Caption:
    """A table or figure caption and the column it belongs to."""

    kind: str
    number: str
    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    lines: list[Line]


#: Lines a caption may run on for after its first, in its own column.
_CAPTION_LINES = 11


def _is_prose(line: Line, width: float) -> bool:
    """Running text: five or more words without a column gap, spanning much of the region
    (or ending a sentence)."""
    if len(line.words) < 5:
        return False
    gaps = [b.x0 - a.x1 for a, b in zip(line.words, line.words[1:], strict=False)]
    if max(gaps, default=0) > 0.9 * line.height + 1:
        return False
    numbers = sum(1 for w in line.words if is_numeric_cell(w.text))
    if numbers > 0.3 * len(line.words):
        return False
    return line.x1 - line.x0 >= 0.4 * width or line.words[-1].text.endswith((".", ":"))


def _two_column_prose(line: Line, x0: float, width: float) -> bool:
    """Running text of two columns printed level under a caption that spans both: the words
    left of the region's middle and those right of it are each prose across their column
    (a wide region of a two-column page, below or above a full-width table)."""
    mid = x0 + width / 2
    left = [w for w in line.words if w.x1 <= mid]
    right = [w for w in line.words if w.x0 >= mid]
    if len(left) + len(right) < len(line.words) or not left or not right:
        return False  # a word over the middle: one line across, not two columns
    return all(_is_prose(Line(side, split_cells(side)), width / 2) for side in (left, right))


def _caption_at(line: Line, index: int) -> str | None:
    words = line.words
    if not _CAPTION_START.match(words[index].text) or index + 1 >= len(words):
        return None
    nxt = words[index + 1].text
    if _CAPTION_NUMBER.match(nxt) and (nxt.endswith((":", ".")) or (
            index + 2 < len(words) and words[index + 2].text in {":", "."})):
        return _CAPTION_NUMBER.match(nxt).group(1)  # type: ignore[union-attr]
    glued = re.match(rf"^({_NUMBER})[:.]", nxt)
    return glued.group(1) if glued else None


def find_captions(lines: list[Line], width: float, multi: bool = False) -> list[Caption]:
    """Table and figure captions of a page, with their continuation lines.

    On a two-column page (``multi``) a caption line stops at the gutter.
    """
    out: list[Caption] = []
    for n, line in enumerate(lines):
        used = -1
        alone = _label_alone(lines, n, width)
        for i, word in enumerate(line.words):
            if i <= used:
                continue
            number = _caption_at(line, i) or (alone if i == 0 else None)
            if number is None:
                continue
            after_gutter = multi and line.words[i - 1].x1 <= width / 2 <= word.x0 if i else False
            # a caption of the next column printed level with this one's text: another baseline
            after_gutter = after_gutter or (i > 0 and _other_baseline(line.words[i - 1], word))
            if i > 0 and word.x0 - line.words[i - 1].x1 < 2 * line.height and not after_gutter:
                continue  # "as shown in Table 2." inside a sentence
            own = _caption_words(line, i, width, multi)
            used = i + len(own) - 1
            x0, x1 = word.x0, max(w.x1 for w in own)
            if alone and i == 0:  # the caption text below sets the caption's extent
                x0, x1 = min(x0, lines[n + 1].x0), max(x1, lines[n + 1].x1)
            kind = "figure" if word.text.lower().startswith("fig") else "table"
            cap_lines = [Line(own, split_cells(own))]
            narrow = multi and x1 - x0 < 0.6 * width
            col0, col1 = ((0.0, width / 2) if x0 < width / 2 else (width / 2, width)) if (
                narrow) else (0.0, width)
            seen = 0  # lines of the caption's column looked at (the other column's skipped)
            for below in lines[n + 1:]:
                prev = cap_lines[-1]
                in_column = [w for w in below.words if col0 <= w.xc <= col1]
                seen += bool(in_column)
                if seen > _CAPTION_LINES:
                    break
                words = [w for w in in_column if w.x0 >= x0 - 15 and w.x1 <= x1 + 15]
                cut = next((k for k in range(1, len(words))
                            if _other_baseline(words[k - 1], words[k])), None)
                if cut is not None:  # the rest is the caption of a table beside this one
                    in_column = in_column[:in_column.index(words[cut - 1]) + 1]
                    words = words[:cut]
                run = _run_over(in_column, x0, x1, below.height)
                if words and len(words) < len(run):
                    break  # the line reaches beyond the caption: a table header
                if below.yc - prev.yc > 1.8 * prev.height + 2:
                    break
                if not words or below.yc <= prev.yc + 0.5 * prev.height:
                    continue
                sub = Line(words, split_cells(words))
                gaps = [b.x0 - a.x1 for a, b in zip(words, words[1:], strict=False)]
                tight = max(gaps, default=0) <= 1.2 * sub.height + 2
                if _CAPTION_TEXT.match(sub.text) or not tight or (
                        len(words) < 5 and abs(words[0].x0 - x0) > 15):
                    break
                cap_lines.append(sub)
            text = " ".join(ln.text for ln in cap_lines)
            out.append(Caption(kind, number, re.sub(r"\s+", " ", text).strip(), x0, x1,
                               line.y0, cap_lines[-1].y1, cap_lines))
    return out


def _caption_words(line: Line, i: int, width: float, multi: bool) -> list[Word]:
    """The words of a caption's first line from its label (word ``i``) on: up to a large gap,
    the gutter, another baseline, or another caption's label after more than a word space
    ('... on the X   Figure 2: ...': the caption of the next column printed level)."""
    own = [line.words[i]]
    for j, nxt in enumerate(line.words[i + 1:], start=i + 1):
        gutter = multi and own[-1].x1 <= width / 2 <= nxt.x0
        gap = nxt.x0 - own[-1].x1
        # 'TABLE II.   TITLE OF THE TABLE': a label closed by its point, then its title set
        # apart on the same baseline (journal style), on the label's side of the gutter
        titled = j == i + 2 and own[-1].text.endswith((".", ":")) and gap <= 10 * line.height
        if (gap > 2 * line.height and not titled) or (gutter and gap > 6) or _other_baseline(
                own[-1], nxt):
            break
        if gap > 0.8 * line.height and _caption_at(line, j):
            break
        own.append(nxt)
    return own


def _label_alone(lines: list[Line], n: int, width: float) -> str | None:
    """The number of a "Table N" label printed alone on line ``n`` with its caption text on
    the next line, centred under it (journal style); None otherwise.

    The next line must be close below, hold words (not a row of values) and share the label's
    centre, so a wrapped sentence ending in "Table 3" is not taken for a caption.
    """
    line = lines[n]
    match = _LABEL_ALONE.match(line.text.strip())
    if not match or len(line.words) > 3 or n + 1 >= len(lines):
        return None
    below = lines[n + 1]
    close = below.yc - line.yc <= 1.8 * line.height + 2
    centred = abs((below.x0 + below.x1) / 2 - (line.x0 + line.x1) / 2) <= 0.05 * width
    words = sum(1 for w in below.words if re.search(r"[A-Za-z]{2}", w.text))
    if close and centred and words >= 3 and not is_value_line(below):
        return match.group(2)
    return None


def _other_baseline(left: Word, right: Word) -> bool:
    """Two words of one grouped line that are apart and on baselines 1.5 pt or more apart:
    text of two columns printed level (a caption beside another table's caption)."""
    return right.x0 > left.x1 + 2 and abs(right.y1 - left.y1) >= 1.5


def _run_over(words: list[Word], x0: float, x1: float, height: float) -> list[Word]:
    """The words of a line connected (gaps under two heights) to those over [x0, x1]."""
    runs: list[list[Word]] = []
    for word in words:
        last = runs[-1][-1] if runs else None
        if last and word.x0 - last.x1 <= 2 * height and not _other_baseline(last, word):
            runs[-1].append(word)
        else:
            runs.append([word])
    return [w for run in runs if any(w.x1 >= x0 and w.x0 <= x1 for w in run) for w in run]


def _region_lines(
    words: list[Word], x0: float, x1: float, graphics: list[pymupdf.Rect]
) -> list[Line]:
    inside = [w for w in words if x0 - 2 <= w.xc <= x1 + 2 and not in_graphics(w, graphics)]
    outside = [w for w in words if not x0 - 2 <= w.xc <= x1 + 2]
    return [ln for ln in attach_stray_signs(attach_stray_dots(group_lines(inside)))
            if not _clipped(ln, outside, x0, x1)]


def _clipped(line: Line, outside: list[Word], x0: float, x1: float) -> bool:
    """True when ``line`` is the part of a wider line of text cut at the region's edge (a
    running head or a title printed across both columns): a word on its baseline continues
    it just outside the region, a word gap away."""
    first, last = line.words[0], line.words[-1]
    gap = 1.5 * max(first.y1 - first.y0, 1.0)
    return any(abs(w.y1 - first.y1) < 1.0 and (
        (w.x1 <= first.x0 and first.x0 - w.x1 <= gap and first.x0 - 2 * gap <= x0 + 2)
        or (w.x0 >= last.x1 and w.x0 - last.x1 <= gap and last.x1 + 2 * gap >= x1 - 2))
        for w in outside)


def _block(
    lines: list[Line], caption: Caption, width: float, above: bool,
    others: list[Caption] | None = None, x0: float = 0.0,
) -> list[Line]:
    """Table lines next to the caption on one side (top to bottom), up to prose (of the region
    from ``x0``, ``width`` wide, or of its two halves side by side), another caption or a
    large gap."""
    first, last = caption.lines[0], caption.lines[-1]
    if above:
        side = [ln for ln in lines if ln.yc < first.yc - 0.6 * first.height][::-1]
        edge = caption.y0
    else:
        side = [ln for ln in lines if ln.yc > last.yc + 0.6 * last.height]
        edge = caption.y1
    taken: list[Line] = []
    heights = [ln.height for ln in side[:12]] or [10.0]
    h = statistics.median(heights)
    gaps: list[float] = []
    for line in side:
        gap = (edge - line.y1) if above else (line.y0 - edge)
        if not taken:
            limit = 4.5 * h
        elif len(gaps) < 2:
            limit = 2.6 * h + 4
        else:
            limit = min(2.6 * h + 4, 2.0 * statistics.median(gaps) + 0.8 * h)
        if gap > limit and not (taken and gap <= 2.6 * h + 4 and _stacked(line, taken)):
            break
        if taken and gap <= limit:
            gaps.append(max(gap, 0.0))
        if _CAPTION_TEXT.match(line.text):
            break
        if (_is_prose(line, width) or _two_column_prose(line, x0, width)) and not (
                is_subcaption(line)):
            later = side[side.index(line) + 1:side.index(line) + 2]
            inner = (line.x1 - line.x0 < 0.7 * width and taken and later
                     and is_value_line(later[0]) and is_value_line(taken[-1]))
            if not inner:  # running text, not a group title between table rows
                break
        lo, hi = (line.y1, edge) if above else (edge, line.y0)
        if any(lo - 1 <= (o.y0 + o.y1) / 2 <= hi + 1 for o in others or []):
            break
        taken.append(line)
        edge = line.y0 if above else line.y1
    return taken[::-1] if above else taken


def _stacked(line: Line, taken: list[Line]) -> bool:
    """True when ``line``, beyond a gap wider than the table's row pitch, is a row or header of
    one more block stacked on the same columns (sub-tables one above the other, each under its
    own header 'X | BLEU'): two cells or more, each starting or ending where a cell of a line
    already taken does."""
    if len(line.cells) < 2:
        return False
    edges = [(c.x0, c.x1) for ln in taken for c in ln.cells]
    return all(any(abs(c.x0 - a) <= 4 or abs(c.x1 - b) <= 4 for a, b in edges)
               for c in line.cells)


def _segments(block: list[Line]) -> list[tuple[list[Line], list[Line], str | None]]:
    """Split a block into (header lines, body lines, title) sub-tables."""
    segments: list[tuple[list[Line], list[Line], str | None]] = []
    header: list[Line] = []
    body: list[Line] = []
    title: str | None = None
    for line in block:
        if is_subcaption(line):
            if body:
                segments.append((header, body, line.text))
                header, body, title = [], [], None
            else:
                title = line.text
            continue
        if is_value_line(line) and not (not body and (_small_print(line, block)
                                                      or is_wordy(line))):
            body.append(line)
            continue
        value_x0 = min((c.x0 for ln in body if is_value_line(ln) for c in ln.cells[1:]),
                       default=float("inf"))
        over_values = sum(1 for c in line.cells if c.x1 > value_x0)
        value_cols = max((len(ln.cells) - 1 for ln in body if is_value_line(ln)), default=0)
        # one value column: a label cell and a cell over it ('X | BLEU'), not a long group
        # title running over the column ('Trained on more data')
        block_header = value_cols == 1 and over_values == 1 and len(line.cells) >= 2
        if body and (over_values >= 2 or block_header) and not any(
                w.vertical for w in line.words):
            # a new header after rows: a new sub-table; trailing title lines move with it
            moved: list[Line] = []
            while body and not is_value_line(body[-1]) and len(body[-1].cells) == 1:
                moved.insert(0, body.pop())
            segments.append((header, body, title))
            header, body = [], []
            title = " ".join(m.text for m in moved) or None
            header.append(line)
            continue
        if body:
            body.append(line)
        else:
            header.append(line)
    if body:
        segments.append((header, body, title))
    return [(h[-5:], b, t) for h, b, t in segments]


def _small_print(line: Line, block: list[Line]) -> bool:
    """Sub- or superscripts of a header ('AP' over '50 75'): smaller than the table rows."""
    rows = [ln.height for ln in block if ln is not line and is_value_line(ln)]
    return bool(rows) and line.height < 0.8 * statistics.median(rows)


@dataclass
class _Candidate:
    """A caption with the table blocks above and below it."""

    page_no: int
    caption: Caption
    above: list[Line]
    below: list[Line]
    rules: list[Rule]
    vertical_rules: list[pymupdf.Rect]
    words: list[Word]

    def side_rows(self, above: bool) -> list[Line]:
        """The value lines of one side's block; none for a block of one line (a running head
        with its page number over a caption is no table: a table has a header or a second
        row, and a one-line block never reads as one)."""
        block = self.above if above else self.below
        return [ln for ln in block if is_value_line(ln)] if len(block) >= 2 else []

    def gap(self, above: bool) -> float:
        rows = self.side_rows(above)
        if not rows:
            return float("inf")
        return self.caption.y0 - rows[-1].y1 if above else rows[0].y0 - self.caption.y1


def _candidates(page: pymupdf.Page, page_no: int) -> list[_Candidate]:
    """Every caption of a page with its candidate blocks."""
    words = page_words(page)
    if not words:
        return []
    width = page.rect.width
    multi = is_multi_column(group_lines(words), width)
    all_lines = group_lines(words, width / 2 if multi else None)
    captions = find_captions(all_lines, width, multi)
    if not captions:
        return []
    rules, graphics, vertical_rules = page_graphics(page)
    caption_words = {id(w) for c in captions for ln in c.lines for w in ln.words}
    body_words = [w for w in words if id(w) not in caption_words]
    out = []
    for caption in captions:
        straddles = caption.x0 < width / 2 - 10 < width / 2 + 10 < caption.x1  # centred
        if multi and caption.x1 - caption.x0 < 0.6 * width and not straddles:
            x0, x1 = (0.0, width / 2) if caption.x0 < width / 2 else (width / 2, width)
        elif caption.x0 >= width / 2 - 5:  # a caption in the right column of a page whose
            x0, x1 = width / 2, width      # upper part is one wide table or figure
        elif (right := _beside(caption, captions)) is not None:
            x0, x1 = 0.0, (caption.x1 + right.x0) / 2  # the left one of two side by side
        else:
            x0, x1 = 0.0, width
        lines = _region_lines(body_words, x0, x1, graphics)
        others = [c for c in captions if c is not caption and c.x1 > x0 and c.x0 < x1]
        out.append(_Candidate(
            page_no, caption, _block(lines, caption, x1 - x0, True, others, x0),
            _block(lines, caption, x1 - x0, False, others, x0), rules, vertical_rules, words))
    return out


def _beside(caption: Caption, captions: list[Caption]) -> Caption | None:
    """A caption printed to the right of ``caption`` at the same height (two tables side by
    side, each over or under its own caption): the tables split at the gap between them."""
    height = caption.lines[0].height
    for other in captions:
        overlap = min(caption.y1, other.y1) - max(caption.y0, other.y0)
        if other is not caption and other.x0 >= caption.x1 - 2 and overlap > -2 * height and (
                abs(other.y0 - caption.y0) < 3 * height):
            return other
    return None


def _convention(candidates: list[_Candidate]) -> dict[str, bool | None]:
    """Per kind (table/figure): True when tables sit above their captions, False below,
    None when the document does not say (judged from captions with rows on one side only)."""
    out: dict[str, bool | None] = {"figure": True}  # figure captions go below the figure
    for kind in ("table",):
        votes = [c.gap(True) < c.gap(False) for c in candidates if c.caption.kind == kind
                 and (c.side_rows(True) or c.side_rows(False))]
        one_sided = [bool(c.side_rows(True)) for c in candidates if c.caption.kind == kind
                     and bool(c.side_rows(True)) != bool(c.side_rows(False))]
        pool = one_sided if len(one_sided) >= 2 else votes
        share = sum(pool) / len(pool) if pool else 0.5
        out[kind] = True if share >= 0.75 else False if share <= 0.25 else None
    return out


def _sides(candidates: list[_Candidate], convention: dict[str, bool | None]
           ) -> list[bool | None]:
    """Per caption of one page: True to read the block above it, False below, None nearest.

    Where the document has no convention, a block is one caption's only: captions with table
    rows on one side only take that side first, then each other caption (top to bottom) takes
    its nearest side whose rows no caption took already ('TABLE II' between the rows of TABLE
    I above it and its own rows below it takes its own).
    """
    sides: list[bool | None] = [convention[c.caption.kind] for c in candidates]
    taken: list[tuple[float, float, float, float]] = []

    def box(cand: _Candidate, above: bool) -> tuple[float, float, float, float]:
        rows = cand.side_rows(above)
        return (min(r.x0 for r in rows), min(r.y0 for r in rows),
                max(r.x1 for r in rows), max(r.y1 for r in rows))

    def free(cand: _Candidate, above: bool) -> bool:
        x0, y0, x1, y1 = box(cand, above)
        return not any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in taken)

    open_ = [i for i, s in enumerate(sides) if s is None]
    for i in open_:
        cand = candidates[i]
        if bool(cand.side_rows(True)) != bool(cand.side_rows(False)):
            only_above = bool(cand.side_rows(True))
            sides[i] = only_above
            taken.append(box(cand, only_above))
    for i in sorted((i for i in open_ if sides[i] is None),
                    key=lambda i: candidates[i].caption.y0):
        cand = candidates[i]
        options = [a for a in (True, False) if cand.side_rows(a) and free(cand, a)]
        if options:
            nearest = min(options, key=cand.gap)
            sides[i] = nearest
            taken.append(box(cand, nearest))
    return sides


def _tables_of(candidate: _Candidate, convention: bool | None, ruled: bool,
               page: pymupdf.Page | None) -> list[ParsedTable]:
    """Build the tables of a caption on its side (the document's convention, else nearest)."""
    caption = candidate.caption
    if convention is None:
        above = candidate.gap(True) <= candidate.gap(False)
    else:
        above = convention
    block = candidate.above if above else candidate.below
    if not [ln for ln in block if is_value_line(ln)]:
        return []
    tables: list[ParsedTable] = []
    for header, body, title in _segments(block):
        parts = build_table(header, body, candidate.rules, page_no=candidate.page_no,
                            number=caption.number, caption=caption.text, kind=caption.kind,
                            title=title)
        tables += _own_subcaptions(parts, title)
    tables = [t for t in tables if _plausible_grid(t)]
    if tables and ruled and page is not None:
        box = pymupdf.Rect(min(ln.x0 for ln in block) - 8, min(ln.y0 for ln in block) - 4,
                           max(ln.x1 for ln in block) + 8, max(ln.y1 for ln in block) + 4)
        columns = {round(v.x0) for v in candidate.vertical_rules if v.intersects(box)}
        rows = {round(r.y) for r in candidate.rules
                if box.y0 <= r.y <= box.y1 and r.x0 < box.x1 and r.x1 > box.x0}
        body_rows = sum(len(t.rows) for t in tables)
        if len(columns) >= 3 and len(rows) >= body_rows:  # a fully ruled grid
            found = _find_tables(page, box, candidate.words, candidate.page_no, caption)
            if found and _agree(found, tables):
                tables = found
            elif found:
                log.info("page %s %s: find_tables disagrees with the word layout; using the "
                         "layout", candidate.page_no, caption.text[:40])
    return tables


#: A panel's sub-caption mark: '(a)' .. '(h)', '(i)' .. '(viii)'.
SUBCAPTION_MARK = r"\((?:[a-h]|[ivx]{1,4})\)"
#: Where the next sub-caption of a line starts ('(a) X  (b) Y': before '(b)').
_NEXT_SUBCAPTION = re.compile(rf"\s+(?={SUBCAPTION_MARK}\s)")


def _own_subcaptions(parts: list[ParsedTable], title: str | None) -> list[ParsedTable]:
    """Side-by-side panels under one line of sub-captions ('(a) X  (b) Y', printed above or
    below them) each take their own sub-caption, left to right, when there is one per panel."""
    pieces = _NEXT_SUBCAPTION.split(title or "")
    if len(parts) < 2 or len(pieces) != len(parts):
        return parts
    return [part.model_copy(update={"title": piece.strip()})
            for part, piece in zip(parts, pieces, strict=True)]


def _plausible_grid(table: ParsedTable) -> bool:
    """A results grid: labelled rows with numeric columns, not prose or axis ticks."""
    labelled = [i for i in range(len(table.rows)) if table.row_label(i)]
    if not labelled or table.label_cols > 4:
        return False
    numeric_cols = 0
    for col in range(table.label_cols, max(len(r) for r in table.rows)):
        cells = [r[col] for r in table.rows if col < len(r) and r[col].strip()]
        numbers = [c for c in cells if is_numeric_cell(c)]
        if len(numbers) >= 2 and len(numbers) >= 0.6 * len(cells) and not _ticks(numbers):
            numeric_cols += 1
    if table.kind == "figure":
        return len(labelled) >= 2 and numeric_cols >= 1
    return numeric_cols >= 1 or _one_headed_row(table)


def _one_headed_row(table: ParsedTable) -> bool:
    """A one-row table ('Test set | A | B' over 'Set X | 31.5 | 17.2'): a labelled row of two
    numbers or more, each under a header of its own made of words (a header holding numbers is
    a body row misread, and the table is not one row)."""
    if len(table.rows) != 1 or not table.header or not table.row_label(0):
        return False
    labels = table.column_labels()
    cells = [(labels[c], v) for c, v in enumerate(table.rows[0]) if c >= table.label_cols]
    numbers = [(h, v) for h, v in cells if is_numeric_cell(v)]
    words_only = not any(parse_cell_values(c) for row in table.header for c in row)
    return len(numbers) >= 2 and words_only and all(h.strip() for h, _ in numbers) and len(
        {h for h, _ in numbers}) == len(numbers)


def _agree(ruled: list[ParsedTable], layout: list[ParsedTable]) -> bool:
    """find_tables and the word layout read the same labelled rows and values."""
    def shape(tables: list[ParsedTable]) -> list[tuple[str, tuple[str, ...]]]:
        return sorted((t.row_label(i).replace(" ", ""),
                       tuple(v.printed for c in r[t.label_cols:] for v in parse_cell_values(c)))
                      for t in tables for i, r in enumerate(t.rows))

    return shape(ruled) == shape(layout) and all(
        t.row_label(i) for t in ruled for i in range(len(t.rows)))


def _ticks(cells: list[str]) -> bool:
    """Axis tick labels: four or more evenly spaced values (27.5, 26.5, 25.5, 24.5)."""
    values = [v.number for c in cells for v in parse_cell_values(c)]
    if len(values) < 4:
        return False
    steps = {round(b - a, 6) for a, b in zip(values, values[1:], strict=False)}
    return len(steps) == 1 and 0 not in steps


_FOUND: dict[tuple[int, int], Any] = {}


def _page_find_tables(page: pymupdf.Page, page_no: int) -> Any:
    """``page.find_tables()`` once per page (it is slow: a layout model runs on the page)."""
    key = (id(page.parent), page_no)
    if key not in _FOUND:
        try:
            _FOUND[key] = page.find_tables()
        except Exception as exc:  # PyMuPDF raises on some malformed pages
            log.warning("find_tables failed on page %s: %s", page_no, exc)
            _FOUND[key] = None
    return _FOUND[key]


def _find_tables(page: pymupdf.Page, clip: pymupdf.Rect, words: list[Word], page_no: int,
                 caption: Caption) -> list[ParsedTable]:
    """A ruled block read with PyMuPDF ``find_tables`` (cell text from the words inside)."""
    from repro_assets.papers.tables.rows import table_from_rows

    found = _page_find_tables(page, page_no)
    if found is None:
        return []
    out = []
    for table in found.tables:
        if not pymupdf.Rect(table.bbox).intersects(clip):
            continue
        grid: list[list[str]] = []
        for row in table.rows:
            cells = []
            for box in row.cells:
                if box is None:
                    cells.append("")
                    continue
                rect = pymupdf.Rect(box)
                inside = [w for w in words if rect.x0 - 1 <= w.xc <= rect.x1 + 1
                          and rect.y0 - 1 <= w.yc <= rect.y1 + 1]
                cells.append(" ".join(ln.text for ln in group_lines(inside)))
            grid.append(cells)
        if len(grid) < 2:
            continue
        parsed = table_from_rows(grid, page_no=page_no, caption=caption.text,
                                 number=caption.number)
        if parsed.rows and any(is_numeric_cell(c) for r in parsed.rows for c in r[1:]):
            out.append(parsed.model_copy(update={"method": "find_tables"}))
    return out


def page_tables(page: pymupdf.Page, page_no: int, ruled: bool = True) -> list[ParsedTable]:
    """All results tables of one page (``ruled=False``: word layout only).

    Without the rest of the document, each caption takes its nearest block.
    """
    candidates = _candidates(page, page_no)
    sides = _sides(candidates, _convention(candidates))
    try:
        return _dedupe([t for c, side in zip(candidates, sides, strict=True)
                        for t in _tables_of(c, side, ruled, page)])
    finally:
        _FOUND.pop((id(page.parent), page_no), None)


def _dedupe(tables: list[ParsedTable]) -> list[ParsedTable]:
    out: list[ParsedTable] = []
    for table in tables:
        if all((t.page_no, t.rows) != (table.page_no, table.rows) for t in out):
            out.append(table)
    return out


def extract_tables(pdf_bytes: bytes) -> list[ParsedTable]:
    """All results tables of a PDF, in page order, read in a limited worker process.

    The stored PDF passed ingest's checks, but table finding walks every drawing of a page:
    like every parse of uploaded bytes it runs under the memory, CPU and time budget of
    :mod:`repro_assets.papers.sandbox`, never in the calling (API or run) process.

    Raises:
        PaperIngestError: ``E_PDF_TOO_COMPLEX`` past the budget.
    """
    from repro_assets.papers.sandbox import run_limited

    return run_limited(extract_tables_here, pdf_bytes)


def extract_tables_here(pdf_bytes: bytes) -> list[ParsedTable]:
    """:func:`extract_tables` in this process (the worker's body).

    Whether tables sit above or below their captions is decided for the whole document
    (per kind), so a caption never takes the neighbouring table of another caption.
    """
    out: list[ParsedTable] = []
    with pymupdf.open(stream=pdf_bytes, filetype="pdf") as doc:
        per_page: list[list[_Candidate]] = []
        for index, page in enumerate(doc):
            try:
                per_page.append(_candidates(page, index + 1))
            except Exception:  # one unreadable page must not lose the others
                log.exception("table reading failed on page %s", index + 1)
                per_page.append([])
        convention = _convention([c for cands in per_page for c in cands])
        try:
            for index, cands in enumerate(per_page):
                page = doc[index]
                for cand, side in zip(cands, _sides(cands, convention), strict=True):
                    try:
                        out.extend(_tables_of(cand, side, True, page))
                    except Exception:
                        log.exception("table reading failed on page %s", index + 1)
        finally:
            for key in [k for k in _FOUND if k[0] == id(doc)]:
                del _FOUND[key]
    return _dedupe(out)
