"""Stage 2 (Verify): is the paper reproducible?

With an LLM, the verifier role reads the paper through ``search_paper`` (cap 10) and returns
``{reproducible, reasoning, missing_elements}``; its evidence quotes are checked against the
page text. Offline, a deterministic checklist runs over the text: a dataset that resolves in
the registry (or a described collection process), quantitative results, a model description
and a training configuration, each with the evidence found.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.errors import CodedError
from repro_assets.llm.jsonizer import jsonizer_fallback
from repro_assets.llm.types import (
    GuardrailError,
    LLMClient,
    LLMError,
    LLMInvalidOutput,
    LLMPolicyCapExceeded,
    Role,
    Tool,
)
from repro_assets.papers.claims import (
    _NUMBER_RE,
    cite,
    find_metric_mentions,
    heuristic_claims,
    iter_sentences,
    section_index,
)
from repro_assets.papers.grounding import quote_on_page
from repro_assets.papers.guardrails import enforce_verdict_guardrails
from repro_assets.papers.hyperparameters import find_hyperparameters
from repro_assets.papers.models import PaperPages
from repro_assets.papers.prompts import VERIFIER_SYSTEM
from repro_assets.papers.registry import find_blocked_mentions, find_dataset_mentions
from repro_assets.papers.sanitizer import ARCH_PATTERNS, architectures_in
from repro_assets.storage.database import Database

Element = Literal["dataset", "results", "model", "training_config"]
ELEMENTS: tuple[Element, ...] = ("dataset", "results", "model", "training_config")

_COLLECTION = re.compile(
    r"\b(we (collected|gathered|crawled|scraped|annotated|recruited|curated)|data collection|"
    r"were (collected|annotated|gathered)|publicly available|released at|available at)\b",
    re.IGNORECASE,
)
_PROPRIETARY = re.compile(
    r"\b(proprietary|internal (company )?data|confidential|not (publicly )?available|"
    r"private (data|dataset)|cannot be (released|shared))\b",
    re.IGNORECASE,
)
_VAGUE_TRAINING = re.compile(r"\b(several|a few|some|many) (epochs|iterations)\b", re.I)


class VerdictEvidence(BaseModel):
    """A quote supporting one checklist element."""

    model_config = ConfigDict(extra="forbid")

    element: str = Field(description="dataset, results, model or training_config.")
    quote: str = Field(description="Verbatim text from the paper.")
    page: int | None = Field(default=None, description="1-based page of the quote.")
    citation: str | None = Field(default=None, description="Section and page.")
    grounded: bool = Field(default=True, description="True when the quote is on that page.")


class ChecklistItem(BaseModel):
    """One element of the reproducibility checklist."""

    model_config = ConfigDict(extra="forbid")

    element: str = Field(description="dataset, results, model or training_config.")
    present: bool = Field(description="Whether the paper provides it.")
    detail: str = Field(description="What was found (or why it is missing).")
    evidence: list[VerdictEvidence] = Field(default_factory=list, description="Quotes.")


class ReproducibilityVerdict(BaseModel):
    """The stored verdict (seed: ``{reproducible, reasoning, missing_elements}``)."""

    model_config = ConfigDict(extra="forbid")

    paper_id: str = Field(description="Paper id.")
    reproducible: bool = Field(description="Whether the paper is reproducible.")
    reasoning: str = Field(description="Why.")
    missing_elements: list[str] = Field(description="What is missing (required if not).")
    checklist: list[ChecklistItem] = Field(description="Per-element findings with evidence.")
    method: Literal["heuristic", "llm"] = Field(description="heuristic or llm.")
    llm_usage: dict[str, Any] = Field(default_factory=dict, description="LLM usage totals.")


class VerifierEvidence(BaseModel):
    """Evidence as the verifier model returns it."""

    model_config = ConfigDict(extra="forbid")

    element: str = Field(description="dataset, results, model or training_config.")
    quote: str = Field(description="Verbatim quote from the paper.")
    page: int = Field(description="1-based page number of the quote.")


class VerifierOutput(BaseModel):
    """The verifier's structured output (emit_reproducibility_verdict)."""

    model_config = ConfigDict(extra="forbid")

    reproducible: bool = Field(description="Whether the paper can be reproduced on a CPU.")
    reasoning: str = Field(description="Explain the decision.")
    missing_elements: list[str] = Field(description="What is missing; empty if reproducible.")
    evidence: list[VerifierEvidence] = Field(description="Quotes supporting the assessment.")


class VerdictError(CodedError, RuntimeError):
    """Verification failed with a code (E_VERIFY_GUARDRAIL_FAILED, E_VERIFY_OPENAI_ERROR,
    E_VERIFY_NO_OUTPUT, E_POLICY_CAP_EXCEEDED).

    Attributes:
        code: the error code.
        checklist: the offline checklist's verdict, kept so that what the paper provides stays
            visible when the LLM verdict failed.
    """

    def __init__(self, message: str, code: str,
                 checklist: ReproducibilityVerdict | None = None) -> None:
        super().__init__(message, code=code)
        self.checklist = checklist


def _ev(element: str, sentence: str, page: int, citation: str) -> VerdictEvidence:
    return VerdictEvidence(element=element, quote=sentence, page=page, citation=citation)


#: (page, offset, sentence) and (page, offset, heading) lists of ``papers.claims.text``.
_Sentences = list[tuple[int, int, str]]
_Headings = list[tuple[int, int, str]]


def checklist(pages: PaperPages, pdf_bytes: bytes | None = None) -> list[ChecklistItem]:
    """The deterministic reproducibility checklist with evidence.

    Args:
        pages: the paper's page text.
        pdf_bytes: the PDF; with it, results printed only in tables (the metric named in the
            caption or header, not in a sentence) count as quantitative results too.
    """
    sections = section_index(pages)
    sentences = iter_sentences(pages)
    body = " ".join(s for _, _, s in sentences)
    return [_dataset_item(sentences, sections, body),
            _results_item(pages, pdf_bytes, sentences, sections),
            _model_item(sentences, sections, body),
            _training_item(pages, sentences, sections)]


def _dataset_item(sentences: _Sentences, sections: _Headings, body: str) -> ChecklistItem:
    """The dataset element: registry datasets, blocked ones, or a described collection."""
    evidence: list[VerdictEvidence] = []
    datasets: list[str] = []
    for page_no, offset, sentence in sentences:
        found = [d for d, _, _ in find_dataset_mentions(sentence) if d not in datasets]
        if found:
            datasets += found
            evidence.append(_ev("dataset", sentence, page_no, cite(sections, page_no, offset)))
    blocked = find_blocked_mentions(body)
    proprietary = [(p, o, s) for p, o, s in sentences if _PROPRIETARY.search(s)]
    collection = [(p, o, s) for p, o, s in sentences if _COLLECTION.search(s)]
    if datasets:
        detail = "registry datasets: " + ", ".join(datasets)
        present = True
    elif blocked:
        detail = "public but blocked for CPU (synthetic fallback): " + ", ".join(blocked)
        present = True
    elif collection and not proprietary:
        detail = "data collection process described"
        present = True
        evidence += [_ev("dataset", s, p, cite(sections, p, o)) for p, o, s in collection[:2]]
    else:
        detail = "no public dataset found" + (" (proprietary data mentioned)" if proprietary
                                              else "")
        present = False
        evidence += [_ev("dataset", s, p, cite(sections, p, o)) for p, o, s in proprietary[:2]]
    return ChecklistItem(element="dataset", present=present, detail=detail,
                               evidence=evidence[:3])


def _results_item(pages: PaperPages, pdf_bytes: bytes | None, sentences: _Sentences,
                  sections: _Headings) -> ChecklistItem:
    """The results element: metric values in sentences, and in tables when the PDF is given."""
    results = []
    for page_no, offset, sentence in sentences:
        if _NUMBER_RE.search(sentence) and find_metric_mentions(sentence):
            results.append(_ev("results", sentence, page_no, cite(sections, page_no, offset)))
    tables = [p.page_no for p in pages.pages
              if re.search(r"(?m)^\s*Table\s+\d+\s*[:.]", p.text)]
    table_claims = [c for c in (heuristic_claims(pages, pdf_bytes) if pdf_bytes else [])
                    if c.extraction_method == "table"]
    details = []
    if results:
        details.append(f"{len(results)} sentences with metric values; tables on pages {tables}")
    if table_claims:
        details.append(f"{len(table_claims)} grounded result values in tables on pages "
                       f"{sorted({c.evidence.page for c in table_claims})}")
        results += [_ev("results", c.evidence.quoted_text, c.evidence.page, c.source_citation)
                    for c in table_claims[:3 - min(len(results), 2)]]
    return ChecklistItem(
        element="results", present=bool(results),
        detail="; ".join(details) or "no quantitative results found",
        evidence=results[:3],
    )


def _model_item(sentences: _Sentences, sections: _Headings, body: str) -> ChecklistItem:
    """The model element: architecture families the paper says it uses."""
    families = sorted(architectures_in(body))
    model_evidence = []
    for name, rx in ARCH_PATTERNS:
        if name not in families:
            continue
        for page_no, offset, sentence in sentences:
            if rx.search(sentence) and re.search(r"\b(we|our)\b", sentence, re.I):
                model_evidence.append(_ev("model", sentence, page_no,
                                          cite(sections, page_no, offset)))
                break
    return ChecklistItem(
        element="model", present=bool(families),
        detail="model families: " + ", ".join(families) if families
        else "no model architecture described",
        evidence=model_evidence[:3],
    )


def _training_item(pages: PaperPages, sentences: _Sentences, sections: _Headings) -> ChecklistItem:
    """The training configuration element: at least two stated hyperparameters."""
    findings = find_hyperparameters(pages, None)
    vague = [(p, o, s) for p, o, s in sentences if _VAGUE_TRAINING.search(s)]
    config_keys = [k for k in findings if k not in {"test_size"}]
    present = len(config_keys) >= 2
    seen: set[str] = set()
    config_evidence = []
    for finding in findings.values():
        if finding.quote not in seen:
            seen.add(finding.quote)
            config_evidence.append(VerdictEvidence(element="training_config",
                                                   quote=finding.quote, page=finding.page,
                                                   citation=finding.citation))
    detail = ("hyperparameters: " + ", ".join(f"{k}={findings[k].value}" for k in config_keys)
              if config_keys else "no training hyperparameters stated")
    if vague and not present:
        detail += "; vague training description"
        config_evidence += [_ev("training_config", s, p, cite(sections, p, o))
                            for p, o, s in vague[:1]]
    return ChecklistItem(element="training_config", present=present, detail=detail,
                               evidence=config_evidence[:4])


def heuristic_verdict(pages: PaperPages, pdf_bytes: bytes | None = None
                      ) -> ReproducibilityVerdict:
    """The offline verdict from :func:`checklist` (``pdf_bytes``: see there)."""
    items = checklist(pages, pdf_bytes)
    missing = [item.element for item in items if not item.present]
    reasoning = "; ".join(f"{item.element}: {item.detail}" for item in items)
    return ReproducibilityVerdict(
        paper_id=pages.paper_id, reproducible=not missing,
        reasoning=("All checklist elements found. " if not missing else
                   f"Missing: {', '.join(missing)}. ") + reasoning,
        missing_elements=missing, checklist=items, method="heuristic",
    )


def llm_verdict(pages: PaperPages, llm: LLMClient, tools: list[Tool]) -> ReproducibilityVerdict:
    """The verifier role's verdict; evidence quotes are checked against the pages.

    An answer that is still invalid after the layer's re-ask goes to the JSONizer fallback
    (seed 000). The answer is cached only when it passed the guardrails.

    Raises:
        VerdictError: E_VERIFY_GUARDRAIL_FAILED (the output breaks a guardrail),
            E_VERIFY_NO_OUTPUT (no valid verdict, even from the JSONizer),
            E_POLICY_CAP_EXCEEDED (search cap), E_VERIFY_OPENAI_ERROR (provider failure).
    """
    user = json.dumps({"paper": {"id": pages.paper_id, "title": pages.title,
                                 "pages": len(pages.pages)}})
    with llm.cache_scope():
        try:
            result = llm.structured(
                role=Role.VERIFIER, system=VERIFIER_SYSTEM, user=user, schema=VerifierOutput,
                tools=tools, fallback=jsonizer_fallback(llm, code="E_VERIFY_NO_OUTPUT"))
        except LLMInvalidOutput as exc:
            raise VerdictError(f"the verifier gave no valid verdict: {exc}",
                               "E_VERIFY_NO_OUTPUT") from exc
        except LLMPolicyCapExceeded as exc:
            raise VerdictError(str(exc), "E_POLICY_CAP_EXCEEDED") from exc
        except LLMError as exc:
            raise VerdictError(f"verifier LLM failed ({exc.code}): {exc}",
                               "E_VERIFY_OPENAI_ERROR") from exc
        output = result.value
        try:
            enforce_verdict_guardrails(output)
        except GuardrailError as exc:
            raise VerdictError(str(exc), exc.code) from exc
    texts = {p.page_no: p.text for p in pages.pages}
    items: list[ChecklistItem] = []
    missing = {m.strip().lower() for m in output.missing_elements}
    for element in ELEMENTS:
        evidence = [
            VerdictEvidence(element=e.element, quote=e.quote, page=e.page,
                            citation=f"page {e.page}",
                            grounded=quote_on_page(e.quote, texts.get(e.page, "")))
            for e in output.evidence if e.element.strip().lower() == element
        ]
        present = not any(element in m or m in element for m in missing)
        items.append(ChecklistItem(element=element, present=present,
                                   detail="reported by the verifier", evidence=evidence))
    return ReproducibilityVerdict(
        paper_id=pages.paper_id, reproducible=output.reproducible, reasoning=output.reasoning,
        missing_elements=list(output.missing_elements), checklist=items, method="llm",
        llm_usage=llm.usage_summary(),
    )


def verify_paper(
    pages: PaperPages, llm: LLMClient | None = None, tools: list[Tool] | None = None,
    pdf_bytes: bytes | None = None,
) -> ReproducibilityVerdict:
    """Verify with the LLM when available, else with the offline checklist.

    ``pdf_bytes`` lets the offline checklist read results tables (see :func:`checklist`).

    Raises:
        VerdictError: the LLM was asked and failed (see :func:`llm_verdict`); the offline
            checklist's verdict rides along in ``checklist``.
    """
    if llm is not None and llm.available:
        try:
            return llm_verdict(pages, llm, tools or [])
        except VerdictError as exc:
            exc.checklist = heuristic_verdict(pages, pdf_bytes)
            raise
    return heuristic_verdict(pages, pdf_bytes)


def verdict_markdown(verdict: ReproducibilityVerdict) -> str:
    """The checklist as a markdown table."""
    lines = ["| element | present | detail | evidence |", "|---|---|---|---|"]
    for item in verdict.checklist:
        quote = item.evidence[0].quote if item.evidence else ""
        quote = (quote[:100] + "...") if len(quote) > 100 else quote
        where = f" ({item.evidence[0].citation})" if item.evidence else ""
        lines.append(f"| {item.element} | {'yes' if item.present else 'NO'} | "
                     f"{item.detail.replace('|', '/')} | {quote.replace('|', '/')}{where} |")
    return "\n".join(lines)


def save_verdict(db: Database, verdict: ReproducibilityVerdict) -> None:
    """Store (replace) the verdict of a paper."""
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO paper_verdicts (paper_id, reproducible, reasoning, missing_elements,"
            " checklist, method, llm_error) VALUES (%s, %s, %s, %s, %s, %s, NULL)"
            " ON CONFLICT (paper_id) DO UPDATE SET reproducible = EXCLUDED.reproducible,"
            " reasoning = EXCLUDED.reasoning, missing_elements = EXCLUDED.missing_elements,"
            " checklist = EXCLUDED.checklist, method = EXCLUDED.method,"
            " llm_error = EXCLUDED.llm_error, created_at = now()",
            (verdict.paper_id, verdict.reproducible, verdict.reasoning,
             json.dumps(verdict.missing_elements),
             json.dumps([item.model_dump(mode="json") for item in verdict.checklist]),
             verdict.method),
        )


def load_verdict(db: Database, paper_id: str) -> ReproducibilityVerdict | None:
    """The stored verdict of a paper, or None."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT reproducible, reasoning, missing_elements, checklist, method"
            " FROM paper_verdicts WHERE paper_id = %s", (paper_id,)).fetchone()
    if row is None:
        return None
    return ReproducibilityVerdict(
        paper_id=paper_id, reproducible=row[0], reasoning=row[1], missing_elements=row[2],
        checklist=[ChecklistItem.model_validate(item) for item in row[3]], method=row[4],
    )
