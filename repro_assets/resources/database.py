"""The database resource: a thin Dagster wrapper around :mod:`repro_assets.storage.database`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import dagster as dg
import psycopg

from repro_assets.storage.database import Database, get_database


class DatabaseResource(dg.ConfigurableResource):
    """PostgreSQL with pgvector for every workflow.

    Attributes:
        url: a libpq URL; empty means ``REPRO_DATABASE_URL`` or the embedded server.
    """

    url: str = ""

    def get_db(self) -> Database:
        """Return the migrated, pooled database."""
        return get_database(self.url or None)

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """Yield a pooled connection inside a transaction (committed on success)."""
        with self.get_db().connection() as conn:
            yield conn

