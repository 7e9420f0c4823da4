"""Medication rows of a target form: each item's name, dose and how often it is taken.

A filled ``medications`` value holds name and strength per item (``Aspirin 81 mg``); forms
ask for them in columns (``Name of Medication`` / ``Dosage (mg)`` / ``How Often?``). The name
and dose come from the item; how often it is taken is read from the evidence the item was
quoted from ("Aspirin 81 mg once a day with food"), as printed, and is empty when the
evidence does not say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repro_assets.forms.normalize import LIST_SEPARATOR, collapse_ws

STRENGTH = re.compile(
    r"(?P<amount>\d+(?:[.,]\d+)?)\s*(?P<unit>mg|mcg|µg|ug|g|ml|units?|iu|%|meq)\b",
    re.IGNORECASE)
FREQUENCY = re.compile(
    r"\b(?:(?:once|twice|three\s+times|four\s+times|\d+\s+times)\s+(?:a|per|each)\s+"
    r"(?:day|week|month)|(?:once|twice)\s+(?:daily|weekly)|every\s+\d+(?:\s*-\s*\d+)?\s+hours?|"
    r"every\s+(?:morning|evening|night|day|other\s+day)|at\s+bedtime|as\s+needed|daily|nightly|"
    r"weekly|bid|tid|qid|qd|qhs|qod|prn|q\d+h)\b", re.IGNORECASE)
LOOKAHEAD = 80  # characters after an item where its frequency may be printed


@dataclass(frozen=True)
class MedicationRow:
    """One medication as a form row asks for it."""

    name: str
    amount: str
    unit: str
    often: str


def rows(value: str, evidence: str) -> list[MedicationRow]:
    """The rows of a ``; ``-joined medications value, frequencies read from ``evidence``."""
    items = [i.strip() for i in value.split(LIST_SEPARATOR.strip()) if i.strip()]
    text = collapse_ws(evidence)
    lower = text.casefold()
    starts = [lower.find(collapse_ws(i).casefold()) for i in items]
    out = []
    for index, item in enumerate(items):
        strength = STRENGTH.search(item)
        name = item[: strength.start()].strip(" ,") if strength else item
        often = ""
        start = starts[index]
        if start >= 0:
            after = start + len(collapse_ws(item))
            later = [s for s in starts if s > start]
            end = min([*later, after + LOOKAHEAD])
            found = FREQUENCY.search(text[after:end])
            often = found.group(0) if found else ""
        out.append(MedicationRow(name=name, amount=strength.group("amount") if strength else "",
                                 unit=strength.group("unit") if strength else "", often=often))
    return out


def dose_text(row: MedicationRow, label: str) -> str:
    """The dose as the column asks: the amount alone when its label names the unit."""
    if not row.amount:
        return ""
    if row.unit and re.search(rf"\b{re.escape(row.unit)}\b", label, re.IGNORECASE):
        return row.amount
    return f"{row.amount} {row.unit}".strip()
