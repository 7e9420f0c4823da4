"""The LLM extractor (seed 000, stage 3): the extractor role with ``search_paper``."""

from __future__ import annotations

import json

from repro_assets.llm.types import LLMClient, LLMUsage, Role, Tool
from repro_assets.papers.claims.datasets import canonical_dataset
from repro_assets.papers.claims.metrics import PERCENT_METRICS, resolve_metric, to_decimal
from repro_assets.papers.claims.models import Candidate, Claim, ExtractorOutput


def llm_candidates(
    llm: LLMClient, paper_id: str, title: str | None, tools: list[Tool], heuristic: list[Claim]
) -> tuple[list[Candidate], list[LLMUsage]]:
    """Ask the extractor role for claims; returns candidates (not yet grounded).

    Raises:
        LLMError: any LLM-layer failure (the caller keeps the heuristic claims).
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
                            schema=ExtractorOutput, tools=tools)
    out = []
    for item in result.value.claims:
        metric = resolve_metric(item.metric_name) or item.metric_name.strip().lower()
        percent = (item.units or "").strip() == "%"
        value = item.metric_value
        if metric in PERCENT_METRICS and value > 1.0:
            value = to_decimal(value, metric, True)
            percent = True
        out.append(Candidate(
            dataset_name=canonical_dataset(item.dataset_name) if item.dataset_name else None,
            split=(item.split or "test").lower(), metric_name=metric, metric_value=value,
            units="%" if percent else item.units, method_snippet=item.method_snippet,
            source_citation=item.source_citation, confidence=item.confidence, page=item.page,
            quoted_text=item.quoted_text, source="llm",
        ))
    return out, list(result.usage)


