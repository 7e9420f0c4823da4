"""Every route of the API: key check, path traversal, oversized names and bodies (issue #17).

Routes are enumerated from the app's OpenAPI document, so a route added later is covered
without editing this file. Public on purpose (no key): ``GET /healthz`` (liveness probes
carry no key), the OpenAPI document and its viewers (``/openapi.json``, ``/docs``,
``/docs/oauth2-redirect``, ``/redoc``: they describe routes, hold no data) and the static page
``/ui`` (it asks for the key and sends it with every call). The research WebSocket checks the
key itself (``?api_key=`` or the header; see ``tests/api/test_security.py``).
"""

from __future__ import annotations

import contextlib
import io
import os
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from repro_assets.api.app import create_app
from repro_assets.api.security import MULTIPART_ENVELOPE_BYTES
from repro_assets.papers.pdf import MAX_PDF_BYTES
from tests.pdfs import PAPER_PAGES, make_pdf

PUBLIC_OPERATIONS = {("get", "/healthz")}
PUBLIC_PAGES = ["/healthz", "/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc", "/ui/"]
CANARY = "canary-" + uuid.uuid4().hex

#: Values a client may put where the API expects a name or an id.
HOSTILE_NAMES = [
    "..", "../../../../etc/passwd", "..\\..\\..\\windows\\win.ini", "/etc/passwd",
    "%2e%2e%2f%2e%2e%2fcanary", "runs/../../canary", "../canary", "../../canary",
    "....//....//canary", "canary\x00.json", "name\r\nX-Injected: 1", "a" * 10_000,
]


def operations(app: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """``(method, path, operation)`` for every operation in the OpenAPI document."""
    return [(method, path, op) for path, ops in app.openapi()["paths"].items()
            for method, op in ops.items()]


def fill(path: str, op: dict[str, Any], value: str | None = None) -> str:
    """``path`` with every path parameter set to ``value`` (URL-encoded) or a placeholder."""
    for param in op.get("parameters", []):
        if param["in"] == "path":
            text = quote(value, safe="") if value is not None else "x"
            path = path.replace("{" + param["name"] + "}", text)
    return path


@pytest.fixture(scope="module")
def locked(services) -> TestClient:  # noqa: ANN001
    return TestClient(create_app(services, api_key="right-key", cors_origins=[]))


@pytest.fixture(scope="module")
def canaries(services) -> list[Path]:  # noqa: ANN001
    """A secret file at each place a traversal out of a store could land."""
    from repro_assets import settings

    places = [Path(settings.data_dir()), Path(settings.data_dir()).parent,
              Path(settings.blob_root()), Path(settings.blob_root()).parent]
    written = []
    for place in places:
        place.mkdir(parents=True, exist_ok=True)
        for name in ("canary", "canary.json", "canary.txt", "canary.png"):
            path = place / name
            path.write_text(f'{{"secret": "{CANARY}"}}')
            written.append(path)
    return written


# --------------------------------------------------------------------------- the API key
def test_every_operation_needs_the_key(locked: TestClient) -> None:
    checked = []
    for method, path, op in operations(locked.app):
        if (method, path) in PUBLIC_OPERATIONS:
            continue
        url = fill(path, op)
        for headers in ({}, {"X-API-Key": "wrong-key"}):
            answer = locked.request(method.upper(), url, headers=headers)
            assert answer.status_code == 401, (method, path, answer.status_code, answer.text)
            assert answer.json()["error"] == "unauthorized"
        checked.append(f"{method.upper()} {path}")
    assert len(checked) >= 20, checked  # the whole surface, not a handful


def test_public_pages_are_the_listed_ones(locked: TestClient) -> None:
    for page in PUBLIC_PAGES:
        assert locked.get(page).status_code == 200, page
    public = {(m, p) for m, p, op in operations(locked.app)
              if locked.request(m.upper(), fill(p, op)).status_code != 401}
    assert public == PUBLIC_OPERATIONS


# --------------------------------------------------------------------------- names and ids
def test_hostile_names_never_escape_or_crash(client: TestClient, canaries: list[Path]) -> None:
    tried = 0
    for method, path, op in operations(client.app):
        if "{" not in path:
            continue
        body = {"json": {}} if "application/json" in op.get("requestBody", {}).get(
            "content", {}) else {}
        for name in HOSTILE_NAMES:
            answer = client.request(method.upper(), fill(path, op, name), **body)
            tried += 1
            assert 400 <= answer.status_code < 500, (method, path, name[:40],
                                                     answer.status_code, answer.text[:300])
            assert CANARY not in answer.text, (method, path, name)
            assert "X-Injected" not in answer.headers
            assert answer.json().get("error"), (method, path, answer.text[:200])  # coded
    assert tried >= 15 * len(HOSTILE_NAMES) // 2


def test_oversized_bodies_are_refused_on_every_endpoint_that_takes_one(
    client: TestClient,
) -> None:
    too_big = MAX_PDF_BYTES + MULTIPART_ENVELOPE_BYTES + 1
    checked = []
    for method, path, op in operations(client.app):
        content = op.get("requestBody", {}).get("content", {})
        if not content:
            continue
        media = "application/json" if "application/json" in content else next(iter(content))
        payload = b'{"x": "' + b"a" * too_big + b'"}'
        answer = client.request(method.upper(), fill(path, op, "0" * 16), content=payload,
                                headers={"content-type": media})
        assert answer.status_code == 413, (method, path, answer.status_code)
        assert answer.json()["error"] == "E_FILE_TOO_LARGE"
        checked.append(path)
    assert "/api/runs" in checked and "/api/v1/papers/ingest" in checked


# --------------------------------------------------------------------------- uploaded file names
def _files_named(root: Path, fragment: str) -> list[Path]:
    # os.walk skips folders that other processes remove meanwhile (rglob raises on them)
    return [Path(folder) / name for folder, dirs, files in os.walk(root)
            for name in dirs + files if fragment in name]


def _stray_places(data_dir: Path, fragment: str) -> list[Path]:
    """Entries named ``fragment`` where an upload name could place a file: anywhere under the
    data dir's parent, and directly in each folder above it ('../' climbs only upwards; an
    absolute name such as /tmp/x lands in one of them). Never a walk of all of /tmp, which on a
    developer machine holds whole virtualenvs."""
    found = _files_named(data_dir.parent, fragment)
    for folder in [*data_dir.parent.parents, Path("/tmp")]:
        with contextlib.suppress(OSError):
            found += [folder / name for name in os.listdir(folder) if fragment in name]
    return found


@pytest.mark.parametrize("filename", [
    "../../../../escape-{tag}.pdf", "..\\..\\escape-{tag}.pdf", "/tmp/escape-{tag}.pdf",
    "escape-{tag}\x00.pdf", "escape-{tag}" + "x" * 5000 + ".pdf",
])
def test_upload_file_names_cannot_place_files(client: TestClient, filename: str,
                                              tmp_path: Path) -> None:
    from repro_assets import settings

    tag = uuid.uuid4().hex[:8]
    name = filename.format(tag=tag)
    pdf = make_pdf(PAPER_PAGES, title=f"Upload {tag}")
    paper = client.post("/api/v1/papers/ingest",
                        files={"file": (name, io.BytesIO(pdf), "application/pdf")})
    forms = client.post("/api/runs", files={"input_docs": (name, io.BytesIO(pdf),
                                                           "application/pdf")})
    for answer in (paper, forms):  # stored under its own id, or refused with a code
        assert answer.status_code == 200 or (400 <= answer.status_code < 500
                                             and answer.json().get("error")), answer.text[:300]
    if paper.status_code == 200:
        assert f"escape-{tag}" not in paper.json()["storage_path"]
    stray = [p for p in _stray_places(Path(settings.data_dir()).resolve(), f"escape-{tag}")
             if p.is_file()]
    assert stray == [], stray
    assert not os.path.exists(f"/tmp/escape-{tag}.pdf")
