"""A half or quarters of an hour written with a slash (#24): ``3/4 h``, ``1/2 hour``,
``1 1/2 hours`` are durations (rounded up with a repair); a slash that is no such fraction
before a unit of hours (``1/3 h``, a date ``3/4``) stays unread."""

from __future__ import annotations

import pytest

from repro_assets.factory.agent import OnboardingAgent
from tests.factory.phrasing_sets import fails


@pytest.mark.parametrize(("written", "hours"), [
    ("3/4 h", 1), ("1/2 hour", 1), ("1 1/2 hours", 2), ("2 3/4h", 3), ("(1/4 hr)", 1),
])
def test_a_slash_fraction_of_an_hour_is_a_duration(written: str, hours: int) -> None:
    outcome = OnboardingAgent().run_detailed(f"Machines: M4, M5\nJ7: M5 {written}, then M4 2h\n")
    job = outcome.config.jobs[0]
    assert [(s.machine_id, s.duration_hours) for s in job.steps] == [("M5", hours), ("M4", 2)]
    assert any("rounded up" in repair for repair in outcome.repairs)


@pytest.mark.parametrize("written", ["1/3 h", "12/3/4 hours"])
def test_another_slash_before_hours_stays_unread(written: str) -> None:
    assert written in fails(f"Machines: M4, M5\nJ7: M5 {written}\n")


def test_a_date_with_a_slash_is_no_duration() -> None:
    assert "3/4" in fails("Machines: M4, M5\nJ7: M5 2h, due 3/4\n")
