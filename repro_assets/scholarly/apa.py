"""APA 7 references, formatted by citeproc-py with the APA CSL style shipped in ``styles/``.

``styles/apa.csl`` is the official "APA Style 7th edition" style of the Citation Style Language
project (CC BY-SA 3.0, shipped unmodified with its attribution; see ``styles/README.md``).
A :class:`~repro_assets.scholarly.models.ScholarlyRecord` becomes a CSL-JSON item
(:func:`csl_item`): journal articles, proceedings papers, arXiv preprints (``arXiv:<id>``,
publisher arXiv, arXiv's DataCite DOI) and other documents (papers ingested as PDFs). Italics
are Markdown (``*...*``) unless ``markdown=False``. A reference never shows a link that is not
a web address (an ingested paper's local file path is no reference).
"""

from __future__ import annotations

import re
import threading
import warnings
from functools import lru_cache
from importlib import resources
from typing import Any

from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc.source.json import CiteProcJSON

from repro_assets.scholarly.models import Author, ScholarlyRecord

STYLE = "apa.csl"
_ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})$")
_WEB = re.compile(r"^https?://", re.IGNORECASE)
# citeproc-py does not collapse punctuation where two CSL parts meet ("Title?." -> "Title?")
_DOUBLE_PUNCT = re.compile(r"([?!])(\*?)\.")
_LOCK = threading.Lock()


class _Markdown:
    """A citeproc-py output formatter writing Markdown italics."""

    @staticmethod
    def preformat(text: str) -> str:
        return text

    class Italic(str):
        def __new__(cls, text: str) -> _Markdown.Italic:
            return super().__new__(cls, f"*{text}*")

    Oblique = Italic
    Bold = Light = Underline = Superscript = Subscript = SmallCaps = str


class _Plain:
    """citeproc-py's plain formatter as a class (no markup)."""

    @staticmethod
    def preformat(text: str) -> str:
        return text

    Italic = Oblique = Bold = Light = Underline = Superscript = Subscript = SmallCaps = str


@lru_cache(maxsize=1)
def style() -> CitationStylesStyle:
    """The shipped APA CSL style, parsed once."""
    path = resources.files("repro_assets.scholarly") / "styles" / STYLE
    with resources.as_file(path) as file, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # citeproc-py warns about CSL features it skips
        return CitationStylesStyle(str(file), validate=False)


def _name(author: Author) -> dict[str, str]:
    if not author.given:
        return {"literal": author.family}
    name = {"family": author.family, "given": author.given}
    if author.suffix:
        name["suffix"] = author.suffix
    return name


def _nocase(text: str) -> str:
    """Protect ``text`` from CSL case changes (``arXiv`` must not become ``ArXiv``)."""
    return f'<span class="nocase">{text}</span>'


def csl_item(record: ScholarlyRecord) -> dict[str, Any]:
    """The CSL-JSON item of ``record`` (id ``ref``)."""
    item: dict[str, Any] = {"id": "ref", "title": record.title.strip()}
    if record.authors:
        item["author"] = [_name(a) for a in record.authors]
    else:  # APA: no author -> the title moves to the author position (shown once)
        item["author"] = [{"literal": item.pop("title")}]
    if record.year:
        item["issued"] = {"date-parts": [[record.year]]}
    if record.source == "arxiv" and _ARXIV_ID.match(record.external_id):
        item.update(type="article", publisher="arXiv",
                    number=_nocase(f"arXiv:{record.external_id}"),
                    DOI=f"10.48550/arXiv.{record.external_id}")
        return item
    if record.work_type == "proceedings-article":
        item["type"] = "paper-conference"
    elif record.work_type == "journal-article":
        item["type"] = "article-journal"
    else:
        item["type"] = "article-journal" if record.venue else "article"
    optional = {"container-title": record.venue, "volume": record.volume,
                "issue": record.issue, "page": record.pages, "publisher": record.publisher}
    item.update({key: value.strip() for key, value in optional.items() if value and value.strip()})
    if record.doi:
        item["DOI"] = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", record.doi.strip(),
                             flags=re.IGNORECASE)
    elif record.url and _WEB.match(record.url):
        item["URL"] = record.url
    return item


def format_reference(record: ScholarlyRecord, *, markdown: bool = True) -> str:
    """The APA 7 reference-list entry of ``record``, formatted by citeproc-py."""
    item = csl_item(record)
    with _LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bibliography = CitationStylesBibliography(style(), CiteProcJSON([item]),
                                                  _Markdown if markdown else _Plain)
        bibliography.register(Citation([CitationItem("ref")]))
        text = str(bibliography.bibliography()[0])
    return _DOUBLE_PUNCT.sub(r"\1\2", " ".join(text.split()))


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

    Author display names are split with :meth:`Author.from_full_name`. Documents that are not
    arXiv or Crossref records are generic works (a venue makes them an article).
    """
    source = source_kind if source_kind in ("arxiv", "crossref") else "paper"
    record = ScholarlyRecord(
        source=source,
        external_id=external_id,
        title=title or external_id,
        authors=[Author.from_full_name(name) for name in authors if name.strip()],
        year=year,
        venue=venue,
        doi=doi,
        url=url,
        work_type={"arxiv": "preprint", "crossref": "journal-article"}.get(source, "document"),
    )
    return format_reference(record, markdown=markdown)
