"""Fixtures of the research-agent tests."""

from __future__ import annotations

import asyncio
import selectors
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.research.generated_corpus import generated_store, scripted_llm  # noqa: F401 - shared fixtures

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "research"


class _VirtualSelector(selectors.DefaultSelector):
    """A selector that never blocks: waiting advances the loop's virtual clock instead."""

    def __init__(self, loop: VirtualClockLoop) -> None:
        super().__init__()
        self._vloop = loop

    def select(self, timeout: float | None = None):  # type: ignore[override]
        if timeout is not None and timeout > 0:
            self._vloop.now += timeout
        return super().select(0)


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose ``time()`` is virtual: sleeps and timers complete instantly."""

    def __init__(self) -> None:
        self.now = 1000.0
        super().__init__(_VirtualSelector(self))

    def time(self) -> float:
        return self.now


@pytest.fixture()
def virtual_loop() -> Iterator[VirtualClockLoop]:
    """A fake-clock event loop."""
    loop = VirtualClockLoop()
    try:
        yield loop
    finally:
        loop.close()


@pytest.fixture()
def fixture_text() -> object:
    """Read a recorded payload from tests/fixtures/research."""

    def read(name: str) -> str:
        return (FIXTURES / name).read_text(encoding="utf-8")

    return read


@pytest.fixture(scope="session")
def _corpus_database_url(pg_server_url: str) -> Iterator[str]:
    """One database per test session holding the sample scholarly corpus (seeded once)."""
    import psycopg

    from repro_assets.scholarly.samples import seed_sample_corpus
    from repro_assets.storage.database import get_database, with_database
    from repro_assets.storage.embedder import get_embedder
    from repro_assets.storage.vectorstore import VectorStore

    name = "research_corpus_" + uuid.uuid4().hex[:8]
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(pg_server_url, name)
    seed_sample_corpus(VectorStore(get_database(url), get_embedder()))
    yield url
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture()
def corpus_store(_corpus_database_url: str, monkeypatch: pytest.MonkeyPatch):
    """The vector store over the seeded sample corpus; REPRO_DATABASE_URL points at it.

    Tests share this database, so each uses its own research session id.
    """
    from repro_assets.storage.database import get_database
    from repro_assets.storage.embedder import get_embedder
    from repro_assets.storage.vectorstore import VectorStore

    monkeypatch.setenv("REPRO_DATABASE_URL", _corpus_database_url)
    return VectorStore(get_database(_corpus_database_url), get_embedder())
