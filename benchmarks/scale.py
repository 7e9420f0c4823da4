"""Scale benchmark (issue #29): many papers partitions, a full inbox, a large vector index.

Everything runs on a throwaway embedded Postgres (pgserver in a temp folder, stopped at the
end), never the project's data folder. What is measured:

* an instance with ``--partitions`` papers partitions (e.g. ``10000,100000``). Partitions are
  added with Dagster's storage API (``add_dynamic_partitions``); the materialization events of
  every ``papers_job`` asset are **bulk inserted** (``COPY`` into ``event_logs``) from a real
  event that ``report_runless_asset_event`` stored, with the partition replaced, then each asset
  is reported once more through the API so ``asset_keys`` is current. One partition in 100 lacks
  its last asset (stale) and has one failed run (``add_run``), as a backfill would find it;
* ``papers_backfill_schedule`` evaluated on the real definitions at each size;
* the asset's partition status through the webserver's GraphQL (in-process workspace):
  ``assetPartitionStatuses`` and ``partitionStats`` of ``paper_embeddings``, cold and warm;
* ``paper_inbox_sensor`` with ``--waiting`` new PDFs, then ``--files`` processed ones (the
  cursor the sensor keeps: the steady state) and one new file, via
  ``dg.build_sensor_context(cursor=..., instance=...)``;
* pgvector: ``--chunks`` random-but-clustered 384-d unit vectors in the project's chunk layout
  (a dimension-free ``vector`` column indexed as ``(embedding::vector(384))`` HNSW cosine, the
  project's defaults m=16, ef_construction=64), build time and size, search p50/p95 over
  ``--queries`` queries at several ``hnsw.ef_search`` and recall@10 against exact search
  (brute force in NumPy over the same vectors);
* database size per paper (Dagster's share per partition, the vectors' per chunk).

Run from the project root::

    nice -n 15 .venv/bin/python benchmarks/scale.py --partitions 1000 --chunks 50000 \
        --files 300 --waiting 3
    nice -n 15 .venv/bin/python benchmarks/scale.py   # 10k + 100k partitions, 1M chunks

The last line is machine-readable:
``scale: partitions=<n> backfill_tick_s=<…> sensor_tick_s=<…> status_query_s=<…>
search_p95_ms=<…> recall10=<…>`` (the largest size; sensor_tick_s is the tick with the
files already processed; status_query_s the cold query).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

DIM = 384
STATUS_QUERY = """
query ($key: AssetKeyInput!) {
  assetNodeOrError(assetKey: $key) {
    ... on AssetNode {
      partitionStats { numMaterialized numPartitions numFailed numMaterializing }
      assetPartitionStatuses {
        ... on DefaultPartitionStatuses { materializedPartitions failedPartitions }
      }
    }
  }
}
"""


# --------------------------------------------------------------------------- set-up
def start_server(folder: Path) -> Any:
    """A throwaway pgserver under ``folder`` (stopped by ``server.cleanup()``)."""
    import pgserver

    return pgserver.get_server(folder / "pg", cleanup_mode="stop")


def isolate_env(folder: Path, url: str) -> None:
    """Point every project setting at ``folder`` and the throwaway server."""
    os.environ.update({
        "REPRO_DATABASE_URL": url,
        "REPRO_DATA_DIR": str(folder / "data"),
        "REPRO_BLOB_ROOT": str(folder / "data" / "blobs"),
        "REPRO_INBOX_ROOT": str(folder / "data" / "inbox"),
        "DAGSTER_HOME": str(folder / "dagster_home"),
        "HF_HUB_OFFLINE": "1",
    })
    os.environ.pop("REPRO_DAGSTER_PG_URL", None)
    os.environ.pop("REPRO_HOME", None)
    (folder / "dagster_home").mkdir(parents=True)


def make_instance(url: str, home: Path) -> Any:
    """A Dagster instance on a new database of the throwaway server."""
    import dagster as dg

    from repro_assets.storage.database import dagster_storage_url

    storage = dagster_storage_url(url)
    (home / "dagster.yaml").write_text(
        f"storage:\n  postgres:\n    postgres_url: \"{storage}\"\n"
        "telemetry:\n  enabled: false\n")
    return dg.DagsterInstance.from_config(str(home)), storage


def job_assets() -> tuple[list[Any], dict[Any, set[Any]]]:
    """``papers_job``'s assets in dependency order, and their parents."""
    from repro_assets.definitions import defs

    repo = defs.get_repository_def()
    job = repo.get_job("papers_job")
    graph = repo.asset_graph
    keys = set(job.asset_layer.executable_asset_keys)
    parents = {key: set(graph.get(key).parent_keys) & keys for key in keys}
    ordered: list[Any] = []
    while len(ordered) < len(keys):
        for key in sorted(keys - set(ordered), key=lambda k: k.to_user_string()):
            if parents[key] <= set(ordered):
                ordered.append(key)
    return ordered, parents


# --------------------------------------------------------------------------- synthetic instance
def grow_instance(instance: Any, storage_url: str, keys: list[Any], start: int,
                  stop: int) -> int:
    """Add partitions ``p{start}..p{stop-1}`` with materializations; return stale count."""
    import dagster as dg
    import psycopg
    from dagster._core.utils import make_new_run_id

    names = [f"p{n:07d}" for n in range(start, stop)]
    for first in range(0, len(names), 10_000):
        instance.add_dynamic_partitions("papers", names[first:first + 10_000])
    url = storage_url.replace("postgresql+psycopg2://", "postgresql://", 1)
    stale = [name for n, name in zip(range(start, stop), names, strict=True) if n % 100 == 0]
    stale_set = set(stale)
    with psycopg.connect(url, autocommit=True) as conn:
        for position, key in enumerate(keys):
            instance.report_runless_asset_event(dg.AssetMaterialization(key, partition="@@P@@"))
            row = conn.execute(
                "SELECT id, event, dagster_event_type, timestamp, asset_key FROM event_logs "
                "WHERE partition = '@@P@@' ORDER BY id DESC LIMIT 1").fetchone()
            conn.execute("DELETE FROM event_logs WHERE partition = '@@P@@'")
            _, event, event_type, stamp, asset_key = row
            last = position == len(keys) - 1
            buffer = io.StringIO()
            for name in names:
                if last and name in stale_set:
                    continue
                text = event.replace("@@P@@", name).replace("\\", "\\\\")
                buffer.write(f"\t{text}\t{event_type}\t{stamp.isoformat()}\t{asset_key}\t"
                             f"{name}\n")
            with conn.cursor().copy(
                    "COPY event_logs (run_id, event, dagster_event_type, timestamp, asset_key, "
                    "partition) FROM STDIN") as copy:
                copy.write(buffer.getvalue())
        conn.execute("ANALYZE event_logs")
    for key in keys:  # asset_keys rows current, through the API
        instance.report_runless_asset_event(dg.AssetMaterialization(key, partition=names[1]))
    for name in stale:
        instance.add_run(dg.DagsterRun(job_name="papers_job", run_id=make_new_run_id(),
                                       status=dg.DagsterRunStatus.FAILURE,
                                       tags={"dagster/partition": name}))
    return len(stale)


def backfill_tick(instance: Any) -> tuple[float, int]:
    """Seconds of one ``papers_backfill_schedule`` evaluation, and its run requests."""
    import dagster as dg

    from repro_assets.definitions import defs

    schedule = defs.resolve_schedule_def("papers_backfill_schedule")
    context = dg.build_schedule_context(instance=instance,
                                        repository_def=defs.get_repository_def())
    began = time.perf_counter()
    result = schedule.evaluate_tick(context)
    return time.perf_counter() - began, len(result.run_requests or [])


def status_query(instance: Any) -> tuple[float, float, dict[str, Any]]:
    """Cold and warm seconds of the UI's partition status query of ``paper_embeddings``."""
    from dagster._core.remote_origin import InProcessCodeLocationOrigin
    from dagster._core.types.loadable_target_origin import LoadableTargetOrigin
    from dagster._core.workspace.context import WorkspaceProcessContext
    from dagster._core.workspace.load_target import InProcessWorkspaceLoadTarget
    from dagster_graphql.test.utils import execute_dagster_graphql

    origin = InProcessCodeLocationOrigin(LoadableTargetOrigin(
        module_name="repro_assets.definitions", attribute="defs"))
    times = []
    with WorkspaceProcessContext(instance, InProcessWorkspaceLoadTarget([origin])) as process:
        for _ in range(2):
            began = time.perf_counter()
            result = execute_dagster_graphql(process.create_request_context(), STATUS_QUERY,
                                             {"key": {"path": ["paper_embeddings"]}})
            times.append(time.perf_counter() - began)
            if result.errors:
                raise RuntimeError(result.errors)
    return times[0], times[1], result.data["assetNodeOrError"]["partitionStats"]


# --------------------------------------------------------------------------- the inbox sensor
def small_pdf(n: int) -> bytes:
    """A one-page PDF whose text (and so bytes and paper id) is unique to ``n``."""
    import fitz

    doc = fitz.open()
    page = doc.new_page()
    page.insert_text((72, 72), f"Synthetic benchmark note {n}\nA short abstract line.")
    data = doc.tobytes()
    doc.close()
    return data


def sensor_ticks(instance: Any, inbox: Path, files: int, waiting: int) -> dict[str, float]:
    """Seconds of inbox ticks: ``waiting`` new PDFs; then ``files`` processed ones (the cursor
    the sensor keeps for processed files, written here for all of them), then one new file."""
    import json

    import dagster as dg

    from repro_assets.resources.dropfolder import DropFolderResource
    from repro_assets.sensors.papers import _signature, paper_inbox_sensor

    folder = inbox / "papers"
    folder.mkdir(parents=True, exist_ok=True)

    def tick(cursor: str | None) -> tuple[float, dg.SensorResult]:
        context = dg.build_sensor_context(
            instance=instance, cursor=cursor,
            resources={"inbox": DropFolderResource(root=str(inbox))})
        began = time.perf_counter()
        result = paper_inbox_sensor(context)
        return time.perf_counter() - began, result

    for n in range(waiting):
        (folder / f"new-{n:06d}.pdf").write_bytes(small_pdf(n))
    waiting_s, first = tick(None)
    for request in first.dynamic_partitions_requests:
        instance.add_dynamic_partitions("papers", list(request.partition_keys))
    for n in range(waiting, files):
        (folder / f"drop-{n:06d}.pdf").write_bytes(small_pdf(n))
    cursor = {path.name: _signature(path.stat().st_size, path.stat().st_mtime)
              for path in folder.glob("*.pdf")}
    processed, second = tick(json.dumps(cursor, sort_keys=True))
    (folder / "extra.pdf").write_bytes(small_pdf(files + 1))
    one_more, _ = tick(second.cursor)
    read = len(json.loads(first.cursor or "{}"))  # a tick reads REPRO_INBOX_TICK_MAX_FILES
    print(f"  sensor: {waiting} waiting, {read} read in {waiting_s:.2f} s "
          f"({waiting_s / max(1, read):.2f} s/file, {len(first.run_requests)} run requests), "
          f"{files} processed "
          f"{processed:.3f} s, +1 new {one_more:.3f} s "
          f"(cursor {len(second.cursor or '') / 1e6:.2f} MB)")
    return {"waiting": waiting_s, "processed": processed, "one_more": one_more}


# --------------------------------------------------------------------------- pgvector
def clustered(count: int, clusters: int, rng: Any) -> Any:
    """``count`` unit vectors around ``clusters`` random centres (float32)."""
    import numpy as np

    centres = rng.standard_normal((clusters, DIM)).astype(np.float32)
    out = np.empty((count, DIM), dtype=np.float32)
    for first in range(0, count, 100_000):
        size = min(100_000, count - first)
        which = rng.integers(0, clusters, size)
        block = centres[which] + 0.6 * rng.standard_normal((size, DIM)).astype(np.float32)
        out[first:first + size] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out, centres


def vector_bench(url: str, chunks: int, queries: int, chunks_per_paper: int) -> dict[str, Any]:
    """Load, index and search ``chunks`` vectors on a new database of the server."""
    import numpy as np
    import psycopg
    from pgvector.psycopg import register_vector

    from repro_assets.storage.database import with_database

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE scale_vectors")
    vurl = with_database(url, "scale_vectors")
    rng = np.random.default_rng(29)
    vectors, centres = clustered(chunks, max(10, chunks // 1000), rng)
    which = rng.integers(0, len(centres), queries)
    qs = centres[which] + 0.6 * rng.standard_normal((queries, DIM)).astype(np.float32)
    qs /= np.linalg.norm(qs, axis=1, keepdims=True)
    truth = []
    for first in range(0, queries, 50):
        scores = qs[first:first + 50] @ vectors.T
        truth.extend(np.argsort(-scores, axis=1)[:, :10] + 1)  # ids are 1-based
    out: dict[str, Any] = {}
    with psycopg.connect(vurl, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        register_vector(conn)
        conn.execute("CREATE TABLE chunks (id bigserial PRIMARY KEY, document_id bigint NOT "
                     "NULL, embedding vector NOT NULL)")
        began = time.perf_counter()
        with conn.cursor().copy("COPY chunks (document_id, embedding) FROM STDIN "
                                "WITH (FORMAT BINARY)") as copy:
            copy.set_types(["int8", "vector"])
            for n, vector in enumerate(vectors):
                copy.write_row((n // chunks_per_paper, vector))
        out["load_s"] = time.perf_counter() - began
        conn.execute("SET maintenance_work_mem = '3GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        began = time.perf_counter()
        conn.execute(f"CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw "
                     f"((embedding::vector({DIM})) vector_cosine_ops)")
        out["build_s"] = time.perf_counter() - began
        conn.execute("VACUUM ANALYZE chunks")
        out["index_mb"] = conn.execute(
            "SELECT pg_relation_size('chunks_embedding_hnsw')").fetchone()[0] / 1e6
        out["table_mb"] = conn.execute(
            "SELECT pg_total_relation_size('chunks') - pg_relation_size('chunks_embedding_hnsw')"
        ).fetchone()[0] / 1e6
        out["searches"] = {}
        for ef in (40, 100, 200):
            conn.execute(f"SET hnsw.ef_search = {ef}")
            times, hits = [], 0
            for query, expected in zip(qs, truth, strict=True):
                began = time.perf_counter()
                rows = conn.execute(
                    f"SELECT id FROM chunks ORDER BY embedding::vector({DIM}) <=> "
                    f"%s::vector({DIM}) LIMIT 10", (query,)).fetchall()
                times.append(time.perf_counter() - began)
                hits += len({r[0] for r in rows} & set(expected.tolist()))
            out["searches"][ef] = (float(np.percentile(times, 50)) * 1e3,
                                   float(np.percentile(times, 95)) * 1e3, hits / (10 * queries))
        plan = conn.execute(f"EXPLAIN SELECT id FROM chunks ORDER BY embedding::vector({DIM}) <=>"
                            f" %s::vector({DIM}) LIMIT 10", (qs[0],)).fetchall()
        out["uses_index"] = any("chunks_embedding_hnsw" in r[0] for r in plan)
    return out


def database_mb(url: str, name: str) -> float:
    """Size of database ``name`` on the server of ``url`` in MB."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT pg_database_size(%s)", (name,)).fetchone()[0] / 1e6


# --------------------------------------------------------------------------- main
def main() -> None:
    """Run the benchmark and print its figures and the ``scale:`` line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--partitions", default="10000,100000",
                        help="comma-separated instance sizes, grown in order")
    parser.add_argument("--files", type=int, default=10_000,
                        help="processed PDFs in the inbox")
    parser.add_argument("--waiting", type=int, default=200,
                        help="new PDFs waiting for one tick (at most REPRO_INBOX_TICK_MAX_FILES "
                        "are read per tick)")
    parser.add_argument("--chunks", type=int, default=1_000_000, help="vectors (0: skip)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--chunks-per-paper", type=int, default=60,
                        help="chunks per paper assumed for the size per paper")
    args = parser.parse_args()
    sizes = [int(s) for s in args.partitions.split(",") if s]
    folder = Path(tempfile.mkdtemp(prefix="repro-scale-"))
    server = start_server(folder)
    url = server.get_uri()
    try:
        isolate_env(folder, url)
        instance, storage = make_instance(url, folder / "dagster_home")
        keys, _ = job_assets()
        print(f"papers_job assets: {len(keys)}; throwaway server under {folder}")
        have = 0
        rows = []
        for size in sizes:
            began = time.perf_counter()
            stale = grow_instance(instance, storage, keys, have, size)
            have = size
            made = time.perf_counter() - began
            tick_s, launched = backfill_tick(instance)
            cold, warm, stats = status_query(instance)
            dagster_mb = database_mb(url, urlsplit(storage).path.lstrip("/"))
            rows.append((size, tick_s, launched, cold, warm, dagster_mb))
            print(f"  {size:>7} partitions (built in {made:.0f} s, {stale} stale in total): "
                  f"backfill tick {tick_s:.2f} s ({launched} run requests), status query "
                  f"cold {cold:.2f} s warm {warm:.2f} s {stats}, dagster db {dagster_mb:.0f} MB"
                  f" ({dagster_mb * 1e3 / size:.1f} kB/partition)")
        ticks = sensor_ticks(instance, folder / "data" / "inbox", args.files,
                             args.waiting)
        vec: dict[str, Any] = {}
        if args.chunks:
            vec = vector_bench(url, args.chunks, args.queries, args.chunks_per_paper)
            print(f"  pgvector {args.chunks} x {DIM}-d: load {vec['load_s']:.0f} s, HNSW build "
                  f"{vec['build_s']:.0f} s, index {vec['index_mb']:.0f} MB, table "
                  f"{vec['table_mb']:.0f} MB, index used: {vec['uses_index']}")
            for ef, (p50, p95, recall) in vec["searches"].items():
                print(f"    ef_search={ef:>3}: p50 {p50:.1f} ms p95 {p95:.1f} ms "
                      f"recall@10 {recall:.3f}")
            per_chunk = (vec["index_mb"] + vec["table_mb"]) * 1e6 / args.chunks
            per_partition = rows[-1][5] * 1e6 / rows[-1][0]
            print(f"  size per paper: {per_partition / 1e3:.1f} kB Dagster + "
                  f"{args.chunks_per_paper} chunks x {per_chunk / 1e3:.2f} kB vectors = "
                  f"{(per_partition + args.chunks_per_paper * per_chunk) / 1e3:.0f} kB "
                  "(chunk text and other tables not included)")
        p95, recall = vec.get("searches", {}).get(100, (0.0, float("nan"), float("nan")))[1:]
        size, tick_s, _, cold, _, _ = rows[-1]
        print(f"scale: partitions={size} backfill_tick_s={tick_s:.2f} "
              f"sensor_tick_s={ticks['processed']:.3f} status_query_s={cold:.2f} "
              f"search_p95_ms={p95:.1f} recall10={recall:.3f}")
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
