"""Form-filling endpoints (seed 003, slice 1 API contract).

* ``POST /api/runs`` (multipart): ``input_docs`` files (>= 1, required), ``target_docs`` files,
  ``schema_json`` file (UserSchema), ``options`` JSON text (RunOptions). Runs the pipeline
  synchronously in a worker thread and answers ``{run_id, status, artifacts}``; errors
  400 ``no_input_docs`` / ``invalid_options`` / ``invalid_schema_json``, 500 ``run_failed``.
* ``GET /api/runs/{run_id}/artifacts/{name}``: the artifact's JSON; 400
  ``invalid_artifact_name`` / ``invalid_run_id``, 404 ``artifact_not_found``.

Each API run is also recorded as the same ``form_runs`` partition: the partition is added and
one runless materialization per forms asset is reported to the project's Dagster instance with
the same metadata as a job run (see :func:`repro_assets.assets.forms.record_run`), so the UI
shows it without executing the pipeline twice and the request stays short.
"""

from __future__ import annotations

import json
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, UploadFile
from pydantic import ValidationError

from repro_assets.api.errors import ApiError
from repro_assets.api.services import Services, get_services
from repro_assets.forms.candidates import client_or_offline
from repro_assets.forms.models import RunOptions
from repro_assets.forms.pipeline import UploadedFile, ingest, run_pipeline
from repro_assets.forms.runfolder import (
    ArtifactNotFound,
    FormsError,
    InvalidName,
    NoInputDocs,
    RunFolder,
    validate_artifact_name,
    validate_run_id,
)

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["forms"])


def _read(files: list[UploadFile] | None) -> list[UploadedFile]:
    out = []
    for upload in files or []:
        data = upload.file.read()
        if not data and not upload.filename:
            continue  # an empty form part (no file chosen)
        out.append(UploadedFile(filename=upload.filename or "upload", data=data))
    return out


def _record(services: Services, folder: RunFolder) -> bool:
    if not services.record_runs:
        return False
    from repro_assets.assets.forms import record_run

    try:
        record_run(services.instance(), folder)
    except Exception as exc:  # recording is best effort; the run itself is complete
        log.warning("could not record run %s in Dagster: %s", folder.run_id, exc)
        return False
    return True


@router.post("/runs", summary="Start a form-filling run")
def create_run(
    services: Annotated[Services, Depends(get_services)],
    input_docs: Annotated[list[UploadFile] | None, File(description="Input documents")] = None,
    target_docs: Annotated[list[UploadFile] | None, File(description="Target forms")] = None,
    schema_file: Annotated[UploadFile | None, File(alias="schema_json",
                                                   description="UserSchema JSON file")] = None,
    options: Annotated[str | None, Form(description="RunOptions as JSON")] = None,
) -> dict[str, Any]:
    """Run the pipeline on the uploaded documents and return the artifact paths."""
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
    folder: RunFolder | None = None
    try:
        folder = ingest(services.blob_store, inputs, target_docs=_read(target_docs),
                        user_schema=user_schema, options=run_options, source="api")
        run_pipeline(folder, client_or_offline(services.llm_client))
    except NoInputDocs as exc:
        raise ApiError(400, exc.code, str(exc)) from exc
    except Exception as exc:
        log.exception("form run failed")
        extra = {"status": "failed"} | ({"run_id": folder.run_id} if folder else {})
        code = exc.code if isinstance(exc, FormsError) else "run_failed"
        raise ApiError(500, "run_failed", f"{code}: {exc}", extra) from exc
    recorded = _record(services, folder)
    return {
        "run_id": folder.run_id,
        "status": "completed",
        "artifacts": {
            "schema": folder.ref("artifacts/schema.json"),
            "final": folder.ref("artifacts/final.json"),
        },
        "dagster_partition": folder.run_id if recorded else None,
    }


@router.get("/runs/{run_id}/artifacts/{name}", summary="Get one artifact of a run")
def get_artifact(
    run_id: str, name: str, services: Annotated[Services, Depends(get_services)]
) -> Any:
    """Serve ``runs/<run_id>/artifacts/<name>.json``."""
    try:
        validate_artifact_name(name)
    except InvalidName as exc:
        raise ApiError(400, "invalid_artifact_name", str(exc)) from exc
    try:
        folder = RunFolder(services.blob_store, validate_run_id(run_id))
        return folder.read_artifact_raw(name)
    except InvalidName as exc:
        raise ApiError(400, "invalid_run_id", str(exc)) from exc
    except ArtifactNotFound as exc:
        raise ApiError(404, "artifact_not_found", str(exc)) from exc
