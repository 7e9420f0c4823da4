"""Scholarly debate endpoints (seed 002) over the ``debate_transcript`` asset.

* ``POST /api/stream`` ``{question, history, url}``: streams the debate as plain text; status
  control lines are ``[[STATUS]] <message>\\n``, everything else is response text to append.
  The session id is in the ``X-Debate-Session`` header.
* ``POST /api/ask``: the same debate, answered as one JSON payload when it has ended.
* ``POST /api/interrupt``: sets the running debate's stop flag; it ends with
  "=== Debate Interrupted ===" (the transcript so far is kept).
* ``GET /api/debates/{session_id}``: a stored transcript.

Only one debate runs at a time: a second request gets 409 ``E_DEBATE_BUSY`` (in this process
from the API's own registry, across processes from the debate's Postgres advisory lock).

Each debate is a run of ``debate_job`` for a new ``debates`` partition on the project's Dagster
instance; the API registers an in-process observer for the session
(:func:`repro_assets.debate.session.observe_session`) so the asset streams its events here and
polls the API's stop flag.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from repro_assets.api.errors import ApiError
from repro_assets.api.runner import JobRunner, RunOutcome, get_runner
from repro_assets.api.services import Services, app_singleton, get_services

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["debate"])

SESSION_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
BUSY = "E_DEBATE_BUSY"


class HistoryMessage(BaseModel):
    """One earlier chat message."""

    model_config = ConfigDict(extra="forbid")

    role: str = Field(description="user or assistant.", max_length=20)
    content: str = Field(description="Message text.", max_length=20_000)


class DebateRequest(BaseModel):
    """Body of ``/api/stream`` and ``/api/ask`` (the seed's request)."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=3, max_length=4000, description="The user's question.")
    history: list[str | HistoryMessage] = Field(
        default_factory=list, max_length=50,
        description="Earlier messages, oldest first (strings or {role, content}).")
    url: str | None = Field(default=None, max_length=2048,
                            description="Optional URL the user referenced.")
    max_turns: int | None = Field(default=None, ge=1, le=40,
                                  description="Most responses (default DEBATE_MAX_TURNS).")

    def history_lines(self) -> list[str]:
        """History as ``role: content`` strings (what the debate settings take)."""
        return [m if isinstance(m, str) else f"{m.role}: {m.content}" for m in self.history]


@dataclass
class ActiveDebate:
    """The debate this process is running."""

    session_id: str
    stop: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    outcome: RunOutcome | None = None


class DebateManager:
    """One debate at a time in this process; the asset's advisory lock covers the others."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.active: ActiveDebate | None = None

    def begin(self, session_id: str) -> ActiveDebate:
        """Register a new debate.

        Raises:
            ApiError: 409 ``E_DEBATE_BUSY`` when one is running.
        """
        with self._lock:
            if self.active is not None and not self.active.done.is_set():
                raise busy(self.active.session_id)
            self.active = ActiveDebate(session_id=session_id)
            return self.active

    def interrupt(self) -> ActiveDebate | None:
        """Set the running debate's stop flag; returns it (None when idle)."""
        with self._lock:
            active = self.active
        if active is None or active.done.is_set():
            return None
        active.stop.set()
        return active


def busy(session_id: str | None = None) -> ApiError:
    """The 409 answer."""
    extra = {"session_id": session_id} if session_id else None
    return ApiError(409, BUSY, "another debate is already running; only one runs at a time",
                    extra)


def get_manager(request: Request) -> DebateManager:
    """FastAPI dependency: the app's :class:`DebateManager`."""
    return app_singleton(request, "debate_manager", DebateManager)


_DONE = object()


def streams_tokens() -> bool:
    """True when the debate asset can stream model tokens (``DebateConfig.stream``)."""
    from repro_assets.assets.debate import DebateConfig

    return "stream" in DebateConfig.model_fields


def _run_config(body: DebateRequest) -> dict[str, Any]:
    config: dict[str, Any] = {"question": body.question, "history": body.history_lines(),
                              "url": body.url or ""}
    if streams_tokens():
        config["stream"] = True
    if body.max_turns:
        config["max_turns"] = body.max_turns
    return {"ops": {"debate_transcript": {"config": config}}}


def start_debate(
    runner: JobRunner, manager: DebateManager, body: DebateRequest, sink: Any
) -> ActiveDebate:
    """Start ``debate_job`` for a new session in a worker thread.

    ``sink(item)`` receives every :class:`~repro_assets.debate.loop.DebateEvent` and finally the
    ``_DONE`` marker (from the worker thread).
    """
    from repro_assets.debate.session import observe_session, session_id_for
    from repro_assets.jobs import DEBATE_RUN_TAGS
    from repro_assets.partitions import debates_partitions

    session_id = session_id_for(body.question)
    active = manager.begin(session_id)

    def work() -> None:
        try:
            runner.ensure_partition(str(debates_partitions.name), session_id)
            with observe_session(session_id, sink, active.stop.is_set):
                active.outcome = runner.run(
                    "debate_job", session_id, run_config=_run_config(body),
                    tags={**DEBATE_RUN_TAGS, "repro/api": "POST /api/stream"})
        except Exception as exc:  # storage or config trouble outside the step
            log.exception("debate %s crashed", session_id)
            active.outcome = RunOutcome(run_id="", success=False, code="E_DEBATE_FAILED",
                                        message=str(exc))
        finally:
            active.done.set()
            sink(_DONE)

    threading.Thread(target=work, name=f"debate-{session_id}", daemon=True).start()
    return active


def _failure(active: ActiveDebate) -> ApiError:
    outcome = active.outcome
    code = (outcome.code if outcome else None) or "E_DEBATE_FAILED"
    if code == BUSY:
        return busy()
    status = 400 if code == "E_DEBATE_CONFIG" else 500
    message = (outcome.message if outcome else None) or "the debate failed"
    return ApiError(status, code, message, {"session_id": active.session_id,
                                            "dagster_run_id": outcome.run_id if outcome else None})


@router.post(
    "/stream",
    summary="Stream a two-scientist debate (text with [[STATUS]] control lines)",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "the streamed debate"},
               409: {"description": "E_DEBATE_BUSY: a debate is already running"}},
)
async def stream(
    body: DebateRequest,
    runner: Annotated[JobRunner, Depends(get_runner)],
    manager: Annotated[DebateManager, Depends(get_manager)],
) -> StreamingResponse:
    """Start a debate and stream it; a client disconnect interrupts it."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Any] = asyncio.Queue()

    def sink(item: Any) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, item)

    active = start_debate(runner, manager, body, sink)
    first = await queue.get()
    if first is _DONE and (active.outcome is None or not active.outcome.success):
        raise _failure(active)

    async def chunks() -> AsyncIterator[str]:
        item = first
        finished = False
        at_line_start = True
        try:
            while item is not _DONE:
                text = item.render()
                if item.kind == "status" and not at_line_start:
                    text = "\n" + text  # a status line always starts a line
                if text:
                    at_line_start = text.endswith("\n")
                    yield text
                item = await queue.get()
            finished = True
            outcome = active.outcome
            if outcome is not None and not outcome.success:
                code = outcome.code or "E_DEBATE_FAILED"
                message = outcome.message or "the debate failed"
                yield ("" if at_line_start else "\n") + f"[[STATUS]] Error {code}: {message}\n"
        finally:
            if not finished:  # the client went away: stop the debate, keep what was said
                active.stop.set()

    return StreamingResponse(
        chunks(), media_type="text/plain; charset=utf-8",
        headers={"X-Debate-Session": active.session_id, "Cache-Control": "no-cache",
                 "X-Accel-Buffering": "no"},
    )


@router.post("/ask", summary="Run a debate and return the full payload",
             responses={409: {"description": "E_DEBATE_BUSY"}})
async def ask(
    body: DebateRequest,
    runner: Annotated[JobRunner, Depends(get_runner)],
    manager: Annotated[DebateManager, Depends(get_manager)],
    services: Annotated[Services, Depends(get_services)],
) -> dict[str, Any]:
    """The debate's transcript, terminal state, conclusion and the streamed text."""
    events: list[Any] = []
    active = start_debate(runner, manager, body, events.append)
    await run_in_threadpool(active.done.wait)
    if active.outcome is None or not active.outcome.success:
        raise _failure(active)
    transcript = await run_in_threadpool(_load, services, active.session_id)
    text = "".join(e.render() for e in events if getattr(e, "kind", None) == "text")
    statuses = [e.message for e in events if getattr(e, "kind", None) == "status"]
    return {
        "session_id": active.session_id,
        "dagster_run_id": active.outcome.run_id,
        "terminal_state": transcript.terminal_state if transcript else None,
        "conclusion": transcript.conclusion if transcript else None,
        "answer": text,
        "statuses": statuses,
        "transcript": transcript.model_dump(mode="json") if transcript else None,
    }


def _load(services: Services, session_id: str) -> Any:
    from repro_assets.debate.store import DebateStore
    from repro_assets.storage.database import get_database

    return DebateStore(get_database(), services.blob_store).load(session_id)


@router.post("/interrupt", summary="Interrupt the running debate")
def interrupt(manager: Annotated[DebateManager, Depends(get_manager)]) -> dict[str, Any]:
    """Signal cancellation; ``status`` is ``interrupting`` or ``idle`` (nothing running)."""
    active = manager.interrupt()
    if active is None:
        return {"status": "idle", "session_id": None}
    return {"status": "interrupting", "session_id": active.session_id}


@router.get("/debates/{session_id}", summary="A stored debate transcript")
def get_debate(
    session_id: str, services: Annotated[Services, Depends(get_services)]
) -> dict[str, Any]:
    """The transcript JSON (turns, markers, evidence, references, terminal state)."""
    if not SESSION_ID_RE.match(session_id):
        raise ApiError(400, "E_INVALID_SESSION_ID", "invalid debate session id")
    transcript = _load(services, session_id)
    if transcript is None:
        raise ApiError(404, "E_DEBATE_NOT_FOUND", f"no debate {session_id}")
    return transcript.model_dump(mode="json")
