"""A job told as a copy of another with changes, in the words writers use for it.

``J2 is like J1, plus 1h on M3 at the end``, ``J3 as J1, but its M1 step takes 3h``, ``J4:
exactly like J1, and add M3 1h at the end`` all say one relation: the other job's route, then
changes. :func:`copy_sentences` writes each such sentence in the one form the reader knows
(``J2: same as J1 but also 1h on M3 at the end``, ``J3: same as J1 but 3h on M1``), and the
reader applies and checks the changes as for ``same as``: a changed step must be on a machine
the copied route visits once, an added step must say where it goes.

Only a sentence that opens with the job, a word of sameness (``same as``, ``like``, ``as``,
``identical to``, ``a copy of``; never ``similar to``) and the other job; a change is joined by
``but``, ``plus``, ``and add`` or ``with``; a step's duration given as ``its M1 step takes 3h``
or ``M1 takes 3h`` becomes ``3h on M1``. Anything else in the sentence stays as written.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import id_pattern
from repro_assets.factory.reading.lexicon import DURATION_UNIT

_JOB = id_pattern("J")
_LEAD_RE = re.compile(
    rf"^(?P<pre>\s*(?:[-*\u2022]\s+)?)(?P<job>{_JOB})\s*(?::\s*|\s+is\s+|\s+)"
    rf"(?:just\s+|exactly\s+)?(?:the\s+same\s+as|same\s+as|like|as|identical\s+to|"
    rf"a\s+copy\s+of)\s+(?P<ref>{_JOB})"
    r"(?=\s*(?:$|[,.;]|(?:but|plus|and|with|except)\b))"
    r"(?P<rest>[^.]*(?:\.(?=\d)[^.]*)*)", re.IGNORECASE)
_JOIN_RE = re.compile(
    r"^\s*,?\s*(?:(?P<plus>plus|and\s+add|and\s+also|with\s+an?\s+extra|add)|but)\s+",
    re.IGNORECASE)
_DURATION = rf"\d+(?:\.\d+)?\s*(?:{DURATION_UNIT})\b"
_STEP_TAKES_RE = re.compile(
    rf"\b(?:(?:its|the)\s+)?(?P<machine>{id_pattern('M')})(?:\s+step)?\s+(?:takes|needs|is)\s+"
    rf"(?P<duration>{_DURATION})", re.IGNORECASE)


def _sentence(sentence: str) -> str:
    lead = _LEAD_RE.match(sentence)
    if lead is None or lead.group("job") == lead.group("ref"):
        return sentence
    rest = lead.group("rest")
    join = _JOIN_RE.match(rest)
    if join is not None:
        change = _STEP_TAKES_RE.sub(lambda m: f"{m.group('duration')} on {m.group('machine')}",
                                    rest[join.end():])
        rest = f" but {'also ' if join.group('plus') else ''}{change}"
    return (f"{lead.group('pre')}{lead.group('job')}: same as {lead.group('ref')}{rest}"
            f"{sentence[lead.end():]}")


def copy_sentences(line: str) -> str:
    """A line whose sentences of a copy with changes are written in the reader's form."""
    return "".join(_sentence(part) for part in re.split(r"(?<=\.\s)(?=\S)", line))
