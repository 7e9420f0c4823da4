"""Project-wide settings read from the environment.

Every knob is an environment variable so that the CLI, `dagster dev`, tests and the HTTP API
see the same configuration. Paths default to folders under the project root (the current
working directory unless ``REPRO_HOME`` is set).
"""

from __future__ import annotations

import os
from pathlib import Path


def project_home() -> Path:
    """Return the project root: ``REPRO_HOME`` or the current working directory."""
    return Path(os.environ.get("REPRO_HOME", os.getcwd())).resolve()


def data_dir() -> Path:
    """Return the data folder (``REPRO_DATA_DIR``, default ``<home>/data``)."""
    return Path(os.environ.get("REPRO_DATA_DIR", project_home() / "data")).resolve()


def env_name() -> str:
    """Return the deployment environment name used in storage paths (default ``dev``)."""
    return os.environ.get("REPRO_ENV", "dev")


def blob_root() -> str:
    """Return the blob store root: any fsspec URL (``REPRO_BLOB_ROOT``) or a local folder."""
    return os.environ.get("REPRO_BLOB_ROOT", str(data_dir() / "blobs"))


def inbox_root() -> str:
    """Return the drop-folder root: any fsspec URL (``REPRO_INBOX_ROOT``) or a local folder."""
    return os.environ.get("REPRO_INBOX_ROOT", str(data_dir() / "inbox"))


def samples_dir() -> Path:
    """Return the folder of shipped sample documents."""
    return data_dir() / "samples"


def pg_data_dir() -> Path:
    """Return the embedded Postgres data folder (``REPRO_PG_DIR``, default ``data/.pg``)."""
    return Path(os.environ.get("REPRO_PG_DIR", data_dir() / ".pg")).resolve()


def dagster_home() -> Path:
    """Return DAGSTER_HOME if set, else ``data/.dagster``."""
    return Path(os.environ.get("DAGSTER_HOME", data_dir() / ".dagster")).resolve()


def env_int(name: str, default: int) -> int:
    """Read an integer environment variable with a default.

    Raises:
        ValueError: when the variable is set but is not an integer.
    """
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ValueError(f"environment variable {name} must be an integer, got {raw!r}") from exc


def env_float(name: str, default: float) -> float:
    """Read a float environment variable with a default."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ValueError(f"environment variable {name} must be a number, got {raw!r}") from exc
