"""Plan boards and bar charts drawn in text, read as the time slots they draw.

Two drawings a planner pastes, each under a legend line that says what one mark is:

* a plan board: a header row of clock hours apart by the same step (``| 06 | 07 | 08 |``)
  and one row per machine whose cells are empty or hold one job id (``M51 | J51 | J51 |
  J52 |``); a job's run of cells on a machine is one slot, as long as its cells;
* a bar chart: one line per job and machine with a bar of ``#`` marks (``J54 M55 ######``),
  each mark as long as the legend says (``# = 30 min``), starting where the bar starts.

Each slot is written as a slot line (``06:00-08:00 J51 @ M51``), which
:mod:`repro_assets.factory.reading.slots` then reads (the steps of a job in the order of their
start times; no job on two machines at once), and the legend line is dropped. A legend that
disagrees with its drawing (another cell length, another start hour), a legend with any other
number, a cell with anything but one job id, or a bar line with anything else leaves the whole
drawing as written, for the reader to report.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import id_pattern
from repro_assets.factory.reading.lexicon import DURATION_UNIT

_UNIT = rf"(?P<unit>{DURATION_UNIT})"
_CELL_SIZE_RE = re.compile(rf"(?i)\b(?:cell|column|box|square)\s*=\s*(?P<size>\d+|one|an?)\s*"
                           rf"{_UNIT}\b")
_MARK_SIZE_RE = re.compile(rf"(?i)#\s*=\s*(?P<size>\d+|one|an?)\s*{_UNIT}\b")
_FROM_RE = re.compile(r"(?i)\b(?:from|start(?:s|ing)?(?:\s+at)?)\s+"
                      r"(?P<h>\d{1,2})[:.](?P<m>\d{2})\b")
_HOUR_CELL_RE = re.compile(r"^(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?$")
_JOB_CELL_RE = re.compile(rf"^{id_pattern('J')}$")
_MACHINE_CELL_RE = re.compile(rf"^{id_pattern('M')}$")
_BAR_RE = re.compile(rf"^(?P<job>{id_pattern('J')}) +(?P<machine>{id_pattern('M')}) +"
                     r"(?P<bar>#+) *$")
_WORDS = {"one": 1, "a": 1, "an": 1}


def _minutes(size: str, unit: str) -> int:
    """A legend's length of one mark in minutes."""
    amount = _WORDS.get(size.lower()) or int(size)
    return amount * (1 if unit.lower().startswith("m") else 60)


def _clock(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _legend(line: str, size_re: re.Pattern[str]) -> tuple[int, int | None] | None:
    """The mark length (minutes) and the start (minute of the day, if said) of a legend line
    that says nothing else: no id, and no number but the mark's and the start's."""
    size = size_re.search(line)
    if size is None or re.search(id_pattern(), line):
        return None
    start = _FROM_RE.search(line)
    rest = size_re.sub(" ", line)
    rest = _FROM_RE.sub(" ", rest)
    if re.search(r"\d", rest):
        return None
    begin = int(start.group("h")) * 60 + int(start.group("m")) if start else None
    return _minutes(size.group("size"), size.group("unit")), begin


def _cells(line: str) -> list[str] | None:
    """The cells of a pipe row (a leading cell before the first pipe included)."""
    if "|" not in line:
        return None
    body = line.rstrip()
    body = body[:-1] if body.endswith("|") else body
    stripped = body.lstrip()
    body = stripped[1:] if stripped.startswith("|") else body
    return [cell.strip() for cell in body.split("|")]


def _board(lines: list[str], at: int) -> tuple[list[str], int] | None:
    """The slot lines of a plan board whose legend is line ``at``, and where it ends."""
    legend = _legend(lines[at], _CELL_SIZE_RE)
    if legend is None or at + 2 >= len(lines):
        return None
    header = _cells(lines[at + 1])
    if header is not None and header[0] and _HOUR_CELL_RE.match(header[0]):
        header = ["", *header]  # "      | 06 | 07 |": the corner cell left blank
    if header is None or header[0] or len(header) < 3:
        return None
    hours = [_HOUR_CELL_RE.match(cell) for cell in header[1:]]
    if any(match is None for match in hours):
        return None
    starts = [int(m.group("h")) * 60 + int(m.group("m") or 0) for m in hours if m]
    step = starts[1] - starts[0]
    if step != legend[0] or any(b - a != step for a, b in zip(starts, starts[1:], strict=False)):
        return None
    if legend[1] is not None and legend[1] != starts[0]:
        return None
    slots: list[str] = []
    end = at + 2
    while end < len(lines) and (row := _cells(lines[end])) is not None:
        if len(row) != len(header) or not _MACHINE_CELL_RE.match(row[0]) or any(
                cell and not _JOB_CELL_RE.match(cell) for cell in row[1:]):
            return None
        runs: list[tuple[str, int, int]] = []
        for position, cell in enumerate(row[1:]):
            if cell and runs and runs[-1][0] == cell and runs[-1][2] == position:
                runs[-1] = (cell, runs[-1][1], position + 1)
            elif cell:
                runs.append((cell, position, position + 1))
        slots += [f"{_clock(starts[0] + a * step)}-{_clock(starts[0] + b * step)} {job} @ {row[0]}"
                  for job, a, b in runs]
        end += 1
    return (slots, end) if end > at + 2 else None


def _bars(lines: list[str], at: int) -> tuple[list[str], int] | None:
    """The slot lines of a bar chart whose legend is line ``at``, and where it ends."""
    legend = _legend(lines[at], _MARK_SIZE_RE)
    if legend is None:
        return None
    size, begin = legend
    bars: list[tuple[str, str, int, int]] = []
    end = at + 1
    while end < len(lines) and (bar := _BAR_RE.match(lines[end])) is not None:
        bars.append((bar.group("job"), bar.group("machine"), bar.start("bar"), len(bar["bar"])))
        end += 1
    if not bars:
        return None
    origin = min(column for _, _, column, _ in bars)
    base = begin if begin is not None else 0
    slots = [f"{_clock(base + (column - origin) * size)}-"
             f"{_clock(base + (column - origin + length) * size)} {job} @ {machine}"
             for job, machine, column, length in bars]
    return slots, end


def chart_lines(lines: list[str]) -> None:
    """Rewrite, in place, each plan board or bar chart under its legend as slot lines."""
    index = 0
    while index < len(lines):
        if "\t" in lines[index]:
            index += 1
            continue
        found = _board(lines, index) or _bars(lines, index)
        if found is None:
            index += 1
            continue
        slots, end = found
        if any("\t" in line for line in lines[index:end]):
            index += 1
            continue
        lines[index:end] = slots
        index += len(slots)
