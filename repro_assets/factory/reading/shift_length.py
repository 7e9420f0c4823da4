"""Durations counted in shifts, where the text says how long a shift is.

``2 shifts`` or ``half a shift`` is no number of hours by itself; it becomes one where the
same text states the length of a shift on a line of its own (``Shifts are 8 h long.``,
``A shift is 8 hours``, ``One shift = 7.5 h``). Then that line is dropped (it says nothing
about a job) and every count of shifts is written as its hours (``for 2 shifts`` is ``for
16h``). A text that states two lengths, or none, keeps its shifts as written, and the reader
refuses them.
"""

from __future__ import annotations

import re

_HOURS = r"(?P<hours>\d+(?:[.,]\d+)?)\s*(?:h|hrs?|hours?)"
_LENGTH_RE = re.compile(
    rf"(?i)^\s*(?:our\s+|the\s+|all\s+|a\s+|one\s+|each\s+)?shifts?\s+"
    rf"(?:are|is|last|lasts|=|:)\s+{_HOURS}(?:\s+long)?\s*\.?\s*$")
_COUNT = {"one": 1.0, "two": 2.0, "three": 3.0, "four": 4.0}
_COUNT_RE = re.compile(
    r"(?i)\b(?:(?P<half>half\s+a)|(?P<n>\d+(?:\.\d+)?|one|two|three|four)(?P<and_half>\s+and\s+a"
    r"\s+half)?|(?<=for\s)(?P<a>a))\s+shifts?\b")


def _length(lines: list[str]) -> tuple[float, int] | None:
    """The one shift length the text states and the line that states it; None otherwise."""
    found = [(index, match) for index, line in enumerate(lines)
             if (match := _LENGTH_RE.match(line)) is not None]
    hours = {float(match.group("hours").replace(",", ".")) for _, match in found}
    if len(hours) != 1 or len(found) != 1:
        return None
    return hours.pop(), found[0][0]


def _shifts(match: re.Match[str]) -> float:
    """How many shifts a count says (``half a``: 0.5, ``2``: 2, ``one and a half``: 1.5)."""
    if match.group("half"):
        return 0.5
    if match.group("a"):
        return 1.0
    number = match.group("n").lower()
    count = _COUNT.get(number) or float(number)
    return count + (0.5 if match.group("and_half") else 0.0)


def spell_out_shifts(lines: list[str]) -> None:
    """Write every count of shifts in ``lines`` as hours when the text states one shift
    length on a line of its own (that line is emptied); ``lines`` change in place."""
    stated = _length(lines)
    if stated is None:
        return
    hours, where = stated
    lines[where] = ""
    for index, line in enumerate(lines):
        lines[index] = _COUNT_RE.sub(lambda m: f"{_shifts(m) * hours:g}h", line)
