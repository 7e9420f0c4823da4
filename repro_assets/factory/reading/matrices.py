"""A routing matrix: jobs as rows, one column per machine holding bare numbers, and the words
around it that say what the numbers are and in which order the machines are visited.

The table reader already reads a column per machine in the columns' order, each number in the
unit its header gives. A matrix often gives that unit once, in the line above it (``Routing
matrix (minutes).``, ``Minutes per job and machine (- = not visited)``), with a legend of the
empty cell and a sentence that the columns' order is the flow (``Every job runs through the
machines from left to right``); or it states the flow once, right under it, in another order
(``All jobs go M3 first, then M1, then M2.``). :func:`caption_unit` reads such a caption,
:func:`flow_order` such a flow sentence, and :func:`with_unit_and_order` rewrites the table so
that its header names the unit and its columns stand in the stated order.

A matrix written turned (machines as rows, jobs as columns; ``orientation.py`` turns it) has
its caption in the words of the written sheet: the flow is then the rows' order (``from the top
row down``), never from left to right, and an aside that says what the rows and columns are
(``machine (rows) and job (columns)``) must say it of the sheet as written. A legend may name a
dot as the empty cell (``a dot means the job skips that machine``): such cells are then empty.

Only a caption made entirely of those parts is read (one unit, no other words of meaning); a
flow sentence must name each machine column once and nothing else. Anything else is left as
it is, to be reported by the reader.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from repro_assets.factory.ids import id_pattern
from repro_assets.factory.reading.columns import Column, column_unit, header_machine, header_roles

if TYPE_CHECKING:
    from repro_assets.factory.reading.segments import Table

_UNITS = {"minutes": "minutes", "minute": "minutes", "mins": "minutes", "min": "minutes",
          "hours": "hours", "hour": "hours", "hrs": "hours", "h": "hours"}
_UNIT_SUFFIX = {"minutes": "min", "hours": "h"}
# the words a caption of units may hold besides its one unit
_CAPTION_WORDS = frozenset({
    "routing", "route", "process", "matrix", "table", "grid", "times", "time", "durations",
    "duration", "in", "per", "job", "jobs", "and", "machine", "machines", "by", "x", "of",
    "run", "all", "values", "cells", "are", "the", "load", "sheet",
})
_DOT_RE = r"(?:an?\s+)?(?:dot|\.|full\s+stop|period)"
_EMPTY_LEGEND_RE = re.compile(
    rf"(?i)^(?:(?:(?P<dot>{_DOT_RE})|-|–|—|(?:an?\s+)?empty\s+cell|empty|blank)\s*(?:=|means?|:)\s*"
    r"(?:(?:that\s+)?the\s+job\s+)?(?:(?:is\s+)?not\s+visited|skips\s+(?:that|the|this)\s+"
    r"machine|no\s+step|not\s+used))$")
_ORDER_LEAD = (r"(?i)^(?:every|each|all)\s+jobs?\s+(?:runs?|goes?|go|pass(?:es)?|moves?|visits?)"
               r"\s+(?:(?:through\s+)?the\s+machines\s+)?")
_COLUMN_ORDER_RE = re.compile(
    _ORDER_LEAD + r"(?:from\s+left\s+to\s+right|in\s+(?:the\s+)?(?:columns'?|column)\s+order)$")
# the flow of a sheet written turned: its rows' order
_ROW_ORDER_RE = re.compile(
    _ORDER_LEAD + r"(?:from\s+(?:the\s+)?top(?:\s+row)?\s+down|from\s+top\s+to\s+bottom"
    r"|in\s+(?:the\s+)?(?:rows'?|row)\s+order)$")
# "machine (rows)", "jobs (columns)": what the sheet's rows and columns are
_AXIS_RE = re.compile(r"(?i)\b(?P<thing>jobs?|machines?)\s*\((?P<axis>rows?|columns?)\)")
_MACHINE = id_pattern("M")
_FLOW_RE = re.compile(
    rf"(?i:(?:every|each|all)\s+jobs?\s+(?:runs?\s+on|goes?\s+to|go\s+to|goes?|go|visits?|"
    rf"runs?|pass(?:es)?\s+through)\s+)(?P<first>{_MACHINE})\s+(?i:first)"
    rf"(?P<rest>(?:\s*,?\s*(?i:(?:and\s+)?(?:then|finally|last(?:ly)?))\s+{_MACHINE})+)"
    r"\s*\.?")


def _pieces(caption: str) -> list[str]:
    """The parts of a caption: its sentences and clauses, and its asides in parentheses."""
    asides = [part for aside in re.findall(r"\(([^()]*)\)", caption)
              for part in aside.split(";")]
    outside = re.sub(r"\([^()]*\)", " ", caption)
    parts = [*re.split(r"[.;]\s+|[.;]$|\s[-–—]\s", outside), *asides]
    return [re.sub(r"\s+", " ", part).strip(" .:,") for part in parts if part.strip(" .:,")]


def _axes_agree(caption: str, turned: bool) -> bool:
    """Whether every ``machine (rows)`` / ``job (columns)`` of a caption says what the sheet
    as written has: machines as rows when it was turned, jobs as rows otherwise."""
    for match in _AXIS_RE.finditer(caption):
        machine = match.group("thing").lower().startswith("machine")
        rows = match.group("axis").lower().startswith("row")
        if machine != (rows == turned):
            return False
    return True


def caption_unit(caption: str, turned: bool = False) -> str | None:
    """The unit (``minutes`` or ``hours``) a matrix caption gives its numbers, or None when the
    caption is not only a unit, a legend of the empty cell and the flow's order.

    Args:
        caption: the caption's words.
        turned: the matrix was written with machines as rows (its flow is the rows' order).
    """
    if not _axes_agree(caption, turned):
        return None
    caption = _AXIS_RE.sub(lambda m: m.group("thing"), caption)
    units: set[str] = set()
    order_re = _ROW_ORDER_RE if turned else _COLUMN_ORDER_RE
    for piece in _pieces(caption):
        if _EMPTY_LEGEND_RE.match(piece) or order_re.match(piece):
            continue
        words = re.findall(r"[a-z]+", piece.lower())
        if re.search(r"[^A-Za-z\s]", piece) or not words:
            return None
        said = {_UNITS[word] for word in words if word in _UNITS}
        if any(word not in _UNITS and word not in _CAPTION_WORDS for word in words):
            return None
        units |= said
    return units.pop() if len(units) == 1 else None


# "hours in parentheses", "(minutes in brackets)": the unit of a route's bare bracketed numbers
_BRACKETED_UNIT_RE = re.compile(
    r"(?i)^(?:(?:all\s+)?(?:times|durations|numbers)\s+(?:are\s+)?(?:in\s+)?)?(?P<unit>hours|"
    r"hrs|h|minutes|mins|min)\s+(?:are\s+)?(?:given\s+)?in\s+(?:parentheses|brackets)$")
# "-- means no due", "- = no due date": a legend of the empty due cell
_NO_DUE_LEGEND_RE = re.compile(
    r"(?i)^(?:-{1,3}|–|—|(?:an?\s+)?(?:empty\s+cell|dash))\s*(?:=|means?|:)\s*(?:there\s+is\s+)?"
    r"no\s+(?:due(?:\s+(?:date|time))?|deadline)$")
# the words a table's title may hold: what the table is, never a day, a job or a condition
_TITLE_WORDS = frozenset({
    "routes", "route", "routing", "routings", "for", "the", "plan", "plan's", "day", "today",
    "today's", "jobs", "job", "table", "of", "and", "steps", "operations", "work", "orders",
})


def bracketed_unit(caption: str) -> str | None:
    """The unit a table's caption gives the bare numbers in parentheses of its route cells
    (``Routes for the plan day (hours in parentheses; -- means no due)``), or None unless
    the caption is only a title of plain words, that unit and a legend of the empty due."""
    units: set[str] = set()
    for piece in _pieces(caption):
        bracketed = _BRACKETED_UNIT_RE.match(piece)
        if bracketed is not None:
            units.add(_UNITS[bracketed.group("unit").lower()])
        elif not _NO_DUE_LEGEND_RE.match(piece) and not set(
                re.findall(r"\S+", piece.lower())) <= _TITLE_WORDS:
            return None
    return units.pop() if len(units) == 1 else None


def empty_mark(caption: str) -> str | None:
    """``.`` when a caption's legend names a dot as the empty cell, else None."""
    for piece in _pieces(caption):
        match = _EMPTY_LEGEND_RE.match(piece)
        if match is not None and match.group("dot"):
            return "."
    return None


def flow_order(sentence: str) -> list[str] | None:
    """The machines of a flow sentence for every job (``All jobs go M3 first, then M1, then
    M2.``) in its order, or None when the sentence is not only that."""
    match = _FLOW_RE.fullmatch(sentence.strip())
    if match is None:
        return None
    return [match.group("first"), *re.findall(_MACHINE, match.group("rest"))]


def is_matrix(table: Table) -> bool:
    """Whether a table is a matrix of jobs and machine columns whose headers give no unit."""
    roles = header_roles(list(table.header))
    machines = [cell for cell, role in zip(table.header, roles, strict=True)
                if role is Column.MACHINE_COLUMN]
    return (Column.JOB in roles and len(machines) >= 2
            and all(column_unit(re.sub(r"[()]", " ", cell)) is None for cell in machines))


def with_unit_and_order(table: Table, unit: str | None, order: list[str] | None,
                        empty: str | None = None) -> Table | None:
    """The matrix with ``unit`` in its machine headers and its machine columns in ``order``
    (each machine column once, the other columns first as they were), a machine cell that is
    the legend's ``empty`` mark made empty, or None when the order does not name exactly its
    machine columns."""
    roles = header_roles(list(table.header))
    machine_at = {header_machine(cell): index
                  for index, (cell, role) in enumerate(zip(table.header, roles, strict=True))
                  if role is Column.MACHINE_COLUMN}
    if order is not None and (len(order) != len(set(order)) or set(order) != set(machine_at)):
        return None
    others = [index for index, role in enumerate(roles) if role is not Column.MACHINE_COLUMN]
    columns = others + ([machine_at[m] for m in order] if order is not None
                        else sorted(machine_at.values()))
    suffix = f" ({_UNIT_SUFFIX[unit]})" if unit is not None else ""
    header = tuple(table.header[i] + (suffix if roles[i] is Column.MACHINE_COLUMN else "")
                   for i in columns)
    rows = tuple((tuple("" if empty is not None and cells[i].strip() == empty
                        and roles[i] is Column.MACHINE_COLUMN else cells[i] for i in columns)
                  if len(cells) == len(roles) else cells, line)
                 for cells, line in table.rows)  # a row of another width is reported as it is
    return dataclasses.replace(table, header=header, rows=rows)
