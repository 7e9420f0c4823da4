"""LLM extractor path through the real OpenAI SDK against the wire-level fake."""

from __future__ import annotations

from typing import Any

from repro_assets.papers.claims import extract_claims
from repro_assets.papers.samples import SAMPLE_PAPERS
from repro_assets.papers.tools import search_paper_tool
from tests.fakes.llm_wire import OpenAIWireFake
from tests.papers.test_claims_samples import sample_pages


def page_search(pages) -> Any:
    """search(query, k) over page texts: pages containing any query word (test double)."""

    def search(query: str, k: int) -> list[dict[str, Any]]:
        words = [w.lower() for w in query.split() if len(w) > 2]
        hits = [p for p in pages.pages if any(w in p.text.lower() for w in words)]
        return [{"content": p.text[:1500], "page_start": p.page_no, "page_end": p.page_no,
                 "section": None, "distance": 0.1} for p in hits[:k]]

    return search


def llm_claim(**overrides: Any) -> dict[str, Any]:
    claim = {"dataset_name": "UCI Digits", "split": "test", "metric_name": "accuracy",
             "metric_value": 0.983, "units": "%", "method_snippet": "MLP-64",
             "source_citation": "Table 2, page 1", "confidence": 0.95, "page": 1,
             "quoted_text": "MLP-64 (ours) 98.3 98.3"}
    return {**claim, **overrides}


def test_llm_claims_are_grounded_hallucinations_rejected_duplicates_merged() -> None:
    paper = SAMPLE_PAPERS[1]
    pages, data = sample_pages(paper)
    heuristic = extract_claims(pages, data)
    with OpenAIWireFake() as fake:
        fake.reply_tool_call("search_paper", {"query": "accuracy results table", "k": 3})
        fake.reply_json({"claims": [
            llm_claim(),  # duplicate of a table claim -> merges
            llm_claim(metric_value=0.991, quoted_text="The MLP reaches an accuracy of 99.1%",
                      source_citation="Section 4, page 1"),  # hallucinated
            llm_claim(metric_name="F1", metric_value=98.3, quoted_text="a macro F1 of 98.3%",
                      source_citation="Section 4, page 1"),  # percent given, normalised
            llm_claim(page=2),  # right quote, wrong page
        ]}, usage=(900, 300))
        client = fake.make_client()
        tools = [search_paper_tool(page_search(pages))]
        result = extract_claims(pages, data, client, tools)
    assert result.method == "llm"
    assert len(result.claims) == len(heuristic.claims)  # both valid LLM claims merged
    llm_rejected = [r for r in result.rejected if r.source == "llm"]
    assert [(r.metric_value, r.reason) for r in llm_rejected] == [
        (0.991, "quote does not appear on page 1"),
        (0.983, "quote is not on page 2 (found on page 1)"),
    ]
    assert result.llm_usage["calls"] == 2
    assert result.llm_usage["input_tokens"] >= 900
    # the model saw the tool result: page numbers came back in the tool message
    tool_message = fake.requests[1].json["messages"][-1]
    assert tool_message["role"] == "tool" and '"page_start": 1' in tool_message["content"]
    assert fake.requests[0].json["tools"][0]["function"]["name"] == "search_paper"


def test_extractor_through_anthropic_wire_fake() -> None:
    from tests.fakes.llm_wire import AnthropicWireFake

    pages, data = sample_pages(SAMPLE_PAPERS[2])
    with AnthropicWireFake() as fake:
        fake.reply_json({"claims": [
            llm_claim(dataset_name="Iris", metric_value=0.967, method_snippet="GB",
                      quoted_text="Gradient boosting obtains 96.7% accuracy on Iris.",
                      source_citation="Section 4, page 1"),
            llm_claim(dataset_name="Iris", metric_value=0.95, confidence=0.2,
                      quoted_text="Gradient boosting obtains 96.7% accuracy on Iris."),
        ]})
        result = extract_claims(pages, data, fake.make_client(), [])
    assert result.method == "llm"
    reasons = [r.reason for r in result.rejected if r.source == "llm"]
    assert reasons == ["confidence 0.20 < 0.5"]
    assert result.llm_usage["provider"] == "anthropic"


def test_all_candidates_below_confidence_is_low_confidence() -> None:
    from repro_assets.papers.claims import ClaimsError, RejectedCandidate, enforce_claim_guardrails

    rejected = [RejectedCandidate(source="llm", reason="confidence 0.30 < 0.5")] * 3
    try:
        enforce_claim_guardrails([], rejected, 3)
    except ClaimsError as exc:
        assert exc.code == "E_EXTRACT_LOW_CONFIDENCE"
    else:
        raise AssertionError("expected E_EXTRACT_LOW_CONFIDENCE")
    mixed = [*rejected[:2], RejectedCandidate(source="llm", reason="quote does not appear")]
    try:
        enforce_claim_guardrails([], mixed, 3)
    except ClaimsError as exc:
        assert exc.code == "E_EXTRACT_NO_OUTPUT"
