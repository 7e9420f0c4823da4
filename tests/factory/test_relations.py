"""A plan written as records of kinds is read as one tree, whatever prints the records (#24).

A database dump (``INSERT INTO ... VALUES``), an application's log of ``key=value`` records and
a JSON document with a relation of steps beside its jobs are the same relations: machines, jobs
and steps that name their job. ``reading/relations.py`` turns a dump or a log into the tree
that ``reading/structured.py`` reads, and the steps are joined to their jobs there. The
documents are invented; anything not entirely understood fails with a code.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

DUMP_QUOTED_NAMES = """-- export of the cell planner
INSERT INTO `resources` (`id`, `descr`) VALUES ('M71', 'lathe'), ('M72', 'mill');
INSERT INTO `orders` (`order_no`, `due`) VALUES ('J71', '13:00'), ('J72', NULL);
INSERT INTO `operations` (`order_no`, `op`, `resource`, `hours`)
VALUES ('J72', 1, 'M72', 2), ('J71', 20, 'M71', 1), ('J71', 10, 'M72', 3);
"""

DUMP_STEPS_ONLY = """INSERT INTO machines (machine_id) VALUES ('M5'), ('M6');
INSERT INTO steps (job, step_no, machine, minutes) VALUES ('J5', 2, 'M6', 60);
INSERT INTO steps (job, step_no, machine, minutes) VALUES ('J5', 1, 'M5', 120);
"""

LOG_ISO_DEBUG = """2025-03-02T21:14:00.120Z DEBUG schedule.create date=2025-03-03 user=nightshift
2025-03-02T21:14:01.004Z DEBUG resource.new id=M33 name=press
2025-03-02T21:14:01.005Z DEBUG resource.new id=M34 name=oven
2025-03-02T21:14:02.310Z DEBUG order.new id=J33 due=18:00
2025-03-02T21:14:02.900Z DEBUG operation.new order=J33 seq=2 resource=M33 minutes=60
2025-03-02T21:14:02.901Z DEBUG operation.new order=J33 seq=1 resource=M34 minutes=180
2025-03-02T21:14:03.000Z DEBUG order.new id=J34
2025-03-02T21:14:03.100Z DEBUG operation.new order=J34 seq=1 resource=M34 minutes=30
"""

JSON_STEP_RELATION = """{
  "machines": ["M1", "M2"],
  "jobs": [{"id": "J1", "due": "11:00"}, {"id": "J2", "due": null}],
  "steps": [
    {"job": "J2", "seq": 1, "machine": "M1", "hours": 4},
    {"job": "J1", "seq": 2, "machine": "M1", "hours": 1},
    {"job": "J1", "seq": 1, "machine": "M2", "hours": 2}
  ]
}
"""


@pytest.mark.parametrize(("text", "expected"), [
    (DUMP_QUOTED_NAMES, {"J71": (["M72", "M71"], [3, 1], 13), "J72": (["M72"], [2], None)}),
    (DUMP_STEPS_ONLY, {"J5": (["M5", "M6"], [2, 1], None)}),
    (LOG_ISO_DEBUG, {"J33": (["M34", "M33"], [3, 1], 18), "J34": (["M34"], [1], None)}),
    (JSON_STEP_RELATION, {"J1": (["M2", "M1"], [2, 1], 11), "J2": (["M1"], [4], None)}),
], ids=["dump_quoted_names", "dump_steps_only", "log_iso_debug", "json_step_relation"])
def test_records_of_any_print_are_one_plan(text: str, expected: dict[str, object]) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize("text", [
    # a job in the jobs relation without a step
    DUMP_QUOTED_NAMES.replace("('J72', 1, 'M72', 2), ", ""),
    # a step of a job the jobs do not list
    DUMP_QUOTED_NAMES.replace("('J72', 1, 'M72', 2)", "('J79', 1, 'M72', 2)"),
    # a statement that changes a row: the plan is not the inserts alone
    DUMP_STEPS_ONLY + "UPDATE steps SET minutes = 30 WHERE job = 'J5';\n",
    # a comment that changes a meaning
    DUMP_STEPS_ONLY.replace("INSERT INTO machines", "-- M6 only if needed\nINSERT INTO machines"),
    # a warning in the log: the record may not have been made
    LOG_ISO_DEBUG.replace("DEBUG order.new id=J34", "WARN order.new id=J34"),
    # a record that removes a step
    LOG_ISO_DEBUG + "2025-03-02T21:14:04.000Z DEBUG operation.delete order=J33 seq=2\n",
    # a due on another day than the plan's
    LOG_ISO_DEBUG.replace("due=18:00", "due=2025-03-04T18:00"),
    # two steps with one sequence number
    JSON_STEP_RELATION.replace('"seq": 2', '"seq": 1'),
    # a job with a route of its own and steps in the relation
    JSON_STEP_RELATION.replace('"due": "11:00"', '"due": "11:00", "route": ["M1"]'),
], ids=["job_without_step", "step_of_unknown_job", "update_statement", "meaning_comment",
        "warning_line", "delete_record", "due_next_day", "sequence_twice", "route_and_relation"])
def test_records_read_with_doubt_fail_with_a_code(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)
