"""Dataset resolution for a plan (seed 000, stage 4 step 8): RESOLVED / BLOCKED / UNKNOWN /
COMPLEX."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from repro_assets.papers.plan_models import DataResolution
from repro_assets.papers.registry import (
    BLOCKED_DATASETS,
    DATASET_REGISTRY,
    DatasetMetadata,
    blocked_name,
    lookup_dataset,
    normalize_name,
)

_MULTI_SPLIT = re.compile(r"\s*(?:,|;|\+|&|/|\band\b)\s*", re.IGNORECASE)


def split_dataset_names(name: str) -> list[str]:
    """Split 'SST-2 and MR' / 'SST-2, MR' into parts (a single name stays one part)."""
    if lookup_dataset(name) or blocked_name(name):
        return [name]
    parts = [p for p in _MULTI_SPLIT.split(name) if p.strip()]
    return parts if len(parts) > 1 else [name]


def resolve_dataset(
    name: str,
    registry: Mapping[str, DatasetMetadata] = DATASET_REGISTRY,
    blocked_list: Collection[str] = BLOCKED_DATASETS,
) -> DataResolution:
    """Resolve one requested dataset name.

    * BLOCKED: the name (or an alias) is in ``blocked_list``.
    * COMPLEX: several datasets in one name, or a registry entry that needs a custom adapter.
    * RESOLVED: a registry entry.
    * UNKNOWN: anything else.
    """
    blocked = blocked_name(name)
    if blocked is None and normalize_name(name) in blocked_list:
        blocked = normalize_name(name)
    if blocked:
        return DataResolution(dataset_name=blocked, requested_name=name, status="BLOCKED",
                              reason=f"{blocked} is blocked (too large for a CPU budget)")
    parts = split_dataset_names(name)
    if len(parts) > 1:
        known = [lookup_dataset(p) for p in parts]
        names = [k.name for k in known if k is not None]
        return DataResolution(
            dataset_name=names[0] if names else name, requested_name=name, status="COMPLEX",
            source=known[0].source if known and known[0] else None,
            registry_metadata={"parts": parts, "resolved_parts": names},
            reason="several datasets requested in one plan",
        )
    entry = lookup_dataset(name)
    if entry is not None and entry.name not in registry:
        entry = None
    if entry is None:
        return DataResolution(dataset_name=name, requested_name=name, status="UNKNOWN",
                              reason="not in the dataset registry")
    if entry.complex:
        return DataResolution(dataset_name=entry.name, requested_name=name, status="COMPLEX",
                              source=entry.source, registry_metadata=entry.summary(),
                              reason=f"{entry.task} needs a custom adapter")
    return DataResolution(dataset_name=entry.name, requested_name=name, status="RESOLVED",
                          source=entry.source, registry_metadata=entry.summary())


def resolve_dataset_for_plan(
    plan_dict: Mapping[str, Any],
    registry: Mapping[str, DatasetMetadata] = DATASET_REGISTRY,
    blocked_list: Collection[str] = BLOCKED_DATASETS,
) -> DataResolution:
    """Resolve ``plan_dict['dataset']['name']`` (seed signature)."""
    dataset = plan_dict.get("dataset") or {}
    name = dataset.get("name") if isinstance(dataset, Mapping) else str(dataset)
    return resolve_dataset(str(name or ""), registry, blocked_list)
