"""``repro-assets eval research --cases FILE --corpus DIR``: answer or abstain, case by case.

Each case is a question over a folder of PDFs with its accepted values and source file names
(or none, when the corpus does not state the answer). The PDFs are ingested once into a cached
corpus (:mod:`repro_assets.research.corpus_cache`); each question then runs through the research
agent in ``local_only`` mode. Per case and in total the command prints: answered right (an
accepted value in the answer, citing a listed source), answered wrong, abstained right,
abstained wrong, and the relevance scores of answerable against unanswerable questions. It
exits 1 when an unanswerable question got a confident answer and ends with one line::

    eval research: answered_right=<a>/<answerable> abstained_right=<b>/<unanswerable> \
confident_wrong=<c>

The scoring and printing are shared with ``eval debate`` (:mod:`repro_assets.debate.evaluation`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repro_assets.folds import in_fold, parse_fold

EXIT_CONFIDENT_UNANSWERABLE = 1
EXIT_USAGE = 2


@dataclass
class SystemAnswer:
    """What a system said for one question.

    Attributes:
        answered: the system presents an answer (not an abstention).
        text: the answer text the accepted values are looked for in.
        cited_files: PDF file names the answer cites.
        relevance: the best relevance score of the retrieved evidence.
        answer_score: the answer check's best passage score.
        detail: a short note (terminal state, reason).
    """

    answered: bool
    text: str
    cited_files: list[str]
    relevance: float | None = None
    answer_score: float | None = None
    detail: str = ""


@dataclass
class CaseResult:
    """One scored case."""

    name: str
    kind: str
    answerable: bool
    verdict: str
    answer: SystemAnswer
    extra: dict[str, Any] = field(default_factory=dict)


def select_cases(cases: list[dict], fold: tuple[int, int] | None,
                 exclude: tuple[int, int] | None, names: Iterable[str] = ()) -> list[dict]:
    """The cases to run: in ``fold`` (if given), not in ``exclude`` (if given), by name."""
    wanted = set(names)
    return [c for c in cases
            if (fold is None or in_fold(c["name"], fold))
            and (exclude is None or not in_fold(c["name"], exclude))
            and (not wanted or c["name"] in wanted)]


def _numbers(text: str) -> list[float]:
    out = []
    for m in re.finditer(r"(?<![\w.])-?\d+(?:,\d{3})*(?:\.\d+)?", text):
        try:
            out.append(float(m.group(0).replace(",", "")))
        except ValueError:
            continue
    return out


def contains_accepted(text: str, accept: list[Any]) -> bool:
    """An accepted value in ``text``: numbers by value (85.3 ~ 85.30), strings as substrings."""
    numbers = _numbers(text)
    for value in accept:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if any(abs(n - float(value)) < 1e-9 for n in numbers):
                return True
        elif isinstance(value, str) and value.lower() in text.lower():
            return True
    return False


def score_case(case: dict, answer: SystemAnswer) -> str:
    """``answered_right``, ``answered_wrong``, ``abstained_right`` or ``abstained_wrong``."""
    if not case["answerable"]:
        return "answered_wrong" if answer.answered else "abstained_right"
    if not answer.answered:
        return "abstained_wrong"
    accepted = contains_accepted(answer.text, case["answer"].get("accept") or [])
    sources = set(case.get("sources") or [])
    cited = bool(sources & set(answer.cited_files))
    return "answered_right" if accepted and cited else "answered_wrong"


def _dist(values: list[float]) -> str:
    if not values:
        return "n=0"
    return (f"n={len(values)} min={min(values):.3f} median={statistics.median(values):.3f} "
            f"max={max(values):.3f}")


def print_results(system: str, results: list[CaseResult], out: Callable[[str], None] = print
                  ) -> int:
    """Print per-case rows, totals and score distributions; return the confident-wrong count."""
    out(f"{'case':<44} {'kind':<24} {'verdict':<16} {'rel':>6} {'ans':>6}  detail")
    for r in results:
        rel = f"{r.answer.relevance:.3f}" if r.answer.relevance is not None else "-"
        ans = f"{r.answer.answer_score:.2f}" if r.answer.answer_score is not None else "-"
        out(f"{r.name[:44]:<44} {r.kind[:24]:<24} {r.verdict:<16} {rel:>6} {ans:>6}  "
            f"{r.answer.detail[:110]}")
    counts = {v: sum(r.verdict == v for r in results) for v in
              ("answered_right", "answered_wrong", "abstained_right", "abstained_wrong")}
    answerable = sum(r.answerable for r in results)
    unanswerable = len(results) - answerable
    confident_wrong = counts["answered_wrong"]
    out(f"totals: answered_right={counts['answered_right']} answered_wrong="
        f"{counts['answered_wrong']} abstained_right={counts['abstained_right']} "
        f"abstained_wrong={counts['abstained_wrong']}")
    for label, flag in (("answerable", True), ("unanswerable", False)):
        relevances = [r.answer.relevance for r in results
                      if r.answerable is flag and r.answer.relevance is not None]
        out(f"relevance of the best evidence, {label}: {_dist(relevances)}")
    for label, flag in (("answerable", True), ("unanswerable", False)):
        scores = [r.answer.answer_score or 0.0 for r in results if r.answerable is flag]
        out(f"answer-check passage score, {label}: {_dist(scores)}")
    out(f"eval {system}: answered_right={counts['answered_right']}/{answerable} "
        f"abstained_right={counts['abstained_right']}/{unanswerable} "
        f"confident_wrong={confident_wrong}")
    return confident_wrong


def load_cases(path: Path) -> list[dict]:
    """The cases of a cases file (``{"cases": [...]}`` or a list)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["cases"] if isinstance(data, dict) else data


def add_eval_parser(subparsers: argparse._SubParsersAction,
                    system: str) -> argparse.ArgumentParser:
    """``eval <system>``: the arguments ``eval research`` and ``eval debate`` share."""
    parser = subparsers.add_parser(
        system, help=f"{system} questions over a PDF corpus: answered right / abstained")
    parser.add_argument("--cases", required=True, type=Path, help="cases JSON file")
    parser.add_argument("--corpus", required=True, type=Path, help="folder of the PDFs")
    parser.add_argument("--cache", type=Path, default=None,
                        help="corpus cache folder (default <data dir>/eval-corpora)")
    parser.add_argument("--fold", type=parse_fold, default=None, metavar="K/N",
                        help="only the cases of fold K of N (sha1 of the name mod N)")
    parser.add_argument("--exclude-fold", type=parse_fold, default=None, metavar="K/N",
                        help="leave out the cases of fold K of N")
    parser.add_argument("--case", action="append", default=[], help="only this case (repeat)")
    parser.add_argument("--llm", action="store_true",
                        help="use the configured LLM provider (default: offline)")
    parser.add_argument("--json", type=Path, default=None, help="write per-case results here")
    return parser


def register_eval(subparsers: argparse._SubParsersAction) -> None:
    """Add ``eval research``."""
    parser = add_eval_parser(subparsers, "research")
    parser.add_argument("--max-cycles", type=int, default=2, help="research cycles per case")
    parser.set_defaults(func=cmd_eval_research)


def get_llm(use_llm: bool, make_client: Callable[[], Any]) -> Any:
    """The offline client, or the configured provider's client (``make_client()``, which the
    command layer passes as ``args.llm_client``) with ``--llm``."""
    from repro_assets.llm.offline import OfflineClient

    if not use_llm:
        return OfflineClient()
    return make_client()


def file_names(db: Any) -> dict[str, str]:
    """Citable document key -> PDF file name of every stored paper."""
    from repro_assets.research.corpus_answer import CorpusLexicon

    lexicon = CorpusLexicon.load(db)
    files = document_files(db)
    return {d.key: files.get(d.document_id, "") for d in lexicon.documents.values()}


def document_files(db: Any) -> dict[int, str]:
    """Document id -> PDF file name of every stored paper."""
    with db.connection() as conn:
        return {row[0]: os.path.basename(row[1] or "")
                for row in conn.execute("SELECT id, url FROM documents").fetchall()}


def eval_session(case: dict) -> str:
    """The session id of one case's run."""
    return "eval-" + hashlib.sha1(case["name"].encode()).hexdigest()[:10]


def run_research_case(case: dict, store: Any, llm: Any, names: dict[str, str],
                      max_cycles: int) -> SystemAnswer:
    """Run one question through the research agent (local corpus only, no Dagster)."""
    from repro_assets.research.agent import ResearchAgent
    from repro_assets.research.providers import build_providers

    agent = ResearchAgent(build_providers("local_only", store), llm=llm, store=None,
                          writer=None, embedder=store.embedder)
    state = agent.run(eval_session(case), case["question"], privacy_mode="local_only",
                      max_cycles=max_cycles, resume=False)
    report = state.final_report or {}
    check = report.get("answer_check") or {}
    best_rel = max((r.relevance or 0.0 for r in state.results), default=None)
    answered = state.outcome == "answered"
    answer = report.get("answer")
    by_number = {s["n"]: s["url"] for s in report.get("sources", [])}
    if answer:
        text = f"{answer['value']} {answer['quote']}"
        cited = [names.get(answer["source"], ""),
                 *(names.get(p["source"], "") for p in answer.get("parts") or [])]
    else:
        points = report.get("key_points") or []
        text = " ".join(p["text"] for p in points)
        cited = [names.get(by_number.get(n, ""), "") for p in points for n in p["citations"]]
    detail = (f"{state.outcome}: " + (f"{answer['value']} from {names.get(answer['source'])}"
                                      if answer else check.get("reason", "")))
    return SystemAnswer(answered=answered, text=text if answered else "",
                        cited_files=[c for c in cited if c], relevance=best_rel,
                        answer_score=check.get("best_score"), detail=detail)


def run_eval(system: str, args: argparse.Namespace,
             run_case: Callable[[dict, Any, Any, dict[str, str]], SystemAnswer]) -> int:
    """Build (or reuse) the corpus, run every selected case, print and return the exit code."""
    from repro_assets.research.corpus_cache import CorpusBuildError, build_corpus, using_corpus

    if not args.cases.is_file() or not args.corpus.is_dir():
        print("error: --cases must be a file and --corpus a folder", file=sys.stderr)
        return EXIT_USAGE
    cases = select_cases(load_cases(args.cases), args.fold, args.exclude_fold, args.case)
    if not cases:
        print("error: no case selected", file=sys.stderr)
        return EXIT_USAGE
    try:
        corpus = build_corpus(args.corpus, args.cache)
    except CorpusBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    results: list[CaseResult] = []
    with using_corpus(corpus):
        from repro_assets.storage.database import get_database
        from repro_assets.storage.vectorstore import open_store

        db = get_database()
        store = open_store(db)
        names = file_names(db)
        llm = get_llm(args.llm, args.llm_client)
        for case in cases:
            try:
                answer = run_case(case, store, llm, names)
            except Exception as exc:  # one failing case is reported, the others still run
                answer = SystemAnswer(answered=False, text="", cited_files=[],
                                      detail=f"failed: {type(exc).__name__}: {exc}"[:200])
            results.append(CaseResult(case["name"], case.get("kind", ""), case["answerable"],
                                      score_case(case, answer), answer))
    print(f"{system}: {len(results)} case(s), corpus {corpus.folder} "
          f"({'LLM' if args.llm else 'offline'})")
    print_results(system, results)
    if args.json:
        args.json.write_text(json.dumps([{
            "name": r.name, "kind": r.kind, "answerable": r.answerable, "verdict": r.verdict,
            "answer": r.answer.__dict__} for r in results], indent=1), encoding="utf-8")
    unanswerable_answered = sum(1 for r in results if not r.answerable and r.answer.answered)
    return EXIT_CONFIDENT_UNANSWERABLE if unanswerable_answered else 0


def cmd_eval_research(args: argparse.Namespace) -> int:
    """``eval research``."""
    return run_eval("research", args, lambda case, store, llm, names: run_research_case(
        case, store, llm, names, args.max_cycles))
