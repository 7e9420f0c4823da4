"""Layout and phrasing families of real documents, reproduced with documents the tests make.

Each test builds a small PDF shaped like one family (lab report headers with labels and
values on separate lines, names printed "LAST, FIRST M.", allergies and medications only in
sentences or bullet lists, "+91" numbers, day-first dates, values living in the AcroForm
fields of a filled input form, insurers' toll-free lines, blank-form questions) and checks
the values, the statuses and the rejection reasons. All names and numbers are invented.
"""

from __future__ import annotations

import pymupdf
import pytest

from repro_assets.forms.heuristics import scan_field
from repro_assets.forms.models import LayoutDoc, LayoutPageText
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes

from .conftest import RunHelper


def doc(text: str) -> LayoutDoc:
    return LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])


def hits(field: str, text: str, rejected: bool = False) -> list[tuple[str, tuple[str, ...]]]:
    found = scan_field(field, [doc(text)], include_rejected=rejected)
    return [(h.raw_value, h.rejected) for h in found]


def final_of(run_bundle: RunHelper, *texts: str) -> dict[str, tuple[str, str | None]]:
    folder = run_bundle(docs=[UploadedFile(f"d{n}.pdf", text_pdf_bytes(t))
                              for n, t in enumerate(texts)])
    return {k: (v.status, v.normalized_value)
            for k, v in folder.read_artifact("final").fields.items()}


LAB_REPORT = """Northfield Diagnostic Laboratory
88 Quarry Lane, Dayton, OH 45402 (937) 555-0110
REPORT STATUS: FINAL
PATIENT INFORMATION
KOWALSKI, ANNA M.
DOB:
04/02/1961
Patient ID:
NDL-22817
Phone:
(937) 555-0172
SPECIMEN INFORMATION
Collected:
07/22/2025 06:10
ORDERING / CLIENT INFORMATION
Physician:
Tomas Brandt, MD
Phone:
(937) 555-0190
"""


def test_lab_header_labels_above_values_and_last_first_name(run_bundle: RunHelper) -> None:
    got = final_of(run_bundle, LAB_REPORT)
    assert got["full_name"] == ("filled", "KOWALSKI, ANNA M.")  # quoted as printed
    # 04/02 alone is ambiguous; the report's other date (07/22/2025) reads month first
    assert got["dob"] == ("filled", "1961-04-02")
    assert got["phone"] == ("needs_review", "+19375550172")  # the patient's, not the lab's
    assert got["insurance_member_id"][0] == "missing"  # a lab's patient id is no member id


@pytest.mark.parametrize(("text", "status", "value"), [
    ("Patient: Ana Ruiz\nDate of Birth: 03/04/1990\nVisit date: 25/06/2024",
     "filled", "1990-04-03"),  # the visit date is day first: so is the DOB
    ("Patient: Ana Ruiz\nDate of Birth: 03/04/1990", "needs_review", "1990-03-04"),
    ("Patient: Ana Ruiz\nDate of Birth (DD/MM/YYYY): 03/04/1990", "filled", "1990-04-03"),
    ("Patient: Ana Ruiz\nDate of Birth: 1990-April-03", "filled", "1990-04-03"),
])
def test_day_and_month_order_from_the_documents_dates(run_bundle: RunHelper, text: str,
                                                      status: str, value: str) -> None:
    assert final_of(run_bundle, text)["dob"] == (status, value)


DISCHARGE = """[Lakeside General]
Discharge Summary
Patient: Ravi Menon
Date of Birth: 1979-11-02
Contact: +91-9123456780 | ravi.m@example.com
Summary: Ravi Menon was admitted with chest pain. The patient's known allergies to sulfa
and shellfish were documented. The patient was treated with amoxicillin, ibuprofen, and
omeprazole during the stay.
Attending Physician: Dr. Leena Rao
Facility Contact: Phone +91-9000011111
"""


def test_prose_lists_and_an_explicit_country_code(run_bundle: RunHelper) -> None:
    got = final_of(run_bundle, DISCHARGE)
    assert got["phone"] == ("filled", "+919123456780")
    # lists read from sentences are offered for review, items as a list
    assert got["allergies"] == ("needs_review", "sulfa; shellfish")
    assert got["medications"] == ("needs_review", "amoxicillin; ibuprofen; omeprazole")
    assert ("+91-9000011111", ("other_party:organization",)) in hits("phone", DISCHARGE, True)


@pytest.mark.parametrize("text", [
    "Are you allergic to latex, iodine or tape?  Yes / No",
    "I understand that while taking aspirin I may bruise more easily.",
    "Please tell us if you are taking blood thinners.",
    "I agree to be cautious while taking such medications.",
])
def test_questions_consent_and_instructions_give_no_list(text: str) -> None:
    assert hits("allergies", text) == [] and hits("medications", text) == []


def test_titled_medication_list_name_and_items_without_dosing(run_bundle: RunHelper) -> None:
    got = final_of(run_bundle, "Ana Lopez Medication List:\n1.  Lisinopril 10mg QD\n"
                               "2.  Metformin 500mg 2 tabs BID\n3.  Levothyroxine 50mcg qam")
    assert got["full_name"] == ("filled", "Ana Lopez")
    assert got["medications"] == ("filled", "Lisinopril 10mg; Metformin 500mg; Levothyroxine 50mcg")


def test_bullets_on_their_own_line_and_wrapped_entries() -> None:
    text = ("Medication:\n\u2022\nAspirin 81 mg once a day with breakfast to thin the blood and\n"
            "ease pain.\n\u2022\nAtenolol 50 mg twice daily.\n\nSincerely,")
    assert hits("medications", text) == [("Aspirin 81 mg\nAtenolol 50 mg", ())]


def test_the_wrapped_tail_of_an_unread_bullet_is_no_entry() -> None:
    text = ("Medication:\n\u2022\nAspirin 81 mg once a day with food, as your doctor\n"
            "advised.\n\u2022\nAtenolol 50 mg twice daily.\n\nSincerely,")
    assert [value for value, _ in hits("medications", text)] in (
        ["Atenolol 50 mg"], ["Aspirin 81 mg\nAtenolol 50 mg"])


BLANK_AUTH = """For questions: Call Valley Health Plan Member Services
Phone Number: 1-800-555-0142
Patient Information
Patient's Name:
Sex
Birth Date:
Phone: (   )
Member ID Number:
If yes, name of the medication?  _____________________
Allergies: e.g. penicillin, latex
"""


def test_blank_form_text_is_rejected_with_a_reason(run_bundle: RunHelper) -> None:
    folder = run_bundle(docs=[UploadedFile("auth.pdf", text_pdf_bytes(BLANK_AUTH))])
    final = folder.read_artifact("final")
    assert {v.status for v in final.fields.values()} == {"missing"}
    reasons = {(c.field, c.raw_value): c.rejected_reasons
               for c in folder.read_artifact("candidates")}
    assert reasons[("phone", "1-800-555-0142")][0] == "organisation_contact:toll_free"
    assert reasons[("allergies", "e.g. penicillin, latex")] == ["blank_form:example"]
    # "Patient's Name:" over "Sex": a blank form's labels, one per line, are no name
    assert all(reasons[k] for k in reasons if k[0] == "full_name")


@pytest.mark.parametrize(("field", "text", "reason"), [
    ("phone", "Questions? Call us\nPhone: (608) 555-0100", "organisation_contact:call_line"),
    ("full_name", "PATIENT INFORMATION\nLast, First MI", "blank_form:fill_in_line"),
    ("full_name", "Patient Name: Emergency Contact", "blank_form:heading"),
    ("medications", "Medications: List all current medications", "blank_form:instruction"),
    ("medications", "Medications: Do you take any medicines?", "blank_form:question"),
])
def test_rejection_reasons(field: str, text: str, reason: str) -> None:
    found = hits(field, text, rejected=True)
    assert found and all(not r or r[0] == reason for _, r in found), found
    assert [r for _, r in found if r] == [(reason,)]


def filled_input_form() -> bytes:
    """A tax-style form whose values live only in its widgets, labels printed above them."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    rows = [("1 Name (as shown on your income tax return). Name is required.", "Lee Park"),
            ("2 Business name, if different from above", ""),
            ("5 Address (number, street, and apt. or suite no.) See instructions.",
             "12 Birch Road"),
            ("6 City, state, and ZIP code", "Salem OR 97301"),
            ("Requester's name and address (optional)", "Acme Payroll Inc")]
    y = 60.0
    for number, (label, value) in enumerate(rows):
        page.insert_text((40, y), label, fontsize=7, fontname="helv")
        widget = pymupdf.Widget()
        widget.field_name = f"form[0].f1_{number}[0]"
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.rect = pymupdf.Rect(40, y + 3, 380, y + 17)
        widget.field_value = value
        page.add_widget(widget)
        y += 40
    page.insert_text((40, 400), "General Instructions. Call 1-800-555-0101 for forms.",
                     fontsize=7, fontname="helv")
    data = doc.tobytes()
    doc.close()
    return data


def test_values_of_an_input_documents_form_fields(run_bundle: RunHelper) -> None:
    folder = run_bundle(docs=[UploadedFile("w.pdf", filled_input_form())])
    got = {k: (v.status, v.normalized_value) for k, v in
           folder.read_artifact("final").fields.items()}
    assert got["full_name"] == ("filled", "Lee Park")  # not the requester's name
    assert got["address"] == ("filled", "12 Birch Road, Salem OR 97301")
    assert got["phone"][0] == "missing"  # the agency's number in the instructions


def target_form() -> bytes:
    """A target with a patient section (tooltips name the meaning, not the widget names) and
    a doctor's section whose bare "Telephone" widget belongs to the doctor."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)

    def text(x: float, y: float, s: str) -> None:
        page.insert_text((x, y), s, fontsize=8, fontname="helv")

    def widget(name: str, tip: str | None, rect: tuple[float, float, float, float],
               maxlen: int = 0) -> None:
        w = pymupdf.Widget()
        w.field_name = name
        if tip:
            w.field_label = tip
        w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        w.rect = pymupdf.Rect(*rect)
        if maxlen:
            w.text_maxlen = maxlen
        page.add_widget(w)

    text(40, 40, "Section 1")
    text(40, 52, "TO BE COMPLETED BY THE PATIENT")
    text(40, 70, "Patient Name (Last, First, MI)")
    widget("S1.First Name", "Patient Name (Last, First, MI)", (40, 74, 300, 88))
    text(320, 70, "Home Phone # (+ Area Code)")
    widget("S1.area", "Home Phone # (+ Area Code)", (320, 74, 350, 88), 3)
    widget("S1.phoneA", "Home Phone # (First three numbers)", (355, 74, 385, 88), 3)
    widget("S1.phoneB", "Home Phone # (Last four numbers)", (390, 74, 430, 88), 4)
    text(40, 110, "Date of Birth (dd-mm-yyyy)")
    widget("S1.BirthDD", "Date of Birth (dd)", (40, 114, 60, 128), 2)
    widget("S1.BirthMM", "Date of Birth (mm)", (65, 114, 85, 128), 2)
    widget("S1.BirthYYYY", "Date of Birth (yyyy)", (90, 114, 130, 128), 4)
    text(40, 150, "Name of Medication")
    text(250, 150, "Dosage (mg)")
    text(400, 150, "How Often?")
    for row in (1, 2, 3):
        y = 140 + 20 * row
        widget(f"S1.Medication{row}", f"Name of Medication ({row})", (40, y, 240, y + 14))
        widget(f"S1.Dose{row}", f"Dosage (mg) ({row})", (250, y, 390, y + 14))
        widget(f"S1.Often{row}", f"How Often? ({row})", (400, y, 560, y + 14))
    text(40, 260, "First Name")
    widget("First Name", None, (40, 264, 200, 278))
    widget("First Name_2", None, (220, 264, 380, 278))
    text(40, 320, "TO BE COMPLETED BY THE PHYSICIAN")
    text(40, 340, "Telephone")
    widget("S2.Telephone", None, (40, 344, 200, 358))
    data = doc.tobytes()
    doc.close()
    return data


LETTER = """To: Dr Mara Quinn MD                         Patient: Owen Hale
T: 222-555-0100                               DOB: 1971-March-09
Dear Dr Quinn,
Patient: Owen Patrick Hale
Patient Home Number: +1 416 555 0188
Medication:
\u2022
Lisinopril 10 mg once a day for blood pressure.
\u2022
Atorvastatin 20 mg at bedtime.
"""


def test_target_widgets_by_tooltip_label_and_section(run_bundle: RunHelper) -> None:
    from repro_assets.forms.fill import read_back

    folder = run_bundle(docs=[UploadedFile("letter.pdf", text_pdf_bytes(LETTER))],
                        targets=[UploadedFile("form.pdf", target_form())])
    written = read_back(folder.read_binary("filled.pdf"))
    assert written == {
        "S1.First Name": "Hale, Owen P.",  # the label's order, not the widget name's part
        "S1.area": "416", "S1.phoneA": "555", "S1.phoneB": "0188",
        "S1.BirthDD": "09", "S1.BirthMM": "03", "S1.BirthYYYY": "1971",
        "S1.Medication1": "Lisinopril", "S1.Dose1": "10", "S1.Often1": "once a day",
        "S1.Medication2": "Atorvastatin", "S1.Dose2": "20", "S1.Often2": "at bedtime",
    }
    reasons = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
    assert reasons["S2.Telephone"] == "other_party:doctor"  # the section heading above it
    assert reasons["First Name"].startswith("party_uncertain")
    assert reasons["First Name_2"].startswith("party_uncertain")


def test_scanned_pages_are_read_by_ocr_and_offered_for_review(run_bundle: RunHelper) -> None:
    from repro_assets.forms.ocr import tessdata
    from repro_assets.forms.samples import scanned_pdf_bytes

    if tessdata() is None:
        pytest.skip("no Tesseract language data (apt-get install tesseract-ocr)")
    scan = scanned_pdf_bytes("Westgate Clinic - faxed intake\n\nPatient Name: Nora Blake\n"
                             "DOB: 11/23/1984\nPhone: (414) 555-0163\n", dpi=150)
    folder = run_bundle(docs=[UploadedFile("scan.pdf", scan)])
    (item,) = folder.read_artifact("doc_index")
    assert item.has_text_layer is False and item.text_source == "ocr"
    final = folder.read_artifact("final").fields
    assert {k: (final[k].status, final[k].normalized_value) for k in
            ("full_name", "dob", "phone")} == {
        "full_name": ("needs_review", "Nora Blake"), "dob": ("needs_review", "1984-11-23"),
        "phone": ("needs_review", "+14145550163")}
    for key in ("full_name", "dob", "phone"):  # OCR evidence: its box, a weaker reading
        assert final[key].evidence[0].bbox is not None
        assert "ocr_unconfirmed" in final[key].rationale
    # a typed copy of the same name confirms the OCR reading: it may be filled
    typed = UploadedFile("typed.pdf", text_pdf_bytes("Patient Name: Nora Blake"))
    folder = run_bundle(docs=[UploadedFile("scan.pdf", scan), typed])
    assert folder.read_artifact("final").fields["full_name"].status == "filled"


def shared_names_form() -> bytes:
    """Widgets whose names say 'Name' or 'Telephone' but ask for another party or thing."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)

    def row(y: float, label: str, name: str, x: float = 150, label_x: float = 40) -> None:
        page.insert_text((label_x, y + 10), label, fontsize=8, fontname="helv")
        w = pymupdf.Widget()
        w.field_name = name
        w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        w.rect = pymupdf.Rect(x, y, x + 140, y + 14)
        page.add_widget(w)

    row(60, "Patient Name:", "Patient Name")
    row(90, "Primary Insurance Name:", "Primary Insurance Name")
    row(120, "Business Name:", "Business Name")
    row(150, "Medication Name:", "Medication Name")
    row(180, "Physician's Name:", "Doctor Name")
    row(180, "Telephone:", "Telephone", x=430, label_x=380)
    row(210, "Please Print Name:", "Print Name")
    page.insert_text((40, 250), "PHARMACY", fontsize=9, fontname="helv")
    row(260, "Phone:", "Phone 3")
    data = doc.tobytes()
    doc.close()
    return data


def test_name_and_telephone_widgets_of_other_parties_and_things(run_bundle: RunHelper) -> None:
    from repro_assets.forms.fill import read_back

    text = "Patient Name: Owen Hale\nPhone: +1 416 555 0188\nMedications: Lisinopril 10 mg"
    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes(text))],
                        targets=[UploadedFile("form.pdf", shared_names_form())])
    written = read_back(folder.read_binary("filled.pdf"))
    assert written == {"Patient Name": "Owen Hale", "Medication Name": "Lisinopril 10 mg"}
    reasons = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
    assert reasons["Primary Insurance Name"] == "not_a_persons_name"
    assert reasons["Business Name"] == "not_a_persons_name"
    assert reasons["Telephone"] == "other_party:doctor"  # its row names the physician
    assert reasons["Print Name"] == "not_a_persons_name"  # the signer's, maybe a guardian
    assert reasons["Phone 3"] == "other_party:organization"  # under the PHARMACY heading


@pytest.mark.parametrize(("field", "text", "expected"), [
    ("phone", "Phone: (608) 555-0143 (call after 5 pm)", ["(608) 555-0143"]),  # a note
    ("allergies", "Patients allergic to latex must tell the nurse.", []),  # a policy
])
def test_cues_after_a_value_and_policy_sentences(field: str, text: str,
                                                 expected: list[str]) -> None:
    assert [v for v, _ in hits(field, text)] == expected


def test_printed_choices_without_boxes_are_no_list() -> None:
    text = "Allergies:\nPenicillin Sulfa Codeine Latex Other\nMedications:\nVitamin D Daily"
    assert hits("allergies", text) == []
    assert [v for v, _ in hits("medications", text)] == ["Vitamin D"]


LAB_SLIP = """CityLab Diagnostics
Plot 12, Sector 5, Pune 411001 | Ph: 020-5550-1234 | www.citylab.example
Patient Name : Mr. Arjun Rao
Age / Sex : 45 Y / Male
Ref. By : Dr. S. Kulkarni
Sample Collected : 12/03/2024 09:10
Pathologist
Dr. Meera Joshi, MD
Contact: 020-5550-9999
"""


def test_lab_slip_only_the_name_is_the_patients() -> None:
    assert [v for v, _ in hits("full_name", LAB_SLIP)] == ["Arjun Rao"]  # title dropped
    assert hits("phone", LAB_SLIP) == []  # the lab's and the pathologist's numbers
    assert hits("dob", LAB_SLIP) == []  # a sample date is no birth date


def test_footer_contact_strip_is_the_organisations() -> None:
    text = ("Patient Name: Ana Ruiz\nNotes: follow up in two weeks\n" + "Seen today.\n" * 8 +
            "Lakeview Family Care | Phone: (608) 555-0100 | Fax: (608) 555-0101 | "
            "lakeview.example.org")
    assert hits("phone", text, rejected=True) == [
        ("(608) 555-0100", ("organisation_contact:footer",))]


def generic_names_form() -> bytes:
    """Widgets named Text1, Text2 ... with no tooltip: only the printed labels say what."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    rows = [(None, "PATIENT INFORMATION"), ("Patient Name:", "Text1"),
            ("Date of Birth:", "Text2"), ("Notes", "Text3"), (None, "EMERGENCY CONTACT"),
            ("Name:", "Text4"), ("Phone:", "Text5")]
    y = 60.0
    for label, name in rows:
        if label is None:
            page.insert_text((40, y + 10), name, fontsize=9, fontname="helv")
        else:
            page.insert_text((40, y + 10), label, fontsize=8, fontname="helv")
            w = pymupdf.Widget()
            w.field_name = name
            w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
            w.rect = pymupdf.Rect(120, y, 320, y + 14)
            page.add_widget(w)
        y += 24
    data = doc.tobytes()
    doc.close()
    return data


def test_generic_widget_names_mapped_by_their_printed_labels(run_bundle: RunHelper) -> None:
    from repro_assets.forms.fill import read_back

    text = "Patient Name: Owen Hale\nDate of Birth: 1971-03-09\nEmergency contact: Ida Hale"
    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes(text))],
                        targets=[UploadedFile("form.pdf", generic_names_form())])
    assert read_back(folder.read_binary("filled.pdf")) == {
        "Text1": "Owen Hale", "Text2": "03/09/1971"}
    reasons = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
    assert reasons["Text4"] == "other_party:emergency_contact"  # the heading above it
    assert reasons["Text3"] == "no_v1_field"


@pytest.mark.parametrize(("field", "text", "expected"), [
    # a label over a label-like line is a name only where labels stand over values
    ("full_name", "Patient Name:\nMarital Status\nDate of Birth:\nSex", []),
    ("full_name", "Patient Name:\nAna Ruiz\nDate of Birth:\n03/04/1990", ["Ana Ruiz"]),
    # a bare "Contact:" number is the subject's only in the subject's block
    ("phone", "Patient: Ana Ruiz\nContact: +44 20 7946 0958", ["+44 20 7946 0958"]),
    ("phone", "Patient: Ana Ruiz\n" + "Result normal.\n" * 8 + "Contact: +44 20 7946 0000",
     []),
])
def test_layout_and_block_evidence(field: str, text: str, expected: list[str]) -> None:
    assert [v for v, _ in hits(field, text)] == expected


def test_a_bare_widget_is_the_subjects_only_above_another_partys_field(
        run_bundle: RunHelper) -> None:
    """A bare "Name" above the physician's name is the subject's (the form asks its subject
    first); under it, it may be the physician's and is left empty."""
    from repro_assets.forms.fill import read_back

    from .documents import FieldShape, fillable_form

    text = "Patient Name: Owen Hale\nDate of Birth: 1971-03-09"
    form = fillable_form([FieldShape("Name"), FieldShape("Date of Birth"),
                          FieldShape("Physician Name")])
    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes(text))],
                        targets=[UploadedFile("form.pdf", form)])
    assert read_back(folder.read_binary("filled.pdf")) == {
        "Name": "Owen Hale", "Date of Birth": "03/09/1971"}
    reasons = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
    assert reasons["Physician Name"] == "other_party:doctor"
    form = fillable_form([FieldShape("Date of Birth"), FieldShape("Physician Name"),
                          FieldShape("Name")])
    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes(text))],
                        targets=[UploadedFile("form.pdf", form)])
    assert read_back(folder.read_binary("filled.pdf")) == {"Date of Birth": "03/09/1971"}
    reasons = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
    assert reasons["Name"] in ("party_uncertain:another_party_has_this_field",
                               "other_party:doctor")


@pytest.mark.parametrize("text", [
    "Current Medications:\nList any medications you are currently taking, including\n"
    "herbal supplements. Include dosage if known.\n",
    "Medications:\nherbal supplements. Include dosage if known. Are you taking any?\n",
])
def test_wrapped_instructions_are_no_list(text: str) -> None:
    assert hits("medications", text) == []


@pytest.mark.parametrize(("field", "text", "reason"), [
    ("medications", "Medications: (prescription, over-the-counter, vitamins)", "blank_form:hint"),
    ("allergies", "Allergies: NKDA", "blank_form:no_entries"),
    ("allergies", "Medication Allergies: None Known Penicillin Sulfa Other:____",
     "blank_form:no_entries"),
    ("medications", "Medications: Your doctor may prescribe medications for discomfort.",
     "blank_form:prose"),
])
def test_list_values_that_are_no_entries(field: str, text: str, reason: str) -> None:
    assert [r for _, r in hits(field, text, rejected=True)] == [(reason,)]


@pytest.mark.parametrize(("field", "text", "reason"), [
    ("full_name", "PATIENT NAME: LAST FIRST M.I.", "blank_form:fill_in_line"),
    ("full_name", "Patient: New   Established", "blank_form:option_list"),
    ("full_name", "Name: Self", "not_a_name:one_word"),
    ("dob", "Date of Birth: 01/01/1900 (example)", "blank_form:example"),
])
def test_name_and_date_shaped_blank_text(field: str, text: str, reason: str) -> None:
    assert [r for _, r in hits(field, text, rejected=True)] == [(reason,)]


REGISTRATION = """PATIENT REGISTRATION
Patient Name: Jordan Lee Price
Date of Birth: 04/12/1957
Address: 12 Oak Lane, Fairview, OR 97024
Home Phone: (503) 555-0163
Primary Physician: Dr. Helga Brandvik   Phone: (503) 555-0151
Allergies: Penicillin
Medications: Metformin 500 mg bid, Lisinopril 10 mg daily
"""


def test_history_target_labels_are_no_headings(run_bundle: RunHelper) -> None:
    """Printed field labels ("Physician  [____]") are no section headings, and a party
    named with its value on one line does not own the lines below."""
    from repro_assets.forms.fill import read_back

    from .documents import FieldShape, fillable_form

    form = fillable_form([FieldShape(n) for n in (
        "Name", "Birth Date", "Home Phone", "Physician", "Telephone", "Medications",
        "Allergies", "Emergency Phone")])
    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes(REGISTRATION))],
                        targets=[UploadedFile("form.pdf", form)])
    assert read_back(folder.read_binary("filled.pdf")) == {
        "Name": "Jordan Lee Price", "Birth Date": "04/12/1957",
        "Medications": "Metformin 500 mg; Lisinopril 10 mg", "Allergies": "Penicillin"}
    reasons = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
    # under the physician's box: the physician's, or at least not surely the patient's
    assert reasons["Telephone"].startswith(("party_uncertain", "other_party:doctor"))


def test_a_policy_number_beside_a_member_id_is_the_plans() -> None:
    card = "HEALTH CARD\nPolicy Number: POL55501\nMember Name: Ana Ruiz\nMember ID: XK-88120"
    assert hits("insurance_member_id", card, rejected=True) == [
        ("POL55501", ("policy_number_not_member_id",)), ("XK-88120", ())]
    alone = "Insurance: Acme Health (Policy No. AB-12345)"  # the only id: it is the member's
    assert [v for v, _ in hits("insurance_member_id", alone)] == ["AB-12345"]
