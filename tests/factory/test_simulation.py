"""Job-shop simulation on a small instance checked by hand, feasibility check, Gantt PNG."""

from __future__ import annotations

import pytest

from repro_assets.factory.models import FactoryConfig
from repro_assets.factory.simulation import (
    DispatchRule,
    Operation,
    gantt_png,
    schedule_problems,
    simulate,
)

# J1: M1 1h -> M2 2h, due 10;  J2: M1 3h -> M2 1h, due 4;  J3: M2 2h -> M1 1h, due 6
HAND = FactoryConfig.model_validate(
    {
        "machines": [{"id": "M1", "name": "cut"}, {"id": "M2", "name": "weld"}],
        "jobs": [
            {"id": "J1", "name": "J1", "due_time_hour": 10, "steps": [
                {"machine_id": "M1", "duration_hours": 1},
                {"machine_id": "M2", "duration_hours": 2}]},
            {"id": "J2", "name": "J2", "due_time_hour": 4, "steps": [
                {"machine_id": "M1", "duration_hours": 3},
                {"machine_id": "M2", "duration_hours": 1}]},
            {"id": "J3", "name": "J3", "due_time_hour": 6, "steps": [
                {"machine_id": "M2", "duration_hours": 2},
                {"machine_id": "M1", "duration_hours": 1}]},
        ],
    }
)


def _ops(schedule) -> list[tuple[str, str, int, int]]:
    return [(op.job_id, op.machine_id, op.start, op.end) for op in schedule.operations]


def test_edd_by_hand() -> None:
    # t=0: M1 picks J2 (due 4) over J1 (due 10); M2 runs J3. t=2: M2 idle (nothing ready).
    # t=3: M1 picks J3 (due 6) over J1; M2 runs J2. t=4: M1 runs J1. t=5: M2 runs J1.
    schedule = simulate(HAND, DispatchRule.EDD)
    assert _ops(schedule) == [
        ("J2", "M1", 0, 3), ("J3", "M2", 0, 2), ("J3", "M1", 3, 4), ("J2", "M2", 3, 4),
        ("J1", "M1", 4, 5), ("J1", "M2", 5, 7),
    ]
    assert schedule.makespan == 7
    assert [(j.job_id, j.completion, j.lateness) for j in schedule.jobs] == [
        ("J1", 7, -3), ("J2", 4, 0), ("J3", 4, -2),
    ]
    assert schedule.max_lateness == 0
    assert schedule.late_jobs == []
    assert schedule.utilisation == {"M1": round(5 / 7, 4), "M2": round(5 / 7, 4)}


def test_spt_by_hand() -> None:
    # t=0: M1 picks J1 (1h) over J2 (3h); M2 runs J3. t=1: M1 runs J2. t=2: M2 runs J1.
    # t=4: M1 runs J3, M2 runs J2.
    schedule = simulate(HAND, "SPT")
    assert _ops(schedule) == [
        ("J1", "M1", 0, 1), ("J3", "M2", 0, 2), ("J2", "M1", 1, 4), ("J1", "M2", 2, 4),
        ("J3", "M1", 4, 5), ("J2", "M2", 4, 5),
    ]
    assert schedule.makespan == 5
    assert [(j.job_id, j.completion, j.lateness, j.tardiness) for j in schedule.jobs] == [
        ("J1", 4, -6, 0), ("J2", 5, 1, 1), ("J3", 5, -1, 0),
    ]
    assert schedule.late_jobs == ["J2"]
    assert schedule.total_tardiness == 1
    assert schedule.utilisation == {"M1": 1.0, "M2": 1.0}


def test_start_hour_shifts_lateness() -> None:
    schedule = simulate(HAND, "EDD", start_hour=2)
    assert [j.completion_hour for j in schedule.jobs] == [9, 6, 6]
    assert schedule.late_jobs == ["J2"]


def test_jobs_without_due_go_last_under_edd() -> None:
    config = HAND.model_copy(deep=True)
    config.jobs[1].due_time_hour = None
    schedule = simulate(config, "EDD")
    assert schedule.operations[0].job_id == "J1"
    assert schedule.jobs[1].lateness is None


@pytest.mark.parametrize("rule", list(DispatchRule))
def test_schedules_are_feasible(rule: DispatchRule) -> None:
    schedule = simulate(HAND, rule)
    assert schedule_problems(HAND, schedule) == []


def test_feasibility_check_catches_overlap() -> None:
    schedule = simulate(HAND, "SPT")
    bad = schedule.model_copy(deep=True)
    bad.operations[2] = Operation(job_id="J2", step_index=0, machine_id="M1", start=0, end=3)
    problems = schedule_problems(HAND, bad)
    assert any("overlap" in p for p in problems)


def test_gantt_png() -> None:
    png = gantt_png(HAND, [simulate(HAND, rule) for rule in DispatchRule], title="hand")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) > 5_000
