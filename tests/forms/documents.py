"""Documents the forms tests generate themselves (reportlab / PyMuPDF), shaped like real ones.

* :func:`intake_form` - a three-page patient intake form, blank or filled: letterhead with the
  clinic's phone, instructions, section headings, checkbox option lists (``[ ]`` text and boxes
  drawn as vector squares), fill-in lines, and the other parties every real form names
  (emergency contact, insurance policyholder, employer, primary care physician).
* :func:`injury_report` - a filled work-injury report naming the injured employee, the
  employer and the treating doctor, each with a name, phone and address.
* :func:`fillable_form` - a fillable target form with real-form field shapes: long numbered
  names, several parties, dates split into month/day/year, hierarchical (dotted) names,
  checkboxes and signature fields.

All names, numbers and places are invented.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pymupdf
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

BLANK_NAME = "_" * 30
BLANK_PHONE = "(_____) _____-________"
BLANK_DATE = "____/____/________"

#: The patient's values of the filled intake form.
PATIENT = {
    "name": "Gonzalez, Maria L", "dob": "04/12/1978", "address": "1822 Oak Street, Apt 4B",
    "city": "Springfield", "state": "IL", "zip": "62704", "home_phone": "(217) 555-0143",
    "member_id": "XGH482913027",
}
#: The other parties' values on the same filled form (none of them is the patient's).
OTHERS = {
    "contact": "Luis Gonzalez", "contact_phone": "(217) 555-0177",
    "insurer": "Blue Valley Health", "insurer_phone": "(800) 555-0123",
    "policyholder": "Carlos Gonzalez", "policyholder_dob": "02/03/1970",
    "employer": "Acme Tool Works", "employer_phone": "(217) 555-0155",
    "employer_address": "77 Mill Road, Springfield, IL 62702",
    "physician": "Dr. Helen Park", "office_phone": "(217) 555-0199",
}


def _v(filled: bool, value: str, blank: str) -> str:
    return value if filled else blank


def intake_form(filled: bool) -> bytes:
    """The intake form, blank (no patient data at all) or filled by the patient."""
    buf = io.BytesIO()
    pdf = canvas.Canvas(buf, pagesize=letter, invariant=1)
    pdf.setTitle("New patient registration")
    width, _ = letter

    def page(lines: list[tuple[str, str | None]], boxes: list[tuple[float, float]] = ()) -> None:
        y = 740.0
        for style, text in lines:
            if text is None:
                y -= 8
                continue
            font, size = {"title": ("Helvetica-Bold", 14), "head": ("Helvetica-Bold", 11),
                          "small": ("Helvetica", 8.5)}.get(style, ("Helvetica", 9.5))
            pdf.setFont(font, size)
            if style == "title":
                pdf.drawCentredString(width / 2, y, text)
            else:
                pdf.drawString(54, y, text)
            y -= size + 7
        for x, yy in boxes:  # checkboxes drawn as squares: no glyph in the text layer
            pdf.rect(x, yy, 8, 8)
        pdf.showPage()

    f = filled
    page([
        ("title", "RIVERSIDE FAMILY MEDICINE"),
        ("small", "410 Harbor Road, Springfield, IL 62701"),
        ("small", "Phone: (217) 555-0100     Fax: (217) 555-0101     www.riverside-fm.example"),
        ("", None),
        ("title", "NEW PATIENT REGISTRATION FORM"),
        ("small", "Please complete every section and print clearly. Bring your insurance card "
                  "and a photo ID to your first visit."),
        ("head", "PATIENT INFORMATION"),
        ("", f"Patient Name (Last, First, MI): {_v(f, PATIENT['name'], BLANK_NAME)}"),
        ("", f"Date of Birth (MM/DD/YYYY): {_v(f, PATIENT['dob'], BLANK_DATE)}     "
             f"Sex:  [{'X' if f else ' '}] Female   [ ] Male"),
        ("", f"Home Address: {_v(f, PATIENT['address'], '_' * 44)}"),
        ("", f"City: {_v(f, PATIENT['city'], '_' * 20)}   State: {_v(f, PATIENT['state'], '____')}"
             f"   ZIP: {_v(f, PATIENT['zip'], '_' * 10)}"),
        ("", f"Home Phone: {_v(f, PATIENT['home_phone'], BLANK_PHONE)}     "
             f"Cell Phone: {BLANK_PHONE}"),
        ("", f"E-mail Address: {_v(f, 'maria.g@mail.example', '_' * 30)}"),
        ("head", "EMERGENCY CONTACT"),
        ("", f"Name: {_v(f, OTHERS['contact'], BLANK_NAME)}   Relationship to Patient: "
             f"{_v(f, 'Brother', '_' * 14)}"),
        ("", f"Phone: {_v(f, OTHERS['contact_phone'], BLANK_PHONE)}"),
        ("head", "INSURANCE INFORMATION"),
        ("", f"Insurance Company: {_v(f, OTHERS['insurer'], '_' * 24)}   Customer Service "
             f"Phone: {_v(f, OTHERS['insurer_phone'], BLANK_PHONE)}"),
        ("", f"Policyholder Name: {_v(f, OTHERS['policyholder'], '_' * 24)}   Policyholder "
             f"Date of Birth: {_v(f, OTHERS['policyholder_dob'], BLANK_DATE)}"),
        ("", f"Member ID: {_v(f, PATIENT['member_id'], '_' * 20)}   Group Number: "
             f"{_v(f, '40021', '_' * 12)}"),
        ("head", "EMPLOYER"),
        ("", f"Employer Name: {_v(f, OTHERS['employer'], '_' * 24)}   Employer Phone: "
             f"{_v(f, OTHERS['employer_phone'], BLANK_PHONE)}"),
        ("", f"Employer Address: {_v(f, OTHERS['employer_address'], '_' * 44)}"),
        ("head", "PRIMARY CARE PHYSICIAN"),
        ("", f"Physician Name: {_v(f, OTHERS['physician'], '_' * 24)}   Office Phone: "
             f"{_v(f, OTHERS['office_phone'], BLANK_PHONE)}"),
    ])
    page([
        ("head", "MEDICATIONS"),
        ("small", "Please list ALL current medications, vitamins, and supplements, including "
                  "the dose and how often you take them."),
        ("", "Medication Name          Dose          How Often"),
        ("", f"1. {_v(f, 'Lisinopril 10 mg once daily', '_' * 50)}"),
        ("", f"2. {_v(f, 'Metformin 500 mg twice daily', '_' * 50)}"),
        ("", f"3. {'_' * 50}"),
        ("head", "ALLERGIES"),
        ("", f"Do you have any allergies to medications, foods or latex?   "
             f"[{'X' if f else ' '}] Yes   [ ] No"),
        ("small", "If yes, list each allergy and the reaction you had:"),
        ("", _v(f, "Penicillin - hives", "_" * 56)),
        ("", "Allergies (check all that apply):      Penicillin      Sulfa drugs      Latex"
             "      Aspirin"),
        ("head", "MEDICAL HISTORY"),
        ("", "Have you ever had:  [ ] Diabetes   [ ] High blood pressure   [ ] Asthma"),
    ], boxes=[(214, 563), (290, 563), (370, 563), (418, 563)])
    page([
        ("head", "CONSENT AND SIGNATURE"),
        ("small", "I authorize Riverside Family Medicine to release the information needed to "
                  "process my insurance claims."),
        ("small", "Questions? Call our office at (217) 555-0100."),
        ("", f"Patient Signature: {'_' * 30}     Date: {'_' * 12}"),
    ])
    pdf.save()
    return buf.getvalue()


#: The injured employee of :func:`injury_report`, and how the target form should show them.
EMPLOYEE = {"name": "Jordan A. Rivera", "phone": "+1 (512) 555-0147",
            "address": "4410 Elm Street, Austin, TX 78745"}


def injury_report() -> bytes:
    """A filled work-injury report: the employee, the employer and the treating doctor."""
    text = "\n".join([
        "WORK INJURY MEDICAL REPORT",
        "Bluebonnet Occupational Health Clinic",
        "1200 Congress Avenue, Austin, TX 78701",
        "Phone: (512) 555-0100     Fax: (512) 555-0101",
        "INJURED EMPLOYEE",
        f"Name: {EMPLOYEE['name']}",
        f"Phone: {EMPLOYEE['phone']}",
        f"Address: {EMPLOYEE['address']}",
        "Date of injury: 03/02/2025",
        "EMPLOYER",
        "Name: Lone Star Roofing LLC",
        "Address: 900 Industrial Blvd, Round Rock, TX 78664",
        "Phone: +1 (512) 555-0190",
        "TREATING DOCTOR",
        "Name: Dr. Priya Natarajan",
        "Phone: +1 (512) 555-0166",
        "Address: 1200 Congress Avenue, Austin, TX 78701",
        "ASSESSMENT",
        "Lumbar strain after a fall from a ladder at work. Light duty for two weeks.",
    ])
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 72.0
    for line in text.splitlines():
        page.insert_text((72, y), line, fontsize=10.5, fontname="helv")
        y += 15
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


@dataclass(frozen=True)
class FieldShape:
    """One widget of a generated fillable form."""

    name: str
    kind: str = "text"  # text | checkbox | signature
    page: int = 1
    label: str | None = None
    maxlen: int = 0


_KIND = {"text": pymupdf.PDF_WIDGET_TYPE_TEXT, "checkbox": pymupdf.PDF_WIDGET_TYPE_CHECKBOX,
         "signature": pymupdf.PDF_WIDGET_TYPE_SIGNATURE}


def fillable_form(fields: list[FieldShape], title: str = "Report of medical evaluation"
                  ) -> bytes:
    """A fillable PDF with one widget per field, printed label beside it, over their pages."""
    doc = pymupdf.open()
    pages = max(f.page for f in fields)
    ys = {}
    for number in range(1, pages + 1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((54, 50), f"{title} - page {number}", fontsize=12, fontname="helv")
        ys[number] = 80.0
    for field in fields:
        page = doc[field.page - 1]
        y = ys[field.page]
        page.insert_text((54, y + 13), (field.label or field.name)[:60], fontsize=7.5,
                         fontname="helv")
        widget = pymupdf.Widget()
        widget.field_name = field.name
        widget.field_label = field.label or field.name
        widget.field_type = _KIND[field.kind]
        width = 14 if field.kind == "checkbox" else 250
        widget.rect = pymupdf.Rect(320, y, 320 + width, y + 16)
        if field.maxlen:
            widget.text_maxlen = field.maxlen
        page.add_widget(widget)
        ys[field.page] = y + 22
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


#: A report-of-evaluation shape: employee, employer and two doctors, checkboxes, signatures,
#: a month/day/year exam date (not the employee's birth date) and a hierarchical name.
EVALUATION_FORM = [
    FieldShape("DWC Claim"),
    FieldShape("1 Workers Compensation Insurance Carrier"),
    FieldShape("2 Employers Name"),
    FieldShape("3 Employers Address  Street or PO Box City State Zip"),
    FieldShape("4 Injured Employees Name First Middle Last",
               label="4. Injured employee's name (first, middle, last)"),
    FieldShape("5 Date of Injury"),
    FieldShape("7 Employees Phone Number"),
    FieldShape("8 Employees Address  Street or PO Box City State Zip"),
    FieldShape("9 Certifying Doctors Name and License Type"),
    FieldShape("11 Doctors Phone"),
    FieldShape("11 Doctors Fax"),
    FieldShape("12 Certifying Doctors Address Street or PO Box City State Zip"),
    FieldShape("13. Treating Doctor", kind="checkbox"),
    FieldShape("14. Month - Date of Exam", maxlen=2),
    FieldShape("14. Day - Date of Exam", maxlen=2),
    FieldShape("14. Year - Date of Exam", maxlen=4),
    FieldShape("18. Signature of Certifying Doctor", kind="signature"),
    FieldShape("19 Treating Doctors Name and License Type", page=2),
    FieldShape("21 Treating Doctors Phone", page=2),
    FieldShape("Signature of Treating Doctor", kind="signature", page=2),
    FieldShape("Employee Phone Home Phone.0.0", page=2),
]

#: An examination-data shape: the employee's name asked last-first-middle, the doctor's
#: contact data, the exam location, yes/no checkboxes.
EXAM_DATA_FORM = [
    FieldShape("DWC claim number"),
    FieldShape("1 Employee name last first middle",
               label="1. Employee name (last, first, middle)"),
    FieldShape("3 Insurance carrier name"),
    FieldShape("4 Date of injury mmddyyyy", label="4. Date of injury (mm/dd/yyyy)"),
    FieldShape("5 Designated doctor name"),
    FieldShape("6 Designated doctor mailing address street or PO box city state ZIP code"),
    FieldShape("10 Designated doctor phone number"),
    FieldShape("11 Exam location street city state ZIP code"),
    FieldShape("13. Yes - Does the claim have medical benefits through a network?",
               kind="checkbox"),
    FieldShape("13. If yes, provide the name of the network"),
    FieldShape("Referral health care provider name, Row1", page=2),
    FieldShape("18. Date of signature (mm/dd/yyyy)", page=2),
]

#: An intake-style target with the subject's date of birth split into month/day/year, the name
#: split into first/last, home and cell phones, and the policyholder's and emergency contact's
#: widgets beside the patient's.
INTAKE_TARGET = [
    FieldShape("Patient First Name"),
    FieldShape("Patient Last Name"),
    FieldShape("Patient DOB Month", maxlen=2),
    FieldShape("Patient DOB Day", maxlen=2),
    FieldShape("Patient DOB Year", maxlen=4),
    FieldShape("Home Phone"),
    FieldShape("Cell Phone"),
    FieldShape("Patient Street Address"),
    FieldShape("Patient City"),
    FieldShape("Patient ZIP"),
    FieldShape("Member ID"),
    FieldShape("Policyholder Name"),
    FieldShape("Policyholder Date of Birth"),
    FieldShape("Emergency Contact Phone"),
    FieldShape("Patient_Name_DOB"),
    FieldShape("Allergies", page=2),
    FieldShape("Current Medications", page=2),
    FieldShape("Patient Signature", kind="signature", page=2),
]
