"""The API over a real loopback socket (uvicorn), with raw curl-like requests, and the
``repro-assets api`` command's arguments."""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest
import uvicorn

from repro_assets.api.services import Services
from repro_assets.commands import api as api_command
from repro_assets.storage.blobstore import BlobStore

from .conftest import forms_app


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[int]:
    instance = dg.DagsterInstance.ephemeral()
    services = Services(blob_store=BlobStore(str(tmp_path / "blobs")),
                        instance_factory=lambda: instance)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(forms_app(services), host="127.0.0.1", port=port,
                            log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield port
    srv.should_exit = True
    thread.join(timeout=10)


def raw(port: int, method: str, path: str, body: bytes = b"",
        headers: dict[str, str] | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, (json.loads(data) if data else {})


def multipart(parts: list[tuple[str, str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    out = b""
    for name, filename, data in parts:
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; "
                f"filename=\"{filename}\"\r\nContent-Type: application/pdf\r\n\r\n").encode()
        out += data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return out, f"multipart/form-data; boundary={boundary}"


def test_curl_like_requests(server: int, sample_bundles: dict) -> None:
    bundle = sample_bundles["intake_gonzalez"]
    parts = [("input_docs", p.name, p.read_bytes()) for p in sorted(
        (bundle / "input_docs").iterdir())]
    parts.append(("input_docs", "../../../etc/evil.pdf", b"%PDF-1.4 not really"))
    body, ctype = multipart(parts)
    status, answer = raw(server, "POST", "/api/runs", body, {"Content-Type": ctype})
    assert status == 200 and answer["status"] == "completed"
    run_id = answer["run_id"]
    status, final = raw(server, "GET", f"/api/runs/{run_id}/artifacts/final")
    assert status == 200 and final["fields"]["full_name"]["status"] == "filled"
    status, index = raw(server, "GET", f"/api/runs/{run_id}/artifacts/doc_index")
    assert index[-1]["filename"] == "evil.pdf"  # the path part of an upload name is dropped
    assert index[-1]["unreadable_reason"] == "parse_error"
    for path in ("/api/runs/../../etc/passwd", f"/api/runs/{run_id}/artifacts/../../input",
                 f"/api/runs/{run_id}/artifacts/..%2F..%2Finput%2Frequest",
                 "/api/runs/%2E%2E%2F%2E%2E/artifacts/final"):
        status, answer = raw(server, "GET", path)
        assert status in (400, 404), path
        assert "run_id" not in answer
    status, answer = raw(server, "POST", "/api/runs", b"", {"Content-Length": str(20 << 20),
                                                           "Content-Type": ctype})
    assert status == 413 and answer["error"] == "E_FILE_TOO_LARGE"


def test_api_command_arguments() -> None:
    parser = argparse.ArgumentParser()
    api_command.register(parser.add_subparsers())
    args = parser.parse_args(["api"])
    assert (args.host, args.port, args.func) == ("127.0.0.1", 8000, api_command.cmd_api)
    assert parser.parse_args(["api", "--host", "0.0.0.0", "--port", "9000"]).port == 9000
