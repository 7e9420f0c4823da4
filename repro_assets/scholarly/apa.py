"""APA 7 reference strings built from metadata (our own formatter, tested against APA examples).

Covers what the scholarly corpus holds: journal articles, conference proceedings articles and
arXiv preprints, plus a generic fallback for other documents (e.g. ingested paper PDFs).
Italics are Markdown (``*...*``) unless ``markdown=False``. Titles are kept as the source gives
them (automatic sentence-casing would break proper nouns and acronyms).
"""

from __future__ import annotations

import re

from repro_assets.scholarly.models import Author, ScholarlyRecord

EN_DASH = "\u2013"
_ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})$")


def initials(given: str | None) -> str:
    """'Mohit Kumar' -> 'M. K.'; 'Jean-Paul' -> 'J.-P.'; 'T. Alex' -> 'T. A.'."""
    if not given:
        return ""
    parts = []
    for word in given.replace(".", ". ").split():
        pieces = [p for p in word.split("-") if p]
        letters = [p.strip(".")[:1].upper() + "." for p in pieces if p.strip(".")]
        if letters:
            parts.append("-".join(letters))
    return " ".join(parts)


def format_author(author: Author) -> str:
    """'Family, G. G.' (organisations: the name as is)."""
    if not author.given:
        return author.family
    name = f"{author.family}, {initials(author.given)}"
    return f"{name}, {author.suffix}" if author.suffix else name


def format_authors(authors: list[Author]) -> str:
    """APA 7 author list: up to 20 names, '&' before the last; 21+ uses '. . .'."""
    names = [format_author(a) for a in authors]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    if len(names) <= 20:
        return ", ".join(names[:-1]) + ", & " + names[-1]
    return ", ".join(names[:19]) + ", . . . " + names[-1]


def _sentence(text: str) -> str:
    """End with a period unless the text already ends with terminal punctuation."""
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _pages(pages: str | None) -> str | None:
    if not pages:
        return None
    return re.sub(r"\s*[-\u2010\u2011\u2012\u2013\u2014]+\s*", EN_DASH, pages.strip())


def _doi_url(doi: str | None) -> str | None:
    if not doi:
        return None
    doi = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", doi.strip(), flags=re.IGNORECASE)
    return f"https://doi.org/{doi}"


def _it(text: str, markdown: bool) -> str:
    return f"*{text}*" if markdown else text


def format_reference(record: ScholarlyRecord, *, markdown: bool = True) -> str:
    """Return the APA 7 reference-list entry for ``record``.

    Journal article: ``Author, A. A., & Author, B. (2020). Title. *Journal*, *12*(3), 1–9. DOI``.
    Proceedings: ``Author, A. (2022). Title. In *Proceedings* (pp. 1–9). Publisher. DOI``.
    arXiv preprint: ``Author, A. (2022). *Title* (arXiv:2202.12139). arXiv. DOI`` where DOI is
    arXiv's own DataCite DOI (10.48550/arXiv.<id>).
    """
    authors = format_authors(record.authors)
    year = f"({record.year})" if record.year else "(n.d.)"
    head = f"{_sentence(authors)} {year}." if authors else None
    title = record.title.strip()
    if record.source == "arxiv" and _ARXIV_ID.match(record.external_id):
        entry = f"{_it(title, markdown)} (arXiv:{record.external_id})."
        lead = [head, entry] if head else [entry, f"{year}."]
        doi = _doi_url(f"10.48550/arXiv.{record.external_id}")
        return " ".join([*lead, "arXiv.", doi or ""]).strip()
    link = _doi_url(record.doi) or record.url
    pages = _pages(record.pages)
    if record.work_type == "proceedings-article" and record.venue:
        source = f"In {_it(record.venue.strip(), markdown)}"
        if pages:
            source += f" ({'p.' if EN_DASH not in pages else 'pp.'} {pages})"
        source += "."
        tail = [_sentence(record.publisher)] if record.publisher else []
        body = [_sentence(title), source, *tail]
    elif record.venue:
        source = _it(record.venue.strip(), markdown)
        if record.volume:
            source += ", " + _it(record.volume, markdown)
            if record.issue:
                source += f"({record.issue})"
        if pages:
            source += f", {pages}"
        body = [_sentence(title), source + "."]
    else:
        body = [_sentence(_it(title, markdown))]
    if head:
        parts = [head, *body]
    else:  # no author: the title moves to the author position
        parts = [body[0], f"{year}.", *body[1:]]
    if link:
        parts.append(link)
    return " ".join(parts)


def reference_from_fields(
    *,
    title: str | None,
    authors: list[str],
    year: int | None,
    venue: str | None,
    doi: str | None,
    url: str | None,
    source_kind: str,
    external_id: str,
    markdown: bool = True,
) -> str:
    """APA 7 reference from flat fields (e.g. a vector-store hit without stored metadata).

    Author display names are split with :meth:`Author.from_full_name`.
    """
    source = "arxiv" if source_kind == "arxiv" else "crossref"
    record = ScholarlyRecord(
        source=source,
        external_id=external_id,
        title=title or external_id,
        authors=[Author.from_full_name(name) for name in authors if name.strip()],
        year=year,
        venue=venue,
        doi=doi,
        url=url,
        work_type="preprint" if source_kind == "arxiv" else "journal-article",
    )
    return format_reference(record, markdown=markdown)
