"""Entities from a POS tagger + noun-phrase chunker; facts merged by meaning (issue #16 item 3).

Reproduced defects: entities were regex fragments ("First Comparative Study of Multiple") that
became follow-up queries; no fact ever got a second source (0 of 21 verified).
"""

from __future__ import annotations

from repro_assets.llm.offline import OfflineClient
from repro_assets.research.agent import AgentOptions, ResearchAgent
from repro_assets.research.analysis import cross_verify
from repro_assets.research.domains import DomainConfiguration
from repro_assets.research.entities import extract_entities
from repro_assets.research.extraction import heuristic_extract, merge_extraction
from repro_assets.research.models import SourceResult
from repro_assets.research.providers.base import make_result
from repro_assets.storage.embedder import get_embedder
from tests.research.fakes import ScriptedProvider

TITLE = "Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques"
ABSTRACT = (
    "Deep Learning (DL) has revolutionized the capabilities of vision-based systems. "
    "The Time Delay Neural Network (TDNN) was proposed by researchers at Carnegie Mellon "
    "University. We compare mutation testing and metamorphic testing on image classifiers."
)
FUNCTION_WORDS = {"of", "for", "and", "the", "a", "an", "in", "on", "to", "with", "by", "at"}


def test_entities_are_noun_phrases_not_regex_fragments():
    names = {e.name: e.entity_type for e in extract_entities(ABSTRACT, title=TITLE)}
    assert "First Comparative Study of Multiple" not in names
    for name in names:
        words = name.split()
        assert words[0].lower() not in FUNCTION_WORDS and words[-1].lower() not in FUNCTION_WORDS
        assert not name.lower().startswith(("first ", "multiple ")), name
    # an acronym defined in the text becomes one entity under its long form
    assert names.get("Time Delay Neural Network") == "method"
    assert "Carnegie Mellon University" in names
    assert names["Carnegie Mellon University"] == "organization"
    assert "metamorphic testing" in {n.lower() for n in names}


def result(url: str, text: str, source: str = "semantic_scholar") -> SourceResult:
    return SourceResult(url=url, title="Study", snippet=text, source_name=source,
                        quality_score=0.8)


A = "Metformin lowers blood glucose in patients with type 2 diabetes."
B = "In people with type 2 diabetes, metformin reduces blood sugar levels."


def test_the_same_finding_from_two_sources_is_verified():
    a = result("https://journal-a.org/1", A)
    b = result("https://journal-b.org/2", B, source="crossref")
    extraction = heuristic_extract([a, b], "metformin type 2 diabetes")
    _, facts = merge_extraction([], [], extraction, [a, b], cycle=1, embedder=get_embedder())
    assert len(facts) == 1, [f.statement for f in facts]
    scored, _ = cross_verify(facts, [a, b], {"semantic_scholar", "crossref"},
                             DomainConfiguration.for_medical())
    [fact] = scored
    assert fact.sources == ["https://journal-a.org/1", "https://journal-b.org/2"]
    assert fact.verified and fact.confidence >= 0.8


def test_different_findings_stay_apart():
    pairs = [
        (A, "Insulin therapy lowers blood glucose in patients with type 1 diabetes."),
        ("The vaccine reduced hospitalisation by 80% in older adults.",
         "The vaccine reduced hospitalisation by 50% in older adults."),
        ("Early warning signals are reliable predictors of critical transitions in ecosystems.",
         "Early warning signals are not reliable predictors of critical transitions in "
         "ecosystems."),
    ]
    for first, second in pairs:
        a = result("https://a.org/1", first)
        b = result("https://b.org/2", second)
        extraction = heuristic_extract([a, b], first)
        _, facts = merge_extraction([], [], extraction, [a, b], cycle=1,
                                    embedder=get_embedder())
        assert len(facts) == 2, (first, second)


def test_one_source_is_never_verified_however_good():
    a = result("https://journal-a.org/1", A)
    a.quality_score = 0.99
    extraction = heuristic_extract([a], "metformin")
    _, facts = merge_extraction([], [], extraction, [a], cycle=1, embedder=get_embedder())
    scored, _ = cross_verify(facts, [a], {"semantic_scholar"},
                             DomainConfiguration.for_academic())
    assert scored and not any(f.verified for f in scored)


class TwoJournals(ScriptedProvider):
    """Two independent sources that word the same findings differently."""

    async def search(self, query, max_results=10, filters=None, *, timeout=None):
        self.calls.append(query)
        if len(self.calls) > 1:
            return []
        return [
            make_result(url="https://journal-a.org/1", title="Trial A", snippet=(
                f"{A} Adverse events were mild in the treated group."), source_name=self.name,
                quality_score=0.8),
            make_result(url="https://journal-b.org/2", title="Cohort B", snippet=(
                f"{B} Cohort members were followed for five years."), source_name=self.name,
                quality_score=0.8),
        ]


def test_workflow_verifies_a_finding_stated_by_two_sources(no_network):
    agent = ResearchAgent({"pubmed": TwoJournals("pubmed")}, llm=OfflineClient(),
                          options=AgentOptions(), writer=lambda k, t: f"mem://{k}")
    state = agent.run("ef-1", "Does metformin lower blood glucose in type 2 diabetes?",
                      domain="medical", max_cycles=2)
    verified = [f for f in state.facts_extracted if f.verified]
    assert verified, [(f.statement, f.sources) for f in state.facts_extracted]
    assert len({s for f in verified for s in f.sources}) == 2
