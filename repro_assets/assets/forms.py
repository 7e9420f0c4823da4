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


import hashlib
import json
import os
from collections.abc import Callable
from typing import Any

import dagster as dg
from pydantic import ValidationError

from repro_assets.demo import DemoContext, DemoRow, failure_message, materialized_count
from repro_assets.forms import pipeline
from repro_assets.forms.bundles import READY_MARKER, BundleError, is_ready, read_bundle
from repro_assets.forms.candidates import client_or_offline
from repro_assets.forms.fill import read_back
from repro_assets.forms.models import (
    ARTIFACT_ADAPTERS,
    FILLED_PDF,
    FinalResult,
    ModelCall,
    ReviewReport,
    RunOptions,
)
from repro_assets.forms.runfolder import ArtifactNotFound, FormsError, RunFolder, list_runs
from repro_assets.forms.samples import write_samples
from repro_assets.llm.config import pool_name
from repro_assets.llm.types import LLMClient, LLMError
from repro_assets.partitions import form_runs_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.resources.llm import LLMResource
from repro_assets.storage.blobstore import BlobStore

DEMO_ORDER = 30
GROUP = "forms"
INBOX_SUB = "forms"
ASSET_ARTIFACTS: dict[str, str] = {
    "form_schema": "schema",
    "form_doc_index": "doc_index",
    "form_layout": "layout",
    "form_routing": "routing",
    "form_candidates": "candidates",
    "form_final": "final",
    "form_filled": "review",
}
#: Where the API serves evidence crops (the Dagster UI loads markdown images over http(s)).
API_URL_ENV = "REPRO_API_PUBLIC_URL"
DEFAULT_API_URL = "http://127.0.0.1:8000"


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


def api_url() -> str:
    """Base URL of the project's API as the Dagster UI's browser reaches it."""
    return (os.environ.get(API_URL_ENV) or DEFAULT_API_URL).rstrip("/")


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


def llm_metadata(calls: list[ModelCall], provider: str) -> dict[str, Any]:
    """LLM usage of this execution: provider, calls, tokens, failed calls."""
    return {"llm_provider": provider, "llm_calls_this_run": len(calls),
            "llm_failed_calls": sum(1 for c in calls if c.error),
            "llm_models": ", ".join(sorted({c.model for c in calls})) or "-",
            "llm_input_tokens": sum(c.input_tokens for c in calls),
            "llm_output_tokens": sum(c.output_tokens for c in calls)}


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
def artifact_check(folder: RunFolder, name: str) -> tuple[bool, dict[str, Any]]:
    """The artifact exists and validates against its pydantic model.

    review.json exists only when a target form was fillable; its absence then passes.
    """
    if name == "review" and not folder.has_artifact(name):
        return True, {"artifact": "none (no fillable target form)"}
    try:
        ARTIFACT_ADAPTERS[name].validate_python(folder.read_artifact_raw(name))
    except (FormsError, ValidationError) as exc:
        return False, {"error": str(exc)[:500]}
    return True, {"artifact": folder.artifact_key(name)}


def evidence_violations(final: FinalResult) -> list[str]:
    """Fields whose value is not null but which lack a complete evidence item."""
    bad = []
    for key, item in final.fields.items():
        if item.value is None:
            continue
        if not any(e.doc_id and e.page >= 1 and e.quoted_text.strip() for e in item.evidence):
            bad.append(key)
    return bad


def evidence_check(folder: RunFolder) -> tuple[bool, dict[str, Any]]:
    """Invariant 1: no value without evidence."""
    bad = evidence_violations(folder.read_artifact("final"))
    return not bad, {"fields_without_evidence": ", ".join(bad) or "-"}


def trace_check(folder: RunFolder) -> tuple[bool, dict[str, Any]]:
    """Every required trace step appears at least once."""
    events = folder.read_trace()
    steps = {e.step for e in events}
    missing = [s for s in pipeline.REQUIRED_STEPS if s not in steps]
    return not missing, {"missing_steps": ", ".join(missing) or "-", "events": len(events)}


def filled_check(folder: RunFolder) -> tuple[bool, dict[str, Any]]:
    """filled.pdf holds exactly the written values, each the final value of a filled field,
    and the target form is byte-identical to what was uploaded."""
    if not folder.has_artifact("review"):
        return True, {"filled_pdf": "none (no fillable target form)"}
    report: ReviewReport = folder.read_artifact("review")
    final: FinalResult = folder.read_artifact("final")
    request = folder.read_request()
    problems: list[str] = []
    target = next(t for t in request.target_docs if t.doc_id == report.target_doc_id)
    if hashlib.sha256(folder.read_input(target.stored_as)).hexdigest() != target.sha256:
        problems.append("target_modified")
    try:
        values = read_back(folder.read_binary(FILLED_PDF))
    except ArtifactNotFound:
        return False, {"problems": "filled.pdf missing"}
    written = {w.widget: w for w in report.written}
    for name, text in values.items():
        item = written.get(name)
        if item is None or item.value != text:
            problems.append(f"unexpected_value:{name}")
        elif final.fields[item.field].status != "filled":
            problems.append(f"not_filled_field:{name}")
    problems += [f"value_not_written:{n}" for n in written if n not in values]
    return not problems, {"problems": ", ".join(problems) or "-",
                          "widgets_written": len(written)}


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

forms_job = dg.define_asset_job(
    "forms_job", selection=dg.AssetSelection.groups(GROUP), partitions_def=form_runs_partitions,
    description="Run the form-filling pipeline on one form_runs partition.",
)


# ---------------------------------------------------------------------------- sensor
def ingest_bundle(store: BlobStore, bundle_path: str, fs: Any, source: str,
                  run_id: str | None = None) -> RunFolder:
    """Read a bundle folder and ingest it as a run (new run id unless given)."""
    bundle = read_bundle(fs, bundle_path)
    return pipeline.ingest(store, bundle.input_docs, target_docs=bundle.target_docs,
                           user_schema=bundle.user_schema, options=bundle.options,
                           source=source, run_id=run_id)


@dg.sensor(job=forms_job, minimum_interval_seconds=30,
           default_status=dg.DefaultSensorStatus.RUNNING,
           description="Bundle folders in the inbox's forms/ with a READY marker become runs.")
def forms_dropfolder_sensor(context: dg.SensorEvaluationContext, inbox: DropFolderResource,
                            blob_store: BlobStoreResource) -> dg.SensorResult:
    """Turn every new ready bundle into a ``form_runs`` partition and a run request.

    The cursor maps bundle name -> mtime of its READY marker; a bundle whose marker changes
    becomes a new run. A bad bundle is moved to ``forms/rejected/`` with an ``.error.json``.
    """
    drop = inbox.get_folder()
    drop.ensure(INBOX_SUB)
    seen: dict[str, float] = json.loads(context.cursor) if context.cursor else {}
    store = blob_store.get_store()
    requests, keys, now_seen = [], [], {}
    for entry in drop.list(INBOX_SUB, dirs=True):
        if not is_ready(drop.fs, entry.path):
            continue
        marker = drop.fs.info(f"{entry.path}/{READY_MARKER}")
        raw_stamp = marker.get("mtime") or marker.get("LastModified") or marker.get("created")
        if hasattr(raw_stamp, "timestamp"):
            raw_stamp = raw_stamp.timestamp()
        stamp = float(raw_stamp or entry.mtime or 0)
        now_seen[entry.name] = stamp
        if seen.get(entry.name) == stamp:
            continue
        try:
            folder = ingest_bundle(store, entry.path, drop.fs, f"dropfolder:{entry.name}")
        except (BundleError, FormsError) as exc:
            drop.reject(INBOX_SUB, entry, exc.code, str(exc))
            now_seen.pop(entry.name, None)
            context.log.warning("rejected bundle %s: %s", entry.name, exc)
            continue
        keys.append(folder.run_id)
        requests.append(dg.RunRequest(partition_key=folder.run_id, run_key=folder.run_id,
                                      tags={"forms/bundle": entry.name}))
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[form_runs_partitions.build_add_request(keys)] if keys else [],
        cursor=json.dumps(now_seen, sort_keys=True),
    )


defs = dg.Definitions(
    assets=FORM_ASSETS,
    asset_checks=FORM_CHECKS,
    sensors=[forms_dropfolder_sensor],
    jobs=[forms_job],
)


# ---------------------------------------------------------------------------- show + demo
def _show(name: str) -> Callable[[str | None], Any]:
    def show(partition_key: str | None) -> Any:
        store = BlobStoreResource().get_store()
        run_id = partition_key or next(iter(list_runs(store)), None)
        if run_id is None:
            return None
        return RunFolder(store, run_id).read_artifact_raw(name)
    return show


SHOWS: dict[str, Callable[[str | None], Any]] = {
    asset: _show(artifact) for asset, artifact in ASSET_ARTIFACTS.items()
}


def _sample_run_id(store: BlobStore, name: str, digest: str) -> str | None:
    source = f"sample:{name}:{digest[:16]}"
    for run_id in list_runs(store):
        try:
            if RunFolder(store, run_id).read_request().source == source:
                return run_id
        except (FormsError, ValidationError):
            continue
    return None


def _field_details(bundle: str, final: FinalResult) -> list[str]:
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


def demo(ctx: DemoContext) -> list[DemoRow]:
    """Run every sample bundle in ``data/samples/forms`` as a form run (reused when unchanged)."""
    from repro_assets import settings

    root = settings.samples_dir() / "forms"
    if not root.exists() or not any(root.iterdir()):
        write_samples(root)
    store = BlobStoreResource().get_store()
    import fsspec

    fs = fsspec.filesystem("file")
    rows: list[DemoRow] = []
    for path in sorted(p for p in root.iterdir() if p.is_dir()):
        if not (path / READY_MARKER).exists():
            continue
        bundle = read_bundle(fs, str(path))
        digest = bundle.digest()
        run_id = _sample_run_id(store, path.name, digest)
        folder = pipeline.ingest(store, bundle.input_docs, target_docs=bundle.target_docs,
                                 user_schema=bundle.user_schema, options=bundle.options,
                                 source=f"sample:{path.name}:{digest[:16]}", run_id=run_id)
        ctx.add_partitions(form_runs_partitions.name, [folder.run_id])
        result = ctx.run_job("forms_job", folder.run_id)
        where = folder.ref("artifacts/final.json")  # relative to the blob store root
        if not result.success:
            rows.append(DemoRow("forms", folder.run_id, materialized_count(result), False,
                                failure_message(result), where))
            continue
        final: FinalResult = folder.read_artifact("final")
        statuses = [f.status for f in final.fields.values()]
        figures = (f"{path.name}: {statuses.count('filled')} filled, "
                   f"{statuses.count('needs_review')} review, {statuses.count('missing')} missing")
        if folder.has_artifact("review"):
            review: ReviewReport = folder.read_artifact("review")
            figures += f"; filled.pdf: {len(review.written)} widgets"
        rows.append(DemoRow("forms", folder.run_id, materialized_count(result), True, figures,
                            where, details=_field_details(path.name, final)))
    return rows
