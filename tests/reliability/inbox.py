"""Drop-folder helpers for the fault tests: papers to drop, broken files, ticks, runs, counts."""

from __future__ import annotations

import hashlib
from collections import Counter

import dagster as dg
import psycopg

from repro_assets.definitions import defs
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.sensors.papers import paper_inbox_sensor
from tests.pdfs import make_encrypted_pdf, make_pdf

INGEST = ("paper_pdf", "paper_pages", "paper_chunks", "paper_embeddings")
#: Row counts compared between runs (the vector store's tables and the papers table).
TABLES = ("papers", "sources", "documents", "sections", "chunks")


def paper(number: int, pages: int = 1, lines: int = 4) -> bytes:
    """A text paper whose bytes differ by ``number`` (every line of it differs)."""
    def body(page: int) -> str:
        return "".join(
            f"On page {page} we train model {number} on split {line} with seed "
            f"{number * 7 + line}; accuracy {50 + (number + line + page) % 50}.{line} percent.\n"
            for line in range(lines)
        )

    return make_pdf([f"# {page + 1} Method\n{body(page)}" for page in range(pages)],
                    title=f"Paper number {number}")


def broken_files(count: int) -> dict[str, bytes]:
    """``count`` files that must be rejected (five kinds in turn), each with distinct bytes."""
    files: dict[str, bytes] = {}
    for i in range(count):
        kind = i % 5
        if kind == 0:
            files[f"garbage{i}.pdf"] = b"%PDF-1.7\n" + f"{i}\x00garbage".encode() * 200
        elif kind == 1:
            files[f"encrypted{i}.pdf"] = make_encrypted_pdf()
        elif kind == 2:
            files[f"text{i}.pdf"] = f"just text, number {i}\n".encode() * 20
        elif kind == 3:
            files[f"empty{i}.pdf"] = b""
        else:
            files[f"notes{i}.docx"] = f"PK\x03\x04 not a pdf {i}".encode()
    return files


def tick(instance: dg.DagsterInstance, cursor: str | None = None,
         root: str = "") -> dg.SensorResult:
    """Evaluate the papers inbox sensor once (``root`` empty: ``REPRO_INBOX_ROOT``)."""
    context = dg.build_sensor_context(
        instance=instance, cursor=cursor, resources={"inbox": DropFolderResource(root=root)},
    )
    return paper_inbox_sensor(context)


def apply_partitions(instance: dg.DagsterInstance, result: dg.SensorResult) -> None:
    """Add the partitions a tick asked for, as the sensor daemon does."""
    for request in result.dynamic_partitions_requests:
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))


def run_request(instance: dg.DagsterInstance,
                request: dg.RunRequest) -> dg.ExecuteInProcessResult:
    """Execute a sensor's run request in this process (its job, config and tags)."""
    job = defs.resolve_job_def(request.job_name)
    return job.execute_in_process(instance=instance, run_config=request.run_config,
                                  tags=dict(request.tags), raise_on_error=False,
                                  partition_key=request.partition_key)


def materializations(results: list[dg.ExecuteInProcessResult]) -> Counter[tuple[str, str]]:
    """How often each (asset, partition) was materialized over ``results``."""
    counts: Counter[tuple[str, str]] = Counter()
    for result in results:
        for event in result.get_asset_materialization_events():
            counts[(event.asset_key.to_user_string(), event.partition)] += 1
    return counts


def row_counts(url: str) -> dict[str, int]:
    """Rows per table in :data:`TABLES`."""
    with psycopg.connect(url) as conn:
        return {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in TABLES}


def duplicate_rows(url: str) -> dict[str, int]:
    """Rows that repeat a natural key (0 everywhere when re-runs are idempotent)."""
    queries = {
        "papers": "SELECT count(*) - count(DISTINCT pdf_sha256) FROM papers",
        "documents": "SELECT count(*) - count(DISTINCT source_id) FROM documents",
        "chunks": "SELECT count(*) - count(DISTINCT (document_id, ordinal)) FROM chunks",
        "sections": "SELECT count(*) - count(DISTINCT (document_id, ordinal)) FROM sections",
    }
    with psycopg.connect(url) as conn:
        return {name: conn.execute(sql).fetchone()[0] for name, sql in queries.items()}


def vector_state(url: str) -> list[tuple]:
    """The stored chunks as comparable rows (paper, ordinal, hash, pages, model)."""
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT d.paper_id, c.ordinal, c.content_hash, c.page_start, c.page_end,"
            " c.embedding_model FROM chunks c JOIN documents d ON d.id = c.document_id"
            " ORDER BY d.paper_id, c.ordinal"
        ).fetchall()


def digest(data: bytes) -> str:
    """sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()
