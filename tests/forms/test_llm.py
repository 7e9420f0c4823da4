"""The LLM path through the real OpenAI SDK against the wire-level fake (scenario 2, the locked
retry contract, evidence enforcement)."""

from __future__ import annotations

from typing import Any

import pytest

from repro_assets.forms.candidates import forms_client
from repro_assets.forms.models import RunOptions
from repro_assets.llm.base import REASK_TEMPLATE
from tests.fakes.llm_wire import AnthropicWireFake, OpenAIWireFake

from .conftest import RunHelper

# dob is left out: its two strong values contradict, so it asks the LLM too (see test_d08)
SCHEMA = {"fields": [{"key": "full_name"}, {"key": "insurance_member_id"}]}
MESSY_LINE = ("reference LKM-55102-8841 (primary subscriber is his spouse) and the "
              "authorization is on file.")


def llm_candidate(value: str, quote: str, doc_id: str = "doc_002", page: int = 1,
                  field: str = "insurance_member_id") -> dict[str, Any]:
    return {
        "field": field, "raw_value": value, "normalized_value": value,
        "evidence": [{"doc_id": doc_id, "page": page, "quoted_text": quote, "bbox": None}],
        "from_method": "llm", "validators": [], "rejected_reasons": [],
        "scores": {"anchor_match": 0, "validator": 0, "doc_relevance": 0,
                   "cross_doc_agreement": 0, "contradiction_penalty": 0},
    }


def field_events(folder, field: str) -> list:
    return [e for e in folder.read_trace() if e.step == "extract_candidates" and e.field == field]


def test_llm_candidate_with_quoted_evidence(run_bundle: RunHelper, sample_bundles: dict,
                                            no_network: None) -> None:
    """Scenario 2: the id is only in a messy paragraph -> LLM candidate with exact quote."""
    with OpenAIWireFake() as fake:
        fake.reply_json(llm_candidate("LKM-55102-8841", MESSY_LINE), usage=(812, 96))
        folder = run_bundle(sample_bundles["referral_chen"], schema=SCHEMA,
                            client=fake.make_client())
    assert len(fake.requests) == 1  # full_name was confident: no call for it
    sent = fake.requests[0].json
    assert "LKM-55102-8841" in sent["messages"][-1]["content"]  # routed excerpts were sent
    assert sent["max_completion_tokens" if "max_completion_tokens" in sent else "max_tokens"] \
        == 1200
    item = folder.read_artifact("final").fields["insurance_member_id"]
    assert item.value == "LKM-55102-8841"
    assert item.status in ("filled", "needs_review")
    assert item.evidence[0].quoted_text == MESSY_LINE
    assert "winner_from:llm" in item.rationale
    (event,) = field_events(folder, "insurance_member_id")
    assert "llm_calls:1" in event.notes and "heuristic_passes:1" in event.notes
    assert event.model_calls[0].provider == "openai"
    assert (event.model_calls[0].input_tokens, event.model_calls[0].output_tokens) == (812, 96)
    (quiet,) = field_events(folder, "full_name")
    assert quiet.model_calls == [] and "llm_skipped:heuristic_confident" in quiet.notes


@pytest.mark.parametrize(("quote", "reason"), [
    ("His coverage was confirmed by phone with Lakeshore Mutual under plan",
     "unsupported_by_evidence"),
    ("Member ID: LKM-55102-8841", "quote_not_on_page"),
])
def test_llm_evidence_without_literal_support_is_rejected(
        run_bundle: RunHelper, sample_bundles: dict, quote: str, reason: str) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_json(llm_candidate("LKM-55102-8841", quote))
        folder = run_bundle(sample_bundles["referral_chen"], schema=SCHEMA,
                            client=fake.make_client())
    item = folder.read_artifact("final").fields["insurance_member_id"]
    assert item.status == "missing" and item.value is None
    (rejected,) = [c for c in item.alternatives if c.from_method == "llm"]
    assert reason in rejected.rejected_reasons
    assert "unsupported_by_evidence" in rejected.rejected_reasons


def test_malformed_json_twice_is_llm_invalid_json(run_bundle: RunHelper,
                                                  sample_bundles: dict) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_malformed('{"field": "insurance_member_id", "raw_value": ')
        fake.reply_malformed('{"raw_value": "LKM-55102-8841"}')
        folder = run_bundle(sample_bundles["referral_chen"], schema=SCHEMA,
                            client=fake.make_client())
    assert len(fake.requests) == 2  # the one permitted retry, nothing more
    reask = fake.requests[1].json["messages"][-1]["content"]
    assert reask.startswith(REASK_TEMPLATE.split("{schema}")[0])
    assert "evidence" in reask and "quoted_text" in reask  # the Candidate schema is included
    item = folder.read_artifact("final").fields["insurance_member_id"]
    assert item.status == "missing" and "llm_invalid_json" in item.rationale
    (event,) = field_events(folder, "insurance_member_id")
    assert event.status == "warn" and event.error.kind == "llm_invalid_json"
    assert len(event.model_calls) == 2
    candidates = folder.read_artifact("candidates")
    assert any(c.rejected_reasons == ["llm_invalid_json"] for c in candidates)


def test_malformed_then_valid_is_accepted(run_bundle: RunHelper, sample_bundles: dict) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_malformed("not json at all")
        fake.reply_json(llm_candidate("LKM-55102-8841", MESSY_LINE))
        folder = run_bundle(sample_bundles["referral_chen"], schema=SCHEMA,
                            client=fake.make_client())
    assert len(fake.requests) == 2
    assert folder.read_artifact("final").fields["insurance_member_id"].value == "LKM-55102-8841"


@pytest.mark.parametrize(("script", "reason"), [
    (lambda fake: fake.reply_status(429, headers={"Retry-After": "1"}), "llm_rate_limited"),
    (lambda fake: fake.reply_timeout(), "llm_timeout"),
])
def test_provider_errors_are_not_retried(run_bundle: RunHelper, sample_bundles: dict,
                                         script, reason: str) -> None:
    with OpenAIWireFake() as fake:
        script(fake)
        client = fake.make_client(retry_attempts=3, sdk_max_retries=2)
        folder = run_bundle(sample_bundles["referral_chen"], schema=SCHEMA, client=client)
    assert len(fake.requests) == 1
    item = folder.read_artifact("final").fields["insurance_member_id"]
    assert item.status == "missing" and reason in item.rationale
    assert folder.read_artifact("final").fields["full_name"].status == "filled"


def test_anthropic_provider_path(run_bundle: RunHelper, sample_bundles: dict) -> None:
    with AnthropicWireFake() as fake:
        fake.reply_json(llm_candidate("LKM-55102-8841", MESSY_LINE))
        folder = run_bundle(sample_bundles["referral_chen"], schema=SCHEMA,
                            client=fake.make_client())
    assert len(fake.requests) == 1
    (event,) = field_events(folder, "insurance_member_id")
    assert event.model_calls[0].provider == "anthropic"
    assert folder.read_artifact("final").fields["insurance_member_id"].value == "LKM-55102-8841"


def test_forms_client_never_retries_and_keeps_offline_out() -> None:
    from repro_assets.llm.offline import OfflineClient

    assert forms_client(OfflineClient(), RunOptions()) == (None, "llm_offline")
    assert forms_client(None, RunOptions()) == (None, "llm_offline")
    client = OpenAIWireFake().make_client(retry_attempts=3, sdk_max_retries=2)
    fresh, reason = forms_client(client, RunOptions())
    assert reason is None and fresh.config.retry_attempts == 1
    assert fresh.config.sdk_max_retries == 0
    assert fresh.model_for("extractor") == "gpt-4o-mini"  # the seed's openai default
    pinned = OpenAIWireFake().make_client(models={"extractor": "gpt-4.1"})
    assert forms_client(pinned, RunOptions())[0].model_for("extractor") == "gpt-4.1"


def test_misconfigured_provider_degrades_to_heuristics(run_bundle: RunHelper,
                                                       sample_bundles: dict) -> None:
    from repro_assets.forms.candidates import client_or_offline
    from repro_assets.resources.llm import LLMResource

    client = client_or_offline(LLMResource(provider="openai").get_client)  # no key set
    assert client.available is False
    folder = run_bundle(sample_bundles["referral_chen"], schema=SCHEMA, client=client)
    item = folder.read_artifact("final").fields["insurance_member_id"]
    assert item.status == "missing"
    (event,) = field_events(folder, "insurance_member_id")
    assert "llm_skipped:llm_offline" in event.notes
