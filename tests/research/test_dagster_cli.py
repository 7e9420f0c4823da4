"""Run termination (stop early), the CLI command and the demo hook."""

from __future__ import annotations

import argparse

import dagster as dg
import pytest
from dagster._core.errors import DagsterExecutionInterruptedError

from repro_assets.assets import research as research_assets
from repro_assets.commands import research as research_cli
from repro_assets.demo import DemoContext
from repro_assets.demos import research as research_demo
from repro_assets.research.providers.local import LocalCorpusProvider
from repro_assets.research.store import ResearchStore
from repro_assets.research.views import load_report
from repro_assets.resources.registry import default_resources
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.database import get_database
from tests.research.fakes import ScriptedProvider


class TerminatedOnSecondCycle(ScriptedProvider):
    """Raises Dagster's interrupt (what run termination raises in the step) in cycle 2."""

    async def search(self, query, max_results=10, filters=None, *, timeout=None):
        if len(self.calls) >= 1:
            raise DagsterExecutionInterruptedError()
        return await super().search(query, max_results, filters, timeout=timeout)


def test_terminating_the_run_synthesizes_from_what_was_collected(
    corpus_store, monkeypatch, no_network
):
    provider = TerminatedOnSecondCycle("local", kind="local", fresh_queries=10)
    monkeypatch.setattr(research_assets, "build_providers",
                        lambda mode, store: {"local": provider})
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("research_sessions", ["term-1"])
    result = dg.materialize(
        [research_assets.research_report], instance=instance, partition_key="term-1",
        resources=default_resources(),
        run_config={"ops": {"research_report": {"config": {
            "query": "ecological forecasting validation", "privacy_mode": "local_only"}}}},
    )
    assert result.success
    meta = result.get_asset_materialization_events()[0].materialization.metadata
    assert meta["stop_reason"].value == research_assets.STOPPED_BY_TERMINATION
    assert meta["facts"].value > 0  # cycle 1 findings made it into the report
    report = load_report("term-1")
    assert report["stop_reason"].startswith("Stopped early: the run was terminated")
    assert ResearchStore(get_database()).session("term-1")["status"] == "stopped"


def test_cli_research_local_only(corpus_store, monkeypatch, capsys, no_network):
    instance = dg.DagsterInstance.ephemeral()
    monkeypatch.setattr("repro_assets.instance.get_instance", lambda: instance)
    parser = argparse.ArgumentParser()
    research_cli.register(parser.add_subparsers())
    args = parser.parse_args(["research", SAMPLE_QUESTION, "--privacy", "local_only",
                              "--session", "cli-1", "--max-cycles", "3"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "session: cli-1" in out and "stop reason:" in out and "report.md" in out
    assert instance.get_dynamic_partitions("research_sessions") == ["cli-1"]
    args = parser.parse_args(["research", "--status", "cli-1"])
    assert args.func(args) == 0
    assert "cli-1: completed" in capsys.readouterr().out
    args = parser.parse_args(["research", "--stop", "nope"])
    assert args.func(args) == 2
    args = parser.parse_args(["research", ""])
    assert args.func(args) == 2


def test_demo_hook_runs_one_offline_local_only_session(corpus_store, no_network):
    defs = dg.Definitions.merge(research_assets.defs,
                                dg.Definitions(resources=default_resources()))
    rows = research_demo.demo(DemoContext(instance=dg.DagsterInstance.ephemeral(), defs=defs))
    [row] = rows
    assert row.ok and row.partition == research_demo.DEMO_SESSION
    assert row.where.endswith("report.md")
    assert any(d.startswith("stop reason: ") for d in row.details)
    session = ResearchStore(get_database()).session(research_demo.DEMO_SESSION)
    assert session["privacy_mode"] == "local_only" and session["status"] == "completed"


def test_local_provider_only_returns_relevant_chunks(corpus_store):
    import asyncio

    results = asyncio.run(LocalCorpusProvider(corpus_store).search(SAMPLE_QUESTION, 5))
    assert results and all(r["url"].split("#chunk=")[1].isdigit() for r in results)
    assert all(r["metadata"]["distance"] <= 0.8 for r in results)
    assert asyncio.run(LocalCorpusProvider(corpus_store).is_available())


@pytest.mark.parametrize("mode", ["local_only", "cloud_allowed", "hybrid"])
def test_config_accepts_privacy_modes(mode):
    config = research_assets.ResearchConfig(query="q", privacy_mode=mode)
    assert config.max_cycles == 6
