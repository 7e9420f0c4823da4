"""Candidate claims from results tables."""

from __future__ import annotations

import re

from repro_assets.papers.claims.datasets import split_from
from repro_assets.papers.claims.metrics import (
    PERCENT_METRICS,
    find_metric_mentions,
    to_decimal,
)
from repro_assets.papers.claims.models import Candidate
from repro_assets.papers.claims.text import _collapse
from repro_assets.papers.registry import find_dataset_mentions, resolve_alias
from repro_assets.papers.tables import ParsedTable, table_cells


def _row_quote(page_text: str, label: str, printed: list[str], value_printed: str) -> str | None:
    """Verbatim span of the page from the row label through its numbers.

    Prefers an occurrence of the label that is directly followed by the row's numbers (each
    within a short gap, allowing "± 1.2" parts and dashes); falls back to the first label
    occurrence followed by the value within 300 characters.
    """
    collapsed = _collapse(page_text)
    label_tokens = [re.escape(t) for t in label.split() if t]
    if not label_tokens:
        return None
    label_re = re.compile(r"\s*".join(label_tokens), re.IGNORECASE)
    occurrences = list(label_re.finditer(collapsed))
    for match in occurrences:
        pos = end = match.end()
        for text in printed:
            number = re.compile(r"(?<![\d.])" + _loose_number(text) + r"(?!\d)")
            hit = number.search(collapsed, pos, min(len(collapsed), pos + 40))
            if not hit:
                end = -1
                break
            pos = end = hit.end()
        if end > match.end():
            return collapsed[match.start():end]
    for match in occurrences:
        hit = re.compile(r"(?<![\d.])" + _loose_number(value_printed) + r"(?!\d)").search(
            collapsed, match.end(), min(len(collapsed), match.end() + 300))
        if hit:
            return collapsed[match.start():hit.end()]
    return None


def _loose_number(printed: str) -> str:
    """Regex for a printed number that also matches the split form ('88 1 .')."""
    if "." not in printed:
        return re.escape(printed)
    whole, frac = printed.split(".", 1)
    return rf"{re.escape(whole)}(?:\s*\.\s*{re.escape(frac)}|\s+{re.escape(frac)}\s*\.)"


def table_candidates(tables: list[ParsedTable], pages: dict[int, str]) -> list[Candidate]:
    """Candidates from every numeric cell of every results table."""
    out: list[Candidate] = []
    for table in tables:
        caption = table.caption or ""
        caption_datasets = list(dict.fromkeys(d for d, _, _ in find_dataset_mentions(caption)))
        caption_metrics = list(dict.fromkeys(m for m, _, _ in find_metric_mentions(caption)))
        percent = "%" in caption or any("%" in c for h in table.header for c in h)
        cells = table_cells(table)
        by_row: dict[str, list[tuple[int, str]]] = {}
        for label, _, value, col in cells:
            by_row.setdefault(label, []).append((col, value.printed))
        label_name = f"Table {table.number}" if table.number else "Results table"
        for label, column, value, _col in cells:
            col_datasets = [d for d, _, _ in find_dataset_mentions(column)]
            row_datasets = [d for d, _, _ in find_dataset_mentions(label)]
            dataset = (col_datasets or row_datasets or (
                caption_datasets if len(caption_datasets) == 1 else [None]))[0]
            if dataset is None and not col_datasets:
                resolved = resolve_alias(column)
                dataset = resolved
            col_metrics = [m for m, _, _ in find_metric_mentions(column)]
            row_metrics = [m for m, _, _ in find_metric_mentions(label)]
            metric = (col_metrics or row_metrics or (
                caption_metrics if len(caption_metrics) == 1 else [None]))[0]
            confidence = 0.9 if table.method == "find_tables" else 0.8
            if not col_datasets and not row_datasets:
                confidence -= 0.1
            if not col_metrics and not row_metrics:
                confidence -= 0.1
            printed = [p for _, p in sorted(by_row.get(label, []))]
            quote = _row_quote(pages.get(table.page_no, ""), label, printed, value.printed)
            out.append(Candidate(
                dataset_name=dataset,
                split=split_from(caption + " " + column),
                metric_name=metric,
                metric_value=to_decimal(value.number, metric, percent)
                if metric else value.number,
                units="%" if metric in PERCENT_METRICS and (percent or value.number > 1) else None,
                method_snippet=label,
                source_citation=f"{label_name}, row '{label}', column '{column}', "
                f"page {table.page_no}",
                confidence=round(confidence, 2),
                page=table.page_no,
                quoted_text=quote or f"{label} {value.printed}",
                source="table",
            ))
    return out


