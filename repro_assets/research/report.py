"""Synthesize and export: the report as markdown with inline citations, JSON and HTML.

Citations are numbered by first use; each fact cites the sources that state it (``[1][3]``)
and the source list gives the URL and provider. The summary is written by the LLM when allowed
(its key points must cite existing fact ids, else it falls back) or from a template.
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
from repro_assets.research.models import ResearchState

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


def _citation_numbers(state: ResearchState) -> tuple[dict[str, int], list[str]]:
    numbers: dict[str, int] = {}
    order: list[str] = []
    facts = sorted(state.facts_extracted, key=lambda f: (-f.confidence, f.id))
    for fact in facts:
        for url in fact.sources:
            if url not in numbers:
                numbers[url] = len(order) + 1
                order.append(url)
    for result in state.results:
        if result.url not in numbers:
            numbers[result.url] = len(order) + 1
            order.append(result.url)
    return numbers, order


def _cite(urls: list[str], numbers: dict[str, int]) -> str:
    return "".join(f"[{numbers[u]}]" for u in urls if u in numbers)


def template_summary(state: ResearchState) -> ReportDraft:
    """Deterministic summary from the best facts."""
    facts = sorted(state.facts_extracted, key=lambda f: (-f.confidence, f.id))
    verified = [f for f in facts if f.verified]
    top = (verified or facts)[:5]
    summary = (
        f"This report on \u201c{state.refined_query or state.original_query}\u201d draws on "
        f"{len(state.results)} sources found in {state.cycle} research cycle(s) "
        f"({state.domain} domain, {state.privacy_mode} mode). "
        f"{len(facts)} facts were extracted, {len(verified)} of them verified across sources"
        + (f", and {len(state.contradictions)} contradiction(s) were found" if
           state.contradictions else "")
        + f". Research stopped because: {state.stop_reason or 'not recorded'}."
    )
    points = [KeyPoint(text=f.statement, fact_ids=[f.id]) for f in top]
    return ReportDraft(summary=summary, key_points=points)


def llm_summary(llm: LLMClient, state: ResearchState) -> ReportDraft:
    """Summary by the LLM, guarded: every key point cites existing facts.

    Raises:
        LLMError, GuardrailError: the caller falls back to :func:`template_summary`.
    """
    facts = sorted(state.facts_extracted, key=lambda f: (-f.confidence, f.id))[:40]
    ids = {f.id for f in state.facts_extracted}
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
        name="key_points_cite_known_facts",
        description="every key point cites at least one existing fact id",
        check=lambda d: (
            all(p.fact_ids and set(p.fact_ids) <= ids for p in d.key_points),
            "a key point cites no fact or an unknown fact id",
        ),
        code="E_UNGROUNDED_SUMMARY",
    ).enforce(draft)
    return draft


def synthesize(
    state: ResearchState, llm: LLMClient | None, use_llm: bool
) -> tuple[dict[str, Any], str, str]:
    """Build the report dict. Returns ``(report, method, note)``."""
    method, note = "heuristic", ""
    draft = None
    if use_llm and llm is not None and llm.available and state.facts_extracted:
        try:
            draft = llm_summary(llm, state)
            method = "llm"
        except (LLMError, GuardrailError) as exc:
            note = f"LLM synthesis failed ({getattr(exc, 'code', type(exc).__name__)}); template"
            log.warning(note)
    if draft is None:
        draft = template_summary(state)
    numbers, order = _citation_numbers(state)
    results_by_url = {r.url: r for r in state.results}
    facts_by_id = {f.id: f for f in state.facts_extracted}
    key_points = []
    for point in draft.key_points:
        urls = [u for fid in point.fact_ids if fid in facts_by_id for u in facts_by_id[fid].sources]
        key_points.append({"text": point.text, "fact_ids": point.fact_ids,
                           "citations": sorted({numbers[u] for u in urls if u in numbers})})
    report = {
        "session_id": state.session_id,
        "query": state.original_query,
        "refined_query": state.refined_query,
        "domain": state.domain,
        "privacy_mode": state.privacy_mode,
        "cycles": state.cycle,
        "stop_reason": state.stop_reason,
        "method": {"extraction": state.extraction_method, "synthesis": method},
        "summary": draft.summary,
        "key_points": key_points,
        "clarifying_questions": state.clarifying_questions,
        "facts": [
            {**f.model_dump(mode="json"), "citations": [numbers[u] for u in f.sources
                                                        if u in numbers]}
            for f in sorted(state.facts_extracted, key=lambda f: (-f.confidence, f.id))
        ],
        "entities": [e.model_dump(mode="json") for e in sorted(
            state.entities_found, key=lambda e: (-e.mention_count, e.name))],
        "contradictions": [c.model_dump(mode="json") for c in state.contradictions],
        "sources": [
            {"n": numbers[url], "url": url,
             "title": results_by_url[url].title if url in results_by_url else "",
             "provider": results_by_url[url].source_name if url in results_by_url else ""}
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
    lines += [f"**Why research stopped:** {report['stop_reason']}", "", "## Summary", "",
              report["summary"], ""]
    if report["key_points"]:
        lines += ["## Key points", ""]
        for p in report["key_points"]:
            cites = "".join(f"[{n}]" for n in p["citations"])
            lines.append(f"- {_md_escape(p['text'])} {cites}".rstrip())
        lines.append("")
    verified = [f for f in report["facts"] if f["verified"]]
    other = [f for f in report["facts"] if not f["verified"]]
    for title, facts in (("Verified facts", verified), ("Other findings (single source or "
                                                          "below threshold)", other)):
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
    lines += ["## Sources", ""]
    for s in report["sources"]:
        lines.append(f"{s['n']}. [{_md_escape(s['title'] or s['url'])}]({s['url']}) "
                     f"\u2014 {s['provider']}")
    return "\n".join(lines) + "\n"


def render_html(markdown_text: str, title: str) -> str:
    """Standalone HTML of the markdown report."""
    body = MarkdownIt("commonmark").enable("table").render(markdown_text)
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
