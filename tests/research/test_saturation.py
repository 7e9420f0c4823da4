"""Saturation metrics and thresholds (seed section 9.2) plus domain configuration."""

from __future__ import annotations

import pytest

from repro_assets.research.domains import DomainConfiguration, detect_domain, get_domain
from repro_assets.research.errors import ResearchConfigError
from repro_assets.research.models import SaturationMetrics
from repro_assets.research.saturation import calculate_saturation, check_saturation, should_stop


def test_saturation_detected_at_threshold():
    metrics = SaturationMetrics(new_entities_ratio=0.03, new_facts_ratio=0.10,
                                citation_circularity=0.5, source_coverage=0.8)
    stop, reason = check_saturation(metrics)
    assert stop
    assert "entity" in reason.lower()


def test_research_continues_above_threshold():
    metrics = SaturationMetrics(new_entities_ratio=0.30, new_facts_ratio=0.20,
                                citation_circularity=0.5, source_coverage=0.6)
    stop, reason = should_stop(metrics)
    assert not stop
    assert "continuing" in reason.lower()


@pytest.mark.parametrize(
    ("metrics", "word"),
    [
        ((0.10, 0.04, 0.1, 0.1), "fact"),
        ((0.10, 0.10, 0.1, 0.96), "coverage"),
        ((0.10, 0.10, 0.81, 0.5), "circularity"),
    ],
)
def test_each_threshold_stops(metrics, word):
    stop, reason = should_stop(SaturationMetrics(
        new_entities_ratio=metrics[0], new_facts_ratio=metrics[1],
        citation_circularity=metrics[2], source_coverage=metrics[3]))
    assert stop and word in reason.lower()


def test_thresholds_are_strict_at_the_boundary():
    at = SaturationMetrics(new_entities_ratio=0.05, new_facts_ratio=0.05,
                           citation_circularity=0.80, source_coverage=0.95)
    assert should_stop(at)[0] is False


def test_calculate_saturation_ratios():
    m = calculate_saturation(entities_before=40, entities_after=50, facts_before=18,
                             facts_after=20, circular_citations=3, total_citations=12,
                             sources_queried=6, sources_available=8)
    assert m.new_entities_ratio == pytest.approx(0.2)
    assert m.new_facts_ratio == pytest.approx(0.1)
    assert m.citation_circularity == pytest.approx(0.25)
    assert m.source_coverage == pytest.approx(0.75)
    empty = calculate_saturation(0, 0, 0, 0, 0, 0, 0, 0)
    assert empty.new_entities_ratio == 0.0 and should_stop(empty)[0]


def test_domain_configurations():
    medical = DomainConfiguration.for_medical()
    assert medical.primary_sources == ["pubmed", "semantic_scholar"]
    assert medical.verification_threshold == 0.8 and medical.academic_required
    assert medical.excluded_sources == ["wikipedia"]
    ci = DomainConfiguration.for_competitive_intelligence()
    assert ci.primary_sources == ["tavily", "exa", "brave"] and ci.verification_threshold == 0.6
    assert get_domain("auto").domain == "academic" == get_domain(None).domain
    assert detect_domain("clinical treatment options for patients with diabetes")[0] == "medical"
    assert detect_domain("which competitor raised funding in this market")[0] == \
        "competitive_intelligence"
    assert detect_domain("history of the roman empire")[0] == "academic"
    with pytest.raises(ResearchConfigError) as info:
        get_domain("astrology")
    assert info.value.code == "E_UNKNOWN_DOMAIN"
