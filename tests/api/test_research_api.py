"""Research endpoints (seed 004): start, status, stop, report and the progress WebSocket."""

from __future__ import annotations

import dagster as dg
import pytest
from starlette.websockets import WebSocketDisconnect

from repro_assets.research.store import ResearchStore
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.database import get_database


def test_session_runs_to_completion_with_websocket_progress(client, instance):
    started = client.post("/api/research/start", json={
        "query": SAMPLE_QUESTION, "privacy_mode": "local_only", "max_cycles": 3})
    assert started.status_code == 200, started.text
    session_id = started.json()["session_id"]
    assert started.json()["status"] == "started"
    # the session is in Postgres at once (status works from any process)
    status = client.get(f"/api/research/{session_id}/status")
    assert status.status_code == 200
    assert status.json()["status"] in ("queued", "running", "completed")

    messages = []
    with client.websocket_connect(f"/api/research/{session_id}/ws") as ws:
        while True:
            message = ws.receive_json()
            messages.append(message)
            if message["type"] != "progress":
                break
    assert {m["type"] for m in messages[:-1]} == {"progress"} and len(messages) >= 2
    for message in messages[:-1]:
        assert set(message) >= {"phase", "sources_queried", "entities_found", "message"}
    phases = [m["phase"] for m in messages[:-1]]
    assert phases[-1] == "done"
    final = messages[-1]
    assert final["type"] == "complete" and final["status"] == "completed", final
    assert final["dagster_run_status"] == "SUCCESS"
    assert final["result"]["facts"] >= 1 and final["result"]["report"]["stop_reason"]

    body = client.get(f"/api/research/{session_id}/status").json()
    assert body["status"] == "completed" and body["current_phase"] == "done"
    assert body["cycles"] >= 1 and body["sources_queried"] >= 1
    assert body["saturation_metrics"] is not None and body["stop_reason"]
    assert body["dagster_run_id"] == started.json()["dagster_run_id"]
    assert body["dagster_run_status"] == "SUCCESS"
    report = client.get(f"/api/research/{session_id}/report").json()
    assert report["facts"] and all(f["citations"] for f in report["facts"])
    # the same asset partition the CLI and the UI materialize
    assert instance.has_dynamic_partition("research_sessions", session_id)
    mats = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey("research_report"),
                              asset_partitions=[session_id]), limit=1).records
    assert mats and mats[0].run_id == started.json()["dagster_run_id"]
    # stopping a finished session changes nothing
    assert client.post(f"/api/research/{session_id}/stop").json()["status"] == "completed"


def test_stop_sets_the_flag_in_postgres(client):
    store = ResearchStore(get_database())
    store.start_session("r-api-stop", "a question", "local_only", "auto", 2)
    response = client.post("/api/research/r-api-stop/stop")
    assert response.json() == {"session_id": "r-api-stop", "status": "stopping"}
    assert store.stop_requested("r-api-stop")
    assert client.get("/api/research/r-api-stop/status").json()["stop_requested"] is True


@pytest.mark.parametrize("method,path", [("get", "status"), ("post", "stop"), ("get", "report")])
def test_unknown_and_invalid_sessions(client, method, path):
    missing = getattr(client, method)(f"/api/research/r-none/{path}")
    assert missing.status_code == 404 and missing.json()["error"] == "E_SESSION_NOT_FOUND"
    invalid = getattr(client, method)(f"/api/research/bad%20id%21/{path}")
    assert invalid.status_code == 400 and invalid.json()["error"] == "E_INVALID_SESSION_ID"


def test_start_validation(client):
    assert client.post("/api/research/start", json={"query": "x"}).status_code == 422
    bad_mode = client.post("/api/research/start",
                           json={"query": "valid question", "privacy_mode": "leaky"})
    assert bad_mode.status_code == 422
    too_many = client.post("/api/research/start", json={"query": "valid", "max_cycles": 99})
    assert too_many.status_code == 422


def test_websocket_error_messages(client):
    with client.websocket_connect("/api/research/r-none/ws") as ws:
        assert ws.receive_json() == {"type": "error", "message": "Session not found"}
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with client.websocket_connect("/api/research/bad%20id/ws") as ws:
        assert ws.receive_json()["type"] == "error"


HANGING_SESSION = """
import asyncio, sys
from repro_assets.research.agent import ResearchAgent
from repro_assets.research.providers.base import SearchProvider
from repro_assets.research.store import ResearchStore
from repro_assets.storage.database import get_database


class Hang(SearchProvider):
    kind = "academic"
    name = property(lambda self: "hang")
    requests_per_second = property(lambda self: 10.0)

    async def search(self, query, max_results=10, filters=None, *, timeout=None):
        await asyncio.sleep(3600)

    async def is_available(self):
        return True


ResearchAgent({"hang": Hang()}, store=ResearchStore(get_database())).run(
    sys.argv[1], "a question whose search never returns", max_cycles=2)
"""


def test_killed_session_is_marked_failed_and_its_websocket_ends(client, tmp_path):
    """Reproduced: a dead process left its session "running" and its WebSocket polling."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    script = tmp_path / "hang.py"
    script.write_text(HANGING_SESSION)
    project = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, str(script), "r-killed"], cwd=project,
                            env={**os.environ, "PYTHONPATH": str(project)})
    store = ResearchStore(get_database())
    try:
        for _ in range(600):  # the agent reached collect (its search hangs there)
            row = store.session("r-killed")
            if row and row["current_phase"] == "plan":
                break
            assert proc.poll() is None, "the session process ended early"
            time.sleep(0.1)
        else:
            raise AssertionError("the session never started")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert store.session("r-killed")["status"] == "running"  # nothing ran on the way out
    with client.websocket_connect("/api/research/r-killed/ws") as ws:
        messages = []
        while True:
            message = ws.receive_json()
            messages.append(message)
            if message["type"] != "progress":
                break
    assert messages[-1]["type"] == "complete" and messages[-1]["status"] == "failed"
    assert messages[-1]["stop_reason"].startswith("E_SESSION_LOST")
    body = client.get("/api/research/r-killed/status").json()
    assert body["status"] == "failed"
