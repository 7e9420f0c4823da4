"""Honest offline answers (issue #16 item 1).

Reproduced defects: an empty corpus ended with "Entity saturation reached" and exit 0; over the
sample corpus a diabetes question presented canine muscle-torque sentences as key points; the
"confidence" shown was retrieval similarity.
"""

from __future__ import annotations

import argparse

import dagster as dg

from repro_assets.commands import research as research_cli
from repro_assets.llm.offline import OfflineClient
from repro_assets.research.agent import ResearchAgent
from repro_assets.research.providers import build_providers
from repro_assets.research.store import ResearchStore
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.database import get_database

DIABETES = "latest treatments for type 2 diabetes"


def _run(store_or_vectors, session: str, query: str, fresh_db: bool = False):
    store = ResearchStore(get_database())
    agent = ResearchAgent(build_providers("local_only", store_or_vectors), llm=OfflineClient(),
                          store=store, writer=lambda key, text: f"mem://{key}")
    return agent.run(session, query, privacy_mode="local_only", max_cycles=4), store


def test_empty_corpus_ends_with_no_sources_not_saturation(fresh_database, no_network):
    from repro_assets.storage.embedder import get_embedder
    from repro_assets.storage.vectorstore import VectorStore

    vectors = VectorStore(get_database(fresh_database), get_embedder())
    state, store = _run(vectors, "h-empty", DIABETES)
    assert state.outcome == "no_sources"
    assert "saturation" not in (state.stop_reason or "").lower()
    report = state.final_report
    assert report["outcome"] == "no_sources"
    assert report["key_points"] == [] and report["facts"] == []
    assert "no sources" in report["summary"].lower()
    assert store.session("h-empty")["status"] == "no_sources"


def test_off_topic_question_is_insufficient_evidence(corpus_store, no_network):
    state, store = _run(corpus_store, "h-diabetes", DIABETES)
    assert state.outcome == "insufficient_evidence"
    report = state.final_report
    assert report["key_points"] == []
    assert not any(f["verified"] for f in report["facts"])
    text = " ".join(f["statement"] for f in report["facts"]).lower()
    assert "canine" not in text and "hindlimb" not in text and "torque" not in text
    assert "do not answer" in report["summary"].lower() or "insufficient" in \
        report["summary"].lower()
    assert store.session("h-diabetes")["status"] == "insufficient_evidence"


def test_answerable_question_key_points_are_on_topic(corpus_store, no_network):
    state, _ = _run(corpus_store, "h-answer", SAMPLE_QUESTION)
    assert state.outcome == "answered"
    report = state.final_report
    assert report["key_points"]
    by_id = {f["id"]: f for f in report["facts"]}
    for point in report["key_points"]:
        for fid in point["fact_ids"]:
            assert by_id[fid]["relevance"] >= 0.3
    # confidence is not retrieval similarity: a single-source fact is never verified, and
    # the prior quality of a local chunk does not depend on its distance to the query
    for fact in report["facts"]:
        if len({s.split("#")[0] for s in fact["sources"]}) < 2:
            assert not fact["verified"]
    qualities = {r.quality_score for r in state.results if r.source_name == "local"}
    assert len(qualities) == 1
    # references are references: title and URL or DOI, never a filesystem path
    for source in report["sources"]:
        assert source["title"] and not source["url"].startswith(("/", "file:"))
        assert source["title"] in source["reference"]


def _cli(args: list[str]) -> int:
    parser = argparse.ArgumentParser()
    research_cli.register(parser.add_subparsers())
    parsed = parser.parse_args(["research", *args])
    return parsed.func(parsed)


def test_cli_exits_non_zero_when_the_corpus_cannot_answer(corpus_store, monkeypatch, capsys,
                                                          no_network):
    instance = dg.DagsterInstance.ephemeral()
    monkeypatch.setattr("repro_assets.instance.get_instance", lambda: instance)
    code = _cli([DIABETES, "--privacy", "local_only", "--session", "h-cli-1"])
    captured = capsys.readouterr()
    assert code == research_cli.EXIT_NO_ANSWER != 0
    assert "insufficient_evidence" in captured.out + captured.err


def test_cli_on_a_fresh_install_says_no_sources(fresh_database, monkeypatch, capsys,
                                                no_network):
    instance = dg.DagsterInstance.ephemeral()
    monkeypatch.setattr("repro_assets.instance.get_instance", lambda: instance)
    code = _cli([DIABETES, "--privacy", "local_only", "--session", "h-cli-2"])
    captured = capsys.readouterr()
    assert code == research_cli.EXIT_NO_ANSWER
    assert "no_sources" in captured.out + captured.err
    assert "Entity saturation" not in captured.out
