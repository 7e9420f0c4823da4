"""`make demo` then `make ui`: the daemon's inbox sensor launches nothing for papers the demo
already processed (issue #27, item 8); the factory drop sensor runs by default (item 11)."""

from __future__ import annotations

import uuid
from pathlib import Path

import dagster as dg
import pytest
from dagster._core.storage.dagster_run import DagsterRun

from repro_assets.papers.pdf import validate_pdf
from repro_assets.sensors.factory import factory_drop_sensor
from tests.reliability.inbox import paper, tick

pytestmark = pytest.mark.reliability


def _finished_papers_run(instance: dg.DagsterInstance, paper_id: str) -> None:
    """What the demo leaves: a successful papers_job run of the paper's partition."""
    instance.add_run(DagsterRun(job_name="papers_job", run_id=str(uuid.uuid4()),
                                status=dg.DagsterRunStatus.SUCCESS,
                                tags={"dagster/partition": paper_id}))


def test_a_fresh_daemon_does_not_rerun_papers_the_demo_processed(tmp_path: Path) -> None:
    instance = dg.DagsterInstance.ephemeral()
    inbox = tmp_path / "inbox" / "papers"
    inbox.mkdir(parents=True)
    done, failed, new = paper(1), paper(2), paper(3)
    (inbox / "done.pdf").write_bytes(done)
    (inbox / "failed.pdf").write_bytes(failed)
    done_id, failed_id = validate_pdf(done).paper_id, validate_pdf(failed).paper_id
    instance.add_dynamic_partitions("papers", [done_id, failed_id])
    _finished_papers_run(instance, done_id)  # the demo ran it through papers_job
    instance.add_run(DagsterRun(job_name="papers_job", run_id=str(uuid.uuid4()),
                                status=dg.DagsterRunStatus.FAILURE,
                                tags={"dagster/partition": failed_id}))

    first = tick(instance, cursor=None, root=str(tmp_path / "inbox"))  # the daemon's first tick
    assert [r.partition_key for r in first.run_requests] == [failed_id]  # a failure is retried
    assert "done.pdf" in first.cursor  # recorded: not read again

    (inbox / "new.pdf").write_bytes(new)
    later = tick(instance, cursor=first.cursor, root=str(tmp_path / "inbox"))
    assert [r.partition_key for r in later.run_requests] == [validate_pdf(new).paper_id]


def test_the_factory_drop_sensor_runs_by_default() -> None:
    assert factory_drop_sensor.default_status == dg.DefaultSensorStatus.RUNNING
