"""What a workflow's demo hook gets (:class:`DemoContext`) and returns (:class:`DemoRow`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import dagster as dg

from repro_assets.instance import process_run_tags
from repro_assets.runs import quiet_run_config

log = logging.getLogger("repro_assets.demo")


@dataclass
class DemoRow:
    """One line of the demo summary.

    ``expected_failure`` marks a partition that is meant to fail (e.g. a factory text with a
    missing id): it is shown as failed but does not fail the demo.
    """

    workflow: str
    partition: str
    assets: int
    ok: bool
    figures: str
    where: str
    expected_failure: bool = False
    details: list[str] = field(default_factory=list)


@dataclass
class DemoContext:
    """What a workflow's demo hook gets."""

    instance: dg.DagsterInstance
    defs: dg.Definitions

    def add_partitions(self, partitions: dg.DynamicPartitionsDefinition, keys: list[str]) -> None:
        """Register dynamic partition keys of ``partitions`` (idempotent)."""
        name = partitions.name
        if name is None:
            raise ValueError("a dynamic partitions definition without a name")
        existing = set(self.instance.get_dynamic_partitions(name))
        new = [key for key in keys if key not in existing]
        if new:
            self.instance.add_dynamic_partitions(name, new)

    def run_job(
        self,
        job_name: str,
        partition_key: str | None = None,
        run_config: Mapping[str, Any] | None = None,
        tags: Mapping[str, str] | None = None,
    ) -> dg.ExecuteInProcessResult:
        """Execute a job in process on the project instance (failures are returned)."""
        job = self.defs.resolve_job_def(job_name)
        started = time.perf_counter()
        result = job.execute_in_process(
            instance=self.instance,
            partition_key=partition_key,
            run_config=quiet_run_config(run_config),
            tags={**process_run_tags(), **dict(tags or {})},  # a kill -9 is detectable
            raise_on_error=False,
        )
        log.info(
            "%s[%s]: %s in %.1fs", job_name, partition_key, "ok" if result.success else "FAILED",
            time.perf_counter() - started,
        )
        return result
