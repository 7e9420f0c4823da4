"""Per-domain source configuration (seed 2.2): medical, competitive intelligence, academic."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.research.errors import ResearchConfigError


class DomainConfiguration(BaseModel):
    """Per-domain source configuration."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    domain: str = Field(description="Domain name.")
    primary_sources: list[str] = Field(description="Providers tried first.")
    secondary_sources: list[str] = Field(description="Providers tried next.")
    academic_required: bool = Field(description="Facts need an academic source to be verified.")
    verification_threshold: float = Field(description="Confidence needed to mark verified.")
    keywords: list[str] = Field(description="Words that suggest this domain.")
    excluded_sources: list[str] = Field(
        description="Sites never used, matched against result URL hosts: a bare name "
        "('wikipedia') matches any host with that label (en.wikipedia.org), a dotted one "
        "('example.org') that host and its subdomains.")

    @classmethod
    def for_medical(cls) -> DomainConfiguration:
        """Medical literature: PubMed and Semantic Scholar first."""
        return cls(
            domain="medical",
            primary_sources=["pubmed", "semantic_scholar"],
            secondary_sources=["arxiv", "google_scholar"],
            academic_required=True,
            verification_threshold=0.8,
            keywords=["clinical", "patient", "treatment", "diagnosis", "therapy"],
            excluded_sources=["wikipedia"],
        )

    @classmethod
    def for_competitive_intelligence(cls) -> DomainConfiguration:
        """Companies and markets: web search providers first."""
        return cls(
            domain="competitive_intelligence",
            primary_sources=["tavily", "exa", "brave"],
            secondary_sources=["news_api", "crunchbase"],
            academic_required=False,
            verification_threshold=0.6,
            keywords=["company", "market", "competitor", "funding", "product"],
            excluded_sources=[],
        )

    @classmethod
    def for_academic(cls) -> DomainConfiguration:
        """The default: scholarly literature (our corpus, Semantic Scholar, arXiv, Crossref)."""
        return cls(
            domain="academic",
            primary_sources=["local", "semantic_scholar", "arxiv"],
            secondary_sources=["crossref", "unpaywall", "pubmed", "exa"],
            academic_required=True,
            verification_threshold=0.7,
            keywords=["paper", "study", "model", "method", "research", "evaluation"],
            excluded_sources=[],
        )

    def tier_of(self, provider: str) -> str:
        """``primary``, ``secondary`` or ``other`` for a provider name."""
        if provider in self.primary_sources:
            return "primary"
        if provider in self.secondary_sources:
            return "secondary"
        return "other"


def host_excluded(url: str, exclusions: list[str]) -> str | None:
    """The exclusion that ``url``'s host matches, else None.

    A bare name matches a host label (``wikipedia`` matches ``en.wikipedia.org``, not
    ``wikipedianews.org``); a dotted name matches that host and its subdomains.
    """
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    if not host:
        return None
    labels = host.split(".")
    for exclusion in exclusions:
        entry = exclusion.lower().strip().strip(".")
        if not entry:
            continue
        if "." in entry:
            if host == entry or host.endswith("." + entry):
                return exclusion
        elif entry in labels:
            return exclusion
    return None


DOMAINS = {
    "medical": DomainConfiguration.for_medical,
    "competitive_intelligence": DomainConfiguration.for_competitive_intelligence,
    "academic": DomainConfiguration.for_academic,
}
DEFAULT_DOMAIN = "academic"


def get_domain(name: str | None) -> DomainConfiguration:
    """Return the configuration for ``name`` (empty/None/"auto" -> academic).

    Raises:
        ResearchConfigError: unknown domain name.
    """
    if not name or name == "auto":
        return DOMAINS[DEFAULT_DOMAIN]()
    try:
        return DOMAINS[name]()
    except KeyError as exc:
        raise ResearchConfigError(
            f"unknown domain {name!r}; expected one of {sorted(DOMAINS)} or 'auto'",
            code="E_UNKNOWN_DOMAIN",
        ) from exc


def detect_domain(query: str) -> tuple[str, dict[str, int]]:
    """Pick the domain whose keywords the query mentions most (ties -> academic).

    Returns:
        ``(domain, hits per domain)``.
    """
    words = set(re.findall(r"[a-z]+", query.lower()))
    stems = {w.rstrip("s") for w in words}
    hits: dict[str, int] = {}
    for name, factory in DOMAINS.items():
        config = factory()
        hits[name] = sum(1 for kw in config.keywords if kw in words or kw in stems)
    best = max(hits.items(), key=lambda kv: (kv[1], kv[0] == DEFAULT_DOMAIN))
    return (best[0] if best[1] > 0 else DEFAULT_DOMAIN), hits
