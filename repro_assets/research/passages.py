"""Passages of a text window: sentences of running text and table rows with their context.

PDF text puts table cells on lines of their own, so a row is a label line followed by value
lines (or one line: a label and its cells); its columns are named by the run of short header
lines above the first row when their count matches the row's values. A row's own caption is
the one its table's lines lead to, above or below it as the text's captions stand.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from repro_assets.research.question_terms import YEAR_RE


@dataclass
class Passage:
    """A candidate statement: a sentence or a table row, with its local context."""

    text: str
    values: list[str]
    context: str
    table: bool = False
    headers: list[str] = field(default_factory=list)
    label: str = ""
    nearby: str = ""
    caption: str | None = None


#: A cell's note with a unit, such as a run time ("70.3 (7s)"): part of the cell before it.
_NOTE = r"\(\d+(?:\.\d+)?[a-z]{1,3}\)"


#: A number cell may end in a magnitude ("5.3M" parameters, "0.39B" FLOPS, "500K" steps); a
#: row's cells go on past a mark cell ("yes", "no", "?", a check mark) to the next columns.
_CELL_TOKEN = re.compile(r"[-\u2212]?\d+(?:[.,]\d+)?(?:e[-+]?\d+)?(?:[KMBG]|[%x\u00d7*])?|"
                         r"[\u00b1/]|OOM|N/?A|[Yy]es|[Nn]o|\?|[\u2713\u2714\u2717\u2718]|"
                         r"[\u2013\-]{1,2}|\([-\u2212]?\d+(?:\.\d+)?\)|" + _NOTE)


NUM_RE = re.compile(r"[-\u2212]?\d+(?:\.\d+)?")


def _is_value_line(line: str, continuing: bool = False) -> bool:
    """A line of value cells only (``continuing``: a row's placeholder such as ``OOM``)."""
    cells = line.split()
    return bool(cells) and all(_CELL_TOKEN.fullmatch(c) for c in cells) and (
        continuing or any(NUM_RE.match(c) for c in cells))


def _group(tokens: list[str]) -> list[str]:
    """Cells of value tokens: ``a / b`` and ``a \u00b1 b`` are one cell."""
    cells: list[str] = []
    i = 0
    while i < len(tokens):
        if cells and re.fullmatch(_NOTE, tokens[i]):
            cells[-1] = f"{cells[-1]} {tokens[i]}"
            i += 1
            continue
        if tokens[i] in ("/", "\u00b1") and cells and i + 1 < len(tokens):
            cells[-1] = f"{cells[-1]} {tokens[i]} {tokens[i + 1]}"
            i += 2
            continue
        cells.append(tokens[i])
        i += 1
    return cells


def _cut_cell(line: str) -> bool:
    """A line of one token that is a number with a unit this reader does not parse
    ("3.5Gb", "12k+"; not a rank mark "2."): a row's cells go on past it."""
    tokens = line.split()
    return len(tokens) == 1 and re.fullmatch(
        r"[-\u2212]?\d+(?:[.,]\d+)?[A-Za-z][\w+]*", tokens[0]) is not None \
        and not _CELL_TOKEN.fullmatch(tokens[0])


def _cells(line: str) -> list[str]:
    """Cells of a value line."""
    return _group(line.split())


def _one_line_row(line: str) -> tuple[str, list[str]] | None:
    """``label v1 v2 ...`` printed on one line: the label and its value cells."""
    tokens = line.split()
    k = len(tokens)
    while k > 0 and _CELL_TOKEN.fullmatch(tokens[k - 1]):
        k -= 1
    label, values = " ".join(tokens[:k]), tokens[k:]
    numbers = [v for v in values if NUM_RE.fullmatch(v.rstrip("%x*"))]
    if (not label or not re.search(r"[A-Za-z]", label) or len(tokens[:k]) > 10
            or not numbers or all(YEAR_RE.fullmatch(v) for v in numbers)):
        return None  # no values, or only a year (a cited work: "Smith et al., 2015")
    if _heading_or_sentence_end(label, values):
        return None
    return label, _group(values)


def _heading_or_sentence_end(label: str, values: list[str]) -> bool:
    """A label that ends a sentence ("... on the test set." then a footnote mark) or a running
    head in capitals with its page number is no table row."""
    return label.rstrip().endswith(".") or (
        len(values) == 1 and re.fullmatch(r"\d{1,3}", values[0]) is not None
        and label.isupper())


#: Section titles a numbered heading carries ("4.2 Results").
_SECTION_TITLES = re.compile(
    r"^(abstract|introduction|background|related work|method(s|ology)?|approach|model|"
    r"experiments?|experimental (setup|settings?|results)|setup|datasets?|data|training|"
    r"implementation( details)?|evaluation|results?( and discussion)?|discussion|analysis|"
    r"ablations?( study| studies)?|conclusions?|limitations|acknowledg(e)?ments?|references|"
    r"appendix)\b", re.IGNORECASE)


def _section_number(value_line: str, following: str) -> bool:
    """A lone number ("5.3") followed by a section title ("Results") is a heading's number."""
    return re.fullmatch(r"\d{1,2}(\.\d{1,2}){0,2}", value_line.strip()) is not None and \
        _SECTION_TITLES.match(following.strip()) is not None and len(following.split()) <= 5


def cell_values(cell: str) -> list[str]:
    """The numbers of a cell (``31.40 / 29.95`` -> both; ``4.21 \u00b1 0.08`` -> ``4.21``)."""
    if "\u00b1" in cell:
        cell = cell.split("\u00b1")[0]
    cell = re.sub(_NOTE, " ", cell)
    return [m.replace("\u2212", "-") for m in NUM_RE.findall(cell)]


def _table_passages(lines: list[str], context: str, style: str | None = None
                    ) -> list[Passage]:
    """Rows (a label line then value lines, or one line) with the header run above them."""
    out: list[Passage] = []
    i = 0
    header_run: list[str] = []
    frozen = False  # after a table's first row, short lines are group labels, not headers
    style = style or caption_style(lines)
    last_end, last_label = -1, ""  # where the previous row's lines end, and its label
    lead = ""  # a row's first text cell, on the line before its label
    while i < len(lines):
        line = lines[i]
        if _CAPTION_START.match(line):
            # a caption closes the table before it and opens the next one: the header lines
            # after it name the next table's columns, never the previous table's rows
            header_run, frozen = [], False
            i += 1
            continue
        if not lead and _opens_two_cell_row(lines, i, after_row=frozen and last_end == i):
            lead = line  # "Smith et al. [3]" / "semi-supervised" / "92.7": one row's cells
            i += 1
            continue
        j = i + 1
        values: list[str] = []
        while j < len(lines) and _is_value_line(lines[j], continuing=True):
            values += _cells(lines[j])
            j += 1
        if not any(cell_values(v) for v in values):
            values = []
        if j == i + 2 and j < len(lines) and _section_number(lines[i + 1], lines[j]):
            values = []  # "5.3" then "Results": a section heading's number, not a cell
        if not _is_value_line(line) and len(line.split()) <= 12 and values \
                and not _heading_or_sentence_end(line, values):
            # a run of cells cut short by a cell this reader does not parse ("3.5Gb"): its
            # values cannot be aligned with the header's columns
            cut = j < len(lines) and _cut_cell(lines[j])
            first = i - 1 if lead else i
            label = f"{lead} {line}" if lead else (
                _group_label(last_label, line) if last_end == i else line)
            out.append(Passage(text=f"{label} {' '.join(values)}".strip(), values=values,
                               context=context, table=True,
                               headers=[] if cut else list(header_run),
                               label=label, caption=_own_caption(lines, first, j - 1, style)))
            frozen, lead = True, ""
            last_end, last_label = j, label
            i = j
            continue
        lead = ""
        row = None if _is_value_line(line) else _one_line_row(line)
        if row is not None and len(row[1]) >= 1 and len(line.split()) <= 16:
            out.append(Passage(text=line, values=row[1], context=context, table=True,
                               headers=list(header_run), label=row[0],
                               caption=_own_caption(lines, i, i, style)))
            frozen = True
            last_end, last_label = i + 1, row[0]
        elif (len(line.split()) <= 4 or len(split_header_line(line)) >= 2) \
                and not _is_value_line(line):
            if not frozen:
                header_run = [*header_run, line][-12:]
        elif not _is_value_line(line):
            header_run, frozen = [], False
        i += 1
    return out


_CAPTION_START = re.compile(r"Table\s+\d+[.:]")
#: Most words of a row's first text cell, and of its second (the label line itself).
LEAD_WORDS, LABEL_WORDS = 8, 6


def _text_cell(line: str, most: int) -> bool:
    """A line that can be one text cell of a row: words, no value cells, no caption, no
    sentence's end, at most ``most`` words."""
    return (bool(re.search(r"[A-Za-z]", line)) and not _is_value_line(line, continuing=True)
            and not _CAPTION_START.match(line) and len(line.split()) <= most
            and not line.rstrip().endswith(".") and _one_line_row(line) is None)


def _value_run(lines: list[str], start: int) -> int:
    """The index after the run of value lines starting at ``start`` (``start``: none)."""
    k = start
    while k < len(lines) and _is_value_line(lines[k], continuing=True):
        k += 1
    return k if any(_is_value_line(ln) for ln in lines[start:k]) else start


def _opens_two_cell_row(lines: list[str], i: int, after_row: bool) -> bool:
    """Line ``i`` is a row's first text cell and line ``i + 1`` its second, value lines
    following (PDF text puts each cell on a line: "Smith et al. [3]" / "semi-supervised" /
    "92.7"). Right after another row's values (``after_row``) that shape is enough; a table's
    first row must have the next row printed the same way (else line ``i`` is a header)."""
    if i + 2 >= len(lines) or not _text_cell(lines[i], LEAD_WORDS) \
            or not _text_cell(lines[i + 1], LABEL_WORDS):
        return False
    end = _value_run(lines, i + 2)
    if end == i + 2:
        return False
    if after_row:
        return True
    return end + 2 < len(lines) and _text_cell(lines[end], LEAD_WORDS) \
        and _text_cell(lines[end + 1], LABEL_WORDS) and _value_run(lines, end + 2) > end + 2


def _group_label(previous: str, label: str) -> str:
    """A sub-row's label with its group's name: a row labelled "two-conv" right under the row
    "Quill-3 one-conv" is Quill-3's (the previous label's last words and this label are
    siblings: hyphenated words sharing their first or their last part)."""
    words, own = previous.split(), label.split()
    if len(own) != 1 or len(words) < 2:
        return label
    tail, word = words[-1], own[0]
    if "-" not in tail or "-" not in word or tail.lower() == word.lower():
        return label
    a, b = tail.lower().split("-"), word.lower().split("-")
    if a[-1] == b[-1] or a[0] == b[0]:
        return " ".join([*words[:-1], label])
    return label


#: Lines a scan for a row's caption crosses at most.
CAPTION_REACH = 60


def _tabular(line: str, following: str = "") -> bool:
    """A line of a table: value cells, a short label or header, a row's label (value cells
    follow it), a one-line row, or a header line naming several columns with their units."""
    words = line.split()
    return (_is_value_line(line, continuing=True) or len(words) <= 6
            or (len(words) <= 12 and _is_value_line(following))
            or (len(words) <= 16 and _one_line_row(line) is not None)
            or (len(words) <= 16 and len(split_header_line(line)) >= 2))


def caption_style(lines: list[str]) -> str | None:
    """Where a text's captions stand: ``above`` their tables, ``below`` them, or None.

    A caption after running text and before table lines opens its table (above); one after
    table lines and before running text closes it (below). The majority decides.
    """
    above = below = 0
    for k, line in enumerate(lines):
        if not _CAPTION_START.match(line):
            continue
        end = _caption_read(lines, k)[1]
        before = k > 0 and _tabular(lines[k - 1], lines[k])
        after = end < len(lines) and _tabular(lines[end], lines[end + 1] if end + 1 < len(
            lines) else "")
        above += int(not before and after)
        below += int(before and not after)
    return "above" if above > below else "below" if below > above else None


#: A caption line holding only its label ("Table 5:"): its text is on the lines after it.
_BARE_CAPTION = re.compile(r"Table\s+\d+[.:]\s*")


def _caption_lines(lines: list[str], k: int) -> list[str]:
    """The caption starting at line ``k`` with its continuation lines (long lines)."""
    return _caption_read(lines, k)[0]


def _caption_read(lines: list[str], k: int) -> tuple[list[str], int]:
    """The caption starting at line ``k`` (its lines) and the index of the line after it.

    A label printed on a line of its own ("Table 5:", perhaps repeated as the PDF drew it
    twice) is followed by the caption's text: its next line is read whatever its length.
    """
    out = [lines[k]]
    end = k + 1
    if _BARE_CAPTION.fullmatch(lines[k]):
        while end < len(lines) and lines[end] == lines[k]:
            end += 1  # the label drawn twice
        if end < len(lines) and not _CAPTION_START.match(lines[end]):
            out[-1] = f"{lines[k]} {lines[end]}"
            end += 1
    for line in lines[end: end + 4]:
        if _CAPTION_START.match(line):
            break
        if len(line) < 40:
            if out[-1].endswith("-") and line[:1].isalnum():
                out[-1] += line  # a word broken at the line end ("10-" / "crop testing.")
            break
        out.append(line)
        end += 1
    return out, end


def _own_caption(lines: list[str], first: int, last: int, style: str | None = None
                 ) -> str | None:
    """The caption of the table a row (lines ``first``..``last``) belongs to, or None.

    Only table lines (cells, labels, headers, rows) may stand between a row and its own
    caption: the first caption below the row (captions printed under their tables), or the
    last caption above it (captions over their tables, perhaps over several lines). The
    text's ``style`` (:func:`caption_style`) says which; when it is unknown and both are
    found, the row's caption cannot be told (empty: no caption ties the row). A sentence
    ends a search: the caption of a neighbouring table is not the row's.
    """
    below = above = None
    for j in range(last + 1, min(len(lines), last + 1 + CAPTION_REACH)):
        if _CAPTION_START.match(lines[j]):
            below = " ".join(_caption_lines(lines, j))
            break
        if not _tabular(lines[j], lines[j + 1] if j + 1 < len(lines) else ""):
            break
    for j in range(first - 1, max(-1, first - 1 - CAPTION_REACH), -1):
        if _CAPTION_START.match(lines[j]):
            above = " ".join(_caption_lines(lines, j))
            break
        if not _tabular(lines[j], lines[j + 1] if j + 1 < len(lines) else ""):
            for k in range(j - 1, max(-1, j - 4), -1):
                if _CAPTION_START.match(lines[k]):
                    above = " ".join(_caption_lines(lines, k))
                    break
                if len(lines[k]) < 40:
                    break
            break
    if style == "below":
        return below
    if style == "above":
        return above
    return "" if below and above else below or above


def _prose(text: str) -> str:
    """Running text of a window: short lines (cells, headings) become paragraph breaks."""
    kept: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if len(line.split()) >= 4 and not _is_value_line(line):
            kept.append(line)
        elif _ends_a_sentence(line, kept[-1] if kept else ""):
            kept.append(line)  # "We used" / "x_steps = 40.": the short line ends the sentence
        else:
            kept.append("")
    joined = "\n".join(kept)
    joined = re.sub(r"(?<=[a-z])-\n(?=[a-z])", "", joined)
    return re.sub(r"(?<!\n)\n(?!\n)", " ", joined)


def _ends_a_sentence(line: str, previous: str) -> bool:
    """A short line that closes the sentence the previous (kept) line leaves open: the previous
    line ends in a word (no full stop, colon or hyphen break) and this one with a full stop."""
    if not line or not previous or not line.endswith((".", "!", "?")) or line[:1].isupper():
        return False
    if _is_value_line(line.rstrip(".!?")):
        return False
    return previous[-1:].isalnum() or previous.endswith((",", ")"))


def _sentences(text: str) -> list[str]:
    out = []
    for paragraph in _prose(text).split("\n"):
        flat = re.sub(r"\s+", " ", paragraph).strip()
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(\[])", flat) if s.strip()]
    return out


def passages(window: str, style: str | None = None) -> list[Passage]:
    """Sentences and table rows of a text window, each with the window as context."""
    window = unicodedata.normalize("NFKC", window)
    lines = [ln.strip() for ln in window.split("\n") if ln.strip()]
    out = _table_passages(lines, window, style)
    sentences = _sentences(window)
    for i, sentence in enumerate(sentences):
        words = sentence.split()
        numeric = sum(1 for w in words if NUM_RE.fullmatch(w.strip(",.;:%")))
        if len(words) >= 5 and numeric <= len(words) * 0.3:
            nearby = " ".join(sentences[max(0, i - 1): i] + sentences[i + 1: i + 2])
            out.append(Passage(text=sentence, values=[], context=window, nearby=nearby))
    return out


def split_header_line(line: str) -> list[str]:
    """A header line holding several column names, each ending in a unit in parentheses.

    "top-1 err. (%) top-5 err. (%)" -> ``["top-1 err. (%)", "top-5 err. (%)"]``; any other
    line is one name.
    """
    if line.count("(") < 2 or not line.rstrip().endswith(")"):
        return [line]  # no split covers it; the search on a long such line was quadratic
    parts = [p.strip() for p in re.findall(r"[^()\s][^()]*?\([^()]*\)", line)]
    if len(parts) >= 2 and "".join(parts).replace(" ", "") == line.replace(" ", ""):
        return parts
    return [line]


#: Characters around a row of a whole-document table that make its context (captions).
TABLE_CONTEXT = 2500


def local_context(text: str, row: str) -> str:
    """The text around ``row``'s first line in ``text`` (its table, caption and header)."""
    at = text.find(row.split(" ")[0])
    if at < 0:
        return text[:TABLE_CONTEXT]
    return text[max(0, at - TABLE_CONTEXT): at + TABLE_CONTEXT]


def table_captions(context: str) -> list[str]:
    """Table captions of a window (``Table 3: ...`` up to the next blank or short line)."""
    return re.findall(r"(?:^|\n)(Table\s+\d+[.:][^\n]*(?:\n[^\n]{40,})*)", context)
