"""Unpaywall provider: finds open-access copies (needs a contact email, no key)."""

from __future__ import annotations

from typing import Any

from repro_assets import settings
from repro_assets.research.providers.base import HttpProvider, clean_text, make_result

BASE_URL = "https://api.unpaywall.org/v2"


def contact_email() -> str | None:
    """``REPRO_UNPAYWALL_EMAIL`` or ``UNPAYWALL_EMAIL`` or ``REPRO_CONTACT_EMAIL``."""
    config = settings.current()
    for value in (config.research.unpaywall_email, config.research.unpaywall_email_seed,
                  config.fetch.contact_email):
        if value:
            return value
    return None


def parse_record(record: dict[str, Any], source_name: str = "unpaywall", snippet: str = "") -> dict:
    """One DOI record (``/v2/<doi>``) as a standard result pointing at the best OA copy."""
    best = record.get("best_oa_location") or {}
    oa_url = best.get("url_for_pdf") or best.get("url") or best.get("url_for_landing_page")
    authors = [
        " ".join(p for p in (a.get("given"), a.get("family")) if p)
        for a in record.get("z_authors") or []
    ]
    summary = snippet or (
        f"{record.get('title') or ''} ({record.get('journal_name') or 'unknown venue'}, "
        f"{record.get('year') or 'n.d.'}); open access: {record.get('oa_status') or 'closed'}"
    )
    return make_result(
        url=oa_url or record.get("doi_url") or f"https://doi.org/{record.get('doi')}",
        title=record.get("title") or "",
        snippet=clean_text(summary),
        source_name=source_name,
        quality_score=0.7 if record.get("is_oa") else 0.5,
        metadata={
            "doi": record.get("doi"),
            "year": record.get("year"),
            "venue": record.get("journal_name"),
            "authors": [a for a in authors if a],
            "is_oa": bool(record.get("is_oa")),
            "oa_status": record.get("oa_status"),
            "oa_url": oa_url,
            "landing_url": record.get("doi_url"),
        },
    )


def parse_search(data: dict[str, Any], source_name: str = "unpaywall") -> list[dict]:
    """Parse a ``/v2/search`` body (``results[].response``)."""
    return [
        parse_record(item["response"], source_name, snippet=item.get("snippet") or "")
        for item in data.get("results") or []
        if item.get("response")
    ]


class UnpaywallProvider(HttpProvider):
    """Unpaywall title search and DOI lookup (open-access PDF finder)."""

    kind = "academic"

    @property
    def name(self) -> str:
        """Provider id."""
        return "unpaywall"

    @property
    def requests_per_second(self) -> float:
        """Unpaywall asks for <100k calls/day; stay polite."""
        return 5.0

    async def search(
        self,
        query: str,
        max_results: int = 10,
        filters: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[dict]:
        """Search titles; ``filters={"doi": ...}`` looks one DOI up instead."""
        email = contact_email()
        if filters and filters.get("doi"):
            response = await self.request(
                "GET", f"{BASE_URL}/{filters['doi']}", params={"email": email}, timeout=timeout
            )
            return [parse_record(response.json(), self.name)]
        params: dict[str, Any] = {"query": query, "email": email}
        if filters and filters.get("is_oa") is not None:
            params["is_oa"] = str(bool(filters["is_oa"])).lower()
        response = await self.request(
            "GET", f"{BASE_URL}/search/", params=params, timeout=timeout
        )
        return parse_search(response.json(), self.name)[:max_results]

    async def is_available(self) -> bool:
        """Needs a contact email."""
        return contact_email() is not None
