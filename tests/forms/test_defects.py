"""One test per contract defect of issue #15 (each failed before its fix), and the two tests
that could not fail before (LLM-call assertions with a client that records calls; an atomic
write interrupted between the temporary file and the rename)."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import httpx
import pytest

from repro_assets.forms import pipeline
from repro_assets.forms.acroform import match_acroform_field
from repro_assets.forms.models import Candidate, CandidateScores, Evidence, RunOptions
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.runfolder import RunFolderError
from repro_assets.forms.samples import fillable_pdf_bytes, text_pdf_bytes
from repro_assets.forms.schema import resolve_schema
from repro_assets.forms.scoring import apply_agreement
from repro_assets.forms.validate import evidence_supports
from repro_assets.llm.base import REASK_TEMPLATE
from repro_assets.storage.blobstore import BlobStore
from tests.fakes.llm_wire import AnthropicWireFake, OpenAIWireFake

from .conftest import RunHelper, forms_definitions
from .test_llm import MESSY_LINE, field_events, llm_candidate

SCHEMA = {"fields": [{"key": "full_name"}, {"key": "dob"}, {"key": "insurance_member_id"}]}
ID_ONLY = {"fields": [{"key": "insurance_member_id"}]}


def not_found(field: str) -> dict:
    """The LLM's answer for "the value is not in the excerpts"."""
    answer = llm_candidate("", "", field=field)
    answer["evidence"] = []
    return answer


def sent_field(request) -> str:
    """The field key an extraction request asked for."""
    body = request.json
    user = body["messages"][-1]["content"] if "messages" in body else ""
    if isinstance(user, list):
        user = json.dumps(user)
    return user.split("Field: ", 1)[1].split(" ", 1)[0]


# ----------------------------------------------------------------------------- 1
def test_d01_run_options_choose_the_model(run_bundle: RunHelper, sample_bundles: dict) -> None:
    """llm_model is used; an explicit provider without a model gets the seed's default."""
    with OpenAIWireFake() as fake:
        fake.reply_json(llm_candidate("LKM-55102-8841", MESSY_LINE))
        folder = run_bundle(sample_bundles["referral_chen"], schema=ID_ONLY,
                            client=fake.make_client(),
                            options=RunOptions(llm_provider="openai", llm_model="gpt-4.1-mini"))
    assert fake.requests[0].json["model"] == "gpt-4.1-mini"
    (event,) = field_events(folder, "insurance_member_id")
    assert event.model_calls[0].model == "gpt-4.1-mini"

    with OpenAIWireFake() as fake:
        fake.reply_json(llm_candidate("LKM-55102-8841", MESSY_LINE))
        run_bundle(sample_bundles["referral_chen"], schema=ID_ONLY, client=fake.make_client(),
                   options=RunOptions(llm_provider="openai"))
    assert fake.requests[0].json["model"] == "gpt-4o-mini"  # seed: openai -> gpt-4o-mini


def test_d01_explicit_provider_is_never_swapped(run_bundle: RunHelper,
                                                sample_bundles: dict) -> None:
    """Asked for Anthropic but only an OpenAI client is at hand: no call to OpenAI."""
    with OpenAIWireFake() as fake:
        folder = run_bundle(sample_bundles["referral_chen"], schema=ID_ONLY,
                            client=fake.make_client(),
                            options=RunOptions(llm_provider="anthropic"))
    assert fake.requests == []
    (event,) = field_events(folder, "insurance_member_id")
    assert "warn:llm_provider_unavailable:anthropic" in event.notes


def test_d01_asset_builds_the_requested_provider(tmp_path: Path, sample_bundles: dict) -> None:
    """The Dagster asset builds the provider the run asks for from the deployment's keys."""
    from repro_assets.resources.blobstore import BlobStoreResource
    from repro_assets.resources.llm import LLMResource
    from tests.fakes.llm_wire import FAST_CLIENT_CONFIG

    from .conftest import bundle_files

    store = BlobStore(str(tmp_path / "blobs"))
    bundle = sample_bundles["referral_chen"]
    folder = pipeline.ingest(store, bundle_files(bundle), user_schema=ID_ONLY,
                             options=RunOptions(llm_provider="anthropic"))
    llm = LLMResource(provider="openai", openai_api_key="sk-test",
                      anthropic_api_key="sk-ant-test", **FAST_CLIENT_CONFIG)
    defs = forms_definitions({"blob_store": BlobStoreResource(root=store.root), "llm": llm})
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("form_runs", [folder.run_id])
    with AnthropicWireFake() as fake:  # an OpenAI request would be unmocked and fail
        fake.reply_json(llm_candidate("LKM-55102-8841", MESSY_LINE))
        result = defs.resolve_job_def("forms_job").execute_in_process(
            instance=instance, partition_key=folder.run_id)
    assert result.success
    assert len(fake.requests) == 1
    assert fake.requests[0].json["model"] == "claude-sonnet-4-20250514"


# ----------------------------------------------------------------------------- 2
def test_d02_zero_resolved_fields_still_trace_extract_candidates(run_bundle: RunHelper) -> None:
    from repro_assets.forms.invariants import trace_check

    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes("Name: Ann Lee"))],
                        schema={"fields": [{"key": "ssn"}]})
    assert folder.read_artifact("schema").resolved_fields == []
    events = [e for e in folder.read_trace() if e.step == "extract_candidates"]
    assert len(events) == 1 and "fields:0" in events[0].notes
    passed, meta = trace_check(folder)
    assert passed, meta


# ----------------------------------------------------------------------------- 3
@pytest.mark.parametrize(("name", "key"), [
    ("PatientName", "full_name"), ("HomePhone", "phone"), ("DateOfBirth", "dob"),
    ("phonenumber", "phone"), ("StreetAddress1", "address"), ("MemberID", "insurance_member_id"),
])
def test_d03_acroform_matching_is_contains(name: str, key: str) -> None:
    assert match_acroform_field(name) == (key, None)


# ----------------------------------------------------------------------------- 4
def test_d04_user_schema_with_extra_keys_is_still_the_schema() -> None:
    target = fillable_pdf_bytes(["phone", "street_address"])
    schema = {"version": 2, "fields": [{"key": "dob", "label": "Birth", "required": True},
                                       {"key": "full_name"}]}
    out = resolve_schema(schema, [("target_001", target)], RunOptions())
    assert out.schema.schema_source == "user_schema"
    assert [f.key for f in out.schema.resolved_fields] == ["dob", "full_name"]
    assert "ignored_schema_keys:version,fields[0].required" in out.warnings


def test_d04_invalid_user_schema_is_a_coded_error(store: BlobStore) -> None:
    from repro_assets.forms.runfolder import InvalidUserSchema

    with pytest.raises(InvalidUserSchema) as caught:
        pipeline.ingest(store, [UploadedFile("a.pdf", text_pdf_bytes("Name: A B"))],
                        user_schema={"fieldz": []})
    assert caught.value.code == "invalid_schema_json"
    assert store.list("runs") == []


# ----------------------------------------------------------------------------- 5
def test_d05_failing_validator_scores_zero_instead_of_rejecting(run_bundle: RunHelper) -> None:
    pdf = text_pdf_bytes("Patient Name: Tom Ray\nDOB: 07/04/2031")
    folder = run_bundle(docs=[UploadedFile("a.pdf", pdf)], schema={"fields": [{"key": "dob"}]})
    dob = folder.read_artifact("final").fields["dob"]
    assert dob.status == "needs_review" and dob.normalized_value == "2031-07-04"
    assert "validator_failed:not_in_future" in dob.rationale
    (winner,) = [c for c in folder.read_artifact("candidates") if c.field == "dob"]
    assert winner.accepted and winner.scores.validator == 0.0


# ----------------------------------------------------------------------------- 6
def test_d06_one_candidate_citing_two_docs_is_no_agreement() -> None:
    cand = Candidate(
        field="dob", raw_value="1980-01-02", normalized_value="1980-01-02",
        evidence=[Evidence(doc_id="doc_001", page=1, quoted_text="DOB: 1980-01-02"),
                  Evidence(doc_id="doc_002", page=1, quoted_text="DOB: 1980-01-02")],
        from_method="llm", scores=CandidateScores(anchor_match=1, validator=1, doc_relevance=1))
    (out,) = apply_agreement([cand])
    assert out.scores.cross_doc_agreement == 0.0


# ----------------------------------------------------------------------------- 7
@pytest.mark.parametrize(("value", "quote", "ok"), [
    ("+442079460958", "Phone: (207) 946-0958", False),
    ("+12079460958", "Phone: +44 20 7946 0958", False),
    ("+442079460958", "Phone: +44 20 7946 0958", True),
    ("+442079460958", "Phone: 0044 20 7946 0958", True),
    ("+12175550143", "tel 217.555.0143", True),
    ("+12175550143", "Phone: +1 (217) 555-0143", True),
])
def test_d07_phone_evidence_checks_the_country_code(value: str, quote: str, ok: bool) -> None:
    evidence = [Evidence(doc_id="doc_001", page=1, quoted_text=quote)]
    assert evidence_supports("phone", value, evidence) is ok


# ----------------------------------------------------------------------------- 8
def test_d08_llm_decision_uses_confidence_after_the_contradiction_penalty(
        run_bundle: RunHelper, sample_bundles: dict) -> None:
    """Two strong DOBs contradict: 0.90 - 0.30 < 0.75, so the one LLM call is made."""
    with OpenAIWireFake() as fake:
        fake.reply_json(not_found("dob"))
        fake.reply_json(not_found("insurance_member_id"))
        folder = run_bundle(sample_bundles["referral_chen"], schema=SCHEMA,
                            client=fake.make_client())
    assert [sent_field(r) for r in fake.requests] == ["dob", "insurance_member_id"]
    (event,) = field_events(folder, "dob")
    assert "llm_calls:1" in event.notes
    assert folder.read_artifact("final").fields["dob"].status == "needs_review"


# ----------------------------------------------------------------------------- 9
def test_d09_llm_failure_keeps_the_heuristic_winner(run_bundle: RunHelper,
                                                    sample_bundles: dict) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_status(429, headers={"Retry-After": "1"})
        folder = run_bundle(sample_bundles["referral_chen"],
                            schema={"fields": [{"key": "phone"}]}, client=fake.make_client())
    phone = folder.read_artifact("final").fields["phone"]
    assert phone.status == "needs_review" and phone.normalized_value == "+16085550199"
    assert "llm_rate_limited" in phone.rationale
    select_event = next(e for e in folder.read_trace() if e.step == "score_select")
    assert "phone:needs_review" in select_event.notes  # the trace agrees with final.json


# ----------------------------------------------------------------------------- 10
def test_d10_anthropic_reask_is_the_locked_prompt(run_bundle: RunHelper,
                                                  sample_bundles: dict) -> None:
    with AnthropicWireFake() as fake:
        fake.reply_malformed({"field": "insurance_member_id"})
        fake.reply_json(llm_candidate("LKM-55102-8841", MESSY_LINE))
        folder = run_bundle(sample_bundles["referral_chen"], schema=ID_ONLY,
                            client=fake.make_client())
    assert len(fake.requests) == 2
    locked = REASK_TEMPLATE.format(schema=json.dumps(Candidate.model_json_schema()))
    last = fake.requests[1].json["messages"][-1]
    texts = [block["content"] for block in last["content"] if block["type"] == "tool_result"] \
        if isinstance(last["content"], list) else [last["content"]]
    assert texts == [locked]
    assert folder.read_artifact("final").fields["insurance_member_id"].value == "LKM-55102-8841"


@pytest.mark.parametrize(("script", "reason"), [
    (lambda fake: fake.reply_status(429, headers={"Retry-After": "1"}), "llm_rate_limited"),
    (lambda fake: fake.reply_timeout(), "llm_timeout"),
])
def test_d10_failed_provider_calls_are_in_model_calls(run_bundle: RunHelper,
                                                      sample_bundles: dict, script,
                                                      reason: str) -> None:
    with AnthropicWireFake() as fake:
        script(fake)
        folder = run_bundle(sample_bundles["referral_chen"], schema=ID_ONLY,
                            client=fake.make_client())
    (event,) = field_events(folder, "insurance_member_id")
    (call,) = event.model_calls
    assert call.provider == "anthropic" and call.model == "claude-sonnet-4-20250514"
    assert call.error == reason and call.output_tokens == 0


# ----------------------------------------------------------------------------- 11
def test_d11_unexpected_extraction_error_only_loses_that_document(
        run_bundle: RunHelper, monkeypatch: pytest.MonkeyPatch) -> None:
    real = pipeline.read_text

    def flaky(doc_id: str, data: bytes, *args, **kwargs):
        if doc_id == "doc_002":
            raise RuntimeError("mupdf: cannot decode content stream")
        return real(doc_id, data, *args, **kwargs)

    monkeypatch.setattr(pipeline, "read_text", flaky)
    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes("Patient Name: Ann Lee")),
                              UploadedFile("b.pdf", text_pdf_bytes("DOB: 01/02/1980"))])
    final = folder.read_artifact("final")
    assert final.fields["full_name"].normalized_value == "Ann Lee"
    assert final.fields["dob"].status == "missing"
    event = next(e for e in folder.read_trace() if e.step == "extract_text")
    assert event.status == "warn" and "warn:parse_error:doc_002" in event.notes


# ----------------------------------------------------------------------------- 12
def test_d12_api_runs_are_dagster_runs_with_llm_token_metadata(tmp_path: Path,
                                                               sample_bundles: dict) -> None:
    from repro_assets.api.app import create_app
    from repro_assets.api.runner import JobRunner
    from repro_assets.api.services import Services
    from repro_assets.resources.blobstore import BlobStoreResource
    from repro_assets.resources.llm import LLMResource
    from tests.api.conftest import LiveServer
    from tests.fakes.llm_wire import FAST_CLIENT_CONFIG

    from .test_api import files_of

    instance = dg.DagsterInstance.ephemeral()
    store = BlobStore(str(tmp_path / "blobs"))
    app = create_app(Services(blob_store=store, instance_factory=lambda: instance),
                     api_key="", cors_origins=[])
    with OpenAIWireFake() as fake:
        fake.reply_json(llm_candidate("LKM-55102-8841", MESSY_LINE), usage=(812, 96))
        llm = LLMResource(provider="openai", openai_api_key="sk-test", **FAST_CLIENT_CONFIG)
        defs = forms_definitions({"blob_store": BlobStoreResource(), "llm": llm})
        app.state.job_runner = JobRunner(instance, defs=defs)
        bundle = sample_bundles["referral_chen"]
        schema = ("schema_json", ("schema.json", json.dumps(ID_ONLY).encode(),
                                  "application/json"))
        # a real socket: the TestClient speaks httpx2, which the wire fake intercepts
        with LiveServer(app) as server:
            response = httpx.post(f"{server.url}/api/runs", files=files_of(bundle) + [schema],
                                  timeout=120)
    assert response.status_code == 200, response.text
    body = response.json()
    run = instance.get_run_by_id(body["dagster_run_id"])
    assert run.job_name == "forms_job" and run.tags["repro/source"] == "api"
    assert run.tags["dagster/partition"] == body["run_id"]
    mat = instance.get_latest_materialization_event(dg.AssetKey("form_candidates"))
    meta = mat.asset_materialization.metadata
    assert mat.run_id == body["dagster_run_id"]
    assert meta["llm_input_tokens"].value == 812 and meta["llm_output_tokens"].value == 96
    assert meta["llm_calls_this_run"].value == 1


# ----------------------------------------------------------------------------- weak tests
def test_happy_path_makes_no_llm_call_with_a_live_client(run_bundle: RunHelper,
                                                         sample_bundles: dict) -> None:
    """Scenario 1 with an available client that records requests (none may be made)."""
    with OpenAIWireFake() as fake:  # strict: any request without a reply fails the block
        client = fake.make_client()
        assert client.available
        folder = run_bundle(sample_bundles["intake_gonzalez"], client=client)
    assert fake.requests == []
    final = folder.read_artifact("final")
    assert final.fields["full_name"].status == "filled" and final.fields["dob"].status == "filled"
    for key in ("full_name", "dob"):
        (event,) = field_events(folder, key)
        assert "llm_skipped:heuristic_confident" in event.notes and event.model_calls == []


def test_artifact_write_interrupted_before_rename_keeps_the_old_file(
        run_bundle: RunHelper, sample_bundles: dict, store: BlobStore,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = run_bundle(sample_bundles["intake_gonzalez"])
    key = f"runs/{folder.run_id}/artifacts/final.json"
    before = store.read_bytes(key)
    fresh = pipeline.ingest(store, [UploadedFile("a.pdf", text_pdf_bytes("Name: Ann Lee"))])

    def crash(*_args, **_kwargs):
        raise OSError("killed between the temporary file and the rename")

    monkeypatch.setattr(store.fs, "mv", crash)
    with pytest.raises(RunFolderError):
        pipeline.step_final(folder)
    assert store.read_bytes(key) == before  # the old artifact is intact, never half-written
    with pytest.raises(RunFolderError):
        pipeline.step_resolve_schema(fresh)
    assert not store.exists(f"runs/{fresh.run_id}/artifacts/schema.json")  # no partial file
    monkeypatch.undo()
    pipeline.step_resolve_schema(fresh)  # the re-run completes the interrupted step
    assert fresh.read_artifact("schema").schema_source == "fallback_v1"


def test_d11_a_target_whose_fields_cannot_be_read_is_a_warning(run_bundle: RunHelper) -> None:
    # the widgets are read in the limited PDF worker: a target it cannot open is refused
    # there (E_PDF_CORRUPT), and the run goes on without it
    target = b"%PDF-1.7\n" + b"not a cross-reference table " * 40
    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes("Patient Name: Ann Lee"))],
                        targets=[UploadedFile("form.pdf", target)])
    assert folder.read_artifact("schema").schema_source == "fallback_v1"
    assert folder.read_artifact("final").fields["full_name"].normalized_value == "Ann Lee"
    schema_event = next(e for e in folder.read_trace() if e.step == "resolve_schema")
    assert "warn:target_doc_unreadable:target_001" in schema_event.notes
    assert "refused:target_001:E_PDF_CORRUPT" in schema_event.notes
    fill_event = next(e for e in folder.read_trace() if e.step == "fill_pdf")
    assert "warn:target_doc_unreadable:target_001" in fill_event.notes
    assert not folder.has_artifact("review")
