"""One handler for every unexpected exception, and pools that survive dead connections
(issue #27, items 5 and 7)."""

from __future__ import annotations

import json

import psycopg
import pytest
from fastapi.testclient import TestClient

from repro_assets import settings
from repro_assets.api.app import create_app
from repro_assets.api.errors import database_unavailable
from repro_assets.storage.database import Database


@pytest.fixture(scope="module")
def raising(services) -> TestClient:  # noqa: ANN001
    app = create_app(services, api_key="", cors_origins=[])

    @app.get("/boom/recursion")
    def recursion() -> None:
        raise RecursionError("maximum recursion depth exceeded")

    @app.get("/boom/db")
    def db_down() -> None:
        try:
            raise psycopg.OperationalError("connection refused")
        except psycopg.OperationalError as exc:
            raise RuntimeError("could not load the paper") from exc

    @app.get("/boom/setting")
    def bad_setting() -> dict[str, int]:
        return {"workers": settings.env_int("REPRO_TEST_BAD_SETTING", 4)}

    @app.get("/boom/async")
    async def async_boom() -> None:
        raise KeyError("missing")

    return TestClient(app, raise_server_exceptions=False)


def test_unexpected_exceptions_are_coded_json(raising: TestClient) -> None:
    for path in ("/boom/recursion", "/boom/async"):
        answer = raising.get(path)
        assert answer.status_code == 500
        assert answer.headers["content-type"].startswith("application/json")
        assert answer.json()["error"] == "E_INTERNAL"


def test_a_wrongly_typed_server_setting_is_e_bad_setting(
        raising: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    assert raising.get("/boom/setting").json() == {"workers": 4}
    monkeypatch.setenv("REPRO_TEST_BAD_SETTING", "four-secret")
    answer = raising.get("/boom/setting")
    assert answer.status_code == 500
    body = answer.json()
    assert body["error"] == "E_BAD_SETTING"
    assert body["variable"] == "REPRO_TEST_BAD_SETTING"
    assert "four-secret" not in answer.text  # the value stays in the server log


def test_database_down_is_503_coded(raising: TestClient) -> None:
    answer = raising.get("/boom/db")
    assert answer.status_code == 503
    assert answer.json()["error"] == "E_DB_UNAVAILABLE"
    assert answer.headers["retry-after"]


def test_database_unavailable_reads_the_cause_chain() -> None:
    assert database_unavailable(psycopg.errors.AdminShutdown("terminating connection"))
    assert not database_unavailable(ValueError("x"))
    assert not database_unavailable(psycopg.errors.UniqueViolation("dup"))


def test_deeply_nested_schema_json_is_a_coded_400(services) -> None:  # noqa: ANN001
    client = TestClient(create_app(services, api_key="", cors_origins=[]),
                        raise_server_exceptions=False)
    nested = "[" * 100_000 + "]" * 100_000
    answer = client.post("/api/runs", files=[
        ("input_docs", ("a.txt", b"Name: Ada", "text/plain")),
        ("schema_json", ("schema.json", nested.encode(), "application/json"))])
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "invalid_schema_json"
    json.loads(answer.text)


def test_the_pool_replaces_a_connection_the_server_killed(api_database: str) -> None:
    db = Database(api_database, min_size=1, max_size=1)
    try:
        with db.connection() as conn:
            pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        with psycopg.connect(api_database, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with db.connection() as conn:  # what a Postgres restart leaves in the pool
            assert conn.execute("SELECT 1").fetchone()[0] == 1
            assert conn.execute("SELECT pg_backend_pid()").fetchone()[0] != pid
    finally:
        db.close()
