"""Column headers of routing tables (markdown/pipe tables, CSV/TSV lines).

A header cell is mapped to a role by its words (case, punctuation and a unit in brackets are
ignored). A table whose header has a cell with no role is not read as a table of steps: the
clause reader reports it as unread, because an unknown column may carry a condition.
"""

from __future__ import annotations

import re
from enum import StrEnum


class Column(StrEnum):
    """Roles of table columns."""

    JOB = "job"
    MACHINE = "machine"  # one step per row
    ROUTE = "route"  # the whole route in one cell
    HOURS = "hours"
    MINUTES = "minutes"
    DUE = "due"
    STEP = "step"  # position of the step in its job's route
    NAME = "name"  # a job name / description (no ids or durations allowed in it)


_HEADERS: dict[str, Column] = {
    "job": Column.JOB, "jobs": Column.JOB, "job id": Column.JOB, "job_id": Column.JOB,
    "order": Column.JOB, "order id": Column.JOB, "work order": Column.JOB,
    "machine": Column.MACHINE, "machine id": Column.MACHINE, "machine_id": Column.MACHINE,
    "station": Column.MACHINE, "workstation": Column.MACHINE, "resource": Column.MACHINE,
    "route": Column.ROUTE, "routing": Column.ROUTE, "machines": Column.ROUTE,
    "sequence": Column.ROUTE, "path": Column.ROUTE, "steps": Column.ROUTE,
    "hours": Column.HOURS, "hour": Column.HOURS, "hrs": Column.HOURS, "h": Column.HOURS,
    "duration": Column.HOURS, "durations": Column.HOURS, "duration h": Column.HOURS,
    "duration hours": Column.HOURS, "duration_hours": Column.HOURS, "time": Column.HOURS,
    "time h": Column.HOURS, "processing time": Column.HOURS, "hours per step": Column.HOURS,
    "minutes": Column.MINUTES, "mins": Column.MINUTES, "min": Column.MINUTES,
    "duration min": Column.MINUTES, "duration minutes": Column.MINUTES,
    "time min": Column.MINUTES,
    "due": Column.DUE, "due time": Column.DUE, "due hour": Column.DUE, "deadline": Column.DUE,
    "due by": Column.DUE, "ship by": Column.DUE, "due_time": Column.DUE,
    "due_time_hour": Column.DUE,
    "step": Column.STEP, "seq": Column.STEP, "step no": Column.STEP, "step #": Column.STEP,
    "#": Column.STEP, "op": Column.STEP, "operation": Column.STEP,
    "name": Column.NAME, "job name": Column.NAME, "description": Column.NAME,
    "product": Column.NAME,
}


def column_role(cell: str) -> Column | None:
    """The role of a header cell, or None when it is not a known column."""
    words = re.sub(r"[()\[\]]", " ", cell.strip().lower())
    words = re.sub(r"\s+", " ", words).strip()
    return _HEADERS.get(words)


def header_roles(cells: list[str]) -> list[Column | None]:
    """Roles of every header cell (None for unknown cells)."""
    return [column_role(cell) for cell in cells]


def is_routing_header(cells: list[str]) -> bool:
    """True when ``cells`` look like the header of a routing table.

    It needs at least two cells, a job column, a machine or route column, and only known
    columns.
    """
    if len(cells) < 2:
        return False
    roles = header_roles(cells)
    return (
        None not in roles
        and Column.JOB in roles
        and (Column.MACHINE in roles or Column.ROUTE in roles)
    )


def looks_like_header(cells: list[str]) -> bool:
    """True when ``cells`` name a job column and at least one other known column.

    Used to recognize a table whose other columns are unknown (it is then reported unread
    instead of being read as prose).
    """
    roles = header_roles(cells)
    return len(cells) >= 2 and Column.JOB in roles and sum(r is not None for r in roles) >= 2
