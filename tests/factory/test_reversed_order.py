"""A text that says its steps are written in reverse order is refused (#24).

A silent wrong found by probing: a heading such as 'Routes listed from the last step back to
the first:' said nothing to the reader, which read every route forward. Now any line that says
the order is reversed fails with a code and is quoted. Invented texts in several surface forms.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

ROUTES = "Machines: M3, M5.\nJ8: M3 2h, M5 1h.\nJ9: M5 3h.\n"


@pytest.mark.parametrize("note", [
    "Routes listed from the last step back to the first:",
    "In reverse order:",
    "Each route is traced back from packing (last operation first).",
    "Steps are written bottom to top.",
    "Read the routes backwards from the dock.",
])
def test_a_note_of_reversed_order_is_refused(note: str) -> None:
    assert note.rstrip(".:") in fails(f"{note}\n{ROUTES}")


def test_routes_without_such_a_note_are_read_forward() -> None:
    assert jobs_of(f"Routes for today:\n{ROUTES}") == {
        "J8": (["M3", "M5"], [2, 1], None), "J9": (["M5"], [3], None)}
