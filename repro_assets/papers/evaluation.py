"""``repro-assets eval claims --corpus DIR``: score the offline claim extractor on labelled PDFs.

``DIR/truth.json`` is ``{"papers": {"<file>.pdf": [truth claim, ...]}}``; a truth claim has
``keys`` (normalized dataset substrings, alternatives), optional ``exclude_keys``, ``metric``
(a canonical metric name), ``value`` (the number as printed) and, for reading misses,
``where`` / ``note``. Each PDF is read from its bytes (pages, then claims; no database), and
the evaluation prints per paper and in total: recall, claims extracted, claims matching no truth
value (a precision proxy), conflicting claims, ungrounded claims and seconds per paper.

A claim is *conflicting* when it reads a truth claim's printed cell (the same value, on the page
that prints the truth ``quote``, from a quote overlapping it) but names another dataset or
metric: a wrong value that looks certain, worse than a miss.

Matching: the claim's normalized dataset name contains one of the truth ``keys`` (keys of three
characters or fewer only as the whole name or a whole token) and none of the ``exclude_keys``;
connector words ("and", "the") do not count ("CNN and Daily Mail" is "cnndailymail"); the
value is equal as printed (or as the stored decimal of a percentage); the metric is compatible
(equal, or one refines the other: ``top5_error`` / ``error``).
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import re
import sys
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from repro_assets.errors import CodedError
from repro_assets.folds import in_fold, parse_fold
from repro_assets.papers.plan_targets import PLAN_MIN_CONFIDENCE

SHORT_KEY = 3
CONNECTORS = frozenset({"and", "the"})
#: Characters a claim's quote must share with a truth quote, around the value, to read its cell.
OVERLAP = 20


@dataclass
class TruthClaim:
    """One labelled claim of ``truth.json``."""

    keys: list[str]
    metric: str
    value: float
    exclude_keys: list[str] = field(default_factory=list)
    dataset: str = ""
    where: str = ""
    note: str = ""
    quote: str = ""


@dataclass
class PaperScore:
    """The evaluation of one paper."""

    paper: str
    truth: int
    found: int
    claims: int
    unmatched: int
    ungrounded: int
    headline: int
    seconds: float
    conflicting: int = 0
    conflicting_confident: int = 0
    found_confident: int = 0
    error: str | None = None
    misses: list[dict[str, Any]] = field(default_factory=list)
    unmatched_claims: list[dict[str, Any]] = field(default_factory=list)
    conflicting_claims: list[dict[str, Any]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        """Found / truth (1.0 for a paper without truth claims)."""
        return self.found / self.truth if self.truth else 1.0


class TruthFileError(CodedError, ValueError):
    """``truth.json`` is missing or malformed (``E_BAD_TRUTH_FILE``)."""

    code = "E_BAD_TRUTH_FILE"


def load_truth(corpus: Path) -> dict[str, list[TruthClaim]]:
    """Read ``corpus/truth.json``.

    Raises:
        TruthFileError: missing file, bad JSON or a claim without keys/metric/value.
    """
    path = corpus / "truth.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        papers = raw["papers"]
        return {
            name: [TruthClaim(keys=list(c["keys"]), metric=str(c["metric"]),
                              value=float(c["value"]),
                              exclude_keys=list(c.get("exclude_keys") or []),
                              dataset=str(c.get("dataset", "")), where=str(c.get("where", "")),
                              note=str(c.get("note", "")), quote=str(c.get("quote", "")))
                   for c in claims]
            for name, claims in papers.items()
        }
    except FileNotFoundError as exc:
        raise TruthFileError(f"{path} does not exist") from exc
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise TruthFileError(f"{path} is not a valid truth file: {exc}") from exc


def _tokens(name: str) -> list[str]:
    text = unicodedata.normalize("NFKC", name).lower()
    return [t for t in re.split(r"[^a-z0-9]+", text) if t]


def dataset_matches(name: str, truth: TruthClaim) -> bool:
    """True when a printed dataset name designates the truth claim's dataset."""
    tokens = _tokens(name)
    key = "".join(tokens)
    bare = "".join(t for t in tokens if t not in CONNECTORS)
    loose = re.sub(r"[^a-z0-9+]", "", unicodedata.normalize("NFKC", name).lower())
    for exclude in truth.exclude_keys:
        if _key_in(exclude, key, loose, tokens) or _key_in(exclude, bare, loose, tokens):
            return False
    return any(_key_in(k, key, loose, tokens) or _key_in(k, bare, loose, tokens)
               for k in truth.keys)


def _key_in(wanted: str, key: str, loose: str, tokens: list[str]) -> bool:
    if not re.fullmatch(r"[a-z0-9]+", wanted):
        return wanted in loose
    if len(wanted) <= SHORT_KEY:
        return wanted == key or wanted in tokens
    return wanted in key


def value_matches(printed: str | None, stored: float, truth_value: float) -> bool:
    """True when the claim's value equals the truth value as printed."""
    def same(a: float) -> bool:
        return abs(a - truth_value) <= 1e-9 * max(1.0, abs(truth_value))

    if printed is not None:
        try:
            return same(float(printed))
        except ValueError:
            pass
    return same(stored) or same(round(stored * 100, 9))


def claim_matches(claim: Any, truth: TruthClaim) -> bool:
    """Dataset, value and metric of a claim agree with a truth claim."""
    from repro_assets.papers.claims.metrics import compatible_metrics

    return (value_matches(claim.printed_value, claim.metric_value, truth.value)
            and compatible_metrics(claim.metric_name, truth.metric)
            and dataset_matches(claim.dataset_name, truth))


def _flat(text: str) -> str:
    """Text with cell separators and whitespace runs collapsed (quotes join lines with ' | ')."""
    return re.sub(r"\s+", " ", re.sub(r"\s*\|\s*", " ", text)).strip()


def _shares_cell(claim_quote: str, truth_quote: str, printed: str) -> bool:
    """The two quotes overlap around the printed value (the same row or sentence)."""
    a, b = _flat(claim_quote), _flat(truth_quote)
    if a in b or b in a:
        return True
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return any(block.size >= OVERLAP and printed in a[block.a:block.a + block.size]
               for block in matcher.get_matching_blocks())


def conflicts(claim: Any, truth: list[TruthClaim], texts: dict[int, str]) -> TruthClaim | None:
    """The truth claim whose printed cell ``claim`` reads under another dataset or metric.

    None when the claim matches a truth claim, or reads no truth claim's cell.
    """
    if any(claim_matches(claim, t) for t in truth):
        return None
    page = _flat(texts.get(claim.evidence.page, ""))
    printed = claim.printed_value or ""
    for t in truth:
        if (t.quote and value_matches(claim.printed_value, claim.metric_value, t.value)
                and _flat(t.quote) in page
                and _shares_cell(claim.evidence.quoted_text, t.quote, printed)):
            return t
    return None


def score_paper(name: str, pdf: bytes, truth: list[TruthClaim]) -> PaperScore:
    """Extract the claims of one PDF offline and compare them with its truth claims."""
    from repro_assets.papers.claims import ClaimsError, extract_claims, verify_stored_claim
    from repro_assets.papers.pages import extract_pages

    start = time.perf_counter()
    error = None
    try:
        pages = extract_pages(pdf, Path(name).stem)
        claims = extract_claims(pages, pdf).claims
    except ClaimsError as exc:
        claims, error = [], f"{exc.code}: {exc}"
    seconds = time.perf_counter() - start
    texts = {p.page_no: p.text for p in pages.pages} if error is None or claims else {}
    ungrounded = sum(1 for c in claims if verify_stored_claim(c, texts) is not None)
    found = [t for t in truth if any(claim_matches(c, t) for c in claims)]
    confident = [c for c in claims if c.confidence >= PLAN_MIN_CONFIDENCE - 1e-9]
    found_confident = sum(1 for t in truth if any(claim_matches(c, t) for c in confident))
    misses = [asdict(t) for t in truth if t not in found]
    unmatched = [c for c in claims if not any(claim_matches(c, t) for t in truth)]
    conflicting = [(c, t) for c in unmatched if (t := conflicts(c, truth, texts)) is not None]
    return PaperScore(
        paper=name, truth=len(truth), found=len(found), claims=len(claims),
        unmatched=len(unmatched), ungrounded=ungrounded,
        headline=sum(1 for c in claims if c.role == "headline"), seconds=round(seconds, 2),
        conflicting=len(conflicting), error=error, misses=misses,
        conflicting_confident=sum(1 for c, _ in conflicting
                                  if c.confidence >= PLAN_MIN_CONFIDENCE - 1e-9),
        found_confident=found_confident,
        unmatched_claims=[_describe(c) for c in unmatched],
        conflicting_claims=[{**_describe(c), "truth": f"{t.dataset} {t.metric}={t.value:g}",
                             "where": t.where} for c, t in conflicting],
    )


def _describe(claim: Any) -> dict[str, Any]:
    return {"dataset": claim.dataset_name, "metric": claim.metric_name,
            "value": claim.printed_value or claim.metric_value, "role": claim.role,
            "method": claim.method_snippet, "citation": claim.source_citation,
            "confidence": getattr(claim, "confidence", None),
            "dataset_source": getattr(claim, "dataset_source", None),
            "quote": claim.evidence.quoted_text}


def evaluate(corpus: Path, only: str | None = None, fold: tuple[int, int] | None = None,
             exclude_fold: tuple[int, int] | None = None) -> list[PaperScore]:
    """Score every PDF named in ``corpus/truth.json``.

    Args:
        corpus: the folder with ``truth.json`` and the PDFs.
        only: keep the papers whose file name contains this text.
        fold: keep the papers of this fold ``(K, N)`` (see :func:`in_fold`).
        exclude_fold: drop the papers of this fold (develop on the complement of a held-back fold).
    """
    truth = load_truth(corpus)
    scores = []
    for name, claims in truth.items():
        if only and only not in name:
            continue
        if fold and not in_fold(name, fold):
            continue
        if exclude_fold and in_fold(name, exclude_fold):
            continue
        path = corpus / name
        if not path.exists():
            raise TruthFileError(f"{name} is listed in truth.json but {path} does not exist")
        scores.append(score_paper(name, path.read_bytes(), claims))
    return scores


def totals(scores: list[PaperScore]) -> dict[str, Any]:
    """Corpus totals."""
    truth = sum(s.truth for s in scores)
    found = sum(s.found for s in scores)
    return {
        "papers": len(scores), "truth": truth, "found": found,
        "recall": round(found / truth, 4) if truth else 1.0,
        "claims": sum(s.claims for s in scores), "unmatched": sum(s.unmatched for s in scores),
        "conflicting": sum(s.conflicting for s in scores),
        "conflicting_confident": sum(s.conflicting_confident for s in scores),
        "found_confident": sum(s.found_confident for s in scores),
        "recall_confident": round(sum(s.found_confident for s in scores) / truth, 4)
        if truth else 1.0,
        "ungrounded": sum(s.ungrounded for s in scores),
        "headline": sum(s.headline for s in scores),
        "failed_papers": sum(1 for s in scores if s.error),
        "seconds": round(sum(s.seconds for s in scores), 2),
        "seconds_per_paper": round(sum(s.seconds for s in scores) / len(scores), 2)
        if scores else 0.0,
    }


def sample_unmatched(scores: list[PaperScore], count: int, seed: int = 0) -> list[str]:
    """``count`` random claims that match no truth claim, with their quotes, for a precision audit.

    The sample is reproducible (``seed``) and drawn over the whole corpus, not per paper.
    """
    pool = [(s.paper, c) for s in scores for c in s.unmatched_claims]
    picked = random.Random(seed).sample(pool, min(count, len(pool)))
    return [f"SAMPLE {paper}: {c['dataset']} {c['metric']}={c['value']} [{c['role']}] "
            f"conf={c.get('confidence', '')} ({c['citation']})\n    quote: {c.get('quote', '')}"
            for paper, c in picked]


def format_table(scores: list[PaperScore], verbose: bool = False) -> str:
    """The per-paper table (markdown) plus, with ``verbose``, every miss and unmatched claim."""
    lines = [f"| paper | recall | found/truth | found >= {PLAN_MIN_CONFIDENCE} | claims "
             f"| no truth match | conflicting | conflicting >= {PLAN_MIN_CONFIDENCE} | headline "
             "| ungrounded | s |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in scores:
        lines.append(f"| {s.paper} | {s.recall:.0%} | {s.found}/{s.truth} | "
                     f"{s.found_confident} | {s.claims} | {s.unmatched} | {s.conflicting} | "
                     f"{s.conflicting_confident} | {s.headline} | {s.ungrounded} | "
                     f"{s.seconds:.2f} |" + (f" {s.error}" if s.error else ""))
    t = totals(scores)
    lines.append(f"| **total** | **{t['recall']:.1%}** | {t['found']}/{t['truth']} | "
                 f"{t['found_confident']} | {t['claims']} | {t['unmatched']} | "
                 f"{t['conflicting']} | {t['conflicting_confident']} | {t['headline']} | "
                 f"{t['ungrounded']} | {t['seconds_per_paper']:.2f}/paper |")
    if verbose:
        for s in scores:
            for miss in s.misses:
                lines.append(f"MISS {s.paper}: {miss['dataset']} {miss['metric']}="
                             f"{miss['value']:g} ({miss['where']}) -- {miss['note'][:160]}")
            for claim in s.conflicting_claims:
                lines.append(f"CONFLICT {s.paper}: {claim['dataset']} {claim['metric']}="
                             f"{claim['value']} ({claim['citation']}) but truth says "
                             f"{claim['truth']} ({claim['where']})")
            for claim in s.unmatched_claims:
                lines.append(f"UNMATCHED {s.paper}: {claim['dataset']} {claim['metric']}="
                             f"{claim['value']} [{claim['role']}] {claim['method']} "
                             f"({claim['citation']})")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run the claims evaluation; exit 1 when a claim is ungrounded, 2 on a bad corpus."""
    try:
        fold = parse_fold(args.fold) if args.fold else None
        exclude = parse_fold(args.exclude_fold) if args.exclude_fold else None
    except ValueError as exc:
        sys.stderr.write(f"E_BAD_FOLD: {exc}\n")
        return 2
    try:
        scores = evaluate(Path(args.corpus), args.paper, fold, exclude)
    except TruthFileError as exc:
        sys.stderr.write(f"{exc.code}: {exc}\n")
        return 2
    if args.json:
        payload = {"totals": totals(scores),
                   "papers": [{**asdict(s), "recall": round(s.recall, 4)} for s in scores]}
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    else:
        sys.stdout.write(format_table(scores, args.verbose) + "\n")
    if args.sample:
        sys.stdout.write("\n".join(sample_unmatched(scores, args.sample)) + "\n")
    return 1 if totals(scores)["ungrounded"] else 0


def register_eval(subparsers: argparse._SubParsersAction) -> None:
    """Add ``claims`` to ``repro-assets eval``."""
    parser = subparsers.add_parser(
        "claims", help="papers: offline claim extraction against DIR/truth.json")
    parser.add_argument("--corpus", required=True, metavar="DIR",
                        help="folder with the PDFs and truth.json")
    parser.add_argument("--paper", metavar="TEXT", help="only papers whose file name contains TEXT")
    parser.add_argument("--fold", metavar="K/N",
                        help="only the papers whose int(sha1(file name), 16) %% N == K")
    parser.add_argument("--exclude-fold", metavar="K/N",
                        help="every paper except those of fold K/N (the development set)")
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="print N random claims that match no truth claim, with quotes")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--verbose", action="store_true",
                        help="list every miss (with its note) and every unmatched claim")
    parser.set_defaults(func=run)
