"""The LLM extractor (seed 000, stage 3): the extractor role with ``search_paper``.

The model's claims become candidates that go through the same grounding as the heuristic
ones. A confidence printed as a percentage (95) is read as 0.95; anything outside 0-100 is
rejected with its reason. A quote cited on a page range (``page`` .. ``page_end``: search
results are chunks that span pages) is grounded on the page of the range it is printed on.
Invalid JSON gets one re-ask, then the JSONizer fallback (seed 000, "JSONizer Fallback").
"""

from __future__ import annotations

import json
import re

from repro_assets.llm.jsonizer import jsonizer_fallback
from repro_assets.llm.types import LLMClient, LLMUsage, Role, Tool
from repro_assets.papers.claims.metrics import (
    is_percent_metric,
    lower_is_better,
    resolve_metric,
    to_decimal,
)
from repro_assets.papers.claims.models import Candidate, Claim, ExtractorOutput


def normalize_confidence(value: float) -> tuple[float, str | None]:
    """A confidence as a probability: 0-1 as is, 1-100 read as a percentage, else a reason."""
    if 0.0 <= value <= 1.0:
        return value, None
    if 1.0 < value <= 100.0:
        return round(value / 100.0, 4), None
    return 0.0, f"confidence {value:g} is neither a probability nor a percentage"


def llm_candidates(
    llm: LLMClient, paper_id: str, title: str | None, tools: list[Tool], heuristic: list[Claim]
) -> tuple[list[Candidate], list[LLMUsage]]:
    """Ask the extractor role for claims; returns candidates (not yet grounded).

    Raises:
        LLMError: any LLM-layer failure (E_LLM_INVALID_OUTPUT with code E_EXTRACT_NO_OUTPUT
            when the JSONizer could not repair the answer either).
    """
    from repro_assets.papers.prompts import EXTRACTOR_SYSTEM

    user = json.dumps({
        "paper": {"id": paper_id, "title": title},
        "already_found": [
            {"dataset": c.dataset_name, "metric": c.metric_name, "value": c.metric_value,
             "citation": c.source_citation} for c in heuristic[:40]
        ],
    })
    result = llm.structured(role=Role.EXTRACTOR, system=EXTRACTOR_SYSTEM, user=user,
                            schema=ExtractorOutput, tools=tools,
                            fallback=jsonizer_fallback(llm, code="E_EXTRACT_NO_OUTPUT"))
    out = []
    for item in result.value.claims:
        metric = resolve_metric(item.metric_name) or item.metric_name.strip().lower()
        percent = (item.units or "").strip() == "%"
        value = item.metric_value
        if is_percent_metric(metric) and value > 1.0:
            value = to_decimal(value, metric, True)
            percent = True
        confidence, reason = normalize_confidence(item.confidence)
        last = item.page_end if item.page_end and item.page_end > item.page else item.page
        out.append(Candidate(
            dataset_name=re.sub(r"\s+", " ", item.dataset_name).strip() or None,
            split=(item.split or "test").lower(), metric_name=metric, metric_value=value,
            units="%" if percent else item.units, method_snippet=item.method_snippet,
            lower_is_better=lower_is_better(metric), source_citation=item.source_citation,
            confidence=confidence, page=item.page, pages=list(range(item.page, last + 1)),
            quoted_text=item.quoted_text, source="llm", reason=reason,
            dataset_source="llm", metric_source="llm",
        ))
    return out, list(result.usage)
