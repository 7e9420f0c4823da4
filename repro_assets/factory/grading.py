"""Grade onboarding outcomes against a labelled cases file (the corpus format).

A cases file is JSON: ``{"cases": [{"name", "text", "expect", "machines"?, "jobs"?}]}`` where
``expect`` is ``ok``, an error code, or alternatives joined by ``_OR_``
(``INVALID_STRUCTURE_OR_OK_ROUNDED``, ``ok_or_fail``); ``machines`` lists machine ids and
``jobs`` maps a job id to ``{"route": [...], "hours": [...], "due": hour or null}``.

Verdicts:

* ``correct``: the expected code, or a configuration equal to the expected one (machine ids
  as a set; per job the route, the hours and the due hour);
* ``safe fail``: a coded failure where something else was expected;
* ``silent wrong``: a configuration that differs from the expected one, or a success where
  only failures are acceptable: the outcome the product must never produce;
* ``unverified``: a success the case gives no configuration to check against.

Alternatives: ``ok`` (a success; checked when the case gives the configuration), ``ok_rounded``
(a success whose fractional durations were rounded with a recorded repair), ``fail`` (any
coded failure) and error codes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from repro_assets.factory.models import ErrorCode, ExtractionError, OnboardingResult

OK, OK_ROUNDED, FAIL = "ok", "ok_rounded", "fail"


class Verdict(StrEnum):
    """How an outcome compares with a case."""

    CORRECT = "correct"
    SAFE_FAIL = "safe fail"
    SILENT_WRONG = "silent wrong"
    UNVERIFIED = "unverified"


class CasesFileError(ValueError):
    """The cases file is not in the expected format."""


@dataclass(frozen=True)
class LabelledCase:
    """One case of a cases file."""

    name: str
    text: str
    expect: str
    machines: tuple[str, ...] | None
    jobs: dict[str, dict[str, Any]] | None

    @property
    def alternatives(self) -> list[str]:
        """The acceptable outcomes (``ok``, ``ok_rounded``, ``fail`` or error codes)."""
        return expectation_alternatives(self.expect)


@dataclass(frozen=True)
class Grade:
    """The verdict on one case."""

    name: str
    expected: str
    got: str
    verdict: Verdict
    detail: str


def expectation_alternatives(expect: str) -> list[str]:
    """Split an ``expect`` value into its alternatives.

    Raises:
        CasesFileError: an alternative is neither ok/ok_rounded/fail nor an error code.
    """
    out = []
    codes = {code.value for code in ErrorCode}
    for part in re.split(r"_OR_", expect, flags=re.IGNORECASE):
        lowered = part.strip().lower()
        if lowered in (OK, OK_ROUNDED, FAIL):
            out.append(lowered)
        elif part.strip().upper() in codes:
            out.append(part.strip().upper())
        else:
            raise CasesFileError(f"unknown expectation {part!r} in {expect!r}")
    return out


def load_cases(path: str | Path) -> list[LabelledCase]:
    """Read a cases file.

    Raises:
        CasesFileError: the file is not JSON in the cases format.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CasesFileError(f"cannot read {path}: {exc}") from exc
    raw_cases = data.get("cases") if isinstance(data, dict) else data
    if not isinstance(raw_cases, list):
        raise CasesFileError(f"{path}: expected a list of cases under 'cases'")
    cases = []
    for index, item in enumerate(raw_cases):
        if not isinstance(item, dict) or not {"name", "text", "expect"} <= set(item):
            raise CasesFileError(f"{path}: case {index} needs name, text and expect")
        expectation_alternatives(str(item["expect"]))
        machines = item.get("machines")
        cases.append(LabelledCase(
            name=str(item["name"]),
            text=str(item["text"]),
            expect=str(item["expect"]),
            machines=tuple(machines) if machines is not None else None,
            jobs=item.get("jobs"),
        ))
    return cases


def _differences(case: LabelledCase, result: OnboardingResult) -> list[str]:
    config = result.config
    found = []
    if case.machines is not None:
        got = sorted({m.id for m in config.machines})
        if got != sorted(set(case.machines)):
            found.append(f"machines {got} != {sorted(set(case.machines))}")
    if case.jobs is not None:
        got_jobs = {job.id: job for job in config.jobs}
        if sorted(got_jobs) != sorted(case.jobs):
            found.append(f"jobs {sorted(got_jobs)} != {sorted(case.jobs)}")
        for job_id, expected in case.jobs.items():
            job = got_jobs.get(job_id)
            if job is None:
                continue
            route = [s.machine_id for s in job.steps]
            hours = [float(s.duration_hours) for s in job.steps]
            if route != list(expected.get("route", [])):
                found.append(f"{job_id} route {route} != {expected.get('route')}")
            elif hours != [float(h) for h in expected.get("hours", [])]:
                found.append(f"{job_id} hours {[int(h) for h in hours]} != "
                             f"{expected.get('hours')}")
            due = expected.get("due")
            if job.due_time_hour != (None if due is None else int(due)):
                found.append(f"{job_id} due {job.due_time_hour} != {due}")
    return found


def grade(case: LabelledCase, outcome: OnboardingResult | ExtractionError) -> Grade:
    """Grade one outcome against its case."""
    alternatives = case.alternatives
    if isinstance(outcome, ExtractionError):
        code = outcome.code.value
        if code in alternatives or FAIL in alternatives:
            return Grade(case.name, case.expect, code, Verdict.CORRECT, outcome.message)
        return Grade(case.name, case.expect, code, Verdict.SAFE_FAIL, outcome.message)
    has_config = case.machines is not None or case.jobs is not None
    if OK in alternatives or OK_ROUNDED in alternatives:
        if has_config:
            differences = _differences(case, outcome)
            if differences:
                return Grade(case.name, case.expect, "ok", Verdict.SILENT_WRONG,
                             "; ".join(differences))
            return Grade(case.name, case.expect, "ok", Verdict.CORRECT, "config matches")
        rounded = [r for r in outcome.repairs if "rounded" in r]
        if OK_ROUNDED in alternatives and rounded:
            return Grade(case.name, case.expect, "ok", Verdict.CORRECT,
                         f"{len(rounded)} rounding repair(s) recorded")
        return Grade(case.name, case.expect, "ok", Verdict.UNVERIFIED,
                     "success; the case gives no configuration to compare with")
    return Grade(case.name, case.expect, "ok", Verdict.SILENT_WRONG,
                 f"succeeded where the case expects {case.expect}")


def totals(grades: list[Grade]) -> dict[str, int]:
    """Count the verdicts (every verdict present, 0 when absent) and the cases."""
    counts = {verdict.value: 0 for verdict in Verdict}
    for item in grades:
        counts[item.verdict.value] += 1
    counts["cases"] = len(grades)
    return counts
