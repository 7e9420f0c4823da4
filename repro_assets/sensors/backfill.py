"""The papers backfill schedule, and the rule that makes its backfills converge.

Every hour the schedule looks for papers partitions whose assets are missing or older than
their inputs and launches ``papers_job`` for them, selecting only the stale assets and what
depends on them (never ``paper_pdf``: re-materializing the root would make every attempt look
like new input). It does not launch a partition again when:

* a run of that partition is queued or in progress;
* its last attempt failed with a **non-retryable** code (a property of the document or the
  configuration: ``E_PDF_CORRUPT``, ``E_EXTRACT_NO_OUTPUT``, ``E_PLAN_GUARDRAIL_FAILED`` ...)
  and none of the inputs of the stale assets was materialized since: the same input would fail
  the same way. A new input (a re-ingest, ``repro-assets materialize paper_pages --partition
  P``, a backfill launched from the UI) makes it eligible again;
* the tick already requested :data:`DEFAULT_MAX_RUNS` runs (``REPRO_BACKFILL_MAX_RUNS``):
  the other stale partitions wait for the next tick, so a tick's cost stays bounded;
* its attempts failed :data:`DEFAULT_MAX_ATTEMPTS` times (``REPRO_BACKFILL_MAX_ATTEMPTS``) with
  a retryable code (provider errors, timeouts: :data:`RETRYABLE_CODES`) or no code (a crashed
  run, a lost database) on the same input.

The failed partition stays visible in the UI as failed (the asset's partition bar and its
Partitions tab show the last attempt's failure); the tick's log says why each partition was
skipped. The run key is ``backfill-<partition>-<input fingerprint>-<attempt>``, so a retry of
the same input gets a new key and nothing else does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import dagster as dg

from repro_assets import settings
from repro_assets.partitions import PAPERS

#: Failures worth retrying with the same input: the provider, the network or the database
#: failed, not the document. Any other code is a verdict on the input.
RETRYABLE_CODES = frozenset({
    "E_LLM_RATE_LIMITED", "E_LLM_TIMEOUT", "E_LLM_PROVIDER_ERROR", "E_LLM_BAD_RESPONSE",
    "E_LLM_STREAM_INCOMPLETE", "E_EXTRACT_OPENAI_ERROR", "E_EXTRACT_RUN_FAILED",
    "E_PLAN_OPENAI_ERROR", "E_PLAN_RUN_FAILED", "E_VERIFY_FAILED", "E_DB_INSERT_FAILED",
    "E_FILESEARCH_INDEX_FAILED", "E_FETCH_FAILED", "E_RUN_CRASHED", "E_UNKNOWN",
})
DEFAULT_MAX_ATTEMPTS = 3
#: Backfill runs requested per tick at most (``REPRO_BACKFILL_MAX_RUNS``); the rest wait.
DEFAULT_MAX_RUNS = 100
BACKFILL_INPUT_TAG = "repro/backfill_input"
PARTITION_TAG = "dagster/partition"
ROOT = dg.AssetKey("paper_pdf")
_IN_FLIGHT = {dg.DagsterRunStatus.QUEUED, dg.DagsterRunStatus.NOT_STARTED,
              dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED,
              dg.DagsterRunStatus.CANCELING}


# --------------------------------------------------------------------------- the rule
@dataclass(frozen=True)
class Attempt:
    """A finished or running run of one partition, newest first in lists.

    Attributes:
        run_id: the run.
        in_flight: queued or running.
        succeeded: finished with success.
        code: the failed step's error code (None: no code, e.g. a crashed run; read for the
            newest attempt of a partition only).
        input: the backfill input fingerprint the run was launched for ("" if not a backfill).
        inputs_changed_since: an input of the stale assets was materialized after the run
            (newest attempt only).
    """

    run_id: str
    in_flight: bool = False
    succeeded: bool = False
    code: str | None = None
    input: str = ""
    inputs_changed_since: bool = False


@dataclass(frozen=True)
class Decision:
    """Launch (``attempt`` = how many failed tries this input had) or skip (``reason``)."""

    launch: bool
    attempt: int = 0
    reason: str = ""


def decide(attempts: Sequence[Attempt], fingerprint: str, max_attempts: int) -> Decision:
    """Whether a stale partition gets a backfill run now.

    Args:
        attempts: the partition's recent runs, newest first.
        fingerprint: the current input fingerprint of its stale assets.
        max_attempts: failed tries allowed per input for retryable failures.
    """
    if any(a.in_flight for a in attempts):
        running = next(a for a in attempts if a.in_flight)
        return Decision(False, reason=f"run {running.run_id} is in flight")
    last = attempts[0] if attempts else None
    if last is None or last.succeeded:
        return Decision(True)
    if last.code and last.code not in RETRYABLE_CODES and not last.inputs_changed_since:
        return Decision(False, reason=f"last attempt {last.run_id} failed with {last.code} "
                        "(not retryable); waiting for new input")
    failed_here = sum(1 for a in attempts if not a.succeeded and a.input == fingerprint)
    if failed_here >= max_attempts:
        return Decision(False, reason=f"{failed_here} attempts failed on this input (last: "
                        f"{last.code or 'no code'}); waiting for new input")
    return Decision(True, attempt=failed_here)


# --------------------------------------------------------------------------- reading the instance
@dataclass
class PartitionWork:
    """What a stale partition needs: the assets to run and the fingerprint of their inputs."""

    partition: str
    assets: set[dg.AssetKey]
    fingerprint: str
    input_storage_id: int
    inputs: set[dg.AssetKey] = field(default_factory=set)


def _downstream_closure(stale: set[dg.AssetKey], keys: Iterable[dg.AssetKey],
                        parents: Mapping[dg.AssetKey, Iterable[dg.AssetKey]]) -> set[dg.AssetKey]:
    closed = set(stale)
    changed = True
    while changed:
        changed = False
        for key in keys:
            if key not in closed and any(p in closed for p in parents.get(key, ())):
                closed.add(key)
                changed = True
    return closed


def stale_work(instance: dg.DagsterInstance, graph_keys: Sequence[dg.AssetKey],
               parents: Mapping[dg.AssetKey, Iterable[dg.AssetKey]]) -> list[PartitionWork]:
    """Papers partitions with missing or stale assets, and what a run of each must select.

    An asset is stale when it was never materialized for the partition or is older than one of
    its parents; everything downstream of a stale asset runs too. Partitions whose
    ``paper_pdf`` never materialized are left to the drop-folder sensor.
    """
    storage = instance.event_log_storage
    latest = {key: storage.get_latest_storage_id_by_partition(
        key, dg.DagsterEventType.ASSET_MATERIALIZATION) for key in graph_keys}
    work = []
    for partition in instance.get_dynamic_partitions(PAPERS):
        if partition not in latest.get(ROOT, {}):
            continue
        stale = set()
        for key in graph_keys:
            mine = latest[key].get(partition)
            if mine is None or any(latest[p].get(partition, 0) > mine
                                   for p in parents.get(key, ()) if p in latest):
                stale.add(key)
        if not stale:
            continue
        selected = _downstream_closure(stale, graph_keys, parents) - {ROOT}
        inputs = {p for key in selected for p in parents.get(key, ())
                  if p in latest and p not in selected}
        ids = sorted((p.to_user_string(), latest[p].get(partition, 0)) for p in inputs)
        digest = hashlib.sha256(repr((sorted(k.to_user_string() for k in selected), ids))
                                .encode()).hexdigest()[:12]
        work.append(PartitionWork(partition, selected, digest,
                                  max((i for _, i in ids), default=0), inputs))
    return work


def failure_code(instance: dg.DagsterInstance, run_id: str) -> str | None:
    """The error code of a failed run's first failed step (``dg.Failure`` metadata ``code``)."""
    records = instance.get_records_for_run(
        run_id, of_type=dg.DagsterEventType.STEP_FAILURE, limit=5).records
    for record in records:
        event = record.event_log_entry.dagster_event
        data = event.step_failure_data if event else None
        user = data.user_failure_data if data else None
        if user and "code" in user.metadata:
            value = user.metadata["code"]
            return str(getattr(value, "value", value))
    return None


def _last_storage_id(instance: dg.DagsterInstance, run_id: str) -> int:
    records = instance.get_records_for_run(run_id, ascending=False, limit=1).records
    return records[0].storage_id if records else 0


#: Partitions per bulk run query (a ``tags`` filter with a list of values is one ``IN``).
RUN_QUERY_BATCH = 500


def _attempt(instance: dg.DagsterInstance, run: dg.DagsterRun, work: PartitionWork,
             newest: bool) -> Attempt:
    """One run as an :class:`Attempt`; the failure code and "inputs changed since" (two event
    log reads) are only read for the newest run, the only one :func:`decide` asks them of."""
    failed = run.status in (dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED)
    inspect = failed and newest
    return Attempt(
        run_id=run.run_id,
        in_flight=run.status in _IN_FLIGHT,
        succeeded=run.status == dg.DagsterRunStatus.SUCCESS,
        code=failure_code(instance, run.run_id) if inspect else None,
        input=run.tags.get(BACKFILL_INPUT_TAG, ""),
        inputs_changed_since=inspect and work.input_storage_id > _last_storage_id(
            instance, run.run_id),
    )


def _runs_by_partition(instance: dg.DagsterInstance, partitions: Sequence[str],
                       limit: int) -> dict[str, list[dg.DagsterRun]]:
    """Each partition's ``limit`` newest runs (any job), one query per
    :data:`RUN_QUERY_BATCH` partitions."""
    by_partition: dict[str, list[dg.DagsterRun]] = {partition: [] for partition in partitions}
    names = list(by_partition)
    for start in range(0, len(names), RUN_QUERY_BATCH):
        batch = names[start:start + RUN_QUERY_BATCH]
        for run in instance.get_runs(filters=dg.RunsFilter(tags={PARTITION_TAG: batch})):
            runs = by_partition.get(run.tags.get(PARTITION_TAG, ""))
            if runs is not None and len(runs) < limit:
                runs.append(run)  # get_runs returns the newest first
    return by_partition


def _attempts(instance: dg.DagsterInstance, work: PartitionWork,
              runs: Sequence[dg.DagsterRun]) -> list[Attempt]:
    return [_attempt(instance, run, work, i == 0) for i, run in enumerate(runs)]


def plan_backfill(instance: dg.DagsterInstance, graph_keys: Sequence[dg.AssetKey],
                  parents: Mapping[dg.AssetKey, Iterable[dg.AssetKey]], max_attempts: int,
                  max_runs: int = DEFAULT_MAX_RUNS,
                  ) -> tuple[list[dg.RunRequest], dict[str, str], int]:
    """Run requests for the partitions to backfill now, ``{partition: why skipped}``, and how
    many stale partitions were left for the next tick.

    At most ``max_runs`` runs are requested per tick: the cost of a tick (the runs of each
    stale partition, Dagster's resolution of each request) then stays bounded however many
    partitions are stale, and the next tick goes on where this one stopped (the launched
    partitions are in flight or done by then).
    """
    requests: list[dg.RunRequest] = []
    skipped: dict[str, str] = {}
    works = stale_work(instance, graph_keys, parents)
    done = 0
    for start in range(0, len(works), RUN_QUERY_BATCH):
        if len(requests) >= max_runs:
            break
        batch = works[start:start + RUN_QUERY_BATCH]
        runs = _runs_by_partition(instance, [work.partition for work in batch], limit=10)
        for work in batch:
            if len(requests) >= max_runs:
                break
            done += 1
            decision = decide(_attempts(instance, work, runs[work.partition]), work.fingerprint,
                              max_attempts)
            if not decision.launch:
                skipped[work.partition] = decision.reason
                continue
            requests.append(dg.RunRequest(
                partition_key=work.partition,
                run_key=f"backfill-{work.partition}-{work.fingerprint}-{decision.attempt}",
                asset_selection=sorted(work.assets, key=lambda k: k.to_user_string()),
                tags={BACKFILL_INPUT_TAG: work.fingerprint},
            ))
    return requests, skipped, len(works) - done


@dg.schedule(
    job_name="papers_job",
    cron_schedule="0 * * * *",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Hourly: run the missing or stale assets of each paper; a partition whose last "
    "attempt failed for a reason of its own waits for new input (see the tick log).",
)
def papers_backfill_schedule(
    context: dg.ScheduleEvaluationContext,
) -> list[dg.RunRequest] | dg.SkipReason:
    """Backfill stale papers partitions (stale assets only), skipping ones that cannot pass."""
    repo = context.repository_def
    job = repo.get_job("papers_job")
    graph = repo.asset_graph
    keys = sorted(job.asset_layer.executable_asset_keys, key=lambda k: k.to_user_string())
    parents = {key: graph.get(key).parent_keys for key in keys}
    max_attempts = max(1, settings.env_int("REPRO_BACKFILL_MAX_ATTEMPTS", DEFAULT_MAX_ATTEMPTS))
    max_runs = max(1, settings.env_int("REPRO_BACKFILL_MAX_RUNS", DEFAULT_MAX_RUNS))
    requests, skipped, deferred = plan_backfill(context.instance, keys, parents, max_attempts,
                                                max_runs)
    if deferred:
        context.log.info("%d more stale partition(s) wait for the next tick (at most %d runs "
                         "per tick, REPRO_BACKFILL_MAX_RUNS)", deferred, max_runs)
    for partition, reason in sorted(skipped.items()):
        context.log.info("skipping %s: %s", partition, reason)
    context.log.info("papers to backfill: %s", [r.partition_key for r in requests])
    if not requests:
        return dg.SkipReason(
            f"nothing to backfill ({len(skipped)} stale partition(s) skipped: "
            + "; ".join(f"{p}: {r}" for p, r in sorted(skipped.items())[:5]) + ")"
            if skipped else "nothing to backfill")
    return requests
