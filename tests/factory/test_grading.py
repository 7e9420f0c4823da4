"""Grading a labelled cases file: `repro-assets eval factory --cases FILE` (texts written here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from repro_assets.cli import main as cli_main
from repro_assets.factory import eval as factory_eval
from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.grading import (
    CasesFileError,
    LabelledCase,
    Verdict,
    expectation_alternatives,
    grade,
    load_cases,
)
from repro_assets.factory.models import ExtractionError

TEXT = "Machines: M1 (saw), M2 (drill). J1: M1 2h -> M2 1h, due 16:00."
JOBS = {"J1": {"route": ["M1", "M2"], "hours": [2, 1], "due": 16}}


def _case(expect: str, text: str = TEXT, machines: list[str] | None = None,
          jobs: dict | None = None) -> LabelledCase:
    return LabelledCase("c", text, expect, tuple(machines) if machines else None, jobs)


def _outcome(text: str):  # noqa: ANN202 - OnboardingResult | ExtractionError
    try:
        return OnboardingAgent().run_detailed(text)
    except ExtractionError as exc:
        return exc


@pytest.mark.parametrize(
    ("expect", "alternatives"),
    [
        ("ok", ["ok"]),
        ("NO_IDS", ["NO_IDS"]),
        ("INVALID_STRUCTURE_OR_OK_ROUNDED", ["INVALID_STRUCTURE", "ok_rounded"]),
        ("ok_or_fail", ["ok", "fail"]),
    ],
)
def test_expectations(expect: str, alternatives: list[str]) -> None:
    assert expectation_alternatives(expect) == alternatives


def test_unknown_expectation_is_refused() -> None:
    with pytest.raises(CasesFileError):
        expectation_alternatives("MAYBE")


def test_verdicts() -> None:
    ok = _outcome(TEXT)
    assert grade(_case("ok", machines=["M2", "M1"], jobs=JOBS), ok).verdict is Verdict.CORRECT
    wrong_due = {"J1": {**JOBS["J1"], "due": 15}}
    silent = grade(_case("ok", machines=["M1", "M2"], jobs=wrong_due), ok)
    assert silent.verdict is Verdict.SILENT_WRONG and silent.detail == "J1 due 16 != 15"
    wrong_hours = {"J1": {**JOBS["J1"], "hours": [2, 2]}}
    assert grade(_case("ok", jobs=wrong_hours), ok).detail == "J1 hours [2, 1] != [2, 2]"
    assert grade(_case("INVALID_STRUCTURE"), ok).verdict is Verdict.SILENT_WRONG
    assert grade(_case("ok_or_fail"), ok).verdict is Verdict.UNVERIFIED
    failed = _outcome("Machines: M1. J1: M1 2h. J2 waits.")
    assert grade(_case("INVALID_STRUCTURE"), failed).verdict is Verdict.CORRECT
    assert grade(_case("ok_or_fail"), failed).verdict is Verdict.CORRECT
    assert grade(_case("ok", jobs=JOBS), failed).verdict is Verdict.SAFE_FAIL
    assert grade(_case("NO_IDS"), failed).verdict is Verdict.SAFE_FAIL
    rounded = _outcome("Machines: M1. J1: M1 1.5h.")
    assert grade(_case("INVALID_STRUCTURE_OR_OK_ROUNDED"), rounded).verdict is Verdict.CORRECT
    assert grade(_case("INVALID_STRUCTURE_OR_OK_ROUNDED"), ok).verdict is Verdict.UNVERIFIED


def _cases_file(tmp_path: Path, cases: list[dict]) -> Path:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"_about": "test cases", "cases": cases}), encoding="utf-8")
    return path


GOOD = [
    {"name": "routes", "text": TEXT, "expect": "ok", "machines": ["M1", "M2"], "jobs": JOBS},
    {"name": "no_jobs", "text": "Machines M1 and M2.", "expect": "NO_IDS"},
    {"name": "unreadable", "text": "Machines: M1. J1 sometimes uses M1 for 1h.",
     "expect": "ok", "machines": ["M1"],
     "jobs": {"J1": {"route": ["M1"], "hours": [1], "due": None}}},
]


def test_cases_command_prints_every_case_and_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _cases_file(tmp_path, GOOD)
    assert cli_main(["eval", "factory", "--cases", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["case", "expected", "got", "verdict", "detail"]
    rows = {line.split()[0]: line for line in lines[1:4]}
    assert "correct" in rows["routes"] and "config matches" in rows["routes"]
    assert rows["unreadable"].split()[2:4] == ["INVALID_STRUCTURE", "safe"]
    assert lines[-1] == "[offline] 2/3 correct, 1 safe fail, 0 silent wrong, 0 unverified"


def test_a_silent_wrong_fails_the_command(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    wrong = [{**GOOD[0], "jobs": {"J1": {**JOBS["J1"], "route": ["M2", "M1"]}}}]
    assert factory_eval.main(["--cases", str(_cases_file(tmp_path, wrong)), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["totals"] == {"correct": 0, "safe fail": 0, "silent wrong": 1,
                                "unverified": 0, "cases": 1}
    assert report["cases"][0]["detail"] == "J1 route ['M1', 'M2'] != ['M2', 'M1']"


@pytest.mark.parametrize("content", ["not json", '{"cases": [{"name": "x"}]}',
                                     '{"cases": [{"name": "x", "text": "t", "expect": "?"}]}'])
def test_bad_cases_file(tmp_path: Path, content: str,
                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CasesFileError):
        load_cases(path)
    assert factory_eval.main(["--cases", str(path)]) == 2
    assert "E_BAD_CASES_FILE" in capsys.readouterr().err


def test_module_entry_point(tmp_path: Path) -> None:
    path = _cases_file(tmp_path, GOOD[:1])
    done = subprocess.run(
        [sys.executable, "-m", "repro_assets.factory.eval", "--cases", str(path)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1/1 correct" in done.stdout


def test_built_in_set_still_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["eval", "factory"]) == 0
    assert "cases passed" in capsys.readouterr().out
