"""Labels printed in a row over a row of values, read one per line.

Lab reports print a header row ``PATIENT NAME   DATE OF BIRTH   PATIENT PHONE`` over the row of
values; the text layer gives the labels one per line, then the values one per line. A label
and its value are then several lines apart and no "label: value" line exists. Here a run of
two or more bare label lines followed by exactly as many value lines is paired by position,
and the pairing is kept only when every label whose kind is known gets a value of that kind
(a date under a date label, a phone number under a phone label, words under a name label):
a run that does not check out gives no pairs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repro_assets.forms.normalize import find_dates

#: Words of a printed label (a value line seldom holds one of them).
_LABEL_WORD = re.compile(
    r"\b(?:name|date|birth|dob|phone|telephone|tel|address|id|number|no|sex|gender|age|"
    r"collected|received|reported|physician|doctor|provider|patient|account|mrn|specimen|"
    r"member|policy|group|city|state|zip|e-?mail|ordered|ordering|referring|ssn|insurance|"
    r"status|time|accession|client|fax)\b", re.IGNORECASE)
_BARE = re.compile(r"^[A-Za-z][A-Za-z .#/&()'’-]{1,40}$")
_DATE_LABEL = re.compile(r"\b(?:date|dob|birth|collected|received|reported)\b", re.IGNORECASE)
_PHONE_LABEL = re.compile(r"\b(?:phone|telephone|tel|fax)\b", re.IGNORECASE)
_NAME_LABEL = re.compile(r"\bname\b", re.IGNORECASE)
_PHONE_DIGITS = 10
MAX_RUN = 8


@dataclass(frozen=True)
class RowPair:
    """A label line and the value line it heads (indexes into the page's lines)."""

    label: int
    value: int
    first: int
    last: int


def is_label_line(line: str) -> bool:
    """A bare printed label: a few words, one a label word, no colon, no digit."""
    text = line.strip()
    return bool(_BARE.match(text)) and len(text.split()) <= 4 and bool(_LABEL_WORD.search(text))


def _fits(label: str, value: str) -> bool:
    """True when the value is of the label's kind (or the label's kind is not known)."""
    if _PHONE_LABEL.search(label):
        return len(re.sub(r"\D", "", value)) >= _PHONE_DIGITS and not find_dates(value)
    if _DATE_LABEL.search(label):
        return bool(find_dates(value))
    if _NAME_LABEL.search(label):
        return not re.search(r"\d", value) and bool(re.search(r"[A-Za-z]{2}", value))
    return True


def row_pairs(lines: list[str]) -> list[RowPair]:
    """Every label paired with its value where a label row stands over a value row."""
    pairs: list[RowPair] = []
    index = 0
    while index < len(lines):
        end = index
        while end < len(lines) and end - index < MAX_RUN and is_label_line(lines[end]):
            end += 1
        count = end - index
        if count < 2:
            index += 1
            continue
        values = lines[end: end + count]
        after = end + count
        whole = len(values) == count and all(v.strip() and not is_label_line(v) for v in values)
        ends = after >= len(lines) or is_label_line(lines[after]) or not lines[after].strip()
        if whole and ends and all(_fits(lines[index + k], values[k]) for k in range(count)):
            pairs += [RowPair(index + k, end + k, index, after - 1) for k in range(count)]
            index = after
        else:
            index = end
    return pairs
