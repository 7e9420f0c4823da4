"""Each provider parses recorded real payloads into the standard result format (respx)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import respx

from repro_assets.research.errors import (
    AccessDeniedError,
    CaptchaError,
    PaywallError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
)
from repro_assets.research.models import SourceResult
from repro_assets.research.providers import build_providers
from repro_assets.research.providers.arxiv import ArxivProvider
from repro_assets.research.providers.brave import BraveProvider
from repro_assets.research.providers.crossref import CrossrefProvider
from repro_assets.research.providers.exa import ExaProvider
from repro_assets.research.providers.pubmed import PubMedProvider
from repro_assets.research.providers.semantic_scholar import SemanticScholarProvider
from repro_assets.research.providers.tavily import TavilyProvider
from repro_assets.research.providers.unpaywall import UnpaywallProvider


def _standard(results: list[dict], source: str) -> list[SourceResult]:
    parsed = [SourceResult.model_validate(r) for r in results]
    assert parsed, f"{source} returned no results"
    for r in parsed:
        assert r.source_name == source
        assert r.url.startswith("http")
        assert r.title or r.snippet
        assert 0.0 <= r.quality_score <= 1.0
    return parsed


def run(coro):
    return asyncio.run(coro)


@respx.mock
def test_semantic_scholar_parses_search(fixture_text, no_network):
    route = respx.get("https://api.semanticscholar.org/graph/v1/paper/search").mock(
        return_value=httpx.Response(
            200, text=fixture_text("graph_v1_paper_search_turing_allfields_limit100.json")))
    results = _standard(run(SemanticScholarProvider().search("turing", 100)), "semantic_scholar")
    assert len(results) == 100
    first = results[0]
    assert first.title.startswith("Using DeepSpeed and Megatron")
    assert first.metadata["arxiv_id"] == "2201.11990"
    assert first.metadata["authors"][0] == "Shaden Smith"
    assert first.metadata["citations"] == 476
    assert route.calls.last.request.url.params["limit"] == "100"
    # 28 papers have a null abstract: kept with an empty snippet, never crash
    assert sum(1 for r in results if not r.snippet) == 28
    assert run(SemanticScholarProvider().is_available()) is True


@respx.mock
def test_pubmed_esearch_then_efetch(fixture_text, no_network):
    respx.get("https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi").mock(
        return_value=httpx.Response(200, text=fixture_text("esearch_pubmed_term_biopython.xml")))
    fetch = respx.get("https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi").mock(
        return_value=httpx.Response(
            200, text=fixture_text("efetch_pubmed_xml_11748933_11700088.xml")))
    results = _standard(run(PubMedProvider().search("biopython", 20)), "pubmed")
    assert fetch.calls.last.request.url.params["id"].startswith("41282813,41148224")
    assert [r.metadata["pmid"] for r in results] == ["11748933", "11700088"]
    assert results[0].url == "https://pubmed.ncbi.nlm.nih.gov/11748933/"
    assert results[0].metadata["doi"] == "10.1006/cryo.2001.2328"
    assert results[0].metadata["authors"][0] == "A R Taddei"
    assert "cryopreservation" in results[0].snippet


def test_pubmed_structured_abstract_keeps_labels(fixture_text):
    from repro_assets.research.providers.pubmed import parse_efetch

    [result] = parse_efetch(fixture_text("efetch_pubmed_xml_29106400_structured_abstract.xml"))
    assert result["snippet"].startswith("Objective:")
    assert "Design:" in result["snippet"] and "Conclusions:" in result["snippet"]
    assert "<i>" not in result["snippet"]


@respx.mock
def test_unpaywall_search_and_doi(fixture_text, monkeypatch, no_network):
    assert run(UnpaywallProvider().is_available()) is False
    monkeypatch.setenv("REPRO_UNPAYWALL_EMAIL", "research@example.org")
    assert run(UnpaywallProvider().is_available()) is True
    search = respx.get("https://api.unpaywall.org/v2/search/").mock(
        return_value=httpx.Response(200, text=fixture_text("v2_search_title_query_green.json")))
    [green] = _standard(run(UnpaywallProvider().search("stable characteristic evolution")),
                        "unpaywall")
    assert search.calls.last.request.url.params["email"] == "research@example.org"
    assert green.metadata["oa_status"] == "green" and green.metadata["is_oa"]
    assert green.url == green.metadata["oa_url"]
    respx.get("https://api.unpaywall.org/v2/10.1001/jamadermatol.2015.3091").mock(
        return_value=httpx.Response(
            200, text=fixture_text("v2_doi_10.1001_jamadermatol.2015.3091_bronze.json")))
    [bronze] = run(UnpaywallProvider().search("", filters={
        "doi": "10.1001/jamadermatol.2015.3091"}))
    assert bronze["metadata"]["oa_status"] == "bronze"
    assert bronze["metadata"]["authors"][0] == "Young H. Lee"
    respx.get("https://api.unpaywall.org/v2/10.000/doi1").mock(
        return_value=httpx.Response(404, text=fixture_text("v2_doi_not_found_404.json")))
    with pytest.raises(ProviderError) as info:
        run(UnpaywallProvider().search("", filters={"doi": "10.000/doi1"}))
    assert info.value.code == "E_HTTP_404"


@respx.mock
def test_tavily_needs_key_and_parses(fixture_text, monkeypatch, no_network):
    assert run(TavilyProvider().is_available()) is False
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")
    route = respx.post("https://api.tavily.com/search").mock(return_value=httpx.Response(
        200, text=fixture_text("search_basic_what_is_pydantic_ai.json")))
    results = _standard(run(TavilyProvider().search("What is Pydantic AI?", 5)), "tavily")
    assert len(results) == 5
    assert results[0].title == "Pydantic AI: Agent Framework"
    assert route.calls.last.request.headers["authorization"] == "Bearer tvly-test"
    route.mock(return_value=httpx.Response(
        200, text=fixture_text("search_include_domains_arxiv.json")))
    results = run(TavilyProvider().search("transformer architectures", 5,
                                          filters={"include_domains": ["arxiv.org"]}))
    assert all("arxiv.org" in r["url"] for r in results)


@respx.mock
def test_exa_needs_key_and_parses(fixture_text, monkeypatch, no_network):
    assert run(ExaProvider().is_available()) is False
    monkeypatch.setenv("EXA_API_KEY", "exa-test")
    route = respx.post("https://api.exa.ai/search").mock(return_value=httpx.Response(
        200, text=fixture_text("search_auto_highlights.json")))
    results = _standard(run(ExaProvider().search("What is Pydantic AI?", 2)), "exa")
    assert results[0].url == "https://pydantic.dev/docs/ai/overview/"
    assert "Pydantic AI" in results[0].snippet
    assert route.calls.last.request.headers["x-api-key"] == "exa-test"
    route.mock(return_value=httpx.Response(
        200, text=fixture_text("search_auto_text_include_domains.json")))
    [text] = run(ExaProvider().search("What is Pydantic AI?", 1))
    assert text["full_content"].startswith("Small but complete example")


@respx.mock
def test_brave_needs_key_and_parses(fixture_text, monkeypatch, no_network):
    assert run(BraveProvider().is_available()) is False
    monkeypatch.setenv("BRAVE_API_KEY", "brave-test")
    route = respx.get("https://api.search.brave.com/res/v1/web/search").mock(
        return_value=httpx.Response(200, text=fixture_text("web_search_hello_world.json")))
    results = _standard(run(BraveProvider().search("hello world", 20)), "brave")
    assert len(results) == 20
    assert "&quot;" not in results[0].snippet and "<strong>" not in results[0].snippet
    assert results[0].metadata["host"] == "en.wikipedia.org"
    assert route.calls.last.request.headers["x-subscription-token"] == "brave-test"


@respx.mock
def test_arxiv_wrapper_reuses_scholarly_client(fixture_text, no_network):
    respx.get("https://export.arxiv.org/api/query").mock(return_value=httpx.Response(
        200, text=fixture_text("query_search_testing_max10.atom.xml")))
    results = _standard(run(ArxivProvider().search("testing", 10)), "arxiv")
    assert len(results) == 10
    assert all(r.metadata["external_id"] for r in results)


@respx.mock
def test_crossref_wrapper_reuses_scholarly_client(fixture_text, no_network):
    respx.get("https://api.crossref.org/works").mock(return_value=httpx.Response(
        200, text=fixture_text("works_query_ecology_author_boettiger_rows20.json")))
    results = _standard(run(CrossrefProvider().search("ecology", 20)), "crossref")
    assert all(r.metadata["doi"] for r in results)


@respx.mock
def test_scholarly_errors_map_to_obstacles(no_network):
    respx.get("https://export.arxiv.org/api/query").mock(
        return_value=httpx.Response(429, headers={"Retry-After": "3"}))
    with pytest.raises(RateLimitError):
        run(ArxivProvider().search("testing", 3))
    respx.get("https://api.crossref.org/works").mock(side_effect=httpx.ReadTimeout("slow"))
    with pytest.raises(ProviderTimeoutError):
        run(CrossrefProvider().search("ecology", 3))


@pytest.mark.parametrize(
    ("response", "error"),
    [
        (httpx.Response(429, headers={"Retry-After": "7"}), RateLimitError),
        (httpx.Response(403, text="Forbidden"), AccessDeniedError),
        (httpx.Response(403, text="<html>Please complete the CAPTCHA</html>"), CaptchaError),
        (httpx.Response(402, text="Payment required"), PaywallError),
        (httpx.Response(504, text="gateway timeout"), ProviderTimeoutError),
        (httpx.Response(500, text="boom"), ProviderError),
    ],
)
@respx.mock
def test_http_statuses_become_typed_errors(response, error, no_network):
    respx.get("https://api.semanticscholar.org/graph/v1/paper/search").mock(
        return_value=response)
    with pytest.raises(error) as info:
        run(SemanticScholarProvider().search("x"))
    if error is RateLimitError:
        assert info.value.retry_after == 7.0


@respx.mock
def test_transport_timeout_becomes_timeout_error(no_network):
    respx.get("https://api.semanticscholar.org/graph/v1/paper/search").mock(
        side_effect=httpx.ConnectTimeout("slow"))
    with pytest.raises(ProviderTimeoutError):
        run(SemanticScholarProvider().search("x", timeout=0.5))


def test_privacy_mode_decides_the_providers():
    local = build_providers("local_only", lambda: None)  # type: ignore[arg-type, return-value]
    assert set(local) == {"local"}
    cloud = build_providers("cloud_allowed", lambda: None)  # type: ignore[arg-type, return-value]
    assert set(cloud) == {"local", "semantic_scholar", "arxiv", "crossref", "pubmed",
                          "unpaywall", "tavily", "exa", "brave", "playwright"}
    assert cloud["semantic_scholar"].requests_per_second == 1.0
