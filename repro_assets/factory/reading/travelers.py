"""A sheet of one job: a block of header fields over its operations, in pipes or in columns.

Job travelers, route cards and scanned work orders say one relation: a header block names the
job (``Job No.: J1``) and may give its due (``Due: 12:00``) among fields of information
(quantity, page, part), and a table under it lists the operations (``Op | Work Ctr |
Description | Hrs``), one a row. The cells may be apart by pipes or by runs of spaces, a rule
may stand between the parts, and a footer may close it (``Inspected by: ____``). Scans add
noise a reader is certain about: a letter O for a zero or an l for a one where only a number
can stand (an operation's number, a page number), spaces around a field's colon or inside a
clock time (``Due : 15 : 00``), specks on a line of their own. :func:`traveler_lines` writes
each sheet as its job's route (``J4: M7 3h, M8 2h, due 12:00``).

Only when every header field is known (the job once, the due at most once, information
without an id or a time of day), the table's columns are an operation number, a machine, the
hours or the minutes and at most a description of plain words, every row has those cells
(numbers rising, a machine id, a bare number or a duration), and nothing but rules, specks or
blank fields to sign (``Date: ___``) follows up to a blank line, the end or the next sheet.
Anything else leaves the sheet as written, for the reader to read or to report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repro_assets.factory.ids import ANY_ID_RE, id_pattern
from repro_assets.factory.reading.columns import Column, column_role
from repro_assets.factory.reading.lexicon import DURATION_UNIT
from repro_assets.factory.reading.phrases import is_plain_note

_FIELD_RE = re.compile(r"^(?P<key>[A-Za-z][A-Za-z .#/]*?)\s*:\s*(?P<value>.*)$")
_JOB_KEYS = frozenset({"job", "job no", "job #", "wo", "wo no", "work order", "order",
                       "order no"})
_DUE_KEYS = frozenset({"due", "due time", "due by"})
_INFO_KEYS = frozenset({"qty", "quantity", "customer", "item", "part", "part no", "page",
                        "date", "description", "material", "drawing", "rev"})
_TITLE_RE = re.compile(r"^[A-Za-z][A-Za-z ]*?(?:\s+Page\s+[\dlIO]+\s+of\s+[\dlIO]+)?$"
                       r"|^Page\s+[\dlIO]+\s+of\s+[\dlIO]+$")
_CLOCK_RE = re.compile(r"^(?P<h>\d{1,2})\s*[:.]\s*(?P<m>\d{2})$")
_TIME_OF_DAY_RE = re.compile(r"\d{1,2}\s*:\s*\d{2}|\d\s*[ap]\.?m\b", re.IGNORECASE)
_RULE_RE = re.compile(r"^[\s|+:~=_-]*[~=_-]{3,}[\s|+:~=_-]*$")
_SPECKS_RE = re.compile(r"^[^A-Za-z0-9]*$")
_BLANK_VALUE_RE = re.compile(r"^[_.\s-]*$")
_NUMBER_RE = re.compile(r"^\d+(?:\.\d+)?$")
_DURATION_RE = re.compile(rf"^\d+(?:\.\d+)?\s*(?:{DURATION_UNIT})$",
                          re.IGNORECASE)
_MACHINE_RE = re.compile(id_pattern("M"))
_ROLES = frozenset({Column.STEP, Column.MACHINE, Column.HOURS, Column.MINUTES, Column.NAME})


def _cells(line: str) -> list[str]:
    """The cells of a line: between pipes, else apart by two spaces or more."""
    parts = line.split("|") if "|" in line else [line]
    return [cell for part in parts for cell in re.split(r"\s{2,}", part.strip()) if cell]


def _number(cell: str) -> int | None:
    """A number where only a number can stand; a scan's O for 0 and l or I for 1 read."""
    if not re.fullmatch(r"[\dOoIl]+", cell) or not re.search(r"\d", cell):
        return None
    return int(cell.translate(str.maketrans("OoIl", "0011")))


@dataclass
class _Header:
    job: str | None = None
    due: str | None = None
    dues: int = 0


def _field_line(line: str, header: _Header) -> bool:
    """Read a line of the header block into ``header``; False when it is none."""
    if _RULE_RE.match(line):
        return True
    cells = _cells(line)
    if not cells:
        return False
    for cell in cells:
        field = _FIELD_RE.match(re.sub(r"\s+\.", ".", cell))
        if field is None:
            if not _TITLE_RE.match(cell) or not is_plain_note(cell):
                return False  # a title of status ("Cancelled") is no title
            continue
        key = re.sub(r"[\s.]+$", "", re.sub(r"\s+", " ", field.group("key").strip().lower()))
        value = field.group("value").strip()
        if key in _JOB_KEYS and re.fullmatch(id_pattern("J"), value):
            if header.job is not None:
                return False
            header.job = value
        elif key in _DUE_KEYS:
            header.dues += 1
            clock = _CLOCK_RE.match(value)
            if clock is not None:
                header.due = f"{clock.group('h')}:{clock.group('m')}"
            elif value:
                return False
        elif key not in _INFO_KEYS or ANY_ID_RE.search(value) or _TIME_OF_DAY_RE.search(value):
            return False
    return True


def _footer_line(line: str) -> bool:
    """A line that closes a sheet: a rule, specks, or fields left blank to sign."""
    if _RULE_RE.match(line) or _SPECKS_RE.match(line):
        return True
    fields = [_FIELD_RE.match(cell) for cell in _cells(line)]
    return all(field is not None and _BLANK_VALUE_RE.match(field.group("value"))
               and field.group("key").strip().lower() not in _DUE_KEYS | _JOB_KEYS
               for field in fields)


def _operation(cells: list[str], roles: list[Column]) -> tuple[int, str] | None:
    """The number and the step (``M1 2h``) of an operation row, or None."""
    number: int | None = None
    machine = duration = None
    for cell, role in zip(cells, roles, strict=True):
        if role is Column.STEP:
            number = _number(cell)
        elif role is Column.MACHINE and _MACHINE_RE.fullmatch(cell):
            machine = cell
        elif role in (Column.HOURS, Column.MINUTES):
            unit = "h" if role is Column.HOURS else " min"
            duration = f"{cell}{unit}" if _NUMBER_RE.match(cell) else (
                cell if _DURATION_RE.match(cell) else None)
        elif role is Column.NAME and (ANY_ID_RE.search(cell) or re.search(r"\d", cell)
                                      or not is_plain_note(cell)):
            return None
    if number is None or machine is None or duration is None:
        return None
    return number, f"{machine} {duration}"


def _sheet(lines: list[str], start: int) -> tuple[str, int] | None:
    """The route line of the sheet whose header block starts at ``start``, and the line
    after the sheet; None when the lines there are no sheet the reader is certain of."""
    header = _Header()
    index = start
    roles: list[Column] = []
    while index < len(lines) and lines[index].strip():
        cells = _cells(lines[index])
        found = [column_role(cell) for cell in cells]
        if header.job and len(cells) >= 3 and all(role in _ROLES for role in found) and {
                Column.STEP, Column.MACHINE} <= set(found) and len(
                {Column.HOURS, Column.MINUTES} & set(found)) == 1:
            roles = [role for role in found if role is not None]
            break
        if not _field_line(lines[index], header):
            return None
        index += 1
    if not roles or header.job is None or header.dues > 1:
        return None
    steps: list[tuple[int, str]] = []
    index += 1
    while index < len(lines) and lines[index].strip() and not _RULE_RE.match(lines[index]):
        cells = _cells(lines[index])
        operation = _operation(cells, roles) if len(cells) == len(roles) else None
        if operation is None:
            break
        steps.append(operation)
        index += 1
    numbers = [number for number, _ in steps]
    if not steps or numbers != sorted(set(numbers)):
        return None
    while index < len(lines) and lines[index].strip() and _footer_line(lines[index]):
        index += 1
    if index < len(lines) and lines[index].strip() and _sheet(lines, index) is None:
        return None  # more about this job, or something else: not certain
    route = f"{header.job}: {', '.join(step for _, step in steps)}"
    if header.due is not None:
        route += f", due {header.due}"
    return route, index


def traveler_lines(lines: list[str]) -> None:
    """Rewrite, in place, each sheet of one job's header fields and operations as the job's
    route on one line."""
    index = 0
    after_sheet = False
    while index < len(lines):
        starts = after_sheet or not index or not lines[index - 1].strip() or _footer_line(
            lines[index - 1])
        found = _sheet(lines, index) if starts and lines[index].strip() else None
        after_sheet = found is not None
        if found is None:
            index += 1
            continue
        route, end = found
        lines[index:end] = [route]
        index += 1
