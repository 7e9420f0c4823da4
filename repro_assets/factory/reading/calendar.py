"""A maintenance calendar pasted above the plan: machine blocks on other days than the plan's.

A maintenance planner's week is a list of slots, one a line: ``Mon 08:00-10:00  M2 blocked
(oil change)``. A configuration is one plan day, so a block on another weekday than the plan's
says nothing about it and its line is dropped (not a slot that runs past midnight into the
next day, ``Wed 22:00-06:00``). The plan's weekday must be certain: exactly one line that
names a plan and one weekday (``Plan for Thursday``, ``Production plan (Thu)``), without ids
and without a word of upkeep (``Maintenance plan for Monday`` is the calendar's). A block on
the plan's own day, or any block when the plan names no weekday, is left as written: the
reader does not read it, and the run fails quoting it.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import ANY_ID_RE, id_pattern
from repro_assets.factory.reading.definitions import WEEKDAY

_CLOCK = r"\d{1,2}[:.]\d{2}"


def _minutes(clock: str) -> int | None:
    """The minute of the day of a clock time; None when it is no time (``07:75``)."""
    hour, minute = (int(part) for part in re.split(r"[:.]", clock))
    if minute >= 60 or hour > 24:
        return None
    return hour * 60 + minute

_BLOCK_RE = re.compile(
    rf"(?i)^\s*(?P<day>{WEEKDAY})\.?,?\s+(?P<start>{_CLOCK})\s*[-\u2013]\s*(?P<end>{_CLOCK})\s+"
    rf"{id_pattern('M')}\s+"
    r"(?:blocked|down|maintenance|service|pm|closed|unavailable|off)\b"
    r"(?:\s*\([^()]*\))?\s*$")
_PLAN_RE = re.compile(r"(?i)\bplan\b")
_UPKEEP_RE = re.compile(r"(?i)\b(?:maintenance|service|servicing|calendar|repair|pm)\b")
_DAY_RE = re.compile(rf"(?i)\b{WEEKDAY}\b")


def _day(word: str) -> str:
    return word.lower()[:3]


def _plan_day(lines: list[str]) -> str | None:
    """The weekday of the one plan heading (a line with ``plan``, one weekday, no ids)."""
    days = set()
    for line in lines:
        if _PLAN_RE.search(line) and not ANY_ID_RE.search(line) and not _BLOCK_RE.match(line) \
                and not _UPKEEP_RE.search(line):  # "Maintenance plan for Monday": not the day
            found = {_day(word) for word in _DAY_RE.findall(line)}
            if len(found) == 1:
                days |= found
            elif found:
                return None
    return days.pop() if len(days) == 1 else None


def drop_other_days(lines: list[str]) -> None:
    """Blank (in place) every calendar block line of another weekday than the plan's."""
    blocks = [(index, match) for index, line in enumerate(lines)
              if (match := _BLOCK_RE.match(line)) is not None]
    if not blocks:
        return
    plan = _plan_day(lines)
    if plan is None:
        return
    for index, match in blocks:
        start, end = _minutes(match.group("start")), _minutes(match.group("end"))
        same_day = start is not None and end is not None and start < end
        if _day(match.group("day")) != plan and same_day:
            lines[index] = ""
