"""Numbered items whose numbers run against their lines' order.

A writer who numbers a job's steps (``1. M1 2h``) and writes them out of order (``2. M2 1h``
over ``1. M1 2h``) says two orders at once: the numbers' and the lines'. Reading either would
guess, so such a run of numbered lines is not read: the first line whose number is not above
the one before it is reported. A run is a block of numbered lines of the same indent with
nothing between them; a heading or a blank line starts a new one (``J2:`` over ``1. M3 1h``).

A text that says its steps are written against the order they run in (``in reverse order``,
``last step first``, ``traced back from the dock``, ``bottom to top``) is refused too: the
reader reads every route forward, unless the backward pass (``backward.py``) reads every line
under such a heading as a chain told from its end, and takes the heading out.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import MACHINE_ID_RE
from repro_assets.factory.reading.backward import honoured_headings
from repro_assets.factory.reading.statements import Unread

_NUMBERED_RE = re.compile(r"^(?P<indent>\s*)(?P<number>\d{1,3})[.)]\s+\S")
_STEP = r"(?:steps?|operations?|ops?|machines?|stations?|stages?)"
_REVERSED_RE = re.compile(
    rf"(?i)\b(?:in\s+(?:the\s+)?reversed?\s+order|reversed?\s+(?:route|routing|sequence|order)"
    rf"|last\s+{_STEP}\s+first|from\s+the\s+last\s+{_STEP}|(?:traced|tracing|trace|read|listed|"
    rf"written|given|counted)\s+back(?:wards?)?\b|backwards?\s+(?:order|from)"
    rf"|bottom[\s-]+(?:up|to[\s-]+top)|right\s+to\s+left|end\s+to\s+(?:start|beginning))")


def reversed_order(text: str) -> list[Unread]:
    """The first line that says the steps are written against the order they run in.

    Args:
        text: the description.

    Returns:
        One :class:`Unread` quoting that line, or nothing.
    """
    lines = text.splitlines()
    honoured = honoured_headings(lines)  # read by the backward pass, which takes them out
    for index, line in enumerate(lines):
        if index not in honoured and _REVERSED_RE.search(line):
            return [Unread(line.strip(), "it says the steps are written in reverse order; "
                                         "the reader reads every route forward")]
    return []


def numbers_out_of_order(text: str) -> list[Unread]:
    """The first numbered line of a step whose number is not above the one before it.

    Args:
        text: the description.

    Returns:
        One :class:`Unread` quoting that line, or nothing.
    """
    previous: tuple[str, int] | None = None  # the indent and number of the line above
    for line in text.splitlines():
        match = _NUMBERED_RE.match(line)
        if match is None:
            previous = None
            continue
        indent, number = match.group("indent"), int(match.group("number"))
        if previous is not None and previous[0] == indent and number <= previous[1] and (
                MACHINE_ID_RE.search(line)):
            return [Unread(line.strip(), "the items are numbered out of their lines' order; "
                                         "the numbers and the lines give two orders")]
        previous = (indent, number)
    return []
