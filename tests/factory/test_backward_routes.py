"""A route told from its end is read in running order (#24).

``reading/backward.py`` reads a chain of steps told last first (``ends on``, ``before that``,
``starts on``) and a heading that says the lines under it are written last step first, when
every line under it is such a chain. The texts are invented, in surface forms the check set
does not use; a chain with a word of doubt, or a heading over a route told forward, fails.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

MACHINES = "Machines: M2, M4, M6.\n"
SEMICOLONS = MACHINES + ("J7 finishes at M6 (1 h); prior to that it spends 2 h on M4; it "
                         "begins on M2, 3 h. Due 15:00.\n")
UNDER_A_HEADING = MACHINES + ("Each job, last step first:\n"
                              "- J8 ends on M4, 30 min. Before that it goes to M2 (1 h).\n"
                              "- J9 ends on M6 (2 h); before that it starts on M4 (1 h).\n")


@pytest.mark.parametrize(("text", "expected"), [
    (SEMICOLONS, {"J7": (["M2", "M4", "M6"], [3, 2, 1], 15)}),
    (UNDER_A_HEADING, {"J8": (["M2", "M4"], [1, 1], None), "J9": (["M4", "M6"], [1, 2], None)}),
], ids=["semicolons", "under_a_heading"])
def test_a_chain_told_from_its_end_runs_forward(text: str, expected: dict[str, object]) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize(("text", "quoted"), [
    # a heading over a route told forward: which order holds is not sure
    (UNDER_A_HEADING.replace("- J9 ends on M6 (2 h); before that it starts on M4 (1 h).",
                             "- J9: M4 1h, M6 2h."), "last step first"),
    (SEMICOLONS.replace("spends 2 h on M4", "maybe spends 2 h on M4"), "J7 finishes at M6"),
    (SEMICOLONS.replace("2 h on M4", "2 h on M4 or M6"), "J7 finishes at M6"),
], ids=["heading_over_forward_route", "maybe", "alternative"])
def test_a_chain_read_with_doubt_fails_quoting_it(text: str, quoted: str) -> None:
    assert quoted in fails(text)
