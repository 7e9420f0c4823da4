"""A table in either orientation: jobs as columns is the same table as jobs as rows.

The table reader reads one row per job (a job column, then step cells, a column per machine
or a due column). Writers as often turn the sheet: a header row of job ids over one row per
step, per machine or for the dues (``op;J4;J5`` over ``1;M6 3h;M8 30 min`` and ``due;11:00;``;
a load sheet of ``M6  4  .  1`` under ``J4  J5  J6``). The header is recognised by
its ids: every cell but the first (the corner, a word or nothing) is a distinct job id.
:func:`transposed` turns such a table so that each job is a row and each row label a column:
a machine id labels that machine's column, a bare step number (under a corner that says step,
or none) the column ``step N``, and any other label stays the header cell it is, which the
table reader must know (``due``, ``due by``), else the table is not turned and is reported as
written. The cells keep their text; what they mean is read by the table reader as for any
table of jobs as rows.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from repro_assets.factory.ids import JOB_ID_RE, MACHINE_ID_RE
from repro_assets.factory.reading.columns import header_roles

if TYPE_CHECKING:
    from repro_assets.factory.reading.segments import Table

# a corner cell over step numbers ("step", "op", "seq no", "#") or none
_STEP_CORNER_RE = re.compile(r"(?i)^(?:|#|no\.?|steps?|op|ops|operations?|seq|sequence)"
                             r"(?:\s*(?:no\.?|nr|#))?$")


# a corner cell that names what the rows or columns are, and nothing else ("machine / job")
_THING = r"(?:machines?|resources?|work\s*cent(?:er|re)s?|wc|jobs?|orders?|steps?|ops?)"
_CORNER_RE = re.compile(rf"(?i)^(?:{_THING}(?:\s*[/\\x×]\s*{_THING})?)?$")


def is_job_header(cells: list[str] | tuple[str, ...]) -> bool:
    """Whether a header row names jobs across: a corner cell that is empty, a step word or
    names what the rows and columns are (any other word there would go unread), then
    distinct job ids only."""
    jobs = [cell.strip() for cell in cells[1:]]
    corner = cells[0].strip()
    return (len(jobs) >= 1 and all(JOB_ID_RE.fullmatch(job) for job in jobs)
            and len(set(jobs)) == len(jobs)
            and (_CORNER_RE.fullmatch(corner) is not None
                 or _STEP_CORNER_RE.fullmatch(corner) is not None))


def _label(corner: str, label: str) -> str | None:
    """The column a row label becomes once the table is turned, or None."""
    label = label.strip()
    if MACHINE_ID_RE.fullmatch(label):
        return label
    if re.fullmatch(r"\d{1,3}", label):
        return f"step {int(label)}" if _STEP_CORNER_RE.fullmatch(corner.strip()) else None
    return label if re.fullmatch(r"[A-Za-z][A-Za-z .]*", label) else None


def transposed(table: Table) -> Table | None:
    """``table`` turned so that its jobs are rows, when its header names jobs across and
    every row label becomes a known column; None otherwise.

    Args:
        table: a table as segmented.

    Returns:
        The table with header ``job`` and one column per row label, one row per job (its
        line a pipe row of its cells), or None.
    """
    if not is_job_header(table.header) or not table.rows:
        return None
    width = len(table.header)
    if any(len(cells) != width for cells, _ in table.rows):
        return None
    labels = [_label(table.header[0], cells[0]) for cells, _ in table.rows]
    if any(label is None for label in labels) or len(set(labels)) != len(labels):
        return None
    header = ("job", *[str(label) for label in labels])
    if any(role is None for role in header_roles(list(header))):
        return None
    rows = []
    for column in range(1, width):
        cells = (table.header[column].strip(), *[cells[column] for cells, _ in table.rows])
        rows.append((cells, "| " + " | ".join(cells) + " |"))
    return dataclasses.replace(table, header=header, rows=tuple(rows),
                               header_line="| " + " | ".join(header) + " |",
                               routing=True, turned=True)
