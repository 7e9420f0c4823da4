"""A table with its jobs as columns is read as the same table with jobs as rows (#24).

The header row is recognised by its ids (a corner cell, then job ids only); each row label
(a machine id, a step number, a known column such as the due) becomes a column once the table
is turned (``reading/orientation.py``). A matrix written turned has its caption in the words
of the sheet as written (the flow from the top row down, ``machine (rows)``). The tables are
invented, in surface forms the check set does not use (tabs, semicolons, fixed-width step
numbers, a pipe table of machine rows); what is read with doubt fails with a code.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

TABS_STEPS = ("Machines: M3, M4\n"
              "op\tJ7\tJ8\n"
              "1\tM3 2h\tM4 1h\n"
              "2\tM4 1h\t\n"
              "due\t15:00\t\n")

SPACED_STEPS = ("Machines: M3, M4, M5\n"
                "       J7       J8\n"
                "1      M3 2h    M4 1h\n"
                "2      M4 1h    M5 30 min\n"
                "Due    15:00    -\n")

PIPE_MACHINE_ROWS = ("| machine | J7 | J8 |\n|---|---|---|\n"
                     "| M3 | 2h | - |\n| M4 | 1h | 3h |\n")

SEMICOLON_MATRIX = ("Minutes per machine (rows) and job (columns); every job goes through the "
                    "machines from top to bottom; a period means no step\n"
                    "machine;J7;J8\n"
                    "M3;120;.\n"
                    "M4;60;180\n")


@pytest.mark.parametrize(("text", "expected"), [
    (TABS_STEPS, {"J7": (["M3", "M4"], [2, 1], 15), "J8": (["M4"], [1], None)}),
    (SPACED_STEPS, {"J7": (["M3", "M4"], [2, 1], 15), "J8": (["M4", "M5"], [1, 1], None)}),
    (PIPE_MACHINE_ROWS, {"J7": (["M3", "M4"], [2, 1], None), "J8": (["M4"], [3], None)}),
    (SEMICOLON_MATRIX, {"J7": (["M3", "M4"], [2, 1], None), "J8": (["M4"], [3], None)}),
], ids=["tabs_steps", "spaced_steps", "pipe_machine_rows", "semicolon_matrix"])
def test_jobs_as_columns_are_read_as_jobs_as_rows(text: str, expected: dict[str, object]) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize(("text", "quoted"), [
    # the flow "from left to right" across a sheet whose columns are jobs says nothing sure
    (SEMICOLON_MATRIX.replace("from top to bottom", "from left to right"), "under M3"),
    # the caption says machines are the columns: not the sheet as written
    (SEMICOLON_MATRIX.replace("machine (rows) and job (columns)",
                              "machine (columns) and job (rows)"), "under M3"),
    # a step in doubt is quoted in the writer's words
    (TABS_STEPS.replace("M4 1h\t\n", "M4 1h?\t\n"), "M4 1h?"),
    # a row label the table reader does not know: the table is not turned
    (PIPE_MACHINE_ROWS.replace("| M4 |", "| setup |"), "setup"),
    # a step number under a corner of another meaning
    (TABS_STEPS.replace("op\t", "qty\t"), "qty"),
    # a word before the jobs that is no name of the rows would go unread: not turned
    ("Machines: M3, M4\nUrgent, J7\nM4, 3h\nM3, 1h\n", "Urgent, J7"),
], ids=["left_to_right", "axes_contradict", "step_in_doubt", "unknown_label", "not_steps",
        "corner_word"])
def test_a_turned_table_read_with_doubt_fails_quoting_it(text: str, quoted: str) -> None:
    assert quoted in fails(text)
