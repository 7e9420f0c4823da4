"""Stage 0 (id harvesting) and stage 4 (coverage) are pure: tested with real inputs."""

from __future__ import annotations

import re

import pytest

from repro_assets.factory.coverage import assess_coverage, coverage_of
from repro_assets.factory.ids import extract_explicit_ids, id_pattern
from repro_assets.factory.models import FactoryConfig, PreparsedIds


def test_extract_explicit_ids_patterns() -> None:
    ids = extract_explicit_ids(
        "M1 (assembly) feeds M_ASSEMBLY and M10; J1, J_RUSH and J2b wait. M1's queue is long."
    )
    assert ids.machine_ids == {"M1", "M_ASSEMBLY", "M10"}
    assert ids.job_ids == {"J1", "J_RUSH", "J2b"}


def test_id_pattern_is_the_one_grammar_larger_patterns_are_built_from() -> None:
    slot = re.compile(rf"{id_pattern('J', 'job')}\s+@\s+{id_pattern('M', 'machine')}")
    found = slot.search("07:00 J_RUSH @ M12b")
    assert found is not None and found.group("job", "machine") == ("J_RUSH", "M12b")
    assert slot.search("XJ1 @ M1") is None and slot.search("J1 @ M1x2") is not None
    assert re.fullmatch(id_pattern(), "J10") and not re.fullmatch(id_pattern("M"), "J10")
    assert [m.group(0) for m in re.finditer(id_pattern(), "M10,J1;2M1 M_ m_1 M_A")] == [
        "M10", "J1", "M_A"]


@pytest.mark.parametrize(
    "text",
    [
        "certified ISO9001, CAM1-compatible, HM1 relay, XJ1 bus",  # glued to a word before
        "lowercase m1 and j1 are not explicit ids",
        "M alone, J alone, M_ alone, a M_x lower-case name",
        "model 2M1 and code 7J1",
        "We do stuff with machines and jobs.",
    ],
)
def test_extract_explicit_ids_no_false_positives(text: str) -> None:
    ids = extract_explicit_ids(text)
    assert ids.machine_ids == frozenset()
    assert ids.job_ids == frozenset()


def test_m10_is_not_m1() -> None:
    assert extract_explicit_ids("only M10 here").machine_ids == {"M10"}


@pytest.mark.parametrize(
    ("text", "jobs"),
    [
        ("J1-J4", {"J1", "J2", "J3", "J4"}),
        ("J1–J3", {"J1", "J2", "J3"}),
        ("J2 to J4", {"J2", "J3", "J4"}),
        ("J1..J2", {"J1", "J2"}),
        ("J4-J1", {"J4", "J1"}),  # descending: not a range, just the two ids
    ],
)
def test_ranges_are_expanded(text: str, jobs: set[str]) -> None:
    assert extract_explicit_ids(text).job_ids == jobs


def test_from_to_is_a_route_not_a_range() -> None:
    ids = extract_explicit_ids("J1 goes from M1 to M4. J2 to J3 use M2.")
    assert ids.machine_ids == {"M1", "M2", "M4"}
    assert ids.job_ids == {"J1", "J2", "J3"}


def test_arrow_is_not_a_range() -> None:
    assert extract_explicit_ids("J1: M1 2h -> M4 1h").machine_ids == {"M1", "M4"}


def _config(machines: list[str], jobs: list[str]) -> FactoryConfig:
    return FactoryConfig.model_validate(
        {
            "machines": [{"id": m, "name": m} for m in machines],
            "jobs": [
                {"id": j, "name": j, "steps": [{"machine_id": machines[0], "duration_hours": 1}]}
                for j in jobs
            ],
        }
    )


def test_assess_coverage_complete() -> None:
    ids = PreparsedIds(machine_ids=frozenset({"M1", "M2"}), job_ids=frozenset({"J1"}))
    report = assess_coverage(ids, _config(["M1", "M2"], ["J1"]))
    assert report.machine_coverage == 1.0
    assert report.job_coverage == 1.0
    assert report.complete


def test_assess_coverage_missing_and_extra() -> None:
    ids = PreparsedIds(
        machine_ids=frozenset({"M1", "M2", "M3", "M4"}), job_ids=frozenset({"J1", "J2"})
    )
    report = assess_coverage(ids, _config(["M1", "M2", "M3", "M9"], ["J1"]))
    assert report.machine_coverage == 0.75
    assert report.job_coverage == 0.5
    assert report.missing_machines == ["M4"]
    assert report.missing_jobs == ["J2"]
    assert report.extra_machines == ["M9"]
    assert not report.complete


def test_extra_ids_alone_break_completeness() -> None:
    ids = PreparsedIds(machine_ids=frozenset({"M1"}), job_ids=frozenset({"J1"}))
    report = assess_coverage(ids, _config(["M1", "M2"], ["J1"]))
    assert report.machine_coverage == 1.0
    assert report.extra_machines == ["M2"]
    assert not report.complete


def test_coverage_undefined_without_detected_ids() -> None:
    report = coverage_of(PreparsedIds(), ["M1"], ["J1"])
    assert report.machine_coverage is None
    assert report.job_coverage is None
    assert not report.complete
