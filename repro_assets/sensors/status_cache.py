"""Keep Dagster's partition status cache of the papers assets current, so the UI never pays cold.

The UI's partition bar and counts (GraphQL ``assetPartitionStatuses`` / ``partitionStats``) read
Dagster's per-asset status cache (``asset_keys.cached_status_data``): the materialized, failed
and in-progress partition subsets up to a storage id, brought up to date incrementally. The
cache is stamped with the partitions definition's id, and for a dynamic partitions definition
that id is a hash of **all** its partition keys: every paper added (one dynamic partition)
invalidates the cache of every papers asset, and the next UI load rebuilds it from the whole
event log (8.6 s at 100k partitions, ``benchmarks/scale.py``), i.e. after each new paper.

``papers_status_cache_sensor`` runs every :data:`INTERVAL_SECONDS` in the daemon. When the
partition set changed since an asset's cache was written it **re-stamps** the cache with the
current id, keeping only subset keys that are still partitions (what a rebuild keeps: the
event log's materializations of current partitions; nothing is assumed about deleted ones),
then lets Dagster update it incrementally from the stored storage id
(``get_and_update_asset_status_cache_value``, the function the UI's loader calls). A missing
cache is built once the same way. So the UI pays only the incremental update of what happened
since the last tick.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import dagster as dg
from dagster._core.instance.types import CachingDynamicPartitionsLoader
from dagster._core.storage.event_log.base import AssetRecord
from dagster._core.storage.partition_status_cache import (
    AssetStatusCacheValue,
    get_and_update_asset_status_cache_value,
)

from repro_assets.partitions import papers_partitions

#: Seconds between ticks: a UI load within this long of a new paper may still pay a rebuild.
INTERVAL_SECONDS = 30
#: Work per tick: past this many seconds the other assets wait for the next tick (the first
#: build at 100k partitions takes ~4 s per asset, more under load; a sensor tick times out).
TICK_BUDGET_SECONDS = 20.0


@dataclass(frozen=True)
class RefreshResult:
    """What one refresh did: assets re-stamped (partition set changed), built (no cache yet),
    updated incrementally, left alone (already current), and left for the next tick (the
    tick's budget was spent)."""

    restamped: tuple[str, ...] = ()
    built: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    current: tuple[str, ...] = ()
    deferred: tuple[str, ...] = ()


def restamp(value: AssetStatusCacheValue, partitions_def: dg.PartitionsDefinition,
            keys: set[str], definition_id: str) -> AssetStatusCacheValue:
    """``value`` stamped with ``definition_id``, its subsets cut to the partitions ``keys``.

    Args:
        value: a stored status cache value written for an older partition set.
        partitions_def: the (dynamic) partitions definition of the asset.
        keys: the definition's current partition keys.
        definition_id: the definition's current serializable id.
    """
    def cut(serialized: str | None) -> str:
        if not serialized:
            return partitions_def.empty_subset().serialize()
        subset = partitions_def.deserialize_subset(serialized)
        kept = set(subset.get_partition_keys()) & keys
        return partitions_def.empty_subset().with_partition_keys(kept).serialize()

    return value._replace(
        partitions_def_id=definition_id,
        serialized_materialized_partition_subset=cut(
            value.serialized_materialized_partition_subset),
        serialized_failed_partition_subset=cut(value.serialized_failed_partition_subset),
        serialized_in_progress_partition_subset=cut(
            value.serialized_in_progress_partition_subset),
    )


def _is_current(value: AssetStatusCacheValue | None, record: AssetRecord | None,
                definition_id: str) -> bool:
    """The cache is stamped with the current partition set, tracks no run in progress, and
    covers the asset's newest materialization and planned materialization."""
    if value is None or record is None or value.partitions_def_id != definition_id:
        return False
    if value.earliest_in_progress_materialization_event_id:
        return False
    entry = record.asset_entry
    newest = max(entry.last_materialization_storage_id or 0,
                 entry.last_planned_materialization_storage_id or 0)
    return value.latest_storage_id >= newest


def refresh_status_cache(instance: dg.DagsterInstance, asset_keys: Iterable[dg.AssetKey],
                         partitions_def: dg.DynamicPartitionsDefinition = papers_partitions,
                         budget_seconds: float | None = None) -> RefreshResult:
    """Bring the status cache of ``asset_keys`` (partitioned by ``partitions_def``) up to date.

    The partition keys are read once for all assets. Assets never materialized have no cache
    and are left alone (Dagster writes none for them either). Once ``budget_seconds`` have
    passed, the assets not yet refreshed are deferred (at least one is refreshed per call, so
    successive calls always progress: a refreshed asset is current the next time).
    """
    began = time.monotonic()
    loader = CachingDynamicPartitionsLoader(instance)
    keys = set(loader.get_dynamic_partitions(partitions_def.name or ""))
    definition_id = partitions_def.get_serializable_unique_identifier(loader)
    ordered: Sequence[dg.AssetKey] = sorted(asset_keys, key=lambda k: k.to_user_string())
    records = {record.asset_entry.asset_key: record
               for record in instance.get_asset_records(list(ordered))}
    done: dict[str, list[str]] = {"restamped": [], "built": [], "updated": [], "current": [],
                                  "deferred": []}
    worked = False
    for key in ordered:
        record = records.get(key)
        if record is None:
            continue
        value = record.asset_entry.cached_status
        name = key.to_user_string()
        if _is_current(value, record, definition_id):
            done["current"].append(name)
            continue
        if (worked and budget_seconds is not None
                and time.monotonic() - began > budget_seconds):
            done["deferred"].append(name)
            continue
        worked = True
        if value is not None and value.partitions_def_id not in (None, definition_id):
            instance.update_asset_cached_status_data(
                key, restamp(value, partitions_def, keys, definition_id))
            done["restamped"].append(name)
        elif value is None or value.partitions_def_id is None:
            done["built"].append(name)
        else:
            done["updated"].append(name)
        get_and_update_asset_status_cache_value(instance, key, partitions_def,
                                                dynamic_partitions_loader=loader)
    return RefreshResult(*(tuple(done[k]) for k in ("restamped", "built", "updated",
                                                    "current", "deferred")))


def papers_asset_keys(repository: dg.RepositoryDefinition) -> list[dg.AssetKey]:
    """The assets of ``repository`` partitioned by the papers partitions."""
    graph = repository.asset_graph
    return [key for key in graph.materializable_asset_keys
            if graph.get(key).partitions_def == papers_partitions]


@dg.sensor(
    minimum_interval_seconds=INTERVAL_SECONDS,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Keeps the partition status of the papers assets current (Dagster rebuilds it "
    "from the whole event log whenever a paper is added; this re-stamps and updates it).",
)
def papers_status_cache_sensor(context: dg.SensorEvaluationContext) -> dg.SkipReason:
    """Refresh the papers assets' status cache; never requests runs."""
    if context.repository_def is None:
        return dg.SkipReason("no repository to read the papers assets from")
    result = refresh_status_cache(context.instance,
                                  papers_asset_keys(context.repository_def),
                                  budget_seconds=TICK_BUDGET_SECONDS)
    changed = len(result.restamped) + len(result.built) + len(result.updated)
    if result.restamped or result.built or result.deferred:
        context.log.info("status cache re-stamped: %s; built: %s; next tick: %s",
                         list(result.restamped), list(result.built), list(result.deferred))
    return dg.SkipReason(f"status cache: {changed} asset(s) refreshed, "
                         f"{len(result.current)} current, {len(result.deferred)} next tick")
