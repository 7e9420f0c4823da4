"""The numbered parts of a fillable form, and which of them is about the subject.

A government form often asks about several people in numbered parts whose titles open every
tooltip ("Part 2. About you (Petitioner). ...", "Part 4. Details of the beneficiary. ...").
When the part titles name the subject's role and another party's role, the subject's values
belong only in the parts titled by the subject's role: a part titled by another role, or by
none ("Part 5. Further details"), is not the subject's, nor is an entry of a list of people
inside the subject's part ("Person 1", "Family member 2": the subject's relatives) or a box
asking for another name of the subject ("other names").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from repro_assets.forms.parties import SUBJECT, mentions, party_of

#: "Part 4. Details of the beneficiary." at the start of a tooltip.
_PART_TITLE = re.compile(r"^\s*part\s+(\d{1,2})[.:]?\s+([^.]{3,120})\.", re.IGNORECASE)
#: One entry of a list of people ("Person 1", "Family Member 2", "Child 3", "Relative 1").
_PERSON_ENTRY = re.compile(r"\b(?:person|member|child|relative|dependent)\s*#?\s*\d{1,2}\b",
                           re.IGNORECASE)
#: A box asking for another name the subject used (not the current one).
_OTHER_NAME = re.compile(r"\bother\s+names?\b|\bnames?\s+(?:previously\s+)?used\b|\balias",
                         re.IGNORECASE)


def part_title(label: str | None) -> tuple[int, str] | None:
    """(part number, title) of a tooltip opening with "Part N. Title.", else None."""
    match = _PART_TITLE.match(label or "")
    return (int(match.group(1)), match.group(2).strip()) if match else None


def _names_subject_role(title: str) -> bool:
    return party_of(title) == SUBJECT


def _names_other_role(title: str) -> bool:
    return any(m.party != SUBJECT for m in mentions(title))  # "(Petitioner)" counts


class FormParts:
    """The subject's parts of a form whose part titles name the subject's and another
    party's roles; ``active`` is False on any other form (the rule then says nothing)."""

    def __init__(self, labels: Iterable[str | None]) -> None:
        titles = {found for found in map(part_title, labels) if found is not None}
        self.subject_parts = frozenset(n for n, t in titles if _names_subject_role(t))
        others = {n for n, t in titles if _names_other_role(t)}
        self.active = bool(self.subject_parts) and bool(others - self.subject_parts)
        self._seen: set[tuple[int, str, str | None]] = set()

    def asked_again(self, label: str | None, key: str | None, part: str | None) -> str | None:
        """On such a form, a name or birth date box of the subject's part asked again after
        its first box (the name again in another script, a name on a later line) is left
        empty: the first is the subject's current value; call in the form's order."""
        found = part_title(label)
        if not self.active or found is None or key not in ("full_name", "dob"):
            return None
        seen = (found[0], key, part)
        if seen in self._seen:
            return "asked_again_in_part"
        self._seen.add(seen)
        return None

    def refusal(self, label: str | None) -> str | None:
        """Why a box with this tooltip is not the subject's on such a form, or None."""
        if not self.active:
            return None
        found = part_title(label)
        if found is None:
            return None  # no part title: other rules decide
        rest = (label or "")[_PART_TITLE.match(label or "").end():]  # type: ignore[union-attr]
        if found[0] not in self.subject_parts:
            # the subject's role named by the box itself ("Enter Employee Last Name ... from
            # Part 1" in the employer's part) keeps it the subject's
            own = mentions(rest)
            named = bool(own) and all(m.party == SUBJECT for m in own)
            return None if named else "other_part_of_form"
        if _PERSON_ENTRY.search(rest):
            return "list_of_people_in_subjects_part"
        if _OTHER_NAME.search(rest):
            return "not_current"
        return None
