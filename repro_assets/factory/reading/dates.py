"""The plan's own calendar date next to a due time: redundant, like the plan's weekday.

A plan headed with its date (``Plan for Friday 27 November 2026``, ``Plan for 27.11.2026``)
may repeat that date in a due (``due Fri 27 Nov 15:00``, ``due 27.11. 12.00``). When the text
names exactly one calendar date, at least once on a line without a job id (the plan's
heading), that date is dropped from job lines where a clock time follows it, so the due reads
as on the plan day. A text with two different dates keeps them all: a due on another date
than the plan's stays unread. Written forms: ``27.11.`` / ``27.11.2026``, ``27 Nov`` /
``27th November 2026``, ``Nov 27`` / ``November 27, 2026`` and ``2026-11-27``; slashed dates
(``11/12``) are never read (day first or month first?).
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import JOB_ID_RE

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(?P<{g}>jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_NOT_CLOCK = r"(?![:.]?\d)"
_DATE_RES = (
    re.compile(r"(?<![\d.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?:(?P<y>\d{4})(?!\d))?"),
    re.compile(rf"(?i)\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH.format(g='mn')}"
               r"(?:\s+(?P<y>\d{4})\b)?"),
    re.compile(rf"(?i)\b{_MONTH.format(g='mn')}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?{_NOT_CLOCK}"
               r"(?:,?\s+(?P<y>\d{4})\b)?"),
    re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b"),
)
# what follows a date in a due: a clock time
_CLOCK_AFTER_RE = re.compile(r"(?i)^,?\s*(?:at\s+)?(?:\d{1,2}[:.]\d{2}|\d{1,2}\s*[ap]\.?m\b|noon)")


def _dates(line: str) -> list[tuple[re.Match[str], tuple[int, int, int | None]]]:
    """Every date of a line as (match, (day, month, year or None)), without overlaps."""
    found: list[tuple[re.Match[str], tuple[int, int, int | None]]] = []
    for pattern in _DATE_RES:
        for match in pattern.finditer(line):
            if any(match.start() < other.end() and other.start() < match.end()
                   for other, _ in found):
                continue
            groups = match.groupdict()
            month = (_MONTHS.index(groups["mn"][:3].lower()) + 1 if groups.get("mn")
                     else int(groups["m"]))
            day = int(groups["d"])
            if 1 <= day <= 31 and 1 <= month <= 12:
                found.append((match, (day, month, int(groups["y"]) if groups["y"] else None)))
    return found


def drop_plan_date(lines: list[str]) -> list[str]:
    """``lines`` with the plan's own date dropped where a job line gives it before a clock.

    Args:
        lines: the description's lines (envelope already removed).

    Returns:
        The lines, unchanged unless the text names one date and heads the plan with it.
    """
    per_line = [_dates(line) for line in lines]
    days = {(d, m) for found in per_line for _, (d, m, _y) in found}
    years = {y for found in per_line for _, (_d, _m, y) in found if y is not None}
    if len(days) != 1 or len(years) > 1 or not any(
            found and not JOB_ID_RE.search(line) for line, found in zip(lines, per_line,
                                                                      strict=True)):
        return lines
    out: list[str] = []
    for line, found in zip(lines, per_line, strict=True):
        if JOB_ID_RE.search(line):
            for match, _ in sorted(found, key=lambda item: -item[0].start()):
                if _CLOCK_AFTER_RE.match(line[match.end():]):
                    line = line[:match.start()] + line[match.end():].lstrip(", ")
        out.append(line)
    return out
