"""Filling stays conservative on layouts nobody here has seen (issue #25, precision).

Each test builds a small document in a family that real documents show and that the reader
got wrong: another entity's block that opens with a plain label and a proper name ("Lab:",
"Performed at:", "Facility:") below the patient's lines, and the organisation speaking of
itself before a number ("Questions? Contact us at ..."), a lab's bare "ID:", and a target
form showing one field in two parties' blocks. All names and numbers are invented.
"""

from __future__ import annotations

import pymupdf
import pytest

from repro_assets.forms.fill import read_back
from repro_assets.forms.heuristics import scan_field
from repro_assets.forms.models import LayoutDoc, LayoutPageText
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes

from .conftest import RunHelper

PATIENT = "Patient Name: Ivo Brandt\nDate of Birth: 06/05/1979\n"


def final_of(run_bundle: RunHelper, text: str) -> dict[str, tuple[str, str | None]]:
    folder = run_bundle(docs=[UploadedFile("d.pdf", text_pdf_bytes(text))])
    return {k: (v.status, v.normalized_value)
            for k, v in folder.read_artifact("final").fields.items()}


def hits(field: str, text: str) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    doc = LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])
    return [(h.raw_value, h.rejected, h.flags)
            for h in scan_field(field, [doc], include_rejected=True)]


@pytest.mark.parametrize("opener", [
    "Lab: Northgate Diagnostics",
    "Performed at: Northgate Diagnostics",
    "Facility: Oakvale Family Clinic",
    "Send results to: Oakvale Family Clinic",
])
def test_contact_lines_under_another_entitys_name_are_not_filled(
        run_bundle: RunHelper, opener: str) -> None:
    """The phone and address below "Lab: <name>" are the lab's: never auto-filled."""
    text = (PATIENT + opener + "\nPhone: (510) 555-0110\n"
            "Address: 12 Mill Road, Oakvale, CA 94001\n")
    got = final_of(run_bundle, text)
    assert got["full_name"] == ("filled", "Ivo Brandt")
    assert got["dob"] == ("filled", "1979-06-05")
    assert got["address"][0] != "filled", got["address"]
    assert got["phone"][0] != "filled", got["phone"]


def test_the_subjects_own_contact_lines_stay_bound(run_bundle: RunHelper) -> None:
    """A label answered by a proper name that asks for a field of the subject, or one with no
    contact line below it, opens no other block."""
    text = (PATIENT + "Occupation: Field Surveyor\nReligion: None\n"
            "Address: 41 Birch Row, Oakvale, CA 94004\n"
            "Subject: Result of Chest Imaging\nThe study shows no change.\n")
    assert final_of(run_bundle, text)["address"] == ("filled", "41 Birch Row, Oakvale, CA 94004")


def test_a_letters_subject_line_leaves_the_header_bound(run_bundle: RunHelper) -> None:
    text = ("Patient: Ivo Brandt\nDOB: 06/25/1979\nPhone: (510) 555-0123\n"
            "Subject: Result of Chest Imaging\nThe study shows no change since last year.\n")
    got = final_of(run_bundle, text)
    assert got["dob"] == ("filled", "1979-06-25")


@pytest.mark.parametrize("line", [
    "Questions? Contact us at (510) 555-0170 or visit our office.",
    "Questions? Phone (510) 555-0170",
])
def test_the_organisation_speaking_of_itself_is_no_subject_phone(line: str) -> None:
    text = PATIENT + "Findings: normal.\n\n" + line + "\n"
    found = hits("phone", text)
    assert found and all(rejected == ("organisation_contact:call_line",)
                         for _, rejected, _ in found), found


def test_a_subject_phone_whose_hint_says_when_to_call_is_kept() -> None:
    """Only the organisation speaking of itself ("call us") marks its own number."""
    text = PATIENT + "Phone (call after 5 pm): (510) 555-0123\n"
    assert [(raw, rejected) for raw, rejected, _ in hits("phone", text)] == [
        ("(510) 555-0123", ())]


@pytest.mark.parametrize("opener", [
    "Follow up with Dr. Hanne Solberg in 2 weeks",
    "Sample collected at Northgate Diagnostics",
    "Northgate Diagnostics",
])
def test_contact_lines_under_an_unlabelled_name_are_not_filled(
        run_bundle: RunHelper, opener: str) -> None:
    """A line naming someone else (prose or a bare name) right above contact labels: the
    address and phone below are that one's."""
    text = (PATIENT + opener + "\nAddress: 300 Clinic Drive, Oakvale, CA 94003\n"
            "Phone: (510) 555-0177\n")
    got = final_of(run_bundle, text)
    assert got["dob"] == ("filled", "1979-06-05")
    assert got["address"][0] != "filled", got["address"]
    assert got["phone"][0] != "filled", got["phone"]


def test_a_bare_id_on_a_page_about_no_coverage_is_no_member_id() -> None:
    """A lab slip's "ID:" is the lab's record number, not the insurance member id."""
    text = "Name: Ivo Brandt\nID: 445120\nAge: 45\nSex: M\n"
    assert hits("insurance_member_id", text) == [
        ("445120", ("not_a_coverage_id:bare_id",), ())]


def test_a_bare_id_on_an_insurance_card_is_the_member_id() -> None:
    text = "CRESTLINE HEALTH PLAN\nName: Ivo Brandt\nID: CRX-55120-33\nGroup: 7781\n"
    assert [(raw, rejected) for raw, rejected, _ in hits("insurance_member_id", text)] == [
        ("CRX-55120-33", ())]


def sectioned_form(rows: list[tuple[str | None, str, str]]) -> bytes:
    """A fillable form: (section heading printed above or None, widget name, printed label)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 50), "Registration form", fontsize=13, fontname="helv")
    y = 80.0
    for section, name, label in rows:
        if section:
            page.insert_text((54, y + 18), section, fontsize=10.5, fontname="helv")
            y += 26
        page.insert_text((54, y + 12), label, fontsize=8.5, fontname="helv")
        widget = pymupdf.Widget()
        widget.field_name = name
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.rect = pymupdf.Rect(250, y, 540, y + 16)
        page.add_widget(widget)
        y += 22
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


SOURCE = text_pdf_bytes("Patient Name: Ivo Brandt\nDate of Birth: 06/25/1979\n"
                        "Address: 41 Birch Row, Oakvale, CA 94004\n")


def test_a_field_shown_again_in_another_partys_block_is_not_written(
        run_bundle: RunHelper) -> None:
    """One field name printed in the patient's block and again in the responsible party's:
    writing it would put the patient's name in both, so it is left for review."""
    target = sectioned_form([("PATIENT", "Name", "Name"), (None, "Birth Date", "Date of Birth"),
                             ("RESPONSIBLE PARTY", "Name", "Name")])
    folder = run_bundle(docs=[UploadedFile("d.pdf", SOURCE)],
                        targets=[UploadedFile("form.pdf", target)])
    review = folder.read_artifact("review")
    assert {w.widget for w in review.written} == {"Birth Date"}
    assert any(s.widget == "Name" and s.reason == "party_uncertain:field_shown_in_another_block"
               for s in review.skipped)
    assert read_back(folder.read_binary("filled.pdf")) == {"Birth Date": "06/25/1979"}


def test_a_field_shown_twice_in_the_subjects_block_is_written(run_bundle: RunHelper) -> None:
    target = sectioned_form([("PATIENT", "Name", "Name"), (None, "Name", "Name (again)")])
    folder = run_bundle(docs=[UploadedFile("d.pdf", SOURCE)],
                        targets=[UploadedFile("form.pdf", target)])
    assert {w.widget for w in folder.read_artifact("review").written} == {"Name"}


@pytest.mark.parametrize("value", ["Hanne Solberg, MD", "Hanne Solberg M.D.", "Tomas Reyes, RN"])
def test_a_name_with_a_clinicians_credential_is_not_the_subjects(value: str) -> None:
    """"Name: <name>, MD" on a note is the clinician's name, never offered as the patient's."""
    text = f"CLINIC NOTE\nName: {value}\nDate: 03/03/2024\nThe patient is doing well.\n"
    found = hits("full_name", text)
    assert found and all(rejected == ("other_party:doctor",) for _, rejected, _ in found), found


def test_a_surname_that_looks_like_a_credential_is_kept() -> None:
    text = "Patient Name: Anh Do\nDate of Birth: 06/25/1979\n"
    assert [(raw, rejected) for raw, rejected, _ in hits("full_name", text)] == [("Anh Do", ())]


def two_block_form(left: list[tuple[str, str]], right: list[tuple[str, str]],
                   headings: tuple[str, str]) -> bytes:
    """A fillable form of two blocks side by side, each under its own heading."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((40, 60), "Referral form", fontsize=13, fontname="helv")
    for x, heading, rows in ((40, headings[0], left), (320, headings[1], right)):
        page.insert_text((x, 90), heading, fontsize=10.5, fontname="helv")
        y = 100.0
        for name, label in rows:
            page.insert_text((x, y + 12), label, fontsize=8.5, fontname="helv")
            widget = pymupdf.Widget()
            widget.field_name = name
            widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
            widget.rect = pymupdf.Rect(x + 90, y, x + 270, y + 16)
            page.add_widget(widget)
            y += 22
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def test_widgets_under_the_other_columns_heading_are_that_partys(run_bundle: RunHelper) -> None:
    """Patient block left, physician block right, headings on one line: the right column's
    street and telephone widgets are the physician's, not the patient's."""
    source = text_pdf_bytes("Patient Name: Ivo Brandt\nPhone: +1 (510) 555-0123\n"
                            "Address: 41 Birch Row, Oakvale, CA 94004\n")
    target = two_block_form([("Patient Name", "Name")],
                            [("Doc Name", "Name"), ("Street", "Street address"),
                             ("Telephone", "Telephone")],
                            ("PATIENT INFORMATION", "PHYSICIAN INFORMATION"))
    folder = run_bundle(docs=[UploadedFile("d.pdf", source)],
                        targets=[UploadedFile("form.pdf", target)])
    review = folder.read_artifact("review")
    assert {w.widget for w in review.written} == {"Patient Name"}
    skipped = {s.widget: s.reason for s in review.skipped}
    assert skipped["Street"] == skipped["Telephone"] == "other_party:doctor"


def test_the_left_columns_heading_still_heads_the_left_column(run_bundle: RunHelper) -> None:
    source = text_pdf_bytes("Patient Name: Ivo Brandt\nAddress: 41 Birch Row, Oakvale, CA 94004\n")
    target = two_block_form([("Street", "Street address")], [("Doc Name", "Name")],
                            ("PATIENT INFORMATION", "PHYSICIAN INFORMATION"))
    folder = run_bundle(docs=[UploadedFile("d.pdf", source)],
                        targets=[UploadedFile("form.pdf", target)])
    assert {w.widget: w.value for w in folder.read_artifact("review").written} == {
        "Street": "41 Birch Row, Oakvale, CA 94004"}


@pytest.mark.parametrize(("widget", "reason"), [
    ("Previous Address", "not_the_current_value"),
    ("Former Name", "not_the_current_value"),
    ("Mailing Address if different", "party_uncertain:only_if_different"),
    ("Business Phone", "work_contact_not_in_evidence"),
    ("Work Address", "work_contact_not_in_evidence"),
])
def test_a_widget_asking_for_another_value_of_the_subject_stays_empty(
        run_bundle: RunHelper, widget: str, reason: str) -> None:
    """The documents give the patient's current name, home phone and address: a widget for a
    past value, a value only if different, or a work contact is not answered by them."""
    source = text_pdf_bytes("Patient Name: Ivo Brandt\nPhone: +1 (510) 555-0123\n"
                            "Address: 41 Birch Row, Oakvale, CA 94004\n")
    target = sectioned_form([("PATIENT", "Patient Name", "Name"), (None, widget, widget)])
    folder = run_bundle(docs=[UploadedFile("d.pdf", source)],
                        targets=[UploadedFile("form.pdf", target)])
    review = folder.read_artifact("review")
    assert {w.widget for w in review.written} == {"Patient Name"}
    assert {s.widget: s.reason for s in review.skipped}[widget] == reason


def test_a_work_phone_widget_takes_a_work_phone_of_the_evidence(run_bundle: RunHelper) -> None:
    source = text_pdf_bytes("Patient Name: Ivo Brandt\nWork Phone: +1 (510) 555-0124\n")
    target = sectioned_form([("PATIENT", "Patient Name", "Name"),
                             (None, "Business Phone", "Business Phone")])
    folder = run_bundle(docs=[UploadedFile("d.pdf", source)],
                        targets=[UploadedFile("form.pdf", target)])
    assert {w.widget: w.value for w in folder.read_artifact("review").written} == {
        "Patient Name": "Ivo Brandt", "Business Phone": "(510) 555-0124"}


@pytest.mark.parametrize(("field", "text", "reason"), [
    ("address", "Patient Name: Ivo Brandt\nPrevious Address: 9 Mill Lane, Oakvale, CA 94009\n",
     "not_current_value"),
    ("address", "Patient Name: Ivo Brandt\nPrevious Address:\n9 Mill Lane, Oakvale, CA 94009\n",
     "not_current_value"),
    ("address", "Patient Name: Ivo Brandt\nWork Address: 1 Works Way, Oakvale, CA 94005\n",
     "not_the_subjects_home:work_address"),
    ("full_name", "Former Name: Ivo Brandtner\nDate of Birth: 06/25/1979\n",
     "not_current_value"),
    ("phone", "Patient Name: Ivo Brandt\nOld Phone: +1 (510) 555-0100\n", "not_current_value"),
    ("insurance_member_id", "Patient Name: Ivo Brandt\nPrior Member ID: OLD-44120\n"
     "Insurance: Crestline Health Plan\n", "not_current_value"),
])
def test_a_past_value_or_a_work_address_is_no_value_of_the_field(
        field: str, text: str, reason: str) -> None:
    found = hits(field, text)
    assert found and all(rejected == (reason,) for _, rejected, _ in found), found


def test_the_current_address_wins_over_a_previous_one(run_bundle: RunHelper) -> None:
    text = ("Patient Name: Ivo Brandt\nAddress: 41 Birch Row, Oakvale, CA 94004\n"
            "Previous Address: 9 Mill Lane, Oakvale, CA 94009\n")
    assert final_of(run_bundle, text)["address"] == ("filled", "41 Birch Row, Oakvale, CA 94004")
