"""Partition keys and the factory tables (``factory_texts``, ``factory_configs``,
``factory_schedules``). Functions take the :class:`Database` they use; SQL is parameterised.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import PurePosixPath
from typing import Any

from psycopg.types.json import Jsonb

from repro_assets.errors import CodedError
from repro_assets.factory.models import ExtractionError, FactoryConfig, OnboardingResult
from repro_assets.factory.simulation import Schedule
from repro_assets.storage.database import Database

KEY_HASH_CHARS = 10


class FactoryNotFound(CodedError, LookupError):
    """No stored row for that partition."""

    code = "E_FACTORY_NOT_FOUND"


def sha256_hex(data: bytes) -> str:
    """Return the hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def partition_key_for(file_name: str, data: bytes) -> str:
    """Return the partition key of a factory text: ``<slug of stem>-<sha256[:10]>``.

    The same bytes under the same name are always the same partition.
    """
    stem = PurePosixPath(file_name).stem.lower()
    slug = re.sub(r"[^a-z0-9]+", "-", stem).strip("-")[:40] or "factory"
    return f"{slug}-{sha256_hex(data)[:KEY_HASH_CHARS]}"


def text_blob_key(partition_key: str) -> str:
    """Blob-store key of a factory text."""
    return f"factories/{partition_key}/source.txt"


def gantt_blob_key(partition_key: str) -> str:
    """Blob-store key of a factory's Gantt chart."""
    return f"factories/{partition_key}/gantt.png"


def save_text(
    db: Database, partition_key: str, file_name: str, data: bytes, blob_key: str
) -> None:
    """Upsert the ``factory_texts`` row."""
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO factory_texts (partition_key, file_name, sha256, byte_size, blob_key)"
            " VALUES (%s, %s, %s, %s, %s)"
            " ON CONFLICT (partition_key) DO UPDATE SET file_name = EXCLUDED.file_name,"
            " sha256 = EXCLUDED.sha256, byte_size = EXCLUDED.byte_size,"
            " blob_key = EXCLUDED.blob_key, updated_at = now()",
            (partition_key, file_name, sha256_hex(data), len(data), blob_key),
        )


def get_text_row(db: Database, partition_key: str) -> dict[str, Any]:
    """Return the ``factory_texts`` row.

    Raises:
        FactoryNotFound: when factory_text was never materialized for the partition.
    """
    with db.connection() as conn:
        row = conn.execute(
            "SELECT partition_key, file_name, sha256, byte_size, blob_key FROM factory_texts"
            " WHERE partition_key = %s",
            (partition_key,),
        ).fetchone()
    if row is None:
        raise FactoryNotFound(f"factory text {partition_key} has not been materialized")
    keys = ("partition_key", "file_name", "sha256", "byte_size", "blob_key")
    return dict(zip(keys, row, strict=True))


def save_config(
    db: Database, partition_key: str, text_sha256: str, result: OnboardingResult
) -> None:
    """Store a successful onboarding."""
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO factory_configs (partition_key, status, method, text_sha256, config,"
            " coverage, repairs, error) VALUES (%s, 'ok', %s, %s, %s, %s, %s, NULL)"
            " ON CONFLICT (partition_key) DO UPDATE SET status = 'ok', method = EXCLUDED.method,"
            " text_sha256 = EXCLUDED.text_sha256, config = EXCLUDED.config,"
            " coverage = EXCLUDED.coverage, repairs = EXCLUDED.repairs, error = NULL,"
            " updated_at = now()",
            (
                partition_key,
                result.method,
                text_sha256,
                Jsonb(result.config.model_dump(mode="json")),
                Jsonb(result.coverage.model_dump(mode="json")),
                Jsonb(result.repairs),
            ),
        )


def save_failure(
    db: Database, partition_key: str, text_sha256: str, method: str, error: ExtractionError
) -> None:
    """Store a failed onboarding (the config is cleared, so nothing stale is served)."""
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO factory_configs (partition_key, status, method, text_sha256, config,"
            " coverage, repairs, error) VALUES (%s, 'failed', %s, %s, NULL, NULL, '[]', %s)"
            " ON CONFLICT (partition_key) DO UPDATE SET status = 'failed',"
            " method = EXCLUDED.method, text_sha256 = EXCLUDED.text_sha256, config = NULL,"
            " coverage = NULL, repairs = '[]', error = EXCLUDED.error, updated_at = now()",
            (partition_key, method, text_sha256, Jsonb(error.to_dict())),
        )
        conn.execute("DELETE FROM factory_schedules WHERE partition_key = %s", (partition_key,))


def get_config_row(db: Database, partition_key: str) -> dict[str, Any]:
    """Return the ``factory_configs`` row as a dict.

    Raises:
        FactoryNotFound: when factory_config never ran for the partition.
    """
    with db.connection() as conn:
        row = conn.execute(
            "SELECT partition_key, status, method, text_sha256, config, coverage, repairs, error,"
            " updated_at FROM factory_configs WHERE partition_key = %s",
            (partition_key,),
        ).fetchone()
    if row is None:
        raise FactoryNotFound(f"factory config {partition_key} has not been materialized")
    keys = (
        "partition_key", "status", "method", "text_sha256", "config", "coverage", "repairs",
        "error", "updated_at",
    )
    out = dict(zip(keys, row, strict=True))
    out["updated_at"] = out["updated_at"].isoformat()
    return out


def load_config(db: Database, partition_key: str) -> FactoryConfig:
    """Return the stored :class:`FactoryConfig` of a successful onboarding.

    Raises:
        FactoryNotFound: when there is no successful config for the partition.
    """
    row = get_config_row(db, partition_key)
    if row["status"] != "ok":
        raise FactoryNotFound(
            f"factory config {partition_key} failed: {row['error'].get('code')}"
        )
    return FactoryConfig.model_validate(row["config"])


def save_schedules(
    db: Database, partition_key: str, schedules: list[Schedule], gantt_key: str
) -> None:
    """Replace the stored schedules of a factory."""
    with db.connection() as conn, conn.transaction():
        conn.execute("DELETE FROM factory_schedules WHERE partition_key = %s", (partition_key,))
        for schedule in schedules:
            conn.execute(
                "INSERT INTO factory_schedules (partition_key, rule, start_hour, makespan,"
                " schedule, gantt_key) VALUES (%s, %s, %s, %s, %s, %s)",
                (
                    partition_key,
                    schedule.rule.value,
                    schedule.start_hour,
                    schedule.makespan,
                    Jsonb(schedule.model_dump(mode="json")),
                    gantt_key,
                ),
            )


def get_schedules(db: Database, partition_key: str) -> list[dict[str, Any]]:
    """Return the stored schedules of a factory (one dict per rule)."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT schedule, gantt_key FROM factory_schedules WHERE partition_key = %s"
            " ORDER BY rule",
            (partition_key,),
        ).fetchall()
    if not rows:
        raise FactoryNotFound(f"factory schedule {partition_key} has not been materialized")
    return [{**schedule, "gantt_key": gantt_key} for schedule, gantt_key in rows]
