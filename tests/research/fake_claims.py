"""An extracted claim as the research answer path reads it, made up by the tests (no PDF)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class FakeClaim:
    """The fields of a paper's extracted claim that ``research.claim_answer`` reads."""

    dataset_name: str
    metric_name: str
    printed_value: str
    method_snippet: str | None
    split: str = "test"
    role: str = "unknown"
    confidence: float = 0.85
    source_citation: str = "Table 3, page 6"
