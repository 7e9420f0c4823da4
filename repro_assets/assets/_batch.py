"""Runs of several paper partitions at once (the ingest assets' ``BackfillPolicy.single_run``):
each paper gets its own materialization, a failed paper does not hide the others."""

from collections.abc import Callable
from typing import Any

import dagster as dg


def for_each_paper(
    context: dg.AssetExecutionContext, work: Callable[[str], dict[str, Any]]
) -> None:
    """Run ``work(paper_id)`` for every partition of the run; the metadata it returns goes to
    that paper's own materialization.

    A one-paper run fails as the paper's failure. In a run of several papers every paper is
    attempted; if some fail, the others are recorded as materialized and the step fails with
    each failed paper's code (the backfill schedule takes the others further later).

    Raises:
        dg.Failure: with the paper's code, or ``E_INGEST_BATCH_PARTIAL`` listing the codes.
    """
    keys = context.partition_keys
    done: dict[str, dict[str, Any]] = {}
    failed: dict[str, dg.Failure] = {}
    for paper_id in keys:
        try:
            done[paper_id] = work(paper_id)
        except dg.Failure as exc:
            if len(keys) == 1:
                raise
            failed[paper_id] = exc
            context.log.error("paper %s failed: %s", paper_id, exc.description)
    if not failed:
        for paper_id, metadata in done.items():
            context.add_asset_metadata(metadata, partition_key=paper_id)
        return
    for paper_id, metadata in done.items():
        context.log_event(
            dg.AssetMaterialization(asset_key=context.asset_key, partition=paper_id,
                                    metadata=metadata)
        )
    codes = {key: getattr(exc.metadata.get("code"), "value", "E_UNKNOWN")
             for key, exc in failed.items()}
    raise dg.Failure(
        description=f"E_INGEST_BATCH_PARTIAL: {len(failed)} of {len(keys)} papers failed: "
        + "; ".join(f"{key} {exc.description}" for key, exc in failed.items()),
        metadata={"code": "E_INGEST_BATCH_PARTIAL", "failed": dg.MetadataValue.json(codes),
                  "succeeded": dg.MetadataValue.json(sorted(done))},
    )
