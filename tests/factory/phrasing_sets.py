"""What every invented set of staff phrasings shares: grading a case, the two checks each set
makes, and the totals a set module prints when run (``python -m tests.factory.<module>``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.grading import Grade, LabelledCase, Verdict, grade
from repro_assets.factory.models import ExtractionError

#: The expectation of a case whose durations are rounded up (the repair is recorded).
ROUNDED = "ok_rounded"


def grade_case(case: LabelledCase) -> Grade:
    """The verdict of the offline reader on one case."""
    try:
        outcome = OnboardingAgent().run_detailed(case.text)
    except ExtractionError as error:
        return grade(case, error)
    return grade(case, outcome)


def check_case(case: LabelledCase, known_misses: frozenset[str] = frozenset()) -> None:
    """The case is read as a planner reads it; a known miss fails with a code, never with a
    wrong config."""
    result = grade_case(case)
    if case.name in known_misses:
        assert result.verdict is Verdict.SAFE_FAIL, result
        return
    assert result.verdict is Verdict.CORRECT, result


def check_rounding(cases: Iterable[LabelledCase],
                   known_misses: frozenset[str] = frozenset()) -> None:
    """Every rounded case that is read records the rounding among its repairs."""
    for case in cases:
        if case.expect == ROUNDED and case.name not in known_misses:
            repairs = OnboardingAgent().run_detailed(case.text).repairs
            assert any("rounded up" in repair for repair in repairs), case.name


def jobs_of(text: str) -> dict[str, tuple[list[str], list[int], int | None]]:
    """Each job of the config read from ``text``: its machines, hours and due hour."""
    config = OnboardingAgent().run_detailed(text).config
    return {job.id: ([s.machine_id for s in job.steps], [s.duration_hours for s in job.steps],
                     job.due_time_hour) for job in config.jobs}


def fails(text: str) -> str:
    """The message of the coded failure ``text`` must end in."""
    with pytest.raises(ExtractionError) as raised:
        OnboardingAgent().run_detailed(text)
    return str(raised.value)


def print_totals(batches: Iterable[tuple[str, Sequence[LabelledCase]]]) -> None:
    """Print per batch the totals (correct / safe fail / silent wrong) and the cases not
    correct."""
    for label, cases in batches:
        totals: Counter[str] = Counter()
        for case in cases:
            result = grade_case(case)
            totals[result.verdict.value] += 1
            if result.verdict is not Verdict.CORRECT:
                print(f"{result.verdict.value:13} {case.name}: {result.got}: {result.detail}")
        print(label, dict(totals), f"of {len(cases)}")
