"""A complete research cycle through the real OpenAI SDK client against the wire-level fake."""

from __future__ import annotations

import pytest

from repro_assets.research.agent import AgentOptions, ResearchAgent
from repro_assets.research.extraction import split_sentences
from repro_assets.research.providers.local import LocalCorpusProvider, hit_to_result
from repro_assets.research.report import document_of
from repro_assets.research.store import ResearchStore
from repro_assets.storage.database import get_database
from tests.fakes.llm_wire import OpenAIWireFake

REFINED = "How are deep reinforcement learning models tested for conservation decisions?"


def _expected_results(store) -> list[dict]:
    provider = LocalCorpusProvider(store)
    hits = store.search(REFINED, k=AgentOptions().max_results)
    return [hit_to_result(h) for h in hits if h.distance <= provider.max_distance]


def _writer(tmp_path):
    def write(key: str, text: str) -> str:
        path = tmp_path / key
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return str(path)
    return write


def test_complete_cycle_through_the_llm_wire_fake(corpus_store, tmp_path, no_network):
    results = _expected_results(corpus_store)
    assert len(results) >= 2
    quote = next(s for s in split_sentences(results[0]["full_content"]) if len(s) > 40)
    with OpenAIWireFake() as fake:
        fake.reply_json({"refined_query": REFINED, "domain": "academic",
                         "questions": ["Which ecosystems?", "Which time range?", "Third?"]})
        fake.reply_json({
            "entities": [{"name": "Deep RL", "entity_type": "method", "source_index": 0},
                         {"name": "Fisheries", "entity_type": "concept", "source_index": 1},
                         {"name": "Ghost", "entity_type": "concept", "source_index": 42}],
            "facts": [
                {"statement": "Deep RL agents are evaluated on simulated management problems.",
                 "source_indices": [0, 1], "quote": quote, "entities": ["Deep RL"]},
                {"statement": "An invented claim citing nothing real.",
                 "source_indices": [99], "quote": "nope", "entities": []},
            ],
        })
        fake.reply_json({"summary": "Deep RL is tested on simulated problems [F1].",
                         "key_points": [{"text": "Simulation-based evaluation.",
                                         "fact_ids": ["F1"]}]})
        client = fake.make_client()
        store = ResearchStore(get_database())
        agent = ResearchAgent({"local": LocalCorpusProvider(corpus_store)}, llm=client,
                              store=store, writer=_writer(tmp_path))
        state = agent.run("llm-1", "deep RL testing conservation", privacy_mode="cloud_allowed",
                          max_cycles=1)
    assert len(fake.requests) == 3
    clarify, extract, synth = (r.json for r in fake.requests)
    assert clarify["response_format"]["json_schema"]["name"].startswith("ClarifyOutput")
    assert "deep RL testing conservation" in clarify["messages"][-1]["content"]
    assert results[0]["url"] in extract["messages"][-1]["content"]
    assert "F1" in synth["messages"][-1]["content"]

    assert state.refined_query == REFINED
    assert state.clarifying_questions == ["Which ecosystems?", "Which time range?"]  # max 2
    assert state.extraction_method == "llm" and state.synthesis_method == "llm"
    [fact] = state.facts_extracted  # the fact citing an unknown result was dropped
    assert fact.sources == [results[0]["url"], results[1]["url"]]
    assert fact.provenance[0].quote == quote and fact.method == "llm"
    assert {e.name for e in state.entities_found} == {"Deep RL", "Fisheries"}
    assert any("dropped 1 facts" in note for note in state.llm_notes)
    report = state.final_report
    assert report["summary"].startswith("Deep RL is tested")
    # citations are numbered per document (two chunks of one paper are one reference)
    documents = list(dict.fromkeys(document_of(r["url"]) for r in results[:2]))
    numbers = list(range(1, len(documents) + 1))
    assert report["key_points"][0]["citations"] == numbers
    markdown = (tmp_path / "research/llm-1/report.md").read_text()
    assert "".join(f"[{n}]" for n in numbers) in markdown
    assert report["sources"][0]["url"] == documents[0]
    assert report["sources"][0]["title"] in markdown
    assert (tmp_path / "research/llm-1/report.html").read_text().startswith("<!doctype html>")


def test_llm_failures_fall_back_to_heuristics(corpus_store, tmp_path, no_network):
    with OpenAIWireFake() as fake:
        fake.reply_json({"refined_query": REFINED, "domain": "academic", "questions": []})
        fake.reply_malformed('{"entities": [')
        fake.reply_malformed('{"entities": [')  # the client re-asks once, then gives up
        fake.reply_json({"summary": "Unsupported.", "key_points": [
            {"text": "Cites a fact that does not exist.", "fact_ids": ["F999"]}]})
        agent = ResearchAgent({"local": LocalCorpusProvider(corpus_store)},
                              llm=fake.make_client(), writer=_writer(tmp_path))
        state = agent.run("llm-2", "deep RL testing conservation", max_cycles=1)
    assert state.extraction_method == "heuristic" and state.facts_extracted
    assert all(f.method == "heuristic" for f in state.facts_extracted)
    assert state.synthesis_method == "heuristic"  # ungrounded key point rejected
    notes = " ".join(state.final_report["notes"])
    assert "E_LLM_INVALID_OUTPUT" in notes and "E_UNGROUNDED_SUMMARY" in notes


@pytest.mark.parametrize("mode", ["local_only", "hybrid"])
def test_private_modes_never_send_content_to_a_cloud_llm(corpus_store, tmp_path, no_network,
                                                         mode):
    with OpenAIWireFake() as fake:  # strict: any request would fail the test
        agent = ResearchAgent({"local": LocalCorpusProvider(corpus_store)},
                              llm=fake.make_client(), writer=_writer(tmp_path))
        state = agent.run(f"llm-3-{mode}", "deep RL testing conservation", privacy_mode=mode,
                          max_cycles=2)
    assert fake.requests == []
    assert state.extraction_method == "heuristic" and state.final_report is not None
