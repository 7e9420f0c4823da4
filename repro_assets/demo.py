"""`repro-assets demo`: materialize every sample partition of every workflow and summarize.

Each workflow module in :mod:`repro_assets.assets` may define
``demo(ctx: DemoContext) -> list[DemoRow]``; this module runs them in ``DEMO_ORDER`` on the
project's persistent Dagster instance (so the UI shows every run) and prints one table.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import dagster as dg

from repro_assets.instance import process_run_tags

log = logging.getLogger(__name__)


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

    def add_partitions(self, partitions_def_name: str, keys: list[str]) -> None:
        """Register dynamic partition keys (idempotent)."""
        existing = set(self.instance.get_dynamic_partitions(partitions_def_name))
        new = [key for key in keys if key not in existing]
        if new:
            self.instance.add_dynamic_partitions(partitions_def_name, new)

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


def quiet_run_config(run_config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``run_config`` with the console logger at INFO (Dagster's default is DEBUG)."""
    config = dict(run_config or {})
    config.setdefault("loggers", {"console": {"config": {"log_level": "INFO"}}})
    return config


def materialized_count(result: dg.ExecuteInProcessResult) -> int:
    """Number of asset materializations in a run result."""
    return len(result.get_asset_materialization_events())


def failure_message(result: dg.ExecuteInProcessResult) -> str:
    """The first step failure's description, for the summary."""
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data:
            error = event.step_failure_data.error
            user = event.step_failure_data.user_failure_data
            if user and user.description:
                return user.description
            if error:
                return error.message.strip().splitlines()[-1] if error.message else str(error)
    return "failed"


def render_table(rows: list[DemoRow]) -> str:
    """Render the summary as a fixed-width table."""
    header = ("workflow", "partition", "assets", "status", "key figures", "where to look")
    lines = [header]
    for row in rows:
        status = "ok" if row.ok else ("failed (expected)" if row.expected_failure else "FAILED")
        lines.append(
            (row.workflow, row.partition, str(row.assets), status, row.figures, row.where)
        )
    limits = (12, 44, 6, 17, 110, 70)
    widths = [min(max(len(line[i]) for line in lines), limits[i]) for i in range(len(header))]
    out = []
    for n, line in enumerate(lines):
        cells = [
            cell if len(cell) <= limits[i] else cell[: limits[i] - 3] + "..."
            for i, cell in enumerate(line)
        ]
        out.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(cells)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    for row in rows:
        for detail in row.details:
            out.append(f"[{row.workflow} {row.partition}] {detail}")
    return "\n".join(out)


def run_demo(instance: dg.DagsterInstance, only: list[str] | None = None) -> list[DemoRow]:
    """Run every workflow's demo hook and return the rows."""
    from repro_assets.assets import workflow_modules
    from repro_assets.definitions import defs

    ctx = DemoContext(instance=instance, defs=defs)
    rows: list[DemoRow] = []
    for module in workflow_modules():
        hook = getattr(module, "demo", None)
        name = module.__name__.rsplit(".", 1)[-1]
        if hook is None or (only and name not in only):
            continue
        log.info("demo: %s", name)
        try:
            rows.extend(hook(ctx))
        except Exception as exc:  # a broken hook is a failed row, never a silent skip
            log.exception("demo hook %s crashed", name)
            rows.append(DemoRow(name, "-", 0, False, f"{type(exc).__name__}: {exc}", "-"))
    return rows


def demo_succeeded(rows: list[DemoRow]) -> bool:
    """True when every row is ok or an expected failure, and there is at least one row."""
    return bool(rows) and all(row.ok or row.expected_failure for row in rows)
