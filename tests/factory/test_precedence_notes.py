"""A job's route given as precedence pairs in any order, with its times apart (#24).

``reading/precedence.py`` chains pairs (``M6 after M4``, ``M2 comes before M4``, ``M4 precedes
M6``) into the one order they allow and pairs each machine with its time. The notes are
invented, in surface forms the check set does not use; pairs that contradict each other or
leave two machines unordered, and a pair in doubt, fail with a code.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

MACHINES = "Machines: M2, M4, M6.\n"
SEMICOLONS = MACHINES + ("J5: M6 comes before M2; M2 before M4; durations: M2 2h, M4 1h, "
                         "M6 30 min; due 4pm\n")
BULLETS = MACHINES + ("- J6: M4 follows M2. Times: 2 hours on M2 and 1 hour on M4.\n"
                      "- J7: M4 precedes M6. M2 precedes M4. Times: 1 h on M6, 1 h on M4, "
                      "3 h on M2.\n")


@pytest.mark.parametrize(("text", "expected"), [
    (SEMICOLONS, {"J5": (["M6", "M2", "M4"], [1, 2, 1], 16)}),
    (BULLETS, {"J6": (["M2", "M4"], [2, 1], None), "J7": (["M2", "M4", "M6"], [3, 1, 1], None)}),
], ids=["semicolons", "bullets"])
def test_pairs_chain_into_one_route(text: str, expected: dict[str, object]) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize(("text", "quoted"), [
    (MACHINES + "J5: M2 after M4. M4 after M2. Times: M2 1h, M4 1h.\n", "J5: M2 after M4"),
    (MACHINES + "J5: M6 after M2. M6 after M4. Times: M2 1h, M4 1h, M6 1h.\n", "J5: M6 after M2"),
    (MACHINES + "J5: M4 after M2. M6 after M4. Times: M2 1h, M4 1h.\n", "J5: M4 after M2"),
    (MACHINES + "J5: M4 after M2 if possible. Times: M2 1h, M4 1h.\n", "if possible"),
], ids=["contradiction", "unordered", "untimed_machine", "pair_in_doubt"])
def test_pairs_that_do_not_decide_the_order_fail_quoting_them(text: str, quoted: str) -> None:
    assert quoted in fails(text)
