"""The LLM synthesis against the scripted OpenAI-compatible server (issue #26 item 4).

The prompt requires abstention when no fact states the asked value; a summary whose number is
in no cited fact (nor the answer check's quote) is rejected and the template report is used.
"""

from __future__ import annotations

from repro_assets.research.agent import ResearchAgent
from repro_assets.research.providers.local import LocalCorpusProvider
from repro_assets.resources.llm import LLMResource
from repro_assets.storage.vectorstore import VectorStore
from tests.fakes.openai_server import OpenAIServer
from tests.research.generated_corpus import TABLE_QUESTION, salmon_question

QUESTION = TABLE_QUESTION


def _run(store: VectorStore, session: str, question: str):
    client = LLMResource(cache_enabled=False, record_usage=False, retry_attempts=1).get_client()
    agent = ResearchAgent({"local": LocalCorpusProvider(store)}, llm=client, store=None,
                          writer=None, embedder=store.embedder)
    return agent.run(session, question, privacy_mode="cloud_allowed", max_cycles=1)


def _script(scripted_llm: OpenAIServer, summary: str) -> None:
    scripted_llm.reply_json({"refined_query": QUESTION, "domain": "academic", "questions": []})
    scripted_llm.reply_json({"entities": [], "facts": []})
    scripted_llm.reply_json({"summary": summary, "key_points": []})


def test_a_summary_number_no_quote_states_is_rejected(scripted_llm, generated_store):
    _script(scripted_llm, "TextConv-tuned reaches 91.3% accuracy on the Egret set.")
    state = _run(generated_store, "llm-num-1", QUESTION)
    synth = [r for r in scripted_llm.requests if (r.schema_name or "").startswith("ReportDraft")]
    assert synth, "the synthesis was asked of the server"
    assert "insufficient evidence" in synth[0].system and "number" in synth[0].system
    assert state.outcome == "answered" and state.synthesis_method == "heuristic"
    assert any("E_UNGROUNDED_NUMBER" in note for note in state.final_report["notes"])
    assert state.final_report["answer"]["value"] == "89.6"
    assert "91.3" not in state.final_report["summary"]


def test_a_summary_with_the_quoted_number_is_kept(scripted_llm, generated_store):
    _script(scripted_llm, "TextConv-tuned reaches 89.6% accuracy on the Egret review set.")
    state = _run(generated_store, "llm-num-2", QUESTION)
    assert state.synthesis_method == "llm"
    assert state.final_report["summary"].startswith("TextConv-tuned reaches 89.6%")


def test_the_salmon_question_is_not_sent_for_synthesis(scripted_llm, generated_store):
    scripted_llm.reply_json({"refined_query": QUESTION, "domain": "academic", "questions": []})
    scripted_llm.reply_json({"entities": [], "facts": []})
    state = _run(generated_store, "llm-salmon", salmon_question())
    assert state.outcome == "insufficient_evidence"
    assert not [r for r in scripted_llm.requests if (r.schema_name or "").startswith("ReportDraft")]
    assert state.final_report["answer"] is None and state.final_report["key_points"] == []
