"""A route given as two lists that pair up in order is read as its steps (#24).

A sentence with ``respectively`` and a label whose route and times are two fields
(``reading/parallel.py``) pair a list of machines with a list of durations, as a TOML file's
two arrays do. The texts are invented, in surface forms the check set does not use; lists that
do not pair up, words of doubt and unknown fields fail with a code.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

MACHINES = "Machines: M2, M4, M6.\n"

SENTENCE_MINUTES = MACHINES + (
    "J7 runs on M4 and M2 for 30 and 45 minutes respectively; due 15:00.\n")
SENTENCE_TAKING = MACHINES + (
    "The route of J8 is M2, M4, M6, taking 1, 2 and 1 hours respectively.\n")
LABEL_EQUALS = MACHINES + ("job = J9\n"
                           "machines = M4 -> M6\n"
                           "minutes = 60; 120\n"
                           "due = 14:00\n")
LABEL_SEQUENCE = MACHINES + ("Job: J5\n"
                             "Sequence: M6, M2\n"
                             "Hrs: 2/1 (in the same order)\n"
                             "\n"
                             "Job: J6\n"
                             "Sequence: M4\n"
                             "Hrs: 3\n")

LABELS_BACK_TO_BACK = MACHINES + ("Job: J1\n"
                                  "Route: M2 > M4\n"
                                  "Hours: 2, 1\n"
                                  "Job: J2\n"
                                  "Route: M4\n"
                                  "Hours: 3\n"
                                  "Due: 15:00\n")


@pytest.mark.parametrize(("text", "expected"), [
    (SENTENCE_MINUTES, {"J7": (["M4", "M2"], [1, 1], 15)}),
    (SENTENCE_TAKING, {"J8": (["M2", "M4", "M6"], [1, 2, 1], None)}),
    (LABEL_EQUALS, {"J9": (["M4", "M6"], [1, 2], 14)}),
    (LABEL_SEQUENCE, {"J5": (["M6", "M2"], [2, 1], None), "J6": (["M4"], [3], None)}),
    (LABELS_BACK_TO_BACK, {"J1": (["M2", "M4"], [2, 1], None), "J2": (["M4"], [3], 15)}),
], ids=["sentence_minutes", "sentence_taking", "label_equals", "label_sequence",
        "labels_back_to_back"])
def test_two_lists_pair_up_in_order(text: str, expected: dict[str, object]) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize(("text", "quoted"), [
    (SENTENCE_MINUTES.replace("30 and 45", "30, 45 and 60"), "respectively"),
    (SENTENCE_TAKING.replace("taking 1", "taking about 1"), "respectively"),
    (LABEL_EQUALS + "note = rush, maybe M2 first\n", "maybe M2 first"),
    (LABEL_EQUALS.replace("60; 120", "60; 120; 30"), "60; 120; 30"),
    (LABEL_SEQUENCE.replace("(in the same order)", "(roughly)"), "roughly"),
    # with two jobs, "respectively" may pair the jobs with the machines
    (MACHINES + "J1 and J2 run on M2 and M4 for 2 and 1 hours respectively.\n", "respectively"),
], ids=["counts_differ", "about", "unknown_field", "times_differ", "note_of_doubt",
        "two_jobs"])
def test_lists_that_do_not_pair_up_fail_quoting_them(text: str, quoted: str) -> None:
    assert quoted in fails(text)
