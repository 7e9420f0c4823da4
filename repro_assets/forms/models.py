"""The seed's domain types (seed 003, slice 1) as pydantic models.

The same models validate every artifact under ``runs/<run_id>/artifacts/`` and are the
structured-output schema of the one LLM extraction call per field (``Candidate``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

FieldType = Literal["string", "date", "phone", "string_or_list"]
SchemaSource = Literal["user_schema", "fillable_pdf", "fallback_v1"]
FieldStatus = Literal["filled", "needs_review", "missing"]
ArtifactName = Literal["schema", "doc_index", "layout", "routing", "candidates", "final",
                       "review"]

#: JSON artifacts under ``artifacts/`` (``review`` is slice 2's list of fields to check).
ARTIFACT_NAMES: tuple[str, ...] = (
    "schema", "doc_index", "layout", "routing", "candidates", "final", "review",
)
#: The filled copy of the target form (slice 2), ``artifacts/filled.pdf``.
FILLED_PDF = "filled.pdf"

# The v1 field set, in processing order (seed "v1 supported fields").
V1_FIELDS: dict[str, FieldType] = {
    "full_name": "string",
    "dob": "date",
    "phone": "phone",
    "address": "string",
    "insurance_member_id": "string",
    "allergies": "string_or_list",
    "medications": "string_or_list",
}

# Labels used by the fallback schema (the seed leaves labels "if known").
V1_LABELS: dict[str, str] = {
    "full_name": "Full name",
    "dob": "Date of birth",
    "phone": "Phone",
    "address": "Address",
    "insurance_member_id": "Insurance member ID",
    "allergies": "Allergies",
    "medications": "Medications",
}

# Fixed alias map (seed "fillable pdf -> field mapping"); also used for routing queries.
ALIASES: dict[str, list[str]] = {
    "full_name": ["full_name", "name", "patient_name"],
    "dob": ["dob", "date_of_birth", "birthdate"],
    "phone": ["phone", "mobile", "telephone"],
    "address": ["address", "street"],
    "insurance_member_id": ["insurance_member_id", "member_id", "policy", "insurance_id"],
    "allergies": ["allergies", "allergy"],
    "medications": ["medications", "meds"],
}

AUTO_FILL_THRESHOLD = 0.75
PROVIDER_DEFAULT_MODELS: dict[str, str] = {
    "anthropic": "claude-sonnet-4-20250514",
    "openai": "gpt-4o-mini",
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RunOptions(_Model):
    """Per-run options (``options`` form field of ``POST /api/runs``)."""

    top_k_docs: int = Field(3, ge=1, le=100, description="Docs routed to each field.")
    llm_provider: Literal["anthropic", "openai"] = Field(
        "anthropic", description="Requested LLM provider (recorded; see resolved_llm_model)."
    )
    llm_model: str | None = Field(
        None, description="Model name; None means the provider default."
    )
    max_llm_tokens: int = Field(1200, ge=64, le=32000, description="Max output tokens per call.")
    max_fields: int = Field(7, ge=0, description="Process at most this many supported fields.")

    def resolved_llm_model(self) -> str:
        """Return ``llm_model`` or the provider default (seed: llm_model resolution)."""
        return self.llm_model or PROVIDER_DEFAULT_MODELS[self.llm_provider]


class FieldSpec(_Model):
    """One field to fill."""

    key: str = Field(description="One of the v1 supported keys.")
    label: str | None = Field(None, description="Human label if known.")
    type: FieldType = Field(description="Value type of the field.")


class UserSchemaField(_Model):
    """One field of a user-supplied schema."""

    key: str = Field(description="Field key; only v1 keys are processed.")
    label: str | None = Field(None, description="Human label.")
    type: str | None = Field(None, description="Declared type (v1 keys use their v1 type).")


class UserSchema(_Model):
    """The ``schema_json`` upload: ``{"fields": [{"key", "label", "type"}, ...]}``."""

    fields: list[UserSchemaField] = Field(description="Requested fields in order.")


class ResolvedSchema(_Model):
    """schema.json: the fields this run processes."""

    schema_source: SchemaSource = Field(description="Where the field list came from.")
    resolved_fields: list[FieldSpec] = Field(description="Supported fields, in order.")
    unsupported_fields: list[str] = Field(
        default_factory=list, description="Requested keys outside the v1 set."
    )


class DocIndexItem(_Model):
    """doc_index.json entry: one input document."""

    doc_id: str = Field(description="Stable id within the run (doc_001 ...).")
    filename: str = Field(description="Original file name as uploaded.")
    mime_type: str = Field(description="Detected MIME type.")
    pages: int | None = Field(description="Page count, None when unreadable.")
    has_text_layer: bool = Field(description="True when any page has native text.")
    unreadable_reason: Literal["no_text_layer", "parse_error"] | None = Field(
        None, description="Why the document has no usable text."
    )
    text_source: Literal["text_layer", "ocr"] | None = Field(
        None, description="Where its text came from (ocr: a scan read by OCR).")
    sha256: str = Field(description="SHA-256 of the file bytes.")
    error_code: str | None = Field(
        None, description="The coded refusal behind a parse_error (E_PDF_TOO_COMPLEX, "
                          "E_PDF_TOO_MANY_PAGES, E_PDF_CORRUPT), when the PDF worker refused it.")


class LayoutSpan(_Model):
    """A line of text with its box when known."""

    text: str = Field(description="Text of the line.")
    bbox: list[float] | None = Field(None, description="[x1,y1,x2,y2] page coordinates.")


class FilledField(_Model):
    """A text widget of an input document that holds a value, with its printed label."""

    name: str = Field(description="The widget's field name.")
    label: str | None = Field(default=None, description="Tooltip, else the text printed next "
                                                       "to the widget (above, else left).")
    value: str = Field(description="The widget's value.")
    bbox: list[float] | None = Field(default=None, description="The widget's box.")


class LayoutPageText(_Model):
    """Native text of one page."""

    page: int = Field(description="1-indexed page number.")
    full_text: str = Field(description="Native text of the page.")
    spans: list[LayoutSpan] = Field(default_factory=list, description="Lines with boxes.")
    form_fields: list[FilledField] = Field(
        default_factory=list, description="Filled text widgets of the page with their labels.")
    ocr: bool = Field(default=False, description="True when the text was read by OCR.")


class LayoutDoc(_Model):
    """layout.json entry: the pages of one readable document."""

    doc_id: str = Field(description="Document id.")
    pages: list[LayoutPageText] = Field(description="Pages in order.")


class RoutingEntry(_Model):
    """routing.json entry: the documents routed to one field."""

    field: str = Field(description="Field key.")
    doc_ids: list[str] = Field(description="Best to worst, at most top_k_docs.")
    scores: dict[str, float] = Field(description="doc_id -> relevance score (0..1).")


class Evidence(_Model):
    """Where a value was read: an exact quote on one page."""

    doc_id: str = Field(description="Document id.")
    page: int = Field(description="1-indexed page.")
    quoted_text: str = Field(description="Exact text from the page supporting the value.")
    bbox: list[float] | None = Field(None, description="[x1,y1,x2,y2] when known.")


class CandidateScores(_Model):
    """The deterministic score components of a candidate."""

    anchor_match: float = Field(description="1.0 if the value literally occurs in the quote.")
    validator: float = Field(description="pass 1.0, warn 0.6, fail 0.0.")
    doc_relevance: float = Field(description="Routing score of the evidence document.")
    cross_doc_agreement: float = Field(0.0, description="+0.10 when other docs agree.")
    contradiction_penalty: float = Field(0.0, description="0.30 on a contradicted winner.")


class Candidate(_Model):
    """A proposed value for one field; accepted iff ``rejected_reasons == []``."""

    field: str = Field(description="Field key.")
    raw_value: str = Field(description="Value as written in the document.")
    normalized_value: str = Field(description="Normalized value.")
    evidence: list[Evidence] = Field(description="Quotes supporting the value.")
    from_method: Literal["heuristic", "llm"] = Field(description="Who proposed the value.")
    validators: list[str] = Field(default_factory=list, description="Validator outcomes.")
    rejected_reasons: list[str] = Field(
        default_factory=list, description="Non-empty means rejected."
    )
    scores: CandidateScores = Field(description="Score components.")

    @property
    def accepted(self) -> bool:
        """Seed acceptance rule."""
        return not self.rejected_reasons


class FinalField(_Model):
    """final.json: the outcome for one field."""

    field: str = Field(description="Field key.")
    status: FieldStatus = Field(description="filled | needs_review | missing.")
    value: str | None = Field(description="Raw value of the winner.")
    normalized_value: str | None = Field(description="Normalized value of the winner.")
    confidence: float = Field(description="Final confidence of the winner (0 when missing).")
    rationale: list[str] = Field(description="Structured reason codes.")
    evidence: list[Evidence] = Field(default_factory=list, description="Winner's evidence.")
    alternatives: list[Candidate] = Field(
        default_factory=list, description="Top non-winner candidates, max 2."
    )
    evidence_images: list[str] = Field(
        default_factory=list,
        description="PNG crops of the cited pages with each quote highlighted, one per "
                    "evidence item (runs/<run_id>/artifacts/evidence/<field>_<n>.png).",
    )


class FinalResult(_Model):
    """final.json."""

    run_id: str = Field(description="Run id.")
    schema_source: SchemaSource = Field(description="Schema source of the run.")
    fields: dict[str, FinalField] = Field(description="Field key -> outcome.")


class ModelCall(_Model):
    """One provider call in a trace event."""

    provider: str = Field(description="Provider name.")
    model: str = Field(description="Model name.")
    input_tokens: int = Field(0, description="Prompt tokens.")
    output_tokens: int = Field(0, description="Completion tokens.")
    latency_ms: int = Field(0, description="Latency in milliseconds.")
    error: str | None = Field(None, description="Failure reason when the call failed.")


class TraceError(_Model):
    """The error of a trace event."""

    kind: str = Field(description="Error code.")
    message: str = Field(description="Human-readable message.")


class TraceEvent(_Model):
    """One line of trace/trace.jsonl."""

    ts: str = Field(description="UTC timestamp, ISO 8601 with milliseconds and Z.")
    run_id: str = Field(description="Run id.")
    step: str = Field(description="Step name (ingest, resolve_schema, extract_text ...).")
    status: Literal["ok", "warn", "error"] = Field(description="Outcome of the step.")
    duration_ms: int = Field(description="Wall time of the step.")
    inputs_ref: list[str] = Field(default_factory=list, description="Run-relative inputs.")
    outputs_ref: list[str] = Field(default_factory=list, description="Run-relative outputs.")
    error: TraceError | None = Field(None, description="Error, when status is error or warn.")
    model_calls: list[ModelCall] = Field(default_factory=list, description="LLM calls made.")
    field: str | None = Field(None, description="Field key for per-field events.")
    notes: list[str] = Field(default_factory=list, description="Structured notes.")


class InputFile(_Model):
    """An input file recorded in request.json."""

    doc_id: str = Field(description="Id assigned at ingest (doc_001 / target_001).")
    filename: str = Field(description="Original file name (display only).")
    stored_as: str = Field(description="Run-relative path under input/.")
    sha256: str = Field(description="SHA-256 of the bytes.")
    size: int = Field(description="Size in bytes.")


class RunRequest(_Model):
    """input/request.json: what the run was asked to do."""

    run_id: str = Field(description="Run id.")
    created_at: str = Field(description="UTC creation time.")
    source: str = Field(description="api | dropfolder:<bundle> | sample:<bundle> | cli.")
    input_docs: list[InputFile] = Field(description="Documents to read values from.")
    target_docs: list[InputFile] = Field(default_factory=list, description="Forms to fill.")
    user_schema: dict[str, Any] | None = Field(None, description="Raw schema_json, if given.")
    options: RunOptions = Field(description="Run options.")


class WrittenWidget(_Model):
    """A value written into one widget of the target form."""

    widget: str = Field(description="AcroForm field name.")
    page: int = Field(description="1-indexed page of the widget.")
    field: str = Field(description="Field key whose final value was written.")
    part: str | None = Field(None, description="month/day/year or first/middle/last, if split.")
    value: str = Field(description="Text written into the widget.")


class SkippedWidget(_Model):
    """A text widget of the target form left empty on purpose."""

    widget: str = Field(description="AcroForm field name.")
    page: int = Field(description="1-indexed page of the widget.")
    field: str | None = Field(None, description="Field key the widget maps to, if any.")
    party: str | None = Field(None, description="Whose value the widget asks for.")
    reason: str = Field(description="other_party | no_v1_field | needs_review | missing | "
                                    "too_long | address_split | not_text | ...")


class ReviewItem(FinalField):
    """A needs_review field (value, evidence, crops, rationale) and the widgets left empty."""

    widgets: list[str] = Field(default_factory=list, description="Widgets left empty for it.")


class ReviewReport(_Model):
    """review.json: what went into filled.pdf and what a person must still fill or check."""

    run_id: str = Field(description="Run id.")
    target_doc_id: str = Field(description="Target document that was filled.")
    target_sha256: str = Field(description="SHA-256 of the untouched target.")
    form_subject: str | None = Field(
        description="The party the form is about (patient, employee ...), if named.")
    filled_pdf: str = Field(description="runs/<run_id>/artifacts/filled.pdf.")
    written: list[WrittenWidget] = Field(description="Values written into the form.")
    needs_review: list[ReviewItem] = Field(description="Fields left empty for review.")
    missing: list[str] = Field(description="Fields with no value in the documents.")
    skipped: list[SkippedWidget] = Field(description="Text widgets left empty on purpose.")


ARTIFACT_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "schema": TypeAdapter(ResolvedSchema),
    "doc_index": TypeAdapter(list[DocIndexItem]),
    "layout": TypeAdapter(list[LayoutDoc]),
    "routing": TypeAdapter(list[RoutingEntry]),
    "candidates": TypeAdapter(list[Candidate]),
    "final": TypeAdapter(FinalResult),
    "review": TypeAdapter(ReviewReport),
}


def final_confidence(scores: CandidateScores) -> float:
    """Seed formula: clamp(base + agreement - contradiction, 0, 1)."""
    value = (
        base_confidence(scores) + scores.cross_doc_agreement - scores.contradiction_penalty
    )
    return round(min(1.0, max(0.0, value)), 4)


def base_confidence(scores: CandidateScores) -> float:
    """Seed formula: 0.45*anchor_match + 0.30*validator + 0.25*doc_relevance."""
    return round(
        0.45 * scores.anchor_match + 0.30 * scores.validator + 0.25 * scores.doc_relevance, 4
    )
