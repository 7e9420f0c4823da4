"""PostgreSQL + pgvector: URL resolution, the embedded server, migrations and pooling.

``REPRO_DATABASE_URL`` points at any server. When it is unset an embedded PostgreSQL from the
``pgserver`` package is started under ``data/.pg/`` (or ``REPRO_PG_DIR``) and left running, so
every later process (CLI, ``dagster dev``, tests, the API) finds and reuses it.
"""

from __future__ import annotations

import hashlib
import logging
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import ConnectionPool

from repro_assets import settings
from repro_assets.settings import environment

log = logging.getLogger(__name__)

_LOCK = threading.Lock()
_DATABASES: dict[str, Database] = {}
_MIGRATION_LOCK_KEY = 7_310_442_001  # pg_advisory_lock key for migrations
DAGSTER_DATABASE = "dagster"


class DatabaseError(RuntimeError):
    """A database operation failed; ``code`` is the project error code."""

    def __init__(self, message: str, code: str = "E_DB_INSERT_FAILED") -> None:
        super().__init__(message)
        self.code = code


def start_embedded_server(pg_dir: Path | None = None) -> str:
    """Start (or find) the embedded pgserver PostgreSQL and return its URL.

    The server is started with ``cleanup_mode=None`` so it keeps running after this process
    exits; the data directory persists either way.

    Args:
        pg_dir: data directory; defaults to ``settings.pg_data_dir()``.

    Returns:
        A ``postgresql://`` URL using a unix socket (``?host=<dir>``).
    """
    import pgserver  # imported lazily: only needed for the embedded server

    pg_dir = pg_dir or settings.pg_data_dir()
    pg_dir.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(pg_dir, cleanup_mode=None)
    return server.get_uri()


def embedded_server_running(pg_dir: Path | None = None) -> bool:
    """Whether the embedded server of ``pg_dir`` (default ``settings.pg_data_dir()``) runs."""
    from pgserver.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(pg_dir or settings.pg_data_dir())
    return info is not None and info.is_running()


def stop_embedded_server(pg_dir: Path | None = None, timeout: float = 60.0) -> bool:
    """Shut the embedded server down cleanly (a "fast" shutdown) if no client is connected.

    A server that another process still uses (a client backend in ``pg_stat_activity``) is
    left running. SIGINT to the postmaster is PostgreSQL's fast shutdown (what ``pg_ctl stop
    -m fast`` sends): sessions end, a shutdown checkpoint is written, the server exits.

    Returns:
        True when the server was stopped.
    """
    from pgserver.utils import PostmasterInfo

    pg_dir = pg_dir or settings.pg_data_dir()
    info = PostmasterInfo.read_from_pgdata(pg_dir)
    if info is None or not info.is_running():
        return False
    process = info.process
    if process is None:  # no postmaster process to signal
        return False
    with psycopg.connect(info.get_uri(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' "
            "AND pid <> pg_backend_pid()"
        ).fetchone()
    others = row[0] if row else 0
    if others:
        log.info("embedded Postgres left running: %d other connection(s)", others)
        return False
    process.send_signal(signal.SIGINT)
    process.wait(timeout)
    return True


def resolve_database_url() -> str:
    """Return ``REPRO_DATABASE_URL`` if set, else the embedded server's URL (starting it)."""
    url = settings.current().database.url
    if url:
        return url
    url = start_embedded_server()
    environment.export("REPRO_DATABASE_URL", url)
    return url


def with_database(url: str, database: str) -> str:
    """Return ``url`` with its database name replaced by ``database``."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


def dagster_database_name(url: str) -> str:
    """The Dagster database beside the project database of ``url``.

    ``REPRO_DAGSTER_DATABASE`` if set; ``dagster`` next to the embedded server's default
    ``postgres`` database; else ``<database>_dagster`` so that two projects (or two test
    databases) on one server never share a Dagster instance.
    """
    override = settings.current().database.dagster_database
    if override:
        return override
    name = urlsplit(url).path.lstrip("/") or "postgres"
    return DAGSTER_DATABASE if name == "postgres" else f"{name}_{DAGSTER_DATABASE}"


def dagster_storage_url(url: str | None = None) -> str:
    """Create the Dagster database if needed and return a ``postgresql+psycopg2://`` URL for it.

    dagster-postgres with SQLAlchemy 2.1 picks psycopg 3 for a plain ``postgresql://`` URL and
    then fails on ``NOTIFY``; an explicit psycopg2 URL avoids that.
    """
    url = url or resolve_database_url()
    name = dagster_database_name(url)
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
        ).fetchone()
        if not exists:
            try:
                conn.execute(f'CREATE DATABASE "{name}"')
            except psycopg.errors.DuplicateDatabase:
                pass
    dagster_url = with_database(url, name)
    scheme, rest = dagster_url.split("://", 1)
    return "postgresql+psycopg2://" + rest if scheme in ("postgresql", "postgres") else dagster_url


def migration_files() -> list[tuple[str, str]]:
    """Return ``(name, sql)`` for every migration, ordered by file name."""
    folder = resources.files("repro_assets") / "sql"
    files = sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".sql")),
        key=lambda entry: entry.name,
    )
    return [(entry.name, entry.read_text(encoding="utf-8")) for entry in files]


def apply_migrations(conn: psycopg.Connection) -> list[str]:
    """Apply pending migrations in order, each in its own transaction.

    Concurrent processes serialize on an advisory lock; applied migrations are recorded with
    their checksum in ``schema_migrations`` and are not run again.

    Returns:
        Names of the migrations applied by this call.
    """
    applied: list[str] = []
    conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK_KEY,))
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " name text PRIMARY KEY, checksum text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        conn.commit()
        done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations").fetchall()}
        conn.commit()
        for name, sql in migration_files():
            if name in done:
                continue
            checksum = hashlib.sha256(sql.encode()).hexdigest()
            with conn.transaction():
                conn.execute(sql)
                conn.execute(
                    "INSERT INTO schema_migrations (name, checksum) VALUES (%s, %s)",
                    (name, checksum),
                )
            applied.append(name)
            log.info("applied migration %s", name)
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK_KEY,))
        conn.commit()
    return applied


def _configure_connection(conn: psycopg.Connection) -> None:
    from pgvector.psycopg import register_vector

    register_vector(conn)
    conn.commit()


class Database:
    """A migrated database with a connection pool (one per URL per process)."""

    def __init__(self, url: str, min_size: int = 1, max_size: int = 8) -> None:
        self.url = url
        with psycopg.connect(url) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.commit()
            self.applied_migrations = apply_migrations(conn)
        self.pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            configure=_configure_connection,
            # a connection is checked before it is handed out: after a Postgres restart the
            # pool replaces its dead connections instead of failing the next requests
            check=ConnectionPool.check_connection,
            open=True,
            name="repro_assets",
        )

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """Yield a pooled connection inside a transaction (committed on success)."""
        with self.pool.connection() as conn:
            yield conn

    def close(self) -> None:
        """Close the pool."""
        self.pool.close()


def get_database(url: str | None = None) -> Database:
    """Return the process-wide :class:`Database` for ``url`` (default: resolved URL)."""
    url = url or resolve_database_url()
    with _LOCK:
        db = _DATABASES.get(url)
        if db is None:
            db = Database(url)
            _DATABASES[url] = db
        return db


def reset_databases() -> None:
    """Close every pool of this process (tests use this between servers)."""
    with _LOCK:
        for db in _DATABASES.values():
            db.close()
        _DATABASES.clear()
