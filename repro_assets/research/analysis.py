"""The analyze node's work: cross-verification, confidence, contradictions and gaps.

Confidence is a noisy-OR over the independent sources (distinct hosts or corpus documents)
that state a fact, each weighted by its prior quality (by source, never by retrieval
similarity): one good source gives about 0.6, two independent ones about 0.85. A fact is
*verified* only when at least two independent sources state it and its confidence reaches the
domain's threshold; in an ``academic_required`` domain one of them must be academic or from the
local corpus. A contradicted fact loses a quarter of its confidence. Contradictions are facts
from different sources about the same subject (a shared entity, or near-identical wording)
that differ in negation or in figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from repro_assets.research.domains import DomainConfiguration
from repro_assets.research.models import Contradiction, Entity, Fact, SourceResult
from repro_assets.research.text import content_tokens, figures, jaccard, negated

SOURCE_WEIGHT = 0.8
MIN_INDEPENDENT_SOURCES = 2
CONTRADICTION_PENALTY = 0.75
TOPIC_OVERLAP = 0.35
SAME_SUBJECT_OVERLAP = 0.8


def source_key(url: str) -> str:
    """Independence key of a source: the corpus document or the web host."""
    base = url.split("#", 1)[0]
    if base.startswith("corpus://"):
        return base
    parts = urlsplit(base)
    host = parts.netloc.lower().removeprefix("www.")
    # different papers on one scholarly index are independent sources
    if host in {"www.semanticscholar.org", "semanticscholar.org", "pubmed.ncbi.nlm.nih.gov",
                "arxiv.org", "doi.org", "dx.doi.org"}:
        return f"{host}{parts.path}"
    return host or base


def fact_confidence(
    fact: Fact,
    results_by_url: dict[str, SourceResult],
    academic_sources: set[str],
    domain: DomainConfiguration,
    contradicted: bool,
) -> tuple[float, bool]:
    """``(confidence, verified)`` of one fact."""
    best_by_source: dict[str, float] = {}
    has_academic = False
    for url in fact.sources:
        result = results_by_url.get(url)
        quality = result.quality_score if result else 0.4
        key = source_key(url)
        best_by_source[key] = max(best_by_source.get(key, 0.0), quality)
        if result and result.source_name in academic_sources:
            has_academic = True
    miss = 1.0
    for quality in best_by_source.values():
        miss *= 1.0 - SOURCE_WEIGHT * quality
    confidence = 1.0 - miss
    if contradicted:
        confidence *= CONTRADICTION_PENALTY
    if domain.academic_required and not has_academic:
        confidence = min(confidence, domain.verification_threshold - 0.01)
    confidence = round(max(0.0, min(0.99, confidence)), 3)
    verified = (len(best_by_source) >= MIN_INDEPENDENT_SOURCES
                and confidence >= domain.verification_threshold)
    return confidence, verified


def find_contradictions(facts: Sequence[Fact]) -> list[Contradiction]:
    """Pairs of facts from disjoint sources on the same topic that disagree."""
    found: list[Contradiction] = []
    tokens = [content_tokens(f.statement) for f in facts]
    negations = [negated(f.statement) for f in facts]
    numbers = [figures(f.statement) for f in facts]
    for i in range(len(facts)):
        for j in range(i + 1, len(facts)):
            a, b = facts[i], facts[j]
            if set(a.sources) & set(b.sources):
                continue
            words_a = {t for t in tokens[i] if not t[0].isdigit()}
            words_b = {t for t in tokens[j] if not t[0].isdigit()}
            overlap = jaccard(words_a, words_b)
            if overlap < TOPIC_OVERLAP or len(words_a & words_b) < 3:
                continue
            shared_entities = {e.lower() for e in a.entities} & {e.lower() for e in b.entities}
            if not shared_entities and (
                (a.entities and b.entities) or overlap < SAME_SUBJECT_OVERLAP
            ):
                continue  # similar wording about different things is not a conflict
            if negations[i] != negations[j]:
                found.append(Contradiction(
                    fact_a=a.id, fact_b=b.id,
                    reason=f"same topic (overlap {overlap:.2f}) but one statement is negated",
                ))
            elif (numbers[i] - numbers[j]) and (numbers[j] - numbers[i]) and overlap >= 0.5:
                found.append(Contradiction(
                    fact_a=a.id, fact_b=b.id,
                    reason=f"same topic (overlap {overlap:.2f}) but different figures: "
                    f"{sorted(numbers[i])} vs {sorted(numbers[j])}",
                ))
    return found


def cross_verify(
    facts: Sequence[Fact],
    results: Sequence[SourceResult],
    academic_sources: set[str],
    domain: DomainConfiguration,
) -> tuple[list[Fact], list[Contradiction]]:
    """Score every fact and attach contradictions (returns new fact objects)."""
    results_by_url = {r.url: r for r in results}
    contradictions = find_contradictions(facts)
    by_id = {f.id: f for f in facts}
    conflicts: dict[str, list[str]] = {}
    for c in contradictions:
        conflicts.setdefault(c.fact_a, []).append(by_id[c.fact_b].statement)
        conflicts.setdefault(c.fact_b, []).append(by_id[c.fact_a].statement)
    scored = []
    for fact in facts:
        confidence, verified = fact_confidence(
            fact, results_by_url, academic_sources, domain, fact.id in conflicts
        )
        scored.append(fact.model_copy(update={
            "confidence": confidence, "verified": verified,
            "contradictions": conflicts.get(fact.id, []),
        }))
    return scored, contradictions


def follow_up_entities(
    entities: Sequence[Entity], cycle: int, query: str, used: set[str], limit: int = 3
) -> list[str]:
    """Entities first found this cycle worth a follow-up search (gaps to close)."""
    query_lower = query.lower()
    candidates = [
        e for e in entities
        if e.first_cycle == cycle and e.entity_type != "person"
        and e.name.lower() not in query_lower and e.name.lower() not in used
        and len(e.name) >= 3
    ]
    candidates.sort(key=lambda e: (-e.mention_count, -len(e.sources), e.name))
    return [e.name for e in candidates[:limit]]
