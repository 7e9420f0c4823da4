"""Stage 4 (Plan): Plan JSON v1.1 from claims, the dataset registry and the paper's text.

With an LLM: two stages (seed 000). Stage 1, the planner role, reasons with tools
(search_paper, dataset_resolver, license_checker, budget_estimator) and may answer in any
format; Stage 2, the schema_fixer role, turns that into Plan v1.1. If Stage 2 fails it is
retried once, then Stage 1's draft is parsed directly (E_TWO_STAGE_FAILED if that fails too).

Offline: a deterministic planner picks the paper's headline claim, maps its method to a
model family, and reads hyperparameters from the text, quoting the sentence each came from
(``Inferred`` citations only where nothing was found).

Both paths then run the sanitizer, Pydantic validation (E_PLAN_SCHEMA_INVALID), dataset
resolution (E_PLAN_NO_ALLOWED_DATASETS) and the guardrails (E_PLAN_GUARDRAIL_FAILED).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from repro_assets.llm.types import (
    GuardrailError,
    LLMClient,
    LLMError,
    LLMInvalidOutput,
    LLMPolicyCapExceeded,
    Role,
    Tool,
)
from repro_assets.papers.claims import Claim, _collapse, cite, iter_sentences, section_index
from repro_assets.papers.grounding import quote_on_page
from repro_assets.papers.guardrails import enforce_plan_guardrails
from repro_assets.papers.models import PaperPages
from repro_assets.papers.plan_models import (
    DataResolution,
    PlanDocumentV11,
    PlanModel,
    PlanResult,
)
from repro_assets.papers.prompts import PLANNER_SYSTEM, SCHEMA_FIXER_SYSTEM
from repro_assets.papers.registry import lookup_dataset
from repro_assets.papers.sanitizer import (
    ARCH_PATTERNS,
    INFERRED,
    NEURAL,
    architectures_in,
    resolve_architecture,
    sanitize_plan,
)
from repro_assets.resources.database import Database

log = logging.getLogger(__name__)


class PlanError(RuntimeError):
    """Planning failed; ``code`` is one of the seed's E_PLAN_* codes."""

    def __init__(self, message: str, code: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.details = details or {}


class PlannerDraft(BaseModel):
    """Stage 1 output: free reasoning plus a draft plan in any JSON shape."""

    model_config = ConfigDict(extra="forbid")

    reasoning: str = Field(description="Your reasoning, findings and quotes (prose is fine).")
    draft_plan_json: str = Field(
        description="Your draft plan as JSON text (may be incomplete or loosely structured)."
    )


class FixerHyperparameter(BaseModel):
    """One model hyperparameter (strict-schema friendly form of a dict entry)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Hyperparameter name, e.g. C, n_estimators, max_depth.")
    value: int | float | str | bool | list[int] | None = Field(description="Its value.")


class FixerPlanModel(PlanModel):
    """``PlanModel`` with hyperparameters as a list (OpenAI strict schemas have no maps)."""

    hyperparameters: list[FixerHyperparameter] = Field(  # type: ignore[assignment]
        description="Model-specific settings as name/value pairs."
    )


class PlanFixerOutput(PlanDocumentV11):
    """The schema fixer's output: Plan v1.1 with a strict-schema friendly ``model``."""

    model: FixerPlanModel = Field(description="Model to train.")  # type: ignore[assignment]

    def to_plan_dict(self) -> dict[str, Any]:
        """The Plan v1.1 dict (hyperparameters back to a mapping)."""
        data = self.model_dump(mode="json")
        data["model"]["hyperparameters"] = {
            item["name"]: item["value"] for item in data["model"]["hyperparameters"]
        }
        return data


# ---------------------------------------------------------------------------------------------
# Hyperparameters and model families from the text
# ---------------------------------------------------------------------------------------------

_NUM = r"(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+)"
HYPERPARAMETER_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    name: tuple(re.compile(p, re.IGNORECASE) for p in patterns)
    for name, patterns in {
        "epochs": (r"\b(\d+)\s+(?:training\s+)?epochs\b", r"\bepochs?\s*(?:=|:|of|to)\s*(\d+)"),
        "learning_rate": (rf"\blearning[\s-]rate\s*(?:of|=|:|is|to|was)?\s*(?:η\s*=\s*)?{_NUM}",
                          rf"\blr\s*=\s*{_NUM}"),
        "batch_size": (r"\b(?:mini-?)?batch[\s-]size\s*(?:of|=|:|is|was)?\s*(\d+)",
                       r"\bmini-?batch(?:es)?\s+of\s+(\d+)"),
        "seed": (r"\b(?:random\s+)?seed\s*(?:=|:|of|is|was)?\s*(\d+)",),
        "optimizer": (r"\b(AdamW|Adam|SGD|Adagrad|Adadelta|RMSprop|L-BFGS|LBFGS)\b",),
        "weight_decay": (rf"\b(?:weight\s+decay|L2\s+penalty|L2\s+regulari[sz]ation(?:\s+"
                         rf"strength)?|alpha)\s*(?:of|=|:|is)?\s*{_NUM}",),
        "dropout": (rf"\bdropout(?:\s+rate)?\s*(?:of|=|:|is)?\s*{_NUM}",
                    r"\b(no)\s+dropout\b"),
        "C": (rf"\bC\s*=\s*{_NUM}", rf"regulari[sz]ation\s+strength\s+(?:of\s+)?{_NUM}"),
        "n_estimators": (r"\b(\d+)\s+(?:trees|estimators|boosting\s+rounds)\b",
                         r"\bn_estimators\s*=\s*(\d+)"),
        "max_depth": (r"\bmax(?:imum)?[\s_]+depth\s*(?:of|=|:|is)?\s*(\d+)",),
        "hidden_units": (r"\bhidden\s+layers?\s+of\s+(\d+)", r"\b(\d+)\s+(?:ReLU\s+|tanh\s+)?"
                         r"(?:hidden\s+)?units\b"),
        "max_iter": (r"\bat\s+most\s+(\d+)\s+iterations\b", r"\bmax_iter\s*=\s*(\d+)"),
        "test_size": (r"\b\d{2}\s*/\s*(\d{1,2})\b(?:\s+(?:split|train))?",
                      r"\b(\d{1,2})\s*%\s+(?:of\s+the\s+data\s+)?(?:for\s+)?test"),
    }.items()
}
CONFIG_KEYS = ("epochs", "learning_rate", "batch_size", "seed", "optimizer", "weight_decay",
               "dropout")
MODEL_KEYS_BY_ARCH: dict[str, tuple[str, ...]] = {
    "logistic_regression": ("C", "max_iter"),
    "linear_svm": ("C", "max_iter"),
    "random_forest": ("n_estimators", "max_depth"),
    "gradient_boosting": ("n_estimators", "max_depth"),
    "decision_tree": ("max_depth",),
    "mlp": ("hidden_units", "max_iter"),
}


@dataclass(frozen=True)
class Finding:
    """A hyperparameter read from the paper, with the sentence it came from."""

    name: str
    value: Any
    quote: str
    page: int
    citation: str

    def to_dict(self) -> dict[str, Any]:
        """JSON view."""
        return {"name": self.name, "value": self.value, "quote": self.quote, "page": self.page,
                "citation": self.citation}


def _convert(name: str, raw: str) -> Any:
    if name == "optimizer":
        return raw.lower().replace("-", "")
    if name == "dropout" and raw.lower() == "no":
        return 0.0
    if name in {"epochs", "batch_size", "seed", "n_estimators", "max_depth", "hidden_units",
                "max_iter"}:
        return int(float(raw))
    if name == "test_size":
        return int(raw) / 100
    return float(raw)


def _clauses(sentence: str) -> list[str]:
    return [c for c in re.split(r";\s*|:\s+(?=[a-z])", sentence) if c.strip()]


def find_hyperparameters(pages: PaperPages, architecture: str | None) -> dict[str, Finding]:
    """Hyperparameters stated in the paper for ``architecture``.

    Clauses naming ``architecture`` win; clauses naming no model family come next; clauses
    that name only other model families (baselines) are ignored.
    """
    sections = section_index(pages)
    found: dict[str, tuple[int, Finding]] = {}
    for page_no, offset, sentence in iter_sentences(pages):
        for clause in _clauses(sentence):
            families = architectures_in(clause)
            if architecture and architecture in families:
                priority = 0
            elif not families:
                priority = 1
            elif architecture is None:
                priority = 2
            else:
                continue
            for name, patterns in HYPERPARAMETER_PATTERNS.items():
                for pattern in patterns:
                    match = pattern.search(clause)
                    if not match:
                        continue
                    try:
                        value = _convert(name, match.group(1))
                    except ValueError:
                        continue
                    current = found.get(name)
                    if current is None or priority < current[0]:
                        found[name] = (priority, Finding(
                            name=name, value=value, quote=sentence, page=page_no,
                            citation=cite(sections, page_no, offset)))
                    break
    return {name: finding for name, (_, finding) in found.items()}


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

_OURS = re.compile(r"\bours\b|\bproposed\b|\bour\b", re.IGNORECASE)


def primary_claim(claims: list[Claim], pages: PaperPages) -> Claim | None:
    """The paper's headline claim: our method, printed in the abstract, on a known dataset."""
    if not claims:
        return None
    first_page = _collapse(pages.pages[0].text).lower() if pages.pages else ""
    abstract = first_page.split("introduction")[0]

    def score(item: tuple[int, Claim]) -> tuple[float, int]:
        index, claim = item
        value = 0.0
        if claim.method_snippet and _OURS.search(claim.method_snippet):
            value += 2
        pct = f"{claim.metric_value * 100:.1f}"
        if pct in abstract or f"{claim.metric_value:g}" in abstract:
            value += 2
        if claim.metric_name == "accuracy":
            value += 1
        if lookup_dataset(claim.dataset_name):
            value += 1
        value += claim.confidence
        return value, -index

    return max(enumerate(claims), key=score)[1]


def _model_name(snippet: str | None, architecture: str) -> str:
    name = re.sub(r"\((?:ours|proposed)\)", "", snippet or "", flags=re.I).strip(" ,.")
    return name or architecture.replace("_", " ").title()


def heuristic_plan(
    pages: PaperPages, claims: list[Claim], budget_minutes: int = 10
) -> tuple[dict[str, Any], list[Finding]]:
    """The offline planner: a raw plan dict (sanitized later) and the findings it used."""
    claim = primary_claim(claims, pages)
    if claim is None:
        raise PlanError("no claims to plan from", "E_PLAN_NO_OUTPUT")
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
            "dataset": just(dataset_quote, f"Dataset of the headline claim: {claim.dataset_name}"),
            "model": just(arch_quote, f"Model of the headline claim: {claim.method_snippet}"),
            "config": just(config_quote, "Training details not specified; defaults used"),
            "metrics": {"quote": claim.evidence.quoted_text, "citation": claim.source_citation},
        },
        "policy": {"budget_minutes": budget_minutes, "cpu_only": True},
        "visualizations": {"plots": ["loss_curve", "accuracy_curve"],
                           "tables": ["confusion_matrix"]},
        "explain": {"accessible": True, "kid_mode": True},
    }
    return raw, list(findings.values())


# ---------------------------------------------------------------------------------------------
# LLM planner (two stages)
# ---------------------------------------------------------------------------------------------


def _extract_json(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` (code fences and surrounding prose allowed)."""
    text = text.strip()
    fence = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    candidates = [fence.group(1)] if fence else []
    candidates.append(text)
    start = text.find("{")
    if start >= 0:
        candidates.append(text[start:text.rfind("}") + 1])
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except (json.JSONDecodeError, ValueError):
            continue
        if isinstance(value, dict):
            return value
    return None


@dataclass
class LLMPlanOutcome:
    """What the two-stage LLM planner produced."""

    raw_plan: dict[str, Any]
    stage_path: str
    stage1: PlannerDraft
    tool_calls: list[dict[str, Any]]
    stage2_errors: list[str]


def llm_plan(
    llm: LLMClient,
    pages: PaperPages,
    claims: list[Claim],
    tools: list[Tool],
    budget_minutes: int,
) -> LLMPlanOutcome:
    """Run Stage 1 (planner + tools) and Stage 2 (schema fixer, retried once; else parse 1).

    Raises:
        PlanError: E_PLAN_OPENAI_ERROR (provider failure in Stage 1), E_POLICY_CAP_EXCEEDED,
            E_PLAN_NO_OUTPUT (Stage 1 produced nothing usable), E_TWO_STAGE_FAILED.
    """
    user = json.dumps({
        "paper": {"id": pages.paper_id, "title": pages.title},
        "claims": [c.model_dump(mode="json", exclude={"evidence"}) for c in claims[:40]],
        "policy": {"budget_minutes": budget_minutes},
    })
    try:
        stage1 = llm.structured(role=Role.PLANNER, system=PLANNER_SYSTEM, user=user,
                                schema=PlannerDraft, tools=tools, max_tokens=8192)
    except LLMPolicyCapExceeded as exc:
        raise PlanError(str(exc), "E_POLICY_CAP_EXCEEDED") from exc
    except LLMInvalidOutput as exc:
        raise PlanError(f"planner produced no usable output: {exc}", "E_PLAN_NO_OUTPUT",
                        {"raw_text": exc.raw_text[:2000]}) from exc
    except LLMError as exc:
        raise PlanError(f"planner LLM failed: {exc}", "E_PLAN_OPENAI_ERROR",
                        {"llm_code": exc.code}) from exc
    draft = stage1.value
    tool_calls = [{"tool": c.name, "args": c.arguments, "result": c.result}
                  for c in stage1.tool_calls]
    fixer_user = json.dumps({
        "stage1_output": {"reasoning": draft.reasoning, "draft_plan_json": draft.draft_plan_json},
        "stage1_tool_calls": tool_calls,
        "plan_schema": PlanFixerOutput.model_json_schema(),
    }, default=str)
    errors: list[str] = []
    for _attempt in range(2):  # Stage 2, retried once
        try:
            fixed = llm.structured(role=Role.SCHEMA_FIXER, system=SCHEMA_FIXER_SYSTEM,
                                   user=fixer_user, schema=PlanFixerOutput)
            return LLMPlanOutcome(fixed.value.to_plan_dict(), "two_stage", draft,
                                  tool_calls, errors)
        except LLMError as exc:
            errors.append(f"{exc.code}: {exc}")
            log.warning("schema fixer failed (%s)", exc.code)
    parsed = _extract_json(draft.draft_plan_json) or _extract_json(draft.reasoning)
    if parsed is None:
        raise PlanError(
            "schema fixer failed twice and the Stage 1 draft is not JSON", "E_TWO_STAGE_FAILED",
            {"stage2_errors": errors, "schema_fix_code": "E_SCHEMA_FIX_FAILED"},
        )
    return LLMPlanOutcome(parsed, "stage1_fallback", draft, tool_calls, errors)


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


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
) -> PlanResult:
    """Sanitize, validate, resolve the dataset, check quotes and enforce the guardrails.

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


def make_plan(
    pages: PaperPages,
    claims: list[Claim],
    llm: LLMClient | None = None,
    tools: list[Tool] | None = None,
    budget_minutes: int = 10,
) -> tuple[PlanResult, list[Finding]]:
    """Plan a reproduction (LLM two-stage when available, else the deterministic planner).

    Returns:
        (plan result, hyperparameter findings of the offline planner — empty on the LLM path).

    Raises:
        PlanError: with the seed's codes.
    """
    if not claims:
        raise PlanError("no claims to plan from; run paper_claims first", "E_PLAN_NOT_READY")
    if llm is not None and llm.available:
        outcome = llm_plan(llm, pages, claims, tools or [], budget_minutes)
        extra = [f"schema fixer failed: {e}" for e in outcome.stage2_errors]
        if outcome.stage_path == "stage1_fallback":
            extra.append("Stage 2 failed twice; parsed the Stage 1 draft directly")
        result = finalize_plan(outcome.raw_plan, pages.paper_id, pages, "llm",
                               outcome.stage_path, budget_minutes, extra, llm.usage_summary())
        return result, []
    raw, findings = heuristic_plan(pages, claims, budget_minutes)
    result = finalize_plan(raw, pages.paper_id, pages, "heuristic", "heuristic", budget_minutes)
    return result, findings


# ---------------------------------------------------------------------------------------------
# Persistence (plans table; history kept, latest is current)
# ---------------------------------------------------------------------------------------------


def save_plan(db: Database, result: PlanResult) -> None:
    """Insert (or refresh) a plan row."""
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO plans (id, paper_id, version, plan_json, budget_minutes, status, method,"
            " stage_path, warnings, data_resolution, llm_usage)"
            " VALUES (%s, %s, %s, %s, %s, 'planned', %s, %s, %s, %s, %s)"
            " ON CONFLICT (id) DO UPDATE SET warnings = EXCLUDED.warnings,"
            " data_resolution = EXCLUDED.data_resolution, llm_usage = EXCLUDED.llm_usage,"
            " method = EXCLUDED.method, stage_path = EXCLUDED.stage_path, created_at = now()",
            (result.plan_id, result.paper_id, result.plan_version,
             json.dumps(result.plan.model_dump(mode="json")), result.plan.policy.budget_minutes,
             result.method, result.stage_path, json.dumps(result.warnings),
             json.dumps(result.data_resolution.model_dump(mode="json")),
             json.dumps(result.llm_usage, default=str)),
        )


def load_latest_plan(db: Database, paper_id: str) -> PlanResult | None:
    """The most recent plan of a paper (what stage 5 materializes), or None."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT id, plan_json, warnings, data_resolution, method, stage_path, llm_usage"
            " FROM plans WHERE paper_id = %s ORDER BY created_at DESC, id LIMIT 1",
            (paper_id,),
        ).fetchone()
    if row is None:
        return None
    return PlanResult(
        plan_id=row[0], paper_id=paper_id, plan=PlanDocumentV11.model_validate(row[1]),
        warnings=row[2], data_resolution=DataResolution.model_validate(row[3]), method=row[4],
        stage_path=row[5], llm_usage=row[6],
    )
