"""Stage 3 (Extract): grounded claims from a paper's tables and sentences, plus the LLM extractor.

Heuristics always run: results tables (:mod:`repro_assets.papers.tables`) and sentences such
as "achieves 88.1% accuracy on SST-2". With an LLM, the extractor role adds claims. Every
candidate goes through the same grounding check (:mod:`repro_assets.papers.grounding`);
rejected candidates are kept with their reason; duplicates merge (highest confidence wins).
Guardrails (seed 000, stage 3): at least one claim (E_EXTRACT_NO_OUTPUT), every claim cited,
confidence >= 0.5 (E_EXTRACT_LOW_CONFIDENCE when no candidate reaches it).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.llm.types import LLMClient, LLMError, LLMUsage, Role, Tool
from repro_assets.papers.grounding import check_grounding, normalize_text
from repro_assets.papers.models import PaperPages
from repro_assets.papers.registry import find_dataset_mentions, resolve_alias
from repro_assets.papers.tables import ParsedTable, extract_tables, table_cells
from repro_assets.resources.database import Database

log = logging.getLogger(__name__)

MIN_CONFIDENCE = 0.5

# ---------------------------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------------------------


class Evidence(BaseModel):
    """Where a claim is printed."""

    model_config = ConfigDict(extra="forbid")

    page: int = Field(description="1-based page number of the quote.")
    quoted_text: str = Field(description="Verbatim text from that page containing the value.")


class Claim(BaseModel):
    """A grounded quantitative claim (seed 000 Claim fields plus evidence)."""

    model_config = ConfigDict(extra="forbid")

    dataset_name: str = Field(description="Dataset (canonical registry name when known).")
    split: str = Field(description="train, validation or test.")
    metric_name: str = Field(description="Canonical metric name, e.g. accuracy, f1.")
    metric_value: float = Field(description="Metric value as a decimal (88.1% -> 0.881).")
    units: str | None = Field(default=None, description="'%' when printed as a percentage.")
    method_snippet: str | None = Field(default=None, description="Model/method the value is for.")
    source_citation: str = Field(description="Where it is, e.g. 'Table 2, page 5'.")
    confidence: float = Field(ge=0.0, le=1.0, description="Extraction confidence 0-1.")
    evidence: Evidence = Field(description="Page and verbatim quote.")
    extraction_method: Literal["table", "sentence", "llm"] = Field(
        description="How the claim was found."
    )


class RejectedCandidate(BaseModel):
    """A candidate claim that did not pass grounding or guardrails."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(description="table, sentence or llm.")
    dataset_name: str | None = Field(default=None, description="Dataset, if known.")
    metric_name: str | None = Field(default=None, description="Metric, if known.")
    metric_value: float | None = Field(default=None, description="Value, if known.")
    page: int | None = Field(default=None, description="Cited page.")
    quoted_text: str | None = Field(default=None, description="Quoted text.")
    reason: str = Field(description="Why it was rejected.")


class ClaimsResult(BaseModel):
    """Output of :func:`extract_claims`."""

    model_config = ConfigDict(extra="forbid")

    paper_id: str = Field(description="Paper id.")
    claims: list[Claim] = Field(description="Grounded claims.")
    rejected: list[RejectedCandidate] = Field(description="Rejected candidates with reasons.")
    method: Literal["heuristic", "llm"] = Field(description="heuristic, or llm when it ran.")
    tables_found: int = Field(description="Results tables found.")
    merged_duplicates: int = Field(description="Candidates merged into an existing claim.")
    llm_error: str | None = Field(default=None, description="LLM failure (heuristics kept).")
    llm_usage: dict[str, Any] = Field(default_factory=dict, description="LLM usage totals.")


class ExtractedClaim(BaseModel):
    """One claim as the LLM extractor emits it."""

    model_config = ConfigDict(extra="forbid")

    dataset_name: str = Field(description="Dataset name as printed in the paper.")
    split: str = Field(description="train, validation or test.")
    metric_name: str = Field(description="Metric name, e.g. accuracy, F1.")
    metric_value: float = Field(description="Value as a decimal (88.1% -> 0.881).")
    units: str | None = Field(description="'%' if printed as a percentage, else null.")
    method_snippet: str | None = Field(description="Model or method the value belongs to.")
    source_citation: str = Field(description="Table/section and page, e.g. 'Table 2, page 5'.")
    confidence: float = Field(description="Your confidence 0-1.")
    page: int = Field(description="1-based page number where the quote is printed.")
    quoted_text: str = Field(description="Verbatim text from that page that contains the value.")


class ExtractorOutput(BaseModel):
    """The extractor's structured output (emit_extractor_output)."""

    model_config = ConfigDict(extra="forbid")

    claims: list[ExtractedClaim] = Field(description="All quantitative claims found.")


class ClaimsError(RuntimeError):
    """Extraction failed with a seed error code."""

    def __init__(self, message: str, code: str, rejected: list[RejectedCandidate] | None = None):
        super().__init__(message)
        self.code = code
        self.rejected = rejected or []


# ---------------------------------------------------------------------------------------------
# Metric names
# ---------------------------------------------------------------------------------------------

METRIC_ALIASES: dict[str, tuple[str, ...]] = {
    "accuracy": ("accuracy", "acc", "acc.", "top-1 accuracy", "test accuracy", "classification "
                 "accuracy"),
    "f1": ("f1", "f1 score", "f1-score", "f-score", "f-measure", "macro-f1", "macro f1",
           "f1-macro", "macro-averaged f1", "micro-f1", "weighted f1"),
    "precision": ("precision", "prec", "prec."),
    "recall": ("recall", "rec.", "sensitivity"),
    "auc": ("auc", "roc auc", "roc-auc", "auroc", "area under the curve"),
    "error_rate": ("error", "error rate", "test error", "err", "err."),
    "bleu": ("bleu",),
    "perplexity": ("perplexity", "ppl"),
    "mse": ("mse", "mean squared error"),
    "rmse": ("rmse", "root mean squared error"),
    "mae": ("mae", "mean absolute error"),
    "r2": ("r2", "r^2", "r²", "coefficient of determination"),
}
PERCENT_METRICS = {"accuracy", "f1", "precision", "recall", "auc", "error_rate"}

_METRIC_INDEX = {alias: name for name, aliases in METRIC_ALIASES.items() for alias in aliases}
_METRIC_RE = re.compile(
    r"(?<![A-Za-z0-9])("
    + "|".join(re.escape(a) for a in sorted(_METRIC_INDEX, key=len, reverse=True))
    + r")(?![A-Za-z0-9])",
    re.IGNORECASE,
)


def resolve_metric(name: str | None) -> str | None:
    """Canonical metric name for ``name`` ("Acc." -> accuracy, "macro-F1" -> f1)."""
    if not name:
        return None
    key = re.sub(r"\s+", " ", name.strip().lower())
    if key in _METRIC_INDEX:
        return _METRIC_INDEX[key]
    mentions = find_metric_mentions(name)
    return mentions[0][0] if mentions else None


def find_metric_mentions(text: str) -> list[tuple[str, int, int]]:
    """Metric mentions in ``text`` as (canonical name, start, end)."""
    out = []
    for match in _METRIC_RE.finditer(text):
        word = match.group(1)
        if word.lower() in {"err", "err.", "error"} and "error rate" not in text.lower():
            # "error" is a common word; only count it next to a number-like context
            if not re.search(r"\berror\s+(of|rate|is)\b", text[match.start():], re.I):
                continue
        out.append((_METRIC_INDEX[word.lower()], match.start(), match.end()))
    return out


def canonical_dataset(name: str) -> str:
    """Registry name for ``name`` when it resolves, else the name cleaned up."""
    return resolve_alias(name) or re.sub(r"\s+", " ", name).strip()


def to_decimal(value: float, metric: str | None, printed_as_percent: bool) -> float:
    """Convert a printed value to the stored decimal (88.1 -> 0.881 for percent metrics)."""
    if metric in PERCENT_METRICS and (printed_as_percent or value > 1.0) and value <= 100.0:
        return round(value / 100.0, 6)
    return value


# ---------------------------------------------------------------------------------------------
# Page helpers
# ---------------------------------------------------------------------------------------------

_HEADING_RE = re.compile(
    r"^(?:\d+(?:\.\d+)*\.?\s+[A-Z][^\n]{1,60}|Abstract|References|Acknowledg(?:e)?ments?)$"
)


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def page_texts(pages: PaperPages) -> dict[int, str]:
    """Page number -> page text."""
    return {page.page_no: page.text for page in pages.pages}


def section_index(pages: PaperPages) -> list[tuple[int, int, str]]:
    """(page, offset in collapsed page text, heading) for every heading found, in order."""
    out = []
    for page in pages.pages:
        collapsed = _collapse(page.text)
        titles = list(page.section_titles)
        for line in page.text.splitlines():
            line = line.strip()
            if _HEADING_RE.match(line) and line not in titles:
                titles.append(line)
        for title in titles:
            pos = collapsed.find(_collapse(title))
            if pos >= 0:
                out.append((page.page_no, pos, _collapse(title)))
    return sorted(out)


def section_at(sections: list[tuple[int, int, str]], page_no: int, offset: int) -> str | None:
    """The heading in force at ``offset`` of page ``page_no``."""
    current = None
    for page, pos, title in sections:
        if (page, pos) <= (page_no, offset):
            current = title
    return current


def _segments(page_text: str, titles: list[str]) -> list[str]:
    """Split a page's text at heading lines (headings become their own segments)."""
    segments: list[list[str]] = [[]]
    wanted = {_collapse(t) for t in titles}
    for line in page_text.splitlines():
        stripped = line.strip()
        if stripped and (_HEADING_RE.match(stripped) or _collapse(stripped) in wanted):
            segments.append([stripped])
            segments.append([])
        else:
            segments[-1].append(line)
    return [_collapse("\n".join(seg)) for seg in segments if _collapse("\n".join(seg))]


def _looks_tabular(sentence: str) -> bool:
    tokens = sentence.split()
    numeric = [t for t in tokens if re.fullmatch(r"[-+±]?[\d.,%]+", t)]
    return len(numeric) >= 4 and len(numeric) >= 0.3 * len(tokens)


def iter_sentences(pages: PaperPages) -> list[tuple[int, int, str]]:
    """Sentences of the paper body as (page, offset in collapsed page text, sentence).

    Headings split sentences; text after the "References" heading, table/figure captions
    and table-like runs of numbers are skipped.
    """
    out = []
    for page in pages.pages:
        collapsed = _collapse(page.text)
        offset = 0
        for segment in _segments(page.text, list(page.section_titles)):
            if re.fullmatch(r"References|Bibliography", segment, re.IGNORECASE):
                return out
            if _HEADING_RE.match(segment) and len(segment) < 70:
                offset = max(offset, collapsed.find(segment, offset) + len(segment))
                continue
            for sentence in _SENTENCE_SPLIT.split(segment):
                start = collapsed.find(sentence, offset)
                if start >= 0:
                    offset = start + len(sentence)
                if _CAPTION_LIKE.match(sentence) or _looks_tabular(sentence):
                    continue
                out.append((page.page_no, max(start, 0), sentence.strip()))
    return out


def _short_section(title: str | None) -> str | None:
    if not title:
        return None
    match = re.match(r"^(\d+(?:\.\d+)*)\.?\s", title)
    return f"Section {match.group(1)}" if match else title


def cite(sections: list[tuple[int, int, str]], page_no: int, offset: int) -> str:
    """A human citation: 'Section 4, page 2' (or just the page)."""
    section = _short_section(section_at(sections, page_no, offset))
    return f"{section}, page {page_no}" if section else f"page {page_no}"


# ---------------------------------------------------------------------------------------------
# Candidates
# ---------------------------------------------------------------------------------------------


class Candidate(BaseModel):
    """An ungrounded candidate claim."""

    model_config = ConfigDict(extra="forbid")

    dataset_name: str | None
    split: str
    metric_name: str | None
    metric_value: float | None
    units: str | None
    method_snippet: str | None
    source_citation: str
    confidence: float
    page: int
    quoted_text: str
    source: Literal["table", "sentence", "llm"]


def _split_from(text: str) -> str:
    low = text.lower()
    if re.search(r"\b(validation|dev)\b", low):
        return "validation"
    if re.search(r"\btrain(ing)? (accuracy|error|set accuracy)\b", low):
        return "train"
    return "test"


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
                split=_split_from(caption + " " + column),
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


_NUMBER_RE = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s?%|(?<![\w.])(0?\.\d{2,4})(?![\d%])")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
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
                split=_split_from(sentence),
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


_CAPTION_LIKE = re.compile(r"^\s*(Table|Tab\.|Figure|Fig\.)\s*\d+", re.IGNORECASE)


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


# ---------------------------------------------------------------------------------------------
# Grounding, merge, guardrails
# ---------------------------------------------------------------------------------------------


def ground_candidates(
    candidates: list[Candidate], pages: dict[int, str]
) -> tuple[list[Claim], list[RejectedCandidate]]:
    """Apply the grounding check and the per-claim guardrails to each candidate."""
    claims: list[Claim] = []
    rejected: list[RejectedCandidate] = []
    for cand in candidates:
        reason = None
        if not cand.dataset_name:
            reason = "no dataset could be identified"
        elif not cand.metric_name:
            reason = "no metric could be identified"
        elif cand.metric_value is None:
            reason = "no value"
        elif not cand.source_citation.strip():
            reason = "no source citation"
        elif cand.confidence < MIN_CONFIDENCE:
            reason = f"confidence {cand.confidence:.2f} < {MIN_CONFIDENCE}"
        else:
            reason = check_grounding(cand.metric_value, cand.quoted_text, cand.page, pages)
        if reason:
            rejected.append(RejectedCandidate(
                source=cand.source, dataset_name=cand.dataset_name, metric_name=cand.metric_name,
                metric_value=cand.metric_value, page=cand.page, quoted_text=cand.quoted_text,
                reason=reason,
            ))
            continue
        assert cand.dataset_name and cand.metric_name and cand.metric_value is not None
        claims.append(Claim(
            dataset_name=cand.dataset_name, split=cand.split, metric_name=cand.metric_name,
            metric_value=cand.metric_value, units=cand.units, method_snippet=cand.method_snippet,
            source_citation=cand.source_citation, confidence=cand.confidence,
            evidence=Evidence(page=cand.page, quoted_text=cand.quoted_text),
            extraction_method=cand.source,
        ))
    return claims, rejected


def _method_key(snippet: str | None) -> str:
    return normalize_text(snippet or "")[:40]


def merge_claims(claims: list[Claim]) -> tuple[list[Claim], int]:
    """Merge duplicate claims; returns (claims, number merged away).

    Table claims are unique per (dataset, metric, value, split, row label). A sentence or LLM
    claim with the same (dataset, metric, value, split) as a table claim is the same claim
    printed twice and merges into it (the table row names the model). Sentence/LLM claims
    merge among themselves on (dataset, metric, value, split), the higher confidence winning.
    """
    def base(claim: Claim) -> tuple[str, str, float, str]:
        return (claim.dataset_name.lower(), claim.metric_name, round(claim.metric_value, 4),
                claim.split)

    out: list[Claim] = []
    table_keys: set[tuple[str, str, float, str, str]] = set()
    table_bases: set[tuple[str, str, float, str]] = set()
    for claim in claims:
        if claim.extraction_method != "table":
            continue
        key = (*base(claim), _method_key(claim.method_snippet))
        if key in table_keys:
            continue
        table_keys.add(key)
        table_bases.add(base(claim))
        out.append(claim)
    others: dict[tuple[str, str, float, str], Claim] = {}
    for claim in claims:
        if claim.extraction_method == "table" or base(claim) in table_bases:
            continue
        current = others.get(base(claim))
        if current is None or claim.confidence > current.confidence:
            others[base(claim)] = claim
    out.extend(others.values())
    return out, len(claims) - len(out)


def enforce_claim_guardrails(
    claims: list[Claim], rejected: list[RejectedCandidate], n_candidates: int
) -> None:
    """Seed guardrails over the final claim list.

    Raises:
        ClaimsError: E_EXTRACT_LOW_CONFIDENCE when candidates existed but none reached the
            confidence threshold; E_EXTRACT_NO_OUTPUT when no claim survived.
    """
    if claims:
        uncited = [c for c in claims if not c.source_citation.strip()]
        if uncited:
            raise ClaimsError(f"{len(uncited)} claims have no citation", "E_EXTRACT_NO_OUTPUT",
                              rejected)
        return
    low = [r for r in rejected if r.reason.startswith("confidence")]
    if n_candidates and len(low) == n_candidates:
        raise ClaimsError(
            f"all {n_candidates} candidate claims are below confidence {MIN_CONFIDENCE}",
            "E_EXTRACT_LOW_CONFIDENCE", rejected,
        )
    raise ClaimsError(
        f"no grounded claim found ({n_candidates} candidates, {len(rejected)} rejected)",
        "E_EXTRACT_NO_OUTPUT", rejected,
    )


# ---------------------------------------------------------------------------------------------
# LLM extractor
# ---------------------------------------------------------------------------------------------


def llm_candidates(
    llm: LLMClient, paper_id: str, title: str | None, tools: list[Tool], heuristic: list[Claim]
) -> tuple[list[Candidate], list[LLMUsage]]:
    """Ask the extractor role for claims; returns candidates (not yet grounded).

    Raises:
        LLMError: any LLM-layer failure (the caller keeps the heuristic claims).
    """
    from repro_assets.papers.prompts import EXTRACTOR_SYSTEM

    user = json.dumps({
        "paper": {"id": paper_id, "title": title},
        "already_found": [
            {"dataset": c.dataset_name, "metric": c.metric_name, "value": c.metric_value,
             "citation": c.source_citation} for c in heuristic[:40]
        ],
    })
    result = llm.structured(role=Role.EXTRACTOR, system=EXTRACTOR_SYSTEM, user=user,
                            schema=ExtractorOutput, tools=tools)
    out = []
    for item in result.value.claims:
        metric = resolve_metric(item.metric_name) or item.metric_name.strip().lower()
        percent = (item.units or "").strip() == "%"
        value = item.metric_value
        if metric in PERCENT_METRICS and value > 1.0:
            value = to_decimal(value, metric, True)
            percent = True
        out.append(Candidate(
            dataset_name=canonical_dataset(item.dataset_name) if item.dataset_name else None,
            split=(item.split or "test").lower(), metric_name=metric, metric_value=value,
            units="%" if percent else item.units, method_snippet=item.method_snippet,
            source_citation=item.source_citation, confidence=item.confidence, page=item.page,
            quoted_text=item.quoted_text, source="llm",
        ))
    return out, list(result.usage)


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


def extract_claims(
    pages: PaperPages,
    pdf_bytes: bytes | None,
    llm: LLMClient | None = None,
    tools: list[Tool] | None = None,
) -> ClaimsResult:
    """Extract grounded claims (heuristics always; the LLM extractor too when available).

    Args:
        pages: the paper's stored page text (grounding is checked against it).
        pdf_bytes: the PDF, for table detection (None skips tables).
        llm: LLM client; None or offline means heuristics only.
        tools: tools for the extractor (search_paper).

    Raises:
        ClaimsError: E_EXTRACT_NO_OUTPUT / E_EXTRACT_LOW_CONFIDENCE (see guardrails).
    """
    texts = page_texts(pages)
    tables = extract_tables(pdf_bytes) if pdf_bytes else []
    candidates = table_candidates(tables, texts) + sentence_candidates(pages)
    claims, rejected = ground_candidates(candidates, texts)
    method: Literal["heuristic", "llm"] = "heuristic"
    llm_error = None
    usage: dict[str, Any] = {}
    if llm is not None and llm.available:
        try:
            extra, _ = llm_candidates(llm, pages.paper_id, pages.title, tools or [], claims)
            candidates += extra
            more, more_rejected = ground_candidates(extra, texts)
            claims += more
            rejected += more_rejected
            method = "llm"
        except LLMError as exc:
            stage_code = ("E_POLICY_CAP_EXCEEDED" if exc.code == "E_POLICY_CAP_EXCEEDED" else
                          "E_EXTRACT_NO_OUTPUT" if exc.code == "E_LLM_INVALID_OUTPUT" else
                          "E_EXTRACT_OPENAI_ERROR")
            llm_error = f"{stage_code} ({exc.code}): {exc}"
            log.warning("extractor LLM failed, keeping heuristic claims: %s", llm_error)
        usage = llm.usage_summary()
    merged, n_merged = merge_claims(claims)
    enforce_claim_guardrails(merged, rejected, len(candidates))
    return ClaimsResult(
        paper_id=pages.paper_id, claims=merged, rejected=rejected, method=method,
        tables_found=len(tables), merged_duplicates=n_merged, llm_error=llm_error,
        llm_usage=usage,
    )


def claims_markdown(claims: list[Claim], limit: int = 60) -> str:
    """Claims as a markdown table (for asset metadata)."""
    lines = [
        "| dataset | split | metric | value | method | citation | page | quote |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for claim in claims[:limit]:
        quote = claim.evidence.quoted_text.replace("|", "\\|")
        quote = quote if len(quote) <= 90 else quote[:87] + "..."
        lines.append(
            f"| {claim.dataset_name} | {claim.split} | {claim.metric_name} | "
            f"{claim.metric_value:g} | {(claim.method_snippet or '').replace('|', '/')} | "
            f"{claim.source_citation.replace('|', '/')} | {claim.evidence.page} | {quote} |"
        )
    if len(claims) > limit:
        lines.append(f"| ... {len(claims) - limit} more | | | | | | | |")
    return "\n".join(lines)


def verify_stored_claim(claim: Claim, pages: dict[int, str]) -> str | None:
    """Re-run the grounding check on a stored claim (asset check); None when grounded."""
    return check_grounding(claim.metric_value, claim.evidence.quoted_text, claim.evidence.page,
                           pages)


# ---------------------------------------------------------------------------------------------
# Persistence (claims table, replace policy)
# ---------------------------------------------------------------------------------------------


def save_claims(db: Database, result: ClaimsResult) -> None:
    """Replace a paper's stored claims with ``result.claims`` (one transaction)."""
    with db.connection() as conn, conn.transaction():
        conn.execute("DELETE FROM claims WHERE paper_id = %s", (result.paper_id,))
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO claims (paper_id, ordinal, dataset_name, split, metric_name,"
                " metric_value, units, method_snippet, source_citation, confidence,"
                " evidence_page, evidence_quote, extraction_method)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (result.paper_id, n, c.dataset_name, c.split, c.metric_name,
                     c.metric_value, c.units, c.method_snippet, c.source_citation, c.confidence,
                     c.evidence.page, c.evidence.quoted_text, c.extraction_method)
                    for n, c in enumerate(result.claims)
                ],
            )
        conn.execute(
            "INSERT INTO claim_extractions (paper_id, method, claims_count, rejected, llm_usage)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (paper_id) DO UPDATE SET"
            " method = EXCLUDED.method, claims_count = EXCLUDED.claims_count,"
            " rejected = EXCLUDED.rejected, llm_usage = EXCLUDED.llm_usage, created_at = now()",
            (result.paper_id, result.method, len(result.claims),
             json.dumps([r.model_dump(mode="json") for r in result.rejected]),
             json.dumps(result.llm_usage, default=str)),
        )


def load_claims(db: Database, paper_id: str) -> list[Claim]:
    """The stored claims of a paper, in extraction order (empty if none)."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT dataset_name, split, metric_name, metric_value, units, method_snippet,"
            " source_citation, confidence, evidence_page, evidence_quote, extraction_method"
            " FROM claims WHERE paper_id = %s ORDER BY ordinal",
            (paper_id,),
        ).fetchall()
    return [
        Claim(dataset_name=r[0], split=r[1], metric_name=r[2], metric_value=r[3], units=r[4],
              method_snippet=r[5], source_citation=r[6], confidence=r[7],
              evidence=Evidence(page=r[8], quoted_text=r[9]), extraction_method=r[10])
        for r in rows
    ]


def load_rejected(db: Database, paper_id: str) -> list[RejectedCandidate]:
    """The rejected candidates of the last extraction of a paper."""
    with db.connection() as conn:
        row = conn.execute("SELECT rejected FROM claim_extractions WHERE paper_id = %s",
                           (paper_id,)).fetchone()
    return [RejectedCandidate.model_validate(r) for r in (row[0] if row else [])]
