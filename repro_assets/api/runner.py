"""Run the project's Dagster jobs from API calls, on the project's instance.

Every API call that produces data runs the same job (same assets, same partition, same storage)
the CLI, the sensors and the UI run, so the Dagster UI shows what the API did. Runs execute in
process (``execute_in_process``) with a run id chosen up front, so a streaming endpoint can
follow the run's event log while it executes in a worker thread.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import dagster as dg
from starlette.requests import Request

from repro_assets.api.services import app_singleton
from repro_assets.instance import prepare_in_process_runs
from repro_assets.runs import failure_message, quiet_run_config

log = logging.getLogger(__name__)

#: Tag put on every run the API starts (visible and filterable in the Dagster UI).
API_TAG = "repro/source"


def metadata_values(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Unwrap Dagster ``MetadataValue``s into plain JSON-able values."""
    out: dict[str, Any] = {}
    for key, value in metadata.items():
        out[key] = getattr(value, "value", value)
    return out


def avoid_logging_reconfiguration(instance: dg.DagsterInstance) -> bool:
    """Stop runs on ``instance`` from re-running ``logging.config.dictConfig``.

    Dagster builds every run's log manager with the instance's ``python_logs`` handlers and, for
    an instance with a dagster.yaml, calls ``logging.config.dictConfig`` even when no handler
    is configured. dictConfig closes every handler of the process (uvicorn's too) under the
    logging module lock; with two runs in one process (a streaming debate and a research
    session) that deadlocks against the other run's event-log handler. When dagster.yaml
    configures no ``python_logs.dagster_handler_config`` the call returns no handlers, so it is
    replaced by the empty list it would return.

    Returns:
        True when the override was installed.
    """
    try:
        configured = instance.get_python_log_dagster_handler_config()
    except Exception:  # an instance without settings support: nothing to avoid
        return False
    if configured:
        return False
    instance.get_yaml_python_handlers = lambda: []  # type: ignore[method-assign]
    return True


@dataclass
class RunOutcome:
    """What one job run did.

    Attributes:
        run_id: the Dagster run id.
        success: True when every step succeeded.
        materializations: asset key -> metadata of its materialization in this run.
        code: the failure's error code (``dg.Failure`` metadata ``code``), if it failed.
        message: the failure's description, if it failed.
        failure_metadata: the failing step's metadata (plain values).
    """

    run_id: str
    success: bool
    materializations: dict[str, dict[str, Any]] = field(default_factory=dict)
    code: str | None = None
    message: str | None = None
    failure_metadata: dict[str, Any] = field(default_factory=dict)


def _failure_details(result: dg.ExecuteInProcessResult) -> tuple[str | None, dict[str, Any]]:
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data:
            user = event.step_failure_data.user_failure_data
            if user is not None:
                meta = metadata_values(user.metadata or {})
                return (str(meta["code"]) if "code" in meta else None), meta
            return None, {}
    return None, {}


def outcome_of(result: dg.ExecuteInProcessResult) -> RunOutcome:
    """Summarize an in-process result."""
    mats = {
        e.asset_key.to_user_string(): metadata_values(e.materialization.metadata)
        for e in result.get_asset_materialization_events()
        if e.asset_key is not None  # a materialization event always names its asset
    }
    outcome = RunOutcome(run_id=result.run_id, success=result.success, materializations=mats)
    if not result.success:
        outcome.code, outcome.failure_metadata = _failure_details(result)
        outcome.message = failure_message(result)
    return outcome


class JobRunner:
    """Materializes assets through the code location's jobs on one Dagster instance.

    Args:
        instance: the Dagster instance (the project's persistent one in production).
        defs: the code location's definitions (default: :mod:`repro_assets.definitions`).
    """

    def __init__(self, instance: dg.DagsterInstance, defs: dg.Definitions | None = None) -> None:
        self.instance = instance
        self._defs = defs
        self._lock = threading.Lock()
        avoid_logging_reconfiguration(instance)
        # runs a killed API process left STARTED are failed; ours carry this process's tag
        self._process_tags = prepare_in_process_runs(instance)

    @property
    def defs(self) -> dg.Definitions:
        """The definitions (imported lazily: loading them imports every workflow)."""
        if self._defs is None:
            from repro_assets.definitions import defs

            self._defs = defs
        return self._defs

    def ensure_partition(self, partitions_def_name: str, key: str) -> bool:
        """Add a dynamic partition key if missing. Returns True when it was added."""
        with self._lock:
            if self.instance.has_dynamic_partition(partitions_def_name, key):
                return False
            self.instance.add_dynamic_partitions(partitions_def_name, [key])
            return True

    def run(
        self,
        job_name: str,
        partition_key: str | None = None,
        *,
        run_config: Mapping[str, Any] | None = None,
        asset_selection: Sequence[str] | None = None,
        tags: Mapping[str, str] | None = None,
        run_id: str | None = None,
    ) -> RunOutcome:
        """Execute a job in process (blocking) and summarize it; failures are returned.

        Args:
            job_name: a job of the code location (``paper_ingest_job`` ...).
            partition_key: the partition to materialize.
            run_config: run configuration (the console logger is set to INFO).
            asset_selection: asset keys to run within the job (default: all of it).
            tags: extra run tags (``repro/source=api`` is always added).
            run_id: the run id to use (default: a new uuid).
        """
        job = self.defs.resolve_job_def(job_name)
        selection = [dg.AssetKey.from_user_string(k) for k in asset_selection or []] or None
        result = job.execute_in_process(
            instance=self.instance,
            partition_key=partition_key,
            run_config=quiet_run_config(run_config),
            asset_selection=selection,
            tags={API_TAG: "api", **self._process_tags, **dict(tags or {})},
            run_id=run_id or str(uuid.uuid4()),
            raise_on_error=False,
        )
        return outcome_of(result)

    def start(
        self,
        job_name: str,
        partition_key: str | None = None,
        *,
        run_config: Mapping[str, Any] | None = None,
        asset_selection: Sequence[str] | None = None,
        tags: Mapping[str, str] | None = None,
    ) -> BackgroundRun:
        """Start :meth:`run` in a daemon thread; the run id is known immediately."""
        handle = BackgroundRun(run_id=str(uuid.uuid4()))

        def target() -> None:
            try:
                handle.outcome = self.run(job_name, partition_key, run_config=run_config,
                                          asset_selection=asset_selection, tags=tags,
                                          run_id=handle.run_id)
            except Exception as exc:  # a crash outside the steps (bad config, storage ...)
                log.exception("job %s[%s] crashed", job_name, partition_key)
                handle.outcome = RunOutcome(run_id=handle.run_id, success=False,
                                            code="E_RUN_CRASHED", message=str(exc))
            finally:
                handle.done.set()

        handle.thread = threading.Thread(target=target, name=f"api-{job_name}", daemon=True)
        handle.thread.start()
        return handle

    def records(self, run_id: str, cursor: int = 0) -> tuple[list[dg.EventLogEntry], int]:
        """Event-log entries of a run after ``cursor`` (an index); returns (entries, cursor)."""
        try:
            entries = list(self.instance.all_logs(run_id))
        except Exception as exc:  # the run may not be stored yet
            log.debug("no logs yet for %s: %s", run_id, exc)
            return [], cursor
        return entries[cursor:], len(entries)

    def latest_materialization(self, asset: str, partition_key: str) -> dict[str, Any] | None:
        """Metadata (plain values) of the asset partition's latest materialization, or None."""
        result = self.instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey.from_user_string(asset),
                                  asset_partitions=[partition_key]),
            limit=1,
        )
        if not result.records:
            return None
        record = result.records[0]
        mat = record.asset_materialization
        values = metadata_values(mat.metadata if mat else {})
        values["_run_id"] = record.run_id
        values["_timestamp"] = record.timestamp
        return values


@dataclass
class BackgroundRun:
    """A job run executing in a worker thread."""

    run_id: str
    done: threading.Event = field(default_factory=threading.Event)
    outcome: RunOutcome | None = None
    thread: threading.Thread | None = None


def get_runner(request: Request) -> JobRunner:
    """FastAPI dependency: the app's :class:`JobRunner` on the services' Dagster instance.

    Built on first use (opening the project's instance starts/migrates its storage) and kept on
    ``app.state``.
    """
    services = request.app.state.services
    return app_singleton(request, "job_runner", lambda: JobRunner(services.instance()))
