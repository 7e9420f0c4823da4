"""Papers stages 2-4 (seed 000): reproducibility verdict, grounded claims, Plan JSON v1.1.

paper_pages / paper_embeddings -> reproducibility_verdict -> paper_claims -> reproduction_plan,
partitioned by ``papers``, in the ``papers`` group (the lead's ``papers_job`` runs them after
ingestion). Offline (no LLM key) every asset takes its deterministic path and records
``method="heuristic"``.
"""

from collections.abc import Callable, Sequence
from typing import Any

import dagster as dg
from pydantic import Field

from repro_assets.assets._errors import coded_failure
from repro_assets.jobs import GROUP, paper_analysis_job
from repro_assets.llm import pool_name
from repro_assets.llm.types import Tool
from repro_assets.papers.claims import (
    ClaimsError,
    claims_markdown,
    extract_claims,
    load_claims,
    save_claims,
    verify_stored_claim,
)
from repro_assets.papers.pages import raw_page_texts
from repro_assets.papers.plan_models import ClaimTarget, PlanError
from repro_assets.papers.plan_store import save_plan
from repro_assets.papers.planner import make_plan
from repro_assets.papers.store import PaperNotFound, get_paper, load_pages
from repro_assets.papers.tools import MAX_BUDGET_MINUTES, planner_tools, search_paper_tool
from repro_assets.papers.verdict import (
    VerdictError,
    load_verdict,
    save_verdict,
    verdict_markdown,
    verify_paper,
)
from repro_assets.partitions import papers_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.llm import LLMResource
from repro_assets.resources.vectorstore import VectorStoreResource

PAGES_KEY = dg.AssetKey("paper_pages")
EMBEDDINGS_KEY = dg.AssetKey("paper_embeddings")


class PlanTargetConfig(dg.Config):
    """A claim to reproduce, as a user names it (matched against the grounded claims)."""

    dataset_name: str = Field(description="Dataset, e.g. SST-2.")
    metric_name: str = Field(description="Metric, e.g. accuracy.")
    metric_value: float | None = Field(default=None, description="Value (0.881 or 88.1).")
    split: str | None = Field(default=None, description="Split (default: any).")


class PlanConfig(dg.Config):
    """Run configuration of ``reproduction_plan``."""

    budget_minutes: int = Field(
        default=10, ge=1, description=f"CPU budget in minutes (guardrail: <= {MAX_BUDGET_MINUTES})."
    )
    claims: list[PlanTargetConfig] = Field(
        default_factory=list,
        description="Claims to reproduce: the plan targets the first that matches a grounded "
        "claim (empty: the paper's headline claim).",
    )


def _search_fn(vector_store: VectorStoreResource, paper_id: str) -> Callable[[str, int], Sequence]:
    """search(query, k) over one paper's chunks; the store (and embedder) load on first use."""
    state: dict[str, Any] = {}

    def search(query: str, k: int) -> Sequence:
        if "store" not in state:
            state["store"] = vector_store.get_store()
        return state["store"].search(query, k, paper_id=paper_id)

    return search


def _usage_metadata(usage: dict[str, Any]) -> dict[str, Any]:
    return {"llm_usage": dg.MetadataValue.json(usage)}


@dg.asset(
    partitions_def=papers_partitions,
    group_name=GROUP,
    pool=pool_name(),
    deps=[PAGES_KEY, EMBEDDINGS_KEY],
    kinds={"postgres"},
    description="Is the paper reproducible? {reproducible, reasoning, missing_elements} with "
    "a checklist and evidence (LLM verifier with search_paper, or a deterministic checklist).",
)
def reproducibility_verdict(
    context: dg.AssetExecutionContext,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
    vector_store: VectorStoreResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    paper_id = context.partition_key
    db = database.get_db()
    try:
        pages = load_pages(db, paper_id)
        pdf = _pdf_bytes(database, blob_store, paper_id)  # results tables for the checklist
    except PaperNotFound as exc:
        raise coded_failure(exc, paper_id=paper_id) from exc
    client = llm.get_client()
    tools: list[Tool] = [search_paper_tool(_search_fn(vector_store, paper_id))]
    try:
        verdict = verify_paper(pages, client, tools, pdf_bytes=pdf)
    except VerdictError as exc:
        kept = {}
        if exc.checklist is not None:  # what the paper provides stays visible
            kept = {"checklist": dg.MetadataValue.md(verdict_markdown(exc.checklist)),
                    "checklist_verdict": dg.MetadataValue.json(
                        exc.checklist.model_dump(mode="json"))}
        raise coded_failure(exc, paper_id=paper_id, **kept,
                            **_usage_metadata(client.usage_summary())) from exc
    save_verdict(db, verdict)
    return dg.MaterializeResult(metadata={
        "reproducible": verdict.reproducible,
        "missing_elements": ", ".join(verdict.missing_elements) or "none",
        "reasoning": verdict.reasoning,
        "checklist": dg.MetadataValue.md(verdict_markdown(verdict)),
        "method": verdict.method,
        **_usage_metadata(client.usage_summary()),
    })


def _pdf_bytes(database: DatabaseResource, blob_store: BlobStoreResource, paper_id: str) -> bytes:
    paper = get_paper(database.get_db(), paper_id)
    return blob_store.get_store().read_bytes(paper.pdf_storage_path)


@dg.asset(
    partitions_def=papers_partitions,
    group_name=GROUP,
    pool=pool_name(),
    deps=[reproducibility_verdict, PAGES_KEY],
    kinds={"postgres"},
    description="Grounded quantitative claims (dataset, split, metric, decimal value, citation, "
    "confidence, evidence {page, quoted_text}); replace policy in the `claims` table.",
    check_specs=[dg.AssetCheckSpec(
        "claims_grounded", asset="paper_claims",
        description="Every stored claim's value is printed in its quote and the quote is on "
        "its page of the PDF.",
    )],
)
def paper_claims(
    context: dg.AssetExecutionContext,
    database: DatabaseResource,
    blob_store: BlobStoreResource,
    vector_store: VectorStoreResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    paper_id = context.partition_key
    db = database.get_db()
    try:
        pages = load_pages(db, paper_id)
        pdf = _pdf_bytes(database, blob_store, paper_id)
    except PaperNotFound as exc:
        raise coded_failure(exc, paper_id=paper_id) from exc
    verdict = load_verdict(db, paper_id)
    if verdict is not None and not verdict.reproducible:
        context.log.warning("paper %s judged not reproducible (missing %s); extracting anyway",
                            paper_id, ", ".join(verdict.missing_elements))
    client = llm.get_client()
    tools = [search_paper_tool(_search_fn(vector_store, paper_id))]
    try:
        result = extract_claims(pages, pdf, client, tools)
    except ClaimsError as exc:  # the heuristic claims found before the failure stay visible
        reasons = [f"{r.source} p{r.page}: {r.reason}" for r in exc.rejected[:20]]
        raise coded_failure(
            exc, paper_id=paper_id, rejected=dg.MetadataValue.json(reasons),
            heuristic_claims=len(exc.claims),
            heuristic_claims_table=dg.MetadataValue.md(claims_markdown(exc.claims)),
            **_usage_metadata(client.usage_summary()),
        ) from exc
    save_claims(db, result)
    stored = load_claims(db, paper_id)
    check = _grounded_check(stored, raw_page_texts(pdf), {p.page_no: p.text for p in pages.pages})
    rejected_md = "\n".join(
        f"- {r.source} p{r.page} {r.dataset_name}/{r.metric_name}={r.metric_value}: {r.reason}"
        for r in result.rejected[:40]
    ) or "none"
    return dg.MaterializeResult(
        metadata={
            "claims": len(result.claims),
            "claims_table": dg.MetadataValue.md(claims_markdown(result.claims)),
            "rejected": len(result.rejected),
            "rejected_reasons": dg.MetadataValue.md(rejected_md),
            "tables_found": result.tables_found,
            "merged_duplicates": result.merged_duplicates,
            "datasets": ", ".join(sorted({c.dataset_name for c in result.claims})),
            "headline_claims": sum(1 for c in result.claims if c.is_headline),
            "method": result.method,
            **_usage_metadata(client.usage_summary()),
        },
        check_results=[check],
    )


def _grounded_check(
    claims: list, pdf_pages: dict[int, str], stored_pages: dict[int, str]
) -> dg.AssetCheckResult:
    failures = []
    for claim in claims:
        reason = verify_stored_claim(claim, pdf_pages)
        if reason is not None and verify_stored_claim(claim, stored_pages) is not None:
            failures.append(f"{claim.dataset_name}/{claim.metric_name}={claim.metric_value}: "
                            f"{reason}")
    return dg.AssetCheckResult(
        check_name="claims_grounded",
        asset_key="paper_claims",
        passed=not failures and bool(claims),
        metadata={"claims_checked": len(claims), "ungrounded": len(failures),
                  "failures": dg.MetadataValue.json(failures[:20])},
    )


@dg.asset(
    partitions_def=papers_partitions,
    group_name=GROUP,
    pool=pool_name(),
    deps=[paper_claims],
    kinds={"postgres"},
    description="Plan JSON v1.1 (two-stage LLM planner or deterministic planner), sanitized, "
    "validated, dataset-resolved and guardrailed; stored in `plans`.",
)
def reproduction_plan(
    context: dg.AssetExecutionContext,
    config: PlanConfig,
    database: DatabaseResource,
    vector_store: VectorStoreResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    paper_id = context.partition_key
    db = database.get_db()
    try:
        pages = load_pages(db, paper_id)
    except PaperNotFound as exc:
        raise coded_failure(exc, paper_id=paper_id, error="E_PLAN_NOT_READY") from exc
    claims = load_claims(db, paper_id)
    client = llm.get_client()
    tools = planner_tools(_search_fn(vector_store, paper_id))
    try:
        result, findings = make_plan(
            pages, claims, client, tools, config.budget_minutes,
            targets=[ClaimTarget.model_validate(t.model_dump()) for t in config.claims])
    except PlanError as exc:
        details = {k: dg.MetadataValue.json(v) if isinstance(v, dict | list) else str(v)
                   for k, v in exc.details.items()}
        raise coded_failure(exc, paper_id=paper_id, **details) from exc
    save_plan(db, result)
    for warning in result.warnings:
        context.log.warning("plan %s: %s", result.plan_id, warning)
    plan = result.plan
    findings_md = "\n".join(
        f"- **{f.name}** = {f.value} ({f.citation}): \"{f.quote[:160]}\"" for f in findings
    ) or "none"
    return dg.MaterializeResult(metadata={
        "plan_id": result.plan_id,
        "dataset": plan.dataset.name,
        "model": f"{plan.model.name} ({plan.model.architecture}, {plan.model.framework})",
        "primary_metric": plan.metrics.primary,
        "goal_value": plan.metrics.goal_value if plan.metrics.goal_value is not None else "none",
        "budget_minutes": plan.policy.budget_minutes,
        "plan": dg.MetadataValue.json(plan.model_dump(mode="json")),
        "warnings": dg.MetadataValue.json(result.warnings),
        "data_resolution": dg.MetadataValue.json(result.data_resolution.model_dump(mode="json")),
        "dataset_status": result.data_resolution.status,
        "hyperparameters_found": dg.MetadataValue.md(findings_md),
        "method": result.method,
        "stage_path": result.stage_path,
        **_usage_metadata(client.usage_summary()),
    })


ANALYSIS_ASSETS = [reproducibility_verdict, paper_claims, reproduction_plan]

defs = dg.Definitions(assets=ANALYSIS_ASSETS, jobs=[paper_analysis_job])
