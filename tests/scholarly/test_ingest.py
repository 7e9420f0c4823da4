"""Ingestion into the real pgvector store with the real (offline) embedder."""

from __future__ import annotations

import httpx
import pytest
import respx

from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.embedder import EmbedderResource
from repro_assets.resources.vectorstore import VectorStoreResource
from repro_assets.scholarly.arxiv import API_URL as ARXIV_URL
from repro_assets.scholarly.arxiv import ArxivClient
from repro_assets.scholarly.crossref import API_URL as CROSSREF_URL
from repro_assets.scholarly.crossref import CrossrefClient
from repro_assets.scholarly.ingest import ingest_query, load_records, record_chunks
from repro_assets.scholarly.models import ScholarlyRecord
from repro_assets.scholarly.samples import load_sample_records, seed_sample_corpus
from repro_assets.storage.vectorstore import VectorStore
from tests.scholarly.test_clients import ARXIV_FEED, CROSSREF_LIST


@pytest.fixture()
def store(fresh_database: str) -> VectorStore:
    return VectorStoreResource(database=DatabaseResource(), embedder=EmbedderResource()).get_store()


def _clients() -> tuple[ArxivClient, CrossrefClient]:
    return (ArxivClient(limiter=None, backoff_s=0), CrossrefClient(limiter=None, backoff_s=0))


@respx.mock
def test_ingesting_the_same_query_twice_adds_nothing(store: VectorStore, no_network: None) -> None:
    respx.get(ARXIV_URL).mock(return_value=httpx.Response(200, content=ARXIV_FEED))
    respx.get(CROSSREF_URL).mock(return_value=httpx.Response(200, json=CROSSREF_LIST))
    arxiv, crossref = _clients()
    first = ingest_query(store, "testing ecology", arxiv=arxiv, crossref=crossref,
                         arxiv_results=4, crossref_results=5)
    assert first["arxiv"].fetched == 4 and first["arxiv"].documents_new == 4
    assert first["crossref"].fetched == 5 and first["crossref"].documents_new == 5
    total = store.count_chunks()
    assert total == first["arxiv"].chunks_inserted + first["crossref"].chunks_inserted > 9
    second = ingest_query(store, "testing ecology", arxiv=arxiv, crossref=crossref,
                          arxiv_results=4, crossref_results=5)
    assert second["arxiv"].chunks_inserted == 0 and second["crossref"].chunks_inserted == 0
    assert second["arxiv"].documents_new == 0 and second["crossref"].documents == 5
    assert store.count_chunks() == total


@respx.mock
def test_a_failing_source_is_reported_and_the_other_still_ingests(
    store: VectorStore, no_network: None
) -> None:
    respx.get(ARXIV_URL).mock(return_value=httpx.Response(503))
    respx.get(CROSSREF_URL).mock(return_value=httpx.Response(200, json=CROSSREF_LIST))
    arxiv = ArxivClient(limiter=None, backoff_s=0, attempts=2)
    counts = ingest_query(store, "ecology", arxiv=arxiv, crossref=_clients()[1],
                          arxiv_results=3, crossref_results=2)
    assert counts["arxiv"].error_code == "E_ARXIV_HTTP" and counts["arxiv"].documents == 0
    assert counts["crossref"].documents == 2


def test_sample_corpus_is_searchable_with_provenance_and_idempotent(store: VectorStore) -> None:
    counts = seed_sample_corpus(store)
    assert counts["arxiv"].documents == 10
    assert counts["crossref"].documents == 18  # 17 from the list + the single-DOI work
    before = store.count_chunks()
    again = seed_sample_corpus(store)
    assert again["arxiv"].chunks_inserted == 0 and again["crossref"].chunks_inserted == 0
    assert store.count_chunks() == before
    hits = store.search("metamorphic testing of deep learning models", k=3)
    assert hits[0].source_kind == "arxiv"
    assert hits[0].section == "Abstract" and hits[0].authors
    hits = store.search("forecasting fisheries management models", k=3,
                        source_kinds=["crossref"])
    assert any(h.doi == "10.1111/ele.14024" for h in hits)
    records = load_records(store, [h.document_id for h in hits])
    assert records[hits[0].document_id].source == "crossref"
    assert records[hits[0].document_id].authors[0].family


def test_chunks_stay_within_the_token_budget_and_start_with_the_title() -> None:
    records = load_sample_records()["crossref"]
    longest = max(records, key=lambda r: len(r.abstract))
    chunks = record_chunks(longest, "all-MiniLM-L6-v2", max_tokens=120)
    assert len(chunks) > 1
    assert all(c.token_count <= 120 for c in chunks)
    assert all(c.content.startswith(longest.title) for c in chunks)
    body = " ".join(c.content[len(longest.title) + 1:] for c in chunks)
    assert body.split() == longest.abstract.split()
    empty = ScholarlyRecord(source="crossref", external_id="10.1/x", title="Only a title")
    [single] = record_chunks(empty, "all-MiniLM-L6-v2")
    assert single.content == "Only a title"


def test_url_helpers_find_arxiv_ids_and_dois() -> None:
    from repro_assets.scholarly.arxiv import arxiv_id_from_url
    from repro_assets.scholarly.crossref import doi_from_url

    assert arxiv_id_from_url("https://arxiv.org/abs/2202.12139v1") == "2202.12139"
    assert arxiv_id_from_url("https://arxiv.org/pdf/hep-th/9901001") == "hep-th/9901001"
    assert arxiv_id_from_url("https://example.org/paper") is None
    assert doi_from_url("https://doi.org/10.1111/ele.14024") == "10.1111/ele.14024"
    assert doi_from_url("https://example.org/") is None


@respx.mock
def test_ingest_url_fetches_the_doi_work(store: VectorStore, no_network: None) -> None:
    from repro_assets.scholarly.ingest import ingest_url
    from tests.scholarly.test_clients import CROSSREF_WORK

    respx.get(f"{CROSSREF_URL}/10.1002/jor.1100150407").mock(
        return_value=httpx.Response(200, json=CROSSREF_WORK))
    arxiv, crossref = _clients()
    counts = ingest_url(store, "https://doi.org/10.1002/jor.1100150407", arxiv=arxiv,
                        crossref=crossref)
    assert counts.source == "crossref" and counts.documents == 1
    assert counts.external_ids == ["10.1002/jor.1100150407"]
    unsupported = ingest_url(store, "https://example.org/blog", arxiv=arxiv, crossref=crossref)
    assert unsupported.error_code == "E_URL_UNSUPPORTED" and unsupported.documents == 0


@respx.mock
def test_arxiv_pdfs_are_ingested_once_through_the_paper_path(
    store: VectorStore, no_network: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    monkeypatch.setenv("ARXIV_DOWNLOAD_PDFS", "1")
    pdf = (Path(__file__).parents[1] / "fixtures" / "scholarly" / "sample_paper.pdf").read_bytes()
    respx.get(ARXIV_URL).mock(return_value=httpx.Response(200, content=ARXIV_FEED))
    good = respx.get("https://arxiv.org/pdf/2202.12139v1").mock(
        return_value=httpx.Response(200, content=pdf, headers={"content-type": "application/pdf"}))
    bad = respx.get("https://arxiv.org/pdf/2405.13786v1").mock(
        return_value=httpx.Response(200, content=b"<html>not a pdf</html>"))
    arxiv = ArxivClient(limiter=None, backoff_s=0)
    counts = ingest_query(store, "testing", arxiv=arxiv, crossref=None, arxiv_results=2,
                          crossref_results=0)["arxiv"]
    assert counts.documents == 2 and counts.pdf_documents == 1
    assert len(counts.pdf_errors) == 1 and counts.pdf_errors[0].startswith("2405.13786: E_")
    hits = store.search("linear SVM breast cancer accuracy", k=3)
    assert hits[0].external_id == "2202.12139#pdf" and hits[0].page_start is not None
    again = ingest_query(store, "testing", arxiv=arxiv, crossref=None, arxiv_results=2,
                         crossref_results=0)["arxiv"]
    assert good.call_count == 1  # an ingested PDF is never fetched again
    assert again.pdf_documents == 0 and bad.call_count == 2
