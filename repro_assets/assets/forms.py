"""Evidence-grounded form filling (seed 003, slices 1 and 2) as Dagster assets.

One ``form_runs`` partition per run id (``2025-12-12T11-32-01Z_ab12cd``). The run folder
``runs/<run_id>/`` on the blob store is created by ingest (the drop-folder sensor, the HTTP API
or the demo); each asset runs one pipeline step on it and writes one artifact:

form_schema (schema.json) -> form_doc_index (doc_index.json) -> form_layout (layout.json)
-> form_routing (routing.json) -> form_candidates (candidates.json) -> form_final (final.json
+ evidence crops) -> form_filled (filled.pdf + review.json, when a target form is fillable)

Asset checks: every artifact validates against its model; no value without evidence; every
required trace step is present; the filled form holds exactly the filled values and the
target is untouched.
"""


from collections.abc import Callable
from typing import Any

import dagster as dg

from repro_assets.forms import pipeline
from repro_assets.forms.candidates import client_or_offline
from repro_assets.forms.invariants import artifact_check, evidence_check, filled_check, trace_check
from repro_assets.forms.models import FILLED_PDF, RunOptions
from repro_assets.forms.runfolder import FormsError, RunFolder
from repro_assets.forms.views import (
    ASSET_ARTIFACTS,
    api_url,
    final_markdown,
    llm_metadata,
    review_markdown,
)
from repro_assets.jobs import FORMS_GROUP as GROUP
from repro_assets.jobs import forms_job
from repro_assets.llm.config import pool_name
from repro_assets.llm.types import LLMClient, LLMError
from repro_assets.partitions import form_runs_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.llm import LLMResource


def _folder(context: dg.AssetExecutionContext | dg.AssetCheckExecutionContext,
            blob_store: BlobStoreResource) -> RunFolder:
    key = _partition_key(context)
    try:
        folder = RunFolder(blob_store.get_store(), key)
    except FormsError as exc:
        raise dg.Failure(description=str(exc), metadata={"code": exc.code}) from exc
    if not folder.has_input():
        raise dg.Failure(
            description=f"run folder runs/{key}/input is missing: ingest the run first "
                        "(drop a bundle, POST /api/runs or `repro-assets demo`)",
            metadata={"code": "run_not_found"},
        )
    return folder


def _partition_key(context: Any) -> str:
    if isinstance(context, dg.AssetCheckExecutionContext):
        return context.op_execution_context.partition_key
    return context.partition_key


def _step(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    except FormsError as exc:
        raise dg.Failure(description=str(exc), metadata={"code": exc.code}) from exc


def _path_meta(folder: RunFolder, name: str) -> dict[str, Any]:
    return {
        "artifact": dg.MetadataValue.path(folder.store.url(folder.artifact_key(name))),
        "run_folder": folder.ref(""),
    }


def artifact_metadata(folder: RunFolder, asset_name: str) -> dict[str, Any]:
    """The materialization metadata of one forms asset, read from its artifact."""
    name = ASSET_ARTIFACTS[asset_name]
    value = folder.read_artifact(name)
    meta = _path_meta(folder, name)
    if name == "schema":
        meta |= {"schema_source": value.schema_source,
                 "fields": ", ".join(f.key for f in value.resolved_fields),
                 "unsupported_fields": ", ".join(value.unsupported_fields) or "-"}
    elif name == "doc_index":
        meta |= {"documents": len(value),
                 "readable": sum(1 for d in value if d.unreadable_reason is None),
                 "unreadable": ", ".join(f"{d.doc_id}:{d.unreadable_reason}" for d in value
                                         if d.unreadable_reason) or "-"}
    elif name == "layout":
        meta |= {"documents": len(value), "pages": sum(len(d.pages) for d in value),
                 "characters": sum(len(p.full_text) for d in value for p in d.pages)}
    elif name == "routing":
        meta |= {"routes": dg.MetadataValue.md("\n".join(
            f"- {r.field}: {', '.join(r.doc_ids) or '(none)'}" for r in value))}
    elif name == "candidates":
        meta |= {"candidates": len(value),
                 "accepted": sum(1 for c in value if c.accepted),
                 "from_llm": sum(1 for c in value if c.from_method == "llm")}
    elif name == "review":
        meta |= {"filled_pdf": dg.MetadataValue.path(folder.store.url(folder.key(
                     f"artifacts/{FILLED_PDF}"))),
                 "filled_pdf_url": dg.MetadataValue.url(
                     f"{api_url()}/api/runs/{folder.run_id}/artifacts/filled"),
                 "form_subject": value.form_subject or "-",
                 "widgets_written": len(value.written),
                 "fields_to_review": len(value.needs_review),
                 "fill": dg.MetadataValue.md(review_markdown(value))}
    else:
        statuses = [f.status for f in value.fields.values()]
        meta |= {s: statuses.count(s) for s in ("filled", "needs_review", "missing")}
        meta["fields"] = dg.MetadataValue.md(final_markdown(value))
    return meta


def run_llm_client(llm: LLMResource, options: RunOptions) -> LLMClient:
    """The deployment's client, or one of the provider the run's options ask for.

    The provider's key comes from the deployment (resource config or environment); a
    provider that is not configured degrades to offline (heuristics only, logged).
    """
    requested = options.llm_provider if "llm_provider" in options.model_fields_set else None
    resource = llm
    try:
        if requested and requested != llm.resolved_provider():
            resource = llm.model_copy(update={"provider": requested})
    except LLMError:  # an unknown configured provider: client_or_offline reports it
        pass
    return client_or_offline(resource.get_client)


@dg.asset(partitions_def=form_runs_partitions, group_name=GROUP,
          description="schema.json: user schema -> fillable PDF fields -> fallback v1.")
def form_schema(context: dg.AssetExecutionContext,
                blob_store: BlobStoreResource) -> dg.MaterializeResult:
    """Resolve the fields of the run."""
    folder = _folder(context, blob_store)
    _step(pipeline.step_resolve_schema, folder)
    return dg.MaterializeResult(metadata=artifact_metadata(folder, "form_schema"))


@dg.asset(partitions_def=form_runs_partitions, group_name=GROUP, deps=[form_schema],
          description="doc_index.json: hash, MIME type, pages, text layer of each input doc.")
def form_doc_index(context: dg.AssetExecutionContext,
                   blob_store: BlobStoreResource) -> dg.MaterializeResult:
    """Index the input documents."""
    folder = _folder(context, blob_store)
    _step(pipeline.step_index_docs, folder)
    return dg.MaterializeResult(metadata=artifact_metadata(folder, "form_doc_index"))


@dg.asset(partitions_def=form_runs_partitions, group_name=GROUP, deps=[form_doc_index],
          description="layout.json: native text per page (no OCR) with line boxes.")
def form_layout(context: dg.AssetExecutionContext,
                blob_store: BlobStoreResource) -> dg.MaterializeResult:
    """Extract the native text of the readable documents."""
    folder = _folder(context, blob_store)
    _step(pipeline.step_extract_text, folder)
    return dg.MaterializeResult(metadata=artifact_metadata(folder, "form_layout"))


@dg.asset(partitions_def=form_runs_partitions, group_name=GROUP, deps=[form_layout],
          description="routing.json: top-k documents per field (locked token overlap).")
def form_routing(context: dg.AssetExecutionContext,
                 blob_store: BlobStoreResource) -> dg.MaterializeResult:
    """Route documents to fields."""
    folder = _folder(context, blob_store)
    _step(pipeline.step_route, folder)
    return dg.MaterializeResult(metadata=artifact_metadata(folder, "form_routing"))


@dg.asset(partitions_def=form_runs_partitions, group_name=GROUP, deps=[form_routing],
          pool=pool_name(),
          description="candidates.json: heuristic + at most one LLM candidate set per field, "
                      "scored.")
def form_candidates(context: dg.AssetExecutionContext, blob_store: BlobStoreResource,
                    llm: LLMResource) -> dg.MaterializeResult:
    """Extract, check and score candidates for every field."""
    folder = _folder(context, blob_store)
    client = run_llm_client(llm, _step(folder.read_request).options)
    step = _step(pipeline.step_candidates, folder, client)
    meta = artifact_metadata(folder, "form_candidates") | llm_metadata(step.model_calls,
                                                                       step.provider)
    return dg.MaterializeResult(metadata=meta)


@dg.asset(partitions_def=form_runs_partitions, group_name=GROUP, deps=[form_candidates],
          description="final.json: status, value, confidence and evidence of every field.")
def form_final(context: dg.AssetExecutionContext,
               blob_store: BlobStoreResource) -> dg.MaterializeResult:
    """Select winners and write final.json."""
    folder = _folder(context, blob_store)
    _step(pipeline.step_final, folder)
    return dg.MaterializeResult(metadata=artifact_metadata(folder, "form_final"))


@dg.asset(partitions_def=form_runs_partitions, group_name=GROUP, deps=[form_final],
          description="filled.pdf + review.json: filled values written into the target form "
                      "(the form's subject only); needs_review fields listed with evidence.")
def form_filled(context: dg.AssetExecutionContext,
                blob_store: BlobStoreResource) -> dg.MaterializeResult:
    """Write the filled values into the first fillable target form (slice 2)."""
    folder = _folder(context, blob_store)
    report = _step(pipeline.step_fill, folder)
    if report is None:
        return dg.MaterializeResult(metadata={"run_folder": folder.ref(""),
                                              "filled_pdf": "none (no fillable target form)"})
    return dg.MaterializeResult(metadata=artifact_metadata(folder, "form_filled"))


FORM_ASSETS = [form_schema, form_doc_index, form_layout, form_routing, form_candidates,
               form_final, form_filled]


# ---------------------------------------------------------------------------- checks
def _check_folder(context: dg.AssetCheckExecutionContext,
                  blob_store: BlobStoreResource) -> RunFolder:
    return RunFolder(blob_store.get_store(), _partition_key(context))


def _artifact_check(asset: dg.AssetsDefinition, name: str) -> dg.AssetChecksDefinition:
    @dg.asset_check(asset=asset, name=f"{name}_artifact_valid", blocking=True,
                    description=f"{name}.json validates against its pydantic model.")
    def _check(context: dg.AssetCheckExecutionContext,
               blob_store: BlobStoreResource) -> dg.AssetCheckResult:
        passed, metadata = artifact_check(_check_folder(context, blob_store), name)
        return dg.AssetCheckResult(passed=passed, metadata=metadata)

    return _check


ARTIFACT_CHECKS = [_artifact_check(asset, ASSET_ARTIFACTS[asset.key.path[-1]])
                   for asset in FORM_ASSETS]


@dg.asset_check(asset=form_final, blocking=True,
                description="Invariant 1: every non-null value has evidence "
                            "(doc_id, page, quoted_text).")
def no_value_without_evidence(context: dg.AssetCheckExecutionContext,
                              blob_store: BlobStoreResource) -> dg.AssetCheckResult:
    """Hard invariant 1 of the seed."""
    passed, metadata = evidence_check(_check_folder(context, blob_store))
    return dg.AssetCheckResult(passed=passed, metadata=metadata)


@dg.asset_check(asset=form_final, description="Every required trace step is in trace.jsonl.")
def trace_complete(context: dg.AssetCheckExecutionContext,
                   blob_store: BlobStoreResource) -> dg.AssetCheckResult:
    """The seed's required trace steps appear at least once."""
    passed, metadata = trace_check(_check_folder(context, blob_store))
    return dg.AssetCheckResult(passed=passed, metadata=metadata)


@dg.asset_check(asset=form_filled, blocking=True,
                description="filled.pdf holds only filled values, in the subject's widgets "
                            "listed in review.json; the target form is untouched.")
def filled_form_matches_final(context: dg.AssetCheckExecutionContext,
                              blob_store: BlobStoreResource) -> dg.AssetCheckResult:
    """Slice 2 invariant: what the filled form says is what final.json filled."""
    passed, metadata = filled_check(_check_folder(context, blob_store))
    return dg.AssetCheckResult(passed=passed, metadata=metadata)


FORM_CHECKS = [*ARTIFACT_CHECKS, no_value_without_evidence, trace_complete,
               filled_form_matches_final]


defs = dg.Definitions(
    assets=FORM_ASSETS,
    asset_checks=FORM_CHECKS,
    jobs=[forms_job],
)
