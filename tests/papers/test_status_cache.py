"""The papers status cache stays current without a rebuild from the whole event log.

Dagster stamps an asset's partition status cache with an id of its partitions definition; for
the dynamic papers partitions that id hashes every key, so adding a paper invalidates it and
the next UI load rebuilds it from every materialization (issue #29, benchmarks/scale.py).
``refresh_status_cache`` re-stamps and updates it incrementally. Counted reads, no clock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dagster as dg
import pytest

from repro_assets.definitions import defs
from repro_assets.partitions import papers_partitions
from repro_assets.sensors.status_cache import (
    papers_asset_keys,
    papers_status_cache_sensor,
    refresh_status_cache,
)

KEY = dg.AssetKey("paper_embeddings")


def _cached(instance: dg.DagsterInstance) -> Any:
    return next(iter(instance.get_asset_records([KEY]))).asset_entry.cached_status


def _materialize(instance: dg.DagsterInstance, *partitions: str) -> None:
    for partition in partitions:
        instance.report_runless_asset_event(dg.AssetMaterialization(KEY, partition=partition))


def _full_reads(instance: dg.DagsterInstance, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Calls of ``get_materialized_partitions`` without a cursor: a read of the whole log."""
    calls: list[Any] = []
    original: Callable[..., Any] = instance.get_materialized_partitions

    def counted(asset_key: dg.AssetKey, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("after_cursor") is None and not args:
            calls.append(asset_key)
        return original(asset_key, *args, **kwargs)

    monkeypatch.setattr(instance, "get_materialized_partitions", counted)
    return calls


def _subset(serialized: str) -> set[str]:
    return set(papers_partitions.deserialize_subset(serialized).get_partition_keys())


def test_a_new_paper_invalidates_dagsters_cache() -> None:
    """What the refresher is for: the stored id no longer matches once a partition is added."""
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["alpha", "beta"])
    _materialize(instance, "alpha")
    refresh_status_cache(instance, [KEY])
    before = _cached(instance).partitions_def_id
    instance.add_dynamic_partitions("papers", ["gamma"])
    assert papers_partitions.get_serializable_unique_identifier(instance) != before


def test_new_papers_are_added_to_the_cache_without_reading_the_whole_log(monkeypatch) -> None:
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["alpha", "beta"])
    _materialize(instance, "alpha", "beta")
    first = refresh_status_cache(instance, [KEY])
    assert first.built == ("paper_embeddings",)
    instance.add_dynamic_partitions("papers", ["gamma", "delta"])
    _materialize(instance, "gamma")
    full = _full_reads(instance, monkeypatch)
    result = refresh_status_cache(instance, [KEY])
    assert result.restamped == ("paper_embeddings",)
    assert full == []
    value = _cached(instance)
    assert value.partitions_def_id == papers_partitions.get_serializable_unique_identifier(
        instance)
    assert _subset(value.serialized_materialized_partition_subset) == {"alpha", "beta", "gamma"}


def test_a_deleted_paper_leaves_the_cache() -> None:
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["alpha", "beta"])
    _materialize(instance, "alpha", "beta")
    refresh_status_cache(instance, [KEY])
    instance.delete_dynamic_partition("papers", "alpha")
    refresh_status_cache(instance, [KEY])
    assert _subset(_cached(instance).serialized_materialized_partition_subset) == {"beta"}


def test_a_current_cache_is_left_alone_and_unmaterialized_assets_are_skipped() -> None:
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["alpha"])
    _materialize(instance, "alpha")
    refresh_status_cache(instance, [KEY, dg.AssetKey("paper_claims")])
    again = refresh_status_cache(instance, [KEY, dg.AssetKey("paper_claims")])
    assert again.current == ("paper_embeddings",)
    assert again.restamped == again.built == again.updated == ()


def test_the_sensor_covers_every_papers_asset_and_requests_no_run() -> None:
    repository = defs.get_repository_def()
    keys = papers_asset_keys(repository)
    assert KEY in keys and dg.AssetKey("paper_pdf") in keys
    assert dg.AssetKey("reproduction_leaderboard") not in keys
    assert repository.get_sensor_def("papers_status_cache_sensor") is not None
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["alpha"])
    _materialize(instance, "alpha")
    context = dg.build_sensor_context(instance=instance, repository_def=repository)
    result = papers_status_cache_sensor(context)
    assert isinstance(result, dg.SkipReason)
    assert _subset(_cached(instance).serialized_materialized_partition_subset) == {"alpha"}


def test_a_spent_budget_defers_the_other_assets_to_the_next_call() -> None:
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["alpha"])
    other = dg.AssetKey("paper_chunks")
    _materialize(instance, "alpha")
    instance.report_runless_asset_event(dg.AssetMaterialization(other, partition="alpha"))
    first = refresh_status_cache(instance, [KEY, other], budget_seconds=0.0)
    assert first.built == ("paper_chunks",) and first.deferred == ("paper_embeddings",)
    second = refresh_status_cache(instance, [KEY, other], budget_seconds=0.0)
    assert second.built == ("paper_embeddings",) and second.current == ("paper_chunks",)
    assert second.deferred == ()
