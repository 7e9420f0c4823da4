"""The inbox sensor and the backfill schedule read the instance in bulk, not per partition.

Counted calls, never wall-clock: a tick with nothing new reads no partition or run; a tick over
many papers makes one run query per batch, not one per paper (issue #29, benchmarks/scale.py).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import dagster as dg
import pytest
from dagster._core.utils import make_new_run_id

from repro_assets.papers.pdf import validate_pdf
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.sensors import backfill
from repro_assets.sensors.papers import paper_inbox_sensor
from tests.pdfs import make_pdf

INSTANCE_READS = ("get_dynamic_partitions", "has_dynamic_partition", "get_run_records",
                  "get_runs", "get_records_for_run")


def _count_reads(instance: dg.DagsterInstance, monkeypatch: pytest.MonkeyPatch) -> Counter:
    calls: Counter = Counter()
    for name in INSTANCE_READS:
        original: Callable[..., Any] = getattr(instance, name)

        def counted(*args: Any, _name: str = name, _original: Callable[..., Any] = original,
                    **kwargs: Any) -> Any:
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(instance, name, counted)
    return calls


def _tick(instance: dg.DagsterInstance, inbox: Any, cursor: str | None) -> dg.SensorResult:
    context = dg.build_sensor_context(
        instance=instance, cursor=cursor,
        resources={"inbox": DropFolderResource(root=str(inbox))})
    return paper_inbox_sensor(context)


def _drop(folder: Any, count: int) -> list[str]:
    ids = []
    for n in range(count):
        data = make_pdf([f"# Abstract\nNote {n} on the weekly reading group.\nMore text {n}."])
        (folder / f"n{n}.pdf").write_bytes(data)
        ids.append(validate_pdf(data).paper_id)
    return ids


def _succeeded(instance: dg.DagsterInstance, paper_id: str) -> None:
    instance.add_run(dg.DagsterRun(job_name="papers_job", run_id=make_new_run_id(),
                                   tags={"dagster/partition": paper_id},
                                   status=dg.DagsterRunStatus.SUCCESS))


def test_a_tick_with_nothing_new_reads_no_partition_or_run(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "inbox" / "papers"
    folder.mkdir(parents=True)
    instance = dg.DagsterInstance.ephemeral()
    ids = _drop(folder, 12)
    instance.add_dynamic_partitions("papers", ids)
    for paper_id in ids:
        _succeeded(instance, paper_id)
    first = _tick(instance, tmp_path / "inbox", None)
    assert first.run_requests == []  # all processed already
    assert len(json.loads(first.cursor)) == 12

    calls = _count_reads(instance, monkeypatch)
    second = _tick(instance, tmp_path / "inbox", first.cursor)
    assert second.run_requests == [] and second.dynamic_partitions_requests == []
    assert json.loads(second.cursor) == json.loads(first.cursor)
    assert sum(calls.values()) == 0, calls


def test_many_dropped_papers_cost_one_run_query(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "inbox" / "papers"
    folder.mkdir(parents=True)
    instance = dg.DagsterInstance.ephemeral()
    ids = _drop(folder, 30)
    instance.add_dynamic_partitions("papers", ids + ["another-paper"])
    for paper_id in ids[:25]:
        _succeeded(instance, paper_id)

    calls = _count_reads(instance, monkeypatch)
    result = _tick(instance, tmp_path / "inbox", None)
    assert calls["get_run_records"] == 1 and calls["get_dynamic_partitions"] == 1, calls
    assert calls["has_dynamic_partition"] == 0, calls
    # the 5 known papers without a successful run get a run each; the processed 25 none
    assert sorted(r.partition_key for r in result.run_requests) == sorted(ids[25:])
    assert result.dynamic_partitions_requests == []


def test_backfill_reads_runs_in_bulk_and_the_event_log_of_the_newest_failure_only(
        monkeypatch) -> None:
    instance = dg.DagsterInstance.ephemeral()
    partitions = [f"p{n}" for n in range(8)]
    works = [backfill.PartitionWork(p, {dg.AssetKey("paper_chunks")}, "fp", 0)
             for p in partitions]
    for partition in partitions:
        for status in (dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.FAILURE,
                       dg.DagsterRunStatus.FAILURE):
            instance.add_run(dg.DagsterRun(
                job_name="papers_job", run_id=make_new_run_id(), status=status,
                tags={"dagster/partition": partition, backfill.BACKFILL_INPUT_TAG: "fp"}))
    instance.add_run(dg.DagsterRun(job_name="papers_job", run_id=make_new_run_id(),
                                   status=dg.DagsterRunStatus.STARTED,
                                   tags={"dagster/partition": "p0"}))
    monkeypatch.setattr(backfill, "stale_work", lambda *_: works)

    calls = _count_reads(instance, monkeypatch)
    requests, skipped, deferred = backfill.plan_backfill(instance, [], {}, max_attempts=3)
    assert calls["get_runs"] == 1, calls
    # failure code + last storage id for the newest failed run of p1..p7; p0's newest runs
    assert calls["get_records_for_run"] == 2 * 7, calls
    assert requests == [] and deferred == 0
    assert "in flight" in skipped["p0"]
    assert all("3 attempts failed on this input" in skipped[p] for p in partitions[1:])


def test_a_backfill_tick_requests_a_bounded_number_of_runs(monkeypatch) -> None:
    instance = dg.DagsterInstance.ephemeral()
    works = [backfill.PartitionWork(f"p{n}", {dg.AssetKey("paper_chunks")}, "fp", 0)
             for n in range(12)]
    for work in works:  # each newest run failed: two event log reads to decide
        instance.add_run(dg.DagsterRun(
            job_name="papers_job", run_id=make_new_run_id(), status=dg.DagsterRunStatus.FAILURE,
            tags={"dagster/partition": work.partition}))
    monkeypatch.setattr(backfill, "stale_work", lambda *_: works)

    calls = _count_reads(instance, monkeypatch)
    requests, skipped, deferred = backfill.plan_backfill(instance, [], {}, max_attempts=3,
                                                         max_runs=4)
    assert [r.partition_key for r in requests] == ["p0", "p1", "p2", "p3"]
    assert skipped == {} and deferred == 8
    assert calls["get_records_for_run"] == 2 * 4, calls  # the deferred 8 were not read


def test_a_tick_validates_a_bounded_number_of_files(tmp_path, monkeypatch) -> None:
    from repro_assets.storage.dropfolder import DropFolder

    folder = tmp_path / "inbox" / "papers"
    folder.mkdir(parents=True)
    instance = dg.DagsterInstance.ephemeral()
    ids = _drop(folder, 7)
    (folder / "notes.txt").write_text("not a paper")
    monkeypatch.setenv("REPRO_INBOX_TICK_MAX_FILES", "3")
    reads: Counter = Counter()
    original = DropFolder.read_bytes

    def counted(self: DropFolder, path: str) -> bytes:
        reads[path] += 1
        return original(self, path)

    monkeypatch.setattr(DropFolder, "read_bytes", counted)
    cursor, found = None, []
    for expected in (3, 3, 1):
        before = sum(reads.values())
        result = _tick(instance, tmp_path / "inbox", cursor)
        assert sum(reads.values()) - before == expected
        for request in result.dynamic_partitions_requests:
            found += list(request.partition_keys)
            instance.add_dynamic_partitions("papers", list(request.partition_keys))
        cursor = result.cursor
    assert sorted(found) == sorted(ids) and max(reads.values()) == 1  # each file read once
    assert (folder / "rejected" / "notes.txt").exists()  # rejected at once, not budgeted
