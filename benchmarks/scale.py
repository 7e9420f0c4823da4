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
  ``assetPartitionStatuses`` and ``partitionStats`` of ``paper_embeddings``: cold (Dagster's
  status cache empty), warm, after 100 new papers without the refresher (Dagster's cache is
  stamped with a hash of all partition keys, so a new paper makes it cold again), and steady:
  after 100 more papers and one ``papers_status_cache_sensor`` refresh (also timed);
* ``paper_inbox_sensor`` with ``--waiting`` new PDFs, then ``--files`` processed ones (the
  cursor the sensor keeps: the steady state) and one new file, via
  ``dg.build_sensor_context(cursor=..., instance=...)``;
* pgvector: ``--chunks`` 384-d unit vectors per generator in the project's chunk layout (a
  dimension-free ``vector`` column indexed as ``(embedding::vector(384))`` HNSW cosine), each
  ``--hnsw`` configuration (m:ef_construction) built with ``--build-workers`` parallel workers
  and ``--maintenance-mem`` (a spill past it is reported), build time and size, search p50/p95
  over ``--queries`` queries at each ``--ef-search`` and recall@10 against exact search (brute
  force in NumPy over the same vectors). Generators: ``clustered`` (isotropic noise around
  random centres) and ``calibrated`` (fitted to the real chunk embeddings of ``--real-store``:
  their covariance spectrum, document structure and chunk-to-chunk continuity; see
  :class:`Calibrated`); each prints its nearest-neighbour cosines beside the real ones.
  Alternatives to HNSW on the same vectors, each built after the load: ``--ivfflat`` (IVFFlat
  with that many lists, searched at each ``--probes``) and ``--two-stage`` (a table of
  per-document centroids with an HNSW index picks that many candidate documents, then their
  chunks are ranked exactly through a btree on the document id). Every search row carries the
  load average when it ended, every build the load when it finished;
* database size per paper (Dagster's share per partition, the vectors' per chunk).

Run from the project root::

    nice -n 15 .venv/bin/python benchmarks/scale.py --partitions 1000 --chunks 50000 \
        --files 300 --waiting 3
    nice -n 15 .venv/bin/python benchmarks/scale.py --partitions 10000,100000 --chunks 0
    nice -n 15 .venv/bin/python benchmarks/scale.py --partitions "" --files 0 \
        --chunks 1000000 --real-store data/eval-corpora/corpus-<key>/.pg
    nice -n 15 .venv/bin/python benchmarks/scale.py --partitions "" --files 0 \
        --chunks 1000000 --real-store real.npz --hnsw "" --ivfflat 1000 \
        --probes 1,2,4,8,16,32,64,128 --two-stage 20,50,100,200,400

``--real-store`` also takes a ``.npz`` with arrays ``vectors`` and ``docs`` (the real
embeddings and their document ids, as :func:`real_embeddings` returns them), so repeated runs
need not start the store's server.

The last line is machine-readable:
``scale: partitions=<n> backfill_tick_s=<…> status_query_s=<…> status_query_cold_s=<…>
status_refresh_s=<…> sensor_tick_s=<…> search_p95_ms=<…> recall10=<…>
search_p95_ms_calibrated=<…> recall10_calibrated=<…> chunks=<n>`` (the largest size;
status_query_s is the steady state with the refresher, status_query_cold_s the query with no
cache; sensor_tick_s the tick with the files already processed; search figures at the
configured ``REPRO_HNSW_EF_SEARCH`` on the first ``--hnsw`` configuration). The alternatives
add ``ivfflat_probes=<…> ivfflat_p95_ms=<…> ivfflat_recall10=<…>`` and
``two_stage_documents=<…> two_stage_p95_ms=<…> two_stage_recall10=<…>`` (``_calibrated``
suffixed for that generator), each at the smallest measured parameter that reaches recall@10
0.95, else the largest measured. Parts that were skipped are left out of the line.
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


def _graphql(process: Any) -> tuple[float, dict[str, Any]]:
    """Seconds of one UI partition-status query of ``paper_embeddings``, and its counts."""
    from dagster_graphql.test.utils import execute_dagster_graphql

    began = time.perf_counter()
    result = execute_dagster_graphql(process.create_request_context(), STATUS_QUERY,
                                     {"key": {"path": ["paper_embeddings"]}})
    seconds = time.perf_counter() - began
    if result.errors:
        raise RuntimeError(result.errors)
    return seconds, result.data["assetNodeOrError"]["partitionStats"]


def new_papers(instance: Any, count: int, tag: str) -> None:
    """``count`` new papers partitions, each with one ``paper_embeddings`` materialization."""
    import dagster as dg

    names = [f"{tag}{n:06d}" for n in range(count)]
    instance.add_dynamic_partitions("papers", names)
    for name in names:
        instance.report_runless_asset_event(dg.AssetMaterialization("paper_embeddings",
                                                                    partition=name))


def status_query(instance: Any, storage_url: str, size: int,
                 new: int = 100) -> dict[str, Any]:
    """Seconds of the UI's partition status query of ``paper_embeddings`` in four states.

    * ``cold``: no status cache (it is cleared first); ``warm``: the same query again;
    * ``stale``: after ``new`` new papers with no refresher: Dagster's cache is stamped with
      a hash of every partition key, so any new partition makes the next UI load rebuild it;
    * ``steady``: after ``new`` more papers and one ``papers_status_cache_sensor`` refresh
      (``refresh``: its seconds over every papers asset) - what the UI pays with the daemon on.
    """
    import psycopg
    from dagster._core.remote_origin import InProcessCodeLocationOrigin
    from dagster._core.types.loadable_target_origin import LoadableTargetOrigin
    from dagster._core.workspace.context import WorkspaceProcessContext
    from dagster._core.workspace.load_target import InProcessWorkspaceLoadTarget

    from repro_assets.definitions import defs
    from repro_assets.sensors.status_cache import papers_asset_keys, refresh_status_cache

    url = storage_url.replace("postgresql+psycopg2://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE asset_keys SET cached_status_data = NULL")
    origin = InProcessCodeLocationOrigin(LoadableTargetOrigin(
        module_name="repro_assets.definitions", attribute="defs"))
    out: dict[str, Any] = {}
    with WorkspaceProcessContext(instance, InProcessWorkspaceLoadTarget([origin])) as process:
        out["cold"], _ = _graphql(process)
        out["warm"], _ = _graphql(process)
        new_papers(instance, new, f"s{size}-")
        out["stale"], _ = _graphql(process)
        keys = papers_asset_keys(defs.get_repository_def())
        began = time.perf_counter()
        refresh_status_cache(instance, keys)
        out["build"] = time.perf_counter() - began  # other assets' caches: never built yet
        new_papers(instance, new, f"t{size}-")
        began = time.perf_counter()
        refresh_status_cache(instance, keys)
        out["refresh"] = time.perf_counter() - began
        out["steady"], out["stats"] = _graphql(process)
    return out


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
def clustered(count: int, clusters: int, rng: Any) -> tuple[Any, Any]:
    """``count`` unit vectors around ``clusters`` random centres, and ``queries``-ready centres.

    Random but clustered: isotropic noise in all 384 dimensions, so a higher intrinsic
    dimension than text embeddings have (pessimistic for HNSW).
    """
    import numpy as np

    centres = rng.standard_normal((clusters, DIM)).astype(np.float32)
    out = np.empty((count, DIM), dtype=np.float32)
    for first in range(0, count, 100_000):
        size = min(100_000, count - first)
        which = rng.integers(0, clusters, size)
        block = centres[which] + 0.6 * rng.standard_normal((size, DIM)).astype(np.float32)
        out[first:first + size] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out, centres


def clustered_set(count: int, queries: int, rng: Any) -> tuple[Any, Any]:
    """The ``clustered`` generator's vectors and queries (a new point of a random cluster)."""
    import numpy as np

    vectors, centres = clustered(count, max(10, count // 1000), rng)
    which = rng.integers(0, len(centres), queries)
    qs = centres[which] + 0.6 * rng.standard_normal((queries, DIM)).astype(np.float32)
    return vectors, qs / np.linalg.norm(qs, axis=1, keepdims=True)


def real_embeddings(source: str) -> tuple[Any, Any]:
    """Chunk embeddings and their document ids from a project store.

    Args:
        source: a Postgres URL of a store, or the data folder of an embedded pgserver holding
            one (e.g. an evaluation corpus's ``.pg``; it is started and stopped if needed).
    """
    import numpy as np
    import psycopg
    from pgvector.psycopg import register_vector

    if source.endswith(".npz"):  # a copy saved by an earlier run (see --real-store)
        saved = np.load(source)
        return saved["vectors"], saved["docs"]
    server = None
    url = source
    if not source.startswith("postgres"):
        import pgserver

        server = pgserver.get_server(Path(source), cleanup_mode="stop")
        url = server.get_uri()
    try:
        with psycopg.connect(url) as conn:
            register_vector(conn)
            rows = conn.execute("SELECT document_id, embedding FROM chunks "
                                "WHERE embedding IS NOT NULL ORDER BY id").fetchall()
    finally:
        if server is not None:
            server.cleanup()
    docs = np.array([r[0] for r in rows])
    vectors = np.stack([np.asarray(r[1].to_numpy() if hasattr(r[1], "to_numpy") else r[1],
                                   dtype=np.float32) for r in rows])
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True), docs


def _square_root(cov: Any) -> Any:
    """``L`` with ``L @ L.T == cov`` (negative eigenvalues of an estimate clipped to 0)."""
    import numpy as np

    values, vecs = np.linalg.eigh(cov)
    return (vecs * np.sqrt(np.clip(values, 0.0, None))).astype(np.float32)


def participation_ratio(vectors: Any) -> float:
    """``(sum l)^2 / sum l^2`` of the covariance eigenvalues: an intrinsic-dimension proxy."""
    import numpy as np

    values = np.clip(np.linalg.eigvalsh(np.cov(vectors, rowvar=False)), 0.0, None)
    return float(values.sum() ** 2 / (values ** 2).sum())


class Calibrated:
    """Chunks of synthetic documents with the statistics of real chunk embeddings.

    Fitted to real chunks grouped by document, in document order: document centres from
    ``N(mean, between)``; a document's chunks ``centre + u_t``, normalised, where ``u`` is a
    first-order autoregressive walk along the document (``u_t = rho u_(t-1) + sqrt(1 - rho^2)
    e_t``, stationary covariance ``within``), so neighbouring chunks share their topic as in a
    paper. ``within`` is the pooled within-document covariance, ``between`` the total
    covariance minus it, ``rho`` the lag-1 correlation of consecutive chunks' deviations from
    their document mean. The spectrum (intrinsic dimension), the document structure and the
    local continuity follow the real embeddings instead of isotropic noise.
    """

    def __init__(self, real: Any, docs: Any) -> None:
        import numpy as np

        self.mean = real.mean(axis=0)
        centred = real.copy()
        for doc in np.unique(docs):
            rows = docs == doc
            centred[rows] -= real[rows].mean(axis=0)
        within = centred.T @ centred / max(1, len(real) - len(np.unique(docs)))
        total = np.cov(real, rowvar=False)
        self.within = _square_root(within)
        self.between = _square_root(total - within)
        same = docs[1:] == docs[:-1]
        self.rho = float(np.clip((centred[1:][same] * centred[:-1][same]).sum(axis=1).mean()
                                 / (centred * centred).sum(axis=1).mean(), 0.0, 0.99))

    def _noise(self, count: int, rng: Any) -> Any:
        import numpy as np

        return rng.standard_normal((count, DIM)).astype(np.float32) @ self.within.T

    def generate(self, count: int, per_doc: int, queries: int, rng: Any) -> tuple[Any, Any]:
        """``count`` unit chunks, ``per_doc`` per document in order, and ``queries`` queries
        (each the next chunk after a random chunk: a new passage on the same topic)."""
        import numpy as np

        docs = max(1, -(-count // per_doc))
        centres = (self.mean + rng.standard_normal((docs, DIM)).astype(np.float32)
                   @ self.between.T).astype(np.float32)
        picked = rng.integers(0, count, queries)
        qs = np.empty((queries, DIM), dtype=np.float32)
        out = np.empty((count, DIM), dtype=np.float32)
        walk = self._noise(docs, rng)
        step = float(np.sqrt(1.0 - self.rho ** 2))
        for t in range(per_doc):
            if t:
                walk = self.rho * walk + step * self._noise(docs, rng)
            rows = np.arange(docs) * per_doc + t
            keep = rows < count
            block = centres[keep] + walk[keep]
            out[rows[keep]] = block / np.linalg.norm(block, axis=1, keepdims=True)
            hit = np.isin(picked, rows[keep])
            if hit.any():
                source = walk[picked[hit] // per_doc]
                nxt = (centres[picked[hit] // per_doc] + self.rho * source
                       + step * self._noise(int(hit.sum()), rng))
                qs[hit] = nxt / np.linalg.norm(nxt, axis=1, keepdims=True)
        return out, qs


def neighbour_cosines(vectors: Any) -> str:
    """Mean cosine of each vector to its 1st and 10th nearest other vector (a few thousand)."""
    import numpy as np

    scores = vectors @ vectors.T
    np.fill_diagonal(scores, -2.0)
    top = -np.sort(-scores, axis=1)[:, :10]
    return f"1st / 10th neighbour cosine {top[:, 0].mean():.3f} / {top[:, 9].mean():.3f}"


def exact_top10(vectors: Any, qs: Any) -> list[Any]:
    """1-based ids of each query's 10 nearest vectors by cosine (brute force)."""
    import numpy as np

    truth = []
    for first in range(0, len(qs), 50):
        scores = qs[first:first + 50] @ vectors.T
        top = np.argpartition(-scores, 10, axis=1)[:, :10]
        order = np.argsort(-np.take_along_axis(scores, top, axis=1), axis=1)
        truth.extend(np.take_along_axis(top, order, axis=1) + 1)
    return truth


def load_vectors(conn: Any, vectors: Any, chunks_per_paper: int) -> float:
    """(Re)create the chunk table in the project's layout and COPY ``vectors``; seconds."""
    conn.execute("DROP TABLE IF EXISTS chunks")
    conn.execute("CREATE TABLE chunks (id bigserial PRIMARY KEY, document_id bigint NOT "
                 "NULL, embedding vector NOT NULL)")
    began = time.perf_counter()
    with conn.cursor().copy("COPY chunks (document_id, embedding) FROM STDIN "
                            "WITH (FORMAT BINARY)") as copy:
        copy.set_types(["int8", "vector"])
        for n, vector in enumerate(vectors):
            copy.write_row((n // chunks_per_paper, vector))
    conn.execute("VACUUM ANALYZE chunks")
    return time.perf_counter() - began


def _sized(conn: Any, index: str, began: float, notices: list[str]) -> dict[str, float]:
    """Build seconds since ``began``, the size of ``index`` and of the rest of the table."""
    build_s = time.perf_counter() - began
    size = conn.execute("SELECT pg_relation_size(%s)", (index,)).fetchone()[0]
    table = conn.execute("SELECT pg_total_relation_size('chunks')").fetchone()[0] - size
    return {"build_s": build_s, "index_mb": size / 1e6, "table_mb": table / 1e6,
            "spilled": float(any("maintenance_work_mem" in n for n in notices)),
            "build_load": os.getloadavg()[0]}


def _prepare_build(conn: Any, workers: int, memory: str) -> list[str]:
    """Drop the chunk vector indexes, set the build's memory and workers; its notices."""
    conn.execute("DROP INDEX IF EXISTS chunks_embedding_hnsw")
    conn.execute("DROP INDEX IF EXISTS chunks_embedding_ivfflat")
    conn.execute(f"SET maintenance_work_mem = '{memory}'")
    conn.execute(f"SET max_parallel_maintenance_workers = {workers}")
    notices: list[str] = []
    conn.add_notice_handler(lambda diag: notices.append(diag.message_primary or ""))
    return notices


def build_index(conn: Any, m: int, ef_construction: int, workers: int,
                memory: str) -> dict[str, float]:
    """Build the HNSW index the project builds, with ``m``/``ef_construction``; its figures."""
    notices = _prepare_build(conn, workers, memory)
    began = time.perf_counter()
    conn.execute(f"CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw "
                 f"((embedding::vector({DIM})) vector_cosine_ops) "
                 f"WITH (m = {m}, ef_construction = {ef_construction})")
    return _sized(conn, "chunks_embedding_hnsw", began, notices)


def build_ivfflat(conn: Any, lists: int, workers: int, memory: str) -> dict[str, float]:
    """Build an IVFFlat cosine index of ``lists`` lists over the loaded chunks; its figures."""
    notices = _prepare_build(conn, workers, memory)
    began = time.perf_counter()
    conn.execute(f"CREATE INDEX chunks_embedding_ivfflat ON chunks USING ivfflat "
                 f"((embedding::vector({DIM})) vector_cosine_ops) WITH (lists = {lists})")
    return _sized(conn, "chunks_embedding_ivfflat", began, notices)


def build_two_stage(conn: Any, workers: int, memory: str) -> dict[str, float]:
    """The two-stage layout: a btree on the chunks' document id and a table of per-document
    centroids (the mean of a document's chunk vectors) with an HNSW cosine index (24/128)."""
    notices = _prepare_build(conn, workers, memory)
    began = time.perf_counter()
    conn.execute("CREATE INDEX IF NOT EXISTS chunks_document ON chunks (document_id)")
    conn.execute("DROP TABLE IF EXISTS document_centroids")
    conn.execute(f"CREATE TABLE document_centroids AS SELECT document_id, "
                 f"avg(embedding::vector({DIM}))::vector({DIM}) AS centroid FROM chunks "
                 f"GROUP BY document_id")
    conn.execute("CREATE INDEX document_centroids_hnsw ON document_centroids USING hnsw "
                 "(centroid vector_cosine_ops) WITH (m = 24, ef_construction = 128)")
    figures = _sized(conn, "chunks_document", began, notices)
    extra = conn.execute("SELECT pg_total_relation_size('document_centroids')").fetchone()[0]
    figures["index_mb"] += extra / 1e6
    return figures


def timed_search(conn: Any, qs: Any, truth: list[Any], sql: str,
                 setup: str = "") -> tuple[float, float, float, float]:
    """p50 ms, p95 ms, recall@10 of ``sql`` (``%(q)s`` the query vector) over ``qs``, and the
    load average when it ended; ``setup`` runs first (e.g. a ``SET``)."""
    import numpy as np

    if setup:
        conn.execute(setup)
    times, hits = [], 0
    for query, expected in zip(qs, truth, strict=True):
        began = time.perf_counter()
        rows = conn.execute(sql, {"q": query}).fetchall()
        times.append(time.perf_counter() - began)
        hits += len({r[0] for r in rows} & set(expected.tolist()))
    return (float(np.percentile(times, 50)) * 1e3, float(np.percentile(times, 95)) * 1e3,
            hits / (10 * len(qs)), os.getloadavg()[0])


NEAREST = (f"SELECT id FROM chunks ORDER BY embedding::vector({DIM}) <=> %(q)s::vector({DIM}) "
           "LIMIT 10")


def two_stage_sql(documents: int) -> str:
    """Stage 1: the ``documents`` nearest document centroids (HNSW); stage 2: their chunks
    ranked exactly (btree on the document id; the fence keeps the planner off any chunk
    vector index)."""
    return (f"SELECT id FROM (SELECT id, embedding::vector({DIM}) <=> %(q)s::vector({DIM}) AS d "
            f"FROM chunks WHERE document_id = ANY(ARRAY(SELECT document_id FROM "
            f"document_centroids ORDER BY centroid <=> %(q)s::vector({DIM}) LIMIT {documents}))"
            f" OFFSET 0) t ORDER BY d LIMIT 10")


def _print_searches(name: str, built: dict[str, Any], generator: str, chunks: int) -> None:
    """One line for a built index, one per search parameter."""
    print(f"  pgvector {generator} {chunks} x {DIM}-d {name}: build {built['build_s']:.0f} s"
          f" (load {built['build_load']:.1f})"
          f"{' (spilled past maintenance_work_mem)' if built['spilled'] else ''}, "
          f"index {built['index_mb']:.0f} MB, table {built['table_mb']:.0f} MB")
    for value, (p50, p95, recall, load) in built["searches"].items():
        print(f"    {built['knob']}={value:>4}: p50 {p50:.1f} ms p95 {p95:.1f} ms "
              f"recall@10 {recall:.3f} (load {load:.1f})", flush=True)


def _line_point(searches: dict[int, Any]) -> tuple[int, Any]:
    """The search parameter the ``scale:`` line reports, and its figures: the smallest that
    reaches recall@10 0.95, else the largest measured."""
    for value, figures in sorted(searches.items()):
        if figures[2] >= 0.95:
            return value, figures
    value = max(searches)
    return value, searches[value]


def _ints(text: str) -> list[int]:
    """``"1,2,3"`` as integers (empty parts ignored)."""
    return [int(v) for v in text.split(",") if v.strip()]


def vector_bench(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """Per generator: load ``args.chunks`` vectors, build each index, search.

    Indexes: each ``--hnsw`` configuration (``("hnsw", m, ef_construction)``, searched at each
    ``--ef-search``), each ``--ivfflat`` list count (``("ivfflat", lists)``, at each
    ``--probes``), and the two-stage layout (``("two_stage",)``, at each ``--two-stage``
    count of candidate documents). Returns ``{generator: {"load_s", key: {"build_s", ...,
    "knob", "searches": {value: (p50, p95, recall, load)}}}}`` and prints each figure as it
    comes.
    """
    import numpy as np
    import psycopg
    from pgvector.psycopg import register_vector

    from repro_assets import settings
    from repro_assets.storage.database import with_database

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE scale_vectors")
    vurl = with_database(url, "scale_vectors")
    configs = [tuple(int(v) for v in c.split(":")) for c in args.hnsw.split(",") if c]
    configured = settings.current().database.hnsw_ef_search
    efs = sorted(set(_ints(args.ef_search)) | {configured})
    out: dict[str, Any] = {}
    for generator in [g for g in args.generators.split(",") if g]:
        rng = np.random.default_rng(29)
        if generator == "clustered":
            vectors, qs = clustered_set(args.chunks, args.queries, rng)
        elif generator == "calibrated":
            if not args.real_store:
                print("  calibrated generator skipped: no --real-store")
                continue
            real, docs = real_embeddings(args.real_store)
            model = Calibrated(real, docs)
            vectors, qs = model.generate(args.chunks, args.chunks_per_paper, args.queries, rng)
            print(f"  calibrated on {len(real)} real chunks of {len(np.unique(docs))} "
                  f"documents: participation ratio {participation_ratio(real):.1f}, lag-1 "
                  f"correlation {model.rho:.2f}; {neighbour_cosines(real)} (real)")
        else:
            raise SystemExit(f"unknown generator {generator!r}")
        truth = exact_top10(vectors, qs)
        nearest = np.array([[vectors[t[0] - 1] @ q, vectors[t[-1] - 1] @ q]
                            for q, t in zip(qs, truth, strict=True)]).mean(axis=0)
        sample = vectors[:4000]
        print(f"  {generator}: participation ratio {participation_ratio(sample):.1f}, "
              f"{neighbour_cosines(sample)} (first 4k chunks); query cosine to its 1st / 10th "
              f"neighbour in all {args.chunks}: {nearest[0]:.3f} / {nearest[1]:.3f}",
              flush=True)
        figures: dict[Any, Any] = {}
        with psycopg.connect(vurl, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            register_vector(conn)
            figures["load_s"] = load_vectors(conn, vectors, args.chunks_per_paper)
            del vectors
            for m, ef_construction in configs:
                built: dict[str, Any] = build_index(conn, m, ef_construction,
                                                    args.build_workers, args.maintenance_mem)
                built["knob"] = "ef_search"
                built["searches"] = {
                    ef: timed_search(conn, qs, truth, NEAREST, f"SET hnsw.ef_search = {ef}")
                    for ef in efs}
                figures[("hnsw", m, ef_construction)] = built
                _print_searches(f"HNSW m={m} ef_construction={ef_construction}", built,
                                generator, args.chunks)
            for lists in _ints(args.ivfflat):
                built = build_ivfflat(conn, lists, args.build_workers, args.maintenance_mem)
                built["knob"] = "probes"
                built["searches"] = {
                    probes: timed_search(conn, qs, truth, NEAREST,
                                         f"SET ivfflat.probes = {probes}")
                    for probes in _ints(args.probes) if probes <= lists}
                figures[("ivfflat", lists)] = built
                _print_searches(f"IVFFlat lists={lists}", built, generator, args.chunks)
            plan = conn.execute("EXPLAIN " + NEAREST, {"q": qs[0]}).fetchall()
            figures["uses_index"] = any("chunks_embedding" in r[0] for r in plan)
            if _ints(args.two_stage):
                built = build_two_stage(conn, args.build_workers, args.maintenance_mem)
                built["knob"] = "documents"
                built["searches"] = {
                    n: timed_search(conn, qs, truth, two_stage_sql(n),
                                    f"SET hnsw.ef_search = {max(100, 2 * n)}")
                    for n in _ints(args.two_stage)}
                figures[("two_stage",)] = built
                _print_searches("two stages (document centroids, then their chunks)", built,
                                generator, args.chunks)
        out[generator] = figures
    return out


def database_mb(url: str, name: str) -> float:
    """Size of database ``name`` on the server of ``url`` in MB."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT pg_database_size(%s)", (name,)).fetchone()[0] / 1e6


# --------------------------------------------------------------------------- main
def main() -> None:
    """Run the benchmark and print its figures and the ``scale:`` line."""
    from repro_assets import settings

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--partitions", default="10000,100000",
                        help="comma-separated instance sizes, grown in order ('': skip)")
    parser.add_argument("--files", type=int, default=10_000,
                        help="processed PDFs in the inbox (0: skip the sensor)")
    parser.add_argument("--waiting", type=int, default=200,
                        help="new PDFs waiting for one tick (at most REPRO_INBOX_TICK_MAX_FILES "
                        "are read per tick)")
    parser.add_argument("--chunks", type=int, default=1_000_000, help="vectors (0: skip)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--chunks-per-paper", type=int, default=60,
                        help="chunks per paper (documents of the calibrated generator, size "
                        "per paper)")
    parser.add_argument("--generators", default="clustered,calibrated",
                        help="vector generators: clustered (isotropic noise around random "
                        "centres) and calibrated (fitted to --real-store's embeddings)")
    parser.add_argument("--real-store", default="",
                        help="Postgres URL or pgserver data folder of a store with real chunk "
                        "embeddings, for the calibrated generator (e.g. an evaluation "
                        "corpus's .pg folder)")
    index = settings.current().database
    parser.add_argument("--hnsw", default=f"{index.hnsw_m}:{index.hnsw_ef_construction}",
                        help="HNSW configurations m:ef_construction, comma-separated (default: "
                        "the project's, REPRO_HNSW_M:REPRO_HNSW_EF_CONSTRUCTION)")
    parser.add_argument("--ef-search", default="40,100,200,400",
                        help="hnsw.ef_search values to measure (REPRO_HNSW_EF_SEARCH is added)")
    parser.add_argument("--ivfflat", default="",
                        help="IVFFlat list counts to build after the load, comma-separated "
                        "(e.g. rows/1000 and sqrt(rows); '': none)")
    parser.add_argument("--probes", default="1,2,4,8,16,32,64",
                        help="ivfflat.probes values to measure on each IVFFlat index")
    parser.add_argument("--two-stage", default="",
                        help="candidate documents of the two-stage search to measure, "
                        "comma-separated (e.g. 10,20,50; '': skip)")
    parser.add_argument("--build-workers", type=int, default=2,
                        help="max_parallel_maintenance_workers of the index build")
    parser.add_argument("--maintenance-mem", default="6GB",
                        help="maintenance_work_mem of the index build (no spill)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.partitions.split(",") if s]
    folder = Path(tempfile.mkdtemp(prefix="repro-scale-"))
    server = start_server(folder)
    url = server.get_uri()
    line = {}
    try:
        isolate_env(folder, url)
        rows = []
        if sizes:
            instance, storage = make_instance(url, folder / "dagster_home")
            keys, _ = job_assets()
            print(f"papers_job assets: {len(keys)}; throwaway server under {folder}")
            have = 0
            for size in sizes:
                began = time.perf_counter()
                stale = grow_instance(instance, storage, keys, have, size)
                have = size
                made = time.perf_counter() - began
                tick_s, launched = backfill_tick(instance)
                status = status_query(instance, storage, size)
                dagster_mb = database_mb(url, urlsplit(storage).path.lstrip("/"))
                rows.append((size, tick_s, launched, status, dagster_mb))
                print(f"  {size:>7} partitions (built in {made:.0f} s, {stale} stale in total):"
                      f" backfill tick {tick_s:.2f} s ({launched} run requests), dagster db "
                      f"{dagster_mb:.0f} MB ({dagster_mb * 1e3 / size:.1f} kB/partition)")
                print(f"    status query: cold {status['cold']:.2f} s, warm {status['warm']:.2f}"
                      f" s, after 100 new papers without refresher {status['stale']:.2f} s; "
                      f"refresher: first build {status['build']:.2f} s, after 100 new papers "
                      f"{status['refresh']:.2f} s, then the query {status['steady']:.2f} s "
                      f"{status['stats']}", flush=True)
            last = rows[-1][3]
            line.update(partitions=sizes[-1], backfill_tick_s=f"{rows[-1][1]:.2f}",
                        status_query_s=f"{last['steady']:.2f}",
                        status_query_cold_s=f"{last['cold']:.2f}",
                        status_refresh_s=f"{last['refresh']:.2f}")
            if args.files:
                ticks = sensor_ticks(instance, folder / "data" / "inbox", args.files,
                                     args.waiting)
                line["sensor_tick_s"] = f"{ticks['processed']:.3f}"
        if args.chunks:
            vec = vector_bench(url, args)
            ef = index.hnsw_ef_search
            for generator, figures in vec.items():
                configs = [k for k in figures if isinstance(k, tuple)]
                if not configs:
                    continue
                built = figures[configs[0]]
                per_chunk = (built["index_mb"] + built["table_mb"]) * 1e6 / args.chunks
                print(f"  {generator}: load {figures['load_s']:.0f} s, index used: "
                      f"{figures['uses_index']}, {per_chunk / 1e3:.2f} kB per chunk")
                if rows:
                    per_partition = rows[-1][4] * 1e6 / rows[-1][0]
                    print(f"  size per paper: {per_partition / 1e3:.1f} kB Dagster + "
                          f"{args.chunks_per_paper} chunks x {per_chunk / 1e3:.2f} kB vectors = "
                          f"{(per_partition + args.chunks_per_paper * per_chunk) / 1e3:.0f} kB"
                          " (chunk text and other tables not included)")
                suffix = "" if generator == "clustered" else f"_{generator}"
                if configs[0][0] == "hnsw" and ef in built["searches"]:
                    p95, recall = built["searches"][ef][1:3]
                    line[f"search_p95_ms{suffix}"] = f"{p95:.1f}"
                    line[f"recall10{suffix}"] = f"{recall:.3f}"
                for key, name in [(k, k[0]) for k in configs if k[0] != "hnsw"]:
                    value, (_, p95, recall, _) = _line_point(figures[key]["searches"])
                    line[f"{name}_{figures[key]['knob']}{suffix}"] = value
                    line[f"{name}_p95_ms{suffix}"] = f"{p95:.1f}"
                    line[f"{name}_recall10{suffix}"] = f"{recall:.3f}"
            line["chunks"] = args.chunks
        print("scale: " + " ".join(f"{k}={v}" for k, v in line.items()))
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
