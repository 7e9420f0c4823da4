"""Factory demo: onboard every sample factory text, expecting the failures ``expected.json``
names."""

from __future__ import annotations

import json
from pathlib import Path

from repro_assets import settings
from repro_assets.demos.base import DemoContext, DemoRow
from repro_assets.factory.store import partition_key_for
from repro_assets.factory.views import failure_summary, success_summary
from repro_assets.jobs import FACTORY_GROUP as GROUP
from repro_assets.jobs import factory_job
from repro_assets.partitions import factories_partitions
from repro_assets.runs import failure_message, materialized_count

EXPECTED_FILE = "expected.json"


def sample_files() -> list[Path]:
    """The shipped factory texts (``data/samples/factories/*.txt``)."""
    return sorted((settings.samples_dir() / "factories").glob("*.txt"))


def expected_outcomes() -> dict[str, str]:
    """File name → expected outcome (``ok`` or an error code) from ``expected.json``."""
    path = settings.samples_dir() / "factories" / EXPECTED_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def demo(ctx: DemoContext) -> list[DemoRow]:
    """Onboard every sample factory text and report makespans or the expected failure."""
    expected = expected_outcomes()
    rows: list[DemoRow] = []
    for path in sample_files():
        data = path.read_bytes()
        key = partition_key_for(path.name, data)
        ctx.add_partitions(factories_partitions, [key])
        result = ctx.run_job(
            factory_job.name,
            key,
            run_config={"ops": {"factory_text": {"config": {"source_path": str(path)}}}},
        )
        want = expected.get(path.name, "ok")
        if result.success:
            figures, where = success_summary(key)
            ok, expected_failure = want == "ok", False
            if not ok:
                figures = f"expected {want} but onboarded: {figures}"
        else:
            summary = failure_summary(key)
            figures = summary or failure_message(result)
            where = f"repro-assets show factory_config --partition {key}" if summary else "-"
            ok = False
            expected_failure = want != "ok" and figures.split(" ", 1)[0] == want
        rows.append(
            DemoRow(
                workflow=GROUP,
                partition=key,
                assets=materialized_count(result),
                ok=ok,
                figures=figures,
                where=where,
                expected_failure=expected_failure,
            )
        )
    return rows
