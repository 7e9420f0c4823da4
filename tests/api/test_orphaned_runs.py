"""Runs left STARTED by a killed API process are marked failed when the API starts again
(issue #27, item 6)."""

from __future__ import annotations

import subprocess
import sys
import uuid

import dagster as dg
from dagster._core.storage.dagster_run import DagsterRun

from repro_assets.api.runner import JobRunner
from repro_assets.instance import PROCESS_TAG, process_alive, process_identity


def _started_run(instance, process: str) -> str:  # noqa: ANN001
    run_id = str(uuid.uuid4())
    instance.add_run(DagsterRun(job_name="paper_ingest_job", run_id=run_id,
                                status=dg.DagsterRunStatus.STARTED,
                                tags={PROCESS_TAG: process, "repro/source": "api"}))
    return run_id


def test_runs_of_a_dead_process_are_failed_at_start(instance) -> None:  # noqa: ANN001
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    dead = process_identity(child.pid)
    child.wait()
    assert process_alive(dead) is False
    orphan = _started_run(instance, dead)
    alive = _started_run(instance, process_identity())
    elsewhere = _started_run(instance, "another-host:1:1")

    JobRunner(instance)  # what the API builds on its first request

    assert instance.get_run_by_id(orphan).status == dg.DagsterRunStatus.FAILURE
    assert instance.get_run_by_id(alive).status == dg.DagsterRunStatus.STARTED
    assert instance.get_run_by_id(elsewhere).status == dg.DagsterRunStatus.STARTED
    for run_id in (alive, elsewhere):  # leave nothing active behind
        instance.report_run_failed(instance.get_run_by_id(run_id), message="test cleanup")


def test_api_runs_carry_their_process(instance) -> None:  # noqa: ANN001
    runner = JobRunner(instance)
    assert runner._process_tags == {PROCESS_TAG: process_identity()}
    assert process_alive(runner._process_tags[PROCESS_TAG]) is True
