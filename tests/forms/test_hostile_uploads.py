"""Forms uploads are parsed in the limited PDF worker, never in the calling process (#27).

Every parse of an uploaded document (text-layer probe, text, OCR, widgets, evidence crops,
filling the target) is a task of :mod:`repro_assets.papers.sandbox`'s worker. A content-stream
bomb dropped as an input or as a target ends as a coded refusal (``E_PDF_TOO_COMPLEX``) in
doc_index.json and the trace, the run completes without the document (the seed's "all docs
unreadable -> fields missing"), nothing half-written, and the calling process does not grow.
"""

from __future__ import annotations

import resource
from pathlib import Path

import dagster as dg
import pymupdf
import pytest
from fastapi.testclient import TestClient

from repro_assets.api.services import Services
from repro_assets.forms.models import RunOptions
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import fillable_pdf_bytes, text_pdf_bytes
from repro_assets.forms.schema import resolve_schema
from repro_assets.storage.blobstore import BlobStore
from tests.reliability.hostile import content_bomb

from .conftest import RunHelper, forms_app

MIB_AS_KIB = 1024


@pytest.fixture(scope="module")
def bomb() -> bytes:
    data = content_bomb()
    assert len(data) < 250_000
    return data


def _peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _no_parsing_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("an uploaded PDF was parsed in the calling process")

    monkeypatch.setattr(pymupdf, "open", refuse)
    monkeypatch.setattr(pymupdf, "Document", refuse)


def test_every_parse_of_a_run_happens_in_the_worker(run_bundle: RunHelper,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    docs = [UploadedFile("note.pdf", text_pdf_bytes(
        "Patient Name: Orla Quenby\nDate of Birth: 03/14/1981\nPhone: (415) 555-0143"))]
    targets = [UploadedFile("form.pdf", fillable_pdf_bytes(["patient_name", "dob"]))]
    _no_parsing_here(monkeypatch)
    folder = run_bundle(docs=docs, targets=targets)
    final = folder.read_artifact("final")
    assert final.fields["full_name"].normalized_value == "Orla Quenby"
    assert final.fields["full_name"].evidence_images  # the crop was drawn (in the worker)
    review = folder.read_artifact("review")
    assert {w.widget for w in review.written} == {"patient_name", "dob"}
    failed = [e for e in folder.read_trace() if e.status == "error"]
    assert not failed, [(e.step, e.error) for e in failed]


def test_a_bomb_among_the_inputs_is_refused_with_a_code(
        run_bundle: RunHelper, bomb: bytes) -> None:
    before = _peak_kib()
    folder = run_bundle(docs=[UploadedFile("bomb.pdf", bomb), UploadedFile(
        "note.pdf", text_pdf_bytes("Patient Name: Orla Quenby"))])
    assert _peak_kib() - before < 300 * MIB_AS_KIB, "the bomb was parsed in this process"
    first, second = folder.read_artifact("doc_index")
    assert first.unreadable_reason == "parse_error" and first.error_code == "E_PDF_TOO_COMPLEX"
    assert second.unreadable_reason is None
    event = next(e for e in folder.read_trace() if e.step == "index_docs")
    assert event.error is not None and event.error.kind == "E_PDF_TOO_COMPLEX"
    assert "refused:doc_001:E_PDF_TOO_COMPLEX" in event.notes
    final = folder.read_artifact("final")
    assert final.fields["full_name"].normalized_value == "Orla Quenby"


def test_a_bomb_as_the_only_input_leaves_every_field_missing(
        run_bundle: RunHelper, bomb: bytes) -> None:
    folder = run_bundle(docs=[UploadedFile("bomb.pdf", bomb)])
    assert {f.status for f in folder.read_artifact("final").fields.values()} == {"missing"}


def test_a_bomb_as_the_target_is_refused_and_nothing_is_filled(
        run_bundle: RunHelper, bomb: bytes) -> None:
    before = _peak_kib()
    folder = run_bundle(docs=[UploadedFile("note.pdf", text_pdf_bytes(
        "Patient Name: Orla Quenby"))], targets=[UploadedFile("form.pdf", bomb)])
    assert _peak_kib() - before < 300 * MIB_AS_KIB
    assert folder.read_artifact("schema").schema_source == "fallback_v1"
    schema_event = next(e for e in folder.read_trace() if e.step == "resolve_schema")
    assert "refused:target_001:E_PDF_TOO_COMPLEX" in schema_event.notes
    fill_event = next(e for e in folder.read_trace() if e.step == "fill_pdf")
    assert "refused:target_001:E_PDF_TOO_COMPLEX" in fill_event.notes
    assert not folder.has_artifact("review")


def test_schema_resolution_reads_targets_in_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    target = fillable_pdf_bytes(["patient_name", "home_phone"])
    _no_parsing_here(monkeypatch)
    resolution = resolve_schema(None, [("target_001", target)], RunOptions())
    assert resolution.schema.schema_source == "fillable_pdf"
    assert {f.key for f in resolution.schema.resolved_fields} == {"full_name", "phone"}


@pytest.mark.reliability
def test_without_the_content_budget_the_workers_limits_stop_the_bomb(
        run_bundle: RunHelper, bomb: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_PDF_MAX_CONTENT_MB", "100000")
    monkeypatch.setenv("REPRO_PDF_MEMORY_MB", "512")
    before = _peak_kib()
    folder = run_bundle(docs=[UploadedFile("bomb.pdf", bomb)],
                        targets=[UploadedFile("form.pdf", bomb)])
    assert _peak_kib() - before < 300 * MIB_AS_KIB, "the bomb was parsed in this process"
    (item,) = folder.read_artifact("doc_index")
    assert item.error_code == "E_PDF_TOO_COMPLEX"
    assert not folder.has_artifact("review")


def test_a_bomb_behind_an_ordinary_first_page_is_refused(run_bundle: RunHelper) -> None:
    folder = run_bundle(docs=[UploadedFile("visit.pdf", content_bomb(ordinary_first_page=True))])
    (item,) = folder.read_artifact("doc_index")
    assert item.unreadable_reason == "parse_error" and item.error_code == "E_PDF_TOO_COMPLEX"


@pytest.mark.reliability
def test_the_api_run_of_a_bomb_its_first_page_check_let_through(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the API checks an upload up front (content budget, first page); with the budget lifted a
    # bomb on page 2 gets past that check, and the run's own reading must refuse it
    monkeypatch.setenv("REPRO_PDF_MAX_CONTENT_MB", "100000")
    monkeypatch.setenv("REPRO_PDF_MEMORY_MB", "512")
    instance = dg.DagsterInstance.ephemeral()
    services = Services(blob_store=BlobStore(str(tmp_path / "blobs")),
                        instance_factory=lambda: instance)
    client = TestClient(forms_app(services))
    bomb = content_bomb(ordinary_first_page=True)
    note = text_pdf_bytes("Patient Name: Orla Quenby")
    before = _peak_kib()
    answer = client.post("/api/runs", files=[
        ("input_docs", ("visit.pdf", bomb, "application/pdf")),
        ("input_docs", ("note.pdf", note, "application/pdf"))])
    assert _peak_kib() - before < 300 * MIB_AS_KIB, "the bomb was parsed in the API process"
    assert answer.status_code == 200, answer.text
    run_id = answer.json()["run_id"]
    first, second = client.get(f"/api/runs/{run_id}/artifacts/doc_index").json()
    assert first["unreadable_reason"] == "parse_error"
    assert first["error_code"] == "E_PDF_TOO_COMPLEX"
    assert second["unreadable_reason"] is None
    final = client.get(f"/api/runs/{run_id}/artifacts/final").json()
    assert final["fields"]["full_name"]["normalized_value"] == "Orla Quenby"
