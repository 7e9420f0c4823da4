"""Page geometry for table reading: words (with bold), lines, cells, rules and graphics.

Coordinates are PDF points with the origin top-left (PyMuPDF). Words come from
``page.get_text("words")``; a line is a run of words sharing a baseline; a cell is a run of
words of a line separated from the next by a gap wider than about half the font height.
Graphics (plots: curves, markers, images) are found from the page's drawings so tick labels
and legends are never read as table rows.
"""

from __future__ import annotations

import itertools
import re
import statistics
import unicodedata
from dataclasses import dataclass, field

import pymupdf

_BOLD_FONT = re.compile(r"bold|black|heavy|medi|semibold|cmbx|\bbx", re.IGNORECASE)
_NUMBERISH = re.compile(r"^[-+−(]?[\d.,]+")


@dataclass(frozen=True)
class Word:
    """One word with its box and weight."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    bold: bool = False

    @property
    def xc(self) -> float:
        """Horizontal centre."""
        return (self.x0 + self.x1) / 2

    @property
    def yc(self) -> float:
        """Vertical centre."""
        return (self.y0 + self.y1) / 2

    @property
    def h(self) -> float:
        """Height."""
        return self.y1 - self.y0

    @property
    def vertical(self) -> bool:
        """True for rotated text (much taller than wide, e.g. a row-group label)."""
        return self.h > 2.5 * max(self.x1 - self.x0, 1.0) and len(self.text) > 2


@dataclass
class Cell:
    """Adjacent words of a line."""

    words: list[Word]

    @property
    def x0(self) -> float:
        """Left edge."""
        return self.words[0].x0

    @property
    def x1(self) -> float:
        """Right edge."""
        return max(w.x1 for w in self.words)

    @property
    def xc(self) -> float:
        """Horizontal centre."""
        return (self.x0 + self.x1) / 2

    @property
    def text(self) -> str:
        """Words joined by spaces."""
        return " ".join(w.text for w in self.words)

    @property
    def bold(self) -> bool:
        """True when every word is bold."""
        return all(w.bold for w in self.words)


@dataclass
class Line:
    """Words sharing a baseline, left to right, split into cells."""

    words: list[Word]
    cells: list[Cell] = field(default_factory=list)

    @property
    def y0(self) -> float:
        """Top."""
        return min(w.y0 for w in self.words)

    @property
    def y1(self) -> float:
        """Bottom."""
        return max(w.y1 for w in self.words)

    @property
    def yc(self) -> float:
        """Median vertical centre of the words."""
        return statistics.median(w.yc for w in self.words)

    @property
    def x0(self) -> float:
        """Left edge."""
        return min(w.x0 for w in self.words)

    @property
    def x1(self) -> float:
        """Right edge."""
        return max(w.x1 for w in self.words)

    @property
    def height(self) -> float:
        """Median word height."""
        return statistics.median(w.h for w in self.words)

    @property
    def text(self) -> str:
        """Cells joined by spaces."""
        return " ".join(w.text for w in self.words)


def _span_boxes(page: pymupdf.Page) -> tuple[list[pymupdf.Rect], list[tuple[pymupdf.Rect, float,
                                                                            float]]]:
    """The page's bold spans, and its short spans with the line box their font size gives.

    A short span is one whose box in the text layer is much lower than its font size (a small
    caps font whose box runs from the baseline to the height of its small letters only): its
    words are given the box from ascender to descender of the size they are printed at, as
    every other font's words have, so gaps between rows and words are measured against the
    size the text is printed at. Returns (bold boxes, [(span box, top, bottom)]).
    """
    bold = []
    short = []
    for block in page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]:
        for line in block.get("lines", []):
            if tuple(line.get("dir", (1, 0))) != (1, 0):
                continue
            for span in line.get("spans", []):
                box = pymupdf.Rect(span["bbox"])
                if int(span.get("flags", 0)) & 16 or _BOLD_FONT.search(str(span.get("font", ""))):
                    bold.append(box)
                size = float(span.get("size", 0.0))
                if size > 0 and box.height < _SHORT_BOX * size:
                    base = float(span["origin"][1])
                    ascender = float(span.get("ascender", 0.8) or 0.8)
                    descender = float(span.get("descender", -0.2) or -0.2)
                    short.append((box, base - ascender * size, base - descender * size))
    return bold, short


#: A span whose box is lower than this share of its font size is short (see _span_boxes).
_SHORT_BOX = 0.65


def page_words(page: pymupdf.Page) -> list[Word]:
    """The page's words with a bold flag (from the font of the span they are in); a word of a
    short span (a box much lower than its font size) takes the height of its size."""
    bold, short = _span_boxes(page)
    out = []
    chars: list[tuple[float, float, float, str]] | None = None
    for x0, y0, x1, y1, text, *_ in page.get_text("words"):
        text = unicodedata.normalize("NFKC", str(text)).strip()
        if not text:
            continue
        boxes = [(float(x0), float(x1), text)]
        if _GLUED.match(text):  # '0.6914∗0.7127∗': two cells with no space between them
            chars = _page_chars(page) if chars is None else chars
            boxes = _glued_parts(chars, float(x0), float(y0), float(x1), float(y1), text)
        top, bottom = float(y0), float(y1)
        xm, ym = (float(x0) + float(x1)) / 2, (top + bottom) / 2
        for box, high, low in short:
            if box.x0 <= xm <= box.x1 and box.y0 - 0.5 <= ym <= box.y1 + 0.5:
                top, bottom = min(top, high), max(bottom, low)
                break
        for left, right, part in boxes:
            xc = (left + right) / 2  # the text layer's own box says which span is bold
            is_bold = any(b.x0 <= xc <= b.x1 and b.y0 <= ym <= b.y1 for b in bold)
            out.append(Word(left, top, right, bottom, part, is_bold))
    return out


#: Two numbers each closed by a footnote mark and printed with no space between them: the
#: text layer's one word for two cells ('0.6914∗0.7127∗').
_GLUED = re.compile(r"^([-+]?\d*\.?\d+[*∗†‡§]+)([-+]?\d*\.?\d+[*∗†‡§]*)$")


def _page_chars(page: pymupdf.Page) -> list[tuple[float, float, float, str]]:
    """Every character of the page: (x0, x1, vertical centre, character)."""
    out = []
    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                for char in span["chars"]:
                    x0, y0, x1, y1 = char["bbox"]
                    out.append((x0, x1, (y0 + y1) / 2, char["c"]))
    return out


def _glued_parts(chars: list[tuple[float, float, float, str]], x0: float, y0: float, x1: float,
                 y1: float, text: str) -> list[tuple[float, float, str]]:
    """The two numbers of a glued word with their own x extents, from its characters; the
    word whole when its characters do not spell it."""
    inside = sorted((c for c in chars if x0 - 0.5 <= (c[0] + c[1]) / 2 <= x1 + 0.5
                     and y0 <= c[2] <= y1), key=lambda c: c[0])
    spelled = "".join(unicodedata.normalize("NFKC", c[3]) for c in inside)
    match = _GLUED.match(text)
    if match is None or spelled != text:
        return [(x0, x1, text)]
    k = len(match.group(1))
    return [(inside[0][0], inside[k - 1][1], match.group(1)),
            (inside[k][0], inside[-1][1], match.group(2))]


def group_lines(words: list[Word], gutter: float | None = None) -> list[Line]:
    """Group words into lines by vertical centre; each line's words sorted left to right.

    Sub- and superscripts (smaller words off the baseline) form their own lines, which the
    table reader treats as header continuations. With a ``gutter`` (two-column pages) each
    column is grouped on its own and a left and a right line are joined only when they share
    a baseline, so lines of the two columns at slightly different heights never mix.
    """
    if gutter is not None:
        left = group_lines([w for w in words if w.xc < gutter])
        right = group_lines([w for w in words if w.xc >= gutter])
        merged: list[Line] = []
        for line in left:
            twin = next((r for r in right if abs(r.yc - line.yc) <= 1.0), None)
            if twin is not None:
                right.remove(twin)
                line = Line(line.words + twin.words)
                line.cells = split_cells(line.words)
            merged.append(line)
        return sorted(merged + right, key=lambda ln: (ln.yc, ln.x0))
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.yc, w.x0)):
        if word.vertical:
            lines.append([word])  # rotated text (a row-group label) stands alone
            continue
        if lines and not lines[-1][0].vertical:
            ref = lines[-1]
            ref_yc = statistics.median(w.yc for w in ref)
            ref_h = statistics.median(w.h for w in ref)
            if abs(word.yc - ref_yc) <= 0.3 * max(min(word.h, 3 * ref_h), ref_h):
                ref.append(word)
                continue
        lines.append([word])
    out = [Line(sorted(ws, key=lambda w: w.x0)) for ws in lines]
    for line in out:
        line.cells = split_cells(line.words)
    return out


def attach_stray_dots(lines: list[Line]) -> list[Line]:
    """Text layers that typeset a decimal point lower than its digits ('88 1' over '.') give a
    line of lone dots: glue each dot to the word above it ('1' -> '1\n.')."""
    out: list[Line] = []
    for line in lines:
        if out and all(w.text == "." for w in line.words) and line.yc - out[-1].yc < 2.5 * (
                out[-1].height):
            words = list(out[-1].words)
            for dot in line.words:
                near = min(range(len(words)), key=lambda i: abs(words[i].xc - dot.x0))
                w = words[near]
                words[near] = Word(w.x0, w.y0, max(w.x1, dot.x1), w.y1, w.text + "\n.", w.bold)
            out[-1] = Line(words, split_cells(words))
        else:
            out.append(line)
    return out


_SIGN = {"±", "+/-", "+-"}


def attach_stray_signs(lines: list[Line]) -> list[Line]:
    """Text layers that set a '±' smaller and off the baseline of its deviation ('0.98  ± 0.01'
    with the sign lower) give a line of lone signs: glue each sign to the number that starts
    right after it on the line above ('0.01' -> '± 0.01'), so the deviation stays a decoration
    of its value and never becomes a value of its own. A sign line with any sign that has no
    such number is left as it is."""
    out: list[Line] = []
    for line in lines:
        above = out[-1] if out else None
        if above is not None and all(w.text in _SIGN for w in line.words) and (
                line.yc - above.yc < 1.5 * above.height):
            words = list(above.words)
            glued = 0
            for sign in line.words:
                near = [i for i, w in enumerate(words) if _NUMBERISH.match(w.text)
                        and -0.5 <= w.x0 - sign.x1 <= 1.5 * sign.h]
                if len(near) == 1:
                    w = words[near[0]]
                    words[near[0]] = Word(sign.x0, w.y0, w.x1, w.y1, f"{sign.text} {w.text}",
                                          w.bold)
                    glued += 1
            if glued == len(line.words):
                out[-1] = Line(words, split_cells(words))
                continue
        out.append(line)
    return out


def split_cells(words: list[Word], gap: float | None = None) -> list[Cell]:
    """Split a line's words at horizontal gaps wider than ``gap`` (default: 0.45 x height)."""
    if not words:
        return []
    if gap is None:
        gap = max(2.5, 0.45 * statistics.median(w.h for w in words if not w.vertical)
                  if any(not w.vertical for w in words) else 4.0)
    cells: list[list[Word]] = [[words[0]]]
    for prev, word in itertools.pairwise(words):
        if word.x0 - prev.x1 > gap or word.vertical or prev.vertical:
            cells.append([word])
        else:
            cells[-1].append(word)
    return [Cell(c) for c in cells]


@dataclass(frozen=True)
class Rule:
    """A horizontal rule (a thin, wide drawing)."""

    x0: float
    x1: float
    y: float


def page_graphics(
    page: pymupdf.Page,
) -> tuple[list[Rule], list[pymupdf.Rect], list[pymupdf.Rect]]:
    """Horizontal rules, graphics areas (plots, images) and vertical rules.

    A graphics area is a cluster of curves, slanted lines and small markers (a plot), or an
    image; rules and cell shading are not graphics, nor is an image under half the page or
    more (a background or watermark the text is printed over).
    """
    rules: list[Rule] = []
    marks: list[pymupdf.Rect] = []
    vertical: list[pymupdf.Rect] = []
    for drawing in page.get_drawings():
        for item in drawing["items"]:
            kind = item[0]
            if kind == "l":
                a, b = item[1], item[2]
                if abs(a.y - b.y) <= 1.0 and abs(a.x - b.x) > 4:
                    rules.append(Rule(min(a.x, b.x), max(a.x, b.x), (a.y + b.y) / 2))
                elif abs(a.x - b.x) <= 1.0 and abs(a.y - b.y) > 4:
                    vertical.append(pymupdf.Rect(a.x, min(a.y, b.y), a.x + 0.5, max(a.y, b.y)))
                else:
                    marks.append(pymupdf.Rect(a, b).normalize())
            elif kind == "re":
                rect = pymupdf.Rect(item[1])
                if rect.height <= 1.5 and rect.width > 4:
                    rules.append(Rule(rect.x0, rect.x1, (rect.y0 + rect.y1) / 2))
                elif rect.width <= 1.5 and rect.height > 4:
                    vertical.append(rect)
                elif rect.width < 8 and rect.height < 8:
                    marks.append(rect)
            elif kind in {"c", "qu"}:
                marks.append(pymupdf.Rect(drawing["rect"]))
    areas = [_with_axes(a, rules, vertical) for a in _clusters(marks, min_items=5)]
    page_area = abs(page.rect)
    areas += [rect for rect in (pymupdf.Rect(info["bbox"]) for info in page.get_image_info())
              if rect.width > 30 and rect.height > 30
              and abs(rect & page.rect) < 0.5 * page_area]  # not a page background/watermark
    return rules, areas, vertical


def _with_axes(area: pymupdf.Rect, rules: list[Rule], vertical: list[pymupdf.Rect]
               ) -> pymupdf.Rect:
    """Grow a plot area by the axis and grid lines that touch it."""
    grown = pymupdf.Rect(area)
    for rule in rules:
        if rule.x0 <= area.x1 + 3 and rule.x1 >= area.x0 - 3 and area.y0 - 3 <= rule.y <= (
                area.y1 + 40) and rule.x1 - rule.x0 < 2.5 * max(area.width, 1.0):
            grown |= pymupdf.Rect(rule.x0, rule.y, rule.x1, rule.y)
    for rect in vertical:
        if area.x0 - 40 <= rect.x0 <= area.x1 + 3 and rect.y1 >= area.y0 - 3 and (
                rect.y0 <= area.y1 + 3):
            grown |= rect
    return grown


def _clusters(rects: list[pymupdf.Rect], min_items: int, margin: float = 12.0
              ) -> list[pymupdf.Rect]:
    """Union of rectangles closer than ``margin``; clusters with fewer items are dropped."""
    boxes: list[list[float]] = []  # x0, y0, x1, y1, count
    for r in sorted(rects, key=lambda r: (r.y0, r.x0)):
        x0, y0, x1, y1 = r.x0, r.y0, r.x1, r.y1
        for box in boxes:
            if x0 - margin <= box[2] and x1 + margin >= box[0] and y0 - margin <= box[3] and (
                    y1 + margin >= box[1]):
                box[:4] = [min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)]
                box[4] += 1
                break
        else:
            boxes.append([x0, y0, x1, y1, 1])
    merged = True
    while merged:  # clusters that grew into each other become one
        merged = False
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                if a[0] <= b[2] and a[2] >= b[0] and a[1] <= b[3] and a[3] >= b[1]:
                    a[:4] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    a[4] += b[4]
                    boxes.remove(b)
                    merged = True
                    break
            if merged:
                break
    return [pymupdf.Rect(b[:4]) for b in boxes if b[4] >= min_items]


def in_graphics(word: Word, areas: list[pymupdf.Rect]) -> bool:
    """True when a word lies in a graphics area or where its tick labels go (left of and
    below the axes)."""
    return any(a.x0 - 20 <= word.xc <= a.x1 + 6 and a.y0 - 6 <= word.yc <= a.y1 + 10
               for a in areas)


def is_multi_column(lines: list[Line], width: float) -> bool:
    """True when most prose lines stop at a gutter in the middle of the page."""
    mid = width / 2
    prose = [line for line in lines
             if sum(1 for w in line.words if not _NUMBERISH.match(w.text)) >= 5]
    if len(prose) < 6:
        return False
    crossing = 0
    for line in prose:
        if any(w.x0 < mid < w.x1 for w in line.words) or any(
            a.x1 <= mid <= b.x0 and b.x0 - a.x1 < 8 for a, b in itertools.pairwise(line.words)
        ):
            crossing += 1
    return crossing < 0.3 * len(prose)
