"""``repro-assets ingest`` starts its slow parts early, without changing what it does.

The PDF worker's fork server is started before the command imports Dagster (its interpreter
and PyMuPDF import run meanwhile), and the vector store (database + embedding model) is opened
on a background thread while the run starts and the PDF is parsed.
"""

from __future__ import annotations

import threading

import pytest

from repro_assets.commands.papers import open_store_in_background
from repro_assets.papers import sandbox
from repro_assets.papers.pdf import validate_pdf
from repro_assets.resources.registry import default_resources
from repro_assets.storage import embedder as embedder_module
from tests.pdfs import make_pdf


@pytest.fixture()
def no_idle_servers():
    """Each test starts without idle fork servers and leaves none behind."""
    with sandbox._IDLE_LOCK:
        saved = list(sandbox._IDLE)
        sandbox._IDLE.clear()
    yield
    with sandbox._IDLE_LOCK:
        mine = list(sandbox._IDLE)
        sandbox._IDLE[:] = saved
    for server in mine:
        sandbox._discard(server)


def test_the_prestarted_server_serves_the_first_parse(no_idle_servers, monkeypatch) -> None:
    sandbox.prestart()
    sandbox.prestart()  # one idle server is enough: no second one
    assert len(sandbox._IDLE) == 1
    started = sandbox._IDLE[0].pid

    def no_new_server() -> None:
        raise AssertionError("the first parse started a server of its own")

    monkeypatch.setattr(sandbox, "_start_server", no_new_server)
    info = validate_pdf(make_pdf(["one page of text", "another page"]))
    assert info.page_count == 2
    assert [server.pid for server in sandbox._IDLE] == [started]


def test_a_dead_idle_server_is_replaced(no_idle_servers) -> None:
    sandbox.prestart()
    dead = sandbox._IDLE[0]
    dead.kill()
    dead.wait()
    sandbox.prestart()
    assert [s.poll() for s in sandbox._IDLE if s is not dead] == [None]


def test_the_store_opened_ahead_is_the_runs_store(fresh_database, monkeypatch) -> None:
    loads: list[tuple[str, str]] = []

    def load(model_name: str, backend: str) -> object:  # stands in for the model (seconds)
        loads.append((model_name, backend))
        return object()

    monkeypatch.setattr(embedder_module, "_MODELS", {})
    monkeypatch.setattr(embedder_module, "_load", load)
    vector_store = default_resources()["vector_store"]
    thread = open_store_in_background(vector_store)
    assert thread is not None
    thread.join(timeout=60)
    assert len(loads) == 1
    [loaded] = embedder_module._MODELS.values()
    assert vector_store.get_store().embedder is loaded  # the run's store: nothing loaded again
    assert len(loads) == 1


def test_a_failure_ahead_is_left_to_the_run(monkeypatch) -> None:
    raised: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda hook: raised.append(hook.exc_value))

    class Unreachable:
        def get_store(self) -> None:
            raise ConnectionError("no database")

    thread = open_store_in_background(Unreachable())
    assert thread is not None
    thread.join(timeout=10)
    assert raised == []
    assert open_store_in_background(None) is None
