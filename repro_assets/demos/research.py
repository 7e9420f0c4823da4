"""Research demo: one offline ``local_only`` session over the sample scholarly corpus."""

from __future__ import annotations

from repro_assets.demos.base import DemoContext, DemoRow
from repro_assets.jobs import RESEARCH_GROUP as GROUP
from repro_assets.jobs import research_job
from repro_assets.partitions import research_sessions_partitions
from repro_assets.research.store import ResearchStore
from repro_assets.research.views import load_report
from repro_assets.runs import failure_message, materialized_count
from repro_assets.scholarly.samples import SAMPLE_QUESTION, seed_sample_corpus
from repro_assets.storage.database import get_database
from repro_assets.storage.vectorstore import open_store

DEMO_SESSION = "demo-local-only"


def demo(ctx: DemoContext) -> list[DemoRow]:
    """One offline local_only session over the sample scholarly corpus."""
    seed_sample_corpus(open_store())
    ctx.add_partitions(research_sessions_partitions, [DEMO_SESSION])
    result = ctx.run_job(
        research_job.name, DEMO_SESSION,
        run_config={"ops": {"research_report": {"config": {
            "query": SAMPLE_QUESTION, "privacy_mode": "local_only", "max_cycles": 6,
            "resume": False,
        }}}},
    )
    if not result.success:
        return [DemoRow(GROUP, DEMO_SESSION, materialized_count(result), False,
                        failure_message(result), "-")]
    row = ResearchStore(get_database()).session(DEMO_SESSION) or {}
    report = load_report(DEMO_SESSION)
    verified = sum(f["verified"] for f in report["facts"])
    where = row.get("report_key") or "-"
    return [DemoRow(
        GROUP, DEMO_SESSION, materialized_count(result), True,
        f"{report['cycles']} cycles, {len(report['sources'])} sources, "
        f"{len(report['facts'])} facts ({verified} verified)",
        where,
        details=[f"stop reason: {report['stop_reason']}", f"report: {where}"],
    )]
