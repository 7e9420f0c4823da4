"""Project-wide settings: the one reader of the environment.

Every knob is an environment variable so that the CLI, `dagster dev`, tests and the HTTP API
see the same configuration. :func:`current` returns the typed settings tree
(:mod:`repro_assets.settings.tree`: one group per concern, each variable with its exact name
and default); :mod:`repro_assets.settings.environment` is the only module that touches
``os.environ`` (reads, exports, a child process's environment). Paths default to folders under
the project root (the current working directory unless ``REPRO_HOME`` is set).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from repro_assets.settings import environment
from repro_assets.settings.tree import (
    PATTERN_VARIABLES,
    Settings,
    SettingsError,
    current,
    role_model,
    split_list,
    value,
    variables,
)

__all__ = [
    "PATTERN_VARIABLES", "Settings", "SettingsError", "blob_root", "current", "dagster_home",
    "data_dir", "env_float", "env_int", "env_name", "environment", "inbox_root", "pg_data_dir",
    "project_home", "role_model", "samples_dir", "split_list", "value", "variables",
]


def project_home() -> Path:
    """Return the project root: ``REPRO_HOME`` or the current working directory."""
    return Path(current().paths.home or os.getcwd()).resolve()


def data_dir() -> Path:
    """Return the data folder (``REPRO_DATA_DIR``, default ``<home>/data``)."""
    return Path(current().paths.data_dir or project_home() / "data").resolve()


def env_name() -> str:
    """Return the deployment environment name used in storage paths (default ``dev``)."""
    return current().paths.env


def blob_root() -> str:
    """Return the blob store root: any fsspec URL (``REPRO_BLOB_ROOT``) or a local folder."""
    return current().paths.blob_root or str(data_dir() / "blobs")


def inbox_root() -> str:
    """Return the drop-folder root: any fsspec URL (``REPRO_INBOX_ROOT``) or a local folder."""
    return current().paths.inbox_root or str(data_dir() / "inbox")


def samples_dir() -> Path:
    """Return the folder of shipped sample documents."""
    return data_dir() / "samples"


def pg_data_dir() -> Path:
    """Return the embedded Postgres data folder (``REPRO_PG_DIR``, default ``data/.pg``)."""
    return Path(current().paths.pg_dir or data_dir() / ".pg").resolve()


def dagster_home() -> Path:
    """Return DAGSTER_HOME if set, else ``data/.dagster``."""
    return Path(current().paths.dagster_home or data_dir() / ".dagster").resolve()


N = TypeVar("N", int, float)


def env_int(name: str, default: int) -> int:
    """Read an integer variable with a default (prefer the typed tree: :func:`current`).

    Raises:
        SettingsError: ``E_BAD_SETTING`` when the variable is set but is not an integer.
    """
    return _env_number(name, default, int, "an integer")


def env_float(name: str, default: float) -> float:
    """Read a float variable with a default (prefer the typed tree: :func:`current`).

    Raises:
        SettingsError: ``E_BAD_SETTING`` when the variable is set but is not a number.
    """
    return _env_number(name, default, float, "a number")


def _env_number(name: str, default: N, parse: Callable[[str], N], kind: str) -> N:
    """Read ``name`` with ``parse``; blank or unset gives ``default``, a bad value raises."""
    raw = environment.read(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return parse(raw)
    except ValueError as exc:
        raise SettingsError(name, kind, raw) from exc
