"""The project's Dagster instance: DAGSTER_HOME, dagster.yaml and Postgres storage.

Every door uses one instance: the ``repro-assets`` wrapper, ``make ui``/``make demo`` and the
plain Dagster commands (``dagster dev``, ``dagster asset materialize``, ``dagster-daemon run``,
``dagster-webserver``, ``dg``) run from the project root.

- dagster.yaml stores runs, events and schedules through :class:`ProjectPostgresStorage`,
  which finds the project's Postgres itself (``REPRO_DAGSTER_PG_URL``, else the Dagster
  database beside ``REPRO_DATABASE_URL``, else the embedded pgserver under ``data/.pg``,
  started on demand), so no command depends on a variable only the wrapper exports.
- ``make setup`` (``repro-assets init``) writes ``.env`` in the project root with
  ``DAGSTER_HOME`` and ``REPRO_HOME``; Dagster loads ``.env`` from the working directory, so the
  plain commands get the same DAGSTER_HOME (compute logs, local artifacts) as the wrapper.
"""

from __future__ import annotations

import logging
import os
import shutil
from importlib import resources
from pathlib import Path
from typing import Any

import dagster as dg
from dagster._serdes import ConfigurableClassData
from dagster_postgres import DagsterPostgresStorage

from repro_assets import settings
from repro_assets.llm import providers as llm_providers
from repro_assets.settings import environment
from repro_assets.storage.database import dagster_storage_url, resolve_database_url

log = logging.getLogger(__name__)

LLM_POOLS = llm_providers.pools()
# A local transformers model holds the machine's memory (and GPU): one generation at a time
# unless REPRO_LLM_LOCAL_POOL_LIMIT says otherwise.
LOCAL_LLM_POOLS = llm_providers.local_pools()
DOTENV_KEYS = ("DAGSTER_HOME", "REPRO_HOME")
SETUP_HINT = "run `make setup` (or `repro-assets init`) in the project root"


class InstanceSetupError(SystemExit):
    """The Dagster instance cannot find its database: one line saying what to run.

    A ``SystemExit`` so that every Dagster command (``dagster dev``, ``dagster-daemon``, ``dg``)
    stops with this message instead of a traceback through Dagster's instance loading.
    """

    def __init__(self, message: str) -> None:
        super().__init__(f"repro_assets: {message}")


def project_storage_url() -> str:
    """The ``postgresql+psycopg2://`` URL of the project's Dagster database.

    ``REPRO_DAGSTER_PG_URL`` if set; else the Dagster database beside ``REPRO_DATABASE_URL``
    or beside the embedded server (started on demand). The embedded server is only used when
    the project root is known (``REPRO_HOME``, written to ``.env`` by ``make setup``), so a
    command run in the wrong folder never creates a second, empty instance there.

    Raises:
        InstanceSetupError: no database configured, or the server cannot be reached.
    """
    config = settings.current()
    url = config.database.dagster_pg_url
    if url:
        return url
    if not (config.database.url or config.paths.home):
        raise InstanceSetupError(
            f"the Dagster instance has no database: {SETUP_HINT} (writes .env), "
            "or set REPRO_DATABASE_URL"
        )
    try:
        url = dagster_storage_url(resolve_database_url())
    except Exception as exc:  # psycopg/pgserver raise many types; all mean "no database"
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InstanceSetupError(
            f"cannot reach the project's Postgres ({first_line}); check REPRO_DATABASE_URL "
            f"or {SETUP_HINT}"
        ) from exc
    # child processes (run workers, code servers, the daemon) reuse it without a lookup
    environment.export("REPRO_DAGSTER_PG_URL", url)
    return url


class ProjectPostgresStorage(DagsterPostgresStorage):
    """dagster-postgres storage on the project's Postgres server, found or started on demand.

    Takes dagster-postgres' configuration; with neither ``postgres_url`` nor ``postgres_db``
    it uses :func:`project_storage_url`.
    """

    @classmethod
    def from_config_value(  # type: ignore[override]
        cls, inst_data: ConfigurableClassData | None, config_value: dict[str, Any]
    ) -> DagsterPostgresStorage:
        """Build the storage from dagster.yaml's ``storage: custom: config:``."""
        if config_value.get("postgres_url") or config_value.get("postgres_db"):
            storage_config: Any = config_value  # dagster-postgres' own config dict
            return DagsterPostgresStorage.from_config_value(inst_data, storage_config)
        return cls(
            postgres_url=project_storage_url(),
            should_autocreate_tables=config_value.get("should_autocreate_tables", True),
            inst_data=inst_data,
        )


def _dagster_yaml_source() -> Path:
    # the project root's dagster.yaml is a link to this packaged copy
    return Path(str(resources.files("repro_assets") / "dagster.yaml"))


def ensure_dagster_home(home: Path | None = None) -> Path:
    """Create DAGSTER_HOME with the project's dagster.yaml (copied when it differs)."""
    home = home or settings.dagster_home()
    home.mkdir(parents=True, exist_ok=True)
    source = _dagster_yaml_source()
    target = home / "dagster.yaml"
    if not target.exists() or target.read_bytes() != source.read_bytes():
        shutil.copyfile(source, target)
    return home


def write_dotenv(root: Path | None = None) -> Path:
    """Write ``DAGSTER_HOME`` and ``REPRO_HOME`` into ``<root>/.env``, keeping other lines.

    Dagster's commands load ``.env`` from their working directory, so ``dagster dev`` and
    friends run from the project root use the wrapper's DAGSTER_HOME. Rewritten atomically and
    only when a value changed.

    Returns:
        The ``.env`` path.
    """
    from dotenv import dotenv_values, set_key

    root = (root or settings.project_home()).resolve()
    path = root / ".env"
    wanted = {"DAGSTER_HOME": str(ensure_dagster_home()), "REPRO_HOME": str(root)}
    current = dotenv_values(path) if path.exists() else {}
    for key in DOTENV_KEYS:
        if current.get(key) != wanted[key]:
            path.touch(exist_ok=True)
            set_key(str(path), key, wanted[key], quote_mode="auto")
    return path


def prepare_dagster_env() -> Path:
    """Start/find Postgres, write DAGSTER_HOME/dagster.yaml and export the storage URL.

    Returns:
        The DAGSTER_HOME folder.
    """
    environment.export_default("REPRO_HOME", str(settings.project_home()))
    environment.export("REPRO_DAGSTER_PG_URL", dagster_storage_url(resolve_database_url()))
    home = ensure_dagster_home()
    environment.export("DAGSTER_HOME", str(home))
    return home


def configure_pools(instance: dg.DagsterInstance) -> None:
    """Set the LLM provider pools' limits.

    API providers: ``REPRO_LLM_POOL_LIMIT`` (default 4); a local transformers model:
    ``REPRO_LLM_LOCAL_POOL_LIMIT`` (default 1).
    """
    limit = settings.current().llm.pool_limit
    local_limit = settings.current().llm.local_pool_limit
    storage = instance.event_log_storage
    for pool in LLM_POOLS:
        try:
            storage.set_concurrency_slots(pool, local_limit if pool in LOCAL_LLM_POOLS else limit)
        except Exception as exc:  # storage without pool support: log, keep going
            log.warning("could not set pool %s: %s", pool, exc)


def get_instance(hold_connections: bool = False) -> dg.DagsterInstance:
    """Return the project's persistent Dagster instance (Postgres-backed).

    Args:
        hold_connections: keep a pooled connection per storage open for the life of the
            process. Dagster's storages open a new connection for every query by default (so
            long-lived daemons hold none); a command that runs a job in-process makes ~150
            storage queries, and reconnecting for each costs ~0.3 s per run.
    """
    prepare_dagster_env()
    instance = dg.DagsterInstance.get()
    if hold_connections:
        # the switch dagster-webserver makes for itself: pool_size 1 per storage, no timeout
        instance.optimize_for_webserver(statement_timeout=0, pool_recycle=-1, max_overflow=2)
    configure_pools(instance)
    return instance


# --------------------------------------------------------------------------- orphaned runs
#: Run tag naming the process that executes a run in process: ``host:pid:start-ticks``.
PROCESS_TAG = "repro/process"
_ACTIVE = (dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.STARTING,
           dg.DagsterRunStatus.CANCELING)


def _start_ticks(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), or None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name (field 2) may hold spaces and parentheses: fields follow the last ')'
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


def process_identity(pid: int | None = None) -> str:
    """``host:pid:start-ticks`` of a process (default: this one); pid reuse cannot fake it."""
    import socket

    pid = pid or os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_ticks(pid) or '?'}"


def process_alive(identity: str) -> bool | None:
    """Whether the process of a :func:`process_identity` still runs; None when it ran on
    another host (it cannot be checked from here)."""
    import socket

    host, _, rest = identity.partition(":")
    pid_text, _, ticks = rest.partition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return None
    current = _start_ticks(int(pid_text))
    if current is None:
        return False
    return ticks in ("?", current)


def fail_orphaned_runs(instance: dg.DagsterInstance) -> list[str]:
    """Mark failed the active runs whose executing process (``repro/process`` tag) is dead.

    A process that runs jobs in process (the API) and is killed leaves its runs STARTED for
    ever: no run worker exists for Dagster's run monitoring to check. Called when such a
    process starts; runs of live processes and of other hosts are left alone.

    Returns:
        The ids of the runs marked failed.
    """
    failed: list[str] = []
    try:
        runs = instance.get_runs(dg.RunsFilter(statuses=list(_ACTIVE)))
    except Exception as exc:  # storage unavailable: nothing to do now
        log.warning("could not look for orphaned runs: %s", exc)
        return failed
    for run in runs:
        identity = run.tags.get(PROCESS_TAG)
        if not identity or process_alive(identity) is not False:
            continue
        instance.report_run_failed(
            run, message=f"E_RUN_ORPHANED: the process that ran it ({identity}) has ended")
        failed.append(run.run_id)
    if failed:
        log.warning("marked %d orphaned run(s) failed: %s", len(failed), ", ".join(failed))
    return failed


def process_run_tags() -> dict[str, str]:
    """The tag naming this process on a run it executes in process (``repro/process``)."""
    return {PROCESS_TAG: process_identity()}


def prepare_in_process_runs(instance: dg.DagsterInstance) -> dict[str, str]:
    """What a command does before it executes runs in its own process (the CLI's ``ingest``,
    ``materialize``, ``demo``, ``research``, ``debate``; the API's runner).

    The runs a killed process of this kind left STARTED are marked failed
    (:func:`fail_orphaned_runs`, one query), and the returned tags name this process on the
    runs it is about to start, so a ``kill -9`` of it is detected the same way next time.

    Returns:
        The run tags to add to every run this process executes (:func:`process_run_tags`).
    """
    fail_orphaned_runs(instance)
    return process_run_tags()
