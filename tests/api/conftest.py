"""API test fixtures: one database (sample corpus seeded) and one Dagster instance per session.

The app runs on the project's real Dagster instance (Postgres-backed, ``get_instance()``), the
way ``repro-assets api`` does. Streaming tests that interleave requests use a uvicorn server on
127.0.0.1 in a thread (Starlette's TestClient buffers a whole response before returning).
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient

from repro_assets.api.app import create_app
from repro_assets.api.services import Services

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "api"


@pytest.fixture(scope="session")
def api_database(pg_server_url: str) -> Iterator[str]:
    """A migrated database with the sample scholarly corpus; REPRO_DATABASE_URL points at it."""
    from repro_assets.resources.embedder import EmbedderResource
    from repro_assets.scholarly.samples import seed_sample_corpus
    from repro_assets.storage.database import get_database, with_database
    from repro_assets.storage.vectorstore import VectorStore

    name = "api_" + uuid.uuid4().hex[:10]
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(pg_server_url, name)
    saved = os.environ.get("REPRO_DATABASE_URL")
    os.environ["REPRO_DATABASE_URL"] = url
    os.environ["DEBATE_LIVE_SEARCH"] = "off"
    get_database(url)  # migrate
    seed_sample_corpus(VectorStore(get_database(url), EmbedderResource().get_embedder()))
    yield url
    os.environ.pop("DEBATE_LIVE_SEARCH", None)
    if saved is not None:
        os.environ["REPRO_DATABASE_URL"] = saved


@pytest.fixture(scope="session")
def instance(api_database: str):  # noqa: ANN201 - dg.DagsterInstance
    """The project's Dagster instance (Postgres storage) for the test session."""
    from repro_assets.instance import get_instance

    inst = get_instance()
    yield inst
    inst.dispose()


@pytest.fixture(scope="session")
def services(instance) -> Services:  # noqa: ANN001
    """Services on the session instance (offline LLM: no keys are set in tests)."""
    return Services(instance_factory=lambda: instance, record_runs=True)


@pytest.fixture(scope="session")
def app(services: Services):  # noqa: ANN201 - FastAPI
    """The app with no API key and CORS closed."""
    return create_app(services, api_key="", cors_origins=[])


@pytest.fixture(scope="session")
def client(app) -> Iterator[TestClient]:  # noqa: ANN001
    """TestClient on :func:`app`."""
    with TestClient(app) as test_client:
        yield test_client


class LiveServer:
    """uvicorn serving an app on 127.0.0.1 in a daemon thread."""

    def __init__(self, app) -> None:  # noqa: ANN001
        import uvicorn

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        """Base URL."""
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server(app) -> Iterator[LiveServer]:  # noqa: ANN001
    """The session app served by uvicorn on a free loopback port."""
    with LiveServer(app) as server:
        yield server


@contextmanager
def gated_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """An OpenAI wire fake whose one scripted reply waits for the yielded event.

    ``OPENAI_API_KEY`` is set so the debate asset's ``llm`` resource talks to the fake; the
    debate's first LLM call then blocks until the test sets the event, so the test can act
    (interrupt, send a second request) while a debate is certainly running.
    """
    from repro_assets.api.debate import streams_tokens
    from tests.fakes.llm_wire import OpenAIWireFake

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("DEBATE_LIVE_SEARCH", "off")
    gate = threading.Event()
    with OpenAIWireFake() as fake:
        if streams_tokens():
            fake.reply_stream_text(["Position: the ", "evidence ", "[1] supports ", "testing."])
        else:
            fake.reply_text("Position: the evidence [1] supports testing.")
        scripted = fake._queue.pop()  # the shared fake has no gate: wrap its scripted reply

        def gated(request: httpx.Request) -> httpx.Response:
            assert gate.wait(30), "the test never released the LLM reply"
            return scripted(request)

        fake._queue.append(gated)
        try:
            yield gate
        finally:
            gate.set()
