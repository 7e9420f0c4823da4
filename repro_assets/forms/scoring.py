"""Step score_select: cross-doc agreement, contradiction, winner, status, alternatives.

Locked rules (seed "scoring + confidence", "winner selection rules"):

* base = 0.45*anchor_match + 0.30*validator + 0.25*doc_relevance;
* +0.10 (capped) when >= 2 accepted candidates from different docs share a normalized value;
* two different accepted normalized values with base >= 0.60 -> 0.30 penalty on the winner and
  status needs_review;
* final = clamp(base + agreement - penalty, 0, 1); the winner is the accepted candidate with
  the highest final confidence (ties: earlier candidate); < 0.75 -> needs_review;
* alternatives: the top 2 non-winners by final confidence, accepted or rejected.

Only accepted candidates take part in agreement, contradiction and winner selection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repro_assets.forms.models import (
    AUTO_FILL_THRESHOLD,
    Candidate,
    FieldSpec,
    FinalField,
    base_confidence,
    final_confidence,
)

AGREEMENT_BONUS = 0.10
CONTRADICTION_PENALTY = 0.30
CONTRADICTION_MIN_BASE = 0.60
MAX_ALTERNATIVES = 2
#: Candidate flags (in ``validators``) that keep a winner out of auto-fill: a +1 country
#: assumed for a phone, a numeric date whose day/month order the document does not settle,
#: a list read from prose, a value read by OCR that no second document confirms, a value on a
#: page naming several parties whose label and block do not bind it to the subject, a phone
#: under a label it shares with a fax ("Phone/Fax:").
REVIEW_FLAGS = ("default_country_assumed", "ambiguous_date_order", "list_from_prose",
                "ocr_unconfirmed", "party_unbound", "shared_phone_fax_label")


def _name_words(value: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", value.casefold().replace(".", "")) if w]


def shorter_name_of(short: str, full: str) -> bool:
    """True when ``short`` is ``full`` without some middle names or initials ("Maria Soto"
    of "Maria Elena Soto"), same first and last word, in the same order."""
    a, b = _name_words(short), _name_words(full)
    if len(a) < 2 or len(a) >= len(b) or a[0] != b[0] or a[-1] != b[-1]:
        return False
    rest = iter(b[1:-1])
    return all(any(word == other or (len(word) == 1 and other.startswith(word))
                   for other in rest) for word in a[1:-1])


def rank_key(candidate: Candidate) -> tuple[float, int]:
    """Sort key (descending): final confidence, then accepted before rejected."""
    return final_confidence(candidate.scores), int(candidate.accepted)


def apply_agreement(candidates: list[Candidate]) -> list[Candidate]:
    """Return copies with ``cross_doc_agreement`` set.

    A candidate earns +0.10 when another accepted candidate with the same normalized value
    cites a different document (one candidate quoting two documents is no agreement).
    """
    groups: dict[str, list[tuple[int, set[str]]]] = {}
    for index, cand in enumerate(candidates):
        if cand.accepted and cand.normalized_value:
            groups.setdefault(cand.normalized_value, []).append(
                (index, {e.doc_id for e in cand.evidence}))

    def agrees(index: int, cand: Candidate) -> bool:
        if not cand.accepted:
            return False
        mine = {e.doc_id for e in cand.evidence}
        return any(other != index and len(docs | mine) > 1
                   for other, docs in groups.get(cand.normalized_value, []))

    out = []
    for index, cand in enumerate(candidates):
        bonus = AGREEMENT_BONUS if agrees(index, cand) else 0.0
        scores = cand.scores.model_copy(update={"cross_doc_agreement": bonus})
        out.append(cand.model_copy(update={"scores": scores}))
    return out


def sort_candidates(candidates: list[Candidate]) -> list[Candidate]:
    """candidates.json order: field ascending, final confidence descending (stable).

    The winner's contradiction penalty does not count: :func:`select` drops it when it reads
    the candidates back, so sorting by it put the other value of a contradiction first and
    the re-selection named it (a cell phone printed after the home phone became the value)."""
    def unpenalized(c: Candidate) -> float:
        return final_confidence(c.scores.model_copy(update={"contradiction_penalty": 0.0}))

    return sorted(candidates, key=lambda c: (c.field, -unpenalized(c)))


@dataclass
class Selection:
    """The field outcome and the field's candidates with the winner's penalty applied."""

    final: FinalField
    candidates: list[Candidate]


def _fuller_name(accepted: list[Candidate]) -> Candidate:
    """The first accepted name, or the first fuller form of it that is at least as sure
    ("Maria Soto" and "Maria Elena Soto": the full form wins)."""
    winner = accepted[0]
    fuller = [c for c in accepted if c is not winner
              and shorter_name_of(winner.normalized_value, c.normalized_value)
              and base_confidence(c.scores) >= base_confidence(winner.scores)]
    return fuller[0] if fuller else winner


def _strong_values(spec: FieldSpec, accepted: list[Candidate]) -> set[str]:
    """The distinct values of the sure accepted candidates (two or more: a contradiction);
    a name without its middle names is the same person as the full name."""
    strong_values = {
        c.normalized_value for c in accepted if base_confidence(c.scores) >= CONTRADICTION_MIN_BASE
    }
    if spec.key == "full_name":
        strong_values = {v for v in strong_values
                         if not any(shorter_name_of(v, other) for other in strong_values)}
    return strong_values


def _review_flags(winner: Candidate, accepted: list[Candidate]) -> list[str]:
    """The review flags of the winner that hold (in ``REVIEW_FLAGS`` order)."""
    flags = []
    for flag in REVIEW_FLAGS:
        if flag == "ocr_unconfirmed" and winner.scores.cross_doc_agreement > 0:
            continue  # another document says the same: the OCR reading is confirmed
        if flag == "party_unbound" and any(
                c.normalized_value == winner.normalized_value and flag not in c.validators
                for c in accepted):
            continue  # the same value also stands where it is bound to the subject
        if flag in winner.validators:
            flags.append(flag)
    return flags


def select(
    spec: FieldSpec,
    candidates: list[Candidate],
    *,
    no_readable_docs: bool = False,
    llm_failure: str | None = None,
) -> Selection:
    """Choose the winner and the status of one field.

    Args:
        spec: the field.
        candidates: the field's candidates, agreement already applied.
        no_readable_docs: the run had no readable document (rationale ``no_readable_docs``).
        llm_failure: the LLM call's failure reason (``llm_invalid_json``, ``llm_rate_limited``
            ...): recorded in the rationale; the field is missing only when no heuristic
            candidate is acceptable.
    """
    candidates = [  # idempotent: a re-run starts from unpenalized scores
        c.model_copy(update={"scores": c.scores.model_copy(update={"contradiction_penalty": 0.0})})
        for c in candidates
    ]
    order = sorted(range(len(candidates)), key=lambda i: (-rank_key(candidates[i])[0],
                                                          -rank_key(candidates[i])[1], i))
    ranked = [candidates[i] for i in order]
    accepted = [c for c in ranked if c.accepted]
    # a value bound to the subject goes before one whose label and block name no one
    accepted.sort(key=lambda c: "party_unbound" in c.validators)
    rationale: list[str] = []
    if no_readable_docs:
        rationale.append("no_readable_docs")
    if llm_failure:  # the LLM contract's failure reason; heuristic winners still count
        rationale.append(llm_failure)
        if not accepted:
            rationale.append("no_acceptable_candidates")
            final = FinalField(field=spec.key, status="missing", value=None,
                               normalized_value=None, confidence=0.0, rationale=rationale,
                               alternatives=ranked[:MAX_ALTERNATIVES])
            return Selection(final, ranked)
    if not accepted:
        rationale.append("no_candidates" if not ranked else "all_candidates_rejected")
        for reason in dict.fromkeys(r for c in ranked for r in c.rejected_reasons):
            rationale.append(f"rejected:{reason}")
        final = FinalField(field=spec.key, status="missing", value=None, normalized_value=None,
                           confidence=0.0, rationale=rationale,
                           alternatives=ranked[:MAX_ALTERNATIVES])
        return Selection(final, ranked)
    winner = _fuller_name(accepted) if spec.type == "string" and spec.key == "full_name" \
        else accepted[0]
    strong_values = _strong_values(spec, accepted)
    contradiction = len(strong_values) >= 2
    if contradiction:
        penalized = winner.scores.model_copy(
            update={"contradiction_penalty": CONTRADICTION_PENALTY}
        )
        chosen = winner
        winner = winner.model_copy(update={"scores": penalized})
        ranked = [winner if c is chosen else c for c in ranked]
    confidence = final_confidence(winner.scores)
    rationale.append(f"winner_from:{winner.from_method}")
    if winner.scores.cross_doc_agreement > 0:
        rationale.append("cross_doc_agreement")
    status = "filled"
    if contradiction:
        status = "needs_review"
        rationale.append(f"contradiction:{len(strong_values)}_values")
    if confidence < AUTO_FILL_THRESHOLD:
        status = "needs_review"
        rationale.append("below_auto_fill_threshold")
    for flag in _review_flags(winner, accepted):
        status = "needs_review"
        rationale.append(flag)
    rationale += [f"validator_failed:{v.split(':')[0]}" for v in winner.validators
                  if v.endswith(":fail")]
    rationale += [f"validator_warn:{v.split(':')[0]}" for v in winner.validators
                  if v.endswith(":warn")]
    alternatives = [c for c in ranked if c is not winner][:MAX_ALTERNATIVES]
    final = FinalField(
        field=spec.key, status=status, value=winner.raw_value,
        normalized_value=winner.normalized_value, confidence=confidence, rationale=rationale,
        evidence=winner.evidence, alternatives=alternatives,
    )
    return Selection(final, ranked)
