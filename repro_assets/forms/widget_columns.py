"""Whose is a widget that names no party? The one right above it in its column says.

A form continues a block down its column: "5. PATIENT'S ADDRESS" over "CITY", "STATE", "ZIP
CODE" and "TELEPHONE" cells on a claim form, "Physician name" over a bare "Phone" box. A
widget whose name, tooltip, printed label and section name no party is the subject's when the
nearest widget right above it (overlapping its span, at most a couple of rows up) is the
subject's, so the subject's city box is the subject's. Under another party's widget it stays
party-less: the rules of :mod:`repro_assets.forms.fill` leave it empty for review (a bare
"Phone" under "Physician name" may be the physician's). A widget with a party keeps it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from repro_assets.forms.acroform import TEXT, WidgetRole
from repro_assets.forms.parties import SUBJECT

#: How far above a widget (in heights of the widget) the one it continues may end.
ROWS_UP = 2.0


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return min(a[2], b[2]) - max(a[0], b[0])


def _above(role: WidgetRole, others: list[WidgetRole]) -> WidgetRole | None:
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
    order = sorted(texts, key=lambda r: (r.widget.page, (r.widget.rect or (0, 0, 0, 0))[1]))
    parties = {id(r): party_of_widget(r) for r in texts}
    updated: dict[int, WidgetRole] = {}
    for role in order:
        if role.key is None or parties[id(role)] is not None:
            continue
        above = _above(role, texts)
        party = parties[id(above)] if above is not None else None
        if party == SUBJECT:
            parties[id(role)] = party
            updated[id(role)] = replace(role, party=party)
    return [updated.get(id(r), r) for r in roles]
