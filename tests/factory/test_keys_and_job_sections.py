"""Two relations every format says (#24): a key of other names for the machines, and a heading
that names one job over the lines of its steps.

A key (a legend of letters, a footnote of marked words, work-centre names or codes, a table
with a column of ids) makes its names stand for the ids; a section under one job's heading (a
bill of operations, a ticket's sub-tasks, a recipe's "first ..., next ..., finally ...") is
that job's route. The look-alikes (a name in doubt, an undefined letter, an article, a status
or a change in the heading, numbers against the lines' order, a time per piece) fail with a
code quoting the sentence, or stay as the reader read them before.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.agent import OnboardingAgent
from tests.factory.phrasing_sets import fails

Jobs = dict[str, tuple[list[str], list[int], int | None]]


def _jobs(text: str) -> Jobs:
    config = OnboardingAgent().run_detailed(text).config
    return {job.id: ([s.machine_id for s in job.steps], [s.duration_hours for s in job.steps],
                     job.due_time_hour) for job in config.jobs}


# ------------------------------------------------------------------------------ keys

@pytest.mark.parametrize("text", [
    "Legend: S = M4 (shear), L = M5 (laser)\nJ7: S 2h -> L 1h\nJ8: L 3h\n",
    "Stations: P = M4   Q = M5\nJ7  P 2h  > Q 1h\nJ8  Q 3h\n",
    "Plan\nJ7: shear\u00b3 2 h, then laser\u2074 1 h\nJ8: laser\u2074 3 h\n\n"
    "\u00b3 shear = M4   \u2074 laser = M5\n",
    "Cells:\n  M4 = SHEAR-7\n  M5 = LASER-2B\nJ7: SHEAR-7 2h, LASER-2B 1h\nJ8: LASER-2B 3h\n",
    "Cell code  Cell name   Planner id\nSHR4       big shear   M4\nLSR5       laser       M5\n\n"
    "J7: SHR4 2h, LSR5 1h\nJ8: LSR5 3h\n",
])
def test_names_a_key_gives_stand_for_the_machine_ids(text: str) -> None:
    assert _jobs(text) == {"J7": (["M4", "M5"], [2, 1], None), "J8": (["M5"], [3], None)}


def test_a_key_name_in_prose_is_the_machine_or_fails() -> None:
    # a probe: 'A is down today' was left as prose and the jobs planned through the machine
    assert "out of service" in fails("Key: A = M4, B = M5\nJ7: A 2h, B 1h\nA is down today.\n")
    # an article that is also a key letter: the sentence no longer reads
    assert "INVALID_STRUCTURE" in fails("Key: A = M4, B = M5\nA rush job J7 runs A 2h then B 1h.\n")


@pytest.mark.parametrize("text", [
    "Key: A = M4, A = M5\nJ7: A 2h\n",  # one name, two ids: the key is in doubt
    "Key: A = M4   B = M5\nJ7: A 2h, B 1h\nJ8: B 1h, C 2h\n",  # a letter the key lacks
    "Key: J7 = M4\nJ7: M4 2h\n",  # a name that is an id
])
def test_a_key_in_doubt_or_a_name_it_lacks_fails_with_a_code(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


# ------------------------------------------------------------------------------ sections

@pytest.mark.parametrize(("text", "expected"), [
    ("Part J7 (hinge plate)\n  OP10  M4  run 1.0 h\n  OP20  M5  run 2.0 h\n"
     "Part J8 (hinge pin)\n  OP10  M5  run 0.5 h\n",
     {"J7": (["M4", "M5"], [1, 2], None), "J8": (["M5"], [1], None)}),
    ("{J7} Axle order - Due: today 14:00\n  Sub-tasks:\n  J7-1  Face on M4   Estimate: 1h\n"
     "  J7-2  Bore on M5   Estimate: 2h 30m\n  J7-3  Wash on M4   Estimate: 45m\n",
     {"J7": (["M4", "M5", "M4"], [1, 3, 1], 14)}),
    ("What we do for J7:\nFirst, saw the bars on M4 for 3 hours.\nThen drill them on M5 for "
     "1 hour.\nFinally, wash on M6 for 2 hours.\nJ7 is due at 16:00.\n",
     {"J7": (["M4", "M5", "M6"], [3, 1, 2], 16)}),
    ("Recipe for J7: first M5 (2 hours), finally M4 (1 hour).\n",
     {"J7": (["M5", "M4"], [2, 1], None)}),
])
def test_a_heading_over_its_steps_is_the_jobs_route(text: str, expected: Jobs) -> None:
    assert _jobs(text) == expected


@pytest.mark.parametrize("text", [
    "Part J7 (urgent rework)\n  OP10  M4  1.0 h\n",  # a word of meaning in the heading
    "Part J7 (on hold)\n  OP10  M4  1.0 h\n",  # a status
    "Part J7\n  OP20  M4  1.0 h\n  OP10  M5  2.0 h\n",  # numbers against the lines' order
    "Part J7\n  OP10  M4  2 min/pc\n  OP20  M5  1 h\n",  # a time per piece
    "Part J7\n  OP10  M4  1.0 h\n  OP20  M5 or M6  1.0 h\n",  # two machines
    "Job J7:\n  Finally M4 2h\n  First M5 1h\n",  # words of order against the lines
    "Ignore J7: M4 2h\nJ8: M4 1h\n",  # a lead that is no title
    "J7 alternatives:\n  M4 2h\n  M5 2h\n",  # a choice, not a route (a probe)
])
def test_a_section_in_doubt_fails_with_a_code(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


def test_a_table_under_a_heading_with_a_due_ends_at_the_next_jobs_heading() -> None:
    header = "Op   Station   Setup   Run\n"
    text = ("Cells:\n  M4 = SHR4\n  M5 = LSR5\n\nJob J7  (due 15:00)\n" + header
            + "10   SHR4      0.5 h   1.5 h\n20   LSR5      1.0 h   1.0 h\nJob J8\n" + header
            + "10   LSR5      0.5 h   0.5 h\n")
    assert _jobs(text) == {"J7": (["M4", "M5"], [2, 2], 15), "J8": (["M5"], [1], None)}


def test_numbered_steps_against_their_lines_order_fail_quoting_the_line() -> None:
    message = fails("Steps for J7:\n2. M5 1h\n1. M4 2h\n")
    assert "'1. M4 2h'" in message and "numbered out of" in message
    assert _jobs("J7:\n1. M4 2h\n2. M5 1h\nJ8:\n1. M5 1h\n") == {
        "J7": (["M4", "M5"], [2, 1], None), "J8": (["M5"], [1], None)}
