"""Time words a description defines for itself: "our EOD is 18:00", shift tables, one plan day.

A due time such as ``EOD`` or ``end of 2nd shift`` is not an hour by itself (end of business
could be 17:00 or midnight); it becomes one only where the same text says which hour it is:

* ``our EOD is 18:00`` / ``end of day = 17:30`` / ``COB: 16:00`` / ``the shift ends at
  22:00`` / ``we close at 17:00 (EOD)`` define the term; ``we close at 16:00`` (or the plant,
  the shop ...) defines the close of business (``COB``, ``EOB``), not the end of the day;
* a shift table ``1st 07:00-15:00, 2nd 15:00-23:00`` defines ``end of 1st shift`` (15) and
  ``end of 2nd shift`` (23), with ``first``/``second`` as the same shifts (a shift that ends
  after midnight defines nothing: its end is not an hour of the plan's day); the text's only
  shift (``Day shift 07:00-15:00``) also defines ``end of shift``;
* a weekday named once for the whole plan (``All of this goes out Thursday``: the only weekday
  of the text, in a line that names no job) makes that weekday after a due hour redundant.

The sentences that only define such terms say nothing about jobs: the clause reader skips
them (:func:`is_definition_only`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repro_assets.factory.ids import JOB_ID_RE

_CLOCK = r"(?P<h>\d{1,2})[:.](?P<m>\d{2})"
_TERM = r"(?P<term>eod|eob|cob|close of business|end of (?:the )?(?:day|shift|business))"
TERM_RE = re.compile(rf"(?i)\b{_TERM}\s*(?:is|=|:|means|at|will be)\s*(?:at\s+)?{_CLOCK}\b")
# "we close at 17:00 (EOD)": the term in parentheses names the hour before it
TERM_AFTER_RE = re.compile(rf"(?i){_CLOCK}\s*\(\s*{_TERM}\s*\)")
ENDS_RE = re.compile(rf"(?i)\b(?:the\s+|our\s+)?(?P<what>shift|day|working day|workday)\s+"
                     rf"(?:ends|finishes|is over)\s+(?:at\s+)?{_CLOCK}\b")
# "We close at 16:00.", "the plant closes at 17:00": the close of business, not the end of the
# day; nothing may follow on the line ("... on Fridays" is another day's hour)
CLOSES_RE = re.compile(rf"(?im)\b(?:we|the\s+(?:shop|plant|site|factory|office|works))\s+"
                       rf"(?:close|closes|shut|shuts)\s+at\s+{_CLOCK}\b(?=[ \t]*\.?[ \t]*$)")
_CLOSE_TERMS = (("cob",), ("eob",), ("close", "of", "business"), ("end", "of", "business"))
_ORDINALS = {
    "1st": "first", "2nd": "second", "3rd": "third", "first": "1st", "second": "2nd",
    "third": "3rd",
}
SHIFT_RE = re.compile(
    r"(?i)\b(?P<ord>1st|2nd|3rd|first|second|third|early|late|day|night|morning|afternoon)"
    r"(?:\s+shift)?\s*:?\s*\(?(?P<ah>\d{1,2})[:.](?P<am>\d{2})\s*(?:-|–|—|to)\s*(?P<bh>\d{1,2})[:.]"
    r"(?P<bm>\d{2})\)?"
)
#: A weekday, full or abbreviated ("Mon", "tues", "Thursday").
WEEKDAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?"
_WEEKDAY_RE = re.compile(rf"(?i)\b{WEEKDAY}\b")


@dataclass(frozen=True)
class TimeTerms:
    """Time words defined by one description.

    Attributes:
        terms: lower-case word sequence (``("eod",)``, ``("end", "of", "1st", "shift")``) ->
            hour of the day.
        plan_day: the one weekday the whole plan is for (first three letters), if the text
            says so.
    """

    terms: dict[tuple[str, ...], float] = field(default_factory=dict)
    plan_day: str | None = None
    plan_day_forms: frozenset[str] = frozenset()  # how the text writes it ("fri", "friday")
    only_day_forms: frozenset[str] = frozenset()  # the one weekday the text names, anywhere


def _hour(hours: str, minutes: str) -> float | None:
    hour, minute = int(hours), int(minutes)
    if hour > 24 or minute >= 60 or (hour == 24 and minute):
        return None
    return hour + minute / 60


def term_words(text: str) -> tuple[str, ...]:
    """The lower-case words of ``text`` as terms are keyed (``1st`` stays one word)."""
    return tuple(re.findall(r"[a-z0-9]+", text.lower()))


def find_terms(text: str) -> TimeTerms:
    """The time words ``text`` defines (see the module docstring)."""
    terms: dict[tuple[str, ...], set[float]] = {}
    for match in [*TERM_RE.finditer(text), *TERM_AFTER_RE.finditer(text)]:
        hour = _hour(match.group("h"), match.group("m"))
        if hour is not None:
            terms.setdefault(term_words(match.group("term")), set()).add(hour)
    for match in ENDS_RE.finditer(text):  # "the shift ends at 22:00"
        hour = _hour(match.group("h"), match.group("m"))
        what = term_words(match.group("what"))
        if hour is not None:
            for words in (("end", "of", *what), ("end", "of", "the", *what)):
                terms.setdefault(words, set()).add(hour)
    for match in CLOSES_RE.finditer(text):
        hour = _hour(match.group("h"), match.group("m"))
        if hour is not None:
            for words in _CLOSE_TERMS:
                terms.setdefault(words, set()).add(hour)
    shifts = list(SHIFT_RE.finditer(text))
    for match in shifts:
        hour = _hour(match.group("bh"), match.group("bm"))
        begin = _hour(match.group("ah"), match.group("am"))
        if hour is None or begin is None or hour <= begin:
            continue  # a night shift ends the next day: its end is no hour of this plan
        name = match.group("ord").lower()
        aliases = {name, _ORDINALS.get(name, name)}
        if len(shifts) == 1:
            aliases.add("")  # the text's only shift: "end of shift" is its end
        for alias in aliases:
            words = (alias, "shift") if alias else ("shift",)
            terms.setdefault(("end", "of", *words), set()).add(hour)
            terms.setdefault(("end", "of", "the", *words), set()).add(hour)
    found = {m.group(0).lower() for m in _WEEKDAY_RE.finditer(text)}
    days = {day[:3] for day in found}
    plan_day = None
    if len(days) == 1:
        day = next(iter(days))
        plan_day = day if any(
            _WEEKDAY_RE.search(line) and not JOB_ID_RE.search(line)
            for line in text.splitlines()
        ) else None
    # a term defined twice with different hours is not defined
    forms = frozenset(day for day in found) if plan_day else frozenset()
    only = frozenset(found) if len(days) == 1 else frozenset()
    return TimeTerms({k: v.pop() for k, v in terms.items() if len(v) == 1}, plan_day, forms,
                     only)


def is_definition_only(clause: str) -> bool:
    """True when every clock time of ``clause`` sits in a term or shift definition."""
    clocks = list(re.finditer(r"\d{1,2}[:.]\d{2}", clause))
    if not clocks:
        return False
    spans = [m.span() for m in TERM_RE.finditer(clause)]
    spans += [m.span() for m in TERM_AFTER_RE.finditer(clause)]
    spans += [m.span() for m in SHIFT_RE.finditer(clause)]
    spans += [m.span() for m in ENDS_RE.finditer(clause)]
    spans += [m.span() for m in CLOSES_RE.finditer(clause)]
    return all(any(a <= c.start() and c.end() <= b for a, b in spans) for c in clocks)
