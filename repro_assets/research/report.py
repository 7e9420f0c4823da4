"""Synthesize and export: the report as markdown with inline citations, JSON and HTML.

Citations are numbered by first use, per document; each fact cites the documents that state it
(``[1][3]``) and the source list gives a reference (authors, year, title, venue, DOI or URL;
never a filesystem path) and the provider. Only sources at or above the relevance floor are
listed; off-topic ones are counted, never cited.

The report is honest about what was found: with no sources at all the outcome is
``no_sources``, with sources that do not answer the question ``insufficient_evidence``; both say
so in the summary and give no key points. Key points are facts at or above the fact relevance
floor, verified ones (two independent sources) first. The summary is written by the LLM when
allowed (its key points must cite existing on-topic fact ids, else it falls back) or from a
template.

``report.html`` is rendered from the markdown with raw HTML disabled: every text the agent did
not generate (page text, titles, queries) is escaped, so markup in a fetched page is inert.
"""

from __future__ import annotations

import html
import json
import logging
from collections.abc import Callable
from typing import Any

from markdown_it import MarkdownIt
from pydantic import BaseModel, ConfigDict, Field

from repro_assets.llm.types import Guardrail, GuardrailError, LLMClient, LLMError, Role
from repro_assets.research import prompts
from repro_assets.research.models import Fact, ResearchState, SourceResult
from repro_assets.research.relevance import FACT_FLOOR, RESULT_FLOOR
from repro_assets.research.stated_numbers import number_in_quotes, numbers_stated

log = logging.getLogger(__name__)


class KeyPoint(BaseModel):
    """One key point of the summary."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="The point, in one or two sentences.")
    fact_ids: list[str] = Field(description="Ids of the facts it rests on (F1, F2 ...).")


class ReportDraft(BaseModel):
    """LLM-written summary."""

    model_config = ConfigDict(extra="forbid")

    summary: str = Field(description="3-6 sentence answer to the research question.")
    key_points: list[KeyPoint] = Field(description="Key points with their fact ids.")


def plain_language_status(state: ResearchState) -> str:
    """A one-line status a non-expert understands (seed get_plain_language_status)."""
    phase = state.current_phase
    counts = (f"{len(state.results)} sources read, {len(state.entities_found)} entities, "
              f"{len(state.facts_extracted)} facts so far")
    cycle = f"cycle {max(state.cycle, 1)} of at most {state.max_cycles}"
    messages = {
        "starting": f"Starting research on \u201c{state.original_query}\u201d.",
        "clarify": "Understanding the question"
        + (f" ({len(state.clarifying_questions)} open question(s) recorded)."
           if state.clarifying_questions else "."),
        "plan": f"Planning: {len(state.ranked_sources)} source(s) ranked for the "
        f"{state.domain} domain.",
        "collect": f"Searching ({cycle}): {len(state.sources_queried)} searches done; {counts}.",
        "process": f"Reading results ({cycle}): {counts}.",
        "analyze": f"Cross-checking facts ({cycle}): "
        f"{sum(f.verified for f in state.facts_extracted)} verified, "
        f"{len(state.contradictions)} contradiction(s).",
        "evaluate": f"Checking whether more searching would help ({cycle}): "
        + (f"stopping: {state.stop_reason}." if state.should_stop else "continuing."),
        "synthesize": f"Writing the report from {len(state.facts_extracted)} facts.",
        "export": "Saving the report.",
        "done": f"Done after {state.cycle} cycle(s): {state.stop_reason}.",
    }
    return messages.get(phase, f"{phase}: {counts}.")


def document_of(url: str) -> str:
    """The document a result URL belongs to (a corpus chunk URL without its fragment)."""
    return url.split("#chunk=", 1)[0]


def _fact_order(facts: list[Fact]) -> list[Fact]:
    return sorted(facts, key=lambda f: (not f.verified, -f.confidence, -f.relevance, f.id))


def _citation_numbers(
    state: ResearchState, result_floor: float
) -> tuple[dict[str, int], list[str]]:
    """Numbers per document: cited documents first, then the other relevant ones."""
    numbers: dict[str, int] = {}
    order: list[str] = []

    def add(url: str) -> None:
        doc = document_of(url)
        if doc not in numbers:
            numbers[doc] = len(order) + 1
            order.append(doc)

    answer = (state.answer_check or {}).get("answer")
    if answer and state.outcome == "answered":
        add(answer["source"])
        for part in answer.get("parts") or []:
            add(part["source"])
    for fact in _fact_order(state.facts_extracted):
        for url in fact.sources:
            add(url)
    for result in state.results:
        if (result.relevance or 0.0) >= result_floor:
            add(result.url)
    return numbers, order


def _numbers_for(urls: list[str], numbers: dict[str, int]) -> list[int]:
    return sorted({numbers[document_of(u)] for u in urls if document_of(u) in numbers})


def reference(result: SourceResult | None, url: str) -> str:
    """A reference line: authors (year). Title. Venue. DOI or URL."""
    if result is None:
        return url
    meta = result.metadata
    authors = [a for a in meta.get("authors") or [] if isinstance(a, str) and a.strip()]
    who = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 else "")
    link = f"https://doi.org/{meta['doi']}" if meta.get("doi") else url
    parts = [f"{who} ({meta['year']})." if who and meta.get("year") else
             f"{who}." if who else f"({meta['year']})." if meta.get("year") else "",
             f"{result.title.rstrip('.')}." if result.title else "",
             f"{meta['venue']}." if meta.get("venue") else "", link]
    return " ".join(p for p in parts if p)


def _on_topic(state: ResearchState, fact_floor: float) -> list[Fact]:
    return [f for f in _fact_order(state.facts_extracted) if f.relevance >= fact_floor]


def template_summary(
    state: ResearchState, fact_floor: float = FACT_FLOOR, result_floor: float = RESULT_FLOOR
) -> ReportDraft:
    """Deterministic summary: what was found, or plainly that nothing answers the question."""
    question = state.refined_query or state.original_query
    used = sum(1 for r in state.results if (r.relevance or 0.0) >= result_floor)
    if state.outcome == "no_sources":
        return ReportDraft(summary=(
            f"No sources: no search returned anything for \u201c{question}\u201d "
            f"({len(state.sources_queried)} search(es), {state.privacy_mode} mode). This report "
            "contains no answer. If the local corpus is empty, ingest documents first, or "
            "allow other providers (privacy mode cloud_allowed)."), key_points=[])
    check = state.answer_check or {}
    if state.outcome == "insufficient_evidence":
        why = check.get("reason") or "no finding in them addresses it"
        related = "; ".join(r["title"] for r in check.get("related") or [] if r.get("title"))
        return ReportDraft(summary=(
            f"Insufficient evidence: the {len(state.results)} source(s) found do not answer "
            f"\u201c{question}\u201d ({used} of them close enough to the question to be read; "
            f"{why}), so this report gives no key points. Nothing here should be read as an "
            "answer." + (f" Related, does not answer: {related}." if related else "")),
            key_points=[])
    facts = _on_topic(state, fact_floor)
    verified = [f for f in facts if f.verified]
    top = facts[:5]
    summary = (
        f"This report on \u201c{question}\u201d draws on {used} relevant source(s) of "
        f"{len(state.results)} found in {state.cycle} research cycle(s) "
        f"({state.domain} domain, {state.privacy_mode} mode). "
        f"{len(facts)} on-topic facts were extracted, {len(verified)} of them verified by at "
        "least two independent sources"
        + (f", and {len(state.contradictions)} contradiction(s) were found" if
           state.contradictions else "")
        + f". Research stopped because: {state.stop_reason or 'not recorded'}."
    )
    points = [KeyPoint(text=f.statement, fact_ids=[f.id]) for f in top]
    answer = check.get("answer")
    if answer and answer.get("parts"):
        sides = "; ".join(f"{p['value']}, as stated in {p['title']}: \u201c{p['quote']}\u201d"
                          for p in answer["parts"])
        summary = f"Answer: a difference of {answer['value']} ({sides}). " + summary
    elif answer:
        summary = (f"Answer: {answer['value']}, as stated in {answer['title']}: "
                   f"\u201c{answer['quote']}\u201d. " + summary)
    return ReportDraft(summary=summary, key_points=points)


def llm_summary(llm: LLMClient, state: ResearchState, fact_floor: float = FACT_FLOOR
                ) -> ReportDraft:
    """Summary by the LLM, guarded: every key point cites existing on-topic facts.

    Raises:
        LLMError, GuardrailError: the caller falls back to :func:`template_summary`.
    """
    facts = _on_topic(state, fact_floor)[:40]
    ids = {f.id for f in facts}
    listing = "\n".join(
        f"{f.id} (confidence {f.confidence:.2f}{', verified' if f.verified else ''}): "
        f"{f.statement}" for f in facts
    )
    contradictions = "\n".join(f"{c.fact_a} vs {c.fact_b}: {c.reason}"
                               for c in state.contradictions) or "none"
    draft = llm.structured(
        role=Role.RESEARCH, system=prompts.SYNTHESIZE_SYSTEM,
        user=(f"Research question: {state.refined_query or state.original_query}\n\n"
              f"Facts:\n{listing}\n\nContradictions:\n{contradictions}"),
        schema=ReportDraft,
    ).value
    Guardrail(
        name="numbers_in_cited_facts",
        description="every number of the summary and key points is in a fact it cites",
        check=lambda d: _numbers_grounded(d, facts, state),
        code="E_UNGROUNDED_NUMBER",
    ).enforce(draft)
    Guardrail(
        name="key_points_cite_known_facts",
        description="every key point cites at least one existing fact id",
        check=lambda d: (
            all(p.fact_ids and set(p.fact_ids) <= ids for p in d.key_points),
            "a key point cites no fact or an unknown fact id",
        ),
        code="E_UNGROUNDED_SUMMARY",
    ).enforce(draft)
    return draft


def _numbers_grounded(draft: ReportDraft, facts: list[Fact], state: ResearchState
                      ) -> tuple[bool, str]:
    """Post-check of an LLM draft: a number it states must be in a quote it rests on.

    A key point's numbers must be in the statements of the facts it cites (or the answer
    check's quote); the summary's in any listed fact or that quote.
    """
    by_id = {f.id: f.statement for f in facts}
    answer = (state.answer_check or {}).get("answer")
    extra = [answer["quote"], answer["title"]] if answer else []
    question = [state.original_query, state.refined_query]
    for point in draft.key_points:
        quotes = [by_id[i] for i in point.fact_ids if i in by_id] + extra + question
        bad = [n for n in numbers_stated(point.text) if not number_in_quotes(n, quotes)]
        if bad:
            return False, f"key point number(s) {', '.join(bad)} are in no cited fact"
    quotes = list(by_id.values()) + extra + question
    bad = [n for n in numbers_stated(draft.summary) if not number_in_quotes(n, quotes)]
    if bad:
        return False, f"summary number(s) {', '.join(bad)} are in no listed fact"
    return True, ""


def synthesize(
    state: ResearchState, llm: LLMClient | None, use_llm: bool,
    result_floor: float = RESULT_FLOOR, fact_floor: float = FACT_FLOOR,
) -> tuple[dict[str, Any], str, str]:
    """Build the report dict. Returns ``(report, method, note)``."""
    method, note = "heuristic", ""
    draft = None
    if use_llm and llm is not None and llm.available and state.outcome == "answered":
        try:
            draft = llm_summary(llm, state, fact_floor)
            method = "llm"
        except (LLMError, GuardrailError) as exc:
            note = f"LLM synthesis failed ({getattr(exc, 'code', type(exc).__name__)}); template"
            log.warning(note)
    if draft is None:
        draft = template_summary(state, fact_floor, result_floor)
    numbers, order = _citation_numbers(state, result_floor)
    results_by_doc: dict[str, SourceResult] = {}
    for result in state.results:
        results_by_doc.setdefault(document_of(result.url), result)
    facts_by_id = {f.id: f for f in state.facts_extracted}
    key_points = []
    for point in draft.key_points:
        urls = [u for fid in point.fact_ids if fid in facts_by_id for u in facts_by_id[fid].sources]
        key_points.append({"text": point.text, "fact_ids": point.fact_ids,
                           "citations": _numbers_for(urls, numbers)})
    off_topic = sum(1 for r in state.results if (r.relevance or 0.0) < result_floor)
    check = state.answer_check or {}
    answer = check.get("answer") if state.outcome == "answered" else None
    if answer:
        key_points.insert(0, {
            "text": f"Answer: {answer['value']} \u2014 \u201c{answer['quote']}\u201d",
            "fact_ids": [], "citations": _numbers_for(_answer_sources(answer), numbers)})
    report = {
        "session_id": state.session_id,
        "query": state.original_query,
        "refined_query": state.refined_query,
        "domain": state.domain,
        "privacy_mode": state.privacy_mode,
        "cycles": state.cycle,
        "stop_reason": state.stop_reason,
        "outcome": state.outcome,
        "relevance_floor": {"results": result_floor, "facts": fact_floor},
        "off_topic_sources": off_topic,
        "method": {"extraction": state.extraction_method, "synthesis": method},
        "summary": draft.summary,
        "answer": None if answer is None else {
            **answer, "citations": _numbers_for(_answer_sources(answer), numbers)},
        "answer_check": check,
        "related_not_answering": check.get("related", []) if answer is None else [],
        "key_points": key_points,
        "clarifying_questions": state.clarifying_questions,
        "facts": [
            {**f.model_dump(mode="json"), "citations": _numbers_for(f.sources, numbers)}
            for f in _fact_order(state.facts_extracted) if f.relevance >= fact_floor
        ],
        "entities": [e.model_dump(mode="json") for e in sorted(
            state.entities_found, key=lambda e: (-e.mention_count, e.name))],
        "contradictions": [c.model_dump(mode="json") for c in state.contradictions],
        "sources": [
            {"n": numbers[url], "url": url,
             "title": results_by_doc[url].title if url in results_by_doc else "",
             "provider": results_by_doc[url].source_name if url in results_by_doc else "",
             "year": results_by_doc[url].metadata.get("year") if url in results_by_doc else None,
             "reference": reference(results_by_doc.get(url), url)}
            for url in order
        ],
        "sources_queried": state.sources_queried,
        "access_failures": [a.model_dump(mode="json") for a in state.access_failures],
        "saturation_history": [c.model_dump(mode="json") for c in state.saturation_history],
        "provider_calls": state.provider_call_counts,
        "decisions": [d.model_dump(mode="json") for d in state.decisions],
        "notes": [*state.llm_notes, *([note] if note else [])],
    }
    return report, method, note


def _md_escape(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")


def render_markdown(report: dict[str, Any]) -> str:
    """The report as markdown with inline numeric citations and a source list."""
    lines = [f"# Research report: {report['refined_query'] or report['query']}", ""]
    lines += [f"*Session* `{report['session_id']}` \u00b7 domain **{report['domain']}** \u00b7 "
              f"privacy **{report['privacy_mode']}** \u00b7 {report['cycles']} cycle(s) \u00b7 "
              f"extraction {report['method']['extraction']}, synthesis "
              f"{report['method']['synthesis']}", ""]
    lines += [f"**Why research stopped:** {_md_escape(report['stop_reason'] or '')}", "",
              f"**Outcome:** {report['outcome'].replace('_', ' ')}", "", "## Summary", "",
              _md_escape(report["summary"]), ""]
    if report["off_topic_sources"]:
        lines += [f"*{report['off_topic_sources']} source(s) found were below the relevance "
                  f"floor ({report['relevance_floor']['results']}) and were not used.*", ""]
    if report.get("related_not_answering"):
        lines += ["## Related, does not answer", ""]
        lines += [f"- {_md_escape(r['title'] or r['url'])} (relevance {r['relevance']:.2f})"
                  for r in report["related_not_answering"]] + [""]
    if report["key_points"]:
        lines += ["## Key points", ""]
        for p in report["key_points"]:
            cites = "".join(f"[{n}]" for n in p["citations"])
            lines.append(f"- {_md_escape(p['text'])} {cites}".rstrip())
        lines.append("")
    lines += _facts_sections(report)
    lines += _session_sections(report)
    lines += ["## Sources", ""]
    for s in report["sources"]:
        lines.append(f"{s['n']}. {_md_escape(s['reference'])} \u2014 {s['provider']}")
    return "\n".join(lines) + "\n"


def _facts_sections(report: dict[str, Any]) -> list[str]:
    """Markdown lines: verified and other facts, contradictions, main entities."""
    lines: list[str] = []
    verified = [f for f in report["facts"] if f["verified"]]
    other = [f for f in report["facts"] if not f["verified"]]
    for title, facts in (("Verified facts (two or more independent sources)", verified),
                         ("Other findings (single source or below threshold)", other)):
        if not facts:
            continue
        lines += [f"## {title}", ""]
        for f in facts[:60]:
            cites = "".join(f"[{n}]" for n in f["citations"])
            lines.append(f"- **{f['id']}** {_md_escape(f['statement'])} {cites} "
                         f"*(confidence {f['confidence']:.2f})*")
        lines.append("")
    if report["contradictions"]:
        lines += ["## Contradictions", ""]
        for c in report["contradictions"]:
            lines.append(f"- {c['fact_a']} vs {c['fact_b']}: {c['reason']}")
        lines.append("")
    if report["entities"]:
        lines += ["## Main entities", ""]
        lines.append(", ".join(f"{e['name']} ({e['entity_type']}, {e['mention_count']})"
                               for e in report["entities"][:30]))
        lines.append("")
    return lines


def _session_sections(report: dict[str, Any]) -> list[str]:
    """Markdown lines: open questions, saturation per cycle, sources that failed."""
    lines: list[str] = []
    if report["clarifying_questions"]:
        lines += ["## Open questions (recorded, not asked)", ""]
        lines += [f"- {q}" for q in report["clarifying_questions"]] + [""]
    if report["saturation_history"]:
        lines += ["## Saturation per cycle", "",
                  "| cycle | new entities | new facts | circularity | coverage | decision |",
                  "|---|---|---|---|---|---|"]
        for c in report["saturation_history"]:
            m = c["metrics"]
            lines.append(f"| {c['cycle']} | {m['new_entities_ratio']:.2f} | "
                         f"{m['new_facts_ratio']:.2f} | {m['citation_circularity']:.2f} | "
                         f"{m['source_coverage']:.2f} | {c['reason']} |")
        lines.append("")
    if report["access_failures"]:
        lines += ["## Sources that could not be used", ""]
        for a in report["access_failures"]:
            lines.append(f"- {a['source_name']}: {a['error_type']} ({a['action']}) "
                         f"\u2014 {a['url']}")
        lines.append("")
    return lines


def render_html(markdown_text: str, title: str) -> str:
    """Standalone HTML of the markdown report (raw HTML in the markdown is escaped)."""
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown_text)
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>body{{font-family:sans-serif;"
        "max-width:54em;margin:2em auto;line-height:1.5}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:.2em .5em}</style></head><body>"
        f"{body}</body></html>"
    )


def export(
    report: dict[str, Any], writer: Callable[[str, str], str], prefix: str
) -> dict[str, str]:
    """Write markdown, JSON and HTML through ``writer(key, text) -> location``."""
    markdown_text = render_markdown(report)
    return {
        "markdown": writer(f"{prefix}/report.md", markdown_text),
        "json": writer(f"{prefix}/report.json", json.dumps(report, indent=2, default=str)),
        "html": writer(f"{prefix}/report.html",
                       render_html(markdown_text, report["refined_query"] or report["query"])),
    }


def _answer_sources(answer: dict) -> list[str]:
    """Every source an answer rests on (both sides of a comparison)."""
    return list(dict.fromkeys([answer["source"], *(p["source"] for p in
                                                   answer.get("parts") or [])]))
