"""A fourth and fifth set of invented fillable targets, each with its own filled input document.

Unlike :mod:`tests.forms.standin_targets` (every form filled from one visit summary), each
target here is paired with a filled document of its own subject (a referral note, a
well-child summary, an occupational-health note, a medication review), and every document
names another person too (a referring physician, a guardian, an employer and supervisor, a
prescriber), each with a phone. The forms are made the way real ones are: meaningless widget
names (``Text1``, ``Text7.0.1``, ``undefined_3``, ``fill_12``, ``Check Box4``) with the label
printed left of the box, above it or under its line, labels only in tooltips, two parties with
the same labels (prescriber and patient side by side, patient and insured, child and
guardian, employee and employer, emergency contact and physician), name boxes split into
Last / First / MI, dates into MM / DD / YY(YY), phones into area code + number, comb fields,
checkboxes, signature and date-signed lines and office-use boxes (never filled).

``python -m tests.forms.standin_batch`` prints the right / wrong / empty table of the current
mapping for the fourth set, ``--fifth`` for the fifth. All names, numbers, places and
organisations are invented.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from datetime import date

import pymupdf

from .standin_targets import Sheet, StandIn, score

#: Four invented subjects, in the shapes forms ask for.
S1 = {"name": "Theodora K. Vansittart", "last": "Vansittart", "first": "Theodora", "mi": "K",
      "last_first": "Vansittart, Theodora K.", "dob": "02/18/1961", "mm": "02", "dd": "18",
      "yyyy": "1961", "yy": "61", "dob8": "02181961", "phone": "(612) 555-0147",
      "digits": "6125550147", "area": "612", "local": "555-0147",
      "address": "4409 Larkspur Avenue, Duluth, MN 55803", "street": "4409 Larkspur Avenue",
      "city": "Duluth", "state": "MN", "zip": "55803", "member": "HNX4402918",
      "allergies": "Penicillin; Latex", "meds": "Metformin 500 mg; Lisinopril 10 mg"}
S2 = {"name": "Caspian R. Obuya", "last": "Obuya", "first": "Caspian", "mi": "R",
      "dob": "11/23/2015", "address": "77 Tamarack Lane, Eugene, OR 97405",
      "member": "ODK55120734", "allergies": "Peanuts"}
S3 = {"name": "Renata M. Szabo", "last": "Szabo", "first": "Renata", "mi": "M",
      "dob": "09/30/1988", "mm": "09", "dd": "30", "yyyy": "1988", "phone": "(720) 555-0191",
      "area": "720", "local": "555-0191", "address": "1534 Quarry Street, Golden, CO 80401",
      "allergies": "Codeine", "meds": "Ibuprofen 400 mg"}
S4 = {"name": "Desmond A. Farraday", "last": "Farraday", "first": "Desmond", "mi": "A",
      "last_first": "Farraday, Desmond A.", "dob": "06/14/1979", "mm": "06", "dd": "14",
      "yy": "79", "phone": "(919) 555-0126", "area": "919", "local": "555-0126",
      "address": "311 Pecan Hollow Drive, Cary, NC 27513", "street": "311 Pecan Hollow Drive",
      "city": "Cary", "state": "NC", "zip": "27513", "member": "LBS908817263",
      "allergies": "Aspirin", "meds": "Atorvastatin 20 mg; Omeprazole 20 mg"}

CARE_NOTE = """NORTHGATE FAMILY PRACTICE
1200 Ridge Road, Duluth, MN 55811 | Tel (218) 555-0100
CARE TRANSITION NOTE
Date: 04/22/2025
Patient: Theodora K. Vansittart
DOB: 02/18/1961
Telephone: +1 (612) 555-0147
Address: 4409 Larkspur Avenue, Duluth, MN 55803
Member ID: HNX4402918
Allergies: Penicillin, Latex
Current medicines:
- Metformin 500 mg two times a day
- Lisinopril 10 mg daily
Referring Physician: Dr. Halvard Engstrom
Physician Phone: (218) 555-0133
"""

WELL_CHILD = """BRIGHTWATER PEDIATRICS
WELL-CHILD VISIT SUMMARY
Visit Date: 05/14/2025
Patient Name: Caspian R. Obuya
Date of Birth: 11/23/2015
Address: 77 Tamarack Lane, Eugene, OR 97405
Insurance Member ID: ODK55120734
Allergies: Peanuts
Current medicines: Cetirizine 5 mg daily
Parent/Guardian: Amara Obuya
Guardian Phone: (541) 555-0178
"""

OCCUPATIONAL = """QUARRYSIDE OCCUPATIONAL HEALTH
VISIT NOTE
Date of Visit: 03/28/2025
Patient Name: Renata M. Szabo
Date of Birth: 09/30/1988
Phone: +1 (720) 555-0191
Address: 1534 Quarry Street, Golden, CO 80401
Allergies: Codeine
Current medicines:
- Ibuprofen 400 mg for pain
Employer: Crestline Fabrication LLC
Employer Phone: (720) 555-0150
Supervisor: Glenn Ashdown
Date of Injury: 03/26/2025
"""

MED_REVIEW = """MEDICATION REVIEW
Review Date: 04/18/2025
Patient Name: Desmond A. Farraday
Date of Birth: 06/14/1979
Phone: +1 (919) 555-0126
Address: 311 Pecan Hollow Drive, Cary, NC 27513
Member ID: LBS908817263
Allergies: Aspirin
Current medicines:
1. Atorvastatin 20 mg nightly
2. Omeprazole 20 mg daily
Prescriber: Dr. Priya Venkataraman
Prescriber Phone: (919) 555-0188
Prescriber Fax: (919) 555-0189
"""


@dataclass(frozen=True)
class Paired(StandIn):
    """A stand-in target with the filled input document of its own subject."""

    source: str = ""


def _comb(sheet: Sheet, name: str, rect: tuple[float, float, float, float], maxlen: int,
          tip: str | None = None) -> None:
    """A comb field: ``maxlen`` equal cells, one character each."""
    widget = pymupdf.Widget()
    widget.field_name = name
    if tip:
        widget.field_label = tip
    widget.field_type = pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT
    widget.rect = pymupdf.Rect(*rect)
    widget.text_maxlen = maxlen
    widget.field_flags = pymupdf.mupdf.PDF_TX_FIELD_IS_COMB
    sheet.doc[0].add_widget(widget)


def _above_boxes(sheet: Sheet, y: float, cells: list[tuple[str, str, float, float]],
                 size: float = 7.0) -> None:
    """Boxes on one row, each with its label printed right above it."""
    for label, name, x0, x1 in cells:
        sheet.text(x0, y - 3, label, size=size)
        sheet.box(name, (x0, y, x1, y + 14))


# --- the fourth set -------------------------------------------------------------------------


def prescriber_left_patient_right() -> bytes:
    """A prior-authorization request: the prescriber's column left, the patient's right,
    the same labels above the boxes of both; a requested drug, a signature and a date."""
    sheet = Sheet()
    sheet.text(40, 40, "LARCHMONT BENEFIT SERVICES", size=12, bold=True)
    sheet.text(40, 54, "Prior authorization request - fax to (800) 555-0110", size=8)
    sheet.text(40, 80, "PRESCRIBER INFORMATION", size=9, bold=True)
    sheet.text(320, 80, "PATIENT INFORMATION", size=9, bold=True)
    left = ["Name", "NPI", "Phone", "Fax", "Address"]
    right = ["Name", "Date of Birth", "Phone", "Member ID", "Address"]
    for column, (x0, labels) in enumerate(((40.0, left), (320.0, right))):
        y = 100.0
        for row, label in enumerate(labels):
            sheet.text(x0, y - 3, label, size=7)
            sheet.box(f"Text{column * 5 + row + 1}", (x0, y, x0 + 250, y + 14))
            y += 30
    sheet.text(40, 257, "Medication requested", size=7)
    sheet.box("Text11", (40, 260, 570, 274))
    sheet.text(40, 297, "Prescriber signature", size=7)
    sheet.box("Text12", (40, 300, 330, 314))
    sheet.text(340, 297, "Date", size=7)
    sheet.box("Text13", (340, 300, 570, 314))
    return sheet.done()


def claim_hints_above() -> bytes:
    """A claim form of ruled cells with numbered captions; the birth date in MM / DD / YY
    boxes whose hints stand above them; the patient's and the insured's blocks share labels;
    the telephone in an area-code box and a number box."""
    sheet = Sheet()
    sheet.text(40, 40, "HEALTH INSURANCE CLAIM", size=12, bold=True)

    def cell(x0: float, y0: float, x1: float, caption: str) -> None:
        sheet.rule((x0, y0, x1, y0 + 34))
        sheet.text(x0 + 3, y0 + 8, caption, size=6)

    cell(40, 60, 330, "2. PATIENT'S NAME (Last Name, First Name, Middle Initial)")
    sheet.box("Text2", (42, 74, 328, 92))
    cell(330, 60, 572, "1a. INSURED'S I.D. NUMBER")
    sheet.box("Text1", (332, 74, 570, 92))
    cell(40, 94, 330, "3. PATIENT'S BIRTH DATE                                      SEX")
    for n, (hint, x) in enumerate((("MM", 60), ("DD", 95), ("YY", 130)), start=3):
        sheet.text(x + 4, 110, hint, size=5)
        sheet.box(f"Text{n}", (x, 112, x + 26, 126), maxlen=2)
    sheet.box("Check Box1", (230, 114, 240, 124), kind="checkbox")
    sheet.text(243, 122, "M", size=7)
    sheet.box("Check Box2", (260, 114, 270, 124), kind="checkbox")
    sheet.text(273, 122, "F", size=7)
    cell(330, 94, 572, "4. INSURED'S NAME (Last Name, First Name, Middle Initial)")
    sheet.box("Text6", (332, 108, 570, 126))
    cell(40, 128, 330, "5. PATIENT'S ADDRESS (No., Street)")
    sheet.box("Text7", (42, 142, 328, 160))
    cell(330, 128, 572, "7. INSURED'S ADDRESS (No., Street)")
    sheet.box("Text13", (332, 142, 570, 160))
    cell(40, 162, 250, "CITY")
    sheet.box("Text8", (42, 176, 248, 194))
    cell(250, 162, 330, "STATE")
    sheet.box("Text9", (252, 176, 328, 194))
    cell(40, 196, 150, "ZIP CODE")
    sheet.box("Text10", (42, 210, 148, 228))
    cell(150, 196, 330, "TELEPHONE (Include Area Code)")
    sheet.text(154, 222, "(", size=9)
    sheet.box("Text11", (160, 210, 190, 228), maxlen=3)
    sheet.text(192, 222, ")", size=9)
    sheet.box("Text12", (200, 210, 328, 228))
    cell(330, 196, 572, "INSURED'S TELEPHONE (Include Area Code)")
    sheet.box("Text14", (332, 210, 570, 228))
    return sheet.done()


def child_guardian_tooltips() -> bytes:
    """A school health form whose labels live only in tooltips (the page prints lines and a
    heading): the child's fields, then the parent or guardian's with the same words."""
    sheet = Sheet()
    sheet.text(40, 40, "SCHOOL HEALTH AND EMERGENCY CARD", size=12, bold=True)
    tips = [("undefined", "Child's last name"), ("undefined_2", "Child's first name"),
            ("undefined_3", "Child's date of birth (mm/dd/yyyy)"),
            ("undefined_4", "Home address"), ("undefined_5", "Health plan member number"),
            ("undefined_6", "Known allergies"),
            ("undefined_7", "Parent or guardian name"),
            ("undefined_8", "Parent or guardian daytime telephone"),
            ("undefined_9", "Parent or guardian signature"), ("undefined_10", "Date signed")]
    y = 70.0
    for name, tip in tips:
        sheet.text(40, y + 12, "_" * 70, size=8)
        sheet.box(name, (40, y, 380, y + 13), tip=tip)
        y += 26
    return sheet.done()


def employee_employer_split() -> bytes:
    """A work-injury report: the employee's name in Last / First / MI boxes with captions
    under them, the birth date in MM / DD / YYYY boxes, the phone in area code + number, and
    the employer's block with a supervisor's split name, a phone and the injury date."""
    sheet = Sheet()
    sheet.text(40, 40, "EMPLOYER'S FIRST REPORT OF WORK INJURY", size=12, bold=True)
    sheet.text(40, 64, "SECTION A - EMPLOYEE", size=9, bold=True)
    sheet.text(40, 82, "Name:")
    for name, caption, x0, x1 in (("fill_1", "Last", 90, 260), ("fill_2", "First", 270, 430),
                                  ("fill_3", "MI", 440, 470)):
        sheet.box(name, (x0, 72, x1, 86))
        sheet.text(x0, 94, caption, size=6)
    sheet.text(40, 116, "Date of birth:")
    x = 110.0
    for name, hint, width in (("fill_4", "MM", 24), ("fill_5", "DD", 24),
                              ("fill_6", "YYYY", 40)):
        sheet.box(name, (x, 106, x + width, 120), maxlen=len(hint))
        sheet.text(x + 3, 128, hint, size=6)
        if hint != "YYYY":
            sheet.text(x + width + 2, 117, "/", size=10)
        x += width + 10
    sheet.text(40, 150, "Home phone:")
    sheet.text(104, 150, "(")
    sheet.box("fill_7", (110, 140, 140, 154), maxlen=3)
    sheet.text(142, 150, ")")
    sheet.box("fill_8", (150, 140, 240, 154))
    sheet.text(40, 174, "Home address:")
    sheet.box("fill_9", (110, 164, 560, 178))
    sheet.text(40, 208, "SECTION B - EMPLOYER", size=9, bold=True)
    sheet.text(40, 226, "Employer name:")
    sheet.box("fill_10", (120, 216, 560, 230))
    sheet.text(40, 250, "Supervisor:")
    for name, caption, x0, x1 in (("fill_11", "Last", 120, 290), ("fill_12", "First", 300, 460)):
        sheet.box(name, (x0, 240, x1, 254))
        sheet.text(x0, 262, caption, size=6)
    sheet.text(40, 284, "Phone:")
    sheet.text(114, 284, "(")
    sheet.box("fill_13", (120, 274, 150, 288), maxlen=3)
    sheet.text(152, 284, ")")
    sheet.box("fill_14", (160, 274, 250, 288))
    sheet.text(40, 312, "Date of injury:")
    x = 120.0
    for name, hint, width in (("fill_15", "MM", 24), ("fill_16", "DD", 24),
                              ("fill_17", "YYYY", 40)):
        sheet.box(name, (x, 302, x + width, 316), maxlen=len(hint))
        sheet.text(x + 3, 324, hint, size=6)
        x += width + 10
    return sheet.done()


def comb_fields() -> bytes:
    """Comb fields with dotted hierarchical names: the birth date as eight digits, the ZIP,
    the phone as ten digits, the member id; the state in a two-character comb."""
    sheet = Sheet()
    sheet.text(40, 40, "MEMBER ADDRESS CHANGE", size=12, bold=True)
    rows = [("Last name", "Text7.0.0", 20), ("First name", "Text7.0.1", 20),
            ("Middle initial", "Text7.0.2", 1), ("Date of birth (MMDDYYYY)", "Text7.1.0", 8),
            ("Street address", "Text7.2.0", 0), ("City", "Text7.2.1", 0),
            ("State", "Text7.2.2", 2), ("ZIP", "Text7.2.3", 5),
            ("Telephone (10 digits)", "Text7.3.0", 10), ("Member number", "Text7.4.0", 12)]
    y = 66.0
    for label, name, maxlen in rows:
        sheet.text(40, y + 10, label)
        if maxlen:
            _comb(sheet, name, (170, y, 170 + 16 * maxlen, y + 14), maxlen)
        else:
            sheet.box(name, (170, y, 520, y + 14))
        y += 24
    return sheet.done()


def consent_signature_lines() -> bytes:
    """A consent with the patient's name and birth date on one row, then signature lines
    with captions under them (signature, date, printed name, relationship, witness) and an
    office-use block: only the name and birth date are written."""
    sheet = Sheet()
    sheet.text(40, 40, "CONSENT TO TELEHEALTH SERVICES", size=12, bold=True)
    sheet.text(40, 76, "Patient name:")
    sheet.box("Text7", (100, 66, 330, 80))
    sheet.text(340, 76, "DOB:")
    sheet.box("Text8", (365, 66, 470, 80))
    sheet.text(40, 104, "I agree to receive care by video visit and understand its limits.",
               size=8)
    lines = [[("Text1", "Signature of patient or authorized representative", 40, 330),
              ("Text2", "Date", 350, 470)],
             [("Text3", "Printed name of patient", 40, 330),
              ("Text4", "Relationship to patient (if signed by representative)", 350, 570)],
             [("Text5", "Witness signature", 40, 330), ("Text6", "Date", 350, 470)]]
    y = 130.0
    for row in lines:
        for name, caption, x0, x1 in row:
            sheet.box(name, (x0, y, x1, y + 14))
            sheet.doc[0].draw_line((x0, y + 14), (x1, y + 14), width=0.6)
            sheet.text(x0, y + 22, caption, size=6.5)
        y += 40
    sheet.text(40, 270, "FOR OFFICE USE ONLY", size=9, bold=True)
    _above_boxes(sheet, 290, [("Chart no.", "Text9", 40, 180),
                              ("Entered by", "Text10", 200, 340),
                              ("Date scanned", "Text11", 360, 500)])
    return sheet.done()


def three_blocks_two_per_row() -> bytes:
    """Patient, emergency contact and primary care physician blocks, two boxes a row, the
    same labels in each block."""
    sheet = Sheet()
    sheet.text(40, 40, "NEW PATIENT REGISTRATION", size=12, bold=True)
    blocks = [("PATIENT", [("Name", "Date of birth"), ("Phone", "Address")]),
              ("EMERGENCY CONTACT", [("Name", "Relationship to patient"), ("Phone", None)]),
              ("PRIMARY CARE PHYSICIAN", [("Name", "Phone"), ("Fax", None)])]
    y, n = 66.0, 0
    for heading, rows in blocks:
        sheet.text(40, y, heading, size=9, bold=True)
        y += 10
        for left, right in rows:
            for label, lx, bx, bx1 in ((left, 40, 120, 300), (right, 310, 400, 570)):
                if label is None:
                    continue
                n += 1
                sheet.text(lx, y + 10, label)
                sheet.box(f"Text{n}", (bx, y, bx1, y + 14))
            y += 22
        y += 12
    return sheet.done()


def office_box_labels_above() -> bytes:
    """An office-use box at the top right, then name and birth-date boxes with their labels
    above, sex checkboxes, home and cell phones, a yes/no allergy question with its list box
    and a current medicines box."""
    sheet = Sheet()
    sheet.text(40, 40, "URGENT CARE SIGN-IN", size=12, bold=True)
    sheet.rule((400, 24, 572, 70))
    sheet.text(404, 34, "OFFICE USE ONLY", size=7, bold=True)
    sheet.text(404, 46, "Acct #", size=6)
    sheet.box("Text20", (430, 38, 568, 50))
    sheet.text(404, 62, "Rec'd", size=6)
    sheet.box("Text21", (430, 54, 568, 66))
    _above_boxes(sheet, 96, [("Last name", "Text1", 40, 220), ("First name", "Text2", 230, 400),
                             ("MI", "Text3", 410, 440)])
    sheet.text(40, 130, "Birth date", size=7)
    for name, hint, x0, x1 in (("Text4", "MM", 40, 66), ("Text5", "DD", 76, 102),
                               ("Text6", "YYYY", 112, 152)):
        sheet.text(x0 + 2, 139, hint, size=5)
        sheet.box(name, (x0, 141, x1, 155), maxlen=len(hint))
    sheet.text(200, 152, "Sex:")
    sheet.box("Check Box1", (225, 144, 235, 154), kind="checkbox")
    sheet.text(238, 152, "M")
    sheet.box("Check Box2", (255, 144, 265, 154), kind="checkbox")
    sheet.text(268, 152, "F")
    _above_boxes(sheet, 180, [("Home phone", "Text7", 40, 200), ("Cell phone", "Text8", 210, 370),
                              ("Email", "Text9", 380, 570)])
    sheet.text(40, 215, "Are you allergic to any medicines?")
    sheet.box("Check Box3", (200, 206, 210, 216), kind="checkbox")
    sheet.text(213, 215, "Yes")
    sheet.box("Check Box4", (235, 206, 245, 216), kind="checkbox")
    sheet.text(248, 215, "No")
    sheet.text(60, 233, "If yes, list:")
    sheet.box("Text10", (120, 224, 570, 238))
    sheet.text(40, 257, "Medicines you take now:")
    sheet.box("Text11", (140, 248, 570, 262))
    return sheet.done()


def insured_on_page_two() -> bytes:
    """The patient on page 1; page 2 asks for the insured / policyholder "if different from
    patient" with the same labels and an id number."""
    sheet = Sheet(pages=2)
    sheet.text(40, 40, "OUTPATIENT REGISTRATION", size=12, bold=True)
    for n, (label, y) in enumerate((("Patient name", 70), ("Date of birth", 94),
                                    ("Phone number", 118), ("Member ID", 142)), start=1):
        sheet.text(40, y + 10, label)
        sheet.box(f"Text{n}", (150, y, 420, y + 14))
    sheet.text(40, 40, "INSURED / POLICYHOLDER (if different from patient)", size=11,
               bold=True, page=2)
    for n, (label, y) in enumerate((("Name", 70), ("Date of birth", 94), ("ID number", 118),
                                    ("Phone number", 142)), start=5):
        sheet.text(40, y + 10, label, page=2)
        sheet.box(f"Text{n}", (150, y, 420, y + 14), page=2)
    return sheet.done()


FOURTH: tuple[Paired, ...] = (
    Paired("prescriber_left_patient_right", "prescriber column left, patient right",
           prescriber_left_patient_right,
           {"Text6": S4["name"], "Text7": S4["dob"], "Text8": S4["phone"],
            "Text9": S4["member"], "Text10": S4["address"]}, source=MED_REVIEW),
    Paired("claim_hints_above", "claim cells, MM DD YY hints above, insured block",
           claim_hints_above,
           {"Text1": S4["member"], "Text2": S4["last_first"], "Text3": S4["mm"],
            "Text4": S4["dd"], "Text5": S4["yy"], "Text7": S4["street"], "Text8": S4["city"],
            "Text9": S4["state"], "Text10": S4["zip"], "Text11": S4["area"],
            "Text12": S4["local"]},
           {"Text1": "the insured's id is the subject's only when the subject is the insured"},
           source=MED_REVIEW),
    Paired("child_guardian_tooltips", "labels only in tooltips, child and guardian",
           child_guardian_tooltips,
           {"undefined": S2["last"], "undefined_2": S2["first"], "undefined_3": S2["dob"],
            "undefined_4": S2["address"], "undefined_5": S2["member"],
            "undefined_6": S2["allergies"]}, source=WELL_CHILD),
    Paired("employee_employer_split", "employee / employer, split name, date and phone",
           employee_employer_split,
           {"fill_1": S3["last"], "fill_2": S3["first"], "fill_3": S3["mi"],
            "fill_4": S3["mm"], "fill_5": S3["dd"], "fill_6": S3["yyyy"],
            "fill_7": S3["area"], "fill_8": S3["local"], "fill_9": S3["address"]},
           source=OCCUPATIONAL),
    Paired("comb_fields", "comb fields, dotted names", comb_fields,
           {"Text7.0.0": S1["last"], "Text7.0.1": S1["first"], "Text7.0.2": S1["mi"],
            "Text7.1.0": S1["dob8"], "Text7.2.0": S1["street"], "Text7.2.1": S1["city"],
            "Text7.2.2": S1["state"], "Text7.2.3": S1["zip"], "Text7.3.0": S1["digits"],
            "Text7.4.0": S1["member"]}, source=CARE_NOTE),
    Paired("consent_signature_lines", "signature lines, captions under, office use",
           consent_signature_lines, {"Text7": S1["name"], "Text8": S1["dob"]},
           source=CARE_NOTE),
    Paired("three_blocks_two_per_row", "patient / emergency contact / physician blocks",
           three_blocks_two_per_row,
           {"Text1": S1["name"], "Text2": S1["dob"], "Text3": S1["phone"],
            "Text4": S1["address"]}, source=CARE_NOTE),
    Paired("office_box_labels_above", "office box, labels above, checkboxes",
           office_box_labels_above,
           {"Text1": S3["last"], "Text2": S3["first"], "Text3": S3["mi"], "Text4": S3["mm"],
            "Text5": S3["dd"], "Text6": S3["yyyy"], "Text7": S3["phone"],
            "Text10": S3["allergies"], "Text11": S3["meds"]}, source=OCCUPATIONAL),
    Paired("insured_on_page_two", "insured block on page 2 'if different'",
           insured_on_page_two,
           {"Text1": S4["name"], "Text2": S4["dob"], "Text3": S4["phone"],
            "Text4": S4["member"]}, source=MED_REVIEW),
)


def fill(standin: Paired, root: str) -> dict[str, str]:
    """Run the offline pipeline on the stand-in's own input document."""
    from repro_assets.forms.fill import read_back
    from repro_assets.forms.pipeline import UploadedFile, ingest, run_pipeline
    from repro_assets.forms.samples import text_pdf_bytes
    from repro_assets.storage.blobstore import BlobStore

    folder = ingest(BlobStore(root), [UploadedFile("input.pdf", text_pdf_bytes(standin.source))],
                    target_docs=[UploadedFile("form.pdf", standin.build())], source="test")
    run_pipeline(folder, None, today=date(2025, 6, 1))
    return read_back(folder.read_binary("filled.pdf")) if folder.has_artifact("review") else {}


def table(chosen: tuple[Paired, ...]) -> str:
    """The right / wrong / empty table of ``chosen`` (then the wrong and empty widgets)."""
    rows = ["| stand-in | family | right | wrong | empty | not expected |",
            "|---|---|---|---|---|---|"]
    totals = [0, 0, 0]
    details = []
    with tempfile.TemporaryDirectory() as root:
        for standin in chosen:
            out = score(standin, fill(standin, root))
            counts = (len(out.right), len(out.wrong), len(out.empty))
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
            total = len(_widget_names(standin))
            rows.append(f"| {out.name} | {standin.family} | {counts[0]}/"
                        f"{len(standin.expected)} | {counts[1]} | {counts[2]} | "
                        f"{total - len(standin.expected)} |")
            details += [f"WRONG {out.name}: {w!r} = {v!r} (expected "
                        f"{standin.expected.get(w)!r})" for w, v in out.wrong.items()]
            details += [f"EMPTY {out.name}: {w!r} (expected {standin.expected[w]!r})"
                        for w in out.empty]
    expected = sum(len(s.expected) for s in chosen)
    rows.append(f"| **total** | | {totals[0]}/{expected} | {totals[1]} | {totals[2]} | |")
    return "\n".join(rows + [""] + details)


def _widget_names(standin: Paired) -> list[str]:
    with pymupdf.open(stream=standin.build(), filetype="pdf") as doc:
        return [w.field_name for page in doc.pages() for w in page.widgets() or []]


def main(argv: list[str] | None = None) -> int:
    """Print the table of the fourth set (``--fifth``: the fifth)."""
    args = argv if argv is not None else sys.argv[1:]
    chosen = FIFTH if "--fifth" in args else FOURTH
    print(table(chosen))
    return 0


# --- the fifth set: drawn after the fourth was passing, measured before any change --------


def heading_bars_two_columns() -> bytes:
    """Two framed columns, each headed by a shaded bar: the prescriber's left, the
    patient's right, labels left of the boxes inside each column."""
    sheet = Sheet()
    sheet.text(40, 40, "SPECIALTY DRUG ENROLLMENT", size=12, bold=True)
    for x0, heading, first in ((40.0, "PRESCRIBER", 1), (310.0, "PATIENT", 6)):
        sheet.doc[0].draw_rect(pymupdf.Rect(x0, 56, x0 + 262, 70), color=None,
                               fill=(0.85, 0.85, 0.85))
        sheet.text(x0 + 4, 66, heading, size=9, bold=True)
        sheet.rule((x0, 56, x0 + 262, 200))
        for row, label in enumerate(("Name", "Date of birth" if first == 6 else "DEA no.",
                                     "Phone", "Address", "Member ID" if first == 6 else
                                     "Fax")):
            y = 80 + 22 * row
            sheet.text(x0 + 4, y + 10, label, size=7)
            sheet.box(f"Text{first + row}", (x0 + 60, y, x0 + 256, y + 14))
    return sheet.done()


def subscriber_and_patient_captions_below() -> bytes:
    """A dental claim: the subscriber's and the patient's names in boxes with captions
    under them, each block's birth date in one box with "MM/DD/CCYY" under it."""
    sheet = Sheet()
    sheet.text(40, 40, "DENTAL CLAIM", size=12, bold=True)

    def block(y: float, heading: str, start: int) -> None:
        sheet.text(40, y, heading, size=9, bold=True)
        for n, (caption, x0, x1) in enumerate((("Last", 40, 220), ("First", 230, 390),
                                               ("MI", 400, 430),
                                               ("Date of birth (MM/DD/CCYY)", 440, 570)),
                                              start=start):
            sheet.box(f"fill_{n}", (x0, y + 8, x1, y + 22))
            sheet.text(x0, y + 30, caption, size=6)
    block(70, "SUBSCRIBER INFORMATION", 1)
    block(130, "PATIENT INFORMATION", 5)
    return sheet.done()


def minor_and_guardian() -> bytes:
    """A consent for a minor: the minor's name and birth date (MM / DD / YYYY hints over
    the boxes), the guardian's name and phone in area code + number boxes."""
    sheet = Sheet()
    sheet.text(40, 40, "CONSENT FOR A MINOR", size=12, bold=True)
    sheet.text(40, 80, "Child's name:")
    sheet.box("Text1", (110, 70, 400, 84))
    sheet.text(40, 110, "Child's date of birth", size=7)
    for name, hint, x0, x1 in (("Text2", "MM", 40, 66), ("Text3", "DD", 76, 102),
                               ("Text4", "YYYY", 112, 152)):
        sheet.text(x0 + 2, 119, hint, size=5)
        sheet.box(name, (x0, 121, x1, 135), maxlen=len(hint))
    sheet.text(40, 164, "Parent or guardian name:")
    sheet.box("Text5", (150, 154, 400, 168))
    sheet.text(40, 188, "Phone:")
    sheet.text(74, 188, "(")
    sheet.box("Text6", (80, 178, 110, 192), maxlen=3)
    sheet.text(112, 188, ")")
    sheet.box("Text7", (120, 178, 220, 192))
    sheet.text(40, 212, "Relationship to child:")
    sheet.box("Text8", (150, 202, 400, 216))
    return sheet.done()


def patient_spouse_grid() -> bytes:
    """A grid: row labels left, a PATIENT and a SPOUSE column of boxes."""
    sheet = Sheet()
    sheet.text(40, 40, "HOUSEHOLD INFORMATION", size=12, bold=True)
    sheet.text(160, 72, "PATIENT", size=8, bold=True)
    sheet.text(370, 72, "SPOUSE", size=8, bold=True)
    for row, label in enumerate(("Full name", "Date of birth", "Phone", "Employer")):
        y = 78 + 22 * row
        sheet.text(40, y + 10, label)
        sheet.box(f"g{row * 2 + 1}", (160, y, 350, y + 14))
        sheet.box(f"g{row * 2 + 2}", (370, y, 560, y + 14))
    return sheet.done()


def employer_page_then_employee() -> bytes:
    """Page 1 asks the employer's name, phone and address; page 2 the employee's, with the
    same labels and no party in them but the page heading."""
    sheet = Sheet(pages=2)
    sheet.text(40, 40, "EMPLOYER INFORMATION", size=12, bold=True)
    for n, (label, y) in enumerate((("Name", 70), ("Phone", 94), ("Address", 118)), start=1):
        sheet.text(40, y + 10, label)
        sheet.box(f"Text{n}", (120, y, 420, y + 14))
    sheet.text(40, 40, "EMPLOYEE INFORMATION", size=12, bold=True, page=2)
    for n, (label, y) in enumerate((("Name", 70), ("Date of birth", 94), ("Phone", 118),
                                    ("Address", 142)), start=4):
        sheet.text(40, y + 10, label, page=2)
        sheet.box(f"Text{n}", (120, y, 420, y + 14), page=2)
    return sheet.done()


FIFTH: tuple[Paired, ...] = (
    Paired("heading_bars_two_columns", "shaded heading bars, framed columns",
           heading_bars_two_columns,
           {"Text6": S4["name"], "Text7": S4["dob"], "Text8": S4["phone"],
            "Text9": S4["address"], "Text10": S4["member"]}, source=MED_REVIEW),
    Paired("subscriber_and_patient_captions_below", "subscriber / patient, captions under",
           subscriber_and_patient_captions_below,
           {"fill_5": S1["last"], "fill_6": S1["first"], "fill_7": S1["mi"],
            "fill_8": S1["dob"]}, source=CARE_NOTE),
    Paired("minor_and_guardian", "minor's date hints over boxes, guardian's split phone",
           minor_and_guardian,
           {"Text1": S2["name"], "Text2": "11", "Text3": "23", "Text4": "2015"},
           source=WELL_CHILD),
    Paired("patient_spouse_grid", "grid with patient and spouse columns", patient_spouse_grid,
           {"g1": S3["name"], "g3": S3["dob"], "g5": S3["phone"]}, source=OCCUPATIONAL),
    Paired("employer_page_then_employee", "employer on page 1, employee on page 2",
           employer_page_then_employee,
           {"Text4": S3["name"], "Text5": S3["dob"], "Text6": S3["phone"],
            "Text7": S3["address"]}, source=OCCUPATIONAL),
)


if __name__ == "__main__":
    sys.exit(main())
