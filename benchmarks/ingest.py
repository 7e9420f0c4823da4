"""Ingest benchmark: our pipeline vs the raw PyMuPDF + embedding floor, and HNSW quality.

Prints:
- pages/s of our text extraction, chunks/s of embedding, rows/s of the pgvector upsert,
  end-to-end seconds per paper (the four ingest assets through Dagster), and the ratio of that
  end-to-end time to the raw floor measured in the same run (plain ``page.get_text()`` of the
  same pages + the embedder's ``encode`` of the same chunk texts). Goal: ratio < 1.25.
- top-10 query latency (p50/p95) and recall@10 of the HNSW index against exact search at 10k
  and 100k chunks. The large corpora are built from real embeddings of generated paper text,
  mixed and perturbed so they keep the distribution of real chunk vectors.

Usage: ``python benchmarks/ingest.py [--pages 120] [--papers 2] [--sizes 10000 100000]``.
Runs against a scratch database on the project's Postgres (embedded unless
REPRO_DATABASE_URL is set) and drops it afterwards.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import dagster as dg  # noqa: E402
import numpy as np  # noqa: E402
import psycopg  # noqa: E402
import pymupdf  # noqa: E402

from repro_assets.storage.database import (
    get_database,
    reset_databases,
    resolve_database_url,
    with_database,
)

TOPICS = [
    ("logistic regression", "breast cancer", "accuracy"),
    ("random forest", "wine", "macro F1"),
    ("gradient boosting", "digits", "accuracy"),
    ("linear support vector machine", "iris", "accuracy"),
    ("multilayer perceptron", "digits", "cross-entropy loss"),
]
SENTENCES = [
    "We train a {m} on the {d} dataset with a stratified 80/20 split and seed {s}.",
    "The {m} reaches {v:.1f}% {k} on the held-out {d} test set after {e} epochs.",
    "Hyperparameters were selected by five-fold cross-validation over a grid of {g} settings.",
    "Compared with the baseline, the {m} reduces the error rate by {r:.1f} points on {d}.",
    "Features are standardized to zero mean and unit variance before training the {m}.",
    "We report the mean and standard deviation over {n} runs with different random seeds.",
    "Training the {m} on a single CPU core takes {t:.1f} seconds per epoch on {d}.",
    "Ablating regularization lowers {k} on {d} by {r:.1f} points, confirming its role.",
]


def generate_paper(pages: int, seed: int) -> bytes:
    """A text-heavy PDF of ``pages`` pages with headings and varied ML prose."""
    rng = random.Random(seed)
    doc = pymupdf.open()
    for number in range(pages):
        page = doc.new_page()
        model, dataset, metric = rng.choice(TOPICS)
        page.insert_text((72, 60), f"{number + 1} Section on {model}", fontsize=13,
                         fontname="hebo")
        paragraphs = []
        for _ in range(5):
            paragraph = " ".join(
                rng.choice(SENTENCES).format(
                    m=model, d=dataset, k=metric, s=rng.randint(0, 99), v=rng.uniform(80, 99),
                    e=rng.randint(5, 50), g=rng.randint(8, 64), r=rng.uniform(0.2, 5),
                    n=rng.randint(3, 10), t=rng.uniform(0.1, 9),
                )
                for _ in range(rng.randint(3, 5))
            )
            paragraphs.append(paragraph)
        page.insert_textbox(pymupdf.Rect(72, 80, 540, 760), "\n\n".join(paragraphs),
                            fontsize=10, fontname="helv")
    data = doc.tobytes(deflate=True)
    doc.close()
    return data


def time_it(fn, *args, **kwargs):
    started = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - started


def bench_pipeline(pages: int, papers: int, workdir: Path) -> dict[str, float]:
    from repro_assets.assets.papers import INGEST_ASSETS
    from repro_assets.papers.chunk_store import load_chunks
    from repro_assets.papers.pages import extract_pages
    from repro_assets.papers.pdf import validate_pdf
    from repro_assets.resources.registry import default_resources
    from repro_assets.storage.blobstore import BlobStore
    from repro_assets.storage.embedder import get_embedder

    embedder = get_embedder()
    embedder.encode(["warm up the model"])
    instance = dg.DagsterInstance.ephemeral()
    e2e, floor, extract_pps, embed_cps, upsert_rps = [], [], [], [], []
    for n in range(papers):
        data = generate_paper(pages, seed=n)
        path = workdir / f"paper{n}.pdf"
        path.write_bytes(data)
        paper_id = validate_pdf(data).paper_id
        instance.add_dynamic_partitions("papers", [paper_id])
        result, seconds = time_it(
            dg.materialize, INGEST_ASSETS, instance=instance, partition_key=paper_id,
            resources=default_resources(),
            run_config={"ops": {"paper_pdf": {"config": {"source": str(path), "title": ""}}}},
        )
        assert result.success
        e2e.append(seconds)
        meta = {e.asset_key.to_user_string(): e.materialization.metadata
                for e in result.get_asset_materialization_events()}
        extract_pps.append(meta["paper_pages"]["pages_per_second"].value)
        embed_cps.append(meta["paper_embeddings"]["chunks_per_second"].value)
        chunks = meta["paper_embeddings"]["chunks"].value
        upsert_rps.append(chunks / meta["paper_embeddings"]["upsert_seconds"].value)

        # the raw floor: plain text extraction + plain embedding of the same chunk texts
        texts = [c.text for c in load_chunks(BlobStore(os.environ["REPRO_BLOB_ROOT"]), paper_id)]
        started = time.perf_counter()
        doc = pymupdf.open(stream=data, filetype="pdf")
        raw = [page.get_text() for page in doc]
        doc.close()
        raw_extract = time.perf_counter() - started
        _, raw_embed = time_it(embedder.encode, texts)  # the same backend, called directly
        floor.append(raw_extract + raw_embed)
        ours_extract = time_it(extract_pages, data, paper_id)[1]
        print(f"paper {n}: {pages} pages, {chunks} chunks, e2e {seconds:.2f}s, "
              f"floor {raw_extract + raw_embed:.2f}s (extract {raw_extract:.3f}s vs ours "
              f"{ours_extract:.3f}s; embed {raw_embed:.2f}s), raw chars {sum(map(len, raw))}")
    return {
        "pages_per_s": statistics.mean(extract_pps),
        "chunks_per_s": statistics.mean(embed_cps),
        "upsert_rows_per_s": statistics.mean(upsert_rps),
        "e2e_s_per_paper": statistics.mean(e2e),
        "floor_s_per_paper": statistics.mean(floor),
        "ratio": statistics.mean(e2e) / statistics.mean(floor),
    }


def synthetic_vectors(base: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` vectors shaped like ``base``: mixes of two real vectors plus small noise."""
    i = rng.integers(0, len(base), size=count)
    j = rng.integers(0, len(base), size=count)
    w = rng.uniform(0.5, 1.0, size=(count, 1)).astype(np.float32)
    mixed = w * base[i] + (1 - w) * base[j]
    mixed += rng.normal(0, 0.03, size=mixed.shape).astype(np.float32)
    return mixed / np.linalg.norm(mixed, axis=1, keepdims=True)


def bench_hnsw(
    sizes: list[int], ef_values: list[int], queries: int = 200
) -> list[dict[str, float]]:
    from repro_assets.storage.embedder import get_embedder
    from repro_assets.storage.vectorstore import VectorStore

    embedder = get_embedder()
    rng = np.random.default_rng(0)
    prose = random.Random(1)
    sentences = []
    for _ in range(3000):
        model, dataset, metric = prose.choice(TOPICS)
        sentences.append(prose.choice(SENTENCES).format(
            m=model, d=dataset, k=metric, s=prose.randint(0, 99), v=prose.uniform(80, 99),
            e=prose.randint(5, 50), g=prose.randint(8, 64), r=prose.uniform(0.2, 5),
            n=prose.randint(3, 10), t=prose.uniform(0.1, 9)))
    base = embedder.encode(sentences)
    results = []
    db = get_database()
    store = VectorStore(db, embedder)
    dim = embedder.dimension
    loaded = 0
    with db.connection() as conn:
        store.ensure_model(conn)
        source = conn.execute(
            "INSERT INTO sources (kind, external_id) VALUES ('bench', 'hnsw') RETURNING id"
        ).fetchone()[0]
        document = conn.execute(
            "INSERT INTO documents (source_id, title) VALUES (%s, 'hnsw bench') RETURNING id",
            (source,),
        ).fetchone()[0]
    for size in sorted(sizes):
        vectors = synthetic_vectors(base, size - loaded, rng)
        started = time.perf_counter()
        with db.connection() as conn, conn.cursor() as cur:
            with cur.copy(
                "COPY chunks (document_id, ordinal, content, token_count, content_hash,"
                " embedding, embedding_model, embedding_backend) FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["int8", "int4", "text", "int4", "text", "vector", "text", "text"])
                for n, vector in enumerate(vectors, start=loaded):
                    copy.write_row((document, n, f"synthetic {n}", 1, f"bench-{n}", vector,
                                    embedder.model_name, embedder.backend))
        load_seconds = time.perf_counter() - started
        loaded = size
        with db.connection() as conn:
            conn.execute("ANALYZE chunks")
        query_vectors = synthetic_vectors(base, queries, rng)
        truths = [
            {hit.chunk_id for hit in store.search_vector(v, k=10, exact=True)}
            for v in query_vectors
        ]
        exact_latencies = []
        for vector in query_vectors[:20]:
            started = time.perf_counter()
            store.search_vector(vector, k=10, exact=True)
            exact_latencies.append(time.perf_counter() - started)
        print(f"exact scan at {size:,} chunks: p50 "
              f"{1000 * statistics.median(exact_latencies):.1f} ms (the baseline)")
        for ef in ef_values:
            store.ef_search = ef
            latencies, recalls = [], []
            for vector, truth in zip(query_vectors, truths, strict=True):
                started = time.perf_counter()
                approx = store.search_vector(vector, k=10)
                latencies.append(time.perf_counter() - started)
                recalls.append(len(truth & {hit.chunk_id for hit in approx}) / 10)
            latencies.sort()
            row = {
                "chunks": size,
                "ef_search": ef,
                "load_s": load_seconds,
                "p50_ms": 1000 * latencies[len(latencies) // 2],
                "p95_ms": 1000 * latencies[int(len(latencies) * 0.95) - 1],
                "recall_at_10": statistics.mean(recalls),
            }
            print(f"HNSW at {size:,} chunks ({dim} dims), ef_search={ef}: "
                  f"p50 {row['p50_ms']:.1f} ms, p95 {row['p95_ms']:.1f} ms, "
                  f"recall@10 {row['recall_at_10']:.3f} (loaded in {load_seconds:.1f}s "
                  "with the index live)")
            results.append(row)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=120)
    parser.add_argument("--papers", type=int, default=2)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--ef", type=int, nargs="*", default=[40, 100, 200],
                        help="hnsw.ef_search values to measure")
    parser.add_argument("--skip-pipeline", action="store_true", help="only the HNSW part")
    args = parser.parse_args()

    server_url = resolve_database_url()
    name = "bench_" + uuid.uuid4().hex[:8]
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    workdir = Path(tempfile.mkdtemp(prefix="repro-bench-"))
    os.environ["REPRO_DATABASE_URL"] = with_database(server_url, name)
    os.environ["REPRO_BLOB_ROOT"] = str(workdir / "blobs")
    try:
        if not args.skip_pipeline:
            figures = bench_pipeline(args.pages, args.papers, workdir)
            print()
            print(f"extraction:      {figures['pages_per_s']:.0f} pages/s")
            print(f"embedding:       {figures['chunks_per_s']:.1f} chunks/s")
            print(f"pgvector upsert: {figures['upsert_rows_per_s']:.0f} rows/s")
            seconds = figures['e2e_s_per_paper']
            print(f"end to end:      {seconds:.2f} s per {args.pages}-page paper")
            print(f"raw floor:       {figures['floor_s_per_paper']:.2f} s (PyMuPDF text + encode)")
            print(f"ratio:           {figures['ratio']:.3f} (goal < 1.25)")
            print()
        if args.sizes:
            bench_hnsw(args.sizes, args.ef)
    finally:
        reset_databases()
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
