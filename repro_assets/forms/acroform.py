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
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pymupdf

from repro_assets.forms.input_fields import Line, label_near, page_lines, row_label, row_left
from repro_assets.forms.models import ALIASES, V1_FIELDS
from repro_assets.forms.parties import (
    ORGANIZATION,
    SUBJECT,
    is_subject,
    mentions,
    nearest_party,
    party_of,
)
from repro_assets.forms.text_cues import is_heading
from repro_assets.forms.widget_labels import place_labels
from repro_assets.forms.widget_meaning import (
    NOT_CURRENT,
    asked_sentence,
    date_order,
    label_words,
    meaning_of,
    name_order,
    names_identifier,
    postal_part,
    qualified_name,
    sentences,
    unfenced,
    without_words,
)

TEXT = "text"
_KINDS = {
    pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT: TEXT,
    pymupdf.mupdf.PDF_WIDGET_TYPE_CHECKBOX: "checkbox",
    pymupdf.mupdf.PDF_WIDGET_TYPE_RADIOBUTTON: "radio",
    pymupdf.mupdf.PDF_WIDGET_TYPE_SIGNATURE: "signature",
    pymupdf.mupdf.PDF_WIDGET_TYPE_COMBOBOX: "combobox",
    pymupdf.mupdf.PDF_WIDGET_TYPE_LISTBOX: "listbox",
    pymupdf.mupdf.PDF_WIDGET_TYPE_BUTTON: "button",
}
#: Widget name words of one part of a split value.
DATE_PARTS = {"month": ("month", "mm", "mo", "m"), "day": ("day", "dd", "d"),
              "year": ("year", "yyyy", "yy", "yr", "y")}
NAME_PARTS = {"first": ("first", "given"), "middle": ("middle", "mi", "initial"),
              "last": ("last", "surname", "family")}
#: Names of postal fields that are not the subject's street address.
NOT_POSTAL = re.compile(r"\b(?:e ?mail|web|url|ip)\b")
#: A place of birth or death ("townofbirth", "Birth state", "Place of death (town)"),
#: matched in a name without spaces: no address of the subject.
BIRTHPLACE = re.compile(r"birth|death|placeof")
FAX_RANK = 99  # the rank of a fax widget: never a phone of the subject
PHONE_QUALIFIERS = ("home", "primary", "main", "cell", "mobile", "work", "day", "evening",
                    "night", "other", "alternate", "alt", "business", "fax")


@dataclass(frozen=True)
class FormWidget:
    """One widget of a target form.

    ``label`` is its tooltip; ``printed`` the label printed next to it on the page (left,
    else above); ``row_text`` everything printed left of it in its row; ``section`` the
    nearest section heading above it that names a party ("TO BE COMPLETED BY THE PHYSICIAN",
    "Patient information"). ``copies`` are the other widgets of the same field (one field
    can show in several places, each with its own label and section: writing the field writes
    every one of them).

    ``placed`` is its label found by the page's layout (:mod:`repro_assets.forms.widget_labels`:
    left, above, caption below, column header, the question of a follow-up box; ``placed_by``
    says which); ``group_index`` / ``group_size`` its place in a value split over boxes of
    one row, ``hint`` the word printed under such a box ("MM"); ``column_row`` /
    ``column_size`` its row in a table column under a header.
    """

    name: str
    label: str | None
    kind: str
    page: int
    maxlen: int = 0
    printed: str | None = None
    section: str | None = None
    row_text: str | None = None
    row_label: str | None = None
    copies: tuple[FormWidget, ...] = ()
    placed: str | None = None
    placed_by: str | None = None
    rect: tuple[float, float, float, float] | None = None
    group_index: int = 0
    group_size: int = 1
    hint: str | None = None
    column_row: int | None = None
    column_size: int = 0


@dataclass(frozen=True)
class WidgetRole:
    """What a widget asks for: a v1 key, the party, the part of a split value.

    ``part`` is a date part (month/day/year), a name part (first/middle/last), a phone part
    (area/prefix/line) or a medication-row column (row_name/row_dose/row_often, with
    ``row`` its number); ``order`` is the name order the label asks for (``last_first``);
    ``qualifier`` the word before "Name" in a label that qualifies it ("Preferred", "Camper"):
    another kind of name, or the subject under a role word the form defines (see fill).
    """

    widget: FormWidget
    key: str | None
    problem: str | None = None
    party: str | None = None
    part: str | None = None
    row: int | None = None
    order: str | None = None
    qualifier: str | None = None

    @property
    def words(self) -> list[str]:
        """The widget's name words, then its tooltip's, its printed label's and the hint
        printed under it."""
        return name_words(self.widget.name) + name_words(self.widget.label or "") + \
            label_words(self.widget.placed or "") + label_words(self.widget.hint or "")

    @property
    def description(self) -> str:
        """Everything the form says about the widget: name, tooltip, printed label."""
        return " ".join(filter(None, [self.widget.name, self.widget.label,
                                      self.widget.printed]))


def normalize_acroform_name(name: str) -> str:
    """Locked step 1: lowercase, ``_`` and ``-`` to spaces (whitespace collapsed)."""
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def name_words(name: str) -> list[str]:
    """Lowercase letter/digit runs of a field name (``Birth Year (yy)`` -> birth, year, yy)."""
    return re.findall(r"[a-z0-9]+", name.lower())


def _contains(name: str, needle: str) -> bool:
    wanted = normalize_acroform_name(needle)
    return wanted in name or wanted.replace(" ", "") in name.replace(" ", "")


def _name_matches(name: str) -> tuple[list[str], list[str]]:
    """The keys a field name contains, and the keys some alias of which it contains."""
    normalized = normalize_acroform_name(name)
    direct = [key for key in V1_FIELDS if _contains(normalized, key)]
    by_alias = [key for key, aliases in ALIASES.items()
                if any(_contains(normalized, alias) for alias in aliases)]
    return direct, by_alias


_NAME_PIECE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def straddled_match(name: str, key: str) -> bool:
    """True when ``key`` (or its alias) is found in a field name only across a word boundary
    with both of its ends inside words ("BlackAfrican American" holds "name" in
    "africaN AMErican"): letters of two words, no word the name says."""
    pieces = [p.lower() for p in _NAME_PIECE.findall(name)]
    squashed = "".join(pieces)
    bounds, at = {0}, 0
    for piece in pieces:
        at += len(piece)
        bounds.add(at)
    found = False
    for needle in (key, *ALIASES.get(key, ())):
        wanted = re.sub(r"[^a-z0-9]", "", needle.lower())
        for hit in re.finditer(f"(?={re.escape(wanted)})", squashed) if wanted else ():
            start, end = hit.start(), hit.start() + len(wanted)
            if start in bounds or end in bounds:
                return False
            found = True
    return found


def _name_key(name: str) -> tuple[str | None, str | None]:
    """The locked name rule's key, dropped when the name's letters spell it only across two
    of its words (the tooltip or the page then say what the box asks)."""
    key, problem = match_acroform_field(name)
    return (None, problem) if key is not None and straddled_match(name, key) else (key, problem)


def match_acroform_field(name: str) -> tuple[str | None, str | None]:
    """Map one AcroForm field name to a v1 key (the locked algorithm).

    Returns:
        ``(key, None)`` on a match, ``(None, "ambiguous")`` when keys or aliases of several
        keys match, ``(None, None)`` when nothing matches.
    """
    direct, by_alias = _name_matches(name)
    keys = set(direct) | set(by_alias)
    if len(keys) > 1:
        return None, "ambiguous"
    if direct:
        return direct[0], None
    if by_alias:
        return by_alias[0], None
    return None, None


#: Name widgets that ask for something other than a person's name ("Primary Insurance Name",
#: "Business Name", "Pharmacy Name").
NOT_PERSON_NAME = re.compile(
    r"\b(?:business|company|employer|pharmacy|drug|brand|product|facility|clinic|hospital|"
    r"network|carrier|insurance|insurer|plan|practice|school|program|account|file|user|group|"
    r"contact|relative|emergency|street|city|town|print|printed|signature|signed)\b",
    re.IGNORECASE)
_HEADING_BAND = 4.0  # headings whose bottoms lie this close stand on one row
_FRAME_HEIGHTS = 2.5  # a drawn box this many heading heights tall frames a block, no bar
_ROW = re.compile(r"(?:(\d{1,2})\W*$)|\((\d{1,2})\)")
_HEADING_WORDS = 12  # a longer line is a sentence of the form's text, no section heading
_SECTION = re.compile(r"^\s*(?:section|part)\s+\w+|\bto\s+be\s+completed\s+by\b|"
                      r"\binformation\b", re.IGNORECASE)


def _row(widget: FormWidget) -> int | None:
    """A medication row's number from its name ("Medication2", "Dose (3)") or tooltip; the
    number of a name that says nothing else ("Text7") is a serial number, no row."""
    texts = [widget.label or ""]
    if meaning_of(re.sub(r"\d+", " ", normalize_acroform_name(widget.name))):
        texts.insert(0, widget.name)
    for text in texts:
        match = _ROW.search(text)
        if match:
            return int(match.group(1) or match.group(2))
    return None


def _inside(box: pymupdf.Rect, outer: pymupdf.Rect) -> bool:
    return box.x0 >= outer.x0 - 1 and box.y0 >= outer.y0 - 1 and box.x1 <= outer.x1 + 1 \
        and box.y1 <= outer.y1 + 1


#: The last word of a form's title ("... HEALTH AND EMERGENCY CARD", "CLINIC INTAKE FORM").
_FORM_NOUN = re.compile(r"\b(?:form|card|questionnaire|records?|registration|intake|sheet|"
                        r"packet|slip|application|checklist)\W*$", re.IGNORECASE)
#: Parties a form's title names as its issuer or kind, not as the block under it.
_TITLE_PARTIES = frozenset({ORGANIZATION, "emergency_contact"})


def _issuers_title(text: str) -> bool:
    """True for a title naming the form ("SCHOOL HEALTH AND EMERGENCY CARD"): its school or
    clinic is the issuer and "emergency" the kind of card, no block of another party (a
    title naming a person's role, "PHYSICIAN CERTIFICATION FORM", still heads its boxes)."""
    found = {m.party for m in mentions(text)} - {SUBJECT}
    return bool(_FORM_NOUN.search(text)) and bool(found) and found <= _TITLE_PARTIES


def _letterhead(box: pymupdf.Rect, text: str, rect: pymupdf.Rect, lines: list[Line]) -> bool:
    """True for a heading naming only an organisation ("... REGISTRY SERVICES AGENCY")
    with a paragraph of the form's prose between it and the widget: the form's issuer above
    its text, no block of the boxes under it (a block heading stands right over its boxes)."""
    found = {m.party for m in mentions(text)} - {SUBJECT}
    return found == {ORGANIZATION} and not _SECTION.search(text) and any(
        box.y1 <= other.y0 and other.y1 <= rect.y0 + 1 and len(words) > _HEADING_WORDS
        for other, _, words in lines)


def page_frames(page: pymupdf.Page) -> list[pymupdf.Rect]:
    """The rectangles drawn on a page (cell borders, boxed blocks)."""
    frames = []
    for path in page.get_drawings():
        items = path.get("items") or []
        frames += [pymupdf.Rect(item[1]) for item in items if item[0] == "re"]
        if len(items) >= 4 and all(item[0] == "l" for item in items):
            frames.append(pymupdf.Rect(path["rect"]))
    return frames


def _framed_elsewhere(box: pymupdf.Rect, rect: pymupdf.Rect,
                      frames: Sequence[pymupdf.Rect]) -> bool:
    """True when a heading stands in a drawn box of its own (taller than a heading bar) that
    does not hold the widget: it heads that box only ("OFFICE USE ONLY" in a corner box)."""
    centre = pymupdf.Point((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2)
    return any(_inside(box, frame) and frame.height > _FRAME_HEIGHTS * box.height
               and centre not in frame for frame in frames)


def _section_above(rect: pymupdf.Rect, lines: list[Line],
                   rows: list[pymupdf.Rect], captions: Sequence[pymupdf.Rect] = (),
                   frames: Sequence[pymupdf.Rect] = ()) -> str | None:
    """The nearest line above ``rect`` that heads a section and names a party; a line that
    shares its row with a widget is that widget's label ("Physician [____]"), no heading.

    The nearest heading row above the widget wins (a title higher up, "EMPLOYER'S REPORT OF
    INJURY", is no block of its own once "SECTION A - EMPLOYEE" heads the rows). On a form of
    several columns a heading heads its own column: among the headings of that row, one over
    the widget's column (from the previous widget of its row to its right edge) wins over one
    over another column (two blocks side by side: "PATIENT" left, "PHYSICIAN" right); a
    heading that starts right of the widget never heads it (an "OFFICE USE ONLY" box in the
    top right corner).
    """
    above = [(box, text) for box, text, _ in lines
             if box.y1 <= rect.y0 + 1 and box.x0 < rect.x1
             and (_SECTION.search(text) or is_heading(text)) and party_of(text)
             and len(text.split()) <= _HEADING_WORDS
             and not _issuers_title(text) and not _letterhead(box, text, rect, lines)
             and not any(box.y0 < r.y1 and box.y1 > r.y0 for r in rows)
             and not any(_inside(box, c) for c in captions)  # a cell's own caption
             and not _framed_elsewhere(box, rect, frames)]
    if not above:
        return None
    nearest = max(box.y1 for box, _ in above)
    band = [(box, text) for box, text in above if box.y1 >= nearest - _HEADING_BAND]
    middle = (rect.y0 + rect.y1) / 2
    left_edge = max((r.x1 for r in rows if r.y0 <= middle <= r.y1 and r.x1 <= rect.x0 + 1),
                    default=float("-inf"))
    over_column = [(box, text) for box, text in band if box.x1 > left_edge]
    candidates = over_column or band
    return max(candidates, key=lambda item: (item[0].y1,
                                             item[0].x0 if item[0].x0 <= rect.x0 else -1))[1]


def read_widgets(pdf_bytes: bytes) -> list[FormWidget]:
    """Every widget of the target form, in page order (one entry per field name).

    Raises:
        ValueError: when the bytes are not a readable PDF or its fields cannot be read.
    """
    try:
        doc = pymupdf.open(stream=pdf_bytes, filetype="pdf")
    except Exception as exc:  # pymupdf raises several types for broken files
        raise ValueError(f"cannot open target PDF: {exc}") from exc
    seen: dict[str, list[FormWidget]] = {}
    with doc:
        if not doc.is_form_pdf:
            return []
        try:
            for number, page in enumerate(doc.pages(), start=1):
                widgets = list(page.widgets() or [])
                rows = [pymupdf.Rect(w.rect) for w in widgets]
                lines = page_lines(page, rows) if widgets else []
                placements = place_labels(rows, lines)
                captions = [pymupdf.Rect(p.box) for p in placements if p.box]
                frames = page_frames(page) if widgets else []
                for widget, rect, placed in zip(widgets, rows, placements, strict=True):
                    name = widget.field_name or ""
                    if name:
                        seen.setdefault(name, []).append(FormWidget(
                            name=name, label=widget.field_label or None,
                            kind=_KINDS.get(widget.field_type, "unknown"), page=number,
                            maxlen=int(widget.text_maxlen or 0),
                            printed=label_near(rect, lines),
                            row_text=row_left(rect, lines) or None,
                            row_label=row_label(rect, lines),
                            section=_section_above(rect, lines, rows, captions, frames),
                            placed=placed.label, placed_by=placed.source,
                            rect=(rect.x0, rect.y0, rect.x1, rect.y1),
                            group_index=placed.group_index, group_size=placed.group_size,
                            hint=placed.hint, column_row=placed.column_row,
                            column_size=placed.column_size))
        except Exception as exc:  # a broken widget dictionary: the form is unreadable
            raise ValueError(f"cannot read the target's form fields: {exc}") from exc
    return [replace(first, copies=tuple(rest)) for first, *rest in seen.values()]


def _part(words: list[str], parts: dict[str, tuple[str, ...]]) -> str | None:
    """The one part a widget name names; None for none or several (an order hint)."""
    named = [part for part, hints in parts.items() if any(h in words for h in hints)]
    return named[0] if len(named) == 1 else None


def _name_order(text: str) -> str | None:
    """``last_first`` when a label asks for "Last, First ...", ``first_last`` for the other
    order, None when it does not say."""
    words = name_words(text)
    if "last" in words and "first" in words:
        return "last_first" if words.index("last") < words.index("first") else "first_last"
    return None


_LABEL_WORDS = 10  # a printed label longer than this is a sentence, not a label
_QUESTION_WORDS = 30


def _asks(text: str) -> tuple[str, str | None] | None:
    """What a tooltip or printed label asks for: a postal part of the address ("City",
    "State", "ZIP Code", "City, state, and ZIP code"), else its meaning."""
    postal = postal_part(text)
    return ("address", postal) if postal else meaning_of(text)


def _page_label(widget: FormWidget) -> str | None:
    """The label the page prints for a widget (when it is short enough to be a label); of a
    longer one its first sentence when that is ("1 Name (as on your last return). A name is
    needed here; never leave it blank." -> "1 Name")."""
    text = widget.placed
    if not text:
        return None
    limit = _QUESTION_WORDS if widget.placed_by == "question" else _LABEL_WORDS
    if len(text.split()) <= limit:
        return text
    head = sentences(text)[:1]
    return head[0] if head and len(head[0].split()) <= _LABEL_WORDS else None


def _print_asks_parts(text: str) -> bool:
    """True when "print" in a name label is the verb of a request for the name's parts
    ("Type or print your first name and middle initial"), no signature block's "Print
    Name"."""
    hits = {m.lower() for m in NOT_PERSON_NAME.findall(text)}
    return hits <= {"print", "printed"} and bool(set(name_order(text)) & {"first", "last"})


def _page_asks(widget: FormWidget, key: str | None, said_by: str
               ) -> tuple[str, tuple[str, str | None] | None, bool]:
    """What the page prints for a widget whose name and tooltip ask nothing ("Text7"):
    ``(label, meaning, from_page)``, or ``said_by`` unchanged when the page says nothing."""
    page_label = _page_label(widget)
    page_meaning = _asks(page_label) if page_label else None
    if key is None and page_meaning is None and widget.printed and \
            postal_part(widget.printed):
        # a row's label left of the box ("Home address (in full)") and the caption over
        # it naming the part ("State or country")
        return widget.printed, _asks(widget.printed), True
    if page_label and (key is None or (page_meaning and page_meaning[0] == key)):
        # a name that gives only the key ("Address[0].f1_8[0]"): the page gives its part
        return page_label, page_meaning, True
    return said_by, None, False


def _outside_fences(widget: FormWidget) -> FormWidget:
    """The widget with its tooltip's fenced notes on other regions dropped, and those
    regions' titles dropped from the texts printed beside it (the box is not in them)."""
    if not widget.label:
        return widget
    label, titles = unfenced(widget.label)
    if not titles:
        return widget

    def clean(text: str | None) -> str | None:
        for title in titles:
            text = without_words(text, title) if text else text
        return text or None

    return replace(widget, label=label or None, placed=clean(widget.placed),
                   printed=clean(widget.printed), row_text=clean(widget.row_text),
                   row_label=clean(widget.row_label))


def classify(widget: FormWidget) -> WidgetRole:
    """The role of one widget: its key (the locked name rule, else what its tooltip says,
    else what the label the page prints for it says), its party (name and tooltip, else the
    printed label, else the section heading above it) and its part."""
    widget = _outside_fences(widget)
    key, problem = _name_key(widget.name)
    said_by = asked_sentence(widget.label) if widget.label else ""
    meaning = _asks(said_by) if said_by else None
    from_page = False
    if problem is None and meaning is None:  # "Text7", "fill_3": the page says
        said_by, meaning, from_page = _page_asks(widget, key, said_by)
    if problem == "ambiguous" and meaning is not None and {meaning[0]} == set().union(
            *_name_matches(said_by)) and meaning[0] in set().union(*_name_matches(widget.name)):
        # "StreetNumberName" whose tooltip asks only for the "Address" (a tooltip as
        # ambiguous as the name, "Patient Name Dob", leaves it so)
        key, problem = meaning[0], None
    if key is None and (meaning is None or problem == "ambiguous"):
        return WidgetRole(widget, None, problem)
    if key is None and meaning is not None:
        key = meaning[0]
    elif meaning is not None and meaning[0] != key and meaning[0] != "full_name":
        return WidgetRole(widget, None, f"meaning_conflict:{key}/{meaning[0]}")
    assert key is not None
    refused = _not_a_current_value(widget, key, said_by)
    if refused:
        return WidgetRole(widget, None, refused)
    text = " ".join(filter(None, [widget.name, widget.label, said_by if from_page else None]))
    refused = _not_an_address(widget, text, said_by) if key == "address" else None
    if refused:
        return WidgetRole(widget, None, refused)
    if key == "full_name":
        said_else = meaning_of(normalize_acroform_name(text))
        if said_else and said_else[0] != "full_name":  # "Medication Name": a drug's name
            key, meaning = said_else[0], said_else
        elif NOT_PERSON_NAME.search(normalize_acroform_name(" ".join(  # the asking sentence
                filter(None, [widget.name, said_by, widget.printed])))) and \
                not _print_asks_parts(said_by):
            return WidgetRole(widget, None, "not_a_persons_name")
    if widget.column_size > 1 and key != "medications" and not _named_row_part(
            widget, key, said_by) and not _part_named_alone(widget, key):
        # a table's column: rows of entries
        return WidgetRole(widget, None, "table_column")
    party = party_of(normalize_acroform_name(" ".join(filter(None, [widget.name, said_by])))) \
        if said_by and said_by != widget.label else None  # "Enter Employee Last Name ..."
    party = party or _widget_text_party(widget, text)
    if key == "insurance_member_id" and party == ORGANIZATION and party_of(
            normalize_acroform_name(text)) == party:
        # "Health plan member number": the plan's number of its member, the subject (a block
        # headed by another party keeps its own; an insured's id is reviewed, see fill)
        party = SUBJECT
    said = meaning[1] if meaning and meaning[0] == key else None
    role = _with_part(widget, key, party, said, said_by, from_page)
    if role.key == "full_name":
        qualifier = next((q for t in (said_by, _page_label(widget)) if t and " " in t
                          for q in [qualified_name(t)] if q), None)
        role = replace(role, qualifier=qualifier)  # "Preferred Name", "Sponsor #1 - Name"
    return role


#: A label asking for the country alone ("Country", "4. F. Type Country").
_COUNTRY_ONLY = re.compile(r"^\W*(?:\d{1,2}\W*)?(?:[a-z]\W+)?(?:(?:enter|select|type)\s+)?"
                           r"country\W*$", re.IGNORECASE)
_NAME_ROW = re.compile(r"\bnames?\b", re.IGNORECASE)
_ROW_WORDS = 3  # a row label of words, no entry number ("1.", "Member 2")
#: A row label ending in its entry's number ("Name of child 1", "Adult #2"): a list's row.
_ENTRY_NUMBER = re.compile(r"(?:\b|#)\d{1,2}\W*$")


def _named_row_part(widget: FormWidget, key: str, said_by: str) -> bool:
    """True for a name part's box under a "First / Middle / Last" caption whose row is a
    name of its own, labelled left in words ("Name to print [First] [Middle] [Last]", then
    "Mother's name [First] [Middle] [Last]"): a row of named names, no table of entries."""
    words = label_words(said_by) + name_words(widget.name) + label_words(
        widget.label or "") + label_words(widget.placed or "")
    row = widget.row_text or ""
    named = (bool(_NAME_ROW.search(row)) or len(re.findall(r"[A-Za-z]{2,}", row)) >= _ROW_WORDS) \
        and not _ENTRY_NUMBER.search(row)  # "Household member name 1": one entry of a list
    # the column's first row, or a row naming its person ("Mother's name"): a lower row
    # naming no one may be one of several people listed ("Child's name" of a household)
    first = widget.column_row == 1 or not is_subject(party_of(row))
    return key == "full_name" and _part(words, NAME_PARTS) is not None and named and first


def _not_an_address(widget: FormWidget, text: str, said_by: str) -> str | None:
    """Why an address box asks for no street address of the subject, or None."""
    if NOT_POSTAL.search(normalize_acroform_name(text)):
        return "not_postal"
    if any(_COUNTRY_ONLY.match(t) for t in (said_by, widget.placed or "",
                                            *sentences(widget.label or "")[-1:])):
        return "country_only"  # "4. F. Type Country": no address
    if BIRTHPLACE.search(normalize_acroform_name(text).replace(" ", "")):
        return "place_of_birth"  # "Town of birth": no address
    return None


_STACKED_PARTS = 2  # at most this many boxes of one name stacked under its label


def _part_named_alone(widget: FormWidget, key: str) -> bool:
    """True for a name part's box stacked under one name label whose own field name says
    its part and no row ("surname" over "first_names" under "Employee name"): one name split
    over rows, no table of entries."""
    words = name_words(_CAMEL.sub(" ", widget.name))
    return key == "full_name" and widget.column_size <= _STACKED_PARTS and \
        _row(widget) is None and not re.search(r"\d", widget.name) and \
        _part(words, NAME_PARTS) is not None


def _not_a_current_value(widget: FormWidget, key: str, said_by: str) -> str | None:
    """Why a widget whose key is known asks for no current value of the subject, or None:
    the digit boxes of an identification number ("Last four digits" under "Taxpayer
    identification number") are no phone, "Previous address" or "Maiden name" asks for an
    earlier value (another person's, "Maiden name of mother", is that person's field: the
    party decides it)."""
    if key == "phone" and any(names_identifier(t) for t in (widget.label, widget.placed) if t):
        return "identifier_not_phone"
    if key in ("full_name", "address", "phone", "dob") and NOT_CURRENT.search(said_by) and \
            is_subject(party_of(normalize_acroform_name(said_by))):
        return "not_current"
    return None


def _widget_text_party(widget: FormWidget, text: str) -> str | None:
    """The party a widget's name and tooltip (or page label) name, else the printed text
    beside it or on its row, else the section heading above it."""
    party = party_of(normalize_acroform_name(text))
    for printed in (widget.placed, widget.printed, widget.row_text):
        if party is None and printed:  # "Physician: ____ Telephone: [ ]"
            party = nearest_party(printed)
    if party is None and widget.section:
        party = party_of(widget.section)
    return party


#: The parts of a North American number split over two or three boxes, in order.
_PHONE_BOXES = {2: ("area", "local"), 3: ("area", "prefix", "line")}
_NARROW = 45.0  # a box narrower than this holds a few digits, not a whole number


_WHOLE_NUMBER = 90.0  # a box this wide (and not limited to a few digits) holds a number


def _holds_whole_number(widget: FormWidget) -> bool:
    """True when a box is wide enough for a whole phone number and takes more than a few
    digits."""
    wide = widget.rect is not None and widget.rect[2] - widget.rect[0] >= _WHOLE_NUMBER
    return wide and not 0 < widget.maxlen < 10


#: A label asking for the area code and the number in one box ("Area code & telephone
#: number", "Area code and phone").
_WHOLE_PHONE = re.compile(r"\barea\s+code\s*(?:&|\band\b|/|\+|,)\s*(?:(?:tele)?phone|"
                          r"(?:\w+\s+)?(?:number|no\b|#))", re.IGNORECASE)


def _hinted_part(widget: FormWidget, key: str) -> str | None:
    """The part the word printed under a box names ("MM", "Last", "Area code")."""
    words = label_words(widget.hint or "")
    if key == "dob":
        return _part(words, DATE_PARTS)
    if key == "full_name":
        return _part(words, NAME_PARTS)
    if key == "phone" and "area" in words:
        return "area"
    return None


def _split_part(widget: FormWidget, key: str, said_by: str) -> str | None:
    """The part of a value split over the boxes of one row, from the label's order."""
    index, size = widget.group_index, widget.group_size
    hint = _hinted_part(widget, key)
    if hint:
        return hint
    order = (date_order(said_by) if key == "dob" else name_order(said_by)
             if key == "full_name" else list(_PHONE_BOXES.get(size, ())) if key == "phone"
             else [])
    return order[index] if len(order) == size else None


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
#: Plural given names ("first_names", "Forenames", "Given names"): first and middle.
_GIVEN_NAMES = re.compile(r"\b(?:first|given)\s+names\b|\bforenames\b|\bfirstnames\b")
#: One digit box of a date written a digit per box ("dob_d1", "dob_m2", "dob_y4").
_DIGIT_BOX = re.compile(r"^(d|m|y)([1-8])$")
_DIGIT_PART = {"d": "day", "m": "month", "y": "year"}


def _digit_box(words: list[str]) -> str | None:
    """``day#1`` .. ``year#4`` for a date's digit box named by its letter and position."""
    for word in words[1:]:  # after the date's own word ("dob")
        match = _DIGIT_BOX.match(word)
        if match:
            return f"{_DIGIT_PART[match.group(1)]}#{match.group(2)}"
    return None



def _with_part(widget: FormWidget, key: str, party: str | None, said: str | None,
               said_by: str, from_page: bool = False) -> WidgetRole:
    """The role of a widget whose key and party are known, with the part of the value it
    takes (a date's day, a name's first name, a medication row's column, a box of a split
    value) and the name order its label asks for. ``said``: the part its tooltip's meaning
    names; ``from_page``: ``said_by`` is the printed label (shared by a split group)."""
    part, row, order = None, None, None
    words = name_words(widget.name)
    grouped = widget.group_size > 1
    own = [] if grouped and from_page else label_words(said_by)  # the box's own words
    hinted = None if grouped else _hinted_part(widget, key)  # "Name: [____]" over "Last"
    if key == "dob":
        part = _part(words, DATE_PARTS) or _part(own, DATE_PARTS) or hinted or _digit_box(words)
    elif key == "full_name":
        order = None if grouped or hinted else (_name_order(said_by)
                                                 or _name_order(widget.hint or ""))
        tail = sentences(widget.label)[-1:] if widget.label and not grouped else []
        # "Pt2Line3a_FamilyName": the part is a word of the name written in camel case
        words = words + name_words(_CAMEL.sub(" ", widget.name))
        tip = label_words(tail[0]) if tail and len(label_words(tail[0])) <= 3 else []
        # a tooltip ending in the part alone: "Name to print. Middle."
        part = None if order else (_part(words, NAME_PARTS) or _part(own, NAME_PARTS)
                                   or hinted or _part(tip, NAME_PARTS))
        if part is None and not order and not grouped and set(name_order(said_by)) == {
                "first", "middle"}:  # "first name and middle initial": the given names
            part = "first_middle"
        if part == "first" and _GIVEN_NAMES.search(" ".join([*words, *own])):
            part = "first_middle"  # "first_names", "Forenames": all the given names
    elif key == "phone":
        if _WHOLE_PHONE.search(said_by) and not hinted:
            # "AREA CODE & TELEPHONE NUMBER": one box for both, the whole number
            return WidgetRole(widget, key, None, party, None, row, order)
        narrow = widget.rect is not None and widget.rect[2] - widget.rect[0] < _NARROW
        few = 0 < widget.maxlen <= 4 or narrow or grouped
        named = said or hinted or ("area" if "areacode" in "".join(words) else None)
        part = named if named in ("area", "prefix", "line") and few else None
    elif key == "address":
        part = said
    elif key == "medications" and said:
        row = widget.column_row if widget.column_size > 1 else _row(widget)
        part = said if row is not None else None
        if part is None and said != "row_name":
            return WidgetRole(widget, None, "medication_column_without_row")
    if grouped and part is None:
        part = _split_part(widget, key, said_by)
        if key == "phone" and part in ("area", "prefix") and _holds_whole_number(widget):
            # "Phone 1: [____________] [ ] Cell [ ] Home": a whole number's box before
            # checkboxes of its row, no area code box
            return WidgetRole(widget, key, None, party, None, row, order)
        if part is None or key not in ("dob", "full_name", "phone"):
            return WidgetRole(widget, None, "split_value_without_part")
    return WidgetRole(widget, key, None, party, part, row, order)


def phone_rank(role: WidgetRole) -> int:
    """Preference among a form's phone widgets of the subject (0 best; fax never)."""
    words = set(role.words)
    if "fax" in words:
        return FAX_RANK
    named = [q for q in PHONE_QUALIFIERS if q in words]
    if not named:
        return 0
    return 1 + min(PHONE_QUALIFIERS.index(q) for q in named)
