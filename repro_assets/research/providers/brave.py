"""Brave Search web API (``BRAVE_API_KEY``)."""

from __future__ import annotations

from typing import Any

from repro_assets import settings
from repro_assets.research.providers.base import HttpProvider, make_result

URL = "https://api.search.brave.com/res/v1/web/search"


def parse_search(data: dict[str, Any], source_name: str = "brave") -> list[dict]:
    """Parse a web search body (``web.results``)."""
    out = []
    for r in (data.get("web") or {}).get("results") or []:
        if not r.get("url"):
            continue
        extra = r.get("extra_snippets") or []
        out.append(
            make_result(
                url=r["url"],
                title=r.get("title") or "",
                snippet=" ".join([r.get("description") or "", *extra]),
                source_name=source_name,
                quality_score=0.45,
                metadata={
                    "page_age": r.get("page_age"),
                    "age": r.get("age"),
                    "host": (r.get("meta_url") or {}).get("hostname"),
                    "profile": (r.get("profile") or {}).get("name"),
                    "language": r.get("language"),
                },
            )
        )
    return out


class BraveProvider(HttpProvider):
    """Brave Search API."""

    kind = "web"

    @property
    def name(self) -> str:
        """Provider id."""
        return "brave"

    @property
    def requests_per_second(self) -> float:
        """Free plan: 1 query per second."""
        return 1.0

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Web search."""
        response = await self.request(
            "GET", URL, params={"q": query, "count": min(max_results, 20)},
            headers={
                "Accept": "application/json",
                "X-Subscription-Token": settings.current().research.brave_api_key,
            },
            timeout=timeout,
        )
        return parse_search(response.json(), self.name)

    async def is_available(self) -> bool:
        """Enabled only when ``BRAVE_API_KEY`` is set."""
        return bool(settings.current().research.brave_api_key)
