"""Dagster layer: debate_transcript materializations, interruption, one-at-a-time, demo."""

from __future__ import annotations

import dagster as dg
import psycopg
from dagster._core.errors import DagsterExecutionInterruptedError

from repro_assets.assets import debate as debate_assets
from repro_assets.debate.loop import DebateEvent
from repro_assets.debate.session import observe_session
from repro_assets.debate.views import show_transcript
from repro_assets.demo import HOOKS, DemoContext
from repro_assets.demos import debate as debate_demo
from repro_assets.jobs import DEBATE_RUN_TAGS
from repro_assets.resources.registry import default_resources
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.vectorstore import VectorStore


def _materialize(
    instance: dg.DagsterInstance, key: str, **config: object
) -> dg.ExecuteInProcessResult:
    instance.add_dynamic_partitions("debates", [key])
    return dg.materialize(
        [debate_assets.debate_transcript], instance=instance, partition_key=key,
        resources=default_resources(),
        run_config={"ops": {"debate_transcript": {"config": {"question": SAMPLE_QUESTION,
                                                              **config}}}},
        tags=DEBATE_RUN_TAGS, raise_on_error=False,
    )


def test_offline_debate_materializes_transcript_signals_and_checks(
    corpus_store: VectorStore, no_network: None
) -> None:
    instance = dg.DagsterInstance.ephemeral()
    result = _materialize(instance, "a-offline", max_turns=4)
    assert result.success
    [event] = result.get_asset_materialization_events()
    meta = {k: getattr(v, "value", v) for k, v in event.materialization.metadata.items()}
    assert meta["terminal_state"] == "consensus" and meta["mode"] == "offline mode"
    assert meta["method"] == "heuristic"
    assert meta["turns"] == 2 and meta["invalid_citations"] == 0 and meta["references_cited"] > 0
    assert meta["ingested_arxiv"] == 0  # offline: no live search
    assert meta["evidence_addresses_question"] is True and meta["best_relevance"] >= 0.55
    assert "=== Viable Solution Reached ===" in meta["preview"]
    checks = {c.check_name: c.passed for c in result.get_asset_check_evaluations()}
    assert checks == {"citations_grounded": True, "markers_well_formed": True}
    logs = [e.message for e in instance.all_logs(result.run_id)
            if e.user_message.startswith("[[STATUS]]")]
    assert logs, "runtime signals are logged as [[STATUS]] lines"
    messages = [e.user_message for e in instance.all_logs(result.run_id)]
    for signal in ("[[STATUS]] Research Scientist 1 Search Query: ",
                   "[[STATUS]] Research Scientist 2 Retrieved chunks from vector DB: ",
                   "[[STATUS]] Terminal state: Consensus"):
        assert any(m.startswith(signal) for m in messages), signal
    stored = show_transcript("a-offline")
    assert stored["terminal_state"] == "consensus" and len(stored["turns"]) == 2
    assert stored["turns"][0]["evidence"][0]["reference"]
    listing = show_transcript(None)
    assert any(s["id"] == "a-offline" for s in listing["sessions"])


def test_run_termination_keeps_the_transcript_so_far(
    corpus_store: VectorStore, no_network: None
) -> None:
    def terminate_on_turn_two(event: DebateEvent) -> None:
        if event.message.startswith("Research Scientist 2 Retrieved"):
            raise DagsterExecutionInterruptedError()  # what run termination raises in the op

    instance = dg.DagsterInstance.ephemeral()
    with observe_session("a-terminated", terminate_on_turn_two, lambda: False):
        result = _materialize(instance, "a-terminated")
    assert not result.success
    stored = show_transcript("a-terminated")
    assert stored["terminal_state"] == "interrupted" and len(stored["turns"]) == 1
    from repro_assets.resources.blobstore import BlobStoreResource

    markdown = BlobStoreResource().get_store().read_text("debates/a-terminated/transcript.md")
    assert markdown.rstrip().endswith("=== Debate Interrupted ===")


def test_a_second_concurrent_debate_is_refused(
    corpus_store: VectorStore, seeded_corpus_url: str, no_network: None
) -> None:
    instance = dg.DagsterInstance.ephemeral()
    with psycopg.connect(seeded_corpus_url, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(2002043035)")
        result = _materialize(instance, "a-busy")
        other.execute("SELECT pg_advisory_unlock(2002043035)")
    assert not result.success
    [failure] = [e for e in result.all_events if e.is_step_failure]
    assert failure.step_failure_data.user_failure_data.metadata["code"].value == "E_DEBATE_BUSY"


def test_invalid_config_fails_with_code(corpus_store: VectorStore, no_network: None) -> None:
    result = _materialize(dg.DagsterInstance.ephemeral(), "a-bad", max_turns=999)
    [failure] = [e for e in result.all_events if e.is_step_failure]
    assert failure.step_failure_data.user_failure_data.metadata["code"].value == "E_DEBATE_CONFIG"


def test_debate_job_is_tagged_for_the_one_at_a_time_limit() -> None:
    assert debate_assets.debate_job.tags == {"repro/workflow": "debate"}
    assert list(HOOKS).index("debate") == 3  # after papers, factory and forms


def test_demo_runs_one_offline_debate(corpus_store: VectorStore, no_network: None) -> None:
    defs = dg.Definitions(assets=[debate_assets.scholarly_corpus,
                                  debate_assets.debate_transcript],
                          jobs=[debate_assets.scholarly_corpus_job, debate_assets.debate_job],
                          resources=default_resources())
    rows = debate_demo.demo(DemoContext(instance=dg.DagsterInstance.ephemeral(), defs=defs))
    [row] = rows
    assert row.ok and row.partition == debate_demo.DEMO_PARTITION
    assert row.figures == "consensus after 2 turns, offline mode"
    assert any(d.startswith("terminal state: consensus") for d in row.details)


def test_llm_debate_through_the_asset_and_the_wire_fake(
    corpus_store: VectorStore, no_network: None
) -> None:
    from repro_assets.resources.llm import LLMResource
    from tests.debate.test_llm_debate import APPROVAL, PROPOSAL
    from tests.fakes.llm_wire import FAST_CLIENT_CONFIG, OpenAIWireFake

    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("debates", ["a-llm"])
    resources = {**default_resources(),
                 "llm": LLMResource(provider="openai", openai_api_key="sk-test",
                                    **FAST_CLIENT_CONFIG)}
    with OpenAIWireFake() as fake:
        fake.reply_text(PROPOSAL.replace("[2]", "[99]")).reply_text(APPROVAL)
        result = dg.materialize(
            [debate_assets.debate_transcript], instance=instance, partition_key="a-llm",
            resources=resources, tags=DEBATE_RUN_TAGS,
            run_config={"ops": {"debate_transcript": {"config": {
                "question": SAMPLE_QUESTION, "live_search": "off"}}}},
        )
    meta = {k: getattr(v, "value", v) for k, v in
            result.get_asset_materialization_events()[0].materialization.metadata.items()}
    assert meta["mode"] == "llm" and meta["terminal_state"] == "consensus"
    assert meta["llm_calls"] == 2 and meta["invalid_citations"] == 1  # [99], deduplicated
    checks = {c.check_name: c.passed for c in result.get_asset_check_evaluations()}
    assert checks == {"citations_grounded": False, "markers_well_formed": True}
