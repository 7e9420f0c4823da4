"""Heuristic extraction, fact merging with provenance, cross-verification and contradictions."""

from __future__ import annotations

from repro_assets.research.analysis import cross_verify, find_contradictions, follow_up_entities
from repro_assets.research.domains import DomainConfiguration
from repro_assets.research.extraction import heuristic_extract, merge_extraction
from repro_assets.research.models import Fact, SourceResult
from repro_assets.storage.embedder import get_embedder


def result(url: str, text: str, source: str = "semantic_scholar", quality: float = 0.8,
           authors: list[str] | None = None) -> SourceResult:
    return SourceResult(url=url, title="T", snippet=text, source_name=source,
                        quality_score=quality, metadata={"authors": authors or []})


def test_heuristic_extraction_keeps_provenance_and_merges_across_sources():
    a = result("https://a.org/1", "Deep RL solves the fisheries management problem near "
               "optimally in simulation. What is next?", authors=["Carl Boettiger"])
    b = result("https://b.org/2", "In simulation, deep RL solves the fisheries management "
               "problem near optimally.", source="crossref")
    extraction = heuristic_extract([a, b], "deep reinforcement learning fisheries")
    assert extraction.method == "heuristic"
    entities, facts = merge_extraction([], [], extraction, [a, b], cycle=1,
                                       embedder=get_embedder())
    assert len(facts) == 1  # same fact from two sources merged
    [fact] = facts
    assert fact.sources == ["https://a.org/1", "https://b.org/2"]
    assert [p.source_name for p in fact.provenance] == ["semantic_scholar", "crossref"]
    assert all(p.quote for p in fact.provenance)
    names = {e.name: e for e in entities}
    assert names["Carl Boettiger"].entity_type == "person"
    assert names["Deep RL"].mention_count >= 2  # a noun phrase, found in both sources
    assert all(e.first_cycle == 1 for e in entities)


def test_cross_verification_confidence_and_threshold():
    medical = DomainConfiguration.for_medical()
    results = [result("https://pubmed.ncbi.nlm.nih.gov/1/", "x", "pubmed", 0.8),
               result("https://pubmed.ncbi.nlm.nih.gov/2/", "x", "pubmed", 0.8),
               result("https://blog.example/3", "x", "tavily", 0.5)]
    one = Fact(id="F1", statement="Metformin lowers HbA1c in type 2 diabetes patients.",
               sources=["https://pubmed.ncbi.nlm.nih.gov/1/"])
    two = Fact(id="F2", statement="Exercise improves insulin sensitivity in adults.",
               sources=["https://pubmed.ncbi.nlm.nih.gov/1/", "https://pubmed.ncbi.nlm.nih.gov/2/"])
    web = Fact(id="F3", statement="A blog says green tea cures diabetes quickly.",
               sources=["https://blog.example/3"])
    scored, _ = cross_verify([one, two, web], results, {"pubmed"}, medical)
    by_id = {f.id: f for f in scored}
    assert by_id["F1"].confidence < 0.8 and not by_id["F1"].verified  # one source
    assert by_id["F2"].confidence >= 0.8 and by_id["F2"].verified  # two independent sources
    assert by_id["F2"].confidence > by_id["F1"].confidence > by_id["F3"].confidence
    assert not by_id["F3"].verified  # medical requires an academic source


def test_contradictions_need_same_subject_and_disagreement():
    f1 = Fact(id="F1", statement="The BERT model improves accuracy on SST-2 by 10 percent.",
              sources=["https://a.org"], entities=["BERT"])
    f2 = Fact(id="F2", statement="The BERT model improves accuracy on SST-2 by 25 percent.",
              sources=["https://b.org"], entities=["BERT"])
    f3 = Fact(id="F3", statement="The BERT model does not improve accuracy on SST-2.",
              sources=["https://c.org"], entities=["BERT"])
    f4 = Fact(id="F4", statement="The GPT model improves accuracy on SST-2 by 40 percent.",
              sources=["https://d.org"], entities=["GPT"])
    found = {(c.fact_a, c.fact_b) for c in find_contradictions([f1, f2, f3, f4])}
    assert ("F1", "F2") in found and ("F1", "F3") in found and ("F2", "F3") in found
    assert not {p for p in found if "F4" in p}  # different subject: no conflict
    scored, contradictions = cross_verify(
        [f1, f2, f3, f4], [], set(), DomainConfiguration.for_academic())
    assert {f.id for f in scored if f.contradictions} == {"F1", "F2", "F3"}
    assert contradictions


def test_follow_ups_come_from_new_non_person_entities():
    from repro_assets.research.models import Entity

    entities = [Entity(name="Kappa Dataset", entity_type="concept", first_cycle=2,
                       mention_count=3),
                Entity(name="Ann Author", entity_type="person", first_cycle=2, mention_count=9),
                Entity(name="Old Thing", entity_type="concept", first_cycle=1, mention_count=9)]
    assert follow_up_entities(entities, 2, "query", set()) == ["Kappa Dataset"]
    assert follow_up_entities(entities, 2, "query", {"kappa dataset"}) == []
