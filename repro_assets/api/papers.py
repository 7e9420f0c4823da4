"""Paper reproduction endpoints (seed 000, stages 1-6) over the ``papers`` Dagster assets.

Every call that produces data runs the project's jobs on the project's Dagster instance for the
paper's partition (the paper id), so the Dagster UI shows what the API did:

* ``POST /api/v1/papers/ingest`` (multipart ``file`` + ``title``, or JSON ``url`` + ``title``):
  validate, store the PDF and its ``papers`` row (:func:`repro_assets.papers.ingest.store_paper`),
  add the ``papers`` partition and run ``paper_ingest_job`` (paper_pdf -> paper_pages ->
  paper_chunks -> paper_embeddings).
* ``GET /api/v1/papers/{paper_id}/verify``: the ``reproducibility_verdict`` (materialized on the
  first call or with ``?refresh=true``).
* ``POST /api/v1/papers/{paper_id}/extract``: Server-Sent Events while ``paper_claims``
  materializes (extract_start, file_search_call, token, stage_update, persist_start,
  persist_done, extract_complete; ``error`` on failure).
* ``POST /api/v1/papers/{paper_id}/plan``: materializes ``reproduction_plan`` and returns
  plan_id, plan_version, plan_json, warnings, data_resolution.
* ``POST /api/v1/papers/{paper_id}/reproduce``: starts notebook -> run -> report in the
  background (202); ``GET /api/v1/papers/runs/{run_id}`` follows it.
* ``GET .../notebook``, ``GET .../run``, ``GET .../report``: the stored stage 5-6 results.

Errors use the seed's codes and statuses (:data:`ERROR_STATUS`), in the API's error shape
``{"error": code, "message": ...}``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.datastructures import UploadFile

from repro_assets.api.errors import ApiError
from repro_assets.api.runner import BackgroundRun, JobRunner, RunOutcome, get_runner
from repro_assets.api.services import Services, get_services
from repro_assets.api.workers import fetch_pool
from repro_assets.papers import views
from repro_assets.papers.ingest import fetch_timeout
from repro_assets.papers.pdf import MAX_PDF_BYTES, PaperIngestError, PdfInfo, validate_pdf
from repro_assets.papers.plan_models import ClaimTarget
from repro_assets.partitions import PAPERS
from repro_assets.resources.llm_events import parse_log_message

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/v1/papers", tags=["papers"])

PAPER_ID_RE = re.compile(r"^[0-9a-f]{16}$")
RUN_ID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
PDF_MEDIA_TYPES = {"application/pdf", "application/x-pdf", "application/octet-stream"}
#: Seconds between two reads of a running job's event log (SSE).
POLL_SECONDS = 0.2
#: Run config of a streamed stage: the LLM's answer text reaches the event log (``token``).
STREAMING_LLM = {"resources": {"llm": {"config": {"stream_tokens": True}}}}

#: HTTP status of each error code (seed 000 error tables; unknown codes answer 500).
ERROR_STATUS: dict[str, int] = {
    # stage 1 (ingest)
    "E_UNSUPPORTED_MEDIA_TYPE": 415,
    "E_FETCH_FAILED": 400,
    "E_FETCH_BLOCKED": 400,
    "E_FILE_TOO_LARGE": 413,
    "E_FILESEARCH_INDEX_FAILED": 500,
    "E_DB_INSERT_FAILED": 500,
    "E_PDF_CORRUPT": 422,
    "E_PDF_ENCRYPTED": 422,
    "E_PDF_TOO_MANY_PAGES": 422,
    "E_PDF_TOO_COMPLEX": 422,
    "E_PARTITION_MISMATCH": 500,
    "E_SERVER_BUSY": 503,
    "E_INVALID_REQUEST": 400,
    "E_INVALID_PAPER_ID": 400,
    "E_INVALID_RUN_ID": 400,
    "E_PAPER_NOT_FOUND": 404,
    # stage 2 (verify; codes of the seed's extract table, by analogy)
    "E_VERIFY_GUARDRAIL_FAILED": 422,
    "E_VERIFY_FAILED": 500,
    "E_VERIFY_OPENAI_ERROR": 500,
    "E_VERIFY_NO_OUTPUT": 500,
    # stage 3 (extract)
    "E_EXTRACT_LOW_CONFIDENCE": 422,
    "E_EXTRACT_RUN_FAILED": 500,
    "E_EXTRACT_NO_OUTPUT": 500,
    "E_EXTRACT_OPENAI_ERROR": 500,
    "E_POLICY_CAP_EXCEEDED": 429,
    # stage 4 (plan)
    "E_PLAN_NOT_READY": 404,
    "E_PLAN_OPENAI_ERROR": 500,
    "E_PLAN_RUN_FAILED": 500,
    "E_PLAN_NO_OUTPUT": 500,
    "E_PLAN_SCHEMA_INVALID": 422,
    "E_PLAN_GUARDRAIL_FAILED": 422,
    "E_PLAN_NO_ALLOWED_DATASETS": 422,
    "E_PLAN_CLAIM_NOT_FOUND": 422,
    "E_SCHEMA_FIX_FAILED": 500,
    "E_TWO_STAGE_FAILED": 500,
    # stages 5-6 (notebook, run, report)
    "E_PLAN_NOT_FOUND": 404,
    "E_NOTEBOOK_NOT_FOUND": 404,
    "E_RUN_NOT_FOUND": 404,
    "E_REPORT_NOT_FOUND": 404,
}

#: The error code used when a stage's run fails without a code of its own.
STAGE_FALLBACK_CODE = {
    "ingest": "E_FILESEARCH_INDEX_FAILED",
    "verify": "E_VERIFY_FAILED",
    "extract": "E_EXTRACT_RUN_FAILED",
    "plan": "E_PLAN_RUN_FAILED",
}


def api_error(code: str, message: str, extra: dict[str, Any] | None = None) -> ApiError:
    """An :class:`ApiError` with the status of ``code``."""
    return ApiError(ERROR_STATUS.get(code, 500), code, message, extra)


def check_paper_id(paper_id: str) -> str:
    """Validate a paper id (16 lowercase hex digits, the partition key).

    Raises:
        ApiError: 400 ``E_INVALID_PAPER_ID``.
    """
    if not PAPER_ID_RE.match(paper_id):
        raise api_error("E_INVALID_PAPER_ID",
                        "paper_id must be 16 lowercase hex digits (from the PDF's sha256)")
    return paper_id


def _db() -> Any:
    from repro_assets.storage.database import get_database

    return get_database()


def _require_paper(paper_id: str) -> Any:
    from repro_assets.papers.store import PaperNotFound, get_paper

    try:
        return get_paper(_db(), check_paper_id(paper_id))
    except PaperNotFound as exc:
        raise api_error("E_PAPER_NOT_FOUND", str(exc)) from exc


def _run_failed(outcome: RunOutcome, stage: str) -> ApiError:
    code = outcome.code or STAGE_FALLBACK_CODE[stage]
    message = outcome.message or f"{stage} failed"
    extra: dict[str, Any] = {"dagster_run_id": outcome.run_id}
    for key in ("data_resolution", "stage2_errors", "rejected", "grounded_claims", "guardrail",
                "checklist_verdict"):
        if key in outcome.failure_metadata:
            extra[key] = outcome.failure_metadata[key]
    return api_error(code, message, extra)


# --------------------------------------------------------------------------- stage 1: ingest
class IngestUrlRequest(BaseModel):
    """JSON body of ``POST /ingest``."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="http(s) URL of the PDF (downloaded within one 30 s deadline).",
                     max_length=2048)
    title: str | None = Field(default=None, description="Title (default: the PDF's metadata).",
                              max_length=500)


class IngestResponse(BaseModel):
    """Answer of ``POST /ingest``."""

    model_config = ConfigDict(extra="forbid")

    paper_id: str = Field(description="Paper id (the `papers` partition key).")
    already_exists: bool = Field(description="True when the same PDF was ingested before.")
    vector_store_id: str | None = Field(
        description="pgvector document of the paper (`documents.id`), once embedded.")
    storage_path: str = Field(description="Blob-store key of the PDF.")
    title: str | None = Field(description="Stored title.")
    pages: int | None = Field(description="Page count.")
    chunks: int | None = Field(description="Chunks embedded for search.")
    dagster_run_id: str | None = Field(
        description="The paper_ingest_job run (None when nothing had to be materialized).")


async def _upload_bytes(upload: UploadFile) -> bytes:
    media = (upload.content_type or "").split(";")[0].strip().lower()
    if media not in PDF_MEDIA_TYPES:
        raise api_error("E_UNSUPPORTED_MEDIA_TYPE",
                        f"expected application/pdf, got {media or 'no content type'}")
    if upload.size is not None and upload.size > MAX_PDF_BYTES:
        raise api_error("E_FILE_TOO_LARGE",
                        f"PDF is {upload.size:,} bytes; the limit is {MAX_PDF_BYTES:,} bytes")
    data = await upload.read(MAX_PDF_BYTES + 1)
    if len(data) > MAX_PDF_BYTES:
        raise api_error("E_FILE_TOO_LARGE", f"PDF exceeds the {MAX_PDF_BYTES:,}-byte limit")
    return data


async def _read_ingest_request(request: Request) -> tuple[bytes, str | None, str | None]:
    """(pdf bytes, title, source url) from a multipart or JSON request."""

    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media == "multipart/form-data":
        form = await request.form(max_files=1, max_fields=5)
        upload = form.get("file")
        title = form.get("title")
        if not isinstance(upload, UploadFile):
            raise api_error("E_INVALID_REQUEST", "multipart body needs a 'file' part (the PDF)")
        try:
            data = await _upload_bytes(upload)
        finally:
            await form.close()
        return data, (title.strip() or None) if isinstance(title, str) else None, None
    if media == "application/json":
        try:
            body = IngestUrlRequest.model_validate_json(await request.body())
        except ValueError as exc:
            raise api_error("E_INVALID_REQUEST", f"expected {{url, title}}: {exc}") from exc
        if not body.url.startswith(("http://", "https://")):
            raise api_error("E_FETCH_FAILED", "url must be an http(s) URL")
        try:  # in the bounded fetch pool: a slow server never holds the shared threads
            data = await fetch_pool(request).run(
                _fetch_until, body.url, time.monotonic() + fetch_timeout())
        except PaperIngestError as exc:
            raise api_error(exc.code, exc.message) from exc
        return data, body.title, body.url
    raise api_error("E_UNSUPPORTED_MEDIA_TYPE",
                    "send multipart/form-data (file, title) or application/json (url, title)")


def _fetch_until(url: str, end: float) -> bytes:
    """Fetch ``url`` by ``end`` (``time.monotonic()``): the deadline counts from when the
    request was accepted, so time spent waiting for a fetch worker is part of it.

    Raises:
        PaperIngestError: E_FETCH_FAILED past the deadline, or the fetch's own codes.
    """
    from repro_assets import net
    from repro_assets.papers.ingest import read_source

    left = end - time.monotonic()
    if left <= 0:
        raise PaperIngestError("E_FETCH_FAILED",
                               f"GET {url} not started within the {fetch_timeout():g}s deadline")
    with net.deadline(left):
        return read_source(url)


def _ingest(runner: JobRunner, services: Services, data: bytes, title: str | None,
            url: str | None) -> IngestResponse:
    """Single-flight ingest per content: identical concurrent uploads wait for the first one,
    which validates, stores and runs ``paper_ingest_job``; they then find its result (one
    paper, one run, one ``already_exists: false``)."""
    from repro_assets.papers.ingest import single_flight, store_paper
    from repro_assets.papers.store import find_paper_by_sha256

    sha = hashlib.sha256(data).hexdigest()
    db = _db()
    with single_flight(db, sha):
        existing = find_paper_by_sha256(db, sha)
        if existing is None:
            try:
                info = validate_pdf(data)
            except PaperIngestError as exc:
                raise api_error(exc.code, exc.message) from exc
        else:  # the same bytes were validated when first stored
            info = PdfInfo(sha256=sha, paper_id=existing.id, byte_size=len(data),
                           page_count=existing.page_count or 0,
                           metadata_title=existing.title)
        try:
            stored = store_paper(db, services.blob_store, data, title=title, source_url=url,
                                 info=info)
        except PaperIngestError as exc:
            raise api_error(exc.code, exc.message) from exc
        paper_id = stored.paper_id
        runner.ensure_partition(PAPERS, paper_id)
        embedded = runner.latest_materialization("paper_embeddings", paper_id)
        run_id = None
        if existing is None or existing.status != "indexed" or embedded is None:
            # the asset re-validates the stored blob (empty source) and takes it to pgvector
            outcome = runner.run(
                "paper_ingest_job", paper_id,
                run_config={"ops": {"paper_pdf": {"config": {"source": "",
                                                             "title": title or ""}}}},
                tags={"repro/api": "POST /api/v1/papers/ingest"},
            )
            if not outcome.success:
                raise _run_failed(outcome, "ingest")
            run_id = outcome.run_id
            embedded = outcome.materializations.get("paper_embeddings")
    chunks = runner.latest_materialization("paper_chunks", paper_id)
    document_id = (embedded or {}).get("document_id")
    return IngestResponse(
        paper_id=paper_id, already_exists=existing is not None or stored.already_exists,
        vector_store_id=f"pgvector:{document_id}" if document_id is not None else None,
        storage_path=stored.storage_path, title=stored.title, pages=stored.page_count,
        chunks=(chunks or {}).get("chunks"), dagster_run_id=run_id,
    )


@router.post(
    "/ingest",
    summary="Ingest a PDF (multipart upload or JSON url) and materialize it",
    response_model=IngestResponse,
    openapi_extra={"requestBody": {"required": True, "content": {
        "multipart/form-data": {"schema": {"type": "object", "required": ["file"], "properties": {
            "file": {"type": "string", "format": "binary", "description": "The PDF (<= 15 MiB)"},
            "title": {"type": "string"}}}},
        "application/json": {"schema": IngestUrlRequest.model_json_schema()},
    }}},
)
async def ingest_paper(
    request: Request,
    services: Annotated[Services, Depends(get_services)],
    runner: Annotated[JobRunner, Depends(get_runner)],
) -> IngestResponse:
    """Validate, dedup by sha256, store and run ``paper_ingest_job`` for the paper's partition.

    Errors: 415 E_UNSUPPORTED_MEDIA_TYPE, 413 E_FILE_TOO_LARGE, 400 E_FETCH_FAILED,
    422 E_PDF_CORRUPT / E_PDF_ENCRYPTED, 500 E_FILESEARCH_INDEX_FAILED / E_DB_INSERT_FAILED.
    """
    data, title, url = await _read_ingest_request(request)
    return await run_in_threadpool(_ingest, runner, services, data, title, url)


@router.get("/{paper_id}", summary="A paper's record and the latest materialization per stage")
def get_paper_status(
    paper_id: str, runner: Annotated[JobRunner, Depends(get_runner)]
) -> dict[str, Any]:
    """The ``papers`` row and, per asset, the latest materialization's run and time."""
    paper = _require_paper(paper_id)
    stages = {}
    for asset in ("paper_pdf", "paper_pages", "paper_chunks", "paper_embeddings",
                  "reproducibility_verdict", "paper_claims", "reproduction_plan",
                  "reproduction_notebook", "reproduction_run", "reproduction_report"):
        mat = runner.latest_materialization(asset, paper_id)
        stages[asset] = ({"dagster_run_id": mat["_run_id"], "timestamp": mat["_timestamp"]}
                         if mat else None)
    return {"paper": paper.model_dump(mode="json"), "stages": stages}


# --------------------------------------------------------------------------- stage 2: verify
@router.get("/{paper_id}/verify", summary="Is the paper reproducible? (reproducibility_verdict)")
def verify_paper(
    paper_id: str,
    runner: Annotated[JobRunner, Depends(get_runner)],
    refresh: Annotated[bool, Query(description="Re-materialize even if a verdict exists.")] = False,
) -> dict[str, Any]:
    """Return the stored verdict, materializing ``reproducibility_verdict`` when needed.

    Errors (when the LLM verifier was asked and failed; the offline checklist's verdict is in
    ``checklist_verdict``): 500 E_VERIFY_OPENAI_ERROR / E_VERIFY_NO_OUTPUT, 429
    E_POLICY_CAP_EXCEEDED, 422 E_VERIFY_GUARDRAIL_FAILED.
    """
    from repro_assets.papers.verdict import load_verdict

    _require_paper(paper_id)
    verdict = None if refresh else load_verdict(_db(), paper_id)
    run_id = None
    if verdict is None:
        outcome = runner.run("paper_analysis_job", paper_id,
                             asset_selection=["reproducibility_verdict"],
                             tags={"repro/api": "GET /api/v1/papers/{id}/verify"})
        if not outcome.success:
            raise _run_failed(outcome, "verify")
        run_id = outcome.run_id
        verdict = load_verdict(_db(), paper_id)
        if verdict is None:
            raise api_error("E_VERIFY_FAILED", "the verdict was not stored")
    return {**verdict.model_dump(mode="json"), "dagster_run_id": run_id}


# --------------------------------------------------------------------------- stage 3: extract
def _sse(event: str, data: dict[str, Any]) -> ServerSentEvent:
    return ServerSentEvent(data=json.dumps(data, default=str), event=event)


def _log_event(step: str, message: str, level: int | None) -> ServerSentEvent:
    """The SSE event of one log line of the run (see :mod:`repro_assets.resources.llm_events`).

    An LLM tool call of ``search_paper`` (the seed's ``file_search``) is a ``file_search_call``,
    streamed answer text is ``token``, anything else (other tools, the step's own log lines) a
    ``stage_update``.
    """
    parsed = parse_log_message(message)
    if parsed is None:
        return _sse("stage_update", {"stage": step, "status": "log", "message": message,
                                     "level": logging.getLevelName(level or logging.INFO)})
    kind, data = parsed
    if kind == "token":
        return _sse("token", {"delta": data["delta"], "stage": step})
    arguments = data["arguments"] if isinstance(data["arguments"], dict) else {}
    if data["name"] in ("search_paper", "file_search"):
        return _sse("file_search_call", {"query": str(arguments.get("query", "")),
                                         "k": arguments.get("k"), "stage": step})
    return _sse("stage_update", {"stage": step, "status": "tool_call", "tool": data["name"],
                                 "arguments": arguments})


def map_event(entry: Any) -> list[ServerSentEvent]:
    """SSE events for one Dagster event-log entry of the extract run."""
    event = entry.dagster_event
    step = entry.step_key
    if event is None:
        message = entry.user_message or ""
        if not step or not message:
            return []
        return [_log_event(step, message, getattr(entry, "level", None))]
    kind = event.event_type_value
    if kind == "STEP_START":
        return [_sse("stage_update", {"stage": step, "status": "started"})]
    if kind == "STEP_SUCCESS":
        return [_sse("stage_update", {"stage": step, "status": "succeeded"})]
    if kind == "STEP_FAILURE":
        return [_sse("stage_update", {"stage": step, "status": "failed"})]
    if kind == "ASSET_CHECK_EVALUATION":
        data = event.event_specific_data
        return [_sse("stage_update", {"stage": step, "status": "checked",
                                      "check": data.check_name, "passed": data.passed})]
    if kind == "ASSET_MATERIALIZATION":
        mat = event.event_specific_data.materialization
        meta = {k: getattr(v, "value", v) for k, v in mat.metadata.items()}
        return [_sse("persist_start", {
            "asset": mat.asset_key.to_user_string(), "claims_count": meta.get("claims"),
            "method": meta.get("method")})]
    return []


async def extract_stream(runner: JobRunner, paper_id: str) -> AsyncIterator[ServerSentEvent]:
    """Run ``paper_claims`` for the paper and stream what happens as SSE events."""
    from repro_assets.papers.claims import load_claims

    handle: BackgroundRun = runner.start(
        "paper_analysis_job", paper_id, asset_selection=["paper_claims"],
        run_config=STREAMING_LLM, tags={"repro/api": "POST /api/v1/papers/{id}/extract"})
    yield _sse("extract_start", {"paper_id": paper_id, "dagster_run_id": handle.run_id})
    cursor = 0
    while True:
        finished = handle.done.is_set()
        entries, cursor = await run_in_threadpool(runner.records, handle.run_id, cursor)
        for entry in entries:
            for sse in map_event(entry):
                yield sse
        if finished:
            break
        await asyncio.sleep(POLL_SECONDS)
    outcome = handle.outcome
    assert outcome is not None
    if not outcome.success:
        error = _run_failed(outcome, "extract")
        yield _sse("error", {**error.body(), "status": error.status_code})
        return
    claims = await run_in_threadpool(load_claims, _db(), paper_id)
    meta = outcome.materializations.get("paper_claims", {})
    yield _sse("persist_done", {"claims_count": len(claims), "dagster_run_id": outcome.run_id})
    yield _sse("extract_complete", {
        "paper_id": paper_id, "claims": [c.model_dump(mode="json") for c in claims],
        "rejected": meta.get("rejected"), "method": meta.get("method"),
        "dagster_run_id": outcome.run_id,
    })


@router.post(
    "/{paper_id}/extract",
    summary="Extract grounded claims (paper_claims) as Server-Sent Events",
    response_class=EventSourceResponse,
    responses={200: {"content": {"text/event-stream": {}},
                     "description": "events: extract_start, file_search_call, token, "
                     "stage_update, persist_start, persist_done, extract_complete, error"}},
)
def extract(
    paper_id: str, runner: Annotated[JobRunner, Depends(get_runner)]
) -> EventSourceResponse:
    """Materialize ``paper_claims`` and stream its progress; ``error`` carries code + status."""
    paper = _require_paper(paper_id)
    if paper.status != "indexed":
        raise api_error("E_PLAN_NOT_READY", f"paper {paper_id} is {paper.status}, not indexed; "
                        "ingest it first")
    return EventSourceResponse(extract_stream(runner, paper_id), ping=15)


# --------------------------------------------------------------------------- stage 4: plan
class PlanRequest(BaseModel):
    """Body of ``POST /{paper_id}/plan``."""

    model_config = ConfigDict(extra="forbid")

    claims: list[ClaimTarget] = Field(
        default_factory=list, max_length=100,
        description="Claims to reproduce: the plan targets the first one that matches a grounded "
        "claim (default: the paper's headline claim).")
    budget_minutes: int = Field(default=10, ge=1, le=1440,
                                description="CPU budget (the guardrail allows <= 20).")


class PlanResponse(BaseModel):
    """Answer of ``POST /{paper_id}/plan`` (seed stage 4, step 11)."""

    model_config = ConfigDict(extra="forbid")

    plan_id: str = Field(description="Plan id.")
    plan_version: str = Field(description="Always 1.1.")
    plan_json: dict[str, Any] = Field(description="The Plan JSON v1.1.")
    warnings: list[str] = Field(description="Sanitizer, resolution and request notes.")
    data_resolution: dict[str, Any] = Field(description="Dataset resolution outcome.")
    method: str = Field(description="heuristic or llm.")
    dagster_run_id: str = Field(description="The run that materialized reproduction_plan.")


def _plan(runner: JobRunner, paper_id: str, body: PlanRequest) -> PlanResponse:
    from repro_assets.papers.claims import load_claims
    from repro_assets.papers.plan_store import load_latest_plan

    if not load_claims(_db(), paper_id):
        raise api_error("E_PLAN_NOT_READY", f"paper {paper_id} has no grounded claims yet; "
                        "POST /extract first")
    outcome = runner.run(
        "paper_analysis_job", paper_id, asset_selection=["reproduction_plan"],
        run_config={"ops": {"reproduction_plan": {"config": {
            "budget_minutes": body.budget_minutes,
            "claims": [c.model_dump() for c in body.claims]}}}},
        tags={"repro/api": "POST /api/v1/papers/{id}/plan"},
    )
    if not outcome.success:
        raise _run_failed(outcome, "plan")
    result = load_latest_plan(_db(), paper_id)
    if result is None:
        raise api_error("E_PLAN_NO_OUTPUT", "the plan was not stored")
    return PlanResponse(
        plan_id=result.plan_id, plan_version=result.plan_version,
        plan_json=result.plan.model_dump(mode="json"), warnings=result.warnings,
        data_resolution=result.data_resolution.model_dump(mode="json"), method=result.method,
        dagster_run_id=outcome.run_id,
    )


@router.post("/{paper_id}/plan", summary="Plan JSON v1.1 (materializes reproduction_plan)",
             response_model=PlanResponse)
def plan(
    paper_id: str, body: PlanRequest, runner: Annotated[JobRunner, Depends(get_runner)]
) -> PlanResponse:
    """Errors: 404 E_PLAN_NOT_READY, 422 E_PLAN_SCHEMA_INVALID / E_PLAN_GUARDRAIL_FAILED /
    E_PLAN_NO_ALLOWED_DATASETS / E_PLAN_CLAIM_NOT_FOUND, 429 E_POLICY_CAP_EXCEEDED,
    500 E_PLAN_* (seed table)."""
    _require_paper(paper_id)
    return _plan(runner, paper_id, body)


# --------------------------------------------------------------------------- stages 5-6
REPRODUCTION_ASSETS = ["reproduction_notebook", "reproduction_run", "reproduction_report"]
#: Reproduction runs this process started (their outcome; the instance has the rest).
_BACKGROUND: dict[str, tuple[str, BackgroundRun]] = {}
MAX_TRACKED_RUNS = 200


@router.post("/{paper_id}/reproduce", status_code=202,
             summary="Start notebook -> run -> report for the latest plan (background run)")
def reproduce(
    paper_id: str, runner: Annotated[JobRunner, Depends(get_runner)]
) -> dict[str, Any]:
    """Start ``papers_job`` on the three reproduction assets; follow ``GET /runs/{run_id}``."""
    from repro_assets.papers.plan_store import load_latest_plan

    _require_paper(paper_id)
    if load_latest_plan(_db(), paper_id) is None:
        raise api_error("E_PLAN_NOT_FOUND", f"paper {paper_id} has no plan; POST /plan first")
    handle = runner.start("papers_job", paper_id, asset_selection=REPRODUCTION_ASSETS,
                          tags={"repro/api": "POST /api/v1/papers/{id}/reproduce"})
    _BACKGROUND[handle.run_id] = (paper_id, handle)
    while len(_BACKGROUND) > MAX_TRACKED_RUNS:  # oldest first (dicts keep insertion order)
        _BACKGROUND.pop(next(iter(_BACKGROUND)))
    return {"paper_id": paper_id, "dagster_run_id": handle.run_id, "status": "started",
            "status_url": f"/api/v1/papers/runs/{handle.run_id}"}


@router.get("/runs/{run_id}", summary="Status of a Dagster run the API started")
def run_status(run_id: str, runner: Annotated[JobRunner, Depends(get_runner)]) -> dict[str, Any]:
    """The run's status from the instance (and the outcome when this process ran it)."""
    if not RUN_ID_RE.match(run_id):
        raise api_error("E_INVALID_RUN_ID", "run_id must be a uuid")
    run = runner.instance.get_run_by_id(run_id)
    local = _BACKGROUND.get(run_id)
    if run is None and local is None:
        raise api_error("E_RUN_NOT_FOUND", f"no run {run_id}")
    answer: dict[str, Any] = {
        "dagster_run_id": run_id,
        "status": run.status.value if run is not None else "STARTING",
        "job_name": run.job_name if run is not None else None,
        "partition": run.tags.get("dagster/partition") if run is not None else None,
    }
    if local is not None and local[1].done.is_set() and local[1].outcome is not None:
        outcome = local[1].outcome
        answer.update(success=outcome.success, materialized=sorted(outcome.materializations),
                      error=outcome.code, message=outcome.message)
    return answer


def _show(show: Callable[[str], Any], paper_id: str) -> Any:
    _require_paper(paper_id)
    try:
        return show(paper_id)
    except Exception as exc:
        code = getattr(exc, "code", None)
        if code in ERROR_STATUS:
            raise api_error(code, str(exc)) from exc
        raise


@router.get("/{paper_id}/notebook", summary="The generated notebook (reproduction_notebook)")
def get_notebook(paper_id: str) -> dict[str, Any]:
    """Notebook id, plan id, papermill parameters, warnings and the notebook JSON."""
    return _show(views.show_notebook, paper_id)


@router.get("/{paper_id}/run", summary="The latest run's metrics (reproduction_run)")
def get_run(paper_id: str) -> dict[str, Any]:
    """Status, metrics, per-epoch history and plot URLs of the latest run."""
    details = _show(views.show_run, paper_id)
    if not details or details.get("status") == "missing":
        raise api_error("E_RUN_NOT_FOUND", f"paper {paper_id} has no reproduction run yet")
    return details


@router.get("/{paper_id}/report", summary="The reproduction report (reproduction_report)")
def get_report(paper_id: str) -> dict[str, Any]:
    """Claimed vs achieved, verdict and explanations of the latest report."""
    report = _show(views.show_report, paper_id)
    if report is None:
        raise api_error("E_REPORT_NOT_FOUND", f"paper {paper_id} has no report yet")
    return report
