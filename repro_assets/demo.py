"""`repro-assets demo`: materialize every sample partition of every workflow and summarize.

Each workflow's hook is ``demo(ctx: DemoContext) -> list[DemoRow]`` in
:mod:`repro_assets.demos` (``demos/<workflow>.py``); this module runs them in the order of
:data:`HOOKS` on the project's persistent Dagster instance (so the UI shows every run) and
prints one table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import dagster as dg

from repro_assets.demos import debate, factory, forms, papers, research
from repro_assets.demos.base import DemoContext, DemoRow

log = logging.getLogger(__name__)

#: Every workflow's demo hook, in the order the demo runs them (``--only`` takes these names).
HOOKS: dict[str, Callable[[DemoContext], list[DemoRow]]] = {
    "papers": papers.demo,
    "factory": factory.demo,
    "forms": forms.demo,
    "debate": debate.demo,
    "research": research.demo,
}


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
    from repro_assets.definitions import defs

    ctx = DemoContext(instance=instance, defs=defs)
    rows: list[DemoRow] = []
    for name, hook in HOOKS.items():
        if only and name not in only:
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
