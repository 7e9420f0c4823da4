"""A table pasted as its markup source (HTML, LaTeX) is the same table as a pipe table.

Staff copy a table from where it was made: a web page's source (``<tr><td>J4</td><td>M6, 3
h</td></tr>``) or a report's LaTeX (``J4 & M6 (3) $\\rightarrow$ M8 (1) & 10:00 \\\\``).
:func:`markup_table_lines` writes such a block as the pipe rows the table reader reads, one row
a line (``| J4 | M6, 3 h |``), and a LaTeX ``\\caption{...}`` as a line of prose right above
them; the table's frame (``<table>``, ``<tbody>``, ``\\begin{tabular}{lll}``, rules such as
``\\midrule``) says nothing and goes.

Only a block understood entirely is rewritten: every HTML cell plain text (no element inside,
no ``colspan``/``rowspan``), rows and cells without attributes other than their layout
(a class, a style, ``hidden`` or a title may say the row is struck out), nothing between the
rows; every LaTeX row ends with ``\\\\`` and its cells hold plain text,
an arrow (``$\\rightarrow$``, ``$\\to$``) or a dash (``--``) only. Any other
markup leaves the block as written, and the reader reports it.
"""

from __future__ import annotations

import html
import re

_HTML_START_RE = re.compile(r"(?i)^\s*<table(?:\s[^<>]*)?>")
_HTML_END_RE = re.compile(r"(?i)</table>\s*$")
_HTML_FRAME_RE = re.compile(r"(?i)</?(?:table|thead|tbody|tfoot)(?:\s[^<>]*)?>")
_HTML_ROW_RE = re.compile(r"(?is)\s*<tr(?P<attributes>\s[^<>]*)?>(?P<cells>.*?)</tr>\s*")
_HTML_CELL_RE = re.compile(r"(?is)\s*<(?P<tag>t[hd])(?P<attributes>\s[^<>]*)?>(?P<text>.*?)"
                           r"</(?P=tag)>\s*")
_SPANNING_RE = re.compile(r"(?i)\b(?:colspan|rowspan)\b")
# an attribute of a row or a cell: its name, then a value in quotes or bare, or none
_ATTRIBUTE_RE = re.compile(r"""\s*(?P<name>[\w:-]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?""")
#: What a row's or a cell's attributes may say: where the text stands in it, nothing about
#: the row (``class="cancelled"``, ``hidden``, ``style="display:none"``, ``title="was 5"``).
_LAYOUT_ATTRIBUTES = frozenset({"align", "valign", "width", "height", "scope", "nowrap"})

_LATEX_START_RE = re.compile(r"^\s*\\begin\{tabular\*?\}(?:\{[^{}]*\})*\s*$")
_LATEX_END_RE = re.compile(r"^\s*\\end\{tabular\*?\}\s*$")
_LATEX_FRAME_RE = re.compile(
    r"^\s*(?:\\(?:toprule|midrule|bottomrule|hline|centering|small|footnotesize)\s*"
    r"|\\(?:begin|end)\{table\*?\}(?:\[[^\]]*\])?|\\label\{[^{}]*\})\s*$")
_LATEX_CAPTION_RE = re.compile(r"^\s*\\caption\{(?P<text>[^{}\\]*)\}\s*$")
_LATEX_ROW_RE = re.compile(r"^(?P<cells>.*?)\s*\\\\\s*(?:\\hline\s*)?$")
_LATEX_ARROW_RE = re.compile(r"\$\s*\\(?:rightarrow|to|longrightarrow)\s*\$|\\textrightarrow"
                             r"(?:\{\})?")
_LATEX_DASH_RE = re.compile(r"^-{2,3}$")


class _NotMarkup(ValueError):
    """The block holds markup this module does not rewrite."""


def _pipe_row(cells: list[str]) -> str:
    if any("|" in cell for cell in cells):
        raise _NotMarkup("a cell holds a pipe")
    return "| " + " | ".join(cells) + " |"


def _layout_only(attributes: str | None) -> None:
    """Refuse a row's or a cell's attributes unless each only lays its text out."""
    names = [match.group("name").lower() for match in _ATTRIBUTE_RE.finditer(attributes or "")]
    if any(name not in _LAYOUT_ATTRIBUTES for name in names):
        raise _NotMarkup("an attribute that may say what the row or cell is")


def _html_rows(block: str) -> list[str]:
    """The pipe rows of an HTML table's source."""
    body = _HTML_FRAME_RE.sub(" ", block)
    rows: list[str] = []
    position = 0
    while position < len(body):
        match = _HTML_ROW_RE.match(body, position)
        if match is None:
            if body[position:].strip():
                raise _NotMarkup("something between the rows")
            break
        _layout_only(match.group("attributes"))
        cells: list[str] = []
        inner = match.group("cells")
        at = 0
        while at < len(inner):
            cell = _HTML_CELL_RE.match(inner, at)
            if cell is None:
                if inner[at:].strip():
                    raise _NotMarkup("something between the cells")
                break
            if _SPANNING_RE.search(cell.group("attributes") or ""):
                raise _NotMarkup("a cell spans rows or columns")
            _layout_only(cell.group("attributes"))
            if "<" in cell.group("text"):
                raise _NotMarkup("an element inside a cell")
            cells.append(re.sub(r"\s+", " ", html.unescape(cell.group("text"))).strip())
            at = cell.end()
        if not cells:
            raise _NotMarkup("a row without cells")
        rows.append(_pipe_row(cells))
        position = match.end()
    if not rows:
        raise _NotMarkup("no rows")
    return rows


def _latex_cell(cell: str) -> str:
    text = _LATEX_ARROW_RE.sub("->", cell).strip()
    if _LATEX_DASH_RE.fullmatch(text):
        return "-"
    if re.search(r"[\\$&{}^_%~#]", text):
        raise _NotMarkup(f"markup in a cell: {cell!r}")
    return re.sub(r"\s+", " ", text)


def _latex_rows(lines: list[str]) -> list[str]:
    """The pipe rows of a LaTeX tabular's body lines."""
    rows: list[str] = []
    for line in lines:
        if not line.strip() or _LATEX_FRAME_RE.match(line):
            continue
        match = _LATEX_ROW_RE.match(line)
        if match is None:
            raise _NotMarkup(f"not a row: {line!r}")
        if "\\&" in match.group("cells"):
            raise _NotMarkup("an escaped ampersand")
        rows.append(_pipe_row([_latex_cell(cell) for cell in match.group("cells").split("&")]))
    if not rows:
        raise _NotMarkup("no rows")
    return rows


def _html_block(lines: list[str], start: int) -> tuple[list[str], int] | None:
    if not _HTML_START_RE.match(lines[start]):
        return None
    end = next((k for k in range(start, len(lines)) if _HTML_END_RE.search(lines[k])), None)
    if end is None:
        return None
    try:
        return _html_rows("\n".join(lines[start:end + 1])), end + 1
    except _NotMarkup:
        return None


def _latex_block(lines: list[str], start: int) -> tuple[list[str], int] | None:
    """A tabular with the frame of its ``table`` float around it: its caption (as prose) and
    rows, and the index after the block."""
    at = start
    caption: list[str] = []
    while at < len(lines) and not _LATEX_START_RE.match(lines[at]):
        found = _LATEX_CAPTION_RE.match(lines[at])
        if found is not None and not caption:
            caption = [found.group("text").strip()]
        elif not _LATEX_FRAME_RE.match(lines[at]) or at - start > 4:
            return None
        at += 1
    if at >= len(lines):
        return None
    end = next((k for k in range(at, len(lines)) if _LATEX_END_RE.match(lines[k])), None)
    if end is None:
        return None
    try:
        rows = _latex_rows(lines[at + 1:end])
    except _NotMarkup:
        return None
    after = end + 1
    while after < len(lines) and lines[after].strip() and _LATEX_FRAME_RE.match(lines[after]):
        after += 1  # \end{table}
    return [*caption, *rows], after


def markup_table_lines(lines: list[str]) -> None:
    """Rewrite, in place, every HTML or LaTeX table block understood entirely as pipe rows."""
    index = 0
    while index < len(lines):
        found = (_html_block(lines, index) or _latex_block(lines, index)
                 if lines[index].lstrip().startswith(("<", "\\")) else None)
        if found is None:
            index += 1
            continue
        rows, after = found
        lines[index:after] = rows
        index += len(rows)
