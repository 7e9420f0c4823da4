"""Silent wrongs found by probing the new line passes (#24): texts where a pass's premises hold
but its conclusion is false. Each was read as a config that differs from the text; each must
now end in a coded failure. The documents are invented; every family has two surface forms or
more, and a readable sibling that must still be read (the fix refuses only what is in doubt).
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

THREE = "Machines: M21, M22, M23.\n"

PRECEDENCE = THREE + ("J21: M23 after M22. M22 after M21. Times: 2 h on M21, 1 h on M22, "
                      "1 h on M23.{rest}\n")
BACKWARD = THREE + "J21 ends on M23, 1 h. Before that it spends 2 h on M22.{rest}\n"

LOG = ("2026-02-03 05:40:00 INFO machine.add id=M21\n"
       "2026-02-03 05:40:00 INFO machine.add id=M22\n"
       "2026-02-03 05:40:01 INFO order.add id=J21 due=12:00\n"
       "2026-02-03 05:40:02 INFO step.add order=J21 seq=1 machine=M21 hours=2\n"
       "2026-02-03 05:40:02 INFO step.add order=J21 seq=2 machine=M22 hours=1\n")

XML = ('<plan{root}>\n  <machines><machine id="M21"/><machine id="M22"/></machines>\n'
       '  <jobs>\n    <job id="J21" due="12:00"><steps><step machine="M21" hours="2"/>'
       '<step machine="M22" hours="1"/></steps></job>{between}\n'
       '    <job id="J22"><steps><step machine="M22" hours="3"/></steps></job>\n'
       '  </jobs>\n</plan>\n')

HTML = ('Machines: M21, M22\n<table class="routes">\n'
        '<tr><th>Job</th><th>Route</th><th>Hours</th></tr>\n'
        '<tr><td>J21</td><td>M21 &rarr; M22</td><td>2, 1</td></tr>\n'
        '<tr{row}><td>J22</td><td>M22</td><td{cell}>3</td></tr>\n</table>\n')


@pytest.mark.parametrize(("text", "expected"), [
    (PRECEDENCE.format(rest=" Due 15:00."), {"J21": (["M21", "M22", "M23"], [2, 1, 1], 15)}),
    (BACKWARD.format(rest=""), {"J21": (["M22", "M23"], [2, 1], None)}),
    (LOG + "2026-02-03 05:41:00 INFO plan.publish by=nightshift\n",
     {"J21": (["M21", "M22"], [2, 1], 12)}),
    (XML.format(root=' site="east"', between="<!-- second cell -->"),
     {"J21": (["M21", "M22"], [2, 1], 12), "J22": (["M22"], [3], None)}),
    (HTML.format(row=' align="left"', cell=' valign="top"'),
     {"J21": (["M21", "M22"], [2, 1], None), "J22": (["M22"], [3], None)}),
], ids=["precedence_due", "backward_plain", "log_published", "xml_plain", "html_layout"])
def test_readable_siblings_are_still_read(text: str, expected: dict[str, object]) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize("text", [
    # a further word on the order after the pairs: it contradicts the one order they chain
    PRECEDENCE.format(rest=" M23 directly after M21."),
    PRECEDENCE.format(rest=" Then M21 again, 1 h."),
    # a step said after a chain told from its end: the end is no longer the end
    BACKWARD.format(rest=" After that it goes to M21 for 1 h."),
    BACKWARD.format(rest=" Later it visits M21, 30 min."),
], ids=["precedence_directly_after", "precedence_then_again", "backward_after_that",
        "backward_later"])
def test_a_machine_after_an_order_rewritten_is_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


@pytest.mark.parametrize("text", [
    # the plan's own record withdraws it: the records before it are no plan
    LOG + "2026-02-03 05:50:00 INFO plan.cancel by=nightshift\n",
    "2026-02-03 05:39:00 INFO schedule.discard by=dayshift\n" + LOG,
    LOG + "2026-02-03 05:50:00 INFO plan.rollback user=nightshift\n",
    # the plan's name says more than a name
    LOG + "2026-02-03 05:50:00 INFO plan.publish by=nightshift name=\"not final\"\n",
], ids=["plan_cancel", "schedule_discard", "plan_rollback", "plan_name_not_final"])
def test_a_plan_record_that_undoes_the_plan_is_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


@pytest.mark.parametrize("text", [
    # a comment the parser drops that says what happens to a job
    XML.format(root="", between="<!-- J22 cancelled -->"),
    XML.format(root="", between="").replace('<step machine="M22" hours="3"/>',
                                            '<!-- was 5 --><step machine="M22" hours="3"/>'),
    # a processing instruction
    XML.format(root="", between="<?planner skip J22?>"),
    # words between elements, which the tree drops
    XML.format(root="", between=" J22 postponed"),
    XML.format(root="", between=" only the first today"),
    # an attribute of the whole plan that may change every value under it
    XML.format(root=' units="minutes"', between=""),
    XML.format(root=' status="draft"', between=""),
    XML.format(root=' state="void"', between=""),
], ids=["comment_cancelled", "comment_was", "instruction", "tail_postponed", "tail_only",
        "root_units", "root_status", "root_state"])
def test_xml_text_the_tree_drops_is_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


@pytest.mark.parametrize("text", [
    HTML.format(row=' class="cancelled"', cell=""),
    HTML.format(row=" hidden", cell=""),
    HTML.format(row=' style="display:none"', cell=""),
    HTML.format(row="", cell=' style="text-decoration:line-through"'),
    HTML.format(row="", cell=' title="in minutes"'),
], ids=["row_class", "row_hidden", "row_style", "cell_struck", "cell_title"])
def test_html_rows_or_cells_marked_by_attributes_are_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


@pytest.mark.parametrize("text", [
    # a machine's name that names another machine: a relation the plan would drop
    LOG.replace("machine.add id=M22", 'machine.add id=M22 name="M21 spare"'),
    XML.format(root="", between="").replace('<machine id="M22"/>',
                                            '<machine id="M22" name="backup for M21"/>'),
    # a name that says the machine is not used
    XML.format(root="", between="").replace('<machine id="M22"/>',
                                            '<machine id="M22" name="not in use"/>'),
], ids=["log_name_other_id", "xml_name_other_id", "xml_name_not_in_use"])
def test_a_machine_name_that_says_more_than_a_name_is_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


DELIMITED = "Machines: M21, M22\nJob{d}Machine{d}Hours{d}Due\nJ21{d}M21{d}2{d}12:00\n"


@pytest.mark.parametrize(("text", "expected"), [
    # a lone quote in a delimited row is a ditto mark, not a quoted cell that eats the rest
    (DELIMITED.format(d="\t") + 'J22\tM22\t3\t"\n',
     {"J21": (["M21"], [2], 12), "J22": (["M22"], [3], 12)}),
    (DELIMITED.format(d=";") + 'J22;M22;3;"\n',
     {"J21": (["M21"], [2], 12), "J22": (["M22"], [3], 12)}),
], ids=["tabs", "semicolons"])
def test_an_open_quote_in_a_delimited_row_is_a_ditto_mark(
        text: str, expected: dict[str, object]) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize("text", [
    # two apostrophes are also an export's empty text: without a legend no ditto
    "Machines: M21, M22\n| Job | Machine | Hours | Due |\n|---|---|---|---|\n"
    "| J21 | M21 | 2 | 12:00 |\n| J22 | M22 | 3 | '' |\n",
    "Machines: M21, M22\nJob,Machine,Hours,Due\nJ21,M21,2,12:00\nJ22,M22,3,''\n",
    # an open quote that would have swallowed the cells after it
    'Machines: M21, M22\nJob,Machine,Hours\nJ21,M21,2\nJ22,"M22,3\n',
], ids=["pipe_two_apostrophes", "csv_two_apostrophes", "csv_open_quote"])
def test_a_mark_in_doubt_is_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


@pytest.mark.parametrize("text", [
    # a unit for numbers written elsewhere: hours read where the writer meant minutes
    "All times in minutes\n| Job | Route | Hours |\n|---|---|---|\n| J21 | M21 > M22 | 2, 1 |\n",
    "Durations are minutes\n| Job | Machine | Time |\n|---|---|---|\n| J21 | M21 | 90 |\n",
    "Machines: M21, M22.\nTimes below in minutes\n- J21: M21 2h, M22 1h.\n",
    # a unit joined to the list of machines above it (a LaTeX caption right under it)
    "Machines: M21, M22\n\\caption{all times in minutes}\n\\begin{tabular}{lll}\n"
    "Job & Route & Hours \\\\\nJ21 & M21 $\\to$ M22 & 2, 1 \\\\\n\\end{tabular}\n",
    # a word that strikes out, holds or skips work, dropped as prose or a list of machines
    "Machines: M21, M22.\nJ21: M21 2h, M22 1h.\nskip M22 this week\n",
    "Machines: M21, M22.\nCancelled\n- J21: M21 2h, M22 1h.\n",
    "Machines: M21, M22.\nJ21: M21 2h, M22 1h.\nM22 on hold\n",
], ids=["caption_all_minutes", "caption_durations_minutes", "heading_below_minutes",
        "latex_caption_after_machines", "skip_machine", "cancelled_heading", "machine_on_hold"])
def test_a_line_dropped_as_prose_that_changes_the_plan_is_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


@pytest.mark.parametrize("text", [
    # a step nested under a step: a part of it or an alternative to it, not the next step
    "Machines: M21, M22, M23\n- J21\n    - M21 (2 h)\n    - M22 (1 h)\n        - M23 (1 h)\n",
    "Machines: M21, M22, M23\n* J21\n  * M21 2h\n    * M23 1h\n  * M22 1h\n",
    "Machines: M21, M22, M23\n├── J21\n│   ├── M21 (2 h)\n│   └── M22 (1 h)\n"
    "│       └── M23 (1 h)\n└── J22\n    └── M22 (3 h)\n",
], ids=["bullets_four_spaces", "stars_two_spaces", "tree_outline"])
def test_a_step_nested_under_a_step_is_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


@pytest.mark.parametrize("text", [
    # a bare number under a due key of no unit: an hour, or a day of the month?
    LOG.replace("due=12:00", "due=12"),
    XML.format(root="", between="").replace('due="12:00"', 'due="12"'),
    '{"machines": ["M21"], "jobs": {"J21": {"route": ["M21"], "hours": [2], "due": 12}}}',
], ids=["log", "xml", "json"])
def test_a_due_given_as_a_bare_number_is_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


ROUTE_TABLE = ("Machines: M21, M22\n| Job | Route | Hours |\n|---|---|---|\n"
               "| J21 | M21 > M22 | 2, 1 |\n| J22 | M22 | 3 |\n")


@pytest.mark.parametrize("text", [
    # a total row that is not the sum of the steps: a step misread or left out
    ROUTE_TABLE + "| Total | | 9 |\n",
    "Machines: M21, M22\nJob;Machine;Minutes\nJ21;M21;120\nJ22;M22;60\nSum;;200\n",
    HTML.format(row="", cell="").replace("</table>", "<tr><td>Total</td><td></td><td>4</td></tr>\n"
                                                     "</table>"),
], ids=["pipe_hours", "semicolon_minutes", "html"])
def test_a_total_that_does_not_add_up_is_refused(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)


def test_a_total_that_adds_up_is_dropped() -> None:
    expected = {"J21": (["M21", "M22"], [2, 1], None), "J22": (["M22"], [3], None)}
    assert jobs_of(ROUTE_TABLE + "| Total | | 6 |\n") == expected
    assert jobs_of("Machines: M21, M22\nJob;Machine;Minutes\nJ21;M21;120\nJ22;M22;60\n"
                   "Sum;;180\n") == {"J21": (["M21"], [2], None), "J22": (["M22"], [1], None)}
