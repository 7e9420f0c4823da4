"""Debate test fixtures: one database seeded with the sample corpus for the whole session."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.embedder import EmbedderResource
from repro_assets.resources.vectorstore import VectorStoreResource
from repro_assets.storage.database import get_database, with_database
from repro_assets.storage.vectorstore import VectorStore
from tests.research.generated_corpus import generated_store, scripted_llm  # noqa: F401 - shared fixtures


@pytest.fixture(scope="session")
def seeded_corpus_url(pg_server_url: str) -> Iterator[str]:
    """A database with the sample scholarly corpus, shared by the debate tests."""
    from repro_assets.scholarly.samples import seed_sample_corpus

    name = "debate_" + uuid.uuid4().hex[:10]
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(pg_server_url, name)
    get_database(url)  # migrate
    seed_sample_corpus(VectorStore(get_database(url), EmbedderResource().get_embedder()))
    yield url


@pytest.fixture()
def corpus_store(seeded_corpus_url: str, monkeypatch: pytest.MonkeyPatch) -> VectorStore:
    """The seeded store; REPRO_DATABASE_URL points at it for this test."""
    monkeypatch.setenv("REPRO_DATABASE_URL", seeded_corpus_url)
    return VectorStoreResource(database=DatabaseResource(), embedder=EmbedderResource()).get_store()


@pytest.fixture()
def blobs():  # noqa: ANN201 - BlobStore
    """The test blob store (temp REPRO_BLOB_ROOT)."""
    return BlobStoreResource().get_store()
