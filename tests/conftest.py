"""Shared test fixtures: an embedded Postgres per test session, isolated data folders, offline.

Every test runs with no LLM keys (offline unless a test configures a wire-level fake), with
``REPRO_DATA_DIR``/``REPRO_BLOB_ROOT``/``REPRO_INBOX_ROOT`` in a temp folder, and with
``REPRO_DATABASE_URL`` pointing at a pgserver PostgreSQL started for the session.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
for _key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "REPRO_LLM_PROVIDER", "REPRO_LLM_BASE_URL",
             "TAVILY_API_KEY", "EXA_API_KEY", "BRAVE_API_KEY"):
    os.environ.pop(_key, None)

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """A real PostgreSQL (pgserver) for the whole session; stopped at the end."""
    import pgserver

    folder = Path(tempfile.mkdtemp(prefix="repro-pg-"))
    server = pgserver.get_server(folder / "pg", cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _session_env(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    data = tmp_path_factory.mktemp("data")
    saved = dict(os.environ)
    os.environ["REPRO_DATABASE_URL"] = pg_server_url
    os.environ["REPRO_DATA_DIR"] = str(data)
    os.environ["REPRO_BLOB_ROOT"] = str(data / "blobs")
    os.environ["REPRO_INBOX_ROOT"] = str(data / "inbox")
    os.environ["DAGSTER_HOME"] = str(data / "dagster_home")
    os.environ["REPRO_MODEL_CACHE"] = str(data / "models")  # one ONNX export per session
    (data / "dagster_home").mkdir()
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture()
def fresh_database(pg_server_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A new, empty database on the session server; REPRO_DATABASE_URL points at it."""
    from repro_assets.storage.database import get_database, reset_databases, with_database

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(pg_server_url, name)
    monkeypatch.setenv("REPRO_DATABASE_URL", url)
    get_database(url)  # migrate
    try:
        yield url
    finally:
        reset_databases()
        with psycopg.connect(pg_server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'DROP DATABASE IF EXISTS "{name}_dagster" WITH (FORCE)')


@pytest.fixture()
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any attempt to open a non-unix socket during the test."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        if self.family == socket.AF_UNIX:
            return real_connect(self, address)
        raise AssertionError(f"test tried to open a network connection to {address!r}")

    monkeypatch.setattr(socket.socket, "connect", guarded)
