"""What a blank form looks like, and whose value a value is (issue #15, item 2).

A generated blank intake form (letterhead with the clinic's phone, instructions, headings,
checkbox option lists, fill-in lines, other parties' sections) gives every field ``missing``;
the same form filled by the patient gives the patient's values and never another party's.
"""

from __future__ import annotations

import pymupdf
import pytest

from repro_assets.forms.heuristics import line_parties, scan_field
from repro_assets.forms.models import LayoutDoc, LayoutPageText
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes
from repro_assets.forms.text_cues import (
    has_checkboxes,
    is_heading,
    is_instruction,
    is_placeholder,
    marked_options,
)

from .conftest import RunHelper
from .documents import OTHERS, intake_form


def doc(text: str, *more_pages: str) -> LayoutDoc:
    pages = [LayoutPageText(page=n, full_text=t) for n, t in enumerate((text, *more_pages), 1)]
    return LayoutDoc(doc_id="doc_001", pages=pages)


def values(field: str, text: str) -> list[str]:
    return [hit.raw_value for hit in scan_field(field, [doc(text)])]


def test_blank_intake_form_gives_every_field_missing(run_bundle: RunHelper) -> None:
    folder = run_bundle(docs=[UploadedFile("registration.pdf", intake_form(filled=False))])
    final = folder.read_artifact("final")
    assert {k: v.status for k, v in final.fields.items()} == {k: "missing" for k in final.fields}
    candidates = folder.read_artifact("candidates")
    # blank-form text is offered as a candidate only with the reason it is no value
    assert all(c.rejected_reasons for c in candidates)
    assert {r.split(":")[0] for c in candidates for r in c.rejected_reasons} <= {
        "blank_form", "other_party", "organisation_contact", "unsupported_by_evidence",
        "normalization_failed", "no_value"}


def test_filled_intake_form_gives_the_patients_values_only(run_bundle: RunHelper) -> None:
    folder = run_bundle(docs=[UploadedFile("registration.pdf", intake_form(filled=True))])
    got = {k: (v.status, v.normalized_value) for k, v in folder.read_artifact("final")
           .fields.items()}
    assert got == {
        "full_name": ("filled", "Gonzalez, Maria L"),
        "dob": ("filled", "1978-04-12"),
        "phone": ("needs_review", "+12175550143"),  # no country code: +1 assumed (seed)
        "address": ("filled", "1822 Oak Street, Apt 4B"),
        "insurance_member_id": ("filled", "XGH482913027"),
        "allergies": ("filled", "Penicillin"),  # the allergen, not the reaction
        "medications": ("filled", "Lisinopril 10 mg; Metformin 500 mg"),  # dosing dropped
    }
    candidates = folder.read_artifact("candidates")
    proposed = {c.normalized_value for c in candidates if c.accepted}
    # the other parties' values are listed, rejected with their party
    assert {c.normalized_value for c in candidates if any(
        r.startswith("other_party:") for r in c.rejected_reasons)} & {
        "+12175550177", OTHERS["contact"], OTHERS["physician"]}
    others = {"+12175550100", "+12175550177", "+18005550123", "+12175550155", "+12175550199",
              "1970-02-03", OTHERS["contact"], OTHERS["policyholder"], OTHERS["physician"],
              OTHERS["employer_address"]}
    assert not proposed & others, proposed & others


@pytest.mark.parametrize(("text", "field"), [
    ("MEDICATIONS\nPlease list ALL current medications, vitamins, and supplements\n"
     "1. ______________\n2. ______________", "medications"),
    ("Current Medications:\n(please include over-the-counter drugs)\n____________", "medications"),
    ("Allergies: [ ] None  [ ] Penicillin  [ ] Latex", "allergies"),
    ("Allergies (check all that apply):   Penicillin   Sulfa   Latex", "allergies"),
    ("ALLERGIES\nDo you have allergies?  [X] Yes  [ ] No\nIf yes, list them below:\n______",
     "allergies"),
    ("Patient Name (Last, First, MI): ________________________", "full_name"),
    ("Name: Last, First, MI", "full_name"),
    ("Date of Birth: MM/DD/YYYY", "dob"),
    ("Phone: (____) ____-______    Fax: (____) ____-______", "phone"),
    ("Home Address: Street, City, State, ZIP", "address"),
    ("Member ID: __________   Group #: ________", "insurance_member_id"),
])
def test_blank_lines_hints_instructions_and_options_are_not_values(text: str,
                                                                   field: str) -> None:
    assert values(field, text) == []


@pytest.mark.parametrize(("text", "field", "expected"), [
    ("Allergies: [x] Penicillin  [ ] Latex  [X] Sulfa drugs", "allergies",
     ["Penicillin; Sulfa drugs"]),
    ("MEDICATIONS\nPlease list ALL current medications\nMedication   Dose   How often\n"
     "1. Aspirin 81 mg daily\n2. ______", "medications", ["Aspirin 81 mg"]),
    ("Patient Name (Last, First, MI): Gonzalez, Maria L", "full_name", ["Gonzalez, Maria L"]),
    ("4. Injured Employee's Name: Jordan A. Rivera", "full_name", ["Jordan A. Rivera"]),
])
def test_written_values_next_to_the_same_cues_are_taken(text: str, field: str,
                                                        expected: list[str]) -> None:
    assert values(field, text) == expected


@pytest.mark.parametrize(("text", "field"), [
    ("EMERGENCY CONTACT\nName: Li Chen\nPhone: (608) 555-0111", "phone"),
    ("EMERGENCY CONTACT\nName: Li Chen\nRelationship to patient: spouse\nPhone: 608-555-0111",
     "phone"),
    ("Emergency Contact: Li Chen   Phone: (608) 555-0111", "phone"),
    ("Employer: Acme Corp   Phone: (608) 555-0122", "phone"),
    ("Primary care physician: Dr. Amir Haddad   Phone: (608) 555-0133", "phone"),
    ("Dr. Amir Haddad   Phone: (608) 555-0133\nPatient Name: Ann Lee", "phone"),
    ("Policyholder: Li Chen   DOB: 02/02/1960", "dob"),
    ("Policyholder Date of Birth: 02/02/1960", "dob"),
    ("Employer Address: 77 Mill Road\nSpringfield, IL 62702", "address"),
    ("PRIMARY CARE PHYSICIAN\nName: Helen Park", "full_name"),
    ("Insured Name: Carlos Gonzalez", "full_name"),
    ("E-mail Address: ann@mail.example", "address"),
])
def test_another_partys_value_is_not_the_subjects(text: str, field: str) -> None:
    assert values(field, text) == []


def test_letterhead_contact_data_belong_to_the_issuer() -> None:
    letter = doc("Lakeside Orthopedics\n55 Shore Drive, Madison, WI 53703\n"
                 "Phone: (608) 555-0100\nPATIENT INFORMATION\nName: Ann Lee\n"
                 "Phone: (608) 555-0143")
    assert values("phone", "\n".join(p.full_text for p in letter.pages)) == ["(608) 555-0143"]
    parties = line_parties(letter)[1]
    assert parties[:3] == ["issuer"] * 3 and parties[4] == "subject"
    # no organization word: a fax number or an unlabelled street line still marks a letterhead
    plain = "RIVERSIDE FAMILY MEDICINE\n410 Harbor Road, Springfield, IL 62701\n" \
            "Phone: (217) 555-0100\nNEW PATIENT REGISTRATION\nHome Phone: (217) 555-0143"
    assert values("phone", plain) == ["(217) 555-0143"]
    # a title then the subject's phone is no letterhead
    assert values("phone", "Visit note\nPhone: +1 (312) 555-0123\nDOB: 02/17/1969") \
        == ["+1 (312) 555-0123"]


def test_sections_return_to_the_subject() -> None:
    text = ("EMERGENCY CONTACT\nName: Li Chen\nINSURANCE INFORMATION\nMember ID: XGH482913027\n"
            "Patient Phone: (608) 555-0143")
    assert values("insurance_member_id", text) == ["XGH482913027"]
    assert values("phone", text) == ["(608) 555-0143"]
    # a section goes on over a page break
    two = doc("Intake\nEMERGENCY CONTACT\nName: Li Chen", "Phone: (608) 555-0111")
    assert scan_field("phone", [two]) == []


def test_home_and_cell_phones_of_the_subject_contradict(run_bundle: RunHelper) -> None:
    pdf = text_pdf_bytes("Patient Name: Ann Lee\nHome Phone: +1 (608) 555-0143\n"
                         "Cell Phone: +1 (608) 555-0188")
    folder = run_bundle(docs=[UploadedFile("a.pdf", pdf)],
                        schema={"fields": [{"key": "phone"}]})
    phone = folder.read_artifact("final").fields["phone"]
    assert phone.status == "needs_review"
    assert any(r.startswith("contradiction") for r in phone.rationale)


def test_whitespace_only_text_layer_is_no_text_layer(run_bundle: RunHelper) -> None:
    pdf = pymupdf.open()
    pdf.new_page().insert_text((72, 72), "      ", fontname="helv")
    folder = run_bundle(docs=[UploadedFile("blank.pdf", pdf.tobytes())])
    (item,) = folder.read_artifact("doc_index")
    assert item.unreadable_reason == "no_text_layer" and item.has_text_layer is False
    event = next(e for e in folder.read_trace() if e.step == "extract_text")
    assert "warn:no_text_layer:doc_001" in event.notes
    assert all(f.status == "missing" for f in folder.read_artifact("final").fields.values())


class TestCues:
    @pytest.mark.parametrize("text", ["____", "Last, First, MI", "(___) ___-____",
                                      "___/___/____", "MM/DD/YYYY", "Street City State ZIP"])
    def test_placeholders(self, text: str) -> None:
        assert is_placeholder(text)

    @pytest.mark.parametrize("text", ["Maria Gonzalez", "none known", "1822 Oak St", "NKDA"])
    def test_values(self, text: str) -> None:
        assert not is_placeholder(text) and not is_instruction(text)

    def test_instructions_options_headings(self) -> None:
        assert is_instruction("Please list ALL current medications, vitamins, and supplements")
        assert is_instruction("(check all that apply)")
        assert has_checkboxes("☐ Yes ☐ No") and has_checkboxes("Yes / No")
        assert marked_options("☒ Penicillin ☐ Latex [x] Yes") == ["Penicillin"]
        assert is_heading("EMERGENCY CONTACT") and is_heading("Insurance information")
        assert not is_heading("Name: Ann Lee") and not is_heading("Dear colleague,")
