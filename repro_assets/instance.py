"""The project's Dagster instance: DAGSTER_HOME, dagster.yaml and Postgres storage.

The CLI, ``make ui`` and ``make demo`` call :func:`prepare_dagster_env` so that headless runs
and the UI share one instance stored in Postgres.
"""

from __future__ import annotations

import logging
import os
import shutil
from importlib import resources
from pathlib import Path

import dagster as dg

from repro_assets import settings
from repro_assets.resources.database import dagster_storage_url, resolve_database_url

log = logging.getLogger(__name__)

LLM_POOLS = ("llm_openai", "llm_anthropic", "llm_openai_compatible")


def _dagster_yaml_source() -> Path:
    # the project root's dagster.yaml is a link to this packaged copy
    return Path(str(resources.files("repro_assets") / "dagster.yaml"))


def prepare_dagster_env() -> Path:
    """Start/find Postgres, write DAGSTER_HOME/dagster.yaml and export the storage URL.

    Returns:
        The DAGSTER_HOME folder.
    """
    url = resolve_database_url()
    os.environ["REPRO_DAGSTER_PG_URL"] = dagster_storage_url(url)
    home = settings.dagster_home()
    home.mkdir(parents=True, exist_ok=True)
    source = _dagster_yaml_source()
    target = home / "dagster.yaml"
    if not target.exists() or target.read_bytes() != source.read_bytes():
        shutil.copyfile(source, target)
    os.environ["DAGSTER_HOME"] = str(home)
    os.environ.setdefault("REPRO_HOME", str(settings.project_home()))
    return home


def configure_pools(instance: dg.DagsterInstance) -> None:
    """Set the LLM provider pools' limits (``REPRO_LLM_POOL_LIMIT``, default 4)."""
    limit = settings.env_int("REPRO_LLM_POOL_LIMIT", 4)
    storage = instance.event_log_storage
    for pool in LLM_POOLS:
        try:
            storage.set_concurrency_slots(pool, limit)
        except Exception as exc:  # storage without pool support: log, keep going
            log.warning("could not set pool %s: %s", pool, exc)


def get_instance() -> dg.DagsterInstance:
    """Return the project's persistent Dagster instance (Postgres-backed)."""
    prepare_dagster_env()
    instance = dg.DagsterInstance.get()
    configure_pools(instance)
    return instance
