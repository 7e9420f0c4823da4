"""Which grounded claim a plan reproduces: the one the request names, else the headline.

A request names claims loosely (``{"dataset_name": "SST-2", "metric_name": "Accuracy",
"metric_value": 88.1}``); :func:`select_target` matches them against the paper's grounded
claims (dataset by registry alias or normalised name, metric by alias, value as a decimal or a
percentage, split when given). The plan is made for the first requested claim that matches;
requests that match nothing are reported, never silently replaced by another claim.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from repro_assets.papers.claims import PERCENT_METRICS, Claim, _collapse, resolve_metric
from repro_assets.papers.models import PaperPages
from repro_assets.papers.plan_models import ClaimTarget
from repro_assets.papers.registry import license_compatible, lookup_dataset, same_dataset

#: Largest difference between a requested and a grounded value that still matches.
VALUE_TOLERANCE = 5e-4

#: Lowest claim confidence a plan targets on its own (without a request naming the claim).
#: The claims reader reaches it only when the claim's dataset and metric are both printed at
#: the number (the cell's header, the caption or title, the sentence); a dataset tied by the
#: grid's layout or by context, or a metric from context, caps the claim below it (measured
#: precision per path: see repro_assets.papers.claims.provenance). Such a claim is reported
#: but never chosen as the headline target; a request that names it still plans it.
PLAN_MIN_CONFIDENCE = 0.7

_OURS = re.compile(r"\bours\b|\bproposed\b|\bour\b", re.IGNORECASE)


def target_matches(target: ClaimTarget, claim: Claim) -> bool:
    """True when the requested ``target`` designates the grounded ``claim``."""
    if not same_dataset(target.dataset_name, claim.dataset_name):
        return False
    metric = resolve_metric(target.metric_name) or target.metric_name.strip().lower()
    if metric != claim.metric_name:
        return False
    if target.split and target.split.strip().lower() != claim.split.lower():
        return False
    if target.metric_value is None:
        return True
    values = [target.metric_value]
    if metric in PERCENT_METRICS and 1.0 < target.metric_value <= 100.0:
        values.append(target.metric_value / 100.0)
    return any(abs(v - claim.metric_value) <= VALUE_TOLERANCE for v in values)


#: Score of a claim's role in :func:`primary_claim` (the extractor marks the paper's own best
#: result ``headline``; baselines are what the paper compares against, never the target).
ROLE_SCORE = {"headline": 4.0, "own": 2.0, "unknown": 0.0, "baseline": -4.0}


def primary_claim(claims: Sequence[Claim], pages: PaperPages) -> Claim | None:
    """The paper's headline claim: marked ``headline`` by the extractor, else our method's
    result printed in the abstract; among equals, one on a dataset the registry knows (and
    whose license the plan guardrail accepts)."""
    if not claims:
        return None
    first_page = _collapse(pages.pages[0].text).lower() if pages.pages else ""
    abstract = first_page.split("introduction")[0]

    def score(item: tuple[int, Claim]) -> tuple[float, int]:
        index, claim = item
        value = ROLE_SCORE.get(claim.role, 0.0)
        if claim.method_snippet and _OURS.search(claim.method_snippet):
            value += 2
        pct = f"{claim.metric_value * 100:.1f}"
        if pct in abstract or f"{claim.metric_value:g}" in abstract:
            value += 2
        if claim.metric_name == "accuracy":
            value += 1
        entry = lookup_dataset(claim.dataset_name)
        if entry is not None:  # plannable: resolves, and passes the license guardrail
            value += 1 + (1 if license_compatible(entry.license) else 0)
        value += claim.confidence
        return value, -index

    return max(enumerate(claims), key=score)[1]


@dataclass
class TargetSelection:
    """The claim a plan targets and how it was chosen.

    Attributes:
        claim: the grounded claim to reproduce (None when the request matched nothing).
        requested: True when the request named claims.
        unmatched: requested claims that match no grounded claim.
    """

    claim: Claim | None
    requested: bool
    unmatched: list[ClaimTarget] = field(default_factory=list)

    def notes(self) -> list[str]:
        """Warnings for the plan: one per requested claim that matched nothing."""
        return [f"requested claim {t.label()} is not among the paper's grounded claims"
                for t in self.unmatched]


def select_target(
    claims: Sequence[Claim], pages: PaperPages, requested: Sequence[ClaimTarget] = ()
) -> TargetSelection:
    """The claim to plan for: the first requested claim that matches, else the headline.

    The headline is chosen among the claims of confidence >= :data:`PLAN_MIN_CONFIDENCE`
    (None when no claim reaches it). When a requested claim matches several grounded claims
    (no value given, several methods), the headline among them is taken.
    """
    if not requested:
        eligible = [c for c in claims if c.confidence >= PLAN_MIN_CONFIDENCE - 1e-9]
        return TargetSelection(primary_claim(eligible, pages), requested=False)
    unmatched: list[ClaimTarget] = []
    chosen: Claim | None = None
    for target in requested:
        matching = [c for c in claims if target_matches(target, c)]
        if not matching:
            unmatched.append(target)
        elif chosen is None:
            chosen = primary_claim(matching, pages)
    return TargetSelection(chosen, requested=True, unmatched=unmatched)
