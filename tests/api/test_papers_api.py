"""Papers endpoints (seed 000) through the app, on the project's Dagster instance."""

from __future__ import annotations

import json
import time

import dagster as dg
import httpx
import pytest
import respx
from fastapi.testclient import TestClient

from repro_assets.api.app import create_app
from repro_assets.papers.pdf import MAX_PDF_BYTES, validate_pdf
from tests.pdfs import PAPER_PAGES, make_corrupt_pdf, make_encrypted_pdf, make_pdf

SEED_EVENTS = {"extract_start", "file_search_call", "token", "stage_update", "persist_start",
               "persist_done", "extract_complete", "error"}
PDF_URL = "https://papers.example.org/svm-wine.pdf"


def parse_sse(text: str) -> list[tuple[str, dict]]:
    """(event, data) pairs of an SSE body, in order (comments/pings skipped)."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        name, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
        if data:
            events.append((name, json.loads("\n".join(data))))
    return events


def materialized(instance: dg.DagsterInstance, asset: str, key: str) -> list[str]:
    """Run ids of the materializations of ``asset`` for partition ``key``."""
    result = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[key]), limit=20)
    return [r.run_id for r in result.records]


@pytest.fixture(scope="module")
def pdf_bytes() -> bytes:
    return make_pdf(PAPER_PAGES, title="SVMs on Wine")


@pytest.fixture(scope="module")
def paper_id(client: TestClient, pdf_bytes: bytes) -> str:
    """The sample paper, ingested through the API once for this module."""
    response = client.post("/api/v1/papers/ingest",
                           files={"file": ("svm_wine.pdf", pdf_bytes, "application/pdf")},
                           data={"title": "SVMs on Wine"})
    assert response.status_code == 200, response.text
    return response.json()["paper_id"]


def test_upload_ingest_materializes_the_papers_partition(client, instance, paper_id, pdf_bytes):
    assert paper_id == validate_pdf(pdf_bytes).paper_id
    assert instance.has_dynamic_partition("papers", paper_id)
    runs = {asset: materialized(instance, asset, paper_id)
            for asset in ("paper_pdf", "paper_pages", "paper_chunks", "paper_embeddings")}
    assert all(len(ids) == 1 for ids in runs.values()), runs
    run = instance.get_run_by_id(runs["paper_embeddings"][0])
    assert run.job_name == "paper_ingest_job" and run.tags["repro/source"] == "api"
    status = client.get(f"/api/v1/papers/{paper_id}").json()
    assert status["paper"]["title"] == "SVMs on Wine" and status["paper"]["status"] == "indexed"
    assert status["paper"]["source_url"] is None
    assert status["stages"]["paper_embeddings"]["dagster_run_id"] == run.run_id

    again = client.post("/api/v1/papers/ingest",
                        files={"file": ("copy.pdf", pdf_bytes, "application/pdf")})
    assert again.status_code == 200
    body = again.json()
    assert body["paper_id"] == paper_id and body["already_exists"] is True
    assert body["dagster_run_id"] is None  # nothing to materialize again
    assert body["vector_store_id"].startswith("pgvector:") and body["chunks"] >= 1
    assert body["storage_path"].endswith(f"{paper_id}.pdf") and body["pages"] == 2


def test_url_ingest_downloads_once_and_records_the_url(client, instance):
    data = make_pdf(["# Abstract\nA second paper about trees.", "# Results\nIt works."],
                    title="Trees")
    with respx.mock(assert_all_called=True) as mock:
        route = mock.get(PDF_URL).respond(200, content=data,
                                          headers={"content-type": "application/pdf"})
        response = client.post("/api/v1/papers/ingest", json={"url": PDF_URL, "title": "Trees"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert route.call_count == 1 and body["already_exists"] is False
    assert body["dagster_run_id"] and body["title"] == "Trees"
    status = client.get(f"/api/v1/papers/{body['paper_id']}").json()
    assert status["paper"]["source_url"] == PDF_URL
    assert materialized(instance, "paper_embeddings", body["paper_id"]) == [body["dagster_run_id"]]


@pytest.mark.parametrize(
    ("reply", "status", "code"),
    [
        (httpx.Response(404, text="gone"), 400, "E_FETCH_FAILED"),
        (httpx.ConnectTimeout("slow"), 400, "E_FETCH_FAILED"),
        (httpx.Response(200, content=b"x", headers={"content-length": str(MAX_PDF_BYTES + 1)}),
         413, "E_FILE_TOO_LARGE"),
        (httpx.Response(200, content=b"<html>not a pdf</html>"), 415,
         "E_UNSUPPORTED_MEDIA_TYPE"),
    ],
)
def test_url_ingest_errors(client, reply, status, code):
    with respx.mock() as mock:
        route = mock.get(PDF_URL)
        if isinstance(reply, Exception):
            route.side_effect = reply
        else:
            route.return_value = reply
        response = client.post("/api/v1/papers/ingest", json={"url": PDF_URL})
    assert response.status_code == status, response.text
    assert response.json()["error"] == code and response.json()["message"]


@pytest.mark.parametrize(
    ("name", "payload", "media", "status", "code"),
    [
        ("notes.txt", b"plain text", "text/plain", 415, "E_UNSUPPORTED_MEDIA_TYPE"),
        ("fake.pdf", b"GIF89a not a pdf", "application/pdf", 415, "E_UNSUPPORTED_MEDIA_TYPE"),
        ("broken.pdf", make_corrupt_pdf(), "application/pdf", 422, "E_PDF_CORRUPT"),
        ("locked.pdf", make_encrypted_pdf(), "application/pdf", 422, "E_PDF_ENCRYPTED"),
    ],
)
def test_upload_errors(client, name, payload, media, status, code):
    response = client.post("/api/v1/papers/ingest", files={"file": (name, payload, media)})
    assert response.status_code == status, response.text
    assert response.json()["error"] == code


def test_request_shape_errors(client):
    assert client.post("/api/v1/papers/ingest", content=b"x",
                       headers={"content-type": "text/plain"}).json()["error"] \
        == "E_UNSUPPORTED_MEDIA_TYPE"
    no_file = client.post("/api/v1/papers/ingest", files={"title": (None, "t")})
    assert no_file.status_code == 400 and no_file.json()["error"] == "E_INVALID_REQUEST"
    bad_json = client.post("/api/v1/papers/ingest", json={"title": "no url"})
    assert bad_json.status_code == 400 and bad_json.json()["error"] == "E_INVALID_REQUEST"
    not_http = client.post("/api/v1/papers/ingest", json={"url": "file:///etc/passwd"})
    assert not_http.status_code == 400 and not_http.json()["error"] == "E_FETCH_FAILED"


def test_upload_size_limits(services):
    big = b"%PDF-1.7\n" + b"0" * MAX_PDF_BYTES
    # the app limit above the PDF limit: the endpoint's own 15 MiB check answers
    roomy = TestClient(create_app(services, api_key="", max_body_bytes=32 * 1024 * 1024))
    response = roomy.post("/api/v1/papers/ingest",
                          files={"file": ("big.pdf", big, "application/pdf")})
    assert response.status_code == 413 and response.json()["error"] == "E_FILE_TOO_LARGE"
    # the streaming body limit: declared length, and a chunked body without a length
    small = TestClient(create_app(services, api_key="", max_body_bytes=1024 * 1024))
    declared = small.post("/api/v1/papers/ingest",
                          files={"file": ("big.pdf", big[: 2 * 1024 * 1024], "application/pdf")})
    assert declared.status_code == 413 and declared.json()["error"] == "E_FILE_TOO_LARGE"

    def chunks():
        for _ in range(40):
            yield b"0" * 65536

    chunked = small.post("/api/v1/papers/ingest", content=chunks(),
                         headers={"content-type": "multipart/form-data; boundary=x"})
    assert chunked.status_code == 413 and chunked.json()["error"] == "E_FILE_TOO_LARGE"


@pytest.mark.parametrize("path", ["verify", "notebook", "run", "report"])
def test_ids_are_validated(client, path):
    bad = client.get(f"/api/v1/papers/NOT-AN-ID/{path}")
    assert bad.status_code == 400 and bad.json()["error"] == "E_INVALID_PAPER_ID"
    missing = client.get(f"/api/v1/papers/{'0' * 16}/{path}")
    assert missing.status_code == 404 and missing.json()["error"] == "E_PAPER_NOT_FOUND"
    assert client.post("/api/v1/papers/..%2Fetc/extract").status_code in (400, 404)
    assert client.post(f"/api/v1/papers/{'0' * 16}/extract").json()["error"] \
        == "E_PAPER_NOT_FOUND"
    assert client.get("/api/v1/papers/runs/not-a-uuid").json()["error"] == "E_INVALID_RUN_ID"


def test_verify_materializes_once_then_reads(client, instance, paper_id):
    first = client.get(f"/api/v1/papers/{paper_id}/verify")
    assert first.status_code == 200, first.text
    body = first.json()
    assert set(body) >= {"reproducible", "reasoning", "missing_elements", "method"}
    assert body["method"] == "heuristic" and body["dagster_run_id"]
    assert materialized(instance, "reproducibility_verdict", paper_id) == [body["dagster_run_id"]]
    cached = client.get(f"/api/v1/papers/{paper_id}/verify").json()
    assert cached["dagster_run_id"] is None and cached["reasoning"] == body["reasoning"]
    fresh = client.get(f"/api/v1/papers/{paper_id}/verify", params={"refresh": "true"}).json()
    assert fresh["dagster_run_id"] not in (None, body["dagster_run_id"])


def test_verify_llm_failures_answer_the_seed_codes(client, paper_id, monkeypatch):
    """Issue #13: LLM errors during verify were swallowed into a note; now the API answers the
    code (500 E_VERIFY_OPENAI_ERROR, 429 E_POLICY_CAP_EXCEEDED) with the checklist kept."""
    from tests.fakes.openai_server import OpenAIServer

    with OpenAIServer() as server:
        for key, value in server.env(REPRO_LLM_CACHE="0").items():
            monkeypatch.setenv(key, value)
        server.reply_status(401, message="Incorrect API key provided")
        failed = client.get(f"/api/v1/papers/{paper_id}/verify", params={"refresh": "true"})
        for n in range(11):
            server.reply_tool_call("search_paper", {"query": f"dataset {n}", "k": 1})
        capped = client.get(f"/api/v1/papers/{paper_id}/verify", params={"refresh": "true"})
    assert failed.status_code == 500, failed.text
    body = failed.json()
    assert body["error"] == "E_VERIFY_OPENAI_ERROR" and body["dagster_run_id"]
    assert body["checklist_verdict"]["method"] == "heuristic"
    assert capped.status_code == 429 and capped.json()["error"] == "E_POLICY_CAP_EXCEEDED"


def test_extract_streams_the_seed_events(client, instance, paper_id):
    response = client.post(f"/api/v1/papers/{paper_id}/extract")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = parse_sse(response.text)
    names = [name for name, _ in events]
    assert set(names) <= SEED_EVENTS and "error" not in names, names
    assert names[0] == "extract_start" and names[-1] == "extract_complete"
    assert names.index("persist_start") < names.index("persist_done") < len(names) - 1
    stages = [(d["stage"], d["status"]) for n, d in events if n == "stage_update"]
    assert ("paper_claims", "started") in stages and ("paper_claims", "succeeded") in stages
    assert ("paper_claims", "checked") in stages
    run_id = events[0][1]["dagster_run_id"]
    assert materialized(instance, "paper_claims", paper_id)[0] == run_id
    final = events[-1][1]
    assert final["method"] == "heuristic" and final["dagster_run_id"] == run_id
    wine = [c for c in final["claims"] if c["metric_name"] == "accuracy"]
    assert wine and abs(wine[0]["metric_value"] - 0.972) < 1e-9
    assert wine[0]["source_citation"] and wine[0]["evidence"]["page"] == 2
    persist = dict(events)["persist_done"]
    assert persist["claims_count"] == len(final["claims"])


def test_extract_streams_search_calls_and_tokens_of_the_llm(client, monkeypatch):
    """Issue #13: against an OpenAI-compatible server the model made two search_paper calls and
    the SSE stream showed neither, nor any token. Now each call is a file_search_call and the
    answer's text arrives as token deltas while the model writes it."""
    from tests.fakes.openai_server import OpenAIServer

    data = make_pdf(["# Abstract\nWe study linear SVMs on the Wine dataset.",
                     "# 3 Results\nThe streamed model achieves 97.2% accuracy on the Wine test "
                     "split."], title="Streaming SVMs")
    paper = client.post("/api/v1/papers/ingest",
                        files={"file": ("stream.pdf", data, "application/pdf")}).json()["paper_id"]
    answer = {"claims": [{
        "dataset_name": "Wine", "split": "test", "metric_name": "accuracy", "metric_value": 0.972,
        "units": "%", "method_snippet": "linear SVM", "source_citation": "Section 3, page 2",
        "confidence": 0.9, "page": 2,
        "quoted_text": "The streamed model achieves 97.2% accuracy on the Wine test split."}]}
    with OpenAIServer() as server:
        server.reply_tool_call("search_paper", {"query": "accuracy on Wine", "k": 2})
        server.reply_tool_call("search_paper", {"query": "test split results", "k": 3})
        server.reply_json(answer)
        for key, value in server.env(REPRO_LLM_CACHE="0").items():
            monkeypatch.setenv(key, value)
        events = parse_sse(client.post(f"/api/v1/papers/{paper}/extract").text)
        streamed = [r.stream for r in server.chat_requests]
    names = [name for name, _ in events]
    assert set(names) <= SEED_EVENTS and names[-1] == "extract_complete", names
    searches = [d for n, d in events if n == "file_search_call"]
    assert [(d["query"], d["k"], d["stage"]) for d in searches] == [
        ("accuracy on Wine", 2, "paper_claims"), ("test split results", 3, "paper_claims")]
    tokens = [d["delta"] for n, d in events if n == "token"]
    assert len(tokens) >= 1 and json.loads("".join(tokens)) == answer
    assert streamed == [True, True, True]
    assert names.index("file_search_call") < names.index("token") < names.index("persist_start")
    assert events[-1][1]["method"] == "llm"


def test_extract_error_event_carries_the_seed_code(client):
    data = make_pdf(["# Abstract\nNo numbers at all in this paper.", "# Method\nWe think."],
                    title="Vague")
    ingest = client.post("/api/v1/papers/ingest",
                         files={"file": ("vague.pdf", data, "application/pdf")})
    events = parse_sse(client.post(f"/api/v1/papers/{ingest.json()['paper_id']}/extract").text)
    name, error = events[-1]
    assert name == "error" and error["error"] == "E_EXTRACT_NO_OUTPUT" and error["status"] == 500
    # without claims there is nothing to plan
    plan = client.post(f"/api/v1/papers/{ingest.json()['paper_id']}/plan", json={})
    assert plan.status_code == 404 and plan.json()["error"] == "E_PLAN_NOT_READY"


def test_plan_returns_the_seed_payload(client, instance, paper_id):
    client.post(f"/api/v1/papers/{paper_id}/extract")  # claims exist (idempotent)
    response = client.post(f"/api/v1/papers/{paper_id}/plan", json={
        "claims": [{"dataset_name": "Wine", "metric_name": "accuracy", "metric_value": 0.972},
                   {"dataset_name": "ImageNet", "metric_name": "top-1", "metric_value": 0.8}],
        "budget_minutes": 5,
    })
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["plan_version"] == "1.1" and body["plan_id"]
    assert body["plan_json"]["version"] == "1.1"
    assert body["plan_json"]["policy"]["budget_minutes"] == 5
    assert body["data_resolution"]["status"] and isinstance(body["warnings"], list)
    assert any("ImageNet" in w for w in body["warnings"])
    assert not any("Wine/accuracy" in w for w in body["warnings"])
    assert materialized(instance, "reproduction_plan", paper_id)[0] == body["dagster_run_id"]
    too_long = client.post(f"/api/v1/papers/{paper_id}/plan", json={"budget_minutes": 30})
    assert too_long.status_code == 422 and too_long.json()["error"] == "E_PLAN_GUARDRAIL_FAILED"
    invalid = client.post(f"/api/v1/papers/{paper_id}/plan", json={"budget_minutes": 0})
    assert invalid.status_code == 422


TWO_DATASETS = [
    "# Abstract\n"
    "We study linear support vector machines on two small UCI datasets.\n"
    "# 1 Method\n"
    "We train a linear SVM with C = 1.0 and the random seed 7.",
    "# 2 Results\n"
    "Our linear SVM achieves 96.5% accuracy on the Breast Cancer Wisconsin dataset.\n"
    "On the Wine dataset our linear SVM reaches 97.2% accuracy.",
]


def test_plan_targets_the_requested_claim(client):
    """Issue #13: a Wine claim in the request was ignored and the plan was for Breast Cancer."""
    data = make_pdf(TWO_DATASETS, title="SVMs on two datasets")
    paper = client.post("/api/v1/papers/ingest",
                        files={"file": ("two.pdf", data, "application/pdf")}).json()["paper_id"]
    extract = parse_sse(client.post(f"/api/v1/papers/{paper}/extract").text)
    claims = {(c["dataset_key"], c["metric_value"]) for c in extract[-1][1]["claims"]}
    assert {("breastcancerwisconsin", 0.965), ("wine", 0.972)} <= claims
    for request, dataset, goal in (
            ({"dataset_name": "Wine", "metric_name": "accuracy", "metric_value": 0.972},
             "wine", 0.972),
            ({"dataset_name": "Breast Cancer", "metric_name": "Accuracy", "metric_value": 96.5},
             "breast_cancer", 0.965)):
        response = client.post(f"/api/v1/papers/{paper}/plan", json={"claims": [request]})
        assert response.status_code == 200, response.text
        plan = response.json()["plan_json"]
        assert (plan["dataset"]["name"], plan["metrics"]["goal_value"]) == (dataset, goal)
    missing = client.post(f"/api/v1/papers/{paper}/plan", json={"claims": [
        {"dataset_name": "Wine", "metric_name": "accuracy", "metric_value": 0.5}]})
    assert missing.status_code == 422 and missing.json()["error"] == "E_PLAN_CLAIM_NOT_FOUND"
    assert "Wine/accuracy=0.972" in missing.json()["grounded_claims"]


def test_reproduce_then_read_notebook_run_and_report(client, instance, paper_id):
    client.post(f"/api/v1/papers/{paper_id}/plan", json={"budget_minutes": 5})
    for path in ("run", "report"):
        before = client.get(f"/api/v1/papers/{paper_id}/{path}")
        if before.status_code == 404:
            assert before.json()["error"] in ("E_RUN_NOT_FOUND", "E_REPORT_NOT_FOUND")
    started = client.post(f"/api/v1/papers/{paper_id}/reproduce")
    assert started.status_code == 202, started.text
    run_id = started.json()["dagster_run_id"]
    deadline = time.monotonic() + 240
    while True:
        status = client.get(f"/api/v1/papers/runs/{run_id}").json()
        if "success" in status or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert status.get("success") is True, status
    assert status["materialized"] == ["reproduction_notebook", "reproduction_report",
                                      "reproduction_run"]
    assert status["status"] == "SUCCESS" and status["partition"] == paper_id
    notebook = client.get(f"/api/v1/papers/{paper_id}/notebook").json()
    assert notebook["notebook"]["nbformat"] == 4 and notebook["parameters"]
    run = client.get(f"/api/v1/papers/{paper_id}/run").json()
    assert run["metrics"]
    report = client.get(f"/api/v1/papers/{paper_id}/report").json()
    assert report["paper_id"] == paper_id
