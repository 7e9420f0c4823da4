"""Backfills that converge (issue #17, item 3).

Review found that the hourly schedule re-ran a permanently failing paper for ever: every
attempt re-materialized ``paper_pdf`` and made a new run key. Here a paper whose claims step
fails for a reason of its own (``E_EXTRACT_NO_OUTPUT``: the document states no result) is
attempted once, shown as failed in the UI's partition status, skipped by the next ticks, and
attempted again only when its input changes.
"""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest

from repro_assets.sensors.backfill import (
    DEFAULT_MAX_ATTEMPTS,
    Attempt,
    decide,
)
from tests.pdfs import make_pdf

pytestmark = pytest.mark.slow

FP = "abc123"


# --------------------------------------------------------------------------- the rule
def test_first_attempt_and_success_launch() -> None:
    assert decide([], FP, 3).launch
    assert decide([Attempt("r1", succeeded=True)], FP, 3).launch


def test_in_flight_runs_are_not_doubled() -> None:
    decision = decide([Attempt("r2", in_flight=True), Attempt("r1", code="E_LLM_TIMEOUT")],
                      FP, 3)
    assert not decision.launch and "r2 is in flight" in decision.reason


def test_non_retryable_failure_waits_for_new_input() -> None:
    failed = Attempt("r1", code="E_EXTRACT_NO_OUTPUT", input=FP)
    decision = decide([failed], FP, 3)
    assert not decision.launch and "E_EXTRACT_NO_OUTPUT" in decision.reason
    changed = Attempt("r1", code="E_EXTRACT_NO_OUTPUT", input=FP, inputs_changed_since=True)
    assert decide([changed], "newinput", 3) == decide([], "newinput", 3)


def test_retryable_failures_are_retried_a_bounded_number_of_times() -> None:
    attempts: list[Attempt] = []
    launched = []
    for n in range(6):
        decision = decide(attempts, FP, DEFAULT_MAX_ATTEMPTS)
        if not decision.launch:
            break
        launched.append(decision.attempt)
        code = None if n % 2 else "E_LLM_RATE_LIMITED"  # a crash has no code at all
        attempts.insert(0, Attempt(f"r{n}", code=code, input=FP))
    assert launched == [0, 1, 2]  # then it waits: converged
    assert "3 attempts failed on this input" in decide(attempts, FP, 3).reason
    assert decide(attempts, "another-input", 3).launch  # new input, new tries


# --------------------------------------------------------------------------- on the instance
PAGES_WITHOUT_RESULTS = [
    "# Abstract\nWe describe a reading group on the history of printing presses.\n"
    "# 1 Introduction\nThe group met weekly and discussed sources.",
    "# 2 Discussion\nParticipants preferred primary sources over summaries.",
]

FAILED_PARTITIONS = """
query ($key: AssetKeyInput!) {
  assetNodeOrError(assetKey: $key) {
    ... on AssetNode {
      assetPartitionStatuses {
        ... on DefaultPartitionStatuses { materializedPartitions failedPartitions }
      }
    }
  }
}
"""


def ui_partition_status(instance: dg.DagsterInstance, asset: str) -> dict[str, list[str]]:
    """What the Dagster UI's GraphQL says about ``asset``'s partitions."""
    from dagster._core.remote_origin import InProcessCodeLocationOrigin
    from dagster._core.types.loadable_target_origin import LoadableTargetOrigin
    from dagster._core.workspace.context import WorkspaceProcessContext
    from dagster._core.workspace.load_target import InProcessWorkspaceLoadTarget
    from dagster_graphql.test.utils import execute_dagster_graphql

    origin = InProcessCodeLocationOrigin(LoadableTargetOrigin(
        module_name="repro_assets.definitions", attribute="defs"))
    with WorkspaceProcessContext(instance, InProcessWorkspaceLoadTarget([origin])) as process:
        result = execute_dagster_graphql(process.create_request_context(), FAILED_PARTITIONS,
                                         {"key": {"path": [asset]}})
    assert not result.errors, result.errors
    return result.data["assetNodeOrError"]["assetPartitionStatuses"]


def test_a_permanently_failing_partition_converges(fresh_database: str, tmp_path: Path) -> None:
    from repro_assets.assets.papers import INGEST_ASSETS
    from repro_assets.definitions import defs
    from repro_assets.papers.pdf import validate_pdf
    from repro_assets.resources.registry import default_resources

    (tmp_path / "home").mkdir()
    instance = dg.DagsterInstance.local_temp(str(tmp_path / "home"))
    schedule = defs.resolve_schedule_def("papers_backfill_schedule")
    context = dg.build_schedule_context(instance=instance,
                                        repository_def=defs.get_repository_def())
    job = defs.resolve_job_def("papers_job")

    path = tmp_path / "reading-group.pdf"
    path.write_bytes(make_pdf(PAGES_WITHOUT_RESULTS, title="A reading group"))
    key = validate_pdf(path.read_bytes()).paper_id
    instance.add_dynamic_partitions("papers", [key])
    assert dg.materialize(
        INGEST_ASSETS, instance=instance, partition_key=key, resources=default_resources(),
        run_config={"ops": {"paper_pdf": {"config": {"source": str(path), "title": ""}}}},
    ).success

    def tick() -> list[dg.RunRequest]:
        return list(schedule.evaluate_tick(context).run_requests or [])

    def launch(request: dg.RunRequest) -> dg.ExecuteInProcessResult:
        return job.execute_in_process(
            instance=instance, partition_key=request.partition_key, raise_on_error=False,
            asset_selection=request.asset_selection, tags=request.tags)

    # 1. the missing analysis assets are backfilled, without re-materializing the ingest
    [first] = tick()
    selected = {k.to_user_string() for k in first.asset_selection}
    assert "paper_claims" in selected and "paper_pdf" not in selected
    assert not selected & {"paper_pages", "paper_chunks", "paper_embeddings"}
    result = launch(first)
    assert not result.success
    failures = [e for e in result.all_events if e.is_step_failure]
    assert failures[0].step_key == "paper_claims"
    assert failures[0].step_failure_data.user_failure_data.metadata["code"].value == \
        "E_EXTRACT_NO_OUTPUT"

    # 2. the next ticks skip it: the same input would fail the same way
    for _ in range(3):
        evaluation = schedule.evaluate_tick(context)
        assert not evaluation.run_requests
        assert "E_EXTRACT_NO_OUTPUT" in (evaluation.skip_message or "")

    # 3. the UI shows the partition as failed
    status = ui_partition_status(instance, "paper_claims")
    assert key in status["failedPartitions"]
    assert key in ui_partition_status(instance, "reproducibility_verdict")[
        "materializedPartitions"]

    # 4. a new input (paper_pages re-materialized) makes it eligible again, with a new key
    assert dg.materialize([INGEST_ASSETS[1]], instance=instance, partition_key=key,
                          resources=default_resources()).success
    [again] = tick()
    assert again.run_key != first.run_key
    assert "paper_chunks" in {k.to_user_string() for k in again.asset_selection}
