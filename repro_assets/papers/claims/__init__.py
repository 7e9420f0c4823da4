"""Stage 3 (Extract): grounded claims from a paper's tables and sentences, plus the LLM extractor.

Heuristics always run: results tables (:mod:`repro_assets.papers.tables`) and sentences such
as "achieves 88.1% accuracy on SST-2". With an LLM, the extractor role adds claims. Every
candidate goes through the same grounding check (:mod:`repro_assets.papers.grounding`);
rejected candidates are kept with their reason; duplicates merge (highest confidence wins).
Guardrails (seed 000, stage 3): at least one claim (E_EXTRACT_NO_OUTPUT), every claim cited,
confidence >= 0.5 (E_EXTRACT_LOW_CONFIDENCE when no candidate reaches it).

Modules: :mod:`.models` (claims, candidates), :mod:`.metrics` (metric vocabulary),
:mod:`.datasets` (dataset names), :mod:`.text` (sections, sentences, citations),
:mod:`.table_claims` and :mod:`.sentences` (heuristic candidates), :mod:`.llm` (the extractor
role), :mod:`.checks` (grounding, merging, guardrails), :mod:`.extract` (the entry point),
:mod:`.storage` (the ``claims`` table) and :mod:`.render` (markdown).
"""

from repro_assets.papers.claims.checks import (
    MIN_CONFIDENCE,
    enforce_claim_guardrails,
    ground_candidates,
    merge_claims,
    verify_stored_claim,
)
from repro_assets.papers.claims.datasets import canonical_dataset
from repro_assets.papers.claims.extract import extract_claims, heuristic_claims
from repro_assets.papers.claims.llm import llm_candidates
from repro_assets.papers.claims.metrics import (
    METRIC_ALIASES,
    PERCENT_METRICS,
    find_metric_mentions,
    resolve_metric,
    to_decimal,
)
from repro_assets.papers.claims.models import (
    Candidate,
    Claim,
    ClaimRole,
    ClaimsError,
    ClaimsResult,
    Evidence,
    ExtractedClaim,
    ExtractorOutput,
    RejectedCandidate,
    dataset_key,
)
from repro_assets.papers.claims.render import claims_markdown
from repro_assets.papers.claims.storage import load_claims, load_rejected, save_claims
from repro_assets.papers.claims.text import (
    _NUMBER_RE,
    _collapse,
    cite,
    iter_sentences,
    page_texts,
    section_index,
)

__all__ = [
    "MIN_CONFIDENCE", "METRIC_ALIASES", "PERCENT_METRICS", "_NUMBER_RE", "Candidate", "Claim",
    "ClaimRole", "ClaimsError", "ClaimsResult", "Evidence", "ExtractedClaim", "ExtractorOutput",
    "RejectedCandidate", "_collapse", "canonical_dataset", "claims_markdown", "cite",
    "dataset_key", "enforce_claim_guardrails", "extract_claims", "find_metric_mentions",
    "ground_candidates", "heuristic_claims", "iter_sentences", "llm_candidates", "load_claims",
    "load_rejected",
    "merge_claims", "page_texts", "resolve_metric", "save_claims", "section_index",
    "to_decimal", "verify_stored_claim",
]
