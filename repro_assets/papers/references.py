"""Reference lists recognized by their structure, parsed into structured citations.

A paper's bibliography is not prose: embedded as chunks it costs tokens (often a sixth of a
paper) and its entries, full of titles and venue names, crowd real answers out of search
results. This module finds it by structure, not by position or by a list of names:

* a heading line that names a reference list ("References", "Bibliography", "Literature
  cited", optionally numbered);
* followed by text that reads like entries: publication years at a density prose never has,
  numbered markers (``[12]``, ``12.``) or author-first lines (``Surname, I.``);
* the list ends at the next heading (an appendix, a supplement), or where a long stretch of
  text has no year and no entry marker at all (appendix prose whose heading was not
  recognized).

The entries are returned as :class:`Citation` rows (label, text, year) so a caller can count
or store them instead of embedding them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repro_assets.papers.models import PaperPages, TextBlock

_HEADING = re.compile(
    r"^(?:(?:[A-Z]?\d{1,2}(?:\.\d{1,2})*|[IVXL]{1,4})\.?\s+)?(?:references(?:\s+and\s+notes)?|bibliography|"
    r"literature\s+cited|works\s+cited|cited\s+literature|reference\s+list)\s*:?$",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?<!\d)(?:19[3-9]\d|20[0-4]\d)[a-z]?(?!\d)")
_MARKER = re.compile(r"^\s*(?:\[\d{1,3}\]|\(\d{1,3}\)|\d{1,3}\.\s|\[[^\]\n]{1,60}\d{4}[a-z]?\])")
#: "Surname, I." / "Surname, Given" / "Given Surname, ..." / "Given Surname and ..."
_AUTHOR_FIRST = re.compile(
    r"^\s*(?:[A-Z][\w'`´¨~\-]+(?:\s+[a-z]{1,3})?,\s+(?:[A-Z]\.|[A-Z][a-z]+)"
    r"|(?:[A-Z][\w'`´¨~\-]*\.?\s+){1,3}[A-Z][\w'`´¨~\-]+(?:,|\s+and\s|\s+et\s+al\.))"
)
#: a line that opens an appendix or a supplement after the list
_APPENDIX = re.compile(r"^(?:appendix|appendices|supplementary|supplemental)\b", re.IGNORECASE)
#: how much text right after the heading is read to confirm a list follows
CONFIRM_CHARS = 1500
#: years per 1,000 characters that only a reference list reaches
MIN_YEAR_DENSITY = 2.0
#: characters without a year or an entry marker that end the list
END_GAP_CHARS = 700


@dataclass(frozen=True)
class Citation:
    """One entry of a reference list."""

    label: str | None
    text: str
    year: int | None
    page: int


@dataclass
class ReferenceSpan:
    """Where a paper's reference lists are: (page number, block index) of their blocks."""

    blocks: set[tuple[int, int]] = field(default_factory=set)
    heading: tuple[int, int] | None = None
    entries: list[Citation] = field(default_factory=list)
    headings: set[tuple[int, int]] = field(default_factory=set)

    def __contains__(self, key: tuple[int, int]) -> bool:
        return key in self.blocks or key in self.headings


def _collapse(text: str) -> str:
    return " ".join(text.split())


def is_reference_heading(text: str) -> bool:
    """True for a line that names a reference list ("References", "7 Bibliography" ...)."""
    return bool(_HEADING.match(_collapse(text)))


def looks_like_entries(text: str) -> bool:
    """True when ``text`` reads like reference entries rather than prose.

    Entries carry a publication year every few lines; prose that cites (``Smith et al.,
    2019``) rarely reaches the same density, and never together with entry markers or
    author-first lines.
    """
    flat = _collapse(text)
    if len(flat) < 80:
        return False
    years = len(_YEAR.findall(flat))
    lines = [line for line in text.splitlines() if line.strip()]
    starts = sum(1 for line in lines if _MARKER.match(line) or _AUTHOR_FIRST.match(line))
    density = 1000.0 * years / len(flat)
    return years >= 3 and density >= MIN_YEAR_DENSITY and (
        starts >= 2 or density >= 1.5 * MIN_YEAR_DENSITY)


def _signals(text: str) -> bool:
    """Whether a block carries anything of an entry (a year or an entry marker)."""
    return bool(_YEAR.search(text)) or any(_MARKER.match(line) for line in text.splitlines())


def _ends_list(block: TextBlock, headings: set[str]) -> bool:
    """A heading after the list: an appendix, a supplement, or any detected section title
    that has no year (an entry line in bold is still an entry)."""
    text = block.text.strip()
    if "\n" in text or len(text) > 80 or _YEAR.search(text):
        return False
    return bool(_APPENDIX.match(text)) or text in headings


_Flat = list[tuple[int, int, TextBlock, set[str]]]


def _flat_blocks(pages: PaperPages) -> _Flat:
    """Every non-blank block as (page, index, block, that page's section titles)."""
    flat: _Flat = []
    for page in pages.pages:
        headings = set(page.section_titles)
        for index, block in enumerate(page.blocks):
            if block.text.strip():
                flat.append((page.page_no, index, block, headings))
    return flat


def _heading_lines(block: TextBlock) -> int:
    """How many of the block's first lines name a reference list (0: none; 2 when the
    heading's number stands on a line of its own, "A7" over "References")."""
    lines = block.text.strip().splitlines()
    if is_reference_heading(lines[0]):
        return 1
    if len(lines) >= 2 and len(lines[0]) <= 6 and is_reference_heading(f"{lines[0]} {lines[1]}"):
        return 2
    return 0


def _list_starts(flat: _Flat) -> list[tuple[int, int]]:
    """(position, heading lines) of the reference headings that entries follow."""
    starts = []
    for position, (_, _, block, _) in enumerate(flat):
        used = _heading_lines(block)
        if not used:
            continue
        following = "\n".join(block.text.strip().splitlines()[used:])
        for _, _, nxt, _ in flat[position + 1:]:
            if len(following) >= CONFIRM_CHARS:
                break
            following += "\n" + nxt.text
        if looks_like_entries(following[:CONFIRM_CHARS]):
            starts.append((position, used))
    return starts


def _list_members(flat: _Flat, start: int) -> list[tuple[int, int, TextBlock]]:
    """The blocks after the heading at ``start`` up to the list's end (a heading or a gap)."""
    members: list[tuple[int, int, TextBlock]] = []
    position = start + 1
    while position < len(flat):
        page_no, index, block, headings = flat[position]
        if _ends_list(block, headings):
            break
        if not _signals(block.text):
            gap, ahead = 0, position
            while ahead < len(flat) and not _signals(flat[ahead][2].text):
                gap += len(_collapse(flat[ahead][2].text))
                ahead += 1
            if gap >= END_GAP_CHARS:
                break
        members.append((page_no, index, block))
        position += 1
    return members


def find_references(pages: PaperPages) -> ReferenceSpan | None:
    """The paper's reference lists, or None when no heading is followed by entries.

    A paper may have more than one (the main text's and a supplement's): every heading that
    entries follow opens a list, and all of them are returned as one span.
    """
    flat = _flat_blocks(pages)
    span: ReferenceSpan | None = None
    covered = -1
    for start, used in _list_starts(flat):
        if start <= covered:  # a heading inside the previous list
            continue
        page_no, index, block, _ = flat[start]
        span = span or ReferenceSpan(heading=(page_no, index))
        span.headings.add((page_no, index))
        rest = block.text.strip().splitlines()[used:]
        if rest:  # the heading and the first entries in one block
            span.blocks.add((page_no, index))
        members = _list_members(flat, start)
        covered = start + len(members)
        span.blocks.update((p, i) for p, i, _ in members)
        lines = [(page_no, line) for line in rest]
        lines += [(p, line) for p, _, b in members for line in b.text.splitlines()]
        span.entries += parse_entries(lines)
    return span


def parse_entries(lines: list[tuple[int, str]]) -> list[Citation]:
    """Split a reference list's lines (page number, text) into entries.

    Numbered lists split at each marker; author-year lists at a line that opens with a
    capital letter after a line that closed an entry (ends with a period) once that entry
    has its year.
    """
    lines = [(page, line.strip()) for page, line in lines if line.strip()]
    numbered = sum(1 for _, line in lines if _MARKER.match(line)) >= max(2, len(lines) // 8)
    groups: list[tuple[int, list[str]]] = []
    for page, line in lines:
        if numbered:
            opens = bool(_MARKER.match(line))
        elif groups:  # after an entry that has its year and closed its last line
            entry = groups[-1][1]
            closed = entry[-1].rstrip().endswith(".") and bool(_YEAR.search(" ".join(entry)))
            opens = closed and line[:1].isupper()
        else:
            opens = True
        if opens or not groups:
            groups.append((page, [line]))
        else:
            groups[-1][1].append(line)
    citations = []
    for page, parts in groups:
        text = _join(parts)
        label = None
        marker = _MARKER.match(text) if numbered else None
        if marker:
            label = marker.group(0).strip().strip("[]().")
            text = text[marker.end():].strip()
        year = _YEAR.search(text)
        citations.append(Citation(label=label, text=text,
                                  year=int(year.group(0)[:4]) if year else None, page=page))
    return citations


def _join(parts: list[str]) -> str:
    """Join wrapped lines: a word broken with a hyphen at a line end is joined back."""
    text = parts[0]
    for part in parts[1:]:
        if text.endswith("-") and part[:1].islower():
            text = text[:-1] + part
        else:
            text += " " + part
    return text
