"""The offline reader, one phrasing family at a time (texts written for these tests)."""

from __future__ import annotations

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.models import ErrorCode, ExtractionError
from repro_assets.factory.reading import read_factory_text
from repro_assets.factory.reading.lexicon import Kind, tokenize
from repro_assets.factory.reading.segments import Clause, Table, segment

Route = tuple[list[str], list[int], int | None]


def _read(text: str) -> dict[str, Route]:
    result = OnboardingAgent().run_detailed(text)
    return {
        job.id: ([s.machine_id for s in job.steps], [s.duration_hours for s in job.steps],
                 job.due_time_hour)
        for job in result.config.jobs
    }


def _fails(text: str) -> ExtractionError:
    with pytest.raises(ExtractionError) as info:
        OnboardingAgent().run(text)
    return info.value


# --------------------------------------------------------------------------- routes


@pytest.mark.parametrize(
    "route",
    [
        "J7: M2 (3h) => M1 (2h)",
        "J7: M2 3h → M1 2h",
        "J7 goes M2 3h then M1 2h",
        "J7 runs on M2 for 3 hours and then on M1 for 2 hours",
        "J7 spends 3h on M2, then 2h on M1",
        "J7: M2 3h, M1 2h",
        "J7: 3 hours on M2, followed by 2 hours on M1",
        "J7 goes from M2 to M1, 3h and 2h respectively",
        "The route for J7 is M2 3h then M1 2h",
        "J7 is routed through M2 and M1, taking 3h and 2h respectively",
        "J7 is planed on M2 for 3 hours and varnished on M1 for 2 hours",
    ],
)
def test_arrows_then_colon_and_verb_routes(route: str) -> None:
    text = f"Workshop with M1 (varnish booth) and M2 (planer). {route}."
    assert _read(text) == {"J7": (["M2", "M1"], [3, 2], None)}


def test_jobs_before_machines_and_a_label() -> None:
    text = ("Tonight's orders: J4 runs M3 for 1h then M1 for 2h; J5 runs M1 for 4h. "
            "On the floor: M1 (press) and M3 (dryer).")
    assert _read(text) == {"J4": (["M3", "M1"], [1, 2], None), "J5": (["M1"], [4], None)}


def test_machines_named_only_in_routes_are_machines() -> None:
    result = OnboardingAgent().run_detailed("J1 goes M5 1h then M6 2h. J2 goes M6 1h.")
    assert [m.id for m in result.config.machines] == ["M5", "M6"]


def test_sentence_per_step_with_pronouns() -> None:
    text = ("Machines: M1 (knit), M2 (dye), M3 (dry).\n"
            "J3 begins at M2. It spends 3 hours there. Afterwards it moves to M3 for 1 hour.\n"
            "J4 is knitted on M1 for 2 hours and dyed on M2 for 2 hours. It must ship by 18:30.")
    assert _read(text) == {"J3": (["M2", "M3"], [3, 1], None),
                           "J4": (["M1", "M2"], [2, 2], 18)}


def test_continuation_on_the_next_line() -> None:
    assert _read("Machines: M1, M2. J1 runs M1 for 2h.\nThen M2 for 1h.") == {
        "J1": (["M1", "M2"], [2, 1], None)}


# --------------------------------------------------------------------------- lists


def test_bullet_items_with_a_due_sentence() -> None:
    text = ("Our cell: M1 (lathe), M2 (grinder).\n"
            "* J1 visits M1 for 1 hour, then M2 for 3 hours. Due at 2pm.\n"
            "* J2 visits M2 for 2 hours. Due at 9 am.")
    assert _read(text) == {"J1": (["M1", "M2"], [1, 3], 14), "J2": (["M2"], [2], 9)}


def test_numbered_items() -> None:
    text = ("Machines: M1 (oven), M2 (cooler).\n"
            "1. J1 runs on M1 for 2 hours, then on M2 for 1 hour, due 15:00.\n"
            "2) J2 runs on M2 for 1 hour, due 11.")
    assert _read(text) == {"J1": (["M1", "M2"], [2, 1], 15), "J2": (["M2"], [1], 11)}


def test_steps_listed_under_a_job_header() -> None:
    text = ("Machines: M1 (saw), M2 (drill).\nJ1:\n- M1 2h\n- M2 1h\n- due 15:00\n"
            "J2's steps:\n\n1. M2 3h\n2. then M1 for 1 hour")
    assert _read(text) == {"J1": (["M1", "M2"], [2, 1], 15), "J2": (["M2", "M1"], [3, 1], None)}


def test_machines_and_jobs_as_lists_under_headers() -> None:
    text = ("Machines:\n- M1 (saw)\n- M2 (drill)\n\nJobs:\n1. J1: M1 2h -> M2 1h\n"
            "2. J2: M2 3h")
    assert _read(text) == {"J1": (["M1", "M2"], [2, 1], None), "J2": (["M2"], [3], None)}
    error = _fails(text.replace("M2 1h", "M20 1h"))
    assert error.details["route_only_machines"] == ["M20"]


# --------------------------------------------------------------------------- tables


def test_markdown_table_one_row_per_job() -> None:
    text = ("Machines are M1 (trim), M2 (bend).\n\n"
            "| order | routing | hours | deadline |\n| :-- | --- | --- | --: |\n"
            "| J5 | M2 -> M1 | 2, 3 | 11:00 |\n| J6 | M1 | 1 | |")
    assert _read(text) == {"J5": (["M2", "M1"], [2, 3], 11), "J6": (["M1"], [1], None)}


def test_pipe_table_without_outer_pipes() -> None:
    text = "job | route | hours\n--- | --- | ---\nJ1 | M1, M2 | 1, 2\nJ2 | M2 | 4"
    assert _read(text) == {"J1": (["M1", "M2"], [1, 2], None), "J2": (["M2"], [4], None)}


def test_csv_lines_one_row_per_step_ordered_by_step_column() -> None:
    text = ("machines: M1, M2, M3\njob,step,machine,minutes\n"
            "J1,2,M2,30\nJ1,1,M1,90\nJ2,1,M3,120")
    result = OnboardingAgent().run_detailed(text)
    routes = {j.id: [(s.machine_id, s.duration_hours) for s in j.steps]
              for j in result.config.jobs}
    assert routes == {"J1": [("M1", 2), ("M2", 1)], "J2": [("M3", 2)]}
    assert len(result.repairs) == 2  # 1.5h and 0.5h rounded up


def test_semicolon_separated_lines_with_due_column() -> None:
    text = "job;machine;hours;due\nJ1;M1;2;4pm\nJ1;M2;1;4pm\nJ2;M2;3;"
    assert _read(text) == {"J1": (["M1", "M2"], [2, 1], 16), "J2": (["M2"], [3], None)}


@pytest.mark.parametrize(
    ("table", "reason"),
    [
        ("| job | route | hours | shift |\n|---|---|---|---|\n| J1 | M2, M1 | 3, 1 | B |",
         "unknown column"),
        ("| job | route | hours | notes |\n|---|---|---|---|\n| J1 | M2, M1 | 3, 1 | rush |",
         "may change the row's meaning"),
        ("| job | route | hours |\n|---|---|---|\n| J1 | M1, M2 | 3 |", "1 duration(s) for 2"),
        ("job,machine,hours\nJ1,M1,2\nJ1,M2,1,5", "4 cells under a header of 3"),
        ("job,machine,hours,due\nJ1,M1,2,10\nJ1,M2,1,11", "two due times"),
    ],
)
def test_tables_that_cannot_be_read_fail_with_the_row(table: str, reason: str) -> None:
    error = _fails("Machines: M1, M2.\n" + table)
    assert error.code is ErrorCode.INVALID_STRUCTURE
    assert any(reason in item["reason"] for item in error.details["unread"])


# --------------------------------------------------------------------------- durations


@pytest.mark.parametrize(
    ("phrase", "hours", "repairs"),
    [
        ("45 minutes", 1, 1),
        ("2.25 hours", 3, 1),
        ("an hour and a half", 2, 1),
        ("half an hour", 1, 1),
        ("1h30", 2, 1),
        ("1 hour 30 minutes", 2, 1),
        ("two hours", 2, 0),
        ("180 min", 3, 0),
    ],
)
def test_minutes_and_fractions_are_rounded_up_with_a_repair(phrase: str, hours: int,
                                                            repairs: int) -> None:
    result = OnboardingAgent().run_detailed(f"Machines: M1 (kiln). J1 needs {phrase} on M1.")
    assert result.config.jobs[0].steps[0].duration_hours == hours
    assert len(result.repairs) == repairs


def test_uniform_durations_each_and_per_step() -> None:
    text = "Machines M1, M2, M3. J1 and J2 go M3 -> M1 -> M2 for 2h each."
    assert _read(text)["J2"] == (["M3", "M1", "M2"], [2, 2, 2], None)


# --------------------------------------------------------------------------- due times


@pytest.mark.parametrize(
    ("phrase", "hour"),
    [
        ("due 16", 16), ("due 16:00", 16), ("due by 4pm", 16), ("due at 4 p.m.", 16),
        ("due at noon", 12), ("due by midnight", 24), ("due by 12 noon", 12),
        ("must ship by 19:00", 19), ("must be done by 10:00", 10), ("deadline 8am", 8),
        ("due at 12pm", 12), ("needed by 13.00", 13), ("due 7:45", 7),
    ],
)
def test_due_times(phrase: str, hour: int) -> None:
    assert _read(f"Machines: M1 (kiln). J1: M1 2h, {phrase}.")["J1"][2] == hour


@pytest.mark.parametrize(
    "phrase",
    ["due tomorrow", "due at 5 o'clock", "due by 12am", "due by end of shift", "due at 13pm"],
)
def test_due_times_that_cannot_be_read_fail_with_the_sentence(phrase: str) -> None:
    error = _fails(f"Machines: M1 (kiln). J1: M1 2h, {phrase}.")
    assert error.details["unread"][0]["sentence"] == f"J1: M1 2h, {phrase}"


# --------------------------------------------------------------------------- exceptions


def test_standard_route_with_an_exception_in_the_same_sentence() -> None:
    text = ("Machines: M1, M2, M3, M4. Each job takes M2 -> M3 -> M1, two hours per step, "
            "except J6, which takes M2 -> M4 -> M1. Jobs: J5, J6, J7.")
    assert _read(text) == {
        "J5": (["M2", "M3", "M1"], [2, 2, 2], None),
        "J6": (["M2", "M4", "M1"], [2, 2, 2], None),
        "J7": (["M2", "M3", "M1"], [2, 2, 2], None),
    }


@pytest.mark.parametrize(
    ("exception", "route"),
    [
        ("J2 skips M2", (["M1", "M3"], [1, 3], None)),
        ("J2 does not visit M2", (["M1", "M3"], [1, 3], None)),
        ("J2 bypasses M2 and M3", (["M1"], [1], None)),
        ("J2 uses M4 instead of M2", (["M1", "M4", "M3"], [1, None, 3], None)),
        ("J2 uses M4 instead of M2 for 5h", (["M1", "M4", "M3"], [1, 5, 3], None)),
        ("J2 uses M1, M3 (not M2)", (["M1", "M3"], [1, 3], None)),
        ("J2 follows the standard routing", (["M1", "M2", "M3"], [1, 2, 3], None)),
    ],
)
def test_exceptions_to_the_standard_route(exception: str, route: Route) -> None:
    text = (f"Machines: M1, M2, M3, M4. All jobs go M1 1h -> M2 2h -> M3 3h. {exception}. "
            "Jobs are J1 and J2.")
    if None in route[1]:  # a replacement without a duration: stage 3 refuses the step
        error = _fails(text)
        assert "no duration stated" in error.message
        return
    routes = _read(text)
    assert routes["J2"] == route
    assert routes["J1"] == (["M1", "M2", "M3"], [1, 2, 3], None)


def test_specific_route_inherits_durations_of_the_general_one() -> None:
    text = ("Machines: M1, M2, M3, M4. Jobs pass through M1, M2, M3 in sequence, 3h on each. "
            "J1 uses M1, M4 (not M2), with 1h on M4. J2 and J3 follow the standard routing. "
            "All jobs are due by 20:00.")
    routes = _read(text)
    assert routes["J1"] == (["M1", "M4"], [3, 1], 20)
    assert routes["J3"] == (["M1", "M2", "M3"], [3, 3, 3], 20)


# --------------------------------------------------------------------------- ids


def test_id_ranges_for_machines_and_jobs() -> None:
    text = "Machines M1-M4 (four presses). Jobs J3 through J5 each press 1h on M2, then 2h on M4."
    result = OnboardingAgent().run_detailed(text)
    assert [m.id for m in result.config.machines] == ["M1", "M2", "M3", "M4"]
    assert {j.id for j in result.config.jobs} == {"J3", "J4", "J5"}
    assert any("M1 has no steps" in w for w in result.warnings)


def test_named_ids() -> None:
    text = "Machines: M_OVEN (kiln) and M_GLAZE. J_RUSH goes M_GLAZE 1h then M_OVEN 6h, due 23."
    assert _read(text) == {"J_RUSH": (["M_GLAZE", "M_OVEN"], [1, 6], 23)}


def test_from_to_is_a_route_not_a_range() -> None:
    assert _read("We have M1 and M3. J1 goes from M1 to M3, 2h on each.") == {
        "J1": (["M1", "M3"], [2, 2], None)}


# --------------------------------------------------------------------------- machines


def test_out_of_service_machine_is_kept_without_steps() -> None:
    text = "We have M1 (saw), M2 (planer) and M3 (sander). M2 is under maintenance. J1: M1 1h."
    result = OnboardingAgent().run_detailed(text)
    assert [m.id for m in result.config.machines] == ["M1", "M2", "M3"]
    assert "machine M2 is out of service: kept, with no steps" in result.warnings


def test_route_through_an_out_of_service_machine_fails() -> None:
    error = _fails("We have M1 and M2 (M2 is offline). J1: M1 1h -> M2 1h.")
    assert "out of service" in error.details["unread"][0]["reason"]


def test_machine_names() -> None:
    skeleton = read_factory_text(
        "Machines: M1 lathe, M2 mill. M3 is the deburring station. J1: M1 1h -> M2 1h -> M3 1h."
    ).skeleton
    assert [(m.id, m.name) for m in skeleton.machines] == [
        ("M1", "lathe"), ("M2", "mill"), ("M3", "deburring station")]


def test_route_only_machine_when_the_text_lists_its_machines() -> None:
    error = _fails("Machines: M1, M2, M3. J1: M1 1h -> M12 1h -> M3 1h.")
    assert error.code is ErrorCode.INVALID_STRUCTURE
    assert error.details["route_only_machines"] == ["M12"]


# --------------------------------------------------------------------------- certainty


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("J2 usually goes M1 1h then M2 1h", "usually"),
        ("J2: M1 1h -> M2 1h, or M2 3h if M1 is busy", "or M2 3h"),
        ("J2 goes to M2 after M1, 1h each", "after M1"),
        ("J2 runs M1 twice for 1h", "twice"),
        ("J2: M1 ~1h -> M2 1h", "~1h"),
        ("J2: M1 1h / M2 1h", "/ M2"),
        ("J2 needs 1 hour on M1 but must wait for J1", "but must wait"),
        ("Jz uses M2 for 1h", "Jz"),
        ("J2 then goes to M2 for 1h", "continues a route of J2"),
        ("J2 first goes to M2 for 1h", "'first' with a single step"),
        ("J2: M1-M2, 1h each", "could mean two machines or a range"),
        ("J2: M1, M2, 1h, 2h, 3h", "3 duration(s) for a route of 2"),
    ],
)
def test_a_sentence_read_only_in_part_fails_with_the_sentence(sentence: str,
                                                             reason: str) -> None:
    error = _fails(f"Machines: M1 (saw), M2 (drill). J1: M1 2h -> M2 1h. {sentence}.")
    assert error.code is ErrorCode.INVALID_STRUCTURE
    unread = error.details["unread"]
    assert unread[0]["sentence"] == sentence
    assert reason in unread[0]["reason"] or reason in unread[0]["sentence"]
    assert sentence in error.message


def test_an_exception_that_adds_to_the_standard_route_is_not_read_as_a_route() -> None:
    error = _fails("Machines: M1, M2, M3. Jobs J1 to J3 go M1 then M2, 1h per step, "
                   "except J3, which also visits M3.")
    assert "also visits M3" in error.details["unread"][0]["reason"]


def test_a_general_statement_that_applies_to_no_job_fails() -> None:
    error = _fails("Machines: M1, M2. J1: M1 2h -> M2 1h. Each job takes 1h on M1.")
    assert "applies to no job" in error.details["unread"][0]["reason"]


def test_conflicting_statements_about_one_job_fail_as_duplicates() -> None:
    error = _fails("Machines: M1, M2. J1: M1 2h. J1: M2 1h.")
    assert "duplicate job id J1" in error.details["problems"]


def test_prose_without_ids_is_ignored() -> None:
    assert _read("Plant B, night shift.\nMachines: M1 (saw).\nJ1: M1 2h.") == {
        "J1": (["M1"], [2], None)}


# --------------------------------------------------------------------------- building blocks


def test_tokens() -> None:
    kinds = [(t.kind, t.value) for t in tokenize("J1-J3: M_A (2h) -> M2 90 min, due 4 p.m.")]
    assert kinds[0] == (Kind.JOB_RANGE, ("J1", "J2", "J3"))
    assert (Kind.DURATION, 1.5) in kinds
    assert kinds[-1][0] is Kind.CLOCK and kinds[-1][1].meridiem == "pm"


def test_segments() -> None:
    items = segment("Machines: M1.\n- J1: M1 1h. Due 9.\n\nname | job | route\n- | - | -\n"
                    "x | J1 | M1")
    clauses = [i for i in items if isinstance(i, Clause)]
    assert [c.text for c in clauses] == ["Machines: M1", "J1: M1 1h", "Due 9"]
    assert clauses[1].group == clauses[2].group and clauses[1].item
    assert isinstance(items[-1], Table) and items[-1].header == ("name", "job", "route")
