"""The Extract stage's entry point: heuristics always, the LLM extractor when available."""

from __future__ import annotations

import logging
from contextlib import nullcontext
from typing import Any, Literal

from repro_assets.llm.types import LLMClient, LLMError, Tool
from repro_assets.papers.claims.ambiguity import cap_ambiguous_sentences
from repro_assets.papers.claims.checks import (
    enforce_claim_guardrails,
    ground_candidates,
    merge_claims,
)
from repro_assets.papers.claims.context import build_context
from repro_assets.papers.claims.llm import llm_candidates
from repro_assets.papers.claims.models import (
    Candidate,
    Claim,
    ClaimsError,
    ClaimsResult,
    RejectedCandidate,
)
from repro_assets.papers.claims.roles import mark_headlines
from repro_assets.papers.claims.sentences import sentence_candidates
from repro_assets.papers.claims.table_claims import table_candidates
from repro_assets.papers.claims.text import page_texts
from repro_assets.papers.claims.underspecified import cap_underspecified
from repro_assets.papers.models import PaperPages
from repro_assets.papers.tables import ParsedTable, extract_tables

log = logging.getLogger(__name__)


def heuristic_candidates(
    pages: PaperPages, tables: list[ParsedTable]
) -> list[Candidate]:
    """Table and sentence candidates, with headline candidates marked."""
    context = build_context(pages, tables)
    table_cands, groups = table_candidates(tables, pages, context)
    for cand in table_cands:  # names the tables use as datasets are datasets in sentences too
        if cand.dataset_name and not cand.reason:
            context.add_dataset(cand.dataset_name)
            if cand.metric_name:
                # a table citation starts with its label: "Table 2, row ..."
                context.add_table_claim(cand.source_citation.split(",", 1)[0],
                                        cand.metric_name, cand.dataset_name)
    sentence_cands = sentence_candidates(pages, context)
    candidates = table_cands + sentence_cands
    # a dataset across a clause turn of a sentence naming several is not the number's
    cap_ambiguous_sentences(candidates, context.dataset_names.values())
    # a language code alone or a family printed in several versions names no one dataset
    cap_underspecified(candidates, context.dataset_names.values())
    groups = groups + [f"s{i}" for i in range(len(sentence_cands))]
    mark_headlines(candidates, groups)
    return candidates


def heuristic_claims(pages: PaperPages, pdf_bytes: bytes | None) -> list[Claim]:
    """The grounded claims the offline reader finds (tables and sentences), duplicates merged."""
    _, claims, _, _ = _heuristic_claims(pages, pdf_bytes)
    return merge_claims(claims)[0]


def _heuristic_claims(
    pages: PaperPages, pdf_bytes: bytes | None
) -> tuple[list[Candidate], list[Claim], list[RejectedCandidate], int]:
    tables = extract_tables(pdf_bytes) if pdf_bytes else []
    candidates = heuristic_candidates(pages, tables)
    claims, rejected = ground_candidates(candidates, page_texts(pages))
    return candidates, claims, rejected, len(tables)


def extract_claims(
    pages: PaperPages,
    pdf_bytes: bytes | None,
    llm: LLMClient | None = None,
    tools: list[Tool] | None = None,
) -> ClaimsResult:
    """Extract grounded claims (heuristics always; the LLM extractor too when available).

    Args:
        pages: the paper's stored page text (grounding is checked against it).
        pdf_bytes: the PDF, for table detection (None skips tables).
        llm: LLM client; None or offline means heuristics only.
        tools: tools for the extractor (search_paper).

    Raises:
        ClaimsError: E_EXTRACT_NO_OUTPUT / E_EXTRACT_LOW_CONFIDENCE (see guardrails).
    """
    texts = page_texts(pages)
    candidates, claims, rejected, n_tables = _heuristic_claims(pages, pdf_bytes)
    method: Literal["heuristic", "llm"] = "heuristic"
    usage: dict[str, Any] = {}
    client = llm if llm is not None and llm.available else None
    # the LLM's answer is cached only if it gave a grounded claim and the stage passed
    with client.cache_scope() if client is not None else nullcontext() as scope:
        if client is not None:
            try:
                extra, _ = llm_candidates(client, pages.paper_id, pages.title, tools or [], claims)
            except LLMError as exc:
                code = stage_code(exc)
                heuristic, _ = merge_claims(claims)
                log.warning("extractor LLM failed (%s); %d heuristic claims kept for "
                            "inspection", code, len(heuristic))
                raise ClaimsError(f"{code} ({exc.code}): the extractor LLM failed: {exc}",
                                  code, rejected, claims=heuristic) from exc
            candidates += extra
            more, more_rejected = ground_candidates(extra, texts)
            if not more and scope is not None:
                scope.discard(f"the extractor gave no grounded claim ({len(extra)} claims)")
            claims += more
            rejected += more_rejected
            method = "llm"
            usage = client.usage_summary()
        merged, n_merged = merge_claims(claims)
        enforce_claim_guardrails(merged, rejected, len(candidates))
    return ClaimsResult(
        paper_id=pages.paper_id, claims=merged, rejected=rejected, method=method,
        tables_found=n_tables, merged_duplicates=n_merged, llm_usage=usage,
    )


def stage_code(exc: LLMError) -> str:
    """The Extract stage's code for an LLM failure (seed 000 error table)."""
    if exc.code == "E_POLICY_CAP_EXCEEDED":
        return "E_POLICY_CAP_EXCEEDED"
    if exc.code in {"E_LLM_INVALID_OUTPUT", "E_EXTRACT_NO_OUTPUT"}:
        return "E_EXTRACT_NO_OUTPUT"
    return "E_EXTRACT_OPENAI_ERROR"
