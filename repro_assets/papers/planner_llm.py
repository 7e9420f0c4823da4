"""Stage 4 with an LLM: the two-stage planner of seed 000.

Stage 1, the planner role, reasons with tools (search_paper, dataset_resolver, license_checker,
budget_estimator) and may answer loosely; Stage 2, the schema_fixer role, turns that into Plan
v1.1. Both calls take the JSONizer fallback (a cheaper model repairs an answer that is still
invalid after the layer's re-ask). If Stage 2 still fails it is retried once, then Stage 1's
draft is parsed directly (E_TWO_STAGE_FAILED if that fails too). A provider failure is never
turned into a note: it is E_PLAN_OPENAI_ERROR (E_POLICY_CAP_EXCEEDED for the tool cap).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.llm.jsonizer import jsonizer_fallback
from repro_assets.llm.types import (
    LLMClient,
    LLMError,
    LLMInvalidOutput,
    LLMPolicyCapExceeded,
    Role,
    Tool,
)
from repro_assets.papers.claims import Claim
from repro_assets.papers.models import PaperPages
from repro_assets.papers.plan_models import PlanDocumentV11, PlanError, PlanModel
from repro_assets.papers.prompts import PLANNER_SYSTEM, SCHEMA_FIXER_SYSTEM

log = logging.getLogger(__name__)

#: Claims sent to Stage 1 as context besides the target.
MAX_CONTEXT_CLAIMS = 40


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


def extract_json(text: str) -> dict[str, Any] | None:
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


def provider_error(exc: LLMError, stage: str) -> PlanError:
    """The plan error for an LLM failure that is not an invalid answer."""
    if isinstance(exc, LLMPolicyCapExceeded):
        return PlanError(str(exc), "E_POLICY_CAP_EXCEEDED", {"llm_code": exc.code})
    return PlanError(f"{stage} LLM failed: {exc}", "E_PLAN_OPENAI_ERROR", {"llm_code": exc.code})


def stage1_prompt(pages: PaperPages, target: Claim, claims: list[Claim],
                  budget_minutes: int) -> str:
    """The planner's user message: the claim to reproduce first, the others as context."""
    others = [c for c in claims if c is not target][:MAX_CONTEXT_CLAIMS]
    return json.dumps({
        "paper": {"id": pages.paper_id, "title": pages.title},
        "target_claim": target.model_dump(mode="json", exclude={"evidence"}),
        "claims": [c.model_dump(mode="json", exclude={"evidence"}) for c in others],
        "policy": {"budget_minutes": budget_minutes},
    })


def llm_plan(
    llm: LLMClient,
    pages: PaperPages,
    target: Claim,
    claims: list[Claim],
    tools: list[Tool],
    budget_minutes: int,
) -> LLMPlanOutcome:
    """Run Stage 1 (planner + tools) and Stage 2 (schema fixer, retried once; else parse 1).

    Args:
        llm: an available client.
        pages: the paper.
        target: the grounded claim the plan must reproduce.
        claims: every grounded claim (context).
        tools: Stage 1 tools.
        budget_minutes: the CPU budget.

    Raises:
        PlanError: E_PLAN_OPENAI_ERROR (provider failure), E_POLICY_CAP_EXCEEDED,
            E_PLAN_NO_OUTPUT (Stage 1 produced nothing usable, even for the JSONizer),
            E_TWO_STAGE_FAILED.
    """
    try:
        stage1 = llm.structured(
            role=Role.PLANNER, system=PLANNER_SYSTEM, schema=PlannerDraft, tools=tools,
            user=stage1_prompt(pages, target, claims, budget_minutes), max_tokens=8192,
            fallback=jsonizer_fallback(llm, code="E_PLAN_NO_OUTPUT"))
    except LLMInvalidOutput as exc:
        raise PlanError(f"planner produced no usable output: {exc}", "E_PLAN_NO_OUTPUT",
                        {"raw_text": exc.raw_text[:2000]}) from exc
    except LLMError as exc:
        raise provider_error(exc, "planner") from exc
    draft = stage1.value
    tool_calls = [{"tool": c.name, "args": c.arguments, "result": c.result}
                  for c in stage1.tool_calls]
    fixer_user = json.dumps({
        "stage1_output": {"reasoning": draft.reasoning, "draft_plan_json": draft.draft_plan_json},
        "stage1_tool_calls": tool_calls,
        "plan_schema": PlanFixerOutput.model_json_schema(),
    }, default=str, sort_keys=True)  # cached Stage 1 tool calls come back key-sorted (jsonb)
    errors: list[str] = []
    last: LLMError | None = None
    for _attempt in range(2):  # Stage 2, retried once
        try:
            fixed = llm.structured(
                role=Role.SCHEMA_FIXER, system=SCHEMA_FIXER_SYSTEM, user=fixer_user,
                schema=PlanFixerOutput,
                fallback=jsonizer_fallback(llm, code="E_SCHEMA_FIX_FAILED"))
            return LLMPlanOutcome(fixed.value.to_plan_dict(), "two_stage", draft,
                                  tool_calls, errors)
        except LLMError as exc:
            last = exc
            errors.append(f"{exc.code}: {exc}")
            log.warning("schema fixer failed (%s)", exc.code)
    if last is not None and not isinstance(last, LLMInvalidOutput):
        raise provider_error(last, "schema fixer") from last
    parsed = extract_json(draft.draft_plan_json) or extract_json(draft.reasoning)
    if parsed is None:
        raise PlanError(
            "schema fixer failed twice and the Stage 1 draft is not JSON", "E_TWO_STAGE_FAILED",
            {"stage2_errors": errors, "schema_fix_code": "E_SCHEMA_FIX_FAILED"},
        )
    return LLMPlanOutcome(parsed, "stage1_fallback", draft, tool_calls, errors)
