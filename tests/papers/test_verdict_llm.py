"""LLM verifier through the wire-level fake: verdict, evidence grounding, guardrails."""

from __future__ import annotations

import json

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


GOOD_VERDICT = {
    "reproducible": True,
    "reasoning": "Public sklearn datasets, a results table and full hyperparameters.",
    "missing_elements": [],
    "evidence": [{"element": "training_config", "page": 1,
                  "quote": "All experiments use random seed 42"}],
}


def test_provider_failure_is_a_coded_error_and_keeps_the_checklist() -> None:
    """Issue #13: an LLM failure during verify was swallowed into a note on a heuristic verdict
    that looked like the answer; now it is E_VERIFY_OPENAI_ERROR, checklist kept alongside."""
    pages, _ = sample_pages(SAMPLE_PAPERS[2])
    with OpenAIWireFake() as fake:
        fake.reply_status(401, message="Incorrect API key provided")
        with pytest.raises(VerdictError) as info:
            verify_paper(pages, fake.make_client(), [])
    assert info.value.code == "E_VERIFY_OPENAI_ERROR"
    assert "E_LLM_AUTH" in str(info.value)
    checklist = info.value.checklist
    assert checklist is not None and checklist.method == "heuristic" and checklist.reproducible


def test_search_cap_is_policy_cap_exceeded() -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[0])
    with OpenAIWireFake() as fake:
        for n in range(11):
            fake.reply_tool_call("search_paper", {"query": f"q{n}", "k": 1})
        with pytest.raises(VerdictError) as info:
            verify_paper(pages, fake.make_client(), [search_paper_tool(page_search(pages))])
    assert info.value.code == "E_POLICY_CAP_EXCEEDED"
    assert info.value.checklist is not None


def test_invalid_verdict_is_rescued_by_the_jsonizer() -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[0])
    prose = "The paper is reproducible: all experiments use random seed 42 on public data."
    with OpenAIWireFake() as fake:
        fake.reply_text(prose)
        fake.reply_text(prose)  # the layer's re-ask
        fake.reply_json(GOOD_VERDICT)
        verdict = verify_paper(pages, fake.make_client(), [])
    assert verdict.method == "llm" and verdict.reproducible
    assert fake.requests[2].json["model"] == "gpt-4o-mini"
    assert fake.requests[2].json["messages"][-1]["content"] == prose


def test_no_valid_verdict_even_from_the_jsonizer_is_verify_no_output() -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[0])
    with OpenAIWireFake() as fake:
        for _ in range(4):  # verifier and JSONizer, each with one re-ask
            fake.reply_text("no idea")
        with pytest.raises(VerdictError) as info:
            verify_paper(pages, fake.make_client(), [])
    assert info.value.code == "E_VERIFY_NO_OUTPUT"


def test_a_verdict_that_broke_a_guardrail_is_not_cached(fresh_database) -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[0])
    bad = {"reproducible": False, "reasoning": "Hard to say.", "missing_elements": [],
           "evidence": []}
    with OpenAIWireFake() as fake:
        fake.reply_json(bad)
        with pytest.raises(VerdictError):
            verify_paper(pages, fake.make_client(cache_enabled=True,
                                                 database_url=fresh_database), [])
    with OpenAIWireFake() as fake:  # asked again, and the good answer is cached
        fake.reply_json(GOOD_VERDICT)
        assert verify_paper(pages, fake.make_client(cache_enabled=True,
                                                    database_url=fresh_database), []).reproducible
    with OpenAIWireFake() as fake:
        verify_paper(pages, fake.make_client(cache_enabled=True, database_url=fresh_database), [])
    assert fake.requests == []


def test_streamed_verdict_reports_tool_calls_and_text() -> None:
    """The event hook the API's SSE stream relies on, through the real SDK and a real socket."""
    from repro_assets.resources.llm import LLMResource
    from tests.fakes.openai_server import OpenAIServer

    pages, _ = sample_pages(SAMPLE_PAPERS[0])
    events: list[tuple[str, dict]] = []
    with OpenAIServer() as server:
        server.reply_tool_call("search_paper", {"query": "random seed", "k": 2})
        server.reply_json(GOOD_VERDICT)
        client = LLMResource(provider="openai_compatible", base_url=server.base_url,
                             cache_enabled=False, record_usage=False).get_client()
        client.set_event_handler(lambda kind, data: events.append((kind, data)),
                                 stream_tokens=True)
        verdict = verify_paper(pages, client, [search_paper_tool(page_search(pages))])
        assert [r.stream for r in server.chat_requests] == [True, True]
    assert verdict.reproducible and verdict.llm_usage["calls"] == 2
    kinds = [kind for kind, _ in events]
    assert kinds[:2] == ["stream_end", "tool_call"]  # the first turn only calls the tool
    assert events[1][1] == {"name": "search_paper", "arguments": {"query": "random seed", "k": 2}}
    text = "".join(d["delta"] for kind, d in events if kind == "token")
    assert json.loads(text) == GOOD_VERDICT
    assert kinds.count("stream_end") == 2 and kinds[-1] == "stream_end"
