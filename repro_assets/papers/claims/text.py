"""Page text helpers for the Extract stage: sections, sentences and human citations."""

from __future__ import annotations

import re
from itertools import pairwise

from repro_assets.papers.models import PaperPages

_HEADING_RE = re.compile(
    r"^(?:\d+(?:\.\d+)*\.?\s+[A-Z](?:(?!\.\s)[^\n]){1,60}|Abstract|References|"
    r"Acknowledg(?:e)?ments?)$"
)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
_CAPTION_LIKE = re.compile(r"^\s*(Table|Tab\.|Figure|Fig\.)\s*\d+\s*[:.]", re.IGNORECASE)
#: A caption starting inside a run of text (after a plot's labels or a sentence it is glued to).
_CAPTION_INSIDE = re.compile(r"\b(?:Table|Tab\.|Figure|Fig\.)\s*\d+\s*:")

#: A percentage ("88.1%", "88.1 %") or a decimal fraction ("0.881", ".88") in running text.
_NUMBER_RE = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s?%|(?<![\w.])(0?\.\d{2,4})(?![\d%])")


def _collapse(text: str) -> str:
    """Whitespace runs to single spaces, stripped."""
    return re.sub(r"\s+", " ", text).strip()


def page_texts(pages: PaperPages) -> dict[int, str]:
    """Page number -> page text."""
    return {page.page_no: page.text for page in pages.pages}


#: A section number on a line of its own ("3", "4.2", "IV."); "15.03" is a table value.
_NUMBER_LINE = re.compile(r"^(?:(?:[1-9]|1\d)(?:\.[1-9]\d?){0,2}\.?|[IVX]+\.)$")
_TITLE_LINE = re.compile(r"^[A-Z][^\n]{2,68}$")


def _joined_headings(page_text: str) -> list[str]:
    """Headings whose number is printed on a line of its own ('3' / 'Preliminary ...')."""
    lines = [line.strip() for line in page_text.splitlines() if line.strip()]
    return [f"{a} {b}" for a, b in zip(lines, lines[1:], strict=False)
            if _NUMBER_LINE.match(a) and _TITLE_LINE.match(b) and not b.endswith(".")
            and len(b.split()) >= 2 and not re.search(r"\d\.\d", b)]


def section_index(pages: PaperPages) -> list[tuple[int, int, str]]:
    """(page, offset in collapsed page text, heading) for every heading found, in order."""
    out = []
    for page in pages.pages:
        collapsed = _collapse(page.text)
        titles = list(page.section_titles)
        for line in page.text.splitlines():
            line = line.strip()
            if _HEADING_RE.match(line) and line not in titles:
                titles.append(line)
        titles += [h for h in _joined_headings(page.text) if h not in titles]
        for title in titles:
            pos = collapsed.find(_collapse(title))
            if pos >= 0:
                out.append((page.page_no, pos, _collapse(title)))
    return sorted(out)


def section_at(sections: list[tuple[int, int, str]], page_no: int, offset: int) -> str | None:
    """The heading in force at ``offset`` of page ``page_no``."""
    current = None
    for page, pos, title in sections:
        if (page, pos) <= (page_no, offset):
            current = title
    return current


def _segments(page_text: str, titles: list[str]) -> list[str]:
    """Split a page's text at heading lines (headings become their own segments), also at a
    heading whose number is printed on a line of its own."""
    segments: list[list[str]] = [[]]
    wanted = {_collapse(t) for t in titles}
    joined = set(_joined_headings(page_text))
    lines = page_text.splitlines()
    skip = False
    for line, after in pairwise([*lines, ""]):  # each line with the next ("" after the last)
        stripped = line.strip()
        if skip:
            skip = False
        elif f"{stripped} {after.strip()}" in joined:
            segments += [[f"{stripped} {after.strip()}"], []]
            skip = True
        elif stripped and (_HEADING_RE.match(stripped) or _collapse(stripped) in wanted):
            segments.append([stripped])
            segments.append([])
        else:
            segments[-1].append(line)
    return [_collapse("\n".join(seg)) for seg in segments if _collapse("\n".join(seg))]


def _looks_tabular(sentence: str) -> bool:
    tokens = sentence.split()
    numeric = [t for t in tokens if re.fullmatch(r"[-+±]?[\d.,%]+", t)]
    return len(numeric) >= 4 and len(numeric) >= 0.3 * len(tokens)


def iter_sentences(pages: PaperPages) -> list[tuple[int, int, str]]:
    """Sentences of the paper body as (page, offset in collapsed page text, sentence).

    Headings split sentences; text after the "References" heading, table/figure captions
    (also one glued to the end of a sentence) and table-like runs of numbers are skipped.
    """
    out: list[tuple[int, int, str]] = []
    for page in pages.pages:
        collapsed = _collapse(page.text)
        offset = 0
        for segment in _segments(page.text, list(page.section_titles)):
            if re.fullmatch(r"References|Bibliography", segment, re.IGNORECASE):
                return out
            if _HEADING_RE.match(segment) and len(segment) < 70:
                offset = max(offset, collapsed.find(segment, offset) + len(segment))
                continue
            for sentence in _SENTENCE_SPLIT.split(segment):
                start = collapsed.find(sentence, offset)
                if start >= 0:
                    offset = start + len(sentence)
                caption = _CAPTION_INSIDE.search(sentence, 1)
                if caption:  # a caption glued to the text before it is not part of it
                    sentence = sentence[:caption.start()]
                sentence = sentence.strip()
                if not sentence or _CAPTION_LIKE.match(sentence) or _looks_tabular(sentence):
                    continue
                out.append((page.page_no, max(start, 0), sentence))
    return out


def _short_section(title: str | None) -> str | None:
    if not title:
        return None
    match = re.match(r"^(\d+(?:\.\d+)*)\.?\s", title)
    return f"Section {match.group(1)}" if match else title


def cite(sections: list[tuple[int, int, str]], page_no: int, offset: int) -> str:
    """A human citation: 'Section 4, page 2' (or just the page)."""
    section = _short_section(section_at(sections, page_no, offset))
    return f"{section}, page {page_no}" if section else f"page {page_no}"
