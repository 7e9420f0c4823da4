"""Read side of the research agent: stored reports for the API and ``repro-assets show``.
No Dagster."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from repro_assets import settings
from repro_assets.research.store import ResearchStore
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.database import get_database


def report_key(session_id: str, fmt: str = "json") -> str:
    """Blob key of a session's exported report."""
    return f"research/{session_id}/report.{'md' if fmt == 'markdown' else fmt}"


def load_report(session_id: str) -> dict[str, Any]:
    """The stored JSON report of a session."""
    return json.loads(BlobStore(settings.blob_root()).read_text(report_key(session_id)))


def show_report(key: str | None) -> Any:
    """The stored report of session ``key``, or every session's status."""
    store = ResearchStore(get_database())
    if key is None:
        with store.db.connection() as conn:
            rows = conn.execute(
                "SELECT session_id, status, cycles, stop_reason FROM research_sessions"
                " ORDER BY created_at"
            ).fetchall()
        return [{"session": s, "status": st, "cycles": c, "stop_reason": r}
                for s, st, c, r in rows]
    return load_report(key)


SHOWS: dict[str, Callable[[str | None], Any]] = {"research_report": show_report}
