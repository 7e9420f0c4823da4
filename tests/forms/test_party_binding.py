"""A value is auto-filled only when it is bound to the subject (issue #25, second pass).

The documents here name several parties (patient, physician, emergency contact, lab,
insurer, pharmacy, a responsible party) in layouts where the nearest label of a value names
no one: two-column headers, blocks under another party's name line, blocks with no patient
label at all, examples printed in the answer area, and target forms whose bare widgets follow
another party's widgets. Each test builds its document itself; all names and numbers are
invented.
"""

from __future__ import annotations

import pymupdf
import pytest

from repro_assets.forms.heuristics import UNBOUND, scan_field
from repro_assets.forms.models import LayoutDoc, LayoutPageText
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes

from .conftest import RunHelper


def two_column_pdf(rows: list[tuple[str, str]], heading: str) -> bytes:
    """A header printed in two columns: the subject's labels left, another party's right."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), heading, fontsize=12, fontname="helv")
    y = 90.0
    for left, right in rows:
        page.insert_text((54, y), left, fontsize=9.5, fontname="helv")
        page.insert_text((330, y), right, fontsize=9.5, fontname="helv")
        y += 16
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def final_of(run_bundle: RunHelper, *docs: bytes) -> dict[str, tuple[str, str | None]]:
    folder = run_bundle(docs=[UploadedFile(f"d{n}.pdf", data) for n, data in enumerate(docs)])
    return {k: (v.status, v.normalized_value)
            for k, v in folder.read_artifact("final").fields.items()}


def flags_of(field: str, text: str) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    doc = LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])
    return [(h.raw_value, h.rejected, h.flags)
            for h in scan_field(field, [doc], include_rejected=True)]


def test_two_column_header_the_right_column_is_the_physicians(run_bundle: RunHelper) -> None:
    """The physician's phone and address stand on the rows of the patient's birth date and
    street: nothing but the patient's own name is certain."""
    pdf = two_column_pdf([
        ("Patient Name: Wren Halloway", "Physician: Dr. Odile Varga"),
        ("Date of Birth: 03/14/1969", "Phone: (541) 201-3344"),
        ("Address: 9 Larch Court", "Address: 400 Clinic Way"),
        ("Fernhill, OR 97001", "Fernhill, OR 97002"),
    ], "VISIT SUMMARY")
    got = final_of(run_bundle, pdf)
    assert got["full_name"] == ("filled", "Wren Halloway")
    for key in ("phone", "address", "dob"):
        assert got[key][0] != "filled", (key, got[key])


@pytest.mark.parametrize("block", [
    "Preferred Pharmacy: Fernhill Drug\nPhone: +1 (541) 201-5555\n",
    "Insurance Company: Pinecrest Health\nPhone: +1 (541) 300-1000\n"
    "Address: 1 Insurer Plaza, Portland, OR 97201\n",
    "Referring Physician: Dr. Odile Varga\nPhone: +1 (541) 201-3344\n",
])
def test_lines_under_another_partys_name_line_are_not_the_subjects(
        run_bundle: RunHelper, block: str) -> None:
    """'Preferred Pharmacy: X' with its value on the line opens that party's block: the bare
    'Phone:' below it is not auto-filled as the patient's."""
    text = "Patient Name: Wren Halloway\nDate of Birth: 03/14/1969\n" + block
    got = final_of(run_bundle, text_pdf_bytes(text))
    assert got["full_name"] == ("filled", "Wren Halloway")
    assert got["dob"] == ("filled", "1969-03-14")
    assert got["phone"][0] != "filled"
    assert got["address"][0] != "filled"


@pytest.mark.parametrize("text", [
    "Responsible Party\nName: Basil Halloway\nPhone: (541) 201-9988\nDOB: 02/02/1965\n"
    "Physician: Dr. Odile Varga\n",
    "Spouse\nName: Basil Halloway\nPhone: (541) 201-9988\nDOB: 02/02/1965\n"
    "Employer: Fernhill Mills\n",
])
def test_a_block_with_no_subject_label_on_a_page_of_several_parties(
        run_bundle: RunHelper, text: str) -> None:
    """No label or heading says these are the patient's: offered for review, never filled."""
    got = final_of(run_bundle, text_pdf_bytes(text))
    for key in ("full_name", "phone", "dob"):
        assert got[key][0] != "filled", (key, got[key])
    assert all(UNBOUND in f for _, r, f in flags_of("phone", text) if not r)


def test_a_value_stays_filled_when_another_document_binds_it(run_bundle: RunHelper) -> None:
    """A card with no patient heading agrees with a letter that labels the patient."""
    card = ("CROSSLAKE HEALTH PLAN\nMember Name: Wren Halloway\nGroup Number: 55120\n"
            "Member Services: 1-800-555-0100\nDate of Birth: 03/14/1969\n")
    letter = "Patient Name: Wren Halloway\nDOB: 03/14/1969\n"
    got = final_of(run_bundle, text_pdf_bytes(card), text_pdf_bytes(letter))
    assert got["dob"] == ("filled", "1969-03-14")


@pytest.mark.parametrize(("field", "text", "value"), [
    ("phone", "Phone: e.g. (541) 123-4567", "(541) 123-4567"),
    ("dob", "Date of Birth: MM/DD/YYYY  Example: 01/31/1980", "01/31/1980"),
    ("dob", "Birth date (for example 12/31/1990): ________", "12/31/1990"),
    ("insurance_member_id", "Member ID: e.g. ABC123456", "ABC123456"),
])
def test_examples_in_the_answer_area_are_rejected(field: str, text: str, value: str) -> None:
    found = flags_of(field, text)  # rejected as an example, or not read as the field's value
    assert all(rejected == ("blank_form:example",) for _, rejected, _ in found)
    assert found in ([], [(value, ("blank_form:example",), ())])


@pytest.mark.parametrize("other", ["Emergency Contact Name", "Physician Name"])
def test_a_bare_widget_after_another_partys_widget_is_reviewed(run_bundle: RunHelper,
                                                               other: str) -> None:
    """'Emergency Contact Name' or 'Physician Name', then a bare 'Phone' widget: the phone
    may be that party's."""
    from repro_assets.forms.fill import read_back

    from .documents import FieldShape, fillable_form

    form = fillable_form([FieldShape("Patient Name"), FieldShape("Date of Birth"),
                          FieldShape(other), FieldShape("Phone")])
    text = "Patient Name: Wren Halloway\nDate of Birth: 03/14/1969\nPhone: +1 (541) 201-7701"
    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes(text))],
                        targets=[UploadedFile("form.pdf", form)])
    assert read_back(folder.read_binary("filled.pdf")) == {
        "Patient Name": "Wren Halloway", "Date of Birth": "03/14/1969"}
    reasons = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
    # right under that party's box: its column's (or, failing that, left for review)
    assert reasons["Phone"] in ("party_uncertain:after_another_partys_widget",
                                "other_party:emergency_contact", "other_party:doctor")


@pytest.mark.parametrize("line", [
    "DOB/Age: 56 Y   Collected: 05/02/2025",
    "Date of Birth:            Date: 05/03/2025",
    "DOB: ________   Visit Date: 05/03/2025",
])
def test_a_birth_date_label_takes_no_date_of_the_next_label(line: str) -> None:
    """A report whose only date is a collection, visit or report date gives no birth date."""
    assert flags_of("dob", f"Patient Name: Wren Halloway\n{line}") == []
    assert [v for v, _, _ in flags_of("dob", f"DOB: 03/14/1969   {line}")] == ["03/14/1969"]


@pytest.mark.parametrize(("text", "value"), [
    ("Patient Address: 9 Larch Court     Physician Address: 400 Clinic Way\n"
     "Fernhill, OR 97001     Fernhill, OR 97002", "9 Larch Court\nFernhill, OR 97001"),
    ("Patient Address: 9 Larch Court     Physician: Dr. Odile Varga   Phone: (541) 201-3344\n"
     "Fernhill, OR 97001     Fernhill, OR 97002", "9 Larch Court"),
])
def test_an_address_continues_only_in_its_own_column(text: str, value: str) -> None:
    """The city line of a two-column header holds both parties' cities."""
    assert [(v, r) for v, r, _ in flags_of("address", text)] == [(value, ())]


def test_a_phone_under_a_label_shared_with_a_fax_is_reviewed(run_bundle: RunHelper) -> None:
    text = "Patient Name: Wren Halloway\nPhone/Fax: +1 (541) 201-4000\n"
    assert final_of(run_bundle, text_pdf_bytes(text))["phone"][0] == "needs_review"


def test_a_name_under_a_staff_line_is_not_the_subjects(run_bundle: RunHelper) -> None:
    """'Reviewed by:' opens the block of whoever signed: the bare 'Name:' below is theirs."""
    text = ("Patient Name: Wren Halloway\nDate of Birth: 03/14/1969\n"
            "Reviewed by:\nName: Odile Varga\nPhone: +1 (541) 201-4000\n")
    got = final_of(run_bundle, text_pdf_bytes(text))
    assert got["full_name"] == ("needs_review", "Wren Halloway")  # two names: reviewed
    assert got["phone"][0] != "filled"


@pytest.mark.parametrize("label", ["Phone (patient or guardian)",
                                   "Phone (if different from the patient)"])
def test_a_widget_whose_hint_names_another_party_is_reviewed(run_bundle: RunHelper,
                                                              label: str) -> None:
    from repro_assets.forms.fill import read_back

    from .documents import FieldShape, fillable_form

    form = fillable_form([FieldShape("Patient Name"), FieldShape("Phone", label=label)])
    text = "Patient Name: Wren Halloway\nPhone: +1 (541) 201-7701"
    folder = run_bundle(docs=[UploadedFile("a.pdf", text_pdf_bytes(text))],
                        targets=[UploadedFile("form.pdf", form)])
    assert read_back(folder.read_binary("filled.pdf")) == {"Patient Name": "Wren Halloway"}
    reasons = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
    assert reasons["Phone"] in ("party_uncertain:hint_names_another_party",
                                "other_party:family")
