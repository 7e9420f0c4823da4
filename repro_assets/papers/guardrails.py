"""Output guardrails of the verify, extract and plan stages (seed 000)."""

from __future__ import annotations

from typing import Any

from repro_assets.llm.types import Guardrail
from repro_assets.papers.plan_models import METRICS, PLAN_VERSION, PlanDocumentV11
from repro_assets.papers.registry import license_compatible
from repro_assets.papers.tools import MAX_BUDGET_MINUTES

PLAN_GUARDRAIL_CODE = "E_PLAN_GUARDRAIL_FAILED"
VERIFY_GUARDRAIL_CODE = "E_VERIFY_GUARDRAIL_FAILED"


def _version(plan: PlanDocumentV11) -> tuple[bool, str | None]:
    return (plan.version == PLAN_VERSION, f"version must be {PLAN_VERSION}, got {plan.version}")


def _budget(plan: PlanDocumentV11) -> tuple[bool, str | None]:
    ok = plan.policy.budget_minutes <= MAX_BUDGET_MINUTES
    return ok, (None if ok else
                f"budget_minutes {plan.policy.budget_minutes} exceeds the CPU cap of "
                f"{MAX_BUDGET_MINUTES}")


def _license(plan: PlanDocumentV11) -> tuple[bool, str | None]:
    ok = license_compatible(plan.policy.license)
    return ok, (None if ok else
                f"dataset license {plan.policy.license!r} is not compatible (MIT, Apache-2.0, "
                "BSD, CC0, CC-BY)")


def _metrics(plan: PlanDocumentV11) -> tuple[bool, str | None]:
    ok = bool(plan.metrics.primary) and plan.metrics.primary in METRICS
    return ok, (None if ok else f"primary metric {plan.metrics.primary!r} is not a known metric")


def _justifications(plan: PlanDocumentV11) -> tuple[bool, str | None]:
    missing = [
        name for name in ("dataset", "model", "config")
        if not getattr(plan.justifications, name).quote.strip()
        or not getattr(plan.justifications, name).citation.strip()
    ]
    return (not missing, f"justifications missing or empty: {', '.join(missing)}")


PLAN_GUARDRAILS: tuple[Guardrail[Any], ...] = (
    Guardrail("version", "plan.version == '1.1'", _version, PLAN_GUARDRAIL_CODE),
    Guardrail("runtime", f"policy.budget_minutes <= {MAX_BUDGET_MINUTES}", _budget,
              PLAN_GUARDRAIL_CODE),
    Guardrail("license", "dataset license is compatible", _license, PLAN_GUARDRAIL_CODE),
    Guardrail("metrics", "at least one known metric", _metrics, PLAN_GUARDRAIL_CODE),
    Guardrail("justifications", "dataset, model and config justified", _justifications,
              PLAN_GUARDRAIL_CODE),
)


def enforce_plan_guardrails(plan: PlanDocumentV11) -> None:
    """Enforce every plan guardrail.

    Raises:
        GuardrailError: with code E_PLAN_GUARDRAIL_FAILED on the first failing rule.
    """
    for guardrail in PLAN_GUARDRAILS:
        guardrail.enforce(plan)


def _reasoning(verdict: Any) -> tuple[bool, str | None]:
    ok = bool(str(getattr(verdict, "reasoning", "")).strip())
    return ok, "reasoning must not be empty"


def _missing(verdict: Any) -> tuple[bool, str | None]:
    ok = bool(verdict.reproducible) or bool(verdict.missing_elements)
    return ok, "missing_elements is required when reproducible is false"


VERDICT_GUARDRAILS: tuple[Guardrail[Any], ...] = (
    Guardrail("reasoning", "must provide reasoning", _reasoning, VERIFY_GUARDRAIL_CODE),
    Guardrail("missing_elements", "list missing elements if not reproducible", _missing,
              VERIFY_GUARDRAIL_CODE),
)


def enforce_verdict_guardrails(verdict: Any) -> None:
    """Enforce the verifier's output guardrails (GuardrailError E_VERIFY_GUARDRAIL_FAILED)."""
    for guardrail in VERDICT_GUARDRAILS:
        guardrail.enforce(verdict)
