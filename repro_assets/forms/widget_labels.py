"""Which printed words label which widget of a target form: geometry and reading order.

Real fillable forms name their widgets ``Text1``, ``fill_7`` or
``topmostSubform[0].Page1[0].f1_03[0]``; what a widget asks is printed on the page. A form
places its labels in one of a few ways, and this module finds, for every widget of a page:

* the words **left** of it on its row (one line, or a label broken over two lines), after the
  previous widget of the row;
* else, by the page's convention, the line **above** it (a table cell's caption, a column
  header) or the caption **below** its line ("Last name  First name  MI" under the boxes): a
  page whose widgets have captions under them and nothing above is read that way;
* a **split group**: boxes of one row with nothing but separators between them (``[MM] /
  [DD] / [YYYY]``, area code / prefix / line) belong to the first box's label, each with the
  hint printed right under it;
* a **table column**: boxes stacked under a column header take the header with their row
  number (a medication table), and a follow-up box ("If yes, please list:") takes the
  question printed above it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pymupdf

from repro_assets.forms.input_fields import Line

ABOVE_POINTS = 22.0  # how far above a widget its label may stand
BELOW_POINTS = 10.0  # how far under a widget's line its caption may start
LEFT_POINTS = 120.0  # how far left of a widget its label may end
GROUP_GAP = 20.0  # the widest gap between two boxes of one split value
_WORD_GAP = 24.0  # a gap wider than this inside a line separates two labels
_SEPARATORS = re.compile(r"^[\s/\-\u2013.()]*$")
_FILL = re.compile(r"^[_.\u2026\s]+$")
#: Caption pieces whose tops differ by less than this stand on one printed row.
_LEVEL_POINTS = 2.0
#: Words printed under a box of a split value that name its part ("MM", "Last", "Area code"),
#: not a field of its own.
_PART_HINT = re.compile(r"^\(?(?:mm|dd|yy|yyyy|month|day|year|mo|yr|last(?:\s+name)?|"
                        r"first(?:\s+name)?|middle(?:\s+(?:name|initial))?|m\.?\s?i\.?|"
                        r"initial|area(?:\s+code)?)\)?$", re.IGNORECASE)
#: A date part printed over a box ("MM" over the first box of a split birth date).
_DATE_HINT = re.compile(r"^\(?(?:mm|dd|yy|yyyy|month|day|year|mo|yr)\)?$", re.IGNORECASE)
#: A label over a date's hints names a date (a heading over them labels no box).
_NAMES_A_DATE = re.compile(r"\b(?:date|birth|dob|born)\b", re.IGNORECASE)
#: A caption under a box giving the order of its parts: "(Last, First, MI)", "MM/DD/YYYY".
_ORDER_HINT = re.compile(r"^\(?\s*(?:(?:last|first|middle|m\.?\s?i\.?|initial|name|mm|dd|yyyy|"
                         r"yy)\s*[,/\-]?\s*){2,5}\)?$", re.IGNORECASE)
_FOLLOW_UP = re.compile(r"^\W*(?:if\s+(?:yes|so)\b|please\s+(?:list|explain|specify|describe)\b|"
                        r"(?:list|explain|specify|describe)\b)", re.IGNORECASE)
Word = tuple[float, float, float, float, str]


@dataclass(frozen=True)
class Placement:
    """Where a widget's label is: its text, how it was found, its split group and column.

    ``source`` is ``left``, ``above``, ``below``, ``column`` (a table column header) or
    ``question`` (a follow-up box under a question). ``group`` is the index (in the page's
    widget order) of the first box of its split group, ``group_index`` its place in the
    group and ``group_size`` the number of boxes; ``hint`` the word printed right under a
    box of a group ("MM"); ``column_row`` the row number of a box under a column header;
    ``box`` the printed line of a label found above or under the widget (a widget's own
    caption, never a section heading).
    """

    label: str | None = None
    source: str | None = None
    group: int | None = None
    group_index: int = 0
    group_size: int = 1
    hint: str | None = None
    column_row: int | None = None
    column_size: int = 0
    box: tuple[float, float, float, float] | None = None


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(a1, b1) - max(a0, b0)


def _same_row(a: pymupdf.Rect, b: pymupdf.Rect) -> bool:
    return _overlap(a.y0, a.y1, b.y0, b.y1) > 0.5 * min(a.height, b.height)


def _row_words(index: int, lines: list[Line], rects: list[pymupdf.Rect]
               ) -> tuple[str | None, int | None]:
    """The label printed left of widget ``index`` after the previous widget of its row (one
    line, or a label broken over lines, top first), and that previous widget when it stands
    close by with only separators between (the next box of one split value)."""
    rect = rects[index]
    before = [i for i, r in enumerate(rects) if i != index and r.x1 <= rect.x0 + 1
              and _same_row(r, rect)]
    previous = max(before, key=lambda i: rects[i].x1) if before else None
    bound = rects[previous].x1 if previous is not None else float("-inf")
    out: list[str] = []
    between = ""
    for _, _, words in sorted(lines, key=lambda item: item[0].y0):
        chosen = [w for w in words if w[2] <= rect.x0 + 2 and w[0] >= bound - 1
                  and _overlap(w[1], w[3], rect.y0, rect.y1) > 0.3 * (w[3] - w[1])
                  and not _FILL.match(w[4])]
        if not chosen:
            continue
        between += " ".join(w[4] for w in chosen)
        chunk = [chosen[-1]]
        for word in reversed(chosen[:-1]):  # the words nearest the widget, up to a wide gap
            if chunk[0][0] - word[2] > _WORD_GAP:
                break
            chunk.insert(0, word)
        if rect.x0 - chunk[-1][2] <= LEFT_POINTS:
            out.append(" ".join(w[4] for w in chunk))
    joins = previous is not None and rect.x0 - bound <= GROUP_GAP and bool(
        _SEPARATORS.match(between))
    label = " ".join(out).strip()
    if _SEPARATORS.match(label):  # "(" before an area-code box labels nothing
        label = ""
    return (label or None), (previous if joins else None)


def _shares_row_with_widget(box: pymupdf.Rect, rects: list[pymupdf.Rect]) -> bool:
    return any(box.y0 < r.y1 and box.y1 > r.y0 for r in rects)


def _words_over(rect: pymupdf.Rect, words: list[Word]) -> str:
    """The words of a line that start over the widget's span."""
    return " ".join(w[4] for w in words if rect.x0 - 8 <= w[0] < rect.x1
                    and not _FILL.match(w[4]))


def _above(rect: pymupdf.Rect, lines: list[Line], rects: list[pymupdf.Rect]
           ) -> tuple[pymupdf.Rect, str] | None:
    """The nearest line above the widget, over its span, with no widget in between."""
    ceiling = max((r.y1 for r in rects if r is not rect and r.y1 <= rect.y0 + 1
                   and _overlap(r.x0, r.x1, rect.x0, rect.x1) > 0), default=float("-inf"))
    found = []
    for box, _, words in lines:
        if not (rect.y0 - ABOVE_POINTS <= box.y1 <= rect.y0 + 2 and box.y0 >= ceiling - 1):
            continue
        text = _words_over(rect, words)
        if _labels_row_widget(box, lines, rects) and not (
                _PART_HINT.match(text) and not _beside_widget(box, rects)):
            continue  # a part hint may stand level with a box of another column
        if text and not _under_another(box, text, rect, rects):
            found.append((box, text))
    if not found:
        return None
    box, text = max(found, key=lambda item: item[0].y1)
    for upper, upper_text in sorted(found, key=lambda item: -item[0].y1):  # a wrapped caption
        same_size = abs(upper.height - box.height) <= 0.15 * box.height  # no heading over it
        if upper is not box and same_size and abs(upper.x0 - box.x0) < 3 and \
                -0.5 * box.height <= box.y0 - upper.y1 <= 0.6 * box.height:
            return pymupdf.Rect(upper) | box, f"{upper_text} {text}"
    return box, text


def _labels_row_widget(box: pymupdf.Rect, lines: list[Line],
                       rects: list[pymupdf.Rect]) -> bool:
    """True when a line is the label of a widget on its own row: a widget it overlaps, or
    the nearest one to its right within a label's reach with no other printed words between
    them. A line whose row holds only a far box (a tall "Payer's name and address" box at
    the other side of the page) or a box with words of its own before it ("3 [ ] Single")
    labels the widget under it, not that box."""
    for r in rects:
        if not (box.y0 < r.y1 and box.y1 > r.y0):
            continue
        if r.x0 < box.x1 - 2 and r.x1 > box.x0:
            return True
        if not (box.x1 - 2 <= r.x0 <= box.x1 + LEFT_POINTS):
            continue
        between = any(other.x0 >= box.x1 - 1 and other.x1 <= r.x0 + 2 and text.strip()
                      and other.y0 < r.y1 and other.y1 > r.y0
                      for other, text, _ in lines if other != box)
        if not between:
            return True
    return False


def _beside_widget(box: pymupdf.Rect, rects: list[pymupdf.Rect]) -> bool:
    """True when a widget stands on the line's row within a few words of it."""
    return any(box.y0 < r.y1 and box.y1 > r.y0 and r.x0 - _WORD_GAP * 2 < box.x1
               and box.x0 < r.x1 + _WORD_GAP * 2 for r in rects)


def _under_another(box: pymupdf.Rect, text: str, rect: pymupdf.Rect,
                   rects: list[pymupdf.Rect]) -> bool:
    """True when a part hint ("YYYY", "Last") stands right under another widget: the
    caption of that box, not the label of the box on the next row."""
    if not (_PART_HINT.match(text) or _ORDER_HINT.match(text)):
        return False
    return any(r is not rect and r.y1 - 2 <= box.y0 <= r.y1 + BELOW_POINTS
               and _overlap(r.x0, r.x1, box.x0, box.x1) > 0 for r in rects)


def _label_over_hint(rect: pymupdf.Rect, hint: pymupdf.Rect, lines: list[Line],
                     rects: list[pymupdf.Rect]) -> tuple[pymupdf.Rect, str] | None:
    """The label line right above a date hint printed over a box ("Birth date" over "MM"
    over the box): the run of words of that line (up to a wide gap) that names a date and
    reaches over the box, so a caption starting left of a group of narrow boxes is read
    whole."""
    best = None
    for box, _, words in lines:
        if not (hint.y0 - ABOVE_POINTS <= box.y1 <= hint.y0 + 1) or \
                _shares_row_with_widget(box, rects):
            continue
        for chunk in _chunks(words):
            text = " ".join(w[4] for w in chunk)
            if _NAMES_A_DATE.search(text) and chunk[0][0] < rect.x1 and \
                    chunk[-1][2] > rect.x0 - 8 and (
                    best is None or box.y1 > best[0].y1):
                best = (box, text)
    return best


def _runs_on(box: pymupdf.Rect, rect: pymupdf.Rect, lines: list[Line]) -> bool:
    """True when the caption line ``box`` runs on over the widget from further left with no
    wide gap ("TELEPHONE (Include Area Code)" over an area-code box and the number box): one
    caption over a split value, not a header row of one label per cell."""
    for line_box, _, words in lines:
        if line_box != box:
            continue
        for chunk in _chunks(words):
            if any(rect.x0 - 8 <= w[0] < rect.x1 for w in chunk):
                return chunk[0][0] < rect.x0 - 8
    return False


def _chunks(words: list[Word]) -> list[list[Word]]:
    """The runs of a line's words separated by gaps wider than ``_WORD_GAP``."""
    out: list[list[Word]] = []
    for word in sorted(words):
        if out and word[0] - out[-1][-1][2] <= _WORD_GAP:
            out[-1].append(word)
        else:
            out.append([word])
    return out


def _below_hit(rect: pymupdf.Rect, lines: list[Line], rects: list[pymupdf.Rect]
               ) -> tuple[pymupdf.Rect, str] | None:
    """The caption printed right under the widget's line, over its span (and its box)."""
    found = []
    for box, _, words in lines:
        if rect.y1 - 2 <= box.y0 <= rect.y1 + BELOW_POINTS and not _shares_row_with_widget(
                box, rects):
            text = _words_over(rect, words)
            if text:
                found.append((box, text))
    if not found:
        return None
    top = min(box.y0 for box, _ in found)
    # a caption row printed as separate words ("First  Middle  Last" under one wide box):
    # all of the row's pieces over the box, left to right, not just one of them
    level = sorted((item for item in found if item[0].y0 - top <= _LEVEL_POINTS),
                   key=lambda item: item[0].x0)
    box = pymupdf.Rect(level[0][0])
    for other, _ in level[1:]:
        box |= other
    return box, " ".join(text for _, text in level)


def _question_above(rect: pymupdf.Rect, lines: list[Line], rects: list[pymupdf.Rect]
                    ) -> str | None:
    """The question printed in the lines right above a follow-up box (no other box's row in
    between)."""
    above = [(box, text) for box, text, _ in lines
             if rect.y0 - 2 * ABOVE_POINTS <= box.y1 <= rect.y0 + 1 and "?" in text
             and box.x0 < rect.x1 and not any(r.y0 >= box.y1 - 1 and r.y1 <= rect.y0 + 1
                                              for r in rects)]
    return max(above, key=lambda item: item[0].y1)[1] if above else None


def _column_chain(index: int, rects: list[pymupdf.Rect]) -> list[int]:
    """The widgets stacked right above ``index`` with the same left and right edges, nearest
    first."""
    chain: list[int] = []
    current = rects[index]
    while True:
        up = [i for i, r in enumerate(rects) if abs(r.x0 - current.x0) < 3
              and abs(r.x1 - current.x1) < 3 and r.y1 <= current.y0 + 1
              and current.y0 - r.y1 < 2 * current.height]
        if not up:
            return chain
        nearest = max(up, key=lambda i: rects[i].y1)
        chain.append(nearest)
        current = rects[nearest]


def _own_label(i: int, left: str | None, rects: list[pymupdf.Rect], lines: list[Line],
               side: tuple[str, str, pymupdf.Rect] | None, under: str | None) -> Placement:
    """A widget's label from its row (a follow-up box: with the question above it; a part
    named under the box: "Name: [____]" over "Last"), else from the page's side."""
    if left:
        if _FOLLOW_UP.match(left):
            question = _question_above(rects[i], lines, rects)
            if question:
                return Placement(f"{question} {left}", "question")
        hint = under if under and (_PART_HINT.match(under) or _ORDER_HINT.match(under)) \
            else None
        return Placement(left, "left", hint=hint)
    if side:
        box = side[2]
        return Placement(side[1], side[0], box=(box.x0, box.y0, box.x1, box.y1))
    return Placement()


def place_labels(rects: list[pymupdf.Rect], lines: list[Line]) -> list[Placement]:
    """The label of every widget box of a page (``rects`` in the page's widget order)."""
    rows = [_row_words(i, lines, rects) for i in range(len(rects))]
    above = [_above(rect, lines, rects) for rect in rects]
    hints_above: list[str | None] = [None] * len(rects)
    for i, top in enumerate(above):  # "MM" printed over the box: the label is over the hint
        if not (top and _DATE_HINT.match(top[1])):  # "Last name" over a box is its label
            continue
        over = _label_over_hint(rects[i], top[0], lines, rects)
        previous = rows[i][1]
        if over or (previous is not None and hints_above[previous]):
            hints_above[i], above[i] = top[1], over
    below_hits = [_below_hit(rect, lines, rects) for rect in rects]
    below = [hint or (hit[1] if hit else None) for hint, hit in zip(hints_above, below_hits,
                                                                    strict=True)]
    for i, (left, previous) in enumerate(rows):  # a box with a caption of its own, or
        if previous is None:  # under a column header, is no part of its neighbour's value
            continue  # (table cells side by side, a table's row)
        chain = _column_chain(i, rects)
        top, shared = above[i], above[previous]
        own_caption = top is not None and not hints_above[i] and not (
            shared is not None and shared[0] == top[0] and _runs_on(top[0], rects[i], lines))
        if own_caption or (below[i] and not _PART_HINT.match(below[i] or "")) or (
                chain and above[chain[-1]]):
            rows[i] = (left, None)
    alone = [i for i, (left, previous) in enumerate(rows) if left is None and previous is None]
    captions_under = sum(1 for i in alone if below[i] and not above[i]) > sum(
        1 for i in alone if above[i] and not below[i])
    out: list[Placement] = []
    for i, (left, _) in enumerate(rows):
        top, under = above[i], below_hits[i]
        side = (("below", under[1], under[0]) if captions_under and under else
                ("above", top[1], top[0]) if not captions_under and top else None)
        out.append(_own_label(i, left, rects, lines, side, below[i]))
    out = _columns(out, rects, rows, captions_under)
    return _groups(out, rows, below)


def _columns(out: list[Placement], rects: list[pymupdf.Rect],
             rows: list[tuple[str | None, int | None]], captions_under: bool
             ) -> list[Placement]:
    """Unlabelled boxes stacked under a box labelled from above are rows of its column."""
    if captions_under:
        return out
    columns: dict[int, list[int]] = {}
    for i, p in enumerate(out):
        if p.source is None and rows[i][1] is None:
            chain = _column_chain(i, rects)
            if chain and out[chain[-1]].source == "above":
                columns.setdefault(chain[-1], []).append(i)
    result = list(out)
    for top, members in columns.items():
        size = len(members) + 1
        head = out[top]
        result[top] = Placement(head.label, head.source, column_row=1, column_size=size,
                                box=head.box)
        for i in members:
            result[i] = Placement(head.label, "column", column_row=len(_column_chain(i, rects))
                                  + 1, column_size=size, box=head.box)
    return result


def _groups(out: list[Placement], rows: list[tuple[str | None, int | None]],
            below: list[str | None]) -> list[Placement]:
    """Boxes joined to the previous box of their row form one split value with its label."""
    heads: dict[int, tuple[int, int]] = {}
    for i in range(len(out)):
        steps, current = 0, i
        previous = rows[current][1]
        while previous is not None and steps < len(out):
            current, steps = previous, steps + 1
            previous = rows[current][1]
        heads[i] = (current, steps)
    sizes: dict[int, int] = {}
    for head, _ in heads.values():
        sizes[head] = sizes.get(head, 0) + 1
    result = []
    for i, p in enumerate(out):
        head, steps = heads[i]
        if sizes[head] == 1:
            result.append(p)
            continue
        base = out[head]
        result.append(Placement(base.label, base.source, head, steps, sizes[head], below[i],
                                box=base.box))
    return result
