"""Semantic Scholar Graph API provider. CRITICAL: 1 request per second, no key needed."""

from __future__ import annotations

import math
from typing import Any

from repro_assets import settings
from repro_assets.research.providers.base import HttpProvider, make_result

FIELDS = "title,abstract,url,authors,year,citationCount,venue,externalIds,openAccessPdf"


def parse_search(data: dict[str, Any], source_name: str = "semantic_scholar") -> list[dict]:
    """Parse a ``/graph/v1/paper/search`` body into standard results."""
    out: list[dict] = []
    for paper in data.get("data") or []:
        if not paper or not paper.get("paperId"):
            continue
        citations = paper.get("citationCount") or 0
        external = paper.get("externalIds") or {}
        pdf = (paper.get("openAccessPdf") or {}).get("url")
        out.append(
            make_result(
                url=paper.get("url")
                or f"https://www.semanticscholar.org/paper/{paper['paperId']}",
                title=paper.get("title") or "",
                snippet=paper.get("abstract") or "",
                source_name=source_name,
                # peer-reviewed index; more citations -> a little more weight
                quality_score=min(0.95, 0.6 + 0.05 * math.log10(1 + citations)),
                metadata={
                    "paper_id": paper["paperId"],
                    "authors": [a.get("name") for a in paper.get("authors") or [] if a],
                    "year": paper.get("year"),
                    "citations": paper.get("citationCount"),
                    "venue": paper.get("venue") or None,
                    "doi": external.get("DOI"),
                    "arxiv_id": external.get("ArXiv"),
                    "open_access_pdf": pdf,
                },
            )
        )
    return out


class SemanticScholarProvider(HttpProvider):
    """Semantic Scholar provider with strict rate limiting (1 rps)."""

    BASE_URL = "https://api.semanticscholar.org/graph/v1"
    kind = "academic"

    @property
    def name(self) -> str:
        """Provider id."""
        return "semantic_scholar"

    @property
    def requests_per_second(self) -> float:
        """CRITICAL: do not exceed 1 request per second."""
        return 1.0

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Search papers by relevance."""
        params: dict[str, Any] = {"query": query, "limit": max_results, "fields": FIELDS}
        if filters and filters.get("year"):
            params["year"] = filters["year"]
        headers = {}
        key = settings.current().research.semantic_scholar_api_key
        if key:
            headers["x-api-key"] = key
        response = await self.request(
            "GET", f"{self.BASE_URL}/paper/search", params=params, headers=headers,
            timeout=timeout,
        )
        return parse_search(response.json(), self.name)

    async def is_available(self) -> bool:
        """No API key required for basic access."""
        return True
