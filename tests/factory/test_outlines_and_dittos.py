"""A tree outline is a nested list, and a ditto mark repeats the cell above it (#24).

``reading/outlines.py`` writes the branch marks of a tree (``├──``, ``|--``) as the depth of a
list item, and drops the tree's own count under it when it agrees; a ditto mark (``"``,
``ditto``) in any table column is the cell above it, its legend under the table taken out. The
texts are invented, in surface forms the check set does not use; a count that disagrees, a
mark with nothing above it or a legend of another meaning fails with a code.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

ASCII_TREE = ("Machines: M4, M6\n"
              "plan\n"
              "|-- J7\n"
              "|   |-- M4 (2 h)\n"
              "|   `-- M6 (1 h)\n"
              "`-- J8 (due 14:00)\n"
              "    `-- M6 (3 h)\n")

BOX_TREE_COUNTED = ("Machines: M4, M6\n"
                    "├── J7\n"
                    "│   ├── step 1: M4, 2 hours\n"
                    "│   └── step 2: M6, 1 hour\n"
                    "└── J8\n"
                    "    └── step 1: M6, 3 hours\n"
                    "\n"
                    "2 orders, 3 operations\n")

PIPE_DITTO = ("| Job | Op | Machine | Hours |\n|---|---|---|---|\n"
              "| J7 | 10 | M4 | 2 |\n| \" | 20 | M6 | 1 |\n| J8 | 10 | M6 | 3 |\n"
              "(\" = same as the row above)\n")

CSV_DITTO_WORD = ("Job,Op,Machine,Hours\n"
                  "J7,10,M4,2\n"
                  "ditto,20,M6,1\n"
                  "J8,10,M6,3\n"
                  "ditto,20,ditto,1\n")


@pytest.mark.parametrize(("text", "expected"), [
    (ASCII_TREE, {"J7": (["M4", "M6"], [2, 1], None), "J8": (["M6"], [3], 14)}),
    (BOX_TREE_COUNTED, {"J7": (["M4", "M6"], [2, 1], None), "J8": (["M6"], [3], None)}),
    (PIPE_DITTO, {"J7": (["M4", "M6"], [2, 1], None), "J8": (["M6"], [3], None)}),
    (CSV_DITTO_WORD, {"J7": (["M4", "M6"], [2, 1], None), "J8": (["M6", "M6"], [3, 1], None)}),
], ids=["ascii_tree", "box_tree_counted", "pipe_ditto", "csv_ditto_word"])
def test_marks_of_layout_are_read_as_what_they_repeat(text: str,
                                                      expected: dict[str, object]) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize(("text", "quoted"), [
    (BOX_TREE_COUNTED.replace("3 operations", "4 operations"), "4 operations"),
    (ASCII_TREE.replace("M6 (3 h)", "M6 (3 h, or M4 if M6 is down)"), "M4 if M6 is down"),
    (PIPE_DITTO.replace("| J7 | 10 |", "| \" | 10 |"), '"'),
    (PIPE_DITTO.replace("same as the row above", "see the note on the board"), '"'),
], ids=["count_disagrees", "conditional_step", "nothing_above", "legend_of_another_meaning"])
def test_layout_read_with_doubt_fails_quoting_it(text: str, quoted: str) -> None:
    assert quoted in fails(text)
