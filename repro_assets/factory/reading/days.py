"""Plans spread over several days: job lines labelled with two or more different weekdays.

A configuration is one plan day. A text whose lines open with weekday labels (``Mon: J3 ...``,
a ``Tuesday:`` heading over job lines) for two or more different days lists work for several
days; reading it as one day's plan would put every job on the same day. Such a text is not
read: the first label of a second day is reported. A weekday range (``Mon-Fri 07:00-15:00``) or
a weekday inside a line (``Sent: Monday 06:58``, ``due Tuesday``) is no label.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import JOB_ID_RE
from repro_assets.factory.reading.definitions import WEEKDAY as _DAY
from repro_assets.factory.reading.statements import Unread

_LABEL_RE = re.compile(
    rf"(?i)^\s*(?:[-*\u2022>]\s*)*(?P<day>{_DAY})\b\.?\s*(?::|[-\u2013\u2014](?!\s*{_DAY}\b)|$)"
)


def days_apart(text: str) -> list[Unread]:
    """The first line labelled with a second weekday when job lines carry day labels.

    Args:
        text: the description.

    Returns:
        One :class:`Unread` quoting that line, or nothing.
    """
    if not JOB_ID_RE.search(text):
        return []
    first: str | None = None
    for line in text.splitlines():
        match = _LABEL_RE.match(line)
        if match is None:
            continue
        day = match.group("day").lower()[:3]
        if first is None:
            first = day
        elif day != first:
            return [Unread(line.strip(), "the jobs are listed under different weekdays; one "
                                         "plan day cannot hold them")]
    return []
