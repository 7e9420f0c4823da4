"""A job written as one record of fields: a card, a ticket, an issue line.

Boards and trackers write one job a line, its fields apart by a spaced middle dot (``J4 · M7
2h → M8 3h · due 4pm · label: customer``) or a spaced pipe (``[J4] Axle batch | Route: M7 (2h)
-> M8 (1h) | Assignee: K. Lund | Due: 15:30``). :func:`record_line` writes such a line as the
job's clause (``J4: M7 (2h) -> M8 (1h), due 15:30``): the route field gives the route, the due
field the due (an empty one, ``Due: -``, none), fields of bookkeeping in plain words
(assignee, label, a status of work still to do) are dropped, and a title of plain words after
a bracketed id (``[J4] Axle batch``) says nothing more.

With a middle dot any other field is kept for the reader (``due 4pm``, the route itself); with
a pipe, which also separates a table's cells, every field must be a known ``Key: value``, else
the line stays as written. A status of work done, stopped or in doubt is kept, and the reader
refuses it.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import ANY_ID_RE, id_pattern
from repro_assets.factory.reading.phrases import is_plain_note

_DOT_LEAD_RE = re.compile(rf"^(?P<lead>\s*(?:[-*•]\s+)?{id_pattern('J')})\s+·\s+(?P<rest>\S.*)$")
_PIPE_LEAD_RE = re.compile(
    rf"^(?P<indent>\s*(?:[-*•]\s+)?)(?:\[(?P<bracketed>{id_pattern('J')})\]"
    rf"(?P<title>[^|]*?)|(?P<bare>{id_pattern('J')})\s*)\s\|\s(?P<rest>\S.*)$")
# a card's field of bookkeeping in plain words ("label: customer", "assignee: K. Osei")
_INFO_RE = re.compile(r"(?i:labels?|tags?|assignee|owner|reporter)\s*:\s*[A-Za-z][A-Za-z.' ]*")
# a status of work still to do: no more than where the card stands
_OPEN_STATUS_RE = re.compile(
    r"(?i:status|state)\s*:\s*(?i:open|new|to\s*do|todo|in\s+progress|ready|planned|active)")
_FIELD_RE = re.compile(r"^(?P<key>[A-Za-z][A-Za-z ]*?)\s*:\s*(?P<value>.*)$")
_ROUTE_KEYS = frozenset({"route", "routing", "steps"})
_DUE_KEYS = frozenset({"due", "due time", "deadline"})
_EMPTY_RE = re.compile(r"^\s*(?:-+|\u2013|\u2014|n/?a|none)?\s*$", re.IGNORECASE)


def _dropped(field: str) -> bool:
    return bool(_INFO_RE.fullmatch(field) or _OPEN_STATUS_RE.fullmatch(field))


def _dot_record(line: str) -> str | None:
    match = _DOT_LEAD_RE.match(line)
    if match is None or "·" in re.sub(r"\s·\s", "", match.group("rest")):
        return None  # a dot glued to a word is no separator
    fields = [field for field in re.split(r"\s+·\s+", match.group("rest"))
              if not _dropped(field)]
    return f"{match.group('lead')}: {', '.join(fields)}"


def _pipe_record(line: str) -> str | None:
    match = _PIPE_LEAD_RE.match(line)
    if match is None:
        return None
    title = match.group("title") or ""
    named = re.sub(r"(?i)\bbatch(?:es)?\b", " ", title)  # a title names a lot: "Axle batch"
    if title.strip() and (re.search(r"\d|[^\w\s'-]", title) or not is_plain_note(named)):
        return None
    route: list[str] = []
    due: list[str] = []
    for field in (part.strip() for part in re.split(r"\s\|\s", match.group("rest"))):
        parsed = _FIELD_RE.match(field)
        if parsed is None:
            return None
        key, value = parsed.group("key").strip().lower(), parsed.group("value").strip()
        if key in _ROUTE_KEYS and value:
            route.append(value)
        elif key in _DUE_KEYS:
            if not _EMPTY_RE.match(value):
                due.append(f"due {value}")
        elif not _dropped(field) or ANY_ID_RE.search(value):
            return None
    if len(route) != 1:
        return None
    job = match.group("bracketed") or match.group("bare")
    return f"{match.group('indent')}{job}: {', '.join([*route, *due])}"


def record_line(line: str) -> str:
    """A record line written as its job's clause; any other line as it is."""
    for read in (_dot_record, _pipe_record):
        clause = read(line)
        if clause is not None:
            return clause
    return line
