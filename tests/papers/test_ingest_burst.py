"""A burst of PDFs dropped at once: one ingest run, one materialization per paper (issue #19)."""

from __future__ import annotations

import dagster as dg
import pytest

from repro_assets.definitions import defs
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.sensors.papers import (
    BURST_TAG,
    burst_files,
    paper_inbox_sensor,
    paper_stages_after_burst_sensor,
)
from tests.pdfs import make_pdf

INGEST = ("paper_pdf", "paper_pages", "paper_chunks", "paper_embeddings")


def _paper(number: int) -> bytes:
    pages = [f"# {number} Method\nWe train model {number} with seed {number}.\n" * (1 + number % 3)
             for _ in range(1 + number % 2)]
    return make_pdf(pages, title=f"Paper number {number}")


def _tick(instance: dg.DagsterInstance, inbox, cursor: str | None = None) -> dg.SensorResult:
    context = dg.build_sensor_context(
        instance=instance, cursor=cursor,
        resources={"inbox": DropFolderResource(root=str(inbox))},
    )
    return paper_inbox_sensor(context)


def _apply(instance: dg.DagsterInstance, result: dg.SensorResult) -> None:
    for request in result.dynamic_partitions_requests:
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))


def _run(instance: dg.DagsterInstance, request: dg.RunRequest) -> dg.ExecuteInProcessResult:
    job = defs.resolve_job_def(request.job_name)
    return job.execute_in_process(instance=instance, run_config=request.run_config,
                                  tags=dict(request.tags), raise_on_error=False)


@pytest.fixture()
def inbox(tmp_path):
    folder = tmp_path / "inbox" / "papers"
    folder.mkdir(parents=True)
    return folder


def test_one_new_pdf_runs_the_whole_papers_job(inbox) -> None:
    (inbox / "one.pdf").write_bytes(_paper(1))
    [request] = _tick(dg.DagsterInstance.ephemeral(), inbox.parent).run_requests
    assert request.job_name == "papers_job" and request.partition_key
    assert not burst_files(request)


def test_a_burst_is_one_ingest_run_with_a_materialization_per_paper(
    fresh_database, inbox
) -> None:
    instance = dg.DagsterInstance.ephemeral()
    for number in range(4):
        (inbox / f"paper{number}.pdf").write_bytes(_paper(number))
    (inbox / "paper0-copy.pdf").write_bytes(_paper(0))  # same bytes: the same paper

    result = _tick(instance, inbox.parent)
    [request] = result.run_requests
    assert request.job_name == "paper_ingest_job" and request.tags[BURST_TAG] == "4"
    files = burst_files(request)
    [add] = result.dynamic_partitions_requests
    assert list(add.partition_keys) == list(files) and len(files) == 4
    _apply(instance, result)

    run = _run(instance, request)
    assert run.success
    by_asset: dict[str, dict[str, dict]] = {}
    for event in run.get_asset_materialization_events():
        by_asset.setdefault(event.asset_key.to_user_string(), {})[event.partition] = (
            event.materialization.metadata
        )
    assert set(by_asset) == set(INGEST)
    for name in INGEST:
        assert set(by_asset[name]) == set(files), name  # each paper its own materialization
    pages = {key: meta["pages"].value for key, meta in by_asset["paper_pages"].items()}
    assert sorted(pages.values()) == [1, 1, 2, 2]  # per-paper metadata, not the run's
    for key, meta in by_asset["paper_embeddings"].items():
        assert meta["chunks"].value >= 1 and meta["embedded"].value == meta["chunks"].value, key
    assert len(instance.get_runs()) == 1
    for key in files:
        assert key in instance.get_materialized_partitions(dg.AssetKey("paper_embeddings"))

    # the next tick sees nothing new; the run key makes a re-evaluation launch nothing twice
    assert _tick(instance, inbox.parent, cursor=result.cursor).run_requests == []


def test_a_failing_paper_does_not_hide_the_others(fresh_database, inbox) -> None:
    instance = dg.DagsterInstance.ephemeral()
    for number in range(3):
        (inbox / f"paper{number}.pdf").write_bytes(_paper(number))
    result = _tick(instance, inbox.parent)
    _apply(instance, result)
    [request] = result.run_requests
    gone = next(iter(burst_files(request).items()))
    (inbox / gone[1]).unlink()  # vanished between the tick and the run

    run = _run(instance, request)
    assert not run.success
    [failure] = [e for e in run.all_events if e.event_type_value == "STEP_FAILURE"]
    error = failure.step_failure_data.user_failure_data
    assert error.metadata["code"].value == "E_INGEST_BATCH_PARTIAL"
    assert error.metadata["failed"].value == {gone[0]: "E_FETCH_FAILED"}
    stored = instance.get_materialized_partitions(dg.AssetKey("paper_pdf"))
    assert stored == set(burst_files(request)) - {gone[0]}


def test_after_a_burst_each_paper_gets_its_later_stages(fresh_database, inbox) -> None:
    instance = dg.DagsterInstance.ephemeral()
    for number in range(2):
        (inbox / f"paper{number}.pdf").write_bytes(_paper(number))
    result = _tick(instance, inbox.parent)
    _apply(instance, result)
    [request] = result.run_requests
    run = _run(instance, request)
    assert run.success

    context = dg.build_run_status_sensor_context(
        sensor_name=paper_stages_after_burst_sensor.name,
        dagster_instance=instance,
        dagster_run=run.dagster_run,
        dagster_event=run.get_run_success_event(),
        repository_def=defs.get_repository_def(),
    )
    requests = paper_stages_after_burst_sensor(context)
    assert [r.partition_key for r in requests] == list(burst_files(request))
    for stage in requests:
        selected = {key.to_user_string() for key in stage.asset_selection}
        assert selected and not selected & set(INGEST)
        assert "reproducibility_verdict" in selected
