"""Research agent: one ``research_report`` per research session (seed 004).

The asset runs the agent (:mod:`repro_assets.research.agent`) to saturation, checkpointing
every cycle in Postgres; a re-run of an interrupted session resumes from its last cycle.
Terminating the run stops early: the report is synthesized from what was collected and says
why it stopped.
"""


import base64
import json
from collections.abc import Callable
from typing import Any

import dagster as dg
from dagster._core.errors import DagsterExecutionInterruptedError
from pydantic import Field

from repro_assets.assets._errors import coded_failure
from repro_assets.demo import DemoContext, DemoRow, failure_message, materialized_count
from repro_assets.llm import pool_name
from repro_assets.partitions import research_sessions_partitions
from repro_assets.research.agent import AgentOptions, ResearchAgent
from repro_assets.research.errors import ResearchError
from repro_assets.research.models import ResearchState
from repro_assets.research.plot import saturation_png
from repro_assets.research.providers import build_providers
from repro_assets.research.providers.crawler import BrowserFetcher
from repro_assets.research.providers.fetcher import PageFetcher
from repro_assets.research.store import ResearchStore
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.llm import LLMResource
from repro_assets.resources.vectorstore import VectorStoreResource
from repro_assets.storage.database import get_database

GROUP = "research"
DEMO_ORDER = 50
DEMO_SESSION = "demo-local-only"
STOPPED_BY_TERMINATION = (
    "Stopped early: the run was terminated; the report was synthesized from what had been "
    "collected so far"
)


class ResearchConfig(dg.Config):
    """Run configuration of one research session."""

    query: str = Field(description="The research question.")
    privacy_mode: str = Field(
        default="cloud_allowed", description="local_only | cloud_allowed | hybrid"
    )
    domain: str = Field(
        default="auto", description="auto | academic | medical | competitive_intelligence"
    )
    max_cycles: int = Field(default=6, description="Hard cap on research cycles (backstop).")
    max_provider_calls: int = Field(default=60, description="Hard cap on provider calls.")
    resume: bool = Field(default=True, description="Resume an interrupted session (with the "
                         "same arguments; other arguments are refused: E_RESUME_MISMATCH).")
    render_pages: bool = Field(
        default=False, description="Read web pages in headless Chromium (Playwright), so "
        "JavaScript-rendered text is seen; needs the 'crawler' extra and Chromium.")


def report_key(session_id: str, fmt: str = "json") -> str:
    """Blob key of a session's exported report."""
    return f"research/{session_id}/report.{'md' if fmt == 'markdown' else fmt}"


def _metadata(state: ResearchState, png: bytes | None, llm_usage: dict) -> dict[str, Any]:
    history = state.saturation_history
    table = ["| cycle | new entities | new facts | circularity | coverage | decision |",
             "|---|---|---|---|---|---|"]
    for c in history:
        m = c.metrics
        table.append(f"| {c.cycle} | {m.new_entities_ratio:.2f} | {m.new_facts_ratio:.2f} | "
                     f"{m.citation_circularity:.2f} | {m.source_coverage:.2f} | "
                     f"{'stop' if c.should_stop else 'continue'} |")
    facts = state.facts_extracted
    metadata: dict[str, Any] = {
        "outcome": state.outcome,
        "stop_reason": state.stop_reason or "",
        "cycles": state.cycle,
        "domain": state.domain,
        "privacy_mode": state.privacy_mode,
        "sources": len(state.results),
        "facts": len(facts),
        "verified_facts": sum(f.verified for f in facts),
        "entities": len(state.entities_found),
        "contradictions": len(state.contradictions),
        "provider_calls": dg.MetadataValue.json(state.provider_call_counts),
        "sources_queried": dg.MetadataValue.json(state.sources_queried),
        "access_failures": dg.MetadataValue.json(
            [a.model_dump(mode="json") for a in state.access_failures]),
        "access_failure_count": len(state.access_failures),
        "saturation": dg.MetadataValue.md("\n".join(table)),
        "saturation_history": dg.MetadataValue.json(
            [c.model_dump(mode="json") for c in history]),
        "clarifying_questions": dg.MetadataValue.json(state.clarifying_questions),
        "extraction_method": state.extraction_method,
        "synthesis_method": state.synthesis_method,
        "llm_usage": dg.MetadataValue.json(llm_usage),
        "status": dg.MetadataValue.text(
            state.decisions[-1].reason if state.decisions else ""),
    }
    if png:
        uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        metadata["saturation_plot"] = dg.MetadataValue.md(f"![saturation per cycle]({uri})")
    for fmt, where in state.export_paths.items():
        metadata[f"report_{fmt}"] = dg.MetadataValue.path(where)
    return metadata


@dg.asset(
    partitions_def=research_sessions_partitions,
    group_name=GROUP,
    pool=pool_name(),
    kinds={"postgres", "python"},
    description="A research report: sources ranked by past quality, collected in cycles until "
    "saturation, facts cross-verified with confidence, exported as markdown/JSON/HTML.",
)
def research_report(
    context: dg.AssetExecutionContext,
    config: ResearchConfig,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
    vector_store: VectorStoreResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Run (or resume) one research session and export its report."""
    session_id = context.partition_key
    blobs = blob_store.get_store()
    store = ResearchStore(database.get_db())
    client = llm.get_client()

    def writer(key: str, text: str) -> str:
        blobs.write_text(key, text)
        return blobs.local_path(key) or blobs.url(key)

    def on_status(node: str, state: ResearchState) -> None:
        from repro_assets.research.report import plain_language_status

        context.log.info(f"[{node}] {plain_language_status(state)}")

    agent = ResearchAgent(
        build_providers(config.privacy_mode, vector_store.get_store),
        llm=client, store=store, writer=writer,
        options=AgentOptions(max_provider_calls=config.max_provider_calls),
        on_status=on_status,
        fetcher=None if config.privacy_mode == "local_only" else
        BrowserFetcher() if config.render_pages else PageFetcher(),
    )
    try:
        state = agent.run(session_id, config.query, privacy_mode=config.privacy_mode,
                          domain=config.domain, max_cycles=config.max_cycles,
                          resume=config.resume)
    except (DagsterExecutionInterruptedError, KeyboardInterrupt):
        if agent.state is None:
            raise
        context.log.warning("run terminated: synthesizing the report from what was collected")
        state = agent.finish(STOPPED_BY_TERMINATION)
    except ResearchError as exc:  # the agent has marked a started session failed
        raise coded_failure(exc) from exc
    png = saturation_png(state.saturation_history) if state.saturation_history else None
    if png:
        blobs.write_bytes(f"research/{session_id}/saturation.png", png)
    context.log.info(f"research stopped ({state.outcome}): {state.stop_reason}; report at "
                     f"{state.export_path}")
    return dg.MaterializeResult(metadata=_metadata(state, png, client.usage_summary()))


def load_report(session_id: str) -> dict[str, Any]:
    """The stored JSON report of a session."""
    return json.loads(BlobStoreResource().get_store().read_text(report_key(session_id)))


@dg.asset_check(asset=research_report, description="Every fact cites at least one listed "
                "source and the report says why research stopped.")
def research_report_grounded(context: dg.AssetCheckExecutionContext) -> dg.AssetCheckResult:
    """Grounding invariant of the latest report of the partition."""
    key = context.op_execution_context.run.tags.get("dagster/partition")
    problems: list[str] = []
    if not key:
        return dg.AssetCheckResult(passed=False, metadata={"problems": ["no partition key"]})
    report = load_report(key)
    listed = {s["n"] for s in report["sources"]}
    for fact in report["facts"]:
        if not fact["citations"] or not set(fact["citations"]) <= listed:
            problems.append(f"{fact['id']} cites no listed source")
    if not report.get("stop_reason"):
        problems.append("no stop reason")
    return dg.AssetCheckResult(
        passed=not problems,
        metadata={"problems": dg.MetadataValue.json(problems[:50]),
                  "facts": len(report["facts"])},
    )


research_job = dg.define_asset_job(
    "research_job",
    selection=dg.AssetSelection.assets(research_report),
    partitions_def=research_sessions_partitions,
)


def demo(ctx: DemoContext) -> list[DemoRow]:
    """One offline local_only session over the sample scholarly corpus."""
    from repro_assets.resources.registry import default_resources
    from repro_assets.scholarly.samples import SAMPLE_QUESTION, seed_sample_corpus

    seed_sample_corpus(default_resources()["vector_store"].get_store())
    ctx.add_partitions(research_sessions_partitions.name, [DEMO_SESSION])
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


def _show_report(key: str | None) -> Any:
    store = ResearchStore(get_database())
    if key is None:
        with store.db.connection() as conn:
            rows = conn.execute(
                "SELECT session_id, status, cycles, stop_reason FROM research_sessions"
                " ORDER BY created_at"
            ).fetchall()
        return [{"session": s, "status": st, "cycles": c, "stop_reason": r}
                for s, st, c, r in rows]
    return load_report(key)


SHOWS: dict[str, Callable[[str | None], Any]] = {"research_report": _show_report}

defs = dg.Definitions(
    assets=[research_report],
    asset_checks=[research_report_grounded],
    jobs=[research_job],
)
