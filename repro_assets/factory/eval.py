"""Factory onboarding eval: ``repro-assets eval factory [--cases FILE] [--use-llm]``.

Also ``python -m repro_assets.factory.eval`` with the same options.

* Without ``--cases``: the built-in set (:mod:`repro_assets.factory.evalset`: the seed's
  minimal eval set plus adversarial cases); one PASS/FAIL line per case, exit 1 if any fails.
* With ``--cases FILE``: grades every case of a labelled file in the corpus format
  (:mod:`repro_assets.factory.grading`) and prints one line per case (name, expected, got,
  verdict: correct / safe fail / silent wrong / unverified, detail) and the totals; exit 1 when
  any case is silently wrong.

``--fold K/N`` keeps only the cases whose name's SHA-1 (as an integer) modulo N is K;
``--exclude-fold K/N`` leaves them out (a held-back fold stays reproducible);
``--totals-only`` prints the totals without per-case lines.

Without ``--use-llm`` stages 1 and 2 use the offline reader; with it they use the configured
provider (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, or ``REPRO_LLM_PROVIDER`` /
``REPRO_LLM_BASE_URL`` for an OpenAI-compatible server). ``--no-cache`` bypasses the LLM
response cache, so every case reaches the model.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.evalset import CASES, CaseOutcome, run_eval
from repro_assets.factory.grading import (
    CasesFileError,
    Grade,
    LabelledCase,
    Verdict,
    grade,
    load_cases,
    totals,
)
from repro_assets.factory.models import ExtractionError, OnboardingResult
from repro_assets.folds import in_fold, parse_fold


def _client(
    use_llm: bool, cache: bool, make_client: Callable[..., Any] | None
) -> tuple[Any | None, str | None]:
    """The LLM client for ``--use-llm`` (None offline), or an error message.

    ``make_client(cache_enabled=...)`` builds the configured provider's client; the command
    layer passes it (``args.llm_client``), the standalone module has none.
    """
    if not use_llm:
        return None, None
    if make_client is None:
        return None, "--use-llm: run `repro-assets eval factory --use-llm` (this module " \
                     "evaluates offline only)"
    from repro_assets.llm.types import LLMError

    try:
        client = make_client(cache_enabled=cache)
    except LLMError as exc:
        return None, f"--use-llm: {exc}"
    if not client.available:
        return None, ("--use-llm: no LLM provider is configured (set OPENAI_API_KEY, "
                      "ANTHROPIC_API_KEY or REPRO_LLM_BASE_URL)")
    return client, None


def select_cases(
    cases: list[LabelledCase],
    fold: tuple[int, int] | None = None,
    exclude_fold: tuple[int, int] | None = None,
) -> list[LabelledCase]:
    """Keep the cases of ``fold`` (all when None) minus those of ``exclude_fold``."""
    return [
        case for case in cases
        if (fold is None or in_fold(case.name, fold))
        and (exclude_fold is None or not in_fold(case.name, exclude_fold))
    ]


def grade_file(
    path: str,
    client: Any | None,
    fold: tuple[int, int] | None = None,
    exclude_fold: tuple[int, int] | None = None,
) -> list[Grade]:
    """Onboard every selected case of a cases file and grade it."""
    grades = []
    for case in select_cases(load_cases(path), fold, exclude_fold):
        outcome: OnboardingResult | ExtractionError
        try:
            outcome = OnboardingAgent(client).run_detailed(case.text)
        except ExtractionError as exc:
            outcome = exc
        grades.append(grade(case, outcome))
    return grades


def _print_grades(grades: list[Grade], method: str) -> None:
    width = max([len(g.name) for g in grades] + [4])
    expected_width = max([len(g.expected) for g in grades] + [8])
    print(f"{'case'.ljust(width)}  {'expected'.ljust(expected_width)}  {'got':<18} "
          f"{'verdict':<13} detail")
    for item in grades:
        detail = item.detail if len(item.detail) <= 140 else item.detail[:137] + "..."
        print(f"{item.name.ljust(width)}  {item.expected.ljust(expected_width)}  "
              f"{item.got:<18} {item.verdict.value:<13} {detail}")
    counts = totals(grades)
    print(f"[{method}] {counts[Verdict.CORRECT]}/{counts['cases']} correct, "
          f"{counts[Verdict.SAFE_FAIL]} safe fail, {counts[Verdict.SILENT_WRONG]} silent wrong, "
          f"{counts[Verdict.UNVERIFIED]} unverified")


def _print_outcomes(outcomes: list[CaseOutcome]) -> None:
    width = max(len(o.name) for o in outcomes)
    for o in outcomes:
        status = "PASS" if o.passed else "FAIL"
        extra = f"  failed checks: {', '.join(o.failed_checks)}" if o.failed_checks else ""
        print(f"{status}  {o.name.ljust(width)}  expected {o.expected:<18} got "
              f"{o.actual:<18} [{o.method}]{extra}")
    passed = sum(o.passed for o in outcomes)
    print(f"{passed}/{len(outcomes)} cases passed")


def run(args: argparse.Namespace) -> int:
    """Run the eval for parsed arguments; returns the exit code."""
    if not args.cases and (args.fold or args.exclude_fold or args.totals_only):
        print("E_BAD_ARGUMENTS: --fold, --exclude-fold and --totals-only select and count the "
              "cases of a --cases file; the built-in set has no folds", file=sys.stderr)
        return 2
    client, problem = _client(args.use_llm, cache=not args.no_cache,
                              make_client=args.llm_client)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    method = "llm" if client is not None else "offline"
    if args.cases:
        try:
            grades = grade_file(args.cases, client, args.fold, args.exclude_fold)
        except CasesFileError as exc:
            print(f"E_BAD_CASES_FILE: {exc}", file=sys.stderr)
            return 2
        if args.totals_only:
            counts = totals(grades)
            print(f"[{method}] {counts[Verdict.CORRECT]}/{counts['cases']} correct, "
                  f"{counts[Verdict.SAFE_FAIL]} safe fail, "
                  f"{counts[Verdict.SILENT_WRONG]} silent wrong, "
                  f"{counts[Verdict.UNVERIFIED]} unverified")
        elif args.json:
            print(json.dumps({"method": method, "totals": totals(grades),
                              "cases": [{**g.__dict__, "verdict": g.verdict.value}
                                        for g in grades]}, indent=2))
        else:
            _print_grades(grades, method)
        return 1 if totals(grades)[Verdict.SILENT_WRONG] else 0
    outcomes = run_eval(client)
    if args.json:
        print(json.dumps([o.__dict__ for o in outcomes], indent=2))
    else:
        _print_outcomes(outcomes)
    return 0 if all(o.passed for o in outcomes) else 1


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cases", metavar="FILE",
                        help="a labelled cases file (corpus format); default: the built-in set "
                        f"({len(CASES)} cases)")
    parser.add_argument("--use-llm", action="store_true", help="use the configured LLM")
    parser.add_argument("--no-cache", action="store_true",
                        help="bypass the LLM response cache (with --use-llm)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--fold", metavar="K/N", type=parse_fold,
                        help="with --cases: only the cases whose name's SHA-1 modulo N is K")
    parser.add_argument("--exclude-fold", metavar="K/N", type=parse_fold,
                        help="with --cases: leave out the cases of fold K/N")
    parser.add_argument("--totals-only", action="store_true",
                        help="with --cases: print the totals only, no per-case lines")


def register_eval(subparsers: argparse._SubParsersAction) -> None:
    """Add ``factory`` to ``repro-assets eval``."""
    parser = subparsers.add_parser(
        "factory", help="factory onboarding: built-in set or a labelled --cases file")
    _add_arguments(parser)
    parser.set_defaults(func=run)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point of ``python -m repro_assets.factory.eval``."""
    parser = argparse.ArgumentParser(prog="python -m repro_assets.factory.eval")
    _add_arguments(parser)
    parser.set_defaults(llm_client=None)  # no LLM client outside the command layer
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
