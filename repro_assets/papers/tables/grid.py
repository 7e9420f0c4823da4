"""From the lines of one (sub-)table to a :class:`ParsedTable`.

Columns come from the body: value cells (numbers, dashes) of all rows are clustered by
horizontal overlap; text cells left of the values form the label columns, text cells between
value columns start a side-by-side sub-table. Header lines are laid over the columns (a group
header such as "ROUGE" spans the columns under it; a header line whose cells were printed too
close together is split word by word over its columns). Rows without a label take the label
of their group (the nearest label in that column not separated by a rule: labels printed once
per group, at its top or vertically centred); a value printed between two rows (a cell
spanning both) goes to both.
"""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass, field

from repro_assets.papers.tables.cells import is_missing_cell, parse_cell_values
from repro_assets.papers.tables.layout import Cell, Line, Rule, Word
from repro_assets.papers.tables.model import ParsedTable

_SUBCAPTION = re.compile(r"^\(([a-h]|[ivx]{1,4})\)\s")
_DECORATION = re.compile(r"^(±.*|\+/-|\([-+−±].*\)|\(\d+(\.\d+)?\s*[a-z%]+\)|[*∗†‡]+)$")


@dataclass
class Column:
    """A column of the grid: its horizontal extent and whether it holds values."""

    x0: float
    x1: float
    values: bool

    @property
    def xc(self) -> float:
        """Centre."""
        return (self.x0 + self.x1) / 2


def is_value_text(text: str) -> bool:
    """True for a numeric cell or a missing-value mark."""
    return bool(parse_cell_values(text)) or is_missing_cell(text)


def _number_word(word: Word) -> bool:
    return bool(parse_cell_values(word.text)) and not _DECORATION.match(word.text)


def split_value_cells(cells: list[Cell]) -> list[Cell]:
    """Split cells that hold several values ('38.5 (−0.4) 58.9 (−0.7)'), keep pairs
    ('31.40 / 29.95'), and join a decoration printed apart from its value ('81.1  (−0.3)')."""
    merged: list[Cell] = []
    for cell in cells:
        if merged and _DECORATION.match(cell.text) and not _number_word(cell.words[0]) and (
            _number_word(merged[-1].words[-1]) or _DECORATION.match(merged[-1].words[-1].text)
        ) and cell.x0 - merged[-1].x1 < 2.5 * cell.words[0].h:
            merged[-1] = Cell(merged[-1].words + cell.words)
        else:
            merged.append(cell)
    out: list[Cell] = []
    for cell in merged:
        words = cell.words
        if not _number_word(words[0]):
            out.append(cell)
            continue
        pieces: list[list[Word]] = [[words[0]]]
        for prev, word in zip(words, words[1:], strict=False):
            if _number_word(word) and not word.text.startswith("(") and prev.text not in {
                    "/", "±", "+/-"} and any(
                _number_word(w) for w in pieces[-1]
            ) and not pieces[-1][-1].text.endswith("/"):
                pieces.append([word])
            else:
                pieces[-1].append(word)
        out.extend(Cell(p) for p in pieces)
    return out


def is_value_line(line: Line) -> bool:
    """A table row: a value cell that is not its first cell, or two value cells."""
    cells = split_value_cells(line.cells)
    values = [c for c in cells if is_value_text(c.text)]
    numbers = [c for c in values if parse_cell_values(c.text)]
    if not numbers:
        return False
    if len(values) >= 2:
        return True
    return not is_value_text(cells[0].text)


def is_wordy(line: Line) -> bool:
    """More text cells than numbers after the label: a header with numbered sub-columns
    ('ROUGE 1 2 L exact match') when it comes before the rows."""
    cells = split_value_cells(line.cells)
    numbers = [c for c in cells if parse_cell_values(c.text)]
    texts = [c for c in cells[1:] if not is_value_text(c.text)]
    return bool(cells) and is_value_text(cells[0].text) and len(texts) > len(numbers)


def is_subcaption(line: Line) -> bool:
    """'(a) Faster R-CNN, R50-C4' (possibly two side by side)."""
    return all(_SUBCAPTION.match(c.text) for c in line.cells) and bool(line.cells)


def _cluster(intervals: list[tuple[float, float]], tol: float = 0.5) -> list[tuple[float, float]]:
    merged: list[list[float]] = []
    for x0, x1 in sorted(intervals):
        if merged and x0 <= merged[-1][1] + tol:
            merged[-1][1] = max(merged[-1][1], x1)
        else:
            merged.append([x0, x1])
    return [(a, b) for a, b in merged]


def _columns(rows: list[list[Cell]]) -> list[Column]:
    value_cells = [c for row in rows for c in row if is_value_text(c.text)]
    value_cols = [Column(a, b, True) for a, b in _cluster([(c.x0, c.x1) for c in value_cells])]
    first_value = value_cols[0].x0 if value_cols else float("inf")
    text_cells = [c for row in rows for c in row if not is_value_text(c.text)
                  and not any(col.x0 - 2 <= c.xc <= col.x1 + 2 for col in value_cols)]
    text_spans = []
    for cell in text_cells:
        x1 = min(cell.x1, first_value - 1) if cell.x0 < first_value else cell.x1
        text_spans.append((cell.x0, max(x1, cell.x0 + 1)))
    text_cols = [Column(a, b, False) for a, b in _cluster(text_spans)]
    columns = sorted(value_cols + text_cols, key=lambda c: c.x0)
    # a text column overlapping a value column (a long label) is cut at the value column
    out: list[Column] = []
    for col in columns:
        if out and col.x0 < out[-1].x1 and not col.values and out[-1].values:
            continue
        out.append(col)
    return out


def _leading_labels(columns: list[Column], rows: list[list[Cell]]) -> list[Column]:
    """Leading value columns that mostly hold sizes ('117M') or text name the rows."""
    out = list(columns)
    for i, col in enumerate(out):
        if not col.values:
            continue
        cells = [c.text for row in rows for c in row if _place(c, out) == i]
        plain = [t for t in cells if any(v.unit is None for v in parse_cell_values(t))
                 or is_missing_cell(t)]
        if cells and len(plain) < 0.5 * len(cells):
            out[i] = Column(col.x0, col.x1, False)
            continue
        if i == 0 and len(out) > 1 and _enumeration(cells):
            out[i] = Column(col.x0, col.x1, False)  # row numbers ('1', '2', ... 'Average')
        break
    return out


def _enumeration(cells: list[str]) -> bool:
    """The cells of a first column that number the rows: whole numbers counting up by one
    from 0 or 1 (two or more), beside at most a few words ('Average', 'All')."""
    numbers = [c.strip() for c in cells if re.fullmatch(r"\s*\d{1,3}\s*", c)]
    words = [c for c in cells if not re.fullmatch(r"\s*\d{1,3}\s*", c)]
    if len(numbers) < 2 or len(words) > 2 or any(parse_cell_values(w) for w in words):
        return False
    values = [int(n) for n in numbers]
    return values[0] in (0, 1) and values == list(range(values[0], values[0] + len(values)))


def _drop_spanning(columns: list[Column], rows: list[list[Cell]]) -> list[Column]:
    """A value column used only by cells that span its two neighbours (printed centred over
    both, where both are empty) is not a column of its own."""
    out = list(columns)
    i = 1
    while i < len(out) - 1:
        left, mid, right = out[i - 1], out[i], out[i + 1]
        if not (left.values and mid.values and right.values):
            i += 1
            continue
        users = [row for row in rows if any(_place(c, out) == i for c in row)]
        spanning = users and all(
            not any(_place(c, out) in (i - 1, i + 1) for c in row) for row in users
        ) and len(users) < len(rows) / 2
        if spanning:
            del out[i]
            continue
        i += 1
    return out


def _place(cell: Cell, columns: list[Column]) -> int:
    inside = [i for i, c in enumerate(columns) if c.x0 - 2 <= cell.xc <= c.x1 + 2]
    if inside:
        return inside[0]
    overlap = [(min(cell.x1, c.x1) - max(cell.x0, c.x0), i) for i, c in enumerate(columns)]
    best = max(overlap)
    if best[0] > 0:
        return best[1]
    return min(range(len(columns)), key=lambda i: abs(columns[i].xc - cell.xc))


def _header_row(line: Line, columns: list[Column], below: list[Line]) -> list[str]:
    """Lay a header line over the columns (``below``: the header lines under it)."""
    row = [""] * len(columns)
    for cell in line.cells:
        tol = 8.0
        covered = [i for i, c in enumerate(columns)
                   if c.x1 >= cell.x0 - tol and c.x0 <= cell.x1 + tol]
        covered_centres = [i for i in covered if cell.x0 - 2 <= columns[i].xc <= cell.x1 + 2]
        # a group header ('ROUGE') over sub-headers that tell its columns apart ('1 | 2 | L');
        # over sub-headers that all repeat one text ('accuracy | accuracy') the line itself
        # must tell them apart: it is one header per column printed too close together
        group = any(len(under) >= 2 and len({c.text.strip().lower() for c in under}) > 1
                    for ln in below
                    for under in [[c for c in ln.cells if cell.x0 - 2 <= c.xc <= cell.x1 + 2]])
        if len(covered_centres) >= 2 and len(cell.words) >= len(covered_centres) and not group:
            pieces = _split_over(cell, [columns[i] for i in covered_centres])
            if pieces:
                for i, text in zip(covered_centres, pieces, strict=True):
                    row[i] = (row[i] + " " + text).strip()
                continue
        if not covered:
            nearest = min(range(len(columns)), key=lambda i: abs(columns[i].xc - cell.xc))
            if abs(columns[nearest].xc - cell.xc) > 25:
                continue
            covered = [nearest]
        if len(covered) > 1 and len(covered_centres) == 1:
            # a header over one column that merely touches its neighbours
            centre = covered_centres[0]
            wide = cell.x1 - cell.x0 > 1.6 * (columns[centre].x1 - columns[centre].x0) + 8
            covered = covered if wide else [centre]
        for i in covered:
            row[i] = (row[i] + " " + cell.text).strip()
    return row


def _split_over(cell: Cell, cols: list[Column]) -> list[str] | None:
    """Split a merged header cell into one piece per column, each centred over its column.

    Of the ways to cut the words into as many runs as columns, the one whose runs sit closest
    to their columns' centres wins (a piece more than 12 points off its column rules a way
    out): the gaps between the pieces may be no wider than a word space.
    """
    words = cell.words
    k = len(cols)
    if len(words) > 12:
        return None
    best: tuple[float, list[list[Word]]] | None = None
    for cuts in itertools.combinations(range(1, len(words)), k - 1):
        bounds = [0, *cuts, len(words)]
        pieces = [words[a:b] for a, b in itertools.pairwise(bounds)]
        offset = 0.0
        for piece, col in zip(pieces, cols, strict=True):
            centre = (piece[0].x0 + max(w.x1 for w in piece)) / 2
            if not col.x0 - 12 <= centre <= col.x1 + 12:
                break
            offset += abs(centre - col.xc)
        else:
            if best is None or offset < best[0]:
                best = (offset, pieces)
    if best is None:
        return None
    return [" ".join(w.text for w in p) for p in best[1]]


def _fill_group_headers(header: list[list[str]], lines: list[Line], columns: list[Column],
                        label_cols: int) -> None:
    """An upper header cell ('ROUGE') also heads the neighbouring value columns that have a
    sub-header below it ('1', '2', 'L') and no header of their own in its line."""
    for k, line in enumerate(lines[:-1]):
        if len(line.cells) < 2:
            continue
        for col in range(label_cols, len(columns)):
            if header[k][col] or not any(row[col] for row in header[k + 1:]) or any(
                    row[col] for row in header[:k]):
                continue
            centre = columns[col].xc
            cell = min(line.cells, key=lambda c: abs(c.xc - centre))
            if abs(cell.xc - centre) <= max(1.5 * (cell.x1 - cell.x0), 45):
                header[k][col] = cell.text


def _fill_title_header(header: list[list[str]], label_cols: int) -> None:
    """A top header line with one cell over header lines that split the value columns into
    several groups ('ZetaSet' over 'Text search | Image search', each over 'R@1 | R@5') is the
    title of all the value columns, wherever it is printed along them."""
    if len(header) < 2:
        return
    top = {t for t in header[0][label_cols:] if t}
    below = header[1][label_cols:]
    if len(top) != 1 or any(header[0][:label_cols]) or len({t for t in below if t}) < 2 or not (
            all(any(row[c] for row in header[1:]) for c in range(label_cols, len(header[0])))):
        return
    covered = [c for c in range(label_cols, len(header[0])) if header[0][c]]
    beside = [c for c in range(label_cols, len(header[0])) if not header[0][c]]
    if beside and any(_NAME_LIKE.search(header[1][c]) for c in beside) and not any(
            _NAME_LIKE.search(header[1][c]) for c in covered):
        return  # a group header over some columns ('Zeta' over 'Matched | Mismatched') beside
        # sibling names one level lower ('Qux | Zeta | Zeta'): it heads only its own columns
    title = top.pop()
    header[0][label_cols:] = [title] * (len(header[0]) - label_cols)


#: A name printed in a header: two capitals or a capital and a digit ('QRS', 'WikiX', 'Q7').
_NAME_LIKE = re.compile(r"(?<![\w-])(?:[A-Z][\w\-]*[A-Z][\w\-]*|[A-Z][\w\-]*\d[\w\-]*)(?![\w-])")


def _separated(rules: list[Rule], y_a: float, y_b: float, x0: float, x1: float) -> bool:
    lo, hi = sorted((y_a, y_b))
    return any(lo < r.y < hi and r.x0 <= x1 and r.x1 >= x0 for r in rules)


def build_table(
    header_lines: list[Line],
    body_lines: list[Line],
    rules: list[Rule],
    *,
    page_no: int,
    number: str | None,
    caption: str | None,
    kind: str = "table",
    title: str | None = None,
) -> list[ParsedTable]:
    """Build the table(s) of one segment; side-by-side sub-tables become separate tables."""
    value_lines = [ln for ln in body_lines if is_value_line(ln)]
    if len(value_lines) < 1:
        return []
    row_cells = [split_value_cells(ln.cells) for ln in value_lines]
    columns = _leading_labels(_columns(row_cells), row_cells)
    columns = _drop_spanning(columns, row_cells)
    if not any(c.values for c in columns):
        return []
    parts = _side_by_side(columns, header_lines)
    key = _row_key(columns, parts, header_lines)
    tables = []
    for k, (lo, hi) in enumerate(parts):
        cols = columns[lo:hi]
        x0 = -1e9 if k == 0 else (columns[lo - 1].x1 + cols[0].x0) / 2
        x1 = 1e9 if k == len(parts) - 1 else (cols[-1].x1 + columns[hi].x0) / 2
        keep = [(x0, x1)]
        if k and key is not None and _leading_text(cols) + 1 == _leading_text(
                columns[parts[0][0]:parts[0][1]]):
            cols = [key, *cols]  # the row key printed once, left of every group of the row
            keep.append((key.x0 - 2, key.x1 + 2))
        part = _build(
            [_clip(ln, x0, x1, *keep[1:]) for ln in header_lines],
            [_clip(ln, x0, x1, *keep[1:]) for ln in body_lines],
            cols, rules, page_no=page_no, number=number, caption=caption, kind=kind,
            title=title,
        )
        if part is not None:
            tables.append(part)
    return tables


def _leading_text(columns: list[Column]) -> int:
    """How many text (label) columns lead a run of columns."""
    return next((i for i, c in enumerate(columns) if c.values), len(columns))


def _row_key(columns: list[Column], parts: list[tuple[int, int]],
             header_lines: list[Line]) -> Column | None:
    """The first column of a row whose groups stand side by side ('Quorvex | Gridnet | 71.2 |
    Ours-S | 73.4'): the first group has one label column more than the others, and that
    column has no header of its own (or a data header), so it keys the whole row."""
    if len(parts) < 2 or _leading_text(columns[parts[0][0]:parts[0][1]]) < 2:
        return None
    key = columns[0]
    heads = [c.text for ln in header_lines for c in ln.cells if key.x0 - 2 <= c.xc <= key.x1 + 2]
    if any(not re.fullmatch(r"(?i)data\s?sets?|data|tasks?|benchmarks?", h) for h in heads):
        return None
    return key


def _clip(line: Line, x0: float, x1: float, *more: tuple[float, float]) -> Line:
    spans = [(x0, x1), *more]
    words = [w for w in line.words if any(a <= w.xc <= b for a, b in spans)]
    clipped = Line(words)
    kept = {id(w) for w in words}
    clipped.cells = [Cell([w for w in c.words if id(w) in kept]) for c in line.cells]
    clipped.cells = [c for c in clipped.cells if c.words]
    return clipped


def _side_by_side(columns: list[Column], header_lines: list[Line]) -> list[tuple[int, int]]:
    """Column ranges of side-by-side sub-tables (a text column after value columns whose
    header repeats the first label header, or that is followed by value columns)."""
    starts = [0]
    for i in range(1, len(columns)):
        if columns[i].values or not columns[i - 1].values:
            continue
        if any(c.values for c in columns[i + 1:]):
            starts.append(i)
    return [(s, e) for s, e in zip(starts, [*starts[1:], len(columns)], strict=True)]


@dataclass
class _Body:
    """The body lines of a table read into rows (with their bold flags, heights, first label
    x0 and group), and the labels printed apart from the rows."""

    rows: list[list[str]] = field(default_factory=list)
    bold: list[list[bool]] = field(default_factory=list)
    ys: list[float] = field(default_factory=list)
    label_x: list[float | None] = field(default_factory=list)  # x0 of a row's first label
    groups: list[str] = field(default_factory=list)
    group: str = ""
    own_labels: int = 0
    floating: list[tuple[float, int, str]] = field(default_factory=list)  # label text printed
    # on a line of its own; (y, x0, text) of those in column 0
    floating_x: list[tuple[float, float, str]] = field(default_factory=list)
    vertical: list[tuple[float, float, str]] = field(default_factory=list)  # rotated: y0, y1
    side: list[tuple[float, float, str]] = field(default_factory=list)  # left of row labels
    spanning: list[tuple[float, list[str]]] = field(default_factory=list)

    def add_label_line(self, line: Line, cells: list[Cell], row: list[str], label_cols: int,
                       columns: list[Column]) -> None:
        """A line of labels only: a group title (one cell at the left edge after rows), or
        labels floating over the rows they name."""
        labels = [(i, t) for i, t in enumerate(row) if t and i < label_cols]
        if len(cells) == 1 and labels and self.rows and not any(
            w.vertical for w in line.words
        ) and cells[0].x0 <= columns[0].x0 + 2:
            self.group = cells[0].text
        for i, text in labels:
            self.floating.append((line.yc, i, text))
        if len(cells) == 1 and labels and labels[0][0] == 0:
            self.floating_x.append((line.yc, cells[0].x0, cells[0].text))

    def add_row(self, line: Line, cells: list[Cell], row: list[str], row_bold: list[bool],
                columns: list[Column], has_label: bool) -> None:
        """A row of the table."""
        self.rows.append(row)
        self.bold.append(row_bold)
        self.ys.append(line.yc)
        first = [c for c in cells if _place(c, columns) == 0]
        self.label_x.append(first[0].x0 if first else None)
        self.groups.append(self.group)
        self.own_labels += 1 if has_label else 0


def _read_body(body_lines: list[Line], columns: list[Column], label_cols: int,
               pitch: float) -> _Body:
    """Lay the body lines over the columns: rows, rotated labels, labels left of the row
    labels, label lines, and values printed between two rows (cells spanning both)."""
    n = len(columns)
    body = _Body()
    for line in body_lines:
        cells = [c for c in split_value_cells(line.cells) if c.words]
        if not cells:
            continue
        row = [""] * n
        row_bold = [False] * n
        for cell in cells:
            col = _place(cell, columns)
            row[col] = (row[col] + " " + cell.text).strip()
            row_bold[col] = row_bold[col] or cell.bold
        if all(w.vertical for w in line.words):
            body.vertical.append((line.y0, line.y1, line.text))
            continue
        if len(cells) == 1 and cells[0].x1 < columns[0].x0 - 2 and not is_value_line(line):
            body.side.append((line.yc, cells[0].x0, cells[0].text))  # left of the row labels
            continue
        if not is_value_line(line) and not all(is_value_text(c.text) for c in cells):
            body.add_label_line(line, cells, row, label_cols, columns)
            continue
        has_label = any(row[:label_cols])
        if not has_label and body.rows and pitch and body.ys and (
                line.yc - body.ys[-1] < 0.7 * pitch):
            body.spanning.append((line.yc, row))
            continue
        body.add_row(line, cells, row, row_bold, columns, has_label)
    return body


def _fill_spanning(rows: list[list[str]], ys: list[float],
                   spanning: list[tuple[float, list[str]]], pitch: float) -> None:
    """A value printed between two rows spans both: it fills their empty cells."""
    for yc, row in spanning:
        near = [i for i, y in enumerate(ys) if abs(y - yc) <= 0.75 * pitch]
        for i in near:
            for col, text in enumerate(row):
                if text and not rows[i][col]:
                    rows[i][col] = text


def _build(
    header_lines: list[Line],
    body_lines: list[Line],
    columns: list[Column],
    rules: list[Rule],
    *,
    page_no: int,
    number: str | None,
    caption: str | None,
    kind: str,
    title: str | None,
) -> ParsedTable | None:
    n = len(columns)
    label_cols = next((i for i, c in enumerate(columns) if c.values), n)
    if label_cols == 0 and _settings_column(columns, body_lines, header_lines):
        columns = [Column(columns[0].x0, columns[0].x1, False), *columns[1:]]
        label_cols = 1
    if label_cols == 0:
        columns = [Column(columns[0].x0 - 40, columns[0].x0 - 1, False), *columns]
        label_cols = 1
    pitch = _pitch([ln for ln in body_lines if is_value_line(ln)])
    body = _read_body(body_lines, columns, label_cols, pitch)
    rows, bold, ys, groups, label_x = body.rows, body.bold, body.ys, body.groups, body.label_x
    if not rows:
        return None
    if kind == "figure" and (body.own_labels < 2 or sum(
            1 for r in rows for c in r[label_cols:] if parse_cell_values(c))
            < 2 * body.own_labels):
        return None  # a plot's tick labels, not a table printed inside a figure
    first_line = _parameter_header(rows, ys, body_lines, label_cols)
    if first_line is not None:
        header_lines = [*header_lines, first_line]
        rows, bold, ys, groups = rows[1:], bold[1:], ys[1:], groups[1:]
        label_x = label_x[1:]
    _fill_spanning(rows, ys, body.spanning, pitch)
    _prefix_indented(rows, ys, label_x, body.floating_x)
    _fill_labels(rows, ys, body.floating, label_cols, rules, columns)
    vertical, side = body.vertical, body.side
    if vertical:  # a rotated label spanning rows names their group: a label column of its own
        for i, y in enumerate(ys):
            text = min(vertical, key=lambda v: max(v[0] - y, y - v[1], 0.0))[2]
            rows[i] = [text, *rows[i]]
            bold[i] = [False, *bold[i]]
        label_cols += 1
        columns = [Column(columns[0].x0 - 20, columns[0].x0 - 1, False), *columns]
    if not vertical and side:
        placed = _side_labels(rows, ys, side, pitch, rules, columns)
        if placed is not None:
            columns = [Column(placed, columns[0].x0 - 1, False), *columns]
            bold = [[False, *b] for b in bold]
            label_cols += 1
        else:
            _fill_labels(rows, ys, [(y, 0, t) for y, _, t in side], label_cols, rules, columns)
    header = [_header_row(line, columns, header_lines[k + 1:])
              for k, line in enumerate(header_lines)]
    _fill_group_headers(header, header_lines, columns, label_cols)
    header = [h for h in header if any(h)]
    _fill_title_header(header, label_cols)
    return ParsedTable(
        page_no=page_no, number=number, kind="figure" if kind == "figure" else "table",
        caption=caption, header=header, rows=rows, method="text_layout", label_cols=label_cols,
        groups=groups if any(groups) else [], title=title, bold=bold,
    )


def _settings_column(columns: list[Column], body_lines: list[Line],
                     header_lines: list[Line]) -> bool:
    """A leading column of settings ('Tree depth | 2, 3, 5, 8', '# blocks | 1, 2, 4'): it
    names the rows of a table that has no text label column.

    Its header is words printed over it, and its cells, one plain number per row over three
    rows or more, rise or fall strictly (a run of results seldom does, a swept setting does);
    value columns follow it.
    """
    if len(columns) < 2 or not columns[1].values:
        return False
    first = columns[0]
    numbers: list[float] = []
    for line in body_lines:
        if not is_value_line(line):
            continue
        cells = [c for c in split_value_cells(line.cells) if _place(c, columns) == 0]
        values = [v for c in cells for v in parse_cell_values(c.text)]
        if len(values) != 1 or values[0].unit is not None:
            return False
        numbers.append(values[0].number)
    steps = [b - a for a, b in zip(numbers, numbers[1:], strict=False)]
    monotonic = all(d > 0 for d in steps) or all(d < 0 for d in steps)
    named = any(re.search(r"[A-Za-z#]", c.text) and first.x0 - 8 <= c.xc <= first.x1 + 8
                for ln in header_lines for c in ln.cells)
    return len(numbers) >= 3 and monotonic and named


_PARAMETER = re.compile(
    r"(?i)\b(ratio|rate|size|epochs?|steps?|iterations?|layers?|dim(ension)?s?|temperature|"
    r"number of|budget|shots?|fraction|percentage of)\b|(?<![A-Za-z0-9])[#λαβγτk]\s*=?\s*$")


def _side_labels(rows: list[list[str]], ys: list[float], side: list[tuple[float, float, str]],
                 pitch: float, rules: list[Rule], columns: list[Column]) -> float | None:
    """Labels printed left of the row labels, each level with the rows it spans ('Set A'
    vertically centred beside its metric rows 'HR@1' ... 'MRR'), become a label column of their
    own: every row takes the nearest such label not separated from it by a rule. Returns the
    new column's left edge, or None (the labels sit in gaps between rows: group titles)."""
    if not rows or not pitch or not all(any(r[:1]) for r in rows):
        return None
    if any(min(abs(y - yr) for yr in ys) > 0.6 * pitch for y, _, _ in side):
        return None
    x0 = min(x for _, x, _ in side)
    for i, y in enumerate(ys):  # a rule across the new column ends a label's span
        options = [(abs(ys_ - y), text) for ys_, _, text in side
                   if not _separated(rules, ys_, y, x0, columns[0].x0 - 2)]
        rows[i].insert(0, min(options)[1] if options else "")
    return x0


def _parameter_header(
    rows: list[list[str]], ys: list[float], body_lines: list[Line], label_cols: int,
) -> Line | None:
    """The line of a first row naming a parameter ('Sampling ratio | 0.1 | 0.15 ...'): it is a
    header row, not results."""
    if len(rows) < 2 or not _PARAMETER.search(" ".join(rows[0][:label_cols])):
        return None
    return next((ln for ln in body_lines if abs(ln.yc - ys[0]) < 0.5), None)


def _prefix_indented(rows: list[list[str]], ys: list[float], label_x: list[float | None],
                     floating: list[tuple[float, float, str]]) -> None:
    """Indented row labels ('Context', 'Questions') belong to the unindented label printed on
    its own line next to them ('SQuAD'): the label becomes 'SQuAD Context'."""
    xs = [x for x in label_x if x is not None]
    if not xs or not floating:
        return
    base = min(xs)
    parents = [(y, text) for y, x, text in floating if x <= base + 2]
    for i, x in enumerate(label_x):
        if x is None or x <= base + 8 or not parents:
            continue
        _, parent = min(parents, key=lambda p: abs(p[0] - ys[i]))
        rows[i][0] = f"{parent} {rows[i][0]}"


def _pitch(lines: list[Line]) -> float:
    gaps = [b.yc - a.yc for a, b in zip(lines, lines[1:], strict=False) if b.yc > a.yc]
    return statistics.median(gaps) if gaps else 0.0


def _fill_labels(
    rows: list[list[str]],
    ys: list[float],
    floating: list[tuple[float, int, str]],
    label_cols: int,
    rules: list[Rule],
    columns: list[Column],
) -> None:
    """Give rows without a label the label of their group (nearest, not across a rule)."""
    for col in range(label_cols):
        known = [(ys[i], rows[i][col]) for i in range(len(rows)) if rows[i][col]]
        known += [(y, t) for y, c, t in floating if c == col]
        if not known:
            continue
        x0, x1 = columns[col].x0, columns[-1].x1
        for i, row in enumerate(rows):
            if row[col]:
                continue
            options = [(abs(y - ys[i]), 0 if y <= ys[i] else 1, t) for y, t in known
                       if not _separated(rules, y, ys[i], x0, x1)]
            if options:
                row[col] = min(options)[2]
