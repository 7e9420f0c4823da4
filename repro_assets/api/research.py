"""Research agent endpoints (seed 004) over the ``research_report`` asset.

* ``POST /api/research/start`` ``{query, privacy_mode, domain, max_cycles}``: adds a
  ``research_sessions`` partition and starts ``research_job`` for it in the background.
* ``GET /api/research/{session_id}/status``: status, phase, counts and saturation metrics.
* ``POST /api/research/{session_id}/stop``: asks the agent to stop after its current step (the
  report is then synthesized from what was collected).
* ``GET /api/research/{session_id}/report``: the exported JSON report.
* ``WS /api/research/{session_id}/ws``: progress messages ``{"type": "progress", phase,
  sources_queried, entities_found, message}`` whenever something changes, then ``{"type":
  "complete", status, result}``; ``{"type": "error", message}`` for an unknown session.

Sessions live in Postgres (``research_sessions`` and ``research_checkpoints``, written by the
agent), never in a process dict, so any API process (or the CLI) can report on any session.
Reading a session first reaps it when its process died (no heartbeat, or its pid is gone), and
the WebSocket also marks a session failed when its Dagster run ended without finishing it: a
dead session is reported ``failed`` and its socket ends.
"""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

from repro_assets import settings
from repro_assets.api.errors import ApiError
from repro_assets.api.runner import JobRunner, get_runner
from repro_assets.api.security import API_KEY_HEADER, key_matches

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/research", tags=["research"])
#: The WebSocket route checks the API key itself (browsers cannot set headers on WebSockets),
#: so it is included without the HTTP ``require_api_key`` dependency.
ws_router = APIRouter(prefix="/api/research", tags=["research"])

SESSION_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
FINAL_STATUSES = ("completed", "stopped", "no_sources", "insufficient_evidence", "failed")
RUNNING_RUN_STATUSES = ("QUEUED", "NOT_STARTED", "STARTING", "STARTED")
#: Dagster run statuses after which a session still marked running can never finish.
DEAD_RUN_STATUSES = ("FAILURE", "CANCELED")
#: Longest wait for the Dagster run to record the report after the session ended (s).
RUN_END_TIMEOUT = 60.0
#: Seconds between two reads of the session row by the WebSocket.
WS_POLL_SECONDS = 0.3
#: Seconds a keyed WebSocket without the header has to send its key as its first message.
WS_AUTH_SECONDS = 10.0


class ResearchRequest(BaseModel):
    """Body of ``POST /start``."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=3, max_length=2000, description="The research question.")
    privacy_mode: Literal["local_only", "cloud_allowed", "hybrid"] = Field(
        default="cloud_allowed",
        description="local_only: the local corpus and no cloud LLM; cloud_allowed/hybrid: "
        "every configured provider.")
    domain: Literal["auto", "academic", "medical", "competitive_intelligence"] = Field(
        default="auto", description="Domain configuration (auto detects it).")
    max_cycles: int = Field(default=6, ge=1, le=20, description="Hard cap on cycles.")


class ResearchStatus(BaseModel):
    """Answer of ``GET /{session_id}/status`` (the seed's ResearchStatus)."""

    model_config = ConfigDict(extra="forbid")

    session_id: str = Field(description="Session id (the research_sessions partition key).")
    status: str = Field(description="queued, running, completed, stopped, no_sources, "
                        "insufficient_evidence or failed.")
    current_phase: str = Field(description="The agent's current node.")
    message: str = Field(description="Plain-language status line.")
    cycles: int = Field(description="Completed research cycles.")
    sources_queried: int = Field(description="Searches made so far (last checkpoint).")
    entities_found: int = Field(description="Entities found so far (last checkpoint).")
    saturation_metrics: dict[str, Any] | None = Field(description="Last cycle's metrics.")
    stop_requested: bool = Field(description="A stop was requested.")
    stop_reason: str | None = Field(description="Why research stopped.")
    report_path: str | None = Field(
        description="Where the exported report is (relative to the data directory).")
    dagster_run_id: str | None = Field(default=None, description="The session's latest run.")
    dagster_run_status: str | None = Field(
        default=None, description="That run's status (STARTED, SUCCESS, FAILURE ...).")


def check_session_id(session_id: str) -> str:
    """Validate a session id.

    Raises:
        ApiError: 400 ``E_INVALID_SESSION_ID``.
    """
    if not SESSION_ID_RE.match(session_id):
        raise ApiError(400, "E_INVALID_SESSION_ID",
                       "session_id: letters, digits, '.', '_' or '-' (at most 128)")
    return session_id


def _store() -> Any:
    from repro_assets.research.store import ResearchStore
    from repro_assets.storage.database import get_database

    return ResearchStore(get_database())


def read_status(session_id: str) -> ResearchStatus | None:
    """The session's status from Postgres (row + latest checkpoint), or None."""
    store = _store()
    store.reap_stale_sessions(session_id=session_id)
    row = store.session(session_id)
    if row is None:
        return None
    checkpoint = store.latest_checkpoint(session_id)
    metrics = None
    if checkpoint is not None and checkpoint.saturation_metrics is not None:
        metrics = checkpoint.saturation_metrics.model_dump(mode="json")
    return ResearchStatus(
        session_id=session_id, status=row["status"], current_phase=row["current_phase"],
        message=row["status_line"], cycles=row["cycles"],
        sources_queried=len(checkpoint.sources_queried) if checkpoint else 0,
        entities_found=len(checkpoint.entities_found) if checkpoint else 0,
        saturation_metrics=metrics, stop_requested=bool(row["stop_requested"]),
        stop_reason=row["stop_reason"], report_path=public_report_path(row["report_key"]),
    )


def public_report_path(location: str | None) -> str | None:
    """A report location fit for an API answer: relative, never the server's file system.

    A location under the data directory is given relative to it; any other absolute path or
    URL only by its last two parts (``<session>/report.md``); a relative key as stored.
    """
    if not location:
        return None
    if "://" in location:
        location = location.split("://", 1)[1].split("/", 1)[-1]
    path = PurePosixPath(location)
    if not path.is_absolute():
        return location
    try:
        return str(path.relative_to(settings.data_dir().resolve()))
    except ValueError:
        return "/".join(path.parts[-2:])


def latest_run(instance: Any, session_id: str) -> tuple[str | None, str | None]:
    """(run id, run status) of the session partition's latest Dagster run, if any."""
    import dagster as dg

    runs = instance.get_runs(
        filters=dg.RunsFilter(tags={"dagster/partition": session_id},
                              job_name="research_job"), limit=1)
    if not runs:
        return None, None
    return runs[0].run_id, runs[0].status.value


def _require(session_id: str) -> ResearchStatus:
    status = read_status(check_session_id(session_id))
    if status is None:
        raise ApiError(404, "E_SESSION_NOT_FOUND", f"no research session {session_id}")
    return status


@router.post("/start", summary="Start a research session (research_job, background)")
def start_research(
    body: ResearchRequest, runner: Annotated[JobRunner, Depends(get_runner)]
) -> dict[str, Any]:
    """Create the session row, add the partition and start ``research_job``."""
    from repro_assets.commands.research import session_id_for
    from repro_assets.partitions import research_sessions_partitions

    session_id = session_id_for(body.query, body.privacy_mode)
    _store().create_session(session_id, body.query, body.privacy_mode, body.domain,
                            body.max_cycles)
    runner.ensure_partition(str(research_sessions_partitions.name), session_id)
    handle = runner.start(
        "research_job", session_id,
        run_config={"ops": {"research_report": {"config": {
            "query": body.query, "privacy_mode": body.privacy_mode, "domain": body.domain,
            "max_cycles": body.max_cycles, "resume": False}}}},
        tags={"repro/api": "POST /api/research/start"},
    )
    return {"session_id": session_id, "status": "started", "dagster_run_id": handle.run_id}


@router.get("/{session_id}/status", summary="Status of a research session",
            response_model=ResearchStatus)
def research_status(
    session_id: str, runner: Annotated[JobRunner, Depends(get_runner)]
) -> ResearchStatus:
    """Read from Postgres (works from any process), with the session's Dagster run."""
    status = _require(session_id)
    status.dagster_run_id, status.dagster_run_status = latest_run(runner.instance, session_id)
    return status


@router.post("/{session_id}/stop", summary="Stop a research session early")
def stop_research(session_id: str) -> dict[str, Any]:
    """Request a stop; the agent synthesizes its report from what it has."""
    status = _require(session_id)
    if status.status in FINAL_STATUSES:
        return {"session_id": session_id, "status": status.status}
    _store().request_stop(session_id)
    return {"session_id": session_id, "status": "stopping"}


@router.get("/{session_id}/report", summary="The exported report of a finished session")
def research_report(session_id: str) -> dict[str, Any]:
    """The report JSON (facts with citations, sources, saturation, stop reason)."""
    from repro_assets.research.views import load_report

    status = _require(session_id)
    try:
        return load_report(session_id)
    except (FileNotFoundError, OSError) as exc:
        raise ApiError(404, "E_REPORT_NOT_FOUND",
                       f"session {session_id} has no report yet ({status.status})") from exc


async def _ws_authorize(websocket: WebSocket) -> bool:
    """Accept the socket if it may follow sessions; else close it (1008) and return False.

    With ``REPRO_API_KEY`` the key comes in the ``X-API-Key`` header or, for browsers (which
    cannot set headers on a WebSocket), in the first message ``{"api_key": "..."}`` within
    :data:`WS_AUTH_SECONDS`. Never in the URL: a query string lands in access logs (the
    site guard removes an ``api_key`` parameter before anything sees it).
    """
    expected = getattr(websocket.app.state, "api_key", None)
    if not expected:
        await websocket.accept()
        return True
    header = websocket.headers.get(API_KEY_HEADER)
    if header is not None:
        if key_matches(header, expected):
            await websocket.accept()
            return True
        await websocket.close(code=1008, reason="missing or invalid API key")
        return False
    await websocket.accept()
    try:
        first = await asyncio.wait_for(websocket.receive_json(), WS_AUTH_SECONDS)
    except (TimeoutError, ValueError, KeyError, WebSocketDisconnect):
        first = None
    given = first.get("api_key") if isinstance(first, dict) else None
    if isinstance(given, str) and key_matches(given, expected):
        return True
    await websocket.close(code=1008, reason="missing or invalid API key")
    return False


def _final_result(session_id: str) -> dict[str, Any] | None:
    from repro_assets.research.views import load_report

    try:
        report = load_report(session_id)
    except (FileNotFoundError, OSError):
        return None
    return {"stop_reason": report.get("stop_reason"), "cycles": report.get("cycles"),
            "facts": len(report.get("facts", [])), "sources": len(report.get("sources", [])),
            "report": report}


def _mark_run_dead(session_id: str, run_id: str | None, run_status: str) -> None:
    """A session whose Dagster run ended without finishing it is failed."""
    store = _store()
    row = store.session(session_id)
    if row and row["status"] in ("queued", "running"):
        store.finish_session(session_id, "failed",
                             f"E_RUN_ENDED: the Dagster run {run_id} ended {run_status} before "
                             "the session finished", None)


async def _run_finished(instance: Any, session_id: str, timeout: float) -> tuple[Any, Any]:
    """Wait (up to ``timeout`` s) until the session's Dagster run has ended."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        run_id, status = await run_in_threadpool(latest_run, instance, session_id)
        if status not in RUNNING_RUN_STATUSES or asyncio.get_running_loop().time() > deadline:
            return run_id, status
        await asyncio.sleep(WS_POLL_SECONDS)


async def progress_socket(
    websocket: WebSocket, session_id: str, instance: Any | None = None
) -> None:
    """Send progress until the session ends (see the module docstring for the messages)."""
    if not await _ws_authorize(websocket):
        return
    if not SESSION_ID_RE.match(session_id):
        await websocket.send_json({"type": "error", "message": "Invalid session id"})
        await websocket.close(code=1008)
        return
    last: tuple[Any, ...] | None = None
    try:
        while True:
            status = await run_in_threadpool(read_status, session_id)
            if status is None:
                await websocket.send_json({"type": "error", "message": "Session not found"})
                break
            key = (status.current_phase, status.message, status.sources_queried,
                   status.entities_found, status.status)
            if key != last:
                last = key
                await websocket.send_json({
                    "type": "progress", "phase": status.current_phase,
                    "sources_queried": status.sources_queried,
                    "entities_found": status.entities_found, "cycles": status.cycles,
                    "message": status.message,
                })
            if status.status in ("queued", "running") and instance is not None:
                run_id, run_status = await run_in_threadpool(latest_run, instance, session_id)
                if run_status in DEAD_RUN_STATUSES:
                    await run_in_threadpool(_mark_run_dead, session_id, run_id, run_status)
                    continue
            if status.status in FINAL_STATUSES:
                run_id = run_status = None
                if instance is not None:  # the report is an asset: wait until it is recorded
                    run_id, run_status = await _run_finished(instance, session_id,
                                                             RUN_END_TIMEOUT)
                result = await run_in_threadpool(_final_result, session_id)
                await websocket.send_json({"type": "complete", "status": status.status,
                                           "stop_reason": status.stop_reason,
                                           "dagster_run_id": run_id,
                                           "dagster_run_status": run_status,
                                           "result": result})
                break
            await asyncio.sleep(WS_POLL_SECONDS)
        await websocket.close()
    except WebSocketDisconnect:
        log.debug("research progress socket for %s closed by the client", session_id)


@ws_router.websocket("/{session_id}/ws")
async def research_ws(websocket: WebSocket, session_id: str) -> None:
    """Progress stream (API key: ``X-API-Key`` header, or a first message ``{"api_key"}``)."""
    try:
        instance = get_runner(websocket).instance  # type: ignore[arg-type]
    except Exception as exc:  # no Dagster instance: still report the session itself
        log.warning("no Dagster instance for the progress socket: %s", exc)
        instance = None
    await progress_socket(websocket, session_id, instance)
