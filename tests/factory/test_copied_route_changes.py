"""A job copied from another with one step's time changed (#24): ``same as J1 but 3h on M2
instead of 2h`` names the duration it replaces, which must be the copied step's; ``instead of``
before a duration is a correction as ``not 2h`` is, never an unread machine."""

from __future__ import annotations

import pytest

from repro_assets.factory.agent import OnboardingAgent
from tests.factory.phrasing_sets import fails

BASE = "Machines: M4, M5, M6\nJ7: M4 1h, M5 2h, M6 4h\n"


def _steps(text: str, job: str) -> list[tuple[str, int]]:
    config = OnboardingAgent().run_detailed(text).config
    found = next(j for j in config.jobs if j.id == job)
    return [(s.machine_id, s.duration_hours) for s in found.steps]


@pytest.mark.parametrize("change", ["3h on M5 instead of 2h", "M5 3h rather than 2h",
                                    "3h on M5 in place of 2h"])
def test_a_copied_route_with_the_duration_it_replaces(change: str) -> None:
    assert _steps(f"{BASE}J8: same as J7 but {change}\n", "J8") == [("M4", 1), ("M5", 3),
                                                                    ("M6", 4)]


def test_the_replaced_duration_must_be_the_copied_steps() -> None:
    assert "no single step of 1h on M5" in fails(f"{BASE}J8: same as J7 but 3h on M5 instead "
                                                 "of 1h\n")


def test_a_replaced_duration_in_a_route_of_several_steps_fails() -> None:
    assert "corrects no single step" in fails(f"{BASE}J8: M4 1h, M5 3h instead of 2h\n")


def test_a_job_corrects_its_own_step_with_instead_of() -> None:
    assert _steps(f"{BASE}J7 needs 3h on M5 instead of 2h\n", "J7") == [("M4", 1), ("M5", 3),
                                                                        ("M6", 4)]
