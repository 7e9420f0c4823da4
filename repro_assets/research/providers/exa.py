"""Exa neural search (``EXA_API_KEY``)."""

from __future__ import annotations

from typing import Any

from repro_assets import settings
from repro_assets.research.providers.base import HttpProvider, make_result

URL = "https://api.exa.ai/search"


def parse_search(data: dict[str, Any], source_name: str = "exa") -> list[dict]:
    """Parse a ``POST /search`` body (``highlights`` or ``text`` contents)."""
    out = []
    for r in data.get("results") or []:
        url = r.get("url") or r.get("id")
        if not url:
            continue
        highlights = r.get("highlights") or []
        text = r.get("text")
        out.append(
            make_result(
                url=url,
                title=r.get("title") or "",
                snippet=" ... ".join(highlights) if highlights else (text or "")[:1000],
                source_name=source_name,
                full_content=text,
                quality_score=0.5,
                metadata={
                    "published_date": r.get("publishedDate"),
                    "author": r.get("author"),
                    "score": r.get("score"),
                },
            )
        )
    return out


class ExaProvider(HttpProvider):
    """Exa AI search."""

    kind = "web"

    @property
    def name(self) -> str:
        """Provider id."""
        return "exa"

    @property
    def requests_per_second(self) -> float:
        """Exa's default is 5 QPS for /search."""
        return 5.0

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Auto search with highlights and text."""
        body: dict[str, Any] = {
            "query": query,
            "numResults": max_results,
            "type": "auto",
            "contents": {"highlights": True, "text": {"maxCharacters": 4000}},
        }
        if filters and filters.get("include_domains"):
            body["includeDomains"] = list(filters["include_domains"])
        response = await self.request(
            "POST", URL, json=body, headers={"x-api-key": settings.current().research.exa_api_key},
            timeout=timeout,
        )
        return parse_search(response.json(), self.name)

    async def is_available(self) -> bool:
        """Enabled only when ``EXA_API_KEY`` is set."""
        return bool(settings.current().research.exa_api_key)
