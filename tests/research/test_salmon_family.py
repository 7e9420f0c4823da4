"""The salmon family of issue #26 against a generated near-topic corpus.

Reproduced defect: over a corpus with near-topic documents, a forecast question for a future
year ended ``answered`` (exit 0) with key points from unrelated papers. It must end
``insufficient_evidence`` (exit 3) with the closest sources listed as related, not answering;
an asked number that a source states is answered with its quote and source.
"""

from __future__ import annotations

import argparse
import json

import dagster as dg

from repro_assets.commands import research as research_cli
from repro_assets.llm.offline import OfflineClient
from repro_assets.research.agent import ResearchAgent
from repro_assets.research.providers import build_providers
from repro_assets.storage.vectorstore import VectorStore
from tests.research.generated_corpus import salmon_question


def _run(store: VectorStore, session: str, question: str):
    agent = ResearchAgent(build_providers("local_only", store), llm=OfflineClient(),
                          store=None, writer=None, embedder=store.embedder)
    return agent.run(session, question, privacy_mode="local_only", max_cycles=2)


def test_the_salmon_question_ends_insufficient_evidence_exit_3(
    generated_store, monkeypatch, capsys, no_network
):
    instance = dg.DagsterInstance.ephemeral()
    monkeypatch.setattr("repro_assets.instance.get_instance", lambda: instance)
    parser = argparse.ArgumentParser()
    research_cli.register(parser.add_subparsers())
    args = parser.parse_args(["research", salmon_question(), "--privacy", "local_only",
                              "--session", "salmon-1", "--max-cycles", "2"])
    assert args.func(args) == research_cli.EXIT_NO_ANSWER == 3
    captured = capsys.readouterr()
    assert "status: insufficient_evidence" in captured.out
    assert json.loads(captured.out.splitlines()[1])["outcome"] == "insufficient_evidence"


def test_the_report_lists_related_sources_and_no_key_points(generated_store, no_network):
    state = _run(generated_store, "salmon-2", salmon_question())
    report = state.final_report
    assert state.outcome == "insufficient_evidence"
    assert report["key_points"] == [] and report["answer"] is None
    assert "future" in report["answer_check"]["reason"]
    related = [r["title"] for r in report["related_not_answering"]]
    assert related and related[0].startswith("Recurrent networks")  # near-topic, not an answer
    assert "Related, does not answer" in report["summary"]


def test_a_number_a_source_states_is_answered_with_its_quote(generated_store, no_network):
    state = _run(generated_store, "heron-1", "What accuracy does TextConv-tuned reach on the "
                 "Egret review set?")
    report = state.final_report
    assert state.outcome == "answered"
    assert report["answer"]["value"] == "89.6"
    assert "TextConv-tuned" in report["answer"]["quote"]
    assert report["answer"]["citations"] and report["key_points"][0]["text"].startswith(
        "Answer: 89.6")


def test_a_variant_no_source_names_is_insufficient_evidence(generated_store, no_network):
    state = _run(generated_store, "heron-2", "What accuracy does TextConv-large reach on the "
                 "Egret review set?")
    assert state.outcome == "insufficient_evidence"
    assert "TextConv-large" in state.final_report["answer_check"]["missing_anchors"]
