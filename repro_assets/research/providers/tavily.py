"""Tavily web search (``TAVILY_API_KEY``), over its REST API with httpx."""

from __future__ import annotations

from typing import Any

from repro_assets import settings
from repro_assets.research.providers.base import HttpProvider, make_result

URL = "https://api.tavily.com/search"


def parse_search(data: dict[str, Any], source_name: str = "tavily") -> list[dict]:
    """Parse a ``POST /search`` body."""
    return [
        make_result(
            url=r["url"],
            title=r.get("title") or "",
            snippet=r.get("content") or "",
            source_name=source_name,
            full_content=r.get("raw_content"),
            quality_score=0.3 + 0.4 * float(r.get("score") or 0.0),
            metadata={"score": r.get("score"), "published_date": r.get("published_date")},
        )
        for r in data.get("results") or []
        if r.get("url")
    ]


class TavilyProvider(HttpProvider):
    """Tavily search provider."""

    kind = "web"

    @property
    def name(self) -> str:
        """Provider id."""
        return "tavily"

    @property
    def requests_per_second(self) -> float:
        """Generous limit."""
        return 5.0

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Advanced search with raw content."""
        body: dict[str, Any] = {
            "query": query,
            "max_results": max_results,
            "search_depth": "advanced",
            "include_raw_content": True,
        }
        if filters and filters.get("include_domains"):
            body["include_domains"] = list(filters["include_domains"])
        response = await self.request(
            "POST", URL, json=body,
            headers={"Authorization": f"Bearer {settings.current().research.tavily_api_key}"},
            timeout=timeout,
        )
        return parse_search(response.json(), self.name)

    async def is_available(self) -> bool:
        """Enabled only when ``TAVILY_API_KEY`` is set."""
        return bool(settings.current().research.tavily_api_key)
