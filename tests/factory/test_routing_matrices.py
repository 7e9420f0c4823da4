"""A routing matrix (#24): jobs as rows, a column per machine holding bare numbers whose unit a
caption gives once, an empty cell or a dash for a machine not visited, and the flow stated once
(the columns from left to right, or a sentence under the matrix in another order).

Only a caption made of a unit, a legend of the empty cell and the columns' order is read, and
only a flow sentence for every job that names each machine column once; the look-alikes fail
with a code quoting what was not read.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.reading.matrices import caption_unit, flow_order
from tests.factory.phrasing_sets import fails, jobs_of

GRID = ("| Job | M4 | M5 | M6 |\n|----|----|----|----|\n"
        "| J7 | 30 | 120 |  |\n| J8 |  | 60 | 90 |\n")
SPACED = "Job   M4   M5   M6\nJ7    30   120  -\nJ8    -    60   90\n"


@pytest.mark.parametrize("caption", [
    "Process times (min).",
    "Routing grid in minutes; every job runs through the machines from left to right.",
    "Minutes per job and machine (empty cell = not visited)",
])
def test_a_caption_gives_the_unit_of_the_cells(caption: str) -> None:
    assert jobs_of(f"{caption}\n{GRID}") == {"J7": (["M4", "M5"], [1, 2], None),
                                           "J8": (["M5", "M6"], [1, 2], None)}


def test_a_flow_sentence_under_the_matrix_orders_every_job() -> None:
    text = f"Durations in minutes (- = not visited)\n{SPACED}All jobs go M6 first, then M4, " \
           "then M5.\nJ8 due 15:00\n"
    assert jobs_of(text) == {"J7": (["M4", "M5"], [1, 2], None),
                           "J8": (["M6", "M5"], [2, 1], 15)}


@pytest.mark.parametrize(("caption", "quoted"), [
    ("Setup minutes per machine.", "'30' under M4"),  # a word of meaning: no unit is read
    ("Routing matrix (minutes and hours).", "'30' under M4"),
    ("Routing matrix (minutes). Jobs run from right to left.", "right to left"),
    ("Routing matrix (minutes), J7 is a rush.", "J7 is a rush"),
])
def test_a_caption_that_says_more_than_a_unit_is_not_read(caption: str, quoted: str) -> None:
    assert quoted in fails(f"{caption}\n{GRID}")


def test_a_caption_away_from_the_matrix_is_no_caption() -> None:
    assert "'30' under M4" in fails(f"Routing matrix (minutes).\n\n{GRID}")


def test_a_flow_sentence_that_does_not_name_the_machine_columns_changes_nothing() -> None:
    message = fails(f"Durations in minutes\n{SPACED}All jobs go M6 first, then M4.\n")
    assert "'30' under M4" in message and "step 1 on M6: no duration stated" in message


@pytest.mark.parametrize(("caption", "unit"), [
    ("Routing matrix (minutes).", "minutes"), ("Hours per job and machine", "hours"),
    ("Times (h). An empty cell means the job skips that machine.", "hours"),
    ("Routing matrix (minutes) for Monday", None), ("Matrix", None),
])
def test_caption_unit(caption: str, unit: str | None) -> None:
    assert caption_unit(caption) == unit


def test_flow_order() -> None:
    assert flow_order("Each job goes M3 first, then M1 and finally M2.") == ["M3", "M1", "M2"]
    assert flow_order("J1 goes M3 first, then M1.") is None
    assert flow_order("All jobs go M3 first, then M1, unless late.") is None
