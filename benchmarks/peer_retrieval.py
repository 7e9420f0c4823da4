"""Retrieval quality beside speed: our paper index vs the LangChain pipeline (issue #29).

Both paths index the same PDFs with the same model (all-MiniLM-L6-v2) on the same Postgres
server (a scratch database each, dropped afterwards), each in a process of its own:

- ours: the project's ingest domain code (store, extract, chunk, embed, upsert into pgvector)
  and its search, in each ``--modes`` (``hybrid``: cosine HNSW fused with full-text BM25 by RRF;
  ``dense``: cosine only), one table row per mode;
- peer: PyMuPDFLoader + SentenceTransformersTokenTextSplitter (254/48) + HuggingFaceEmbeddings
  + PGVector and its ``similarity_search`` (the baseline of ``benchmarks/peer_ingest.py``).

Every answerable question of a cases file (``answerable`` true, a verbatim ``quote``) is run as
a query on both indexes. A target is one quote (a ``compare`` case has one excerpt per source,
joined by `` || ``; each is a target of its own, asked with the same question).

The containment rule: a target is found at rank r when, with the quote and the chunks folded
(:func:`squash`: ligatures decomposed, accents dropped, lower case, all whitespace removed; the
peer stores its tokenizer's decoded, lower-cased text), (a) the r-th chunk contains the quote,
or (b) the quote is split across two chunks of the same paper that are both in the first r
results, the r-th one being the later: a prefix of the quote ends one chunk and the rest of the
quote starts the other (they may overlap). recall@k is the share of targets found at rank
<= k, MRR the mean of 1/rank over the first 10 results (0 when not found).

CPU seconds count every process of a path (the worker, its PDF parsing workers, their
children) from the first PDF to the last upsert; model loads happen before the clock starts.
The peer's figures and search results are cached (``--peer-cache``), keyed by the PDFs, the
questions and the pipeline, so a second run only measures ours. ``cli_ratio`` and
``dagster_ratio`` (issue #29 item 2) come from ``benchmarks/peer_ingest.py``'s measurements on
``--overhead`` PDFs: ``repro-assets ingest`` once per PDF, and the Dagster ingest job in one
warm process, each over the in-process domain code on the same PDFs.

Indexing ours takes minutes; to compare search changes on the same index, ``--keep-ours``
keeps our scratch database (its URL is printed, and our indexing figures are saved beside it
as ``--save-ours`` does) and ``--ours-db URL`` searches such a database instead of indexing
again (its migrations are applied first; the CPU and wall figures are then the ones saved by
the ``--keep-ours`` run when ``--ours-results`` names that file, else not shown).

Usage::

    python -m venv /tmp/peer-venv    # the LangChain packages (pip install -e '.[bench]')
    python benchmarks/peer_retrieval.py CORPUS_DIR CASES_JSON [--exclude-fold K/N]
        [--peer-python /tmp/peer-venv/bin/python] [--overhead 5] [--modes hybrid,dense]
        [--keep-ours | --ours-db URL]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

sys.path.insert(0, str(Path(__file__).parent))

K_MAX = 10
PEER_SIGNATURE = "pymupdf+token254/48+minilm+pgvector-exact/v1"


# -- scoring (pure) -----------------------------------------------------------------------------


def squash(text: str) -> str:
    """``text`` folded for the containment rule: compatibility-decomposed (ligatures), accents
    dropped, lower case, no whitespace at all.

    The peer's token splitter stores the tokenizer's decoded text, not the page's: lower case,
    accents stripped, spaces around punctuation ("gpt - 2"); folded, both read the same.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(plain.lower().split())


def _prefix_in_tail(quote: str, text: str) -> int:
    """Length of the longest prefix of ``quote`` that ``text`` ends with."""
    for n in range(min(len(quote), len(text)), 0, -1):
        if text.endswith(quote[:n]):
            return n
    return 0


def _suffix_in_head(quote: str, text: str) -> int:
    """Length of the longest suffix of ``quote`` that ``text`` starts with."""
    for n in range(min(len(quote), len(text)), 0, -1):
        if text.startswith(quote[-n:]):
            return n
    return 0


def found_rank(quote: str, hits: list[tuple[str, str]]) -> int | None:
    """The 1-based rank at which ``quote`` is found in ``hits`` (see the module's rule).

    Args:
        quote: the verbatim answering quote.
        hits: ranked ``(paper key, chunk text)`` pairs.
    """
    target = squash(quote)
    if not target:
        return None
    texts = [(paper, squash(text)) for paper, text in hits]
    for rank, (paper, text) in enumerate(texts, start=1):
        if target in text:
            return rank
        for other_paper, other in texts[:rank - 1]:
            if other_paper != paper:
                continue
            for first, second in ((other, text), (text, other)):
                head = _prefix_in_tail(target, first)
                tail = _suffix_in_head(target, second)
                if head and tail and head + tail >= len(target):
                    return rank
    return None


@dataclass
class Quality:
    """Retrieval figures of one path over a set of targets."""

    targets: int
    recall5: float
    recall10: float
    mrr: float


def quality(targets: list[tuple[str, str]], results: dict[str, list[tuple[str, str]]]
            ) -> tuple[Quality, list[int | None]]:
    """Score ranked results: ``targets`` are (question, quote), ``results`` question -> hits."""
    ranks = [found_rank(quote, results.get(question, [])[:K_MAX]) for question, quote in targets]
    n = max(1, len(ranks))
    return Quality(
        targets=len(ranks),
        recall5=sum(1 for r in ranks if r is not None and r <= 5) / n,
        recall10=sum(1 for r in ranks if r is not None and r <= 10) / n,
        mrr=sum(1.0 / r for r in ranks if r is not None) / n,
    ), ranks


def load_targets(cases_file: Path, fold: tuple[int, int] | None,
                 exclude: tuple[int, int] | None) -> list[tuple[str, str]]:
    """(question, quote) targets of the answerable cases, selected by fold."""
    from repro_assets.research.evaluation import select_cases

    cases = json.loads(cases_file.read_text())["cases"]
    chosen = select_cases([c for c in cases if c.get("answerable") and c.get("quote")],
                          fold, exclude)
    return [(case["question"], part.strip()) for case in chosen
            for part in case["quote"].split(" || ") if part.strip()]


# -- measuring a process tree -------------------------------------------------------------------


class TreeClock:
    """Wall seconds and CPU seconds of this process and all its descendants since made.

    Counts live children (the PDF parsing fork servers) and the children they reaped (one
    worker per parse), which ``time.process_time`` alone would miss.
    """

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = self._cpu()

    @staticmethod
    def _cpu() -> float:
        import psutil

        me = psutil.Process()
        total = 0.0
        for proc in [me, *me.children(recursive=True)]:
            try:
                t = proc.cpu_times()
            except psutil.Error:
                continue
            total += t.user + t.system + t.children_user + t.children_system
        return total

    def figures(self) -> dict:
        return {"seconds": time.perf_counter() - self.wall, "cpu_seconds": self._cpu() - self.cpu}


# -- workers (each runs in its own process) -----------------------------------------------------


def worker_ours(pdfs: list[Path], url: str, questions: list[str], workdir: Path,
                modes: list[str], index: bool = True) -> dict:
    """Index with the project's ingest domain code (peer_ingest's), then search each question
    in each of ``modes`` (``index`` false: search the already-indexed database ``url``)."""
    import peer_ingest

    from repro_assets.storage.blobstore import BlobStore
    from repro_assets.storage.database import get_database
    from repro_assets.storage.vectorstore import open_store

    db, blobs = get_database(url), BlobStore(str(workdir / "ours_blobs"))
    store = open_store(db)
    store.embedder.encode(["warm up"])
    names: dict[str, str] = {}
    chunks, tokens = 0, 0
    clock = TreeClock()
    figures = {"seconds": float("nan"), "cpu_seconds": float("nan")}
    if index:
        for pdf in pdfs:
            paper_id, parts = peer_ingest.ingest_one(pdf, db, blobs, store)
            names[paper_id] = pdf.name
            chunks += len(parts)
            tokens += sum(c.token_count for c in parts)
        figures = clock.figures()
    else:
        with db.connection() as conn:
            names = dict(conn.execute("SELECT id, source_url FROM papers").fetchall())
            chunks, tokens = conn.execute(
                "SELECT count(*), coalesce(sum(token_count), 0) FROM chunks").fetchone()
        names = {key: Path(value or "").name for key, value in names.items()}
    by_mode: dict[str, dict] = {}
    for mode in modes:
        started = time.perf_counter()
        by_mode[mode] = {
            "results": {q: [(names.get(h.paper_id or "", ""), h.content)
                            for h in store.search(q, k=K_MAX, mode=mode)] for q in questions},
            "ms_per_query": 1000 * (time.perf_counter() - started) / max(1, len(questions)),
        }
    return {**figures, "chunks": int(chunks), "tokens": int(tokens),
            "results": by_mode[modes[0]]["results"], "by_mode": by_mode,
            "backend": store.embedder.backend}


def worker_peer(pdfs: list[Path], url: str, questions: list[str], workdir: Path) -> dict:
    """The LangChain pipeline as its documentation shows it, then ``similarity_search``."""
    from langchain_community.document_loaders import PyMuPDFLoader
    from langchain_huggingface import HuggingFaceEmbeddings
    from langchain_postgres import PGVector
    from langchain_text_splitters import SentenceTransformersTokenTextSplitter

    from repro_assets.embeddings.base import DEFAULT_MODEL, model_location

    model = model_location(DEFAULT_MODEL)
    embeddings = HuggingFaceEmbeddings(model_name=model,
                                       encode_kwargs={"normalize_embeddings": True})
    splitter = SentenceTransformersTokenTextSplitter(model_name=model, tokens_per_chunk=254,
                                                     chunk_overlap=48)
    store = PGVector(embeddings=embeddings, collection_name="peer", use_jsonb=True,
                     connection="postgresql+psycopg://" + url.split("://", 1)[1])
    embeddings.embed_query("warm up")
    chunks = 0
    clock = TreeClock()
    for pdf in pdfs:
        parts = splitter.split_documents(PyMuPDFLoader(str(pdf)).load())
        store.add_documents(parts)
        chunks += len(parts)
    figures = clock.figures()
    results = {q: [(Path(d.metadata.get("source", "")).name, d.page_content)
                   for d in store.similarity_search(q, k=K_MAX)]
               for q in questions}
    return {**figures, "chunks": chunks, "results": results}


# -- the orchestrator ---------------------------------------------------------------------------


def run_path(bench, python: str, name: str, pdfs: list[Path], questions: list[str],
             modes: list[str] | None = None, url: str | None = None) -> dict:
    """Run one path's worker in a process of its own on a scratch database (or on ``url``,
    already indexed: ours then only searches)."""
    index = url is None
    url = url or bench.database(f"retr_{name}")
    work = bench.workdir / name
    work.mkdir(parents=True, exist_ok=True)
    (work / "input.json").write_text(json.dumps({"pdfs": [str(p) for p in pdfs],
                                                 "questions": questions, "index": index,
                                                 "modes": modes or ["hybrid"]}))
    argv = [python, str(Path(__file__).resolve()), "--worker", name, "--db", url,
            "--workdir", str(work)]
    _, rss, _, _ = bench.measure(argv, bench.env(url, f"retr_{name}"))
    result = json.loads((work / "result.json").read_text())
    result["rss_mb"] = rss
    result["url"] = url
    return result


def peer_cache_key(pdfs: list[Path], questions: list[str]) -> str:
    digest = hashlib.sha256(PEER_SIGNATURE.encode())
    for pdf in pdfs:
        digest.update(f"{pdf.name}:{pdf.stat().st_size}\n".encode())
    for question in sorted(set(questions)):
        digest.update(question.encode() + b"\n")
    return digest.hexdigest()[:20]


def peer_results(bench, args: argparse.Namespace, pdfs: list[Path], questions: list[str]
                 ) -> dict:
    """The peer's figures and results, from the cache when the same PDFs and questions ran."""
    cache = Path(args.peer_cache).expanduser()
    key = peer_cache_key(pdfs, questions)
    stored = json.loads(cache.read_text()) if cache.exists() else {}
    if key in stored and not args.fresh_peer:
        return {**stored[key], "cached": True}
    result = run_path(bench, args.peer_python, "peer", pdfs, questions)
    cache.parent.mkdir(parents=True, exist_ok=True)
    stored[key] = result
    cache.write_text(json.dumps(stored))
    return {**result, "cached": False}


def overhead(bench, pdfs: list[Path]) -> dict:
    """CLI per PDF and the Dagster job over the in-process domain code (peer_ingest's)."""
    import peer_ingest

    domain = bench.worker("ours_domain", pdfs, "ovh_domain")
    job = bench.worker("ours_job", pdfs, "ovh_job")
    cli = peer_ingest.cli_loop(bench, pdfs)
    return {"domain_s": domain["seconds"], "job_s": job["seconds"], "cli_s": cli["seconds"],
            "cli_ratio": cli["seconds"] / domain["seconds"],
            "dagster_ratio": job["seconds"] / domain["seconds"]}


def print_table(ours: dict, peer: dict, q_ours: dict[str, Quality], q_peer: Quality) -> None:
    """One row per search mode of ours, then the peer's (``ms/q``: search time per question)."""
    print(f"{'path':<44} {'R@5':>6} {'R@10':>6} {'MRR':>6} {'chunks':>7} {'chunks/s':>8} "
          f"{'CPU s':>7} {'wall s':>7} {'ms/q':>6}")
    rows = [(f"ours {mode} (domain ingest + pgvector)", ours, q,
             ours["by_mode"][mode]["ms_per_query"]) for mode, q in q_ours.items()]
    rows.append(("LangChain PyMuPDF + token 254/48" + (" *" if peer["cached"] else ""),
                 peer, q_peer, float("nan")))
    for label, fig, q, ms in rows:
        print(f"{label:<44} {q.recall5:6.3f} {q.recall10:6.3f} {q.mrr:6.3f} {fig['chunks']:7d} "
              f"{fig['chunks'] / fig['seconds']:8.1f} {fig['cpu_seconds']:7.1f} "
              f"{fig['seconds']:7.1f} {ms:6.1f}")
    if peer["cached"]:
        print("* the peer's figures and results come from the cache (--fresh-peer re-runs it)")


def search_modes(value: str) -> list[str]:
    """``--modes``: a comma-separated list of ``hybrid`` and ``dense``."""
    modes = [m.strip() for m in value.split(",") if m.strip()]
    if not modes or any(m not in ("hybrid", "dense") for m in modes):
        raise argparse.ArgumentTypeError(f"modes are hybrid and dense, got {value!r}")
    return list(dict.fromkeys(modes))


def main() -> int:
    from repro_assets.folds import parse_fold

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", help="folder of the PDFs the questions ask about")
    parser.add_argument("cases", nargs="?", help="cases JSON (answerable ones with a quote)")
    parser.add_argument("--fold", type=parse_fold, default=None, metavar="K/N")
    parser.add_argument("--exclude-fold", type=parse_fold, default=None, metavar="K/N")
    parser.add_argument("--peer-python", default=sys.executable,
                        help="a Python with the LangChain packages (default: this one)")
    parser.add_argument("--peer-cache", default=None, help="peer results cache (JSON file)")
    parser.add_argument("--fresh-peer", action="store_true", help="ignore the peer cache")
    parser.add_argument("--no-peer", action="store_true",
                        help="only ours (no peer row, no ratios against it)")
    parser.add_argument("--overhead", type=int, default=5,
                        help="PDFs for cli_ratio / dagster_ratio (0: skip, print nan)")
    parser.add_argument("--ranks", action="store_true", help="print each target's ranks")
    parser.add_argument("--save-ours", default=None,
                        help="write our figures and results to this JSON file")
    parser.add_argument("--ours-results", default=None,
                        help="score our figures and results saved by --save-ours (no indexing)")
    parser.add_argument("--modes", type=search_modes, default=["hybrid", "dense"],
                        metavar="MODE,...", help="our search modes, one row each; the first "
                        "is the one in the last line (default: hybrid,dense)")
    parser.add_argument("--keep-ours", action="store_true",
                        help="keep our indexed scratch database for --ours-db (URL printed)")
    parser.add_argument("--ours-db", default=None, metavar="URL",
                        help="search this already-indexed database instead of indexing")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return run_worker(args)
    if not args.corpus or not args.cases:
        parser.error("give the corpus folder and the cases file")

    import peer_ingest

    from repro_assets import settings
    from repro_assets.storage.database import resolve_database_url

    os.environ.setdefault("REPRO_MODEL_CACHE", str(settings.data_dir() / "models"))
    args.peer_cache = args.peer_cache or str(settings.data_dir() / "bench" / "peer_retrieval.json")
    pdfs = sorted(Path(args.corpus).expanduser().glob("*.pdf"))
    # every answerable question's results are kept (the cache serves any fold); scored by fold
    all_targets = load_targets(Path(args.cases), None, None)
    targets = load_targets(Path(args.cases), args.fold, args.exclude_fold)
    questions = sorted({q for q, _ in all_targets})
    workdir = Path(tempfile.mkdtemp(prefix="repro-retrieval-"))
    bench = peer_ingest.Bench(resolve_database_url(), workdir)
    try:
        bench.worker("prepare", [], "prepare")
        peer = None if args.no_peer else peer_results(bench, args, pdfs, questions)
        if args.ours_db:
            ours = run_path(bench, sys.executable, "ours", pdfs, questions, args.modes,
                            url=args.ours_db)
            if args.ours_results:  # the indexing figures of the run that built the database
                saved = json.loads(Path(args.ours_results).read_text())
                ours.update(seconds=saved["seconds"], cpu_seconds=saved["cpu_seconds"])
        elif args.ours_results:
            ours = json.loads(Path(args.ours_results).read_text())
        else:
            ours = run_path(bench, sys.executable, "ours", pdfs, questions, args.modes)
            if args.keep_ours:
                kept = next(name for name in bench.databases if f"/{name}" in ours["url"])
                bench.databases.remove(kept)
                print(f"ours kept: --ours-db {ours['url']}")
                args.save_ours = args.save_ours or str(Path(args.peer_cache).with_name(
                    f"ours_{kept}.json"))
                print(f"ours figures: --ours-results {args.save_ours}")
        if args.save_ours:
            Path(args.save_ours).write_text(json.dumps(ours))
        ovh = overhead(bench, pdfs[:args.overhead]) if args.overhead > 0 else {}
    finally:
        bench.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    by_mode = ours.get("by_mode") or {args.modes[0]: {"results": ours["results"],
                                                       "ms_per_query": float("nan")}}
    ours["by_mode"] = by_mode
    scored = {mode: quality(targets, by_mode[mode]["results"]) for mode in by_mode}
    q_modes = {mode: q for mode, (q, _) in scored.items()}
    q_ours, r_ours = scored[next(iter(by_mode))]
    if peer is None:
        print(f"ours only: R@5 {q_ours.recall5:.3f} R@10 {q_ours.recall10:.3f} "
              f"MRR {q_ours.mrr:.3f} chunks {ours['chunks']} tokens {ours['tokens']} "
              f"CPU s {ours['cpu_seconds']:.1f} wall s {ours['seconds']:.1f}")
        for (question, _), rank in zip(targets, r_ours, strict=True):
            print(f"  ours {rank or '-':>3}  {question[:70]}")
        return 0
    q_peer, r_peer = quality(targets, peer["results"])
    print(f"{len(pdfs)} PDFs, {q_ours.targets} targets "
          f"({len({q for q, _ in targets})} questions); ours: {ours['tokens']:,} tokens embedded")
    print_table(ours, peer, q_modes, q_peer)
    if args.ranks:
        print("  " + "  ".join(f"{mode:>6}" for mode in by_mode) + "    peer")
        for i, ((question, _), b) in enumerate(zip(targets, r_peer, strict=True)):
            mine = "  ".join(f"{scored[mode][1][i] or '-':>6}" for mode in by_mode)
            print(f"  {mine}  {b or '-':>6}  {question[:60]}")
    if ovh:
        print(f"overhead on {args.overhead} PDFs: domain {ovh['domain_s']:.1f} s, Dagster job "
              f"{ovh['job_s']:.1f} s, `repro-assets ingest` per PDF {ovh['cli_s']:.1f} s")
    nan = float("nan")
    print(f"peer: cpu_ratio={peer['cpu_seconds'] / ours['cpu_seconds']:.3f} "
          f"wall_ratio={peer['seconds'] / ours['seconds']:.3f} "
          f"recall5_ours={q_ours.recall5:.3f} recall5_peer={q_peer.recall5:.3f} "
          f"cli_ratio={ovh.get('cli_ratio', nan):.3f} "
          f"dagster_ratio={ovh.get('dagster_ratio', nan):.3f}")
    return 0


def run_worker(args: argparse.Namespace) -> int:
    workdir = Path(args.workdir)
    given = json.loads((workdir / "input.json").read_text())
    pdfs = [Path(p) for p in given["pdfs"]]
    if args.worker == "ours":
        result = worker_ours(pdfs, args.db, given["questions"], workdir, given["modes"],
                             given["index"])
    else:
        result = worker_peer(pdfs, args.db, given["questions"], workdir)
    (workdir / "result.json").write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
