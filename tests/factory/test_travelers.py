"""A sheet of one job (#24): a header block of fields (the job, maybe its due, information)
over a table of its operations, in pipes or in columns, maybe scanned: a letter O for a zero
in an operation's number, spaces around a colon or inside a clock time, rules, specks and
blank fields to sign. Each sheet is the job's route; a sheet with anything the reader is not
certain of stays as written and fails with a code.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of


def test_a_piped_scanned_sheet_is_the_jobs_route() -> None:
    text = ("| ROUTE CARD              | Page 1 of 1 |\n"
            "| Order: J7   | Qty: 12 | Due: 13:00 |\n"
            "|------------------------------------|\n"
            "| Op | Station | Description | Hrs |\n"
            "| 1O | M4      | face        | 2   |\n"
            "| 2O | M5      | bore        | 1   |\n"
            "|| Signed: _____   Date: ___ ||\n"
            "   ,   |  .\n")
    assert jobs_of(text) == {"J7": (["M4", "M5"], [2, 1], 13)}


def test_two_sheets_in_columns_one_after_another() -> None:
    text = ("ROUTE CARD   Page l of 2\n"
            "Order . : J7     Due : 10 : 00\n"
            "Op  Station   Minutes\n"
            "10  M4    90\n"
            "20  M5      30\n"
            "========================\n"
            "ROUTE CARD   Page 2 of 2\n"
            "Order . : J8     Due :\n"
            "Op  Station   Minutes\n"
            "10  M5    120\n")
    assert jobs_of(text) == {"J7": (["M4", "M5"], [2, 1], 10), "J8": (["M5"], [2], None)}


@pytest.mark.parametrize("text", [
    "ON HOLD\nOrder: J7   Due: 12:00\nOp  Station  Hrs\n10  M4  2\n",  # a title of status
    "Card\nOrder: J7   Due: soon\nOp  Station  Hrs\n10  M4  2\n",  # a due it cannot read
    "Card\nOrder: J7\nOp  Station  Hrs\n10  M4  2\nNote: M4 only if it fails\n",  # a note
    "| Card | Order: J7 | Due: 10:00 |\n| Op | Station | Hrs |\n| 10 | M4 | 2 |\n"
    "| Due: 15:00 | Signed: ___ |\n",  # a second due in the footer
    "| Card | Order: J7 |\n| Op | Station | Hrs |\n| 10 | M4 | \u2592\u2592 |\n",  # illegible
])
def test_a_sheet_in_doubt_fails_with_a_code(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


@pytest.mark.parametrize("heading", ["ON HOLD", "Cancelled", "Waiting for parts"])
def test_a_bare_heading_of_status_puts_the_lines_under_it_out_of_the_plan(heading: str) -> None:
    # a silent wrong found by probing: without a colon the heading was skipped
    assert "no work of this plan" in fails(f"{heading}\nJ7: M4 2h\nJ8: M5 1h\n")


def test_a_bare_heading_of_plain_words_stays_a_title() -> None:
    assert jobs_of("Line two plan\nJ7: M4 2h\nJ8: M5 1h\n") == {
        "J7": (["M4"], [2], None), "J8": (["M5"], [1], None)}
