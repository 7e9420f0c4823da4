"""Data models of the research agent (seed 004, section 2).

The seed's ``ResearchState`` TypedDict (with LangGraph ``Annotated[list, add]`` accumulators)
becomes a pydantic model: nodes return partial updates that :func:`merge_update` applies, with
the same accumulate-or-replace semantics. The whole state is JSON-serialisable so it can be
checkpointed in Postgres after every cycle.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

PrivacyMode = Literal["local_only", "cloud_allowed", "hybrid"]
#: What a session found: an answer, no sources at all, or sources that do not answer it.
Outcome = Literal["pending", "answered", "no_sources", "insufficient_evidence"]
PRIVACY_MODES: tuple[str, ...] = ("local_only", "cloud_allowed", "hybrid")


def utcnow() -> datetime:
    """Timezone-aware now (UTC)."""
    return datetime.now(UTC)


class SourceResult(BaseModel):
    """Single result from a search source: the standard result format of every provider."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="Canonical URL of the result (the citation target).")
    title: str = Field(default="", description="Title of the page or paper.")
    snippet: str = Field(default="", description="Abstract, description or highlight text.")
    source_name: str = Field(description="Provider that returned it (semantic_scholar ...).")
    retrieved_at: datetime = Field(default_factory=utcnow, description="When it was fetched.")
    full_content: str | None = Field(default=None, description="Full text when available.")
    quality_score: float = Field(default=0.5, ge=0.0, le=1.0, description="Prior quality 0-1.")
    relevance: float | None = Field(
        default=None, description="Similarity of the result to the question (None: not scored)."
    )
    metadata: dict[str, Any] = Field(
        default_factory=dict, description="Provider-specific fields (authors, year, doi ...)."
    )

    def text(self) -> str:
        """The best text to extract from: full content, else title + snippet."""
        body = self.full_content or self.snippet or ""
        return f"{self.title}. {body}".strip(". ") if self.title else body


class Entity(BaseModel):
    """Extracted entity with provenance."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Surface form of the entity.")
    entity_type: str = Field(description="person, organization, product, method, concept ...")
    sources: list[str] = Field(default_factory=list, description="URLs where it was found.")
    first_seen: datetime = Field(default_factory=utcnow, description="When first extracted.")
    first_cycle: int = Field(default=1, description="Research cycle that first found it.")
    mention_count: int = Field(default=1, description="Mentions across all results.")


class Provenance(BaseModel):
    """Where a fact was read: the source URL, the provider and the supporting quote."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="Source URL.")
    source_name: str = Field(description="Provider that returned the source.")
    title: str = Field(default="", description="Source title.")
    quote: str = Field(default="", description="The sentence the fact was taken from.")


class Fact(BaseModel):
    """Verified fact with confidence."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Stable id (F1, F2 ...).")
    statement: str = Field(description="The factual statement.")
    sources: list[str] = Field(default_factory=list, description="Supporting source URLs.")
    confidence: float = Field(default=0.0, ge=0.0, le=1.0, description="Confidence 0-1.")
    verified: bool = Field(default=False, description="Confidence >= domain threshold.")
    contradictions: list[str] = Field(
        default_factory=list, description="Conflicting statements found in other sources."
    )
    entities: list[str] = Field(default_factory=list, description="Entities the fact mentions.")
    provenance: list[Provenance] = Field(default_factory=list, description="Per-source quotes.")
    first_cycle: int = Field(default=1, description="Research cycle that first found it.")
    method: str = Field(default="heuristic", description="llm or heuristic extraction.")
    relevance: float = Field(default=0.0, description="Similarity of the statement to the query.")


class AccessFailure(BaseModel):
    """A source that could not be used, and why (never silent)."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="URL or query that failed.")
    source_name: str = Field(description="Provider or fetcher.")
    error_type: str = Field(description="access_denied, paywall, captcha, rate_limit, timeout ...")
    error_message: str = Field(description="What happened.")
    action: str = Field(description="Obstacle-handler action taken: retry, skip, fallback, abort.")
    cycle: int = Field(default=0, description="Research cycle.")
    at: datetime = Field(default_factory=utcnow, description="When it happened.")


class Contradiction(BaseModel):
    """Two facts from different sources that disagree."""

    model_config = ConfigDict(extra="forbid")

    fact_a: str = Field(description="Id of the first fact.")
    fact_b: str = Field(description="Id of the second fact.")
    reason: str = Field(description="Why they are considered contradictory.")


class SaturationMetrics(BaseModel):
    """Metrics for determining research saturation (seed section 6.1)."""

    model_config = ConfigDict(extra="forbid")

    new_entities_ratio: float = Field(description="New entities / total entities.")
    new_facts_ratio: float = Field(description="New facts / total facts.")
    citation_circularity: float = Field(description="Re-found sources / sources this cycle.")
    source_coverage: float = Field(description="Search tasks done / search tasks planned.")


class CycleRecord(BaseModel):
    """Saturation and counts after one research cycle."""

    model_config = ConfigDict(extra="forbid")

    cycle: int = Field(description="Cycle number (1-based).")
    metrics: SaturationMetrics = Field(description="Saturation metrics of this cycle.")
    should_stop: bool = Field(description="Saturation decision.")
    reason: str = Field(description="Reason given by the saturation check.")
    entities_total: int = Field(description="Entities after the cycle.")
    facts_total: int = Field(description="Facts after the cycle.")
    results_total: int = Field(description="Distinct sources after the cycle.")
    provider_calls: int = Field(description="Provider calls so far.")


class SearchTask(BaseModel):
    """One planned search: a provider and a query."""

    model_config = ConfigDict(extra="forbid")

    provider: str = Field(description="Provider name.")
    query: str = Field(description="Query sent to the provider.")
    cycle_added: int = Field(default=1, description="Cycle in which it was planned.")
    done: bool = Field(default=False, description="Executed (successfully or not).")
    results: int = Field(default=0, description="Results it returned.")


class RankedSource(BaseModel):
    """A provider ranked for this session."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Provider name.")
    score: float = Field(description="Ranking score (past quality from source memory).")
    tier: str = Field(description="primary, secondary or other.")
    reason: str = Field(description="Why it has this rank.")


class Decision(BaseModel):
    """Audit-trail entry: one decision a node took and why."""

    model_config = ConfigDict(extra="forbid")

    node: str = Field(description="Node that decided.")
    cycle: int = Field(description="Cycle number (0 before the first cycle).")
    decision: str = Field(description="What was decided.")
    reason: str = Field(description="Why.")
    data: dict[str, Any] = Field(default_factory=dict, description="Supporting figures.")
    at: datetime = Field(default_factory=utcnow, description="When.")


class ResearchState(BaseModel):
    """State maintained throughout the research workflow (seed 2.1, plus bookkeeping)."""

    model_config = ConfigDict(extra="forbid")

    # immutable
    session_id: str = Field(description="Session id (the Dagster partition key).")
    original_query: str = Field(description="Query as given.")
    privacy_mode: PrivacyMode = Field(default="cloud_allowed", description="Privacy mode.")
    started_at: datetime = Field(default_factory=utcnow, description="Session start.")
    max_cycles: int = Field(default=6, description="Hard cap on cycles (backstop only).")
    max_provider_calls: int = Field(default=60, description="Hard cap on provider calls.")
    # refined during clarification
    refined_query: str = Field(default="", description="Query after clarification.")
    domain: str = Field(default="academic", description="Domain configuration name.")
    clarifying_questions: list[str] = Field(
        default_factory=list, description="At most 2 questions (recorded, not asked)."
    )
    # plan
    ranked_sources: list[RankedSource] = Field(default_factory=list, description="Plan ranking.")
    tasks: list[SearchTask] = Field(default_factory=list, description="Planned searches.")
    # accumulating
    sources_queried: list[str] = Field(default_factory=list, description="provider: query log.")
    results: list[SourceResult] = Field(default_factory=list, description="Distinct sources.")
    entities_found: list[Entity] = Field(default_factory=list, description="Entities.")
    facts_extracted: list[Fact] = Field(default_factory=list, description="Facts.")
    access_failures: list[AccessFailure] = Field(default_factory=list, description="Failures.")
    decisions: list[Decision] = Field(default_factory=list, description="Audit trail.")
    saturation_history: list[CycleRecord] = Field(default_factory=list, description="Per cycle.")
    contradictions: list[Contradiction] = Field(default_factory=list, description="Conflicts.")
    # current state
    cycle: int = Field(default=0, description="Cycles completed.")
    cycle_new_results: int = Field(default=0, description="New distinct results this cycle.")
    cycle_refound_results: int = Field(default=0, description="Already-known results this cycle.")
    provider_calls: int = Field(default=0, description="Provider calls made so far.")
    provider_call_counts: dict[str, int] = Field(default_factory=dict, description="Per provider.")
    provider_result_counts: dict[str, int] = Field(
        default_factory=dict, description="Distinct results contributed per provider."
    )
    current_phase: str = Field(default="starting", description="Current node.")
    saturation_metrics: SaturationMetrics | None = Field(default=None, description="Last cycle.")
    should_stop: bool = Field(default=False, description="Stop after this node.")
    stop_reason: str | None = Field(default=None, description="Why research stopped.")
    outcome: Outcome = Field(default="pending", description="answered, no_sources or "
                             "insufficient_evidence (set when the session finishes).")
    answer_check: dict[str, Any] | None = Field(
        default=None, description="Does a source state the asked fact: the grounded answer "
        "(value, quote, source) or why none does (set when the session finishes).")
    extraction_method: str = Field(default="heuristic", description="llm or heuristic.")
    synthesis_method: str = Field(default="heuristic", description="llm or heuristic.")
    llm_notes: list[str] = Field(default_factory=list, description="LLM fallbacks and why.")
    # output
    final_report: dict[str, Any] | None = Field(default=None, description="The report.")
    export_path: str | None = Field(default=None, description="Markdown report location.")
    export_paths: dict[str, str] = Field(default_factory=dict, description="format -> location.")


ACCUMULATING_FIELDS = frozenset(
    {"sources_queried", "access_failures", "decisions", "saturation_history"}
)


def merge_update(state: ResearchState, update: dict[str, Any]) -> ResearchState:
    """Apply a node's partial update: accumulating lists are appended, the rest replaced.

    Mirrors LangGraph's ``Annotated[list, add]`` reducer semantics of the seed's state.
    """
    data: dict[str, Any] = {}
    for key, value in update.items():
        if key not in ResearchState.model_fields:
            raise KeyError(f"unknown state field {key!r}")
        if key in ACCUMULATING_FIELDS:
            data[key] = [*getattr(state, key), *value]
        else:
            data[key] = value
    return state.model_copy(update=data)
