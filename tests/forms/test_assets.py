"""The Dagster layer: the forms job on an ephemeral instance, checks, the drop-folder sensor,
SHOWS, the filled-form asset and the demo hook."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import dagster as dg
import pytest

from repro_assets.assets import forms as F
from repro_assets.demo import DemoContext
from repro_assets.demos import forms as forms_demo
from repro_assets.forms import views as forms_views
from repro_assets.forms.invariants import evidence_violations, filled_check
from repro_assets.forms.ocr import tessdata
from repro_assets.forms.pipeline import ingest
from repro_assets.forms.samples import text_pdf_bytes
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.resources.llm import LLMResource
from repro_assets.sensors import forms as forms_sensors

from .conftest import bundle_files, forms_definitions


@pytest.fixture()
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    monkeypatch.setenv("REPRO_BLOB_ROOT", str(tmp_path / "blobs"))
    monkeypatch.setenv("REPRO_INBOX_ROOT", str(tmp_path / "inbox"))
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path / "data"))
    resources = {"blob_store": BlobStoreResource(), "inbox": DropFolderResource(),
                 "llm": LLMResource(provider="offline")}
    defs = forms_definitions(resources)
    return {"tmp": tmp_path, "resources": resources, "defs": defs,
            "instance": dg.DagsterInstance.ephemeral()}


def check_results(result: dg.ExecuteInProcessResult) -> dict[str, bool]:
    return {e.asset_check_evaluation_data.check_name: e.asset_check_evaluation_data.passed
            for e in result.all_events if e.event_type_value == "ASSET_CHECK_EVALUATION"}


def test_sensor_job_checks_and_show(env: dict, sample_bundles: dict) -> None:
    inbox = env["tmp"] / "inbox" / "forms"
    inbox.mkdir(parents=True)
    shutil.copytree(sample_bundles["referral_chen"], inbox / "referral_chen")
    shutil.copytree(sample_bundles["scanned_okafor"], inbox / "pending")
    (inbox / "pending" / "READY").unlink()  # not ready yet: ignored
    (inbox / "empty").mkdir()
    (inbox / "empty" / "READY").write_text("")
    (inbox / "bad_options" / "input_docs").mkdir(parents=True)
    (inbox / "bad_options" / "input_docs" / "a.pdf").write_bytes(text_pdf_bytes("Name: A B"))
    (inbox / "bad_options" / "options.json").write_text('{"top_k_docs": "many"}')
    (inbox / "bad_options" / "READY").write_text("")

    instance = env["instance"]
    ctx = dg.build_sensor_context(instance=instance, resources=env["resources"])
    result = forms_sensors.forms_dropfolder_sensor(ctx)
    assert len(result.run_requests) == 1
    (request,) = result.run_requests
    assert request.tags["forms/bundle"] == "referral_chen"
    assert result.dynamic_partitions_requests[0].partition_keys == [request.partition_key]
    rejected = sorted(p.name for p in (inbox / "rejected").iterdir())
    assert rejected == ["bad_options", "bad_options.error.json", "empty", "empty.error.json"]
    error = json.loads((inbox / "rejected" / "empty.error.json").read_text())
    assert error["code"] == "no_input_docs"
    assert json.loads((inbox / "rejected" / "bad_options.error.json").read_text())["code"] \
        == "invalid_options"

    again = forms_sensors.forms_dropfolder_sensor(dg.build_sensor_context(
        instance=instance, resources=env["resources"], cursor=result.cursor))
    assert again.run_requests == []  # same READY marker: no second run

    instance.add_dynamic_partitions("form_runs", [request.partition_key])
    run = env["defs"].resolve_job_def("forms_job").execute_in_process(
        instance=instance, partition_key=request.partition_key)
    assert run.success
    assert len(run.get_asset_materialization_events()) == 7
    checks = check_results(run)
    assert len(checks) == 10 and all(checks.values()), checks
    final_meta = next(e for e in run.get_asset_materialization_events()
                      if e.asset_key == dg.AssetKey("form_final")).materialization.metadata
    assert final_meta["needs_review"].value >= 1
    assert "| dob | needs_review |" in final_meta["fields"].value
    # evidence crops are linked from the markdown through the API (http: the UI loads them)
    assert f"](http://127.0.0.1:8000/api/runs/{request.partition_key}/evidence/dob_1.png)" \
        in final_meta["fields"].value
    shown = forms_views.SHOWS["form_final"](request.partition_key)
    assert shown["fields"]["full_name"]["normalized_value"] == "Daniel Chen"


def test_asset_fails_without_ingested_run(env: dict) -> None:
    instance = env["instance"]
    key = "2025-01-01T00-00-00Z_abcdef"
    instance.add_dynamic_partitions("form_runs", [key])
    result = dg.materialize([F.form_schema], instance=instance, partition_key=key,
                            resources=env["resources"], raise_on_error=False)
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    assert failure.step_failure_data.user_failure_data.metadata["code"].value == "run_not_found"


def test_evidence_violation_detector() -> None:
    from repro_assets.forms.models import FinalField, FinalResult

    final = FinalResult(run_id="r", schema_source="fallback_v1", fields={
        "dob": FinalField(field="dob", status="filled", value="x", normalized_value="x",
                          confidence=1.0, rationale=[], evidence=[]),
        "phone": FinalField(field="phone", status="missing", value=None, normalized_value=None,
                            confidence=0.0, rationale=[])})
    assert evidence_violations(final) == ["dob"]


def test_form_filled_asset_metadata_and_check(env: dict, sample_bundles: dict) -> None:
    store = env["resources"]["blob_store"].get_store()
    bundle = sample_bundles["intake_gonzalez"]
    folder = ingest(store, bundle_files(bundle), target_docs=bundle_files(bundle, "target_docs"))
    instance = env["instance"]
    instance.add_dynamic_partitions("form_runs", [folder.run_id])
    run = env["defs"].resolve_job_def("forms_job").execute_in_process(
        instance=instance, partition_key=folder.run_id)
    assert run.success
    checks = check_results(run)
    assert checks["filled_form_matches_final"] and checks["review_artifact_valid"]
    meta = next(e for e in run.get_asset_materialization_events()
                if e.asset_key == dg.AssetKey("form_filled")).materialization.metadata
    assert meta["widgets_written"].value >= 5
    assert meta["filled_pdf_url"].value.endswith(f"/api/runs/{folder.run_id}/artifacts/filled")
    assert "| patient_name | 1 | full_name | Maria Gonzalez |" in meta["fill"].value
    # the check fails when the filled form says something final.json did not fill
    import pymupdf

    pdf = pymupdf.open(stream=folder.read_binary("filled.pdf"), filetype="pdf")
    page = pdf[0]
    widget = next(w for w in page.widgets() if w.field_name == "patient_name")
    widget.field_value = "Someone Else"
    widget.update()
    folder.write_binary("filled.pdf", pdf.tobytes())
    passed, details = filled_check(folder)
    assert not passed and "unexpected_value:patient_name" in details["problems"]


def test_demo_hook_runs_samples_and_reuses_runs(env: dict, sample_bundles: dict,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    samples = env["tmp"] / "data" / "samples" / "forms"
    shutil.copytree(next(iter(sample_bundles.values())).parent, samples)
    ctx = DemoContext(instance=env["instance"], defs=env["defs"])
    rows = forms_demo.demo(ctx)
    assert [r.ok for r in rows] == [True, True, True]
    gonzalez = next(r for r in rows if "intake_gonzalez" in r.figures)
    assert gonzalez.assets == 7 and "filled.pdf: " in gonzalez.figures
    assert any("full_name" in d and "filled" in d and "Patient Name: Maria Gonzalez" in d
               for d in gonzalez.details)
    scanned = next(r for r in rows if "scanned_okafor" in r.figures)
    # read by OCR when Tesseract's data is installed: name, DOB, phone, id offered for review
    assert ("4 review" if tessdata() else "7 missing") in scanned.figures
    again = forms_demo.demo(ctx)
    assert sorted(r.partition for r in again) == sorted(r.partition for r in rows)
