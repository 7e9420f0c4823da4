"""Filling stays conservative on layouts nobody here has seen (issue #25, precision).

Each test builds a small document in a family that real documents show and that the reader
got wrong: another entity's block that opens with a plain label and a proper name ("Lab:",
"Performed at:", "Facility:") below the patient's lines, and the organisation speaking of
itself before a number ("Questions? Contact us at ..."). All names and numbers are invented.
"""

from __future__ import annotations

import pytest

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
