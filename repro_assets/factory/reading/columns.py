"""Column headers of routing tables (markdown/pipe tables, CSV/TSV lines, fixed-width
reports).

A header cell is mapped to a role by its words (case and punctuation are ignored; a unit in
brackets or as the last word, ``Route (hrs)``, ``Time min``, is the unit of the numbers in
that column). ``Step 1`` / ``Op 2`` columns hold one step each. A table whose header has a
cell with no role is not read as a table of steps: the clause reader reports it as unread,
because an unknown column may carry a condition.

A table without a header row is read only when every column holds one kind of cell
throughout (job ids, machine ids, durations with their unit, clock times): then the kinds
are the roles (:func:`infer_roles`); a column of bare numbers has no certain meaning.
"""

from __future__ import annotations

import re
from enum import StrEnum

from repro_assets.factory.reading.lexicon import DURATION_UNIT, Kind, tokenize
from repro_assets.factory.reading.phrases import MEANING_WORDS


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
    STEP_CELL = "step cell"  # "Step 1", "Step 2" ...: one step (machine and duration) each
    INFO = "info"  # part numbers, quantities: informational (no ids allowed in it)
    CYCLE = "cycle"  # time per piece (the step takes quantity × cycle time)
    SETUP = "setup"  # setup time of the step (added to the run time)
    RUN = "run"  # run time of the step (with a setup column)
    NOTE = "note"  # a remark on the row: read only when it describes the work (no condition)
    STEP_HOURS = "step hours"  # "Hrs1", "Hours 2": the duration of the step cell numbered alike
    MACHINE_COLUMN = "machine column"  # "M3", "Saw M3": the row's hours on that machine
    STATUS = "status"  # where the row's operation stands: still to do, or done (not planned)


_HEADERS: dict[str, Column] = {
    "job": Column.JOB, "jobs": Column.JOB, "job id": Column.JOB, "job_id": Column.JOB,
    "order": Column.JOB, "order id": Column.JOB, "work order": Column.JOB,
    "machine": Column.MACHINE, "machine id": Column.MACHINE, "machine_id": Column.MACHINE,
    "station": Column.MACHINE, "workstation": Column.MACHINE, "resource": Column.MACHINE,
    "res": Column.MACHINE, "resource id": Column.MACHINE,
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
    "due by": Column.DUE, "ship by": Column.DUE, "due_time": Column.DUE, "ship": Column.DUE,
    "ship time": Column.DUE, "ready by": Column.DUE, "deliver by": Column.DUE,
    "due_time_hour": Column.DUE,
    "step": Column.STEP, "seq": Column.STEP, "step no": Column.STEP, "step #": Column.STEP,
    "#": Column.STEP, "op": Column.STEP, "operation": Column.STEP,
    "name": Column.NAME, "job name": Column.NAME, "description": Column.NAME,
    "product": Column.NAME,
    "wo": Column.JOB, "wo no": Column.JOB, "order no": Column.JOB,
    "oper": Column.STEP, "opn": Column.STEP, "op no": Column.STEP, "seq no": Column.STEP,
    "work ctr": Column.MACHINE, "work center": Column.MACHINE, "work centre": Column.MACHINE,
    "wc": Column.MACHINE, "run hrs": Column.HOURS, "run hours": Column.HOURS,
    "part": Column.INFO, "part no": Column.INFO, "part number": Column.INFO,
    "qty": Column.INFO, "quantity": Column.INFO, "pcs": Column.INFO,
    "setup": Column.SETUP, "setup time": Column.SETUP, "set up": Column.SETUP,
    "cycle": Column.CYCLE, "cycle time": Column.CYCLE, "time per piece": Column.CYCLE,
    "per piece": Column.CYCLE, "sec/pc": Column.CYCLE, "s/pc": Column.CYCLE,
    "min/pc": Column.CYCLE, "sec per piece": Column.CYCLE, "seconds per piece": Column.CYCLE,
    "time/pc": Column.CYCLE, "time/piece": Column.CYCLE, "time per pc": Column.CYCLE,
    "run": Column.RUN, "run time": Column.RUN, "runtime": Column.RUN,
    "notes": Column.NOTE, "note": Column.NOTE, "remarks": Column.NOTE, "remark": Column.NOTE,
    "comment": Column.NOTE, "comments": Column.NOTE,
    "customer": Column.INFO, "customer name": Column.INFO, "client": Column.INFO,
    "line": Column.INFO, "line no": Column.INFO, "item": Column.INFO, "pos": Column.INFO,
    "lot": Column.INFO, "lot no": Column.INFO, "batch": Column.INFO, "batch no": Column.INFO,
    "operator": Column.INFO,
    "status": Column.STATUS, "op status": Column.STATUS, "state": Column.STATUS,
}
_HOUR_UNITS = frozenset({"h", "hr", "hrs", "hour", "hours"})
_MINUTE_UNITS = frozenset({"min", "mins", "minute", "minutes"})
_SECOND_UNITS = frozenset({"s", "sec", "secs", "second", "seconds"})
_STEP_CELL_RE = re.compile(r"^(?:step|op|operation|stage)\s*#?\s*\d+$")
_STEP_HOURS_RE = re.compile(r"^(?P<unit>h|hr|hrs|hours|min|mins|minutes)\s*#?\s*(?P<n>\d+)$")


def step_number(cell: str) -> int | None:
    """The number of a ``Step 2`` / ``Op2`` or ``Hrs2`` / ``Min 2`` header cell, or None."""
    match = re.search(r"(\d+)$", cell.strip())
    return int(match.group(1)) if match else None


# "Job No.", "Machine nr": the number of the thing the column names
_NUMBER_SUFFIXES = frozenset({"no", "nr", "number", "num", "id", "code"})
# "Std hrs", "Planned hours": the time planned for the step
_PLAN_PREFIXES = frozenset({"std", "standard", "planned", "plan", "est", "estimated"})


def _compact(words: str) -> str:
    return re.sub(r"[\s_\-]+", "", words)


def _compact_headers() -> dict[str, Column]:
    """The known headers written run together (``workcenter``, ``jobid``, ``due-time``);
    a run-together form that two roles share is left out."""
    found: dict[str, set[Column]] = {}
    for words, role in _HEADERS.items():
        found.setdefault(_compact(words), set()).add(role)
    return {key: roles.pop() for key, roles in found.items() if len(roles) == 1}


_COMPACT_HEADERS = _compact_headers()


def _words(cell: str) -> str:
    words = re.sub(r"[()\[\]#.:]", " ", cell.strip().lower())
    return re.sub(r"\s+", " ", words).strip()


# "Time (h:mm)", "Duration hh:mm": a duration column written as hours and minutes
_CLOCK_UNIT_RE = re.compile(r"^(?P<base>.*?)\s*\(?\s*h{1,2}:mm\s*\)?$", re.IGNORECASE)
CLOCK_UNIT = "h:mm"


def column_unit(cell: str) -> str | None:
    """``hours``, ``minutes`` (``seconds``) or ``h:mm`` when the header cell names the unit of
    its numbers."""
    if _CLOCK_UNIT_RE.match(cell.strip()) and column_role(cell) is Column.HOURS:
        return CLOCK_UNIT
    numbered = _STEP_HOURS_RE.match(cell.strip().lower())
    if numbered:
        return "minutes" if numbered.group("unit").startswith("min") else "hours"
    words = _words(cell).replace("_", " ").split(" ")
    if _HEADERS.get(" ".join(words)) is Column.MINUTES:
        return "minutes"
    if _HEADERS.get(" ".join(words)) is Column.HOURS:
        return "hours"
    last = words[-1] if words else ""
    if words and words[0] in {"sec/pc", "s/pc", "sec", "seconds"}:
        return "seconds"
    if words and words[0] == "min/pc":
        return "minutes"
    if last in _HOUR_UNITS:
        return "hours"
    if last in _MINUTE_UNITS:
        return "minutes"
    if last in _SECOND_UNITS:
        return "seconds"
    return None


# "Alternative M3", "Backup M3": a machine that may stand in for another, not a step of its own
_STAND_IN_WORDS = frozenset({"alternative", "alternatives", "alt", "backup", "spare", "standby",
                             "reserve", "substitute", "fallback", "option", "options"})


def header_machine(cell: str) -> str | None:
    """The machine of a header cell that is one machine id, alone or after plain words
    (``M3``, ``Saw M3``, ``M3 (h)``): a column of that machine's step; None otherwise (also
    when a word says more than a name, ``Optional M3``)."""
    tokens = tokenize(re.sub(rf"\((?:{DURATION_UNIT})\)\s*$", "", cell.strip(),
                             flags=re.IGNORECASE))
    if not tokens or tokens[-1].kind is not Kind.MACHINE or len(tokens[-1].value) != 1 or any(
            t.kind is not Kind.WORD or t.value in MEANING_WORDS | _STAND_IN_WORDS
            for t in tokens[:-1]
    ) or len(tokens) > 3:
        return None
    return str(tokens[-1].value[0])


def column_role(cell: str) -> Column | None:
    """The role of a header cell, or None when it is not a known column."""
    if header_machine(cell) is not None:
        return Column.MACHINE_COLUMN
    clock = _CLOCK_UNIT_RE.match(cell.strip())
    if clock is not None and ":" in cell:
        base = _HEADERS.get(_words(clock.group("base")))
        return Column.HOURS if base in (Column.HOURS, Column.MINUTES) else None
    words = _words(cell)
    role = _HEADERS.get(words)
    if role is not None:
        return role
    if _STEP_CELL_RE.match(cell.strip().lower()):
        return Column.STEP_CELL
    if _STEP_HOURS_RE.match(cell.strip().lower()):
        return Column.STEP_HOURS
    parts = words.replace("_", " ").split(" ")
    if len(parts) > 1 and (parts[-1] in _HOUR_UNITS or parts[-1] in _MINUTE_UNITS
                           or parts[-1] in _SECOND_UNITS):
        base = _HEADERS.get(" ".join(parts[:-1]))
        if parts[-1] in _SECOND_UNITS:
            return base if base is Column.CYCLE else None
        if base in (Column.ROUTE, Column.HOURS, Column.MINUTES, Column.SETUP, Column.RUN,
                    Column.CYCLE):
            return base
    role = _HEADERS.get(" ".join(parts))
    if role is None:
        role = _COMPACT_HEADERS.get(_compact(words))
    if role is None and len(parts) > 1 and (parts[-1] in _NUMBER_SUFFIXES
                                            or parts[0] in _PLAN_PREFIXES):
        inner = parts[:-1] if parts[-1] in _NUMBER_SUFFIXES else parts[1:]
        role = column_role(" ".join(inner))  # "Job No.", "Machine no", "Std hrs"
        if role not in (Column.JOB, Column.MACHINE, Column.HOURS, Column.MINUTES, Column.STEP):
            role = None
    return role


def header_roles(cells: list[str]) -> list[Column | None]:
    """Roles of every header cell (None for unknown cells).

    Beside a setup column, the one hours or minutes column whose header starts with "run"
    (``Run hrs``) is the run time that the setup time adds to.
    """
    roles = [column_role(cell) for cell in cells]
    if Column.SETUP in roles and Column.RUN not in roles:
        runs = [index for index, (cell, role) in enumerate(zip(cells, roles, strict=True))
                if role in (Column.HOURS, Column.MINUTES) and _words(cell).startswith("run")]
        if len(runs) == 1:
            roles[runs[0]] = Column.RUN
    return roles


def is_routing_header(cells: list[str]) -> bool:
    """True when ``cells`` look like the header of a routing table.

    It needs at least two cells, a job column, a machine or route column, and only known
    columns (numbered duration columns, ``Hrs1``, only beside numbered step cells).
    """
    if len(cells) < 2:
        return False
    roles = header_roles(cells)
    if Column.STEP_HOURS in roles and Column.STEP_CELL not in roles:
        return False  # "Hrs1" numbers the duration of a step cell: none here
    machine_columns = roles.count(Column.MACHINE_COLUMN)
    if machine_columns and (machine_columns < 2 or {Column.MACHINE, Column.ROUTE,
                                                    Column.STEP_CELL, Column.HOURS,
                                                    Column.MINUTES} & set(roles)):
        return False  # a column per machine holds the steps: nothing else may
    return (
        None not in roles
        and Column.JOB in roles
        and (Column.MACHINE in roles or Column.ROUTE in roles or Column.STEP_CELL in roles
             or machine_columns >= 2)
    )


_EMPTY_CELLS = frozenset({"", "-", "–", "—", "n/a", "none"})
_STEP_LABEL_RE = re.compile(r"(?i)^(?:op|oper|opn|operation|seq|step)\.?\s*(?:no\.?\s*)?#?\s*"
                            r"(?P<n>\d{1,4})$")


def step_label_number(cell: str) -> int | None:
    """The number of an operation label (``op10``, ``Op. 20``, ``step 3``), or None."""
    match = _STEP_LABEL_RE.match(cell.strip())
    return int(match.group("n")) if match else None


def _cell_kind(cell: str) -> str | None:
    if cell.strip().lower() in _EMPTY_CELLS:
        return "empty"
    if step_label_number(cell) is not None:
        return "step"
    tokens = tokenize(cell)
    if len(tokens) != 1:
        return None
    return {Kind.JOB: "job", Kind.MACHINE: "machine", Kind.DURATION: "duration",
            Kind.CLOCK: "clock"}.get(tokens[0].kind)


def infer_roles(rows: list[list[str]]) -> list[str] | None:
    """Header names for rows without a header, from what every cell of a column holds.

    Returns:
        ``job``, ``machine``, ``duration``, ``due`` and ``step`` per column, or None unless
        there is one column of job ids, one of machine ids, at most one of durations written
        with their unit, at most one of clock times (``-`` = none), at most one of operation
        labels (``op10``), and nothing else.
    """
    if len(rows) < 2 or len({len(row) for row in rows}) != 1 or len(rows[0]) < 2:
        return None
    names = []
    for column in zip(*rows, strict=True):
        kinds = {_cell_kind(cell) for cell in column}
        if kinds == {"job"}:
            names.append("job")
        elif kinds == {"machine"}:
            names.append("machine")
        elif kinds == {"duration"}:
            names.append("hours")
        elif kinds and kinds <= {"clock", "empty"}:
            names.append("due")
        elif kinds == {"step"}:
            names.append("step")
        else:
            return None
    if names.count("job") != 1 or names.count("machine") != 1 or len(set(names)) != len(names):
        return None
    return names


def looks_like_header(cells: list[str]) -> bool:
    """True when ``cells`` name a job column and at least one other known column.

    Used to recognize a table whose other columns are unknown (it is then reported unread
    instead of being read as prose).
    """
    roles = header_roles(cells)
    return len(cells) >= 2 and Column.JOB in roles and sum(r is not None for r in roles) >= 2
