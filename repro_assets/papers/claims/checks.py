"""Grounding, duplicate merging and the seed's guardrails over candidate claims."""

from __future__ import annotations

from repro_assets.papers.claims.metrics import lower_is_better
from repro_assets.papers.claims.models import (
    Candidate,
    Claim,
    ClaimsError,
    Evidence,
    RejectedCandidate,
)
from repro_assets.papers.claims.provenance import capped
from repro_assets.papers.grounding import check_grounding, locate_quote, normalize_text
from repro_assets.papers.registry import resolve_alias

MIN_CONFIDENCE = 0.5


def _rejected(cand: Candidate, reason: str) -> RejectedCandidate:
    return RejectedCandidate(
        source=cand.source, dataset_name=cand.dataset_name, metric_name=cand.metric_name,
        metric_value=cand.metric_value, page=cand.page, quoted_text=cand.quoted_text,
        reason=reason,
    )


def ground_candidates(
    candidates: list[Candidate], pages: dict[int, str]
) -> tuple[list[Claim], list[RejectedCandidate]]:
    """Apply the grounding check and the per-claim guardrails to each candidate.

    A candidate whose quote is cited on a page range is grounded on the page of the range the
    quote is printed on, and cites that page.
    """
    claims: list[Claim] = []
    rejected: list[RejectedCandidate] = []
    for cand in candidates:
        page = cand.page
        reason = cand.reason
        if reason:
            pass
        elif not cand.dataset_name:
            reason = "no dataset could be identified"
        elif not cand.metric_name:
            reason = "no metric could be identified"
        elif cand.metric_value is None:
            reason = "no value"
        elif cand.split == "train" and cand.source != "llm":
            reason = "a result on the training split ('Train acc.'), not a claim"
        elif not cand.source_citation.strip():
            reason = "no source citation"
        elif cand.confidence < MIN_CONFIDENCE:
            reason = f"confidence {cand.confidence:.2f} < {MIN_CONFIDENCE}"
        else:
            cited = [cand.page, *[p for p in cand.pages if p != cand.page]]
            reason, page = locate_quote(cand.metric_value, cand.quoted_text, cited, pages,
                                        cand.printed_value)
        if reason:
            rejected.append(_rejected(cand, reason))
            continue
        assert cand.dataset_name and cand.metric_name and cand.metric_value is not None
        citation = cand.source_citation
        if page != cand.page:
            citation = f"{citation} (quote on page {page})"
        claims.append(Claim(
            dataset_name=cand.dataset_name, split=cand.split, metric_name=cand.metric_name,
            metric_value=cand.metric_value, printed_value=cand.printed_value, units=cand.units,
            lower_is_better=(cand.lower_is_better if cand.lower_is_better is not None
                             else lower_is_better(cand.metric_name)),
            method_snippet=cand.method_snippet, role=cand.role, source_citation=citation,
            confidence=capped(cand.confidence, cand.dataset_source, cand.metric_source),
            evidence=Evidence(page=page, quoted_text=cand.quoted_text),
            extraction_method=cand.source, dataset_source=cand.dataset_source,
            metric_source=cand.metric_source, layout=cand.layout,
        ))
    return claims, rejected


def _method_key(snippet: str | None) -> str:
    return normalize_text(snippet or "")[:40]


def ambiguous_cells(claims: list[Claim]) -> list[Claim]:
    """The table claims of a cell read twice with different datasets or metrics.

    A cell is its page, its citation (table, row, column, value index) and its printed value.
    Two readings that disagree (for example two parses of one table giving the cell different
    headers) leave the cell with no certain dataset or metric: ambiguity is no claim.
    """
    readings: dict[tuple[int, str, str], set[tuple[str, str]]] = {}
    for claim in claims:
        if claim.extraction_method == "table":
            cell = (claim.evidence.page, claim.source_citation, claim.printed_value or "")
            readings.setdefault(cell, set()).add((claim.dataset_key, claim.metric_name))
    return [c for c in claims if c.extraction_method == "table" and len(readings[(
        c.evidence.page, c.source_citation, c.printed_value or "")]) > 1]


def merge_claims(claims: list[Claim]) -> tuple[list[Claim], int]:
    """Merge duplicate claims; returns (claims, number merged away).

    The claims of a cell read twice with different datasets or metrics are dropped first (see
    :func:`ambiguous_cells`).

    Table claims are unique per (dataset, metric, value, split, row label). A sentence or LLM
    claim with the same (dataset, metric, value, split) as a table claim is the same claim
    printed twice and merges into it (the table row names the model). Sentence/LLM claims
    merge among themselves on (dataset, metric, value, split), the higher confidence winning.
    """
    def base(claim: Claim) -> tuple[str, str, float, str]:
        dataset = resolve_alias(claim.dataset_name) or claim.dataset_key  # "UCI Digits" = "Digits"
        return (dataset, claim.metric_name, round(claim.metric_value, 8), claim.split)

    dropped = {id(c) for c in ambiguous_cells(claims)}
    claims = [c for c in claims if id(c) not in dropped]
    out: list[Claim] = []
    table_keys: set[tuple[str, str, float, str, str]] = set()
    table_bases: set[tuple[str, str, float, str]] = set()
    for claim in claims:
        if claim.extraction_method != "table":
            continue
        key = (*base(claim), _method_key(claim.method_snippet))
        if key in table_keys:
            continue
        table_keys.add(key)
        table_bases.add(base(claim))
        out.append(claim)
    others: dict[tuple[str, str, float, str], Claim] = {}
    for claim in claims:
        if claim.extraction_method == "table" or base(claim) in table_bases:
            continue
        current = others.get(base(claim))
        if current is None or claim.confidence > current.confidence:
            others[base(claim)] = claim
    out.extend(others.values())
    return out, len(claims) - len(out)


def enforce_claim_guardrails(
    claims: list[Claim], rejected: list[RejectedCandidate], n_candidates: int
) -> None:
    """Seed guardrails over the final claim list.

    Raises:
        ClaimsError: E_EXTRACT_LOW_CONFIDENCE when candidates existed but none reached the
            confidence threshold; E_EXTRACT_NO_OUTPUT when no claim survived.
    """
    if claims:
        uncited = [c for c in claims if not c.source_citation.strip()]
        if uncited:
            raise ClaimsError(f"{len(uncited)} claims have no citation", "E_EXTRACT_NO_OUTPUT",
                              rejected)
        return
    low = [r for r in rejected if r.reason.startswith("confidence")]
    if n_candidates and len(low) == n_candidates:
        raise ClaimsError(
            f"all {n_candidates} candidate claims are below confidence {MIN_CONFIDENCE}",
            "E_EXTRACT_LOW_CONFIDENCE", rejected,
        )
    raise ClaimsError(
        f"no grounded claim found ({n_candidates} candidates, {len(rejected)} rejected)",
        "E_EXTRACT_NO_OUTPUT", rejected,
    )


def verify_stored_claim(claim: Claim, pages: dict[int, str]) -> str | None:
    """Re-run the grounding check on a stored claim (asset check); None when grounded."""
    return check_grounding(claim.metric_value, claim.evidence.quoted_text, claim.evidence.page,
                           pages, claim.printed_value)
