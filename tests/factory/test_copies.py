"""A job told as a copy of another with changes, in other words than ``same as`` (#24):
``is like``, ``as``, ``exactly like``, ``a copy of``, joined to its changes by ``plus``, ``and
add`` or ``but``, a step's new duration as ``its M4 step takes 3h``. The changes are checked as
for ``same as``; ``similar to`` is no copy, and a sentence where the other job starts
something else is left as written.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.reading.copies import copy_sentences
from tests.factory.phrasing_sets import fails, jobs_of

BASE = "Machines: M4, M5, M6\nJ7 runs M4 2h then M5 1h.\n"


@pytest.mark.parametrize(("sentence", "route"), [
    ("J8 is like J7, plus 2h on M6 at the end.", (["M4", "M5", "M6"], [2, 1, 2])),
    ("J8: a copy of J7 and add M6 2h at the end.", (["M4", "M5", "M6"], [2, 1, 2])),
    ("J8 as J7, but its M5 step takes 4h.", (["M4", "M5"], [2, 4])),
    ("J8 exactly like J7 but M4 needs 1h.", (["M4", "M5"], [1, 1])),
    ("J8 is like J7.", (["M4", "M5"], [2, 1])),
])
def test_a_copy_in_other_words_is_the_other_jobs_route_changed(
        sentence: str, route: tuple[list[str], list[int]]) -> None:
    assert jobs_of(BASE + sentence + " J8 due 13:00.\n")["J8"] == (*route, 13)


@pytest.mark.parametrize("sentence", [
    "J8 is similar to J7.",  # not the same
    "J8 as J7 finishes on M4, plan M5 1h.",  # 'as' of time, not of sameness
    "J8 is like J7 but M6 takes 3h.",  # a machine the copy does not visit
    "J8 like J7, with an extra M6 1h.",  # an added step without its place
    "J8 is like J9.",  # a job the text does not give
])
def test_a_copy_in_doubt_fails_with_a_code(sentence: str) -> None:
    assert "INVALID_STRUCTURE" in fails(BASE + sentence + "\n")


def test_only_the_copy_sentence_of_a_line_is_rewritten() -> None:
    assert copy_sentences("J8 is like J7, plus 2h on M6 at the end. J8 due 13:00.") == (
        "J8: same as J7 but also 2h on M6 at the end. J8 due 13:00.")
    assert copy_sentences("J8 as well as J7 run on M4.") == "J8 as well as J7 run on M4."
