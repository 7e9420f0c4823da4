"""A target form's AcroForm widgets: what each one asks for, and for whom.

Locked matching (seed, "fillable pdf -> field mapping"): the field name is lowercased with
``_`` and ``-`` turned into spaces; a name that *contains* a supported key is a direct match;
otherwise a name containing aliases of exactly one key maps to that key; aliases (or keys) of
several keys make the name ambiguous (``patient_name_dob``); nothing matched is skipped.
"Contains" is a substring test, made on the normalized name and on the name without spaces, so
``PatientName``, ``HomePhone``, ``DateOfBirth`` and ``phonenumber`` match.

On top of the locked rule, each widget gets the party it belongs to (a real form names the
employee, the doctor and the employer, each with a name, phone and address: only the form's
subject is filled) and, for values split over several widgets, its part (month/day/year of a
date, first/middle/last of a name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pymupdf

from repro_assets.forms.models import ALIASES, V1_FIELDS
from repro_assets.forms.parties import party_of

TEXT = "text"
_KINDS = {
    pymupdf.PDF_WIDGET_TYPE_TEXT: TEXT,
    pymupdf.PDF_WIDGET_TYPE_CHECKBOX: "checkbox",
    pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON: "radio",
    pymupdf.PDF_WIDGET_TYPE_SIGNATURE: "signature",
    pymupdf.PDF_WIDGET_TYPE_COMBOBOX: "combobox",
    pymupdf.PDF_WIDGET_TYPE_LISTBOX: "listbox",
    pymupdf.PDF_WIDGET_TYPE_BUTTON: "button",
}
#: Widget name words of one part of a split value.
DATE_PARTS = {"month": ("month", "mm", "mo"), "day": ("day", "dd"),
              "year": ("year", "yyyy", "yy", "yr")}
NAME_PARTS = {"first": ("first", "given"), "middle": ("middle", "mi", "initial"),
              "last": ("last", "surname", "family")}
#: Names of postal fields that are not the subject's street address.
NOT_POSTAL = re.compile(r"\b(?:e ?mail|web|url|ip)\b")
PHONE_QUALIFIERS = ("home", "primary", "main", "cell", "mobile", "work", "day", "evening",
                    "night", "other", "alternate", "alt", "business", "fax")


@dataclass(frozen=True)
class FormWidget:
    """One widget of a target form."""

    name: str
    label: str | None
    kind: str
    page: int
    maxlen: int = 0


@dataclass(frozen=True)
class WidgetRole:
    """What a widget asks for: a v1 key, the party, the part of a split value."""

    widget: FormWidget
    key: str | None
    problem: str | None = None
    party: str | None = None
    part: str | None = None

    @property
    def words(self) -> list[str]:
        """The widget's name words (letters and digits)."""
        return name_words(self.widget.name)


def normalize_acroform_name(name: str) -> str:
    """Locked step 1: lowercase, ``_`` and ``-`` to spaces (whitespace collapsed)."""
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def name_words(name: str) -> list[str]:
    """Lowercase letter/digit runs of a field name (``Birth Year (yy)`` -> birth, year, yy)."""
    return re.findall(r"[a-z0-9]+", name.lower())


def _contains(name: str, needle: str) -> bool:
    wanted = normalize_acroform_name(needle)
    return wanted in name or wanted.replace(" ", "") in name.replace(" ", "")


def match_acroform_field(name: str) -> tuple[str | None, str | None]:
    """Map one AcroForm field name to a v1 key (the locked algorithm).

    Returns:
        ``(key, None)`` on a match, ``(None, "ambiguous")`` when keys or aliases of several
        keys match, ``(None, None)`` when nothing matches.
    """
    normalized = normalize_acroform_name(name)
    direct = [key for key in V1_FIELDS if _contains(normalized, key)]
    by_alias = [key for key, aliases in ALIASES.items()
                if any(_contains(normalized, alias) for alias in aliases)]
    keys = set(direct) | set(by_alias)
    if len(keys) > 1:
        return None, "ambiguous"
    if direct:
        return direct[0], None
    if by_alias:
        return by_alias[0], None
    return None, None


def read_widgets(pdf_bytes: bytes) -> list[FormWidget]:
    """Every widget of the target form, in page order (one entry per field name).

    Raises:
        ValueError: when the bytes are not a readable PDF or its fields cannot be read.
    """
    try:
        doc = pymupdf.open(stream=pdf_bytes, filetype="pdf")
    except Exception as exc:  # pymupdf raises several types for broken files
        raise ValueError(f"cannot open target PDF: {exc}") from exc
    seen: dict[str, FormWidget] = {}
    with doc:
        if not doc.is_form_pdf:
            return []
        try:
            for number, page in enumerate(doc, start=1):
                for widget in page.widgets() or []:
                    name = widget.field_name or ""
                    if name and name not in seen:
                        seen[name] = FormWidget(
                            name=name, label=widget.field_label or None,
                            kind=_KINDS.get(widget.field_type, "unknown"), page=number,
                            maxlen=int(widget.text_maxlen or 0))
        except Exception as exc:  # a broken widget dictionary: the form is unreadable
            raise ValueError(f"cannot read the target's form fields: {exc}") from exc
    return list(seen.values())


def _part(words: list[str], parts: dict[str, tuple[str, ...]]) -> str | None:
    """The one part a widget name names; None for none or several (an order hint)."""
    named = [part for part, hints in parts.items() if any(h in words for h in hints)]
    return named[0] if len(named) == 1 else None


def classify(widget: FormWidget) -> WidgetRole:
    """The role of one widget: key by the locked rule, then its party and part."""
    key, problem = match_acroform_field(widget.name)
    if key is None:
        return WidgetRole(widget, None, problem)
    text = " ".join(filter(None, [widget.name, widget.label]))
    words = name_words(widget.name)
    if key == "address" and NOT_POSTAL.search(normalize_acroform_name(text)):
        return WidgetRole(widget, None, "not_postal")
    part = None
    if key == "dob":
        part = _part(words, DATE_PARTS)
    elif key == "full_name":
        part = _part(words, NAME_PARTS)
    return WidgetRole(widget, key, None, party_of(text), part)


def phone_rank(role: WidgetRole) -> int:
    """Preference among a form's phone widgets of the subject (0 best; fax never)."""
    words = set(role.words)
    if "fax" in words:
        return 99
    named = [q for q in PHONE_QUALIFIERS if q in words]
    if not named:
        return 0
    return 1 + min(PHONE_QUALIFIERS.index(q) for q in named)
