"""Slice 2: write the final values into the target form (``artifacts/filled.pdf``).

Rules:

* only ``filled`` values are written, only into text widgets, only into widgets of the form's
  subject (the patient, the injured employee): the doctor's, employer's or emergency contact's
  name, phone and address widgets stay empty;
* ``needs_review`` fields are left empty and listed with their evidence in review.json;
* a value is written in the shape its widget asks for: a date split over month/day/year
  widgets, ``MM/DD/YYYY`` otherwise; a name split over first/middle/last widgets or in the
  widget's order ("last first middle"); a US phone in national format;
* one phone widget is filled (the plain or home number before cell, work, other; never a fax);
  a street widget of a form that asks for city, state and ZIP separately is left for review;
  a value longer than the widget allows is not truncated but left for review;
* the target's bytes are never modified: the filled form is a new document.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date

import phonenumbers
import pymupdf
from nameparser import HumanName

from repro_assets.forms.acroform import (
    BIRTHPLACE,
    FAX_RANK,
    TEXT,
    WidgetRole,
    classify,
    name_words,
    normalize_acroform_name,
    phone_rank,
)
from repro_assets.forms.form_parts import FormParts
from repro_assets.forms.med_rows import MedicationRow, dose_text, rows
from repro_assets.forms.models import (
    AUTO_FILL_THRESHOLD,
    FinalField,
    FinalResult,
    ReviewItem,
    SkippedWidget,
    WrittenWidget,
)
from repro_assets.forms.parties import (
    POLICYHOLDER,
    SUBJECT,
    is_subject,
    mentions,
    party_of,
    subject_word,
)
from repro_assets.forms.postal import split_postal
from repro_assets.forms.scoring import REVIEW_FLAGS
from repro_assets.forms.widget_columns import above_of, continue_columns, left_of
from repro_assets.forms.widget_meaning import date_order, name_order, postal_part

_SPLIT_ADDRESS = re.compile(r"\b(?:city|zip|zipcode|postal)\b")
_ALL_POSTAL = frozenset({"city", "state", "zip"})


@dataclass(frozen=True)
class Write:
    """One value to write into one widget."""

    role: WidgetRole
    field: str
    value: str


@dataclass
class FillPlan:
    """What goes into the form, and what is left empty (and why)."""

    writes: list[Write] = field(default_factory=list)
    skipped: list[SkippedWidget] = field(default_factory=list)
    review_widgets: dict[str, list[str]] = field(default_factory=dict)
    form_subject: str | None = None


def _format_date(role: WidgetRole, iso: str) -> str:
    when = date.fromisoformat(iso)
    if role.part and "#" in role.part:  # one digit per box: "dob_d1" .. "dob_y4"
        base, place = role.part.split("#")
        digits = {"day": f"{when.day:02d}", "month": f"{when.month:02d}",
                  "year": f"{when.year:04d}"}[base]
        return digits[int(place) - 1] if int(place) <= len(digits) else ""
    if role.part == "month":
        return f"{when.month:02d}"
    if role.part == "day":
        return f"{when.day:02d}"
    if role.part == "year":
        short = "yy" in role.words and "yyyy" not in role.words
        return f"{when.year % 100:02d}" if short else f"{when.year:04d}"
    compact = normalize_acroform_name(role.widget.name).replace(" ", "").replace("/", "")
    printed = date_order(" ".join(filter(None, [role.widget.label, role.widget.placed,
                                                 role.widget.hint])))
    if "yyyymmdd" in compact or printed[:1] == ["year"]:
        text = when.isoformat()
    elif "ddmmyyyy" in compact or printed[:1] == ["day"]:
        text = f"{when.day:02d}/{when.month:02d}/{when.year:04d}"
    else:
        text = f"{when.month:02d}/{when.day:02d}/{when.year:04d}"
    if role.widget.maxlen == 8:
        text = re.sub(r"\D", "", text)
    return text


def _format_name(role: WidgetRole, value: str) -> str:
    words = role.words
    name = HumanName(value)
    if role.order:  # the label asks for the whole name in its order ("Last, First, MI")
        initial = "initial" in words or "mi" in words
        middle = (f"{name.middle[:1]}." if initial else name.middle) if name.middle else ""
        given = " ".join(p for p in (name.first, middle) if p)
        if role.order == "last_first":
            return f"{name.last}, {given}" if given else name.last
        return " ".join(p for p in (given, name.last) if p)
    if role.part == "first":
        return name.first
    if role.part == "first_middle":  # "first name and middle initial"
        initial = "initial" in words or "mi" in words
        middle = (f"{name.middle[:1]}." if initial else name.middle) if name.middle else ""
        return " ".join(p for p in (name.first, middle) if p)
    if role.part == "last":
        return name.last
    if role.part == "middle":
        initial = "mi" in words or "initial" in words
        return (name.middle[:1] if initial else name.middle) if name.middle else ""
    if "last" in words and "first" in words:
        if words.index("last") < words.index("first"):
            return f"{name.last}, {' '.join(p for p in (name.first, name.middle) if p)}"
        return " ".join(p for p in (name.first, name.middle, name.last) if p)
    return value


def _format_phone(role: WidgetRole, e164: str) -> str:
    number = phonenumbers.parse(e164, None)
    if role.part in ("area", "prefix", "line", "local"):  # split North American number boxes
        national = str(number.national_number)
        if number.country_code != 1 or len(national) != 10:
            raise ValueError("not a North American number")
        return {"area": national[:3], "prefix": national[3:6], "line": national[6:],
                "local": f"{national[3:6]}-{national[6:]}"}[role.part]
    style = (phonenumbers.PhoneNumberFormat.NATIONAL if number.country_code == 1
             else phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    text = phonenumbers.format_number(number, style)
    if role.widget.maxlen and len(text) > role.widget.maxlen:  # digits only in a short box
        text = (str(number.national_number) if number.country_code == 1
                else re.sub(r"\D", "", e164))
    return text


def format_value(role: WidgetRole, normalized: str) -> str:
    """The text to write into ``role``'s widget for a normalized field value."""
    if role.key == "dob":
        return _format_date(role, normalized)
    if role.key == "full_name":
        return _format_name(role, normalized)
    if role.key == "phone":
        return _format_phone(role, normalized)
    return normalized


def _skip(role: WidgetRole, reason: str) -> SkippedWidget:
    return SkippedWidget(widget=role.widget.name, page=role.widget.page, field=role.key,
                         party=role.party, reason=reason)


def _postal_boxes(roles: list[WidgetRole]) -> dict[int, frozenset[str]]:
    """Per page, the parts of the subject's address (city, state, zip) the form asks in boxes
    of their own there; a page without any (the address goes whole into its box) is not
    listed (a "State:" asked pages later in a question of its own splits nothing)."""
    out: dict[int, frozenset[str]] = {}
    for page in sorted({r.widget.page for r in roles}):
        parts = _page_postal_boxes([r for r in roles if r.widget.page == page])
        if parts:
            out[page] = parts
    return out


def _page_postal_boxes(roles: list[WidgetRole]) -> frozenset[str] | None:
    """The postal parts asked in boxes of their own among ``roles`` (one page's)."""
    parts: set[str] = set()
    for r in roles:
        if r.widget.kind in ("combobox", "listbox") and is_subject(r.party) and postal_part(
                " ".join(name_words(r.widget.name.split(".")[-1]))) == "state":
            parts.add("state")  # a state chosen from a list: asked, though not written here
        if not is_subject(r.party) or r.widget.kind != TEXT:
            continue
        if r.key == "address" and r.part:
            parts.update(r.part.split("+"))
        elif r.key is None and _SPLIT_ADDRESS.search(normalize_acroform_name(r.widget.name)) \
                and not BIRTHPLACE.search(normalize_acroform_name(r.widget.name)):
            parts.add("unknown")  # a city or ZIP box whose role is not known
    return frozenset(parts) if parts else None


def _copy_key(role: WidgetRole) -> tuple[str, ...]:
    """What tells a widget from its copies: field, part, row, name without its copy number
    ("First Name_2" -> "first name") and tooltip. Two subject widgets with the same key are
    the same question asked twice (the patient's and, say, the prescriber's)."""
    base = re.sub(r"[\s_\-.#]*\d+$", "", normalize_acroform_name(role.widget.name))
    tip = re.sub(r"\d+", "", role.widget.label or role.widget.placed or "").strip().lower()
    return (role.key or "", role.part or "", str(role.row), base, tip)


def _row_value(role: WidgetRole, items: list[MedicationRow]) -> str:
    """The text of one medication-row widget ("" when the item has no such column)."""
    assert role.row is not None
    if role.row < 1 or role.row > len(items):
        return ""
    row = items[role.row - 1]
    if role.part == "row_name":
        return row.name
    if role.part == "row_dose":
        return dose_text(row, role.description)
    return row.often


#: Fields another party also has (a name, a phone, an address, a birth date): a widget of one
#: of these with no party of its own, placed after another party's widget, is reviewed.
UNBOUND_REVIEW_KEYS = frozenset({"full_name", "phone", "address", "dob"})


def _widget_party(role: WidgetRole) -> str | None:
    """The party of a widget, also of one asking for no v1 field ("Emergency Contact Name")."""
    if role.key is not None or role.party is not None:
        return role.party
    placed = role.widget.placed  # a label, not a sentence of the form's text near the box
    short = placed if placed and len(placed.split()) <= _LABEL_WORDS else None
    return party_of(" ".join(filter(None, [role.widget.name, role.widget.label, short])))


_LABEL_WORDS = 10  # a longer printed text near a box is the form's prose ("... C corporation")
_HINT = re.compile(r"\(([^)]*)\)")
_DIFFERENT = re.compile(r"\b(?:if\s+(?:different|other|not)|other\s+than)\b", re.IGNORECASE)


def _hint_names_another(role: WidgetRole) -> bool:
    """True when a widget's parenthesised hint names another party or says "if different"."""
    text = " ".join(filter(None, [role.widget.name, role.widget.label, role.widget.placed]))
    return any(_DIFFERENT.search(hint) or any(m.party != SUBJECT for m in mentions(hint))
               for hint in _HINT.findall(text))


#: A widget asking for a value the subject had before, or by another name ("Previous
#: Address", "Former Name", "Maiden Name"): the documents' current value is not its answer.
_NOT_CURRENT = re.compile(r"\b(?:previous|former|prior|old|past|maiden|alias|aka|birth name)\b")
#: "Mailing Address if different", "(if other than home)": only when it differs.
_IF_DIFFERENT = re.compile(r"\b(?:if\s+(?:different|other|not\s+(?:the\s+)?same)|other\s+than)\b")
#: A widget asking for the subject's work contact ("Business Phone", "Work Address").
_WORK = re.compile(r"\b(?:work|business|office|employment|job|company)\b")


#: A box the form keeps for its issuer's staff ("For Office Use Only", "Official use").
_OFFICE_USE = re.compile(r"\b(?:use\s+only|official\s+use|do\s+not\s+write)\b", re.IGNORECASE)


def _widget_words(role: WidgetRole) -> str:
    """The widget's name, tooltip and printed label, normalized (lower case, no _ or -)."""
    return normalize_acroform_name(" ".join(filter(None, [
        role.widget.name, role.widget.label, role.widget.printed, role.widget.placed])))


def _asks_for_another_value(role: WidgetRole, item: FinalField) -> str | None:
    """Why a subject widget asks for another value than the field's (None when it does not):
    a past value, a value only if different, or a work contact the evidence does not give."""
    words = _widget_words(role)
    if _NOT_CURRENT.search(words):
        return "not_the_current_value"
    if _IF_DIFFERENT.search(words):
        return "party_uncertain:only_if_different"
    if role.key in ("phone", "address") and _WORK.search(words) and not any(
            _WORK.search(normalize_acroform_name(e.quoted_text)) for e in item.evidence):
        return "work_contact_not_in_evidence"
    return None


_STREET_WORDS = re.compile(r"\b(?:address|street)\b")


def _row_asks_another(role: WidgetRole, texts: list[WidgetRole]) -> str | None:
    """Why a box asks for another value than the subject's current one because the box its
    row starts with does ("Earlier name, if not the same: [First] [Middle]"): the
    boxes of one split value share the label of the first."""
    seen = {id(role)}
    left = left_of(role, texts) if role.widget.rect is not None else None
    while left is not None and id(left) not in seen:
        words = _widget_words(left)
        if role.key == "address" and role.part and left.key is None and \
                _STREET_WORDS.search(words):
            # "PERMANENT ADDRESS (NUMBER & STREET) [__] CITY [__]": the row's street box is
            # not read as the subject's address, so neither are the parts after it
            return "address_part_of_unread_row"
        if left.problem == "not_current" or _NOT_CURRENT.search(words):
            return "not_the_current_value:row"
        if _IF_DIFFERENT.search(words):
            return "party_uncertain:only_if_different:row"
        seen.add(id(left))
        left = left_of(left, texts)
    return None


def _shown_for_another(role: WidgetRole) -> bool:
    """True when a copy of the widget's field (the same field shown elsewhere on the form)
    stands where another party's data go, or asks for another v1 field."""
    for copy in role.widget.copies:
        other = classify(copy)
        if not is_subject(_widget_party(other)) or (other.key not in (None, role.key)):
            return True
    return False


@dataclass(frozen=True)
class _FormView:
    """What the whole form says that decides one widget: the fields asked of other parties
    and the pages with another party's widgets, the widgets after the first other party's
    widget, the subject's field copies, the medication rows and slots, the preferred phone
    widget and the address parts asked in boxes of their own."""

    others: set[str]
    other_pages: set[int]
    after_other: set[int]
    copies: dict[tuple[str, ...], list[int]]
    med_rows: list[MedicationRow]
    row_slots: int
    best_phone: int
    postal: dict[int, frozenset[str]]
    plain_name: bool = False
    us_form: bool = False
    other_top: dict[int, float] = field(default_factory=dict)
    name_top: dict[int, float] = field(default_factory=dict)
    you: bool = False
    bare_labels: dict[int, int] = field(default_factory=dict)
    under_other_name: frozenset[int] = frozenset()
    #: copy key -> the boxes of that key in the block of a name asked once on its page
    named_block: dict[tuple[str, ...], list[int]] = field(default_factory=dict)
    unit_pages: frozenset[int] = frozenset()
    unit_rows: frozenset[int] = frozenset()


def _form_view(roles: list[WidgetRole], texts: list[WidgetRole], final: FinalResult,
               extra: Mapping[int, str]) -> _FormView:
    """The form-wide facts of :class:`_FormView` for the text widgets ``texts`` (``extra``:
    the boxes that only continue or repeat another, see :func:`extra_boxes`)."""
    others = {r.key for r in texts if r.key and not is_subject(r.party)}
    # the subject's block comes first: a bare widget after another party's widget may be theirs
    first_other = next((i for i, r in enumerate(texts) if _opens_block(r)), len(texts))
    after_other = {id(r) for r in texts[first_other:]}
    copies: dict[tuple[str, ...], list[int]] = {}
    for r in texts:
        if r.key and is_subject(r.party) and id(r) not in extra:
            copies.setdefault(_copy_key(r), []).append(r.widget.page)
    med = final.fields.get("medications")
    med_rows = rows(med.normalized_value or "", "\n".join(e.quoted_text for e in med.evidence)) \
        if med is not None and med.normalized_value else []
    row_slots = sum(1 for r in texts if r.key == "medications" and r.part == "row_name"
                    and is_subject(r.party))
    phones = [phone_rank(r) for r in texts if r.key == "phone" and is_subject(r.party)
              and not (r.party is None and id(r) in after_other)]  # those are reviewed
    other_pages = {r.widget.page for r in texts if not is_subject(_widget_party(r))}
    labels = {id(r): _bare_label(r, texts) for r in texts
              if r.party is None and r.key in UNBOUND_REVIEW_KEYS and id(r) not in extra}
    counts = Counter(labels.values())
    bare_labels = {key: counts[label] for key, label in labels.items()}
    named_block = _named_blocks(texts, copies)
    blocked = {i for ids in named_block.values() for i in ids}
    # a bare label asked again and again, once in the block of the subject's name: that box
    alone = Counter(label for key, label in labels.items() if key in blocked)
    bare_labels = {key: 1 if key in blocked and alone[labels[key]] == 1 else count
                   for key, count in bare_labels.items()}
    other_top: dict[int, float] = {}
    for r in texts:
        if r.key and not is_subject(r.party) and r.widget.rect is not None:
            page = r.widget.page
            other_top[page] = min(other_top.get(page, r.widget.rect[1]), r.widget.rect[1])
    name_top: dict[int, float] = {}
    named = {r.widget.page for r in texts if r.key == "full_name" and _own_name(r)}
    for r in texts:
        # the page's name box the subject's role labels ("Patient name", "Your name"), else
        # a bare one ("Name [__]" under "Requested by" above it starts no subject's block)
        if _asks_a_name(r) and r.widget.rect is not None and (
                _own_name(r) or r.widget.page not in named):
            page = r.widget.page
            name_top[page] = min(name_top.get(page, r.widget.rect[1]), r.widget.rect[1])
    plain_name = any(r.key == "full_name" and is_subject(r.party) and r.qualifier is None
                     for r in texts)
    you = any(r.key == "full_name" and _YOUR.search(_widget_words(r)) for r in texts)
    return _FormView(others, other_pages, after_other, copies, med_rows, row_slots,
                     min(phones, default=0), _postal_boxes(roles), plain_name,
                     _us_form(texts, final), other_top=other_top, name_top=name_top,
                     bare_labels=bare_labels,
                     you=you, under_other_name=_under_other_name(texts),
                     unit_pages=frozenset(r.widget.page for r in texts if _unit_box(r)),
                     unit_rows=_streets_beside_units(texts),
                     named_block=named_block)


#: A box of its own for the apartment or suite ("Apt #:", "Unit", "Suite No.").
_UNIT_LABEL = re.compile(r"^\W*(?:apt|apartment|unit|suite|ste)\.?\s*(?:#|no\.?|number)?\W*$",
                         re.IGNORECASE)
#: The apartment or suite at the end of a street line ("..., Apt 4B", "... Unit 12").
_UNIT_TAIL = re.compile(r"\s*,?\s+(?:apt|apartment|unit|suite|ste|#)\.?\s*#?\s*"
                        r"(?P<unit>[A-Za-z0-9\-]{1,6})$", re.IGNORECASE)


_UNIT_WORD = re.compile(r"\b(?:apt|apartment|unit|suite|ste)\b|#", re.IGNORECASE)


def _streets_beside_units(texts: list[WidgetRole]) -> frozenset[int]:
    """The subject's street boxes with an apartment box of the subject's in their row
    ("Street [__] Apt # [__]"): those take the street without its apartment."""
    units = [r for r in texts if _unit_box(r) and is_subject(_widget_party(r))
             and r.widget.rect is not None]
    out = set()
    for role in texts:
        rect = role.widget.rect
        if role.key != "address" or role.part is not None or rect is None:
            continue
        if any(u.widget.page == role.widget.page and u.widget.rect is not None
               and u.widget.rect[0] >= rect[2] - 1
               and u.widget.rect[1] <= (rect[1] + rect[3]) / 2 <= u.widget.rect[3]
               for u in units):
            out.add(id(role))
    return frozenset(out)


def _unit_box(role: WidgetRole) -> bool:
    """True for a box asking only for the apartment or suite of an address."""
    return any(_UNIT_LABEL.match(t) for t in (role.widget.label, role.widget.placed,
                                               role.widget.name) if t)


#: A name box the form asks of something or someone the subject is not ("Pharmacy Name",
#: "Emergency contact name").
_OTHER_NAME = "not_a_persons_name"


def _under_other_name(texts: list[WidgetRole]) -> frozenset[int]:
    """The party-less contact boxes (address, phone) stacked under a name box that is no
    name of the subject's ("Which pharmacy do you use? Name [__] Address [__] Phone [__]"):
    that name's block, the pharmacy's address and phone, not the subject's."""
    out: set[int] = set()
    for role in texts:
        if role.key not in ("address", "phone") or role.party is not None or \
                role.widget.rect is None:
            continue
        seen, up = {id(role)}, above_of(role, texts)
        while up is not None and id(up) not in seen and up.key in ("address", "phone") and \
                up.party is None:
            seen.add(id(up))
            up = above_of(up, texts)
        if up is not None and id(up) not in seen and up.problem == _OTHER_NAME:
            out.add(id(role))
    return frozenset(out)


#: A form speaking to its subject ("Your first name") and a name asked in the third person
#: ("enter their name", "his or her name"): the latter is another person's.
_YOUR = re.compile(r"\byour\b")
_THIRD_PERSON = re.compile(r"\b(?:their|his|her)\s+(?:\w+\s+)?names?\b")
#: The only review reason of a phone that a US form context settles: the +1 was assumed.
_ASSUMED_COUNTRY = "default_country_assumed"
#: What the country's warning costs a candidate (validator weight x (pass - warn)).
_WARN_LOSS = 0.30 * (1.0 - 0.6) + 1e-9
_OTHER_DOUBTS = re.compile(r"^(?:contradiction|below_auto_fill_threshold|validator_failed)")


def _us_form(texts: list[WidgetRole], final: FinalResult) -> bool:
    """True when the form and the subject's values are American: the form asks for a ZIP
    code or an area code in a box of its own, or the subject's address reads "street, city,
    ST 12345"."""
    if any((r.key == "address" and r.part and "zip" in r.part.split("+"))
           or (r.key == "phone" and r.part == "area") for r in texts):
        return True
    address = final.fields.get("address")
    return bool(address and address.normalized_value
                and split_postal(address.normalized_value) is not None)


def us_phone_certain(item: FinalField) -> bool:
    """True when a phone is left for review only because its +1 was assumed, and it is a
    valid North American number printed with its area code (ten digits in the quote): on
    a US form that number is the subject's as printed."""
    if item.normalized_value is None or _ASSUMED_COUNTRY not in item.rationale:
        return False
    doubts = [r for r in item.rationale if r in REVIEW_FLAGS or _OTHER_DOUBTS.match(r)]
    if "below_auto_fill_threshold" in doubts and \
            "validator_warn:explicit_country" in item.rationale and \
            item.confidence + _WARN_LOSS >= AUTO_FILL_THRESHOLD:
        doubts.remove("below_auto_fill_threshold")  # only the country's warning lowered it
    if doubts != [_ASSUMED_COUNTRY]:
        return False
    try:
        number = phonenumbers.parse(item.normalized_value, None)
    except phonenumbers.NumberParseException:
        return False
    national = str(number.national_number)
    return number.country_code == 1 and len(national) == 10 and \
        phonenumbers.is_valid_number(number) and any(
            national in re.sub(r"\D", "", e.quoted_text) for e in item.evidence)


def _bare_label(role: WidgetRole, texts: list[WidgetRole]) -> tuple[str, ...]:
    """A party-less widget's field, part, printed label and the label of the box its row
    starts with, without digits ("Tel. no."; "Middle" of the row "Name to
    print")."""
    head, seen = role, {id(role)}
    while head.widget.rect is not None:
        left = left_of(head, texts)
        if left is None or id(left) in seen:
            break
        head = left
        seen.add(id(head))
    labels = [r.widget.placed or r.widget.label or r.widget.printed or "" for r in (role, head)]
    return (role.key or "", role.part or "",
            *(re.sub(r"[\d\W_]+", " ", text.lower()).strip() for text in labels))


_NAME_WORD = re.compile(r"\bnames?\b")


def _asks_a_name(role: WidgetRole) -> bool:
    """True for a box asking the subject's name, or a name of no one else whose part or
    shape is not read ("NAME (PLEASE PRINT)" over split boxes)."""
    if not is_subject(_widget_party(role)):
        return False
    if role.key == "full_name":
        return True
    return role.key is None and role.problem in (None, "split_value_without_part") and \
        bool(_NAME_WORD.search(normalize_acroform_name(" ".join(filter(None, [
            role.widget.name, role.widget.label, role.widget.placed])))))


_BLOCK_STEPS = 6  # boxes walked left / up from a box to the name heading its block


def _named_blocks(texts: list[WidgetRole], copies: dict[tuple[str, ...], list[int]]
                  ) -> dict[tuple[str, ...], list[int]]:
    """Per copy key, the party-less boxes whose block (walking left in the row, else up the
    column, over boxes of a person's fields) starts at a name box of the subject asked once
    on its page ("Full Name [__]" over "Address [__] City [__]"; "Name [__]" over the
    same boxes again is asked twice: a block of someone the form lists)."""
    out: dict[tuple[str, ...], list[int]] = {}
    for role in texts:
        if role.key not in UNBOUND_REVIEW_KEYS or role.key == "full_name" or \
                not is_subject(role.party) or role.widget.rect is None:
            continue
        here, seen = role, {id(role)}
        for _ in range(_BLOCK_STEPS):
            step = left_of(here, texts, gap=None) or above_of(here, texts)
            if step is None or id(step) in seen or step.key not in (*UNBOUND_REVIEW_KEYS, None) \
                    or not is_subject(_widget_party(step)):
                break
            seen.add(id(step))
            here = step
            if step.key == "full_name":
                if copies.get(_copy_key(step), []).count(step.widget.page) == 1:
                    out.setdefault(_copy_key(role), []).append(id(role))
                break
    return out


def _only_copy_under_the_name(role: WidgetRole, view: _FormView) -> bool:
    """True when, of a field asked several times on a page, this box alone stands in the block
    of the subject's name asked once there."""
    return view.named_block.get(_copy_key(role), []) == [id(role)]


def _own_name(role: WidgetRole) -> bool:
    """True for a name box whose label names the subject ("Patient name", "Your name")."""
    return role.party == SUBJECT or bool(_YOUR.search(_widget_words(role)))


def _above_other_parties(role: WidgetRole, view: _FormView) -> bool:
    """True when the widget stands above every widget of another party on its page and is
    the subject's name box or stands under it (the form asks the subject first: "Your full
    name" over "Name of person to contact"); a box above the page's first name box is no
    part of the subject's block ("Send the sheet to: Address [__]" heading the form is the
    issuer's)."""
    top = view.other_top.get(role.widget.page)
    name = view.name_top.get(role.widget.page)
    return role.widget.rect is not None and top is not None and role.widget.rect[3] <= top \
        and name is not None and name <= role.widget.rect[1] + 1


def _opens_block(role: WidgetRole) -> bool:
    """True for a widget of another party that heads the boxes after it: its party comes
    from its section heading, not from its own label, row or column ("Mother's name" is the
    mother's box and the boxes of its row; "Mailing address" further down, naming no one,
    is the subject's again)."""
    party = _widget_party(role)
    if is_subject(party):
        return False
    own = " ".join(filter(None, [role.widget.name, role.widget.label, role.widget.placed,
                                 role.widget.printed]))
    return party_of(normalize_acroform_name(own)) != party and \
        party_of(role.widget.section or "") == party


def _fits_as_printed(role: WidgetRole, e164: str) -> bool:
    """True when a phone goes into the widget in its national format or as one of its
    parts: a box too short for "(503) 555-0100" would take the bare digits, no reading a
    person checks at a glance (that number stays for review)."""
    if role.part or not role.widget.maxlen:
        return True
    number = phonenumbers.parse(e164, None)
    national = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    return len(national) <= role.widget.maxlen


def _not_writable(role: WidgetRole, item: FinalField | None, view: _FormView) -> str | None:
    """Why nothing of the subject's values goes into the widget (no review asked): no v1
    field, another party's, no value, or not the preferred phone widget."""
    if role.key is None:
        return role.problem or "no_v1_field"
    if _OFFICE_USE.search(" ".join(filter(None, [_widget_words(role), role.widget.section]))):
        return "office_use_only"  # "FOR OFFICE USE ONLY", "Do not write below (staff use)"
    if role.key == "insurance_member_id" and role.party == POLICYHOLDER:
        # "INSURED'S I.D. NUMBER": the subject's id only when the subject is the insured
        return "party_uncertain:insured_may_be_another_person"
    if not is_subject(role.party):
        return f"other_party:{role.party}"
    if role.key == "full_name" and view.you and _THIRD_PERSON.search(_widget_words(role)):
        # "... enter their name" on a form that asks "Your first name": someone else's
        return "not_the_persons_name:third_person"
    if role.key == "full_name" and role.qualifier and view.plain_name:
        # "Preferred Name", "Sponsor #1 - Name" on a form that asks the subject's own name
        # elsewhere: another kind of name, or a person the form names by a role of its own
        return f"not_the_persons_name:{role.qualifier}"
    if item is None:
        return "not_in_schema"
    if item.status == "missing" or item.normalized_value is None:
        return "missing"
    if role.key == "phone" and phone_rank(role) >= FAX_RANK:  # "Phone2" whose tooltip says fax
        return "fax_number"
    if role.key == "phone" and phone_rank(role) != view.best_phone and not (
            role.party is None and id(role) in view.after_other):  # that one is reviewed
        return "other_phone_widget"
    return None


def _party_uncertain(role: WidgetRole, item: FinalField, view: _FormView) -> str | None:
    """Why the widget may not be the subject's (or may ask for another value): it is left
    empty and listed for review."""
    if role.party is None and role.key in view.others and role.widget.page in view.other_pages \
            and not _above_other_parties(role, view):
        # nothing says whose it is, and the form asks another party for the same field on
        # its page (a page, or the rows of a page, before any other party's widget is the
        # subject's)
        return "party_uncertain:another_party_has_this_field"
    if id(role) in view.under_other_name:
        return "party_uncertain:under_another_name"
    if _hint_names_another(role):  # a subject or no party said, but the hint names one
        # "Phone (patient or guardian)", "Address (if different from patient)"
        return "party_uncertain:hint_names_another_party"
    if role.party is None and id(role) in view.after_other and role.key in UNBOUND_REVIEW_KEYS:
        # it follows another party's widget, and nothing puts it back in the subject's part
        return "party_uncertain:after_another_partys_widget"
    other_value = _asks_for_another_value(role, item)
    if other_value:
        return other_value
    if _shown_for_another(role):
        # one field printed in several places, one of them in another party's block:
        # writing it would write there too
        return "party_uncertain:field_shown_in_another_block"
    if role.party is None and view.bare_labels.get(id(role), 0) > 1:
        # the same phone label printed at three boxes, none naming whose: the filer's,
        # a helper's and a firm's look alike
        return "party_uncertain:same_label_no_party"
    pages = view.copies.get(_copy_key(role), [])
    if len(pages) > 1 and (role.party is None or pages.count(role.widget.page) > 1) and \
            not _only_copy_under_the_name(role, view):
        # "First Name" and "First Name_2" with no party said, or twice on one page: whose
        # is which? ("Patient Name" asked again on the next page is the subject's)
        return "party_uncertain:same_field_twice_no_party"
    return None


def _place_value(plan: FillPlan, role: WidgetRole, key: str, normalized: str,
                 view: _FormView) -> None:
    """Write the subject's value into the widget in the shape it asks for, or record why
    it is left empty (a split address, more medications than rows, a missing part, too
    long)."""
    postal = view.postal.get(role.widget.page)
    if key == "address" and postal:
        # street / city / state / ZIP in boxes of their own: only a whole, parsed address
        parsed = split_postal(normalized)
        if parsed is None or postal != _ALL_POSTAL:
            plan.skipped.append(_skip(role, "address_split"))
            return
        normalized = parsed.text(role.part)
    if key == "address" and role.part is None and role.widget.page in view.unit_pages:
        # the form asks the apartment in a box of its own: the street box takes the street
        # without its apartment; an apartment left anywhere else leaves the box empty
        street = _UNIT_TAIL.sub("", normalized) if postal and id(role) in view.unit_rows \
            else normalized  # the unit box of another address on the page takes no part
        if _UNIT_WORD.search(street):
            plan.skipped.append(_skip(role, "address_unit_box"))
            return
        normalized = street
    if role.part and role.part.startswith("row_"):
        if len(view.med_rows) > view.row_slots:
            plan.skipped.append(_skip(role, "more_items_than_rows"))
            plan.review_widgets.setdefault(key, []).append(role.widget.name)
            return
        value = _row_value(role, view.med_rows)
        if value:
            plan.writes.append(Write(role, key, value))
        else:
            plan.skipped.append(_skip(role, "missing_part"))
        return
    try:
        value = format_value(role, normalized)
    except ValueError:
        plan.skipped.append(_skip(role, "cannot_format"))
        return
    if not value:
        plan.skipped.append(_skip(role, "missing_part"))
    elif role.widget.maxlen and len(value) > role.widget.maxlen:
        plan.skipped.append(_skip(role, "too_long"))
    else:
        plan.writes.append(Write(role, key, value))


_NUMBERED = re.compile(r"\d+")


def extra_boxes(texts: list[WidgetRole]) -> dict[int, str]:
    """The subject's boxes that add nothing to the box of their field above them: the second
    line of an address under its first, with no label of its own ("Home address: [____]"
    over "[____]"), and a numbered alternative phone ("Phone 1: [ ]" over "Phone 2: [ ]":
    one number goes into the first). Widget id -> why it stays empty."""
    out: dict[int, str] = {}
    for role in texts:
        if role.key not in ("address", "phone") or not is_subject(role.party) or \
                role.widget.rect is None:
            continue
        above = above_of(role, texts)
        if above is None or above.key != role.key or above.part != role.part or \
                not is_subject(above.party) or id(above) in out:
            continue
        same = _copy_key(above)[:4] == _copy_key(role)[:4]
        if role.key == "address" and same and role.part is None and not role.widget.placed:
            out[id(role)] = "continuation_line"
        elif role.key == "phone" and role.widget.placed and above.widget.placed and \
                _NUMBERED.sub("#", role.widget.placed) == _NUMBERED.sub(
                    "#", above.widget.placed) != role.widget.placed:
            out[id(role)] = "other_phone_widget"
    return out


def _given_names_before_last(roles: list[WidgetRole]) -> list[WidgetRole]:
    """``roles`` with a "first name and middle initial" box followed in its row by a last
    name box made the given names' box ("[Nadia L.] [Last name]": the label's two parts are
    one box, the next box has a caption of its own)."""
    texts = [r for r in roles if r.widget.kind == TEXT and r.widget.rect is not None]
    updated = {}
    for role in texts:
        left = left_of(role, texts) if role.key == "full_name" and role.part == "last" \
            else None
        if left is not None and left.key == "full_name" and left.part == "first" and \
                name_order(left.widget.placed or left.widget.label or "") == ["first", "middle"]:
            updated[id(left)] = replace(left, part="first_middle")
    return [updated.get(id(r), r) for r in roles]


def _numbers_after_area_codes(roles: list[WidgetRole]) -> list[WidgetRole]:
    """``roles`` with a phone box right after an area code box of its row made the rest of
    the number ("[503] [555-0100]": the second box takes no whole number)."""
    texts = [r for r in roles if r.widget.kind == TEXT and r.widget.rect is not None]
    updated = {}
    for role in texts:
        if role.key == "phone" and role.part is None:
            left = left_of(role, texts)
            if left is not None and left.key == "phone" and left.part == "area":
                updated[id(role)] = replace(role, part="local")
    return [updated.get(id(r), r) for r in roles]


def plan_fill(roles: list[WidgetRole], final: FinalResult) -> FillPlan:
    """Decide, for every text widget of the target, what is written into it (if anything)."""
    plan = FillPlan(form_subject=subject_word(
        " ".join(filter(None, [r.widget.name, r.widget.label])) for r in roles))
    roles = continue_columns(roles, _widget_party)  # "CITY" under "PATIENT'S ADDRESS"
    roles = _numbers_after_area_codes(roles)
    roles = _given_names_before_last(roles)
    texts = [r for r in roles if r.widget.kind == TEXT]
    extra = extra_boxes(texts)
    view = _form_view(roles, texts, final, extra)
    parts = FormParts(r.widget.label for r in texts)  # "Part 4. Details of the <role>."
    for role in texts:
        item = final.fields.get(role.key) if role.key is not None else None
        reason = _not_writable(role, item, view) or extra.get(id(role)) or parts.refusal(
            role.widget.label) or parts.asked_again(role.widget.label, role.key, role.part)
        if reason:
            plan.skipped.append(_skip(role, reason))
            continue
        assert role.key is not None and item is not None and item.normalized_value is not None
        reason = _party_uncertain(role, item, view) or _row_asks_another(role, texts)
        if reason:
            plan.skipped.append(_skip(role, reason))
            plan.review_widgets.setdefault(role.key, []).append(role.widget.name)
            continue
        if item.status == "needs_review" and not (
                role.key == "phone" and view.us_form and us_phone_certain(item)
                and _fits_as_printed(role, item.normalized_value)):
            plan.review_widgets.setdefault(role.key, []).append(role.widget.name)
            continue
        _place_value(plan, role, role.key, item.normalized_value, view)
    plan.writes.extend(_unit_writes(plan, texts, final))
    return plan


def _unit_writes(plan: FillPlan, texts: list[WidgetRole], final: FinalResult) -> list[Write]:
    """The apartment of the subject's address into the apartment box right of the street box
    it was cut from ("Address: [31 Fern Row] Apt #: [7C]"); nothing when the street box
    stays empty or the address names no apartment."""
    address = final.fields.get("address")
    parsed = split_postal(address.normalized_value or "") if address is not None else None
    unit = _UNIT_TAIL.search(parsed.street) if parsed is not None else None
    if unit is None:
        return []
    taken = {id(w.role) for w in plan.writes}
    out = []
    for write in plan.writes:
        street = write.role.widget.rect
        if write.field != "address" or write.role.part is not None or street is None or \
                write.value != _UNIT_TAIL.sub("", parsed.street if parsed else ""):
            continue  # only a street box whose apartment was cut off
        for box in texts:
            rect = box.widget.rect
            if box.key is None and id(box) not in taken and _unit_box(box) and \
                    is_subject(_widget_party(box)) and rect is not None and \
                    box.widget.page == write.role.widget.page and rect[0] >= street[2] - 1 \
                    and rect[1] <= (street[1] + street[3]) / 2 <= rect[3] and \
                    not (box.widget.maxlen and len(unit["unit"]) > box.widget.maxlen):
                out.append(Write(box, "address", unit["unit"]))
                taken.add(id(box))
                break
    return out


def write_filled(target: bytes, values: Mapping[str, str]) -> tuple[bytes, list[str]]:
    """A new PDF with ``values`` (widget name -> value) in its widgets; the target bytes are
    left as they are. Parses the target: call it in the limited worker
    (:func:`repro_assets.forms.reading.fill_target`).

    Returns:
        The filled PDF and the names of widgets that could not be written.

    Raises:
        ValueError: when the target cannot be opened.
    """
    failed: list[str] = []
    try:
        doc = pymupdf.open(stream=target, filetype="pdf")
    except Exception as exc:  # pymupdf raises several types for broken files
        raise ValueError(f"cannot open target PDF: {exc}") from exc
    with doc:
        for page in doc.pages():
            for widget in page.widgets() or []:
                name = widget.field_name or ""
                if name not in values:
                    continue
                try:
                    widget.field_value = values[name]
                    auto = not widget.text_fontsize
                    if auto:  # "auto": the largest size that fits
                        widget.text_fontsize = fit_font_size(widget, values[name])
                    widget.update()
                    if auto:  # the appearance and /DA agree for viewers that redraw fields
                        _set_da_size(doc, widget.xref, widget.text_fontsize)
                except Exception:  # a broken appearance stream: leave the widget empty
                    failed.append(name)
        data = doc.tobytes(deflate=True)
    return data, sorted(set(failed))


def _set_da_size(doc: pymupdf.Document, xref: int, size: float) -> None:
    kind, da = doc.xref_get_key(xref, "DA")
    text = da if kind == "string" else "/Helv 0 Tf 0 g"
    text = re.sub(r"(/\S+)\s+[\d.]+\s+Tf", rf"\g<1> {size:g} Tf", text)
    doc.xref_set_key(xref, "DA", pymupdf.get_pdf_str(text))


def fit_font_size(widget: pymupdf.Widget, text: str, largest: float = 10.0,
                  smallest: float = 6.0) -> float:
    """The largest font size (step 0.5) at which ``text`` fits the widget's box."""
    rect = widget.rect
    assert rect is not None, "a widget of a page has a rectangle"
    multiline = bool(widget.field_flags & pymupdf.mupdf.PDF_TX_FIELD_IS_MULTILINE)
    size = min(largest, max(smallest, (rect.height - 2) * 0.75))
    while size > smallest:
        lines = max(1, int((rect.height - 2) // (size * 1.2))) if multiline else 1
        if pymupdf.get_text_length(text, fontname="helv", fontsize=size) <= \
                (rect.width - 4) * lines * (0.85 if lines > 1 else 1.0):
            break
        size -= 0.5
    return size


def written_widgets(plan: FillPlan, failed: list[str]) -> list[WrittenWidget]:
    """The review.json entries of the values that went into the form."""
    return [WrittenWidget(widget=w.role.widget.name, page=w.role.widget.page, field=w.field,
                          part=w.role.part, value=w.value)
            for w in plan.writes if w.role.widget.name not in failed]


def review_items(plan: FillPlan, final: FinalResult) -> list[ReviewItem]:
    """Every needs_review field with its evidence and the widgets left empty for it."""
    return [ReviewItem(**dict(item), widgets=plan.review_widgets.get(key, []))
            for key, item in final.fields.items() if item.status == "needs_review"]


def read_back(pdf: bytes) -> dict[str, str]:
    """Widget name -> value of every text widget with a value (PyMuPDF)."""
    out: dict[str, str] = {}
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for page in doc.pages():
            for widget in page.widgets() or []:
                if widget.field_type == pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT and widget.field_value:
                    out[widget.field_name] = str(widget.field_value)
    return out
