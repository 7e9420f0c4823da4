"""The defects named in issue #14, each with a text written here (written to fail first).

They only use ``OnboardingAgent`` (offline), so they run against any version of the parser.
"""

from __future__ import annotations

import logging

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.models import ErrorCode, ExtractionError


def _routes(text: str) -> dict[str, tuple[list[str], list[int], int | None]]:
    config = OnboardingAgent().run(text)
    return {
        job.id: ([s.machine_id for s in job.steps], [s.duration_hours for s in job.steps],
                 job.due_time_hour)
        for job in config.jobs
    }


def test_pm_due_times_are_not_dropped() -> None:
    """Was: success with due_time_hour null for 'Due at 4pm.' in a list item."""
    text = (
        "The bakery runs M1 (mixer) and M2 (oven).\n"
        "- J1 passes through M1 for 2 hours, then M2 for 1 hour. Due at 4pm.\n"
        "- J2 passes through M2 for 2 hours. Due at 10am."
    )
    routes = _routes(text)
    assert routes["J1"] == (["M1", "M2"], [2, 1], 16)
    assert routes["J2"] == (["M2"], [2], 10)


def test_skips_removes_the_machine_from_the_standard_route() -> None:
    """Was: success with the job routed through the machine the text says it skips."""
    text = (
        "Stations M1 (cut), M2 (sand), M3 (oil). Every job goes M1 then M2 then M3, 2h each. "
        "J4 skips M3. Jobs are J3 and J4."
    )
    routes = _routes(text)
    assert routes["J3"] == (["M1", "M2", "M3"], [2, 2, 2], None)
    assert routes["J4"] == (["M1", "M2"], [2, 2], None)


def test_named_machine_ids_are_declared_without_the_word_machines() -> None:
    """Was: M_SAW found by stage 0 but lost by the parser (no 'machines' word)."""
    routes = _routes("We have M_SAW and M_SAND. J_X: M_SAW 2h, M_SAND 1h.")
    assert routes["J_X"] == (["M_SAW", "M_SAND"], [2, 1], None)


def test_seed_case5_no_ids_at_all_is_coverage_mismatch() -> None:
    """The seed's case 5 expects COVERAGE_MISMATCH (coverage undefined), not NO_IDS."""
    with pytest.raises(ExtractionError) as info:
        OnboardingAgent().run("The plant has some machines and takes orders.")
    assert info.value.code is ErrorCode.COVERAGE_MISMATCH
    assert info.value.details["machine_coverage"] is None
    assert info.value.details["job_coverage"] is None


def test_repairs_are_logged_once_each(caplog: pytest.LogCaptureFixture) -> None:
    """Was: repairs reported in the result but never logged."""
    text = "Machines: M1 (saw), M2 (drill). J1: M1 90 min -> M2 2.5h."
    with caplog.at_level(logging.INFO, logger="repro_assets.factory"):
        result = OnboardingAgent().run_detailed(text)
    logged = [r.getMessage() for r in caplog.records if "repair" in r.getMessage()]
    assert len(result.repairs) == 2
    assert logged == [f"factory repair: {repair}" for repair in result.repairs]


def test_a_half_read_sentence_fails_instead_of_being_ignored() -> None:
    """Was: a sentence about a job that the parser could not read was silently skipped."""
    text = "Machines: M1 (saw), M2 (drill). J1: M1 1h -> M2 1h. J2 uses M2 for 1h on weekdays."
    with pytest.raises(ExtractionError) as info:
        OnboardingAgent().run(text)
    assert info.value.code is ErrorCode.INVALID_STRUCTURE
    assert "J2 uses M2 for 1h on weekdays" in str(info.value.details)
