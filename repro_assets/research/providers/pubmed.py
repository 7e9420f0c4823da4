"""PubMed provider over NCBI E-utilities (esearch for ids, efetch for the records)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from repro_assets import settings
from repro_assets.research.errors import ProviderError
from repro_assets.research.providers.base import HttpProvider, make_result

EUTILS = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"


def _text(element: ET.Element | None) -> str:
    return "".join(element.itertext()).strip() if element is not None else ""


def parse_esearch(xml_text: str) -> list[str]:
    """PubMed ids from an esearch XML body.

    Raises:
        ProviderError: the body is not an eSearchResult or carries an ERROR element.
    """
    try:
        root = ET.fromstring(xml_text.encode("utf-8") if isinstance(xml_text, str) else xml_text)
    except ET.ParseError as exc:
        raise ProviderError(f"pubmed: esearch body is not XML: {exc}", code="E_PARSE") from exc
    error = root.find("ERROR")
    if error is not None:
        raise ProviderError(f"pubmed: esearch error: {_text(error)}", code="E_PUBMED_ERROR")
    return [_text(i) for i in root.findall("./IdList/Id") if _text(i)]


def parse_efetch(xml_text: str, source_name: str = "pubmed") -> list[dict]:
    """Standard results from an efetch ``PubmedArticleSet`` body (structured abstracts kept)."""
    try:
        root = ET.fromstring(xml_text.encode("utf-8") if isinstance(xml_text, str) else xml_text)
    except ET.ParseError as exc:
        raise ProviderError(f"pubmed: efetch body is not XML: {exc}", code="E_PARSE") from exc
    out: list[dict] = []
    for article in root.iter("PubmedArticle"):
        pmid = _text(article.find("./MedlineCitation/PMID"))
        art = article.find("./MedlineCitation/Article")
        if not pmid or art is None:
            continue
        parts = []
        for abstract in art.findall("./Abstract/AbstractText"):
            label = abstract.get("Label")
            body = _text(abstract)
            parts.append(f"{label.title()}: {body}" if label else body)
        authors = []
        for author in art.findall("./AuthorList/Author"):
            last, fore = _text(author.find("LastName")), _text(author.find("ForeName"))
            name = " ".join(p for p in (fore, last) if p) or _text(author.find("CollectiveName"))
            if name:
                authors.append(name)
        year = _text(art.find("./Journal/JournalIssue/PubDate/Year")) or None
        doi = None
        for aid in article.findall("./PubmedData/ArticleIdList/ArticleId"):
            if aid.get("IdType") == "doi":
                doi = _text(aid)
        out.append(
            make_result(
                url=f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/",
                title=_text(art.find("ArticleTitle")),
                snippet=" ".join(parts),
                source_name=source_name,
                quality_score=0.8,  # peer-reviewed biomedical index
                metadata={
                    "pmid": pmid,
                    "authors": authors,
                    "year": int(year) if year and year.isdigit() else None,
                    "venue": _text(art.find("./Journal/Title")) or None,
                    "doi": doi,
                },
            )
        )
    return out


class PubMedProvider(HttpProvider):
    """PubMed (E-utilities): 3 rps without a key, 10 with ``NCBI_API_KEY``."""

    kind = "academic"

    @property
    def name(self) -> str:
        """Provider id."""
        return "pubmed"

    @property
    def requests_per_second(self) -> float:
        """NCBI's published limits."""
        return 10.0 if settings.current().research.ncbi_api_key else 3.0

    def _params(self, **params: Any) -> dict[str, Any]:
        params["tool"] = "repro_assets"
        config = settings.current()
        if config.research.ncbi_api_key:
            params["api_key"] = config.research.ncbi_api_key
        if config.fetch.contact_email:
            params["email"] = config.fetch.contact_email
        return params

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """esearch the ids, then efetch the abstracts (two requests)."""
        found = await self.request(
            "GET", f"{EUTILS}/esearch.fcgi",
            params=self._params(db="pubmed", term=query, retmax=max_results), timeout=timeout,
        )
        ids = parse_esearch(found.text)[:max_results]
        if not ids:
            return []
        fetched = await self.request(
            "GET", f"{EUTILS}/efetch.fcgi",
            params=self._params(db="pubmed", id=",".join(ids), retmode="xml"), timeout=timeout,
        )
        return parse_efetch(fetched.text, self.name)

    async def is_available(self) -> bool:
        """Public API, no key required."""
        return True
