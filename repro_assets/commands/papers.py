"""Paper commands: ingest and search."""

from __future__ import annotations

import argparse
import logging
import sys
import textwrap
import threading
from typing import Any

from repro_assets.settings import environment

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``ingest`` and ``search``."""
    ingest = sub.add_parser(
        "ingest", help="ingest PDFs (paths or URLs) and materialize them, one run per paper "
        "in this process (several PDFs per command pay the start-up once)",
    )
    ingest.add_argument("source", nargs="+", help="path, fsspec URL or http(s) URL of a PDF")
    ingest.add_argument("--title", default="", help="title (default: detected; one PDF only)")
    ingest.add_argument("--full", action="store_true",
                        help="run the whole papers job (verdict, claims, plan, notebook ...)")
    ingest.add_argument("--no-cache", action="store_true",
                        help="ask the LLM afresh: bypass its response cache for this run")
    ingest.set_defaults(func=cmd_ingest)

    search = sub.add_parser("search", help="top chunks for a query (cosine distance)")
    search.add_argument("query")
    search.add_argument("-k", type=int, default=5)
    search.add_argument("--paper", default=None, help="restrict to one paper id")
    search.set_defaults(func=cmd_search)


def cmd_ingest(args: argparse.Namespace) -> int:
    """Validate each PDF, add its partition and run the ingest (or full papers) job for it.

    Papers are ingested one after another, each in its own run (its own lineage); a PDF that
    cannot be read or validated is reported with its code and the others still run.

    Returns:
        0 when every paper was ingested; 2 when a PDF was rejected (bad input), else 1 when a
        run failed.
    """
    if args.title and len(args.source) > 1:
        print("error: --title names one paper; give one PDF with it", file=sys.stderr)
        return 2
    from repro_assets.papers.sandbox import prestart

    prestart()  # the PDF parser's process starts while this one imports Dagster

    from repro_assets.instance import get_instance, prepare_in_process_runs
    from repro_assets.resources.llm import CACHE_ENV

    if args.no_cache:
        environment.export(CACHE_ENV, "0")

    instance = get_instance(hold_connections=True)
    tags = prepare_in_process_runs(instance)  # a killed earlier ingest's runs: failed
    defs = _ingest_definitions(args.full)
    job = defs.resolve_job_def("papers_job" if args.full else "paper_ingest_job")
    opening = open_store_in_background(defs.resources.get("vector_store"))
    try:
        codes = [_ingest_one(instance, job, source, args.title, tags) for source in args.source]
    finally:
        if opening is not None:  # never outlives the command (it is long done by now)
            opening.join()
    if len(codes) > 1:
        failed = sum(code != 0 for code in codes)
        print(f"{len(codes) - failed} of {len(codes)} PDFs ingested")
    return max(codes)


def _ingest_one(instance: Any, job: Any, source: str, title: str,
                tags: dict[str, str]) -> int:
    """Ingest one PDF with ``job`` (its run tagged with ``tags``); print its figures; return
    its exit code."""
    from repro_assets.papers.ingest import read_source
    from repro_assets.papers.pdf import PaperIngestError, validate_pdf
    from repro_assets.partitions import papers_partitions
    from repro_assets.runs import failure_message, quiet_run_config

    try:
        info = validate_pdf(read_source(source))
    except PaperIngestError as exc:
        print(f"error {exc.code}: {source}: {exc.message}", file=sys.stderr)
        return 2
    if not instance.has_dynamic_partition(papers_partitions.name, info.paper_id):
        instance.add_dynamic_partitions(papers_partitions.name, [info.paper_id])
    print(f"paper_id: {info.paper_id}  ({info.page_count} pages, {info.byte_size:,} bytes)")
    result = job.execute_in_process(
        instance=instance,
        partition_key=info.paper_id,
        run_config=quiet_run_config(
            {"ops": {"paper_pdf": {"config": {"source": source, "title": title}}}}
        ),
        tags=tags,
        raise_on_error=False,
    )
    for event in result.get_asset_materialization_events():
        meta = event.materialization.metadata
        figures = ", ".join(
            f"{k}={getattr(v, 'value', v)}" for k, v in meta.items()
            if k in ("pages", "already_exists", "characters", "chunks", "tokens", "embedded",
                     "embed_seconds", "claims", "verdict")
        )
        print(f"  {event.asset_key.to_user_string():<28} {figures}")
    if not result.success:
        print(f"FAILED: {source}: {failure_message(result)}", file=sys.stderr)
        return 1
    return 0


def open_store_in_background(vector_store: Any) -> threading.Thread | None:
    """Open the project database and load the embedding model on a background thread.

    The run's ``paper_embeddings`` asset asks the same resource for the same store (the
    database and the model are loaded once per process), so it finds them ready: the loading
    happens while the run starts and the PDF is validated and parsed in the worker process,
    not after. Nothing else changes; a failure here is left to the run, which reports it.

    Returns:
        The started thread (``None`` when there is no vector store resource).
    """
    if vector_store is None:
        return None

    def load() -> None:
        try:
            vector_store.get_store()
        except Exception as exc:  # the run opens the store again and reports the error
            log.debug("opening the vector store ahead of the run failed: %s", exc)

    thread = threading.Thread(target=load, name="open-vector-store", daemon=True)
    thread.start()
    return thread


def _ingest_definitions(full: bool) -> Any:
    """The whole code location for ``--full``; else only the papers ingest module (the other
    workflows' imports are not paid for by a shell loop of ``repro-assets ingest``)."""
    if full:
        from repro_assets.definitions import defs

        return defs
    import dagster as dg

    from repro_assets.assets import papers
    from repro_assets.resources.registry import default_resources

    return dg.Definitions.merge(papers.defs, dg.Definitions(resources=default_resources()))


def cmd_search(args: argparse.Namespace) -> int:
    """Print the top-k chunks for a query."""
    from repro_assets.instance import prepare_dagster_env
    from repro_assets.storage.vectorstore import open_store

    prepare_dagster_env()
    store = open_store()
    hits = store.search(args.query, k=args.k, paper_id=args.paper)
    if not hits:
        print("no chunks stored yet: ingest a paper first")
        return 1
    for rank, hit in enumerate(hits, start=1):
        where = f"p.{hit.page_start}"
        if hit.page_end != hit.page_start:
            where += f"-{hit.page_end}"
        print(f"{rank}. d={hit.distance:.3f}  {hit.document_title or hit.external_id} "
              f"[{hit.source_kind}] {where} {hit.section or ''}".rstrip())
        print(textwrap.indent(textwrap.shorten(hit.content, 300), "     "))
    return 0
