"""A job written as one record of fields (#24): a card or a ticket line whose fields a spaced
middle dot or a spaced pipe separates; and what the reader says when a job is given two routes
or two due times (once only "duplicate job id").

The route field gives the route, the due field the due (an empty one none), bookkeeping in
plain words and a status of work still to do are dropped, a bracketed id's plain title says
nothing more. A field the reader does not know, a status of work done or an id in a field of
bookkeeping leave the line unread.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.reading.records import record_line
from tests.factory.phrasing_sets import fails, jobs_of


def test_ticket_lines_of_fields_are_the_jobs_clauses() -> None:
    text = ("Tracker export\n"
            "[J7] Gear blanks | Route: M4 (1h) -> M5 (2h) | Owner: R. Brandt | Due: 16:00\n"
            "[J8] Lid batch | Due: - | Route: M5 (3h) | State: to do\n"
            "J9 | Route: M4 (2h) | Status: in progress\n")
    assert jobs_of(text) == {"J7": (["M4", "M5"], [1, 2], 16), "J8": (["M5"], [3], None),
                           "J9": (["M4"], [2], None)}


@pytest.mark.parametrize("line", [
    "[J7] Gear blanks | Route: M4 (1h) | Status: done",  # work done
    "[J7] Gear blanks | Route: M4 (1h) | Priority: high",  # a field it does not know
    "[J7] Gear blanks | Route: M4 (1h) | Owner: J8 crew",  # an id in bookkeeping
    "[J7] Rush blanks | Route: M4 (1h)",  # a title that is more than a name
    "[J7] Gear blanks | Route: M4 (1h) | Route: M5 (1h)",  # two routes
])
def test_a_record_in_doubt_stays_as_written_and_fails_with_a_code(line: str) -> None:
    assert record_line(line) == line
    assert "INVALID_STRUCTURE" in fails(f"{line}\n[J9] Lid | Route: M4 (1h)\n")


def test_a_job_given_two_routes_or_dues_says_so_with_the_sentences() -> None:
    message = fails("J7: M4 2h\nJ7: M5 1h\n")
    assert "J7 is given 2 different routes ('J7: M4 2h'; 'J7: M5 1h')" in message
    message = fails("J7: M4 2h, due 15:00\nJ7 due 16:00\n")
    assert "J7 is given 2 different due times" in message
    message = fails("J7: M4 2h, M5 1h\nJ8: same as J7 but M5 3h\n")
    assert "could not read 'J8: same as J7 but M5 3h': this one sentence gives J8 2" in message
    assert "a copy of another job's route" in message
