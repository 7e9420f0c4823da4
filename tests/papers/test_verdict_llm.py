"""LLM verifier through the wire-level fake: verdict, evidence grounding, guardrails."""

from __future__ import annotations

import pytest

from repro_assets.papers.samples import SAMPLE_PAPERS
from repro_assets.papers.tools import search_paper_tool
from repro_assets.papers.verdict import VerdictError, verify_paper
from tests.fakes.llm_wire import OpenAIWireFake
from tests.papers.test_claims_llm import page_search
from tests.papers.test_claims_samples import sample_pages


def test_llm_verdict_with_search_and_checked_evidence() -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[0])
    with OpenAIWireFake() as fake:
        fake.reply_tool_call("search_paper", {"query": "dataset and hyperparameters", "k": 2})
        fake.reply_json({
            "reproducible": True,
            "reasoning": "Public sklearn datasets, a results table and full hyperparameters.",
            "missing_elements": [],
            "evidence": [
                {"element": "dataset", "page": 1,
                 "quote": "We use the Breast Cancer Wisconsin dataset (569 samples, 30 features)"},
                {"element": "training_config", "page": 1,
                 "quote": "All experiments use random seed 42"},
                {"element": "results", "page": 1, "quote": "reaches 99.9% accuracy"},
            ],
        })
        verdict = verify_paper(pages, fake.make_client(),
                               [search_paper_tool(page_search(pages))])
    assert verdict.method == "llm" and verdict.reproducible
    grounded = {ev.element: ev.grounded for item in verdict.checklist for ev in item.evidence}
    assert grounded == {"dataset": True, "training_config": True, "results": False}
    assert verdict.llm_usage["calls"] == 2


def test_not_reproducible_without_missing_elements_breaks_the_guardrail() -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[0])
    with OpenAIWireFake() as fake:
        fake.reply_json({"reproducible": False, "reasoning": "Hard to say.",
                         "missing_elements": [], "evidence": []})
        with pytest.raises(VerdictError) as info:
            verify_paper(pages, fake.make_client(), [])
    assert info.value.code == "E_VERIFY_GUARDRAIL_FAILED"


def test_provider_failure_falls_back_to_the_checklist() -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[2])
    with OpenAIWireFake() as fake:
        fake.reply_status(401, message="Incorrect API key provided")
        verdict = verify_paper(pages, fake.make_client(), [])
    assert verdict.method == "heuristic" and verdict.reproducible
    assert verdict.llm_error is not None
