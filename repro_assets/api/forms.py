"""Form-filling endpoints (seed 003 API contract, slice 2 additions).

* ``POST /api/runs`` (multipart): ``input_docs`` files (>= 1, required), ``target_docs`` files,
  ``schema_json`` file (UserSchema), ``options`` JSON text (RunOptions). Ingests the run
  folder, adds the ``form_runs`` partition and runs ``forms_job`` on the project's Dagster
  instance (blocking, in a worker thread), like every other API call: the Dagster UI shows the
  run, its materializations (LLM provider, calls and tokens on ``form_candidates``) and its
  checks. Answers ``{run_id, status, artifacts, dagster_run_id}``; errors 400
  ``no_input_docs`` / ``invalid_options`` / ``invalid_schema_json``, 500 ``run_failed``.
* ``GET /api/runs/{run_id}/artifacts/{name}``: the artifact's JSON (schema, doc_index, layout,
  routing, candidates, final, review) or, for ``filled``, the filled target form (PDF); 400
  ``invalid_artifact_name`` / ``invalid_run_id``, 404 ``artifact_not_found``.
* ``GET /api/runs/{run_id}/evidence/{image}``: a PNG crop of a cited page with the quote
  highlighted (linked from final.json ``evidence_images``).
"""

from __future__ import annotations

import json
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, UploadFile
from fastapi.responses import Response
from pydantic import ValidationError

from repro_assets.api.errors import ApiError
from repro_assets.api.runner import JobRunner, get_runner
from repro_assets.api.services import Services, get_services
from repro_assets.forms.models import FILLED_PDF, RunOptions
from repro_assets.forms.pipeline import UploadedFile, ingest
from repro_assets.forms.runfolder import (
    ArtifactNotFound,
    FormsError,
    InvalidName,
    InvalidUserSchema,
    NoInputDocs,
    RunFolder,
    validate_artifact_name,
    validate_run_id,
)
from repro_assets.papers.pdf import (
    HEADER_WINDOW,
    MAX_PDF_BYTES,
    PDF_MAGIC,
    PaperIngestError,
    validate_pdf,
)

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["forms"])

FORMS_JOB = "forms_job"
PARTITIONS = "form_runs"


def _read(files: list[UploadFile] | None) -> list[UploadedFile]:
    out = []
    for upload in files or []:
        data = upload.file.read()
        if not data and not upload.filename:
            continue  # an empty form part (no file chosen)
        out.append(UploadedFile(filename=upload.filename or "upload", data=data))
    return out


#: Codes of a PDF that must not reach the in-process forms pipeline (it would explode there).
_HOSTILE_PDF_CODES = ("E_PDF_TOO_COMPLEX", "E_PDF_TOO_MANY_PAGES")


def _check_pdfs(files: list[UploadedFile]) -> None:
    """Parse every uploaded PDF first in the limited worker (page cap, content budget, memory
    and CPU limits): a PDF that would explode is refused before the forms pipeline opens it.

    Raises:
        ApiError: 422 ``E_PDF_TOO_COMPLEX`` / ``E_PDF_TOO_MANY_PAGES``.
    """
    for upload in files:
        if upload.data.find(PDF_MAGIC, 0, HEADER_WINDOW) < 0:
            continue
        try:
            validate_pdf(upload.data, max_bytes=max(MAX_PDF_BYTES, len(upload.data)))
        except PaperIngestError as exc:
            if exc.code in _HOSTILE_PDF_CODES:
                raise ApiError(422, exc.code, f"{upload.filename}: {exc.message}") from exc
            # other defects (corrupt, encrypted) are the pipeline's to report, as before


def _artifact_refs(folder: RunFolder) -> dict[str, str]:
    refs = {"schema": folder.ref("artifacts/schema.json"),
            "final": folder.ref("artifacts/final.json")}
    if folder.has_artifact("review"):
        refs |= {"filled": folder.ref(f"artifacts/{FILLED_PDF}"),
                 "review": folder.ref("artifacts/review.json")}
    return refs


def run_job(runner: JobRunner, services: Services, folder: RunFolder) -> str:
    """Run ``forms_job`` for the run's partition on the blob store the API wrote to.

    Returns:
        The Dagster run id.

    Raises:
        ApiError: 500 ``run_failed`` when a step fails.
    """
    runner.ensure_partition(PARTITIONS, folder.run_id)
    config = {"resources": {"blob_store": {"config": {"root": services.blob_store.root}}}}
    outcome = runner.run(FORMS_JOB, folder.run_id, run_config=config,
                         tags={"forms/source": "api"})
    if not outcome.success:
        raise ApiError(500, "run_failed", f"{outcome.code or 'run_failed'}: {outcome.message}",
                       {"status": "failed", "run_id": folder.run_id,
                        "dagster_run_id": outcome.run_id})
    return outcome.run_id


@router.post("/runs", summary="Start a form-filling run")
def create_run(
    services: Annotated[Services, Depends(get_services)],
    runner: Annotated[JobRunner, Depends(get_runner)],
    input_docs: Annotated[list[UploadFile] | None, File(description="Input documents")] = None,
    target_docs: Annotated[list[UploadFile] | None, File(description="Target forms")] = None,
    schema_file: Annotated[UploadFile | None, File(alias="schema_json",
                                                   description="UserSchema JSON file")] = None,
    options: Annotated[str | None, Form(description="RunOptions as JSON")] = None,
) -> dict[str, Any]:
    """Ingest the uploaded documents, run forms_job and return the artifact paths."""
    inputs = _read(input_docs)
    if not inputs:
        raise ApiError(400, "no_input_docs", "input_docs needs at least one file")
    try:
        run_options = RunOptions.model_validate_json(options) if options else RunOptions()
    except ValidationError as exc:
        raise ApiError(400, "invalid_options", f"options is not valid RunOptions: {exc}") \
            from exc
    user_schema = None
    if schema_file is not None:
        raw = schema_file.file.read()
        if raw.strip():
            try:
                user_schema = json.loads(raw)
            except (ValueError, UnicodeDecodeError) as exc:
                raise ApiError(400, "invalid_schema_json",
                               f"schema_json is not JSON: {exc}") from exc
            except RecursionError as exc:
                raise ApiError(400, "invalid_schema_json",
                               "schema_json is nested too deeply") from exc
    targets = _read(target_docs)
    _check_pdfs([*inputs, *targets])
    folder: RunFolder | None = None
    try:
        folder = ingest(services.blob_store, inputs, target_docs=targets,
                        user_schema=user_schema, options=run_options, source="api")
        dagster_run_id = run_job(runner, services, folder)
    except (NoInputDocs, InvalidUserSchema) as exc:
        raise ApiError(400, exc.code, str(exc)) from exc
    except ApiError:
        raise
    except Exception as exc:
        log.exception("form run failed")
        extra = {"status": "failed"} | ({"run_id": folder.run_id} if folder else {})
        code = exc.code if isinstance(exc, FormsError) else "run_failed"
        raise ApiError(500, "run_failed", f"{code}: {exc}", extra) from exc
    return {"run_id": folder.run_id, "status": "completed", "artifacts": _artifact_refs(folder),
            "dagster_run_id": dagster_run_id}


def _folder(services: Services, run_id: str) -> RunFolder:
    try:
        return RunFolder(services.blob_store, validate_run_id(run_id))
    except InvalidName as exc:
        raise ApiError(400, "invalid_run_id", str(exc)) from exc


def _binary(folder: RunFolder, relative: str) -> bytes:
    try:
        return folder.read_binary(relative)
    except InvalidName as exc:
        raise ApiError(400, "invalid_artifact_name", str(exc)) from exc
    except ArtifactNotFound as exc:
        raise ApiError(404, "artifact_not_found", str(exc)) from exc


@router.get("/runs/{run_id}/artifacts/{name}", summary="Get one artifact of a run")
def get_artifact(
    run_id: str, name: str, services: Annotated[Services, Depends(get_services)]
) -> Any:
    """Serve ``artifacts/<name>.json``, or ``artifacts/filled.pdf`` for ``filled``."""
    if name == "filled":
        pdf = _binary(_folder(services, run_id), FILLED_PDF)
        return Response(pdf, media_type="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{run_id}_filled.pdf"'})
    try:
        validate_artifact_name(name)
    except InvalidName as exc:
        raise ApiError(400, "invalid_artifact_name", str(exc)) from exc
    try:
        return _folder(services, run_id).read_artifact_raw(name)
    except ArtifactNotFound as exc:
        raise ApiError(404, "artifact_not_found", str(exc)) from exc


@router.get("/runs/{run_id}/evidence/{image}", summary="Get one evidence crop (PNG)")
def get_evidence_image(
    run_id: str, image: str, services: Annotated[Services, Depends(get_services)]
) -> Response:
    """Serve ``artifacts/evidence/<image>`` (a cited page band with the quote highlighted)."""
    return Response(_binary(_folder(services, run_id), f"evidence/{image}"),
                    media_type="image/png")
