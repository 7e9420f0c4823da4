"""Step extract_candidates: heuristic pass, at most one LLM call, evidence checks, scores.

Per field and run: one heuristic scan (:func:`repro_assets.forms.heuristics.scan_field`) and at
most one ``LLMClient.structured`` call, made only when the heuristic gave no acceptable
candidate or the winner's confidence (after agreement and the contradiction penalty, exactly
as score_select computes it) is below the 0.75 auto-fill threshold. The LLM returns one
``Candidate`` (an empty ``raw_value`` means "not found"). The LLM layer re-asks once with the
seed's exact prompt when the JSON is invalid (the only retry); if that fails too the field is
``llm_invalid_json``. Provider errors (rate limit, timeout ...) are never retried here: the
forms client runs with transport retries disabled (see :func:`forms_client`), and a failed
call is still listed in the trace's ``model_calls`` with its ``error``.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from repro_assets.forms.heuristics import HeuristicHit, scan_field
from repro_assets.forms.models import (
    AUTO_FILL_THRESHOLD,
    PROVIDER_DEFAULT_MODELS,
    Candidate,
    CandidateScores,
    Evidence,
    FieldSpec,
    LayoutDoc,
    ModelCall,
    RoutingEntry,
    RunOptions,
)
from repro_assets.forms.normalize import NormalizationError, normalize_date, normalize_value
from repro_assets.forms.prompts import EXTRACT_SYSTEM, EXTRACT_USER, TYPE_HINTS
from repro_assets.forms.routing import field_query, tokenize
from repro_assets.forms.scoring import apply_agreement, select
from repro_assets.forms.validate import (
    UNSUPPORTED,
    ValidatorResult,
    anchor_match,
    evidence_supports,
    quote_on_page,
    run_validators,
    validator_score,
)
from repro_assets.llm.base import BaseLLMClient
from repro_assets.llm.config import model_for_role
from repro_assets.llm.types import (
    LLMClient,
    LLMError,
    LLMInvalidOutput,
    LLMRateLimited,
    LLMTimeout,
    LLMUnavailable,
    Role,
)

log = logging.getLogger(__name__)

SNIPPET_CHARS = 2500
EXCERPT_CHARS = 8000

LLM_FAILURE_REASONS = {
    LLMInvalidOutput: "llm_invalid_json",
    LLMRateLimited: "llm_rate_limited",
    LLMTimeout: "llm_timeout",
    LLMUnavailable: "llm_unavailable",
}


@dataclass
class FieldExtraction:
    """What the extract_candidates step produced for one field."""

    field: str
    candidates: list[Candidate]
    heuristic_passes: int = 0
    llm_calls: int = 0
    llm_failure: str | None = None
    llm_skipped_reason: str | None = None
    model_calls: list[ModelCall] = dataclasses.field(default_factory=list)  # `field` names a member
    duration_ms: int = 0
    error: str | None = None


def build_candidate(
    spec: FieldSpec,
    raw_value: str,
    evidence: list[Evidence],
    method: str,
    routing: RoutingEntry,
    pages: dict[tuple[str, int], str],
    today: date | None = None,
    *,
    flags: tuple[str, ...] = (),
    rejected_by_scan: tuple[str, ...] = (),
) -> Candidate:
    """Normalize, validate and check the evidence of one proposed value; compute base scores.

    Args:
        spec: the field.
        raw_value: value as written.
        evidence: quotes offered for the value.
        method: ``heuristic`` or ``llm``.
        routing: the field's routing entry (doc relevance, routed docs).
        pages: ``(doc_id, page) -> full_text`` of every readable page.
        today: reference date for the DOB validators.
        flags: what the scan knows about the value (``day_first_date``: a numeric date read
            day first; review flags, see :data:`repro_assets.forms.scoring.REVIEW_FLAGS`).
        rejected_by_scan: why the scan rejected the text (``blank_form:question`` ...).
    """
    rejected: list[str] = list(rejected_by_scan)
    if method == "llm":  # boxes are looked up from the page, never taken from a model
        evidence = [e.model_copy(update={"bbox": None}) for e in evidence]
    if not raw_value.strip():
        rejected.append("no_value")
    if not evidence:
        rejected.append("no_evidence")
    for item in evidence:
        if item.doc_id not in routing.doc_ids:
            rejected.append("evidence_doc_not_routed")
        elif not quote_on_page(item.quoted_text, pages.get((item.doc_id, item.page), "")):
            rejected.append("quote_not_on_page")
    try:
        normalized, norm_flags = (normalize_value(spec.type, raw_value) if raw_value.strip()
                                  else ("", []))
        if spec.type == "date" and "day_first_date" in flags:
            normalized = normalize_date(raw_value, dayfirst=True)
    except NormalizationError:
        normalized, norm_flags = "", []
        rejected.append("normalization_failed")
    # a failing validator scores 0.0 (locked), it does not reject: a future DOB is a value
    # to review, not a missing one
    results = run_validators(spec.key, spec.type, normalized, raw_value, today)
    if "ocr_text" in flags:  # read by OCR: a weaker reading, reviewed unless confirmed
        results.append(ValidatorResult("ocr_text", "warn"))
        flags = (*flags, "ocr_unconfirmed")
    grounded = not {"quote_not_on_page", "evidence_doc_not_routed"} & set(rejected)
    if not (grounded and evidence_supports(spec.type, normalized, evidence)):
        rejected.append(UNSUPPORTED)
    relevance = max((routing.scores.get(e.doc_id, 0.0) for e in evidence), default=0.0)
    scores = CandidateScores(
        anchor_match=anchor_match(spec.type, raw_value, normalized, evidence),
        validator=validator_score(results),
        doc_relevance=round(min(1.0, max(0.0, relevance)), 4),
    )
    return Candidate(
        field=spec.key, raw_value=raw_value, normalized_value=normalized, evidence=evidence,
        from_method=method,
        validators=[r.label() for r in results] + norm_flags + list(dict.fromkeys(flags)),
        rejected_reasons=list(dict.fromkeys(rejected)), scores=scores,
    )


def page_map(docs: list[LayoutDoc]) -> dict[tuple[str, int], str]:
    """``(doc_id, page) -> full_text`` of every page."""
    return {(d.doc_id, p.page): p.full_text for d in docs for p in d.pages}


def build_excerpts(spec: FieldSpec, docs: list[LayoutDoc], query: str) -> str:
    """Page-local snippets of the routed docs, most relevant pages first, total capped."""
    wanted = tokenize(query)
    parts: list[str] = []
    total = 0
    for doc in docs:
        ranked = sorted(doc.pages, key=lambda p: -len(wanted & tokenize(p.full_text)))
        for page in ranked[:3]:
            text = page.full_text.strip()
            if not text:
                continue
            if len(text) > SNIPPET_CHARS:
                lower = text.lower()
                hits = [lower.find(tok) for tok in wanted if lower.find(tok) >= 0]
                start = max(0, min(hits) - 200) if hits else 0
                text = text[start: start + SNIPPET_CHARS]
            block = f"[doc_id={doc.doc_id} page={page.page}]\n{text}\n"
            if total + len(block) > EXCERPT_CHARS:
                return "\n".join(parts)
            parts.append(block)
            total += len(block)
    return "\n".join(parts)


def _deployment_model(client: BaseLLMClient) -> str | None:
    """The seed's default model when the deployment left the extractor model at the LLM
    layer's built-in default; None to keep the client's configured model.

    The seed's RunOptions resolve an unset model to the provider default (anthropic ->
    claude-sonnet-4-20250514, openai -> gpt-4o-mini); a model the deployment set on purpose
    (resource config, ``REPRO_MODEL_EXTRACTOR`` ...) is kept, and providers without a seed
    default (OpenAI-compatible servers) keep their own.
    """
    seed_default = PROVIDER_DEFAULT_MODELS.get(client.provider)
    if seed_default is None:
        return None
    builtin = model_for_role(client.provider, Role.EXTRACTOR, None, environ={})
    return seed_default if client.model_for(Role.EXTRACTOR) == builtin else None


def forms_client(client: LLMClient | None, options: RunOptions
                 ) -> tuple[LLMClient | None, str | None]:
    """The client a run's extraction calls use, per its RunOptions.

    * ``llm_provider`` set by the caller: only that provider is used; a client of another
      provider is never substituted (returns ``(None, "llm_provider_unavailable:<p>")``).
    * model: ``llm_model``; else the seed's default of an explicitly requested provider; else
      the deployment's (see :func:`_deployment_model`).
    * provider errors are not retried (``sdk_max_retries=0``, ``retry_attempts=1``): only the
      layer's single re-ask for invalid JSON remains, with the seed's exact text
      (``reask_details=False``).

    Returns:
        ``(client or None, reason the LLM is unavailable or None)``.
    """
    if client is None or not client.available:
        return None, "llm_offline"
    requested = options.llm_provider if "llm_provider" in options.model_fields_set else None
    if requested and client.provider != requested:
        return None, f"llm_provider_unavailable:{requested}"
    if not isinstance(client, BaseLLMClient):
        return client, None
    model = options.llm_model or (PROVIDER_DEFAULT_MODELS[requested] if requested
                                  else _deployment_model(client))
    overrides = dict(client.config.model_overrides)
    if model:
        overrides[Role.EXTRACTOR.value] = model
    return client.with_config(sdk_max_retries=0, retry_attempts=1, reask_details=False,
                              model_overrides=overrides), None


def client_or_offline(factory: Callable[[], LLMClient]) -> LLMClient:
    """Build the LLM client; a misconfigured provider degrades to offline (logged).

    A form run never fails because of the LLM (seed invariant 4): without a client every
    field takes its heuristic path.
    """
    try:
        return factory()
    except LLMError as exc:
        from repro_assets.llm.offline import OfflineClient

        log.warning("LLM client unavailable (%s: %s); running the heuristic path only",
                    exc.code, exc)
        return OfflineClient()


def _usage_since(client: LLMClient, before: int) -> list[ModelCall]:
    records = getattr(client, "usage", None)
    if not isinstance(records, list):
        return []
    return [
        ModelCall(provider=client.provider, model=u.model, input_tokens=u.input_tokens,
                  output_tokens=u.output_tokens, latency_ms=int(u.latency_s * 1000))
        for u in records[before:]
    ]


def llm_candidate(
    spec: FieldSpec,
    docs: list[LayoutDoc],
    client: LLMClient,
    max_tokens: int,
    query: str,
) -> tuple[Candidate | None, str | None, list[ModelCall]]:
    """The one LLM extraction call for a field.

    Returns:
        ``(candidate or None, failure reason or None, model calls)``; a call that failed at
        the provider (rate limit, timeout ...) is in the model calls with its ``error``.
    """
    excerpts = build_excerpts(spec, docs, query)
    user = EXTRACT_USER.format(key=spec.key, label=spec.label or spec.key, type=spec.type,
                               hint=TYPE_HINTS[spec.type], excerpts=excerpts)
    before = len(getattr(client, "usage", []) or [])
    started = time.perf_counter()
    try:
        result = client.structured(role=Role.EXTRACTOR, system=EXTRACT_SYSTEM, user=user,
                                   schema=Candidate, temperature=0.0, max_tokens=max_tokens)
    except LLMError as exc:
        reason = next((r for t, r in LLM_FAILURE_REASONS.items() if isinstance(exc, t)),
                      "llm_error")
        log.warning("LLM extraction for %s failed: %s (%s)", spec.key, exc.code, exc)
        calls = _usage_since(client, before)
        if isinstance(exc, LLMInvalidOutput) and calls:
            calls[-1] = calls[-1].model_copy(update={"error": reason})
        else:  # the failing request itself recorded no usage
            spent = sum(c.latency_ms for c in calls)
            elapsed = int((time.perf_counter() - started) * 1000)
            calls.append(ModelCall(provider=client.provider,
                                   model=client.model_for(Role.EXTRACTOR),
                                   latency_ms=max(0, elapsed - spent), error=reason))
        return None, reason, calls
    calls = _usage_since(client, before) or [
        ModelCall(provider=client.provider, model=u.model, input_tokens=u.input_tokens,
                  output_tokens=u.output_tokens, latency_ms=int(u.latency_s * 1000))
        for u in result.usage
    ]
    return result.value, None, calls


def _failure_candidate(spec: FieldSpec, reason: str) -> Candidate:
    return Candidate(
        field=spec.key, raw_value="", normalized_value="", evidence=[], from_method="llm",
        rejected_reasons=[reason],
        scores=CandidateScores(anchor_match=0.0, validator=0.0, doc_relevance=0.0),
    )


def extract_field(
    spec: FieldSpec,
    routing: RoutingEntry,
    layouts: dict[str, LayoutDoc],
    client: LLMClient | None,
    max_tokens: int,
    today: date | None = None,
    *,
    unavailable: str = "llm_offline",
    contexts: dict[str, Any] | None = None,
) -> FieldExtraction:
    """Heuristic pass, then at most one LLM call, for one field.

    Args:
        spec: the field.
        routing: its routing entry.
        layouts: readable documents by id.
        client: the run's LLM client (:func:`forms_client`), None when unavailable.
        max_tokens: output token limit of the call.
        today: reference date for the DOB validators.
        unavailable: why ``client`` is None (recorded as ``llm_skipped``).
        contexts: per-document line contexts shared across fields (see ``scan_field``).
    """

    started = time.perf_counter()
    docs = [layouts[d] for d in routing.doc_ids if d in layouts]
    pages = page_map(docs)
    out = FieldExtraction(field=spec.key, candidates=[])
    hits: list[HeuristicHit] = scan_field(spec.key, docs, contexts, include_rejected=True)
    out.heuristic_passes = 1
    out.candidates = apply_agreement([
        build_candidate(spec, h.raw_value, [h.evidence], "heuristic", routing, pages, today,
                        flags=h.flags, rejected_by_scan=h.rejected)
        for h in hits
    ])
    outcome = select(spec, out.candidates).final  # penalty included, as score_select does
    if outcome.status != "missing" and outcome.confidence >= AUTO_FILL_THRESHOLD:
        out.llm_skipped_reason = "heuristic_confident"
    elif client is None or not client.available:
        out.llm_skipped_reason = unavailable
    elif not docs:
        out.llm_skipped_reason = "no_routed_docs"
    else:
        proposal, failure, calls = llm_candidate(spec, docs, client, max_tokens,
                                                 field_query(spec))
        out.llm_calls = 1
        out.model_calls = calls
        if failure is not None:
            out.llm_failure = failure
            out.candidates.append(_failure_candidate(spec, failure))
        elif proposal is not None:
            cand = build_candidate(spec, proposal.raw_value, proposal.evidence, "llm", routing,
                                   pages, today)
            if proposal.field != spec.key:
                cand.rejected_reasons.append("llm_wrong_field")
            out.candidates.append(cand)
    out.candidates = apply_agreement(out.candidates)
    out.duration_ms = int((time.perf_counter() - started) * 1000)
    return out
