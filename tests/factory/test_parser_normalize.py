"""The offline parser (stages 1-2) and normalization (stage 3)."""

from __future__ import annotations

import pytest

from repro_assets.factory.models import RawFactoryConfig
from repro_assets.factory.normalize import StructureError, normalize_factory, validate_and_normalize
from repro_assets.factory.parser import parse_coarse, parse_steps


def _routes(text: str) -> dict[str, list[tuple[str, float | None]]]:
    raw = parse_steps(text, parse_coarse(text))
    return {j.id: [(s.machine_id, s.duration_hours) for s in j.steps] for j in raw.jobs}


def test_coarse_declarations_and_names() -> None:
    coarse = parse_coarse(
        "We have 3 machines: M1 (assembly), M2 (drill), M3. J1 and J2 use them. M4 is spare."
    )
    assert [(m.id, m.name) for m in coarse.machines] == [
        ("M1", "assembly"), ("M2", "drill"), ("M3", "M3"), ("M4", "M4"),
    ]
    assert [j.id for j in coarse.jobs] == ["J1", "J2"]


def test_not_aside_is_neither_a_name_nor_a_step() -> None:
    text = (
        "Machines: M1 (cut), M2 (drill), M3 (paint), M4 (polish). "
        "J2 uses M1, M2, M4 (not M3), 1h each."
    )
    assert [(m.id, m.name) for m in parse_coarse(text).machines][3] == ("M4", "polish")
    assert _routes(text)["J2"] == [("M1", 1.0), ("M2", 1.0), ("M4", 1.0)]


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("J1: M1 2h → M2 3h", [("M1", 2.0), ("M2", 3.0)]),
        ("J1: M1 2h -> M2 3h", [("M1", 2.0), ("M2", 3.0)]),
        ("J1: M1 for 2h then M2 for 3h", [("M1", 2.0), ("M2", 3.0)]),
        ("J1: M1 (2h) → M2 (3 hours)", [("M1", 2.0), ("M2", 3.0)]),
        ("J1 does 2h on M1, 3h on M2", [("M1", 2.0), ("M2", 3.0)]),
        ("J1 uses M1, M2, taking 2h and 3h respectively", [("M1", 2.0), ("M2", 3.0)]),
        ("J1 uses M2, M1, 30 min each", [("M2", 0.5), ("M1", 0.5)]),
        ("J1 uses M1, M2", [("M1", None), ("M2", None)]),
        ("J1: M1, M2, 2h, 3h, 4h", []),  # 3 durations for 2 steps: unread, no route
    ],
)
def test_route_phrasings(clause: str, expected: list[tuple[str, float | None]]) -> None:
    assert _routes(f"Machines: M1 (cut), M2 (weld). {clause}.")["J1"] == expected


def test_each_pass_through_them_in_sequence_with_due_times() -> None:
    text = (
        "We have 2 machines: M1 (cut), M2 (weld). J1, J2 each pass through them in sequence, "
        "taking 2h and 1h respectively. J1 is due by 17:00. J2 is due at 9am."
    )
    raw = parse_steps(text, parse_coarse(text))
    assert [(j.id, j.due_time_hour) for j in raw.jobs] == [("J1", 17.0), ("J2", 9.0)]
    assert [s.duration_hours for s in raw.jobs[1].steps] == [2.0, 1.0]


def test_specific_routing_beats_general_and_inherits_durations() -> None:
    text = (
        "Machines: M1 (a), M2 (b), M3 (c), M4 (d). Jobs pass through M1, M2, M3 in sequence, "
        "2h on each. J1 uses M1, M2, M4 (not M3), with 1h on M4. J2 follows the standard route."
    )
    routes = _routes(text)
    assert routes["J1"] == [("M1", 2.0), ("M2", 2.0), ("M4", 1.0)]
    assert routes["J2"] == [("M1", 2.0), ("M2", 2.0), ("M3", 2.0)]


def test_conflicting_statements_are_emitted_twice() -> None:
    text = "Machines: M1 (a), M2 (b). J1: M1 2h. J1: M2 3h."
    raw = parse_steps(text, parse_coarse(text))
    assert [j.id for j in raw.jobs] == ["J1", "J1"]


def _raw(steps: list[dict], due: float | None = None, machines: tuple[str, ...] = ("M1", "M2"),
         ) -> RawFactoryConfig:
    return RawFactoryConfig.model_validate(
        {
            "machines": [{"id": m, "name": m} for m in machines],
            "jobs": [{"id": "J1", "name": "J1", "steps": steps, "due_time_hour": due}],
        }
    )


def test_normalize_repairs_are_reported() -> None:
    raw = _raw([{"machine_id": " M1 ", "duration_hours": 2.5},
                {"machine_id": "M2", "duration_hours": 2.0}], due=12.5)
    result = normalize_factory(raw)
    assert result.jobs[0]["steps"] == [
        {"machine_id": "M1", "duration_hours": 3}, {"machine_id": "M2", "duration_hours": 2},
    ]
    assert result.jobs[0]["due_time_hour"] == 12
    assert len(result.repairs) == 2
    config = validate_and_normalize(raw)
    assert config.jobs[0].steps[0].duration_hours == 3


@pytest.mark.parametrize(
    ("steps", "due", "problem"),
    [
        ([{"machine_id": "M5", "duration_hours": 2}], None, "machine M5 is not declared"),
        ([{"machine_id": "M1", "duration_hours": 0}], None, "duration 0h is not positive"),
        ([{"machine_id": "M1", "duration_hours": None}], None, "no duration stated"),
        ([{"machine_id": "M1", "duration_hours": 1}], 25, "outside 0-24"),
        ([], None, "job J1 has no valid step"),
    ],
)
def test_validate_and_normalize_hard_fails(steps: list[dict], due: float | None,
                                           problem: str) -> None:
    with pytest.raises(StructureError) as info:
        validate_and_normalize(_raw(steps, due))
    assert any(problem in p for p in info.value.problems)


def test_step_drop_keeps_job_but_still_fails() -> None:
    steps = [{"machine_id": "M1", "duration_hours": 2}, {"machine_id": "M5", "duration_hours": 3}]
    raw = _raw(steps, machines=("M1",))
    with pytest.raises(StructureError) as info:
        validate_and_normalize(raw)
    assert info.value.lost_jobs == []
    assert info.value.dropped_steps == ["job J1 step 2 on M5: machine M5 is not declared"]


def test_duplicates_fail_and_exact_duplicates_merge() -> None:
    raw = RawFactoryConfig.model_validate({
        "machines": [{"id": "M1", "name": "a"}, {"id": "M1", "name": "a"}],
        "jobs": [{"id": "J1", "name": "J1", "due_time_hour": None,
                  "steps": [{"machine_id": "M1", "duration_hours": 1}]}] * 2,
    })
    config = validate_and_normalize(raw)
    assert len(config.machines) == 1 and len(config.jobs) == 1
    raw.machines[1].name = "b"
    with pytest.raises(StructureError, match="duplicate machine id M1"):
        validate_and_normalize(raw)
