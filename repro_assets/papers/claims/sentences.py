"""Candidate claims from sentences such as 'achieves 88.1% accuracy on SST-2'."""

from __future__ import annotations

import re

from repro_assets.papers.claims.datasets import split_from
from repro_assets.papers.claims.metrics import find_metric_mentions, to_decimal
from repro_assets.papers.claims.models import Candidate
from repro_assets.papers.claims.text import (
    _NUMBER_RE,
    _collapse,
    cite,
    iter_sentences,
    section_index,
)
from repro_assets.papers.models import PaperPages
from repro_assets.papers.registry import find_dataset_mentions

_VERBS = re.compile(r"\b(achieves?|reach(?:es)?|obtains?|attains?|yields?|gets?|scores?|"
                    r"gives?|records?|reports?)\b", re.IGNORECASE)
_NOT_METRIC_AFTER = re.compile(
    r"^\s*%?\s*(of (the )?(data|samples|training)|training|train\b|test (data|set|split)\b|"
    r"validation|held[- ]out|split|dropout)", re.IGNORECASE)


def sentence_candidates(pages: PaperPages) -> list[Candidate]:
    """Candidates from sentences like 'achieves 88.1% accuracy on SST-2'."""
    sections = section_index(pages)
    all_text = "\n".join(p.text for p in pages.pages)
    body = re.split(r"\n\s*References\s*\n", all_text)[0]
    paper_datasets = list(dict.fromkeys(d for d, _, _ in find_dataset_mentions(body)))
    out: list[Candidate] = []
    for page_no, start, sentence in iter_sentences(pages):
        numbers = list(_NUMBER_RE.finditer(sentence))
        if not numbers:
            continue
        metrics = find_metric_mentions(sentence)
        datasets = find_dataset_mentions(sentence)
        for i, number in enumerate(numbers):
            after_end = numbers[i + 1].start() if i + 1 < len(numbers) else len(sentence)
            before_start = numbers[i - 1].end() if i > 0 else 0
            if _NOT_METRIC_AFTER.match(sentence[number.end():]):
                continue
            metric = _pick(metrics, number.end(), after_end, before_start, number.start())
            if metric is None:
                continue
            dataset = _pick([(d, s, s + len(t)) for d, t, s in datasets], number.end(),
                            len(sentence), 0, number.start())
            confidence = 0.85
            if dataset is None and len(paper_datasets) == 1:
                dataset, confidence = paper_datasets[0], 0.7
            printed = number.group(1) or number.group(2)
            is_pct = number.group(1) is not None
            value = float(printed)
            subject = _VERBS.split(sentence, maxsplit=1)[0] if _VERBS.search(sentence) else ""
            out.append(Candidate(
                dataset_name=dataset,
                split=split_from(sentence),
                metric_name=metric,
                metric_value=to_decimal(value, metric, is_pct),
                units="%" if is_pct else None,
                method_snippet=_collapse(subject)[:120] or None,
                source_citation=cite(sections, page_no, start),
                confidence=confidence,
                page=page_no,
                quoted_text=sentence.strip(),
                source="sentence",
            ))
    return out


def _pick(
    mentions: list[tuple[str, int, int]], after_start: int, after_end: int, before_start: int,
    before_end: int,
) -> str | None:
    """First mention after the number (up to the next number), else the nearest before it."""
    after = [m for m in mentions if after_start <= m[1] < after_end]
    if after:
        return min(after, key=lambda m: m[1])[0]
    before = [m for m in mentions if before_start <= m[2] <= before_end]
    if before:
        return max(before, key=lambda m: m[2])[0]
    before_any = [m for m in mentions if m[2] <= before_end]
    return max(before_any, key=lambda m: m[2])[0] if before_any else None


