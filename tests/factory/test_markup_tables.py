"""A table pasted as its HTML or LaTeX source is read as the same pipe table (#24).

``reading/markup.py`` writes an HTML ``<table>`` or a LaTeX ``tabular`` understood entirely as
pipe rows (a LaTeX caption as a line of prose above them); a caption that gives the unit of
the bare numbers in parentheses of the route cells (``minutes in brackets``) gives them their
unit; a step cell may be a machine, a comma and its duration. The documents are invented, in
surface forms the check set does not use; any markup not understood fails with a code.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

HTML_SECTIONS = """Machines: M6, M8
<table class="plan">
<thead>
  <tr><th>Job</th><th>Route</th><th>Hours</th><th>Due</th></tr>
</thead>
<tbody>
  <tr>
    <td>J4</td>
    <td>M6 &rarr; M8</td>
    <td>3, 1</td>
    <td>10:00</td>
  </tr>
  <tr><td>J5</td><td>M8</td><td>2</td><td>&nbsp;</td></tr>
</tbody>
</table>
"""

HTML_STEP_CELLS = """<TABLE>
<TR><TH>Job</TH><TH>Step 1</TH><TH>Step 2</TH></TR>
<TR><TD>J4</TD><TD>M8, 30 min</TD><TD>M6, 2 h</TD></TR>
<TR><TD>J5</TD><TD>M6, 1 h</TD><TD></TD></TR>
</TABLE>
"""

LATEX_STEP_ROWS = r"""\begin{tabular}{|l|l|r|}
\hline
Job & Machine & Hours \\ \hline
J4 & M6 & 3 \\
J4 & M8 & 1 \\
J5 & M8 & 2 \\ \hline
\end{tabular}
"""

LATEX_BRACKETED_MINUTES = r"""\begin{table}
\centering
\caption{Job routes (minutes in brackets)}
\begin{tabular}{ll}
Job & Route \\
\midrule
J4 & M6 (90) $\to$ M8 (30) \\
J5 & M8 (120) \\
\end{tabular}
\end{table}
"""


@pytest.mark.parametrize(("text", "expected"), [
    (HTML_SECTIONS, {"J4": (["M6", "M8"], [3, 1], 10), "J5": (["M8"], [2], None)}),
    (HTML_STEP_CELLS, {"J4": (["M8", "M6"], [1, 2], None), "J5": (["M6"], [1], None)}),
    (LATEX_STEP_ROWS, {"J4": (["M6", "M8"], [3, 1], None), "J5": (["M8"], [2], None)}),
    (LATEX_BRACKETED_MINUTES, {"J4": (["M6", "M8"], [2, 1], None), "J5": (["M8"], [2], None)}),
], ids=["html_sections", "html_step_cells", "latex_step_rows", "latex_bracketed_minutes"])
def test_a_markup_table_is_read_as_its_rows(text: str, expected: dict[str, object]) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize("text", [
    # a cell that spans two columns
    HTML_STEP_CELLS.replace("<TD>M6, 1 h</TD><TD></TD>", '<TD colspan="2">M6, 1 h</TD>'),
    # an element inside a cell: its meaning is not read
    HTML_STEP_CELLS.replace("<TD>M6, 1 h</TD>", "<TD><s>M6, 1 h</s></TD>"),
    # a LaTeX command in a cell
    LATEX_STEP_ROWS.replace("J5 & M8 & 2", r"\multicolumn{2}{l}{J5 M8} & 2"),
    # a caption that says more than the unit: the bracketed numbers have none
    LATEX_BRACKETED_MINUTES.replace("Job routes", "Job routes for Monday"),
    # no caption: a bracketed number is no duration
    LATEX_BRACKETED_MINUTES.replace(r"\caption{Job routes (minutes in brackets)}" + "\n", ""),
    # a step cell whose comma joins two machines
    HTML_STEP_CELLS.replace("M8, 30 min", "M8, M6"),
], ids=["colspan", "element_in_cell", "latex_command", "caption_says_more", "no_caption",
        "two_machines_in_a_step"])
def test_markup_read_with_doubt_fails_with_a_code(text: str) -> None:
    assert "INVALID_STRUCTURE" in fails(text)
