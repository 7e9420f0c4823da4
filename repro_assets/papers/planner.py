"""Stage 4 (Plan): Plan JSON v1.1 for one grounded claim, from the registry and the paper.

The claim to reproduce is the one the request names, else the paper's headline claim
(:mod:`repro_assets.papers.plan_targets`). With an LLM the two-stage planner of
:mod:`repro_assets.papers.planner_llm` drafts the plan; offline a deterministic planner maps the
claim's method to a model family and reads hyperparameters from the text
(:mod:`repro_assets.papers.hyperparameters`), quoting the sentence each came from
(``Inferred`` citations only where nothing was found).

Both paths then run the sanitizer, Pydantic validation (E_PLAN_SCHEMA_INVALID), dataset
resolution (E_PLAN_NO_ALLOWED_DATASETS), the target check (the plan is about the claim's
dataset, metric and value) and the guardrails (E_PLAN_GUARDRAIL_FAILED). LLM answers are cached
only when the whole plan passed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import ValidationError

from repro_assets.llm.types import GuardrailError, LLMClient, Tool
from repro_assets.papers.claims import Claim, cite, iter_sentences, section_index
from repro_assets.papers.grounding import quote_on_page
from repro_assets.papers.guardrails import PLAN_GUARDRAIL_CODE, enforce_plan_guardrails
from repro_assets.papers.hyperparameters import (
    CONFIG_KEYS,
    MODEL_KEYS_BY_ARCH,
    Finding,
    find_hyperparameters,
)
from repro_assets.papers.models import PaperPages
from repro_assets.papers.plan_models import (
    METRICS,
    ClaimTarget,
    DataResolution,
    PlanDocumentV11,
    PlanError,
    PlanResult,
)
from repro_assets.papers.plan_targets import (
    PLAN_MIN_CONFIDENCE,
    VALUE_TOLERANCE,
    select_target,
)
from repro_assets.papers.planner_llm import llm_plan
from repro_assets.papers.registry import lookup_dataset, same_dataset
from repro_assets.papers.sanitizer import (
    ARCH_PATTERNS,
    INFERRED,
    NEURAL,
    architectures_in,
    resolve_architecture,
    sanitize_plan,
)

log = logging.getLogger(__name__)


def find_sentence(
    pages: PaperPages, must: re.Pattern[str], *prefer: re.Pattern[str]
) -> tuple[str, int, str] | None:
    """The first body sentence matching ``must`` as (quote, page, citation).

    Sentences matching the first ``prefer`` pattern win, then the second, and so on.
    """
    sections = section_index(pages)
    hits = [(p, o, s) for p, o, s in iter_sentences(pages) if must.search(s)]
    if not hits:
        return None
    for pattern in prefer:
        preferred = [h for h in hits if pattern.search(h[2])]
        if preferred:
            hits = preferred
            break
    page_no, offset, sentence = hits[0]
    return sentence, page_no, cite(sections, page_no, offset)


# ---------------------------------------------------------------------------------------------
# Offline planner
# ---------------------------------------------------------------------------------------------

def _model_name(snippet: str | None, architecture: str) -> str:
    name = re.sub(r"\((?:ours|proposed)\)", "", snippet or "", flags=re.I).strip(" ,.")
    return name or architecture.replace("_", " ").title()


def heuristic_plan(
    pages: PaperPages, claim: Claim, claims: Sequence[Claim], budget_minutes: int = 10
) -> tuple[dict[str, Any], list[Finding]]:
    """The offline planner for ``claim``: a raw plan dict (sanitized later) and its findings.

    Args:
        pages: the paper.
        claim: the grounded claim to reproduce.
        claims: every grounded claim (secondary metrics of the same method).
        budget_minutes: the CPU budget.
    """
    text = "\n".join(p.text for p in pages.pages)
    architecture = resolve_architecture(claim.method_snippet or "")
    if architecture is None:  # the most specific family the paper names, else a baseline
        families = sorted(architectures_in(text))
        architecture = families[0] if families else "logistic_regression"
    findings = find_hyperparameters(pages, architecture)

    # justifications: verbatim sentences, "Inferred" only when nothing was found
    arch_rx = dict(ARCH_PATTERNS)[architecture]
    arch_quote = find_sentence(pages, arch_rx, re.compile(
        r"\b(we|our)\b.*\b(train|fit|use|model|propose|employ)", re.I))
    entry = lookup_dataset(claim.dataset_name)
    dataset_quote = None
    if entry is not None:
        names = [entry.display_name, *entry.aliases]
        dataset_rx = re.compile("|".join(re.escape(n) for n in names), re.IGNORECASE)
        dataset_quote = find_sentence(
            pages, dataset_rx, re.compile(r"\bwe (use|evaluate|run|experiment)\b", re.I),
            re.compile(r"\b(dataset|samples|benchmark)\b", re.I))
    config_findings = [findings[k] for k in CONFIG_KEYS if k in findings]
    config_quote = None
    if config_findings:
        quotes = list(dict.fromkeys(f.quote for f in config_findings))  # CONFIG_KEYS order
        best = max(quotes, key=lambda q: sum(1 for f in config_findings if f.quote == q))
        source = next(f for f in config_findings if f.quote == best)
        config_quote = (best, source.page, source.citation)

    def just(found: tuple[str, int, str] | None, fallback: str) -> dict[str, str]:
        if found is None:
            return {"quote": fallback, "citation": INFERRED}
        return {"quote": found[0], "citation": found[2]}

    config: dict[str, Any] = {k: findings[k].value for k in CONFIG_KEYS if k in findings}
    if "epochs" not in config and "max_iter" in findings and architecture in {"mlp"}:
        config["epochs"] = findings["max_iter"].value
    config.setdefault("epochs", 10)
    config.setdefault("seed", 42)
    hyper: dict[str, Any] = {}
    for key in MODEL_KEYS_BY_ARCH.get(architecture, ()):
        if key in findings:
            value = findings[key].value
            hyper["hidden_layer_sizes" if key == "hidden_units" else key] = (
                [value] if key == "hidden_units" else value)
    same_method = [c for c in claims if c.dataset_name == claim.dataset_name
                   and c.method_snippet == claim.method_snippet
                   and c.metric_name != claim.metric_name]
    dataset: dict[str, Any] = {"name": claim.dataset_name}
    if "test_size" in findings:
        dataset["test_size"] = findings["test_size"].value
    raw = {
        "version": "1.1",
        "dataset": dataset,
        "model": {
            "name": _model_name(claim.method_snippet, architecture),
            "architecture": architecture,
            "framework": "pytorch" if architecture in NEURAL else "sklearn",
            "hyperparameters": hyper,
        },
        "config": config,
        "metrics": {
            "primary": claim.metric_name,
            "secondary": list(dict.fromkeys(c.metric_name for c in same_method)),
            "goal_value": claim.metric_value,
            "loss": "cross_entropy" if architecture in {"mlp", *NEURAL} else None,
        },
        "justifications": {
            "dataset": just(dataset_quote, f"Dataset of the target claim: {claim.dataset_name}"),
            "model": just(arch_quote, f"Model of the target claim: {claim.method_snippet}"),
            "config": just(config_quote, "Training details not specified; defaults used"),
            "metrics": {"quote": claim.evidence.quoted_text, "citation": claim.source_citation},
        },
        "policy": {"budget_minutes": budget_minutes, "cpu_only": True},
        "visualizations": {"plots": ["loss_curve", "accuracy_curve"],
                           "tables": ["confusion_matrix"]},
        "explain": {"accessible": True, "kid_mode": True},
    }
    return raw, list(findings.values())


def plan_id_for(paper_id: str, plan: PlanDocumentV11) -> str:
    """Deterministic plan id: the same plan for the same paper gets the same id."""
    digest = hashlib.sha256(
        (paper_id + json.dumps(plan.model_dump(mode="json"), sort_keys=True)).encode()
    ).hexdigest()
    return f"plan_{digest[:16]}"


def finalize_plan(
    raw: dict[str, Any] | str,
    paper_id: str,
    pages: PaperPages | None,
    method: Literal["heuristic", "llm"],
    stage_path: str,
    budget_minutes: int,
    extra_warnings: list[str] | None = None,
    llm_usage: dict[str, Any] | None = None,
    target: Claim | None = None,
) -> PlanResult:
    """Sanitize, validate, resolve the dataset, check quotes, the target and the guardrails.

    Args:
        raw: the raw plan (dict or JSON text).
        paper_id: the paper.
        pages: the paper's pages (justification quotes are looked up there), if known.
        method: heuristic or llm.
        stage_path: how the raw plan was made.
        budget_minutes: the CPU budget.
        extra_warnings: notes to keep with the plan.
        llm_usage: LLM usage totals.
        target: the grounded claim the plan must reproduce (see :func:`align_with_target`).

    Raises:
        PlanError: E_PLAN_SCHEMA_INVALID, E_PLAN_NO_ALLOWED_DATASETS, E_PLAN_GUARDRAIL_FAILED.
    """
    try:
        clean, warnings, resolution = sanitize_plan(raw, policy={"budget_minutes":
                                                                 budget_minutes})
    except (json.JSONDecodeError, TypeError, ValueError) as exc:
        raise PlanError(f"plan could not be sanitized: {exc}", "E_PLAN_SCHEMA_INVALID") from exc
    warnings = [*(extra_warnings or []), *warnings]
    dataset = clean.get("dataset") or {}
    effective = lookup_dataset(str(dataset.get("name") or ""))
    if effective is None and not (resolution.status == "UNKNOWN" and dataset.get("hf_dataset")):
        raise PlanError(
            f"no allowed dataset: {resolution.requested_name!r} is {resolution.status}"
            + (f" ({resolution.reason})" if resolution.reason else ""),
            "E_PLAN_NO_ALLOWED_DATASETS", {"data_resolution": resolution.model_dump()},
        )
    if effective is None:
        warnings.append(f"dataset {resolution.requested_name!r} is not in the registry; "
                        f"the notebook will try Hugging Face {dataset.get('hf_dataset')!r}")
    elif effective.complex:
        raise PlanError(f"dataset {effective.name!r} needs a custom adapter ({effective.task})",
                        "E_PLAN_NO_ALLOWED_DATASETS",
                        {"data_resolution": resolution.model_dump()})
    try:
        plan = PlanDocumentV11.model_validate(clean)
    except ValidationError as exc:
        raise PlanError(f"plan does not match Plan v1.1: {exc}", "E_PLAN_SCHEMA_INVALID",
                        {"errors": json.loads(exc.json())[:20], "plan": clean}) from exc
    if pages is not None:
        texts = {p.page_no: p.text for p in pages.pages}
        for key in ("dataset", "model", "config", "metrics"):
            item = getattr(plan.justifications, key)
            if item is None or item.citation == INFERRED:
                continue
            if not any(quote_on_page(item.quote, t) for t in texts.values()):
                warnings.append(f"justification {key!r} quote was not found in the paper")
    if target is not None:
        plan = align_with_target(plan, resolution, target, warnings)
    try:
        enforce_plan_guardrails(plan)
    except GuardrailError as exc:
        raise PlanError(str(exc), exc.code, {"guardrail": exc.name,
                                             "plan": plan.model_dump(mode="json")}) from exc
    if resolution.status in {"BLOCKED", "COMPLEX"} and effective is not None:
        resolution = resolution.model_copy(update={
            "dataset_name": effective.name, "source": effective.source,
            "registry_metadata": effective.summary(),
            "reason": f"{resolution.reason}; using {effective.name}",
        })
    return PlanResult(
        plan_id=plan_id_for(paper_id, plan), paper_id=paper_id, plan=plan, warnings=warnings,
        data_resolution=resolution, method=method, stage_path=stage_path,
        llm_usage=llm_usage or {},
    )


def align_with_target(
    plan: PlanDocumentV11, resolution: DataResolution, target: Claim, warnings: list[str]
) -> PlanDocumentV11:
    """Make sure ``plan`` reproduces ``target``.

    The dataset cannot be repaired (quotes and config belong to it): a plan about another
    dataset fails. The metric and the goal can: the grounded claim's metric becomes the primary
    one and its printed value the goal, each change noted in ``warnings``.

    Raises:
        PlanError: E_PLAN_GUARDRAIL_FAILED (guardrail ``target_claim``) when the plan is about
            another dataset.
    """
    if not (same_dataset(target.dataset_name, plan.dataset.name)
            or same_dataset(target.dataset_name, resolution.requested_name)):
        raise PlanError(
            f"Guardrail 'target_claim' failed: the plan is about {resolution.requested_name!r} "
            f"but the claim to reproduce is {target.metric_name} on {target.dataset_name!r}",
            PLAN_GUARDRAIL_CODE, {"guardrail": "target_claim",
                                  "plan": plan.model_dump(mode="json")})
    metrics = plan.metrics
    if metrics.primary != target.metric_name and target.metric_name in METRICS:
        warnings.append(f"primary metric {metrics.primary!r} replaced by the target claim's "
                        f"{target.metric_name!r}")
        secondary = [m for m in [metrics.primary, *metrics.secondary]
                     if m != target.metric_name]
        metrics = metrics.model_copy(update={"primary": target.metric_name,
                                             "secondary": list(dict.fromkeys(secondary))})
    if metrics.primary == target.metric_name and (
            metrics.goal_value is None
            or abs(metrics.goal_value - target.metric_value) > VALUE_TOLERANCE):
        if metrics.goal_value is not None:
            warnings.append(f"goal_value {metrics.goal_value:g} replaced by the target claim's "
                            f"printed {target.metric_value:g}")
        metrics = metrics.model_copy(update={"goal_value": target.metric_value})
    return plan.model_copy(update={"metrics": metrics})


def make_plan(
    pages: PaperPages,
    claims: list[Claim],
    llm: LLMClient | None = None,
    tools: list[Tool] | None = None,
    budget_minutes: int = 10,
    targets: Sequence[ClaimTarget] = (),
) -> tuple[PlanResult, list[Finding]]:
    """Plan the reproduction of one grounded claim (LLM two-stage when available, else the
    deterministic planner).

    Args:
        pages: the paper.
        claims: its grounded claims.
        llm: the LLM client (None or unavailable: the deterministic planner).
        tools: Stage 1 tools of the LLM planner.
        budget_minutes: the CPU budget.
        targets: the claims the request names (empty: the headline claim).

    Returns:
        (plan result, hyperparameter findings of the offline planner — empty on the LLM path).

    Raises:
        PlanError: with the seed's codes; E_PLAN_CLAIM_NOT_FOUND when none of ``targets``
            matches a grounded claim.
    """
    if not claims:
        raise PlanError("no claims to plan from; run paper_claims first", "E_PLAN_NOT_READY")
    selection = select_target(claims, pages, targets)
    target = selection.claim
    if target is None and not selection.requested:
        raise PlanError(
            f"no grounded claim reaches the plan's confidence threshold "
            f"{PLAN_MIN_CONFIDENCE}; name the claim to reproduce in the request",
            "E_PLAN_CLAIM_NOT_FOUND",
            {"grounded_claims": [f"{c.dataset_name}/{c.metric_name}={c.metric_value:g} "
                                 f"(confidence {c.confidence:.2f})" for c in claims[:40]]})
    if target is None:
        raise PlanError(
            "none of the requested claims (" + ", ".join(t.label() for t in targets)
            + ") is among the paper's grounded claims", "E_PLAN_CLAIM_NOT_FOUND",
            {"grounded_claims": [f"{c.dataset_name}/{c.metric_name}={c.metric_value:g}"
                                 for c in claims[:40]]})
    notes = selection.notes()
    log.info("planning for %s %s=%g (%s)", target.dataset_name, target.metric_name,
             target.metric_value, "requested" if selection.requested else "headline")
    if llm is not None and llm.available:
        with llm.cache_scope():  # answers are cached only if the plan passes
            outcome = llm_plan(llm, pages, target, claims, tools or [], budget_minutes)
            extra = [*notes, *(f"schema fixer failed: {e}" for e in outcome.stage2_errors)]
            if outcome.stage_path == "stage1_fallback":
                extra.append("Stage 2 failed twice; parsed the Stage 1 draft directly")
            result = finalize_plan(outcome.raw_plan, pages.paper_id, pages, "llm",
                                   outcome.stage_path, budget_minutes, extra,
                                   llm.usage_summary(), target=target)
        return result, []
    raw, findings = heuristic_plan(pages, target, claims, budget_minutes)
    result = finalize_plan(raw, pages.paper_id, pages, "heuristic", "heuristic", budget_minutes,
                           notes, target=target)
    return result, findings
