"""Parallel lists: a list of machines and a list of durations that pair up in order.

Writers often give a route as two lists, machines in one place and their times in another, and
say that they pair up: in a sentence with ``respectively`` (``routing M4, M2, M6 with
processing times of 2, 1 and 3 hours respectively``, ``on M4 and M2 for 30 and 45 minutes
respectively``), or as the fields of a label, one a line (``ROUTE : M4 > M2`` over ``HOURS :
2, 1 (in route order)`` under ``JOB : J7``), as a TOML file does with two arrays. Both are
written here as the route the reader reads (``M4 2h, M2 1h, M6 3h``); the fields of a label
become the job's line through the interpreter of ``structured.py``, so a label is read as the
same record as a JSON or XML job.

Only lists understood entirely are paired: as many durations as machines, the words between
them from a small grammar (``with``, ``for``, ``processing times of``), one unit after the
numbers; a label's fields all known (job, route, hours or minutes, due), its job one id, a note
on its times only that they are in the route's order. Anything else is left as written, and
the reader reports it.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import id_pattern
from repro_assets.factory.reading.structured import label_line

_MACHINE = id_pattern("M")
_NUMBER = r"\d+(?:\.\d+)?"
_AND = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
_RESPECTIVELY_RE = re.compile(
    rf"(?P<machines>{_MACHINE}(?:{_AND}{_MACHINE})+)"
    r"(?:\s*,)?\s+(?i:(?:with|taking|takes|take|needing|needs|for|in)\s+)?"
    r"(?i:(?:the\s+)?(?:(?:processing|process|run|running|operation|machining)\s+)?"
    r"(?:times?|durations?)\s+(?:of\s+)?)?"
    rf"(?P<numbers>{_NUMBER}(?:{_AND}{_NUMBER})+)\s*"
    r"(?P<unit>(?i:hours?|hrs?|h|minutes?|mins?|min))\s+(?i:respectively)\b")
_UNIT_SUFFIX = {"h": "h", "m": " min"}
_JOB_RE = re.compile(id_pattern("J"))


def _sentence_of(line: str, match: re.Match[str]) -> str:
    """The sentence of ``line`` that holds ``match``."""
    start = max(line.rfind(". ", 0, match.start()), line.rfind("; ", 0, match.start())) + 1
    ends = [at for at in (line.find(". ", match.end()), line.find("; ", match.end())) if at >= 0]
    return line[start:min(ends) if ends else len(line)]


def respectively_sentence(line: str) -> str:
    """``line`` with each ``<machines> ... <durations> <unit> respectively`` written as the
    route ``M4 2h, M2 1h``; the line itself when the lists do not pair up.

    Args:
        line: one line of the description.

    Returns:
        The rewritten line.
    """
    def pair(match: re.Match[str]) -> str:
        machines = re.findall(_MACHINE, match.group("machines"))
        numbers = re.findall(_NUMBER, match.group("numbers"))
        if len(machines) != len(numbers) or len(_JOB_RE.findall(_sentence_of(line, match))) > 1:
            return match.group(0)  # with two jobs, the lists may pair with the jobs
        suffix = _UNIT_SUFFIX[match.group("unit")[0].lower()]
        return ", ".join(f"{machine} {number}{suffix}"
                         for machine, number in zip(machines, numbers, strict=True))
    return _RESPECTIVELY_RE.sub(pair, line)


# "ROUTE  : M4 > M2", "due= 13:00": one field of a label a line
_FIELD_RE = re.compile(r"^\s*(?P<key>[A-Za-z][A-Za-z _-]{0,30}?)\s*[:=]\s*(?P<value>\S.*?)\s*$")
# the field a label starts with: its job ("JOB : J7", "order no = J7")
_JOB_FIELD_RE = re.compile(rf"(?i)^\s*(?:job|order|work\s*order)(?:\s*(?:no\.?|id|number))?\s*"
                           rf"[:=]\s*{id_pattern('J')}\s*$")


def label_lines(lines: list[str]) -> None:
    """Rewrite, in place, every run of field lines that is one job's label (a job field, then
    up to the next job field: a route and its times, a due) as that job's line (``J7: M4 3h,
    M6 30 min, due 10:00.``)."""
    index = 0
    while index < len(lines):
        if not _JOB_FIELD_RE.match(lines[index]):
            index += 1
            continue
        end = index + 1  # a label runs to the next job field or the first line of no field
        while end < len(lines) and _FIELD_RE.match(lines[end]) and not _JOB_FIELD_RE.match(
                lines[end]):
            end += 1
        fields = [(match.group("key"), match.group("value")) for match in (
            _FIELD_RE.match(line) for line in lines[index:end]) if match is not None]
        line = label_line(fields) if len(fields) >= 2 else None
        if line is not None:
            lines[index:end] = [line]
        index += 1
