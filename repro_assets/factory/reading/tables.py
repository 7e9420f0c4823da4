"""Routing tables (markdown/pipe tables, CSV/TSV lines) → statements, or unread rows.

Two layouts are read:

* one row per job, the route in one cell: ``| J1 | M1, M2, M3 | 1, 1, 2 | 10 |`` (the hours
  cell lists one duration per machine);
* one row per step: ``J1,M1,2`` / ``J1,M2,1`` (rows of the same job, in row order or by a
  ``step`` column, make its route).

Numbers in an ``hours`` column are hours, in a ``minutes`` column minutes; a cell may also
carry its own unit (``90 min``). Due cells use the due-time grammar (a bare number is an hour).
A header with an unknown column, a row with the wrong number of cells, a cell that is not
what its column says, or two different due times for one job make the table (or the row)
unread: the run fails and quotes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from repro_assets.factory.reading.columns import (
    CLOCK_UNIT,
    Column,
    column_unit,
    header_machine,
    header_roles,
    step_label_number,
    step_number,
)
from repro_assets.factory.reading.lexicon import Kind, Token, tokenize
from repro_assets.factory.reading.names import NameIndex, name_words
from repro_assets.factory.reading.phrases import (
    UnreadPhrase,
    group_asides,
    is_paren,
    is_plain_note,
)
from repro_assets.factory.reading.segments import Table
from repro_assets.factory.reading.statements import (
    LEVEL_ONE,
    DueStatement,
    MachineMention,
    Reading,
    RouteStatement,
    StepSpec,
    Unread,
)
from repro_assets.factory.reading.times import read_time

_LIST_SEPARATORS = frozenset({Kind.COMMA, Kind.ARROW})


class _BadCell(Exception):
    """A cell is not what its column says."""


def _items(cell: str, accept: Callable[[Token], bool], what: str) -> list[Token]:
    """The tokens of a cell that lists items (``M1, M2 -> M3``, ``2; 1 and 3``)."""
    items: list[Token] = []
    expect_item = True
    for token in tokenize(cell):
        if expect_item and accept(token):
            items.append(token)
            expect_item = False
        elif not expect_item and (token.kind in _LIST_SEPARATORS or token.is_word("then", "and")
                                  or (token.kind is Kind.OTHER and token.text in ";/")):
            expect_item = True
        else:
            raise _BadCell(f"'{cell}' is not a list of {what}")
    if not items or expect_item:
        raise _BadCell(f"'{cell}' is not a list of {what}")
    return items


def _ids(cell: str, kind: Kind, what: str) -> list[str]:
    return [token.value[0] for token in _items(cell, lambda t: t.kind is kind, what)]


_DECIMAL_COMMA_RE = re.compile(r"(?<![\d,])(\d+),(\d{1,2})(?![\d,])")


def _durations(cell: str, minutes: bool) -> list[float]:
    if re.search(r"->|→|>|;|/", cell) and "," in cell and ", " not in cell:
        cell = _DECIMAL_COMMA_RE.sub(r"\1.\2", cell)  # "0,5 > 2": commas are decimal marks
    tokens = _items(cell, lambda t: t.kind in (Kind.NUMBER, Kind.DURATION)
                    or _dotted_decimal(t), "durations")
    return [(float(t.text) if _dotted_decimal(t) else float(t.value))
            / (60 if minutes and t.kind is not Kind.DURATION else 1) for t in tokens]


def _hours_and_minutes(cell: str) -> float:
    """A cell of an ``h:mm`` column (``1:30`` is 1.5 hours); anything else is unread."""
    match = re.fullmatch(r"\s*(\d{1,2}):([0-5]\d)\s*", cell)
    if match is None:
        raise _BadCell(f"'{cell.strip()}' is not a duration as h:mm")
    return int(match.group(1)) + int(match.group(2)) / 60


def _dotted_decimal(token: Token) -> bool:
    """A number with two decimals that the lexicon took for a dotted clock (``1.50``,
    ``0.75``): under a duration column it is a decimal number of the column's unit."""
    return token.kind is Kind.CLOCK and re.fullmatch(r"\d{1,3}\.\d{2}", token.text) is not None


_EMPTY = ("", "-", "–", "—", "n/a", "none")


def _route_cell(cell: str, unit: str | None) -> list[StepSpec]:
    """The steps of a route cell: ``M1 > M2``, ``M1 1.0 > M2 2.0`` (numbers in the column's
    unit), ``M1 (1h), M2 2h``."""
    try:
        tokens = group_asides(tokenize(cell), cell)
    except UnreadPhrase as exc:
        raise _BadCell(f"'{cell}': {exc}") from exc
    steps: list[StepSpec] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.kind is not Kind.MACHINE:
            raise _BadCell(f"'{cell}' is not a route")
        hours: float | None = None
        index += 1
        following = tokens[index] if index < len(tokens) else None
        if following is not None and following.kind is Kind.DURATION:
            hours = following.value
            index += 1
        elif is_paren(following, "duration"):
            hours = following.value.hours
            index += 1
        elif following is not None and following.kind is Kind.NUMBER:
            if unit is None:
                raise _BadCell(f"'{cell}': '{following.text}' has no unit")
            hours = following.value / (60 if unit == "minutes" else 1)
            index += 1
        steps.append(StepSpec(token.value[0], hours))
        if index >= len(tokens):
            break
        separator = tokens[index]
        if not (separator.kind in _LIST_SEPARATORS or separator.is_word("then")
                or (separator.kind is Kind.OTHER and separator.text in ";/")):
            raise _BadCell(f"'{cell}' is not a route")
        index += 1
        if index >= len(tokens):
            raise _BadCell(f"'{cell}' ends with a separator")
    if not steps:
        raise _BadCell(f"'{cell}' is not a route")
    return steps


def _named_step(cell: str, names: NameIndex | None) -> list[StepSpec]:
    """The step of a cell that gives a machine's whole declared name and one duration
    (``drill press 2h`` where the text says ``M2 = drill press``), or nothing."""
    tokens = tokenize(cell)
    if names is None or len(tokens) < 2 or tokens[-1].kind is not Kind.DURATION or any(
            t.kind is not Kind.WORD for t in tokens[:-1]):
        return []
    named = names.full(name_words(cell[:tokens[-1].start]))
    return [StepSpec(named, float(tokens[-1].value))] if named is not None else []


def _comma_step(cell: str) -> list[StepSpec]:
    """The step of a step cell that is a machine, a comma and its duration (``M4, 2 h``), or
    nothing."""
    tokens = tokenize(cell)
    if [token.kind for token in tokens] != [Kind.MACHINE, Kind.COMMA, Kind.DURATION] or len(
            tokens[0].value) != 1:
        return []
    return [StepSpec(tokens[0].value[0], tokens[2].value)]


def _step_cells(values: list[tuple[Column | None, str]],
                header: tuple[str, ...] = (), names: NameIndex | None = None) -> list[StepSpec]:
    """The steps of ``Step 1`` / ``Step 2`` ... cells (empty cells only at the end); a step
    cell with a machine only takes its duration from the ``Hrs1`` / ``Min 2`` column of the
    same number."""
    timed = _numbered_durations(values, header)
    steps: list[StepSpec] = []
    ended = False
    for index, (role, cell) in enumerate(values):
        if role is not Column.STEP_CELL:
            continue
        number = step_number(header[index]) if header else None
        duration = timed.pop(number, None) if number is not None else None
        if cell.strip().lower() in _EMPTY:
            if duration is not None:
                raise _BadCell(f"a duration for the empty step {header[index]}")
            ended = True
            continue
        if ended:
            raise _BadCell("a step after an empty step cell")
        found = _named_step(cell, names) or _comma_step(cell) or _route_cell(cell, None)
        if len(found) != 1:
            raise _BadCell(f"'{cell}' is not one step")
        if duration is not None:
            if found[0].hours is not None:
                raise _BadCell(f"durations in both '{cell}' and {header[index]}'s hours")
            found = [StepSpec(found[0].machine, duration)]
        steps += found
    if timed:
        raise _BadCell("a duration column without its step column")
    if not steps:
        raise _BadCell("no step")
    return steps


def _machine_columns(header: tuple[str, ...], roles: list[Column | None],
                     cells: tuple[str, ...]) -> list[StepSpec]:
    """The steps of a row under one column per machine, in the columns' order: a filled cell
    is that machine's duration (with its unit, or under a header that gives one); an empty
    cell skips the machine. A mark without a time (``x``) is no duration."""
    steps: list[StepSpec] = []
    for head, role, cell in zip(header, roles, cells, strict=True):
        if role is not Column.MACHINE_COLUMN or cell.strip().lower() in _EMPTY:
            continue
        machine = header_machine(head)
        tokens = tokenize(cell)
        unit = column_unit(re.sub(r"[()]", " ", head))
        if len(tokens) == 1 and tokens[0].kind is Kind.DURATION:
            hours = float(tokens[0].value)
        elif len(tokens) == 1 and tokens[0].kind is Kind.NUMBER and unit in ("hours", "minutes"):
            hours = float(tokens[0].value) / (60 if unit == "minutes" else 1)
        else:
            raise _BadCell(f"'{cell.strip()}' under {head.strip()} is not one duration with "
                           "its unit")
        assert machine is not None
        steps.append(StepSpec(machine, hours))
    if not steps:
        raise _BadCell("no step")
    return steps


def _numbered_durations(values: list[tuple[Column | None, str]],
                        header: tuple[str, ...]) -> dict[int, float]:
    """The durations of the ``Hrs1`` / ``Min 2`` cells of a row, by step number."""
    timed: dict[int, float] = {}
    for index, (role, cell) in enumerate(values):
        if role is not Column.STEP_HOURS or cell.strip().lower() in _EMPTY:
            continue
        number = step_number(header[index])
        found = _durations(cell, column_unit(header[index]) == "minutes")
        if number is None or len(found) != 1 or number in timed:
            raise _BadCell(f"'{cell}' under {header[index]} is not one duration")
        timed[number] = found[0]
    return timed


def _quantity_times_cycle(header: tuple[str, ...], roles: list[Column | None],
                          cells: tuple[str, ...], units: dict[Column, str | None]) -> float:
    """Quantity × cycle time in hours (the quantity column is the one headed qty/quantity)."""
    quantities = [cell for name, role, cell in zip(header, roles, cells, strict=True)
                  if role is Column.INFO and name.strip().lower() in ("qty", "quantity", "pcs")]
    cycle = [cell for role, cell in zip(roles, cells, strict=True) if role is Column.CYCLE]
    if len(quantities) != 1 or len(cycle) != 1:
        raise _BadCell("a cycle time needs one quantity column")
    quantity, time = tokenize(quantities[0]), tokenize(cycle[0])
    if len(quantity) != 1 or quantity[0].kind is not Kind.NUMBER or quantity[0].value != int(
            quantity[0].value):
        raise _BadCell(f"'{quantities[0]}' is not a quantity")
    if len(time) != 1 or time[0].kind not in (Kind.NUMBER, Kind.DURATION):
        raise _BadCell(f"'{cycle[0]}' is not a cycle time")
    if time[0].kind is Kind.DURATION:
        seconds = time[0].value * 3600
    else:
        unit = units.get(Column.CYCLE)
        if unit is None:
            raise _BadCell(f"'{cycle[0]}' has no unit")
        seconds = time[0].value * {"seconds": 1, "minutes": 60, "hours": 3600}[unit]
    return round(quantity[0].value * seconds, 6) / 3600


def _setup_and_run(values: dict[Column | None, str], units: dict[Column, str | None]) -> float:
    """A step's setup time plus its run time, each in its column's unit (or its own)."""
    total = 0.0
    for role in (Column.SETUP, Column.RUN):
        if role not in values:
            continue
        cell = values[role]
        if cell.strip().lower() in _EMPTY and role is Column.SETUP:
            continue
        tokens = tokenize(cell)
        if len(tokens) != 1 or tokens[0].kind not in (Kind.NUMBER, Kind.DURATION):
            raise _BadCell(f"'{cell}' is not a duration")
        if tokens[0].kind is Kind.DURATION:
            total += tokens[0].value
        elif units.get(role) is None:
            raise _BadCell(f"'{cell}' has no unit")
        else:
            total += tokens[0].value / (60 if units[role] == "minutes" else 1)
    return total


def _due(cell: str) -> float | None:
    if cell.strip().lower() in _EMPTY:
        return None
    tokens: list[Token] = tokenize(cell)
    reading = read_time(tokens, 0)
    if reading.hour is None or reading.used != len(tokens):
        raise _BadCell(f"'{cell}' is not a due time ({reading.problem or 'extra text'})")
    return reading.hour


_OUT_OF_SERVICE = re.compile(
    r"\b(?:down|service|repair|maintenance|broken|offline|unavailable|available|order|"
    r"decommissioned|retired|use|action|commission|working|operational|running|inoperable|"
    r"stopped)\b", re.IGNORECASE)


def _machine_legend(table: Table, roles: list[Column | None], reading: Reading) -> bool:
    """Read a table of machines and their names (``| Machine | Name |``, no job column) as
    the plant's machine list; False (nothing read) when it is not one.

    Every row must hold one machine id and a plain name (words only, no condition and no
    word that says the machine is unavailable).
    """
    if sorted(map(str, roles)) != [Column.MACHINE.value, Column.NAME.value]:
        return False
    machine_at = roles.index(Column.MACHINE)
    names: dict[str, str] = {}
    for cells, _ in table.rows:
        if len(cells) != 2:
            return False
        ids = tokenize(cells[machine_at])
        name = cells[1 - machine_at].strip()
        if len(ids) != 1 or ids[0].kind is not Kind.MACHINE or ids[0].value[0] in names:
            return False
        if not name or not all(t.kind is Kind.WORD for t in tokenize(name)) or not (
                is_plain_note(name)) or _OUT_OF_SERVICE.search(name):
            return False
        names[ids[0].value[0]] = name
    reading.machines.append(MachineMention(list(names), names, True, [], table.header_line))
    return True


@dataclass
class _RoutingTable:
    """A routing table being read: its columns, and the step rows gathered per job."""

    table: Table
    roles: list[Column | None]
    reading: Reading
    names: NameIndex | None = None
    steps_by_job: dict[str, list[tuple[int, int, StepSpec]]] = field(default_factory=dict)
    dues_by_job: dict[str, set[float]] = field(default_factory=dict)
    quotes: dict[str, list[str]] = field(default_factory=dict)

    @property
    def minutes(self) -> bool:
        """Whether durations are in a minutes column."""
        return Column.MINUTES in self.roles

    @property
    def per_step(self) -> bool:
        """Whether each row is one step (a machine column) rather than a whole route."""
        return Column.MACHINE in self.roles

    @property
    def units(self) -> dict[Column, str | None]:
        """The unit each known column's header gives."""
        return {role: column_unit(cell)
                for cell, role in zip(self.table.header, self.roles, strict=True)
                if role is not None}

    @property
    def route_unit(self) -> str | None:
        """The unit the route column's header gives."""
        return next((column_unit(cell)
                     for cell, role in zip(self.table.header, self.roles, strict=True)
                     if role is Column.ROUTE), None)


def read_table(table: Table, reading: Reading, names: NameIndex | None = None) -> None:
    """Read one table into ``reading`` (statements, or unread rows); a machine cell may give
    a machine's whole name as the text declares it (``names``)."""
    if table.section is not None:
        reading.unread.append(Unread(table.header_line, f"it stands under '{table.section}', "
                                     "which says it is no work of this plan"))
        return
    roles = header_roles(list(table.header))
    if not table.routing and _machine_legend(table, roles, reading):
        return
    if not table.routing:
        _report_unknown_table(table, roles, reading)
        return
    state = _RoutingTable(table, roles, reading, names)
    for cell, role in zip(table.header, roles, strict=True):
        machine = header_machine(cell) if role is Column.MACHINE_COLUMN else None
        if machine is not None:  # a machine's column declares it as a route does
            reading.machine_names.append((machine, ""))
    above: str | None = None  # the job of the row above, while rows are read
    routes_before = len(reading.routes)
    totals: list[tuple[tuple[str, ...], str]] = []
    for row_number, (cells, line) in enumerate(table.rows):
        if _is_total_row(cells):
            totals.append((cells, line))
            continue
        row_job, above = above, None
        try:
            above = _read_row(state, row_number, cells, line, row_job)
        except _BadCell as exc:
            reading.unread.append(Unread(quote=line, reason=str(exc)))
            for token in tokenize(line):
                if token.kind is Kind.JOB:
                    reading.mention_job(token.value[0])
    _commit_step_rows(state)
    _check_totals(totals, reading.routes[routes_before:], reading)


def _check_totals(totals: list[tuple[tuple[str, ...], str]], routes: list[RouteStatement],
                  reading: Reading) -> None:
    """Report each total row whose numbers are not the sum of the durations the table gave
    (in hours or in minutes): a step misread or left out, or a total of something else."""
    hours = sum(step.hours or 0.0 for route in routes for step in route.steps)
    for cells, line in totals:
        numbers = [token.value for cell in cells for token in tokenize(cell)
                   if token.kind in (Kind.NUMBER, Kind.DURATION)]
        if not all(abs(number - hours) < 1e-6 or abs(number - hours * 60) < 1e-6
                   for number in numbers):
            reading.unread.append(Unread(quote=line, reason="a total that is not the sum of "
                                         "the durations in the table"))


_TOTAL_WORDS = frozenset({"total", "totals", "sum", "grand total", "subtotal", "sub-total"})


def _is_total_row(cells: tuple[str, ...]) -> bool:
    """A summary row (``Total | | 6``): its first filled cell is a total word and no cell
    names a job or machine id, so it says nothing about any job."""
    filled = [cell.strip() for cell in cells if cell.strip()]
    if not filled or filled[0].strip("*_ ").lower().rstrip(":") not in _TOTAL_WORDS:
        return False
    return not any(token.kind in (Kind.JOB, Kind.MACHINE, Kind.JOB_RANGE)
                   for cell in filled for token in tokenize(cell))


def _report_unknown_table(table: Table, roles: list[Column | None], reading: Reading) -> None:
    """Report a table that is no routing table as unread when it holds job or machine ids."""
    unknown = [cell for cell, role in zip(table.header, roles, strict=True) if role is None]
    if Column.JOB in roles or any(
        token.kind in (Kind.JOB, Kind.MACHINE)
        for cells, _ in table.rows for cell in cells for token in tokenize(cell)
    ):
        reason = (f"unknown column(s) {', '.join(repr(u) for u in unknown)}" if unknown
                  else "a table without job and machine/route columns")
        reading.unread.append(Unread(quote=table.header_line, reason=reason))


def _read_row(state: _RoutingTable, row_number: int, cells: tuple[str, ...], line: str,
              row_job: str | None) -> str:
    """Read one row of a routing table; its job id.

    Raises:
        _BadCell: the row (or one of its cells) cannot be read.
    """
    roles = state.roles
    if len(cells) != len(roles):
        raise _BadCell(f"{len(cells)} cells under a header of {len(roles)}")
    values = dict(zip(roles, cells, strict=True))
    for role, cell in zip(roles, cells, strict=True):
        if role is Column.INFO and any(t.kind in (Kind.JOB, Kind.MACHINE)
                                       for t in tokenize(cell)):
            raise _BadCell(f"'{cell}' holds an id in an informational column")
        if role is Column.NOTE and cell.strip() and (
                not is_plain_note(cell)
                or any(t.kind is not Kind.WORD for t in tokenize(cell))):
            raise _BadCell(f"the note '{cell.strip()}' may change the row's meaning")
    job_id = _row_job(values, state.per_step, row_job)
    if Column.STATUS in values and _is_done(values[Column.STATUS], state.per_step):
        # an operation already done is not planned; its machine is declared as a machine
        # named in a route is: only when the text lists no machines
        for machine in _machine_cell(values.get(Column.MACHINE, ""), state.names):
            state.reading.machine_names.append((machine, ""))
        state.reading.mention_job(job_id)
        return job_id
    name = values.get(Column.NAME, "").strip()
    if name and any(t.kind not in (Kind.WORD, Kind.COMMA, Kind.OTHER)
                    for t in tokenize(name)):
        raise _BadCell(f"the name '{name}' holds ids or numbers")
    hours_cell = values.get(Column.HOURS, values.get(Column.MINUTES, ""))
    hours = _row_hours(state, values, cells, hours_cell)
    due = _due(values[Column.DUE]) if Column.DUE in values else None
    if state.per_step:
        _step_row(state, values, hours_cell, hours, (job_id, row_number, line))
        if due is not None:
            state.dues_by_job.setdefault(job_id, set()).add(due)
    else:
        _route_row(state, values, cells, hours, (job_id, due, line))
    state.reading.mention_job(job_id)
    if name:
        state.reading.job_names.setdefault(job_id, name)
    return job_id


# the state of an operation in a status column: still to be run, or already done
_TO_DO = frozenset({"open", "released", "queued", "in queue", "planned", "ready", "waiting",
                    "scheduled", "not started", "to do", "todo", "new"})
_DONE = frozenset({"done", "completed", "complete", "finished", "closed"})


def _is_done(cell: str, per_step: bool) -> bool:
    """Whether a status cell says the row's operation is done (so it is not planned).

    Raises:
        _BadCell: any other state than to do / done (on hold, blocked, in progress, ...), or
            a done row that holds a whole route (the job done, yet named in the text).
    """
    status = " ".join(cell.strip().lower().replace("_", " ").split())
    if status in _TO_DO:
        return False
    if status in _DONE and per_step:
        return True
    raise _BadCell(f"the status '{cell.strip()}' leaves open whether the row is planned")


def _row_job(values: dict[Column | None, str], per_step: bool, row_job: str | None) -> str:
    """The one job id of a row (a blank job cell under a step row of a job: that job)."""
    if not values[Column.JOB].strip() and per_step and row_job is not None:
        job = [row_job]  # a blank job cell under a job's step row: the same job
    else:
        job = _ids(values[Column.JOB], Kind.JOB, "job ids")
    if len(job) != 1:
        raise _BadCell(f"'{values[Column.JOB]}' is not one job id")
    return job[0]


def _row_hours(state: _RoutingTable, values: dict[Column | None, str], cells: tuple[str, ...],
               hours_cell: str) -> list[float]:
    """The durations a row gives: its hours/minutes cell, quantity × cycle time, or setup
    plus run time."""
    if state.units.get(Column.HOURS) == CLOCK_UNIT and hours_cell.strip():
        hours = [_hours_and_minutes(hours_cell)]
    else:
        hours = _durations(hours_cell, state.minutes) if hours_cell.strip() else []
    if Column.CYCLE in values:
        if hours_cell.strip() or Column.SETUP in values or Column.RUN in values:
            raise _BadCell("a cycle time beside other durations")
        return [_quantity_times_cycle(state.table.header, state.roles, cells, state.units)]
    if Column.SETUP in values or Column.RUN in values:
        if hours_cell.strip() or Column.RUN not in values:
            raise _BadCell("a setup time without one run time column")
        return [_setup_and_run(values, state.units)]
    return hours


def _machine_cell(cell: str, names: NameIndex | None) -> list[str]:
    """The machine ids of a machine cell, or the one machine whose whole declared name the
    cell is (``Saw`` where the text says ``M1 = Saw``).

    Raises:
        _BadCell: neither ids nor a whole name.
    """
    try:
        return _ids(cell, Kind.MACHINE, "machine ids")
    except _BadCell:
        named = names.full(name_words(cell)) if names is not None and cell.strip() else None
        if named is None:
            raise
        return [named]


def _step_row(state: _RoutingTable, values: dict[Column | None, str], hours_cell: str,
              hours: list[float], where: tuple[str, int, str]) -> None:
    """Gather a step row (one machine, at most one duration) under its job."""
    job_id, row_number, line = where
    machine = _machine_cell(values[Column.MACHINE], state.names)
    decimal = re.fullmatch(r"\s*(\d+),(\d+)\s*", hours_cell)
    if len(hours) == 2 and decimal:  # one step, so "1,5" is a decimal comma
        hours = _durations(f"{decimal.group(1)}.{decimal.group(2)}", state.minutes)
    if len(machine) != 1 or len(hours) > 1:
        raise _BadCell("a step row needs one machine and at most one duration")
    order = row_number
    if Column.STEP in values:
        step_tokens = tokenize(values[Column.STEP])
        label = step_label_number(values[Column.STEP])
        if label is not None:
            order = label
        elif len(step_tokens) != 1 or step_tokens[0].kind is not Kind.NUMBER:
            raise _BadCell(f"'{values[Column.STEP]}' is not a step number")
        else:
            order = int(step_tokens[0].value)
    spec = StepSpec(machine[0], hours[0] if hours else None)
    state.steps_by_job.setdefault(job_id, []).append((order, row_number, spec))
    state.quotes.setdefault(job_id, []).append(line)


def _route_row(state: _RoutingTable, values: dict[Column | None, str], cells: tuple[str, ...],
               hours: list[float], row: tuple[str, float | None, str]) -> None:
    """Read a row that gives a job's whole route (a route cell or step cells)."""
    job_id, due, line = row
    if Column.MACHINE_COLUMN in state.roles:
        steps = _machine_columns(state.table.header, state.roles, cells)
    elif Column.STEP_CELL in state.roles:
        if Column.ROUTE in state.roles or hours:
            raise _BadCell("step cells and a route or hours column")
        steps = _step_cells(list(zip(state.roles, cells, strict=True)), state.table.header,
                            state.names)
    else:
        steps = _route_cell(values[Column.ROUTE], state.route_unit)
        if hours and any(step.hours is not None for step in steps):
            raise _BadCell("durations in both the route and the hours cell")
        if hours and len(hours) != len(steps):
            raise _BadCell(f"{len(hours)} duration(s) for {len(steps)} machine(s)")
        if hours:
            steps = [StepSpec(step.machine, h) for step, h in zip(steps, hours, strict=True)]
    state.reading.routes.append(RouteStatement((job_id,), LEVEL_ONE, steps, line))
    for step in steps:
        state.reading.mention_route_machine(step.machine)
    if due is not None:
        state.reading.dues.append(DueStatement((job_id,), LEVEL_ONE, due, line))


def _commit_step_rows(state: _RoutingTable) -> None:
    """Turn the step rows gathered per job into its route and due time."""
    reading = state.reading
    for job_id, entries in state.steps_by_job.items():
        orders = [order for order, _, _ in entries]
        quote = " / ".join(state.quotes[job_id])
        if len(set(orders)) != len(orders):
            reading.unread.append(Unread(quote=quote, reason=f"{job_id} repeats a step number"))
            continue
        steps = [spec for _, _, spec in sorted(entries, key=lambda e: (e[0], e[1]))]
        reading.routes.append(RouteStatement((job_id,), LEVEL_ONE, steps, quote))
        for step in steps:
            reading.mention_route_machine(step.machine)
        dues = state.dues_by_job.get(job_id, set())
        if len(dues) > 1:
            reading.unread.append(Unread(quote=quote, reason=f"{job_id} has two due times"))
        elif dues:
            reading.dues.append(DueStatement((job_id,), LEVEL_ONE, dues.pop(), quote))
