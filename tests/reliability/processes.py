"""Run project commands in real subprocesses, and kill them with SIGKILL at a chosen moment."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
#: Polling bound for a kill point, counted in polls (never asserted as a duration).
MAX_POLLS = 15000
_DATE = re.compile(r"/\d{4}/\d{2}/\d{2}/")


def project_env(database_url: str, data: Path) -> dict[str, str]:
    """The environment of a command working on ``database_url`` with its files under ``data``."""
    env = dict(os.environ)
    env.pop("REPRO_DAGSTER_PG_URL", None)  # derived from REPRO_DATABASE_URL in the child
    env.update(
        REPRO_DATABASE_URL=database_url,
        REPRO_DATA_DIR=str(data),
        REPRO_BLOB_ROOT=str(data / "blobs"),
        REPRO_INBOX_ROOT=str(data / "inbox"),
        DAGSTER_HOME=str(data / "dagster_home"),
        PYTHONPATH=str(ROOT),
    )
    return env


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start ``args`` (``python -m ...`` when the first item is a module) with output to ``log``."""
    command = [sys.executable, "-m", *args] if not args[0].startswith("/") else args
    handle = log.open("ab")
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT,
                            start_new_session=True)


def run(args: list[str], env: dict[str, str], log: Path, timeout: float = 600) -> int:
    """Run ``args`` to the end and return its exit status."""
    process = start(args, env, log)
    return process.wait(timeout=timeout)


def wait_for(process: subprocess.Popen[bytes], ready: Callable[[], bool],
             pause: float = 0.02) -> bool:
    """Poll ``ready()`` while ``process`` runs.

    Returns:
        True as soon as ``ready()`` is true with the process still running; False when the
        process exited first (the point was never reached while it ran).

    Raises:
        AssertionError: after :data:`MAX_POLLS` polls (the process is killed).
    """
    for _ in range(MAX_POLLS):
        if process.poll() is not None:
            return False
        if ready():
            return process.poll() is None
        time.sleep(pause)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    raise AssertionError("the point was not reached")


def kill_when(process: subprocess.Popen[bytes], ready: Callable[[], bool]) -> bool:
    """SIGKILL ``process`` (and its process group) as soon as ``ready()`` is true.

    Returns:
        True when the kill happened while the process was still running; False when it had
        already exited (the kill point was never reached).
    """
    if not wait_for(process, ready):
        return False
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    return True


def scalar(url: str, sql: str, params: tuple = ()) -> object:
    """The first column of the first row of ``sql`` (None when no row)."""
    with psycopg.connect(url, connect_timeout=5) as conn:
        row = conn.execute(sql, params).fetchone()
    return row[0] if row else None


def files_state(folder: Path) -> dict[str, str]:
    """``{relative path (dates masked): sha256}`` of every file under ``folder``."""
    state = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            relative = _DATE.sub("/DATE/", "/" + path.relative_to(folder).as_posix())
            state[relative.lstrip("/")] = hashlib.sha256(path.read_bytes()).hexdigest()
    return state


def create_database(server_url: str, name: str) -> str:
    """Create (empty) database ``name`` on the session server, migrated; return its URL."""
    from repro_assets.storage.database import get_database, with_database

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(server_url, name)
    get_database(url)  # migrate
    return url


def drop_database(server_url: str, name: str) -> None:
    """Drop ``name`` and its Dagster database."""
    from repro_assets.storage.database import reset_databases

    reset_databases()
    with psycopg.connect(server_url, autocommit=True) as conn:
        for database in (name, f"{name}_dagster"):
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
