"""Which processes and runs belong to the `dagster dev` that `repro-assets ui` supervises."""

from __future__ import annotations

import json

import dagster as dg
import pytest
from dagster._core.storage.tags import GRPC_INFO_TAG

from repro_assets.ui_supervisor import run_endpoint, server_endpoint, stop_seconds


@pytest.mark.parametrize(("cmdline", "endpoint"), [
    (["python", "-m", "dagster", "code-server", "start", "--socket", "/tmp/a", "--heartbeat"],
     "socket:/tmp/a"),
    (["python", "-m", "dagster", "api", "grpc", "--lazy-load-user-code", "--port", "4123"],
     "port:4123"),
    (["dagster", "code-server", "start", "-m", "repro_assets.definitions", "-p", "4000"],
     "port:4000"),
    (["python", "-m", "dagster_webserver", "--port", "3000"], None),  # not a code server
    (["python", "-m", "dagster", "code-server", "start"], None),  # no endpoint given
    (["python", "-m", "dagster", "api", "grpc", "--socket"], None),  # flag without a value
])
def test_server_endpoint(cmdline: list[str], endpoint: str | None) -> None:
    assert server_endpoint(cmdline) == endpoint


def _run(tags: dict[str, str]) -> dg.DagsterRun:
    return dg.DagsterRun(job_name="job", run_id="r1", tags=tags)


def test_run_endpoint_reads_dagsters_grpc_info_tag() -> None:
    socket_info = json.dumps({"host": "localhost", "socket": "/tmp/a"})
    assert run_endpoint(_run({GRPC_INFO_TAG: socket_info})) == "socket:/tmp/a"
    assert run_endpoint(_run({GRPC_INFO_TAG: json.dumps({"host": "h", "port": 4123})})) == (
        "port:4123")
    # in-process runs (the CLI, `dagster asset materialize`) have no launcher endpoint
    assert run_endpoint(_run({})) is None
    assert run_endpoint(_run({GRPC_INFO_TAG: "not json"})) is None


def test_stop_seconds_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPRO_UI_STOP_SECONDS", raising=False)
    assert stop_seconds() == 6.0
    monkeypatch.setenv("REPRO_UI_STOP_SECONDS", "2.5")
    assert stop_seconds() == 2.5
    monkeypatch.setenv("REPRO_UI_STOP_SECONDS", "-1")
    assert stop_seconds() == 0.0
    monkeypatch.setenv("REPRO_UI_STOP_SECONDS", "soon")
    with pytest.raises(ValueError, match="REPRO_UI_STOP_SECONDS"):
        stop_seconds()
