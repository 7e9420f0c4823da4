"""Research agent: one ``research_report`` per research session (seed 004).

The asset runs the agent (:mod:`repro_assets.research.agent`) to saturation, checkpointing
every cycle in Postgres; a re-run of an interrupted session resumes from its last cycle.
Terminating the run stops early: the report is synthesized from what was collected and says
why it stopped.
"""


import base64
from typing import Any

import dagster as dg
from dagster._core.errors import DagsterExecutionInterruptedError
from pydantic import Field

from repro_assets.assets._errors import coded_failure
from repro_assets.jobs import RESEARCH_GROUP as GROUP
from repro_assets.jobs import research_job
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
from repro_assets.research.views import load_report
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.llm import LLMResource
from repro_assets.resources.vectorstore import VectorStoreResource

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


defs = dg.Definitions(
    assets=[research_report],
    asset_checks=[research_report_grounded],
    jobs=[research_job],
)
