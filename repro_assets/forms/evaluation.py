"""``repro-assets eval forms --cases DIR``: score form runs against expected field values.

``DIR`` holds one folder per case, in the drop-folder bundle layout (``input_docs/``, optional
``target_docs/``, ``schema.json``, ``options.json``; no ``READY`` needed) plus
``expected.json``::

    {"fields": {"full_name": "Maria Gonzalez", "dob": "04/12/1978", "phone": null},
     "filled": {"4 Injured Employees Name First Middle Last": "Jordan A. Rivera"}}

``fields`` maps a field key to the value a careful reader gets from the documents (normalized
like the pipeline does before comparing), or ``null`` when the documents hold no value for it
(a blank form); fields not listed are not scored. ``filled`` (optional) lists the widgets of
filled.pdf that must hold a value; any other non-empty text widget counts as wrongly written.

Each case runs the whole pipeline in a temporary run folder (offline unless ``--llm``) and is
scored per field: ``filled`` right / wrong, ``needs_review`` right / wrong (a value where the
documents hold none is wrong), ``missing`` where a value was expected (a miss) or where none
was (right). Precision first: the headline figure is the precision of ``filled`` values; a
wrong filled value or a wrongly written widget makes the command exit 1.

List fields (allergies, medications) compare as sets of normalized items (order, case and
spacing ignored; an item with dosing kept is another item). Widgets are reported one by one
(right, wrong, missed, unexpected). ``--fold K/N`` keeps the cases whose
``sha1(folder name) % N == K`` and ``--exclude-fold K/N`` drops them (a held-back fold);
``--totals-only`` prints the totals alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import fsspec

from repro_assets.errors import CodedError
from repro_assets.folds import FoldError, in_fold, parse_fold
from repro_assets.forms.bundles import BundleError, read_bundle
from repro_assets.forms.fill import read_back
from repro_assets.forms.models import V1_FIELDS
from repro_assets.forms.normalize import (
    NormalizationError,
    norm_text,
    normalize_value,
    split_list,
)
from repro_assets.forms.pipeline import ingest, run_pipeline
from repro_assets.forms.runfolder import FormsError
from repro_assets.llm.types import LLMClient
from repro_assets.storage.blobstore import BlobStore

EXPECTED = "expected.json"
OUTCOMES = ("filled_right", "filled_wrong", "review_right", "review_wrong", "missed",
            "missing_right")


class CasesError(CodedError, ValueError):
    """The cases folder or an ``expected.json`` is malformed (``E_BAD_CASES``)."""

    code = "E_BAD_CASES"


@dataclass
class Case:
    """One labelled bundle."""

    name: str
    path: Path
    fields: dict[str, str | None]
    filled: dict[str, str] | None = None


@dataclass
class FieldScore:
    """One field of one case."""

    field: str
    expected: str | None
    status: str
    value: str | None
    outcome: str


@dataclass
class WidgetScore:
    """One text widget of a filled target: expected text, written text and the outcome.

    ``outcome`` is ``right``, ``wrong`` (written with another text), ``missed`` (expected,
    left empty) or ``unexpected`` (written where the widget should stay empty).
    """

    widget: str
    expected: str | None
    written: str | None
    outcome: str


@dataclass
class CaseScore:
    """The evaluation of one case."""

    case: str
    fields: list[FieldScore] = field(default_factory=list)
    widgets_right: int = 0
    widgets_expected: int = 0
    widgets_wrong: list[str] = field(default_factory=list)
    widgets: list[WidgetScore] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None

    def count(self, outcome: str) -> int:
        """Fields with ``outcome``."""
        return sum(1 for f in self.fields if f.outcome == outcome)


def load_cases(root: Path, only: str | None = None, fold: tuple[int, int] | None = None,
               exclude_fold: tuple[int, int] | None = None) -> list[Case]:
    """Every case folder of ``root`` with an ``expected.json``.

    Args:
        root: the cases folder.
        only: keep only cases whose folder name contains this text.
        fold: keep only the cases of this ``(K, N)`` fold.
        exclude_fold: drop the cases of this ``(K, N)`` fold.

    Raises:
        CasesError: no case, bad JSON, or an unknown field key.
    """
    if not root.is_dir():
        raise CasesError(f"{root} is not a folder")
    cases = []
    for folder in sorted(p for p in root.iterdir() if (p / EXPECTED).is_file()):
        if only and only not in folder.name:
            continue
        if fold and not in_fold(folder.name, fold):
            continue
        if exclude_fold and in_fold(folder.name, exclude_fold):
            continue
        try:
            raw = json.loads((folder / EXPECTED).read_text(encoding="utf-8"))
        except ValueError as exc:
            raise CasesError(f"{folder / EXPECTED} is not JSON: {exc}") from exc
        fields = raw.get("fields") if isinstance(raw, dict) else None
        if not isinstance(fields, dict) or not set(fields) <= set(V1_FIELDS):
            raise CasesError(f"{folder / EXPECTED}: 'fields' must map v1 field keys "
                             f"({', '.join(V1_FIELDS)}) to a value or null")
        cases.append(Case(folder.name, folder, fields, raw.get("filled")))
    if not cases:
        raise CasesError(f"no case folder with {EXPECTED} in {root}")
    return cases


def list_items(raw: str) -> frozenset[str]:
    """A list value as a set of normalized items (order, case and spacing ignored)."""
    return frozenset(norm_text(item) for item in split_list(raw) if norm_text(item))


def _same(key: str, expected: str, got: str | None) -> bool:
    if got is None:
        return False
    if V1_FIELDS[key] == "string_or_list":
        return list_items(expected) == list_items(got)
    try:
        wanted = normalize_value(V1_FIELDS[key], expected)[0]
    except NormalizationError:
        wanted = expected
    return wanted.casefold() == got.casefold()


def field_outcome(key: str, expected: str | None, status: str, value: str | None) -> str:
    """One of :data:`OUTCOMES`."""
    if status == "missing":
        return "missing_right" if expected is None else "missed"
    right = expected is not None and _same(key, expected, value)
    prefix = "filled" if status == "filled" else "review"
    return f"{prefix}_{'right' if right else 'wrong'}"


def score_case(case: Case, store: BlobStore, client: LLMClient | None,
               today: date | None = None) -> CaseScore:
    """Run the pipeline on one case and score it."""
    started = time.perf_counter()
    score = CaseScore(case.name)
    try:
        bundle = read_bundle(fsspec.filesystem("file"), str(case.path))
        folder = ingest(store, bundle.input_docs, target_docs=bundle.target_docs,
                        user_schema=bundle.user_schema, options=bundle.options,
                        source=f"eval:{case.name}")
        final = run_pipeline(folder, client, today).final
    except (BundleError, FormsError) as exc:
        score.error = f"{exc.code}: {exc}"
        score.seconds = round(time.perf_counter() - started, 3)
        return score
    assert final is not None
    for key, expected in case.fields.items():
        item = final.fields.get(key)
        status, value = (item.status, item.normalized_value) if item else ("missing", None)
        score.fields.append(FieldScore(key, expected, status, value,
                                       field_outcome(key, expected, status, value)))
    if case.filled is not None:
        written = read_back(folder.read_binary("filled.pdf")) if folder.has_artifact(
            "review") else {}
        score.widgets_expected = len(case.filled)
        score.widgets_right = sum(1 for w, v in case.filled.items() if written.get(w) == v)
        score.widgets_wrong = sorted(w for w, v in written.items() if case.filled.get(w) != v)
        score.widgets = widget_scores(case.filled, written)
    score.seconds = round(time.perf_counter() - started, 3)
    return score


def widget_scores(expected: dict[str, str], written: dict[str, str]) -> list[WidgetScore]:
    """Per widget: every expected widget and every written one, sorted by name."""
    out = []
    for name in sorted(set(expected) | set(written)):
        want, got = expected.get(name), written.get(name)
        if want is None:
            outcome = "unexpected"
        elif got is None or got == "":
            outcome = "missed"
        else:
            outcome = "right" if got == want else "wrong"
        out.append(WidgetScore(name, want, got, outcome))
    return out


def evaluate(root: Path, client: LLMClient | None = None, only: str | None = None,
             today: date | None = None, fold: tuple[int, int] | None = None,
             exclude_fold: tuple[int, int] | None = None) -> list[CaseScore]:
    """Score every case of ``root`` (runs go to a temporary blob store)."""
    cases = load_cases(root, only, fold, exclude_fold)
    with tempfile.TemporaryDirectory(prefix="forms-eval-") as tmp:
        store = BlobStore(tmp)
        return [score_case(case, store, client, today) for case in cases]


def totals(scores: list[CaseScore]) -> dict[str, Any]:
    """Totals over every case, per outcome and per field."""
    out: dict[str, Any] = {o: sum(s.count(o) for s in scores) for o in OUTCOMES}
    filled = out["filled_right"] + out["filled_wrong"]
    expected = sum(1 for s in scores for f in s.fields if f.expected is not None)
    out |= {
        "cases": len(scores), "failed_cases": sum(1 for s in scores if s.error),
        "filled_precision": round(out["filled_right"] / filled, 4) if filled else 1.0,
        "recall": round((out["filled_right"] + out["review_right"]) / expected, 4)
        if expected else 1.0,
        "widgets_right": sum(s.widgets_right for s in scores),
        "widgets_expected": sum(s.widgets_expected for s in scores),
        "widgets_wrong": sum(len(s.widgets_wrong) for s in scores),
        "per_field": {
            key: {o: sum(1 for s in scores for f in s.fields
                         if f.field == key and f.outcome == o) for o in OUTCOMES}
            for key in V1_FIELDS if any(f.field == key for s in scores for f in s.fields)
        },
    }
    return out


def format_table(scores: list[CaseScore], verbose: bool = False) -> str:
    """Per-case and per-field tables (markdown); ``verbose`` lists every wrong outcome."""
    head = "| case | " + " | ".join(OUTCOMES) + " | widgets | s |"
    lines = [head, "|" + "---|" * (len(OUTCOMES) + 3)]
    for s in scores:
        widgets = f"{s.widgets_right}/{s.widgets_expected}" + (
            f" +{len(s.widgets_wrong)} wrong" if s.widgets_wrong else "")
        lines.append(f"| {s.case} | " + " | ".join(str(s.count(o)) for o in OUTCOMES)
                     + f" | {widgets} | {s.seconds:.2f} |" + (f" {s.error}" if s.error else ""))
    t = totals(scores)
    lines.append("| **total** | " + " | ".join(str(t[o]) for o in OUTCOMES)
                 + f" | {t['widgets_right']}/{t['widgets_expected']} | |")
    lines += ["", f"filled precision {t['filled_precision']:.1%}, recall (filled or review, "
                  f"right value) {t['recall']:.1%}, {t['failed_cases']} failed case(s)", "",
              "| field | " + " | ".join(OUTCOMES) + " |", "|" + "---|" * (len(OUTCOMES) + 1)]
    lines += [f"| {key} | " + " | ".join(str(row[o]) for o in OUTCOMES) + " |"
              for key, row in t["per_field"].items()]
    if verbose:
        for s in scores:
            for f in s.fields:
                if f.outcome in ("filled_wrong", "review_wrong", "missed"):
                    lines.append(f"{f.outcome.upper()} {s.case}: {f.field} expected "
                                 f"{f.expected!r} got {f.status} {f.value!r}")
            lines += [f"WIDGET {w.outcome.upper()} {s.case}: {w.widget!r} expected "
                      f"{w.expected!r} written {w.written!r}"
                      for w in s.widgets if w.outcome != "right"]
    return "\n".join(lines)


def _client(use_llm: bool, make_client: Callable[[], LLMClient]) -> LLMClient | None:
    if not use_llm:
        return None
    from repro_assets.forms.candidates import client_or_offline

    return client_or_offline(make_client)


def run(args: argparse.Namespace) -> int:
    """Run the evaluation; exit 1 on a wrong filled value or widget, 2 on bad cases."""
    try:
        fold = parse_fold(args.fold) if args.fold else None
        exclude = parse_fold(args.exclude_fold) if args.exclude_fold else None
        client = _client(args.llm, args.llm_client)
        scores = evaluate(Path(args.cases), client, args.case, fold=fold, exclude_fold=exclude)
    except (CasesError, FoldError) as exc:
        sys.stderr.write(f"{exc.code}: {exc}\n")
        return 2
    if args.totals_only:
        t = totals(scores)
        sys.stdout.write(json.dumps({k: v for k, v in t.items() if k != "per_field"},
                                    indent=2) + "\n")
    elif args.json:
        payload = {"totals": totals(scores), "cases": [asdict(s) for s in scores]}
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    else:
        sys.stdout.write(format_table(scores, args.verbose) + "\n")
    t = totals(scores)
    return 1 if t["filled_wrong"] or t["widgets_wrong"] else 0


def register_eval(subparsers: argparse._SubParsersAction) -> None:
    """Add ``forms`` to ``repro-assets eval``."""
    parser = subparsers.add_parser(
        "forms", help="forms: field values and filled widgets against DIR/<case>/expected.json")
    parser.add_argument("--cases", required=True, metavar="DIR",
                        help="folder of case bundles, each with an expected.json")
    parser.add_argument("--case", metavar="TEXT", help="only cases whose folder name has TEXT")
    parser.add_argument("--fold", metavar="K/N",
                        help="only the cases whose sha1(folder name) %% N == K")
    parser.add_argument("--exclude-fold", metavar="K/N",
                        help="every case except those of fold K/N")
    parser.add_argument("--totals-only", action="store_true",
                        help="print only the totals (for a held-back fold)")
    parser.add_argument("--llm", action="store_true",
                        help="use the configured LLM provider (default: offline heuristics)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--verbose", action="store_true", help="list every wrong outcome")
    parser.set_defaults(func=run)
