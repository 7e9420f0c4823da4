"""Precedence notes: a job's route given as pairs of steps in any order, and its times apart.

A process engineer writes what must come before what, pair by pair and in no particular order
(``J7: M6 after M4. M4 after M2.``, ``M2 comes before M4; M4 precedes M6``), and the times once
for all its steps (``Times: 1 h on M2, 2 h on M4``, ``durations: M2 1h, M4 2h``).
:func:`precedence_line` writes such a line as the job's route (``J7: M2 1h, M4 2h, M6 1h.``)
when the pairs chain the timed machines into exactly one order; its other sentences (a due)
follow as written.

Only pairs that decide the order are read: every machine of a pair has a time, every timed
machine is in a pair, and at each place of the route exactly one machine can stand (pairs that
contradict each other, or leave two machines unordered, leave the line as written, and the
reader refuses it). The sentences that follow the route may name no machine: a further word on
the order (``M2 directly after M1``, ``then M8 1 h``) would be read against the chained route,
so such a line is left as written too.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import id_pattern

_MACHINE = id_pattern("M")
_LINE_RE = re.compile(rf"^(?P<lead>\s*(?:[-*•]\s+)?)(?P<job>{id_pattern('J')})\s*:\s*"
                      r"(?P<body>\S.*)$")
_PAIR_RE = re.compile(
    rf"^(?P<a>{_MACHINE})\s+(?:(?:comes|goes|runs|is|must\s+come)\s+)?"
    rf"(?P<relation>after|before|follows|precedes)\s+(?P<b>{_MACHINE})$", re.IGNORECASE)
_TIMES_RE = re.compile(r"^(?:times|durations|hours|run\s+times)\s*:\s*(?P<items>.+)$",
                       re.IGNORECASE)
_UNIT = r"(?P<unit>h|hrs?|hours?|min|mins|minutes?)"
_TIME_ON_RE = re.compile(rf"^(?P<number>\d+(?:\.\d+)?)\s*{_UNIT}\s+on\s+(?P<machine>{_MACHINE})$",
                         re.IGNORECASE)
_MACHINE_TIME_RE = re.compile(
    rf"^(?P<machine>{_MACHINE})\s*[:=]?\s*(?P<number>\d+(?:\.\d+)?)\s*{_UNIT}$", re.IGNORECASE)
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.;])\s+")


def _times(items: str) -> dict[str, str] | None:
    """``{machine: duration}`` of a times sentence, or None unless every item is one."""
    times: dict[str, str] = {}
    for item in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", items.strip()):
        match = _TIME_ON_RE.match(item) or _MACHINE_TIME_RE.match(item)
        if match is None or match.group("machine") in times:
            return None
        unit = "min" if match.group("unit").lower().startswith("m") else "h"
        times[match.group("machine")] = f"{match.group('number')} {unit}"
    return times


def _one_order(machines: set[str], edges: set[tuple[str, str]]) -> list[str] | None:
    """The one order of ``machines`` that keeps every edge (earlier, later), or None when
    the edges contradict each other or leave two machines unordered."""
    order: list[str] = []
    left = set(machines)
    while left:
        free = [m for m in left if not any(b == m and a in left for a, b in edges)]
        if len(free) != 1:
            return None
        order.append(free[0])
        left.remove(free[0])
    return order


def precedence_line(line: str) -> str:
    """``line`` written as its job's route when it is a job's precedence notes and times.

    Args:
        line: one line of the description.

    Returns:
        ``J7: M2 1 h, M4 2 h. Due 18:00.``, or the line itself.
    """
    match = _LINE_RE.match(line)
    if match is None:
        return line
    edges: set[tuple[str, str]] = set()
    times: dict[str, str] | None = None
    rest: list[str] = []
    for sentence in _SENTENCE_SPLIT_RE.split(match.group("body").strip()):
        said = sentence.strip().rstrip(".;").strip()
        pair = _PAIR_RE.match(said)
        timed = _TIMES_RE.match(said)
        if pair is not None:
            a, b = pair.group("a"), pair.group("b")
            later = pair.group("relation").lower() in ("after", "follows")
            edges.add((b, a) if later else (a, b))
        elif timed is not None:
            if times is not None:
                return line
            times = _times(timed.group("items"))
            if times is None:
                return line
        else:
            rest.append(sentence.strip())
    if not edges or times is None or {m for edge in edges for m in edge} != set(times):
        return line
    if any(re.search(_MACHINE, sentence) for sentence in rest):
        return line  # a further word on a machine: the pairs may not be the whole order
    order = _one_order(set(times), edges)
    if order is None:
        return line
    route = ", ".join(f"{machine} {times[machine]}" for machine in order)
    return f"{match.group('lead')}{match.group('job')}: {route}." + "".join(
        f" {sentence}" for sentence in rest)
