"""A job said to have no due by what its time would be of (#24): ``with no fixed completion
time``, ``no delivery date``; the kind alone (``no delivery``) says nothing and fails."""

from __future__ import annotations

import pytest

from repro_assets.factory.agent import OnboardingAgent
from tests.factory.phrasing_sets import fails

PLANT = "Machines: M4, M5\nJ7: M4 4h, due 13:00\n"


@pytest.mark.parametrize("said", ["with no fixed completion time", "no delivery date",
                                  "no firm ship date", "no target time"])
def test_no_time_of_completion_is_no_due(said: str) -> None:
    config = OnboardingAgent().run_detailed(f"{PLANT}J8: M5 3h, {said}\n").config
    assert {job.id: job.due_time_hour for job in config.jobs} == {"J7": 13, "J8": None}


@pytest.mark.parametrize("said", ["no delivery", "with no completion"])
def test_a_kind_without_its_time_fails(said: str) -> None:
    assert said in fails(f"{PLANT}J8: M5 3h, {said}\n")
