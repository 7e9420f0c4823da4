"""The kid explainer role (seed 000, ``AgentRole.KID_EXPLAINER``): the report in plain words.

With an LLM (``Role.EXPLAINER``) the model writes a short summary from the report's facts
(JSON); guardrails require a non-empty answer of at most :data:`MAX_WORDS` words without code.
Offline, or when the LLM fails or a guardrail trips, a deterministic template writes it and
the reason is recorded.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.llm.types import Guardrail, GuardrailError, LLMClient, LLMError, Role
from repro_assets.papers.notebook.report import ReproductionReport, is_point_metric

MAX_WORDS = 160

KID_SYSTEM_PROMPT = """\
You explain the result of a science check to a curious 10-year-old.
You get the facts of a report as JSON: what the paper claimed, what our computer run achieved,
and a verdict (REPRODUCED = we got about the same result, PARTIAL = close but not quite or only
some results matched, NOT_REPRODUCED = we got a clearly different result, NOT_RUN = we could not
test the claim properly).
Write 3 to 5 short, friendly sentences in plain words: what the computer learned to do, what
the paper said, what we got, and what the verdict means. Use only the numbers in the facts.
No jargon, no code, no lists, no headings."""

_VERDICT_WORDS = {
    "REPRODUCED": "So our check agrees with the paper: we got about the same result.",
    "PARTIAL": "So our check partly agrees with the paper: close, but not everything matched.",
    "NOT_REPRODUCED": "So our check did not agree with the paper: our result was clearly "
    "different.",
    "NOT_RUN": "So we could not really test the paper's claim this time.",
}


class KidExplanation(BaseModel):
    """The plain-language summary and how it was made."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="3-5 plain sentences.")
    method: Literal["llm", "heuristic"] = Field(description="llm or heuristic (template).")
    model: str | None = Field(default=None, description="LLM model when method is llm.")
    fallback_reason: str | None = Field(
        default=None, description="Why the template was used although an LLM is configured."
    )
    usage: dict[str, Any] = Field(default_factory=dict, description="LLM usage totals.")


def _pct(value: float) -> str:
    return f"{value * 100:.1f} out of 100"


def report_facts(report: ReproductionReport) -> dict[str, Any]:
    """The facts the explainer may use (no file paths, no plots)."""
    primary = report.primary
    return {
        "model": report.model,
        "task": report.dataset.get("task", "classification"),
        "dataset": report.dataset.get("dataset"),
        "synthetic_data": bool(report.dataset.get("synthetic")),
        "examples_used_for_training": report.dataset.get("n_train"),
        "examples_used_for_testing": report.dataset.get("n_test"),
        "metric": primary.metric if primary else None,
        "paper_claimed": primary.claimed if primary else None,
        "we_achieved": primary.achieved if primary else None,
        "gap_points": primary.gap_points if primary else None,
        "verdict": report.verdict,
        "reasons": report.reasons[:3],
    }


def template_explanation(report: ReproductionReport) -> str:
    """The deterministic kid summary."""
    facts = report_facts(report)
    task = "sort examples into groups" if facts["task"] != "regression" else "guess numbers"
    words = report.model or "computer model"
    article = "an" if words[:1].lower() in "aeiou" else "a"
    sentences = [f"We asked a computer program ({article} {words}) to learn to {task}."]
    if facts["examples_used_for_training"]:
        kind = "made-up practice examples" if facts["synthetic_data"] else "real examples"
        sentences.append(
            f"It studied {facts['examples_used_for_training']} {kind} and was then tested on "
            f"{facts['examples_used_for_testing']} examples it had never seen."
        )
    primary = report.primary
    if primary is not None and primary.claimed is not None:
        point = is_point_metric(primary.metric)
        claimed = _pct(primary.claimed) if point else f"{primary.claimed:.3g}"
        if primary.achieved is not None:
            achieved = _pct(primary.achieved) if point else f"{primary.achieved:.3g}"
            sentences.append(
                f"The paper said its {primary.metric} score was {claimed}, and we got {achieved}."
            )
        else:
            sentences.append(f"The paper said its {primary.metric} score was {claimed}, but we "
                             "could not measure ours.")
    if facts["synthetic_data"]:
        sentences.append("We had to use made-up data, so this cannot prove the paper right or "
                         "wrong.")
    sentences.append(_VERDICT_WORDS[report.verdict])
    return " ".join(sentences)


def _check_text(text: str) -> tuple[bool, str | None]:
    words = len(text.split())
    if not text.strip():
        return False, "empty explanation"
    if words > MAX_WORDS:
        return False, f"{words} words (max {MAX_WORDS})"
    if "```" in text or "import " in text:
        return False, "contains code"
    return True, None


KID_GUARDRAIL: Guardrail[Any] = Guardrail(
    name="kid_explanation_plain",
    description=f"non-empty, at most {MAX_WORDS} words, no code",
    check=_check_text,
    code="E_EXPLAIN_GUARDRAIL_FAILED",
)


def explain_report(report: ReproductionReport, llm: LLMClient | None) -> KidExplanation:
    """Write the kid summary of ``report``: LLM when available, else the template.

    Args:
        report: the finished report.
        llm: the LLM client (``None`` or offline -> template).

    Returns:
        The explanation with its method (``llm``/``heuristic``) and any fallback reason.
    """
    if llm is None or not llm.available:
        return KidExplanation(text=template_explanation(report), method="heuristic")
    try:
        result = llm.text(
            role=Role.EXPLAINER,
            system=KID_SYSTEM_PROMPT,
            user=json.dumps(report_facts(report), sort_keys=True),
            temperature=0.3,
            max_tokens=400,
        )
        text = " ".join(result.raw_text.split())
        KID_GUARDRAIL.enforce(text)
    except (LLMError, GuardrailError) as exc:
        code = getattr(exc, "code", "E_LLM_ERROR")
        return KidExplanation(
            text=template_explanation(report), method="heuristic",
            fallback_reason=f"{code}: {exc}", usage=llm.usage_summary(),
        )
    return KidExplanation(
        text=text, method="llm", model=llm.model_for(Role.EXPLAINER),
        usage=llm.usage_summary(),
    )
