"""Invented stand-in documents, filled and blank, in layouts real paperwork uses (issue #25).

Each :class:`Doc` is one small PDF the tests draw with PyMuPDF (text placed at page
coordinates, so blocks can stand side by side) plus the seven v1 values a careful reader
gets from it (``None`` where the document holds none for its subject). They are written as
eval case bundles and scored by :func:`repro_assets.forms.evaluation.evaluate`, the same
scorer as the corpus, so right / wrong / review / missed mean the same here.

Filled families: a lab report with patient / ordering doctor / lab blocks side by side, a
discharge summary in prose, a claim bundle with several parties' addresses and phones, a
letter with letterhead and footer, a medication list as a numbered table, a two-column
demographic sheet read across, dates of service / report dates / birth date on one line,
account / claim / policy / member numbers together, emergency-contact and guarantor blocks.
Blank families: instructions, examples, option lists, fill-in lines, the organisation's own
contacts and a sample row "e.g. <name>, <date>".

``python -m tests.forms.standin_filled`` prints the eval table of the current pipeline. All
names, numbers, places and organisations are invented.
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pymupdf

#: (x, baseline y, text) or (x, y, text, font size); a page break is the string "PAGE".
Item = tuple[float, float, str] | tuple[float, float, str, float]
KEYS = ("full_name", "dob", "phone", "address", "insurance_member_id", "allergies",
        "medications")


def placed_pdf(pages: list[list[Item]]) -> bytes:
    """A PDF of letter pages with each text item at its coordinates (Helvetica)."""
    doc = pymupdf.open()
    for items in pages:
        page = doc.new_page(width=612, height=792)
        for item in items:
            x, y, text = item[0], item[1], item[2]
            size = item[3] if len(item) > 3 else 9.0  # type: ignore[misc]
            page.insert_text((x, y), text, fontsize=size, fontname="helv")
    doc.set_metadata({})
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def lines(text: str, x: float = 50, y: float = 60, step: float = 14) -> list[Item]:
    """One item per line of ``text`` from (x, y) down."""
    return [(x, y + i * step, line) for i, line in enumerate(text.splitlines()) if line]


@dataclass(frozen=True)
class Doc:
    """One invented document and what a careful reader gets from it."""

    name: str
    family: str
    pages: list[list[Item]]
    values: dict[str, str | None] = field(default_factory=dict)
    raw: bytes | None = None  # a PDF built otherwise (a fillable form), used as it is

    def pdf(self) -> bytes:
        """The document's PDF bytes."""
        return self.raw if self.raw is not None else placed_pdf(self.pages)

    def expected(self) -> dict[str, str | None]:
        """All seven keys: the values given, ``None`` for the rest."""
        return {k: self.values.get(k) for k in KEYS}


def lab_side_by_side() -> Doc:
    blocks = [
        (40, "PATIENT", ["Name: Edda Marchetti", "DOB: 02/17/1969", "Sex: F",
                         "Phone: (614) 555-0131", "14 Larkspur Way", "Dublin, OH 43017"]),
        (225, "ORDERING PHYSICIAN", ["Dr. Samir Oyelaran", "NPI: 1942217730",
                                     "Phone: (614) 555-0190", "220 Clinic Row",
                                     "Columbus, OH 43215"]),
        (410, "PERFORMING LAB", ["Tallgrass Reference Lab", "CLIA: 36D0912245",
                                 "Phone: (614) 555-0102", "9 Assay Park",
                                 "Columbus, OH 43219"]),
    ]
    items: list[Item] = [(40, 50, "TALLGRASS REFERENCE LAB - FINAL REPORT", 12)]
    for x, head, rows in blocks:
        items.append((x, 84, head, 9.5))
        items += [(x, 100 + 13 * i, row) for i, row in enumerate(rows)]
    items += lines("Collected: 04/02/2025 07:40    Reported: 04/03/2025 16:05\n"
                   "TEST              RESULT     REFERENCE\n"
                   "Glucose, fasting  101 mg/dL  70-99\n"
                   "HbA1c             5.9 %      4.0-5.6", y=200)
    return Doc("lab_side_by_side", "lab: patient / doctor / lab blocks side by side", [items],
               {"full_name": "Edda Marchetti", "dob": "1969-02-17", "phone": "(614) 555-0131",
                "address": "14 Larkspur Way, Dublin, OH 43017"})


def discharge_prose() -> Doc:
    text = (
        "HOLLOWAY BAY HOSPITAL - DISCHARGE SUMMARY\n"
        "Patient: Tobias Lindqvist    MRN: 00482211    Admitted: 03/04/2025\n"
        "Discharged: 03/08/2025    Attending: Dr. Ines Caballero\n"
        "HOSPITAL COURSE\n"
        "Mr. Lindqvist is a 58-year-old man born on 11/02/1966 who presented with chest pain.\n"
        "He reports an allergy to codeine, which causes hives. Troponins were negative.\n"
        "DISCHARGE PLAN\n"
        "He will continue atorvastatin 40 mg nightly and aspirin 81 mg daily.\n"
        "Follow up with Dr. Ines Caballero at (757) 555-0148 in two weeks.\n"
        "Questions about this stay? Call the ward at (757) 555-0100.\n")
    return Doc("discharge_prose", "discharge summary in prose", [lines(text)],
               {"full_name": "Tobias Lindqvist", "dob": "1966-11-02",
                "allergies": "codeine", "medications": "atorvastatin 40 mg; aspirin 81 mg"})


def claim_bundle() -> Doc:
    claim = lines(
        "CLAIM FOR REIMBURSEMENT\n"
        "PAYER: Keystone Mutual Health, PO Box 4410, Harrisburg, PA 17111\n"
        "Payer Phone: 1-800-555-0166\n"
        "INSURED (SUBSCRIBER)\n"
        "Name: Gregor Halvorsen\n"
        "Address: 77 Quarry Lane, Altoona, PA 16601\n"
        "Phone: (814) 555-0122\n"
        "Member ID: KMH-330918-01\n"
        "PATIENT\n"
        "Name: Liv Halvorsen    Relationship to insured: Child\n"
        "Date of Birth: 06/09/2011\n"
        "Address: 77 Quarry Lane, Altoona, PA 16601\n"
        "BILLING PROVIDER\n"
        "Juniata Pediatrics, 5 Elm Plaza, Altoona, PA 16602\n"
        "Phone: (814) 555-0175    Tax ID: 25-1188203\n")
    return Doc("claim_bundle", "claim: insured / patient / provider / payer", [claim],
               {"full_name": "Liv Halvorsen", "dob": "2011-06-09",
                "address": "77 Quarry Lane, Altoona, PA 16601",
                # the insured's id is the dependent's coverage id (as a claim form asks it)
                "insurance_member_id": "KMH-330918-01"})


def letter_letterhead() -> Doc:
    items: list[Item] = [
        (200, 44, "MAPLEFORD NEUROLOGY ASSOCIATES", 12),
        (190, 58, "310 Birchgate Avenue, Suite 200, Mapleford, WI 53711"),
        (215, 70, "Tel (608) 555-0140  |  Fax (608) 555-0141"),
    ]
    items += lines(
        "May 12, 2025\n"
        "Dr. Rosalind Achterberg\n"
        "Harborview Family Practice\n"
        "88 Harbor Street, Mapleford, WI 53703\n"
        "RE: Kwame Asante-Boateng    DOB: 08/23/1990\n"
        "Dear Dr. Achterberg,\n"
        "Thank you for referring Mr. Asante-Boateng, whom I saw today for headaches.\n"
        "He takes sumatriptan 50 mg when a headache starts. He has no known drug allergies.\n"
        "Please call our office with any questions.\n"
        "Sincerely,\n"
        "Helmut Draskovic, MD", y=110)
    items.append((120, 760, "Mapleford Neurology Associates  310 Birchgate Avenue  "
                            "Mapleford, WI 53711  (608) 555-0140", 7))
    return Doc("letter_letterhead", "letter with letterhead and footer", [items],
               {"full_name": "Kwame Asante-Boateng", "dob": "1990-08-23",
                "medications": "sumatriptan 50 mg"})


def medication_table() -> Doc:
    items: list[Item] = [(50, 50, "CURRENT MEDICATION LIST", 12),
                         (50, 72, "Patient: Odalys Ferreira-Lund"),
                         (300, 72, "Date of Birth: 12/01/1958"),
                         (50, 86, "Pharmacy: Crestview Pharmacy  (505) 555-0117")]
    cols = (50, 70, 210, 290, 440)
    items += [(x, 112, h) for x, h in zip(cols, ("#", "Medication", "Strength", "Directions",
                                                  "Prescriber"), strict=True)]
    rows = [("1", "Losartan", "50 mg", "1 tab by mouth daily", "Dr. P. Nakagawa"),
            ("2", "Carvedilol", "6.25 mg", "1 tab two times a day", "Dr. P. Nakagawa"),
            ("3", "Omeprazole", "20 mg", "before breakfast", "Dr. T. Vasquez")]
    for r, row in enumerate(rows):
        items += [(x, 128 + 14 * r, cell) for x, cell in zip(cols, row, strict=True)]
    return Doc("medication_table", "medication list as a numbered table", [items],
               {"full_name": "Odalys Ferreira-Lund", "dob": "1958-12-01",
                "medications": "Losartan 50 mg; Carvedilol 6.25 mg; Omeprazole 20 mg"})


def medication_rows_unaligned() -> Doc:
    """A table with an empty strength cell: its cells cannot be cut into checked rows."""
    items: list[Item] = [(50, 50, "MEDICATIONS ON FILE", 12),
                         (50, 72, "Patient: Henrik Solvang-Ames")]
    cols = (50, 70, 210, 290)
    items += [(x, 100, h) for x, h in zip(cols, ("No.", "Drug", "Dose", "Sig"), strict=True)]
    rows = [("1", "Amlodipine", "5 mg", "daily"), ("2", "Vitamin D3", "", "weekly"),
            ("3", "Cetirizine", "10 mg", "at bedtime")]
    for r, row in enumerate(rows):
        items += [(x, 116 + 14 * r, cell) for x, cell in zip(cols, row, strict=True) if cell]
    return Doc("medication_rows_unaligned", "medication table with an empty cell", [items],
               {"full_name": "Henrik Solvang-Ames",
                "medications": "Amlodipine 5 mg; Vitamin D3; Cetirizine 10 mg"})


def two_column_sheet() -> Doc:
    left = ["Last Name: Szabo", "Date of Birth: 05/30/1987", "Home Phone: (971) 555-0158",
            "Street: 402 Cedar Hollow Rd", "City/State/ZIP: Salem, OR 97301"]
    right = ["First Name: Aurelia", "Sex: F", "Work Phone: (971) 555-0199",
             "Employer: Willamette Freight Co.", "Employer Phone: (971) 555-0100"]
    items: list[Item] = [(50, 50, "PATIENT DEMOGRAPHICS", 12)]
    for x, col in ((50, left), (320, right)):
        items += [(x, 80 + 16 * i, row) for i, row in enumerate(col)]
    items += lines("Insurance: Cascade Shield    Member ID: CSX4471920    Group: 8812", y=170)
    return Doc("two_column_sheet", "two-column demographic sheet read across", [items],
               {"full_name": "Aurelia Szabo", "dob": "1987-05-30", "phone": "(971) 555-0158",
                "address": "402 Cedar Hollow Rd, Salem, OR 97301",
                "insurance_member_id": "CSX4471920"})


def dates_together() -> Doc:
    text = ("RADIOLOGY REPORT - NORTHFIELD IMAGING\n"
            "Patient: Brannagh Quill\n"
            "Date of Service: 01/14/2025    Report Date: 01/16/2025    DOB: 09/30/1971\n"
            "Exam: MRI lumbar spine without contrast\n"
            "Comparison: 07/02/2022\n"
            "Impression: mild degenerative disc disease at L4-L5.\n")
    return Doc("dates_together", "dates of service, report and birth together", [lines(text)],
               {"full_name": "Brannagh Quill", "dob": "1971-09-30"})


def numbers_together() -> Doc:
    text = ("EXPLANATION OF BENEFITS\n"
            "Patient: Ruairi Tennant\n"
            "Account #: 88120034    Claim #: CLM2025-00917    Policy #: PLX-55102\n"
            "Member ID: WQT88120455    Group #: 40021    Provider NPI: 1093388210\n"
            "Service Date: 02/11/2025    Billed: $412.00    Plan paid: $301.50\n")
    return Doc("numbers_together", "account / claim / policy / member numbers together",
               [lines(text)], {"full_name": "Ruairi Tennant",
                               "insurance_member_id": "WQT88120455"})


def contacts_blocks() -> Doc:
    text = ("PATIENT INFORMATION\n"
            "Name: Saoirse Delacroix-Wu\n"
            "Date of Birth: 10/04/1995\n"
            "Address: 19 Thistle Court, Portland, ME 04101\n"
            "Cell Phone: (207) 555-0163\n"
            "EMERGENCY CONTACT\n"
            "Name: Bertrand Wu    Relationship: Spouse\n"
            "Phone: (207) 555-0164\n"
            "GUARANTOR\n"
            "Name: Henrietta Delacroix\n"
            "Address: 7 Lighthouse Road, Cape Elizabeth, ME 04107\n"
            "Phone: (207) 555-0169\n")
    return Doc("contacts_blocks", "emergency contact and guarantor blocks", [lines(text)],
               {"full_name": "Saoirse Delacroix-Wu", "dob": "1995-10-04",
                "address": "19 Thistle Court, Portland, ME 04101", "phone": "(207) 555-0163"})


def contacts_first() -> Doc:
    text = ("REGISTRATION SUMMARY\n"
            "Emergency Contact: Imre Kovacs (brother)    Phone: (312) 555-0137\n"
            "Guarantor: Katalin Kovacs    Phone: (312) 555-0138\n"
            "Guarantor Address: 55 Wabash Terrace, Evanston, IL 60201\n"
            "Patient Name: Zsofia Kovacs\n"
            "DOB: 03/21/2004\n")
    return Doc("contacts_first", "other parties' phones before the patient's lines",
               [lines(text)], {"full_name": "Zsofia Kovacs", "dob": "2004-03-21"})


def lab_last_first() -> Doc:
    items: list[Item] = [(50, 50, "MERIDIAN PATHOLOGY GROUP", 12),
                         (50, 64, "1200 Granite Blvd, Reno, NV 89502   Phone (775) 555-0120")]
    items += [(50, 96, "PATIENT NAME"), (250, 96, "DATE OF BIRTH"), (420, 96, "PATIENT PHONE"),
              (50, 110, "OKONKWO-PRATT, DELPHINE R."), (250, 110, "07/07/1962"),
              (420, 110, "(775) 555-0184"),
              (50, 136, "REFERRING PHYSICIAN"), (250, 136, "COLLECTED"), (420, 136, "RECEIVED"),
              (50, 150, "HARLAN VOSS, MD"), (250, 150, "05/19/2025"), (420, 150, "05/20/2025")]
    return Doc("lab_last_first", "labels over values, LAST, FIRST M. name", [items],
               {"full_name": "OKONKWO-PRATT, DELPHINE R.", "dob": "1962-07-07",
                "phone": "(775) 555-0184"})


def pharmacy_profile() -> Doc:
    text = ("SILVERBROOK PHARMACY\n"
            "401 Main Street, Fairhaven, MA 02719   (508) 555-0105\n"
            "PATIENT MEDICATION PROFILE\n"
            "Patient: Cornelius Abernathy-Vale\n"
            "Birth Date: 1949-04-28\n"
            "Allergies: Penicillin, Iodine contrast\n"
            "Rx 1: Warfarin 5 mg - take as directed\n"
            "Rx 2: Digoxin 0.125 mg - once daily\n"
            "Prescriber: Dr. Yusuf Brennan  (508) 555-0188\n")
    return Doc("pharmacy_profile", "pharmacy letterhead then the patient's profile",
               [lines(text)], {"full_name": "Cornelius Abernathy-Vale", "dob": "1949-04-28",
                               "allergies": "Penicillin; Iodine contrast"})


def referral_blocks() -> Doc:
    items: list[Item] = [(50, 50, "REFERRAL REQUEST", 12)]
    left = ["REFERRING PROVIDER", "Dr. Maelle Fontaine", "Brightwater Clinic",
            "3 Pier Road, Galveston, TX 77550", "Phone: (409) 555-0111", "Fax: (409) 555-0112"]
    right = ["PATIENT", "Name: Teodor Lazarescu", "DOB: 01/25/1980",
             "Phone: (409) 555-0176", "Insurance ID: GLF-2209-7781"]
    for x, col in ((50, left), (320, right)):
        items += [(x, 80 + 14 * i, row) for i, row in enumerate(col)]
    items += lines("Reason for referral: persistent knee pain after a fall on 02/02/2025.",
                   y=190)
    return Doc("referral_blocks", "referring provider and patient blocks side by side", [items],
               {"full_name": "Teodor Lazarescu", "dob": "1980-01-25", "phone": "(409) 555-0176",
                "insurance_member_id": "GLF-2209-7781"})


def blank_instructions() -> Doc:
    text = ("CEDAR RIDGE FAMILY DENTAL\n"
            "81 Orchard Lane, Fairview, TN 37062  |  Call us at (615) 555-0150\n"
            "NEW PATIENT FORM - please print clearly in blue or black ink\n"
            "Name (Last, First, MI): ______________________________\n"
            "Date of Birth (MM/DD/YYYY): ____/____/________\n"
            "Phone: (____) ____-______\n"
            "Address: ____________________________________________\n"
            "List all medications you take, including vitamins and herbal supplements:\n"
            "_____________________________________________________\n"
            "Are you allergic to any of the following?  [ ] Penicillin  [ ] Latex  [ ] Codeine\n"
            "Example: e.g. Jane Sample, 01/02/1980\n")
    return Doc("blank_instructions", "blank: instructions, option list, example, org contact",
               [lines(text)])


def blank_example_row() -> Doc:
    items: list[Item] = [(50, 50, "EMERGENCY CONTACTS", 12),
                         (50, 70, "Fill in one contact per row. See the sample row."),
                         (50, 96, "Name"), (230, 96, "Date of Birth"), (350, 96, "Phone"),
                         (50, 112, "e.g. Jane Sample"), (230, 112, "01/02/1980"),
                         (350, 112, "(555) 555-1234"),
                         (50, 128, "__________________"), (230, 128, "__________"),
                         (350, 128, "______________"),
                         (50, 160, "Questions? Contact Brookfield Health at (865) 555-0133.")]
    return Doc("blank_example_row", "blank: a sample filled-in row", [items])


def blank_insurer_fax() -> Doc:
    text = ("PINECREST HEALTH PLAN - PRIOR AUTHORIZATION REQUEST\n"
            "Fax completed form to 1-888-555-0147. Phone 1-888-555-0146, Mon-Fri 8am-6pm.\n"
            "Pinecrest Health Plan, 600 Summit Drive, Boise, ID 83702\n"
            "MEMBER INFORMATION\n"
            "Member Name:\n"
            "Member ID Number:\n"
            "Date of Birth:\n"
            "What is the name of the medication being requested?\n"
            "Has the member tried and failed a formulary alternative?  Yes / No\n"
            "Prescriber Phone: (     )\n")
    return Doc("blank_insurer_fax", "blank: insurer's own contacts and questions",
               [lines(text)])


FILLED = (lab_side_by_side, discharge_prose, claim_bundle, letter_letterhead,
          medication_table, medication_rows_unaligned, two_column_sheet, dates_together,
          numbers_together, contacts_blocks, contacts_first, lab_last_first, pharmacy_profile,
          referral_blocks)
BLANK = (blank_instructions, blank_example_row, blank_insurer_fax)


# A second set, written after the fixes above were made on the first: the same families in
# other placements (blocks merged into one text line, labels shared by every party).


def merged_party_rows() -> Doc:
    """Three blocks side by side whose rows the text layer merges into one line each."""
    gap = " " * 8
    rows = [gap.join(["PATIENT" + " " * 26, "PHYSICIAN" + " " * 24, "LABORATORY"]),
            gap.join(["Name: Wilhelmina Tarkington", "Name: Arvid Sandoval, MD",
                      "Name: Copperline Labs"]),
            gap.join(["DOB: 03/15/1956" + " " * 12, "NPI: 1457720019" + " " * 9,
                      "CLIA: 05D2210934"]),
            gap.join(["Phone: (916) 555-0124", "Phone: (916) 555-0181",
                      "Phone: (916) 555-0109"]),
            "Addr: 61 Poppy Ln, Davis, CA 95616  Addr: 4 Elm Sq, Davis, CA 95618  "
            "Addr: 900 Lab Way, Sacramento, CA 95814"]
    items: list[Item] = [(30, 50, "LABORATORY REQUISITION", 12)]
    items += [(30, 80 + 14 * i, row, 7.5) for i, row in enumerate(rows)]
    return Doc("merged_party_rows", "patient / physician / lab rows merged into one line",
               [items], {"full_name": "Wilhelmina Tarkington", "dob": "1956-03-15",
                         "phone": "(916) 555-0124", "address": "61 Poppy Ln, Davis, CA 95616"})


def note_without_dob() -> Doc:
    text = ("OUTPATIENT CLINIC NOTE\n"
            "Name: Desmond Achebe-Ross    Age/Sex: 54/M    Date: 03/04/2025\n"
            "Seen by: Priya Ramaswamy, NP\n"
            "Chief complaint: cough for ten days.\n"
            "Plan: amoxicillin 500 mg three times a day for 7 days. Return if worse.\n")
    return Doc("note_without_dob", "a note with age, visit date and no birth date",
               [lines(text)], {"full_name": "Desmond Achebe-Ross",
                               "medications": "amoxicillin 500 mg"})


def insured_phone_only() -> Doc:
    text = ("HEALTH INSURANCE CLAIM SUMMARY\n"
            "Insured's Name: Marguerite Olufemi\n"
            "Insured's Phone: (404) 555-0152\n"
            "Insured's Address: 8 Magnolia Bend, Decatur, GA 30030\n"
            "Patient's Name: Tobiah Olufemi\n"
            "Patient's Birth Date: 12/12/2015\n"
            "Patient Relationship to Insured: Child\n")
    return Doc("insured_phone_only", "only the insured's phone and address", [lines(text)],
               {"full_name": "Tobiah Olufemi", "dob": "2015-12-12"})


def guarantor_one_line() -> Doc:
    text = ("ACCOUNT FACE SHEET\n"
            "Patient: Ludmila Horvath    DOB: 06/30/1977    Phone: (503) 555-0126\n"
            "Guarantor: Zoltan Horvath    Phone: (503) 555-0127    "
            "Address: 12 Fir Street, Bend, OR 97701\n"
            "Contact Name: Ilona Bartos    Contact Phone: (503) 555-0128\n")
    return Doc("guarantor_one_line", "guarantor and contact on one line each", [lines(text)],
               {"full_name": "Ludmila Horvath", "dob": "1977-06-30", "phone": "(503) 555-0126"})


def appointment_letter() -> Doc:
    items: list[Item] = [(50, 44, "QUAIL RIDGE ORTHOPEDICS", 12),
                         (50, 58, "75 Mesa Drive, Tempe, AZ 85281   (480) 555-0115")]
    items += lines(
        "June 2, 2025\n"
        "Dear Ms. Petronella Vance,\n"
        "This is a reminder of your appointment on 06/20/2025 at 10:30 with Dr. Lionel Craig.\n"
        "Please bring your insurance card and a list of your medications.\n"
        "To reschedule, call us at (480) 555-0115 or (480) 555-0116.\n", y=100)
    return Doc("appointment_letter", "an appointment reminder letter", [items])


def pharmacy_label() -> Doc:
    text = ("LINDENWOOD PHARMACY  #0417   (612) 555-0141\n"
            "Rx# 6620143    Date Filled: 05/01/2025    Qty: 30    Refills: 2\n"
            "Patient: Ansgar Thorvaldsen\n"
            "Prescriber: Dr. Mirela Constantin    DEA: BC4410923\n"
            "Escitalopram 10 mg tablet - take one tablet by mouth daily\n")
    return Doc("pharmacy_label", "a prescription label", [lines(text)],
               {"full_name": "Ansgar Thorvaldsen"})


def dob_other_format() -> Doc:
    text = ("WORKERS INJURY REPORT\n"
            "Employee: Fenella Okoro\n"
            "Date of Injury: 02/03/2025    Date Reported: 02/05/2025\n"
            "Birth date: 7-Mar-1960\n"
            "Employer: Redstone Quarry Co.    Employer Phone: (801) 555-0133\n"
            "Supervisor: Caspian Reyes    Phone: (801) 555-0134\n")
    return Doc("dob_other_format", "injury, report and birth dates in two formats",
               [lines(text)], {"full_name": "Fenella Okoro", "dob": "1960-03-07"})


def spouse_block() -> Doc:
    text = ("PATIENT REGISTRATION\n"
            "Patient Name: Ottilie Brandvold\n"
            "Date of Birth: 09/09/1988\n"
            "SPOUSE INFORMATION\n"
            "Name: Ragnar Brandvold\n"
            "Date of Birth: 01/14/1985\n"
            "Phone: (701) 555-0145\n"
            "Employer: Prairie Grain Co-op\n")
    return Doc("spouse_block", "a spouse's block after the patient's", [lines(text)],
               {"full_name": "Ottilie Brandvold", "dob": "1988-09-09"})


def results_footer() -> Doc:
    items: list[Item] = lines(
        "PATHOLOGY REPORT\n"
        "Patient Name: Cosimo Delgado-Fry        Accession: SP25-00412\n"
        "DOB: 11/19/1973        Collected: 05/05/2025        Received: 05/06/2025\n"
        "Specimen: skin, left forearm, shave biopsy\n"
        "Diagnosis: seborrheic keratosis. No atypia.\n")
    items += [(60, 740, "Electronically signed by Noor Haddad, MD on 05/08/2025", 8),
              (60, 752, "Ashgrove Dermatopathology, 18 Canal St, Lowell, MA 01852, "
                        "Tel (978) 555-0172", 8)]
    return Doc("results_footer", "a pathology report with a lab footer", [items],
               {"full_name": "Cosimo Delgado-Fry", "dob": "1973-11-19"})


def allergy_table() -> Doc:
    items: list[Item] = [(50, 50, "ALLERGY RECORD", 12),
                         (50, 72, "Patient: Bettina Ashdown"), (300, 72, "DOB: 04/04/1966")]
    cols = (50, 200, 330)
    items += [(x, 100, h) for x, h in zip(cols, ("Allergen", "Reaction", "Severity"),
                                            strict=True)]
    rows = [("Sulfonamides", "rash", "moderate"), ("Shellfish", "swelling", "severe")]
    for r, row in enumerate(rows):
        items += [(x, 116 + 14 * r, cell) for x, cell in zip(cols, row, strict=True)]
    return Doc("allergy_table", "an allergy table: allergen, reaction, severity", [items],
               {"full_name": "Bettina Ashdown", "dob": "1966-04-04",
                "allergies": "Sulfonamides; Shellfish"})


SECOND = (merged_party_rows, note_without_dob, insured_phone_only, guarantor_one_line,
          appointment_letter, pharmacy_label, dob_other_format, spouse_block, results_footer,
          allergy_table)


def blank_upper_labels() -> Doc:
    """Upper-case labels each on a line of its own with nothing under them."""
    items: list[Item] = [(50, 44, "SUNDIAL FAMILY HEALTH", 12),
                         (50, 58, "2 Orchard Row, Ames, IA 50010  Phone (515) 555-0190")]
    labels = ["PATIENT NAME", "DATE OF BIRTH", "HOME PHONE", "ADDRESS", "INSURANCE ID",
              "ALLERGIES", "\u2610 Penicillin  \u2610 Latex  \u2610 Sulfa  \u2610 Aspirin",
              "List any medications you are currently taking:", "1. ______________________",
              "2. ______________________", "PHARMACY NAME", "PHARMACY PHONE"]
    items += [(50, 90 + 18 * i, text) for i, text in enumerate(labels)]
    return Doc("blank_upper_labels", "blank: upper-case labels on lines of their own", [items])


def blank_two_offices() -> Doc:
    text = ("WILLOWMERE GASTROENTEROLOGY\n"
            "North Office: 14 Beacon Street, Quincy, MA 02169   (617) 555-0120\n"
            "South Office: 300 Shore Road, Braintree, MA 02184   (617) 555-0121\n"
            "March 3, 2024\n"
            "Dear Patient, please complete every page before your visit.\n"
            "Primary Contact Phone Number:\n"
            "Pharmacy Name / Phone:\n"
            "Referring Physician Phone:\n"
            "Emergency Contact Name and Phone:\n"
            "Policy Holder Date of Birth:\n")
    return Doc("blank_two_offices", "blank: two offices' letterhead, other parties' labels",
               [lines(text)])


def blank_consent() -> Doc:
    text = ("CONSENT FOR TREATMENT\n"
            "I understand that local anesthetics and medications may cause allergic reactions\n"
            "such as swelling, hives or shortness of breath, and I will tell the dentist about\n"
            "any allergies to penicillin, codeine or latex before treatment.\n"
            "Please Print Name: ________________________\n"
            "Patient Signature: ________________________   Date: ____________\n"
            "Brightharbor Dental, 5 Marina Way, Ventura, CA 93001  (805) 555-0135\n"
            "Copyright 2019 Brightharbor Dental. Revised 01/15/2019.\n")
    return Doc("blank_consent", "blank: consent prose naming drugs and allergies",
               [lines(text)])


def blank_fillable() -> Doc:
    """A blank fillable form: printed labels, empty text widgets, instructions."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((50, 44), "PATIENT HISTORY (type into the boxes)", fontsize=12)
    page.insert_text((50, 62), "For example: Name: Jane Sample  DOB: 01/02/1980", fontsize=8)
    for i, label in enumerate(["Name:", "Date of Birth:", "Phone:", "Medications:"]):
        y = 90 + 24 * i
        page.insert_text((50, y + 11), label, fontsize=9)
        widget = pymupdf.Widget()
        widget.field_name = label.strip(":")
        widget.field_type = pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT
        widget.rect = pymupdf.Rect(160, y, 450, y + 15)
        page.add_widget(widget)
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return Doc("blank_fillable", "blank: a fillable form with empty widgets", [], raw=data)


THIRD_BLANK = (blank_upper_labels, blank_two_offices, blank_consent, blank_fillable)


# A third set: lab and pharmacy layouts with two key-value columns merged per line, and a
# registration form with a target-like mix of home, cell and other parties' phones.


def lab_grid() -> Doc:
    text = ("ORCHARDVALE DIAGNOSTIC CENTRE\n"
            "22 Kiln Street, Fresno, CA 93721 | Ph: (559) 555-0160 | orchardvale.example\n"
            "Patient Name : Mrs. Ingrid Castellanos       Sample Collected : 02/05/2025 08:10\n"
            "Age / Gender : 45 Y / F                        Report Date : 02/06/2025\n"
            "Referred By : Dr. Bastien Morel              Patient ID : OD-22310\n"
            "Sample Type : Whole blood                    Phone : (559) 555-0161\n"
            "COMPLETE BLOOD COUNT\n"
            "Hemoglobin   12.9 g/dL   12.0-15.5\n"
            "Checked by: Lina Farouk, Pathologist\n")
    # the grid under the letterhead is the patient's: its "Phone" is the patient's number
    return Doc("lab_grid", "lab header: two key-value columns on each line", [lines(text)],
               {"full_name": "Ingrid Castellanos", "phone": "(559) 555-0161"})


def registration_phones() -> Doc:
    text = ("NEW PATIENT REGISTRATION\n"
            "Patient Name: Matthias Kowalczyk\n"
            "Date of Birth: 10/10/1970\n"
            "Home Phone: (414) 555-0171    Cell Phone: (414) 555-0172\n"
            "Address: 900 Prospect Ave, Apt 3, Milwaukee, WI 53202\n"
            "Primary Care Physician: Dr. Alma Reyes    Telephone: (414) 555-0179\n"
            "Business Name/Address: Lakeview Print Shop, 4 Dock St, Milwaukee, WI 53204\n"
            "Preferred Pharmacy: Eastside Drug    Pharmacy Phone: (414) 555-0178\n"
            "Medications: Allopurinol 100 mg daily; Colchicine 0.6 mg as directed\n"
            "Allergies: Ibuprofen\n")
    return Doc("registration_phones", "registration: home/cell/doctor/pharmacy phones",
               [lines(text)],
               {"full_name": "Matthias Kowalczyk", "dob": "1970-10-10", "phone": "(414) 555-0171",
                "address": "900 Prospect Ave, Apt 3, Milwaukee, WI 53202",
                "medications": "Allopurinol 100 mg; Colchicine 0.6 mg", "allergies": "Ibuprofen"})


def pharmacy_profile_columns() -> Doc:
    text = ("PATIENT PROFILE - BAYSIDE APOTHECARY   Tel (757) 555-0150   Fax (757) 555-0151\n"
            "Name: Lorcan Whitfield        DOB: 1952-08-14        Phone: (757) 555-0153\n"
            "Address: 31 Tidewater Rd, Norfolk, VA 23503\n"
            "Allergies: Morphine (nausea), Adhesive tape\n"
            "Doctor: Hal Pryce, MD        Doctor Phone: (757) 555-0158\n"
            "ACTIVE PRESCRIPTIONS\n"
            "Rx 40221  Tamsulosin 0.4 mg capsule  1 cap at bedtime  Qty 30  Dr. Pryce\n"
            "Rx 40222  Finasteride 5 mg tablet  1 tab daily  Qty 30  Dr. Pryce\n")
    return Doc("pharmacy_profile_columns", "pharmacy profile with rx rows", [lines(text)],
               {"full_name": "Lorcan Whitfield", "dob": "1952-08-14", "phone": "(757) 555-0153",
                "address": "31 Tidewater Rd, Norfolk, VA 23503",
                "allergies": "Morphine; Adhesive tape"})


def discharge_sections() -> Doc:
    text = ("DISCHARGE SUMMARY\n"
            "Patient: Hanne Marie Skovgaard\n"
            "DOB: 22/08/1975    Admission: 14/03/2025    Discharge: 18/03/2025\n"
            "Contact: +44 7700 900123\n"
            "Address: 5 Rowan Close, Bath, BA1 2AB\n"
            "NHS No: 943 476 5919\n"
            "Allergies: nil known\n"
            "Discharge Medications:\n"
            "- Ramipril 2.5 mg once daily\n"
            "- Bisoprolol 1.25 mg once daily\n"
            "GP: Dr. Owain Pritchard, Abbey Surgery, 01225 555 014\n"
            "Next of kin: Lars Skovgaard (husband) 07700 900456\n")
    return Doc("discharge_sections", "a day-first discharge summary with GP and next of kin",
               [lines(text)],
               {"full_name": "Hanne Marie Skovgaard", "dob": "1975-08-22",
                "phone": "+44 7700 900123", "address": "5 Rowan Close, Bath, BA1 2AB",
                "medications": "Ramipril 2.5 mg; Bisoprolol 1.25 mg"})


THIRD = (lab_grid, registration_phones, pharmacy_profile_columns, discharge_sections)


# A fourth set, written after every fix above, to see whether they carry over.


def fax_cover() -> Doc:
    text = ("FAX COVER SHEET\n"
            "To: Dr. Esperanza Villalobos        Fax: (210) 555-0183\n"
            "From: Pecan Grove Clinic            Phone: (210) 555-0180\n"
            "Date: 04/22/2025    Pages: 3\n"
            "Re: Augustin Delacourt    DOB: 12/05/1949\n"
            "Please find attached the patient's latest lab results.\n")
    return Doc("fax_cover", "a fax cover sheet with to / from / re lines", [lines(text)],
               {"full_name": "Augustin Delacourt", "dob": "1949-12-05"})


def insurance_card() -> Doc:
    text = ("SUMMIT RIDGE HEALTH PLAN\n"
            "Member: Yolanda Fairweather\n"
            "ID: SRH902214457    Group: 77105\n"
            "RxBIN 610014   RxPCN SRX   RxGrp SR77\n"
            "PCP: Dr. Amos Kettering   (303) 555-0187\n"
            "Member Services 1-877-555-0144   summitridge.example\n")
    return Doc("insurance_card", "an insurance card's text", [lines(text)],
               {"full_name": "Yolanda Fairweather", "insurance_member_id": "SRH902214457"})


def unlabelled_lab_patient() -> Doc:
    items: list[Item] = [(50, 50, "BRACKENRIDGE CLINICAL LAB", 12),
                         (50, 64, "Accession 25-118830   Printed 05/21/2025 09:14"),
                         (50, 90, "PATIENT"), (300, 90, "PHYSICIAN"),
                         (50, 104, "FAIRCHILD, ROSALIND M"), (300, 104, "EVERETT LANGE, DO"),
                         (50, 118, "DOB 08/19/1984  F"), (300, 118, "Ph (512) 555-0195"),
                         (50, 132, "Ph (512) 555-0194"), (300, 132, "Acct 000418")]
    return Doc("unlabelled_lab_patient", "lab patient and physician blocks without colons",
               [items], {"full_name": "FAIRCHILD, ROSALIND M", "dob": "1984-08-19",
                         "phone": "(512) 555-0194"})


def work_note() -> Doc:
    text = ("WORK STATUS NOTE\n"
            "Employee: Benedikt Sorensen\n"
            "Employer: Tri-County Logistics    Employer Phone: (608) 555-0166\n"
            "Employer Address: 400 Depot Road, Janesville, WI 53545\n"
            "Date of Injury: 03/17/2025\n"
            "May return to full duty on 04/14/2025.\n"
            "Treating Physician: Dr. Oona Whitlock    Phone: (608) 555-0160\n")
    return Doc("work_note", "a work note naming the employer and treating doctor",
               [lines(text)], {"full_name": "Benedikt Sorensen"})


def immunization_record() -> Doc:
    items: list[Item] = [(50, 50, "IMMUNIZATION RECORD", 12),
                         (50, 72, "Name: Priyanka Venkataraman"), (320, 72, "DOB: 02/28/2019"),
                         (50, 86, "Parent/Guardian: Arjun Venkataraman   Phone: (919) 555-0121")]
    cols = (50, 200, 300, 400)
    items += [(x, 112, h) for x, h in zip(cols, ("Vaccine", "Date", "Lot", "Given by"),
                                            strict=True)]
    rows = [("MMR", "03/01/2020", "K2231", "R. Ames, RN"), ("DTaP", "05/02/2020", "D7781",
                                                             "R. Ames, RN")]
    for r, row in enumerate(rows):
        items += [(x, 128 + 14 * r, cell) for x, cell in zip(cols, row, strict=True)]
    return Doc("immunization_record", "an immunization table and a guardian's phone", [items],
               {"full_name": "Priyanka Venkataraman", "dob": "2019-02-28"})


def prescription_blocks() -> Doc:
    gap = " " * 10
    rows = [gap.join(["PRESCRIBER", "PATIENT"]),
            gap.join(["Dr. Lucan Merriweather", "Name: Eudora Pennington"]),
            gap.join(["77 Aspen Pkwy, Provo, UT 84604", "Address: 5 Sego Lane, Orem, UT 84057"]),
            gap.join(["Tel: (801) 555-0148", "DOB: 09/14/1963"]),
            "Rx: Gabapentin 300 mg capsule. Sig: 1 cap three times a day. Disp: 90"]
    items: list[Item] = [(40, 50, "PRESCRIPTION", 12)]
    items += [(40, 80 + 14 * i, row, 8.5) for i, row in enumerate(rows)]
    return Doc("prescription_blocks", "prescriber and patient blocks merged per line", [items],
               {"full_name": "Eudora Pennington", "dob": "1963-09-14",
                "address": "5 Sego Lane, Orem, UT 84057"})


FOURTH = (fax_cover, insurance_card, unlabelled_lab_patient, work_note, immunization_record,
          prescription_blocks)


# A fifth set: more blank forms, written after every fix above (none may give a value).


def _fillable(title: str, rows: list[tuple[str, str]], extra: list[str] = ()) -> bytes:
    """A fillable page: printed labels with text widgets holding the given default text."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((50, 44), title, fontsize=12)
    for i, text in enumerate(extra):
        page.insert_text((50, 60 + 12 * i), text, fontsize=8)
    for i, (label, default) in enumerate(rows):
        y = 110 + 24 * i
        page.insert_text((50, y + 11), label, fontsize=9)
        widget = pymupdf.Widget()
        widget.field_name = label.strip(":")
        widget.field_type = pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT
        widget.rect = pymupdf.Rect(170, y, 450, y + 15)
        widget.field_value = default
        page.add_widget(widget)
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def blank_widget_defaults() -> Doc:
    data = _fillable("PATIENT INFORMATION", [
        ("Patient Name:", "Last, First MI"), ("Date of Birth:", "MM/DD/YYYY"),
        ("Phone:", "(   )    -"), ("Address:", "Street, City, State ZIP"),
        ("Member ID:", "See your card"), ("Medications:", "List all, or write None")])
    return Doc("blank_widget_defaults", "blank: widgets holding placeholder text", [], raw=data)


def blank_sample_block() -> Doc:
    text = ("HOW TO COMPLETE THIS FORM\n"
            "SAMPLE COMPLETED FORM\n"
            "Patient Name: Jane Sample\n"
            "Date of Birth: 01/02/1980\n"
            "Phone: (555) 555-0123\n"
            "Medications: Aspirin 81 mg\n"
            "YOUR INFORMATION\n"
            "Patient Name: ____________________\n"
            "Date of Birth: ____/____/______\n"
            "Phone: (____) ____-______\n")
    return Doc("blank_sample_block", "blank: a sample block under its own heading",
               [lines(text)])


def blank_office_use() -> Doc:
    text = ("TIDEWATER PEDIATRICS - PATIENT HISTORY\n"
            "Child's Name: ______________________  Date of Birth: ___/___/_____\n"
            "Are you currently taking any of the following medications: Coumadin, Plavix,\n"
            "aspirin or insulin?  Yes / No\n"
            "Allergies:  \u2610 None  \u2610 Penicillin  \u2610 Latex  \u2610 Other: ________\n"
            "FOR OFFICE USE ONLY\n"
            "Account #: 44120    Reviewed: 02/02/2024    Initials: ___\n"
            "CONTACT US\n"
            "Tidewater Pediatrics, 12 Harbor Walk, Norfolk, VA 23510\n"
            "Phone: (757) 555-0131\n")
    return Doc("blank_office_use", "blank: drug names in a question, office block, contact us",
               [lines(text)])


def blank_hipaa_release() -> Doc:
    text = ("AUTHORIZATION TO RELEASE HEALTH INFORMATION\n"
            "I, ______________________, authorize Brightharbor Dental, 5 Marina Way, Ventura,\n"
            "CA 93001 to release my records to the person named below.\n"
            "Released to: ______________________  Phone: ______________\n"
            "If you have questions about this form, please call 805-555-0136 ext 4.\n"
            "Insurance Company Phone: ______________\n"
            "Print Name: ______________________  Date: ___/___/_____\n")
    return Doc("blank_hipaa_release", "blank: a release with the practice's own contacts",
               [lines(text)])


FIFTH_BLANK = (blank_widget_defaults, blank_sample_block, blank_office_use,
               blank_hipaa_release)


# A sixth set, untuned: lab and billing papers where most parties are not the patient.


def lab_only_name() -> Doc:
    text = ("SUNRISE PATHLABS\n"
            "Name : Mr. Devendra Kulkarni        Age : 45 Yrs        Sex : M\n"
            "Ref. By : Dr. Meenal Joshi          Lab No : 22318\n"
            "Sample Coll. : 03/02/2025 08:15     Reported : 03/02/2025 17:40\n"
            "Patient ID : SPL-7781\n"
            "LIPID PROFILE\n"
            "Total Cholesterol   212 mg/dL   < 200\n"
            "Dr. Ashok Rao, MD (Pathology)\n"
            "Sunrise Pathlabs, 14 MG Road, Pune 411001. Ph: +91-20-5550-1234\n")
    return Doc("lab_only_name", "lab slip: only the name is the patient's", [lines(text)],
               {"full_name": "Devendra Kulkarni"})


def lab_client_block() -> Doc:
    text = ("CLINICAL CHEMISTRY REPORT\n"
            "Patient: Marisela Quintanar    DOB: 04/14/1981    Sex: F\n"
            "Physician: Tobias Engström, MD    NPI: 1760558812\n"
            "Client: Riverside Urgent Care\n"
            "900 Levee Road, Sacramento, CA 95815\n"
            "Phone: (916) 555-0142    Fax: (916) 555-0143\n"
            "Collected: 06/01/2025    Reported: 06/02/2025\n")
    return Doc("lab_client_block", "lab: a client clinic's block after the patient line",
               [lines(text)], {"full_name": "Marisela Quintanar", "dob": "1981-04-14"})


def hospital_bill() -> Doc:
    text = ("GREENFIELD MULTISPECIALTY HOSPITAL - FINAL BILL\n"
            "Bill To: Trident General Insurance, 55 Fort Street, Mumbai 400001\n"
            "Patient Name: Anjali Deshpande        Bill No: GMH/25/04412\n"
            "Policy No: TGI-HL-2290417             Group: CORP-118\n"
            "Contact No: +91-9820055501\n"
            "Admission: 10/03/2025   Discharge: 14/03/2025\n"
            "Helpline: 1800-555-0199\n")
    return Doc("hospital_bill", "hospital bill: insurer bill-to, policy as the only id",
               [lines(text)],
               {"full_name": "Anjali Deshpande", "phone": "+91-9820055501",
                "insurance_member_id": "TGI-HL-2290417"})


def titled_med_list() -> Doc:
    text = ("Medication List for Percival Oyelowo-Brandt\n"
            "Updated 05/30/2025 by Nurse Kim Aldana\n"
            "1. Apixaban 5 mg twice a day\n"
            "2. Furosemide 40 mg every morning\n"
            "3. Potassium chloride 20 mEq daily\n"
            "Pharmacy: Oakline Drugs  (410) 555-0172\n")
    return Doc("titled_med_list", "a medication list whose title names the patient",
               [lines(text)],
               {"medications": "Apixaban 5 mg; Furosemide 40 mg; Potassium chloride 20 mEq"})


def insurer_letter() -> Doc:
    text = ("LAUREL CREST HEALTH PLAN\n"
            "PO Box 7710, Hartford, CT 06102   Member Services 1-866-555-0110\n"
            "June 3, 2025\n"
            "Member: Rosalind Featherstonehaugh\n"
            "Member ID: LCH-4471-2290\n"
            "Dear Member,\n"
            "We approved the request from Dr. Kenji Aoyama (860) 555-0147 for physical therapy.\n")
    return Doc("insurer_letter", "an insurer's letter to its member", [lines(text)],
               {"full_name": "Rosalind Featherstonehaugh", "insurance_member_id": "LCH-4471-2290"})


SIXTH = (lab_only_name, lab_client_block, hospital_bill, titled_med_list, insurer_letter)


# A seventh set, written last and measured before any change: the transfer check.


def visit_summary_columns() -> Doc:
    text = ("AFTER VISIT SUMMARY\n"
            "Ignatius Pemberton-Hale    DOB: 1/9/1944    MRN: 7730041\n"
            "Visit: 05/14/2025 with Sabine Okonjo, PA-C at Westbrook Primary Care\n"
            "Westbrook Primary Care  |  18 Mill Pond Rd, Westbrook, ME 04092  |  (207) 555-0118\n"
            "Your medications: lisinopril 20 mg daily, metformin 500 mg two times a day\n"
            "Allergies: Sulfa (rash)\n"
            "Next appointment: 08/14/2025\n")
    return Doc("visit_summary_columns", "an after-visit summary with the clinic's strip",
               [lines(text)],
               {"full_name": "Ignatius Pemberton-Hale", "dob": "1944-01-09",
                "allergies": "Sulfa", "medications": "lisinopril 20 mg; metformin 500 mg"})


def consult_note() -> Doc:
    text = ("CARDIOLOGY CONSULTATION\n"
            "Patient: Gwendolyn Ashcombe\n"
            "Date of Birth: 02/29/1952\n"
            "Referring physician: Dr. Elias Varga, 40 Quarry Street, Barre, VT 05641,\n"
            "phone (802) 555-0163\n"
            "Reason: palpitations.\n"
            "Current medications include nadolol 40 mg and dabigatran 150 mg.\n"
            "Allergies: none.\n")
    return Doc("consult_note", "a consult note with the referrer's address in a sentence",
               [lines(text)],
               {"full_name": "Gwendolyn Ashcombe", "dob": "1952-02-29",
                "medications": "nadolol 40 mg; dabigatran 150 mg"})


def dependent_card() -> Doc:
    text = ("ELIGIBILITY VERIFICATION\n"
            "Subscriber: Horatio Blackwood    Subscriber DOB: 03/03/1970\n"
            "Subscriber ID: BWX-551200\n"
            "Dependent: Clementine Blackwood    DOB: 07/21/2012\n"
            "Coverage: Active    Plan: Silver PPO\n"
            "Verified by: front desk on 06/01/2025\n")
    # the verification is the dependent's (the patient); the subscriber's id is her coverage id
    return Doc("dependent_card", "a dependent named beside the subscriber", [lines(text)],
               {"full_name": "Clementine Blackwood", "dob": "2012-07-21",
                "insurance_member_id": "BWX-551200"})


def home_health_order() -> Doc:
    text = ("HOME HEALTH CERTIFICATION AND PLAN OF CARE\n"
            "Patient's Name and Address: Leopold Strathmore, 6 Birch Hollow, Keene, NH 03431\n"
            "Patient's HI Claim No.: 1EG4-TE5-MK73\n"
            "Start of Care Date: 04/01/2025    Certification Period: 04/01/2025 to 05/30/2025\n"
            "Provider's Name, Address and Telephone Number: Monadnock Home Care, 9 Court St,\n"
            "Keene, NH 03431, (603) 555-0129\n"
            "Date of Birth: 11/11/1936    Sex: M\n"
            "Medications: Donepezil 10 mg at bedtime; Sertraline 50 mg daily\n")
    return Doc("home_health_order", "a plan of care with combined name-and-address labels",
               [lines(text)],
               {"full_name": "Leopold Strathmore", "dob": "1936-11-11",
                "address": "6 Birch Hollow, Keene, NH 03431",
                "medications": "Donepezil 10 mg; Sertraline 50 mg"})


def blank_intake_two_columns() -> Doc:
    gap = " " * 10
    rows = [gap.join(["Patient Name: ____________________", "Today's Date: ___/___/____"]),
            gap.join(["Date of Birth: ___/___/____", "Preferred Phone: (___) ___-____"]),
            gap.join(["Emergency Contact: _____________", "Relationship: __________"]),
            gap.join(["Pharmacy: ______________________", "Pharmacy Phone: (___) ___-____"]),
            "Do you take blood thinners (e.g. apixaban 2.5 mg)?  Yes   No",
            "Office: 310 Mill Street, Keene, NH 03431  Phone (603) 555-0100  Fax (603) 555-0101"]
    items: list[Item] = [(40, 50, "PATIENT INTAKE", 12)]
    items += [(40, 80 + 16 * i, row, 8.5) for i, row in enumerate(rows)]
    return Doc("blank_intake_two_columns", "blank: two columns of fill-in lines", [items])


SEVENTH = (visit_summary_columns, consult_note, dependent_card, home_health_order,
           blank_intake_two_columns)


# An eighth set, in layouts the others lack, measured before any change for it.


def rx_receipt() -> Doc:
    text = ("BRAMBLE ROW PHARMACY  Tel (503) 555-0140\n"
            "Rx# 4471902   Filled: 05/20/2025\n"
            "PATIENT: QUILLFEATHER, ODALYS M\n"
            "DOB: 08/02/1990\n"
            "Prescriber: Dr. Tobiah Renwick  Ph: (503) 555-0177\n"
            "Drug: Escitalopram 10 mg tablet, take one daily\n"
            "Qty: 30   Refills: 2\n")
    return Doc("rx_receipt", "a pharmacy receipt with the prescriber's phone", [lines(text)],
               {"full_name": "QUILLFEATHER, ODALYS M", "dob": "1990-08-02",
                "medications": "Escitalopram 10 mg"})


def eob_dependent() -> Doc:
    text = ("EXPLANATION OF BENEFITS\n"
            "This is not a bill.\n"
            "Subscriber: Marguerite Okonkwo-Baines     Member ID: ZRL-330-4417\n"
            "Patient: Thaddeus Okonkwo-Baines           Relationship: Son\n"
            "Provider: Cedar Fork Pediatrics, 71 Alder Street, Ames, IA 50010\n"
            "Date of service: 04/11/2025     Claim number: 2025041177310\n"
            "Amount billed: $180.00     Plan paid: $144.00\n")
    return Doc("eob_dependent", "an EOB naming a dependent patient beside the subscriber",
               [lines(text)],
               {"full_name": "Thaddeus Okonkwo-Baines", "insurance_member_id": "ZRL-330-4417"})


def vaccine_certificate() -> Doc:
    text = ("CERTIFICATE OF IMMUNIZATION\n"
            "Child's Name: Wilhelmina Ashgrove\n"
            "Date of Birth: 09/14/2019\n"
            "Parent/Guardian: Corwin Ashgrove   Phone: (319) 555-0188\n"
            "Vaccine          Date given       Given by\n"
            "DTaP             11/14/2019       R. Lindqvist, RN\n"
            "MMR              09/20/2020       R. Lindqvist, RN\n")
    return Doc("vaccine_certificate", "a vaccine certificate with a guardian's phone",
               [lines(text)],
               {"full_name": "Wilhelmina Ashgrove", "dob": "2019-09-14"})


def fax_cover_referral() -> Doc:
    text = ("FAX COVER SHEET\n"
            "To: Dr. Ansel Marchbanks      Fax: (615) 555-0191\n"
            "From: Harrow Lane Clinic      Phone: (615) 555-0102\n"
            "RE: Imogen Tresilian, DOB 12/03/1958\n"
            "Pages: 3 including cover\n"
            "Please see the attached referral for a cardiology consult.\n")
    return Doc("fax_cover_referral", "a fax cover sheet naming the patient in its RE line",
               [lines(text)],
               {"full_name": "Imogen Tresilian", "dob": "1958-12-03"})


def face_sheet_labels_above() -> Doc:
    left = [(40, 60, "PATIENT", 10), (40, 80, "NAME", 6), (40, 90, "Fenwick, Rosalind J."),
            (40, 110, "BIRTH DATE", 6), (40, 120, "03/30/1977"),
            (40, 140, "HOME PHONE", 6), (40, 150, "(402) 555-0124"),
            (40, 170, "ADDRESS", 6), (40, 180, "915 Sumac Drive, Lincoln, NE 68502")]
    right = [(320, 60, "GUARANTOR", 10), (320, 80, "NAME", 6), (320, 90, "Fenwick, Barnaby"),
             (320, 110, "BIRTH DATE", 6), (320, 120, "06/12/1975"),
             (320, 140, "HOME PHONE", 6), (320, 150, "(402) 555-0170")]
    items: list[Item] = [(40, 40, "HOSPITAL FACE SHEET", 12)] + left + right
    return Doc("face_sheet_labels_above", "a face sheet: small labels over values, two blocks",
               [items],
               {"full_name": "Fenwick, Rosalind J.", "dob": "1977-03-30",
                "phone": "(402) 555-0124", "address": "915 Sumac Drive, Lincoln, NE 68502"})


def responsible_party_first() -> Doc:
    text = ("DENTAL ACCOUNT SUMMARY\n"
            "Responsible party: Lucinda Farrowby   Phone: (208) 555-0135\n"
            "Address: 22 Kestrel Court, Nampa, ID 83651\n"
            "Patient: Caspar Farrowby   Birth date: 10/05/2011\n"
            "Next cleaning: 11/05/2025\n")
    return Doc("responsible_party_first", "the responsible party's block before the patient",
               [lines(text)],
               {"full_name": "Caspar Farrowby", "dob": "2011-10-05"})


def discharge_med_changes() -> Doc:
    text = ("DISCHARGE INSTRUCTIONS\n"
            "Patient: Barnabas Quenby    DOB: 07/07/1949\n"
            "Allergies: No Known Allergies\n"
            "STOP taking: Naproxen 500 mg\n"
            "CONTINUE taking: Amlodipine 5 mg daily\n"
            "START taking: Clopidogrel 75 mg daily\n"
            "Follow up with Dr. Ilse Montgomery in 2 weeks, (617) 555-0150.\n")
    return Doc("discharge_med_changes", "discharge instructions with stop / start / continue",
               [lines(text)],
               {"full_name": "Barnabas Quenby", "dob": "1949-07-07",
                "medications": "Amlodipine 5 mg; Clopidogrel 75 mg"})


def portal_message() -> Doc:
    text = ("Message from your care team\n"
            "To: Perpetua Lindgren-Sato\n"
            "Sent: 05/02/2025 9:14 AM\n"
            "Hi Perpetua, your potassium was normal. Keep taking losartan 25 mg.\n"
            "If you have questions, call us at (541) 555-0115.\n"
            "Nurse Ardith Cole, Juniper Ridge Family Medicine\n")
    return Doc("portal_message", "a patient-portal message with the clinic's call-back number",
               [lines(text)],
               {"full_name": "Perpetua Lindgren-Sato", "medications": "losartan 25 mg"})


EIGHTH = (rx_receipt, eob_dependent, vaccine_certificate, fax_cover_referral,
          face_sheet_labels_above, responsible_party_first, discharge_med_changes,
          portal_message)


def all_docs() -> list[Doc]:
    """Every stand-in, filled first."""
    sets = FILLED + BLANK + SECOND + THIRD_BLANK + THIRD + FOURTH + FIFTH_BLANK + SIXTH \
        + SEVENTH + EIGHTH
    return [make() for make in sets]


def write_cases(root: Path, docs: list[Doc]) -> Path:
    """Write each document as an eval case bundle under ``root``."""
    for doc in docs:
        folder = root / doc.name
        (folder / "input_docs").mkdir(parents=True)
        (folder / "input_docs" / f"{doc.name}.pdf").write_bytes(doc.pdf())
        (folder / "expected.json").write_text(json.dumps({"fields": doc.expected()}))
    return root


def main(argv: list[str] | None = None) -> int:
    """Print the eval table of every stand-in (``--case TEXT`` keeps matching ones)."""
    from repro_assets.forms.evaluation import evaluate, format_table

    args = argv if argv is not None else sys.argv[1:]
    only = args[args.index("--case") + 1] if "--case" in args else None
    with tempfile.TemporaryDirectory() as tmp:
        root = write_cases(Path(tmp), all_docs())
        scores = evaluate(root, only=only, today=date(2025, 6, 1))
    print(format_table(scores, verbose=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
