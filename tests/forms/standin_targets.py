"""Invented stand-in target forms: how real fillable forms name and place their widgets.

Each :class:`StandIn` is a fillable PDF the tests draw with PyMuPDF (printed labels, cell
rules, widgets) plus the text a careful person writes into each of its text widgets from
:data:`SOURCE` (one filled visit summary of an invented patient, with a physician in it too).
Every widget not listed in ``expected`` must stay empty.

The families (one form each, several per form):

* cryptic widget names (``Text1``, ``fill_7``, ``topmostSubform[0].Page1[0].f1_03[0]``) where
  only the printed label left of / above the widget, or its tooltip, says what it asks;
* labels in a table cell above the box, labels split over two lines, captions under the line;
* checkboxes (sex, yes/no questions) with an "If yes, list" box under the question;
* a date split into MM / DD / YYYY boxes, a name split into last / first / MI boxes or one
  "Name (Last, First, MI)" box;
* patient, physician, insurer and responsible-party blocks with the same labels, stacked or
  side by side (only the subject's get values);
* signature, date-signed and "office use only" boxes that stay empty.

``python -m tests.forms.standin_targets`` prints the right / wrong / empty table of the
current mapping. All names, numbers and places are invented.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

import pymupdf

#: The subject of :data:`SOURCE`, in the shapes forms ask for.
P = {
    "name": "Marisol T. Eberhardt", "last": "Eberhardt", "first": "Marisol", "mi": "T",
    "last_first": "Eberhardt, Marisol T.", "dob": "07/19/1983", "mm": "07", "dd": "19",
    "yyyy": "1983", "phone": "(303) 555-0162", "area": "303", "prefix": "555", "line": "0162",
    "address": "2716 Juniper Court, Boulder, CO 80304", "street": "2716 Juniper Court",
    "city": "Boulder", "state": "CO", "zip": "80304", "city_state_zip": "Boulder, CO 80304",
    "member": "QWP730215884", "allergies": "Sulfa drugs; Shellfish",
    "meds": "Levothyroxine 50 mcg; Sertraline 25 mg",
}

SOURCE = f"""CLINIC VISIT SUMMARY
Visit Date: 03/11/2025
Patient Name: {P['name']}
Date of Birth: {P['dob']}
Phone: +1 {P['phone']}
Address: {P['address']}
Insurance Member ID: {P['member']}
Allergies: Sulfa drugs, Shellfish
Current Medications:
1. Levothyroxine 50 mcg once daily
2. Sertraline 25 mg at bedtime
Primary Care Physician: Dr. Anselm Whitcombe
Physician Phone: +1 (303) 555-0119
"""

_KIND = {"text": pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT,
         "checkbox": pymupdf.mupdf.PDF_WIDGET_TYPE_CHECKBOX,
         "signature": pymupdf.mupdf.PDF_WIDGET_TYPE_SIGNATURE}


class Sheet:
    """A letter-size fillable PDF drawn item by item (text at a baseline, widgets, rules)."""

    def __init__(self, pages: int = 1) -> None:
        self.doc = pymupdf.open()
        for _ in range(pages):
            self.doc.new_page(width=612, height=792)

    def text(self, x: float, y: float, s: str, size: float = 8.0, page: int = 1,
             bold: bool = False) -> None:
        """Print ``s`` with its baseline at ``y``."""
        self.doc[page - 1].insert_text((x, y), s, fontsize=size,
                                       fontname="hebo" if bold else "helv")

    def box(self, name: str, rect: tuple[float, float, float, float], tip: str | None = None,
            kind: str = "text", maxlen: int = 0, page: int = 1) -> None:
        """One widget."""
        widget = pymupdf.Widget()
        widget.field_name = name
        if tip:
            widget.field_label = tip
        widget.field_type = _KIND[kind]
        widget.rect = pymupdf.Rect(*rect)
        if maxlen:
            widget.text_maxlen = maxlen
        self.doc[page - 1].add_widget(widget)

    def rule(self, rect: tuple[float, float, float, float], page: int = 1) -> None:
        """A cell's border."""
        self.doc[page - 1].draw_rect(pymupdf.Rect(*rect), width=0.6)

    def done(self) -> bytes:
        """The PDF bytes."""
        data = self.doc.tobytes(garbage=3, deflate=True, no_new_id=True)
        self.doc.close()
        return data


@dataclass(frozen=True)
class StandIn:
    """One invented target: its family, its PDF and the expected text widgets."""

    name: str
    family: str
    build: Callable[[], bytes]
    expected: dict[str, str] = field(default_factory=dict)
    #: expected widgets the mapping leaves empty for review on purpose, with why
    reviewed: dict[str, str] = field(default_factory=dict)


def _left_rows(sheet: Sheet, rows: list[tuple[str | None, str | None]], x_label: float = 40,
               x_box: float = 170, y: float = 60, step: float = 24, width: float = 240,
               page: int = 1) -> None:
    """Rows of "label [box]"; a row without a widget name is a heading."""
    for label, name in rows:
        if name is None:
            sheet.text(x_label, y + 10, label or "", size=10, bold=True, page=page)
        else:
            if label:
                sheet.text(x_label, y + 10, label, page=page)
            sheet.box(name, (x_box, y, x_box + width, y + 14), page=page)
        y += step


def cryptic_left_labels() -> bytes:
    """``Text1`` ... with the label printed left of the box, no colon, no tooltip."""
    sheet = Sheet()
    sheet.text(40, 40, "NEW CLIENT INTAKE", size=13, bold=True)
    _left_rows(sheet, [
        ("Patient name", "Text1"), ("Birth date", "Text2"), ("Telephone", "Text3"),
        ("Home address", "Text4"), ("Insurance ID no.", "Text5"), ("Drug allergies", "Text6"),
        ("Current medicines", "Text7"), ("Reason for visit", "Text8"),
        ("Referred by", "Text9"),
    ])
    return sheet.done()


def table_cells_above() -> bytes:
    """``fill_N`` widgets in ruled table cells, each label in small caps at the cell's top."""
    sheet = Sheet()
    sheet.text(40, 40, "PATIENT REGISTRATION", size=13, bold=True)
    cells = [
        [("PATIENT NAME (LAST, FIRST, MI)", 330), ("DATE OF BIRTH", 200)],
        [("STREET ADDRESS", 250), ("CITY", 140), ("STATE", 50), ("ZIP CODE", 90)],
        [("HOME TELEPHONE", 170), ("CELL PHONE", 170), ("INSURANCE ID NUMBER", 190)],
        [("EMPLOYER", 260), ("OCCUPATION", 270)],
    ]
    y, n = 60.0, 0
    for row in cells:
        x = 40.0
        for label, width in row:
            n += 1
            sheet.rule((x, y, x + width, y + 30))
            sheet.text(x + 3, y + 8, label, size=6)
            sheet.box(f"fill_{n}", (x + 2, y + 12, x + width - 2, y + 28))
            x += width
        y += 30
    return sheet.done()


def xfa_tooltips() -> bytes:
    """Hierarchical XFA-style names; the tooltip (and a numbered label above) says what."""
    sheet = Sheet()
    sheet.text(40, 40, "Request for records", size=13, bold=True)
    base = "topmostSubform[0].Page1[0]."
    rows = [
        ("1a Last name", "f1_01", "Patient's last name", 40, 220),
        ("1b First name", "f1_02", "Patient's first name", 230, 400),
        ("1c MI", "f1_03", "Patient's middle initial", 410, 450),
        ("2 Date of birth", "f1_04", "Date of birth (MM/DD/YYYY)", 460, 570),
    ]
    for label, name, tip, x0, x1 in rows:
        sheet.text(x0, 66, label, size=7)
        sheet.box(base + name + "[0]", (x0, 70, x1, 86), tip)
    rows2 = [
        ("3 Address (number, street, and apt. no.)", "f1_05",
         "Address (number, street, and apt. or suite no.)", 40, 330),
        ("4 City, state, and ZIP code", "f1_06", "City, state, and ZIP code", 340, 570),
    ]
    for label, name, tip, x0, x1 in rows2:
        sheet.text(x0, 106, label, size=7)
        sheet.box(base + name + "[0]", (x0, 110, x1, 126), tip)
    rows3 = [
        ("5 Daytime phone", "f1_07", "Daytime telephone number", 40, 200),
        ("6 Name of treating physician", "f1_08", "Name of treating physician", 210, 420),
        ("7 Physician phone", "f1_09", "Physician's telephone number", 430, 570),
    ]
    for label, name, tip, x0, x1 in rows3:
        sheet.text(x0, 146, label, size=7)
        sheet.box(base + name + "[0]", (x0, 150, x1, 166), tip)
    sheet.text(40, 196, "Sign here", size=9, bold=True)
    sheet.box(base + "f1_10[0]", (110, 184, 330, 200), "Signature of patient")
    sheet.text(340, 196, "Date", size=8)
    sheet.box(base + "f1_11[0]", (370, 184, 470, 200), "Date signed")
    return sheet.done()


def two_line_labels() -> bytes:
    """Labels broken over two lines left of their box (``Text10`` ...)."""
    sheet = Sheet()
    sheet.text(40, 40, "PATIENT HISTORY", size=13, bold=True)
    rows = [(("Patient's full", "name"), "Text10"), (("Patient's date", "of birth"), "Text11"),
            (("Home telephone", "(with area code)"), "Text12"),
            (("Insurance member", "ID number"), "Text13"),
            (("Known drug", "allergies"), "Text14"), (("Preferred", "language"), "Text15")]
    y = 60.0
    for (first, second), name in rows:
        sheet.text(40, y + 8, first)
        sheet.text(40, y + 17, second)
        sheet.box(name, (150, y + 2, 420, y + 18))
        y += 30
    return sheet.done()


def checkbox_questions() -> bytes:
    """Sex and yes/no checkboxes; an "If yes, please list" box under each question."""
    sheet = Sheet()
    sheet.text(40, 40, "HEALTH QUESTIONNAIRE", size=13, bold=True)
    _left_rows(sheet, [("Name:", "Text1"), ("DOB:", "Text2")], x_box=110)
    sheet.text(40, 118, "Sex:")
    sheet.box("Check Box1", (80, 109, 90, 119), kind="checkbox")
    sheet.text(94, 118, "Male")
    sheet.box("Check Box2", (130, 109, 140, 119), kind="checkbox")
    sheet.text(144, 118, "Female")
    questions = [("Do you have any allergies to medicines or foods?", "Check Box3",
                  "Check Box4", "Text3"),
                 ("Are you currently taking any medications?", "Check Box5", "Check Box6",
                  "Text4"),
                 ("Have you been hospitalized in the last year?", "Check Box7", "Check Box8",
                  "Text5")]
    y = 140.0
    for question, yes, no, listed in questions:
        sheet.text(40, y + 9, question)
        sheet.box(yes, (330, y, 340, y + 10), kind="checkbox")
        sheet.text(344, y + 9, "Yes")
        sheet.box(no, (370, y, 380, y + 10), kind="checkbox")
        sheet.text(384, y + 9, "No")
        sheet.text(60, y + 27, "If yes, please list:")
        sheet.box(listed, (140, y + 18, 560, y + 32))
        y += 46
    return sheet.done()


def split_date_boxes() -> bytes:
    """Dates split into MM / DD / YYYY boxes with hints under them; today's date too."""
    sheet = Sheet()
    sheet.text(40, 40, "ENROLLMENT", size=13, bold=True)
    _left_rows(sheet, [("Name of patient:", "Text1")], x_box=130)

    def date_row(y: float, label: str, names: tuple[str, str, str]) -> None:
        sheet.text(40, y + 11, label)
        x = 130.0
        for name, hint, width in zip(names, ("MM", "DD", "YYYY"), (24, 24, 40), strict=True):
            sheet.box(name, (x, y, x + width, y + 14), maxlen=len(hint))
            sheet.text(x + 4, y + 22, hint, size=6)
            if hint != "YYYY":
                sheet.text(x + width + 2, y + 11, "/", size=10)
            x += width + 10
    date_row(90, "Date of Birth:", ("Text5", "Text6", "Text7"))
    date_row(130, "Today's Date:", ("Text8", "Text9", "Text10"))
    return sheet.done()


def split_name_columns() -> bytes:
    """Last / First / M.I. column headers over boxes, for the patient and then the
    responsible party (the same headers twice)."""
    sheet = Sheet()
    sheet.text(40, 40, "ACCOUNT SET-UP", size=13, bold=True)

    def block(y: float, heading: str, start: int) -> None:
        sheet.text(40, y, heading, size=10, bold=True)
        for offset, (label, x0, x1) in enumerate([("Last Name", 40, 220),
                                                  ("First Name", 230, 400),
                                                  ("M.I.", 410, 440),
                                                  ("Date of Birth", 450, 570)]):
            sheet.text(x0, y + 14, label, size=7)
            sheet.box(f"fill_{start + offset}", (x0, y + 17, x1, y + 31))
        sheet.text(40, y + 46, "Phone", size=7)
        sheet.box(f"fill_{start + 4}", (40, y + 49, 220, y + 63))
    block(70, "PATIENT", 1)
    block(160, "RESPONSIBLE PARTY", 6)
    return sheet.done()


def one_name_widget() -> bytes:
    """One box whose printed label asks for the whole name in Last, First, MI order."""
    sheet = Sheet()
    sheet.text(40, 40, "CONSENT FOR TREATMENT", size=13, bold=True)
    _left_rows(sheet, [("Name (Last, First, MI):", "Text1"), ("Date of Birth:", "Text2"),
                       ("Witness:", "Text3")], x_box=160)
    return sheet.done()


def same_label_blocks() -> bytes:
    """Patient, physician and insurer blocks stacked, each with Name / Phone / Address."""
    sheet = Sheet()
    sheet.text(40, 40, "REFERRAL FORM", size=13, bold=True)
    rows: list[tuple[str | None, str | None]] = []
    n = 0
    for heading in ("PATIENT INFORMATION", "PHYSICIAN INFORMATION", "INSURANCE COMPANY"):
        rows.append((heading, None))
        for label in ("Name:", "Phone:", "Address:"):
            n += 1
            rows.append((label, f"Text{n}"))
    _left_rows(sheet, rows, x_box=100)
    return sheet.done()


def signature_office_use() -> bytes:
    """A patient name, a signature and date-signed as text boxes, an office-use block."""
    sheet = Sheet()
    sheet.text(40, 40, "AUTHORIZATION TO RELEASE INFORMATION", size=13, bold=True)
    _left_rows(sheet, [("Patient Name:", "Text1"), ("Date of Birth:", "Text2"),
                       ("Signature:", "Text3"), ("Date:", "Text4"),
                       ("Print Name:", "Text5"), ("FOR OFFICE USE ONLY", None),
                       ("Name:", "Text6"), ("Account No.:", "Text7"),
                       ("Date Received:", "Text8")], x_box=130)
    return sheet.done()


def tooltip_sentences() -> bytes:
    """Numbered boxes whose tooltips are whole sentences; printed numbers only."""
    sheet = Sheet()
    sheet.text(40, 40, "PRIOR AUTHORIZATION REQUEST", size=13, bold=True)
    tips = [("f1_01", "Enter the patient's full legal name"),
            ("f1_02", "Enter the patient's date of birth as MM/DD/YYYY"),
            ("f1_03", "Primary telephone number of the patient"),
            ("f1_04", "Patient's home address"),
            ("f1_05", "Insurance member identification number"),
            ("f1_06", "Name of the prescribing physician"),
            ("f1_07", "Telephone number of the prescribing physician"),
            ("f1_08", "Diagnosis code")]
    y = 60.0
    for n, (name, tip) in enumerate(tips, start=1):
        sheet.text(40, y + 10, f"{n}.")
        sheet.box(name, (60, y, 400, y + 14), tip)
        y += 24
    return sheet.done()


def side_by_side_blocks() -> bytes:
    """Two columns, PATIENT left and GUARANTOR right, labels above boxes, same labels."""
    sheet = Sheet()
    sheet.text(40, 40, "FINANCIAL RESPONSIBILITY", size=13, bold=True)
    sheet.text(40, 66, "PATIENT", size=10, bold=True)
    sheet.text(320, 66, "GUARANTOR", size=10, bold=True)
    labels = ["Full Name", "Date of Birth", "Home Phone", "Mailing Address"]
    for column, x0 in enumerate((40.0, 320.0)):
        y = 80.0
        for row, label in enumerate(labels):
            sheet.text(x0, y + 8, label, size=7)
            sheet.box(f"Text{column * 10 + row + 1}", (x0, y + 11, x0 + 250, y + 25))
            y += 32
    return sheet.done()


def captions_below() -> bytes:
    """Boxes on a line with their captions printed under them (the next row's boxes stand
    right under the previous row's captions)."""
    sheet = Sheet()
    sheet.text(40, 40, "STUDENT HEALTH RECORD", size=13, bold=True)
    rows = [[("Text1", "Last name", 40, 220), ("Text2", "First name", 230, 400),
             ("Text3", "Middle initial", 410, 480)],
            [("Text4", "Date of birth", 40, 160), ("Text5", "Grade", 170, 230),
             ("Text6", "Home phone", 240, 400)],
            [("Text7", "Parent or guardian name", 40, 300),
             ("Text8", "Parent or guardian phone", 310, 480)]]
    y = 70.0
    for row in rows:
        for name, caption, x0, x1 in row:
            sheet.box(name, (x0, y, x1, y + 14))
            sheet.text(x0, y + 22, caption, size=6.5)
        y += 34
    return sheet.done()


def phones_and_contacts() -> bytes:
    """Home / cell / work phones of the patient, an emergency contact, a pharmacy and a
    business name / address: only the home phone, name and address are the patient's."""
    sheet = Sheet()
    sheet.text(40, 40, "DENTAL HISTORY", size=13, bold=True)
    _left_rows(sheet, [
        ("Name", "Text1"), ("Address", "Text2"), ("Home Phone", "Text3"),
        ("Cell Phone", "Text4"), ("Work Phone", "Text5"), ("Business address", "Text6"),
        ("In case of emergency notify", "Text7"), ("Telephone", "Text8"),
        ("Pharmacy", "Text9"), ("Pharmacy Phone", "Text10"),
    ], x_box=180)
    return sheet.done()


def medication_table() -> bytes:
    """A medication table (name / dose / how often columns, cryptic names) and allergies."""
    sheet = Sheet()
    sheet.text(40, 40, "MEDICATION RECONCILIATION", size=13, bold=True)
    _left_rows(sheet, [("Patient:", "Text1"), ("Allergies:", "Text2")], x_box=100)
    sheet.text(40, 122, "Medication", size=8, bold=True)
    sheet.text(260, 122, "Dose", size=8, bold=True)
    sheet.text(380, 122, "How often", size=8, bold=True)
    y = 128.0
    for row in range(3):
        for col, (x0, x1) in enumerate(((40, 250), (260, 370), (380, 560))):
            sheet.box(f"Text{3 + row * 3 + col}", (x0, y, x1, y + 14))
        y += 20
    return sheet.done()


STANDINS: tuple[StandIn, ...] = (
    StandIn("cryptic_left_labels", "Text1.. names, label left, no colon", cryptic_left_labels,
            {"Text1": P["name"], "Text2": P["dob"], "Text3": P["phone"],
             "Text4": P["address"], "Text5": P["member"], "Text6": P["allergies"],
             "Text7": P["meds"]}),
    StandIn("table_cells_above", "fill_N in ruled cells, label above", table_cells_above,
            {"fill_1": P["last_first"], "fill_2": P["dob"], "fill_3": P["street"],
             "fill_4": P["city"], "fill_5": P["state"], "fill_6": P["zip"],
             "fill_7": P["phone"], "fill_9": P["member"]}),
    StandIn("xfa_tooltips", "topmostSubform names, tooltips", xfa_tooltips,
            {f"topmostSubform[0].Page1[0].f1_0{n}[0]": v for n, v in (
                (1, P["last"]), (2, P["first"]), (3, P["mi"]), (4, P["dob"]),
                (5, P["street"]), (6, P["city_state_zip"]), (7, P["phone"]))}),
    StandIn("two_line_labels", "label split over two lines", two_line_labels,
            {"Text10": P["name"], "Text11": P["dob"], "Text12": P["phone"],
             "Text13": P["member"], "Text14": P["allergies"]}),
    StandIn("checkbox_questions", "sex / yes-no checkboxes, 'If yes, list'",
            checkbox_questions,
            {"Text1": P["name"], "Text2": P["dob"], "Text3": P["allergies"],
             "Text4": P["meds"]}),
    StandIn("split_date_boxes", "MM / DD / YYYY boxes, today's date too", split_date_boxes,
            {"Text1": P["name"], "Text5": P["mm"], "Text6": P["dd"], "Text7": P["yyyy"]}),
    StandIn("split_name_columns", "last / first / MI headers, two blocks",
            split_name_columns,
            {"fill_1": P["last"], "fill_2": P["first"], "fill_3": P["mi"],
             "fill_4": P["dob"], "fill_5": P["phone"]}),
    StandIn("one_name_widget", "one 'Name (Last, First, MI)' box", one_name_widget,
            {"Text1": P["last_first"], "Text2": P["dob"]}),
    StandIn("same_label_blocks", "patient / physician / insurer, same labels",
            same_label_blocks,
            {"Text1": P["name"], "Text2": P["phone"], "Text3": P["address"]}),
    StandIn("signature_office_use", "signature, date signed, office use only",
            signature_office_use, {"Text1": P["name"], "Text2": P["dob"]}),
    StandIn("tooltip_sentences", "numbered boxes, sentence tooltips", tooltip_sentences,
            {"f1_01": P["name"], "f1_02": P["dob"], "f1_03": P["phone"],
             "f1_04": P["address"], "f1_05": P["member"]}),
    StandIn("side_by_side_blocks", "patient left, guarantor right, labels above",
            side_by_side_blocks,
            {"Text1": P["name"], "Text2": P["dob"], "Text3": P["phone"],
             "Text4": P["address"]}),
    StandIn("captions_below", "captions printed under the boxes", captions_below,
            {"Text1": P["last"], "Text2": P["first"], "Text3": P["mi"], "Text4": P["dob"],
             "Text6": P["phone"]}),
    StandIn("phones_and_contacts", "home / cell / work phones, other contacts",
            phones_and_contacts,
            {"Text1": P["name"], "Text2": P["address"], "Text3": P["phone"]}),
    StandIn("medication_table", "medication rows with cryptic names", medication_table,
            {"Text1": P["name"], "Text2": P["allergies"], "Text3": "Levothyroxine",
             "Text4": "50 mcg", "Text5": "once daily", "Text6": "Sertraline",
             "Text7": "25 mg", "Text8": "at bedtime"}),
)


@dataclass(frozen=True)
class Outcome:
    """Right / wrong / empty widgets of one stand-in (wrong: written with another text, or
    written where nothing belongs)."""

    name: str
    right: list[str]
    wrong: dict[str, str]
    empty: list[str]


def score(standin: StandIn, written: dict[str, str]) -> Outcome:
    """Compare what went into the form with what a careful person writes."""
    right = [w for w, v in standin.expected.items() if written.get(w) == v]
    wrong = {w: v for w, v in written.items() if standin.expected.get(w) != v}
    empty = [w for w in standin.expected if w not in written]
    return Outcome(standin.name, right, wrong, empty)


def fill(standin: StandIn, root: str) -> dict[str, str]:
    """Run the offline pipeline on :data:`SOURCE` with the stand-in as target."""
    from repro_assets.forms.fill import read_back
    from repro_assets.forms.pipeline import UploadedFile, ingest, run_pipeline
    from repro_assets.forms.samples import text_pdf_bytes
    from repro_assets.storage.blobstore import BlobStore

    folder = ingest(BlobStore(root), [UploadedFile("summary.pdf", text_pdf_bytes(SOURCE))],
                    target_docs=[UploadedFile("form.pdf", standin.build())], source="test")
    run_pipeline(folder, None, today=date(2025, 6, 1))
    return read_back(folder.read_binary("filled.pdf")) if folder.has_artifact("review") else {}




# A second set, drawn after the mapping was built on the first: new placements of the same
# families, kept apart to see whether the rules carry over (``python -m ... --second``).


def row_pairs() -> bytes:
    """Two labelled boxes per row; an emergency contact block with the same labels."""
    sheet = Sheet()
    sheet.text(40, 40, "PATIENT DEMOGRAPHICS", size=13, bold=True)
    rows = [(70, ("Name:", "T1"), ("DOB:", "T2")), (94, ("Address:", "T3"), ("Phone:", "T4")),
            (140, ("Name:", "T5"), ("Phone:", "T6"))]
    sheet.text(40, 128, "EMERGENCY CONTACT", size=10, bold=True)
    for y, (l1, n1), (l2, n2) in rows:
        sheet.text(40, y + 10, l1)
        sheet.box(n1, (90, y, 300, y + 14))
        sheet.text(310, y + 10, l2)
        sheet.box(n2, (350, y, 560, y + 14))
    return sheet.done()


def underlined_fields() -> bytes:
    """Labels followed by an underscore line; the box covers part of the line."""
    sheet = Sheet()
    sheet.text(40, 40, "Intake sheet", size=13, bold=True)
    for n, (label, y) in enumerate((("Patient Name", 70), ("Date of Birth", 94),
                                    ("Phone Number", 118), ("Referring Doctor", 142)),
                                   start=1):
        sheet.text(40, y + 10, f"{label} " + "_" * 50)
        sheet.box(f"Field{n}", (140, y, 300, y + 13))
    return sheet.done()


def right_aligned_labels() -> bytes:
    """Labels right-aligned against their boxes, of very different lengths."""
    sheet = Sheet()
    sheet.text(40, 40, "MEMBER ENROLLMENT", size=13, bold=True)
    labels = ["Name", "Birth date", "Primary insurance member number", "Street address",
              "Mobile", "Signature"]
    for n, label in enumerate(labels, start=1):
        y = 50 + 24 * n
        width = pymupdf.get_text_length(label, fontname="helv", fontsize=8)
        sheet.text(236 - width, y + 10, label)
        sheet.box(f"Text{n}", (240, y, 500, y + 14))
    return sheet.done()


def phone_boxes() -> bytes:
    """Phones split into ( area ) prefix - line boxes; the work phone must stay empty."""
    sheet = Sheet()
    sheet.text(40, 40, "CONTACT UPDATE", size=13, bold=True)
    sheet.text(40, 80, "Patient Name:")
    sheet.box("a1", (120, 70, 400, 84))
    for row, (label, names) in enumerate((("Home Phone:", ("a2", "a3", "a4")),
                                          ("Work Phone:", ("a5", "a6", "a7")))):
        y = 100 + 24 * row
        sheet.text(40, y + 10, label)
        sheet.text(118, y + 10, "(")
        sheet.box(names[0], (124, y, 154, y + 14), maxlen=3)
        sheet.text(156, y + 10, ")")
        sheet.box(names[1], (164, y, 194, y + 14), maxlen=3)
        sheet.text(197, y + 10, "-")
        sheet.box(names[2], (204, y, 244, y + 14), maxlen=4)
    return sheet.done()


def dob_no_hint() -> bytes:
    """A birth date in three boxes with no order printed, and an age box: not guessed."""
    sheet = Sheet()
    sheet.text(40, 40, "SPORTS PHYSICAL", size=13, bold=True)
    sheet.text(40, 80, "Athlete name:")
    sheet.box("n1", (120, 70, 400, 84))
    sheet.text(40, 104, "Date of Birth:")
    for n, x in enumerate((120, 150, 180), start=2):
        sheet.box(f"n{n}", (x, 94, x + 24, 108), maxlen=4 if n == 4 else 2)
    sheet.text(230, 104, "Age:")
    sheet.box("n5", (260, 94, 290, 108))
    return sheet.done()


def physician_first() -> bytes:
    """The physician's block comes first, the patient's second, same labels."""
    sheet = Sheet()
    sheet.text(40, 40, "LAB REQUISITION", size=13, bold=True)
    rows: list[tuple[str | None, str | None]] = [
        ("ORDERING PHYSICIAN", None), ("Name:", "P1"), ("Phone:", "P2"), ("Address:", "P3"),
        ("PATIENT", None), ("Name:", "P4"), ("Date of Birth:", "P5"), ("Phone:", "P6"),
        ("Address:", "P7")]
    _left_rows(sheet, rows, x_box=120)
    return sheet.done()


def wrapped_cell_labels() -> bytes:
    """Cell captions wrapped over two lines above the box."""
    sheet = Sheet()
    sheet.text(40, 40, "CLAIM FORM", size=13, bold=True)
    cells = [(("PATIENT'S NAME (LAST,", "FIRST, MIDDLE INITIAL)"), 40, 300),
             (("PATIENT'S DATE OF", "BIRTH (MM/DD/YYYY)"), 300, 440),
             (("INSURED'S ID", "NUMBER"), 440, 572)]
    for n, ((top, bottom), x0, x1) in enumerate(cells, start=1):
        sheet.rule((x0, 60, x1, 100))
        sheet.text(x0 + 3, 68, top, size=6)
        sheet.text(x0 + 3, 76, bottom, size=6)
        sheet.box(f"c{n}", (x0 + 2, 80, x1 - 2, 98))
    return sheet.done()


def employee_employer() -> bytes:
    """A work-injury form: the employee's and the employer's name, phone and address."""
    sheet = Sheet()
    sheet.text(40, 40, "FIRST REPORT OF INJURY", size=13, bold=True)
    _left_rows(sheet, [
        ("Employee's name", "e1"), ("Employee's phone", "e2"), ("Employee's home address", "e3"),
        ("Employer's name", "e4"), ("Employer's phone", "e5"), ("Employer's address", "e6"),
        ("Date of injury", "e7")], x_box=170)
    return sheet.done()


def two_pages() -> bytes:
    """Patient data on page 1; a responsible party block heads page 2 with the same labels."""
    sheet = Sheet(pages=2)
    sheet.text(40, 40, "REGISTRATION", size=13, bold=True)
    _left_rows(sheet, [("Name", "Text1"), ("Date of birth", "Text2"), ("Phone", "Text3")])
    sheet.text(40, 40, "RESPONSIBLE PARTY", size=12, bold=True, page=2)
    _left_rows(sheet, [("Name", "Text4"), ("Date of birth", "Text5"), ("Phone", "Text6")],
               page=2)
    return sheet.done()


def tooltip_is_the_name() -> bytes:
    """Tools that copy the widget name into the tooltip: the printed label still says."""
    sheet = Sheet()
    sheet.text(40, 40, "PATIENT FORM", size=13, bold=True)
    for n, label in enumerate(("Full name:", "Birthdate:", "Allergies:"), start=1):
        y = 50 + 24 * n
        sheet.text(40, y + 10, label)
        sheet.box(f"Text{n}", (120, y, 400, y + 14), tip=f"Text{n}")
    return sheet.done()


def insurance_block() -> bytes:
    """A primary insurance block: company, subscriber's name and birth date, member id."""
    sheet = Sheet()
    sheet.text(40, 40, "INSURANCE VERIFICATION", size=13, bold=True)
    _left_rows(sheet, [("Patient name:", "i1"), ("PRIMARY INSURANCE", None),
                       ("Insurance company:", "i2"), ("Subscriber name:", "i3"),
                       ("Subscriber date of birth:", "i4"), ("Member ID:", "i5"),
                       ("Group number:", "i6")], x_box=170)
    return sheet.done()


SECOND: tuple[StandIn, ...] = (
    StandIn("row_pairs", "two boxes per row, emergency block", row_pairs,
            {"T1": P["name"], "T2": P["dob"], "T3": P["address"], "T4": P["phone"]}),
    StandIn("underlined_fields", "label + underscore line", underlined_fields,
            {"Field1": P["name"], "Field2": P["dob"], "Field3": P["phone"]}),
    StandIn("right_aligned_labels", "labels right-aligned", right_aligned_labels,
            {"Text1": P["name"], "Text2": P["dob"], "Text3": P["member"],
             "Text4": P["address"], "Text5": P["phone"]}),
    StandIn("phone_boxes", "( area ) prefix - line boxes", phone_boxes,
            {"a1": P["name"], "a2": P["area"], "a3": P["prefix"], "a4": P["line"]}),
    StandIn("dob_no_hint", "date boxes with no order printed", dob_no_hint,
            {"n1": P["name"]}),
    StandIn("physician_first", "physician block before the patient's", physician_first,
            {"P4": P["name"], "P5": P["dob"], "P6": P["phone"], "P7": P["address"]}),
    StandIn("wrapped_cell_labels", "cell captions over two lines", wrapped_cell_labels,
            {"c1": P["last_first"], "c2": P["dob"]}),
    StandIn("employee_employer", "employee vs employer", employee_employer,
            {"e1": P["name"], "e2": P["phone"], "e3": P["address"]}),
    StandIn("two_pages", "responsible party on page 2", two_pages,
            {"Text1": P["name"], "Text2": P["dob"], "Text3": P["phone"]}),
    StandIn("tooltip_is_the_name", "tooltip copies the widget name", tooltip_is_the_name,
            {"Text1": P["name"], "Text2": P["dob"], "Text3": P["allergies"]}),
    StandIn("insurance_block", "insurance block, subscriber", insurance_block,
            {"i1": P["name"], "i5": P["member"]}),
)


# A third set, drawn after the first two were passing, measured before any change for it.


def repeated_header() -> bytes:
    """The patient's name asked again at the top of page 2 (another widget), a physician's
    name and signature below it."""
    sheet = Sheet(pages=2)
    _left_rows(sheet, [("Patient Name:", "Text1"), ("Date of Birth:", "Text2")], x_box=130)
    _left_rows(sheet, [("Patient Name:", "Text20"), ("Physician Name:", "Text21"),
                       ("Physician Signature:", "Text22")], x_box=130, page=2)
    return sheet.done()


def inline_row_parties() -> bytes:
    """The patient's and the physician's fields side by side on the same rows."""
    sheet = Sheet()
    sheet.text(40, 40, "TRANSFER OF CARE", size=13, bold=True)
    for y, (l1, n1), (l2, n2) in ((70, ("Patient Name:", "a1"), ("Physician:", "a2")),
                                  (94, ("Phone:", "a3"), ("Phone:", "a4"))):
        sheet.text(40, y + 10, l1)
        sheet.box(n1, (110, y, 300, y + 14))
        sheet.text(320, y + 10, l2)
        sheet.box(n2, (380, y, 570, y + 14))
    return sheet.done()


def narrow_label_above() -> bytes:
    """Short boxes with labels centred above them, wider than the box."""
    sheet = Sheet()
    sheet.text(40, 40, "VISIT SLIP", size=13, bold=True)
    for n, (label, x0, x1) in enumerate((("Patient Name", 40, 260), ("Date of Birth", 290, 350),
                                         ("Member ID", 380, 470)), start=1):
        width = pymupdf.get_text_length(label, fontname="helv", fontsize=7)
        sheet.text((x0 + x1 - width) / 2, 68, label, size=7)
        sheet.box(f"b{n}", (x0, 72, x1, 86))
    return sheet.done()


def city_state_zip_row() -> bytes:
    """A street box, then City / State / Zip boxes on one row."""
    sheet = Sheet()
    sheet.text(40, 40, "PATIENT INFORMATION", size=13, bold=True)
    _left_rows(sheet, [("Name:", "d1"), ("Address:", "d2")], x_box=100)
    for n, (label, x0, x1) in enumerate((("City:", 70, 220), ("State:", 260, 290),
                                         ("Zip:", 330, 400)), start=3):
        sheet.text(x0 - 30, 118, label)
        sheet.box(f"d{n}", (x0, 108, x1, 122))
    return sheet.done()


def guardian_block() -> bytes:
    """A minor's form: the patient's name and birth date, the guardian's name, phone and
    address (the patient has no phone box)."""
    sheet = Sheet()
    sheet.text(40, 40, "PEDIATRIC INTAKE", size=13, bold=True)
    _left_rows(sheet, [("Child's Name:", "g1"), ("Date of Birth:", "g2"),
                       ("PARENT / GUARDIAN", None), ("Name:", "g3"), ("Phone:", "g4"),
                       ("Address:", "g5")], x_box=130)
    return sheet.done()


def tooltip_conflicts() -> bytes:
    """Names that say one thing and tooltips another (a fax, an e-mail), a bare box."""
    sheet = Sheet()
    sheet.text(40, 40, "CONTACT FORM", size=13, bold=True)
    sheet.text(40, 80, "Patient name:")
    sheet.box("Name", (130, 70, 400, 84))
    sheet.text(40, 104, "Fax:")
    sheet.box("Phone2", (130, 94, 400, 108), tip="Fax number")
    sheet.text(40, 128, "E-mail:")
    sheet.box("Address2", (130, 118, 400, 132), tip="E-mail address")
    return sheet.done()


def history_rows() -> bytes:
    """A medical history: physician and bare telephone on one row, a medication question."""
    sheet = Sheet()
    sheet.text(40, 40, "MEDICAL HISTORY", size=13, bold=True)
    sheet.text(40, 80, "Name")
    sheet.box("h1", (80, 70, 330, 84))
    sheet.text(40, 104, "Physician's name")
    sheet.box("h2", (120, 94, 300, 108))
    sheet.text(310, 104, "Telephone")
    sheet.box("h3", (360, 94, 520, 108))
    sheet.text(40, 128, "Are you taking any medications?")
    sheet.box("h4", (200, 119, 209, 128), kind="checkbox")
    sheet.text(212, 128, "Y")
    sheet.box("h5", (225, 119, 234, 128), kind="checkbox")
    sheet.text(237, 128, "N")
    sheet.text(60, 148, "If yes, list:")
    sheet.box("h6", (120, 138, 520, 152))
    sheet.text(40, 172, "Allergies")
    sheet.box("h7", (100, 162, 520, 176))
    return sheet.done()


THIRD: tuple[StandIn, ...] = (
    StandIn("repeated_header", "patient name again on page 2", repeated_header,
            {"Text1": P["name"], "Text2": P["dob"], "Text20": P["name"]}),
    StandIn("inline_row_parties", "patient and physician on one row", inline_row_parties,
            {"a1": P["name"], "a3": P["phone"]}),
    StandIn("narrow_label_above", "labels centred over short boxes", narrow_label_above,
            {"b1": P["name"], "b2": P["dob"], "b3": P["member"]}),
    StandIn("city_state_zip_row", "street box, city/state/zip row", city_state_zip_row,
            {"d1": P["name"], "d2": P["street"], "d3": P["city"], "d4": P["state"],
             "d5": P["zip"]}),
    StandIn("guardian_block", "child and guardian", guardian_block,
            {"g1": P["name"], "g2": P["dob"]}),
    StandIn("tooltip_conflicts", "name vs tooltip (fax, e-mail)", tooltip_conflicts,
            {"Name": P["name"]}),
    StandIn("history_rows", "physician + bare telephone row, medication question",
            history_rows, {"h1": P["name"], "h6": P["meds"], "h7": P["allergies"]}),
)


def main(argv: list[str] | None = None) -> int:
    """Print the stand-in table (right / wrong / empty per target, then totals);
    ``--second`` / ``--third`` for the later sets."""
    args = argv if argv is not None else sys.argv[1:]
    chosen = SECOND if "--second" in args else THIRD if "--third" in args else STANDINS
    rows = ["| stand-in | family | right | wrong | empty |", "|---|---|---|---|---|"]
    totals = [0, 0, 0]
    details = []
    with tempfile.TemporaryDirectory() as root:
        for standin in chosen:
            out = score(standin, fill(standin, root))
            counts = (len(out.right), len(out.wrong), len(out.empty))
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
            rows.append(f"| {out.name} | {standin.family} | {counts[0]}/"
                        f"{len(standin.expected)} | {counts[1]} | {counts[2]} |")
            details += [f"WRONG {out.name}: {w!r} = {v!r} (expected "
                        f"{standin.expected.get(w)!r})" for w, v in out.wrong.items()]
            details += [f"EMPTY {out.name}: {w!r} (expected {standin.expected[w]!r})"
                        for w in out.empty]
    expected = sum(len(s.expected) for s in chosen)
    rows.append(f"| **total** | | {totals[0]}/{expected} | {totals[1]} | {totals[2]} |")
    print("\n".join(rows + [""] + details))
    return 0


if __name__ == "__main__":
    sys.exit(main())
