"""A machine's own list of jobs on one line: ``M61 does J61 (2h) then J63 (1h)``,
``M63 (16 h free): J64 2h, J65 1h``.

A capacity sheet or a machine-by-machine plan names the machine first and then the jobs it
works on, each with its time there. Each job in such a line has a step of that duration on
that machine; the line is rewritten as one sentence per job (``J61 needs 2h on M61.``), which
the clause reader reads like any step stated duration first: the job's route where nothing
else gives it one, the duration of that step where the text gives every job a route through
the machine (``Flow: every job goes M63 first, then M64``). A job on two machines' lists with
nothing that orders them has two routes, which the reader refuses.

Only a line that is nothing else is rewritten: the machine id, at most an aside that states its
free hours (``(16 h free)``; any other aside could say the machine is down), a colon or a verb
(``does``, ``runs``), and jobs with a duration each, apart by commas, ``then`` or arrows.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import id_pattern
from repro_assets.factory.reading.lexicon import DURATION_UNIT

_DURATION = rf"\d+(?:[.,]\d+)?\s*(?:{DURATION_UNIT})"
_LINE_RE = re.compile(
    rf"^\s*(?:[-*\u2022]\s+)?(?P<machine>{id_pattern('M')})\s*(?:\((?P<aside>[^()]*)\))?\s*"
    r"(?::|\s(?:does|runs|handles|processes|works\s+on))\s*(?P<items>\S.*?)\s*\.?\s*$")
_ITEM_RE = re.compile(
    rf"^(?P<job>{id_pattern('J')})\s*(?:\(\s*(?P<paren>{_DURATION})\s*\)|(?P<bare>{_DURATION}))$",
    re.IGNORECASE)
_SEPARATOR_RE = re.compile(r"\s*(?:,\s*(?:then\s+|and\s+)?|;\s*|\s+(?:and\s+)?then\s+|\s+and\s+"
                           r"|\s*(?:->|>|\u2192)\s*)")
_CAPACITY_RE = re.compile(rf"(?i)^{_DURATION}\s+(?:free|available|open|left|capacity)$")


def _plain_aside(aside: str | None) -> bool:
    """No aside, or one that only states the machine's free hours (``16 h free``): any other
    could say the machine is down or changes the list."""
    return aside is None or _CAPACITY_RE.match(aside.strip()) is not None


def _sentences(line: str) -> list[str] | None:
    """The one-step sentences a machine's job list stands for; None for any other line."""
    match = _LINE_RE.match(line)
    if match is None or not _plain_aside(match.group("aside")):
        return None
    machine = match.group("machine")
    items = _SEPARATOR_RE.split(match.group("items"))
    out: list[str] = []
    jobs: set[str] = set()
    for item in items:
        found = _ITEM_RE.match(item.strip())
        if found is None or found.group("job") in jobs:
            return None
        jobs.add(found.group("job"))
        duration = found.group("paren") or found.group("bare")
        out.append(f"{found.group('job')} needs {duration} on {machine}.")
    return out


def machine_list_lines(lines: list[str]) -> None:
    """Rewrite, in place, each line that is one machine's list of jobs with their durations
    as one sentence per job (the line becomes several)."""
    index = 0
    while index < len(lines):
        sentences = _sentences(lines[index])
        if sentences is None:
            index += 1
            continue
        lines[index:index + 1] = sentences
        index += len(sentences)
