"""Issue #13 item 6, claims side: LLM defects of the extractor (each test failed before the fix).

* an LLM confidence above 1 (95) crashed extraction and lost the heuristic claims;
* LLM errors during extract were swallowed into a note instead of the seed's codes;
* a quote cited on a page range (the tool returns chunks spanning pages) was rejected;
* the JSONizer fallback was not wired into the extractor.
"""

from __future__ import annotations

from typing import Any

import pytest

from repro_assets.papers.claims import (
    Candidate,
    ClaimsError,
    extract_claims,
    ground_candidates,
    page_texts,
)
from repro_assets.papers.samples import SAMPLE_PAPERS
from repro_assets.papers.tools import search_paper_tool
from tests.fakes.llm_wire import OpenAIWireFake
from tests.papers.test_claims_llm import llm_claim, page_search
from tests.papers.test_claims_samples import sample_pages


def _row_on_page_two(pages: Any) -> str:
    """A table row printed on page 2 of the first sample paper."""
    text = " ".join(pages.pages[1].text.split())
    start = text.index("Linear SVM (ours)")
    return text[start:start + len("Linear SVM (ours) 96.5 96.2")]


def test_confidence_printed_as_a_percentage_is_normalised_not_a_crash() -> None:
    pages, data = sample_pages(SAMPLE_PAPERS[2])
    heuristic = extract_claims(pages, data)
    sentence = dict(dataset_name="Iris", metric_value=0.967, method_snippet="GB",
                    quoted_text="Gradient boosting obtains 96.7% accuracy on Iris.",
                    source_citation="Section 4, page 1")
    with OpenAIWireFake() as fake:
        fake.reply_json({"claims": [llm_claim(**sentence, confidence=95),
                                    llm_claim(**sentence, confidence=250),
                                    llm_claim(**sentence, confidence=-3)]})
        result = extract_claims(pages, data, fake.make_client(), [])
    assert result.method == "llm"
    # the 95% claim is accepted as 0.95 and merges into the same claim the table prints
    assert result.merged_duplicates == heuristic.merged_duplicates + 1
    reasons = [r.reason for r in result.rejected if r.source == "llm"]
    assert reasons == ["confidence 250 is neither a probability nor a percentage",
                       "confidence -3 is neither a probability nor a percentage"]
    heuristic_keys = {(c.dataset_key, c.metric_name, c.metric_value) for c in heuristic.claims}
    assert heuristic_keys <= {(c.dataset_key, c.metric_name, c.metric_value)
                              for c in result.claims}


def test_llm_provider_failure_raises_the_extract_code_with_the_heuristic_claims() -> None:
    pages, data = sample_pages(SAMPLE_PAPERS[0])
    heuristic = extract_claims(pages, data)
    with OpenAIWireFake() as fake:
        for _ in range(3):
            fake.reply_status(500)
        with pytest.raises(ClaimsError) as info:
            extract_claims(pages, data, fake.make_client(), [])
    assert info.value.code == "E_EXTRACT_OPENAI_ERROR"
    assert len(info.value.claims) == len(heuristic.claims) > 0
    assert all(c.extraction_method != "llm" for c in info.value.claims)


def test_search_cap_exceeded_raises_policy_cap_with_the_heuristic_claims() -> None:
    pages, data = sample_pages(SAMPLE_PAPERS[1])
    with OpenAIWireFake(strict=False) as fake:
        for n in range(11):
            fake.reply_tool_call("search_paper", {"query": f"accuracy {n}", "k": 1})
        with pytest.raises(ClaimsError) as info:
            extract_claims(pages, data, fake.make_client(),
                           [search_paper_tool(page_search(pages))])
    assert info.value.code == "E_POLICY_CAP_EXCEEDED"
    assert info.value.claims


def test_quote_cited_on_a_page_range_is_grounded_on_the_page_it_is_on() -> None:
    paper = SAMPLE_PAPERS[0]
    pages, data = sample_pages(paper)
    quote = _row_on_page_two(pages)
    with OpenAIWireFake() as fake:
        fake.reply_json({"claims": [llm_claim(
            dataset_name="Breast Cancer Wisconsin", metric_value=0.962, metric_name="F1",
            quoted_text=quote, page=1, page_end=2, source_citation="Table 1, pages 1-2",
            method_snippet="Linear SVM (ours)")]})
        result = extract_claims(pages, data, fake.make_client(), [])
    heuristic = extract_claims(pages, data)
    assert not [r for r in result.rejected if r.source == "llm"]
    # grounded on page 2, then merged into the same claim the table reader found there
    assert result.merged_duplicates == heuristic.merged_duplicates + 1


def test_page_range_grounding_cites_the_page_the_quote_is_on() -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[0])
    quote = _row_on_page_two(pages)
    candidate = Candidate(
        dataset_name="Breast Cancer", split="test", metric_name="f1", metric_value=0.962,
        units="%", method_snippet="Linear SVM (ours)", source_citation="Table 1, pages 1-2",
        confidence=0.9, page=1, pages=[1, 2], quoted_text=quote, source="llm")
    (claim,), rejected = ground_candidates([candidate], page_texts(pages))
    assert not rejected
    assert claim.evidence.page == 2
    assert "page 2" in claim.source_citation
    single = candidate.model_copy(update={"pages": []})
    _, (reason,) = ground_candidates([single], page_texts(pages))
    assert reason.reason == "quote is not on page 1 (found on page 2)"


def test_invalid_extractor_json_is_rescued_by_the_jsonizer() -> None:
    pages, data = sample_pages(SAMPLE_PAPERS[2])
    with OpenAIWireFake() as fake:
        fake.reply_malformed("Gradient boosting obtains 96.7% accuracy on Iris (Section 4)")
        fake.reply_malformed("still prose, no JSON")
        fake.reply_json({"claims": [llm_claim(
            dataset_name="Iris", metric_value=0.967, method_snippet="GB",
            quoted_text="Gradient boosting obtains 96.7% accuracy on Iris.",
            source_citation="Section 4, page 1")]})
        result = extract_claims(pages, data, fake.make_client(), [])
    assert result.method == "llm"
    jsonizer_request = fake.requests[2].json
    assert "convert another model's answer into JSON" in jsonizer_request["messages"][0][
        "content"]
