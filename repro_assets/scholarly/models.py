"""Source-neutral metadata of a scholarly work (arXiv entry or Crossref work)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.errors import CodedError

ScholarlySource = Literal["arxiv", "crossref", "paper"]

# Name particles that belong to the family name ("Ludwig van Beethoven" -> "van Beethoven").
_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le",
              "dos", "das", "ter", "ten", "bin", "al"}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


class ScholarlyError(CodedError, RuntimeError):
    """A scholarly API call failed; ``code`` is the project error code."""

    def __init__(self, message: str, code: str, status: int | None = None) -> None:
        super().__init__(message, code=code)
        self.status = status


class Author(BaseModel):
    """One author as structured names (APA needs the family name and the initials)."""

    model_config = ConfigDict(extra="forbid")

    family: str = Field(description="Family name, or the full name of an organisation.")
    given: str | None = Field(default=None, description="Given names, None for organisations.")
    suffix: str | None = Field(default=None, description="Name suffix such as 'Jr.'.")
    orcid: str | None = Field(default=None, description="ORCID URL when the source gives one.")

    @property
    def display_name(self) -> str:
        """'Given Family[, Suffix]' as people write it."""
        name = f"{self.given} {self.family}" if self.given else self.family
        return f"{name}, {self.suffix}" if self.suffix else name

    @classmethod
    def from_full_name(cls, name: str) -> Author:
        """Split a 'Given Middle Family' name as arXiv gives it.

        Lower-case particles (van, de, von ...) before the last word join the family name;
        a trailing 'Jr.'/'III' becomes the suffix. A single word is a family name.
        """
        words = " ".join(name.replace(",", " , ").split()).split()
        words = [w for w in words if w != ","]
        suffix = None
        if len(words) > 2 and words[-1].lower() in _SUFFIXES:
            suffix = words.pop()
        if len(words) <= 1:
            return cls(family=" ".join(words) or name.strip(), suffix=suffix)
        start = len(words) - 1
        while start > 1 and words[start - 1].lower() in _PARTICLES:
            start -= 1
        if start == 1 and words[0].lower() in _PARTICLES:
            start = 0
        given = " ".join(words[:start]) or None
        return cls(family=" ".join(words[start:]), given=given, suffix=suffix)


class ScholarlyRecord(BaseModel):
    """A scholarly work's metadata and abstract, whatever API it came from."""

    model_config = ConfigDict(extra="forbid")

    source: ScholarlySource = Field(
        description="Where the record came from: the arxiv or crossref API, or a paper PDF.")
    external_id: str = Field(
        description="Stable id within the source: the versionless arXiv id (2202.12139) or the "
        "lower-cased DOI for Crossref."
    )
    title: str = Field(description="Title, markup stripped and whitespace collapsed.")
    authors: list[Author] = Field(default_factory=list, description="Authors in byline order.")
    abstract: str = Field(default="", description="Abstract as plain text (JATS/HTML stripped).")
    year: int | None = Field(default=None, description="Publication year.")
    published: date | None = Field(
        default=None, description="First publication date (arXiv v1 / Crossref issued)."
    )
    updated: date | None = Field(default=None, description="Last update date, when known.")
    venue: str | None = Field(
        default=None, description="Journal or proceedings title (arXiv: the journal_ref)."
    )
    doi: str | None = Field(default=None, description="DOI without the https://doi.org/ prefix.")
    url: str | None = Field(default=None, description="Landing page URL.")
    pdf_url: str | None = Field(default=None, description="PDF URL when the source gives one.")
    categories: list[str] = Field(
        default_factory=list, description="arXiv categories or Crossref subjects."
    )
    primary_category: str | None = Field(default=None, description="arXiv primary category.")
    work_type: str = Field(
        default="preprint",
        description="Crossref type (journal-article, proceedings-article) or 'preprint' (arXiv).",
    )
    version: str | None = Field(default=None, description="arXiv version suffix, e.g. 'v2'.")
    publisher: str | None = Field(default=None, description="Publisher name (Crossref).")
    volume: str | None = Field(default=None, description="Volume (Crossref).")
    issue: str | None = Field(default=None, description="Issue (Crossref).")
    pages: str | None = Field(default=None, description="Page range or article number.")
    comment: str | None = Field(default=None, description="arXiv author comment.")

    @property
    def author_names(self) -> list[str]:
        """Display names in byline order."""
        return [author.display_name for author in self.authors]

    @property
    def key(self) -> str:
        """'source:external_id', unique across sources."""
        return f"{self.source}:{self.external_id}"

    def text_for_embedding(self) -> str:
        """Title and abstract, the text that is chunked and embedded."""
        return f"{self.title}\n\n{self.abstract}".strip()
