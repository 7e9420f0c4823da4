"""Stage 6 report: claimed vs achieved, gaps, a verdict with reasons, justifications, plots.

Verdicts (per comparison and overall):

* ``REPRODUCED``: the achieved value is within the tolerance of the claim (default +-2 points
  absolute for metrics on a 0-1 scale such as accuracy or F1; a relative tolerance, default
  5%, for unbounded metrics such as MSE).
* ``PARTIAL``: outside the tolerance but within the partial band (default 5 points / 15%),
  or better than the claim by more than the tolerance (the setup differs), or the primary
  claim holds while another claim on the same model does not.
* ``NOT_REPRODUCED``: outside the partial band on the bad side.
* ``NOT_RUN``: nothing comparable was measured: the run failed or never happened, the
  notebook had to use synthetic data, the metric could not be computed, or there is no
  claimed value.
"""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.papers.notebook.templates import normalize_architecture
from repro_assets.papers.plan_models import PlanDocumentV11
from repro_assets.papers.registry import same_dataset

Verdict = Literal["REPRODUCED", "PARTIAL", "NOT_REPRODUCED", "NOT_RUN"]

#: Metrics on a 0-1 scale: gaps are in points (x100) and the absolute tolerance applies.
POINT_METRICS: frozenset[str] = frozenset(
    {"accuracy", "f1", "precision", "recall", "auc", "error_rate", "r2"}
)
#: Metrics where smaller is better.
LOWER_IS_BETTER: frozenset[str] = frozenset({"error_rate", "mse", "rmse", "mae", "perplexity"})

_ARCH_KEYWORDS: dict[str, tuple[str, ...]] = {
    "logistic_regression": ("logistic", "logreg", "maxent", "maximum entropy"),
    "linear_svm": ("svm", "support vector", "linearsvc"),
    "random_forest": ("random forest", "forest"),
    "decision_tree": ("decision tree",),
    "gradient_boosting": ("boost", "gbdt", "gbm", "xgboost", "lightgbm"),
    "mlp": ("mlp", "perceptron", "feed-forward", "feedforward", "fully connected"),
    "cnn": ("cnn", "convolution", "convnet"),
    "rnn": ("lstm", "gru", "rnn", "recurrent"),
    "transformer": ("transformer", "bert"),
    "knn": ("knn", "nearest neighbo"),
    "naive_bayes": ("naive bayes", "nb"),
}


class ReportSettings(BaseModel):
    """Tolerances of the verdict (configurable per run)."""

    model_config = ConfigDict(extra="forbid")

    tolerance_points: float = Field(
        default=2.0, ge=0, description="REPRODUCED within +- this many points (0-1 metrics)."
    )
    partial_points: float = Field(
        default=5.0, ge=0, description="PARTIAL within this many points below the claim."
    )
    relative_tolerance: float = Field(
        default=0.05, ge=0, description="REPRODUCED within this relative gap (other metrics)."
    )
    relative_partial: float = Field(
        default=0.15, ge=0, description="PARTIAL within this relative gap (other metrics)."
    )


class ClaimInput(BaseModel):
    """A claim as the report needs it (from the ``claims`` table)."""

    model_config = ConfigDict(extra="forbid")

    dataset_name: str = Field(description="Dataset of the claim.")
    split: str = Field(default="test", description="Split.")
    metric_name: str = Field(description="Canonical metric name.")
    metric_value: float = Field(description="Claimed value as a decimal.")
    method_snippet: str | None = Field(default=None, description="Model the value is for.")
    source_citation: str = Field(default="", description="Where it is printed.")
    page: int | None = Field(default=None, description="Evidence page.")
    quoted_text: str | None = Field(default=None, description="Evidence quote.")
    confidence: float | None = Field(default=None, description="Extraction confidence.")


class RunSummary(BaseModel):
    """What the report needs from the run (from the ``runs`` table)."""

    model_config = ConfigDict(extra="forbid")

    run_id: str | None = Field(default=None, description="Run id; None when never run.")
    status: Literal["succeeded", "failed", "missing"] = Field(description="Run outcome.")
    error_code: str | None = Field(default=None, description="Error code of a failed run.")
    error_message: str | None = Field(default=None, description="Error of a failed run.")
    metrics: dict[str, Any] = Field(
        default_factory=dict, description="The notebook's metrics.json (empty when failed)."
    )
    seconds: float | None = Field(default=None, description="Execution seconds.")
    template: str | None = Field(default=None, description="Template used.")


class Comparison(BaseModel):
    """One claimed value against the achieved one."""

    model_config = ConfigDict(extra="forbid")

    source: Literal["plan_goal", "claim"] = Field(description="Plan goal_value or a claim.")
    dataset: str = Field(description="Dataset of the claim.")
    metric: str = Field(description="Metric.")
    method: str | None = Field(default=None, description="Model the claim is about.")
    claimed: float | None = Field(description="Claimed value (decimal).")
    achieved: float | None = Field(description="Achieved value (decimal), None if not measured.")
    gap: float | None = Field(default=None, description="achieved - claimed.")
    gap_points: float | None = Field(
        default=None, description="gap x 100 for 0-1 metrics (percentage points)."
    )
    relative_gap: float | None = Field(default=None, description="gap / |claimed|.")
    verdict: Verdict = Field(description="Verdict of this comparison.")
    reasons: list[str] = Field(default_factory=list, description="Why this verdict.")
    citation: str | None = Field(default=None, description="Where the claim is printed.")
    quote: str | None = Field(default=None, description="Verbatim evidence.")
    page: int | None = Field(default=None, description="Evidence page.")


class JustificationItem(BaseModel):
    """A quote backing a plan decision or a claim."""

    model_config = ConfigDict(extra="forbid")

    topic: str = Field(description="dataset, model, config, metrics or claim.")
    quote: str = Field(description="Verbatim text.")
    citation: str = Field(description="Where it is.")


class ReproductionReport(BaseModel):
    """The report of one paper's reproduction."""

    model_config = ConfigDict(extra="forbid")

    paper_id: str = Field(description="Paper id.")
    title: str | None = Field(default=None, description="Paper title.")
    plan_id: str | None = Field(default=None, description="Plan used.")
    run_id: str | None = Field(default=None, description="Run evaluated.")
    verdict: Verdict = Field(description="Overall verdict.")
    reasons: list[str] = Field(default_factory=list, description="Why the overall verdict.")
    primary: Comparison | None = Field(default=None, description="The headline comparison.")
    comparisons: list[Comparison] = Field(
        default_factory=list, description="Every comparison (headline first)."
    )
    other_claims: int = Field(
        default=0, description="Claims about other models/datasets (context, not compared)."
    )
    achieved_metrics: dict[str, float] = Field(
        default_factory=dict, description="Every metric the run measured."
    )
    model: str = Field(description="Model name from the plan.")
    architecture: str = Field(description="Architecture from the plan.")
    template: str | None = Field(default=None, description="Notebook template.")
    dataset: dict[str, Any] = Field(default_factory=dict, description="Data the run used.")
    run_status: str = Field(description="succeeded, failed or missing.")
    run_error: str | None = Field(default=None, description="Error of a failed run.")
    run_seconds: float | None = Field(default=None, description="Execution seconds.")
    epochs_run: int | None = Field(default=None, description="Epochs logged.")
    settings: ReportSettings = Field(description="Tolerances used.")
    justifications: list[JustificationItem] = Field(
        default_factory=list, description="Plan quotes and claim evidence."
    )
    plots: dict[str, str] = Field(default_factory=dict, description="Plot name -> blob key.")
    kid_summary: str | None = Field(default=None, description="Plain-language summary.")
    kid_method: str | None = Field(default=None, description="llm or heuristic.")
    created_at: str = Field(
        default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"),
        description="When the report was made.",
    )


def is_point_metric(metric: str) -> bool:
    """True when ``metric`` lives on a 0-1 scale (gaps reported in points)."""
    return metric.lower().removesuffix("_binary") in POINT_METRICS


def judge(
    metric: str, claimed: float, achieved: float, settings: ReportSettings
) -> tuple[Verdict, list[str], dict[str, float | None]]:
    """Verdict of one claimed/achieved pair.

    Returns:
        ``(verdict, reasons, gaps)`` with gaps ``gap``, ``gap_points``, ``relative_gap``.
    """
    metric = metric.lower()
    gap = achieved - claimed
    relative = gap / abs(claimed) if claimed else None
    better = gap < 0 if metric in LOWER_IS_BETTER else gap > 0
    if is_point_metric(metric):
        size, tol, partial = abs(gap) * 100.0, settings.tolerance_points, settings.partial_points
        unit, shown = "points", f"{gap * 100:+.1f} points"
    else:
        size = abs(relative) * 100.0 if relative is not None else abs(gap) * 100.0
        tol, partial = settings.relative_tolerance * 100, settings.relative_partial * 100
        unit, shown = "%", f"{(relative or 0) * 100:+.1f}%"
    gaps = {
        "gap": round(gap, 6),
        "gap_points": round(gap * 100.0, 3) if is_point_metric(metric) else None,
        "relative_gap": round(relative, 6) if relative is not None else None,
    }
    if size <= tol + 1e-9:
        return "REPRODUCED", [f"{metric} {shown}: within the +-{tol:g} {unit} tolerance"], gaps
    if better:
        return "PARTIAL", [
            f"{metric} {shown}: better than claimed by more than the {tol:g} {unit} tolerance "
            "(the setup probably differs)"
        ], gaps
    if size <= partial + 1e-9:
        return "PARTIAL", [
            f"{metric} {shown}: outside the +-{tol:g} {unit} tolerance, within {partial:g} {unit}"
        ], gaps
    return "NOT_REPRODUCED", [f"{metric} {shown}: short of the claim by more than {partial:g} "
                              f"{unit}"], gaps


def method_matches(snippet: str | None, model_name: str, architecture: str) -> bool:
    """Whether a claim's method snippet is about the plan's model.

    A missing snippet counts as a match (the claim cannot be told apart).
    """
    if not snippet:
        return True
    text = re.sub(r"\((?:ours|proposed)\)", " ", snippet.lower())
    text = re.sub(r"\s+", " ", text).strip()
    name = re.sub(r"\((?:ours|proposed)\)", " ", model_name.lower()).strip()
    if name and (name == text or (len(name) > 3 and (name in text or text in name))):
        return True
    arch = normalize_architecture(architecture)
    snippet_arch = normalize_architecture(text)
    if snippet_arch == arch:
        return True
    keywords = _ARCH_KEYWORDS.get(arch, ())
    if not any(re.search(r"\b" + re.escape(k), text) for k in keywords):
        return False
    others = [a for a, kws in _ARCH_KEYWORDS.items() if a != arch
              and any(re.search(r"\b" + re.escape(k), text) for k in kws)]
    return not others


def _not_comparable_reason(run: RunSummary) -> str | None:
    if run.status == "missing":
        return "the notebook has not been run"
    if run.status == "failed":
        return f"the run failed ({run.error_code}): {run.error_message}"
    data = run.metrics.get("dataset") or {}
    if data.get("synthetic"):
        why = data.get("fallback_reason") or "the plan uses synthetic data"
        return f"the notebook ran on synthetic data, not the paper's ({why})"
    return None


def build_report(
    *,
    paper_id: str,
    plan: PlanDocumentV11,
    claims: list[ClaimInput],
    run: RunSummary,
    settings: ReportSettings | None = None,
    plan_id: str | None = None,
    title: str | None = None,
    plots: dict[str, str] | None = None,
) -> ReproductionReport:
    """Compare the plan's goal and the matching claims with what the run achieved.

    Args:
        paper_id: the paper.
        plan: its plan (goal_value, primary metric, model, justifications).
        claims: its grounded claims.
        run: the latest run's outcome.
        settings: tolerances.
        plan_id: the plan's id.
        title: the paper's title.
        plots: plot name -> blob key.

    Returns:
        The report (``kid_summary`` is filled by :mod:`.explainer`).
    """
    settings = settings or ReportSettings()
    achieved: dict[str, float] = {
        str(k): float(v) for k, v in (run.metrics.get("metrics") or {}).items()
        if isinstance(v, int | float)
    }
    blocker = _not_comparable_reason(run)
    primary_metric = plan.metrics.primary.lower()
    matching: list[ClaimInput] = []
    other = 0
    for claim in claims:
        if same_dataset(claim.dataset_name, plan.dataset.name) and method_matches(
            claim.method_snippet, plan.model.name, plan.model.architecture
        ):
            matching.append(claim)
        else:
            other += 1

    comparisons: list[Comparison] = []
    goal = plan.metrics.goal_value
    goal_claim = next(
        (c for c in matching if c.metric_name.lower() == primary_metric
         and goal is not None and abs(c.metric_value - goal) < 5e-4),
        None,
    )
    if goal is None:
        goal_claim = next((c for c in matching if c.metric_name.lower() == primary_metric), None)
    if goal is not None or goal_claim is not None:
        metrics_just = plan.justifications.metrics
        comparisons.append(_compare(
            source="plan_goal" if goal is not None else "claim",
            dataset=plan.dataset.name, metric=primary_metric, method=plan.model.name,
            claimed=goal if goal is not None else goal_claim.metric_value,  # type: ignore[union-attr]
            achieved=achieved.get(primary_metric), blocker=blocker, settings=settings,
            citation=(goal_claim.source_citation if goal_claim else None)
            or (metrics_just.citation if metrics_just else None),
            quote=(goal_claim.quoted_text if goal_claim else None)
            or (metrics_just.quote if metrics_just else None),
            page=goal_claim.page if goal_claim else None,
        ))
    for claim in matching:
        if claim is goal_claim:
            continue
        comparisons.append(_compare(
            source="claim", dataset=claim.dataset_name, metric=claim.metric_name.lower(),
            method=claim.method_snippet, claimed=claim.metric_value,
            achieved=achieved.get(claim.metric_name.lower()), blocker=blocker,
            settings=settings, citation=claim.source_citation, quote=claim.quoted_text,
            page=claim.page,
        ))

    primary = comparisons[0] if comparisons else None
    verdict, reasons = _overall(primary, comparisons[1:], blocker)
    data = dict(run.metrics.get("dataset") or {})
    return ReproductionReport(
        paper_id=paper_id,
        title=title,
        plan_id=plan_id,
        run_id=run.run_id,
        verdict=verdict,
        reasons=reasons,
        primary=primary,
        comparisons=comparisons,
        other_claims=other,
        achieved_metrics=achieved,
        model=plan.model.name,
        architecture=plan.model.architecture,
        template=run.template or run.metrics.get("template"),
        dataset=data or {"dataset": plan.dataset.name},
        run_status=run.status,
        run_error=f"{run.error_code}: {run.error_message}" if run.status == "failed" else None,
        run_seconds=run.seconds,
        epochs_run=run.metrics.get("epochs_run"),
        settings=settings,
        justifications=_justifications(plan, matching),
        plots=dict(plots or {}),
    )


def _compare(
    *, source: Literal["plan_goal", "claim"], dataset: str, metric: str, method: str | None,
    claimed: float, achieved: float | None, blocker: str | None, settings: ReportSettings,
    citation: str | None, quote: str | None, page: int | None,
) -> Comparison:
    base: dict[str, Any] = {
        "source": source, "dataset": dataset, "metric": metric, "method": method,
        "claimed": claimed, "achieved": achieved, "citation": citation, "quote": quote,
        "page": page,
    }
    if achieved is None:
        reason = blocker or f"the run did not measure {metric}"
        return Comparison(**base, verdict="NOT_RUN", reasons=[reason])
    verdict, reasons, gaps = judge(metric, claimed, achieved, settings)
    if blocker:
        return Comparison(**base, **gaps, verdict="NOT_RUN", reasons=[blocker])
    return Comparison(**base, **gaps, verdict=verdict, reasons=reasons)


def _overall(
    primary: Comparison | None, others: list[Comparison], blocker: str | None
) -> tuple[Verdict, list[str]]:
    if primary is None:
        return "NOT_RUN", [blocker or "no claimed value to compare (no goal_value, no claim)"]
    if primary.verdict == "NOT_RUN":
        return "NOT_RUN", list(primary.reasons)
    reasons = [f"headline: {r}" for r in primary.reasons]
    failed = [c for c in others if c.verdict in ("NOT_REPRODUCED", "PARTIAL")]
    if primary.verdict == "REPRODUCED" and failed:
        reasons += [f"{c.metric} ({c.method or 'same model'}): {c.verdict}" for c in failed]
        return "PARTIAL", reasons
    reasons += [f"{c.metric}: {c.verdict}" for c in others if c.verdict != "NOT_RUN"]
    return primary.verdict, reasons


def _justifications(plan: PlanDocumentV11, claims: list[ClaimInput]) -> list[JustificationItem]:
    items: list[JustificationItem] = []
    just = plan.justifications
    for topic, value in (("dataset", just.dataset), ("model", just.model),
                         ("config", just.config), ("metrics", just.metrics)):
        if value is not None:
            items.append(JustificationItem(topic=topic, quote=value.quote,
                                           citation=value.citation))
    seen = {" ".join(item.quote.split()) for item in items}
    for claim in claims:
        quote = " ".join((claim.quoted_text or "").split())
        if quote and quote not in seen:
            seen.add(quote)
            where = claim.source_citation or (f"page {claim.page}" if claim.page else "")
            items.append(JustificationItem(topic="claim", quote=claim.quoted_text or "",
                                           citation=where))
    return items


def _fmt(value: float | None, metric: str) -> str:
    if value is None:
        return "-"
    return f"{value * 100:.1f}%" if is_point_metric(metric) else f"{value:.4g}"


def _gap(c: Comparison) -> str:
    if c.gap is None:
        return "-"
    if c.gap_points is not None:
        return f"{c.gap_points:+.1f} pts"
    return f"{c.gap:+.4g}"


def _md_cell(text: str | None) -> str:
    return (text or "").replace("|", "\\|").replace("\n", " ")


def comparisons_markdown(report: ReproductionReport) -> str:
    """The claimed-vs-achieved table."""
    rows = ["| claim | model | dataset | metric | claimed | achieved | gap | rel. gap | verdict |",
            "|---|---|---|---|---|---|---|---|---|"]
    for c in report.comparisons:
        rel = f"{c.relative_gap * 100:+.1f}%" if c.relative_gap is not None else "-"
        rows.append(
            f"| {'plan goal' if c.source == 'plan_goal' else _md_cell(c.citation)} "
            f"| {_md_cell(c.method)} | {c.dataset} | {c.metric} | {_fmt(c.claimed, c.metric)} "
            f"| {_fmt(c.achieved, c.metric)} | {_gap(c)} | {rel} | **{c.verdict}** |"
        )
    return "\n".join(rows)


def render_markdown(report: ReproductionReport, images: dict[str, bytes] | None = None) -> str:
    """The report as markdown; ``images`` (plot name -> PNG bytes) are embedded as data URIs.

    Args:
        report: the report.
        images: PNG bytes per plot; plots without bytes are listed by blob key.
    """
    images = images or {}
    data = report.dataset
    lines = [
        f"# Reproduction report: {report.title or report.paper_id}",
        "",
        f"**Verdict: {report.verdict}**",
        "",
        *[f"- {_md_cell(r)}" for r in report.reasons],
        "",
        "## Claimed vs achieved",
        "",
        comparisons_markdown(report) if report.comparisons else "_No comparable claim._",
        "",
        f"Tolerance: +-{report.settings.tolerance_points:g} points (0-1 metrics), "
        f"+-{report.settings.relative_tolerance * 100:g}% otherwise. "
        f"{report.other_claims} other claim(s) concern other models or datasets.",
        "",
        "## Run",
        "",
        f"- model: {_md_cell(report.model)} ({report.architecture}), template "
        f"`{report.template or '-'}`",
        f"- data: {data.get('dataset', '-')} from {data.get('source') or '-'}"
        + (" (**SYNTHETIC**)" if data.get("synthetic") else "")
        + (f", {data.get('n_train')} train / {data.get('n_test')} test" if data.get("n_train")
           else ""),
        f"- status: {report.run_status}"
        + (f", {report.run_seconds:.1f} s" if report.run_seconds else "")
        + (f", {report.epochs_run} epochs" if report.epochs_run else ""),
    ]
    if report.run_error:
        lines.append(f"- error: `{_md_cell(report.run_error)[:300]}`")
    if report.achieved_metrics:
        lines.append("- measured: " + ", ".join(
            f"{k} {_fmt(v, k)}" for k, v in report.achieved_metrics.items()))
    if report.justifications:
        lines += ["", "## Justifications", ""]
        for item in report.justifications:
            lines.append(f"> \"{_md_cell(item.quote)}\" ({item.topic}; {_md_cell(item.citation)})")
            lines.append("")
    if report.plots:
        lines += ["", "## Plots", ""]
        for name, key in report.plots.items():
            png = images.get(name)
            if png:
                encoded = base64.b64encode(png).decode("ascii")
                lines.append(f"![{name}](data:image/png;base64,{encoded})")
            else:
                lines.append(f"- {name}: `{key}`")
            lines.append("")
    if report.kid_summary:
        lines += ["", "## Explained for a curious kid", "", report.kid_summary]
    return "\n".join(lines).strip() + "\n"


def summary_line(report: ReproductionReport) -> str:
    """One line for the demo summary: claimed vs achieved and the verdict."""
    p = report.primary
    if p is None:
        return f"{report.verdict} (no claim to compare)"
    return (f"{p.metric} claimed {_fmt(p.claimed, p.metric)} vs achieved "
            f"{_fmt(p.achieved, p.metric)} ({_gap(p)}): {report.verdict}")


def leaderboard_rows(reports: list[ReproductionReport]) -> list[dict[str, Any]]:
    """One row per paper and compared claim (a paper without comparisons gets one row)."""
    rows: list[dict[str, Any]] = []
    for report in reports:
        base = {"paper_id": report.paper_id, "title": report.title or report.paper_id,
                "model": report.model, "paper_verdict": report.verdict,
                "synthetic_data": bool(report.dataset.get("synthetic")),
                "report_created_at": report.created_at}
        if not report.comparisons:
            rows.append({**base, "claim": None, "dataset": report.dataset.get("dataset"),
                         "metric": None, "claimed": None, "achieved": None, "gap": None,
                         "gap_points": None, "relative_gap": None, "verdict": report.verdict})
            continue
        for c in report.comparisons:
            rows.append({
                **base,
                "claim": "plan goal" if c.source == "plan_goal" else (c.citation or "claim"),
                "method": c.method, "dataset": c.dataset, "metric": c.metric,
                "claimed": c.claimed, "achieved": c.achieved, "gap": c.gap,
                "gap_points": c.gap_points, "relative_gap": c.relative_gap,
                "verdict": c.verdict,
            })
    return rows


def leaderboard_markdown(rows: list[dict[str, Any]]) -> str:
    """The leaderboard as a markdown table."""
    lines = ["| paper | claim | dataset | metric | claimed | achieved | gap | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        metric = row.get("metric") or ""
        gap = (f"{row['gap_points']:+.1f} pts" if row.get("gap_points") is not None
               else f"{row['gap']:+.4g}" if row.get("gap") is not None else "-")
        lines.append(
            f"| {_md_cell(str(row['title']))[:60]} | {_md_cell(row.get('claim'))[:40]} "
            f"| {row.get('dataset') or '-'} | {metric or '-'} "
            f"| {_fmt(row.get('claimed'), metric)} | {_fmt(row.get('achieved'), metric)} "
            f"| {gap} | **{row['verdict']}** |"
        )
    if not rows:
        lines.append("| _no reports yet_ | | | | | | | |")
    return "\n".join(lines)
