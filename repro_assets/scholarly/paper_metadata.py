"""Reference metadata of a paper PDF: its document metadata and a parse of its first page.

What is read, in order of trust (precision first: a field that cannot be read with confidence
stays empty rather than guessed):

* the arXiv stamp in the margin (``arXiv:2101.01234v2 [cs.CL] 3 Sep 2021``): arXiv id and year;
* a DOI printed on the first page (``https://doi.org/...`` or ``doi: ...``);
* the PDF's own Title/Author metadata, used only when its title is the paper's title (a PDF
  whose metadata describes the proceedings volume says nothing about the paper's authors);
* the byline: the lines between the title and the abstract that consist of person names only
  (affiliations, e-mails and footnote marks are not names);
* the year from the stamp, a copyright line or a venue line ("Published as a conference paper
  at ... 2017", "Proceedings of ... 2017"); the PDF's creation date is never used (files are
  regenerated years later);
* the venue from such a venue line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ARXIV_STAMP_RE = re.compile(
    r"arXiv:\s*(?P<id>\d{4}\.\d{4,5})(?P<version>v\d+)?\s*\[[^\]]+\]\s*"
    r"(?:\d{1,2}\s+[A-Z][a-z]{2}\s+(?P<year>(?:19|20)\d{2}))?")
DOI_RE = re.compile(r"(?:doi\.org/|\bdoi:\s*)(?P<doi>10\.\d{4,9}/[^\s\"<>]+)", re.IGNORECASE)
COPYRIGHT_RE = re.compile(r"(?:©|\(c\)|c⃝|copyright)\s*(?P<year>(?:19|20)\d{2})", re.IGNORECASE)
VENUE_RE = re.compile(
    r"^(?:Published as a (?:conference|workshop) paper at\s+(?P<short>.+?)|"
    r"(?P<long>(?:In\s+)?Proceedings of .+?|.*\b(?:Conference|Workshop|Symposium) on .+?))"
    r"(?:,\s*pages?\s+(?P<pages>\d+\s*[-\u2013]\s*\d+))?[.,]?$")
YEAR_RE = re.compile(r"\b(?P<year>(?:19|20)\d{2})\b")
ABSTRACT_RE = re.compile(r"^\s*(abstract|a b s t r a c t)\b", re.IGNORECASE)
_MARKS = "*∗†‡§¶‖#+0123456789,"
_NAME_WORD = r"(?:[A-Z][a-z'\u2019\-]+(?:-[A-Z][a-z]+)?|[A-Z]\.(?:-?[A-Z]\.)?)"
_PARTICLE = r"(?:van|von|der|den|de|del|della|di|da|du|la|le|dos|das|ter|ten|bin|al)"
NAME_RE = re.compile(rf"^{_NAME_WORD}(?:\s+(?:{_PARTICLE}\s+)*{_NAME_WORD}){{1,3}}$")
_NOT_NAME = re.compile(
    r"universit|institut|inc\b|ltd|research|department|school|college|laborator|lab\b|"
    r"google|microsoft|facebook|centre|center|academy|corporation|company|abstract|"
    r"introduction|conference|proceedings|published|journal", re.IGNORECASE)


@dataclass
class PaperMetadata:
    """What the PDF says about itself (None / empty: not read with confidence)."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    arxiv_id: str | None = None
    doi: str | None = None
    venue: str | None = None
    pages: str | None = None


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def split_names(line: str) -> list[str] | None:
    """Person names of a byline, or None when any part is not a person name.

    ``"Ian J. Goodfellow, Jean Pouget-Abadie∗, and Mehdi Mirza"`` -> three names.
    """
    line = re.sub(r"\S+@\S+|\([^)]*@[^)]*\)", " ", line)
    parts = re.split(r",|;|\s+and\s+|\s+&\s*|&", line)
    names = []
    for part in parts:
        name = " ".join(part.strip().strip(_MARKS).split())
        name = name.rstrip(_MARKS + " ")
        if not name:
            continue
        if _NOT_NAME.search(name) or not NAME_RE.match(name):
            return None
        names.append(name)
    return names or None


_EMAIL_RE = re.compile(r"\S+@\S+")


def _byline(lines: list[str], title: str | None) -> list[str]:
    """Names on the lines after the title and before the abstract.

    A line of several names counts anywhere in the byline. A line with one name counts only
    right after the title, an e-mail line or another name line: in "name / affiliation /
    address / e-mail" blocks a one-name-like line after an affiliation is an address
    ("Mountain View"), not an author.
    """
    start = 0
    if title:
        target = _norm(title)
        seen = ""
        for i, line in enumerate(lines[:12]):
            seen = f"{seen} {_norm(line)}".strip()
            if target and seen.endswith(target):
                start = i + 1
                break
    names: list[str] = []
    previous = "title"
    for line in lines[start:start + 25]:
        if ABSTRACT_RE.match(line):
            break
        found = split_names(line)
        if found and (len(found) > 1 or previous in ("title", "email", "name")):
            names += [n for n in found if n not in names]
            previous = "name"
        else:
            previous = "email" if _EMAIL_RE.search(line) else "other"
    return names


def _metadata_authors(raw: str) -> list[str]:
    names = split_names(re.sub(r"\s*\*+|\(.*?\)", "", raw or ""))
    return names or []


def parse_first_page(text: str, pdf_title: str = "", pdf_author: str = "",
                     known_title: str | None = None) -> PaperMetadata:
    """Metadata from the first page's text and the PDF's Title/Author entries.

    Args:
        text: the first page's text.
        pdf_title: the PDF metadata Title.
        pdf_author: the PDF metadata Author.
        known_title: the title the ingest already detected (compared with ``pdf_title``).
    """
    meta = PaperMetadata()
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    stamp = ARXIV_STAMP_RE.search(text)
    if stamp:
        meta.arxiv_id = stamp.group("id")
        meta.year = int(stamp.group("year")) if stamp.group("year") else None
    doi = DOI_RE.search(text)
    if doi:
        meta.doi = doi.group("doi").rstrip(".,;)")
    title = known_title or None
    if pdf_title and (not title or _norm(pdf_title) == _norm(title)):
        title = pdf_title.strip()
        meta.authors = _metadata_authors(pdf_author)
    meta.title = title
    if not meta.authors:
        meta.authors = _byline(lines, title)
    for line in lines:
        venue = VENUE_RE.match(line)
        if venue and not meta.venue:
            meta.venue = (venue.group("short") or venue.group("long") or "").strip() or None
            meta.pages = re.sub(r"\s+", "", venue.group("pages")) if venue.group("pages") else None
            year = YEAR_RE.search(line)
            if meta.year is None and year:
                meta.year = int(year.group("year"))
    if meta.year is None:
        copyright_year = COPYRIGHT_RE.search(text)
        if copyright_year:
            meta.year = int(copyright_year.group("year"))
    return meta


def largest_text(page: object) -> str | None:
    """The first page's title: its horizontal lines set in the largest font, in order.

    Rotated margin text (the arXiv stamp) and text below the page's top half are ignored.
    """
    lines: list[tuple[float, float, str]] = []
    height = page.rect.height  # type: ignore[attr-defined]
    for block in page.get_text("dict")["blocks"]:  # type: ignore[attr-defined]
        for line in block.get("lines", []):
            text = "".join(span["text"] for span in line["spans"]).strip()
            if (not text or tuple(round(v) for v in line["dir"]) != (1, 0)
                    or line["bbox"][1] > height / 2 or ARXIV_STAMP_RE.search(text)):
                continue
            size = max(span["size"] for span in line["spans"])
            lines.append((round(size, 1), line["bbox"][1], text))
    if not lines:
        return None
    top = max(size for size, _, _ in lines)
    title = " ".join(text for size, _, text in sorted(lines, key=lambda x: x[1]) if size == top)
    return " ".join(title.split()) or None


def read_pdf_metadata(data: bytes, known_title: str | None = None) -> PaperMetadata:
    """Open the PDF and parse its metadata and first page (see :func:`parse_first_page`).

    ``known_title`` (the ingest's title) is used unless it is the arXiv margin stamp or a
    venue header; then the first page's largest horizontal text is the title.
    """
    import pymupdf

    with pymupdf.open(stream=data, filetype="pdf") as doc:
        if not doc.page_count:
            return PaperMetadata(title=known_title)
        page = doc[0]
        first = page.get_text()
        info = doc.metadata or {}
        if not known_title or ARXIV_STAMP_RE.search(known_title) or VENUE_RE.match(
                known_title):  # the ingest took the margin stamp or the running header
            known_title = largest_text(page) or known_title
    return parse_first_page(first, info.get("title") or "", info.get("author") or "",
                            known_title)
