"""Read side of form filling: the markdown of a run's results, its stored artifacts for
``repro-assets show`` and the demo's per-field lines. No Dagster."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from repro_assets import settings
from repro_assets.forms.models import FinalResult, ModelCall, ReviewReport
from repro_assets.forms.runfolder import FormsError, RunFolder, list_runs
from repro_assets.storage.blobstore import BlobStore

#: The artifact each forms asset writes (``runs/<run_id>/artifacts/<name>.json``).
ASSET_ARTIFACTS: dict[str, str] = {
    "form_schema": "schema",
    "form_doc_index": "doc_index",
    "form_layout": "layout",
    "form_routing": "routing",
    "form_candidates": "candidates",
    "form_final": "final",
    "form_filled": "review",
}
#: Where the API serves evidence crops (the Dagster UI loads markdown images over http(s));
#: ``REPRO_API_PUBLIC_URL`` overrides it.
DEFAULT_API_URL = "http://127.0.0.1:8000"


def api_url() -> str:
    """Base URL of the project's API as the Dagster UI's browser reaches it."""
    return (settings.current().runs.api_public_url or DEFAULT_API_URL).rstrip("/")


def _image_url(ref: str) -> str:
    run_id, name = ref.split("/")[1], ref.rsplit("/", 1)[-1]
    return f"{api_url()}/api/runs/{run_id}/evidence/{name}"


def final_markdown(final: FinalResult) -> str:
    """Markdown: field, status, value, confidence, evidence quote; then the evidence crops."""
    lines = ["| field | status | value | confidence | evidence |", "|---|---|---|---|---|"]
    for key, item in final.fields.items():
        quote = item.evidence[0].quoted_text.replace("\n", " / ") if item.evidence else ""
        where = f" ({item.evidence[0].doc_id} p.{item.evidence[0].page})" if item.evidence else ""
        value = (item.normalized_value or "").replace("|", "/")
        lines.append(f"| {key} | {item.status} | {value} | {item.confidence:.2f} | "
                     f"{quote.replace('|', '/')[:80]}{where} |")
    crops = [(key, ref) for key, item in final.fields.items() for ref in item.evidence_images]
    if crops:
        lines += ["", f"Evidence (cited quote highlighted; images served by the API at "
                      f"{api_url()}):", ""]
        lines += [f"**{key}** `{ref}`\n\n![{key}]({_image_url(ref)})\n" for key, ref in crops]
    return "\n".join(lines)


def review_markdown(report: ReviewReport) -> str:
    """Markdown: what went into filled.pdf, what waits for review, what stayed empty."""
    lines = [f"Form about: **{report.form_subject or 'unnamed party'}**", "",
             "| widget | page | field | written |", "|---|---|---|---|"]
    lines += [f"| {w.widget.replace('|', '/')} | {w.page} | {w.field}"
              f"{'/' + w.part if w.part else ''} | {w.value.replace('|', '/')} |"
              for w in report.written]
    if report.needs_review:
        lines += ["", "Needs review (left empty):", ""]
        for item in report.needs_review:
            lines.append(f"- **{item.field}**: {item.normalized_value} "
                         f"({item.confidence:.2f}; {', '.join(item.rationale)}) -> "
                         f"{', '.join(item.widgets) or 'no widget'}")
            lines += [f"  ![{item.field}]({_image_url(ref)})" for ref in item.evidence_images]
    others = [s for s in report.skipped if s.reason.startswith("other_party")]
    if others:
        lines += ["", "Left empty (another party's field): " + ", ".join(
            f"{s.widget} ({s.party})" for s in others)]
    return "\n".join(lines)


def llm_metadata(calls: list[ModelCall], provider: str) -> dict[str, Any]:
    """LLM usage of this execution: provider, calls, tokens, failed calls."""
    return {"llm_provider": provider, "llm_calls_this_run": len(calls),
            "llm_failed_calls": sum(1 for c in calls if c.error),
            "llm_models": ", ".join(sorted({c.model for c in calls})) or "-",
            "llm_input_tokens": sum(c.input_tokens for c in calls),
            "llm_output_tokens": sum(c.output_tokens for c in calls)}


def _show_artifact(name: str) -> Callable[[str | None], Any]:
    def show(partition_key: str | None) -> Any:
        store = BlobStore(settings.blob_root())
        run_id = partition_key or next(iter(list_runs(store)), None)
        if run_id is None:
            return None
        return RunFolder(store, run_id).read_artifact_raw(name)
    return show


SHOWS: dict[str, Callable[[str | None], Any]] = {
    asset: _show_artifact(artifact) for asset, artifact in ASSET_ARTIFACTS.items()
}


def sample_run_id(store: BlobStore, name: str, digest: str) -> str | None:
    """The run of sample bundle ``name`` with content ``digest``, if it was ingested before."""
    source = f"sample:{name}:{digest[:16]}"
    for run_id in list_runs(store):
        try:
            if RunFolder(store, run_id).read_request().source == source:
                return run_id
        except (FormsError, ValidationError):
            continue
    return None


def field_details(bundle: str, final: FinalResult) -> list[str]:
    """One line per field of ``final``: status, value, confidence, first evidence, rationale."""
    lines = []
    for key, item in final.fields.items():
        evidence = "-"
        if item.evidence:
            e = item.evidence[0]
            evidence = f'"{e.quoted_text.replace(chr(10), " / ")[:70]}" ({e.doc_id} p.{e.page})'
        value = item.normalized_value if item.normalized_value is not None else "-"
        lines.append(f"{bundle}: {key:<19} {item.status:<12} {value!s:<40} "
                     f"conf={item.confidence:.2f} evidence={evidence} "
                     f"[{', '.join(item.rationale)}]")
    return lines
