"""Whose is a widget that names no party? The boxes beside and above it say.

A form continues a block down its column: "5. PATIENT'S ADDRESS" over "CITY", "STATE", "ZIP
CODE" and "TELEPHONE" cells on a claim form, "Physician name" over a bare "Phone" box. A
widget whose name, tooltip, printed label and section name no party is the subject's when the
nearest widget right above it (overlapping its span, at most a couple of rows up) is the
subject's, so the subject's city box is the subject's. It is another party's when the box
right before it in its row is that party's ("Mother's name [First] [Middle] [Last]": the
middle and last boxes are the mother's too), or when the widget right above it is ("Physician
name" over a bare "Phone" and "Address"); only a person's fields (name, phone, address, birth
date) pass on so, never the subject's own (allergies, medications under a physician's box
are the patient's). A row whose boxes are all one other party's passes it on to the row right
under it, in any column ("Emergency contact name [__]" over "Relationship [__]  Phone [__]").
The "other" box of a row of checkboxes ("[ ] Hospital  [ ] Clinic: [__]") names what is
chosen, not whose the boxes around it are: it passes on no party. A widget with a party keeps
it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from repro_assets.forms.acroform import TEXT, WidgetRole
from repro_assets.forms.parties import SUBJECT

#: The fields every person has: another party's row or column passes on only these.
PERSON_KEYS = frozenset({"full_name", "phone", "address", "dob"})
#: How far above a widget (in heights of the widget) the one it continues may end.
ROWS_UP = 2.0


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return min(a[2], b[2]) - max(a[0], b[0])


def above_of(role: WidgetRole, others: list[WidgetRole]) -> WidgetRole | None:
    """The nearest text widget right above ``role`` on its page, overlapping its span by at
    least half of the narrower one."""
    rect = role.widget.rect
    assert rect is not None
    height = rect[3] - rect[1]
    found = []
    for other in others:
        box = other.widget.rect
        if other is role or box is None or other.widget.page != role.widget.page:
            continue
        narrower = min(rect[2] - rect[0], box[2] - box[0])
        if box[3] <= rect[1] + 1 and rect[1] - box[3] <= ROWS_UP * height and \
                _overlap(rect, box) > 0.5 * narrower:
            found.append(other)
    if not found:
        return None
    return max(found, key=lambda o: (o.widget.rect[3] if o.widget.rect else 0,
                                     _overlap(rect, o.widget.rect or rect)))


def continue_columns(roles: list[WidgetRole],
                     party_of_widget: Callable[[WidgetRole], str | None]) -> list[WidgetRole]:
    """``roles`` with each party-less text widget under a subject's widget made the
    subject's (top to bottom, so a column passes the subject down row by row).

    Args:
        roles: the roles of the form's widgets.
        party_of_widget: the party a role names itself (also for a widget of no v1 field,
            "Employer name").
    """
    texts = [r for r in roles if r.widget.kind == TEXT and r.widget.rect is not None]
    order = sorted(texts, key=lambda r: (r.widget.page, (r.widget.rect or (0, 0, 0, 0))[1],
                                         (r.widget.rect or (0, 0, 0, 0))[0]))
    parties = {id(r): party_of_widget(r) for r in texts}
    choices = [r for r in roles if r.widget.kind != TEXT and r.widget.rect is not None]
    # the "other" box of a row of checkboxes names what, not whose: it passes on no party
    silent = {id(r) for r in texts if _in_choice_row(r, choices)}
    updated: dict[int, WidgetRole] = {}
    for role in order:
        if parties[id(role)] is not None:
            continue
        if role.key is not None and role.key not in PERSON_KEYS:
            # allergies, medications, a member id: only the subject's (a column of them
            # under a physician's boxes is the patient's again)
            above = above_of(role, texts)
            if above is not None and id(above) not in silent and parties[id(above)] == SUBJECT:
                parties[id(role)] = SUBJECT
                updated[id(role)] = replace(role, party=SUBJECT)
            continue
        left = left_of(role, texts)
        above = above_of(role, texts)
        party = parties[id(left)] if left is not None and id(left) not in silent else None
        if party in (None, SUBJECT):  # another party's row goes on to its right
            party = parties[id(above)] if above is not None and id(above) not in silent \
                else None
            if party == SUBJECT and role.key is None:
                continue  # the subject's column passes through the boxes of v1 fields
        if party is None:  # another party's box further left in the row, far apart
            far = left_of(role, texts, gap=None)
            party = parties[id(far)] if far is not None and id(far) not in silent else None
            party = party if party != SUBJECT else None
        if party is None:
            party = _row_before_owner(role, texts, parties, choices)
        if party is None:
            continue
        parties[id(role)] = party
        if role.key is not None:
            updated[id(role)] = replace(role, party=party)
    return [updated.get(id(r), r) for r in roles]


def _row_before_owner(role: WidgetRole, texts: list[WidgetRole],
                      parties: dict[int, str | None],
                      choices: list[WidgetRole]) -> str | None:
    """The other party owning every box of the row right above ``role`` (any column, at
    most a couple of rows up, under the same section heading), or None: a block named by a
    box's own label goes on in the row under it ("Emergency contact name [__]" over
    "Relationship [__]  Phone [__]", "Name of relative to notify [__]" over "Tel. [__]"),
    wherever that row's boxes stand. A row of checkboxes is a question of choices, no
    party's block ("[ ] Hospital  [ ] Clinic: [____]" names what, not whose)."""
    rect = role.widget.rect
    assert rect is not None
    height = rect[3] - rect[1]
    above = [o for o in texts if o is not role and o.widget.rect is not None
             and o.widget.page == role.widget.page and o.widget.rect[3] <= rect[1] + 1
             and rect[1] - o.widget.rect[3] <= ROWS_UP * height]
    if not above:
        return None
    bottom = max(o.widget.rect[3] for o in above if o.widget.rect is not None)
    row = [o for o in above if o.widget.rect is not None
           and o.widget.rect[3] >= bottom - height / 2]
    if any(_in_choice_row(o, choices) for o in row):
        return None
    owners = {parties.get(id(o)) for o in row}
    sections = {o.widget.section for o in row}
    if len(owners) != 1 or sections != {role.widget.section}:
        return None
    owner = owners.pop()
    return owner if owner is not None and owner != SUBJECT else None


def _in_choice_row(role: WidgetRole, choices: list[WidgetRole]) -> bool:
    """True for a text box with a checkbox in its row ("[ ] Hospital  [ ] Clinic: [__]"):
    the answer of a question of choices."""
    rect = role.widget.rect
    assert rect is not None
    return any(c.widget.page == role.widget.page and c.widget.rect is not None
               and rect[1] - 1 <= (c.widget.rect[1] + c.widget.rect[3]) / 2 <= rect[3] + 1
               for c in choices)


#: How far right of a widget (in heights of the widget) the next box of its row may start.
ROW_GAP = 3.0


def left_of(role: WidgetRole, others: list[WidgetRole],
            gap: float | None = ROW_GAP) -> WidgetRole | None:
    """The nearest text widget left of ``role`` in its row (its middle inside their span),
    at most ``gap`` heights away (any distance for None): the boxes of one split value
    ("Mother's name [First] [Middle] [Last]")."""
    rect = role.widget.rect
    assert rect is not None
    middle, height = (rect[1] + rect[3]) / 2, rect[3] - rect[1]
    found = [o for o in others if o is not role and o.widget.rect is not None
             and o.widget.page == role.widget.page
             and o.widget.rect[1] <= middle <= o.widget.rect[3]
             and o.widget.rect[2] <= rect[0] + 1
             and (gap is None or rect[0] - o.widget.rect[2] <= gap * height)]
    return max(found, key=lambda o: o.widget.rect[2] if o.widget.rect else 0, default=None)
