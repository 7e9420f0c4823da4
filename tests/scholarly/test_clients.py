"""arXiv and Crossref clients on real recorded payloads (respx; the network is never touched)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import respx

from repro_assets.scholarly.arxiv import API_URL as ARXIV_URL
from repro_assets.scholarly.arxiv import ArxivClient, keyword_query, parse_feed
from repro_assets.scholarly.crossref import API_URL as CROSSREF_URL
from repro_assets.scholarly.crossref import CrossrefClient, parse_works, strip_markup
from repro_assets.scholarly.http import MinIntervalLimiter
from repro_assets.scholarly.models import Author, ScholarlyError

FIX = Path(__file__).parents[1] / "fixtures" / "scholarly"
ARXIV_FEED = (FIX / "arxiv" / "query_search_testing_max10.atom.xml").read_bytes()
ARXIV_ERROR = (FIX / "arxiv" / "query_id_list_malformed_error_400.atom.xml").read_bytes()
CROSSREF_LIST = json.loads(
    (FIX / "crossref" / "works_query_ecology_author_boettiger_rows20.json").read_text()
)
CROSSREF_REFERENCE_ENTRIES = json.loads(
    (FIX / "crossref" / "works_query_ecology_rows2.json").read_text()
)
CROSSREF_WORK = json.loads((FIX / "crossref" / "works_doi_10.1002_jor.1100150407.json").read_text())


class FakeClock:
    """A clock that only moves when someone sleeps."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture(autouse=True)
def _offline(no_network: None) -> None:
    """Every test here runs with real sockets forbidden."""


def _arxiv(clock: FakeClock | None = None, **kwargs: object) -> ArxivClient:
    clock = clock or FakeClock()
    limiter = MinIntervalLimiter(3.0, clock=clock, sleep=clock.sleep)
    return ArxivClient(limiter=limiter, sleep=clock.sleep, **kwargs)


# -- arXiv -------------------------------------------------------------------------------------


def test_parse_arxiv_feed_reads_every_entry_with_metadata() -> None:
    records = parse_feed(ARXIV_FEED)
    assert len(records) == 10
    first = records[0]
    assert first.source == "arxiv"
    assert first.external_id == "2202.12139" and first.version == "v1"
    assert first.title.startswith("Testing Deep Learning Models: A First Comparative Study")
    assert [a.family for a in first.authors] == ["Ahuja", "Gotlieb", "Spieker"]
    assert first.authors[0].given == "Mohit Kumar"
    assert first.doi == "10.1109/ICSTW55395.2022.00035"
    assert first.venue and first.venue.startswith("Artificial Intelligence in Software Testing")
    assert first.year == 2022 and first.published.isoformat() == "2022-02-24"
    assert first.url == "https://arxiv.org/abs/2202.12139v1"
    assert first.pdf_url == "https://arxiv.org/pdf/2202.12139v1"
    assert first.categories == ["cs.SE", "cs.LG"] and first.primary_category == "cs.SE"
    assert first.abstract.startswith("Deep Learning (DL) has revolutionized")
    assert "\n" not in first.abstract
    # entries without a DOI or journal_ref stay None
    no_doi = next(r for r in records if r.external_id == "2503.05378")
    assert no_doi.doi is None and no_doi.venue is None
    assert records[2].version == "v2"


def test_parse_arxiv_error_feed_raises_query_invalid() -> None:
    with pytest.raises(ScholarlyError) as info:
        parse_feed(ARXIV_ERROR)
    assert info.value.code == "E_ARXIV_QUERY_INVALID"
    assert "incorrect id format for abc" in str(info.value)


def test_parse_arxiv_garbage_is_bad_feed() -> None:
    with pytest.raises(ScholarlyError) as info:
        parse_feed(b"<html><body>Service Unavailable")
    assert info.value.code == "E_ARXIV_BAD_FEED"


def test_keyword_query_drops_stopwords_and_passes_field_queries_through() -> None:
    assert keyword_query("How should we test the deep learning models?") == (
        "all:test OR all:deep OR all:learning OR all:models"
    )
    assert keyword_query("ti:transformer AND au:vaswani") == "ti:transformer AND au:vaswani"
    with pytest.raises(ScholarlyError) as info:
        keyword_query("is it?")
    assert info.value.code == "E_ARXIV_EMPTY_QUERY"


@respx.mock
def test_arxiv_search_sends_relevance_query_with_contact_user_agent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("REPRO_CONTACT_EMAIL", "ops@example.org")
    route = respx.get(ARXIV_URL).mock(return_value=httpx.Response(200, content=ARXIV_FEED))
    with _arxiv() as client:
        records = client.search("software testing", max_results=3)
    assert len(records) == 3
    request = route.calls.last.request
    assert request.url.params["sortBy"] == "relevance"
    assert request.url.params["sortOrder"] == "descending"
    assert request.url.params["max_results"] == "3"
    assert request.url.params["search_query"] == "all:software OR all:testing"
    assert "mailto:ops@example.org" in request.headers["user-agent"]


@respx.mock
def test_arxiv_requests_are_spaced_three_seconds_apart() -> None:
    respx.get(ARXIV_URL).mock(return_value=httpx.Response(200, content=ARXIV_FEED))
    clock = FakeClock()
    with _arxiv(clock) as client:
        client.search("testing", 2)
        clock.now += 1.0  # the caller did one second of other work
        client.search("testing", 2)
        client.search("testing", 2)
    assert clock.sleeps == [pytest.approx(2.0), pytest.approx(3.0)]


@respx.mock
def test_arxiv_retries_429_then_succeeds_honouring_retry_after() -> None:
    route = respx.get(ARXIV_URL).mock(
        side_effect=[
            httpx.Response(429, headers={"Retry-After": "7"}),
            httpx.Response(503),
            httpx.Response(200, content=ARXIV_FEED),
        ]
    )
    clock = FakeClock()
    with _arxiv(clock, backoff_s=1.0) as client:
        records = client.search("testing", 10)
    assert len(records) == 10 and route.call_count == 3
    assert 7.0 in clock.sleeps  # Retry-After was honoured


@respx.mock
def test_arxiv_gives_up_after_repeated_5xx_with_code() -> None:
    route = respx.get(ARXIV_URL).mock(return_value=httpx.Response(502))
    with _arxiv(attempts=3, backoff_s=0) as client, pytest.raises(ScholarlyError) as info:
        client.search("testing", 5)
    assert info.value.code == "E_ARXIV_HTTP" and info.value.status == 502
    assert route.call_count == 3


@respx.mock
def test_arxiv_400_error_feed_is_reported_with_arxiv_message() -> None:
    respx.get(ARXIV_URL).mock(return_value=httpx.Response(400, content=ARXIV_ERROR))
    with _arxiv() as client, pytest.raises(ScholarlyError) as info:
        client.search("id:abc", 5)
    assert info.value.code == "E_ARXIV_QUERY_INVALID"


@respx.mock
def test_arxiv_transport_errors_become_unreachable() -> None:
    respx.get(ARXIV_URL).mock(side_effect=httpx.ConnectError("refused"))
    with _arxiv(attempts=2, backoff_s=0) as client, pytest.raises(ScholarlyError) as info:
        client.search("testing", 5)
    assert info.value.code == "E_ARXIV_UNREACHABLE"


# -- Crossref ----------------------------------------------------------------------------------


def test_parse_crossref_keeps_only_journal_and_proceedings_articles() -> None:
    records = parse_works(CROSSREF_LIST)
    types = [item["type"] for item in CROSSREF_LIST["message"]["items"]]
    assert types.count("journal-article") == 17 and "posted-content" in types
    assert len(records) == 17
    assert {r.work_type for r in records} == {"journal-article"}
    dois = {r.doi for r in records}
    assert "10.1101/055319" not in dois  # posted-content dropped
    assert "10.32614/cran.package.rfishbase" not in dois  # dataset dropped
    assert parse_works(CROSSREF_REFERENCE_ENTRIES) == []  # reference-entry dropped


def test_parse_crossref_strips_jats_and_reads_metadata() -> None:
    record = parse_works(CROSSREF_LIST)[0]
    assert record.source == "crossref" and record.external_id == "10.1111/ele.14024"
    assert record.title == "The forecast trap"
    assert record.venue == "Ecology Letters" and record.year == 2022
    assert record.volume == "25" and record.issue == "7" and record.pages == "1655-1664"
    assert record.authors == [
        Author(family="Boettiger", given="Carl", orcid="https://orcid.org/0000-0002-1642-628X")
    ]
    assert record.abstract.startswith("Encouraged by decision makers")
    assert "<" not in record.abstract and "jats" not in record.abstract
    assert not record.abstract.startswith("Abstract")
    records = {r.doi: r for r in parse_works(CROSSREF_LIST)}
    assert records["10.1177/2053951719836258"].venue == "Big Data & Society"  # entity decoded
    assert records["10.1177/2053951719836258"].pages == "2053951719836258"  # article number
    carbon = records["10.1002/fee.70021"]
    assert carbon.title == "The role of AI in ecology’s computational carbon footprint"
    assert carbon.abstract == ""
    sections = records["10.1111/geb.13950"].abstract.splitlines()
    assert sections[0].startswith("Aim: Despite unprecedented environmental change")
    assert sections[1] == "Location: Global, with a North American focus."


def test_parse_crossref_single_work_and_bad_bodies() -> None:
    [record] = parse_works(CROSSREF_WORK)
    assert record.doi == "10.1002/jor.1100150407"
    assert record.abstract.startswith("Twenty‐two beagles were divided")
    with pytest.raises(ScholarlyError) as info:
        parse_works({"status": "failed", "message": "oops"})
    assert info.value.code == "E_CROSSREF_BAD_RESPONSE"


def test_strip_markup_plain_and_inline() -> None:
    assert strip_markup("<p>A &amp; B</p>\n<p>C  d</p>") == "A & B\nC d"
    assert strip_markup("<jats:title>Abstract</jats:title><jats:p>x <i>y</i></jats:p>") == "x y"
    assert strip_markup("Deep <scp>RL</scp>\n  works", block=False) == "Deep RL works"
    assert strip_markup(None) == "" and strip_markup("   ") == ""


def _crossref(clock: FakeClock | None = None, **kwargs: object) -> CrossrefClient:
    clock = clock or FakeClock()
    limiter = MinIntervalLimiter(0.2, clock=clock, sleep=clock.sleep)
    return CrossrefClient(limiter=limiter, sleep=clock.sleep, **kwargs)


@respx.mock
def test_crossref_search_sends_type_filter_rows_and_mailto(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("REPRO_CONTACT_EMAIL", "ops@example.org")
    route = respx.get(CROSSREF_URL).mock(return_value=httpx.Response(200, json=CROSSREF_LIST))
    with _crossref() as client:
        records = client.search("ecological forecasting", rows=5)
    assert len(records) == 5
    params = route.calls.last.request.url.params
    assert params["filter"] == "type:journal-article,type:proceedings-article"
    assert params["rows"] == "5" and params["query"] == "ecological forecasting"
    assert params["mailto"] == "ops@example.org"
    assert "mailto:ops@example.org" in route.calls.last.request.headers["user-agent"]


@respx.mock
def test_crossref_without_contact_sends_no_mailto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPRO_CONTACT_EMAIL", raising=False)
    route = respx.get(CROSSREF_URL).mock(return_value=httpx.Response(200, json=CROSSREF_LIST))
    with _crossref() as client:
        client.search("ecology", rows=2)
    assert "mailto" not in route.calls.last.request.url.params


@respx.mock
def test_crossref_retries_then_rate_limited_code() -> None:
    route = respx.get(CROSSREF_URL).mock(return_value=httpx.Response(429))
    with _crossref(attempts=3, backoff_s=0) as client, pytest.raises(ScholarlyError) as info:
        client.search("ecology", rows=2)
    assert info.value.code == "E_CROSSREF_RATE_LIMITED" and route.call_count == 3


@respx.mock
def test_crossref_work_by_doi_and_not_found() -> None:
    respx.get(f"{CROSSREF_URL}/10.1002/jor.1100150407").mock(
        return_value=httpx.Response(200, json=CROSSREF_WORK)
    )
    respx.get(f"{CROSSREF_URL}/10.000/missing").mock(
        return_value=httpx.Response(404, text="Resource not found.")
    )
    with _crossref() as client:
        record = client.work("10.1002/jor.1100150407")
        assert record is not None and record.venue
        with pytest.raises(ScholarlyError) as info:
            client.work("10.000/missing")
    assert info.value.code == "E_CROSSREF_NOT_FOUND"


def test_author_name_splitting() -> None:
    assert Author.from_full_name("Ludwig van Beethoven") == Author(
        family="van Beethoven", given="Ludwig"
    )
    assert Author.from_full_name("Martin Luther King Jr.") == Author(
        family="King", given="Martin Luther", suffix="Jr."
    )
    assert Author.from_full_name("Plato") == Author(family="Plato")


@respx.mock
def test_arxiv_fetch_by_id_uses_id_list() -> None:
    route = respx.get(ARXIV_URL).mock(return_value=httpx.Response(200, content=ARXIV_FEED))
    with _arxiv() as client:
        records = client.fetch(["2202.12139"])
        assert client.fetch([]) == []
    assert records[0].external_id == "2202.12139"
    assert route.calls.last.request.url.params["id_list"] == "2202.12139"
    assert route.call_count == 1
