"""Runs of a CLI command killed with ``kill -9`` are marked failed by the next CLI command that
runs jobs (issue #27, item 6, for ``repro-assets ingest`` / ``materialize`` / ``demo``).

A real ``repro-assets ingest`` child is killed with SIGKILL while its run is STARTED; its run
must name the killed process (``repro/process``) and the next ``ingest`` must mark it failed
with ``E_RUN_ORPHANED``. A fast test covers the demo's runs and the start-up cleanup on a run
record of a dead process.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import psycopg
import pytest
from dagster._core.storage.dagster_run import DagsterRun

from repro_assets.demo import DemoContext
from repro_assets.instance import (
    PROCESS_TAG,
    prepare_in_process_runs,
    process_alive,
    process_identity,
)
from repro_assets.storage.database import dagster_database_name, with_database
from tests.reliability.inbox import paper
from tests.reliability.processes import (
    create_database,
    drop_database,
    kill_when,
    project_env,
    run,
    scalar,
    start,
)

pytestmark = pytest.mark.reliability
CLI = "repro_assets.cli"


@pytest.fixture()
def workspace(pg_server_url: str, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """One new database and data folder: (database URL, folder)."""
    name = f"o_{uuid.uuid4().hex[:8]}"
    folder = tmp_path / "data"
    folder.mkdir()
    yield create_database(pg_server_url, name), folder
    drop_database(pg_server_url, name)


def _started_runs(dagster_url: str) -> int:
    """Active runs in the Dagster database (0 while the child has not created it yet)."""
    try:
        return int(scalar(dagster_url, "SELECT count(*) FROM runs WHERE status = 'STARTED'")
                   or 0)
    except psycopg.Error:
        return 0


@pytest.mark.slow
def test_runs_of_a_killed_ingest_are_failed_by_the_next_cli_command(
    workspace: tuple[str, Path], tmp_path: Path
) -> None:
    url, data = workspace
    dagster_url = with_database(url, dagster_database_name(url))
    env = project_env(url, data)
    log = tmp_path / "cli.log"
    first, second = tmp_path / "first.pdf", tmp_path / "second.pdf"
    first.write_bytes(paper(0, pages=8, lines=40))
    second.write_bytes(paper(1))

    child = start([CLI, "ingest", str(first)], env, log)
    assert kill_when(child, lambda: _started_runs(dagster_url) >= 1), log.read_text()[-3000:]
    orphan = scalar(dagster_url, "SELECT run_id FROM runs WHERE status = 'STARTED'")
    process = scalar(dagster_url, "SELECT value FROM run_tags WHERE run_id = %s AND key = %s",
                     (orphan, PROCESS_TAG))
    assert process is not None and str(process).split(":")[1] == str(child.pid)

    assert run([CLI, "ingest", str(second)], env, log) == 0, log.read_text()[-3000:]

    assert scalar(dagster_url, "SELECT status FROM runs WHERE run_id = %s",
                  (orphan,)) == "FAILURE"
    assert scalar(dagster_url, "SELECT count(*) FROM event_logs WHERE run_id = %s "
                  "AND event LIKE %s", (orphan, "%E_RUN_ORPHANED%")) == 1
    assert _started_runs(dagster_url) == 0


@dg.op
def _noop() -> None:
    """Nothing."""


@dg.job
def noop_job() -> None:
    """One op that does nothing."""
    _noop()


def test_a_command_start_fails_dead_runs_and_demo_runs_name_their_process(
    instance: dg.DagsterInstance,
) -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    dead = process_identity(child.pid)
    child.wait()
    assert process_alive(dead) is False
    orphan = str(uuid.uuid4())
    instance.add_run(DagsterRun(job_name="paper_ingest_job", run_id=orphan,
                                status=dg.DagsterRunStatus.STARTED, tags={PROCESS_TAG: dead}))

    tags = prepare_in_process_runs(instance)  # what ingest/materialize/demo ... do first

    assert instance.get_run_by_id(orphan).status == dg.DagsterRunStatus.FAILURE
    assert tags == {PROCESS_TAG: process_identity()}
    demo = DemoContext(instance=instance, defs=dg.Definitions(jobs=[noop_job]))
    result = demo.run_job("noop_job", tags={"repro/workflow": "test"})
    assert result.success
    run_tags = instance.get_run_by_id(result.run_id).tags
    assert run_tags[PROCESS_TAG] == process_identity()
    assert run_tags["repro/workflow"] == "test"
