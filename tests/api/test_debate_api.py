"""Debate endpoints (seed 002): streaming with [[STATUS]] lines, ask, interrupt, 409."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import dagster as dg
import httpx
import pytest

from repro_assets.api.debate import streams_tokens
from repro_assets.debate.store import debate_lock
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.database import get_database
from tests.api.conftest import gated_openai

STATUS = "[[STATUS]] "


def split_stream(text: str) -> tuple[list[str], str]:
    """(status messages, response text) of a streamed debate."""
    statuses, body = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith(STATUS):
            statuses.append(line[len(STATUS):].rstrip("\n"))
        else:
            body.append(line)
    return statuses, "".join(body)


def debate_materializations(instance: dg.DagsterInstance, session_id: str) -> list[dict]:
    result = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey("debate_transcript"),
                              asset_partitions=[session_id]), limit=5)
    return [{k: getattr(v, "value", v) for k, v in r.asset_materialization.metadata.items()}
            for r in result.records]


def test_stream_offline_debate(client, instance):
    response = client.post("/api/stream", json={"question": SAMPLE_QUESTION, "history": [
        "earlier question", {"role": "assistant", "content": "earlier answer"}]})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    session_id = response.headers["x-debate-session"]
    statuses, text = split_stream(response.text)
    assert statuses[0].startswith("Debate started (offline mode)")
    for expected in ("Research Scientist 1 Search Query: ", "Research Scientist 1 Ingested: ",
                     "Research Scientist 1 Retrieved chunks from vector DB: ",
                     "Research Scientist 1 Response:", "Research Scientist 2 Response:"):
        assert any(s.startswith(expected) for s in statuses), expected
    assert statuses[-1].startswith("Terminal state: Consensus")
    assert "### Research Scientist 1 (optimist), turn 1" in text
    assert "=== Viable Solution Reached ===" in text and STATUS not in text
    [meta] = debate_materializations(instance, session_id)
    assert meta["terminal_state"] == "consensus" and "offline" in str(meta["mode"])
    stored = client.get(f"/api/debates/{session_id}").json()
    assert stored["settings"]["history"] == ["earlier question", "assistant: earlier answer"]
    assert len(stored["turns"]) == meta["turns"] == 2


def test_ask_returns_the_full_payload(client, instance):
    response = client.post("/api/ask", json={"question": SAMPLE_QUESTION})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["terminal_state"] == "consensus" and body["conclusion"]
    assert "=== Viable Solution Reached ===" in body["answer"]
    assert body["statuses"][-1].startswith("Terminal state: Consensus")
    assert [t["role"] for t in body["transcript"]["turns"]] == ["optimist", "pessimist"]
    assert debate_materializations(instance, body["session_id"])


def test_request_validation_and_lookups(client):
    assert client.post("/api/stream", json={"question": "?"}).status_code == 422
    assert client.post("/api/ask", json={"question": "ok?", "extra": 1}).status_code == 422
    assert client.post("/api/interrupt").json() == {"status": "idle", "session_id": None}
    assert client.get("/api/debates/bad%20id").json()["error"] == "E_INVALID_SESSION_ID"
    missing = client.get("/api/debates/d-none")
    assert missing.status_code == 404 and missing.json()["error"] == "E_DEBATE_NOT_FOUND"


def test_409_when_another_process_holds_the_debate_lock(client):
    """The asset's Postgres advisory lock answers for debates started elsewhere."""
    with debate_lock(get_database()):
        stream = client.post("/api/stream", json={"question": SAMPLE_QUESTION})
        ask = client.post("/api/ask", json={"question": SAMPLE_QUESTION})
    assert stream.status_code == 409 and stream.json()["error"] == "E_DEBATE_BUSY"
    assert ask.status_code == 409 and ask.json()["error"] == "E_DEBATE_BUSY"


@pytest.fixture()
def gated_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The debate's first LLM reply waits for the returned event (see ``gated_openai``)."""
    with gated_openai(monkeypatch) as gate:
        yield gate


def test_interrupt_mid_stream_and_409_while_running(live_server, instance, gated_llm):
    # token streaming stops within the response; otherwise the stop is seen before turn 2
    question = {"question": SAMPLE_QUESTION, "max_turns": 1 if streams_tokens() else 2}
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        with http.stream("POST", "/api/stream", json=question) as response:
            assert response.status_code == 200
            session_id = response.headers["x-debate-session"]
            lines = response.iter_lines()
            seen = []
            for line in lines:
                seen.append(line)
                if line.startswith(STATUS + "Research Scientist 1 Response:"):
                    break
            assert any("Debate started (LLM openai)" in s for s in seen)
            # the debate is running (its LLM reply is held back): a second one is refused
            second = http.post("/api/stream", json=question)
            assert second.status_code == 409 and second.json()["error"] == "E_DEBATE_BUSY"
            assert http.post("/api/ask", json=question).status_code == 409
            stop = http.post("/api/interrupt").json()
            assert stop == {"status": "interrupting", "session_id": session_id}
            gated_llm.set()
            rest = list(lines)
    statuses, text = split_stream("\n".join(seen + rest) + "\n")
    assert "Interrupted by user" in statuses
    assert statuses[-1].startswith("Terminal state: Interrupted")
    assert "=== Debate Interrupted ===" in text and "Position: the" in text
    assert "Research Scientist 2" not in text
    [meta] = debate_materializations(instance, session_id)
    assert meta["terminal_state"] == "interrupted" and "offline" not in str(meta["mode"])
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        stored = http.get(f"/api/debates/{session_id}").json()
        assert len(stored["turns"]) == 1 and stored["terminal_state"] == "interrupted"
        if streams_tokens():
            assert "testing." not in text  # stopped after the first streamed token
            assert stored["turns"][0]["complete"] is False
        assert http.post("/api/interrupt").json()["status"] == "idle"
