"""API key on/off, CORS closed by default, the page and the docs, on every router of this slice."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from repro_assets.api.app import create_app

PROTECTED = [
    ("get", "/api/v1/papers/0000000000000000"),
    ("get", "/api/v1/papers/0000000000000000/verify"),
    ("post", "/api/v1/papers/0000000000000000/extract"),
    ("get", "/api/v1/papers/0000000000000000/report"),
    ("post", "/api/interrupt"),
    ("get", "/api/debates/d-none"),
    ("get", "/api/research/r-none/status"),
]


@pytest.fixture(scope="module")
def locked(services) -> TestClient:  # noqa: ANN001
    return TestClient(create_app(services, api_key="s3cret", cors_origins=[]))


@pytest.mark.parametrize(("method", "path"), PROTECTED)
def test_api_key_required_when_configured(locked, method, path):
    missing = getattr(locked, method)(path)
    assert missing.status_code == 401 and missing.json()["error"] == "unauthorized"
    wrong = getattr(locked, method)(path, headers={"X-API-Key": "nope"})
    assert wrong.status_code == 401
    right = getattr(locked, method)(path, headers={"X-API-Key": "s3cret"})
    assert right.status_code != 401  # 404 / 200: past the key check


def test_ingest_and_debate_need_the_key(locked):
    upload = locked.post("/api/v1/papers/ingest",
                         files={"file": ("a.pdf", b"%PDF-1.7", "application/pdf")})
    assert upload.status_code == 401
    assert locked.post("/api/stream", json={"question": "why?"}).status_code == 401
    assert locked.post("/api/research/start", json={"query": "why?"}).status_code == 401


def test_open_when_no_key(client):
    for method, path in PROTECTED:
        assert getattr(client, method)(path).status_code != 401


def test_websocket_key(locked):
    with pytest.raises(WebSocketDisconnect) as refused, \
            locked.websocket_connect("/api/research/r-none/ws") as ws:
        ws.receive_json()
    assert refused.value.code == 1008
    with locked.websocket_connect("/api/research/r-none/ws") as ws:  # browsers: first message
        ws.send_json({"api_key": "s3cret"})
        assert ws.receive_json()["message"] == "Session not found"
    with locked.websocket_connect("/api/research/r-none/ws",
                                  headers={"X-API-Key": "s3cret"}) as ws:
        assert ws.receive_json()["type"] == "error"
    with pytest.raises(WebSocketDisconnect) as wrong, \
            locked.websocket_connect("/api/research/r-none/ws") as ws:
        ws.send_json({"api_key": "nope"})
        ws.receive_json()
    assert wrong.value.code == 1008


def test_websocket_key_in_the_url_is_not_used(locked):
    """A key in the query string is removed before anything (handler, access log) sees it."""
    with pytest.raises(WebSocketDisconnect) as refused, \
            locked.websocket_connect("/api/research/r-none/ws?api_key=s3cret") as ws:
        ws.send_json({"hello": "no key here"})
        ws.receive_json()
    assert refused.value.code == 1008


def test_api_key_is_scrubbed_from_the_query_string():
    from repro_assets.api.security import _scrub_api_key

    scope = {"query_string": b"a=1&api_key=s3cret&API_KEY=x&b=2"}
    _scrub_api_key(scope)
    assert scope["query_string"] == b"a=1&b=2"


# --------------------------------------------------------------------------- cross-site
def test_cross_site_requests_are_refused_without_a_key(client):
    evil = client.post("/api/interrupt", headers={"Origin": "https://evil.example"})
    assert evil.status_code == 403 and evil.json()["error"] == "E_CROSS_SITE_REFUSED"
    opaque = client.post("/api/interrupt", headers={"Origin": "null"})
    assert opaque.status_code == 403
    fetch_meta = client.get("/api/research/r-none/status",
                            headers={"Sec-Fetch-Site": "cross-site"})
    assert fetch_meta.status_code == 403
    rebound = client.get("/api/research/r-none/status", headers={"Host": "evil.example"})
    assert rebound.status_code == 403 and "host" in rebound.json()["message"]
    upload = client.post("/api/v1/papers/ingest", headers={"Origin": "http://evil.example"},
                         files={"file": ("a.pdf", b"%PDF-1.7", "application/pdf")})
    assert upload.status_code == 403


def test_same_site_requests_pass(client):
    for origin in ("http://127.0.0.1:8000", "http://localhost:3000", "http://[::1]:8000"):
        answer = client.get("/api/research/r-none/status", headers={"Origin": origin})
        assert answer.status_code != 403, (origin, answer.text)
    image = client.get("/healthz", headers={"Sec-Fetch-Site": "cross-site",
                                            "Referer": "http://localhost:3000/runs/x"})
    assert image.status_code == 200  # e.g. the Dagster UI showing an API image
    hidden = client.get("/healthz", headers={"Sec-Fetch-Site": "cross-site",
                                             "Referer": "https://evil.example/"})
    assert hidden.status_code == 403
    local = client.get("/healthz", headers={"Host": "localhost:8000",
                                            "Sec-Fetch-Site": "same-origin"})
    assert local.status_code == 200


def test_configured_hosts_and_origins_pass(services, monkeypatch):
    monkeypatch.setenv("REPRO_API_ALLOWED_HOSTS", "repro.internal")
    app = TestClient(create_app(services, api_key="", cors_origins=["https://ok.example"]))
    assert app.get("/healthz", headers={"Host": "repro.internal"}).status_code == 200
    assert app.post("/api/interrupt",
                    headers={"Origin": "https://ok.example"}).status_code != 403
    assert app.post("/api/interrupt",
                    headers={"Origin": "https://evil.example"}).status_code == 403


def test_with_a_key_the_key_is_the_check(locked):
    answer = locked.post("/api/interrupt", headers={"Origin": "https://evil.example"})
    assert answer.status_code == 401


def test_websocket_checks_origin_without_a_key(client):
    with pytest.raises(WebSocketDisconnect) as refused, \
            client.websocket_connect("/api/research/r-none/ws",
                                     headers={"Origin": "https://evil.example"}) as ws:
        ws.receive_json()
    assert refused.value.code == 1008
    with client.websocket_connect("/api/research/r-none/ws",
                                  headers={"Origin": "http://127.0.0.1:8000"}) as ws:
        assert ws.receive_json()["message"] == "Session not found"


def test_cors_closed_by_default(client):
    preflight = client.options("/api/stream", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in preflight.headers
    simple = client.post("/api/interrupt", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in simple.headers


def test_cors_allows_only_listed_origins(services):
    app = TestClient(create_app(services, api_key="", cors_origins=["https://ok.example"]))
    ok = app.options("/api/stream", headers={
        "Origin": "https://ok.example", "Access-Control-Request-Method": "POST"})
    assert ok.headers["access-control-allow-origin"] == "https://ok.example"
    other = app.options("/api/stream", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert other.headers.get("access-control-allow-origin") != "https://evil.example"


def test_page_and_openapi(client):
    page = client.get("/ui/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for element in ('id="question"', 'id="interrupt"', 'id="status"', "[[STATUS]] "):
        assert element in page.text
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/v1/papers/ingest", "/api/v1/papers/{paper_id}/verify",
                 "/api/v1/papers/{paper_id}/extract", "/api/v1/papers/{paper_id}/plan",
                 "/api/v1/papers/{paper_id}/notebook", "/api/v1/papers/{paper_id}/run",
                 "/api/v1/papers/{paper_id}/report", "/api/stream", "/api/ask",
                 "/api/interrupt", "/api/research/start", "/api/research/{session_id}/status",
                 "/api/research/{session_id}/stop"):
        assert path in paths, path
    ingest = paths["/api/v1/papers/ingest"]["post"]["requestBody"]["content"]
    assert set(ingest) == {"multipart/form-data", "application/json"}
