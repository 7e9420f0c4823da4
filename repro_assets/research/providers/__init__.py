"""Search providers behind one :class:`SearchProvider` interface, and the registry."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from repro_assets.research.providers.base import SearchProvider
from repro_assets.storage.vectorstore import VectorStore

ALL_PROVIDERS = ("local", "semantic_scholar", "arxiv", "crossref", "pubmed", "unpaywall",
                 "tavily", "exa", "brave", "playwright")


def build_providers(
    privacy_mode: str,
    store: VectorStore | Callable[[], VectorStore],
    client: httpx.AsyncClient | None = None,
) -> dict[str, SearchProvider]:
    """Every provider the privacy mode allows (availability is checked by the plan node).

    ``local_only``: only the local corpus; ``cloud_allowed`` and ``hybrid``: all of them (the
    ``playwright`` crawler is available when ``REPRO_CRAWL_START_URLS`` is set and Chromium and
    the optional playwright package are installed).
    """
    from repro_assets.research.providers.local import LocalCorpusProvider

    providers: dict[str, SearchProvider] = {"local": LocalCorpusProvider(store)}
    if privacy_mode == "local_only":
        return providers
    from repro_assets.research.providers.arxiv import ArxivProvider
    from repro_assets.research.providers.brave import BraveProvider
    from repro_assets.research.providers.crawler import CrawlerProvider
    from repro_assets.research.providers.crossref import CrossrefProvider
    from repro_assets.research.providers.exa import ExaProvider
    from repro_assets.research.providers.pubmed import PubMedProvider
    from repro_assets.research.providers.semantic_scholar import SemanticScholarProvider
    from repro_assets.research.providers.tavily import TavilyProvider
    from repro_assets.research.providers.unpaywall import UnpaywallProvider

    for provider in (
        SemanticScholarProvider(client), ArxivProvider(), CrossrefProvider(),
        PubMedProvider(client), UnpaywallProvider(client), TavilyProvider(client),
        ExaProvider(client), BraveProvider(client), CrawlerProvider(),
    ):
        providers[provider.name] = provider
    return providers


__all__ = ["ALL_PROVIDERS", "SearchProvider", "build_providers"]
