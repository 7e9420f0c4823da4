"""Saturation detection (seed section 6): metrics after every cycle and the stop decision.

The thresholds are the seed's: stop when fewer than 5% of the entities or facts are new, when
more than 95% of the planned searches have run, or when more than 80% of this cycle's sources
are ones already seen (citation circularity). The hard caps on cycles and provider calls in
the agent are a backstop only; this check is the stopping rule (anti-patterns 3 and 4).
"""

from __future__ import annotations

from repro_assets.research.models import SaturationMetrics

NEW_ENTITIES_MIN = 0.05
NEW_FACTS_MIN = 0.05
SOURCE_COVERAGE_MAX = 0.95
CITATION_CIRCULARITY_MAX = 0.80


def calculate_saturation(
    entities_before: int,
    entities_after: int,
    facts_before: int,
    facts_after: int,
    circular_citations: int,
    total_citations: int,
    sources_queried: int,
    sources_available: int,
) -> SaturationMetrics:
    """Calculate saturation metrics (seed 6.1).

    Args:
        entities_before: entities before the cycle.
        entities_after: entities after the cycle.
        facts_before: facts before the cycle.
        facts_after: facts after the cycle.
        circular_citations: sources this cycle that had already been found earlier.
        total_citations: sources returned this cycle.
        sources_queried: planned searches executed so far.
        sources_available: planned searches in total (including follow-ups).
    """
    new_entities = entities_after - entities_before
    new_facts = facts_after - facts_before
    return SaturationMetrics(
        new_entities_ratio=new_entities / max(entities_after, 1),
        new_facts_ratio=new_facts / max(facts_after, 1),
        citation_circularity=circular_citations / max(total_citations, 1),
        source_coverage=sources_queried / max(sources_available, 1),
    )


def should_stop(metrics: SaturationMetrics) -> tuple[bool, str]:
    """Determine if research should stop (seed 6.1, META guide 7.5).

    Returns:
        ``(should_stop, reason)``.
    """
    if metrics.new_entities_ratio < NEW_ENTITIES_MIN:
        return True, "Entity saturation reached (<5% new entities in last cycle)"
    if metrics.new_facts_ratio < NEW_FACTS_MIN:
        return True, "Fact saturation reached (<5% new facts in last cycle)"
    if metrics.source_coverage > SOURCE_COVERAGE_MAX:
        return True, "Source coverage complete (>95% of available sources queried)"
    if metrics.citation_circularity > CITATION_CIRCULARITY_MAX:
        return True, "High citation circularity (>80% circular references)"
    return False, "Saturation not yet reached, continuing research"


check_saturation = should_stop
