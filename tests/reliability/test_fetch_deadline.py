"""One total deadline per outbound fetch; slow fetches never stall the API (issue #27, item 2).

A loopback server trickles its answer a few bytes a second: httpx's per-read timeout never
fires, so only a total deadline ends the fetch. The tests count the bytes the server got out
before the client hung up (no wall-clock assertions): without the deadline the client reads
the whole trickle.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import httpx
import pytest

from repro_assets import net
from repro_assets.papers.ingest import fetch_pdf
from repro_assets.papers.pdf import PaperIngestError
from repro_assets.research.errors import ProviderTimeoutError
from repro_assets.research.providers.fetcher import PageFetcher
from tests.api.conftest import LiveServer
from tests.reliability.slow_server import RESPONSE, TricklingServer

pytestmark = pytest.mark.reliability


@pytest.fixture()
def trickle(monkeypatch: pytest.MonkeyPatch) -> Iterator[TricklingServer]:
    monkeypatch.setenv("REPRO_ALLOW_PRIVATE_FETCH", "1")
    with TricklingServer(bytes_per_second=10) as server:
        yield server


def _wait_for_hangups(server: TricklingServer, count: int) -> None:
    for _ in range(200):
        if len(server.sent) >= count:
            return
        threading.Event().wait(0.1)


def test_fetch_stops_at_its_total_deadline(trickle: TricklingServer) -> None:
    with pytest.raises(net.FetchError) as info:
        net.fetch(trickle.url + "/paper.pdf", max_bytes=1_000_000, timeout=2)
    assert info.value.code == "E_FETCH_FAILED"
    _wait_for_hangups(trickle, 1)
    assert trickle.sent and trickle.sent[0] < len(RESPONSE) // 4


def test_url_ingest_gives_e_fetch_failed(trickle: TricklingServer,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_FETCH_TIMEOUT_S", "2")
    with pytest.raises(PaperIngestError) as info:
        fetch_pdf(trickle.url + "/paper.pdf")
    assert info.value.code == "E_FETCH_FAILED"
    _wait_for_hangups(trickle, 1)
    assert trickle.sent[0] < len(RESPONSE) // 4


def test_research_fetcher_has_a_total_deadline(trickle: TricklingServer) -> None:
    fetcher = PageFetcher()
    with pytest.raises(ProviderTimeoutError):
        asyncio.run(fetcher._download(trickle.url + "/paper.pdf", 2))
    _wait_for_hangups(trickle, 1)
    assert trickle.sent[0] < len(RESPONSE) // 4


def test_healthz_and_sync_endpoints_answer_while_forty_fetches_trickle(
        app, trickle: TricklingServer, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("REPRO_FETCH_TIMEOUT_S", "6")
    answers: list[httpx.Response] = []
    with LiveServer(app) as server:
        def ingest() -> None:
            with httpx.Client(timeout=120) as http:
                answers.append(http.post(server.url + "/api/v1/papers/ingest",
                                         json={"url": trickle.url + "/paper.pdf"}))

        threads = [threading.Thread(target=ingest) for _ in range(40)]
        for thread in threads:
            thread.start()
        for _ in range(100):  # until the fetch workers are busy with the trickle
            if trickle.connections >= 4:
                break
            threading.Event().wait(0.1)
        with httpx.Client(timeout=10) as http:  # a hang guard, not a speed assertion
            assert http.get(server.url + "/healthz").json() == {"status": "ok"}
            missing = http.get(server.url + "/api/v1/papers/0123456789abcdef")
            assert missing.status_code == 404, missing.text
        for thread in threads:
            thread.join(120)
    codes = sorted({a.json()["error"] for a in answers})
    assert len(answers) == 40
    assert set(codes) <= {"E_FETCH_FAILED", "E_SERVER_BUSY"}, codes
    busy = [a for a in answers if a.status_code == 503]
    assert all(a.headers.get("retry-after") for a in busy)
    assert any(a.json()["error"] == "E_FETCH_FAILED" for a in answers)
