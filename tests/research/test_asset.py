"""The Dagster layer: research_report materializes offline in local_only mode."""

from __future__ import annotations

import dagster as dg

from repro_assets.assets import research as research_assets
from repro_assets.research.store import ResearchStore
from repro_assets.research.views import show_report
from repro_assets.resources.registry import default_resources
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.database import get_database


def test_research_report_asset_materializes_with_metadata(corpus_store, no_network):
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("research_sessions", ["asset-1"])
    result = dg.materialize(
        [research_assets.research_report, research_assets.research_report_grounded],
        instance=instance,
        partition_key="asset-1",
        resources=default_resources(),
        run_config={"ops": {"research_report": {"config": {
            "query": SAMPLE_QUESTION, "privacy_mode": "local_only", "max_cycles": 4}}}},
    )
    assert result.success
    meta = result.get_asset_materialization_events()[0].materialization.metadata
    assert meta["stop_reason"].value
    assert meta["cycles"].value >= 1
    assert "saturation_plot" in meta and "data:image/png;base64," in meta["saturation_plot"].value
    assert meta["provider_calls"].value.keys() == {"local"}
    assert meta["report_markdown"].value.endswith("report.md")
    checks = result.get_asset_check_evaluations()
    assert checks and all(c.passed for c in checks)
    row = ResearchStore(get_database()).session("asset-1")
    assert row["status"] == "completed" and row["stop_reason"] == meta["stop_reason"].value
    shown = show_report("asset-1")
    assert shown["stop_reason"] == row["stop_reason"]
    assert shown["facts"] and all(f["citations"] for f in shown["facts"])


def test_unknown_privacy_mode_fails_with_code(fresh_database):
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("research_sessions", ["bad-1"])
    result = dg.materialize(
        [research_assets.research_report], instance=instance, partition_key="bad-1",
        resources=default_resources(), raise_on_error=False,
        run_config={"ops": {"research_report": {"config": {
            "query": "anything", "privacy_mode": "everywhere"}}}},
    )
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    assert failure.step_failure_data.user_failure_data.metadata["code"].value == \
        "E_UNKNOWN_PRIVACY_MODE"
