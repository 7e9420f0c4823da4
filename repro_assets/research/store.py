"""Postgres persistence of the research agent: sessions, checkpoints, failures, source memory.

Tables are created by ``sql/070_research.sql`` and ``sql/071_research_limits.sql``. All SQL is
parameterised.

Session statuses: ``queued`` (created by the API, the run not started yet), ``running``, then
``completed``, ``stopped``, ``no_sources``, ``insufficient_evidence`` or ``failed``. A running
session beats (``heartbeat_at``) and names its process (``owner`` = host:pid);
:meth:`ResearchStore.reap_stale_sessions` marks a running session whose process is gone, or
that has not beaten for a while, ``failed`` (code ``E_SESSION_LOST``).
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from repro_assets.research.models import AccessFailure, ResearchState
from repro_assets.storage.database import Database

#: A running session that has not beaten for this long is considered dead (seconds).
STALE_AFTER_S = 120.0
FINAL_STATUSES = ("completed", "stopped", "no_sources", "insufficient_evidence", "failed")
SESSION_COLUMNS = (
    "session_id, query, privacy_mode, domain, max_cycles, max_provider_calls, status,"
    " status_line, current_phase, cycles, stop_requested, stop_reason, report_key, created_at,"
    " updated_at, finished_at, heartbeat_at, owner"
)


def process_owner() -> str:
    """``host:pid`` of this process (the owner recorded on a running session)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_dead(owner: str | None) -> bool:
    """True when ``owner`` is a process on this host that no longer exists."""
    if not owner or ":" not in owner:
        return False
    host, _, pid = owner.rpartition(":")
    return host == socket.gethostname() and pid.isdigit() and not _pid_alive(int(pid))


@dataclass(frozen=True)
class SourceStats:
    """What one provider did in one session (input to the memory update)."""

    calls: int
    failures: int
    results: int
    useful: int


def quality_from_counts(calls: int, failures: int, results: int, useful: int) -> float:
    """Laplace-smoothed usefulness times reliability, in [0, 1].

    usefulness = (useful results + 1) / (results + 2); reliability = (calls - failures + 1) /
    (calls + 2). A source never used scores 0.25 (= 0.5 * 0.5) and is ranked by its domain tier.
    """
    usefulness = (useful + 1) / (results + 2)
    reliability = (max(calls - failures, 0) + 1) / (calls + 2)
    return round(usefulness * reliability, 4)


class ResearchStore:
    """Sessions, checkpoints, access failures and source memory in Postgres."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- sessions ---------------------------------------------------------------------------
    def create_session(
        self, session_id: str, query: str, privacy_mode: str, domain: str, max_cycles: int
    ) -> None:
        """Create a ``queued`` session (the API, before its run starts; a stop may come first)."""
        with self.db.connection() as conn:
            conn.execute(
                "INSERT INTO research_sessions (session_id, query, privacy_mode, domain,"
                " max_cycles, status, status_line) VALUES (%s, %s, %s, %s, %s, 'queued',"
                " 'Waiting for the run to start.') ON CONFLICT (session_id) DO NOTHING",
                (session_id, query, privacy_mode, domain, max_cycles),
            )

    def start_session(
        self, session_id: str, query: str, privacy_mode: str, domain: str, max_cycles: int,
        max_provider_calls: int | None = None,
    ) -> None:
        """Mark the session running in this process (creating the row if needed).

        A stop requested while the session was ``queued`` is kept (the agent honours it before
        its first step); a re-run of a finished session starts with the flag cleared.
        """
        with self.db.connection() as conn:
            conn.execute(
                "INSERT INTO research_sessions (session_id, query, privacy_mode, domain,"
                " max_cycles, max_provider_calls, status, owner, heartbeat_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, 'running', %s, now())"
                " ON CONFLICT (session_id) DO UPDATE SET query = EXCLUDED.query,"
                " privacy_mode = EXCLUDED.privacy_mode, domain = EXCLUDED.domain,"
                " max_cycles = EXCLUDED.max_cycles,"
                " max_provider_calls = EXCLUDED.max_provider_calls, status = 'running',"
                " stop_requested = CASE WHEN research_sessions.status = 'queued'"
                " THEN research_sessions.stop_requested ELSE false END,"
                " stop_reason = NULL, owner = EXCLUDED.owner, heartbeat_at = now(),"
                " finished_at = NULL, updated_at = now()",
                (session_id, query, privacy_mode, domain, max_cycles, max_provider_calls,
                 process_owner()),
            )

    def heartbeat(self, session_id: str) -> None:
        """Record that the session's process is alive."""
        with self.db.connection() as conn:
            conn.execute(
                "UPDATE research_sessions SET heartbeat_at = now() WHERE session_id = %s"
                " AND status = 'running'",
                (session_id,),
            )

    def reap_stale_sessions(
        self, stale_after_s: float = STALE_AFTER_S, session_id: str | None = None
    ) -> list[str]:
        """Mark running sessions whose process died ``failed``; returns their ids.

        A session is dead when its owner is a process on this host that no longer exists, or
        when it has not beaten for ``stale_after_s`` seconds (any host).
        """
        reaped: list[str] = []
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT session_id, owner, coalesce(heartbeat_at, updated_at)"
                " < now() - make_interval(secs => %s), coalesce(heartbeat_at, updated_at)"
                " FROM research_sessions WHERE status = 'running'"
                " AND (%s::text IS NULL OR session_id = %s)",
                (stale_after_s, session_id, session_id),
            ).fetchall()
            for sid, owner, stale, last in rows:
                if not (stale or owner_dead(owner)):
                    continue
                why = (f"process {owner} is gone" if owner_dead(owner)
                       else f"no heartbeat since {last:%Y-%m-%d %H:%M:%S %Z}")
                cur = conn.execute(
                    "UPDATE research_sessions SET status = 'failed', stop_reason = %s,"
                    " status_line = %s, finished_at = now(), updated_at = now()"
                    " WHERE session_id = %s AND status = 'running'",
                    (f"E_SESSION_LOST: the session's process died ({why})",
                     "Failed: the research process died.", sid),
                )
                if cur.rowcount:
                    reaped.append(sid)
        return reaped

    def session(self, session_id: str) -> dict[str, Any] | None:
        """The session row as a dict, or None."""
        with self.db.connection() as conn:
            cur = conn.execute(
                f"SELECT {SESSION_COLUMNS} FROM research_sessions WHERE session_id = %s",
                (session_id,),
            )
            row = cur.fetchone()
            if row is None:
                return None
            return dict(zip([d.name for d in cur.description or []], row, strict=True))

    def update_status(self, session_id: str, phase: str, status_line: str, cycles: int) -> None:
        """Record the plain-language status (visible while running)."""
        with self.db.connection() as conn:
            conn.execute(
                "UPDATE research_sessions SET current_phase = %s, status_line = %s, cycles = %s,"
                " heartbeat_at = now(), updated_at = now() WHERE session_id = %s",
                (phase, status_line, cycles, session_id),
            )

    def finish_session(
        self, session_id: str, status: str, stop_reason: str | None, report_key: str | None
    ) -> None:
        """Mark the session finished."""
        with self.db.connection() as conn:
            conn.execute(
                "UPDATE research_sessions SET status = %s, stop_reason = %s, report_key = %s,"
                " finished_at = now(), updated_at = now() WHERE session_id = %s",
                (status, stop_reason, report_key, session_id),
            )

    def request_stop(self, session_id: str) -> bool:
        """Ask a running session to stop after its current node. False if unknown."""
        with self.db.connection() as conn:
            cur = conn.execute(
                "UPDATE research_sessions SET stop_requested = true, updated_at = now()"
                " WHERE session_id = %s",
                (session_id,),
            )
            return cur.rowcount > 0

    def stop_requested(self, session_id: str) -> bool:
        """True when a stop was requested for the session."""
        with self.db.connection() as conn:
            row = conn.execute(
                "SELECT stop_requested FROM research_sessions WHERE session_id = %s",
                (session_id,),
            ).fetchone()
        return bool(row and row[0])

    # -- checkpoints ------------------------------------------------------------------------
    def save_checkpoint(self, state: ResearchState) -> None:
        """Persist the state after a cycle (idempotent per cycle)."""
        payload = state.model_dump(mode="json")
        with self.db.connection() as conn:
            conn.execute(
                "INSERT INTO research_checkpoints (session_id, cycle, phase, state)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT (session_id, cycle) DO UPDATE SET"
                " phase = EXCLUDED.phase, state = EXCLUDED.state, created_at = now()",
                (state.session_id, state.cycle, state.current_phase, Jsonb(payload)),
            )

    def latest_checkpoint(self, session_id: str) -> ResearchState | None:
        """The most recent checkpointed state, or None."""
        with self.db.connection() as conn:
            row = conn.execute(
                "SELECT state FROM research_checkpoints WHERE session_id = %s"
                " ORDER BY cycle DESC LIMIT 1",
                (session_id,),
            ).fetchone()
        if row is None:
            return None
        data = row[0] if isinstance(row[0], dict) else json.loads(row[0])
        return ResearchState.model_validate(data)

    def checkpoint_cycles(self, session_id: str) -> list[int]:
        """Cycles that have a checkpoint."""
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT cycle FROM research_checkpoints WHERE session_id = %s ORDER BY cycle",
                (session_id,),
            ).fetchall()
        return [r[0] for r in rows]

    def clear_checkpoints(self, session_id: str) -> None:
        """Drop the checkpoints and failures of a session (a fresh re-run)."""
        with self.db.connection() as conn:
            conn.execute("DELETE FROM research_checkpoints WHERE session_id = %s", (session_id,))
            conn.execute(
                "DELETE FROM research_access_failures WHERE session_id = %s", (session_id,)
            )

    # -- access failures --------------------------------------------------------------------
    def record_access_failure(self, session_id: str, failure: AccessFailure) -> None:
        """Persist one access failure."""
        with self.db.connection() as conn:
            conn.execute(
                "INSERT INTO research_access_failures (session_id, cycle, source_name, url,"
                " error_type, error_message, action, created_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (session_id, failure.cycle, failure.source_name, failure.url,
                 failure.error_type, failure.error_message, failure.action, failure.at),
            )

    def access_failures(self, session_id: str) -> list[AccessFailure]:
        """Failures of a session in order."""
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT url, source_name, error_type, error_message, action, cycle, created_at"
                " FROM research_access_failures WHERE session_id = %s ORDER BY id",
                (session_id,),
            ).fetchall()
        return [
            AccessFailure(url=r[0], source_name=r[1], error_type=r[2], error_message=r[3],
                          action=r[4], cycle=r[5], at=r[6])
            for r in rows
        ]

    # -- source memory ----------------------------------------------------------------------
    def get_ranked_sources(self, domain: str) -> list[tuple[str, float]]:
        """``(source, quality)`` for the domain, best first (seed anti-pattern 5)."""
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT source_name, quality_score FROM research_source_memory"
                " WHERE domain = %s ORDER BY quality_score DESC, source_name",
                (domain,),
            ).fetchall()
        return [(r[0], float(r[1])) for r in rows]

    def update_source_memory(self, domain: str, stats: dict[str, SourceStats]) -> None:
        """Add one session's per-source figures and recompute quality scores."""
        with self.db.connection() as conn, conn.transaction():
            for source, s in stats.items():
                row = conn.execute(
                    "INSERT INTO research_source_memory (domain, source_name, sessions, calls,"
                    " failures, results, useful) VALUES (%s, %s, 1, %s, %s, %s, %s)"
                    " ON CONFLICT (domain, source_name) DO UPDATE SET"
                    " sessions = research_source_memory.sessions + 1,"
                    " calls = research_source_memory.calls + EXCLUDED.calls,"
                    " failures = research_source_memory.failures + EXCLUDED.failures,"
                    " results = research_source_memory.results + EXCLUDED.results,"
                    " useful = research_source_memory.useful + EXCLUDED.useful,"
                    " updated_at = now() RETURNING calls, failures, results, useful",
                    (domain, source, s.calls, s.failures, s.results, s.useful),
                ).fetchone()
                if row is None:  # an upsert ... RETURNING always returns its row
                    raise RuntimeError("research_source_memory upsert returned no row")
                conn.execute(
                    "UPDATE research_source_memory SET quality_score = %s"
                    " WHERE domain = %s AND source_name = %s",
                    (quality_from_counts(*row), domain, source),
                )
