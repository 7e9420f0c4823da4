"""The slice-1 pipeline over a run folder: one function per step, each traced.

Steps (trace ``step`` names): ingest, resolve_schema, index_docs, extract_text, route_docs,
extract_candidates (one event per field, or one ``fields:0`` event), score_select, write_final
(with the evidence crops) and, slice 2, fill_pdf (filled.pdf + review.json when a target is
fillable). Each step reads the artifacts it needs from the run folder, writes its own artifact
atomically and appends one trace event. The Dagster assets call one step each;
:func:`run_pipeline` runs them all (tests, benchmark, evaluation).

Stop-run conditions (seed invariant 4): no input docs (:class:`NoInputDocs`) and an unwritable
run folder (:class:`RunFolderError`); a ``schema_json`` that is no UserSchema is refused at
ingest (:class:`InvalidUserSchema`). Everything else degrades per document or per field.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from repro_assets.forms.acroform import TEXT, classify
from repro_assets.forms.candidates import (
    LLM_FAILURE_REASONS,
    FieldExtraction,
    extract_field,
    forms_client,
)
from repro_assets.forms.evidence_images import QuoteImage
from repro_assets.forms.extract import PDF_MIME, sniff_mime
from repro_assets.forms.fill import plan_fill, review_items, written_widgets
from repro_assets.forms.models import (
    FILLED_PDF,
    Candidate,
    CandidateScores,
    DocIndexItem,
    FieldSpec,
    FinalField,
    FinalResult,
    InputFile,
    LayoutDoc,
    ModelCall,
    ResolvedSchema,
    ReviewReport,
    RoutingEntry,
    RunOptions,
    RunRequest,
    TraceError,
    TraceEvent,
)
from repro_assets.forms.reading import (
    Ask,
    DocumentRefused,
    fill_target,
    read_document,
    target_widgets,
)
from repro_assets.forms.routing import route
from repro_assets.forms.runfolder import (
    FormsError,
    InvalidUserSchema,
    NoInputDocs,
    RunFolder,
    RunFolderError,
    make_run_id,
    utc_ts,
)
from repro_assets.forms.schema import parse_user_schema, resolve_schema
from repro_assets.forms.scoring import Selection, select, sort_candidates
from repro_assets.llm.types import LLMClient
from repro_assets.storage.blobstore import BlobStore

log = logging.getLogger(__name__)

REQUIRED_STEPS = ("ingest", "resolve_schema", "extract_text", "route_docs",
                  "extract_candidates", "score_select", "write_final")
_LLM_REASONS = set(LLM_FAILURE_REASONS.values()) | {"llm_error"}


@dataclass
class StepRecord:
    """What a running step adds to its trace event."""

    inputs_ref: list[str] = field(default_factory=list)
    outputs_ref: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    status: str = "ok"
    error: TraceError | None = None


@contextmanager
def traced(folder: RunFolder, step: str, inputs_ref: list[str] | None = None
           ) -> Iterator[StepRecord]:
    """Time a step and append its trace event (also when it raises)."""
    record = StepRecord(inputs_ref=list(inputs_ref or []))
    started = time.perf_counter()
    try:
        yield record
    except FormsError as exc:
        _append(folder, step, record, started, "error", TraceError(kind=exc.code,
                                                                  message=str(exc)))
        raise
    except Exception as exc:
        _append(folder, step, record, started, "error",
                TraceError(kind=type(exc).__name__, message=str(exc)))
        raise
    _append(folder, step, record, started, record.status, record.error)


def _append(folder: RunFolder, step: str, record: StepRecord, started: float, status: str,
            error: TraceError | None) -> None:
    if record.notes and status == "ok" and any(n.startswith("warn:") for n in record.notes):
        status = "warn"
    try:
        folder.append_trace(TraceEvent(
            ts=utc_ts(), run_id=folder.run_id, step=step, status=status,  # type: ignore[arg-type]
            duration_ms=int((time.perf_counter() - started) * 1000),
            inputs_ref=record.inputs_ref, outputs_ref=record.outputs_ref, error=error,
            notes=record.notes,
        ))
    except RunFolderError:
        if error is None:
            raise
        log.error("could not trace failed step %s of %s", step, folder.run_id)


# ---------------------------------------------------------------------------- ingest
@dataclass
class UploadedFile:
    """A file handed to :func:`ingest` (original name + bytes)."""

    filename: str
    data: bytes


def _ext(filename: str, data: bytes) -> str:
    if data[:1024].lstrip().startswith(b"%PDF-"):
        return ".pdf"
    tail = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return f".{tail}" if tail.isalnum() and len(tail) <= 8 else ".bin"


def _safe_name(filename: str) -> str:
    name = filename.replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch for ch in name if ch.isprintable())[:200] or "unnamed"


def bundle_digest(input_docs: list[UploadedFile], target_docs: list[UploadedFile],
                  user_schema: Any, options: Any) -> str:
    """A content hash of everything a run reads (for idempotent sample runs)."""
    digest = hashlib.sha256()
    for group, files in (("input", input_docs), ("target", target_docs)):
        for item in files:
            digest.update(f"{group}:{_safe_name(item.filename)}:".encode())
            digest.update(hashlib.sha256(item.data).digest())
    digest.update(json.dumps([user_schema, options], sort_keys=True, default=str).encode())
    return digest.hexdigest()


def ingest(
    store: BlobStore,
    input_docs: list[UploadedFile],
    *,
    target_docs: list[UploadedFile] | None = None,
    user_schema: dict[str, Any] | None = None,
    options: RunOptions | None = None,
    source: str = "api",
    run_id: str | None = None,
) -> RunFolder:
    """Create (or re-open) ``runs/<run_id>/`` and copy the inputs into ``input/`` once.

    Raises:
        NoInputDocs: when ``input_docs`` is empty.
        InvalidUserSchema: when ``user_schema`` is not a UserSchema (nothing is written).
        RunFolderError: when the run folder cannot be written.
    """
    if not input_docs:
        raise NoInputDocs("no input documents were provided (input_docs needs >= 1 file)")
    if user_schema is not None:
        parse_user_schema(user_schema)
    folder = RunFolder(store, run_id or make_run_id())
    target_docs = list(target_docs or [])
    with traced(folder, "ingest") as rec:
        if folder.has_input():
            rec.notes.append("input_already_present")
            request = folder.read_request()
        else:
            entries: dict[str, list[InputFile]] = {"input_docs": [], "target_docs": []}
            for group, prefix, files in (("input_docs", "doc", input_docs),
                                         ("target_docs", "target", target_docs)):
                for n, item in enumerate(files, start=1):
                    doc_id = f"{prefix}_{n:03d}"
                    stored = f"input/{group}/{doc_id}{_ext(item.filename, item.data)}"
                    folder.write_input_file(stored.removeprefix("input/"), item.data)
                    entries[group].append(InputFile(
                        doc_id=doc_id, filename=_safe_name(item.filename), stored_as=stored,
                        sha256=hashlib.sha256(item.data).hexdigest(), size=len(item.data)))
            request = RunRequest(
                run_id=folder.run_id, created_at=datetime.now(UTC).isoformat(), source=source,
                input_docs=entries["input_docs"], target_docs=entries["target_docs"],
                user_schema=user_schema, options=options or RunOptions(),
            )
            folder.write_request(request)
        rec.outputs_ref = [folder.ref("input/request.json")] + [
            folder.ref(f.stored_as) for f in request.input_docs + request.target_docs
        ]
    return folder


# ---------------------------------------------------------------------------- steps
def step_resolve_schema(folder: RunFolder) -> ResolvedSchema:
    """resolve_schema -> artifacts/schema.json."""
    request = folder.read_request()
    with traced(folder, "resolve_schema", [folder.ref("input/request.json")] +
                [folder.ref(t.stored_as) for t in request.target_docs]) as rec:
        targets = [(t.doc_id, folder.read_input(t.stored_as)) for t in request.target_docs]
        resolution = resolve_schema(request.user_schema, targets, request.options)
        rec.notes += [f"warn:{w}" for w in resolution.warnings] + resolution.notes
        rec.notes.append(f"schema_source:{resolution.schema.schema_source}")
        rec.outputs_ref.append(folder.write_artifact("schema", resolution.schema))
    return resolution.schema


def _index_one(doc: InputFile, data: bytes) -> DocIndexItem:
    """The doc_index.json entry of one input (its PDF parsed in the limited worker)."""
    mime = sniff_mime(doc.filename, data)
    unreadable = DocIndexItem(doc_id=doc.doc_id, filename=doc.filename, mime_type=mime,
                              pages=None, has_text_layer=False, unreadable_reason="parse_error",
                              sha256=doc.sha256)
    if mime != PDF_MIME:
        return unreadable
    try:
        reading = read_document(data, Ask(doc_id=doc.doc_id, filename=doc.filename,
                                          sha256=doc.sha256, index=True))
    except DocumentRefused as exc:
        log.warning("%s refused: %s: %s", doc.doc_id, exc.code, exc)
        return unreadable.model_copy(update={"error_code": exc.code})
    assert reading.index is not None
    return reading.index


def step_index_docs(folder: RunFolder) -> list[DocIndexItem]:
    """index_docs -> artifacts/doc_index.json (hash, MIME, pages, text-layer probe)."""
    request = folder.read_request()
    with traced(folder, "index_docs", [folder.ref(d.stored_as)
                                       for d in request.input_docs]) as rec:
        items = [_index_one(d, folder.read_input(d.stored_as)) for d in request.input_docs]
        unreadable = [i for i in items if i.unreadable_reason]
        rec.notes += [f"warn:unreadable:{i.doc_id}:{i.unreadable_reason}" for i in unreadable]
        rec.notes += [f"refused:{i.doc_id}:{i.error_code}" for i in unreadable if i.error_code]
        if unreadable:
            first = unreadable[0]
            rec.error = TraceError(
                kind=first.error_code or first.unreadable_reason or "parse_error",
                message=f"{len(unreadable)} of {len(items)} documents have no usable text: "
                        + ", ".join(i.doc_id for i in unreadable))
        rec.outputs_ref.append(folder.write_artifact("doc_index", items))
    return items


def read_text(doc_id: str, data: bytes, *, native: bool = True) -> tuple[LayoutDoc | None, bool]:
    """The text of one input PDF, read in the limited worker: its text layer (``native``),
    else OCR of its pages when the layer is empty or missing.

    Returns:
        The layout (None when nothing was read) and whether it came from OCR.

    Raises:
        DocumentRefused: the worker's coded refusal.
    """
    reading = read_document(data, Ask(doc_id=doc_id, text=True, native=native))
    return reading.layout, reading.ocr


def step_extract_text(folder: RunFolder) -> list[LayoutDoc]:
    """extract_text -> artifacts/layout.json (readable PDFs only).

    A document whose text operators drew only whitespace is marked ``no_text_layer`` in
    doc_index.json here (the index's probe cannot tell); one the PDF worker refused while
    reading its text (a bomb past the pages the probe looked at) is marked ``parse_error``
    with the refusal's ``error_code``.
    """
    request = folder.read_request()
    index = {i.doc_id: i for i in folder.read_artifact("doc_index")}
    stored = {d.doc_id: d.stored_as for d in request.input_docs}
    with traced(folder, "extract_text", [folder.ref(s) for s in stored.values()]) as rec:
        layouts: list[LayoutDoc] = []
        blank: list[str] = []
        read_by_ocr: list[str] = []
        refused: dict[str, str] = {}
        for doc_id, item in index.items():
            if item.unreadable_reason == "parse_error" or item.mime_type != PDF_MIME:
                continue
            try:
                layout, by_ocr = read_text(doc_id, folder.read_input(stored[doc_id]),
                                           native=item.unreadable_reason is None)
                if by_ocr:
                    read_by_ocr.append(doc_id)
                elif layout is None and item.unreadable_reason is None:
                    blank.append(doc_id)
                if layout is not None:
                    layouts.append(layout)
            except RunFolderError:
                raise
            except Exception as exc:  # one unreadable document never stops the run
                log.warning("text extraction of %s failed: %s", doc_id, exc)
                rec.notes.append(f"warn:parse_error:{doc_id}")
                kind = "parse_error"
                if isinstance(exc, DocumentRefused):
                    kind = refused[doc_id] = exc.code
                    rec.notes.append(f"refused:{doc_id}:{exc.code}")
                rec.error = TraceError(kind=kind,
                                       message=f"{doc_id}: {type(exc).__name__}: {exc}")
        rec.notes += [f"ocr:{doc_id}" for doc_id in read_by_ocr]
        rec.notes += [f"warn:no_text_layer:{doc_id}" for doc_id in blank]
        updates: dict[str, dict] = {doc_id: {"has_text_layer": False,
                                             "unreadable_reason": "no_text_layer"}
                                    for doc_id in blank}
        updates |= {doc_id: {"unreadable_reason": None, "text_source": "ocr"}
                    for doc_id in read_by_ocr}
        updates |= {doc_id: {"unreadable_reason": "parse_error", "error_code": code}
                    for doc_id, code in refused.items()}
        if updates:
            fixed = [i.model_copy(update=updates[i.doc_id]) if i.doc_id in updates else i
                     for i in index.values()]
            rec.outputs_ref.append(folder.write_artifact("doc_index", fixed))
        rec.outputs_ref.append(folder.write_artifact("layout", layouts))
    return layouts


def step_route(folder: RunFolder) -> list[RoutingEntry]:
    """route_docs -> artifacts/routing.json."""
    schema: ResolvedSchema = folder.read_artifact("schema")
    layouts: list[LayoutDoc] = folder.read_artifact("layout")
    options = folder.read_request().options
    with traced(folder, "route_docs", [folder.ref("artifacts/schema.json"),
                                       folder.ref("artifacts/layout.json")]) as rec:
        entries = route(schema.resolved_fields, layouts, options.top_k_docs)
        if not layouts:
            rec.notes.append("warn:no_readable_docs")
        rec.outputs_ref.append(folder.write_artifact("routing", entries))
    return entries


def _error_candidate(key: str, exc: BaseException) -> Candidate:
    return Candidate(
        field=key, raw_value="", normalized_value="", evidence=[], from_method="heuristic",
        rejected_reasons=[f"field_error:{type(exc).__name__}"],
        scores=CandidateScores(anchor_match=0.0, validator=0.0, doc_relevance=0.0),
    )


def _llm_failure(candidates: list[Candidate]) -> str | None:
    for cand in candidates:
        if cand.from_method == "llm" and not cand.evidence:
            for reason in cand.rejected_reasons:
                if reason in _LLM_REASONS:
                    return reason
    return None


def select_field(spec: FieldSpec, candidates: list[Candidate], *,
                 no_readable_docs: bool = False) -> Selection:
    """The field's outcome, computed the same way by score_select and write_final."""
    return select(spec, candidates, no_readable_docs=no_readable_docs,
                  llm_failure=_llm_failure(candidates))


@dataclass
class CandidatesStep:
    """What extract_candidates + score_select produced in this execution."""

    candidates: list[Candidate]
    model_calls: list[ModelCall] = field(default_factory=list)
    provider: str = "offline"


def step_candidates(
    folder: RunFolder, client: LLMClient | None, today: date | None = None
) -> CandidatesStep:
    """extract_candidates (one event per field) then score_select -> candidates.json.

    Args:
        folder: the run folder.
        client: the deployment's LLM client (None or offline: heuristics only); the run's
            options choose the model and may require another provider (see
            :func:`repro_assets.forms.candidates.forms_client`).
        today: reference date for the DOB validators.
    """
    schema: ResolvedSchema = folder.read_artifact("schema")
    routing = {r.field: r for r in folder.read_artifact("routing")}
    layouts = {d.doc_id: d for d in folder.read_artifact("layout")}
    options = folder.read_request().options
    llm, unavailable = forms_client(client, options)
    inputs = [folder.ref("artifacts/routing.json"), folder.ref("artifacts/layout.json")]
    contexts: dict = {}
    out = CandidatesStep(candidates=[], provider=llm.provider if llm else "offline")
    per_field: dict[str, list[Candidate]] = {}
    if not schema.resolved_fields:  # the step still happens (and is traced) with no field
        folder.append_trace(TraceEvent(
            ts=utc_ts(), run_id=folder.run_id, step="extract_candidates", status="ok",
            duration_ms=0, inputs_ref=inputs, notes=["fields:0"]))
    for spec in schema.resolved_fields:
        started = time.perf_counter()
        entry = routing.get(spec.key) or RoutingEntry(field=spec.key, doc_ids=[], scores={})
        try:
            result = extract_field(spec, entry, layouts, llm, options.max_llm_tokens, today,
                                   unavailable=unavailable or "llm_offline",
                                   contexts=contexts)
            error = None
        except Exception as exc:  # one field's failure never stops the others
            log.exception("field %s failed", spec.key)
            result = FieldExtraction(field=spec.key, candidates=[_error_candidate(spec.key, exc)])
            error = TraceError(kind="field_error", message=f"{type(exc).__name__}: {exc}")
        per_field[spec.key] = result.candidates
        out.model_calls += result.model_calls
        folder.append_trace(_field_event(folder, spec.key, result, error, inputs, started))
    with traced(folder, "score_select", inputs) as rec:
        ranked: list[Candidate] = []
        for spec in schema.resolved_fields:
            selection = select_field(spec, per_field.get(spec.key, []))
            ranked.extend(selection.candidates)
            rec.notes.append(f"{spec.key}:{selection.final.status}")
        out.candidates = sort_candidates(ranked)
        rec.outputs_ref.append(folder.write_artifact("candidates", out.candidates))
    return out


def _field_event(folder: RunFolder, key: str, result: FieldExtraction, error: TraceError | None,
                 inputs: list[str], started: float) -> TraceEvent:
    notes = [f"heuristic_passes:{result.heuristic_passes}", f"llm_calls:{result.llm_calls}",
             f"candidates:{len(result.candidates)}",
             f"accepted:{sum(c.accepted for c in result.candidates)}"]
    if result.llm_skipped_reason:
        notes.append(f"llm_skipped:{result.llm_skipped_reason}")
        if result.llm_skipped_reason.startswith("llm_provider_unavailable"):
            notes.append(f"warn:{result.llm_skipped_reason}")
    notes += [f"llm:{c.provider}/{c.model}" for c in result.model_calls[:1]]
    if result.llm_failure:
        notes.append(f"warn:{result.llm_failure}")
    status = "error" if error else ("warn" if any(n.startswith("warn:") for n in notes)
                                    else "ok")
    if error is None and result.llm_failure:
        error = TraceError(kind=result.llm_failure, message="LLM extraction failed")
    return TraceEvent(
        ts=utc_ts(), run_id=folder.run_id, step="extract_candidates", field=key,
        status=status, duration_ms=int((time.perf_counter() - started) * 1000),
        inputs_ref=inputs, outputs_ref=[], error=error, model_calls=result.model_calls,
        notes=notes,
    )


def _crops(folder: RunFolder, fields: dict[str, FinalField]
           ) -> tuple[dict[tuple[str, int], QuoteImage], set[str]]:
    """Each cited quote's box and highlighted page crop, one worker task per cited document.

    Returns:
        ``(field, evidence number) -> crop`` and the fields with a quote that could not be
        drawn.
    """
    stored = {d.doc_id: d.stored_as for d in folder.read_request().input_docs}
    cited: dict[str, list[tuple[str, int, int, str]]] = {}
    for key, item in fields.items():
        for number, quote in enumerate(item.evidence, start=1):
            if quote.doc_id in stored:
                cited.setdefault(quote.doc_id, []).append(
                    (key, number, quote.page, quote.quoted_text))
    crops: dict[tuple[str, int], QuoteImage] = {}
    failed: set[str] = set()
    for doc_id, quotes in cited.items():
        try:
            reading = read_document(folder.read_input(stored[doc_id]), Ask(
                quotes=tuple((page, text) for _, _, page, text in quotes)))
        except DocumentRefused as exc:
            log.warning("evidence crops of %s failed: %s: %s", doc_id, exc.code, exc)
            failed.update(key for key, *_ in quotes)
            continue
        for (key, number, _, _), crop in zip(quotes, reading.crops, strict=True):
            if crop is None:
                failed.add(key)
            else:
                crops[(key, number)] = crop
    return crops, failed


def _with_images(folder: RunFolder, key: str, item: FinalField,
                 crops: dict[tuple[str, int], QuoteImage]) -> FinalField:
    """The field with each drawn evidence item's box and the PNG crop of its page."""
    evidence, images = [], []
    for number, quote in enumerate(item.evidence, start=1):
        image = crops.get((key, number))
        if image is None:
            evidence.append(quote)
            continue
        images.append(folder.write_binary(f"evidence/{key}_{number}.png", image.png))
        evidence.append(quote.model_copy(update={"bbox": image.bbox or quote.bbox}))
    return item.model_copy(update={"evidence": evidence, "evidence_images": images})


def step_final(folder: RunFolder) -> FinalResult:
    """write_final -> artifacts/final.json (winner, status, alternatives, evidence crops)."""
    schema: ResolvedSchema = folder.read_artifact("schema")
    candidates: list[Candidate] = folder.read_artifact("candidates")
    index: list[DocIndexItem] = folder.read_artifact("doc_index")
    readable = any(i.unreadable_reason is None for i in index)
    with traced(folder, "write_final", [folder.ref("artifacts/candidates.json"),
                                        folder.ref("artifacts/schema.json")]) as rec:
        fields = {}
        for spec in schema.resolved_fields:
            mine = [c for c in candidates if c.field == spec.key]
            fields[spec.key] = select_field(spec, mine, no_readable_docs=not readable).final
        crops, failed = _crops(folder, fields)
        rec.notes += [f"warn:evidence_image_failed:{key}" for key in fields if key in failed]
        fields = {key: _with_images(folder, key, item, crops) if item.evidence else item
                  for key, item in fields.items()}
        result = FinalResult(run_id=folder.run_id, schema_source=schema.schema_source,
                             fields=fields)
        rec.notes += [f"{k}:{v.status}" for k, v in fields.items()]
        rec.outputs_ref += [ref for v in fields.values() for ref in v.evidence_images]
        rec.outputs_ref.append(folder.write_artifact("final", result))
    return result


def step_fill(folder: RunFolder) -> ReviewReport | None:
    """fill_pdf (slice 2) -> artifacts/filled.pdf + review.json, when a target is fillable.

    The first target with text widgets is filled; the others are reported in the trace.
    Returns None (and writes nothing) when no target is fillable.
    """
    request = folder.read_request()
    final: FinalResult = folder.read_artifact("final")
    with traced(folder, "fill_pdf", [folder.ref("artifacts/final.json")] +
                [folder.ref(t.stored_as) for t in request.target_docs]) as rec:
        chosen = None
        for target in request.target_docs:
            data = folder.read_input(target.stored_as)
            try:
                widgets = target_widgets(data)
            except DocumentRefused as exc:
                rec.notes += [f"warn:target_doc_unreadable:{target.doc_id}",
                              f"refused:{target.doc_id}:{exc.code}"]
                rec.error = TraceError(kind=exc.code, message=f"{target.doc_id}: {exc}")
                continue
            if not any(w.kind == TEXT for w in widgets):
                rec.notes.append(f"not_fillable:{target.doc_id}")
            elif chosen is None:
                chosen = (target, data, widgets)
            else:
                rec.notes.append(f"warn:target_not_filled:{target.doc_id}")
        if chosen is None:
            rec.notes.append("no_fillable_target")
            return None
        target, data, widgets = chosen
        plan = plan_fill([classify(w) for w in widgets], final)
        try:
            filled, failed = fill_target(data, {w.role.widget.name: w.value
                                                for w in plan.writes})
        except DocumentRefused as exc:  # nothing is written: no filled.pdf, no review.json
            rec.notes += [f"warn:target_not_filled:{target.doc_id}",
                          f"refused:{target.doc_id}:{exc.code}"]
            rec.error = TraceError(kind=exc.code, message=f"{target.doc_id}: {exc}")
            return None
        rec.notes += [f"warn:widget_write_failed:{name}" for name in failed]
        filled_ref = folder.write_binary(FILLED_PDF, filled)
        report = ReviewReport(
            run_id=folder.run_id, target_doc_id=target.doc_id, target_sha256=target.sha256,
            form_subject=plan.form_subject, filled_pdf=filled_ref,
            written=written_widgets(plan, failed), needs_review=review_items(plan, final),
            missing=[k for k, v in final.fields.items() if v.status == "missing"],
            skipped=plan.skipped)
        rec.notes += [f"written:{len(report.written)}", f"needs_review:{len(report.needs_review)}",
                      f"form_subject:{report.form_subject or '-'}"]
        rec.outputs_ref += [filled_ref, folder.write_artifact("review", report)]
    return report


@dataclass
class PipelineResult:
    """The outcome of :func:`run_pipeline`."""

    run_id: str
    status: str
    final: FinalResult | None
    error: str | None = None
    code: str | None = None


def run_pipeline(folder: RunFolder, client: LLMClient | None = None,
                 today: date | None = None) -> PipelineResult:
    """Run every step after ingest.

    Raises:
        RunFolderError: when an artifact cannot be written (stop-run).
    """
    step_resolve_schema(folder)
    step_index_docs(folder)
    step_extract_text(folder)
    step_route(folder)
    step_candidates(folder, client, today)
    final = step_final(folder)
    step_fill(folder)
    return PipelineResult(run_id=folder.run_id, status="completed", final=final)


__all__ = [
    "InvalidUserSchema",
    "NoInputDocs",
    "PipelineResult",
    "REQUIRED_STEPS",
    "RunFolderError",
    "UploadedFile",
    "ingest",
    "run_pipeline",
    "step_candidates",
    "step_extract_text",
    "step_fill",
    "step_final",
    "step_index_docs",
    "step_resolve_schema",
    "step_route",
]
