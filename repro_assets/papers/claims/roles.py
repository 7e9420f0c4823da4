"""Whose result a row is (the paper's own method, a cited baseline) and the headline.

* ``baseline``: the row cites another paper ("[22]", "(Socher et al., 2011)"), or says
  baseline / SOTA / previous / reported, another team's entry ("the second-best
  submission", "the runner-up", "other teams"), or sits under a group title such as "Existing
  systems" - unless it names the paper's own method.
* ``own``: "(ours)", "this paper", "our ...", the paper's method name (title, abstract,
  "denoted as"), or a group title "Our ...".
* ``headline``: per table, dataset and metric, the best own result (the metric's direction
  decides best); without own rows, the best row that is not a baseline.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from repro_assets.papers.claims.context import PaperContext
from repro_assets.papers.claims.models import Candidate, ClaimRole

_CITATION = re.compile(
    r"\[\d+(?:\s*[,–-]\s*\d+)*\]|\bet al\.?|\(\s*(?:[A-Z][\w'’\-]+"
    r"(?:\s+(?:and|&)\s+[A-Z][\w'’\-]+)?(?:\s+et al\.?)?,?\s+)?(?:19|20)\d\d[a-z]?\s*\)"
    r"|\b(?:19|20)\d\d[a-z]?\)")
_OURS = re.compile(r"(?i)\(ours\)|\bours\b|\bthis (paper|work)\b|\bour\b|\bproposed\b")
_BASELINE = re.compile(
    r"(?i)\b(baselines?|sota|state[- ]of[- ]the[- ]art|previous|prior|reported|existing|"
    r"random|human|majority|lead-\d|(?<!-)supervised|super\.|published|winning|"
    r"(?:second|third|next)[- ]best|runners?[- ]up|competitors?|competing|"
    r"(?:other|another)\s+(?:teams?|groups?|entr(?:y|ies)|participants?))\b")


def role_of(method: str, group: str, context: PaperContext) -> ClaimRole:
    """The role of a row (or column) named ``method`` under group title ``group``."""
    text = f"{method} {group}".strip()
    own_name = context.is_own(method)
    if _CITATION.search(method) and not own_name:
        return "baseline"
    if own_name:
        return "own"
    if _BASELINE.search(method):
        return "baseline"
    if _OURS.search(method):
        return "own"
    if group and (_CITATION.search(group) or _BASELINE.search(group)) and not _OURS.search(group):
        return "baseline"
    if group and (_OURS.search(group) or context.is_own(group)):
        return "own"
    del text
    return "unknown"


def mark_headlines(candidates: Sequence[Candidate], groups: Sequence[str]) -> None:
    """Mark the best own result per (table, dataset, metric) as the headline, in place.

    ``groups[i]`` identifies the table (or sentence) candidate ``i`` comes from. Rows that are
    not baselines stand in when a table has no explicitly own rows. Only test-split results
    are headlines.
    """
    best: dict[tuple[str, str, str], tuple[float, list[int]]] = {}
    has_own = {g for c, g in zip(candidates, groups, strict=True) if c.role == "own"}
    for i, (cand, group) in enumerate(zip(candidates, groups, strict=True)):
        if cand.reason or cand.metric_value is None or not cand.dataset_name:
            continue
        if cand.split != "test" or cand.role == "baseline":
            continue
        if cand.role != "own" and group in has_own:
            continue
        key = (group, (cand.dataset_name or "").lower(), cand.metric_name or "")
        value = -cand.metric_value if cand.lower_is_better else cand.metric_value
        current = best.get(key)
        if current is None or value > current[0] + 1e-12:
            best[key] = (value, [i])
        elif abs(value - current[0]) <= 1e-12:
            current[1].append(i)
    for _, indexes in best.values():
        for i in indexes:
            candidates[i].role = "headline"
