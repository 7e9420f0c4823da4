"""A route told from its end: the last step first, each earlier one said to come before it.

A writer tracing work back from the dock says where a job ends and what comes before, step by
step (``J7 ends on M6, 1 h. Before that it spends 2 h on M4, and it starts on M2 with 3 h.``,
``J8 finishes at M4 (2 h); prior to that it begins on M6 (1 h).``). Each step carries its
place in words: ``ends``/``finishes`` the last, ``before that`` the one before the step named
last, ``starts``/``begins`` the first. :func:`backward_line` writes such a line as the job's
route in running order (``J7: M2 3 h, M4 2 h, M6 1 h.``), the sentences after the route (a
due) following as written.

Only a line read entirely as such a chain is rewritten: the end first, then every earlier step
with ``before that`` (the start may say ``starts`` instead), the start last, one machine and
one duration each; the sentences after the chain name no machine (``After that it goes to
M1`` would move the step the line says is the last). A heading that says the routes under it
are written last step first (``Traced back from the dock (last step first):``) is honoured,
and taken out, only when every line under it is such a chain (:func:`honoured_headings`);
otherwise the reader refuses it.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import id_pattern

_M = id_pattern("M")
_D = r"\d+(?:\.\d+)?\s*(?:h|hrs?|hours?|min|mins|minutes?)"
# the step's machine and its duration, in either order: "on M6, 1 h", "2 h on M4", "M6 (2 h)"
_AT = rf"(?:on|at|to)\s+(?P<m>{_M})"
_STEP = (rf"(?:{_AT}\s*(?:,\s*|\s+for\s+|\s+with\s+|\s+)?\(?(?P<d>{_D})\)?"
         rf"|(?P<d2>{_D})\s+(?:on|at)\s+(?P<m2>{_M}))")
_END_RE = re.compile(rf"(?i)^(?P<job>{id_pattern('J')})\s+(?:ends|finishes|is\s+finished)\s+"
                     rf"{_STEP}$")
_EARLIER = r"(?:before\s+that|prior\s+to\s+that|before\s+this|and\s+before\s+that)"
_BEFORE_RE = re.compile(
    rf"(?i)^(?:and\s+)?{_EARLIER}\s*,?\s+(?:it\s+)?(?:spends\s+|is\s+|runs\s+|goes\s+)?{_STEP}$")
_START_RE = re.compile(
    rf"(?i)^(?:and\s+)?(?:{_EARLIER}\s*,?\s+)?(?:it\s+)?(?:starts|begins)\s+{_STEP}$")
_CLAUSE_SPLIT_RE = re.compile(r"(?<=[.;])\s+|,\s+(?=and\s+(?:it\s+)?(?:starts|begins|before))")
_LEAD_RE = re.compile(r"^(?P<lead>\s*(?:[-*•]\s+)?)(?P<body>\S.*)$")
_HEADING_RE = re.compile(r"(?i)\b(?:last\s+(?:step|operation|machine)\s+first|traced\s+back|"
                         r"in\s+reverse(?:d)?\s+order)\b.*:\s*$")


def _step(match: re.Match[str]) -> tuple[str, str]:
    machine = match.group("m") or match.group("m2")
    duration = re.sub(r"\s+", " ", match.group("d") or match.group("d2"))
    return machine, duration


def backward_line(line: str) -> str | None:
    """``line`` as its job's route in running order, or None when it is no such chain.

    Args:
        line: one line of the description.

    Returns:
        ``J7: M2 3 h, M4 2 h, M6 1 h.`` and the sentences after the route, or None.
    """
    lead = _LEAD_RE.match(line)
    if lead is None:
        return None
    clauses = [c.strip().rstrip(".;").strip() for c in _CLAUSE_SPLIT_RE.split(lead.group("body"))]
    end = _END_RE.match(clauses[0]) if clauses else None
    if end is None:
        return None
    steps = [_step(end)]
    index = 1
    while index < len(clauses):
        earlier = _BEFORE_RE.match(clauses[index])
        start = _START_RE.match(clauses[index])
        if earlier is None and start is None:
            break
        steps.append(_step(earlier or start))  # type: ignore[arg-type]
        index += 1
        if start is not None:
            break
    rest = clauses[index:]
    if len(steps) < 2 or any(_BEFORE_RE.match(c) or _START_RE.match(c) for c in rest):
        return None
    if any(re.search(_M, clause) for clause in rest):
        return None  # a step said after the chain contradicts its end or its start
    route = ", ".join(f"{machine} {duration}" for machine, duration in reversed(steps))
    return f"{lead.group('lead')}{end.group('job')}: {route}." + "".join(
        f" {clause}." for clause in rest if clause)


def honoured_headings(lines: list[str]) -> set[int]:
    """The indices of the headings that say the lines under them are written last step first
    when every line under them, up to a blank line, is a chain :func:`backward_line` reads."""
    honoured: set[int] = set()
    for index, line in enumerate(lines):
        if not _HEADING_RE.search(line):
            continue
        end = index + 1
        while end < len(lines) and lines[end].strip():
            end += 1
        if end > index + 1 and all(backward_line(below) is not None
                                   for below in lines[index + 1:end]):
            honoured.add(index)
    return honoured


def backward_lines(lines: list[str]) -> None:
    """Rewrite, in place, every backward chain as its route, and drop each heading that says
    the chains under it are written last step first."""
    for index in sorted(honoured_headings(lines), reverse=True):
        lines[index] = ""
    for index, line in enumerate(lines):
        rewritten = backward_line(line)
        if rewritten is not None:
            lines[index] = rewritten
