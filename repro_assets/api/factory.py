"""Factory onboarding endpoints (seed 001: ``/api/onboard`` and ``/api/simulate``).

Both run the project's ``factory_job`` on the project's Dagster instance for the document's
``factories`` partition (``<name stem>-<sha256[:10]>``), so the Dagster UI shows what the API
did, with the same assets, checks and storage as the drop-folder sensor and the CLI:

* ``POST /api/onboard`` ``{"text": "...", "name": "line3.txt"}``: stores the text and
  materializes ``factory_text`` → ``factory_config``. 200 with the FactoryConfig, or 422 with the
  ExtractionError: ``{"error": CODE, "message", "stage", "details", "partition",
  "dagster_run_id"}`` (``details`` holds coverage ratios, missing ids, unread sentences ...).
* ``POST /api/simulate`` ``{"config": FactoryConfig}`` or ``{"partition": "<onboarded>"}``, with
  ``"start_hour"`` (0-24, default 0): EDD and SPT schedules (makespan, per-job completion and
  lateness, utilisation, operations) and the Gantt chart's URL. A posted config becomes the
  partition's document (canonical JSON), validated as is by ``factory_config``; an invalid one
  is a 422 ``INVALID_STRUCTURE`` in the same shape as above.
* ``GET /api/factories/{partition}/gantt.png``: the Gantt chart of the latest simulation.

Other errors: 413 ``E_FILE_TOO_LARGE``, 422 ``E_EMPTY_TEXT`` / ``E_BAD_REQUEST``, 404
``E_FACTORY_NOT_FOUND``, 409 ``E_FACTORY_NOT_ONBOARDED``, 500 ``E_RUN_FAILED``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from repro_assets.api.errors import ApiError
from repro_assets.api.runner import JobRunner, RunOutcome, get_runner
from repro_assets.api.services import Services, get_services
from repro_assets.factory.models import ErrorCode, FactoryConfig
from repro_assets.factory.provided import config_document
from repro_assets.factory.store import (
    FactoryNotFound,
    get_config_row,
    get_schedules,
    partition_key_for,
)

router = APIRouter(prefix="/api", tags=["factory"])

JOB = "factory_job"
PARTITIONS = "factories"
MAX_TEXT_BYTES = 200_000  # the factory_text asset's limit
_KEY_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,80}$")
_EXTRACTION_CODES = {code.value for code in ErrorCode}


class OnboardRequest(BaseModel):
    """Body of ``POST /api/onboard``."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="The factory description (free text, UTF-8).")
    name: str = Field(default="onboard.txt", max_length=80,
                      description="A file name for the document; it names the partition.")


class OnboardResponse(BaseModel):
    """Answer of ``POST /api/onboard``."""

    model_config = ConfigDict(extra="forbid")

    partition: str = Field(description="The factories partition of the document.")
    dagster_run_id: str = Field(description="The run that materialized factory_config.")
    method: str = Field(description="heuristic (offline reader) or llm.")
    config: FactoryConfig = Field(description="The extracted FactoryConfig.")
    coverage: dict[str, Any] = Field(description="Detected vs parsed ids (ratios are 1.0).")
    repairs: list[str] = Field(description="Normalization repairs (roundings).")
    warnings: list[str] = Field(description="E.g. machines without steps.")


class SimulateRequest(BaseModel):
    """Body of ``POST /api/simulate``: a configuration or an onboarded partition."""

    model_config = ConfigDict(extra="forbid")

    config: dict[str, Any] | None = Field(default=None, description="A FactoryConfig.")
    partition: str | None = Field(default=None, description="An onboarded factory.")
    start_hour: int = Field(default=0, ge=0, le=24,
                            description="Hour of the day at which the jobs are released.")


class SimulateResponse(BaseModel):
    """Answer of ``POST /api/simulate``."""

    model_config = ConfigDict(extra="forbid")

    partition: str = Field(description="The factories partition simulated.")
    dagster_run_id: str = Field(description="The run that materialized factory_schedule.")
    start_hour: int = Field(description="Release hour used.")
    schedules: list[dict[str, Any]] = Field(
        description="One schedule per dispatch rule (EDD, SPT): makespan, max_lateness, "
        "total_tardiness, late_jobs, utilisation, jobs, operations.")
    gantt_url: str = Field(description="URL of the Gantt chart PNG.")


def _db() -> Any:
    from repro_assets.storage.database import get_database

    return get_database()


def _safe_name(name: str, default: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name.strip()).strip(".-")
    return cleaned or default


def _run_failed(outcome: RunOutcome, partition: str) -> ApiError:
    """The API error of a failed run: the stored ExtractionError when there is one."""
    extra = {"partition": partition, "dagster_run_id": outcome.run_id}
    if outcome.code in _EXTRACTION_CODES:
        try:
            stored = get_config_row(_db(), partition).get("error") or {}
        except FactoryNotFound:
            stored = {}
        return ApiError(422, str(outcome.code), stored.get("message") or outcome.message or "",
                        {"stage": stored.get("stage"), "details": stored.get("details", {}),
                         **extra})
    if outcome.code == "E_FILE_TOO_LARGE":
        return ApiError(413, outcome.code, outcome.message or "", extra)
    code = outcome.code or "E_RUN_FAILED"
    return ApiError(500, "E_RUN_FAILED", f"{code}: {outcome.message}", extra)


def _store_and_run(runner: JobRunner, services: Services, name: str, data: bytes,
                   assets: list[str], run_config: dict[str, Any], route: str,
                   ) -> tuple[str, RunOutcome]:
    """Put the document where ``factory_text`` reads it and run ``factory_job`` for it."""
    key = partition_key_for(name, data)
    blob_key = f"factories/{key}/upload/{name}"
    services.blob_store.write_bytes(blob_key, data)
    runner.ensure_partition(PARTITIONS, key)
    ops = {"factory_text": {"config": {"source_path": services.blob_store.url(blob_key)}},
           **run_config}
    outcome = runner.run(JOB, key, asset_selection=assets, run_config={"ops": ops},
                         tags={"repro/api": route})
    return key, outcome


def _onboard(runner: JobRunner, services: Services, body: OnboardRequest) -> OnboardResponse:
    data = body.text.encode("utf-8")
    if not body.text.strip():
        raise ApiError(422, "E_EMPTY_TEXT", "text is empty")
    if len(data) > MAX_TEXT_BYTES:
        raise ApiError(413, "E_FILE_TOO_LARGE", f"text is {len(data)} bytes "
                       f"(max {MAX_TEXT_BYTES})")
    name = _safe_name(body.name, "onboard.txt")
    key, outcome = _store_and_run(runner, services, name, data,
                                  ["factory_text", "factory_config"], {}, "POST /api/onboard")
    if not outcome.success:
        raise _run_failed(outcome, key)
    row = get_config_row(_db(), key)
    metadata = outcome.materializations.get("factory_config", {})
    return OnboardResponse(
        partition=key, dagster_run_id=outcome.run_id, method=row["method"],
        config=FactoryConfig.model_validate(row["config"]), coverage=row["coverage"],
        repairs=list(row["repairs"]), warnings=list(metadata.get("warnings") or []),
    )


def _simulate(runner: JobRunner, services: Services, body: SimulateRequest,
              ) -> SimulateResponse:
    if (body.config is None) == (body.partition is None):
        raise ApiError(422, "E_BAD_REQUEST", "give either config or partition")
    schedule_config = {"factory_schedule": {"config": {"start_hour": body.start_hour}}}
    if body.config is not None:
        data = config_document(body.config).encode("utf-8")
        key, outcome = _store_and_run(
            runner, services, "config.json", data,
            ["factory_text", "factory_config", "factory_schedule"], schedule_config,
            "POST /api/simulate")
    else:
        key = body.partition or ""
        if not _KEY_RE.match(key):
            raise ApiError(422, "E_BAD_REQUEST", "partition is not a factories partition key")
        try:
            row = get_config_row(_db(), key)
        except FactoryNotFound as exc:
            raise ApiError(404, "E_FACTORY_NOT_FOUND", str(exc)) from exc
        if row["status"] != "ok":
            raise ApiError(409, "E_FACTORY_NOT_ONBOARDED",
                           f"factory {key} failed onboarding with {row['error'].get('code')}",
                           {"partition": key})
        outcome = runner.run(JOB, key, asset_selection=["factory_schedule"],
                             run_config={"ops": schedule_config},
                             tags={"repro/api": "POST /api/simulate"})
    if not outcome.success:
        raise _run_failed(outcome, key)
    schedules = [{k: v for k, v in s.items() if k != "gantt_key"}
                 for s in get_schedules(_db(), key)]
    return SimulateResponse(partition=key, dagster_run_id=outcome.run_id,
                            start_hour=body.start_hour, schedules=schedules,
                            gantt_url=f"/api/factories/{key}/gantt.png")


@router.post("/onboard", response_model=OnboardResponse,
             summary="Free text → FactoryConfig (100% id coverage) or a coded 422")
async def onboard(
    body: OnboardRequest,
    runner: Annotated[JobRunner, Depends(get_runner)],
    services: Annotated[Services, Depends(get_services)],
) -> OnboardResponse:
    """Materialize ``factory_text`` and ``factory_config`` for the text."""
    return await run_in_threadpool(_onboard, runner, services, body)


@router.post("/simulate", response_model=SimulateResponse,
             summary="FactoryConfig (or an onboarded partition) → EDD/SPT schedules + Gantt")
async def simulate(
    body: SimulateRequest,
    runner: Annotated[JobRunner, Depends(get_runner)],
    services: Annotated[Services, Depends(get_services)],
) -> SimulateResponse:
    """Materialize ``factory_schedule`` (and the config, when one is posted)."""
    return await run_in_threadpool(_simulate, runner, services, body)


@router.get("/factories/{partition}/gantt.png", summary="The Gantt chart of a simulation",
            response_class=Response, responses={200: {"content": {"image/png": {}}}})
def gantt(partition: str, services: Annotated[Services, Depends(get_services)]) -> Response:
    """The PNG stored by the latest ``factory_schedule`` run of the partition."""
    if not _KEY_RE.match(partition):
        raise ApiError(422, "E_BAD_REQUEST", "partition is not a factories partition key")
    try:
        gantt_key = get_schedules(_db(), partition)[0]["gantt_key"]
    except FactoryNotFound as exc:
        raise ApiError(404, "E_FACTORY_NOT_FOUND", str(exc)) from exc
    return Response(services.blob_store.read_bytes(gantt_key), media_type="image/png")
