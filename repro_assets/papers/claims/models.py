"""Models of the Extract stage (seed 000, stage 3): claims, candidates, rejections, results."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from repro_assets.errors import CodedError

#: What a claim's row or sentence is about: the paper's best own result (``headline``), another
#: result of the paper's own method (``own``), a cited or reference system (``baseline``), or
#: not decidable (``unknown``).
ClaimRole = Literal["headline", "own", "baseline", "unknown"]


def dataset_key(name: str) -> str:
    """Normalized dataset key: lower case, ASCII letters and digits only ("SST-2" -> "sst2")."""
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", name).lower())


class Evidence(BaseModel):
    """Where a claim is printed."""

    model_config = ConfigDict(extra="forbid")

    page: int = Field(description="1-based page number of the quote.")
    quoted_text: str = Field(description="Verbatim text from that page containing the value.")


class Claim(BaseModel):
    """A grounded quantitative claim (seed 000 Claim fields plus evidence and provenance).

    ``dataset_name`` is the dataset as the paper prints it ("SST-2", "C10+", "WMT'14
    English-German"); the dataset registry resolves it later (at plan time), it never decides
    whether a claim exists. ``metric_value`` follows the seed (a percentage is stored as a
    decimal: 88.1% -> 0.881); ``printed_value`` keeps the number exactly as printed.
    """

    model_config = ConfigDict(extra="forbid")

    dataset_name: str = Field(description="Dataset as printed in the paper.")
    dataset_key: str = Field(
        default="", description="Normalized dataset name: lower case letters and digits only."
    )
    split: str = Field(description="train, validation or test.")
    metric_name: str = Field(description="Canonical metric name, e.g. accuracy, f1, bleu.")
    metric_value: float = Field(description="Metric value as a decimal (88.1% -> 0.881).")
    printed_value: str | None = Field(
        default=None, description="The number exactly as printed, e.g. '88.1' or '0.000353'."
    )
    units: str | None = Field(default=None, description="'%' when printed as a percentage.")
    lower_is_better: bool = Field(
        default=False, description="Direction of the metric (error, perplexity, WER: True)."
    )
    method_snippet: str | None = Field(default=None, description="Model/method the value is for.")
    role: ClaimRole = Field(
        default="unknown",
        description="headline (the paper's best own result, the plan's target), own, baseline "
        "or unknown.",
    )
    source_citation: str = Field(description="Where it is, e.g. 'Table 2, page 5'.")
    confidence: float = Field(ge=0.0, le=1.0, description="Extraction confidence 0-1.")
    evidence: Evidence = Field(description="Page and verbatim quote.")
    extraction_method: Literal["table", "sentence", "llm"] = Field(
        description="How the claim was found."
    )
    dataset_source: str = Field(
        default="unknown",
        description="What named the dataset (see repro_assets.papers.claims.provenance): "
        "row_label, column_header, caption, section, paper, sentence, llm...",
    )
    metric_source: str = Field(
        default="unknown",
        description="What named the metric (see repro_assets.papers.claims.provenance): "
        "column_header, row_label, caption_map, caption, reference, implied, sentence, llm...",
    )
    layout: str = Field(
        default="", description="The table's layout (see claims.provenance); '' for text."
    )

    @model_validator(mode="after")
    def _fill_key(self) -> Claim:
        if not self.dataset_key:
            self.dataset_key = dataset_key(self.dataset_name)
        return self

    @property
    def is_headline(self) -> bool:
        """True for a headline candidate (the paper's own best result)."""
        return self.role == "headline"


class RejectedCandidate(BaseModel):
    """A candidate claim that did not pass grounding, plausibility or guardrails."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(description="table, sentence or llm.")
    dataset_name: str | None = Field(default=None, description="Dataset, if known.")
    metric_name: str | None = Field(default=None, description="Metric, if known.")
    metric_value: float | None = Field(default=None, description="Value, if known.")
    page: int | None = Field(default=None, description="Cited page.")
    quoted_text: str | None = Field(default=None, description="Quoted text.")
    reason: str = Field(description="Why it was rejected.")


class ClaimsResult(BaseModel):
    """Output of :func:`~repro_assets.papers.claims.extract_claims`."""

    model_config = ConfigDict(extra="forbid")

    paper_id: str = Field(description="Paper id.")
    claims: list[Claim] = Field(description="Grounded claims.")
    rejected: list[RejectedCandidate] = Field(description="Rejected candidates with reasons.")
    method: Literal["heuristic", "llm"] = Field(description="heuristic, or llm when it ran.")
    tables_found: int = Field(description="Results tables found.")
    merged_duplicates: int = Field(description="Candidates merged into an existing claim.")
    llm_usage: dict[str, Any] = Field(default_factory=dict, description="LLM usage totals.")


class Candidate(BaseModel):
    """An ungrounded candidate claim."""

    model_config = ConfigDict(extra="forbid")

    dataset_name: str | None
    split: str
    metric_name: str | None
    metric_value: float | None
    units: str | None
    method_snippet: str | None
    source_citation: str
    confidence: float
    page: int
    quoted_text: str
    source: Literal["table", "sentence", "llm"]
    printed_value: str | None = None
    lower_is_better: bool | None = None
    role: ClaimRole = "unknown"
    pages: list[int] = Field(
        default_factory=list,
        description="Other pages the quote may be on (an LLM citing a page range).",
    )
    reason: str | None = Field(
        default=None, description="Set when the candidate is already known to be implausible."
    )
    dataset_source: str = Field(
        default="unknown", description="What named the dataset (see claims.provenance)."
    )
    metric_source: str = Field(
        default="unknown", description="What named the metric (see claims.provenance)."
    )
    layout: str = Field(default="", description="The table's layout; '' for text.")


class ExtractedClaim(BaseModel):
    """One claim as the LLM extractor emits it."""

    model_config = ConfigDict(extra="forbid")

    dataset_name: str = Field(description="Dataset name as printed in the paper.")
    split: str = Field(description="train, validation or test.")
    metric_name: str = Field(description="Metric name, e.g. accuracy, F1.")
    metric_value: float = Field(description="Value as a decimal (88.1% -> 0.881).")
    units: str | None = Field(description="'%' if printed as a percentage, else null.")
    method_snippet: str | None = Field(description="Model or method the value belongs to.")
    source_citation: str = Field(description="Table/section and page, e.g. 'Table 2, page 5'.")
    confidence: float = Field(description="Your confidence 0-1.")
    page: int = Field(description="1-based page number where the quote is printed.")
    page_end: int | None = Field(
        default=None,
        description="Last page when the passage you quote from spans pages (else null).",
    )
    quoted_text: str = Field(description="Verbatim text from that page that contains the value.")


class ExtractorOutput(BaseModel):
    """The extractor's structured output (emit_extractor_output)."""

    model_config = ConfigDict(extra="forbid")

    claims: list[ExtractedClaim] = Field(description="All quantitative claims found.")


class ClaimsError(CodedError, RuntimeError):
    """Extraction failed with a seed error code.

    ``claims`` holds the heuristic claims found before the failure (for example when the LLM
    was asked and failed), so callers can still show them.
    """

    def __init__(
        self,
        message: str,
        code: str,
        rejected: list[RejectedCandidate] | None = None,
        claims: list[Claim] | None = None,
    ):
        super().__init__(message, code=code)
        self.rejected = rejected or []
        self.claims = claims or []
