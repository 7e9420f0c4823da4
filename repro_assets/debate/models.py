"""Models of the two-scientist debate (seed 002): settings, evidence, markers, turns, transcript."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from repro_assets import settings
from repro_assets.errors import CodedError
from repro_assets.scholarly.ingest import IngestCounts

ScientistRole = Literal["optimist", "pessimist"]
TerminalState = Literal["consensus", "insufficient_evidence", "max_turns", "interrupted",
                        "failed", "running"]
Method = Literal["llm", "heuristic"]

DEFAULT_MAX_TURNS = 6
DEFAULT_RESULTS_PER_SOURCE = 5
DEFAULT_TOP_K = 6
DEFAULT_MAX_NEW_TOKENS = 1000

INTERRUPTED_BANNER = "=== Debate Interrupted ==="
CONSENSUS_BANNER = "=== Viable Solution Reached ==="
MAX_TURNS_BANNER = "=== Max Turns Reached ==="
INSUFFICIENT_BANNER = "=== Insufficient Evidence: NOT_VIABLE ==="
OFFLINE_LABEL = "offline mode"


class DebateError(CodedError, RuntimeError):
    """A debate could not run; ``code`` is the project error code."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message, code=code)


class DebateSettings(BaseModel):
    """What one debate is asked to do (the seed's request + environment controls)."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(description="The user's question.", min_length=3)
    history: list[str] = Field(
        default_factory=list, description="Earlier conversation messages, oldest first."
    )
    url: str | None = Field(default=None, description="Optional URL the user referenced.")
    max_turns: int = Field(
        default=DEFAULT_MAX_TURNS, ge=1, le=40,
        description="Most scientist responses (DEBATE_MAX_TURNS).",
    )
    arxiv_results: int = Field(
        default=DEFAULT_RESULTS_PER_SOURCE, ge=0, le=50,
        description="arXiv results ingested per turn (DEBATE_ARXIV_RESULTS).",
    )
    crossref_results: int = Field(
        default=DEFAULT_RESULTS_PER_SOURCE, ge=0, le=50,
        description="Crossref results ingested per turn (DEBATE_CROSSREF_RESULTS).",
    )
    top_k: int = Field(default=DEFAULT_TOP_K, ge=1, le=30,
                       description="Chunks retrieved from the vector store per turn.")
    max_new_tokens: int = Field(
        default=DEFAULT_MAX_NEW_TOKENS, ge=64, le=4000,
        description="Token budget of one response (DEBATE_MAX_NEW_TOKENS).",
    )
    live_search: bool = Field(
        default=True,
        description="Query arXiv and Crossref each turn (False: use the stored corpus only).",
    )
    stream: bool = Field(default=False, description="Stream model tokens as they arrive.")

    @classmethod
    def from_env(cls, question: str, **overrides: Any) -> DebateSettings:
        """Settings with the seed's environment controls as defaults."""
        values: dict[str, Any] = {
            "max_turns": settings.env_int("DEBATE_MAX_TURNS", DEFAULT_MAX_TURNS),
            "arxiv_results": settings.env_int("DEBATE_ARXIV_RESULTS",
                                              DEFAULT_RESULTS_PER_SOURCE),
            "crossref_results": settings.env_int("DEBATE_CROSSREF_RESULTS",
                                                 DEFAULT_RESULTS_PER_SOURCE),
            "max_new_tokens": settings.env_int("DEBATE_MAX_NEW_TOKENS", DEFAULT_MAX_NEW_TOKENS),
            "top_k": settings.env_int("DEBATE_TOP_K", DEFAULT_TOP_K),
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(question=question, **values)


class EvidenceChunk(BaseModel):
    """A retrieved chunk as shown to a scientist, numbered ``[index]``."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(description="1-based citation number [n] within the turn.", ge=1)
    chunk_id: int = Field(description="chunks.id in the vector store.")
    document_id: int = Field(description="documents.id of the chunk.")
    content: str = Field(description="Chunk text.")
    distance: float = Field(description="Cosine distance to the turn query (lower is closer).")
    document_title: str | None = Field(default=None, description="Document title.")
    section: str | None = Field(default=None, description="Section title.")
    source_kind: str = Field(description="arxiv, crossref, paper ...")
    external_id: str = Field(description="arXiv id, DOI or paper id.")
    url: str | None = Field(default=None, description="Landing page.")
    doi: str | None = Field(default=None, description="DOI.")
    year: int | None = Field(default=None, description="Publication year.")
    authors: list[str] = Field(default_factory=list, description="Author display names.")
    venue: str | None = Field(default=None, description="Journal, proceedings or journal_ref.")
    reference: str = Field(description="APA 7 reference of the chunk's document.")
    quote: str | None = Field(
        default=None, description="The chunk's whole sentence closest to the question.")
    relevance: float | None = Field(
        default=None, description="Cosine similarity of that sentence to the question "
        "(None: the chunk has no whole sentence).")


class EvidenceAssessment(BaseModel):
    """Whether one turn's retrieved evidence addresses the question."""

    model_config = ConfigDict(extra="forbid")

    floor: float = Field(description="Relevance floor used (cosine similarity).")
    best_similarity: float | None = Field(
        default=None, description="Best question-sentence similarity among the chunks.")
    addressing: list[int] = Field(
        default_factory=list, description="[n] of the chunks whose best sentence reaches it.")
    documents: int = Field(default=0, description="Distinct documents among those chunks.")

    @property
    def addresses(self) -> bool:
        """True when at least one retrieved chunk addresses the question."""
        return bool(self.addressing)

    def summary(self) -> str:
        """One line for status messages and conclusions."""
        best = "none" if self.best_similarity is None else f"{self.best_similarity:.3f}"
        if self.addresses:
            return (f"{len(self.addressing)} chunk(s) from {self.documents} document(s) address "
                    f"the question (best similarity {best}, floor {self.floor:.2f})")
        return (f"no retrieved chunk addresses the question (best similarity {best} < floor "
                f"{self.floor:.2f})")


class Markers(BaseModel):
    """The machine-readable lines at the end of a response."""

    model_config = ConfigDict(extra="forbid")

    agreement: Literal["AGREE", "DISAGREE"] | None = Field(default=None, description="Agreement.")
    viability: Literal["VIABLE", "NOT_VIABLE"] | None = Field(
        default=None, description="Viability.")
    validation: Literal["PASS", "FAIL", "N/A"] | None = Field(
        default=None, description="Validation of the other scientist's code.")
    answer: Literal["VERIFIED", "UNVERIFIED"] | None = Field(
        default=None, description="Compact reviewer verdict.")
    verification_reason: str | None = Field(default=None, description="Verification Reason.")
    conclusion: str | None = Field(default=None, description="One-sentence conclusion.")
    missing: list[str] = Field(default_factory=list,
                               description="Required markers that were absent.")
    invalid: list[str] = Field(default_factory=list,
                               description="Marker lines whose value was not allowed.")

    @property
    def well_formed(self) -> bool:
        """True when every required marker was present with an allowed value."""
        return not self.missing and not self.invalid


class Turn(BaseModel):
    """One scientist response with everything that led to it."""

    model_config = ConfigDict(extra="forbid")

    number: int = Field(description="1-based turn number.", ge=1)
    scientist: Literal[1, 2] = Field(description="Research Scientist 1 or 2.")
    role: ScientistRole = Field(description="optimist (proposes) or pessimist (validates).")
    query: str = Field(description="The turn's search query.")
    ingestion: dict[str, IngestCounts] = Field(
        default_factory=dict, description="Per-source ingestion counts of this turn.")
    evidence: list[EvidenceChunk] = Field(default_factory=list,
                                          description="Retrieved chunks, numbered.")
    response: str = Field(default="", description="The response text (markers included).")
    markers: Markers = Field(default_factory=Markers, description="Parsed markers.")
    citations: list[int] = Field(default_factory=list, description="Valid [n] cited, sorted.")
    invalid_citations: list[int] = Field(
        default_factory=list, description="[n] cited that were not in the retrieved set.")
    references: list[str] = Field(
        default_factory=list, description="APA 7 references of the cited chunks' documents.")
    assessment: EvidenceAssessment | None = Field(
        default=None, description="Whether the turn's evidence addresses the question.")
    method: Method = Field(description="llm, or heuristic in offline mode.")
    model: str | None = Field(default=None, description="Model that wrote the response.")
    complete: bool = Field(default=True, description="False if interrupted mid-response.")
    started_at: datetime = Field(description="When the turn started (UTC).")
    finished_at: datetime | None = Field(default=None, description="When it ended (UTC).")

    @property
    def label(self) -> str:
        """'Research Scientist N'."""
        return f"Research Scientist {self.scientist}"


class DebateTranscript(BaseModel):
    """A whole debate: settings, turns and how it ended."""

    model_config = ConfigDict(extra="forbid")

    session_id: str = Field(description="Debate session id (the Dagster partition key).")
    settings: DebateSettings = Field(description="What was asked.")
    mode: Literal["llm", "offline"] = Field(description="llm, or offline (no LLM provider).")
    provider: str = Field(description="LLM provider name (offline in offline mode).")
    turns: list[Turn] = Field(default_factory=list, description="Turns in order.")
    terminal_state: TerminalState = Field(default="running", description="How the debate ended.")
    conclusion: str | None = Field(default=None, description="Final conclusion summary.")
    answer_check: dict[str, Any] | None = Field(
        default=None, description="Does a stored source state the asked fact: the grounded "
        "answer (value, quote, source) or why none does (see repro_assets.research.answering).")
    answer: dict[str, Any] | None = Field(
        default=None, description="The grounded answer a consensus rests on (None otherwise).")
    error_code: str | None = Field(default=None, description="Code when the debate failed.")
    error: str | None = Field(default=None, description="Message when the debate failed.")
    llm_usage: dict[str, Any] = Field(default_factory=dict, description="LLM usage totals.")
    started_at: datetime = Field(description="Start (UTC).")
    finished_at: datetime | None = Field(default=None, description="End (UTC).")

    def ingestion_totals(self) -> dict[str, int]:
        """Documents ingested per source over every turn."""
        totals: dict[str, int] = {"arxiv": 0, "crossref": 0}
        for turn in self.turns:
            for source, counts in turn.ingestion.items():
                totals[source] = totals.get(source, 0) + counts.documents
        return totals
