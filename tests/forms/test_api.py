"""The HTTP API (FastAPI TestClient): the seed's run endpoints (run through forms_job on a
Dagster instance), slice 2's filled form and evidence crops, errors, traversal attempts,
upload limits, API-key auth and closed CORS."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import pytest
from fastapi.testclient import TestClient

from repro_assets.api.app import create_app
from repro_assets.api.services import Services
from repro_assets.forms.samples import text_pdf_bytes
from repro_assets.storage.blobstore import BlobStore

from .conftest import bundle_files, forms_app


@pytest.fixture()
def services(tmp_path: Path) -> Services:
    instance = dg.DagsterInstance.ephemeral()
    return Services(blob_store=BlobStore(str(tmp_path / "blobs")),
                    instance_factory=lambda: instance)


@pytest.fixture()
def client(services: Services) -> TestClient:
    return TestClient(forms_app(services))


def files_of(bundle: Path) -> list[tuple[str, tuple[str, bytes, str]]]:
    parts = [("input_docs", (f.filename, f.data, "application/pdf"))
             for f in bundle_files(bundle)]
    parts += [("target_docs", (f.filename, f.data, "application/pdf"))
              for f in bundle_files(bundle, "target_docs")]
    return parts


def test_post_run_and_get_artifacts(client: TestClient, services: Services,
                                    sample_bundles: dict) -> None:
    bundle = sample_bundles["referral_chen"]
    parts = files_of(bundle) + [("schema_json", ("schema.json",
                                                 (bundle / "schema.json").read_bytes(),
                                                 "application/json"))]
    response = client.post("/api/runs", files=parts, data={"options": '{"top_k_docs": 2}'})
    assert response.status_code == 200, response.text
    body = response.json()
    run_id = body["run_id"]
    assert body["status"] == "completed"
    assert body["artifacts"] == {"schema": f"runs/{run_id}/artifacts/schema.json",
                                 "final": f"runs/{run_id}/artifacts/final.json"}
    assert services.blob_store.exists(body["artifacts"]["final"])
    final = client.get(f"/api/runs/{run_id}/artifacts/final").json()
    assert final["run_id"] == run_id and final["fields"]["dob"]["status"] == "needs_review"
    schema = client.get(f"/api/runs/{run_id}/artifacts/schema").json()
    assert schema["unsupported_fields"] == ["emergency_contact"]
    routing = client.get(f"/api/runs/{run_id}/artifacts/routing").json()
    assert all(len(r["doc_ids"]) <= 2 for r in routing)
    for name in ("doc_index", "layout", "candidates"):
        assert client.get(f"/api/runs/{run_id}/artifacts/{name}").status_code == 200
    # no fillable target: no filled form
    response = client.get(f"/api/runs/{run_id}/artifacts/filled")
    assert response.status_code == 404 and response.json()["error"] == "artifact_not_found"
    # the evidence crops final.json links to are served as PNG
    image = final["fields"]["full_name"]["evidence_images"][0]
    png = client.get(f"/api/runs/{run_id}/evidence/{image.rsplit('/', 1)[-1]}")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content.startswith(b"\x89PNG")
    # a run of the forms job on the instance, for the same partition
    instance = services.instance()
    assert run_id in instance.get_dynamic_partitions("form_runs")
    run = instance.get_run_by_id(body["dagster_run_id"])
    assert run.job_name == "forms_job" and run.tags["dagster/partition"] == run_id


def test_post_run_with_target_serves_the_filled_form(client: TestClient,
                                                     sample_bundles: dict) -> None:
    import pymupdf

    bundle = sample_bundles["intake_gonzalez"]
    response = client.post("/api/runs", files=files_of(bundle))
    assert response.status_code == 200, response.text
    body = response.json()
    run_id = body["run_id"]
    assert body["artifacts"]["filled"] == f"runs/{run_id}/artifacts/filled.pdf"
    pdf = client.get(f"/api/runs/{run_id}/artifacts/filled")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    with pymupdf.open(stream=pdf.content, filetype="pdf") as doc:
        values = {w.field_name: w.field_value for w in doc[0].widgets()}
    assert values["patient_name"] == "Maria Gonzalez"
    review = client.get(f"/api/runs/{run_id}/artifacts/review").json()
    assert review["target_doc_id"] == "target_001" and review["written"]
    for bad in ("../final", "evidence", "x.png", "..%2Ffinal.json"):
        response = client.get(f"/api/runs/{run_id}/evidence/{bad}")
        assert response.status_code in (400, 404), bad


def test_no_input_docs(client: TestClient, sample_bundles: dict) -> None:
    bundle = sample_bundles["intake_gonzalez"]
    only_target = [("target_docs", ("form.pdf", b"%PDF-1.4", "application/pdf"))]
    for kwargs in ({"files": only_target}, {"data": {"options": "{}"}}, {}):
        response = client.post("/api/runs", **kwargs)
        assert response.status_code == 400, (kwargs, response.text)
        assert response.json()["error"] == "no_input_docs"
    assert bundle.exists()


def test_bad_options_and_schema(client: TestClient) -> None:
    doc = [("input_docs", ("a.pdf", text_pdf_bytes("Name: A B"), "application/pdf"))]
    bad = client.post("/api/runs", files=doc, data={"options": '{"top_k_docs": "x"}'})
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_options"
    bad = client.post("/api/runs", files=doc + [("schema_json", ("s.json", b"{no", "a/json"))])
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_schema_json"
    wrong = json.dumps({"fieldz": [{"key": "dob"}]}).encode()
    bad = client.post("/api/runs", files=doc + [("schema_json", ("s.json", wrong, "a/json"))])
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_schema_json"


def test_artifact_errors_and_traversal(client: TestClient, services: Services) -> None:
    run_id = "2025-12-12T11-32-01Z_ab12cd"
    response = client.get(f"/api/runs/{run_id}/artifacts/final")
    assert response.status_code == 404 and response.json()["error"] == "artifact_not_found"
    response = client.get(f"/api/runs/{run_id}/artifacts/request")
    assert response.status_code == 400 and response.json()["error"] == "invalid_artifact_name"
    # a secret beside the runs folder must never be served
    services.blob_store.write_text("secret.json", json.dumps({"secret": True}))
    attempts = [
        "/api/runs/..%2F..%2Fsecret/artifacts/final",
        "/api/runs/%2e%2e/artifacts/final",
        "/api/runs/..%252F/artifacts/final",
        f"/api/runs/{run_id}/artifacts/..%2F..%2F..%2Fsecret",
        f"/api/runs/{run_id}/artifacts/final%00",
        "/api/runs/../../secret.json",
    ]
    for path in attempts:
        response = client.get(path)
        assert response.status_code in (400, 404), (path, response.status_code)
        assert response.json() != {"secret": True}
    bad = client.get("/api/runs/2025-12-12T11-32-01Z_AB12CD/artifacts/final")
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_run_id"


def test_upload_limit_20_mib(client: TestClient, services: Services) -> None:
    big = b"%PDF-1.4\n" + b"0" * (20 * 1024 * 1024)
    response = client.post("/api/runs", files=[("input_docs", ("big.pdf", big,
                                                               "application/pdf"))])
    assert response.status_code == 413
    assert response.json()["error"] == "E_FILE_TOO_LARGE"
    assert services.blob_store.list("runs") == []


def test_upload_limit_while_streaming(services: Services) -> None:
    client = TestClient(create_app(services, api_key="", max_body_bytes=1024 * 1024))
    boundary = "XBOUNDARY"

    def body():
        yield (f"--{boundary}\r\nContent-Disposition: form-data; name=\"input_docs\"; "
               f"filename=\"a.pdf\"\r\nContent-Type: application/pdf\r\n\r\n").encode()
        for _ in range(40):
            yield b"1" * 65536
        yield f"\r\n--{boundary}--\r\n".encode()

    response = client.post("/api/runs", content=body(),
                           headers={"content-type": f"multipart/form-data; boundary={boundary}"})
    assert response.status_code == 413
    assert response.json()["error"] == "E_FILE_TOO_LARGE"


def test_api_key_and_cors(services: Services) -> None:
    client = TestClient(forms_app(services, api_key="s3cret"))
    url = "/api/runs/2025-12-12T11-32-01Z_ab12cd/artifacts/final"
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"X-API-Key": "wrong"}).json()["error"] == "unauthorized"
    assert client.get(url, headers={"X-API-Key": "s3cret"}).status_code == 404
    assert client.get("/healthz").status_code == 200
    preflight = client.options(url, headers={"Origin": "https://evil.example",
                                             "Access-Control-Request-Method": "GET"})
    assert "access-control-allow-origin" not in preflight.headers
    open_client = TestClient(forms_app(services, cors_origins=["https://app.example"]))
    allowed = open_client.get(url, headers={"Origin": "https://app.example"})
    assert allowed.headers["access-control-allow-origin"] == "https://app.example"


def test_env_api_key(services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_API_KEY", "from-env")
    client = TestClient(create_app(services))
    assert client.get("/api/runs/2025-12-12T11-32-01Z_ab12cd/artifacts/x").status_code == 401


def test_run_failed_when_run_folder_unwritable(services: Services, tmp_path: Path,
                                               sample_bundles: dict) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("not a folder")
    store = services.blob_store
    store._root_path = str(blocked)
    client = TestClient(forms_app(services))
    response = client.post("/api/runs", files=files_of(sample_bundles["scanned_okafor"]))
    assert response.status_code == 500
    assert response.json()["error"] == "run_failed" and response.json()["status"] == "failed"


def test_openapi_lists_form_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/runs" in paths and "/api/runs/{run_id}/artifacts/{name}" in paths
    assert "/api/runs/{run_id}/evidence/{image}" in paths
