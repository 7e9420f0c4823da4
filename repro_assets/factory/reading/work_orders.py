"""An ERP work-order printout: a header block of fields over one job's operation lines.

A work order names its job in a field of its header block (``WO no.: J40``), may give the
due (``Due: 15:00``) and otherwise only says things about the order (customer, item,
quantity, release date, page); below it, a table without a job column lists the operations,
one a line (``0010  M11  cut  2.0 h``: a number, the machine, words for the work, the time),
and a ``Total`` line under a rule may sum them up. The block, the table and the total are
rewritten as the job's operations (``J40 op10 M11 2.0 h``) and its due (``J40 due 15:00``).

Only when every field of the block is known (the job, the due, or a field of information
without an id or a time of day), the block names exactly one job, every operation line has
exactly that shape, and the total, if any, is the sum of the lines; anything else leaves the
whole printout as written, for the reader to read or to report.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import ANY_ID_RE, id_pattern
from repro_assets.factory.reading.columns import Column, column_role
from repro_assets.factory.reading.lexicon import DURATION_UNIT
from repro_assets.factory.reading.phrases import is_plain_note

_FIELD_SPLIT_RE = re.compile(r"\s{2,}")
_FIELD_RE = re.compile(r"^(?P<key>[A-Za-z][A-Za-z .#/]*?)\s*:\s*(?P<value>.+)$")
_JOB_KEYS = frozenset({"wo", "wo no", "wo no.", "wo #", "work order", "order", "order no",
                       "order no.", "job", "job no", "job no."})
_DUE_KEYS = frozenset({"due", "due time", "due by"})
_INFO_KEYS = frozenset({"customer", "item", "part", "part no", "part no.", "qty", "quantity",
                        "released", "release date", "date", "page", "description", "material",
                        "drawing", "rev", "created", "printed", "buyer", "user"})
_TITLE_RE = re.compile(r"^[A-Za-z][A-Za-z ]*(?:\s+Page\s+\d+/\d+)?$|^Page\s+\d+/\d+$")
_CLOCK_RE = re.compile(r"^(?P<h>\d{1,2})[:.](?P<m>\d{2})$")
_TIME_OF_DAY_RE = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s*[ap]\.?m\b", re.IGNORECASE)
_DURATION = rf"(?P<amount>\d+(?:\.\d+)?)\s*(?P<unit>{DURATION_UNIT})"
_OPERATION_RE = re.compile(
    rf"^\s*(?P<number>\d{{1,4}})\s{{2,}}(?P<machine>{id_pattern('M')})\s{{2,}}"
    rf"(?P<work>[A-Za-z][A-Za-z -]*?)\s{{2,}}{_DURATION}\s*$")
_RULE_RE = re.compile(r"^\s*[-=_]{3,}\s*$")
_TOTAL_RE = re.compile(rf"^\s*total\b[A-Za-z .]*?\s{{2,}}{_DURATION}\s*$", re.IGNORECASE)


def _hours(amount: str, unit: str) -> float:
    return float(amount) / (60 if unit.lower().startswith("m") else 1)


def _header_block(lines: list[str]) -> tuple[str, str | None] | None:
    """The job and the due (as written) of a work order's header block; None when a field
    is unknown, carries what it may not, or the block does not name exactly one job."""
    jobs: list[str] = []
    due: str | None = None
    for line in lines:
        for field in _FIELD_SPLIT_RE.split(line.strip()):
            match = _FIELD_RE.match(field)
            if match is None:
                if not _TITLE_RE.match(field) or not is_plain_note(field):
                    return None  # a title of status ("ON HOLD") is no title
                continue
            key = match.group("key").strip().lower()
            value = match.group("value").strip()
            if key in _JOB_KEYS and re.fullmatch(id_pattern("J"), value):
                jobs.append(value)
            elif key in _DUE_KEYS and _CLOCK_RE.match(value) and due is None:
                due = value
            elif key not in _INFO_KEYS or ANY_ID_RE.search(value) or _TIME_OF_DAY_RE.search(
                    value):
                return None
    return (jobs[0], due) if len(jobs) == 1 else None


def _operations(lines: list[str], header: int) -> tuple[list[tuple[int, str, str]], int] | None:
    """The operations (number, machine, duration as written) under the table header at line
    ``header``, and the line after the printout (its total checked and included)."""
    cells = _FIELD_SPLIT_RE.split(lines[header].strip())
    roles = [column_role(cell) for cell in cells]
    if Column.MACHINE not in roles or Column.HOURS not in roles or len(cells) != 4:
        return None
    found: list[tuple[int, str, str]] = []
    end = header + 1
    while end < len(lines) and (match := _OPERATION_RE.match(lines[end])) is not None:
        if not is_plain_note(match.group("work")):
            return None  # "cut if needed": more than the work
        duration = f"{match.group('amount')} {match.group('unit')}"
        found.append((int(match.group("number")), match.group("machine"), duration))
        end += 1
    if not found:
        return None
    if end < len(lines) and _RULE_RE.match(lines[end]):
        total = _TOTAL_RE.match(lines[end + 1]) if end + 1 < len(lines) else None
        if total is None:
            return None
        stated = _hours(total.group("amount"), total.group("unit"))
        summed = sum(_hours(*duration.split(" ")) for _, _, duration in found)
        if abs(stated - summed) > 1e-9:
            return None  # a total that disagrees with its lines: left for the reader
        end += 2
    return found, end


def work_order_lines(lines: list[str]) -> None:
    """Rewrite, in place, each work-order printout as its job's operations and due."""
    index = 0
    while index < len(lines):
        if not lines[index].strip() or (index and lines[index - 1].strip()):
            index += 1
            continue
        block_end = index
        while block_end < len(lines) and lines[block_end].strip():
            block_end += 1
        header = block_end + 1
        block = _header_block(lines[index:block_end])
        table = _operations(lines, header) if block and header < len(lines) else None
        if block is None or table is None:
            index = block_end
            continue
        (job, due), (found, end) = block, table
        rewritten = [f"{job} op{number} {machine} {duration}" for number, machine, duration
                     in found]
        if due is not None:
            rewritten.append(f"{job} due {due}")
        lines[index:end] = rewritten
        index += len(rewritten)
